// SPDX-License-Identifier: MIT
/*
 * test_swap.c - the reader on byte-swapped twins (tests/lib/swap_twin.c).
 *
 * For every recording of corpus/ (and the x86 quipper files when
 * ../shared/corpus exists) the twin is written to a temporary file and
 * both are read side by side: header, attrs, features and every record
 * (type, misc, size, sample fields, union fields, sample_id fields) must
 * decode to the same values, and both must produce the same errors and
 * warnings.  COMPRESSED containers are recompressed by the twin: they are
 * compared by type only, the records inside them fully.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "perfdata/perfdata.h"
#include "swap_twin.h"
#include "test_suites.h"

#define CORPUS_DIR	"corpus"
#define QUIPPER_DIR	"../shared/corpus/quipper"
#define MAX_REPORTED	5	/* mismatches printed per file */

/* Quipper inputs that are not x86 recordings or are damaged on purpose. */
static const char *const quipper_skip[] = {
	"armv7", "i686", "corrupted", NULL,
};

struct cmp {
	const char *file;
	uint64_t rec;		/* record ordinal, for messages */
	unsigned int mismatches;
};

static void mismatch(struct cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void mismatch(struct cmp *c, const char *fmt, ...)
{
	char msg[768], full[1024];
	va_list ap;

	c->mismatches++;
	if (c->mismatches > MAX_REPORTED)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "%s: swapped twin differs: %s", c->file, msg);
	fprintf(stderr, "  FAIL: %s\n", full);
	CU_assertImplementation(CU_FALSE, __LINE__, full, __FILE__, "", CU_FALSE);
}

#define EQ(c, what, a, b)							\
	do {									\
		if ((uint64_t)(a) != (uint64_t)(b))				\
			mismatch(c, "rec %" PRIu64 ": %s: %#" PRIx64 " vs %#" PRIx64, \
				 (c)->rec, what, (uint64_t)(a), (uint64_t)(b));	\
	} while (0)

static void eq_str(struct cmp *c, const char *what, const char *a, const char *b)
{
	if (!a && !b)
		return;
	if (!a || !b || strcmp(a, b))
		mismatch(c, "rec %" PRIu64 ": %s: \"%s\" vs \"%s\"", c->rec, what, a ? a : "(null)",
			 b ? b : "(null)");
}

static void eq_mem(struct cmp *c, const char *what, const void *a, const void *b, size_t n)
{
	if (n && (!a || !b || memcmp(a, b, n)))
		mismatch(c, "rec %" PRIu64 ": %s: %zu bytes differ", c->rec, what, n);
}

static void eq_u64s(struct cmp *c, const char *what, const uint64_t *a, const uint64_t *b,
		    uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i]) {
			mismatch(c, "rec %" PRIu64 ": %s[%" PRIu64 "]: %#" PRIx64 " vs %#" PRIx64,
				 c->rec, what, i, a[i], b[i]);
			return;
		}
}

static void eq_attr(struct cmp *c, const struct pd_attr *a, const struct pd_attr *b)
{
	EQ(c, "attr.type", a->type, b->type);
	EQ(c, "attr.size", a->size, b->size);
	EQ(c, "attr.config", a->config, b->config);
	EQ(c, "attr.sample_period", a->sample_period, b->sample_period);
	EQ(c, "attr.sample_type", a->sample_type, b->sample_type);
	EQ(c, "attr.read_format", a->read_format, b->read_format);
	EQ(c, "attr.flags", a->flags, b->flags);
	EQ(c, "attr.wakeup_events", a->wakeup_events, b->wakeup_events);
	EQ(c, "attr.bp_type", a->bp_type, b->bp_type);
	EQ(c, "attr.config1", a->config1, b->config1);
	EQ(c, "attr.config2", a->config2, b->config2);
	EQ(c, "attr.branch_sample_type", a->branch_sample_type, b->branch_sample_type);
	EQ(c, "attr.sample_regs_user", a->sample_regs_user, b->sample_regs_user);
	EQ(c, "attr.sample_stack_user", a->sample_stack_user, b->sample_stack_user);
	EQ(c, "attr.clockid", a->clockid, b->clockid);
	EQ(c, "attr.sample_regs_intr", a->sample_regs_intr, b->sample_regs_intr);
	EQ(c, "attr.aux_watermark", a->aux_watermark, b->aux_watermark);
	EQ(c, "attr.sample_max_stack", a->sample_max_stack, b->sample_max_stack);
	EQ(c, "attr.aux_sample_size", a->aux_sample_size, b->aux_sample_size);
	EQ(c, "attr.aux_action", a->aux_action, b->aux_action);
	EQ(c, "attr.sig_data", a->sig_data, b->sig_data);
	EQ(c, "attr.config3", a->config3, b->config3);
	EQ(c, "attr.config4", a->config4, b->config4);
}

static void eq_sid(struct cmp *c, const struct pd_sample_id *a, const struct pd_sample_id *b)
{
	EQ(c, "sid.present", a->present, b->present);
	EQ(c, "sid.pid", a->pid, b->pid);
	EQ(c, "sid.tid", a->tid, b->tid);
	EQ(c, "sid.time", a->time, b->time);
	EQ(c, "sid.id", a->id, b->id);
	EQ(c, "sid.stream_id", a->stream_id, b->stream_id);
	EQ(c, "sid.cpu", a->cpu, b->cpu);
	EQ(c, "sid.cpu_res", a->cpu_res, b->cpu_res);
}

