/* SPDX-License-Identifier: MIT */
/*
 * pd_record.h - decoded perf.data records.
 *
 * A struct pd_record is filled by the reader for every record of the data
 * stream.  All values are in host byte order.  Pointers (strings, arrays,
 * raw bytes) point into buffers owned by the reader and stay valid only
 * until the next call that reads a record: copy what you keep.  Strings are
 * always NUL-terminated (the decoder checked the terminator is inside the
 * record before pointing at them).
 */
#ifndef PERFDATA_PD_RECORD_H
#define PERFDATA_PD_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/pd_attr.h"
#include "perfdata/pd_consts.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Identification fields of a sample or of a sample_id trailer. */
struct pd_sample_id {
	uint64_t present;	/* PD_SAMPLE_{TID,TIME,ID,STREAM_ID,CPU,IDENTIFIER} found */
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;		/* from IDENTIFIER, else ID */
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
};

struct pd_read_value {
	uint64_t value;
	uint64_t id;		/* if PD_FORMAT_ID */
	uint64_t lost;		/* if PD_FORMAT_LOST */
};

/* read_format values, the payload of READ records and of PERF_SAMPLE_READ. */
struct pd_read {
	uint64_t format;	/* attr.read_format used to decode */
	uint64_t nr;		/* number of values (1 unless PD_FORMAT_GROUP) */
	uint64_t time_enabled;	/* if PD_FORMAT_TOTAL_TIME_ENABLED */
	uint64_t time_running;	/* if PD_FORMAT_TOTAL_TIME_RUNNING */
	const struct pd_read_value *values;
};

/*
 * One branch stack entry.  `flags` uses the little-endian bit numbering of
 * the UAPI whatever the file's byte order (big-endian files are remapped).
 */
struct pd_branch_entry {
	uint64_t from;
	uint64_t to;
	uint64_t flags;
};

#define PD_BR_MISPRED(f)	((unsigned int)((f) & 1))
#define PD_BR_PREDICTED(f)	((unsigned int)(((f) >> 1) & 1))
#define PD_BR_IN_TX(f)		((unsigned int)(((f) >> 2) & 1))
#define PD_BR_ABORT(f)		((unsigned int)(((f) >> 3) & 1))
#define PD_BR_CYCLES(f)		((unsigned int)(((f) >> 4) & 0xffff))
#define PD_BR_TYPE(f)		((unsigned int)(((f) >> 20) & 0xf))
#define PD_BR_SPEC(f)		((unsigned int)(((f) >> 24) & 0x3))
#define PD_BR_NEW_TYPE(f)	((unsigned int)(((f) >> 26) & 0xf))
#define PD_BR_PRIV(f)		((unsigned int)(((f) >> 30) & 0x7))

struct pd_regs {
	uint64_t abi;		/* 0 none, 1 32-bit, 2 64-bit */
	uint64_t mask;		/* attr.sample_regs_user / _intr */
	uint32_t nr;		/* registers present (popcount(mask) when abi != 0) */
	const uint64_t *regs;	/* in ascending bit order of mask */
};

/* PERF_RECORD_SAMPLE: a field is valid when its bit is in sample_type. */
struct pd_sample {
	uint64_t sample_type;
	uint64_t identifier;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;	/* attr.sample_period when PERIOD is not sampled */
	struct pd_read read;
	uint64_t callchain_nr;
	const uint64_t *callchain;
	uint32_t raw_size;
	const uint8_t *raw_data;
	uint64_t branch_nr;
	bool branch_has_hw_idx;
	uint64_t branch_hw_idx;
	const struct pd_branch_entry *branches;
	const uint64_t *branch_counters;	/* NULL unless PD_BRANCH_COUNTERS */
	struct pd_regs regs_user;
	uint64_t stack_size;
	const uint8_t *stack_data;	/* raw memory, never swapped */
	uint64_t stack_dyn_size;
	uint64_t weight;		/* WEIGHT, or WEIGHT_STRUCT as a u64 value */
	uint64_t data_src;
	uint64_t transaction;
	struct pd_regs regs_intr;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	uint64_t aux_size;
	const uint8_t *aux_data;
};

