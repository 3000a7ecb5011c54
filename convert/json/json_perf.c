// SPDX-License-Identifier: MIT
/*
 * json_perf.c - the document of `perf data convert --to-json`
 * ("linux-perf-json-version": 1), byte for byte.
 *
 * Layout, keys, number formats and the frame rules follow
 * docs/perf-data-format.md §13 and docs/symbolization.md §9.  Three
 * deliberate differences, all in perf's failure cases:
 *  - bytes >= 0x80 in strings: perf prints them as \uffffffXX (invalid
 *    JSON, a signed-char bug); valid UTF-8 is copied here, other bytes
 *    become U+FFFD (common/utf8.h);
 *  - pipe input: perf stops after the feature records and writes no
 *    sample; here the stream is converted, and since features arrive as
 *    records the "headers" object is written once they are known (before
 *    the first sample);
 *  - a failure half-way: perf closes the document and exits 0; here the
 *    document is closed too (it stays valid JSON) but the run fails, and
 *    an -o file is not left behind.
 *
 * Samples are written on a second thread (struct jrow, batch_pipe.h);
 * everything else (headers, the closing brackets) by the reading thread
 * while no row is in flight.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "batch_pipe.h"
#include "json/json_conv.h"

/* ",\n" + depth TABs: perf's output_json_delimiters() */
static inline __attribute__((always_inline)) void delim(struct je *j, bool comma,
							unsigned int depth)
{
	char *p = je_room(j, depth + 2);
	size_t n = 0;

	if (comma)
		p[n++] = ',';
	p[n++] = '\n';
	memset(p + n, '\t', depth);
	j->ob.len += n + depth;
}

/*
 * delimiter, "key": (key is plain ASCII).  Always inlined: with a literal
 * key and depth, it comes down to two reservations and constant stores,
 * and samples write several keys each.
 */
static inline __attribute__((always_inline)) void key(struct je *j, bool comma,
						      unsigned int depth, const char *k)
{
	size_t kl = strlen(k);
	char *p;

	delim(j, comma, depth);
	p = je_room(j, kl + 4);
	p[0] = '"';
	memcpy(p + 1, k, kl);
	memcpy(p + 1 + kl, "\": ", 3);
	j->ob.len += kl + 4;
}

static void kv_u(struct je *j, unsigned int depth, const char *k, uint64_t v, bool comma)
{
	key(j, comma, depth, k);
	je_u64(j, v);
}

static void kv_s(struct je *j, unsigned int depth, const char *k, const char *s)
{
	key(j, true, depth, k);
	je_str(j, s, SIZE_MAX);
}

/*
 * Rendered frames.  Big recordings resolve the same few thousand addresses
 * millions of times: the frame cache (pd_frame_cache) keeps where the text
 * of each frame is in an arena, which is emptied when full.
 */
#define FC_ARENA	(1u << 20)

struct perf_ctx {
	struct jconv *c;
	struct pd_frame_cache *fc;	/* resolved frames: where their text is */
	struct pd_frame_ref *frames;	/* the stack's, JROW_MAX_FRAMES */
	char *arena;			/* rendered frames, FC_ARENA bytes (NULL: none) */
	uint32_t arena_used;
	bool headers_done;
	bool first_sample;
	size_t nr_events_seen;
	uint64_t combined_sample_type;
	/* the samples a READ sample stands for */
	struct pd_members *members;

	/*
	 * Samples are written by a second thread (batch_pipe.h): this one
	 * resolves and hands over each sample as a struct jrow, whose frames
	 * point into the arena or into the row's own text.  The arena is only
	 * emptied once every row is written (fc_clear_due).
	 */
	struct batch_pipe pipe;
	bool piped;		/* the pipe runs: the document is the writer's */
	bool fc_clear_due;	/* empty the arena before the next sample */
	bool nomem;
	struct je text;		/* the text of the row being built */
	struct jref *refs;	/* its frames */
	struct pd_sym_ip *stack;	/* its stack, JROW_MAX_FRAMES entries */
	struct row_writer {
		struct je *j;
		const char *arena;
	} writer;
};

/* A frame's text: in the cache arena, or (JREF_INLINE) in the row's text. */
struct jref {
	uint32_t off;
	uint32_t len;
};

#define JREF_INLINE	0x80000000u