static void eq_read(struct cmp *c, const struct pd_read *a, const struct pd_read *b)
{
	uint64_t i;

	EQ(c, "read.format", a->format, b->format);
	EQ(c, "read.nr", a->nr, b->nr);
	EQ(c, "read.time_enabled", a->time_enabled, b->time_enabled);
	EQ(c, "read.time_running", a->time_running, b->time_running);
	if (a->nr != b->nr || !a->values || !b->values)
		return;
	for (i = 0; i < a->nr; i++) {
		EQ(c, "read.value", a->values[i].value, b->values[i].value);
		EQ(c, "read.id", a->values[i].id, b->values[i].id);
		EQ(c, "read.lost", a->values[i].lost, b->values[i].lost);
	}
}

static void eq_regs(struct cmp *c, const char *what, const struct pd_regs *a,
		    const struct pd_regs *b)
{
	EQ(c, what, a->abi, b->abi);
	EQ(c, what, a->mask, b->mask);
	EQ(c, what, a->nr, b->nr);
	if (a->nr == b->nr && a->regs && b->regs)
		eq_u64s(c, what, a->regs, b->regs, a->nr);
}

static void eq_sample(struct cmp *c, const struct pd_sample *a, const struct pd_sample *b)
{
	uint64_t st = a->sample_type, i;

	EQ(c, "sample_type", a->sample_type, b->sample_type);
	EQ(c, "identifier", a->identifier, b->identifier);
	EQ(c, "ip", a->ip, b->ip);
	EQ(c, "pid", a->pid, b->pid);
	EQ(c, "tid", a->tid, b->tid);
	EQ(c, "time", a->time, b->time);
	EQ(c, "addr", a->addr, b->addr);
	EQ(c, "id", a->id, b->id);
	EQ(c, "stream_id", a->stream_id, b->stream_id);
	EQ(c, "cpu", a->cpu, b->cpu);
	EQ(c, "cpu_res", a->cpu_res, b->cpu_res);
	EQ(c, "period", a->period, b->period);
	if (st & PD_SAMPLE_READ)
		eq_read(c, &a->read, &b->read);
	EQ(c, "callchain_nr", a->callchain_nr, b->callchain_nr);
	if (a->callchain_nr == b->callchain_nr && a->callchain_nr)
		eq_u64s(c, "callchain", a->callchain, b->callchain, a->callchain_nr);
	EQ(c, "raw_size", a->raw_size, b->raw_size);
	if (a->raw_size == b->raw_size)
		eq_mem(c, "raw_data", a->raw_data, b->raw_data, a->raw_size);
	EQ(c, "branch_nr", a->branch_nr, b->branch_nr);
	EQ(c, "branch_has_hw_idx", a->branch_has_hw_idx, b->branch_has_hw_idx);
	EQ(c, "branch_hw_idx", a->branch_hw_idx, b->branch_hw_idx);
	if (a->branch_nr == b->branch_nr && a->branches && b->branches) {
		for (i = 0; i < a->branch_nr; i++) {
			EQ(c, "branch.from", a->branches[i].from, b->branches[i].from);
			EQ(c, "branch.to", a->branches[i].to, b->branches[i].to);
			EQ(c, "branch.flags", a->branches[i].flags, b->branches[i].flags);
		}
	}
	EQ(c, "branch_counters", !!a->branch_counters, !!b->branch_counters);
	if (a->branch_counters && b->branch_counters && a->branch_nr == b->branch_nr)
		eq_u64s(c, "branch_counters", a->branch_counters, b->branch_counters,
			a->branch_nr);
	eq_regs(c, "regs_user", &a->regs_user, &b->regs_user);
	EQ(c, "stack_size", a->stack_size, b->stack_size);
	if (a->stack_size == b->stack_size)
		eq_mem(c, "stack_data", a->stack_data, b->stack_data, a->stack_size);
	EQ(c, "stack_dyn_size", a->stack_dyn_size, b->stack_dyn_size);
	EQ(c, "weight", a->weight, b->weight);
	EQ(c, "data_src", a->data_src, b->data_src);
	EQ(c, "transaction", a->transaction, b->transaction);
	eq_regs(c, "regs_intr", &a->regs_intr, &b->regs_intr);
	EQ(c, "phys_addr", a->phys_addr, b->phys_addr);
	EQ(c, "cgroup", a->cgroup, b->cgroup);
	EQ(c, "data_page_size", a->data_page_size, b->data_page_size);
	EQ(c, "code_page_size", a->code_page_size, b->code_page_size);
	EQ(c, "aux_size", a->aux_size, b->aux_size);
	if (a->aux_size == b->aux_size)
		eq_mem(c, "aux_data", a->aux_data, b->aux_data, a->aux_size);
}

static void eq_cpu_map(struct cmp *c, const struct pd_cpu_map *a, const struct pd_cpu_map *b)
{
	uint32_t i;

	EQ(c, "cpu_map.encoding", a->encoding, b->encoding);
	EQ(c, "cpu_map.long_size", a->long_size, b->long_size);
	EQ(c, "cpu_map.any_cpu", a->any_cpu, b->any_cpu);
	EQ(c, "cpu_map.nr", a->nr, b->nr);
	if (a->nr == b->nr && a->cpus && b->cpus)
		for (i = 0; i < a->nr; i++)
			EQ(c, "cpu_map.cpus", a->cpus[i], b->cpus[i]);
}

