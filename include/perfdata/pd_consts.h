/* SPDX-License-Identifier: MIT */
/*
 * pd_consts.h - numeric constants of the perf.data format and their names.
 *
 * The values are facts of the kernel ABI (include/uapi/linux/perf_event.h)
 * and of the perf tool's file format; names are perf's without prefix.
 */
#ifndef PERFDATA_PD_CONSTS_H
#define PERFDATA_PD_CONSTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The one convention for failures in the library: functions return 0 (or
 * a count), or one of these, negative.  Decoders use the same values for
 * a malformed input and for memory running out.
 */
enum pd_status {
	PD_STATUS_MALFORMED = -1,	/* input is malformed beyond recovery (exit 1) */
	PD_STATUS_IO = -2,		/* I/O or system error (exit 3) */
	PD_STATUS_NOMEM = -3,		/* out of memory (exit 3) */
};

/* Record types: kernel (1..22), perf tool (64..86), simpleperf (32768..). */
enum pd_record_type {
	PD_REC_MMAP = 1,
	PD_REC_LOST = 2,
	PD_REC_COMM = 3,
	PD_REC_EXIT = 4,
	PD_REC_THROTTLE = 5,
	PD_REC_UNTHROTTLE = 6,
	PD_REC_FORK = 7,
	PD_REC_READ = 8,
	PD_REC_SAMPLE = 9,
	PD_REC_MMAP2 = 10,
	PD_REC_AUX = 11,
	PD_REC_ITRACE_START = 12,
	PD_REC_LOST_SAMPLES = 13,
	PD_REC_SWITCH = 14,
	PD_REC_SWITCH_CPU_WIDE = 15,
	PD_REC_NAMESPACES = 16,
	PD_REC_KSYMBOL = 17,
	PD_REC_BPF_EVENT = 18,
	PD_REC_CGROUP = 19,
	PD_REC_TEXT_POKE = 20,
	PD_REC_AUX_OUTPUT_HW_ID = 21,
	PD_REC_CALLCHAIN_DEFERRED = 22,
	PD_REC_KERNEL_MAX = 23,

	PD_REC_HEADER_ATTR = 64,
	PD_REC_HEADER_EVENT_TYPE = 65,
	PD_REC_HEADER_TRACING_DATA = 66,
	PD_REC_HEADER_BUILD_ID = 67,
	PD_REC_FINISHED_ROUND = 68,
	PD_REC_ID_INDEX = 69,
	PD_REC_AUXTRACE_INFO = 70,
	PD_REC_AUXTRACE = 71,
	PD_REC_AUXTRACE_ERROR = 72,
	PD_REC_THREAD_MAP = 73,
	PD_REC_CPU_MAP = 74,
	PD_REC_STAT_CONFIG = 75,
	PD_REC_STAT = 76,
	PD_REC_STAT_ROUND = 77,
	PD_REC_EVENT_UPDATE = 78,
	PD_REC_TIME_CONV = 79,
	PD_REC_HEADER_FEATURE = 80,
	PD_REC_COMPRESSED = 81,
	PD_REC_FINISHED_INIT = 82,
	PD_REC_COMPRESSED2 = 83,
	PD_REC_BPF_METADATA = 84,
	PD_REC_SCHEDSTAT_CPU = 85,
	PD_REC_SCHEDSTAT_DOMAIN = 86,
	PD_REC_USER_MAX = 87,

	PD_REC_SP_START = 32768,
	PD_REC_SP_KERNEL_SYMBOL = 32769,
	PD_REC_SP_DSO = 32770,
	PD_REC_SP_SYMBOL = 32771,
	PD_REC_SP_SPLIT = 32772,
	PD_REC_SP_SPLIT_END = 32773,
	PD_REC_SP_EVENT_ID = 32774,
	PD_REC_SP_CALLCHAIN = 32775,
	PD_REC_SP_UNWINDING_RESULT = 32776,
	PD_REC_SP_TRACING_DATA = 32777,
	PD_REC_SP_DEBUG = 32778,
	PD_REC_SP_MAX = 32779,
};