/* A sample as the writing thread gets it. */
struct jrow {
	int64_t timestamp, pid, tid, cpu;
	uint32_t nr_frames;
	uint32_t text_len;	/* bytes after the frames: comm, inline frames, trace fields */
	uint32_t comm_len;	/* the comm is text[0, comm_len) */
	uint32_t trace_off, trace_len;	/* the tracepoint fields, rendered */
	uint8_t flags;		/* JROW_* */
	struct jref frames[];
};

#define JROW_COMMA	0x1	/* not the first sample */
#define JROW_CPU	0x2

/* at most this many frames: a record holds at most 64 KiB of u64 */
#define JROW_MAX_FRAMES	8192

static inline size_t jrow_size(uint32_t nr_frames, uint32_t text_len)
{
	return (sizeof(struct jrow) + nr_frames * sizeof(struct jref) + text_len + 7) &
	       ~(size_t)7;
}

static void write_headers(struct perf_ctx *pc)
{
	struct jconv *c = pc->c;
	struct je *j = c->je;
	const struct pd_header *h = pd_reader_header(c->r);
	const struct pd_features *f = pd_reader_features(c->r);
	bool pipe = h->mode == PD_MODE_PIPE;
	uint32_t i;

	je_lit(j, "{");
	key(j, false, 1, "linux-perf-json-version");
	je_lit(j, "1");
	key(j, true, 1, "headers");
	je_lit(j, "{");
	kv_u(j, 2, "header-version", 1, false);
	if (c->have_mtime) {
		char buf[64];
		struct tm tm;

		gmtime_r(&c->mtime, &tm);
		strftime(buf, sizeof(buf), "%FT%TZ", &tm);
		kv_s(j, 2, "captured-on", buf);
	}
	kv_u(j, 2, "data-offset", pipe ? 0 : h->data.offset, true);
	kv_u(j, 2, "data-size", pipe ? 0 : h->data.size, true);
	kv_u(j, 2, "feat-offset", pipe ? 0 : h->data.offset + h->data.size, true);
	kv_s(j, 2, "hostname", f->hostname);
	kv_s(j, 2, "os-release", f->osrelease);
	kv_s(j, 2, "arch", f->arch);
	/* perf 6.1 prints cpu-desc even when the feature is missing */
	kv_s(j, 2, "cpu-desc", f->cpudesc);
	kv_s(j, 2, "cpuid", f->cpuid);
	kv_u(j, 2, "nrcpus-online", f->nrcpus.online, true);
	kv_u(j, 2, "nrcpus-avail", f->nrcpus.avail, true);
	if (pd_features_has(f, PD_FEAT_CLOCK_DATA) && f->raw[PD_FEAT_CLOCK_DATA].decoded) {
		kv_u(j, 2, "clockid", f->clock_data.clockid, true);
		kv_u(j, 2, "clock-time", f->clock_data.clockid_ns, true);
		kv_u(j, 2, "real-time", f->clock_data.tod_ns, true);
	}
	kv_s(j, 2, "perf-version", f->version);
	key(j, true, 2, "cmdline");
	je_c(j, '[');
	for (i = 0; i < f->cmdline.nr; i++) {
		delim(j, i != 0, 3);
		je_str(j, f->cmdline.s[i], SIZE_MAX);
	}
	delim(j, false, 2);
	je_c(j, ']');
	delim(j, false, 1);
	je_c(j, '}');
	key(j, true, 1, "samples");
	je_c(j, '[');
	pc->headers_done = true;
}

static void write_frame(struct je *j, const struct pd_sym_frame *f)
{
	delim(j, false, 4);
	je_c(j, '{');
	key(j, false, 5, "ip");
	je_hexstr(j, f->ip);
	if (f->sym && f->sym[0]) {
		key(j, true, 5, "symbol");
		je_str(j, f->sym, SIZE_MAX);
		if (f->has_map && f->dso_short && f->dso_short[0]) {
			key(j, true, 5, "dso");
			je_str(j, f->dso_short, SIZE_MAX);
		}
	}
	delim(j, false, 4);
	je_c(j, '}');
}

/*
 * The text of one frame, from the arena or rendered into the row's text.
 * The frame cache keeps where it is for the entry, and for the site
 * (DSO and address) while the address is the same: the text shows it.
 */
