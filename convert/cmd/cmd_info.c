// SPDX-License-Identifier: MIT
/*
 * cmd_info.c - perfconv info: header, attrs, features and record counts.
 *
 * The whole input is read before anything is printed: in pipe mode the
 * attrs and the features arrive as records, so only the end of the stream
 * gives the complete picture.  Text and --json output are built from the
 * same JSON tree for the features (the typed pd_features members are many
 * and varied; one converter keeps both outputs complete and in step).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "../common/diag_json.h"
#include "../common/tool_select.h"
#include "driver.h"
#include "json/json_feat.h"
#include "json/json_value.h"

/* Diagnostics kept for --json; beyond this only the counts grow. */
#define INFO_MAX_JSON_DIAGS 100000
struct info_ctx {
	bool json;
	/*
	 * --json: the diagnostics' objects (common/diag_json.h), one a line,
	 * held in memory until the document is written
	 */
	struct out_buf diags;
	uint64_t nr_diags, diags_dropped;
	const struct drv *d;	/* from close on: the record counts */
};

/* ---- header and attrs ---- */

/*
 * An attr's text: a sink of its walk (pd_visit.h), the detailed form
 * under the names of info --json.  Fields are "name value" pairs filled
 * into lines of up to ATTR_LINE columns; each list of a mask's bit names
 * is a line of its own (A|B, 0 when no bit is set), and the mask's hex
 * value, which the names say, is left out.
 */
#define ATTR_INDENT 6
#define ATTR_LINE 100

struct attr_text {
	int col;		/* columns written on the current line, 0: none */
	bool in_list;
	bool skip_list;		/* the open list is the summary's */
	unsigned int items;	/* names written in the open list */
};

static void at_break(struct attr_text *t)
{
	if (t->col)
		putchar('\n');
	t->col = 0;
}

static void at_put(struct attr_text *t, const char *name, const char *value, unsigned int flags)
{
	int n;

	if (flags & PD_VF_SUMMARY)
		return;
	if (t->in_list) {
		if (!t->skip_list)
			printf("%s%s", t->items++ ? "|" : "", value);
		return;
	}
	n = (int)(strlen(name) + 1 + strlen(value));
	if (t->col && t->col + 1 + n > ATTR_LINE)
		at_break(t);
	if (t->col)
		t->col += printf(" ");
	else
		t->col = printf("%*s", ATTR_INDENT, "");
	t->col += printf("%s %s", name, value);
}

static void at_u64(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	at_put(ctx, name, buf, flags);
}

static void at_i64(void *ctx, const char *name, int64_t v, unsigned int flags)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	at_put(ctx, name, buf, flags);
}

static void at_hex(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	char buf[24];

	if (flags & PD_VF_BITS)
		return;		/* its names follow */
	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	at_put(ctx, name, buf, flags);
}

/* the attr walk's strings are the library's names, NULL when none */
static void at_str(void *ctx, const char *name, const char *s, size_t max, unsigned int flags)
{
	at_put(ctx, name, s ? s : "-", flags);
}

static void at_sym(void *ctx, const char *name, const char *sym, uint64_t v, unsigned int flags)
{
	if (sym)
		at_put(ctx, name, sym, flags);
	else
		at_u64(ctx, name, v, flags);
}

static void at_list_begin(void *ctx, const char *name, unsigned int flags)
{
	struct attr_text *t = ctx;

	t->in_list = true;
	t->skip_list = flags & PD_VF_SUMMARY;
	t->items = 0;
	if (t->skip_list)
		return;
	at_break(t);
	printf("%*s%s ", ATTR_INDENT, "", name);
}

static void at_list_end(void *ctx)
{
	struct attr_text *t = ctx;

	if (!t->skip_list)
		fputs(t->items ? "\n" : "0\n", stdout);
	t->in_list = false;
}

static const struct pd_visit_ops attr_text_ops = {
	.u64 = at_u64,
	.i64 = at_i64,
	.hex = at_hex,
	.str = at_str,
	.sym = at_sym,
	.list_begin = at_list_begin,
	.list_end = at_list_end,
};

static void print_attr_text(const struct pd_event *ev, size_t idx)
{
	struct attr_text t = { 0 };
	size_t i;

	printf("  [%zu] %s: size_on_disk %" PRIu32 "\n", idx, ev->name, ev->attr_size_on_disk);
	pd_attr_visit(&ev->attr, &attr_text_ops, &t);
	at_break(&t);
	printf("%*sids (%zu):", ATTR_INDENT, "", ev->nr_ids);
	for (i = 0; ev->ids && i < ev->nr_ids; i++)
		printf(" %" PRIu64, ev->ids[i]);
	putchar('\n');
}

/* ---- features ---- */

/*
 * A feature's value in its one JSON form (json_feat.c); a feature that did
 * not decode, or that has no typed form, by its size.
 */
