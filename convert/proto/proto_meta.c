// SPDX-License-Identifier: MIT
/*
 * proto_meta.c - attrs, event types, build ids and header features as
 * PerfDataProto fields (see proto_meta.h).  An attr's message is a sink of
 * the attr walk (pd_attr_visit()), like the events' (proto_event.c).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/grow.h"
#include "perfdata/pd_visit.h"
#include "proto/proto_event.h"
#include "proto/proto_meta.h"

/* Header features quipper reads (file-mode bits, pipe HEADER_FEATURE ids). */
static bool quipper_feature(unsigned int id)
{
	return (id >= PD_FEAT_HOSTNAME && id <= PD_FEAT_NUMA_TOPOLOGY) ||
	       id == PD_FEAT_PMU_MAPPINGS || id == PD_FEAT_GROUP_DESC ||
	       id == PD_FEAT_HYBRID_TOPOLOGY;
}

static char *xstrdup(struct pm_state *st, const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		st->nomem = true;
	return d;
}

static void clear_attrs(struct pm_state *st)
{
	size_t i;

	for (i = 0; i < st->nr_attrs; i++) {
		free(st->attrs[i].ids);
		free(st->attrs[i].name);
	}
	free(st->attrs);
	st->attrs = NULL;
	st->nr_attrs = st->cap_attrs = 0;
}

static void add_attr(struct pm_state *st, const struct pd_attr *a, uint32_t real_size,
		     const uint64_t *ids, size_t nr_ids, const char *name)
{
	struct pm_attr *x;

	if (!grow_array(&st->attrs, &st->cap_attrs, st->nr_attrs + 1, sizeof(*x))) {
		st->nomem = true;
		return;
	}
	x = &st->attrs[st->nr_attrs++];
	x->attr = *a;
	x->real_size = real_size;
	/* a feature that failed to decode may hold a count without its array */
	if (nr_ids && ids) {
		x->ids = malloc(nr_ids * sizeof(*ids));
		if (x->ids) {
			memcpy(x->ids, ids, nr_ids * sizeof(*ids));
			x->nr_ids = nr_ids;
		} else {
			st->nomem = true;
		}
	}
	x->name = xstrdup(st, name);
}

static void add_etype(struct pm_state *st, uint64_t id, const char *name)
{
	if (!grow_array(&st->etypes, &st->cap_etypes, st->nr_etypes + 1, sizeof(*st->etypes))) {
		st->nomem = true;
		return;
	}
	st->etypes[st->nr_etypes].id = id;
	st->etypes[st->nr_etypes].name = xstrdup(st, name);
	st->nr_etypes++;
}

static struct pm_build_id *add_bid(struct pm_state *st)
{
	if (!grow_array(&st->bids, &st->cap_bids, st->nr_bids + 1, sizeof(*st->bids))) {
		st->nomem = true;
		return NULL;
	}
	return &st->bids[st->nr_bids++];
}

/* quipper trims trailing all-zero 4-byte groups off the 20-byte hash. */
static void set_hash(struct pm_build_id *b, const uint8_t *id, unsigned int n)
{
	memset(b->hash, 0, sizeof(b->hash));
	memcpy(b->hash, id, n > 20 ? 20 : n);
	b->hash_len = 20;
	while (b->hash_len >= 4 && !(b->hash[b->hash_len - 1] | b->hash[b->hash_len - 2] |
				     b->hash[b->hash_len - 3] | b->hash[b->hash_len - 4]))
		b->hash_len -= 4;
}

/* A build id of the header: an entry of the feature, or a HEADER_BUILD_ID record. */
static void add_header_bid(struct pm_state *st, uint16_t misc, int32_t pid, const uint8_t *id,
			   uint8_t size, const char *filename)
{
	struct pm_build_id *b = add_bid(st);

	if (!b)
		return;
	b->misc = misc;
	b->pid = (uint32_t)pid;
	set_hash(b, id, 20);
	b->has_size = misc & PD_MISC_BUILD_ID_SIZE;
	b->size = size;
	b->filename = xstrdup(st, filename);
}

