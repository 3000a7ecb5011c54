// SPDX-License-Identifier: MIT
/*
 * rec_text.c - a record's fields as one line of key=value text: the sink
 * of the record walk behind perfconv dump and to-csv's records.summary
 * (see rec_text.h).
 *
 * The helpers below assemble the text in place in the output buffer: a
 * write first makes room for itself (out_buf_room(), which flushes or
 * grows), then stores its bytes at b->buf + b->len.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rec_text.h"

/* Bytes as contiguous hex digits: build ids, tags, raw payloads. */
static void put_hexbytes(struct out_buf *b, const uint8_t *p, size_t n)
{
	while (n) {
		size_t chunk = n > 4096 ? 4096 : n;

		b->len += fmt_hex_bytes(out_buf_room(b, 2 * chunk), p, chunk);
		p += chunk;
		n -= chunk;
	}
}

/*
 * A string from the file, bounded by `max` bytes: control characters and
 * backslashes are escaped as \xNN so that every record stays on one line.
 * The runs of bytes between them are copied whole.
 */
void rec_text_str_n(struct out_buf *b, const char *s, size_t max)
{
	size_t i = 0, j;

	if (!s) {
		rec_text_s(b, "(null)");
		return;
	}
	for (;;) {
		unsigned char c = 0;

		/* the NUL that ends the string is a control character too */
		for (j = i; j < max; j++) {
			c = (unsigned char)s[j];
			if (c < 0x20 || c == 0x7f || c == '\\')
				break;
		}
		out_buf_put(b, s + i, j - i);
		if (j == max || !c)
			return;
		out_buf_room(b, 4);
		b->buf[b->len++] = '\\';
		b->buf[b->len++] = 'x';
		b->len += fmt_hex_bytes(b->buf + b->len, &c, 1);
		i = j + 1;
	}
}

static void put_u64_list(struct out_buf *b, const char *k, const uint64_t *v, uint64_t nr,
			 bool hex)
{
	uint64_t i;

	rec_text_key(b, k);
	out_buf_c(b, '[');
	for (i = 0; v && i < nr; i++) {
		if (i)
			out_buf_c(b, ',');
		if (hex)
			rec_text_hex(b, v[i]);
		else
			rec_text_u64(b, v[i]);
	}
	out_buf_c(b, ']');
}

/* ---- names ---- */

static const char *const br_type_names[16] = {
	NULL, "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
	"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "EXTEND_ABI",
};

static const char *const br_spec_names[4] = {
	NULL, "WRONG_PATH", "NON_SPEC_CORRECT_PATH", "SPEC_CORRECT_PATH",
};

static const char *const br_new_type_names[16] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5",
};

static const char *const br_priv_names[8] = {
	NULL, "USER", "KERNEL", "HV",
};

static void put_name_or_num(struct out_buf *b, const char *const *names, size_t nr,
			    unsigned int v)
{
	if (v < nr && names[v])
		rec_text_s(b, names[v]);
	else
		rec_text_u64(b, v);
}

/* ---- values each output lays out in its own way ---- */

/* One branch: FROM->TO, then "/"-separated flags that are set. */
static void put_branch(struct out_buf *b, const struct pd_branch_entry *br)
{
	uint64_t f = br->flags;

	rec_text_hex(b, br->from);
	rec_text_s(b, "->");
	rec_text_hex(b, br->to);
	if (PD_BR_MISPRED(f))
		rec_text_s(b, "/M");
	if (PD_BR_PREDICTED(f))
		rec_text_s(b, "/P");
	if (PD_BR_IN_TX(f))
		rec_text_s(b, "/X");
	if (PD_BR_ABORT(f))
		rec_text_s(b, "/A");
	if (PD_BR_CYCLES(f)) {
		rec_text_s(b, "/cyc=");
		rec_text_u64(b, PD_BR_CYCLES(f));
	}
	if (PD_BR_TYPE(f)) {
		rec_text_s(b, "/type=");
		put_name_or_num(b, br_type_names, 16, PD_BR_TYPE(f));
	}
	if (PD_BR_SPEC(f)) {
		rec_text_s(b, "/spec=");
		put_name_or_num(b, br_spec_names, 4, PD_BR_SPEC(f));
	}
	/* new_type only means something for the EXTEND_ABI branch type */
	if (PD_BR_TYPE(f) == 15) {
		rec_text_s(b, "/new_type=");
		put_name_or_num(b, br_new_type_names, 16, PD_BR_NEW_TYPE(f));
	}
	if (PD_BR_PRIV(f)) {
		rec_text_s(b, "/priv=");
		put_name_or_num(b, br_priv_names, 8, PD_BR_PRIV(f));
	}
}

