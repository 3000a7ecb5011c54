// SPDX-License-Identifier: MIT
/*
 * cmd_dump.c - perfconv dump: one line per record with every decoded field.
 *
 *	0xOFFSET [SIZE] TYPE key=value key=value ...
 *
 * dump runs over files of hundreds of megabytes, so the record loop does no
 * allocation and no printf(): lines are assembled in place in the 1 MiB
 * output buffer (common/out_buf.h) by the out_*() helpers below, which is
 * written to standard output whenever it is full.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../common/out_buf.h"
#include "../common/tool_select.h"
#include "driver.h"

/* ---- output buffer ---- */

#define OUT_SIZE (1024 * 1024)

/*
 * The one output buffer (common/out_buf.h), on standard output, over
 * static storage: the hot paths below index out_store itself, a constant
 * address, rather than load out.buf for every byte (8 % of dump's time).
 */
static char out_store[OUT_SIZE];
static struct out_buf out = { .buf = out_store, .cap = OUT_SIZE, .fd = STDOUT_FILENO };

static const char hex_digits[] = "0123456789abcdef";

static void out_flush(void)
{
	out_buf_flush(&out);
}

/* Make room for n bytes (n <= OUT_BUF_MIN). */
static inline void out_room(size_t n)
{
	if (OUT_SIZE - out.len < n)
		out_flush();
}

static inline void out_c(char c)
{
	out_room(1);
	out_store[out.len++] = c;
}

static void out_mem(const char *s, size_t n)
{
	out_buf_put(&out, s, n);
}

static inline void out_s(const char *s)
{
	out_mem(s, strlen(s));
}

static inline void out_u64(uint64_t v)
{
	char tmp[20];
	int n = 0;

	out_room(20);
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		out_store[out.len++] = tmp[--n];
}

static inline void out_i64(int64_t v)
{
	if (v < 0) {
		out_c('-');
		out_u64(-(uint64_t)v);
	} else {
		out_u64((uint64_t)v);
	}
}

/* "0x" and v's hex digits at the end of the output, which has room for 18 bytes */
static inline void put_hex(uint64_t v)
{
	/* the digits are written from the last one back: no reversal */
	unsigned int n = v ? (67 - (unsigned int)__builtin_clzll(v)) / 4 : 1;
	char *p = out_store + out.len;

	p[0] = '0';
	p[1] = 'x';
	out.len += 2 + n;
	p += 2 + n;
	do {
		*--p = hex_digits[v & 0xf];
		v >>= 4;
	} while (--n);
}

static inline void out_hex(uint64_t v)
{
	out_room(18);
	put_hex(v);
}

/* Bytes as contiguous hex digits: build ids, tags, raw payloads. */
static void out_hexbytes(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		out_room(2);
		out_store[out.len++] = hex_digits[p[i] >> 4];
		out_store[out.len++] = hex_digits[p[i] & 0xf];
	}
}

/*
 * A string from the file, bounded by `max` bytes: control characters and
 * backslashes are escaped as \xNN so that every record stays on one line.
 */
static void out_str_n(const char *s, size_t max)
{
	size_t i;

	if (!s) {
		out_s("(null)");
		return;
	}
	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		out_room(4);
		if (c < 0x20 || c == 0x7f || c == '\\') {
			out_store[out.len++] = '\\';
			out_store[out.len++] = 'x';
			out_store[out.len++] = hex_digits[c >> 4];
			out_store[out.len++] = hex_digits[c & 0xf];
		} else {
			out_store[out.len++] = (char)c;
		}
	}
}

static inline void out_key(const char *k)
{
	out_c(' ');
	out_s(k);
	out_c('=');
}

static inline void out_kv_u(const char *k, uint64_t v)
{
	out_key(k);
	out_u64(v);
}

static inline void out_kv_i(const char *k, int64_t v)
{
	out_key(k);
	out_i64(v);
}

static inline void out_kv_x(const char *k, uint64_t v)
{
	out_key(k);
	out_hex(v);
}

static inline void out_kv_s(const char *k, const char *s)
{
	out_key(k);
	out_str_n(s, SIZE_MAX);
}