static void eq_union(struct cmp *c, const struct pd_record *ra, const struct pd_record *rb)
{
	const __typeof__(ra->u) *a = &ra->u, *b = &rb->u;
	uint64_t i;

	switch (ra->type) {
	case PD_REC_SAMPLE:
		eq_sample(c, &a->sample, &b->sample);
		break;
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
		EQ(c, "mmap.pid", a->mmap.pid, b->mmap.pid);
		EQ(c, "mmap.tid", a->mmap.tid, b->mmap.tid);
		EQ(c, "mmap.start", a->mmap.start, b->mmap.start);
		EQ(c, "mmap.len", a->mmap.len, b->mmap.len);
		EQ(c, "mmap.pgoff", a->mmap.pgoff, b->mmap.pgoff);
		EQ(c, "mmap.has_build_id", a->mmap.has_build_id, b->mmap.has_build_id);
		EQ(c, "mmap.maj", a->mmap.maj, b->mmap.maj);
		EQ(c, "mmap.min", a->mmap.min, b->mmap.min);
		EQ(c, "mmap.ino", a->mmap.ino, b->mmap.ino);
		EQ(c, "mmap.ino_generation", a->mmap.ino_generation, b->mmap.ino_generation);
		EQ(c, "mmap.build_id_size", a->mmap.build_id_size, b->mmap.build_id_size);
		eq_mem(c, "mmap.build_id", a->mmap.build_id, b->mmap.build_id, 20);
		EQ(c, "mmap.prot", a->mmap.prot, b->mmap.prot);
		EQ(c, "mmap.flags", a->mmap.flags, b->mmap.flags);
		eq_str(c, "mmap.filename", a->mmap.filename, b->mmap.filename);
		break;
	case PD_REC_LOST:
		EQ(c, "lost.id", a->lost.id, b->lost.id);
		EQ(c, "lost.lost", a->lost.lost, b->lost.lost);
		break;
	case PD_REC_COMM:
		EQ(c, "comm.pid", a->comm.pid, b->comm.pid);
		EQ(c, "comm.tid", a->comm.tid, b->comm.tid);
		eq_str(c, "comm.comm", a->comm.comm, b->comm.comm);
		break;
	case PD_REC_EXIT:
	case PD_REC_FORK:
		EQ(c, "fork.pid", a->fork.pid, b->fork.pid);
		EQ(c, "fork.ppid", a->fork.ppid, b->fork.ppid);
		EQ(c, "fork.tid", a->fork.tid, b->fork.tid);
		EQ(c, "fork.ptid", a->fork.ptid, b->fork.ptid);
		EQ(c, "fork.time", a->fork.time, b->fork.time);
		break;
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:
		EQ(c, "throttle.time", a->throttle.time, b->throttle.time);
		EQ(c, "throttle.id", a->throttle.id, b->throttle.id);
		EQ(c, "throttle.stream_id", a->throttle.stream_id, b->throttle.stream_id);
		break;
	case PD_REC_READ:
		EQ(c, "read.pid", a->read.pid, b->read.pid);
		EQ(c, "read.tid", a->read.tid, b->read.tid);
		eq_read(c, &a->read.values, &b->read.values);
		break;
	case PD_REC_AUX:
		EQ(c, "aux.aux_offset", a->aux.aux_offset, b->aux.aux_offset);
		EQ(c, "aux.aux_size", a->aux.aux_size, b->aux.aux_size);
		EQ(c, "aux.flags", a->aux.flags, b->aux.flags);
		break;
	case PD_REC_ITRACE_START:
		EQ(c, "itrace_start.pid", a->itrace_start.pid, b->itrace_start.pid);
		EQ(c, "itrace_start.tid", a->itrace_start.tid, b->itrace_start.tid);
		break;
	case PD_REC_LOST_SAMPLES:
		EQ(c, "lost_samples.lost", a->lost_samples.lost, b->lost_samples.lost);
		break;
	case PD_REC_SWITCH:
	case PD_REC_SWITCH_CPU_WIDE:
		EQ(c, "switch.pid", a->sw.next_prev_pid, b->sw.next_prev_pid);
		EQ(c, "switch.tid", a->sw.next_prev_tid, b->sw.next_prev_tid);
		break;
	case PD_REC_NAMESPACES:
		EQ(c, "namespaces.pid", a->namespaces.pid, b->namespaces.pid);
		EQ(c, "namespaces.tid", a->namespaces.tid, b->namespaces.tid);
		EQ(c, "namespaces.nr", a->namespaces.nr, b->namespaces.nr);
		if (a->namespaces.nr == b->namespaces.nr && a->namespaces.links &&
		    b->namespaces.links)
			for (i = 0; i < a->namespaces.nr; i++) {
				EQ(c, "ns.dev", a->namespaces.links[i].dev,
				   b->namespaces.links[i].dev);
				EQ(c, "ns.ino", a->namespaces.links[i].ino,
				   b->namespaces.links[i].ino);
			}
		break;
	case PD_REC_KSYMBOL:
		EQ(c, "ksymbol.addr", a->ksymbol.addr, b->ksymbol.addr);
		EQ(c, "ksymbol.len", a->ksymbol.len, b->ksymbol.len);
		EQ(c, "ksymbol.ksym_type", a->ksymbol.ksym_type, b->ksymbol.ksym_type);
		EQ(c, "ksymbol.flags", a->ksymbol.flags, b->ksymbol.flags);
		eq_str(c, "ksymbol.name", a->ksymbol.name, b->ksymbol.name);
		break;
	case PD_REC_BPF_EVENT:
		EQ(c, "bpf_event.type", a->bpf_event.type, b->bpf_event.type);
		EQ(c, "bpf_event.flags", a->bpf_event.flags, b->bpf_event.flags);
		EQ(c, "bpf_event.id", a->bpf_event.id, b->bpf_event.id);
		eq_mem(c, "bpf_event.tag", a->bpf_event.tag, b->bpf_event.tag, 8);
		break;
	case PD_REC_CGROUP:
		EQ(c, "cgroup.id", a->cgroup.id, b->cgroup.id);
		eq_str(c, "cgroup.path", a->cgroup.path, b->cgroup.path);
		break;
	case PD_REC_TEXT_POKE:
		EQ(c, "text_poke.addr", a->text_poke.addr, b->text_poke.addr);
		EQ(c, "text_poke.old_len", a->text_poke.old_len, b->text_poke.old_len);
		EQ(c, "text_poke.new_len", a->text_poke.new_len, b->text_poke.new_len);
		break;
	case PD_REC_HEADER_ATTR:
		eq_attr(c, &a->header_attr.attr, &b->header_attr.attr);
		EQ(c, "header_attr.nr_ids", a->header_attr.nr_ids, b->header_attr.nr_ids);
		if (a->header_attr.nr_ids == b->header_attr.nr_ids && a->header_attr.nr_ids)
			eq_u64s(c, "header_attr.ids", a->header_attr.ids, b->header_attr.ids,
				a->header_attr.nr_ids);
		break;
	case PD_REC_HEADER_TRACING_DATA:
		EQ(c, "tracing_data.size", a->tracing_data.size, b->tracing_data.size);
		break;
	case PD_REC_HEADER_BUILD_ID:
		EQ(c, "build_id.cpumode", a->build_id.cpumode, b->build_id.cpumode);
		EQ(c, "build_id.pid", a->build_id.pid, b->build_id.pid);
		EQ(c, "build_id.size", a->build_id.build_id_size, b->build_id.build_id_size);
		eq_mem(c, "build_id.id", a->build_id.build_id, b->build_id.build_id, 20);
		eq_str(c, "build_id.filename", a->build_id.filename, b->build_id.filename);
		break;
	case PD_REC_ID_INDEX:
		EQ(c, "id_index.nr", a->id_index.nr, b->id_index.nr);
		EQ(c, "id_index.has_vcpu", a->id_index.has_vcpu, b->id_index.has_vcpu);
		if (a->id_index.nr == b->id_index.nr && a->id_index.entries && b->id_index.entries)
			for (i = 0; i < a->id_index.nr; i++) {
				const struct pd_id_index_entry *x = &a->id_index.entries[i];
				const struct pd_id_index_entry *y = &b->id_index.entries[i];

				EQ(c, "id_index.id", x->id, y->id);
				EQ(c, "id_index.idx", x->idx, y->idx);
				EQ(c, "id_index.cpu", x->cpu, y->cpu);
				EQ(c, "id_index.tid", x->tid, y->tid);
				EQ(c, "id_index.machine_pid", x->machine_pid, y->machine_pid);
				EQ(c, "id_index.vcpu", x->vcpu, y->vcpu);
			}
		break;
	case PD_REC_AUXTRACE_INFO:
		EQ(c, "auxtrace_info.type", a->auxtrace_info.type, b->auxtrace_info.type);
		EQ(c, "auxtrace_info.nr_priv", a->auxtrace_info.nr_priv, b->auxtrace_info.nr_priv);
		if (a->auxtrace_info.nr_priv == b->auxtrace_info.nr_priv &&
		    a->auxtrace_info.nr_priv)
			eq_u64s(c, "auxtrace_info.priv", a->auxtrace_info.priv,
				b->auxtrace_info.priv, a->auxtrace_info.nr_priv);
		break;
	case PD_REC_AUXTRACE:
		EQ(c, "auxtrace.size", a->auxtrace.size, b->auxtrace.size);
		EQ(c, "auxtrace.offset", a->auxtrace.offset, b->auxtrace.offset);
		EQ(c, "auxtrace.reference", a->auxtrace.reference, b->auxtrace.reference);
		EQ(c, "auxtrace.idx", a->auxtrace.idx, b->auxtrace.idx);
		EQ(c, "auxtrace.tid", a->auxtrace.tid, b->auxtrace.tid);
		EQ(c, "auxtrace.cpu", a->auxtrace.cpu, b->auxtrace.cpu);
		break;
	case PD_REC_AUXTRACE_ERROR:
		EQ(c, "auxtrace_error.type", a->auxtrace_error.type, b->auxtrace_error.type);
		EQ(c, "auxtrace_error.code", a->auxtrace_error.code, b->auxtrace_error.code);
		EQ(c, "auxtrace_error.cpu", a->auxtrace_error.cpu, b->auxtrace_error.cpu);
		EQ(c, "auxtrace_error.pid", a->auxtrace_error.pid, b->auxtrace_error.pid);
		EQ(c, "auxtrace_error.tid", a->auxtrace_error.tid, b->auxtrace_error.tid);
		EQ(c, "auxtrace_error.fmt", a->auxtrace_error.fmt, b->auxtrace_error.fmt);
		EQ(c, "auxtrace_error.ip", a->auxtrace_error.ip, b->auxtrace_error.ip);
		EQ(c, "auxtrace_error.time", a->auxtrace_error.time, b->auxtrace_error.time);
		eq_str(c, "auxtrace_error.msg", a->auxtrace_error.msg, b->auxtrace_error.msg);
		break;
	case PD_REC_THREAD_MAP:
		EQ(c, "thread_map.nr", a->thread_map.nr, b->thread_map.nr);
		if (a->thread_map.nr == b->thread_map.nr && a->thread_map.entries &&
		    b->thread_map.entries)
			for (i = 0; i < a->thread_map.nr; i++) {
				EQ(c, "thread_map.pid", a->thread_map.entries[i].pid,
				   b->thread_map.entries[i].pid);
				eq_str(c, "thread_map.comm", a->thread_map.entries[i].comm,
				       b->thread_map.entries[i].comm);
			}
		break;
	case PD_REC_CPU_MAP:
		eq_cpu_map(c, &a->cpu_map.map, &b->cpu_map.map);
		break;
	case PD_REC_STAT_CONFIG:
		EQ(c, "stat_config.nr", a->stat_config.nr, b->stat_config.nr);
		if (a->stat_config.nr == b->stat_config.nr && a->stat_config.entries &&
		    b->stat_config.entries)
			for (i = 0; i < a->stat_config.nr; i++) {
				EQ(c, "stat_config.tag", a->stat_config.entries[i].tag,
				   b->stat_config.entries[i].tag);
				EQ(c, "stat_config.val", a->stat_config.entries[i].val,
				   b->stat_config.entries[i].val);
			}
		break;
	case PD_REC_STAT:
		EQ(c, "stat.id", a->stat.id, b->stat.id);
		EQ(c, "stat.cpu", a->stat.cpu, b->stat.cpu);
		EQ(c, "stat.thread", a->stat.thread, b->stat.thread);
		EQ(c, "stat.val", a->stat.val, b->stat.val);
		EQ(c, "stat.ena", a->stat.ena, b->stat.ena);
		EQ(c, "stat.run", a->stat.run, b->stat.run);
		break;
	case PD_REC_STAT_ROUND:
		EQ(c, "stat_round.type", a->stat_round.type, b->stat_round.type);
		EQ(c, "stat_round.time", a->stat_round.time, b->stat_round.time);
		break;
	case PD_REC_EVENT_UPDATE:
		EQ(c, "event_update.type", a->event_update.type, b->event_update.type);
		EQ(c, "event_update.id", a->event_update.id, b->event_update.id);
		eq_str(c, "event_update.str", a->event_update.str, b->event_update.str);
		eq_mem(c, "event_update.scale", &a->event_update.scale, &b->event_update.scale,
		       sizeof(double));
		if (a->event_update.type == 3)
			eq_cpu_map(c, &a->event_update.cpus, &b->event_update.cpus);
		break;
	case PD_REC_TIME_CONV:
		EQ(c, "time_conv.time_shift", a->time_conv.time_shift, b->time_conv.time_shift);
		EQ(c, "time_conv.time_mult", a->time_conv.time_mult, b->time_conv.time_mult);
		EQ(c, "time_conv.time_zero", a->time_conv.time_zero, b->time_conv.time_zero);
		EQ(c, "time_conv.time_cycles", a->time_conv.time_cycles, b->time_conv.time_cycles);
		EQ(c, "time_conv.time_mask", a->time_conv.time_mask, b->time_conv.time_mask);
		EQ(c, "time_conv.cap_user_time_zero", a->time_conv.cap_user_time_zero,
		   b->time_conv.cap_user_time_zero);
		EQ(c, "time_conv.cap_user_time_short", a->time_conv.cap_user_time_short,
		   b->time_conv.cap_user_time_short);
		break;
	case PD_REC_HEADER_FEATURE:
		EQ(c, "header_feature.feat_id", a->header_feature.feat_id,
		   b->header_feature.feat_id);
		EQ(c, "header_feature.len", a->header_feature.len, b->header_feature.len);
		EQ(c, "header_feature.end_marker", a->header_feature.end_marker,
		   b->header_feature.end_marker);
		break;
	case PD_REC_HEADER_EVENT_TYPE:
		EQ(c, "event_type.event_id", a->event_type.event_id, b->event_type.event_id);
		eq_str(c, "event_type.name", a->event_type.name, b->event_type.name);
		break;
	default:
		break;
	}
}