/* The obsolete event_types section, as the reader decoded it. */
static void take_event_types(struct pm_state *st, const struct pd_reader *r)
{
	const struct pd_event_type *et;
	size_t i, n = pd_reader_event_types(r, &et);

	for (i = 0; i < n && i < st->nr_attrs; i++)
		add_etype(st, et[i].id, et[i].name);
}

static void take_event_desc(struct pm_state *st, const struct pd_features *f)
{
	uint32_t i;

	clear_attrs(st);
	for (i = 0; i < f->event_desc.nr; i++) {
		const struct pd_feat_event *ev = &f->event_desc.ev[i];

		add_attr(st, &ev->attr, ev->attr.size, ev->ids, ev->nr_ids, ev->name);
		add_etype(st, ev->attr.config, ev->name);
	}
}

int pm_init(struct pm_state *st, struct pd_reader *r, bool ext)
{
	const struct pd_header *h = pd_reader_header(r);
	const struct pd_features *f = pd_reader_features(r);
	size_t i;

	memset(st, 0, sizeof(*st));
	st->ext = ext;
	st->pipe = h->mode == PD_MODE_PIPE;
	if (st->pipe)
		return 0;

	/* quipper keeps all 64 bits of the first word, unsupported ones too */
	st->mask = h->features[0];
	if ((h->features[0] >> PD_FEAT_EVENT_DESC) & 1) {
		take_event_desc(st, f);
	} else {
		for (i = 0; i < pd_reader_nr_events(r); i++) {
			const struct pd_event *ev = pd_reader_event(r, i);

			add_attr(st, &ev->attr, ev->attr_size_on_disk, ev->ids, ev->nr_ids,
				 ev->name);
		}
		take_event_types(st, r);
	}
	if (pd_features_has(f, PD_FEAT_BUILD_ID))
		for (i = 0; i < f->build_ids.nr; i++) {
			const struct pd_feat_build_id *e = &f->build_ids.ids[i];

			add_header_bid(st, e->misc, e->pid, e->id, e->size, e->filename);
		}
	return st->nomem ? -1 : 0;
}

static bool attr_seen(const struct pm_state *st, const struct pd_rec_header_attr *ha)
{
	size_t i, j;

	for (i = 0; i < st->nr_attrs; i++) {
		const struct pm_attr *a = &st->attrs[i];

		if (!ha->nr_ids) {
			if (a->attr.config == ha->attr.config)
				return true;
			continue;
		}
		for (j = 0; j < a->nr_ids; j++)
			if (a->ids[j] == ha->ids[0])
				return true;
	}
	return false;
}

static void add_mmap2_bid(struct pm_state *st, const struct pd_record *rec)
{
	const struct pd_rec_mmap *m = &rec->u.mmap;
	struct pm_build_id *b;
	size_t i;

	/* one entry per file name, among the entries taken from MMAP2 records */
	for (i = 0; i < st->nr_bids; i++)
		if (st->bids[i].from_mmap2 && !strcmp(st->bids[i].filename, m->filename))
			return;
	b = add_bid(st);
	if (!b)
		return;
	b->misc = rec->misc;
	b->pid = UINT32_MAX;
	set_hash(b, m->build_id, m->build_id_size);
	b->filename = xstrdup(st, m->filename);
	b->from_mmap2 = true;
}