static void out_u64_list(const char *k, const uint64_t *v, uint64_t nr, bool hex)
{
	uint64_t i;

	out_key(k);
	out_c('[');
	for (i = 0; v && i < nr; i++) {
		if (i)
			out_c(',');
		if (hex)
			out_hex(v[i]);
		else
			out_u64(v[i]);
	}
	out_c(']');
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

static void out_name_or_num(const char *const *names, size_t nr, unsigned int v)
{
	if (v < nr && names[v])
		out_s(names[v]);
	else
		out_u64(v);
}

/* ---- state ---- */

struct dump_ctx {
	bool hex;
	const char *name;
	/* last COMPRESSED/COMPRESSED2 container, to name the one inner records came from */
	uint64_t container_offset;
	uint32_t container_type;
};

/* ---- record fields: the sink of the record walk (pd_visit.h) ---- */

/*
 * read_format values: "read=[VALUE(id=ID,lost=N),...]", preceded by the
 * time_enabled/running totals when the format has them.
 */
static void out_read(const char *prefix, const struct pd_read *rd)
{
	char key[32];
	uint64_t i;

	if (rd->format & PD_FORMAT_TOTAL_TIME_ENABLED) {
		snprintf(key, sizeof(key), "%s_time_enabled", prefix);
		out_kv_u(key, rd->time_enabled);
	}
	if (rd->format & PD_FORMAT_TOTAL_TIME_RUNNING) {
		snprintf(key, sizeof(key), "%s_time_running", prefix);
		out_kv_u(key, rd->time_running);
	}
	if (rd->format & PD_FORMAT_GROUP) {
		snprintf(key, sizeof(key), "%s_nr", prefix);
		out_kv_u(key, rd->nr);
	}
	out_key(prefix);
	out_c('[');
	for (i = 0; rd->values && i < rd->nr; i++) {
		const struct pd_read_value *v = &rd->values[i];

		if (i)
			out_c(',');
		out_u64(v->value);
		if (rd->format & (PD_FORMAT_ID | PD_FORMAT_LOST)) {
			out_c('(');
			if (rd->format & PD_FORMAT_ID) {
				out_s("id=");
				out_u64(v->id);
			}
			if (rd->format & PD_FORMAT_LOST) {
				if (rd->format & PD_FORMAT_ID)
					out_c(',');
				out_s("lost=");
				out_u64(v->lost);
			}
			out_c(')');
		}
	}
	out_c(']');
}

/* One branch: FROM->TO, then "/"-separated flags that are set. */
static void out_branch(const struct pd_branch_entry *b)
{
	uint64_t f = b->flags;

	out_hex(b->from);
	out_s("->");
	out_hex(b->to);
	if (PD_BR_MISPRED(f))
		out_s("/M");
	if (PD_BR_PREDICTED(f))
		out_s("/P");
	if (PD_BR_IN_TX(f))
		out_s("/X");
	if (PD_BR_ABORT(f))
		out_s("/A");
	if (PD_BR_CYCLES(f)) {
		out_s("/cyc=");
		out_u64(PD_BR_CYCLES(f));
	}
	if (PD_BR_TYPE(f)) {
		out_s("/type=");
		out_name_or_num(br_type_names, 16, PD_BR_TYPE(f));
	}
	if (PD_BR_SPEC(f)) {
		out_s("/spec=");
		out_name_or_num(br_spec_names, 4, PD_BR_SPEC(f));
	}
	/* new_type only means something for the EXTEND_ABI branch type */
	if (PD_BR_TYPE(f) == 15) {
		out_s("/new_type=");
		out_name_or_num(br_new_type_names, 16, PD_BR_NEW_TYPE(f));
	}
	if (PD_BR_PRIV(f)) {
		out_s("/priv=");
		out_name_or_num(br_priv_names, 8, PD_BR_PRIV(f));
	}
}

static void out_regs(const char *prefix, const struct pd_regs *r)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_abi", prefix);
	out_kv_u(key, r->abi);
	snprintf(key, sizeof(key), "%s_mask", prefix);
	out_kv_x(key, r->mask);
	if (r->abi)
		out_u64_list(prefix, r->regs, r->nr, true);
}