static void frame_ref(struct perf_ctx *pc, const struct pd_frame_ref *r, struct jref *ref)
{
	const struct pd_sym_frame *f = r->frame;
	struct je *t = &pc->text;
	uint64_t *v = r->value;
	size_t start, len;

	if (!v[0] && r->site && r->site[0] && r->site[1] == f->ip)
		v[0] = r->site[0];
	if (v[0]) {
		ref->off = (uint32_t)v[0];
		ref->len = (uint32_t)(v[0] >> 32);
		return;
	}
	start = t->ob.len;
	write_frame(t, f);
	len = t->ob.len - start;
	if (pc->arena && len <= UINT16_MAX && !pc->fc_clear_due) {
		if (FC_ARENA - pc->arena_used < len) {
			/* rows in flight still read the arena: empty it between samples */
			pc->fc_clear_due = true;
		} else {
			v[0] = (uint64_t)len << 32 | pc->arena_used;
			if (r->site) {
				r->site[0] = v[0];
				r->site[1] = f->ip;
			}
			memcpy(pc->arena + pc->arena_used, t->ob.buf + start, len);
			pc->arena_used += (uint32_t)len;
			t->ob.len = start;
			ref->off = (uint32_t)v[0];
			ref->len = (uint32_t)len;
			return;
		}
	}
	ref->off = (uint32_t)start;
	ref->len = (uint32_t)len | JREF_INLINE;
}

/* The frames of a sample into pc->refs; returns how many. */
static uint32_t sample_frames(struct perf_ctx *pc, const struct pd_record *rec, int32_t pid,
			      int32_t tid)
{
	const struct pd_frame_ref *fr;
	struct jref *refs;
	size_t n, k, i;

	/* perf data convert's stack: every entry, unknown markers skipped, no unwinding */
	n = pd_machine_sample_stack(pc->c->m, rec, PD_STACK_CONVERT, pc->stack, JROW_MAX_FRAMES);
	k = pd_frame_cache_stack(pc->fc, pid, tid, pc->stack, n, pc->frames);
	if (k < n)
		pc->nomem = true;
	fr = pc->frames;
	refs = pc->refs;
	for (i = 0; i < k; i++) {
		uint64_t v = fr[i].value[0];

		/* most frames: the entry's text is in the arena (frame_ref()'s first case) */
		if (v) {
			refs[i].off = (uint32_t)v;
			refs[i].len = (uint32_t)(v >> 32);
			continue;
		}
		frame_ref(pc, &fr[i], &refs[i]);
	}
	return (uint32_t)k;
}

/* One sample, perf's layout; runs on the writing thread. */
static void format_row(struct je *j, const char *arena, const struct jrow *r)
{
	const char *text = (const char *)&r->frames[r->nr_frames];
	uint32_t i;

	if (r->flags & JROW_COMMA)
		je_c(j, ',');
	delim(j, false, 2);
	je_c(j, '{');
	key(j, false, 3, "timestamp");
	je_i64(j, r->timestamp);
	key(j, true, 3, "pid");
	je_i64(j, r->pid);
	key(j, true, 3, "tid");
	je_i64(j, r->tid);
	if (r->flags & JROW_CPU) {
		key(j, true, 3, "cpu");
		je_i64(j, r->cpu);
	}
	key(j, true, 3, "comm");
	je_strn(j, text, r->comm_len);
	key(j, true, 3, "callchain");
	je_c(j, '[');
	for (i = 0; i < r->nr_frames; i++) {
		const struct jref *f = &r->frames[i];

		if (i)
			je_c(j, ',');
		if (f->len & JREF_INLINE)
			je_raw(j, text + f->off, f->len & ~JREF_INLINE);
		else
			je_raw(j, arena + f->off, f->len);
	}
	delim(j, false, 3);
	je_c(j, ']');
	je_raw(j, text + r->trace_off, r->trace_len);
	delim(j, false, 2);
	je_c(j, '}');
}

static void write_rows(void *arg, const unsigned char *data, size_t len)
{
	const struct row_writer *w = arg;
	size_t at = 0;

	while (at < len) {
		const struct jrow *r = (const struct jrow *)(const void *)(data + at);

		format_row(w->j, w->arena, r);
		at += jrow_size(r->nr_frames, r->text_len);
	}
}

