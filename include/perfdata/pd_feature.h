/* SPDX-License-Identifier: MIT */
/*
 * pd_feature.h - header features (perf.data feature sections and pipe-mode
 * HEADER_FEATURE records) in decoded, typed form.
 *
 * Everything reachable from a struct pd_features is owned by it and freed
 * by pd_features_free().  Strings are NUL-terminated heap copies; arrays
 * are `nr` + pointer.  Every feature id also keeps a verbatim copy of its
 * payload in raw[id], so unknown features survive and writers can re-emit
 * payloads byte for byte.
 */
#ifndef PERFDATA_PD_FEATURE_H
#define PERFDATA_PD_FEATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/pd_attr.h"
#include "perfdata/pd_consts.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pd_diag_sink;

/* Verbatim payload of one feature id, kept whether or not it decoded. */
struct pd_feat_raw {
	uint8_t *data;		/* heap copy, NULL when len == 0 */
	size_t len;
	uint64_t offset;	/* absolute stream offset of the payload */
	bool present;		/* a payload was seen for this id */
	bool decoded;		/* the typed member below is complete and valid */
};

struct pd_str_list {
	uint32_t nr;
	char **s;
};

/* A (name, value) pair: PMU caps, META_INFO. */
struct pd_kv {
	char *key;
	char *value;
};

struct pd_kv_list {
	uint32_t nr;
	struct pd_kv *kv;
};

struct pd_feat_nrcpus {
	uint32_t avail;		/* highest present cpu + 1 */
	uint32_t online;
};

struct pd_feat_event {
	struct pd_attr attr;
	char *name;
	uint32_t nr_ids;
	uint64_t *ids;
};

struct pd_feat_event_desc {
	uint32_t attr_size;	/* the writer's sizeof(perf_event_attr) */
	uint32_t nr;
	struct pd_feat_event *ev;
};

struct pd_feat_cpu_topology {
	struct pd_str_list core_siblings;	/* per package ("sibling sockets") */
	struct pd_str_list thread_siblings;	/* per core */
	bool has_cpu_ids;			/* part 3 present */
	uint32_t nr_cpus;			/* entries of core_id/socket_id/die_id */
	uint32_t *core_id;
	uint32_t *socket_id;
	bool has_dies;				/* part 4 (and then 5) present */
	struct pd_str_list die_siblings;
	uint32_t *die_id;
	bool nr_cpus_guessed;			/* no NRCPUS: nr_cpus inferred from size */
};

struct pd_feat_numa_node {
	uint32_t node;
	uint64_t mem_total;	/* kB */
	uint64_t mem_free;	/* kB */
	char *cpus;		/* cpu list, "0-7,16-23" */
};

struct pd_feat_numa_topology {
	uint32_t nr;
	struct pd_feat_numa_node *nodes;
};

struct pd_feat_pmu_mapping {
	uint32_t type;
	char *name;
};

struct pd_feat_pmu_mappings {
	uint32_t nr;
	struct pd_feat_pmu_mapping *pmus;
};

struct pd_feat_group {
	char *name;
	uint32_t leader_idx;
	uint32_t nr_members;
};

struct pd_feat_group_desc {
	uint32_t nr;
	struct pd_feat_group *groups;
};

struct pd_feat_auxtrace_entry {
	uint64_t file_offset;	/* of a PERF_RECORD_AUXTRACE record */
	uint64_t size;		/* header.size of that record (48), AUX data not included */
};

struct pd_feat_auxtrace {
	bool simpleperf;	/* no leading count (simpleperf layout) */
	uint64_t nr;
	struct pd_feat_auxtrace_entry *entries;
};

struct pd_feat_cache_level {
	uint32_t level;
	uint32_t line_size;
	uint32_t sets;
	uint32_t ways;
	char *type;
	char *size;
	char *map;
};

struct pd_feat_cache {
	uint32_t version;
	uint32_t nr;
	struct pd_feat_cache_level *levels;
};

struct pd_feat_sample_time {
	uint64_t first;
	uint64_t last;
};

struct pd_feat_mem_node {
	uint64_t node_id;
	uint64_t nbits;		/* memory blocks covered by the bitmap */
	uint64_t *bitmap;	/* ceil(nbits / 64) words, bit i = block i */
};

struct pd_feat_mem_topology {
	uint64_t version;
	uint64_t block_size;
	uint64_t nr;
	struct pd_feat_mem_node *nodes;
};

/*
 * BPF_PROG_INFO entries.  The blobs are host-order kernel structs; they are
 * not copied again: `offset` locates them inside raw[PD_FEAT_BPF_PROG_INFO].
 */
