// SPDX-License-Identifier: MIT
/*
 * visit.c - the field list of every record type and every header
 * feature, walked into a sink of typed callbacks (pd_visit.h).
 *
 * This is the one place that says which fields a record shows, in which
 * order and under which condition: the fixed fields of each type as
 * layout_tables.h describes them, then the rest, which depends on the
 * data, a sample's as pd_sample_fields.h lists them; dump, the CSV records
 * table, to-json --full, to-proto's events and the unit tests see records
 * through it (to-proto its samples through pd_sample_fields.h).  The same holds for the decoded
 * features (feature.c): the JSON form of info and to-json --full is a
 * sink of their walk, and so are the event attrs of info, dump and the
 * JSON documents (pd_attr_visit()).  It knows nothing of any output format: where
 * outputs must differ, a flag describes the field and the sink decides.
 */
#include <string.h>

#include "perfdata/pd_consts.h"
#include "perfdata/pd_sample_fields.h"
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

/* a member of rec's sample, off bytes into struct pd_sample */
#define SAMPLE_AT(rec, off) ((const uint8_t *)(rec) + offsetof(struct pd_record, u.sample) + (off))

static uint64_t sample_u64(const struct pd_record *rec, uint16_t off)
{
	uint64_t v;

	memcpy(&v, SAMPLE_AT(rec, off), sizeof(v));
	return v;
}

static uint32_t sample_u32(const struct pd_record *rec, uint16_t off)
{
	uint32_t v;

	memcpy(&v, SAMPLE_AT(rec, off), sizeof(v));
	return v;
}

static const void *sample_ptr(const struct pd_record *rec, uint16_t off)
{
	const void *p;

	memcpy(&p, SAMPLE_AT(rec, off), sizeof(p));
	return p;
}

/*
 * One field of pd_sample_field_table[].  Inlined into the loop of
 * sample() over the constant table, which the compiler unrolls: each
 * field's kind, member and flags are then known when compiling, as in a
 * walk written field by field.
 */
static inline __attribute__((always_inline)) void
sample_field(const struct walk *w, const struct pd_record *rec, uint64_t t,
	     const struct pd_sample_field *f)
{
	unsigned int vflags = f->vflags;

	/* expected there: its code in line, a jump over it when it is not */
	if (__builtin_expect(f->bit && !(t & f->bit), 0)) {
		if (!(f->flags & PD_SFF_DEFAULTED))
			return;
		vflags |= PD_VF_DETAIL;
	}
	switch (f->kind) {
	case PD_SF_U64:
		uf(w, f->name, sample_u64(rec, f->member), vflags);
		break;
	case PD_SF_HEX:
		w->ops->hex(w->ctx, f->name, sample_u64(rec, f->member), vflags);
		break;
	case PD_SF_U32:
		uf(w, f->name, sample_u32(rec, f->member), vflags);
		break;
	case PD_SF_I32:
		w->ops->i64(w->ctx, f->name, (int32_t)sample_u32(rec, f->member), vflags);
		break;
	case PD_SF_READ:
		w->ops->read(w->ctx, f->name, (const struct pd_read *)SAMPLE_AT(rec, f->member));
		break;
	case PD_SF_CALLCHAIN:
		hex_list(w, f->name, sample_ptr(rec, f->member), sample_u64(rec, f->count), vflags);
		break;
	case PD_SF_RAW:
		bytes(w, f->name, sample_ptr(rec, f->member), sample_u32(rec, f->count), vflags);
		if (w->ops->raw_fields)
			w->ops->raw_fields(w->ctx, rec);
		break;
	case PD_SF_BYTES:
		bytes(w, f->name, sample_ptr(rec, f->member), sample_u64(rec, f->count), vflags);
		break;
	case PD_SF_BRANCH_STACK:
		w->ops->branch_stack(w->ctx, &rec->u.sample);
		break;
	case PD_SF_REGS:
		w->ops->regs(w->ctx, f->name, (const struct pd_regs *)SAMPLE_AT(rec, f->member));
		break;
	case PD_SF_STACK:
		obj_begin(w, f->name, f->flat);
		u(w, "size", rec->u.sample.stack_size);
		if (rec->u.sample.stack_size)
			u(w, "dyn_size", rec->u.sample.stack_dyn_size);
		bytes(w, "data", rec->u.sample.stack_data, rec->u.sample.stack_size,
		      PD_VF_PAYLOAD | PD_VF_DETAIL);
		obj_end(w);
		break;
	case PD_SF_WEIGHT_STRUCT: {
		uint64_t v = sample_u64(rec, f->member);

		uf(w, "weight", v, t & PD_SAMPLE_WEIGHT ? PD_VF_SUMMARY : 0);
		obj_begin(w, f->name, f->flat);
		u(w, "var1", PD_WEIGHT_VAR1(v));
		u(w, "var2", PD_WEIGHT_VAR2(v));
		u(w, "var3", PD_WEIGHT_VAR3(v));
		obj_end(w);
		break;
	}
	default:
		break;
	}
}