/* Everything handed over is written: the document and the arena are ours. */
static void rows_sync(struct perf_ctx *pc)
{
	if (pc->piped)
		batch_pipe_sync(&pc->pipe);
}

static void trace_field(void *arg, const char *name, const char *value)
{
	struct je *j = arg;

	delim(j, true, 3);
	je_str(j, name, SIZE_MAX);
	je_lit(j, ": ");
	je_str(j, value, SIZE_MAX);
}

static void write_sample(struct perf_ctx *pc, const struct pd_record *rec,
			 const struct pd_event *ev)
{
	struct jconv *c = pc->c;
	const struct pd_sample *s = &rec->u.sample;
	struct je *t = &pc->text;
	int32_t pid = -1, tid = -1;
	const char *comm = NULL;
	struct pd_sym_thread th;
	uint32_t n, comm_len, trace_off;
	size_t size;
	struct jrow *r, hdr;
	bool direct;
	char buf[16];

	if (pc->fc_clear_due) {
		rows_sync(pc);
		pd_frame_cache_forget(pc->fc);
		pc->arena_used = 0;
		pc->fc_clear_due = false;
	}
	if (s->sample_type & PD_SAMPLE_TID) {
		pid = (int32_t)s->pid;
		tid = (int32_t)s->tid;
	}
	/* perf prints the thread it found by tid, whose pid may be older */
	if (c->m && pd_machine_thread(c->m, tid, &th) == 0) {
		pid = th.pid;
		tid = th.tid;
		comm = th.comm;
	}
	if (!comm) {
		snprintf(buf, sizeof(buf), ":%d", tid);
		comm = buf;
	}

	t->ob.len = 0;
	je_raw(t, comm, strlen(comm));
	comm_len = (uint32_t)t->ob.len;
	n = sample_frames(pc, rec, pid, tid);
	trace_off = (uint32_t)t->ob.len;
	if (c->trace_fields && s->raw_data && ev && ev->attr.type == PERF_TYPE_TRACEPOINT_ID) {
		struct jtep *tp = jconv_tep(c);

		if (tp)
			jtep_fields(tp, ev->attr.config, s->raw_data, s->raw_size, trace_field, t);
	}
	if (t->ob.err) {
		pc->nomem = true;
		t->ob.err = 0;
		return;
	}

	memset(&hdr, 0, sizeof(hdr));
	hdr.timestamp = s->sample_type & PD_SAMPLE_TIME ? (int64_t)s->time : -1;
	hdr.pid = pid;
	hdr.tid = tid;
	/* a u32 printed with %i: an absent cpu shows as -1 */
	hdr.cpu = s->sample_type & PD_SAMPLE_CPU ? (int32_t)s->cpu : -1;
	hdr.nr_frames = n;
	hdr.text_len = (uint32_t)t->ob.len;
	hdr.comm_len = comm_len;
	hdr.trace_off = trace_off;
	hdr.trace_len = (uint32_t)t->ob.len - trace_off;
	hdr.flags = (pc->first_sample ? 0 : JROW_COMMA) |
		    (pc->combined_sample_type & PD_SAMPLE_CPU ? JROW_CPU : 0);
	pc->first_sample = false;

	size = jrow_size(n, hdr.text_len);
	/* larger than a batch (huge tracepoint data): written here */
	direct = !pc->piped || size > BATCH_PIPE_BATCH;
	if (direct) {
		rows_sync(pc);
		r = malloc(size);
		if (!r) {
			pc->nomem = true;
			return;
		}
	} else {
		r = batch_pipe_reserve(&pc->pipe, size);
	}
	*r = hdr;
	memcpy(r->frames, pc->refs, n * sizeof(*r->frames));
	memcpy(&r->frames[n], t->ob.buf, t->ob.len);
	if (direct) {
		format_row(c->je, pc->arena, r);
		free(r);
	} else {
		batch_pipe_commit(&pc->pipe, size);
	}
}

/*
 * PERF_SAMPLE_READ: perf delivers the sample once per read value whose
 * counter moved since the last sample of that id, as a sample of the
 * value's own event (pd_members.h).
 */