static bool is_container(uint32_t type)
{
	return type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2;
}

static void eq_record(struct cmp *c, const struct pd_record *a, const struct pd_record *b)
{
	EQ(c, "type", a->type, b->type);
	if (a->type != b->type)
		return;
	EQ(c, "index", a->index, b->index);
	EQ(c, "from_compressed", a->from_compressed, b->from_compressed);
	EQ(c, "decoded", a->decoded, b->decoded);
	EQ(c, "swapped", !a->swapped, b->swapped);
	if (is_container(a->type))
		return;	/* recompressed by the twin */
	EQ(c, "misc", a->misc, b->misc);
	EQ(c, "size", a->size, b->size);
	EQ(c, "raw_len", a->raw_len, b->raw_len);
	EQ(c, "inner_offset", a->inner_offset, b->inner_offset);
	EQ(c, "event_index", a->event_index, b->event_index);
	EQ(c, "has_trailer", a->has_trailer, b->has_trailer);
	EQ(c, "extra_len", a->extra_len, b->extra_len);
	eq_sid(c, &a->sid, &b->sid);
	eq_union(c, a, b);
}

static void eq_str_list(struct cmp *c, const char *what, const struct pd_str_list *a,
			const struct pd_str_list *b)
{
	uint32_t i;

	EQ(c, what, a->nr, b->nr);
	if (a->nr == b->nr)
		for (i = 0; i < a->nr; i++)
			eq_str(c, what, a->s[i], b->s[i]);
}