static void out_attr_fields(const struct pd_attr *a)
{
	const char *tn = pd_attr_type_name(a->type);
	char buf[512];

	out_key("attr_type");
	if (tn)
		out_s(tn);
	else
		out_u64(a->type);
	out_kv_x("config", a->config);
	out_kv_u(a->flags & PD_ATTR_FREQ ? "sample_freq" : "sample_period", a->sample_period);
	out_key("sample_type");
	out_s(cli_format_bits(buf, sizeof(buf), a->sample_type, pd_sample_bit_name, "|"));
	out_key("read_format");
	out_s(cli_format_bits(buf, sizeof(buf), a->read_format, pd_read_format_bit_name, "|"));
	out_kv_x("flags", a->flags);
	if (a->branch_sample_type) {
		out_key("branch_sample_type");
		out_s(cli_format_bits(buf, sizeof(buf), a->branch_sample_type,
				      pd_branch_sample_bit_name, "|"));
	}
}

/*
 * The walk's structure on one line: fields of the record (and of a
 * flattened object, behind its prefix) as " key=value", a list as
 * "key=[a,b]", an object in a list as "name:value/name:value" or, by the
 * list's flags, "a/b", "a:b" or one more " a=b" field.
 */
struct dump_level {
	bool is_list;
	unsigned int flags;	/* the list's */
	unsigned int count;	/* items written at this level */
};

struct dump_sink {
	const struct dump_ctx *dc;
	const char *prefix;	/* of the flattened object being written, else "" */
	size_t prefix_len;
	unsigned int depth;	/* 0: the record's own fields */
	struct dump_level lv[4];
};

/* Copy a NUL-terminated name: field names are short, so no strlen() + memcpy() */
static inline void out_name(const char *s)
{
	char *p, *end;

	out_room(64);
	p = out_store + out.len;
	end = p + 63;
	while (*s && p < end)
		*p++ = *s++;
	out.len = (size_t)(p - out_store);
	if (*s)
		out_s(s);	/* a long name from the file (schedstat counters) */
}

/* What goes before a value: " key=" at the record level, a separator in a list. */
static void sink_key_nested(struct dump_sink *ds, const char *name)
{
	struct dump_level *lv = &ds->lv[ds->depth - 1], *list;

	if (lv->is_list || ds->depth < 2) {
		if (lv->count++)
			out_c(',');
		return;
	}
	list = &ds->lv[ds->depth - 2];
	if (list->flags & PD_VF_AS_FIELDS) {
		out_c(lv->count++ ? '=' : ' ');
		return;
	}
	if (lv->count++)
		out_c(list->flags & PD_VF_PAIR ? ':' : '/');
	if (!(list->flags & (PD_VF_UNNAMED | PD_VF_PAIR))) {
		out_name(name);
		out_c(':');
	}
}

static inline void sink_key(struct dump_sink *ds, const char *name, unsigned int flags)
{
	if (ds->depth) {
		struct dump_level *lv = &ds->lv[ds->depth - 1];

		/* the common case, a value in a list (callchains) */
		if (lv->is_list) {
			if (lv->count++)
				out_c(',');
			return;
		}
		sink_key_nested(ds, name);
		return;
	}
	out_c(' ');
	if ((flags & PD_VF_MAIN) && ds->prefix_len) {
		out_mem(ds->prefix, ds->prefix_len - 1);
	} else {
		if (ds->prefix_len)
			out_mem(ds->prefix, ds->prefix_len);
		out_name(name);
	}
	out_c('=');
}

static void sink_u64(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	if (flags & PD_VF_DETAIL)
		return;
	sink_key(ctx, name, flags);
	out_u64(v);
}

static void sink_i64(void *ctx, const char *name, int64_t v, unsigned int flags)
{
	if (flags & PD_VF_DETAIL)
		return;
	sink_key(ctx, name, flags);
	out_i64(v);
}

static void sink_hex(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	struct dump_sink *ds = ctx;
	const char *marker = NULL;

	if (flags & PD_VF_DETAIL)
		return;
	sink_key(ds, name, flags);
	/* callchain context markers by name: [KERNEL,0x..,USER,0x..] */
	if (ds->depth && (ds->lv[ds->depth - 1].flags & PD_VF_CALLCHAIN) && v >= PD_CONTEXT_MAX)
		marker = pd_context_name(v);
	if (marker)
		out_s(marker);
	else
		out_hex(v);
}