static int deliver_read(struct perf_ctx *pc, const struct pd_record *rec)
{
	struct pd_member m;
	size_t pos = 0;
	int ret;

	while ((ret = pd_members_next(pc->members, rec, &pos, &m)) > 0)
		write_sample(pc, rec, m.event);
	return ret < 0 ? -1 : 0;
}

static void update_combined(struct perf_ctx *pc)
{
	size_t n = pd_reader_nr_events(pc->c->r), i;

	if (n == pc->nr_events_seen)
		return;
	pc->combined_sample_type = 0;
	for (i = 0; i < n; i++)
		pc->combined_sample_type |= pd_reader_event(pc->c->r, i)->attr.sample_type;
	pc->nr_events_seen = n;
}

/* ---- the writer ops (driver.h), behind to-json's own (cmd_to_json.c) ---- */

static int perf_begin(struct drv *d, void *w)
{
	struct jconv *c = w;
	const struct pd_header *h = pd_reader_header(c->r);
	struct perf_ctx *pc;

	pc = calloc(1, sizeof(*pc));
	if (!pc)
		return PD_STATUS_NOMEM;
	c->perf = pc;
	pc->c = c;
	pc->first_sample = true;
	/* without it every frame is rendered anew */
	pc->arena = malloc(FC_ARENA);
	pc->refs = malloc(JROW_MAX_FRAMES * sizeof(*pc->refs));
	pc->frames = malloc(JROW_MAX_FRAMES * sizeof(*pc->frames));
	pc->stack = malloc(JROW_MAX_FRAMES * sizeof(*pc->stack));
	if (!pc->refs || !pc->frames || !pc->stack || je_init_mem(&pc->text) < 0 ||
	    pd_frame_cache_new(c->m, 0, &pc->fc) < 0 ||
	    pd_members_new(c->r, c->sel, &pc->members) < 0)
		return PD_STATUS_NOMEM;
	pc->writer.j = c->je;
	pc->writer.arena = pc->arena;
	/* without a thread the rows are written here, batch by batch */
	pc->piped = batch_pipe_start(&pc->pipe, write_rows, &pc->writer) == 0;

	/* file mode knows everything now; a pipe tells its features later */
	if (h->mode != PD_MODE_PIPE)
		write_headers(pc);
	return 0;
}

static int perf_record(struct drv *d, void *w, const struct pd_record *rec)
{
	struct jconv *c = w;
	struct perf_ctx *pc = c->perf;

	if (rec->type == PD_REC_HEADER_TRACING_DATA)
		jconv_take_tracing(c, rec);
	if (rec->type != PD_REC_SAMPLE)
		return 0;
	if (!rec->decoded || !rec->event)
		return 0;
	if (!pc->headers_done)
		write_headers(pc);
	update_combined(pc);
	if (rec->u.sample.sample_type & PD_SAMPLE_READ)
		return deliver_read(pc, rec) < 0 ? PD_STATUS_NOMEM : 0;
	write_sample(pc, rec, rec->event);
	return pc->nomem ? PD_STATUS_NOMEM : 0;
}

/* the rows still with the writing thread */
static void perf_rows_done(struct perf_ctx *pc)
{
	if (pc->piped)
		batch_pipe_finish(&pc->pipe);
	pc->piped = false;
}

static int perf_end(struct drv *d, void *w)
{
	struct jconv *c = w;
	struct perf_ctx *pc = c->perf;
	struct je *j = c->je;

	perf_rows_done(pc);
	if (!pc->headers_done)
		write_headers(pc);
	/* closed whatever happened: the document stays valid JSON */
	delim(j, false, 1);
	je_c(j, ']');
	delim(j, false, 0);
	je_lit(j, "}\n");
	return 0;
}

static int perf_close(struct drv *d, void *w, int code)
{
	struct jconv *c = w;
	struct perf_ctx *pc = c->perf;

	if (!pc)
		return code;
	perf_rows_done(pc);
	pd_members_free(pc->members);
	free(pc->refs);
	free(pc->frames);
	free(pc->stack);
	je_free(&pc->text);
	pd_frame_cache_free(pc->fc);
	free(pc->arena);
	free(pc);
	c->perf = NULL;
	return code;
}

const struct writer_ops json_perf_ops = {
	.begin = perf_begin,
	.record = perf_record,
	.end = perf_end,
	.close = perf_close,
};
