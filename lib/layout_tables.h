/* SPDX-License-Identifier: MIT */
/*
 * layout_tables.h - the fixed fields of every record type (layout.h), as
 * docs/perf-data-format.md §6.3 to §6.5 lays them out (not installed).
 *
 * Each table lists the fields in file order, without gaps: padding is a
 * field too (tests/lib/test_record.c checks both).  A record type whose whole
 * payload is data-dependent (SAMPLE, HEADER_ATTR, CPU_MAP, COMPRESSED,
 * SPLIT) has no fixed field after the header.
 *
 * Included by layout.c, whose pd_record_layout() gives them to every
 * user, and by record.c alone besides: its decoder reads the fields of
 * the most frequent types (MMAP2, COMM, FORK, EXIT) with their layout a
 * constant, so that the compiler unrolls the loop over them and reads
 * the table at build time, and takes where every type's data-dependent
 * part starts from the end of its fields here, a constant too.  The same
 * tables, one description.
 */
#ifndef PD_LIB_LAYOUT_TABLES_H
#define PD_LIB_LAYOUT_TABLES_H

#include <stddef.h>

#include "perfdata/pd_record.h"
#include "layout.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define MEMBER(m)	offsetof(struct pd_record, u.m)
#define MSIZE(m)	sizeof(((struct pd_record *)0)->u.m)