static void sample(const struct walk *w, const struct pd_record *rec)
{
	/* read once: the sink's calls could change what the compiler cannot see */
	const uint64_t t = rec->u.sample.sample_type;
	size_t i;

	if (rec->event) {
		sf(w, "event_name", rec->event->name, PD_VF_DETAIL);
		sf(w, "event", rec->event->name, PD_VF_SUMMARY);
	}
	cpumode(w, rec->misc & PD_MISC_CPUMODE_MASK);
	flag(w, "exact_ip", rec->misc & PD_MISC_EXACT_IP);
#pragma GCC unroll 64
	for (i = 0; i < PD_SFI_NR; i++)
		sample_field(w, rec, t, &pd_sample_field_table[i]);
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

	w->ops->attr(w->ctx, &ha->attr, 0);
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

/*
 * The trailer's fields in its order (pd_sample_fields.h), each member
 * once: id where ID is, when ID or IDENTIFIER is there.  A loop the
 * compiler unrolls, as sample()'s.
 */
void pd_sample_id_visit(const struct pd_sample_id *sid, const struct pd_visit_ops *ops, void *ctx)
{
	const struct walk wk = { .ops = ops, .ctx = ctx }, *w = &wk;
	const uint8_t *base = (const uint8_t *)sid;
	/* read once: the sink's calls could change what the compiler cannot see */
	const uint64_t present = sid->present;
	const struct pd_sample_field *f;
	uint32_t v32;
	uint64_t v64;
	size_t k;

	obj_begin(w, "sample_id", "sid.");
#pragma GCC unroll 64
	for (k = 0; k < PD_SID_STEPS; k++) {
		f = pd_sample_id_field(k);
		if (!f || pd_sample_id_repeats(k) || !(present & pd_sample_id_member_bits(f)))
			continue;
		switch (f->kind) {
		case PD_SF_U32:
			memcpy(&v32, base + f->sid_member, sizeof(v32));
			uf(w, f->name, v32, f->vflags);
			break;
		case PD_SF_I32:
			memcpy(&v32, base + f->sid_member, sizeof(v32));
			w->ops->i64(w->ctx, f->name, (int32_t)v32, f->vflags);
			break;
		case PD_SF_HEX:
			memcpy(&v64, base + f->sid_member, sizeof(v64));
			w->ops->hex(w->ctx, f->name, v64, f->vflags);
			break;
		default:
			memcpy(&v64, base + f->sid_member, sizeof(v64));
			uf(w, f->name, v64, f->vflags);
			break;
		}
	}
	obj_end(w);
}

/* ---- perf_event_attr ---- */

/*
 * The names of the bits set in v but those of `leave_out`, as a list of
 * syms; a bit without a name is "bitN".  The list's flags go to each
 * name too, so that a sink drops a list it leaves out without tracking it.
 */
static void bit_names(const struct walk *w, const char *name, uint64_t v, uint64_t leave_out,
		      const char *(*bit_name)(unsigned int bit), unsigned int flags)
{
	unsigned int bit;

	flags |= PD_VF_BITS;
	list_begin(w, name, flags);
	for (bit = 0; bit < 64; bit++) {
		const char *n;
		char unnamed[8];

		if (!(v >> bit & 1) || (leave_out >> bit & 1))
			continue;
		n = bit_name(bit);
		if (!n) {
			size_t i = 3;

			memcpy(unnamed, "bit", 3);
			if (bit >= 10)
				unnamed[i++] = (char)('0' + bit / 10);
			unnamed[i++] = (char)('0' + bit % 10);
			unnamed[i] = '\0';
			n = unnamed;
		}
		w->ops->sym(w->ctx, NULL, n, 1ULL << bit, flags);
	}
	list_end(w);
}

/*
 * A mask: its value, then the names of its bits under name_names; a
 * summary shows the names alone, under the mask's name, and leaves out
 * an empty one where it is rare enough (`when_zero` false) to be noise.
 */
static void mask(const struct walk *w, const char *name, const char *name_names, uint64_t v,
		 const char *(*bit_name)(unsigned int bit), bool when_zero)
{
	w->ops->hex(w->ctx, name, v, PD_VF_DETAIL | PD_VF_BITS);
	bit_names(w, name_names, v, 0, bit_name, PD_VF_DETAIL);
	if (v || when_zero)
		bit_names(w, name, v, 0, bit_name, PD_VF_SUMMARY);
}

static void ud(const struct walk *w, const char *name, uint64_t v)
{
	w->ops->u64(w->ctx, name, v, PD_VF_DETAIL);
}

static void xd(const struct walk *w, const char *name, uint64_t v)
{
	w->ops->hex(w->ctx, name, v, PD_VF_DETAIL);
}

/*
 * In the order of the struct.  The summary is the attr's identity and
 * what decides the layout of its records: type, config, period or
 * frequency, the sample_type and read_format bits, the flags word, and
 * the branch_sample_type bits when there are any.
 */
void pd_attr_visit(const struct pd_attr *a, const struct pd_visit_ops *ops, void *ctx)
{
	const struct walk wk = { .ops = ops, .ctx = ctx }, *w = &wk;
	const char *type_name = pd_attr_type_name(a->type);

	ud(w, "type", a->type);
	w->ops->str(w->ctx, "type_name", type_name, SIZE_MAX, PD_VF_DETAIL);
	w->ops->sym(w->ctx, "attr_type", type_name, a->type, PD_VF_SUMMARY);
	ud(w, "size", a->size);
	x(w, "config", a->config);
	u(w, a->flags & PD_ATTR_FREQ ? "sample_freq" : "sample_period", a->sample_period);
	mask(w, "sample_type", "sample_type_names", a->sample_type, pd_sample_bit_name, true);
	mask(w, "read_format", "read_format_names", a->read_format, pd_read_format_bit_name, true);
	/* precise_ip is a 2-bit number, not two flags */
	w->ops->hex(w->ctx, "flags", a->flags, PD_VF_BITS);
	bit_names(w, "flag_names", a->flags, PD_ATTR_PRECISE_IP_MASK, pd_attr_flag_name,
		  PD_VF_DETAIL);
	ud(w, "precise_ip", pd_attr_precise_ip(a));
	ud(w, "wakeup", a->wakeup_events);
	ud(w, "bp_type", a->bp_type);
	xd(w, "config1", a->config1);
	xd(w, "config2", a->config2);
	mask(w, "branch_sample_type", "branch_sample_type_names", a->branch_sample_type,
	     pd_branch_sample_bit_name, false);
	xd(w, "sample_regs_user", a->sample_regs_user);
	ud(w, "sample_stack_user", a->sample_stack_user);
	w->ops->i64(w->ctx, "clockid", a->clockid, PD_VF_DETAIL);
	xd(w, "sample_regs_intr", a->sample_regs_intr);
	ud(w, "aux_watermark", a->aux_watermark);
	ud(w, "sample_max_stack", a->sample_max_stack);
	ud(w, "reserved_2", a->reserved_2);
	ud(w, "aux_sample_size", a->aux_sample_size);
	xd(w, "aux_action", a->aux_action);
	xd(w, "sig_data", a->sig_data);
	xd(w, "config3", a->config3);
	xd(w, "config4", a->config4);
}

/* ---- header features ---- */

static void str_list(const struct walk *w, const char *name, const struct pd_str_list *l)
{
	uint32_t i;

	list_begin(w, name, 0);
	for (i = 0; l->s && i < l->nr; i++)
		s(w, NULL, l->s[i]);
	list_end(w);
}

static void u32_list(const struct walk *w, const char *name, const uint32_t *v, uint32_t nr)
{
	uint32_t i;

	list_begin(w, name, 0);
	for (i = 0; v && i < nr; i++)
		u(w, NULL, v[i]);
	list_end(w);
}

static void kv_list(const struct walk *w, const char *name, const struct pd_kv_list *l)
{
	uint32_t i;

	list_begin(w, name, 0);
	for (i = 0; l->kv && i < l->nr; i++) {
		entry_begin(w);
		s(w, "key", l->kv[i].key);
		s(w, "value", l->kv[i].value);
		obj_end(w);
	}
	list_end(w);
}

static void feat_tracing_data(const struct walk *w, const char *name,
			      const struct pd_feat_tracing_data *td)
{
	obj_begin(w, name, NULL);
	u(w, "size", td->size);
	flag(w, "magic_ok", td->magic_ok);
	s(w, "version", td->version);
	obj_end(w);
}

static void feat_build_ids(const struct walk *w, const char *name,
			   const struct pd_feat_build_ids *b)
{
	uint32_t i;

	obj_begin(w, name, NULL);
	flag(w, "legacy", b->legacy);
	flag(w, "perf612_padding", b->perf612_padding);
	list_begin(w, "entries", 0);
	for (i = 0; b->ids && i < b->nr; i++) {
		const struct pd_feat_build_id *e = &b->ids[i];

		entry_begin(w);
		x(w, "misc", e->misc);
		cpumode(w, e->misc & PD_MISC_CPUMODE_MASK);
		i64(w, "pid", e->pid);
		u(w, "size", e->size);
		build_id(w, e->id, e->size);
		s(w, "filename", e->filename);
		u(w, "offset", e->offset);
		obj_end(w);
	}
	list_end(w);
	obj_end(w);
}

/* the attr of each event is a detail: the file's attrs hold the same */
static void feat_event_desc(const struct walk *w, const char *name,
			    const struct pd_feat_event_desc *d)
{
	uint32_t i, k;

	obj_begin(w, name, NULL);
	u(w, "attr_size", d->attr_size);
	list_begin(w, "events", 0);
	for (i = 0; d->ev && i < d->nr; i++) {
		const struct pd_feat_event *ev = &d->ev[i];

		entry_begin(w);
		s(w, "name", ev->name);
		w->ops->attr(w->ctx, &ev->attr, PD_VF_DETAIL);
		list_begin(w, "ids", 0);
		for (k = 0; ev->ids && k < ev->nr_ids; k++)
			u(w, NULL, ev->ids[k]);
		list_end(w);
		obj_end(w);
	}
	list_end(w);
	obj_end(w);
}

static void feat_cpu_topology(const struct walk *w, const char *name,
			      const struct pd_feat_cpu_topology *t)
{
	obj_begin(w, name, NULL);
	str_list(w, "core_siblings", &t->core_siblings);
	str_list(w, "thread_siblings", &t->thread_siblings);
	flag(w, "has_cpu_ids", t->has_cpu_ids);
	if (t->has_cpu_ids) {
		u32_list(w, "core_id", t->core_id, t->nr_cpus);
		u32_list(w, "socket_id", t->socket_id, t->nr_cpus);
	}
	flag(w, "has_dies", t->has_dies);
	if (t->has_dies) {
		str_list(w, "die_siblings", &t->die_siblings);
		u32_list(w, "die_id", t->die_id, t->nr_cpus);
	}
	flag(w, "nr_cpus_guessed", t->nr_cpus_guessed);
	obj_end(w);
}

static void feat_numa_topology(const struct walk *w, const char *name,
			       const struct pd_feat_numa_topology *t)
{
	uint32_t i;

	list_begin(w, name, 0);
	for (i = 0; t->nodes && i < t->nr; i++) {
		entry_begin(w);
		u(w, "node", t->nodes[i].node);
		u(w, "mem_total", t->nodes[i].mem_total);
		u(w, "mem_free", t->nodes[i].mem_free);
		s(w, "cpus", t->nodes[i].cpus);
		obj_end(w);
	}
	list_end(w);
}

static void feat_pmu_mappings(const struct walk *w, const char *name,
			      const struct pd_feat_pmu_mappings *m)
{
	uint32_t i;

	list_begin(w, name, 0);
	for (i = 0; m->pmus && i < m->nr; i++) {
		entry_begin(w);
		u(w, "type", m->pmus[i].type);
		s(w, "name", m->pmus[i].name);
		obj_end(w);
	}
	list_end(w);
}

static void feat_group_desc(const struct walk *w, const char *name,
			    const struct pd_feat_group_desc *g)
{
	uint32_t i;

	list_begin(w, name, 0);
	for (i = 0; g->groups && i < g->nr; i++) {
		entry_begin(w);
		s(w, "name", g->groups[i].name);
		u(w, "leader_idx", g->groups[i].leader_idx);
		u(w, "nr_members", g->groups[i].nr_members);
		obj_end(w);
	}
	list_end(w);
}

static void feat_auxtrace(const struct walk *w, const char *name, const struct pd_feat_auxtrace *a)
{
	uint64_t i;

	obj_begin(w, name, NULL);
	flag(w, "simpleperf", a->simpleperf);
	list_begin(w, "entries", 0);
	for (i = 0; a->entries && i < a->nr; i++) {
		entry_begin(w);
		u(w, "file_offset", a->entries[i].file_offset);
		u(w, "size", a->entries[i].size);
		obj_end(w);
	}
	list_end(w);
	obj_end(w);
}

static void feat_cache(const struct walk *w, const char *name, const struct pd_feat_cache *c)
{
	uint32_t i;

	obj_begin(w, name, NULL);
	u(w, "version", c->version);
	list_begin(w, "levels", 0);
	for (i = 0; c->levels && i < c->nr; i++) {
		const struct pd_feat_cache_level *l = &c->levels[i];

		entry_begin(w);
		u(w, "level", l->level);
		u(w, "line_size", l->line_size);
		u(w, "sets", l->sets);
		u(w, "ways", l->ways);
		s(w, "type", l->type);
		s(w, "size", l->size);
		s(w, "map", l->map);
		obj_end(w);
	}
	list_end(w);
	obj_end(w);
}

static void feat_mem_topology(const struct walk *w, const char *name,
			      const struct pd_feat_mem_topology *t)
{
	uint64_t i;

	obj_begin(w, name, NULL);
	u(w, "version", t->version);
	u(w, "block_size", t->block_size);
	list_begin(w, "nodes", 0);
	for (i = 0; t->nodes && i < t->nr; i++) {
		const struct pd_feat_mem_node *n = &t->nodes[i];

		entry_begin(w);
		u(w, "node_id", n->node_id);
		u(w, "nbits", n->nbits);
		hex_list(w, "bitmap", n->bitmap, n->nbits / 64 + (n->nbits % 64 != 0), 0);
		obj_end(w);
	}
	list_end(w);
	obj_end(w);
}

static void feat_bpf_prog_info(const struct walk *w, const char *name,
			       const struct pd_feat_bpf_prog_info *b)
{
	uint32_t i;

	obj_begin(w, name, NULL);
	flag(w, "skipped_swapped", b->skipped_swapped);
	list_begin(w, "progs", 0);
	for (i = 0; b->progs && i < b->nr; i++) {
		entry_begin(w);
		u(w, "info_len", b->progs[i].info_len);
		u(w, "data_len", b->progs[i].data_len);
		x(w, "arrays", b->progs[i].arrays);
		u(w, "offset", b->progs[i].offset);
		obj_end(w);
	}
	list_end(w);
	obj_end(w);
}

static void feat_bpf_btf(const struct walk *w, const char *name, const struct pd_feat_bpf_btf *b)
{
	uint32_t i;

	obj_begin(w, name, NULL);
	flag(w, "skipped_swapped", b->skipped_swapped);
	list_begin(w, "btfs", 0);
	for (i = 0; b->btfs && i < b->nr; i++) {
		entry_begin(w);
		u(w, "id", b->btfs[i].id);
		u(w, "data_size", b->btfs[i].data_size);
		u(w, "offset", b->btfs[i].offset);
		obj_end(w);
	}
	list_end(w);
	obj_end(w);
}

static void feat_hybrid_topology(const struct walk *w, const char *name,
				 const struct pd_feat_hybrid_topology *t)
{
	uint32_t i;

	list_begin(w, name, 0);
	for (i = 0; t->nodes && i < t->nr; i++) {
		entry_begin(w);
		s(w, "pmu_name", t->nodes[i].pmu_name);
		s(w, "cpus", t->nodes[i].cpus);
		obj_end(w);
	}
	list_end(w);
}

static void feat_pmu_caps(const struct walk *w, const char *name, const struct pd_feat_pmu_caps *c)
{
	uint32_t i;

	list_begin(w, name, 0);
	for (i = 0; c->pmus && i < c->nr; i++) {
		entry_begin(w);
		s(w, "pmu_name", c->pmus[i].pmu_name);
		kv_list(w, "caps", &c->pmus[i].caps);
		obj_end(w);
	}
	list_end(w);
}

static void feat_cpu_domain_info(const struct walk *w, const char *name,
				 const struct pd_feat_cpu_domain_info *di)
{
	uint32_t i, k;

	obj_begin(w, name, NULL);
	u(w, "schedstat_version", di->schedstat_version);
	u(w, "max_sched_domains", di->max_sched_domains);
	list_begin(w, "cpus", 0);
	for (i = 0; di->cpus && i < di->nr; i++) {
		const struct pd_feat_domain_cpu *c = &di->cpus[i];

		entry_begin(w);
		u(w, "cpu", c->cpu);
		list_begin(w, "domains", 0);
		for (k = 0; c->domains && k < c->nr_domains; k++) {
			entry_begin(w);
			u(w, "domain", c->domains[k].domain);
			s(w, "name", c->domains[k].name);
			s(w, "cpumask", c->domains[k].cpumask);
			s(w, "cpulist", c->domains[k].cpulist);
			obj_end(w);
		}
		list_end(w);
		obj_end(w);
	}
	list_end(w);
	obj_end(w);
}

/* symbol tables can be long: a summary counts them */
static void feat_sp_files(const struct walk *w, const char *name, const struct pd_feat_sp_files *sf)
{
	uint32_t i, k;

	list_begin(w, name, 0);
	for (i = 0; sf->files && i < sf->nr; i++) {
		const struct pd_feat_sp_file *e = &sf->files[i];

		entry_begin(w);
		s(w, "path", e->path);
		u(w, "type", e->type);
		x(w, "min_vaddr", e->min_vaddr);
		list_begin(w, "symbols", PD_VF_DETAIL);
		for (k = 0; e->symbols && k < e->nr_symbols; k++) {
			entry_begin(w);
			x(w, "vaddr", e->symbols[k].vaddr);
			u(w, "len", e->symbols[k].len);
			s(w, "name", e->symbols[k].name);
			obj_end(w);
		}
		list_end(w);
		uf(w, "nr_symbols", e->nr_symbols, PD_VF_SUMMARY);
		hex_list(w, "dex_offsets", e->dex_offsets, e->nr_dex_offsets, 0);
		if (e->has_min_vaddr_offset)
			x(w, "min_vaddr_offset", e->min_vaddr_offset);
		obj_end(w);
	}
	list_end(w);
}

static void feat_sp_debug_unwind(const struct walk *w, const char *name,
				 const struct pd_feat_sp_debug_unwind *du)
{
	uint32_t i;

	list_begin(w, name, 0);
	for (i = 0; du->paths && i < du->nr; i++) {
		entry_begin(w);
		s(w, "path", du->paths[i]);
		u(w, "size", du->sizes ? du->sizes[i] : 0);
		obj_end(w);
	}
	list_end(w);
}

bool pd_feature_visit(const struct pd_features *f, unsigned int id,
		      const struct pd_visit_ops *ops, void *ctx)
{
	const struct walk wk = { .ops = ops, .ctx = ctx }, *w = &wk;
	const char *name = pd_feature_name(id);

	switch (id) {
	case PD_FEAT_TRACING_DATA:
		feat_tracing_data(w, name, &f->tracing_data);
		break;
	case PD_FEAT_BUILD_ID:
		feat_build_ids(w, name, &f->build_ids);
		break;
	case PD_FEAT_HOSTNAME:
		s(w, name, f->hostname);
		break;
	case PD_FEAT_OSRELEASE:
		s(w, name, f->osrelease);
		break;
	case PD_FEAT_VERSION:
		s(w, name, f->version);
		break;
	case PD_FEAT_ARCH:
		s(w, name, f->arch);
		break;
	case PD_FEAT_NRCPUS:
		obj_begin(w, name, NULL);
		u(w, "online", f->nrcpus.online);
		u(w, "avail", f->nrcpus.avail);
		obj_end(w);
		break;
	case PD_FEAT_CPUDESC:
		s(w, name, f->cpudesc);
		break;
	case PD_FEAT_CPUID:
		s(w, name, f->cpuid);
		break;
	case PD_FEAT_TOTAL_MEM:
		u(w, name, f->total_mem);
		break;
	case PD_FEAT_CMDLINE:
		str_list(w, name, &f->cmdline);
		break;
	case PD_FEAT_EVENT_DESC:
		feat_event_desc(w, name, &f->event_desc);
		break;
	case PD_FEAT_CPU_TOPOLOGY:
		feat_cpu_topology(w, name, &f->cpu_topology);
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		feat_numa_topology(w, name, &f->numa_topology);
		break;
	case PD_FEAT_BRANCH_STACK:
		flag(w, name, f->branch_stack);
		break;
	case PD_FEAT_PMU_MAPPINGS:
		feat_pmu_mappings(w, name, &f->pmu_mappings);
		break;
	case PD_FEAT_GROUP_DESC:
		feat_group_desc(w, name, &f->group_desc);
		break;
	case PD_FEAT_AUXTRACE:
		feat_auxtrace(w, name, &f->auxtrace);
		break;
	case PD_FEAT_STAT:
		flag(w, name, f->stat);
		break;
	case PD_FEAT_CACHE:
		feat_cache(w, name, &f->cache);
		break;
	case PD_FEAT_SAMPLE_TIME:
		obj_begin(w, name, NULL);
		u(w, "first", f->sample_time.first);
		u(w, "last", f->sample_time.last);
		obj_end(w);
		break;
	case PD_FEAT_MEM_TOPOLOGY:
		feat_mem_topology(w, name, &f->mem_topology);
		break;
	case PD_FEAT_CLOCKID:
		u(w, name, f->clockid_res_ns);
		break;
	case PD_FEAT_DIR_FORMAT:
		u(w, name, f->dir_format);
		break;
	case PD_FEAT_BPF_PROG_INFO:
		feat_bpf_prog_info(w, name, &f->bpf_prog_info);
		break;
	case PD_FEAT_BPF_BTF:
		feat_bpf_btf(w, name, &f->bpf_btf);
		break;
	case PD_FEAT_COMPRESSED:
		obj_begin(w, name, NULL);
		u(w, "version", f->compressed.version);
		u(w, "type", f->compressed.type);
		u(w, "level", f->compressed.level);
		u(w, "ratio", f->compressed.ratio);
		u(w, "mmap_len", f->compressed.mmap_len);
		obj_end(w);
		break;
	case PD_FEAT_CPU_PMU_CAPS:
		kv_list(w, name, &f->cpu_pmu_caps);
		break;
	case PD_FEAT_CLOCK_DATA:
		obj_begin(w, name, NULL);
		u(w, "version", f->clock_data.version);
		u(w, "clockid", f->clock_data.clockid);
		u(w, "tod_ns", f->clock_data.tod_ns);
		u(w, "clockid_ns", f->clock_data.clockid_ns);
		obj_end(w);
		break;
	case PD_FEAT_HYBRID_TOPOLOGY:
		feat_hybrid_topology(w, name, &f->hybrid_topology);
		break;
	case PD_FEAT_PMU_CAPS:
		feat_pmu_caps(w, name, &f->pmu_caps);
		break;
	case PD_FEAT_CPU_DOMAIN_INFO:
		feat_cpu_domain_info(w, name, &f->cpu_domain_info);
		break;
	case PD_FEAT_E_MACHINE:
		obj_begin(w, name, NULL);
		u(w, "e_machine", f->e_machine.e_machine);
		x(w, "e_flags", f->e_machine.e_flags);
		obj_end(w);
		break;
	case PD_FEAT_CLN_SIZE:
		/* a payload of another size than 4 or 8 bytes has no value */
		if (f->cln_size.has_value)
			u(w, name, f->cln_size.value);
		break;
	case PD_FEAT_SP_FILE:
		feat_sp_files(w, name, &f->sp_file);
		break;
	case PD_FEAT_SP_FILE2:
		feat_sp_files(w, name, &f->sp_file2);
		break;
	case PD_FEAT_SP_META_INFO:
		kv_list(w, name, &f->sp_meta_info);
		break;
	case PD_FEAT_SP_DEBUG_UNWIND:
		feat_sp_debug_unwind(w, name, &f->sp_debug_unwind);
		break;
	default:
		return false;	/* kept as bytes only */
	}
	return true;
}
