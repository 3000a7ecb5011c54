// SPDX-License-Identifier: MIT
/*
 * json_full.c - perfconv to-json --full: every part of the file as JSON.
 *
 * Document form:
 *	{"format":"perfconv-full","schema_version":1,"file":{...},"records":[
 *	{record},
 *	...
 *	],"summary":{...}}
 * JSON Lines form (--jsonl): {"kind":"file",...}, then one
 * {"kind":"record",...} per line, then {"kind":"summary",...}.
 * One record is one line in both forms, so `grep`, `jq -c` and line
 * splitters work on either.
 *
 * Number rule: addresses, masks, flags and bit fields are hex strings
 * ("0x1f"); counts, sizes, times and ids are JSON numbers below 2^53 and
 * decimal strings above (every JSON reader keeps them exact).  Byte
 * payloads are base64.  The file part (header, attrs, features) is built
 * with jansson (json_feat.c); records go through the streaming emitter.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json_conv.h"
#include "json_feat.h"

/*
 * Record counts by type: kernel and perf types below 128, simpleperf's
 * from 32768 on; anything else is counted in the last slot.
 */
#define PD_REC_TYPE_SLOTS 257

static unsigned int type_slot(uint32_t t)
{
	if (t < 128)
		return t;
	if (t >= 32768 && t < 32768 + 128)
		return 128 + (t - 32768);
	return 256;
}

static uint32_t slot_type(unsigned int s)
{
	return s < 128 ? s : 32768 + (s - 128);
}

struct full_ctx {
	struct jconv *c;
	struct je *j;
	const char *arch;
	uint64_t by_type[PD_REC_TYPE_SLOTS];
	uint64_t undecoded;
	struct pd_sym_frame *frames;
	uint64_t container_offset;	/* last COMPRESSED record, for inner records */
	bool first;
	bool nomem;			/* frames could not be resolved: out of memory */
};

/* ---- pieces shared by several record types ---- */

static void sid_fields(struct je *j, const struct pd_sample_id *sid)
{
	je_key(j, "sample_id");
	je_obj_begin(j);
	if (sid->present & PD_SAMPLE_TID) {
		je_kv_i(j, "pid", (int32_t)sid->pid);
		je_kv_i(j, "tid", (int32_t)sid->tid);
	}
	if (sid->present & PD_SAMPLE_TIME)
		je_kv_u(j, "time", sid->time);
	if (sid->present & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER))
		je_kv_u(j, "id", sid->id);
	if (sid->present & PD_SAMPLE_STREAM_ID)
		je_kv_u(j, "stream_id", sid->stream_id);
	if (sid->present & PD_SAMPLE_CPU) {
		je_kv_i(j, "cpu", (int32_t)sid->cpu);
		je_kv_u(j, "cpu_res", sid->cpu_res);
	}
	je_obj_end(j);
}

static void read_values(struct je *j, const char *k, const struct pd_read *rd)
{
	uint64_t i;

	je_key(j, k);
	je_obj_begin(j);
	je_kv_x(j, "format", rd->format);
	if (rd->format & PD_FORMAT_TOTAL_TIME_ENABLED)
		je_kv_u(j, "time_enabled", rd->time_enabled);
	if (rd->format & PD_FORMAT_TOTAL_TIME_RUNNING)
		je_kv_u(j, "time_running", rd->time_running);
	je_kv_u(j, "nr", rd->nr);
	je_key(j, "values");
	je_arr_begin(j);
	for (i = 0; rd->values && i < rd->nr; i++) {
		je_obj_begin(j);
		je_kv_u(j, "value", rd->values[i].value);
		if (rd->format & PD_FORMAT_ID)
			je_kv_u(j, "id", rd->values[i].id);
		if (rd->format & PD_FORMAT_LOST)
			je_kv_u(j, "lost", rd->values[i].lost);
		je_obj_end(j);
	}
	je_arr_end(j);
	je_obj_end(j);
}

static void hex_list(struct je *j, const char *k, const uint64_t *v, uint64_t nr)
{
	uint64_t i;

	je_key(j, k);
	je_arr_begin(j);
	for (i = 0; v && i < nr; i++)
		je_v_x(j, v[i]);
	je_arr_end(j);
}

static void regs(struct full_ctx *fc, const char *k, const struct pd_regs *r)
{
	struct je *j = fc->j;
	unsigned int bit, n = 0;

	je_key(j, k);
	je_obj_begin(j);
	je_kv_u(j, "abi", r->abi);
	je_kv_x(j, "mask", r->mask);
	if (r->abi && r->regs) {
		je_key(j, "regs");
		je_obj_begin(j);
		for (bit = 0; bit < 64 && n < r->nr; bit++) {
			char buf[16];

			if (!(r->mask & (1ULL << bit)))
				continue;
			je_key_esc(j, json_reg_name(fc->arch, r->abi, bit, buf, sizeof(buf)));
			je_v_x(j, r->regs[n++]);
		}
		je_obj_end(j);
	}
	je_obj_end(j);
}