/* WEIGHT_STRUCT views of pd_sample.weight */
#define PD_WEIGHT_VAR1(w)	((uint32_t)((w) & 0xffffffff))
#define PD_WEIGHT_VAR2(w)	((uint16_t)(((w) >> 32) & 0xffff))
#define PD_WEIGHT_VAR3(w)	((uint16_t)((w) >> 48))

struct pd_rec_mmap {		/* MMAP and MMAP2 */
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	/* MMAP2 only: */
	bool has_build_id;	/* misc & PD_MISC_MMAP_BUILD_ID */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint8_t build_id_size;
	uint8_t build_id[20];
	uint32_t prot, flags;
	const char *filename;
};

struct pd_rec_lost {
	uint64_t id, lost;
};

struct pd_rec_comm {
	uint32_t pid, tid;
	const char *comm;
};

struct pd_rec_fork {		/* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct pd_rec_throttle {	/* THROTTLE and UNTHROTTLE */
	uint64_t time, id, stream_id;
};

struct pd_rec_read {
	uint32_t pid, tid;
	struct pd_read values;
};

struct pd_rec_aux {
	uint64_t aux_offset, aux_size, flags;
};

struct pd_rec_itrace_start {
	uint32_t pid, tid;
};

struct pd_rec_lost_samples {
	uint64_t lost;
};

struct pd_rec_switch {		/* SWITCH (no payload) and SWITCH_CPU_WIDE */
	uint32_t next_prev_pid, next_prev_tid;
};

struct pd_ns_link {
	uint64_t dev, ino;
};

struct pd_rec_namespaces {
	uint32_t pid, tid;
	uint64_t nr;
	const struct pd_ns_link *links;
};

struct pd_rec_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	const char *name;
};

struct pd_rec_bpf_event {
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

struct pd_rec_cgroup {
	uint64_t id;
	const char *path;
};

struct pd_rec_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *old_bytes, *new_bytes;
};

struct pd_rec_aux_output_hw_id {
	uint64_t hw_id;
};

struct pd_rec_callchain_deferred {
	uint64_t cookie, nr;
	const uint64_t *ips;
};

struct pd_rec_header_attr {
	struct pd_attr attr;
	uint32_t attr_size;	/* bytes of attr in the record */
	uint64_t nr_ids;
	const uint64_t *ids;
};

struct pd_rec_event_type {
	uint64_t event_id;
	const char *name;
};

/* HEADER_TRACING_DATA (66) and simpleperf TRACING_DATA (32777) */
struct pd_rec_tracing_data {
	uint32_t size;		/* bytes of tracing data */
	bool inline_data;	/* simpleperf: data inside the record */
	const uint8_t *data;	/* NULL when not held (see pd_record.extra) */
};

struct pd_rec_build_id {	/* HEADER_BUILD_ID */
	uint16_t cpumode;	/* misc & 7 */
	int32_t pid;
	uint8_t build_id_size;
	uint8_t build_id[20];
	const char *filename;
};

struct pd_id_index_entry {
	uint64_t id, idx, cpu, tid;
	uint64_t machine_pid, vcpu;	/* if has_vcpu */
};

struct pd_rec_id_index {
	uint64_t nr;
	bool has_vcpu;
	const struct pd_id_index_entry *entries;
};

struct pd_rec_auxtrace_info {
	uint32_t type, reserved;
	uint64_t nr_priv;
	const uint64_t *priv;
};

struct pd_rec_auxtrace {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu, reserved;
};

struct pd_rec_auxtrace_error {
	uint32_t type, code, cpu, pid, tid, fmt;
	uint64_t ip, time;
	const char *msg;
	uint32_t machine_pid, vcpu;
};

struct pd_thread_map_entry {
	uint64_t pid;
	char comm[17];
};

struct pd_rec_thread_map {
	uint64_t nr;
	const struct pd_thread_map_entry *entries;
};

/* perf_record_cpu_map_data, decoded to a CPU list */
struct pd_cpu_map {
	uint16_t encoding;	/* 0 CPUS, 1 MASK, 2 RANGE_CPUS */
	uint16_t long_size;	/* MASK only */
	bool any_cpu;		/* the map contains -1 */
	uint32_t nr;		/* number of CPUs listed */
	const uint32_t *cpus;	/* ascending for MASK/RANGE, as stored for CPUS */
};

struct pd_rec_cpu_map {
	struct pd_cpu_map map;
};

struct pd_stat_config_entry {
	uint64_t tag, val;
};

