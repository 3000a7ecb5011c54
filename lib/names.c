// SPDX-License-Identifier: MIT
/*
 * names.c - names of the format's numeric constants, and per-type minimum
 * record sizes (from the layouts of layout_tables.h).
 *
 * Tables are indexed by value so that a lookup is one bounds check and one
 * load: these functions are called for every record by the converters.
 */
#include <stddef.h>
#include <stdint.h>

#include "perfdata/pd_consts.h"
#include "layout.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const kernel_type_names[PD_REC_KERNEL_MAX] = {
	[PD_REC_MMAP] = "MMAP",
	[PD_REC_LOST] = "LOST",
	[PD_REC_COMM] = "COMM",
	[PD_REC_EXIT] = "EXIT",
	[PD_REC_THROTTLE] = "THROTTLE",
	[PD_REC_UNTHROTTLE] = "UNTHROTTLE",
	[PD_REC_FORK] = "FORK",
	[PD_REC_READ] = "READ",
	[PD_REC_SAMPLE] = "SAMPLE",
	[PD_REC_MMAP2] = "MMAP2",
	[PD_REC_AUX] = "AUX",
	[PD_REC_ITRACE_START] = "ITRACE_START",
	[PD_REC_LOST_SAMPLES] = "LOST_SAMPLES",
	[PD_REC_SWITCH] = "SWITCH",
	[PD_REC_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PD_REC_NAMESPACES] = "NAMESPACES",
	[PD_REC_KSYMBOL] = "KSYMBOL",
	[PD_REC_BPF_EVENT] = "BPF_EVENT",
	[PD_REC_CGROUP] = "CGROUP",
	[PD_REC_TEXT_POKE] = "TEXT_POKE",
	[PD_REC_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PD_REC_CALLCHAIN_DEFERRED] = "CALLCHAIN_DEFERRED",
};

static const char *const user_type_names[PD_REC_USER_MAX - PD_REC_HEADER_ATTR] = {
	[PD_REC_HEADER_ATTR - 64] = "HEADER_ATTR",
	[PD_REC_HEADER_EVENT_TYPE - 64] = "HEADER_EVENT_TYPE",
	[PD_REC_HEADER_TRACING_DATA - 64] = "HEADER_TRACING_DATA",
	[PD_REC_HEADER_BUILD_ID - 64] = "HEADER_BUILD_ID",
	[PD_REC_FINISHED_ROUND - 64] = "FINISHED_ROUND",
	[PD_REC_ID_INDEX - 64] = "ID_INDEX",
	[PD_REC_AUXTRACE_INFO - 64] = "AUXTRACE_INFO",
	[PD_REC_AUXTRACE - 64] = "AUXTRACE",
	[PD_REC_AUXTRACE_ERROR - 64] = "AUXTRACE_ERROR",
	[PD_REC_THREAD_MAP - 64] = "THREAD_MAP",
	[PD_REC_CPU_MAP - 64] = "CPU_MAP",
	[PD_REC_STAT_CONFIG - 64] = "STAT_CONFIG",
	[PD_REC_STAT - 64] = "STAT",
	[PD_REC_STAT_ROUND - 64] = "STAT_ROUND",
	[PD_REC_EVENT_UPDATE - 64] = "EVENT_UPDATE",
	[PD_REC_TIME_CONV - 64] = "TIME_CONV",
	[PD_REC_HEADER_FEATURE - 64] = "HEADER_FEATURE",
	[PD_REC_COMPRESSED - 64] = "COMPRESSED",
	[PD_REC_FINISHED_INIT - 64] = "FINISHED_INIT",
	[PD_REC_COMPRESSED2 - 64] = "COMPRESSED2",
	[PD_REC_BPF_METADATA - 64] = "BPF_METADATA",
	[PD_REC_SCHEDSTAT_CPU - 64] = "SCHEDSTAT_CPU",
	[PD_REC_SCHEDSTAT_DOMAIN - 64] = "SCHEDSTAT_DOMAIN",
};