struct pd_feat_bpf_prog {
	uint32_t info_len;
	uint32_t data_len;
	uint64_t arrays;
	size_t offset;		/* payload-relative start of the info bytes */
};

struct pd_feat_bpf_prog_info {
	bool skipped_swapped;	/* byte-swapped file: left as bytes only */
	uint32_t nr;
	struct pd_feat_bpf_prog *progs;
};

struct pd_feat_btf {
	uint32_t id;
	uint32_t data_size;
	size_t offset;		/* payload-relative start of the BTF bytes */
};

struct pd_feat_bpf_btf {
	bool skipped_swapped;
	uint32_t nr;
	struct pd_feat_btf *btfs;
};

struct pd_feat_compressed {
	uint32_t version;
	uint32_t type;		/* 0 none, 1 zstd */
	uint32_t level;
	uint32_t ratio;
	uint32_t mmap_len;
};

struct pd_feat_clock_data {
	uint32_t version;
	uint32_t clockid;
	uint64_t tod_ns;
	uint64_t clockid_ns;
};

struct pd_feat_hybrid_node {
	char *pmu_name;
	char *cpus;
};

struct pd_feat_hybrid_topology {
	uint32_t nr;
	struct pd_feat_hybrid_node *nodes;
};

struct pd_feat_pmu_caps_one {
	char *pmu_name;
	struct pd_kv_list caps;
};

struct pd_feat_pmu_caps {
	uint32_t nr;
	struct pd_feat_pmu_caps_one *pmus;
};

struct pd_feat_sched_domain {
	uint32_t domain;
	char *name;		/* NULL unless schedstat_version >= 17 */
	char *cpumask;
	char *cpulist;
};

struct pd_feat_domain_cpu {
	uint32_t cpu;
	uint32_t nr_domains;
	struct pd_feat_sched_domain *domains;
};

struct pd_feat_cpu_domain_info {
	uint32_t schedstat_version;
	uint32_t max_sched_domains;
	uint32_t nr;		/* per-cpu blocks */
	struct pd_feat_domain_cpu *cpus;
};

struct pd_feat_e_machine {
	uint32_t e_machine;
	uint32_t e_flags;
};

/* CLN_SIZE layout is unverified: bytes stay in raw[], value only if 4 or 8 bytes. */
struct pd_feat_cln_size {
	bool has_value;
	uint64_t value;
};

struct pd_feat_build_id {
	uint16_t misc;		/* cpumode in misc & 7, PD_MISC_BUILD_ID_SIZE */
	int32_t pid;		/* -1 host, guest machine pid otherwise */
	uint8_t id[20];
	uint8_t size;		/* valid bytes of id: the size field if misc bit 15, else 20 */
	char *filename;
	uint64_t offset;	/* absolute offset of the entry */
};

struct pd_feat_build_ids {
	bool legacy;		/* pre-2010 layout without pid */
	bool perf612_padding;	/* entries carried perf 6.12's 36 stray bytes */
	uint32_t nr;
	struct pd_feat_build_id *ids;
};

struct pd_feat_tracing_data {
	uint64_t size;
	bool magic_ok;		/* starts with 17 08 44 "tracing" */
	char *version;		/* "0.6"; NULL if no magic or no NUL */
};

/* simpleperf FILE (v1) and FILE2 entries, as far as decoded. */
struct pd_feat_sp_symbol {
	uint64_t vaddr;
	uint32_t len;
	char *name;
};

struct pd_feat_sp_file {
	char *path;
	uint32_t type;		/* dso type: 0 kernel .. 5 unknown */
	uint64_t min_vaddr;
	uint32_t nr_symbols;
	struct pd_feat_sp_symbol *symbols;
	uint32_t nr_dex_offsets;
	uint64_t *dex_offsets;
	bool has_min_vaddr_offset;
	uint64_t min_vaddr_offset;	/* ELF file_offset_of_min_vaddr / module memory_offset */
	size_t msg_size;		/* FILE2: bytes of the protobuf message */
};

struct pd_feat_sp_files {
	uint32_t nr;
	struct pd_feat_sp_file *files;
};

/* DEBUG_UNWIND: paths and sizes of the files in DEBUG_UNWIND_FILE. */
struct pd_feat_sp_debug_unwind {
	uint32_t nr;
	char **paths;
	uint64_t *sizes;
};

struct pd_features {
	/* one bit per id with a payload; mirror of raw[id].present */
	uint64_t present[PD_FEAT_BITS / 64];
	struct pd_feat_raw raw[PD_FEAT_BITS];