/* ---- the sink of the record walk (pd_visit.h) ---- */

/*
 * The walk's structure on one line: fields of the record (and of a
 * flattened object, behind its prefix) as " key=value", a list as
 * "key=[a,b]", an object in a list as "name:value/name:value" or, by the
 * list's flags, "a/b", "a:b" or one more " a=b" field.
 */
struct text_level {
	bool is_list;
	unsigned int flags;	/* the list's */
	unsigned int count;	/* items written at this level */
};

struct text_sink {
	struct out_buf *b;
	bool bulk;		/* payloads of any size too */
	bool skip_callchain;	/* a sample's callchain list left out */
	const char *prefix;	/* of the flattened object being written, else "" */
	size_t prefix_len;
	unsigned int depth;	/* 0: the record's own fields */
	struct text_level lv[4];
};

/* Copy a NUL-terminated name: field names are short, so no strlen() + memcpy() */
static inline void put_name(struct out_buf *b, const char *s)
{
	char *p, *end;

	out_buf_room(b, 64);
	p = b->buf + b->len;
	end = p + 63;
	while (*s && p < end)
		*p++ = *s++;
	b->len = (size_t)(p - b->buf);
	if (*s)
		rec_text_s(b, s);	/* a long name from the file (schedstat counters) */
}

/* What goes before a value: " key=" at the record level, a separator in a list. */
static void sink_key_nested(struct text_sink *ts, const char *name)
{
	struct text_level *lv = &ts->lv[ts->depth - 1], *list;
	struct out_buf *b = ts->b;

	if (lv->is_list || ts->depth < 2) {
		if (lv->count++)
			out_buf_c(b, ',');
		return;
	}
	list = &ts->lv[ts->depth - 2];
	if (list->flags & PD_VF_AS_FIELDS) {
		out_buf_c(b, lv->count++ ? '=' : ' ');
		return;
	}
	if (lv->count++)
		out_buf_c(b, list->flags & PD_VF_PAIR ? ':' : '/');
	if (!(list->flags & (PD_VF_UNNAMED | PD_VF_PAIR))) {
		put_name(b, name);
		out_buf_c(b, ':');
	}
}

static inline void sink_key(struct text_sink *ts, const char *name, unsigned int flags)
{
	struct out_buf *b = ts->b;

	if (ts->depth) {
		struct text_level *lv = &ts->lv[ts->depth - 1];

		/* the common case, a value in a list (callchains) */
		if (lv->is_list) {
			if (lv->count++)
				out_buf_c(b, lv->flags & PD_VF_BITS ? '|' : ',');
			return;
		}
		sink_key_nested(ts, name);
		return;
	}
	if (!ts->prefix_len) {
		/* the common case: " name=" in one reservation, no strlen() */
		char *p, *end;

		out_buf_room(b, 66);
		p = b->buf + b->len;
		*p++ = ' ';
		end = p + 63;
		while (*name && p < end)
			*p++ = *name++;
		if (!*name) {
			*p++ = '=';
			b->len = (size_t)(p - b->buf);
			return;
		}
		b->len = (size_t)(p - b->buf);
		rec_text_s(b, name);	/* a long name from the file (schedstat counters) */
		out_buf_c(b, '=');
		return;
	}
	out_buf_c(b, ' ');
	if (flags & PD_VF_MAIN) {
		out_buf_put(b, ts->prefix, ts->prefix_len - 1);
	} else {
		out_buf_put(b, ts->prefix, ts->prefix_len);
		put_name(b, name);
	}
	out_buf_c(b, '=');
}

static void sink_u64(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	struct text_sink *ts = ctx;

	if (flags & PD_VF_DETAIL)
		return;
	sink_key(ts, name, flags);
	rec_text_u64(ts->b, v);
}