struct pd_rec_stat_config {
	uint64_t nr;
	const struct pd_stat_config_entry *entries;
};

struct pd_rec_stat {
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
};

struct pd_rec_stat_round {
	uint64_t type, time;
};

struct pd_rec_event_update {
	uint64_t type;		/* 0 UNIT, 1 SCALE, 2 NAME, 3 CPUS */
	uint64_t id;
	const char *str;	/* UNIT, NAME */
	double scale;		/* SCALE */
	struct pd_cpu_map cpus;	/* CPUS */
};

struct pd_rec_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask;	/* if size >= 56 */
	uint8_t cap_user_time_zero, cap_user_time_short;
	bool extended;				/* the 56-byte layout */
};

struct pd_rec_header_feature {
	uint64_t feat_id;
	const uint8_t *payload;
	size_t len;
	bool end_marker;	/* no payload: end of the feature list */
};

struct pd_rec_compressed {	/* COMPRESSED and COMPRESSED2 */
	uint64_t data_size;
	const uint8_t *data;
};

struct pd_bpf_metadata_entry {
	const char *key, *value;
};

struct pd_rec_bpf_metadata {
	const char *prog_name;
	uint64_t nr;
	const struct pd_bpf_metadata_entry *entries;
};

/* SCHEDSTAT_CPU and SCHEDSTAT_DOMAIN: counters by name in version order. */
struct pd_schedstat_counter {
	const char *name;
	uint64_t value;
};

struct pd_rec_schedstat {
	uint64_t timestamp;
	uint32_t cpu;
	uint16_t version;
	uint16_t domain;	/* SCHEDSTAT_DOMAIN only */
	uint32_t nr;		/* counters decoded (0 for an unknown version) */
	const struct pd_schedstat_counter *counters;
	const uint8_t *counter_bytes;	/* raw counter area */
	size_t counter_len;
};

/* simpleperf records */
struct pd_rec_sp_kernel_symbol {
	uint32_t kallsyms_size;
	const char *kallsyms;	/* not necessarily NUL-terminated: use kallsyms_size */
};

struct pd_rec_sp_dso {
	uint64_t dso_type, dso_id, min_vaddr;
	const char *name;
};

struct pd_rec_sp_symbol {
	uint64_t addr, len, dso_id;
	const char *name;
};

struct pd_sp_event_id_entry {
	uint64_t attr_index, event_id;
};

struct pd_rec_sp_event_id {
	uint64_t nr;
	const struct pd_sp_event_id_entry *entries;
};

struct pd_rec_sp_callchain {
	uint32_t pid, tid;
	uint64_t chain_type, time, nr;
	const uint64_t *ips, *sps;
};

struct pd_rec_sp_unwinding_result {
	uint64_t time, used_time, error_code, error_addr;
	uint64_t stack_start, stack_end;
	uint64_t regs_abi, reg_mask;
	uint32_t nr_regs;
	const uint64_t *regs;
	uint64_t stack_size;
	const uint8_t *stack;
	uint64_t dyn_size;
	bool has_callchain;
	uint64_t callchain_nr;
	const uint64_t *ips, *sps;
};

struct pd_rec_sp_debug {
	uint64_t time;
	const char *s;
};

struct pd_record {
	uint32_t type;
	uint16_t misc;
	uint32_t size;		/* header.size (simpleperf records: 32-bit size) */
	uint64_t offset;	/* stream offset of the record, or of its COMPRESSED container */
	uint64_t index;		/* ordinal of the record in its stream, inner records included */
	bool from_compressed;	/* came out of a COMPRESSED/COMPRESSED2 record */
	uint32_t inner_offset;	/* offset in the decompressed data when from_compressed */
	bool swapped;		/* raw bytes are in the opposite byte order */
	const uint8_t *raw;	/* the record bytes as stored (header included) */
	size_t raw_len;

	/* The event (attr) the record belongs to, NULL when it cannot be found. */
	const struct pd_event *event;
	int event_index;	/* -1 when event is NULL */

	/* sample id fields: of the sample, or of the sample_id trailer */
	struct pd_sample_id sid;
	bool has_trailer;	/* non-sample record with a sample_id trailer */

	/* false when the record could not be decoded (a diagnostic says why) */
	bool decoded;