	struct pd_feat_tracing_data tracing_data;
	struct pd_feat_build_ids build_ids;
	char *hostname;
	char *osrelease;
	char *version;
	char *arch;
	struct pd_feat_nrcpus nrcpus;
	char *cpudesc;
	char *cpuid;
	uint64_t total_mem;	/* kB */
	struct pd_str_list cmdline;
	struct pd_feat_event_desc event_desc;
	struct pd_feat_cpu_topology cpu_topology;
	struct pd_feat_numa_topology numa_topology;
	bool branch_stack;
	struct pd_feat_pmu_mappings pmu_mappings;
	struct pd_feat_group_desc group_desc;
	struct pd_feat_auxtrace auxtrace;
	bool stat;
	struct pd_feat_cache cache;
	struct pd_feat_sample_time sample_time;
	struct pd_feat_mem_topology mem_topology;
	uint64_t clockid_res_ns;
	uint64_t dir_format;
	struct pd_feat_bpf_prog_info bpf_prog_info;
	struct pd_feat_bpf_btf bpf_btf;
	struct pd_feat_compressed compressed;
	struct pd_kv_list cpu_pmu_caps;
	struct pd_feat_clock_data clock_data;
	struct pd_feat_hybrid_topology hybrid_topology;
	struct pd_feat_pmu_caps pmu_caps;
	struct pd_feat_cpu_domain_info cpu_domain_info;
	struct pd_feat_e_machine e_machine;
	struct pd_feat_cln_size cln_size;

	/* simpleperf */
	struct pd_feat_sp_files sp_file;		/* FILE (128), v1 */
	struct pd_kv_list sp_meta_info;			/* META_INFO (129), file order */
	struct pd_feat_sp_debug_unwind sp_debug_unwind;	/* DEBUG_UNWIND (130) */
	struct pd_feat_sp_files sp_file2;		/* FILE2 (132) */
	/* DEBUG_UNWIND_FILE (131), ETM_BRANCH_LIST (133), INIT_MAP (134): raw[] only */
};

void pd_features_init(struct pd_features *f);
void pd_features_free(struct pd_features *f);

/*
 * Decode one feature payload: `len` bytes at absolute stream offset
 * `offset`, in the file's byte order (`swap`).  Keeps a raw copy, decodes
 * into the typed member, reports every problem through `sink` at the
 * absolute offset of the offending field, tagged with rec_idx/rec_type
 * (rec_idx -1 outside records).
 *
 * Returns 0 when decoded (warnings and notes may have been emitted), 1 when
 * the id is unknown (bytes kept, no diagnostic), PD_STATUS_MALFORMED when
 * the payload is malformed or unsupported (bytes kept, typed member
 * possibly partial, raw[id].decoded false), PD_STATUS_NOMEM on allocation
 * failure (PD_NO_MEMORY emitted).
 * A partial member holds what was read before the damage: every count is
 * the number of entries its array holds (an array is NULL only with a
 * count of 0), but the last entry may be half filled, its strings NULL.
 * Users must expect a NULL string in any feature that did not decode.
 * BPF_PROG_INFO/BPF_BTF of a byte-swapped file return 0 with decoded false
 * and skipped_swapped set (PD_FEAT_SKIPPED_SWAPPED note).
 * A feature decoded twice replaces the earlier copy.
 *
 * CPU_TOPOLOGY and CPU_DOMAIN_INFO use the NRCPUS already decoded in `f`.
 */
int pd_feature_decode(struct pd_features *f, unsigned int id, const uint8_t *p, size_t len,
		      bool swap, uint64_t offset, int64_t rec_idx, uint32_t rec_type,
		      struct pd_diag_sink *sink);

/* Linux 1..34 and simpleperf 128..134. */
bool pd_feature_is_known(unsigned int id);

static inline bool pd_features_has(const struct pd_features *f, unsigned int id)
{
	return id < PD_FEAT_BITS && (f->present[id / 64] >> (id % 64)) & 1;
}

/* Forget one feature: typed member and raw copy. */
void pd_feature_clear(struct pd_features *f, unsigned int id);

/*
 * Decode one build-id entry (HEADER_BUILD_ID feature entry or the body of a
 * PERF_RECORD_HEADER_BUILD_ID record): `len` bytes, the 8-byte header
 * included, modern layout (pid at 8).  Fills `out` (filename heap copy).
 * Returns 0, PD_STATUS_MALFORMED (diagnosed), or PD_STATUS_NOMEM.
 */
int pd_build_id_entry_decode(const uint8_t *p, size_t len, bool swap, uint64_t offset,
			     int64_t rec_idx, uint32_t rec_type, struct pd_diag_sink *sink,
			     struct pd_feat_build_id *out);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_PD_FEATURE_H */
