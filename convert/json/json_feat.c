// SPDX-License-Identifier: MIT
/*
 * json_feat.c - header, attrs and features of to-json --full, as jansson
 * values.  They are small and rare, so readability wins over speed here.
 * The fields of a feature are the library's walk (pd_feature_visit()):
 * here is only the sink that makes jansson values of them.
 * Numbers follow the rule of json_full.c: hex strings for addresses,
 * masks and flags; numbers below 2^53, decimal strings above.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json/json_conv.h"
#include "json/json_feat.h"
#include "../common/fmt_num.h"
#include "../common/utf8.h"

json_t *json_u64(uint64_t v)
{
	char buf[24];

	if (v < (1ULL << 53))
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return json_string(buf);
}

static json_t *jx(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

json_t *json_text(const char *s)
{
	json_t *v;
	char *t;

	if (!s)
		return json_null();
	v = json_string(s);
	if (v)
		return v;
	/* not UTF-8: each stray byte becomes U+FFFD, the rule of every output */
	t = utf8_repair(s, strlen(s));
	v = t ? json_string(t) : NULL;
	free(t);
	return v ? v : json_null();
}

static json_t *js(const char *s)
{
	return json_text(s);
}

void json_put(json_t *o, const char *k, json_t *v)
{
	json_object_set_new(o, k, v ? v : json_null());
}

char *json_base64(const uint8_t *p, size_t n)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];

		*o++ = b64[v >> 18];
		*o++ = b64[(v >> 12) & 63];
		*o++ = b64[(v >> 6) & 63];
		*o++ = b64[v & 63];
	}
	if (n - i) {
		uint32_t v = (uint32_t)p[i] << 16 | (n - i == 2 ? (uint32_t)p[i + 1] << 8 : 0);

		*o++ = b64[v >> 18];
		*o++ = b64[(v >> 12) & 63];
		*o++ = n - i == 2 ? b64[(v >> 6) & 63] : '=';
		*o++ = '=';
	}
	*o = '\0';
	return out;
}

static json_t *jb64(const uint8_t *p, size_t n)
{
	char *s = json_base64(p, n);
	json_t *v = s ? json_string(s) : json_null();

	free(s);
	return v;
}

static json_t *jhexbytes(const uint8_t *p, size_t n)
{
	char buf[2 * 64 + 1];

	if (n > 64)
		n = 64;
	buf[fmt_hex_bytes(buf, p, n)] = '\0';
	return json_string(buf);
}

/*
 * ---- feature values and attrs: a sink of the feature and attr walks
 * (pd_visit.h) that builds the jansson value ----
 */

/* deeper than any feature's value (CPU_DOMAIN_INFO: object, list, object, list, object) */
#define JB_MAX_DEPTH 8

struct jbuild {
	json_t *root;
	json_t *open[JB_MAX_DEPTH];	/* the containers being filled, innermost last */
	unsigned int depth;
	unsigned int skip;		/* containers being left out, nested */
	bool brief;			/* the summary form: details out */
};

static bool jb_out(const struct jbuild *b, unsigned int flags)
{
	return b->skip || (flags & (b->brief ? PD_VF_DETAIL : PD_VF_SUMMARY));
}

/* v (stolen) as member `name` of the innermost container, or as the value */
static void jb_put(struct jbuild *b, const char *name, json_t *v)
{
	json_t *in;

	if (!b->depth) {
		json_decref(b->root);
		b->root = v;
		return;
	}
	in = b->open[b->depth - 1];
	if (json_is_array(in))
		json_array_append_new(in, v);
	else
		json_put(in, name, v);
}

static void jb_u64(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	if (!jb_out(ctx, flags))
		jb_put(ctx, name, json_u64(v));
}

static void jb_i64(void *ctx, const char *name, int64_t v, unsigned int flags)
{
	if (!jb_out(ctx, flags))
		jb_put(ctx, name, json_integer(v));
}

static void jb_hex(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	if (!jb_out(ctx, flags))
		jb_put(ctx, name, jx(v));
}

/* the feature walk's strings end with a NUL: max does not cut them */
static void jb_str(void *ctx, const char *name, const char *s, size_t max, unsigned int flags)
{
	if (!jb_out(ctx, flags))
		jb_put(ctx, name, js(s));
}

