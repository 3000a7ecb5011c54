// SPDX-License-Identifier: MIT
/*
 * visit.c - the field list of every record type, walked into a sink of
 * typed callbacks (pd_visit.h).
 *
 * This is the one place that says which fields a record shows, in which
 * order and under which condition: the fixed fields of each type as
 * layout.c describes them, then the rest, which depends on the data; dump, to-json --full and the unit
 * tests see records through it.  It knows nothing of any output format:
 * where outputs must differ, a flag describes the field and the sink
 * decides.
 */
#include <string.h>

#include "perfdata/pd_consts.h"
#include "perfdata/pd_visit.h"
#include "layout.h"

struct walk {
	const struct pd_visit_ops *ops;
	void *ctx;
};

static void u(const struct walk *w, const char *name, uint64_t v)
{
	w->ops->u64(w->ctx, name, v, 0);
}

static void uf(const struct walk *w, const char *name, uint64_t v, unsigned int flags)
{
	w->ops->u64(w->ctx, name, v, flags);
}

/* pids, tids and cpus are 32-bit fields where -1 means "any" */
static void i32(const struct walk *w, const char *name, uint32_t v)
{
	w->ops->i64(w->ctx, name, (int32_t)v, 0);
}

static void i64(const struct walk *w, const char *name, int64_t v)
{
	w->ops->i64(w->ctx, name, v, 0);
}

static void x(const struct walk *w, const char *name, uint64_t v)
{
	w->ops->hex(w->ctx, name, v, 0);
}

static void s(const struct walk *w, const char *name, const char *str)
{
	w->ops->str(w->ctx, name, str, SIZE_MAX, 0);
}

static void sf(const struct walk *w, const char *name, const char *str, unsigned int flags)
{
	w->ops->str(w->ctx, name, str, SIZE_MAX, flags);
}

static void flag(const struct walk *w, const char *name, bool set)
{
	w->ops->flag(w->ctx, name, set, 0);
}

static void bytes(const struct walk *w, const char *name, const void *p, size_t n,
		  unsigned int flags)
{
	w->ops->bytes(w->ctx, name, p, n, flags);
}

static void build_id(const struct walk *w, const uint8_t *id, uint8_t size)
{
	bytes(w, "build_id", id, size <= 20 ? size : 20, 0);
}

static void list_begin(const struct walk *w, const char *name, unsigned int flags)
{
	w->ops->list_begin(w->ctx, name, flags);
}

static void list_end(const struct walk *w)
{
	w->ops->list_end(w->ctx);
}

static void obj_begin(const struct walk *w, const char *name, const char *flat)
{
	w->ops->obj_begin(w->ctx, name, flat, 0);
}

/* an entry of a list of objects */
static void entry_begin(const struct walk *w)
{
	w->ops->obj_begin(w->ctx, NULL, NULL, 0);
}

static void obj_end(const struct walk *w)
{
	w->ops->obj_end(w->ctx);
}

static void hex_list(const struct walk *w, const char *name, const uint64_t *v, uint64_t nr,
		     unsigned int flags)
{
	uint64_t i;

	if (w->ops->hex_list) {
		w->ops->hex_list(w->ctx, name, v, v ? nr : 0, flags);
		return;
	}
	list_begin(w, name, flags);
	for (i = 0; v && i < nr; i++)
		x(w, NULL, v[i]);
	list_end(w);
}

static void cpu_map(const struct walk *w, const char *name, const struct pd_cpu_map *m)
{
	uint32_t i;

	obj_begin(w, name, "cpus_");
	u(w, "encoding", m->encoding);
	if (m->encoding == 1)
		u(w, "long_size", m->long_size);
	flag(w, "any_cpu", m->any_cpu);
	list_begin(w, "cpus", PD_VF_MAIN);
	for (i = 0; m->cpus && i < m->nr; i++)
		u(w, NULL, m->cpus[i]);
	list_end(w);
	obj_end(w);
}

/* a decoded member of 1, 2, 4 or 8 bytes */
static uint64_t member(const struct pd_record *rec, unsigned int off, unsigned int size)
{
	const uint8_t *m = (const uint8_t *)rec + off;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	switch (size) {
	case 8:
		memcpy(&v64, m, 8);
		return v64;
	case 4:
		memcpy(&v32, m, 4);
		return v32;
	case 2:
		memcpy(&v16, m, 2);
		return v16;
	default:
		return *m;
	}
}