/* a field decoded to u.m */
#define FIELD(name, off, size, kind, m) \
	{ name, off, size, PD_FK_##kind, MSIZE(m), MEMBER(m) }
#define U16(name, off, m)	FIELD(name, off, 2, U, m)
#define U32(name, off, m)	FIELD(name, off, 4, U, m)
#define U64(name, off, m)	FIELD(name, off, 8, U, m)
#define X16(name, off, m)	FIELD(name, off, 2, X, m)
#define X32(name, off, m)	FIELD(name, off, 4, X, m)
#define X64(name, off, m)	FIELD(name, off, 8, X, m)
#define PID(name, off, m)	FIELD(name, off, 4, PID, m)
#define RESERVED32(off, m)	FIELD(NULL, off, 4, RESERVED, m)
#define BYTES(name, off, size, m) FIELD(name, off, size, BYTES, m)
#define STR(name, off, size, m)	FIELD(name, off, size, STR, m)
#define PAD(off, size)		{ NULL, off, size, PD_FK_PAD, 0, 0 }

#define FIELDS(f)	.fields = f, .nr_fields = ARRAY_SIZE(f)
#define STRING(name, m)	.str_name = name, .str_member = MEMBER(m)
#define MISC(name, bit)	.misc_name = name, .misc_bit = bit

#define REST(r)		.rest = PD_REST_##r
#define UNION(m)	.u_size = MSIZE(m)
#define KERNEL(t)	[PD_REC_##t]
#define USER(t)		[PD_REC_##t - PD_REC_HEADER_ATTR]
#define SP(t)		[PD_REC_SP_##t - PD_REC_SP_START]

/* ---- kernel records (§6.3) ---- */

static const struct pd_field mmap_f[] = {
	PID("pid", 8, mmap.pid), PID("tid", 12, mmap.tid),
	X64("start", 16, mmap.start), X64("len", 24, mmap.len), X64("pgoff", 32, mmap.pgoff),
};

/* With misc bit 14, PD_MMAP2_BUILD_ID_START..END hold a build id instead of maj..ino_generation. */
static const struct pd_field mmap2_f[] = {
	PID("pid", 8, mmap.pid), PID("tid", 12, mmap.tid),
	X64("start", 16, mmap.start), X64("len", 24, mmap.len), X64("pgoff", 32, mmap.pgoff),
	U32("maj", 40, mmap.maj), U32("min", 44, mmap.min),
	U64("ino", 48, mmap.ino), U64("ino_generation", 56, mmap.ino_generation),
	X32("prot", 64, mmap.prot), X32("flags", 68, mmap.flags),
};

static const struct pd_field lost_f[] = {
	U64("id", 8, lost.id), U64("lost", 16, lost.lost),
};

static const struct pd_field comm_f[] = {
	PID("pid", 8, comm.pid), PID("tid", 12, comm.tid),
};

static const struct pd_field fork_f[] = {
	PID("pid", 8, fork.pid), PID("ppid", 12, fork.ppid),
	PID("tid", 16, fork.tid), PID("ptid", 20, fork.ptid),
	U64("time", 24, fork.time),
};

static const struct pd_field throttle_f[] = {
	U64("time", 8, throttle.time), U64("id", 16, throttle.id),
	U64("stream_id", 24, throttle.stream_id),
};

static const struct pd_field read_f[] = {
	PID("pid", 8, read.pid), PID("tid", 12, read.tid),
};

static const struct pd_field aux_f[] = {
	X64("aux_offset", 8, aux.aux_offset), U64("aux_size", 16, aux.aux_size),
	X64("flags", 24, aux.flags),
};

static const struct pd_field itrace_start_f[] = {
	PID("pid", 8, itrace_start.pid), PID("tid", 12, itrace_start.tid),
};

static const struct pd_field lost_samples_f[] = {
	U64("lost", 8, lost_samples.lost),
};

static const struct pd_field switch_cpu_wide_f[] = {
	PID("next_prev_pid", 8, sw.next_prev_pid), PID("next_prev_tid", 12, sw.next_prev_tid),
};

static const struct pd_field namespaces_f[] = {
	PID("pid", 8, namespaces.pid), PID("tid", 12, namespaces.tid),
	U64("nr", 16, namespaces.nr),
};

static const struct pd_field ksymbol_f[] = {
	X64("addr", 8, ksymbol.addr), U32("len", 16, ksymbol.len),
	U16("ksym_type", 20, ksymbol.ksym_type), X16("flags", 22, ksymbol.flags),
};

static const struct pd_field bpf_event_f[] = {
	U16("bpf_type", 8, bpf_event.type), X16("flags", 10, bpf_event.flags),
	U32("id", 12, bpf_event.id), BYTES("tag", 16, 8, bpf_event.tag),
};

static const struct pd_field cgroup_f[] = {
	U64("id", 8, cgroup.id),
};

static const struct pd_field text_poke_f[] = {
	X64("addr", 8, text_poke.addr),
	U16("old_len", 16, text_poke.old_len), U16("new_len", 18, text_poke.new_len),
};

static const struct pd_field aux_output_hw_id_f[] = {
	U64("hw_id", 8, aux_output_hw_id.hw_id),
};

static const struct pd_field callchain_deferred_f[] = {
	U64("cookie", 8, callchain_deferred.cookie), U64("nr", 16, callchain_deferred.nr),
};

static const struct pd_layout kernel_layouts[PD_REC_KERNEL_MAX] = {
	KERNEL(MMAP) = { FIELDS(mmap_f), UNION(mmap), REST(STRING), STRING("filename", mmap.filename),
			 MISC("data", PD_MISC_MMAP_DATA) },
	KERNEL(LOST) = { FIELDS(lost_f), UNION(lost), REST(NONE) },
	KERNEL(COMM) = { FIELDS(comm_f), UNION(comm), REST(STRING), STRING("comm", comm.comm),
			 MISC("exec", PD_MISC_COMM_EXEC) },
	KERNEL(EXIT) = { FIELDS(fork_f), UNION(fork), REST(NONE) },
	KERNEL(THROTTLE) = { FIELDS(throttle_f), UNION(throttle), REST(NONE) },
	KERNEL(UNTHROTTLE) = { FIELDS(throttle_f), UNION(throttle), REST(NONE) },
	KERNEL(FORK) = { FIELDS(fork_f), UNION(fork), REST(NONE) },
	/* values as read_format says, at least one */
	KERNEL(READ) = { FIELDS(read_f), REST(SPECIAL), .min = 24 },
	/* every field depends on the event's sample_type (sample.c) */
	KERNEL(SAMPLE) = { REST(SPECIAL) },
	/* with misc bit 14, bytes 40 to 64 are a build id */
	KERNEL(MMAP2) = { FIELDS(mmap2_f), UNION(mmap), REST(SPECIAL),
			  STRING("filename", mmap.filename), MISC("data", PD_MISC_MMAP_DATA) },
	KERNEL(AUX) = { FIELDS(aux_f), UNION(aux), REST(NONE) },
	KERNEL(ITRACE_START) = { FIELDS(itrace_start_f), UNION(itrace_start), REST(NONE) },
	KERNEL(LOST_SAMPLES) = { FIELDS(lost_samples_f), UNION(lost_samples), REST(NONE),
				 MISC("bpf", PD_MISC_LOST_SAMPLES_BPF) },
	KERNEL(SWITCH) = { REST(NONE) },
	KERNEL(SWITCH_CPU_WIDE) = { FIELDS(switch_cpu_wide_f), UNION(sw), REST(NONE) },
	KERNEL(NAMESPACES) = { FIELDS(namespaces_f), REST(SPECIAL) },
	KERNEL(KSYMBOL) = { FIELDS(ksymbol_f), UNION(ksymbol), REST(STRING),
			    STRING("name", ksymbol.name) },
	KERNEL(BPF_EVENT) = { FIELDS(bpf_event_f), UNION(bpf_event), REST(NONE) },
	KERNEL(CGROUP) = { FIELDS(cgroup_f), UNION(cgroup), REST(STRING), STRING("path", cgroup.path) },
	/* the bytes; perf sizes the struct with its padding */
	KERNEL(TEXT_POKE) = { FIELDS(text_poke_f), REST(SPECIAL), .min = 24 },
	KERNEL(AUX_OUTPUT_HW_ID) = { FIELDS(aux_output_hw_id_f), UNION(aux_output_hw_id),
				     REST(NONE) },
	KERNEL(CALLCHAIN_DEFERRED) = { FIELDS(callchain_deferred_f), REST(SPECIAL) },
};

/* ---- records perf writes (§6.4) ---- */

static const struct pd_field event_type_f[] = {
	U64("event_id", 8, event_type.event_id),
};

static const struct pd_field tracing_data_f[] = {
	U32("data_size", 8, tracing_data.size),
};

/* the size byte at PD_BUILD_ID_SIZE_AT (32) counts only with misc bit 15 */
static const struct pd_field build_id_f[] = {
	PID("pid", 8, build_id.pid), BYTES("build_id", 12, 20, build_id.build_id),
	PAD(PD_BUILD_ID_SIZE_AT, 4),
};

static const struct pd_field id_index_f[] = {
	U64("nr", 8, id_index.nr),
};

static const struct pd_field auxtrace_info_f[] = {
	U32("auxtrace_type", 8, auxtrace_info.type), RESERVED32(12, auxtrace_info.reserved),
};

static const struct pd_field auxtrace_f[] = {
	U64("aux_size", 8, auxtrace.size), X64("aux_offset", 16, auxtrace.offset),
	X64("reference", 24, auxtrace.reference), U32("idx", 32, auxtrace.idx),
	PID("tid", 36, auxtrace.tid), PID("cpu", 40, auxtrace.cpu),
	RESERVED32(44, auxtrace.reserved),
};

static const struct pd_field auxtrace_error_f[] = {
	U32("error_type", 8, auxtrace_error.type), U32("code", 12, auxtrace_error.code),
	PID("cpu", 16, auxtrace_error.cpu), PID("pid", 20, auxtrace_error.pid),
	PID("tid", 24, auxtrace_error.tid), U32("fmt", 28, auxtrace_error.fmt),
	X64("ip", 32, auxtrace_error.ip),
};

static const struct pd_field thread_map_f[] = {
	U64("nr", 8, thread_map.nr),
};

static const struct pd_field stat_config_f[] = {
	U64("nr", 8, stat_config.nr),
};

static const struct pd_field stat_f[] = {
	U64("id", 8, stat.id), PID("cpu", 16, stat.cpu), PID("thread", 20, stat.thread),
	U64("val", 24, stat.val), U64("ena", 32, stat.ena), U64("run", 40, stat.run),
};

static const struct pd_field stat_round_f[] = {
	U64("round_type", 8, stat_round.type), U64("time", 16, stat_round.time),
};

static const struct pd_field event_update_f[] = {
	U64("update_type", 8, event_update.type), U64("id", 16, event_update.id),
};

static const struct pd_field time_conv_f[] = {
	U64("time_shift", 8, time_conv.time_shift), U64("time_mult", 16, time_conv.time_mult),
	U64("time_zero", 24, time_conv.time_zero),
};

static const struct pd_field header_feature_f[] = {
	U64("feat_id", 8, header_feature.feat_id),
};

static const struct pd_field compressed2_f[] = {
	U64("data_size", 8, compressed.data_size),
};

static const struct pd_field bpf_metadata_f[] = {
	STR("prog_name", 8, 512, bpf_metadata.prog_name), U64("nr", 520, bpf_metadata.nr),
};

static const struct pd_field schedstat_cpu_f[] = {
	U64("timestamp", 8, schedstat.timestamp), U32("cpu", 16, schedstat.cpu),
	U16("version", 20, schedstat.version), PAD(22, 2),
};

static const struct pd_field schedstat_domain_f[] = {
	U64("timestamp", 8, schedstat.timestamp), U32("cpu", 16, schedstat.cpu),
	U16("version", 20, schedstat.version), U16("domain", 22, schedstat.domain),
};

static const struct pd_layout user_layouts[PD_REC_USER_MAX - PD_REC_HEADER_ATTR] = {
	/* the attr's own size says where its ids start; 72: PERF_ATTR_SIZE_VER0 */
	USER(HEADER_ATTR) = { REST(SPECIAL), .min = 72 },
	/* perf 3.x trimmed the 64-byte name to 8 bytes */
	USER(HEADER_EVENT_TYPE) = { FIELDS(event_type_f), REST(SPECIAL), .min = 24,
				    STRING("name", event_type.name) },
	/* legacy records had no pad; simpleperf's may hold the data */
	USER(HEADER_TRACING_DATA) = { FIELDS(tracing_data_f), REST(SPECIAL) },
	/* the build id's size (misc bit 15), the file name padded to 64 */
	USER(HEADER_BUILD_ID) = { FIELDS(build_id_f), REST(SPECIAL),
				  STRING("filename", build_id.filename) },
	USER(FINISHED_ROUND) = { REST(NONE) },
	USER(ID_INDEX) = { FIELDS(id_index_f), REST(SPECIAL) },
	USER(AUXTRACE_INFO) = { FIELDS(auxtrace_info_f), REST(SPECIAL) },
	/* the AUX data follows the record, outside its size */
	USER(AUXTRACE) = { FIELDS(auxtrace_f), REST(NONE) },
	/* at 40 the time (fmt >= 1) or the message (fmt 0): 8 bytes at least */
	USER(AUXTRACE_ERROR) = { FIELDS(auxtrace_error_f), REST(SPECIAL), .min = 48,
				 STRING("msg", auxtrace_error.msg) },
	USER(THREAD_MAP) = { FIELDS(thread_map_f), REST(SPECIAL) },
	/* the map's encoding and its smallest variant, padded to 8 */
	USER(CPU_MAP) = { REST(SPECIAL), .min = 16 },
	USER(STAT_CONFIG) = { FIELDS(stat_config_f), REST(SPECIAL) },
	USER(STAT) = { FIELDS(stat_f), REST(NONE) },
	USER(STAT_ROUND) = { FIELDS(stat_round_f), REST(NONE) },
	/* a string, a double or a CPU map, by update_type */
	USER(EVENT_UPDATE) = { FIELDS(event_update_f), REST(SPECIAL) },
	/* 32-byte records of old perf, 56 bytes since */
	USER(TIME_CONV) = { FIELDS(time_conv_f), REST(SPECIAL) },
	USER(HEADER_FEATURE) = { FIELDS(header_feature_f), REST(SPECIAL) },
	USER(COMPRESSED) = { REST(SPECIAL) },
	USER(FINISHED_INIT) = { REST(NONE) },
	USER(COMPRESSED2) = { FIELDS(compressed2_f), REST(SPECIAL) },
	USER(BPF_METADATA) = { FIELDS(bpf_metadata_f), REST(SPECIAL) },
	/* counters by version */
	USER(SCHEDSTAT_CPU) = { FIELDS(schedstat_cpu_f), REST(SPECIAL) },
	USER(SCHEDSTAT_DOMAIN) = { FIELDS(schedstat_domain_f), REST(SPECIAL) },
};

/* ---- simpleperf records (§6.5) ---- */

static const struct pd_field sp_kernel_symbol_f[] = {
	U32("kallsyms_size", 8, sp_kernel_symbol.kallsyms_size),
};

static const struct pd_field sp_dso_f[] = {
	U64("dso_type", 8, sp_dso.dso_type), U64("dso_id", 16, sp_dso.dso_id),
	X64("min_vaddr", 24, sp_dso.min_vaddr),
};

static const struct pd_field sp_symbol_f[] = {
	X64("addr", 8, sp_symbol.addr), U64("len", 16, sp_symbol.len),
	U64("dso_id", 24, sp_symbol.dso_id),
};

static const struct pd_field sp_event_id_f[] = {
	U64("nr", 8, sp_event_id.nr),
};

static const struct pd_field sp_callchain_f[] = {
	PID("pid", 8, sp_callchain.pid), PID("tid", 12, sp_callchain.tid),
	U64("chain_type", 16, sp_callchain.chain_type), U64("time", 24, sp_callchain.time),
	U64("nr", 32, sp_callchain.nr),
};

static const struct pd_field sp_unwinding_result_f[] = {
	U64("time", 8, sp_unwinding_result.time),
	U64("used_time", 16, sp_unwinding_result.used_time),
	U64("error_code", 24, sp_unwinding_result.error_code),
	X64("error_addr", 32, sp_unwinding_result.error_addr),
	X64("stack_start", 40, sp_unwinding_result.stack_start),
	X64("stack_end", 48, sp_unwinding_result.stack_end),
	U64("regs_abi", 56, sp_unwinding_result.regs_abi),
	X64("reg_mask", 64, sp_unwinding_result.reg_mask),
};

static const struct pd_field sp_tracing_data_f[] = {
	U32("data_size", 8, sp_tracing_data.size),
};

static const struct pd_field sp_debug_f[] = {
	U64("time", 8, sp_debug.time),
};

static const struct pd_layout sp_layouts[PD_REC_SP_MAX - PD_REC_SP_START] = {
	SP(KERNEL_SYMBOL) = { FIELDS(sp_kernel_symbol_f), REST(SPECIAL) },
	SP(DSO) = { FIELDS(sp_dso_f), REST(STRING), STRING("name", sp_dso.name) },
	SP(SYMBOL) = { FIELDS(sp_symbol_f), REST(STRING), STRING("name", sp_symbol.name) },
	/* a piece of a record too large for one: the reader joins them */
	SP(SPLIT) = { REST(SPECIAL) },
	SP(SPLIT_END) = { REST(NONE) },
	SP(EVENT_ID) = { FIELDS(sp_event_id_f), REST(SPECIAL) },
	SP(CALLCHAIN) = { FIELDS(sp_callchain_f), REST(SPECIAL) },
	/* registers by reg_mask, then stack_size, which is always there */
	SP(UNWINDING_RESULT) = { FIELDS(sp_unwinding_result_f), REST(SPECIAL), .min = 80 },
	SP(TRACING_DATA) = { FIELDS(sp_tracing_data_f), REST(SPECIAL) },
	SP(DEBUG) = { FIELDS(sp_debug_f), REST(STRING), STRING("s", sp_debug.s) },
};

/* The layout of a record type, NULL for types the format does not define. */
static inline const struct pd_layout *pd_layout_of(uint32_t type)
{
	if (type < PD_REC_KERNEL_MAX)
		return type ? &kernel_layouts[type] : NULL;
	if (type >= PD_REC_HEADER_ATTR && type < PD_REC_USER_MAX)
		return &user_layouts[type - PD_REC_HEADER_ATTR];
	if (type > PD_REC_SP_START && type < PD_REC_SP_MAX)
		return &sp_layouts[type - PD_REC_SP_START];
	return NULL;
}

/* A known type's layout, for a constant type (record.c). */
#define PD_KERNEL_LAYOUT(t)	(&kernel_layouts[PD_REC_##t])

#undef ARRAY_SIZE
#undef MEMBER
#undef MSIZE
#undef FIELD
#undef U16
#undef U32
#undef U64
#undef X16
#undef X32
#undef X64
#undef PID
#undef RESERVED32
#undef BYTES
#undef STR
#undef PAD
#undef FIELDS
#undef STRING
#undef MISC
#undef REST
#undef UNION
#undef KERNEL
#undef USER
#undef SP

#endif /* PD_LIB_LAYOUT_TABLES_H */
