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
 * with jansson (json_feat.c) and written by the emitter too
 * (json_value.h), so that every string of the document is escaped by the
 * one rule of common/json_str.h; records go straight through the emitter.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json/json_conv.h"
#include "json/json_feat.h"
#include "json/json_value.h"

struct full_ctx {
	struct jconv *c;
	struct je *j;
	const char *arch;
	uint64_t undecoded;
	struct pd_sym_frame *frames;
	uint64_t container_offset;	/* last COMPRESSED record, for inner records */
	bool first;
	bool nomem;			/* frames could not be resolved: out of memory */
};

/* ---- the sink's writers of a whole structure (pd_visit.h) ---- */

static void sink_hex_list(void *ctx, const char *name, const uint64_t *v, uint64_t nr,
			  unsigned int flags);

static void sink_read(void *ctx, const char *k, const struct pd_read *rd)
{
	struct je *j = ((struct full_ctx *)ctx)->j;
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

static void sink_regs(void *ctx, const char *k, const struct pd_regs *r)
{
	struct full_ctx *fc = ctx;
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

static void sink_branch_stack(void *ctx, const struct pd_sample *s)
{
	struct je *j = ((struct full_ctx *)ctx)->j;
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
		sink_hex_list(ctx, "counters", s->branch_counters, s->branch_nr, 0);
	je_obj_end(j);
}

static void trace_field(void *arg, const char *name, const char *value)
{
	struct je *j = arg;

	je_key_esc(j, name);
	je_v_s(j, value);
}

static void frame(struct je *j, const struct pd_sym_frame *f, const char *sym, bool inlined)
{
	je_obj_begin(j);
	je_kv_x(j, "ip", f->ip);
	if (f->has_map) {
		je_kv_s(j, "dso", f->dso_name);
		je_kv_x(j, "addr", f->addr);
	}
	if (sym) {
		je_kv_s(j, "symbol", sym);
		je_kv_x(j, "symoff", f->sym_off);
	}
	if (inlined)
		je_kv_bool(j, "inlined", true);
	je_obj_end(j);
}

/*
 * One resolved frame, or in its place the frames perf shows for it: the
 * functions inlined at an unwound frame's address, innermost first, each
 * "inlined" (perf script's "NAME+OFF (inlined)": the offset is the
 * symbol's), then the frame's own symbol.
 */
static void frame_expanded(struct full_ctx *fc, const struct pd_sym_frame *f)
{
	struct pd_sym_inline in[PD_SYM_MAX_INLINE + 1];
	size_t n = pd_machine_inline_frames(fc->c->m, f, in, PD_SYM_MAX_INLINE + 1), i;

	for (i = 0; i < n; i++)
		frame(fc->j, f, in[i].inlined ? in[i].name : f->sym, in[i].inlined);
	if (!n)
		frame(fc->j, f, f->sym, false);
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
		for (i = 0; n > 0 && i < (size_t)n; i++) {
			/* what frame_expanded() reads of a frame */
			struct pd_sym_frame f = {
				.ip = af[i].ip, .addr = af[i].addr, .sym_off = af[i].sym_off,
				.dso_name = af[i].dso, .sym = af[i].sym, .dso = af[i].d,
				.has_map = af[i].has_map, .unwound = af[i].unwound,
			};

			frame_expanded(fc, &f);
		}
	} else {
		n = (long)pd_machine_resolve_sample(fc->c->m, rec, fc->frames, PD_SYM_MAX_STACK);
		for (i = 0; i < (size_t)n; i++)
			frame_expanded(fc, &fc->frames[i]);
	}
	je_arr_end(j);
}

/* A feature or attr built as a jansson value (stolen), written compact. */
static void splice(struct je *j, const char *k, json_t *v)
{
	je_key(j, k);
	je_sep(j);
	je_value(j, v, 0);
	json_decref(v);
}

/* ---- the sink of the record walk (pd_visit.h): every field, nested ---- */

static void sink_key(struct je *j, const char *name, unsigned int flags)
{
	if (!name)
		return;		/* a value in a list */
	if (flags & PD_VF_INPUT_NAME)
		je_key_esc(j, name);
	else
		je_key(j, name);
}

static void sink_u64(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	struct full_ctx *fc = ctx;

	if (flags & PD_VF_SUMMARY)
		return;
	sink_key(fc->j, name, flags);
	je_v_u(fc->j, v);
}

static void sink_i64(void *ctx, const char *name, int64_t v, unsigned int flags)
{
	struct full_ctx *fc = ctx;

	if (flags & PD_VF_SUMMARY)
		return;
	sink_key(fc->j, name, flags);
	je_v_i(fc->j, v);
}

static void sink_hex(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	struct full_ctx *fc = ctx;

	if (flags & PD_VF_SUMMARY)
		return;
	sink_key(fc->j, name, flags);
	je_v_x(fc->j, v);
}

static void sink_str(void *ctx, const char *name, const char *s, size_t max, unsigned int flags)
{
	struct full_ctx *fc = ctx;

	if (flags & PD_VF_SUMMARY)
		return;
	sink_key(fc->j, name, flags);
	je_sep(fc->j);
	je_str(fc->j, s, max);
}

static void sink_flag(void *ctx, const char *name, bool set, unsigned int flags)
{
	struct full_ctx *fc = ctx;

	if (flags & PD_VF_SUMMARY)
		return;
	sink_key(fc->j, name, flags);
	je_v_bool(fc->j, set);
}

static void sink_sym(void *ctx, const char *name, const char *sym, uint64_t v, unsigned int flags)
{
	struct full_ctx *fc = ctx;

	if (flags & PD_VF_SUMMARY)
		return;
	sink_key(fc->j, name, flags);
	if (sym)
		je_v_plain(fc->j, sym);	/* the library's own names (pd_visit.h) */
	else
		je_v_u(fc->j, v);
}

static void sink_real(void *ctx, const char *name, double v, unsigned int flags)
{
	struct full_ctx *fc = ctx;

	if (!(flags & PD_VF_SUMMARY))
		splice(fc->j, name, json_real(v));
}

/* identifiers as hex digits, payloads as base64 ("" when not held), text as a string */
static void sink_bytes(void *ctx, const char *name, const uint8_t *p, size_t n, unsigned int flags)
{
	struct full_ctx *fc = ctx;

	if (flags & PD_VF_SUMMARY)
		return;
	sink_key(fc->j, name, flags);
	je_sep(fc->j);
	if (flags & PD_VF_TEXT)
		je_strn(fc->j, (const char *)p, p ? n : 0);
	else if (flags & PD_VF_PAYLOAD)
		je_base64(fc->j, p, p ? n : 0);
	else
		je_hexbytes(fc->j, p, n);
}

static void sink_list_begin(void *ctx, const char *name, unsigned int flags)
{
	struct full_ctx *fc = ctx;

	sink_key(fc->j, name, flags);
	je_arr_begin(fc->j);
}

static void sink_list_end(void *ctx)
{
	struct full_ctx *fc = ctx;

	je_arr_end(fc->j);
}

/* sink_list_begin(), sink_hex() for each value and sink_list_end() at once */
static void sink_hex_list(void *ctx, const char *name, const uint64_t *v, uint64_t nr,
			  unsigned int flags)
{
	struct full_ctx *fc = ctx;
	uint64_t i;

	sink_key(fc->j, name, flags);
	je_arr_begin(fc->j);
	for (i = 0; i < nr; i++)
		je_v_x(fc->j, v[i]);
	je_arr_end(fc->j);
}

static void sink_obj_begin(void *ctx, const char *name, const char *flat, unsigned int flags)
{
	struct full_ctx *fc = ctx;

	sink_key(fc->j, name, flags);
	je_obj_begin(fc->j);
}

static void sink_obj_end(void *ctx)
{
	struct full_ctx *fc = ctx;

	je_obj_end(fc->j);
}

static void sink_attr(void *ctx, const struct pd_attr *attr, unsigned int flags)
{
	struct full_ctx *fc = ctx;

	splice(fc->j, "attr", json_attr(attr));
}

static void sink_feature(void *ctx, const struct pd_rec_header_feature *hf)
{
	struct full_ctx *fc = ctx;

	/*
	 * By the time the record is delivered the reader has decoded the
	 * payload into its feature set: render it from there.
	 */
	splice(fc->j, "feature", json_feature(pd_reader_features(fc->c->r),
					      (unsigned int)(hf->feat_id < PD_FEAT_BITS ?
							     hf->feat_id : 0),
					      hf->payload, hf->len,
					      hf->feat_id < PD_FEAT_BITS));
}

/* a tracepoint sample's raw data, decoded with the recording's formats */
static void sink_raw_fields(void *ctx, const struct pd_record *rec)
{
	struct full_ctx *fc = ctx;
	const struct pd_sample *s = &rec->u.sample;
	const struct pd_event *ev = rec->event;
	struct je *j = fc->j;
	struct jtep *tp;
	const char *sys = NULL, *name;

	if (!s->raw_data || !ev || ev->attr.type != PERF_TYPE_TRACEPOINT_ID)
		return;
	tp = jconv_tep(fc->c);
	name = tp ? jtep_event_name(tp, ev->attr.config, &sys) : NULL;
	if (!name)
		return;
	je_key(j, "tracepoint");
	je_obj_begin(j);
	je_kv_s(j, "system", sys);
	je_kv_s(j, "name", name);
	je_key(j, "fields");
	je_obj_begin(j);
	jtep_fields(tp, ev->attr.config, s->raw_data, s->raw_size, trace_field, j);
	je_obj_end(j);
	je_obj_end(j);
}

static const struct pd_visit_ops full_sink_ops = {
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
	.raw_fields = sink_raw_fields,
	.hex_list = sink_hex_list,
};

static void record(struct full_ctx *fc, const struct pd_record *rec)
{
	struct je *j = fc->j;
	char tbuf[24];

	je_reset(j);
	je_obj_begin(j);
	/* our own names: nothing to escape */
	if (fc->c->jsonl)
		je_kv_plain(j, "kind", "record");
	je_kv_plain(j, "type", tool_type_name(rec->type, tbuf, sizeof(tbuf)));
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
	if (rec->decoded) {
		pd_record_visit(rec, &full_sink_ops, fc);
		if (rec->type == PD_REC_SAMPLE && fc->c->m)
			frames(fc, rec);
		if (rec->has_trailer)
			pd_sample_id_visit(&rec->sid, &full_sink_ops, fc);
	}
	if (rec->extra_len) {
		je_key(j, "extra");
		je_obj_begin(j);
		je_kv_u(j, "offset", rec->extra_offset);
		je_kv_u(j, "len", rec->extra_len);
		je_kv_bool(j, "held", rec->extra != NULL);
		je_obj_end(j);
	}
	/* what could not be decoded stays available as bytes */
	if ((!rec->decoded || !pd_record_type_known(rec->type)) && rec->raw)
		je_kv_base64(j, "raw", rec->raw, rec->raw_len);
	je_obj_end(j);
}

struct by_type {
	json_t *o;
	uint64_t other;		/* types outside the kernel's, perf's and simpleperf's */
};

static void by_type_cb(const struct type_count *n, void *arg)
{
	struct by_type *bt = arg;
	char tbuf[24];

	if (n->type < 128 || (n->type >= PD_REC_SP_START && n->type - PD_REC_SP_START < 128))
		json_object_set_new(bt->o, tool_type_name(n->type, tbuf, sizeof(tbuf)),
				    json_integer((json_int_t)n->records));
	else
		bt->other += n->records;
}

static json_t *summary(struct full_ctx *fc, const struct drv *d)
{
	struct by_type bt = { .o = json_object(), .other = d->types.overflow.records };
	json_t *s = json_object();

	/* the known types in type order, then all others as one */
	type_counts_each(&d->types, by_type_cb, &bt);
	if (bt.other)
		json_object_set_new(bt.o, "OTHER", json_integer((json_int_t)bt.other));
	json_object_set_new(s, "records", json_integer((json_int_t)d->records));
	json_object_set_new(s, "samples", json_integer((json_int_t)drv_samples(d)));
	json_object_set_new(s, "undecoded", json_integer((json_int_t)fc->undecoded));
	json_object_set_new(s, "by_type", bt.o);
	json_object_set_new(s, "diagnostics", json_pack("{s:I,s:I,s:I}",
		"notes", (json_int_t)d->cd.count[PD_SEV_NOTE],
		"warnings", (json_int_t)d->cd.count[PD_SEV_WARNING],
		"errors", (json_int_t)d->cd.count[PD_SEV_ERROR]));
	return s;
}

/* ---- the writer ops (driver.h), behind to-json's own (cmd_to_json.c) ---- */

static int full_begin(struct drv *d, void *w)
{
	struct jconv *c = w;
	const struct pd_features *f = pd_reader_features(c->r);
	struct full_ctx *fc;
	struct je *j = c->je;
	json_t *desc;

	fc = calloc(1, sizeof(*fc));
	if (!fc)
		return PD_STATUS_NOMEM;
	c->full = fc;
	fc->c = c;
	fc->j = j;
	fc->first = true;
	fc->arch = f->arch;
	if (c->m) {
		fc->frames = calloc(PD_SYM_MAX_STACK, sizeof(*fc->frames));
		if (!fc->frames)
			return PD_STATUS_NOMEM;
	}
	desc = json_file_description(c->r, c->input);
	if (!desc)
		return PD_STATUS_NOMEM;
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
		je_value(j, desc, 0);
		je_c(j, '\n');
	} else {
		je_lit(j, "{\"format\":\"perfconv-full\",\"schema_version\":");
		je_u64(j, JSON_FULL_SCHEMA_VERSION);
		je_lit(j, ",\"file\":");
		je_value(j, desc, 0);
		je_lit(j, ",\"records\":[");
	}
	json_decref(desc);
	return 0;
}