/* the same as sink_list_begin(), sink_hex() for each value and sink_list_end(), at once */
static void sink_hex_list(void *ctx, const char *name, const uint64_t *v, uint64_t nr,
			  unsigned int flags)
{
	bool markers = flags & PD_VF_CALLCHAIN;
	uint64_t i;

	sink_key(ctx, name, flags);
	out_c('[');
	for (i = 0; i < nr; i++) {
		/* callchain context markers by name: [KERNEL,0x..,USER,0x..] */
		const char *marker = markers && v[i] >= PD_CONTEXT_MAX ? pd_context_name(v[i]) : NULL;

		out_room(19);
		if (i)
			out_store[out.len++] = ',';
		if (marker)
			out_s(marker);
		else
			put_hex(v[i]);
	}
	out_c(']');
}

static void sink_str(void *ctx, const char *name, const char *s, size_t max, unsigned int flags)
{
	if (flags & PD_VF_DETAIL)
		return;
	sink_key(ctx, name, flags);
	out_str_n(s, max);
}

static void sink_flag(void *ctx, const char *name, bool set, unsigned int flags)
{
	if (!set || (flags & PD_VF_DETAIL))
		return;
	sink_key(ctx, name, flags);
	out_c('1');
}

static void sink_sym(void *ctx, const char *name, const char *sym, uint64_t v, unsigned int flags)
{
	if (flags & PD_VF_DETAIL)
		return;
	sink_key(ctx, name, flags);
	if (sym)
		out_s(sym);
	else
		out_u64(v);
}

static void sink_real(void *ctx, const char *name, double v, unsigned int flags)
{
	/* the shortest text that reads back as the same double; rare, so printf */
	char d[40];

	if (flags & PD_VF_DETAIL)
		return;
	snprintf(d, sizeof(d), "%.15g", v);
	if (strtod(d, NULL) != v)
		snprintf(d, sizeof(d), "%.17g", v);
	sink_key(ctx, name, flags);
	out_str_n(d, SIZE_MAX);
}

static void sink_bytes(void *ctx, const char *name, const uint8_t *p, size_t n, unsigned int flags)
{
	struct dump_sink *ds = ctx;

	if (flags & PD_VF_DETAIL)
		return;
	/* payloads when held; sample data only with --hex */
	if ((flags & PD_VF_PAYLOAD) && (!p || ((flags & PD_VF_BULK) && !ds->dc->hex)))
		return;
	sink_key(ds, name, flags);
	out_hexbytes(p, n);
}

static void sink_push(struct dump_sink *ds, bool is_list, unsigned int flags)
{
	/* the walk nests a list in an object in a list at most */
	if (ds->depth < sizeof(ds->lv) / sizeof(ds->lv[0])) {
		ds->lv[ds->depth].is_list = is_list;
		ds->lv[ds->depth].flags = flags;
		ds->lv[ds->depth].count = 0;
	}
	ds->depth++;
}

static void sink_list_begin(void *ctx, const char *name, unsigned int flags)
{
	struct dump_sink *ds = ctx;

	if (!(flags & PD_VF_AS_FIELDS)) {
		sink_key(ds, name, flags);
		out_c('[');
	}
	sink_push(ds, true, flags);
}

static void sink_list_end(void *ctx)
{
	struct dump_sink *ds = ctx;

	ds->depth--;
	if (!(ds->lv[ds->depth].flags & PD_VF_AS_FIELDS))
		out_c(']');
}

static void sink_obj_begin(void *ctx, const char *name, const char *flat, unsigned int flags)
{
	struct dump_sink *ds = ctx;
	struct dump_level *list;

	if (!ds->depth) {
		/* an object of the record: its members are fields with a prefix */
		ds->prefix = flat ? flat : "";
		ds->prefix_len = strlen(ds->prefix);
		return;
	}
	list = &ds->lv[ds->depth - 1];
	if (list->count++ && !(list->flags & PD_VF_AS_FIELDS))
		out_c(',');
	sink_push(ds, false, list->flags);
}

static void sink_obj_end(void *ctx)
{
	struct dump_sink *ds = ctx;

	if (ds->depth)
		ds->depth--;
	else
		ds->prefix_len = 0;
}

static void sink_read(void *ctx, const char *name, const struct pd_read *rd)
{
	out_read(name, rd);
}

static void sink_regs(void *ctx, const char *name, const struct pd_regs *r)
{
	out_regs(name, r);
}