static json_t *feature_json(const struct pd_features *f, unsigned int id, bool full)
{
	const struct pd_feat_raw *raw = &f->raw[id];
	json_t *o;

	if (raw->decoded && pd_feature_is_known(id)) {
		o = json_feature_value(f, id, !full);
		if (o)
			return o;
	}
	o = json_object();
	json_put(o, "size", json_u64(raw->len));
	if (!raw->decoded && pd_feature_is_known(id)) {
		json_put(o, "decoded", json_false());
		if (id == PD_FEAT_BPF_PROG_INFO && f->bpf_prog_info.skipped_swapped)
			json_put(o, "skipped_swapped", json_true());
		if (id == PD_FEAT_BPF_BTF && f->bpf_btf.skipped_swapped)
			json_put(o, "skipped_swapped", json_true());
	}
	return o;
}

static json_t *features_json(const struct pd_features *f, bool full)
{
	json_t *o = json_object();
	unsigned int id;
	char buf[24];

	if (!f)
		return o;
	for (id = 0; id < PD_FEAT_BITS; id++)
		if (pd_features_has(f, id))
			json_put(o, tool_feature_name(id, buf, sizeof(buf)), feature_json(f, id, full));
	return o;
}

/* ---- text rendering of a JSON tree (features) ---- */

static bool j_scalar(json_t *v)
{
	return !json_is_object(v) && !json_is_array(v);
}