static int full_record(struct drv *d, void *w, const struct pd_record *rec)
{
	struct jconv *c = w;
	struct full_ctx *fc = c->full;
	struct je *j = c->je;

	if (rec->type == PD_REC_HEADER_TRACING_DATA)
		jconv_take_tracing(c, rec);
	if (!rec->decoded)
		fc->undecoded++;
	if (!c->jsonl && !fc->first)
		je_c(j, ',');
	if (!c->jsonl)
		je_c(j, '\n');
	fc->first = false;
	record(fc, rec);
	if (c->jsonl)
		je_c(j, '\n');
	return fc->nomem ? PD_STATUS_NOMEM : 0;
}

static int full_end(struct drv *d, void *w)
{
	struct jconv *c = w;
	struct full_ctx *fc = c->full;
	struct je *j = c->je;
	json_t *sum;

	sum = summary(fc, d);
	/*
	 * Complete: every record of the input is in the output.  An error
	 * diagnostic (a cut or damaged input) means some are not, even when
	 * the reader could go on to the end.
	 */
	json_object_set_new(sum, "complete",
			    json_boolean(!d->status && !d->stop && !d->cd.count[PD_SEV_ERROR]));
	if (c->jsonl) {
		json_object_set_new(sum, "kind", json_string("summary"));
		je_value(j, sum, 0);
		je_c(j, '\n');
	} else {
		je_lit(j, "\n],\"summary\":");
		je_value(j, sum, 0);
		je_lit(j, "}\n");
	}
	json_decref(sum);
	return 0;
}

static int full_close(struct drv *d, void *w, int code)
{
	struct jconv *c = w;
	struct full_ctx *fc = c->full;

	if (fc)
		free(fc->frames);
	free(fc);
	c->full = NULL;
	return code;
}

const struct writer_ops json_full_ops = {
	.begin = full_begin,
	.record = full_record,
	.end = full_end,
	.close = full_close,
};