/* Header feature ids (bits of the feature bitmap). */
enum pd_feature_id {
	PD_FEAT_RESERVED = 0,
	PD_FEAT_TRACING_DATA = 1,
	PD_FEAT_BUILD_ID = 2,
	PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_VERSION = 5,
	PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7,
	PD_FEAT_CPUDESC = 8,
	PD_FEAT_CPUID = 9,
	PD_FEAT_TOTAL_MEM = 10,
	PD_FEAT_CMDLINE = 11,
	PD_FEAT_EVENT_DESC = 12,
	PD_FEAT_CPU_TOPOLOGY = 13,
	PD_FEAT_NUMA_TOPOLOGY = 14,
	PD_FEAT_BRANCH_STACK = 15,
	PD_FEAT_PMU_MAPPINGS = 16,
	PD_FEAT_GROUP_DESC = 17,
	PD_FEAT_AUXTRACE = 18,
	PD_FEAT_STAT = 19,
	PD_FEAT_CACHE = 20,
	PD_FEAT_SAMPLE_TIME = 21,
	PD_FEAT_MEM_TOPOLOGY = 22,
	PD_FEAT_CLOCKID = 23,
	PD_FEAT_DIR_FORMAT = 24,
	PD_FEAT_BPF_PROG_INFO = 25,
	PD_FEAT_BPF_BTF = 26,
	PD_FEAT_COMPRESSED = 27,
	PD_FEAT_CPU_PMU_CAPS = 28,
	PD_FEAT_CLOCK_DATA = 29,
	PD_FEAT_HYBRID_TOPOLOGY = 30,
	PD_FEAT_PMU_CAPS = 31,
	PD_FEAT_CPU_DOMAIN_INFO = 32,
	PD_FEAT_E_MACHINE = 33,
	PD_FEAT_CLN_SIZE = 34,
	PD_FEAT_LINUX_MAX = 35,

	PD_FEAT_SP_FILE = 128,
	PD_FEAT_SP_META_INFO = 129,
	PD_FEAT_SP_DEBUG_UNWIND = 130,
	PD_FEAT_SP_DEBUG_UNWIND_FILE = 131,
	PD_FEAT_SP_FILE2 = 132,
	PD_FEAT_SP_ETM_BRANCH_LIST = 133,
	PD_FEAT_SP_INIT_MAP = 134,
	PD_FEAT_SP_MAX = 135,

	PD_FEAT_BITS = 256,
};

/* PERF_SAMPLE_* bits of attr.sample_type */
#define PD_SAMPLE_IP		(1ULL << 0)
#define PD_SAMPLE_TID		(1ULL << 1)
#define PD_SAMPLE_TIME		(1ULL << 2)
#define PD_SAMPLE_ADDR		(1ULL << 3)
#define PD_SAMPLE_READ		(1ULL << 4)
#define PD_SAMPLE_CALLCHAIN	(1ULL << 5)
#define PD_SAMPLE_ID		(1ULL << 6)
#define PD_SAMPLE_CPU		(1ULL << 7)
#define PD_SAMPLE_PERIOD	(1ULL << 8)
#define PD_SAMPLE_STREAM_ID	(1ULL << 9)
#define PD_SAMPLE_RAW		(1ULL << 10)
#define PD_SAMPLE_BRANCH_STACK	(1ULL << 11)
#define PD_SAMPLE_REGS_USER	(1ULL << 12)
#define PD_SAMPLE_STACK_USER	(1ULL << 13)
#define PD_SAMPLE_WEIGHT	(1ULL << 14)
#define PD_SAMPLE_DATA_SRC	(1ULL << 15)
#define PD_SAMPLE_IDENTIFIER	(1ULL << 16)
#define PD_SAMPLE_TRANSACTION	(1ULL << 17)
#define PD_SAMPLE_REGS_INTR	(1ULL << 18)
#define PD_SAMPLE_PHYS_ADDR	(1ULL << 19)
#define PD_SAMPLE_AUX		(1ULL << 20)
#define PD_SAMPLE_CGROUP	(1ULL << 21)
#define PD_SAMPLE_DATA_PAGE_SIZE (1ULL << 22)
#define PD_SAMPLE_CODE_PAGE_SIZE (1ULL << 23)
#define PD_SAMPLE_WEIGHT_STRUCT	(1ULL << 24)
#define PD_SAMPLE_MAX		(1ULL << 25)
#define PD_SAMPLE_BIT_COUNT	25