/* Strings from the file: control characters as \xNN keep one item per line. */
static void put_text(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

static void put_scalar(json_t *v, bool quote)
{
	const char *s;

	switch (json_typeof(v)) {
	case JSON_STRING:
		s = json_string_value(v);
		if (quote && (!s[0] || strpbrk(s, " \t="))) {
			putchar('"');
			put_text(s);
			putchar('"');
		} else {
			put_text(s);
		}
		break;
	case JSON_INTEGER:
		printf("%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		printf("%g", json_real_value(v));
		break;
	case JSON_TRUE:
		fputs("yes", stdout);
		break;
	case JSON_FALSE:
		fputs("no", stdout);
		break;
	default:
		fputs("-", stdout);
		break;
	}
}

static bool j_scalar_array(json_t *v)
{
	size_t i;

	if (!json_is_array(v))
		return false;
	for (i = 0; i < json_array_size(v); i++)
		if (!j_scalar(json_array_get(v, i)))
			return false;
	return true;
}

/* An object of scalars (or short scalar arrays) prints on one line. */
static bool j_flat_object(json_t *v)
{
	const char *k;
	json_t *m;

	if (!json_is_object(v))
		return false;
	json_object_foreach(v, k, m)
		if (!j_scalar(m) && !(j_scalar_array(m) && json_array_size(m) <= 32))
			return false;
	return true;
}

static void put_scalar_array(json_t *v, const char *sep, bool quote)
{
	size_t i;

	for (i = 0; i < json_array_size(v); i++) {
		if (i)
			fputs(sep, stdout);
		put_scalar(json_array_get(v, i), quote);
	}
}

static void put_flat_object(json_t *v)
{
	const char *k;
	json_t *m;
	bool first = true;

	json_object_foreach(v, k, m) {
		printf("%s%s=", first ? "" : " ", k);
		if (j_scalar(m)) {
			put_scalar(m, true);
		} else {
			putchar('[');
			put_scalar_array(m, ",", true);
			putchar(']');
		}
		first = false;
	}
}

static void render(int indent, const char *key, json_t *v)
{
	const char *k;
	json_t *m;
	size_t i;

	printf("%*s%s:", indent, "", key);
	if (j_scalar(v)) {
		putchar(' ');
		put_scalar(v, false);
		putchar('\n');
	} else if (j_scalar_array(v)) {
		if (!json_array_size(v))
			fputs(" (none)", stdout);
		else
			putchar(' ');
		put_scalar_array(v, ", ", false);
		putchar('\n');
	} else if (j_flat_object(v) && json_object_size(v) <= 6) {
		/* small records of scalars read best on one line; larger ones get a line per key */
		putchar(' ');
		put_flat_object(v);
		putchar('\n');
	} else if (json_is_object(v)) {
		putchar('\n');
		json_object_foreach(v, k, m)
			render(indent + 2, k, m);
	} else {
		printf(" %zu entries\n", json_array_size(v));
		for (i = 0; i < json_array_size(v); i++) {
			json_t *e = json_array_get(v, i);
			char idx[24];

			if (j_flat_object(e)) {
				printf("%*s[%zu] ", indent + 2, "", i);
				put_flat_object(e);
				putchar('\n');
			} else {
				snprintf(idx, sizeof(idx), "[%zu]", i);
				render(indent + 2, idx, e);
			}
		}
	}
}

/* ---- diagnostics as JSON ---- */

static void collect_diag(const struct pd_diag *d, void *arg)
{
	struct info_ctx *ic = arg;

	if (ic->nr_diags >= INFO_MAX_JSON_DIAGS) {
		ic->diags_dropped++;
		return;
	}
	if (ic->nr_diags++)
		out_buf_put(&ic->diags, ",\n    ", 6);
	diag_json_put(&ic->diags, d);
}

/* ---- output ---- */

static void count_json_cb(const struct type_count *n, void *arg)
{
	char buf[24];

	json_put(arg, tool_type_name(n->type, buf, sizeof(buf)), json_u64(n->records));
}

static void count_text_cb(const struct type_count *n, void *arg)
{
	char buf[24];

	printf("  %-24s %12" PRIu64 "\n", tool_type_name(n->type, buf, sizeof(buf)), n->records);
}

static json_t *summary_json(struct info_ctx *ic, struct pd_reader *r)
{
	json_t *o = json_object();

	json_put(o, "records", json_u64(ic->d->records));
	json_put(o, "bytes", json_u64(r ? pd_reader_bytes_read(r) : 0));
	json_put(o, "errors", json_u64(ic->d->cd.count[PD_SEV_ERROR]));
	json_put(o, "warnings", json_u64(ic->d->cd.count[PD_SEV_WARNING]));
	json_put(o, "notes", json_u64(ic->d->cd.count[PD_SEV_NOTE]));
	if (ic->diags_dropped)
		json_put(o, "diagnostics_dropped", json_u64(ic->diags_dropped));
	return o;
}

/* A member of the document's top level, after "{" or a member: `,` first unless the first. */
static void put_member(struct je *j, const char *key, json_t *v, bool first)
{
	if (!first)
		je_c(j, ',');
	je_lit(j, "\n  ");
	je_strn(j, key, strlen(key));
	je_lit(j, ": ");
	je_value_nested(j, v, 2, 1);
	json_decref(v);
}

static int output_json(struct info_ctx *ic, struct pd_reader *r)
{
	const struct pd_header *h = r ? pd_reader_header(r) : NULL;
	json_t *attrs, *recs = json_object();
	struct je j;
	size_t i;
	int ret;

	/* in memory, then out through stdio like the text output */
	ret = je_init_mem(&j);
	if (ret) {
		json_decref(recs);
		return ret;
	}
	/*
	 * The layout of jansson's JSON_INDENT(2), but for the diagnostics:
	 * one object a line, in the form of perfcheck's findings.  The
	 * source, header and attrs are the forms of to-json --full (json_feat.c).
	 */
	je_c(&j, '{');
	put_member(&j, "source", h ? json_source(h, ic->d->cd.name) : json_null(), true);
	put_member(&j, "header", h ? json_header(h) : json_null(), false);
	attrs = json_array();
	for (i = 0; r && i < pd_reader_nr_events(r); i++)
		json_array_append_new(attrs, json_event(pd_reader_event(r, i), i));
	put_member(&j, "attrs", attrs, false);
	put_member(&j, "features", features_json(r ? pd_reader_features(r) : NULL, true), false);
	type_counts_each(&ic->d->types, count_json_cb, recs);
	if (ic->d->types.overflow.records)
		json_put(recs, "UNKNOWN_OTHER", json_u64(ic->d->types.overflow.records));
	put_member(&j, "records", recs, false);
	je_lit(&j, ",\n  \"diagnostics\": ");
	if (ic->nr_diags) {
		je_lit(&j, "[\n    ");
		je_raw(&j, ic->diags.buf, ic->diags.len);
		je_lit(&j, "\n  ]");
	} else {
		je_lit(&j, "[]");
	}
	put_member(&j, "summary", summary_json(ic, r), false);
	je_lit(&j, "\n}\n");
	if (j.ob.err || ic->diags.err || fwrite(j.ob.buf, 1, j.ob.len, stdout) != j.ob.len)
		ret = -1;
	je_free(&j);
	return ret;
}

static void output_text(struct info_ctx *ic, struct pd_reader *r)
{
	const struct pd_header *h = pd_reader_header(r);
	json_t *feats;
	const char *k;
	json_t *v;
	size_t i;

	printf("file: %s\n", ic->d->cd.name);
	printf("mode: %s\n", cli_mode_name(h->mode));
	printf("byte order: %s%s\n", h->big_endian ? "big" : "little",
	       h->swapped ? " (opposite of this host)" : "");
	printf("header:\n");
	printf("  magic: 0x%016" PRIx64 "\n", h->magic);
	printf("  header size: %" PRIu64 "\n", h->header_size);
	if (h->mode != PD_MODE_PIPE) {
		printf("  attr size: %" PRIu64 "\n", h->attr_size);
		printf("  attrs: offset 0x%" PRIx64 " size %" PRIu64 "\n",
		       h->attrs.offset, h->attrs.size);
		printf("  data: offset 0x%" PRIx64 " size %" PRIu64 "\n",
		       h->data.offset, h->data.size);
		printf("  event_types: offset 0x%" PRIx64 " size %" PRIu64 "\n",
		       h->event_types.offset, h->event_types.size);
		printf("  file size: %" PRIu64 "%s\n", h->file_size,
		       h->spooled ? " (standard input copied to a temporary file)" : "");
	}
	if (h->mode == PD_MODE_DIR)
		printf("  streams: %" PRIu32 "\n", h->nr_streams);
	if (h->has_feature_bitmap) {
		unsigned int id;
		char buf[24];

		printf("  feature bitmap: %016" PRIx64 " %016" PRIx64 " %016" PRIx64
		       " %016" PRIx64 "\n   ",
		       h->features[3], h->features[2], h->features[1], h->features[0]);
		for (id = 0; id < PD_FEAT_BITS; id++)
			if ((h->features[id / 64] >> (id % 64)) & 1)
				printf(" %s", tool_feature_name(id, buf, sizeof(buf)));
		putchar('\n');
	}

	printf("attrs: %zu\n", pd_reader_nr_events(r));
	for (i = 0; i < pd_reader_nr_events(r); i++)
		print_attr_text(pd_reader_event(r, i), i);

	feats = features_json(pd_reader_features(r), false);
	printf("features: %zu\n", json_object_size(feats));
	json_object_foreach(feats, k, v) {
		/* a command line reads best as one line */
		if (!strcmp(k, "CMDLINE") && j_scalar_array(v)) {
			printf("  %s: ", k);
			put_scalar_array(v, " ", false);
			putchar('\n');
		} else {
			render(2, k, v);
		}
	}
	json_decref(feats);

	printf("records: %" PRIu64 "\n", ic->d->records);
	type_counts_each(&ic->d->types, count_text_cb, NULL);
	if (ic->d->types.overflow.records)
		printf("  %-24s %12" PRIu64 "\n", "UNKNOWN_OTHER", ic->d->types.overflow.records);
	printf("summary: %" PRIu64 " records, %" PRIu64 " bytes, %" PRIu64 " errors, %" PRIu64
	       " warnings, %" PRIu64 " notes\n", ic->d->records, pd_reader_bytes_read(r),
	       ic->d->cd.count[PD_SEV_ERROR], ic->d->cd.count[PD_SEV_WARNING], ic->d->cd.count[PD_SEV_NOTE]);
}

/* ---- the writer ops (driver.h): the driver counts the records, close describes the file ---- */

static int info_close(struct drv *d, void *w, int code)
{
	struct info_ctx *ic = w;

	ic->d = d;
	if (ic->json) {
		/* even a file that cannot be opened gets its object: diagnostics say why */
		if (output_json(ic, d->r) < 0 && code == CLI_EXIT_OK)
			code = CLI_EXIT_IO;
	} else if (d->r) {
		output_text(ic, d->r);
	}
	return code;
}

static const struct writer_ops info_ops = {
	.close = info_close,
};

static const struct tool_flag info_flags[] = {
	TOOL_FLAG("json", 'j', struct info_ctx, json, true,
		  "write one JSON object (see perfconv(1), OUTPUT)"),
	{ NULL, 0, 0, false, NULL },
};

static const struct tool_cmd info_cmd = {
	.prog = CLI_PROGNAME,
	.name = "info",
	/* only -i: info has no selection */
	.groups = TOOL_ARG_VERBOSE | TOOL_ARG_INPUT,
	.flags = info_flags,
	.help_head = "usage: " CLI_PROGNAME " info [--json] [-v] [FILE|DIR|-]\n\n"
		     "Read the whole input and show its header, event attributes, header\n"
		     "features and the number of records of each type.\n\n",
	.help_tail = "FILE '-' reads standard input (pipe or file mode).\n" CLI_INPUT_HELP_TAIL,
};

static int info_setup(struct drv_opts *o, struct tool_args *a, void *w)
{
	struct info_ctx *ic = w;

	if (ic->json) {
		if (out_buf_init(&ic->diags, -1, 0)) {
			cli_error("out of memory");
			return CLI_EXIT_IO;
		}
		o->diag_hook = collect_diag;
		o->diag_hook_arg = ic;
	}
	o->close_unopened = true;
	return CLI_EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
	struct info_ctx ic;
	int code;

	memset(&ic, 0, sizeof(ic));
	code = drv_main(&info_cmd, argc, argv, &ic, info_setup, &info_ops, &ic);
	code = tool_finish_output(cli_progname, code);
	out_buf_free(&ic.diags);
	return code;
}