static void branch_stack(struct je *j, const struct pd_sample *s)
{
	uint64_t i;

	je_key(j, "branch_stack");
	je_obj_begin(j);
	je_kv_u(j, "nr", s->branch_nr);
	if (s->branch_has_hw_idx)
		je_kv_i(j, "hw_idx", (int64_t)s->branch_hw_idx);
	je_key(j, "entries");
	je_arr_begin(j);
	for (i = 0; s->branches && i < s->branch_nr; i++) {
		const struct pd_branch_entry *b = &s->branches[i];

		je_obj_begin(j);
		je_kv_x(j, "from", b->from);
		je_kv_x(j, "to", b->to);
		je_kv_x(j, "flags", b->flags);
		je_kv_u(j, "mispred", PD_BR_MISPRED(b->flags));
		je_kv_u(j, "predicted", PD_BR_PREDICTED(b->flags));
		je_kv_u(j, "in_tx", PD_BR_IN_TX(b->flags));
		je_kv_u(j, "abort", PD_BR_ABORT(b->flags));
		je_kv_u(j, "cycles", PD_BR_CYCLES(b->flags));
		je_kv_u(j, "type", PD_BR_TYPE(b->flags));
		je_kv_u(j, "spec", PD_BR_SPEC(b->flags));
		je_kv_u(j, "new_type", PD_BR_NEW_TYPE(b->flags));
		je_kv_u(j, "priv", PD_BR_PRIV(b->flags));
		je_obj_end(j);
	}
	je_arr_end(j);
	if (s->branch_counters)
		hex_list(j, "counters", s->branch_counters, s->branch_nr);
	je_obj_end(j);
}

static void trace_field(void *arg, const char *name, const char *value)
{
	struct je *j = arg;

	je_key_esc(j, name);
	je_v_s(j, value);
}

static void frame(struct je *j, uint64_t ip, bool has_map, const char *dso, uint64_t addr,
		  const char *sym, uint64_t sym_off)
{
	je_obj_begin(j);
	je_kv_x(j, "ip", ip);
	if (has_map) {
		je_kv_s(j, "dso", dso);
		je_kv_x(j, "addr", addr);
	}
	if (sym) {
		je_kv_s(j, "symbol", sym);
		je_kv_x(j, "symoff", sym_off);
	}
	je_obj_end(j);
}

static void frames(struct full_ctx *fc, const struct pd_record *rec)
{
	const struct ahead_frame *af;
	struct je *j = fc->j;
	long n;
	size_t i;

	je_key(j, "frames");
	je_arr_begin(j);
	if (fc->c->ahead) {
		n = sym_ahead_frames(fc->c->ahead, rec, &af);
		if (n < 0)
			fc->nomem = true;
		for (i = 0; n > 0 && i < (size_t)n; i++)
			frame(j, af[i].ip, af[i].has_map, af[i].dso, af[i].addr, af[i].sym,
			      af[i].sym_off);
	} else {
		n = (long)pd_machine_resolve_sample(fc->c->m, rec, fc->frames, PD_SYM_MAX_FRAMES);
		for (i = 0; i < (size_t)n; i++) {
			const struct pd_sym_frame *f = &fc->frames[i];

			frame(j, f->ip, f->has_map, f->dso_name, f->addr, f->sym, f->sym_off);
		}
	}
	je_arr_end(j);
}