void pm_record(struct pm_state *st, struct pd_reader *r, const struct pd_record *rec)
{
	const struct pd_features *f;

	if (!rec->decoded)
		return;
	switch (rec->type) {
	case PD_REC_MMAP2:
		if ((rec->misc & PD_MISC_MMAP_BUILD_ID) && !(rec->misc & PD_MISC_PROC_MAP_PARSE_TIMEOUT))
			add_mmap2_bid(st, rec);
		return;
	default:
		break;
	}
	if (!st->pipe)
		return;
	switch (rec->type) {
	case PD_REC_HEADER_ATTR: {
		const struct pd_rec_header_attr *ha = &rec->u.header_attr;

		/* quipper drops an attr whose first id (or config) it already has */
		if (!attr_seen(st, ha))
			add_attr(st, &ha->attr, ha->attr_size, ha->ids, ha->nr_ids,
				 pd_event_default_name(ha->attr.type, ha->attr.config));
		break;
	}
	case PD_REC_HEADER_EVENT_TYPE:
		add_etype(st, rec->u.event_type.event_id, rec->u.event_type.name);
		if (st->nr_pipe_event_types < st->nr_attrs) {
			struct pm_attr *a = &st->attrs[st->nr_pipe_event_types];

			free(a->name);
			a->name = xstrdup(st, rec->u.event_type.name);
		}
		st->nr_pipe_event_types++;
		break;
	case PD_REC_HEADER_TRACING_DATA:
		st->mask |= 1ULL << PD_FEAT_TRACING_DATA;
		if (rec->extra && rec->extra_len && !st->tracing) {
			st->tracing = malloc(rec->extra_len);
			if (st->tracing) {
				memcpy(st->tracing, rec->extra, rec->extra_len);
				st->tracing_len = rec->extra_len;
			} else {
				st->nomem = true;
			}
		}
		break;
	case PD_REC_HEADER_BUILD_ID: {
		const struct pd_rec_build_id *bi = &rec->u.build_id;

		st->mask |= 1ULL << PD_FEAT_BUILD_ID;
		add_header_bid(st, rec->misc, bi->pid, bi->build_id, bi->build_id_size,
			       bi->filename);
		break;
	}
	case PD_REC_HEADER_FEATURE: {
		uint64_t id = rec->u.header_feature.feat_id;

		if (rec->u.header_feature.end_marker || id >= 64)
			break;
		if (quipper_feature((unsigned int)id))
			st->mask |= 1ULL << id;
		f = pd_reader_features(r);
		if (id == PD_FEAT_EVENT_DESC && pd_features_has(f, PD_FEAT_EVENT_DESC))
			take_event_desc(st, f);
		break;
	}
	default:
		break;
	}
}

/* ---- encoding ---- */

/*
 * quipper's PerfEventAttr, a sink of the attr walk (pd_attr_visit()): the
 * walked fields it keeps, each with its schema number.  The bits of the
 * flags word that quipper has as bools of their own are written, set or
 * not, after the walked field whose number precedes theirs, so that the
 * message stays in the order of its numbers; so are the extension's
 * real size and flags word, before its first walked field (clockid).
 */
enum qa_kind {
	QA_VALUE,
	QA_SIZEOF,	/* quipper's sizeof(perf_event_attr) in place of the size */
	QA_BIT,		/* bit `bit` of the flags word, as a bool */
	QA_WAKEUP,	/* wakeup_events, or wakeup_watermark with the watermark bit */
	QA_REAL_SIZE,	/* the attr's size in the file (struct pm_attr) */
	QA_FLAGS,	/* the flags word */
};

struct qa_field {
	const char *name;	/* the walked field this one follows */
	uint16_t field;
	uint8_t kind, bit;
	bool ext;		/* an extension, not in quipper's schema */
};

#define QV(name, field)		{ name, field, QA_VALUE, 0, false }
#define QB(name, field, bit)	{ name, field, QA_BIT, bit, false }
#define QX(name, field, kind)	{ name, field, kind, 0, true }