static void jb_flag(void *ctx, const char *name, bool set, unsigned int flags)
{
	if (!jb_out(ctx, flags))
		jb_put(ctx, name, json_boolean(set));
}

static void jb_sym(void *ctx, const char *name, const char *sym, uint64_t v, unsigned int flags)
{
	if (!jb_out(ctx, flags))
		jb_put(ctx, name, sym ? json_string(sym) : json_u64(v));
}

static void jb_real(void *ctx, const char *name, double v, unsigned int flags)
{
	if (!jb_out(ctx, flags))
		jb_put(ctx, name, json_real(v));
}

/* payloads as base64, identifiers (build ids) as hex digits */
static void jb_bytes(void *ctx, const char *name, const uint8_t *p, size_t n, unsigned int flags)
{
	if (!jb_out(ctx, flags))
		jb_put(ctx, name, flags & PD_VF_PAYLOAD ? jb64(p, p ? n : 0) : jhexbytes(p, n));
}

static void jb_open(struct jbuild *b, const char *name, bool list, unsigned int flags)
{
	json_t *c;

	/* a summary walks past a symbol table: nothing allocated for it */
	if (jb_out(b, flags) || b->depth == JB_MAX_DEPTH) {
		b->skip++;
		return;
	}
	c = list ? json_array() : json_object();
	jb_put(b, name, c);
	b->open[b->depth++] = c;	/* held by its parent (or root) */
}

static void jb_close(void *ctx)
{
	struct jbuild *b = ctx;

	if (b->skip)
		b->skip--;
	else if (b->depth)
		b->depth--;
}

static void jb_list_begin(void *ctx, const char *name, unsigned int flags)
{
	jb_open(ctx, name, true, flags);
}

static void jb_obj_begin(void *ctx, const char *name, const char *flat, unsigned int flags)
{
	jb_open(ctx, name, false, flags);
}

static void jb_attr(void *ctx, const struct pd_attr *attr, unsigned int flags);

static const struct pd_visit_ops jbuild_ops = {
	.u64 = jb_u64,
	.i64 = jb_i64,
	.hex = jb_hex,
	.str = jb_str,
	.flag = jb_flag,
	.sym = jb_sym,
	.real = jb_real,
	.bytes = jb_bytes,
	.list_begin = jb_list_begin,
	.list_end = jb_close,
	.obj_begin = jb_obj_begin,
	.obj_end = jb_close,
	.attr = jb_attr,
};

static void jb_attr(void *ctx, const struct pd_attr *attr, unsigned int flags)
{
	if (jb_out(ctx, flags))
		return;
	jb_open(ctx, "attr", false, 0);
	pd_attr_visit(attr, &jbuild_ops, ctx);
	jb_close(ctx);
}

json_t *json_attr(const struct pd_attr *a)
{
	struct jbuild b = { 0 };

	jb_open(&b, NULL, false, 0);
	pd_attr_visit(a, &jbuild_ops, &b);
	return b.root;
}

json_t *json_feature_value(const struct pd_features *f, unsigned int id, bool brief)
{
	struct jbuild b = { .brief = brief };

	if (!pd_feature_visit(f, id, &jbuild_ops, &b))
		return NULL;	/* kept as bytes only */
	/* a feature without a value (a CLN_SIZE of another size) */
	return b.root ? b.root : json_null();
}

json_t *json_feature(const struct pd_features *f, unsigned int id, const uint8_t *payload,
		     size_t len, bool known_id)
{
	const struct pd_feat_raw *raw = known_id ? &f->raw[id] : NULL;
	json_t *o = json_object(), *v = NULL;
	char buf[24];
	bool decoded = raw && raw->present && raw->decoded;

	if (!payload && raw) {
		payload = raw->data;
		len = raw->len;
	}
	json_put(o, "id", json_integer(id));
	json_put(o, "name", json_string(tool_feature_name(id, buf, sizeof(buf))));
	if (raw && raw->present)
		json_put(o, "offset", json_u64(raw->offset));
	json_put(o, "size", json_u64(len));
	json_put(o, "decoded", json_boolean(decoded));
	if (decoded)
		v = json_feature_value(f, id, false);
	if (v)
		json_put(o, "value", v);
	/* what has no typed form stays available byte for byte */
	if (!v || !decoded)
		json_put(o, "raw", jb64(payload, payload ? len : 0));
	return o;
}