static void sink_branch_stack(void *ctx, const struct pd_sample *s)
{
	uint64_t i;

	out_kv_u("branch_nr", s->branch_nr);
	if (s->branch_has_hw_idx)
		out_kv_i("branch_hw_idx", (int64_t)s->branch_hw_idx);
	out_key("branches");
	out_c('[');
	for (i = 0; s->branches && i < s->branch_nr; i++) {
		if (i)
			out_c(',');
		out_branch(&s->branches[i]);
	}
	out_c(']');
	if (s->branch_counters)
		out_u64_list("branch_counters", s->branch_counters, s->branch_nr, true);
}

static void sink_attr(void *ctx, const struct pd_attr *attr)
{
	out_attr_fields(attr);
}

static void sink_feature(void *ctx, const struct pd_rec_header_feature *hf)
{
	char buf[24];

	out_kv_s("feature", hf->feat_id < PD_FEAT_BITS ?
		 cli_feature_name((unsigned int)hf->feat_id, buf, sizeof(buf)) : "?");
}

static const struct pd_visit_ops dump_sink_ops = {
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

static void out_fields(const struct dump_ctx *dc, const struct pd_record *rec)
{
	struct dump_sink ds = { .dc = dc, .prefix = "" };

	pd_record_visit(rec, &dump_sink_ops, &ds);
	if (rec->has_trailer)
		pd_sample_id_visit(&rec->sid, &dump_sink_ops, &ds);
	if (rec->extra_len) {
		out_kv_u("extra_len", rec->extra_len);
		out_kv_x("extra_offset", rec->extra_offset);
	}
}

/* --hex: the record bytes as stored, 16 per line with their ASCII. */
static void out_hexdump(const uint8_t *p, size_t len)
{
	size_t off, i;

	for (off = 0; off < len; off += 16) {
		size_t n = len - off < 16 ? len - off : 16;

		out_room(96);
		out_store[out.len++] = ' ';
		out_store[out.len++] = ' ';
		for (i = 0; i < 4; i++)
			out_store[out.len++] = hex_digits[(off >> (12 - 4 * i)) & 0xf];
		out_store[out.len++] = ':';
		for (i = 0; i < 16; i++) {
			out_store[out.len++] = ' ';
			if (i < n) {
				out_store[out.len++] = hex_digits[p[off + i] >> 4];
				out_store[out.len++] = hex_digits[p[off + i] & 0xf];
			} else {
				out_store[out.len++] = ' ';
				out_store[out.len++] = ' ';
			}
		}
		out_store[out.len++] = ' ';
		out_store[out.len++] = ' ';
		for (i = 0; i < n; i++) {
			uint8_t c = p[off + i];

			out_store[out.len++] = c >= 0x20 && c < 0x7f ? (char)c : '.';
		}
		out_store[out.len++] = '\n';
	}
}

static void dump_record(struct dump_ctx *dc, const struct pd_record *rec)
{
	char tbuf[24];

	if (rec->type == PD_REC_COMPRESSED || rec->type == PD_REC_COMPRESSED2) {
		dc->container_offset = rec->offset;
		dc->container_type = rec->type;
	}
	out_hex(rec->offset);
	out_s(" [");
	out_u64(rec->size);
	out_s("] ");
	out_s(cli_type_name(rec->type, tbuf, sizeof(tbuf)));
	if (rec->from_compressed) {
		out_s(" [from ");
		out_s(dc->container_offset == rec->offset && dc->container_type ?
		      pd_record_type_name(dc->container_type) : "COMPRESSED");
		out_s(" @");
		out_hex(rec->offset);
		out_c('+');
		out_hex(rec->inner_offset);
		out_c(']');
	}
	if (rec->misc && rec->type != PD_REC_SAMPLE)
		out_kv_x("misc", rec->misc);
	if (rec->decoded)
		out_fields(dc, rec);
	else
		out_s(" (not decoded)");
	out_c('\n');
	if (dc->hex && rec->raw)
		out_hexdump(rec->raw, rec->raw_len);
}

static void dump_header(const struct dump_ctx *dc, struct pd_reader *r)
{
	const struct pd_header *h = pd_reader_header(r);
	static const char *const modes[] = { "file", "pipe", "dir" };
	size_t i;

	out_s("# perfconv dump: ");
	out_str_n(dc->name, SIZE_MAX);
	out_s("\n# mode=");
	out_s((unsigned int)h->mode < 3 ? modes[h->mode] : "?");
	out_s(" byte_order=");
	out_s(h->big_endian ? "big" : "little");
	out_kv_u("header_size", h->header_size);
	if (h->mode != PD_MODE_PIPE) {
		out_kv_u("attr_size", h->attr_size);
		out_kv_x("data_offset", h->data.offset);
		out_kv_u("data_size", h->data.size);
	}
	if (h->mode == PD_MODE_DIR)
		out_kv_u("streams", h->nr_streams);
	out_c('\n');
	/* pipe mode: the attrs are HEADER_ATTR records below */
	for (i = 0; i < pd_reader_nr_events(r); i++) {
		const struct pd_event *ev = pd_reader_event(r, i);

		out_s("# attr ");
		out_u64(i);
		out_kv_s("name", ev->name);
		out_attr_fields(&ev->attr);
		out_kv_u("size", ev->attr_size_on_disk);
		out_kv_u("nr_ids", ev->nr_ids);
		out_c('\n');
	}
}

/*
 * Diagnostics go straight to stderr, and cli_diag_cb() flushes stdio first:
 * hand it the lines still in our own buffer so that a finding appears
 * right after the records that precede it.
 */
static void flush_before_diag(const struct pd_diag *d, void *arg)
{
	out_flush();
}

/* ---- the writer ops (driver.h) ---- */

struct dump_writer {
	struct dump_ctx dc;
	const struct cli_select *cs;
};

static int dump_begin(struct drv *d, void *w)
{
	struct dump_writer *dw = w;

	dw->dc.name = d->cd.name;
	dump_header(&dw->dc, d->r);
	if (cli_select_active(dw->cs)) {
		char desc[1024];

		out_s("# selection ");
		out_s(cli_select_describe(dw->cs, desc, sizeof(desc)));
		out_c('\n');
	}
	return 0;
}

static int dump_rec(struct drv *d, void *w, const struct pd_record *rec)
{
	struct dump_writer *dw = w;

	dump_record(&dw->dc, rec);
	return 0;
}

static int dump_end(struct drv *d, void *w)
{
	out_flush();
	return 0;
}

static const struct writer_ops dump_ops = {
	.begin = dump_begin,
	.record = dump_rec,
	.end = dump_end,
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s dump [--hex] [--time-order] [-v] [SELECTION] [FILE|DIR|-]\n\n"
		"Print one line per record, in file order, with every decoded field:\n"
		"  0xOFFSET [SIZE] TYPE key=value ...\n\n"
		"  -x, --hex         add the raw bytes of each record (and raw/aux sample data)\n"
		"  -t, --time-order  deliver records in time order (FINISHED_ROUND rule)\n"
		"  -v, --verbose     also print diagnostics of severity note\n"
		"  -h, --help        show this help\n"
		CLI_SELECT_HELP "\n"
		CLI_INPUT_HELP_TAIL, cli_progname);
}

int cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "hex", no_argument, NULL, 'x' },
		{ "time-order", no_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		CLI_SELECT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct drv_opts o = { .cmd = "dump", .ro = PD_READER_OPTS_INIT };
	struct dump_writer dw;
	struct cli_select cs;
	int c, code, taken;

	memset(&dw, 0, sizeof(dw));
	cli_select_init(&cs, cli_progname, "dump");
	cli_getopt_reset();
	while ((c = getopt_long(argc, argv, ":xtvh" CLI_SELECT_SHORTOPTS, longopts, NULL)) != -1) {
		switch (c) {
		case 'x':
			dw.dc.hex = true;
			break;
		case 't':
			o.ro.time_order = true;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'h':
			cli_select_free(&cs);
			usage(stdout);
			return tool_finish_output(cli_progname, CLI_EXIT_OK);
		default:
			taken = cli_select_option(&cs, c, optarg);
			if (taken <= 0) {
				cli_select_free(&cs);
				return taken ? CLI_EXIT_USAGE : tool_bad_option(cli_progname, "dump", argc, argv, c);
			}
		}
	}
	o.input = cli_select_input(&cs, argc, argv, optind, NULL);
	if (!o.input) {
		cli_select_free(&cs);
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	cli_select_reader_opts(&cs, &o.ro);
	o.cs = &cs;
	dw.cs = &cs;

	out.len = 0;
	o.diag_hook = flush_before_diag;

	code = drv_run(&o, &dump_ops, &dw);
	cli_select_free(&cs);
	out_flush();
	if (out.err) {
		tool_io_error(cli_progname, "write", NULL, out.err);
		code = CLI_EXIT_IO;
	}
	return code;
}