static void sample(struct full_ctx *fc, const struct pd_record *rec)
{
	const struct pd_sample *s = &rec->u.sample;
	const struct pd_event *ev = rec->event;
	struct je *j = fc->j;
	uint64_t t = s->sample_type;
	const char *cm = pd_cpumode_name(rec->misc & PD_MISC_CPUMODE_MASK);

	if (ev)
		je_kv_s(j, "event_name", ev->name);
	if (cm)
		je_kv_s(j, "cpumode", cm);
	else
		je_kv_u(j, "cpumode", rec->misc & PD_MISC_CPUMODE_MASK);
	je_kv_bool(j, "exact_ip", rec->misc & PD_MISC_EXACT_IP);
	je_kv_x(j, "sample_type", t);
	if (t & PD_SAMPLE_IDENTIFIER)
		je_kv_u(j, "identifier", s->identifier);
	if (t & PD_SAMPLE_IP)
		je_kv_x(j, "ip", s->ip);
	if (t & PD_SAMPLE_TID) {
		je_kv_i(j, "pid", (int32_t)s->pid);
		je_kv_i(j, "tid", (int32_t)s->tid);
	}
	if (t & PD_SAMPLE_TIME)
		je_kv_u(j, "time", s->time);
	if (t & PD_SAMPLE_ADDR)
		je_kv_x(j, "addr", s->addr);
	if (t & PD_SAMPLE_ID)
		je_kv_u(j, "id", s->id);
	if (t & PD_SAMPLE_STREAM_ID)
		je_kv_u(j, "stream_id", s->stream_id);
	if (t & PD_SAMPLE_CPU) {
		je_kv_i(j, "cpu", (int32_t)s->cpu);
		je_kv_u(j, "cpu_res", s->cpu_res);
	}
	/* without PERIOD the attr's fixed period is what perf reports */
	je_kv_u(j, "period", s->period);
	if (t & PD_SAMPLE_READ)
		read_values(j, "read", &s->read);
	if (t & PD_SAMPLE_CALLCHAIN)
		hex_list(j, "callchain", s->callchain, s->callchain_nr);
	if (t & PD_SAMPLE_RAW) {
		je_kv_u(j, "raw_size", s->raw_size);
		je_kv_base64(j, "raw", s->raw_data, s->raw_data ? s->raw_size : 0);
		if (s->raw_data && ev && ev->attr.type == PERF_TYPE_TRACEPOINT_ID) {
			struct jtep *tp = jconv_tep(fc->c);
			const char *sys = NULL;
			const char *name = tp ? jtep_event_name(tp, ev->attr.config, &sys) : NULL;

			if (name) {
				je_key(j, "tracepoint");
				je_obj_begin(j);
				je_kv_s(j, "system", sys);
				je_kv_s(j, "name", name);
				je_key(j, "fields");
				je_obj_begin(j);
				jtep_fields(tp, ev->attr.config, s->raw_data, s->raw_size,
					    trace_field, j);
				je_obj_end(j);
				je_obj_end(j);
			}
		}
	}
	if (t & PD_SAMPLE_BRANCH_STACK)
		branch_stack(j, s);
	if (t & PD_SAMPLE_REGS_USER)
		regs(fc, "regs_user", &s->regs_user);
	if (t & PD_SAMPLE_STACK_USER) {
		je_key(j, "stack_user");
		je_obj_begin(j);
		je_kv_u(j, "size", s->stack_size);
		if (s->stack_size)
			je_kv_u(j, "dyn_size", s->stack_dyn_size);
		je_kv_base64(j, "data", s->stack_data, s->stack_data ? s->stack_size : 0);
		je_obj_end(j);
	}
	if (t & (PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT))
		je_kv_u(j, "weight", s->weight);
	if (t & PD_SAMPLE_WEIGHT_STRUCT) {
		je_key(j, "weight_struct");
		je_obj_begin(j);
		je_kv_u(j, "var1", PD_WEIGHT_VAR1(s->weight));
		je_kv_u(j, "var2", PD_WEIGHT_VAR2(s->weight));
		je_kv_u(j, "var3", PD_WEIGHT_VAR3(s->weight));
		je_obj_end(j);
	}
	if (t & PD_SAMPLE_DATA_SRC)
		je_kv_x(j, "data_src", s->data_src);
	if (t & PD_SAMPLE_TRANSACTION)
		je_kv_x(j, "transaction", s->transaction);
	if (t & PD_SAMPLE_REGS_INTR)
		regs(fc, "regs_intr", &s->regs_intr);
	if (t & PD_SAMPLE_PHYS_ADDR)
		je_kv_x(j, "phys_addr", s->phys_addr);
	if (t & PD_SAMPLE_CGROUP)
		je_kv_u(j, "cgroup", s->cgroup);
	if (t & PD_SAMPLE_DATA_PAGE_SIZE)
		je_kv_u(j, "data_page_size", s->data_page_size);
	if (t & PD_SAMPLE_CODE_PAGE_SIZE)
		je_kv_u(j, "code_page_size", s->code_page_size);
	if (t & PD_SAMPLE_AUX) {
		je_kv_u(j, "aux_size", s->aux_size);
		je_kv_base64(j, "aux", s->aux_data, s->aux_data ? s->aux_size : 0);
	}
	if (fc->c->m)
		frames(fc, rec);
}

static void cpu_map(struct je *j, const char *k, const struct pd_cpu_map *m)
{
	uint32_t i;

	je_key(j, k);
	je_obj_begin(j);
	je_kv_u(j, "encoding", m->encoding);
	if (m->encoding == 1)
		je_kv_u(j, "long_size", m->long_size);
	je_kv_bool(j, "any_cpu", m->any_cpu);
	je_key(j, "cpus");
	je_arr_begin(j);
	for (i = 0; m->cpus && i < m->nr; i++)
		je_v_u(j, m->cpus[i]);
	je_arr_end(j);
	je_obj_end(j);
}

/* A feature or attr rendered by jansson, spliced in as compact text. */
static void splice(struct je *j, const char *k, json_t *v)
{
	char *txt;

	je_key(j, k);
	je_sep(j);
	txt = v ? json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY) : NULL;
	if (txt)
		je_raw(j, txt, strlen(txt));
	else
		je_lit(j, "null");
	free(txt);
	json_decref(v);
}