static void eq_kv(struct cmp *c, const char *what, const struct pd_kv_list *a,
		  const struct pd_kv_list *b)
{
	uint32_t i;

	EQ(c, what, a->nr, b->nr);
	if (a->nr == b->nr)
		for (i = 0; i < a->nr; i++) {
			eq_str(c, what, a->kv[i].key, b->kv[i].key);
			eq_str(c, what, a->kv[i].value, b->kv[i].value);
		}
}

static void eq_features(struct cmp *c, const struct pd_features *a, const struct pd_features *b)
{
	unsigned int id, i, k;

	for (id = 0; id < PD_FEAT_BITS; id++) {
		EQ(c, "feature present", a->raw[id].present, b->raw[id].present);
		EQ(c, "feature length", a->raw[id].len, b->raw[id].len);
		if (id == PD_FEAT_BPF_PROG_INFO || id == PD_FEAT_BPF_BTF ||
		    id == PD_FEAT_TRACING_DATA) {
			if (a->raw[id].len == b->raw[id].len)
				eq_mem(c, "host-order feature bytes", a->raw[id].data,
				       b->raw[id].data, a->raw[id].len);
			continue;
		}
		if (a->raw[id].present && b->raw[id].present)
			EQ(c, "feature decoded", a->raw[id].decoded, b->raw[id].decoded);
	}
	eq_str(c, "hostname", a->hostname, b->hostname);
	eq_str(c, "osrelease", a->osrelease, b->osrelease);
	eq_str(c, "version", a->version, b->version);
	eq_str(c, "arch", a->arch, b->arch);
	EQ(c, "nrcpus.avail", a->nrcpus.avail, b->nrcpus.avail);
	EQ(c, "nrcpus.online", a->nrcpus.online, b->nrcpus.online);
	eq_str(c, "cpudesc", a->cpudesc, b->cpudesc);
	eq_str(c, "cpuid", a->cpuid, b->cpuid);
	EQ(c, "total_mem", a->total_mem, b->total_mem);
	eq_str_list(c, "cmdline", &a->cmdline, &b->cmdline);
	EQ(c, "event_desc.nr", a->event_desc.nr, b->event_desc.nr);
	if (a->event_desc.nr == b->event_desc.nr)
		for (i = 0; i < a->event_desc.nr; i++) {
			eq_attr(c, &a->event_desc.ev[i].attr, &b->event_desc.ev[i].attr);
			eq_str(c, "event_desc.name", a->event_desc.ev[i].name,
			       b->event_desc.ev[i].name);
			EQ(c, "event_desc.nr_ids", a->event_desc.ev[i].nr_ids,
			   b->event_desc.ev[i].nr_ids);
			if (a->event_desc.ev[i].nr_ids == b->event_desc.ev[i].nr_ids)
				eq_u64s(c, "event_desc.ids", a->event_desc.ev[i].ids,
					b->event_desc.ev[i].ids, a->event_desc.ev[i].nr_ids);
		}
	eq_str_list(c, "cpu_topology.core_siblings", &a->cpu_topology.core_siblings,
		    &b->cpu_topology.core_siblings);
	eq_str_list(c, "cpu_topology.thread_siblings", &a->cpu_topology.thread_siblings,
		    &b->cpu_topology.thread_siblings);
	EQ(c, "cpu_topology.nr_cpus", a->cpu_topology.nr_cpus, b->cpu_topology.nr_cpus);
	if (a->cpu_topology.nr_cpus == b->cpu_topology.nr_cpus && a->cpu_topology.core_id &&
	    b->cpu_topology.core_id)
		for (i = 0; i < a->cpu_topology.nr_cpus; i++) {
			EQ(c, "cpu_topology.core_id", a->cpu_topology.core_id[i],
			   b->cpu_topology.core_id[i]);
			EQ(c, "cpu_topology.socket_id", a->cpu_topology.socket_id[i],
			   b->cpu_topology.socket_id[i]);
		}
	EQ(c, "numa.nr", a->numa_topology.nr, b->numa_topology.nr);
	if (a->numa_topology.nr == b->numa_topology.nr)
		for (i = 0; i < a->numa_topology.nr; i++) {
			EQ(c, "numa.node", a->numa_topology.nodes[i].node,
			   b->numa_topology.nodes[i].node);
			EQ(c, "numa.mem_total", a->numa_topology.nodes[i].mem_total,
			   b->numa_topology.nodes[i].mem_total);
			EQ(c, "numa.mem_free", a->numa_topology.nodes[i].mem_free,
			   b->numa_topology.nodes[i].mem_free);
			eq_str(c, "numa.cpus", a->numa_topology.nodes[i].cpus,
			       b->numa_topology.nodes[i].cpus);
		}
	EQ(c, "pmu_mappings.nr", a->pmu_mappings.nr, b->pmu_mappings.nr);
	if (a->pmu_mappings.nr == b->pmu_mappings.nr)
		for (i = 0; i < a->pmu_mappings.nr; i++) {
			EQ(c, "pmu_mappings.type", a->pmu_mappings.pmus[i].type,
			   b->pmu_mappings.pmus[i].type);
			eq_str(c, "pmu_mappings.name", a->pmu_mappings.pmus[i].name,
			       b->pmu_mappings.pmus[i].name);
		}
	EQ(c, "group_desc.nr", a->group_desc.nr, b->group_desc.nr);
	if (a->group_desc.nr == b->group_desc.nr)
		for (i = 0; i < a->group_desc.nr; i++) {
			eq_str(c, "group_desc.name", a->group_desc.groups[i].name,
			       b->group_desc.groups[i].name);
			EQ(c, "group_desc.leader", a->group_desc.groups[i].leader_idx,
			   b->group_desc.groups[i].leader_idx);
			EQ(c, "group_desc.nr_members", a->group_desc.groups[i].nr_members,
			   b->group_desc.groups[i].nr_members);
		}
	EQ(c, "auxtrace.nr", a->auxtrace.nr, b->auxtrace.nr);
	EQ(c, "cache.version", a->cache.version, b->cache.version);
	EQ(c, "cache.nr", a->cache.nr, b->cache.nr);
	if (a->cache.nr == b->cache.nr)
		for (i = 0; i < a->cache.nr; i++) {
			EQ(c, "cache.level", a->cache.levels[i].level, b->cache.levels[i].level);
			EQ(c, "cache.line_size", a->cache.levels[i].line_size,
			   b->cache.levels[i].line_size);
			EQ(c, "cache.sets", a->cache.levels[i].sets, b->cache.levels[i].sets);
			EQ(c, "cache.ways", a->cache.levels[i].ways, b->cache.levels[i].ways);
			eq_str(c, "cache.type", a->cache.levels[i].type, b->cache.levels[i].type);
			eq_str(c, "cache.size", a->cache.levels[i].size, b->cache.levels[i].size);
			eq_str(c, "cache.map", a->cache.levels[i].map, b->cache.levels[i].map);
		}
	EQ(c, "sample_time.first", a->sample_time.first, b->sample_time.first);
	EQ(c, "sample_time.last", a->sample_time.last, b->sample_time.last);
	EQ(c, "mem_topology.version", a->mem_topology.version, b->mem_topology.version);
	EQ(c, "mem_topology.block_size", a->mem_topology.block_size,
	   b->mem_topology.block_size);
	EQ(c, "mem_topology.nr", a->mem_topology.nr, b->mem_topology.nr);
	if (a->mem_topology.nr == b->mem_topology.nr)
		for (i = 0; i < a->mem_topology.nr; i++) {
			const struct pd_feat_mem_node *x = &a->mem_topology.nodes[i];
			const struct pd_feat_mem_node *y = &b->mem_topology.nodes[i];

			EQ(c, "mem_topology.node_id", x->node_id, y->node_id);
			EQ(c, "mem_topology.nbits", x->nbits, y->nbits);
			if (x->nbits == y->nbits && x->bitmap && y->bitmap)
				eq_u64s(c, "mem_topology.bitmap", x->bitmap, y->bitmap,
					(x->nbits + 63) / 64);
		}
	EQ(c, "clockid_res_ns", a->clockid_res_ns, b->clockid_res_ns);
	EQ(c, "dir_format", a->dir_format, b->dir_format);
	EQ(c, "compressed.type", a->compressed.type, b->compressed.type);
	EQ(c, "compressed.level", a->compressed.level, b->compressed.level);
	EQ(c, "compressed.ratio", a->compressed.ratio, b->compressed.ratio);
	EQ(c, "compressed.mmap_len", a->compressed.mmap_len, b->compressed.mmap_len);
	eq_kv(c, "cpu_pmu_caps", &a->cpu_pmu_caps, &b->cpu_pmu_caps);
	EQ(c, "clock_data.version", a->clock_data.version, b->clock_data.version);
	EQ(c, "clock_data.clockid", a->clock_data.clockid, b->clock_data.clockid);
	EQ(c, "clock_data.tod_ns", a->clock_data.tod_ns, b->clock_data.tod_ns);
	EQ(c, "clock_data.clockid_ns", a->clock_data.clockid_ns, b->clock_data.clockid_ns);
	EQ(c, "hybrid_topology.nr", a->hybrid_topology.nr, b->hybrid_topology.nr);
	EQ(c, "pmu_caps.nr", a->pmu_caps.nr, b->pmu_caps.nr);
	if (a->pmu_caps.nr == b->pmu_caps.nr)
		for (i = 0; i < a->pmu_caps.nr; i++) {
			eq_str(c, "pmu_caps.pmu_name", a->pmu_caps.pmus[i].pmu_name,
			       b->pmu_caps.pmus[i].pmu_name);
			eq_kv(c, "pmu_caps.caps", &a->pmu_caps.pmus[i].caps,
			      &b->pmu_caps.pmus[i].caps);
		}
	EQ(c, "build_ids.nr", a->build_ids.nr, b->build_ids.nr);
	if (a->build_ids.nr == b->build_ids.nr)
		for (k = 0; k < a->build_ids.nr; k++) {
			EQ(c, "build_id.misc", a->build_ids.ids[k].misc, b->build_ids.ids[k].misc);
			EQ(c, "build_id.pid", a->build_ids.ids[k].pid, b->build_ids.ids[k].pid);
			eq_mem(c, "build_id.id", a->build_ids.ids[k].id, b->build_ids.ids[k].id, 20);
			eq_str(c, "build_id.filename", a->build_ids.ids[k].filename,
			       b->build_ids.ids[k].filename);
		}
}