static void sink_i64(void *ctx, const char *name, int64_t v, unsigned int flags)
{
	struct text_sink *ts = ctx;

	if (flags & PD_VF_DETAIL)
		return;
	sink_key(ts, name, flags);
	rec_text_i64(ts->b, v);
}

static void sink_hex(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	struct text_sink *ts = ctx;
	const char *marker = NULL;

	if (flags & PD_VF_DETAIL)
		return;
	sink_key(ts, name, flags);
	/* callchain context markers by name: [KERNEL,0x..,USER,0x..] */
	if (ts->depth && (ts->lv[ts->depth - 1].flags & PD_VF_CALLCHAIN) && v >= PD_CONTEXT_MAX)
		marker = pd_context_name(v);
	if (marker)
		rec_text_s(ts->b, marker);
	else
		rec_text_hex(ts->b, v);
}

/* the same as sink_list_begin(), sink_hex() for each value and sink_list_end(), at once */
static void sink_hex_list(void *ctx, const char *name, const uint64_t *v, uint64_t nr,
			  unsigned int flags)
{
	struct text_sink *ts = ctx;
	struct out_buf *b = ts->b;
	bool markers = flags & PD_VF_CALLCHAIN;
	char *p, *end;
	uint64_t i;

	if (markers && ts->skip_callchain)
		return;
	sink_key(ts, name, flags);
	out_buf_c(b, '[');
	/*
	 * Tens of millions of values in a big file: the write position stays
	 * in a local rather than in b->len, which every byte stored through
	 * b->buf could alias.
	 */
	p = b->buf + b->len;
	end = b->buf + b->cap;
	for (i = 0; i < nr; i++) {
		const char *marker;

		/* ',', "0x" and 16 digits; a marker name is shorter */
		if (end - p < 19) {
			b->len = (size_t)(p - b->buf);
			out_buf_grow(b, 19);
			p = b->buf + b->len;
			end = b->buf + b->cap;
		}
		*p = ',';
		p += i != 0;
		/* callchain context markers by name: [KERNEL,0x..,USER,0x..] */
		marker = markers && v[i] >= PD_CONTEXT_MAX ? pd_context_name(v[i]) : NULL;
		if (marker) {
			size_t n = strlen(marker);

			if (n > 18) {
				b->len = (size_t)(p - b->buf);
				rec_text_s(b, marker);
				p = b->buf + b->len;
				end = b->buf + b->cap;
			} else {
				memcpy(p, marker, n);
				p += n;
			}
			continue;
		}
		p[0] = '0';
		p[1] = 'x';
		p += 2 + fmt_hex_wide(p + 2, v[i]);
	}
	b->len = (size_t)(p - b->buf);
	out_buf_c(b, ']');
}

static void sink_str(void *ctx, const char *name, const char *s, size_t max, unsigned int flags)
{
	struct text_sink *ts = ctx;

	if (flags & PD_VF_DETAIL)
		return;
	sink_key(ts, name, flags);
	rec_text_str_n(ts->b, s, max);
}

static void sink_flag(void *ctx, const char *name, bool set, unsigned int flags)
{
	struct text_sink *ts = ctx;

	if (!set || (flags & PD_VF_DETAIL))
		return;
	sink_key(ts, name, flags);
	out_buf_c(ts->b, '1');
}

static void sink_sym(void *ctx, const char *name, const char *sym, uint64_t v, unsigned int flags)
{
	struct text_sink *ts = ctx;

	if (flags & PD_VF_DETAIL)
		return;
	sink_key(ts, name, flags);
	if (sym)
		rec_text_s(ts->b, sym);
	else
		rec_text_u64(ts->b, v);
}

static void sink_real(void *ctx, const char *name, double v, unsigned int flags)
{
	struct text_sink *ts = ctx;
	/* the shortest text that reads back as the same double; rare, so printf */
	char d[40];

	if (flags & PD_VF_DETAIL)
		return;
	snprintf(d, sizeof(d), "%.15g", v);
	if (strtod(d, NULL) != v)
		snprintf(d, sizeof(d), "%.17g", v);
	sink_key(ts, name, flags);
	rec_text_str_n(ts->b, d, SIZE_MAX);
}