/* PERF_FORMAT_* bits of attr.read_format */
#define PD_FORMAT_TOTAL_TIME_ENABLED	(1ULL << 0)
#define PD_FORMAT_TOTAL_TIME_RUNNING	(1ULL << 1)
#define PD_FORMAT_ID			(1ULL << 2)
#define PD_FORMAT_GROUP			(1ULL << 3)
#define PD_FORMAT_LOST			(1ULL << 4)
#define PD_FORMAT_MAX			(1ULL << 5)

/* PERF_SAMPLE_BRANCH_* bits of attr.branch_sample_type */
#define PD_BRANCH_HW_INDEX	(1ULL << 17)
#define PD_BRANCH_COUNTERS	(1ULL << 19)
#define PD_BRANCH_MAX		(1ULL << 20)

/* header.misc */
#define PD_MISC_CPUMODE_MASK		7
#define PD_MISC_PROC_MAP_PARSE_TIMEOUT	(1 << 12)
#define PD_MISC_MMAP_DATA		(1 << 13)
#define PD_MISC_COMM_EXEC		(1 << 13)
#define PD_MISC_FORK_EXEC		(1 << 13)
#define PD_MISC_SWITCH_OUT		(1 << 13)
#define PD_MISC_EXACT_IP		(1 << 14)
#define PD_MISC_SWITCH_OUT_PREEMPT	(1 << 14)
#define PD_MISC_MMAP_BUILD_ID		(1 << 14)
#define PD_MISC_BUILD_ID_SIZE		(1 << 15)
#define PD_MISC_LOST_SAMPLES_BPF	(1 << 15)

/* Callchain context markers */
#define PD_CONTEXT_HV			((uint64_t)-32)
#define PD_CONTEXT_KERNEL		((uint64_t)-128)
#define PD_CONTEXT_USER			((uint64_t)-512)
#define PD_CONTEXT_USER_DEFERRED	((uint64_t)-640)
#define PD_CONTEXT_GUEST		((uint64_t)-2048)
#define PD_CONTEXT_GUEST_KERNEL		((uint64_t)-2176)
#define PD_CONTEXT_GUEST_USER		((uint64_t)-2560)
#define PD_CONTEXT_MAX			((uint64_t)-4095)

/* Published perf_event_attr sizes */
#define PD_ATTR_SIZE_VER0	64
#define PD_ATTR_SIZE_VER9	144
#define PD_ATTR_SIZE_MAX_KNOWN	PD_ATTR_SIZE_VER9

/*
 * Names.  Each returns perf's name without prefix ("MMAP2", "HOSTNAME",
 * "CALLCHAIN") or NULL when the value is unknown.
 */
const char *pd_record_type_name(uint32_t type);
const char *pd_feature_name(unsigned int id);
const char *pd_sample_bit_name(unsigned int bit);
const char *pd_read_format_bit_name(unsigned int bit);
const char *pd_branch_sample_bit_name(unsigned int bit);
/* attr flag bit names (bit 0 "disabled" .. bit 39 "defer_output"); precise_ip bits 15/16 are named "precise_ip". */
const char *pd_attr_flag_name(unsigned int bit);
/* "HARDWARE", "SOFTWARE", "TRACEPOINT", ... or NULL */
const char *pd_attr_type_name(uint32_t type);
/* "cpu-clock" for (SOFTWARE, 0) etc. or NULL */
const char *pd_event_default_name(uint32_t type, uint64_t config);
/* "KERNEL", "USER", ... for misc & 7 */
const char *pd_cpumode_name(unsigned int cpumode);
/* "KERNEL" for PD_CONTEXT_KERNEL etc, NULL if not a marker */
const char *pd_context_name(uint64_t marker);

/*
 * Minimum size in bytes (header included, trailer excluded) of a record of
 * the given type, or 8 when the type has no fixed part or is unknown.
 */
size_t pd_record_min_size(uint32_t type);

/* True if the type is known to this library. */
int pd_record_type_known(uint32_t type);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_PD_CONSTS_H */