static void eq_events(struct cmp *c, const struct pd_reader *ra, const struct pd_reader *rb)
{
	size_t i, n = pd_reader_nr_events(ra);

	EQ(c, "nr_events", n, pd_reader_nr_events(rb));
	if (n != pd_reader_nr_events(rb))
		return;
	for (i = 0; i < n; i++) {
		const struct pd_event *a = pd_reader_event(ra, i), *b = pd_reader_event(rb, i);

		eq_attr(c, &a->attr, &b->attr);
		eq_str(c, "event name", a->name, b->name);
		EQ(c, "event nr_ids", a->nr_ids, b->nr_ids);
		if (a->nr_ids == b->nr_ids && a->nr_ids)
			eq_u64s(c, "event ids", a->ids, b->ids, a->nr_ids);
		EQ(c, "event attr_size_on_disk", a->attr_size_on_disk, b->attr_size_on_disk);
	}
}

/* Errors and warnings by code; notes are expected to differ (BYTE_SWAPPED...). */
struct codes {
	uint32_t n[1000];
};

static void count_code(const struct pd_diag *d, void *arg)
{
	struct codes *cs = arg;

	if (d->severity != PD_SEV_NOTE && (unsigned int)d->code < 1000)
		cs->n[d->code]++;
}

static void compare_twin(const char *path, const char *twin)
{
	struct pd_reader_opts oa = PD_READER_OPTS_INIT, ob = PD_READER_OPTS_INIT;
	struct codes *ca = calloc(1, sizeof(*ca)), *cb = calloc(1, sizeof(*cb));
	struct cmp c = { path, 0, 0 };
	struct pd_reader *ra = NULL, *rb = NULL;
	const struct pd_record *a, *b;
	int reta, retb;
	unsigned int i;

	if (!ca || !cb) {
		free(ca);
		free(cb);
		CU_FAIL("out of memory");
		return;
	}
	oa.diag_fn = count_code;
	oa.diag_arg = ca;
	ob.diag_fn = count_code;
	ob.diag_arg = cb;
	reta = pd_reader_open(path, &oa, &ra);
	retb = pd_reader_open(twin, &ob, &rb);
	EQ(&c, "open status", reta, retb);
	if (reta < 0 || retb < 0)
		goto out;
	EQ(&c, "twin is swapped", pd_reader_header(rb)->swapped,
	   !pd_reader_header(ra)->swapped);
	EQ(&c, "mode", pd_reader_header(ra)->mode, pd_reader_header(rb)->mode);
	EQ(&c, "header_size", pd_reader_header(ra)->header_size,
	   pd_reader_header(rb)->header_size);
	for (;;) {
		reta = pd_reader_next(ra, &a);
		retb = pd_reader_next(rb, &b);
		if (reta != retb) {
			mismatch(&c, "rec %" PRIu64 ": reader status %d vs %d", c.rec, reta, retb);
			break;
		}
		if (reta <= 0)
			break;
		eq_record(&c, a, b);
		c.rec++;
	}
	/* Pipe mode learns attrs and features while reading: compare at the end. */
	eq_events(&c, ra, rb);
	eq_features(&c, pd_reader_features(ra), pd_reader_features(rb));
	for (i = 0; i < 1000; i++)
		if (ca->n[i] != cb->n[i] && i != PD_FEAT_SKIPPED_SWAPPED)
			mismatch(&c, "diagnostic PD%03u reported %u times, twin %u times", i,
				 ca->n[i], cb->n[i]);
out:
	printf("  %s: %" PRIu64 " records compared, %u mismatches\n", path, c.rec, c.mismatches);
	if (!c.mismatches)
		CU_PASS("twin identical");
	if (ra)
		pd_reader_close(ra);
	if (rb)
		pd_reader_close(rb);
	free(ca);
	free(cb);
}