static const struct qa_field quipper_attr[] = {
	QV("type", 1), { "size", 2, QA_SIZEOF, 0, false }, QV("config", 3),
	QV("sample_period", 4), QV("sample_freq", 4), QV("sample_type", 6),
	QV("read_format", 7),
	/* disabled .. watermark */
	QB("flags", 8, 0), QB("flags", 9, 1), QB("flags", 10, 2), QB("flags", 11, 3),
	QB("flags", 12, 4), QB("flags", 13, 5), QB("flags", 14, 6), QB("flags", 15, 7),
	QB("flags", 16, 8), QB("flags", 17, 9), QB("flags", 18, 10), QB("flags", 19, 11),
	QB("flags", 20, 12), QB("flags", 21, 13), QB("flags", 22, 14),
	QV("precise_ip", 23),
	/* mmap_data, sample_id_all, exclude_host, exclude_guest */
	QB("precise_ip", 24, 17), QB("precise_ip", 25, 18), QB("precise_ip", 26, 19),
	QB("precise_ip", 27, 20),
	{ "wakeup", 28, QA_WAKEUP, 0, false }, QV("bp_type", 30), QV("config1", 31),
	QV("config2", 33), QV("branch_sample_type", 35),
	/* exclude_callchain_kernel, exclude_callchain_user, mmap2, comm_exec */
	QB("branch_sample_type", 36, 21), QB("branch_sample_type", 37, 22),
	QB("branch_sample_type", 38, 23), QB("branch_sample_type", 39, 24),
	QV("sample_regs_user", 40), QV("sample_stack_user", 41),
	/* use_clockid, context_switch, write_backward, namespaces, cgroup, ksymbol */
	QB("sample_stack_user", 42, 25), QB("sample_stack_user", 43, 26),
	QB("sample_stack_user", 44, 27), QB("sample_stack_user", 45, 28),
	QB("sample_stack_user", 46, 32), QB("sample_stack_user", 47, 29),
	QX("sample_stack_user", 1000, QA_REAL_SIZE), QX("sample_stack_user", 1001, QA_FLAGS),
	QX("clockid", 1002, QA_VALUE), QX("sample_regs_intr", 1003, QA_VALUE),
	QX("aux_watermark", 1004, QA_VALUE), QX("sample_max_stack", 1005, QA_VALUE),
	QX("aux_sample_size", 1006, QA_VALUE), QX("aux_action", 1007, QA_VALUE),
	QX("sig_data", 1008, QA_VALUE), QX("config3", 1009, QA_VALUE),
	QX("config4", 1010, QA_VALUE),
};

struct qa_sink {
	struct pw_buf *b;
	const struct pm_attr *pa;
	bool ext;
};

/* The lists of bit names hold syms only, and quipper keeps no sym or str. */
static void qa_u64(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	const struct qa_sink *s = ctx;
	const uint64_t fl = s->pa->attr.flags;
	const struct qa_field *f;

	if (flags & PD_VF_SUMMARY)
		return;
	for (f = quipper_attr; f < quipper_attr + sizeof(quipper_attr) / sizeof(quipper_attr[0]);
	     f++) {
		if (strcmp(f->name, name) || (f->ext && !s->ext))
			continue;
		switch (f->kind) {
		case QA_VALUE:
			pw_u64(s->b, f->field, v);
			break;
		case QA_SIZEOF:
			pw_u64(s->b, f->field, 96);
			break;
		case QA_BIT:
			pw_bool(s->b, f->field, fl >> f->bit & 1);
			break;
		case QA_WAKEUP:
			pw_u64(s->b, fl & PD_ATTR_WATERMARK ? f->field + 1 : f->field, v);
			break;
		case QA_REAL_SIZE:
			pw_u64(s->b, f->field, s->pa->real_size);
			break;
		case QA_FLAGS:
			pw_u64(s->b, f->field, fl);
			break;
		default:
			break;
		}
	}
}

/* clockid, the one signed field: an int32 in the schema */
static void qa_i64(void *ctx, const char *name, int64_t v, unsigned int flags)
{
	qa_u64(ctx, name, (uint64_t)v, flags);
}

static void qa_str(void *ctx, const char *name, const char *str, size_t max, unsigned int flags)
{
}

static void qa_sym(void *ctx, const char *name, const char *sym, uint64_t v, unsigned int flags)
{
}

static void qa_list_begin(void *ctx, const char *name, unsigned int flags)
{
}

static void qa_list_end(void *ctx)
{
}

static const struct pd_visit_ops qa_ops = {
	.u64 = qa_u64,
	.i64 = qa_i64,
	.hex = qa_u64,
	.str = qa_str,
	.sym = qa_sym,
	.list_begin = qa_list_begin,
	.list_end = qa_list_end,
};