static void body(struct full_ctx *fc, const struct pd_record *rec)
{
	struct je *j = fc->j;
	uint64_t i;

	switch (rec->type) {
	case PD_REC_SAMPLE:
		sample(fc, rec);
		break;
	case PD_REC_MMAP:
	case PD_REC_MMAP2: {
		const struct pd_rec_mmap *m = &rec->u.mmap;

		je_kv_i(j, "pid", (int32_t)m->pid);
		je_kv_i(j, "tid", (int32_t)m->tid);
		je_kv_x(j, "start", m->start);
		je_kv_x(j, "len", m->len);
		je_kv_x(j, "pgoff", m->pgoff);
		if (rec->type == PD_REC_MMAP2) {
			if (m->has_build_id) {
				je_kv_bytes(j, "build_id", m->build_id,
					    m->build_id_size <= 20 ? m->build_id_size : 20);
			} else {
				je_kv_u(j, "maj", m->maj);
				je_kv_u(j, "min", m->min);
				je_kv_u(j, "ino", m->ino);
				je_kv_u(j, "ino_generation", m->ino_generation);
			}
			je_kv_x(j, "prot", m->prot);
			je_kv_x(j, "flags", m->flags);
		}
		je_kv_bool(j, "data", rec->misc & PD_MISC_MMAP_DATA);
		je_kv_s(j, "filename", m->filename);
		break;
	}
	case PD_REC_LOST:
		je_kv_u(j, "id", rec->u.lost.id);
		je_kv_u(j, "lost", rec->u.lost.lost);
		break;
	case PD_REC_COMM:
		je_kv_i(j, "pid", (int32_t)rec->u.comm.pid);
		je_kv_i(j, "tid", (int32_t)rec->u.comm.tid);
		je_kv_bool(j, "exec", rec->misc & PD_MISC_COMM_EXEC);
		je_kv_s(j, "comm", rec->u.comm.comm);
		break;
	case PD_REC_FORK:
	case PD_REC_EXIT:
		je_kv_i(j, "pid", (int32_t)rec->u.fork.pid);
		je_kv_i(j, "ppid", (int32_t)rec->u.fork.ppid);
		je_kv_i(j, "tid", (int32_t)rec->u.fork.tid);
		je_kv_i(j, "ptid", (int32_t)rec->u.fork.ptid);
		je_kv_u(j, "time", rec->u.fork.time);
		break;
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:
		je_kv_u(j, "time", rec->u.throttle.time);
		je_kv_u(j, "id", rec->u.throttle.id);
		je_kv_u(j, "stream_id", rec->u.throttle.stream_id);
		break;
	case PD_REC_READ:
		je_kv_i(j, "pid", (int32_t)rec->u.read.pid);
		je_kv_i(j, "tid", (int32_t)rec->u.read.tid);
		read_values(j, "values", &rec->u.read.values);
		break;
	case PD_REC_AUX:
		je_kv_x(j, "aux_offset", rec->u.aux.aux_offset);
		je_kv_u(j, "aux_size", rec->u.aux.aux_size);
		je_kv_x(j, "flags", rec->u.aux.flags);
		break;
	case PD_REC_ITRACE_START:
		je_kv_i(j, "pid", (int32_t)rec->u.itrace_start.pid);
		je_kv_i(j, "tid", (int32_t)rec->u.itrace_start.tid);
		break;
	case PD_REC_LOST_SAMPLES:
		je_kv_u(j, "lost", rec->u.lost_samples.lost);
		je_kv_bool(j, "bpf", rec->misc & PD_MISC_LOST_SAMPLES_BPF);
		break;
	case PD_REC_SWITCH:
	case PD_REC_SWITCH_CPU_WIDE:
		je_kv_s(j, "direction", rec->misc & PD_MISC_SWITCH_OUT ? "out" : "in");
		je_kv_bool(j, "preempt", rec->misc & PD_MISC_SWITCH_OUT_PREEMPT);
		if (rec->type == PD_REC_SWITCH_CPU_WIDE) {
			je_kv_i(j, "next_prev_pid", (int32_t)rec->u.sw.next_prev_pid);
			je_kv_i(j, "next_prev_tid", (int32_t)rec->u.sw.next_prev_tid);
		}
		break;
	case PD_REC_NAMESPACES:
		je_kv_i(j, "pid", (int32_t)rec->u.namespaces.pid);
		je_kv_i(j, "tid", (int32_t)rec->u.namespaces.tid);
		je_kv_u(j, "nr", rec->u.namespaces.nr);
		je_key(j, "links");
		je_arr_begin(j);
		for (i = 0; rec->u.namespaces.links && i < rec->u.namespaces.nr; i++) {
			je_obj_begin(j);
			je_kv_x(j, "dev", rec->u.namespaces.links[i].dev);
			je_kv_u(j, "ino", rec->u.namespaces.links[i].ino);
			je_obj_end(j);
		}
		je_arr_end(j);
		break;
	case PD_REC_KSYMBOL:
		je_kv_x(j, "addr", rec->u.ksymbol.addr);
		je_kv_u(j, "len", rec->u.ksymbol.len);
		je_kv_u(j, "ksym_type", rec->u.ksymbol.ksym_type);
		je_kv_x(j, "flags", rec->u.ksymbol.flags);
		je_kv_s(j, "name", rec->u.ksymbol.name);
		break;
	case PD_REC_BPF_EVENT:
		je_kv_u(j, "bpf_type", rec->u.bpf_event.type);
		je_kv_x(j, "flags", rec->u.bpf_event.flags);
		je_kv_u(j, "id", rec->u.bpf_event.id);
		je_kv_bytes(j, "tag", rec->u.bpf_event.tag, sizeof(rec->u.bpf_event.tag));
		break;
	case PD_REC_CGROUP:
		je_kv_u(j, "id", rec->u.cgroup.id);
		je_kv_s(j, "path", rec->u.cgroup.path);
		break;
	case PD_REC_TEXT_POKE:
		je_kv_x(j, "addr", rec->u.text_poke.addr);
		je_kv_u(j, "old_len", rec->u.text_poke.old_len);
		je_kv_u(j, "new_len", rec->u.text_poke.new_len);
		je_kv_base64(j, "old", rec->u.text_poke.old_bytes,
			     rec->u.text_poke.old_bytes ? rec->u.text_poke.old_len : 0);
		je_kv_base64(j, "new", rec->u.text_poke.new_bytes,
			     rec->u.text_poke.new_bytes ? rec->u.text_poke.new_len : 0);
		break;
	case PD_REC_AUX_OUTPUT_HW_ID:
		je_kv_u(j, "hw_id", rec->u.aux_output_hw_id.hw_id);
		break;
	case PD_REC_CALLCHAIN_DEFERRED:
		je_kv_u(j, "cookie", rec->u.callchain_deferred.cookie);
		je_kv_u(j, "nr", rec->u.callchain_deferred.nr);
		hex_list(j, "ips", rec->u.callchain_deferred.ips, rec->u.callchain_deferred.nr);
		break;
	case PD_REC_HEADER_ATTR:
		splice(j, "attr", json_attr(&rec->u.header_attr.attr));
		je_kv_u(j, "attr_size", rec->u.header_attr.attr_size);
		je_kv_u(j, "nr_ids", rec->u.header_attr.nr_ids);
		je_key(j, "ids");
		je_arr_begin(j);
		for (i = 0; rec->u.header_attr.ids && i < rec->u.header_attr.nr_ids; i++)
			je_v_u(j, rec->u.header_attr.ids[i]);
		je_arr_end(j);
		break;
	case PD_REC_HEADER_EVENT_TYPE:
		je_kv_u(j, "event_id", rec->u.event_type.event_id);
		je_kv_s(j, "name", rec->u.event_type.name);
		break;
	case PD_REC_HEADER_TRACING_DATA:
	case PD_REC_SP_TRACING_DATA:
		je_kv_u(j, "data_size", rec->u.tracing_data.size);
		je_kv_bool(j, "inline", rec->u.tracing_data.inline_data);
		{
			const uint8_t *p = rec->u.tracing_data.inline_data ?
					   rec->u.tracing_data.data : rec->extra;

			if (p && (rec->u.tracing_data.inline_data ||
				  rec->u.tracing_data.size <= rec->extra_len))
				je_kv_base64(j, "data", p, rec->u.tracing_data.size);
		}
		break;
	case PD_REC_HEADER_BUILD_ID: {
		const struct pd_rec_build_id *b = &rec->u.build_id;
		const char *n = pd_cpumode_name(b->cpumode);

		if (n)
			je_kv_s(j, "cpumode", n);
		else
			je_kv_u(j, "cpumode", b->cpumode);
		je_kv_i(j, "pid", b->pid);
		je_kv_bytes(j, "build_id", b->build_id,
			    b->build_id_size <= 20 ? b->build_id_size : 20);
		je_kv_s(j, "filename", b->filename);
		break;
	}
	case PD_REC_ID_INDEX:
		je_kv_u(j, "nr", rec->u.id_index.nr);
		je_key(j, "entries");
		je_arr_begin(j);
		for (i = 0; rec->u.id_index.entries && i < rec->u.id_index.nr; i++) {
			const struct pd_id_index_entry *e = &rec->u.id_index.entries[i];

			je_obj_begin(j);
			je_kv_u(j, "id", e->id);
			je_kv_u(j, "idx", e->idx);
			je_kv_i(j, "cpu", (int64_t)e->cpu);
			je_kv_i(j, "tid", (int64_t)e->tid);
			if (rec->u.id_index.has_vcpu) {
				je_kv_u(j, "machine_pid", e->machine_pid);
				je_kv_u(j, "vcpu", e->vcpu);
			}
			je_obj_end(j);
		}
		je_arr_end(j);
		break;
	case PD_REC_AUXTRACE_INFO:
		je_kv_u(j, "auxtrace_type", rec->u.auxtrace_info.type);
		je_kv_u(j, "nr_priv", rec->u.auxtrace_info.nr_priv);
		hex_list(j, "priv", rec->u.auxtrace_info.priv, rec->u.auxtrace_info.nr_priv);
		break;
	case PD_REC_AUXTRACE: {
		const struct pd_rec_auxtrace *a = &rec->u.auxtrace;

		je_kv_u(j, "aux_size", a->size);
		je_kv_x(j, "aux_offset", a->offset);
		je_kv_x(j, "reference", a->reference);
		je_kv_u(j, "idx", a->idx);
		je_kv_i(j, "tid", (int32_t)a->tid);
		je_kv_i(j, "cpu", (int32_t)a->cpu);
		if (rec->extra)
			je_kv_base64(j, "data", rec->extra, (size_t)rec->extra_len);
		break;
	}
	case PD_REC_AUXTRACE_ERROR: {
		const struct pd_rec_auxtrace_error *e = &rec->u.auxtrace_error;

		je_kv_u(j, "error_type", e->type);
		je_kv_u(j, "code", e->code);
		je_kv_i(j, "cpu", (int32_t)e->cpu);
		je_kv_i(j, "pid", (int32_t)e->pid);
		je_kv_i(j, "tid", (int32_t)e->tid);
		je_kv_u(j, "fmt", e->fmt);
		je_kv_x(j, "ip", e->ip);
		je_kv_u(j, "time", e->time);
		if (e->fmt >= 2) {
			je_kv_i(j, "machine_pid", (int32_t)e->machine_pid);
			je_kv_i(j, "vcpu", (int32_t)e->vcpu);
		}
		je_kv_s(j, "msg", e->msg);
		break;
	}
	case PD_REC_THREAD_MAP:
		je_kv_u(j, "nr", rec->u.thread_map.nr);
		je_key(j, "threads");
		je_arr_begin(j);
		for (i = 0; rec->u.thread_map.entries && i < rec->u.thread_map.nr; i++) {
			je_obj_begin(j);
			je_kv_i(j, "pid", (int64_t)rec->u.thread_map.entries[i].pid);
			je_key(j, "comm");
			je_sep(j);
			je_str(j, rec->u.thread_map.entries[i].comm,
			       sizeof(rec->u.thread_map.entries[i].comm));
			je_obj_end(j);
		}
		je_arr_end(j);
		break;
	case PD_REC_CPU_MAP:
		je_kv_u(j, "nr", rec->u.cpu_map.map.nr);
		cpu_map(j, "map", &rec->u.cpu_map.map);
		break;
	case PD_REC_STAT_CONFIG:
		je_kv_u(j, "nr", rec->u.stat_config.nr);
		je_key(j, "config");
		je_arr_begin(j);
		for (i = 0; rec->u.stat_config.entries && i < rec->u.stat_config.nr; i++) {
			je_obj_begin(j);
			je_kv_u(j, "tag", rec->u.stat_config.entries[i].tag);
			je_kv_u(j, "val", rec->u.stat_config.entries[i].val);
			je_obj_end(j);
		}
		je_arr_end(j);
		break;
	case PD_REC_STAT:
		je_kv_u(j, "id", rec->u.stat.id);
		je_kv_i(j, "cpu", (int32_t)rec->u.stat.cpu);
		je_kv_i(j, "thread", (int32_t)rec->u.stat.thread);
		je_kv_u(j, "val", rec->u.stat.val);
		je_kv_u(j, "ena", rec->u.stat.ena);
		je_kv_u(j, "run", rec->u.stat.run);
		break;
	case PD_REC_STAT_ROUND:
		je_kv_u(j, "round_type", rec->u.stat_round.type);
		je_kv_u(j, "time", rec->u.stat_round.time);
		break;
	case PD_REC_EVENT_UPDATE: {
		const struct pd_rec_event_update *e = &rec->u.event_update;

		je_kv_u(j, "update_type", e->type);
		je_kv_u(j, "id", e->id);
		if (e->type == 0 || e->type == 2) {
			je_kv_s(j, e->type ? "name" : "unit", e->str);
		} else if (e->type == 1) {
			json_t *d = json_real(e->scale);

			splice(j, "scale", d);
		} else if (e->type == 3) {
			cpu_map(j, "cpus", &e->cpus);
		}
		break;
	}
	case PD_REC_TIME_CONV: {
		const struct pd_rec_time_conv *t = &rec->u.time_conv;

		je_kv_u(j, "time_shift", t->time_shift);
		je_kv_u(j, "time_mult", t->time_mult);
		je_kv_u(j, "time_zero", t->time_zero);
		if (t->extended) {
			je_kv_u(j, "time_cycles", t->time_cycles);
			je_kv_x(j, "time_mask", t->time_mask);
			je_kv_u(j, "cap_user_time_zero", t->cap_user_time_zero);
			je_kv_u(j, "cap_user_time_short", t->cap_user_time_short);
		}
		break;
	}
	case PD_REC_HEADER_FEATURE: {
		const struct pd_rec_header_feature *hf = &rec->u.header_feature;

		je_kv_bool(j, "end_marker", hf->end_marker);
		if (hf->end_marker)
			break;
		je_kv_u(j, "feat_id", hf->feat_id);
		/*
		 * By the time the record is delivered the reader has decoded the
		 * payload into its feature set: render it from there.
		 */
		splice(j, "feature", json_feature(pd_reader_features(fc->c->r),
						  (unsigned int)(hf->feat_id < PD_FEAT_BITS ?
								 hf->feat_id : 0),
						  hf->payload, hf->len,
						  hf->feat_id < PD_FEAT_BITS));
		break;
	}
	case PD_REC_COMPRESSED:
	case PD_REC_COMPRESSED2:
		je_kv_u(j, "data_size", rec->u.compressed.data_size);
		break;
	case PD_REC_BPF_METADATA:
		je_kv_s(j, "prog_name", rec->u.bpf_metadata.prog_name);
		je_kv_u(j, "nr", rec->u.bpf_metadata.nr);
		je_key(j, "entries");
		je_arr_begin(j);
		for (i = 0; rec->u.bpf_metadata.entries && i < rec->u.bpf_metadata.nr; i++) {
			je_obj_begin(j);
			je_kv_s(j, "key", rec->u.bpf_metadata.entries[i].key);
			je_kv_s(j, "value", rec->u.bpf_metadata.entries[i].value);
			je_obj_end(j);
		}
		je_arr_end(j);
		break;
	case PD_REC_SCHEDSTAT_CPU:
	case PD_REC_SCHEDSTAT_DOMAIN: {
		const struct pd_rec_schedstat *s = &rec->u.schedstat;

		je_kv_u(j, "timestamp", s->timestamp);
		je_kv_u(j, "cpu", s->cpu);
		je_kv_u(j, "version", s->version);
		if (rec->type == PD_REC_SCHEDSTAT_DOMAIN)
			je_kv_u(j, "domain", s->domain);
		je_kv_u(j, "nr", s->nr);
		je_key(j, "counters");
		je_obj_begin(j);
		for (i = 0; s->counters && i < s->nr; i++) {
			je_key_esc(j, s->counters[i].name);
			je_v_u(j, s->counters[i].value);
		}
		je_obj_end(j);
		je_kv_base64(j, "counter_bytes", s->counter_bytes,
			     s->counter_bytes ? s->counter_len : 0);
		break;
	}
	case PD_REC_SP_KERNEL_SYMBOL:
		je_kv_u(j, "kallsyms_size", rec->u.sp_kernel_symbol.kallsyms_size);
		je_key(j, "kallsyms");
		je_sep(j);
		je_strn(j, rec->u.sp_kernel_symbol.kallsyms,
			rec->u.sp_kernel_symbol.kallsyms ? rec->u.sp_kernel_symbol.kallsyms_size : 0);
		break;
	case PD_REC_SP_DSO:
		je_kv_u(j, "dso_type", rec->u.sp_dso.dso_type);
		je_kv_u(j, "dso_id", rec->u.sp_dso.dso_id);
		je_kv_x(j, "min_vaddr", rec->u.sp_dso.min_vaddr);
		je_kv_s(j, "name", rec->u.sp_dso.name);
		break;
	case PD_REC_SP_SYMBOL:
		je_kv_x(j, "addr", rec->u.sp_symbol.addr);
		je_kv_u(j, "len", rec->u.sp_symbol.len);
		je_kv_u(j, "dso_id", rec->u.sp_symbol.dso_id);
		je_kv_s(j, "name", rec->u.sp_symbol.name);
		break;
	case PD_REC_SP_EVENT_ID:
		je_kv_u(j, "nr", rec->u.sp_event_id.nr);
		je_key(j, "ids");
		je_arr_begin(j);
		for (i = 0; rec->u.sp_event_id.entries && i < rec->u.sp_event_id.nr; i++) {
			je_obj_begin(j);
			je_kv_u(j, "attr_index", rec->u.sp_event_id.entries[i].attr_index);
			je_kv_u(j, "event_id", rec->u.sp_event_id.entries[i].event_id);
			je_obj_end(j);
		}
		je_arr_end(j);
		break;
	case PD_REC_SP_CALLCHAIN: {
		const struct pd_rec_sp_callchain *c = &rec->u.sp_callchain;

		je_kv_i(j, "pid", (int32_t)c->pid);
		je_kv_i(j, "tid", (int32_t)c->tid);
		je_kv_u(j, "chain_type", c->chain_type);
		je_kv_u(j, "time", c->time);
		je_kv_u(j, "nr", c->nr);
		hex_list(j, "ips", c->ips, c->nr);
		hex_list(j, "sps", c->sps, c->nr);
		break;
	}
	case PD_REC_SP_UNWINDING_RESULT: {
		const struct pd_rec_sp_unwinding_result *u = &rec->u.sp_unwinding_result;

		je_kv_u(j, "time", u->time);
		je_kv_u(j, "used_time", u->used_time);
		je_kv_u(j, "error_code", u->error_code);
		je_kv_x(j, "error_addr", u->error_addr);
		je_kv_x(j, "stack_start", u->stack_start);
		je_kv_x(j, "stack_end", u->stack_end);
		je_kv_u(j, "regs_abi", u->regs_abi);
		je_kv_x(j, "reg_mask", u->reg_mask);
		hex_list(j, "regs", u->regs, u->nr_regs);
		je_kv_u(j, "stack_size", u->stack_size);
		je_kv_base64(j, "stack", u->stack, u->stack ? u->stack_size : 0);
		je_kv_u(j, "dyn_size", u->dyn_size);
		if (u->has_callchain) {
			je_kv_u(j, "callchain_nr", u->callchain_nr);
			hex_list(j, "ips", u->ips, u->callchain_nr);
			hex_list(j, "sps", u->sps, u->callchain_nr);
		}
		break;
	}
	case PD_REC_SP_DEBUG:
		je_kv_u(j, "time", rec->u.sp_debug.time);
		je_kv_s(j, "s", rec->u.sp_debug.s);
		break;
	default:
		/* FINISHED_ROUND, FINISHED_INIT, SPLIT markers: nothing but the header */
		break;
	}
}