static const char *member_str(const struct pd_record *rec, unsigned int off)
{
	const char *str;

	memcpy(&str, (const uint8_t *)rec + off, sizeof(str));
	return str;
}

/* The fixed fields of the record's layout that start in [from, to). */
static void fields_in(const struct walk *w, const struct pd_record *rec,
		      const struct pd_layout *l, size_t from, size_t to)
{
	const struct pd_field *f, *end = pd_layout_fields_stop(l);

	for (f = l->fields; f < end; f++) {
		if (f->off < from || f->off >= to)
			continue;
		switch (f->kind) {
		case PD_FK_U:
			u(w, f->name, member(rec, f->member, f->member_size));
			break;
		case PD_FK_X:
			x(w, f->name, member(rec, f->member, f->member_size));
			break;
		case PD_FK_PID:
			i32(w, f->name, (uint32_t)member(rec, f->member, f->member_size));
			break;
		case PD_FK_BYTES:
			bytes(w, f->name, (const uint8_t *)rec + f->member, f->size, 0);
			break;
		case PD_FK_STR:
			s(w, f->name, member_str(rec, f->member));
			break;
		default:
			break;	/* reserved words and padding */
		}
	}
}

static void fields(const struct walk *w, const struct pd_record *rec, const struct pd_layout *l)
{
	fields_in(w, rec, l, 8, SIZE_MAX);
}

/* the layout's misc flag, then its string */
static void misc_and_string(const struct walk *w, const struct pd_record *rec,
			    const struct pd_layout *l)
{
	if (l->misc_name)
		flag(w, l->misc_name, rec->misc & l->misc_bit);
	if (l->str_name)
		s(w, l->str_name, member_str(rec, l->str_member));
}

static void cpumode(const struct walk *w, unsigned int mode)
{
	w->ops->sym(w->ctx, "cpumode", pd_cpumode_name(mode), mode, 0);
}