static void enc_attr(struct pw_buf *b, const struct pm_attr *pa, bool ext)
{
	struct qa_sink s = { .b = b, .pa = pa, .ext = ext };
	size_t m = pw_open(b, 1);

	pd_attr_visit(&pa->attr, &qa_ops, &s);
	if (ext && pa->name)
		pw_str(b, 1011, pa->name);
	pw_close(b, m);
}

static void enc_str_md5_msg(struct pw_buf *b, unsigned int field, const char *s)
{
	size_t m = pw_open(b, field);

	pw_str_md5(b, 1, 2, s ? s : "");
	pw_close(b, m);
}

/*
 * quipper lists a string feature whose section is empty (its writer
 * failed) with an empty value; the reader does not count it as present.
 */
static bool has_string_feature(const struct pd_features *f, const struct pd_header *h,
			       unsigned int id)
{
	if (pd_features_has(f, id))
		return true;
	return h->mode == PD_MODE_FILE && h->has_feature_bitmap && id < 64 &&
	       ((h->features[0] >> id) & 1) && !f->raw[id].len;
}

static void enc_strings(struct pw_buf *b, const struct pd_features *f, const struct pd_header *h)
{
	static const struct { unsigned int id, field; } one[] = {
		{ PD_FEAT_HOSTNAME, 1 }, { PD_FEAT_OSRELEASE, 2 }, { PD_FEAT_VERSION, 3 },
		{ PD_FEAT_ARCH, 4 }, { PD_FEAT_CPUDESC, 5 }, { PD_FEAT_CPUID, 6 },
	};
	const char *val[] = { f->hostname, f->osrelease, f->version, f->arch, f->cpudesc,
			      f->cpuid };
	bool any = pd_features_has(f, PD_FEAT_CMDLINE);
	size_t m, i;

	for (i = 0; i < 6; i++)
		any |= has_string_feature(f, h, one[i].id);
	if (!any)
		return;
	m = pw_open(b, 13);
	for (i = 0; i < 6; i++)
		if (has_string_feature(f, h, one[i].id))
			enc_str_md5_msg(b, one[i].field, val[i]);
	if (pd_features_has(f, PD_FEAT_CMDLINE)) {
		size_t len = 1;
		char *whole, *p;

		for (i = 0; i < f->cmdline.nr; i++) {
			enc_str_md5_msg(b, 7, f->cmdline.s[i]);
			len += strlen(f->cmdline.s[i]) + 1;
		}
		whole = malloc(len);
		if (whole) {
			/* quipper adds a space before a token only once text has accumulated */
			p = whole;
			*p = '\0';
			for (i = 0; i < f->cmdline.nr; i++) {
				if (p != whole)
					*p++ = ' ';
				p = stpcpy(p, f->cmdline.s[i]);
			}
			enc_str_md5_msg(b, 8, whole);
			free(whole);
		} else {
			pw_set_nomem(b);
		}
	}
	pw_close(b, m);
}

static void enc_cpu_topology(struct pw_buf *b, const struct pd_features *f)
{
	const struct pd_feat_cpu_topology *t = &f->cpu_topology;
	size_t m = pw_open(b, 11), e;
	uint32_t i;

	for (i = 0; i < t->core_siblings.nr; i++)
		pw_str(b, 1, t->core_siblings.s[i]);
	for (i = 0; i < t->core_siblings.nr; i++)
		pw_u64(b, 2, pw_md5_prefix_str(t->core_siblings.s[i]));
	for (i = 0; i < t->thread_siblings.nr; i++)
		pw_str(b, 3, t->thread_siblings.s[i]);
	for (i = 0; i < t->thread_siblings.nr; i++)
		pw_u64(b, 4, pw_md5_prefix_str(t->thread_siblings.s[i]));
	if (t->has_cpu_ids) {
		for (i = 0; i < t->nr_cpus; i++) {
			e = pw_open(b, 5);
			pw_u64(b, 1, t->core_id[i]);
			pw_u64(b, 2, t->socket_id[i]);
			pw_close(b, e);
		}
	}
	pw_close(b, m);
}