static void sink_bytes(void *ctx, const char *name, const uint8_t *p, size_t n, unsigned int flags)
{
	struct text_sink *ts = ctx;

	if (flags & PD_VF_DETAIL)
		return;
	/* payloads when held; sample data only on request */
	if ((flags & PD_VF_PAYLOAD) && (!p || ((flags & PD_VF_BULK) && !ts->bulk)))
		return;
	sink_key(ts, name, flags);
	put_hexbytes(ts->b, p, n);
}

static void sink_push(struct text_sink *ts, bool is_list, unsigned int flags)
{
	/* the walk nests a list in an object in a list at most */
	if (ts->depth < sizeof(ts->lv) / sizeof(ts->lv[0])) {
		ts->lv[ts->depth].is_list = is_list;
		ts->lv[ts->depth].flags = flags;
		ts->lv[ts->depth].count = 0;
	}
	ts->depth++;
}

/*
 * A list left out (PD_VF_DETAIL) is an attr's names of bits, which carry
 * the list's flags: none of them shows either.
 */
static void sink_list_begin(void *ctx, const char *name, unsigned int flags)
{
	struct text_sink *ts = ctx;

	if (!(flags & (PD_VF_AS_FIELDS | PD_VF_DETAIL))) {
		sink_key(ts, name, flags);
		if (!(flags & PD_VF_BITS))
			out_buf_c(ts->b, '[');
	}
	sink_push(ts, true, flags);
}

static void sink_list_end(void *ctx)
{
	struct text_sink *ts = ctx;
	const struct text_level *lv = &ts->lv[--ts->depth];

	if (lv->flags & (PD_VF_AS_FIELDS | PD_VF_DETAIL))
		return;
	if (!(lv->flags & PD_VF_BITS))
		out_buf_c(ts->b, ']');
	else if (!lv->count)
		out_buf_c(ts->b, '0');	/* no bit set */
}

static void sink_obj_begin(void *ctx, const char *name, const char *flat, unsigned int flags)
{
	struct text_sink *ts = ctx;
	struct text_level *list;

	if (!ts->depth) {
		/* an object of the record: its members are fields with a prefix */
		ts->prefix = flat ? flat : "";
		ts->prefix_len = strlen(ts->prefix);
		return;
	}
	list = &ts->lv[ts->depth - 1];
	if (list->count++ && !(list->flags & PD_VF_AS_FIELDS))
		out_buf_c(ts->b, ',');
	sink_push(ts, false, list->flags);
}

static void sink_obj_end(void *ctx)
{
	struct text_sink *ts = ctx;

	if (ts->depth)
		ts->depth--;
	else
		ts->prefix_len = 0;
}

/*
 * read_format values: "read=[VALUE(id=ID,lost=N),...]", preceded by the
 * time_enabled/running totals when the format has them.
 */
static void sink_read(void *ctx, const char *prefix, const struct pd_read *rd)
{
	struct out_buf *b = ((struct text_sink *)ctx)->b;
	char key[32];
	uint64_t i;

	if (rd->format & PD_FORMAT_TOTAL_TIME_ENABLED) {
		snprintf(key, sizeof(key), "%s_time_enabled", prefix);
		rec_text_kv_u(b, key, rd->time_enabled);
	}
	if (rd->format & PD_FORMAT_TOTAL_TIME_RUNNING) {
		snprintf(key, sizeof(key), "%s_time_running", prefix);
		rec_text_kv_u(b, key, rd->time_running);
	}
	if (rd->format & PD_FORMAT_GROUP) {
		snprintf(key, sizeof(key), "%s_nr", prefix);
		rec_text_kv_u(b, key, rd->nr);
	}
	rec_text_key(b, prefix);
	out_buf_c(b, '[');
	for (i = 0; rd->values && i < rd->nr; i++) {
		const struct pd_read_value *v = &rd->values[i];

		if (i)
			out_buf_c(b, ',');
		rec_text_u64(b, v->value);
		if (rd->format & (PD_FORMAT_ID | PD_FORMAT_LOST)) {
			out_buf_c(b, '(');
			if (rd->format & PD_FORMAT_ID) {
				rec_text_s(b, "id=");
				rec_text_u64(b, v->id);
			}
			if (rd->format & PD_FORMAT_LOST) {
				if (rd->format & PD_FORMAT_ID)
					out_buf_c(b, ',');
				rec_text_s(b, "lost=");
				rec_text_u64(b, v->lost);
			}
			out_buf_c(b, ')');
		}
	}
	out_buf_c(b, ']');
}