static void sample(const struct walk *w, const struct pd_record *rec)
{
	const struct pd_sample *sa = &rec->u.sample;
	uint64_t t = sa->sample_type;

	if (rec->event) {
		sf(w, "event_name", rec->event->name, PD_VF_DETAIL);
		sf(w, "event", rec->event->name, PD_VF_SUMMARY);
	}
	cpumode(w, rec->misc & PD_MISC_CPUMODE_MASK);
	flag(w, "exact_ip", rec->misc & PD_MISC_EXACT_IP);
	w->ops->hex(w->ctx, "sample_type", t, PD_VF_DETAIL);

	/* the order of the fields in the record */
	if (t & PD_SAMPLE_IDENTIFIER)
		u(w, "identifier", sa->identifier);
	if (t & PD_SAMPLE_IP)
		x(w, "ip", sa->ip);
	if (t & PD_SAMPLE_TID) {
		i32(w, "pid", sa->pid);
		i32(w, "tid", sa->tid);
	}
	if (t & PD_SAMPLE_TIME)
		u(w, "time", sa->time);
	if (t & PD_SAMPLE_ADDR)
		x(w, "addr", sa->addr);
	if (t & PD_SAMPLE_ID)
		u(w, "id", sa->id);
	if (t & PD_SAMPLE_STREAM_ID)
		u(w, "stream_id", sa->stream_id);
	if (t & PD_SAMPLE_CPU) {
		i32(w, "cpu", sa->cpu);
		uf(w, "cpu_res", sa->cpu_res, PD_VF_DETAIL);
	}
	/* without PERIOD the attr's fixed period is what perf reports */
	uf(w, "period", sa->period, t & PD_SAMPLE_PERIOD ? 0 : PD_VF_DETAIL);
	if (t & PD_SAMPLE_READ)
		w->ops->read(w->ctx, "read", &sa->read);
	if (t & PD_SAMPLE_CALLCHAIN) {
		uf(w, "callchain_nr", sa->callchain_nr, PD_VF_SUMMARY);
		hex_list(w, "callchain", sa->callchain, sa->callchain_nr, PD_VF_CALLCHAIN);
	}
	if (t & PD_SAMPLE_RAW) {
		u(w, "raw_size", sa->raw_size);
		bytes(w, "raw", sa->raw_data, sa->raw_size, PD_VF_PAYLOAD | PD_VF_BULK);
		if (w->ops->raw_fields)
			w->ops->raw_fields(w->ctx, rec);
	}
	if (t & PD_SAMPLE_BRANCH_STACK)
		w->ops->branch_stack(w->ctx, sa);
	if (t & PD_SAMPLE_REGS_USER)
		w->ops->regs(w->ctx, "regs_user", &sa->regs_user);
	if (t & PD_SAMPLE_STACK_USER) {
		obj_begin(w, "stack_user", "stack_");
		u(w, "size", sa->stack_size);
		if (sa->stack_size)
			u(w, "dyn_size", sa->stack_dyn_size);
		bytes(w, "data", sa->stack_data, sa->stack_size, PD_VF_PAYLOAD | PD_VF_DETAIL);
		obj_end(w);
	}
	/* the kernel refuses both bits together; a file may still have them */
	if (t & PD_SAMPLE_WEIGHT)
		u(w, "weight", sa->weight);
	if (t & PD_SAMPLE_WEIGHT_STRUCT) {
		uf(w, "weight", sa->weight, t & PD_SAMPLE_WEIGHT ? PD_VF_SUMMARY : 0);
		obj_begin(w, "weight_struct", "weight.");
		u(w, "var1", PD_WEIGHT_VAR1(sa->weight));
		u(w, "var2", PD_WEIGHT_VAR2(sa->weight));
		u(w, "var3", PD_WEIGHT_VAR3(sa->weight));
		obj_end(w);
	}
	if (t & PD_SAMPLE_DATA_SRC)
		x(w, "data_src", sa->data_src);
	if (t & PD_SAMPLE_TRANSACTION)
		x(w, "transaction", sa->transaction);
	if (t & PD_SAMPLE_REGS_INTR)
		w->ops->regs(w->ctx, "regs_intr", &sa->regs_intr);
	if (t & PD_SAMPLE_PHYS_ADDR)
		x(w, "phys_addr", sa->phys_addr);
	if (t & PD_SAMPLE_CGROUP)
		u(w, "cgroup", sa->cgroup);
	if (t & PD_SAMPLE_DATA_PAGE_SIZE)
		u(w, "data_page_size", sa->data_page_size);
	if (t & PD_SAMPLE_CODE_PAGE_SIZE)
		u(w, "code_page_size", sa->code_page_size);
	if (t & PD_SAMPLE_AUX) {
		u(w, "aux_size", sa->aux_size);
		bytes(w, "aux", sa->aux_data, sa->aux_size, PD_VF_PAYLOAD | PD_VF_BULK);
	}
}

/* With misc bit 14 a build id takes the place of maj..ino_generation. */
static void mmap2(const struct walk *w, const struct pd_record *rec, const struct pd_layout *l)
{
	const struct pd_rec_mmap *m = &rec->u.mmap;

	if (!m->has_build_id) {
		fields(w, rec, l);
	} else {
		fields_in(w, rec, l, 8, PD_MMAP2_BUILD_ID_START);
		build_id(w, m->build_id, m->build_id_size);
		fields_in(w, rec, l, PD_MMAP2_BUILD_ID_END, SIZE_MAX);
	}
	misc_and_string(w, rec, l);
}

static void namespaces(const struct walk *w, const struct pd_rec_namespaces *ns)
{
	uint64_t i;

	list_begin(w, "links", PD_VF_UNNAMED);
	for (i = 0; ns->links && i < ns->nr; i++) {
		entry_begin(w);
		x(w, "dev", ns->links[i].dev);
		u(w, "ino", ns->links[i].ino);
		obj_end(w);
	}
	list_end(w);
}

static void header_attr(const struct walk *w, const struct pd_rec_header_attr *ha)
{
	uint64_t i;

	w->ops->attr(w->ctx, &ha->attr);
	u(w, "attr_size", ha->attr_size);
	u(w, "nr_ids", ha->nr_ids);
	list_begin(w, "ids", 0);
	for (i = 0; ha->ids && i < ha->nr_ids; i++)
		u(w, NULL, ha->ids[i]);
	list_end(w);
}