/*
 * quipper's reading of a cpu list: comma-separated numbers or a-b ranges
 * (b > a), strtoul semantics, stopping at the first bad piece but keeping
 * what it already has.
 */
static void enc_hybrid_cpu_list(struct pw_buf *b, const char *cpus)
{
	const char *p = cpus;
	size_t m = pw_open(b, 4);

	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char piece[64], *dash, *e1;
		unsigned long lo, hi, c;

		if (n >= sizeof(piece))
			break;
		memcpy(piece, p, n);
		piece[n] = '\0';
		dash = strchr(piece, '-');
		if (dash && dash != piece) {
			*dash = '\0';
			lo = strtoul(piece, &e1, 10);
			hi = strtoul(dash + 1, NULL, 10);
			if (hi <= lo)
				break;
			for (c = lo; c <= hi; c++)
				pw_varint(b, c);
		} else {
			pw_varint(b, strtoul(piece, NULL, 10));
		}
		if (!end)
			break;
		p = end + 1;
	}
	/* an empty packed field is still valid, but quipper writes nothing */
	if (b->ob.len == m)
		b->ob.len = m - 2;
	else
		pw_close(b, m);
}

static void enc_file_header(struct pw_buf *b, const struct pd_header *h)
{
	size_t m = pw_open(b, 1000);

	pw_u64(b, 1, h->mode);
	pw_bool(b, 2, h->big_endian);
	pw_u64(b, 3, h->header_size);
	if (h->mode != PD_MODE_PIPE) {
		pw_u64(b, 4, h->attr_size);
		pw_u64(b, 5, h->data.offset);
		pw_u64(b, 6, h->data.size);
		pw_packed_u64(b, 7, h->features, 4);
		pw_u64(b, 8, h->file_size);
	}
	pw_close(b, m);
}