static const char *const sp_type_names[PD_REC_SP_MAX - PD_REC_SP_START] = {
	[PD_REC_SP_KERNEL_SYMBOL - PD_REC_SP_START] = "SIMPLEPERF_KERNEL_SYMBOL",
	[PD_REC_SP_DSO - PD_REC_SP_START] = "SIMPLEPERF_DSO",
	[PD_REC_SP_SYMBOL - PD_REC_SP_START] = "SIMPLEPERF_SYMBOL",
	[PD_REC_SP_SPLIT - PD_REC_SP_START] = "SIMPLEPERF_SPLIT",
	[PD_REC_SP_SPLIT_END - PD_REC_SP_START] = "SIMPLEPERF_SPLIT_END",
	[PD_REC_SP_EVENT_ID - PD_REC_SP_START] = "SIMPLEPERF_EVENT_ID",
	[PD_REC_SP_CALLCHAIN - PD_REC_SP_START] = "SIMPLEPERF_CALLCHAIN",
	[PD_REC_SP_UNWINDING_RESULT - PD_REC_SP_START] = "SIMPLEPERF_UNWINDING_RESULT",
	[PD_REC_SP_TRACING_DATA - PD_REC_SP_START] = "SIMPLEPERF_TRACING_DATA",
	[PD_REC_SP_DEBUG - PD_REC_SP_START] = "SIMPLEPERF_DEBUG",
};

const char *pd_record_type_name(uint32_t type)
{
	if (type < PD_REC_KERNEL_MAX)
		return kernel_type_names[type];
	if (type >= PD_REC_HEADER_ATTR && type < PD_REC_USER_MAX)
		return user_type_names[type - PD_REC_HEADER_ATTR];
	if (type > PD_REC_SP_START && type < PD_REC_SP_MAX)
		return sp_type_names[type - PD_REC_SP_START];
	return NULL;
}

int pd_record_type_known(uint32_t type)
{
	return pd_record_type_name(type) != NULL;
}