static void tracing_data(const struct walk *w, const struct pd_record *rec)
{
	const struct pd_rec_tracing_data *td = &rec->u.tracing_data;
	const uint8_t *p = td->inline_data ? td->data : rec->extra;

	flag(w, "inline", td->inline_data);
	if (p && (td->inline_data || td->size <= rec->extra_len))
		bytes(w, "data", p, td->size, PD_VF_PAYLOAD | PD_VF_DETAIL);
}

static void id_index(const struct walk *w, const struct pd_rec_id_index *ii)
{
	uint64_t i;

	list_begin(w, "entries", 0);
	for (i = 0; ii->entries && i < ii->nr; i++) {
		const struct pd_id_index_entry *e = &ii->entries[i];

		entry_begin(w);
		u(w, "id", e->id);
		u(w, "idx", e->idx);
		i64(w, "cpu", (int64_t)e->cpu);
		i64(w, "tid", (int64_t)e->tid);
		if (ii->has_vcpu) {
			u(w, "machine_pid", e->machine_pid);
			u(w, "vcpu", e->vcpu);
		}
		obj_end(w);
	}
	list_end(w);
}

/* the AUX data, which follows the record */
static void auxtrace(const struct walk *w, const struct pd_record *rec)
{
	if (rec->extra)
		bytes(w, "data", rec->extra, (size_t)rec->extra_len, PD_VF_PAYLOAD | PD_VF_DETAIL);
}

static void auxtrace_error(const struct walk *w, const struct pd_rec_auxtrace_error *e)
{
	u(w, "time", e->time);
	if (e->fmt >= 2) {
		i32(w, "machine_pid", e->machine_pid);
		i32(w, "vcpu", e->vcpu);
	}
}

static void thread_map(const struct walk *w, const struct pd_rec_thread_map *tm)
{
	uint64_t i;

	list_begin(w, "threads", PD_VF_PAIR);
	for (i = 0; tm->entries && i < tm->nr; i++) {
		entry_begin(w);
		i64(w, "pid", (int64_t)tm->entries[i].pid);
		w->ops->str(w->ctx, "comm", tm->entries[i].comm, sizeof(tm->entries[i].comm), 0);
		obj_end(w);
	}
	list_end(w);
}

static void stat_config(const struct walk *w, const struct pd_rec_stat_config *sc)
{
	uint64_t i;

	list_begin(w, "config", PD_VF_PAIR);
	for (i = 0; sc->entries && i < sc->nr; i++) {
		entry_begin(w);
		u(w, "tag", sc->entries[i].tag);
		u(w, "val", sc->entries[i].val);
		obj_end(w);
	}
	list_end(w);
}

static void event_update(const struct walk *w, const struct pd_rec_event_update *e)
{
	if (e->type == 0 || e->type == 2)
		s(w, e->type ? "name" : "unit", e->str);
	else if (e->type == 1)
		w->ops->real(w->ctx, "scale", e->scale, 0);
	else if (e->type == 3)
		cpu_map(w, "cpus", &e->cpus);
}

static void time_conv(const struct walk *w, const struct pd_rec_time_conv *t)
{
	if (t->extended) {
		u(w, "time_cycles", t->time_cycles);
		x(w, "time_mask", t->time_mask);
		u(w, "cap_user_time_zero", t->cap_user_time_zero);
		u(w, "cap_user_time_short", t->cap_user_time_short);
	}
}

static void header_feature(const struct walk *w, const struct pd_record *rec,
			   const struct pd_layout *l)
{
	const struct pd_rec_header_feature *hf = &rec->u.header_feature;

	flag(w, "end_marker", hf->end_marker);
	if (hf->end_marker)
		return;
	fields(w, rec, l);
	w->ops->feature(w->ctx, hf);
	uf(w, "len", hf->len, PD_VF_SUMMARY);
}