static void rm_tree(const char *path)
{
	char p[4096];
	struct dirent *de;
	DIR *d = opendir(path);

	if (!d) {
		unlink(path);
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(path);
}

static void twin_and_compare(const char *path)
{
	char twin[256], err[512];
	const char *tmp = getenv("TMPDIR");
	int fd;

	snprintf(twin, sizeof(twin), "%s/pd-twin-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(twin);
	if (fd < 0) {
		CU_FAIL("mkstemp failed");
		return;
	}
	close(fd);
	unlink(twin);	/* swap_twin creates a file or a directory there */
	if (swap_twin(path, twin, err, sizeof(err)) < 0) {
		char msg[1024];

		snprintf(msg, sizeof(msg), "%s: cannot build the swapped twin: %s", path, err);
		fprintf(stderr, "  FAIL: %s\n", msg);
		CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, "", CU_FALSE);
		rm_tree(twin);
		return;
	}
	compare_twin(path, twin);
	rm_tree(twin);
}

/*
 * perf inject's cross-endian bug: a swapped file whose feature payloads
 * were left in the writer's order.  The reader says so (PD218) and
 * decodes the features as they are: the hostname is the native file's.
 */
static void test_swap_inject_features(void)
{
	char twin[256], err[512];
	const char *tmp = getenv("TMPDIR");
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	const struct pd_features *f;
	struct pd_reader *native, *r;
	char *host = NULL;
	int fd, ret;

	snprintf(twin, sizeof(twin), "%s/pd-twin-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(twin);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	unlink(twin);
	swap_twin_keep_features = true;
	ret = swap_twin(CORPUS_DIR "/basic.data", twin, err, sizeof(err));
	swap_twin_keep_features = false;
	CU_ASSERT_EQUAL_FATAL(ret, 0);

	CU_ASSERT_EQUAL_FATAL(pd_reader_open(CORPUS_DIR "/basic.data", &o, &native), 0);
	f = pd_reader_features(native);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f->hostname);
	host = strdup(f->hostname);
	pd_reader_close(native);

	CU_ASSERT_EQUAL_FATAL(pd_reader_open(twin, &o, &r), 0);
	CU_ASSERT_TRUE(pd_reader_header(r)->swapped);
	CU_ASSERT_EQUAL(pd_reader_code_count(r, PD_FEAT_WRITER_BYTE_ORDER), 1);
	CU_ASSERT_EQUAL(pd_reader_diag_count(r, PD_SEV_ERROR), 0);
	f = pd_reader_features(r);
	CU_ASSERT_TRUE(f->hostname && host && !strcmp(f->hostname, host));
	CU_ASSERT_EQUAL(f->nrcpus.avail > 0, 1);
	pd_reader_close(r);
	free(host);
	rm_tree(twin);
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '/'))
		*--e = '\0';
	return s;
}