void pm_encode(struct pm_state *st, struct pd_reader *r, struct pw_buf *b)
{
	const struct pd_features *f = pd_reader_features(r);
	size_t i, j, m;

	if (st->pipe && !((st->mask >> PD_FEAT_EVENT_DESC) & 1) &&
	    st->nr_pipe_event_types == st->nr_attrs)
		st->mask |= 1ULL << PD_FEAT_EVENT_DESC;
	if (!st->pipe && st->nr_etypes)
		st->mask |= 1ULL << PD_FEAT_EVENT_DESC;

	for (i = 0; i < st->nr_attrs; i++) {
		m = pw_open(b, PF_FILE_ATTRS);
		enc_attr(b, &st->attrs[i], st->ext);
		for (j = 0; j < st->attrs[i].nr_ids; j++)
			pw_u64(b, 2, st->attrs[i].ids[j]);
		pw_close(b, m);
	}
	pw_u64(b, PF_TIMESTAMP_SEC, 0);
	pw_u64(b, PF_METADATA_MASK, st->mask);

	for (i = 0; i < st->nr_bids; i++) {
		const struct pm_build_id *x = &st->bids[i];

		m = pw_open(b, PF_BUILD_IDS);
		pw_u64(b, 1, x->misc);
		pw_u64(b, 2, x->pid);
		pw_bytes(b, 3, x->hash, x->hash_len);
		pw_str_md5(b, 4, 5, x->filename);
		if (x->has_size)
			pw_u64(b, 6, x->size);
		pw_close(b, m);
	}
	if (pd_features_has(f, PD_FEAT_NRCPUS)) {
		m = pw_open(b, 8);
		pw_u64(b, 1, PD_FEAT_NRCPUS);
		pw_u64(b, 2, f->nrcpus.avail);
		pw_u64(b, 2, f->nrcpus.online);
		pw_close(b, m);
	}
	if (pd_features_has(f, PD_FEAT_TOTAL_MEM)) {
		m = pw_open(b, 9);
		pw_u64(b, 1, PD_FEAT_TOTAL_MEM);
		pw_u64(b, 2, f->total_mem);
		pw_close(b, m);
	}
	for (i = 0; i < st->nr_etypes; i++) {
		m = pw_open(b, 10);
		pw_u64(b, 1, st->etypes[i].id);
		pw_str_md5(b, 2, 3, st->etypes[i].name);
		pw_close(b, m);
	}
	if (pd_features_has(f, PD_FEAT_CPU_TOPOLOGY))
		enc_cpu_topology(b, f);
	if (pd_features_has(f, PD_FEAT_NUMA_TOPOLOGY)) {
		for (i = 0; i < f->numa_topology.nr; i++) {
			const struct pd_feat_numa_node *n = &f->numa_topology.nodes[i];

			m = pw_open(b, 12);
			pw_u64(b, 1, n->node);
			pw_u64(b, 2, n->mem_total);
			pw_u64(b, 3, n->mem_free);
			pw_str_md5(b, 4, 5, n->cpus ? n->cpus : "");
			pw_close(b, m);
		}
	}
	enc_strings(b, f, pd_reader_header(r));
	if (st->pipe && st->tracing_len) {
		m = pw_open(b, 14);
		pw_bytes(b, 1, st->tracing, st->tracing_len);
		pw_close(b, m);
	} else if (!st->pipe && pd_features_has(f, PD_FEAT_TRACING_DATA) &&
		   f->raw[PD_FEAT_TRACING_DATA].len) {
		m = pw_open(b, 14);
		pw_bytes(b, 1, f->raw[PD_FEAT_TRACING_DATA].data, f->raw[PD_FEAT_TRACING_DATA].len);
		pw_close(b, m);
	}
	if (pd_features_has(f, PD_FEAT_PMU_MAPPINGS)) {
		for (i = 0; i < f->pmu_mappings.nr; i++) {
			m = pw_open(b, 15);
			pw_u64(b, 1, f->pmu_mappings.pmus[i].type);
			pw_str_md5(b, 2, 3, f->pmu_mappings.pmus[i].name);
			pw_close(b, m);
		}
	}
	if (pd_features_has(f, PD_FEAT_GROUP_DESC)) {
		for (i = 0; i < f->group_desc.nr; i++) {
			m = pw_open(b, 16);
			pw_str_md5(b, 1, 2, f->group_desc.groups[i].name);
			pw_u64(b, 3, f->group_desc.groups[i].leader_idx);
			pw_u64(b, 4, f->group_desc.groups[i].nr_members);
			pw_close(b, m);
		}
	}
	if (pd_features_has(f, PD_FEAT_HYBRID_TOPOLOGY)) {
		for (i = 0; i < f->hybrid_topology.nr; i++) {
			const struct pd_feat_hybrid_node *n = &f->hybrid_topology.nodes[i];

			m = pw_open(b, 17);
			pw_str_md5(b, 1, 2, n->pmu_name);
			pw_str(b, 3, n->cpus ? n->cpus : "");
			enc_hybrid_cpu_list(b, n->cpus ? n->cpus : "");
			pw_close(b, m);
		}
	}
	if (!st->ext)
		return;

	enc_file_header(b, pd_reader_header(r));
	for (i = 0; i < PD_FEAT_BITS; i++) {
		const struct pd_feat_raw *raw = &f->raw[i];
		const char *name;

		if (!raw->present || i == PD_FEAT_TRACING_DATA)
			continue;
		m = pw_open(b, 1001);
		pw_u64(b, 1, i);
		name = pd_feature_name((unsigned int)i);
		if (name)
			pw_str(b, 2, name);
		pw_bytes(b, 3, raw->data, raw->len);
		pw_close(b, m);
	}
}

void pm_free(struct pm_state *st)
{
	size_t i;

	clear_attrs(st);
	for (i = 0; i < st->nr_etypes; i++)
		free(st->etypes[i].name);
	free(st->etypes);
	for (i = 0; i < st->nr_bids; i++)
		free(st->bids[i].filename);
	free(st->bids);
	free(st->tracing);
	memset(st, 0, sizeof(*st));
}