static bool known_body(uint32_t type)
{
	return pd_record_type_known(type) != 0;
}

static void record(struct full_ctx *fc, const struct pd_record *rec)
{
	struct je *j = fc->j;
	char tbuf[24];

	je_reset(j);
	je_obj_begin(j);
	if (fc->c->jsonl)
		je_kv_s(j, "kind", "record");
	je_kv_s(j, "type", cli_type_name(rec->type, tbuf, sizeof(tbuf)));
	je_kv_u(j, "type_id", rec->type);
	je_kv_u(j, "index", rec->index);
	je_kv_u(j, "offset", rec->offset);
	je_kv_u(j, "size", rec->size);
	je_kv_x(j, "misc", rec->misc);
	if (rec->from_compressed) {
		je_key(j, "compressed");
		je_obj_begin(j);
		je_kv_u(j, "container_offset", rec->offset);
		je_kv_u(j, "inner_offset", rec->inner_offset);
		je_obj_end(j);
	}
	if (rec->stream)
		je_kv_s(j, "stream", rec->stream);
	if (rec->event_index >= 0 && rec->event)
		je_kv_i(j, "event", rec->event_index);
	je_kv_bool(j, "decoded", rec->decoded);
	if (rec->decoded)
		body(fc, rec);
	if (rec->decoded && rec->has_trailer)
		sid_fields(j, &rec->sid);
	if (rec->extra_len) {
		je_key(j, "extra");
		je_obj_begin(j);
		je_kv_u(j, "offset", rec->extra_offset);
		je_kv_u(j, "len", rec->extra_len);
		je_kv_bool(j, "held", rec->extra != NULL);
		je_obj_end(j);
	}
	/* what could not be decoded stays available as bytes */
	if ((!rec->decoded || !known_body(rec->type)) && rec->raw)
		je_kv_base64(j, "raw", rec->raw, rec->raw_len);
	je_obj_end(j);
}