	/* Only the fixed slots of a sample were decoded (sample_fixed_only). */
	bool partial;
	/* Internal to the reader: decoding postponed (never set on delivery). */
	bool deferred;

	/* Directory mode: the stream the record came from (0 = "data"). */
	uint32_t stream_index;
	const char *stream;	/* "data", "data.3"; NULL outside directory mode */

	/*
	 * Bytes that follow the record outside header.size: AUX data after
	 * AUXTRACE, the tracing-data blob after HEADER_TRACING_DATA.
	 * extra points to them when the reader holds them in memory (tracing
	 * data always; AUX data up to the reader's window limit), else NULL.
	 */
	uint64_t extra_len;
	uint64_t extra_offset;
	const uint8_t *extra;

	union {
		struct pd_sample sample;
		struct pd_rec_mmap mmap;
		struct pd_rec_lost lost;
		struct pd_rec_comm comm;
		struct pd_rec_fork fork;
		struct pd_rec_throttle throttle;
		struct pd_rec_read read;
		struct pd_rec_aux aux;
		struct pd_rec_itrace_start itrace_start;
		struct pd_rec_lost_samples lost_samples;
		struct pd_rec_switch sw;
		struct pd_rec_namespaces namespaces;
		struct pd_rec_ksymbol ksymbol;
		struct pd_rec_bpf_event bpf_event;
		struct pd_rec_cgroup cgroup;
		struct pd_rec_text_poke text_poke;
		struct pd_rec_aux_output_hw_id aux_output_hw_id;
		struct pd_rec_callchain_deferred callchain_deferred;
		struct pd_rec_header_attr header_attr;
		struct pd_rec_event_type event_type;
		struct pd_rec_tracing_data tracing_data;
		struct pd_rec_build_id build_id;
		struct pd_rec_id_index id_index;
		struct pd_rec_auxtrace_info auxtrace_info;
		struct pd_rec_auxtrace auxtrace;
		struct pd_rec_auxtrace_error auxtrace_error;
		struct pd_rec_thread_map thread_map;
		struct pd_rec_cpu_map cpu_map;
		struct pd_rec_stat_config stat_config;
		struct pd_rec_stat stat;
		struct pd_rec_stat_round stat_round;
		struct pd_rec_event_update event_update;
		struct pd_rec_time_conv time_conv;
		struct pd_rec_header_feature header_feature;
		struct pd_rec_compressed compressed;
		struct pd_rec_bpf_metadata bpf_metadata;
		struct pd_rec_schedstat schedstat;
		struct pd_rec_sp_kernel_symbol sp_kernel_symbol;
		struct pd_rec_sp_dso sp_dso;
		struct pd_rec_sp_symbol sp_symbol;
		struct pd_rec_sp_event_id sp_event_id;
		struct pd_rec_sp_callchain sp_callchain;
		struct pd_rec_sp_unwinding_result sp_unwinding_result;
		struct pd_rec_tracing_data sp_tracing_data;
		struct pd_rec_sp_debug sp_debug;
	} u;
};

/*
 * The 8 bytes every record starts with (perf_event_header), for a tool
 * that looks at a file's bytes itself, such as a check of what lies past
 * the data section (pd_reader_read_at()).  The reader fills the same
 * values into struct pd_record.
 */
struct pd_record_header {
	uint32_t type;
	uint16_t misc;		/* 0 for simpleperf's own types */
	uint32_t size;		/* simpleperf's own types: misc and size as one 32-bit size */
};

/*
 * The header at bytes (8 of them), stored in the byte order of a file
 * with pd_header.swapped as `swapped`.  Nothing is checked: a size below
 * 8 or past the bytes at hand is the caller's to refuse.
 */
struct pd_record_header pd_record_header_decode(const void *bytes, bool swapped);

/*
 * Would the bytes of this SAMPLE record decode field for field, to their
 * last byte and without a complaint, under attr instead of the record's
 * own event?  For a validator looking for the sample_type or read_format
 * that a damaged file's samples were really written with.  Allocates
 * (and frees) a decoding arena of at least 320 KiB on every call: one
 * that tries many layouts wants pd_reader_sample_fits_attr(), which keeps
 * one arena in the reader.
 */
bool pd_sample_fits_attr(const struct pd_record *rec, const struct pd_attr *attr);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_PD_RECORD_H */