static const char *const feature_names[PD_FEAT_LINUX_MAX] = {
	[PD_FEAT_RESERVED] = "RESERVED",
	[PD_FEAT_TRACING_DATA] = "TRACING_DATA",
	[PD_FEAT_BUILD_ID] = "BUILD_ID",
	[PD_FEAT_HOSTNAME] = "HOSTNAME",
	[PD_FEAT_OSRELEASE] = "OSRELEASE",
	[PD_FEAT_VERSION] = "VERSION",
	[PD_FEAT_ARCH] = "ARCH",
	[PD_FEAT_NRCPUS] = "NRCPUS",
	[PD_FEAT_CPUDESC] = "CPUDESC",
	[PD_FEAT_CPUID] = "CPUID",
	[PD_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[PD_FEAT_CMDLINE] = "CMDLINE",
	[PD_FEAT_EVENT_DESC] = "EVENT_DESC",
	[PD_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[PD_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[PD_FEAT_BRANCH_STACK] = "BRANCH_STACK",
	[PD_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[PD_FEAT_GROUP_DESC] = "GROUP_DESC",
	[PD_FEAT_AUXTRACE] = "AUXTRACE",
	[PD_FEAT_STAT] = "STAT",
	[PD_FEAT_CACHE] = "CACHE",
	[PD_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[PD_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[PD_FEAT_CLOCKID] = "CLOCKID",
	[PD_FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[PD_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[PD_FEAT_BPF_BTF] = "BPF_BTF",
	[PD_FEAT_COMPRESSED] = "COMPRESSED",
	[PD_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[PD_FEAT_CLOCK_DATA] = "CLOCK_DATA",
	[PD_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[PD_FEAT_PMU_CAPS] = "PMU_CAPS",
	[PD_FEAT_CPU_DOMAIN_INFO] = "CPU_DOMAIN_INFO",
	[PD_FEAT_E_MACHINE] = "E_MACHINE",
	[PD_FEAT_CLN_SIZE] = "CLN_SIZE",
};

static const char *const sp_feature_names[PD_FEAT_SP_MAX - PD_FEAT_SP_FILE] = {
	[PD_FEAT_SP_FILE - PD_FEAT_SP_FILE] = "FILE",
	[PD_FEAT_SP_META_INFO - PD_FEAT_SP_FILE] = "META_INFO",
	[PD_FEAT_SP_DEBUG_UNWIND - PD_FEAT_SP_FILE] = "DEBUG_UNWIND",
	[PD_FEAT_SP_DEBUG_UNWIND_FILE - PD_FEAT_SP_FILE] = "DEBUG_UNWIND_FILE",
	[PD_FEAT_SP_FILE2 - PD_FEAT_SP_FILE] = "FILE2",
	[PD_FEAT_SP_ETM_BRANCH_LIST - PD_FEAT_SP_FILE] = "ETM_BRANCH_LIST",
	[PD_FEAT_SP_INIT_MAP - PD_FEAT_SP_FILE] = "INIT_MAP",
};

const char *pd_feature_name(unsigned int id)
{
	if (id < PD_FEAT_LINUX_MAX)
		return feature_names[id];
	if (id >= PD_FEAT_SP_FILE && id < PD_FEAT_SP_MAX)
		return sp_feature_names[id - PD_FEAT_SP_FILE];
	return NULL;
}

static const char *const sample_bit_names[PD_SAMPLE_BIT_COUNT] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD",
	"STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT",
	"DATA_SRC", "IDENTIFIER", "TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX",
	"CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT",
};

const char *pd_sample_bit_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(sample_bit_names) ? sample_bit_names[bit] : NULL;
}

static const char *const read_format_names[] = {
	"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
};

const char *pd_read_format_bit_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(read_format_names) ? read_format_names[bit] : NULL;
}

static const char *const branch_bit_names[] = {
	"USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL",
	"ABORT_TX", "IN_TX", "NO_TX", "COND", "CALL_STACK", "IND_JUMP", "CALL",
	"NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX", "PRIV_SAVE", "COUNTERS",
};

const char *pd_branch_sample_bit_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(branch_bit_names) ? branch_bit_names[bit] : NULL;
}

/* Both bits of the two-bit precise_ip field carry its name. */
static const char *const attr_flag_names[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user",
	"exclude_kernel", "exclude_hv", "exclude_idle", "mmap", "comm", "freq",
	"inherit_stat", "enable_on_exec", "task", "watermark", "precise_ip",
	"precise_ip", "mmap_data", "sample_id_all", "exclude_host",
	"exclude_guest", "exclude_callchain_kernel", "exclude_callchain_user",
	"mmap2", "comm_exec", "use_clockid", "context_switch", "write_backward",
	"namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup", "text_poke",
	"build_id", "inherit_thread", "remove_on_exec", "sigtrap",
	"defer_callchain", "defer_output",
};

const char *pd_attr_flag_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(attr_flag_names) ? attr_flag_names[bit] : NULL;
}

static const char *const attr_type_names[] = {
	"HARDWARE", "SOFTWARE", "TRACEPOINT", "HW_CACHE", "RAW", "BREAKPOINT",
};

const char *pd_attr_type_name(uint32_t type)
{
	return type < ARRAY_SIZE(attr_type_names) ? attr_type_names[type] : NULL;
}

static const char *const hw_event_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_event_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

const char *pd_event_default_name(uint32_t type, uint64_t config)
{
	uint64_t id;

	switch (type) {
	case 0:
		/* The upper 32 bits may name the PMU (PERF_PMU_TYPE_SHIFT). */
		id = config & 0xffffffffULL;
		return id < ARRAY_SIZE(hw_event_names) ? hw_event_names[id] : NULL;
	case 1:
		return config < ARRAY_SIZE(sw_event_names) ? sw_event_names[config] : NULL;
	default:
		return NULL;
	}
}

static const char *const cpumode_names[] = {
	"UNKNOWN", "KERNEL", "USER", "HYPERVISOR", "GUEST_KERNEL", "GUEST_USER",
};

const char *pd_cpumode_name(unsigned int cpumode)
{
	return cpumode < ARRAY_SIZE(cpumode_names) ? cpumode_names[cpumode] : NULL;
}

const char *pd_context_name(uint64_t marker)
{
	switch (marker) {
	case PD_CONTEXT_HV:
		return "HV";
	case PD_CONTEXT_KERNEL:
		return "KERNEL";
	case PD_CONTEXT_USER:
		return "USER";
	case PD_CONTEXT_USER_DEFERRED:
		return "USER_DEFERRED";
	case PD_CONTEXT_GUEST:
		return "GUEST";
	case PD_CONTEXT_GUEST_KERNEL:
		return "GUEST_KERNEL";
	case PD_CONTEXT_GUEST_USER:
		return "GUEST_USER";
	default:
		return NULL;
	}
}

/*
 * Fixed part of each layout, header included, trailer and variable parts
 * excluded (a string needs at least its NUL on top of this; the decoder
 * checks that separately): the end of the fixed fields (layout_tables.h), or
 * more where a part of the rest is always there.  8 for unknown types.
 */
size_t pd_record_min_size(uint32_t type)
{
	const struct pd_layout *l = pd_record_layout(type);

	return l ? pd_layout_min_size(l) : 8;
}