static void write_json_value(struct je *j, json_t *v)
{
	char *txt = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER);

	if (txt)
		je_raw(j, txt, strlen(txt));
	free(txt);
}

static json_t *summary(struct full_ctx *fc)
{
	json_t *s = json_object(), *bt = json_object();
	unsigned int t;
	char tbuf[24];

	for (t = 0; t < PD_REC_TYPE_SLOTS; t++)
		if (fc->by_type[t])
			json_object_set_new(bt, t == 256 ? "OTHER" :
					    cli_type_name(slot_type(t), tbuf, sizeof(tbuf)),
					    json_integer((json_int_t)fc->by_type[t]));
	json_object_set_new(s, "records", json_integer((json_int_t)fc->c->records));
	json_object_set_new(s, "samples", json_integer((json_int_t)fc->c->samples));
	json_object_set_new(s, "undecoded", json_integer((json_int_t)fc->undecoded));
	json_object_set_new(s, "by_type", bt);
	json_object_set_new(s, "diagnostics", json_pack("{s:I,s:I,s:I}",
		"notes", (json_int_t)fc->c->cd->count[PD_SEV_NOTE],
		"warnings", (json_int_t)fc->c->cd->count[PD_SEV_WARNING],
		"errors", (json_int_t)fc->c->cd->count[PD_SEV_ERROR]));
	return s;
}