static void sink_regs(void *ctx, const char *prefix, const struct pd_regs *r)
{
	struct out_buf *b = ((struct text_sink *)ctx)->b;
	char key[32];

	snprintf(key, sizeof(key), "%s_abi", prefix);
	rec_text_kv_u(b, key, r->abi);
	snprintf(key, sizeof(key), "%s_mask", prefix);
	rec_text_kv_x(b, key, r->mask);
	if (r->abi)
		put_u64_list(b, prefix, r->regs, r->nr, true);
}

static void sink_branch_stack(void *ctx, const struct pd_sample *s)
{
	struct text_sink *ts = ctx;
	struct out_buf *b = ts->b;
	uint64_t i;

	rec_text_kv_u(b, "branch_nr", s->branch_nr);
	if (s->branch_has_hw_idx)
		rec_text_kv_i(b, "branch_hw_idx", (int64_t)s->branch_hw_idx);
	rec_text_key(b, "branches");
	out_buf_c(b, '[');
	for (i = 0; s->branches && i < s->branch_nr; i++) {
		if (i)
			out_buf_c(b, ',');
		put_branch(b, &s->branches[i]);
	}
	out_buf_c(b, ']');
	if (s->branch_counters)
		put_u64_list(b, "branch_counters", s->branch_counters, s->branch_nr, true);
}

static const struct pd_visit_ops text_sink_ops;

/* an attr's fields are fields of the record: " attr_type=... config=..." */
static void sink_attr(void *ctx, const struct pd_attr *attr, unsigned int flags)
{
	pd_attr_visit(attr, &text_sink_ops, ctx);
}

static void sink_feature(void *ctx, const struct pd_rec_header_feature *hf)
{
	struct text_sink *ts = ctx;
	char buf[24];

	rec_text_kv_s(ts->b, "feature", hf->feat_id < PD_FEAT_BITS ?
		      tool_feature_name((unsigned int)hf->feat_id, buf, sizeof(buf)) : "?");
}

static const struct pd_visit_ops text_sink_ops = {
	.u64 = sink_u64,
	.i64 = sink_i64,
	.hex = sink_hex,
	.str = sink_str,
	.flag = sink_flag,
	.sym = sink_sym,
	.real = sink_real,
	.bytes = sink_bytes,
	.list_begin = sink_list_begin,
	.list_end = sink_list_end,
	.obj_begin = sink_obj_begin,
	.obj_end = sink_obj_end,
	.read = sink_read,
	.regs = sink_regs,
	.branch_stack = sink_branch_stack,
	.attr = sink_attr,
	.feature = sink_feature,
	.hex_list = sink_hex_list,
};

void rec_text_attr(struct out_buf *b, const struct pd_attr *a)
{
	struct text_sink ts = { .b = b, .prefix = "" };

	pd_attr_visit(a, &text_sink_ops, &ts);
}

void rec_text_fields(struct out_buf *b, const struct pd_record *rec, unsigned int opts)
{
	struct text_sink ts = {
		.b = b,
		.bulk = opts & REC_TEXT_BULK,
		/* only a sample's: a CALLCHAIN_DEFERRED record's ips are its body */
		.skip_callchain = !(opts & REC_TEXT_CALLCHAIN) && rec->type == PD_REC_SAMPLE,
		.prefix = "",
	};

	if (rec->misc && rec->type != PD_REC_SAMPLE)
		rec_text_kv_x(b, "misc", rec->misc);
	if (!rec->decoded)
		return;
	pd_record_visit(rec, &text_sink_ops, &ts);
	if (rec->has_trailer)
		pd_sample_id_visit(&rec->sid, &text_sink_ops, &ts);
	if (rec->extra_len) {
		rec_text_kv_u(b, "extra_len", rec->extra_len);
		rec_text_kv_x(b, "extra_offset", rec->extra_offset);
	}
}