static void test_swap_project(void)
{
	char line[4096], path[4200];
	FILE *f = fopen(CORPUS_DIR "/MANIFEST", "r");
	unsigned int n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof(line), f)) {
		char *bar = strchr(line, '|'), *name;

		if (line[0] == '#' || !bar)
			continue;
		*bar = '\0';
		name = trim(line);
		if (!*name)
			continue;
		snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, name);
		twin_and_compare(path);
		n++;
	}
	fclose(f);
	CU_ASSERT(n > 0);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_swap_quipper(void)
{
	char *names[512], path[4096];
	struct dirent *de;
	size_t n = 0, i;
	DIR *d = opendir(QUIPPER_DIR);

	if (!d) {
		printf("  external corpus %s not found: skipped\n", QUIPPER_DIR);
		return;
	}
	while ((de = readdir(d)) && n < 512) {
		const char *s = de->d_name;
		bool skip = strncmp(s, "perf.data", 9) != 0 || strstr(s, ".pb_text") ||
			    strstr(s, ".buildids");

		for (i = 0; !skip && quipper_skip[i]; i++)
			if (strstr(s, quipper_skip[i]))
				skip = true;
		if (!skip)
			names[n++] = strdup(s);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_name);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", QUIPPER_DIR, names[i]);
		twin_and_compare(path);
		free(names[i]);
	}
}

int pd_test_register_swap(void)
{
	CU_pSuite s = CU_add_suite("swap", NULL, NULL);

	if (!s || !CU_add_test(s, "project corpus twins", test_swap_project) ||
	    !CU_add_test(s, "perf inject features in the writer's order", test_swap_inject_features) ||
	    !CU_add_test(s, "quipper x86 twins", test_swap_quipper))
		return CU_get_error();
	return CUE_SUCCESS;
}