static json_t *section(const struct pd_section *s)
{
	return json_pack("{s:o,s:o}", "offset", json_u64(s->offset), "size", json_u64(s->size));
}

json_t *json_source(const struct pd_header *h, const char *input)
{
	json_t *src = json_object();

	json_put(src, "path", js(input));
	json_put(src, "mode", json_string(cli_mode_name(h->mode)));
	json_put(src, "byte_order", json_string(h->big_endian ? "big" : "little"));
	json_put(src, "swapped", json_boolean(h->swapped));
	json_put(src, "size", json_u64(h->file_size));
	json_put(src, "spooled", json_boolean(h->spooled));
	if (h->mode == PD_MODE_DIR)
		json_put(src, "streams", json_integer(h->nr_streams));
	return src;
}

json_t *json_header(const struct pd_header *h)
{
	json_t *hdr = json_object();
	size_t i;

	json_put(hdr, "magic", jx(h->magic));
	json_put(hdr, "header_size", json_u64(h->header_size));
	if (h->mode != PD_MODE_PIPE) {
		json_t *bm = json_array();

		json_put(hdr, "attr_size", json_u64(h->attr_size));
		json_put(hdr, "attrs", section(&h->attrs));
		json_put(hdr, "data", section(&h->data));
		json_put(hdr, "event_types", section(&h->event_types));
		for (i = 0; i < 4; i++)
			json_array_append_new(bm, jx(h->features[i]));
		json_put(hdr, "feature_bitmap", h->has_feature_bitmap ? bm : (json_decref(bm), json_null()));
	}
	return hdr;
}

json_t *json_event(const struct pd_event *ev, size_t idx)
{
	json_t *ids = json_array();
	size_t k;

	for (k = 0; ev->ids && k < ev->nr_ids; k++)
		json_array_append_new(ids, json_u64(ev->ids[k]));
	return json_pack("{s:i,s:o,s:o,s:i,s:o,s:o}", "index", (int)idx, "name", js(ev->name),
			 "file_offset", json_u64(ev->file_offset), "size_on_disk",
			 (int)ev->attr_size_on_disk, "attr", json_attr(&ev->attr), "ids", ids);
}

json_t *json_file_description(struct pd_reader *r, const char *input)
{
	const struct pd_header *h = pd_reader_header(r);
	const struct pd_features *f = pd_reader_features(r);
	json_t *d = json_object(), *attrs = json_array(), *feats = json_array();
	unsigned int id;
	size_t i;

	json_put(d, "schema_version", json_integer(JSON_FULL_SCHEMA_VERSION));
	json_put(d, "generator", json_pack("{s:s,s:s}", "name", "perfconv", "version", pd_version()));
	json_put(d, "source", json_source(h, input));
	json_put(d, "header", json_header(h));
	/* pipe mode: the attrs and features arrive later as records */
	for (i = 0; i < pd_reader_nr_events(r); i++)
		json_array_append_new(attrs, json_event(pd_reader_event(r, i), i));
	json_put(d, "attrs", attrs);
	for (id = 0; id < PD_FEAT_BITS; id++)
		if (pd_features_has(f, id))
			json_array_append_new(feats, json_feature(f, id, NULL, 0, true));
	json_put(d, "features", feats);
	return d;
}

/* perf's register names (arch/x86 and arch/arm64 perf_regs.h) */
static const char *const x86_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	"SSP",
};

static const char *const arm64_regs[] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
	"x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23",
	"x24", "x25", "x26", "x27", "x28", "x29", "lr", "sp", "pc",
};

const char *json_reg_name(const char *arch, uint64_t abi, unsigned int bit, char *buf,
			  size_t size)
{
	if (arch && (!strcmp(arch, "x86_64") || !strcmp(arch, "x86") ||
		     (arch[0] == 'i' && !strcmp(arch + 2, "86")))) {
		if (bit < sizeof(x86_regs) / sizeof(x86_regs[0]))
			return x86_regs[bit];
		/* XMM registers take two slots each from bit 32 on */
		if (bit >= 32 && bit < 64) {
			snprintf(buf, size, "XMM%u%s", (bit - 32) / 2, bit & 1 ? "_hi" : "");
			return buf;
		}
	} else if (arch && (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))) {
		if (bit < sizeof(arm64_regs) / sizeof(arm64_regs[0]))
			return arm64_regs[bit];
	}
	snprintf(buf, size, "r%u", bit);
	return buf;
}