static void bpf_metadata(const struct walk *w, const struct pd_rec_bpf_metadata *bm)
{
	uint64_t i;

	list_begin(w, "entries", PD_VF_AS_FIELDS);
	for (i = 0; bm->entries && i < bm->nr; i++) {
		entry_begin(w);
		s(w, "key", bm->entries[i].key);
		s(w, "value", bm->entries[i].value);
		obj_end(w);
	}
	list_end(w);
}

static void schedstat(const struct walk *w, const struct pd_record *rec)
{
	const struct pd_rec_schedstat *ss = &rec->u.schedstat;
	uint32_t i;

	u(w, "nr", ss->nr);
	obj_begin(w, "counters", "");
	for (i = 0; ss->counters && i < ss->nr; i++)
		uf(w, ss->counters[i].name, ss->counters[i].value, PD_VF_INPUT_NAME);
	obj_end(w);
	/* a version the decoder does not know: the size of what it kept */
	if (!ss->nr)
		uf(w, "counter_bytes", ss->counter_len, PD_VF_SUMMARY);
	bytes(w, "counter_bytes", ss->counter_bytes, ss->counter_len,
	      PD_VF_PAYLOAD | PD_VF_DETAIL);
}

static void sp_event_id(const struct walk *w, const struct pd_rec_sp_event_id *ei)
{
	uint64_t i;

	list_begin(w, "ids", PD_VF_PAIR);
	for (i = 0; ei->entries && i < ei->nr; i++) {
		entry_begin(w);
		u(w, "attr_index", ei->entries[i].attr_index);
		u(w, "event_id", ei->entries[i].event_id);
		obj_end(w);
	}
	list_end(w);
}

static void sp_callchain(const struct walk *w, const struct pd_rec_sp_callchain *c)
{
	hex_list(w, "ips", c->ips, c->nr, 0);
	hex_list(w, "sps", c->sps, c->nr, 0);
}

static void sp_unwinding_result(const struct walk *w, const struct pd_rec_sp_unwinding_result *r)
{
	hex_list(w, "regs", r->regs, r->nr_regs, 0);
	u(w, "stack_size", r->stack_size);
	bytes(w, "stack", r->stack, r->stack_size, PD_VF_PAYLOAD | PD_VF_DETAIL);
	u(w, "dyn_size", r->dyn_size);
	if (r->has_callchain) {
		u(w, "callchain_nr", r->callchain_nr);
		hex_list(w, "ips", r->ips, r->callchain_nr, 0);
		hex_list(w, "sps", r->sps, r->callchain_nr, 0);
	}
}