int json_full_write(struct jconv *c)
{
	struct full_ctx fc = { .c = c, .j = c->je, .first = true };
	const struct pd_features *f = pd_reader_features(c->r);
	const struct pd_record *rec;
	struct je *j = c->je;
	json_t *desc, *sum;
	int ret = 0, status = 0;

	fc.arch = f->arch;
	if (c->m) {
		fc.frames = calloc(PD_SYM_MAX_FRAMES, sizeof(*fc.frames));
		if (!fc.frames)
			return -3;
	}
	desc = json_file_description(c->r, c->input);
	if (!desc) {
		free(fc.frames);
		return -3;
	}
	if (pd_select_active(c->sel)) {
		/* say which samples this output holds: the options as given */
		json_t *sel = json_object();
		unsigned int k;

		for (k = 0; sel && k < PD_SELECT_NR_KEYS; k++) {
			const char *t = pd_select_text(c->sel, (enum pd_select_key)k);

			if (t)
				json_object_set_new(sel, pd_select_key_name((enum pd_select_key)k),
						    json_string(t));
		}
		if (sel && pd_select_reltime(c->sel))
			json_object_set_new(sel, "reltime", json_true());
		json_object_set_new(desc, "selection", sel);
	}
	if (c->jsonl) {
		json_object_set_new(desc, "kind", json_string("file"));
		write_json_value(j, desc);
		je_c(j, '\n');
	} else {
		je_lit(j, "{\"format\":\"perfconv-full\",\"schema_version\":");
		je_u64(j, JSON_FULL_SCHEMA_VERSION);
		je_lit(j, ",\"file\":");
		write_json_value(j, desc);
		je_lit(j, ",\"records\":[");
	}
	json_decref(desc);

	while (!c->stop && (ret = pd_reader_next(c->r, &rec)) > 0) {
		c->records++;
		if (c->tick && !(c->records & 4095))
			c->tick(c);
		if (rec->type == PD_REC_HEADER_TRACING_DATA)
			jconv_take_tracing(c, rec);
		/* in file order the machine is fed by the time-ordered reader */
		if (c->m && !c->ahead && pd_machine_process(c->m, rec) < 0) {
			status = -3;
			break;
		}
		if (rec->type == PD_REC_SAMPLE)
			c->samples++;
		if (!rec->decoded)
			fc.undecoded++;
		fc.by_type[type_slot(rec->type)]++;
		if (!c->jsonl && !fc.first)
			je_c(j, ',');
		if (!c->jsonl)
			je_c(j, '\n');
		fc.first = false;
		record(&fc, rec);
		if (c->jsonl)
			je_c(j, '\n');
		if (fc.nomem) {
			status = -3;
			break;
		}
	}
	if (!status && ret < 0)
		status = ret;
	sum = summary(&fc);
	json_object_set_new(sum, "complete", json_boolean(!status && !c->stop));
	if (c->jsonl) {
		json_object_set_new(sum, "kind", json_string("summary"));
		write_json_value(j, sum);
		je_c(j, '\n');
	} else {
		je_lit(j, "\n],\"summary\":");
		write_json_value(j, sum);
		je_lit(j, "}\n");
	}
	json_decref(sum);
	free(fc.frames);
	return status;
}