void pd_record_visit(const struct pd_record *rec, const struct pd_visit_ops *ops, void *ctx)
{
	const struct walk wk = { .ops = ops, .ctx = ctx }, *w = &wk;
	const struct pd_layout *l = pd_record_layout(rec->type);

	if (!rec->decoded || !l)
		return;
	/* what the data decides: before, among or after the fixed fields */
	switch (rec->type) {
	case PD_REC_SAMPLE:
		sample(w, rec);
		return;
	case PD_REC_MMAP2:
		mmap2(w, rec, l);
		return;
	case PD_REC_SWITCH:
	case PD_REC_SWITCH_CPU_WIDE: {
		const char *dir = rec->misc & PD_MISC_SWITCH_OUT ? "out" : "in";

		sf(w, "direction", dir, PD_VF_DETAIL);
		sf(w, "dir", dir, PD_VF_SUMMARY);
		flag(w, "preempt", rec->misc & PD_MISC_SWITCH_OUT_PREEMPT);
		fields(w, rec, l);
		return;
	}
	case PD_REC_HEADER_ATTR:
		header_attr(w, &rec->u.header_attr);
		return;
	case PD_REC_HEADER_BUILD_ID:
		cpumode(w, rec->u.build_id.cpumode);
		fields_in(w, rec, l, 8, 12);	/* pid */
		build_id(w, rec->u.build_id.build_id, rec->u.build_id.build_id_size);
		misc_and_string(w, rec, l);
		return;
	case PD_REC_CPU_MAP:
		u(w, "nr", rec->u.cpu_map.map.nr);
		cpu_map(w, "map", &rec->u.cpu_map.map);
		return;
	case PD_REC_HEADER_FEATURE:
		header_feature(w, rec, l);
		return;
	case PD_REC_COMPRESSED:
		u(w, "data_size", rec->u.compressed.data_size);
		return;
	default:
		break;
	}

	fields(w, rec, l);
	switch (rec->type) {
	case PD_REC_READ:
		ops->read(ctx, "values", &rec->u.read.values);
		break;
	case PD_REC_NAMESPACES:
		namespaces(w, &rec->u.namespaces);
		break;
	case PD_REC_TEXT_POKE:
		bytes(w, "old", rec->u.text_poke.old_bytes, rec->u.text_poke.old_len, PD_VF_PAYLOAD);
		bytes(w, "new", rec->u.text_poke.new_bytes, rec->u.text_poke.new_len, PD_VF_PAYLOAD);
		break;
	case PD_REC_CALLCHAIN_DEFERRED:
		hex_list(w, "ips", rec->u.callchain_deferred.ips, rec->u.callchain_deferred.nr,
			 PD_VF_CALLCHAIN);
		break;
	case PD_REC_HEADER_TRACING_DATA:
	case PD_REC_SP_TRACING_DATA:
		tracing_data(w, rec);
		break;
	case PD_REC_ID_INDEX:
		id_index(w, &rec->u.id_index);
		break;
	case PD_REC_AUXTRACE_INFO:
		u(w, "nr_priv", rec->u.auxtrace_info.nr_priv);
		hex_list(w, "priv", rec->u.auxtrace_info.priv, rec->u.auxtrace_info.nr_priv, 0);
		break;
	case PD_REC_AUXTRACE:
		auxtrace(w, rec);
		break;
	case PD_REC_AUXTRACE_ERROR:
		auxtrace_error(w, &rec->u.auxtrace_error);
		break;
	case PD_REC_THREAD_MAP:
		thread_map(w, &rec->u.thread_map);
		break;
	case PD_REC_STAT_CONFIG:
		stat_config(w, &rec->u.stat_config);
		break;
	case PD_REC_EVENT_UPDATE:
		event_update(w, &rec->u.event_update);
		break;
	case PD_REC_TIME_CONV:
		time_conv(w, &rec->u.time_conv);
		break;
	case PD_REC_BPF_METADATA:
		bpf_metadata(w, &rec->u.bpf_metadata);
		break;
	case PD_REC_SCHEDSTAT_CPU:
	case PD_REC_SCHEDSTAT_DOMAIN:
		schedstat(w, rec);
		break;
	case PD_REC_SP_KERNEL_SYMBOL:
		bytes(w, "kallsyms", rec->u.sp_kernel_symbol.kallsyms,
		      rec->u.sp_kernel_symbol.kallsyms_size,
		      PD_VF_PAYLOAD | PD_VF_TEXT | PD_VF_DETAIL);
		break;
	case PD_REC_SP_EVENT_ID:
		sp_event_id(w, &rec->u.sp_event_id);
		break;
	case PD_REC_SP_CALLCHAIN:
		sp_callchain(w, &rec->u.sp_callchain);
		break;
	case PD_REC_SP_UNWINDING_RESULT:
		sp_unwinding_result(w, &rec->u.sp_unwinding_result);
		break;
	default:
		break;
	}
	misc_and_string(w, rec, l);
}

void pd_sample_id_visit(const struct pd_sample_id *sid, const struct pd_visit_ops *ops, void *ctx)
{
	const struct walk wk = { .ops = ops, .ctx = ctx }, *w = &wk;

	obj_begin(w, "sample_id", "sid.");
	if (sid->present & PD_SAMPLE_TID) {
		i32(w, "pid", sid->pid);
		i32(w, "tid", sid->tid);
	}
	if (sid->present & PD_SAMPLE_TIME)
		u(w, "time", sid->time);
	if (sid->present & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER))
		u(w, "id", sid->id);
	if (sid->present & PD_SAMPLE_STREAM_ID)
		u(w, "stream_id", sid->stream_id);
	if (sid->present & PD_SAMPLE_CPU) {
		i32(w, "cpu", sid->cpu);
		uf(w, "cpu_res", sid->cpu_res, PD_VF_DETAIL);
	}
	obj_end(w);
}
