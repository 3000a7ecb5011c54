// SPDX-License-Identifier: MIT
/*
 * csv_tables.c - rows and aggregates of perfconv to-csv (see csv_tables.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "cli.h"
#include "csv/csv_tables.h"
#include "rec_text.h"

const char *const csv_table_names[CSV_NR_TABLES] = {
	[CSV_STATS] = "stats",
	[CSV_RECORDS] = "records",
	[CSV_SAMPLES] = "samples",
	[CSV_PROCESSES] = "processes",
	[CSV_FUNCTIONS] = "functions",
	[CSV_LINES] = "lines",
	[CSV_MMAPS] = "mmaps",
	[CSV_COMMS] = "comms",
	[CSV_LOST] = "lost",
	[CSV_SWITCHES] = "switches",
	[CSV_FOLDED] = "folded",
};

/* Stable interface: documented in perfconv(1); append, never reorder. */
const char *const csv_table_cols[CSV_NR_TABLES] = {
	[CSV_STATS] = "type,event,count,bytes,samples,period",
	[CSV_RECORDS] = "index,stream,offset,size,time,type,event,pid,tid,cpu,summary",
	[CSV_SAMPLES] = "index,time,pid,tid,comm,cpu,event,period,ip,sym,dso,callchain",
	[CSV_PROCESSES] = "pid,ppid,comm,comms,fork_time,exit_time,mmaps,threads,event,samples,period",
	[CSV_FUNCTIONS] = "event,dso,sym,sym_addr,self_samples,self_period,total_samples,"
			  "total_period,srcfile",
	[CSV_LINES] = "event,file,line,samples,period",
	[CSV_MMAPS] = "index,time,type,pid,tid,cpumode,start,end,pgoff,prot,flags,maj,min,ino,"
		      "ino_generation,build_id,filename",
	[CSV_COMMS] = "index,time,pid,tid,exec,comm",
	[CSV_LOST] = "index,time,type,pid,tid,cpu,event,id,lost",
	[CSV_SWITCHES] = "index,time,type,pid,tid,cpu,direction,preempt,next_prev_pid,next_prev_tid",
	[CSV_FOLDED] = NULL,	/* not CSV: no header */
};

/* ------------------------------------------------------------ helpers */

static void *nomem(struct csv_ctx *c)
{
	c->nomem = true;
	return NULL;
}

/*
 * The entry of an aggregated table for `key`: the one found, or a new one
 * of `size` bytes added under `hash`, all zero (which callers tell by a
 * field they always set).  NULL when out of memory.
 */
static void *agg_entry(struct csv_ctx *c, struct hmap *map, uint64_t hash, hmap_eq_fn eq,
		       const void *key, size_t size)
{
	void *e = hmap_find(map, hash, eq, key);

	if (e)
		return e;
	e = arena_alloc(&c->arena, size);
	if (!e || hmap_add(map, hash, e))
		return nomem(c);
	return e;
}

/* An aggregated table written: a row per entry, in the order of cmp. */
static void write_sorted(struct csv_ctx *c, const struct hmap *map,
			 int (*cmp)(const void *, const void *),
			 void (*row)(struct csv_ctx *c, const void *entry))
{
	void **v = hmap_items(map);
	size_t i;

	if (map->nr && !v) {
		c->nomem = true;
		return;
	}
	if (v)
		qsort(v, map->nr, sizeof(*v), cmp);
	for (i = 0; i < map->nr; i++)
		row(c, v[i]);
	free(v);
}

static struct csv_evsum *evsum(struct csv_ctx *c, struct csv_evvec *v, int ev)
{
	/* pipe mode learns events while reading: grow on demand */
	if (!grow_array(&v->v, &v->nr, (size_t)ev + 1, sizeof(*v->v)))
		return nomem(c);
	return &v->v[ev];
}

static const char *event_name(const struct csv_ctx *c, int ev)
{
	const struct pd_event *e = ev >= 0 ? pd_reader_event(c->r, (size_t)ev) : NULL;

	return e ? e->name : "";
}

static const char *basename_of(const char *s)
{
	const char *p = strrchr(s, '/');

	return p ? p + 1 : s;
}

static const char *cpumode_name(unsigned int mode)
{
	static const char *const names[] = {
		"unknown", "kernel", "user", "hypervisor", "guest_kernel", "guest_user",
	};

	return mode < sizeof(names) / sizeof(names[0]) ? names[mode] : "unknown";
}

static void put_time(struct csv_out *o, const struct pd_record *rec)
{
	if (rec->sid.present & PD_SAMPLE_TIME)
		csv_u64(o, rec->sid.time);
	else if (rec->type == PD_REC_FORK || rec->type == PD_REC_EXIT)
		csv_u64(o, rec->u.fork.time);
	else
		csv_empty(o);
}

static void put_cpu(struct csv_out *o, const struct pd_record *rec)
{
	if (rec->sid.present & PD_SAMPLE_CPU)
		csv_u64(o, rec->sid.cpu);
	else
		csv_empty(o);
}

static bool ensure_scratch(struct csv_ctx *c, size_t n)
{
	if (grow_array(&c->scratch, &c->scratch_cap, n, 1))
		return true;
	c->nomem = true;
	return false;
}

/* ------------------------------------------------------------ frame names */

struct name_key {
	const void *dso;
	const char *sym;
	bool has_map;
	bool inlined;
};

static bool fname_eq(const void *item, const void *key)
{
	const struct csv_fname *a = item;
	const struct name_key *k = key;

	return a->dso == k->dso && a->sym == k->sym && a->has_map == k->has_map &&
	       a->inlined == k->inlined;
}

/*
 * stackcollapse-perf's "tidy_generic" on one frame name: ';' would split
 * the stack, so it becomes ':'; argument lists are cut at the first '('
 * (not "(anonymous namespace)", and not at all in Go method names such as
 * "net/http.(*Client).Do"); quotes are dropped.
 */
static size_t tidy_folded(char *s, size_t n)
{
	const char *gm;
	size_t i, j;

	for (i = 0; i < n; i++)
		if (s[i] == ';')
			s[i] = ':';
	gm = memmem(s, n, ".(", 2);
	if (!gm || !memmem(gm + 2, n - (size_t)(gm + 2 - s), ").", 2)) {
		static const char anon[] = "anonymous namespace)";

		for (i = 0; i < n; i++) {
			if (s[i] != '(')
				continue;
			if (n - i - 1 >= sizeof(anon) - 1 &&
			    !memcmp(s + i + 1, anon, sizeof(anon) - 1))
				continue;
			n = i;
			break;
		}
	}
	for (i = j = 0; i < n; i++)
		if (s[i] != '"' && s[i] != '\'')
			s[j++] = s[i];
	return j;
}

/*
 * The frame name stackcollapse-perf reads from a perf script line
 * "ADDR SYM (DSO)": everything before the last " (".  A DSO name that
 * holds " (" itself ("/x (deleted)") moves that split into the DSO name;
 * the result is kept as perf script plus stackcollapse-perf give it, so
 * that flame graphs of both agree.  Leaves the name in c->scratch.
 */
static size_t folded_raw(struct csv_ctx *c, const struct pd_sym_frame *f, const char *chain,
			 size_t chain_len)
{
	const char *dso = f->has_map && f->dso_name ? f->dso_name : "[unknown]";
	const char *sym = f->sym ? f->sym : "[unknown]";
	const char *last = NULL, *p;
	size_t n;

	for (p = strstr(dso, " ("); p; p = strstr(p + 1, " ("))
		last = p;
	if (!last) {
		n = chain_len;
		if (!ensure_scratch(c, n + 1))
			return 0;
		memcpy(c->scratch, chain, n);
		return n;
	}
	n = strlen(sym) + 2 + (size_t)(last - dso);
	if (!ensure_scratch(c, n + 1))
		return 0;
	snprintf(c->scratch, n + 1, "%s (%.*s", sym, (int)(last - dso), dso);
	return n;
}

/* The columns the samples table writes for every sample, tested once, and the name kept. */
static const struct csv_fname *fname_add(struct csv_ctx *c, struct csv_fname *e, uint64_t h,
					 const char *sym_col, const char *dso_col)
{
	e->sym_col = sym_col;
	e->dso_col = dso_col;
	e->sym_len = (uint32_t)strlen(sym_col);
	e->dso_len = (uint32_t)strlen(dso_col);
	e->chain_plain = csv_is_plain(e->chain, e->chain_len);
	e->sym_plain = csv_is_plain(sym_col, e->sym_len);
	e->dso_plain = csv_is_plain(dso_col, e->dso_len);
	if (hmap_add(&c->names, h, e))
		return nomem(c);
	return e;
}

static const struct csv_fname *fname_of(struct csv_ctx *c, const struct pd_sym_frame *f)
{
	struct name_key k = { f->has_map ? f->dso : NULL, f->sym, f->has_map, false };
	uint64_t h = hash_ptr(k.dso, hash_ptr(k.sym, k.has_map));
	struct csv_fname *e = hmap_find(&c->names, h, fname_eq, &k);
	const char *chain;
	size_t n;

	if (e)
		return e;
	e = arena_alloc(&c->arena, sizeof(*e));
	if (!e)
		return nomem(c);
	e->dso = k.dso;
	e->sym = k.sym;
	e->has_map = k.has_map;

	/*
	 * Without a symbol, name the frame after its DSO as stackcollapse-perf
	 * does ("[libc.so.6]"): a flame graph then still shows where the time
	 * went.  perf script's DSO column is the mapped path, so its basename.
	 */
	if (f->sym) {
		chain = str_pool_intern(&c->str, f->sym, strlen(f->sym));
	} else if (f->has_map && f->dso_name) {
		const char *b = basename_of(f->dso_name);

		n = strlen(b);
		if (!ensure_scratch(c, n + 3))
			return NULL;
		c->scratch[0] = '[';
		memcpy(c->scratch + 1, b, n);
		c->scratch[n + 1] = ']';
		chain = str_pool_intern(&c->str, c->scratch, n + 2);
	} else {
		chain = str_pool_intern(&c->str, "[unknown]", 9);
	}
	if (!chain)
		return nomem(c);
	e->chain = chain;
	e->chain_len = (uint32_t)strlen(chain);

	n = folded_raw(c, f, chain, e->chain_len);
	if (!n && c->nomem)
		return NULL;
	n = tidy_folded(c->scratch, n);
	e->folded = str_pool_intern(&c->str, c->scratch, n);
	if (!e->folded)
		return nomem(c);

	return fname_add(c, e, h, f->sym ? f->sym : "[unknown]",
			 f->has_map && f->dso_name ? f->dso_name : "[unknown]");
}

/*
 * A function perf shows inlined in an unwound frame, "NAME (inlined)" in
 * place of "NAME (DSO)": named so in the samples callchain and the
 * functions table (as perf report prints it), NAME in the folded table
 * (stackcollapse-perf reads "(inlined)" where the DSO is).
 */
static const struct csv_fname *inline_fname(struct csv_ctx *c, const struct pd_sym_frame *f,
					    const char *name)
{
	static const char tag[] = " (inlined)";
	struct name_key k = { f->dso, NULL, true, true };
	struct csv_fname *e;
	size_t n = strlen(name);
	uint64_t h;

	k.sym = str_pool_intern(&c->str, name, n);
	if (!k.sym)
		return nomem(c);
	h = hash_ptr(k.dso, hash_ptr(k.sym, 2));
	e = hmap_find(&c->names, h, fname_eq, &k);
	if (e)
		return e;
	e = arena_alloc(&c->arena, sizeof(*e));
	if (!e || !ensure_scratch(c, n + sizeof(tag)))
		return nomem(c);
	e->dso = k.dso;
	e->sym = k.sym;
	e->has_map = true;
	e->inlined = true;
	memcpy(c->scratch, name, n);
	memcpy(c->scratch + n, tag, sizeof(tag));
	e->chain = str_pool_intern(&c->str, c->scratch, n + sizeof(tag) - 1);
	if (!e->chain)
		return nomem(c);
	e->chain_len = (uint32_t)(n + sizeof(tag) - 1);
	memcpy(c->scratch, name, n);
	e->folded = str_pool_intern(&c->str, c->scratch, tidy_folded(c->scratch, n));
	if (!e->folded)
		return nomem(c);
	return fname_add(c, e, h, e->chain, f->dso_name ? f->dso_name : "[unknown]");
}

static bool site_eq(const void *item, const void *key)
{
	const struct csv_site *a = item, *k = key;

	return a->dso == k->dso && a->addr == k->addr;
}

/* The site of (dso, addr): the one found, or a new one with nothing looked up yet. */
static struct csv_site *site_get(struct csv_ctx *c, const void *dso, uint64_t addr)
{
	struct csv_site k = { .dso = dso, .addr = addr };
	uint64_t h = hash_ptr(dso, addr);
	struct csv_site *e = hmap_find(&c->sites, h, site_eq, &k);

	if (e)
		return e;
	e = arena_alloc(&c->arena, sizeof(*e));
	if (!e || hmap_add(&c->sites, h, e))
		return nomem(c);
	e->dso = dso;
	e->addr = addr;
	return e;
}

/*
 * Room for n more names in the runs of inline frame names, the first
 * time with the empty run at [0]; false when out of memory or when a run
 * would start beyond what a site's 32-bit index holds.
 */
static bool inl_names_room(struct csv_ctx *c, size_t n)
{
	if (!c->nr_inl_names) {
		if (!grow_array_unzeroed(&c->inl_names, &c->inl_names_cap, 1,
					 sizeof(*c->inl_names)))
			return false;
		c->inl_names[c->nr_inl_names++] = NULL;
	}
	if (n > UINT32_MAX - 1 - c->nr_inl_names)
		return false;
	return grow_array_unzeroed(&c->inl_names, &c->inl_names_cap, c->nr_inl_names + n,
				   sizeof(*c->inl_names));
}

/*
 * The site of an unwound frame, with the frames perf shows for it: its
 * inline frames and its own, or none when it stands as it is.  NULL for
 * any other frame.  Kept by (DSO, address), as the symbolizer's answer
 * depends on nothing else.  Not inlined: it runs on a frame cache miss
 * only, and inlined into resolve_sample() (with its array of inline
 * frames) it cost the per-frame loop there 0.3 % of small.data's to-csv
 * --table folded instructions.
 */
static __attribute__((noinline)) struct csv_site *
inl_of(struct csv_ctx *c, const struct pd_sym_frame *f, const struct csv_fname *own)
{
	struct pd_sym_inline in[PD_SYM_MAX_INLINE + 1];
	struct csv_site *e;
	size_t n, i, at;

	if (!f->unwound || !f->has_map || !f->dso)
		return NULL;
	e = site_get(c, f->dso, f->addr);
	if (!e || e->inl)
		return e;
	n = pd_machine_inline_frames(c->m, f, in, PD_SYM_MAX_INLINE + 1);
	if (!inl_names_room(c, n ? n + 1 : 0))
		return nomem(c);
	if (!n) {
		e->inl = 1;	/* the empty run at [0] */
		return e;
	}
	at = c->nr_inl_names;
	for (i = 0; i < n; i++) {
		const struct csv_fname *name = in[i].inlined ? inline_fname(c, f, in[i].name) : own;

		if (!name)
			return NULL;
		c->inl_names[at + i] = name;
	}
	c->inl_names[at + n] = NULL;
	c->nr_inl_names = at + n + 1;
	e->inl = (uint32_t)at + 1;
	return e;
}

/* ------------------------------------------------------------ resolution */

/*
 * The frames of a sample, innermost first: the symbolizer's stack walk
 * (pd_machine_sample_stack(), shared with every symbolized output), each
 * entry resolved through the frame cache, which keeps its name and inline
 * frames.  A frame's name and inline frames follow from its DSO, address
 * and symbol: the cache's site for them keeps them for every process.
 */
static size_t resolve_sample(struct csv_ctx *c, const struct pd_record *rec,
			     struct csv_frame *out)
{
	const struct pd_sample *s = &rec->u.sample;
	int32_t pid = -1, tid = -1;
	struct pd_sym_ip st[PD_SYM_MAX_STACK];
	const struct csv_fname *name;
	struct csv_site *site;
	size_t n, i;

	if (s->sample_type & PD_SAMPLE_TID) {
		pid = (int32_t)s->pid;
		tid = (int32_t)s->tid;
	}
	/* made with the first sample: the machine comes with the input */
	if (!c->fc && pd_frame_cache_new(c->m, PD_FRAME_CACHE_FRAMES, &c->fc) < 0) {
		c->nomem = true;
		return 0;
	}
	n = pd_machine_sample_stack(c->m, rec, PD_STACK_REPORT, st, PD_SYM_MAX_STACK);
	n = pd_frame_cache_stack(c->fc, pid, tid, st, n, c->refs);
	for (i = 0; i < n; i++) {
		const struct pd_frame_ref *r = &c->refs[i];
		uint64_t *v = r->value;

		if (!v[0] && r->site && r->site[0]) {
			v[0] = r->site[0];
			v[1] = r->site[1];
		} else if (!v[0]) {
			name = fname_of(c, r->frame);
			if (!name)
				return 0;
			site = inl_of(c, r->frame, name);
			if (!site && c->nomem)
				return 0;
			v[0] = (uintptr_t)name;
			v[1] = (uintptr_t)site;
			if (r->site) {
				r->site[0] = v[0];
				r->site[1] = v[1];
			}
		}
		out[i].name = (const struct csv_fname *)(uintptr_t)v[0];
		out[i].site = (struct csv_site *)(uintptr_t)v[1];
		out[i].f = r->frame;
		out[i].depth = 0;
	}
	return n;
}

/*
 * The stack perf shows for a sample: every unwound frame replaced by its
 * inline frames and itself (pd_machine_inline_frames()), in c->xfr.
 */
static size_t expand_inline(struct csv_ctx *c, const struct csv_frame *fr, size_t n)
{
	size_t i, j, k = 0;

	for (i = 0; i < n && k < CSV_MAX_XSTACK; i++) {
		const struct csv_site *site = fr[i].site;
		const struct csv_fname *const *names;

		/* inl 1: the empty run at [0], the frame stands as it is */
		if (!site || site->inl <= 1) {
			c->xfr[k++] = fr[i];
			continue;
		}
		names = c->inl_names + site->inl - 1;
		for (j = 0; names[j] && k < CSV_MAX_XSTACK; j++) {
			c->xfr[k] = fr[i];
			c->xfr[k].name = names[j];
			c->xfr[k].depth = (uint32_t)j;
			k++;
		}
	}
	return k;
}

/* ------------------------------------------------------------ functions */

struct func {
	int ev;
	const void *dso;
	const char *sym;
	uint64_t sym_start;
	const struct csv_fname *name;
	const char *dso_name;
	uint64_t self_samples, self_period, total_samples, total_period;
	uint64_t stamp;
	struct pd_sym_frame frame;	/* first frame seen: finds the source file */
	int depth;		/* an inlined function: its place in the frame's inline chain */
};

struct func_key {
	int ev;
	const void *dso;
	const char *sym;
	uint64_t sym_start;
};

static bool func_eq(const void *item, const void *key)
{
	const struct func *a = item;
	const struct func_key *k = key;

	return a->ev == k->ev && a->dso == k->dso && a->sym == k->sym &&
	       a->sym_start == k->sym_start;
}

/*
 * A function of the table: a symbol of a DSO, or a function inlined in an
 * unwound frame, named "NAME (inlined)" at the start of the symbol around
 * it (perf report's made-up symbol for it).
 */
static struct func *func_get(struct csv_ctx *c, int ev, const struct csv_frame *fr)
{
	struct func_key k = {
		ev, fr->f->has_map ? fr->f->dso : NULL,
		fr->name->inlined ? fr->name->chain : fr->f->sym,
		fr->f->sym ? fr->f->sym_start : 0,
	};
	uint64_t h = hash_ptr(k.dso, hash_ptr(k.sym, k.sym_start ^ ((uint64_t)ev << 56)));
	struct func *fn = agg_entry(c, &c->funcs, h, func_eq, &k, sizeof(*fn));

	if (!fn || fn->name)
		return fn;
	fn->ev = ev;
	fn->dso = k.dso;
	fn->sym = k.sym;
	fn->sym_start = k.sym_start;
	fn->name = fr->name;
	fn->dso_name = fr->f->has_map ? fr->f->dso_name : NULL;
	fn->frame = *fr->f;
	fn->depth = fr->name->inlined ? (int)fr->depth : -1;
	return fn;
}

/*
 * As perf report --children: the sample's own symbol takes the self
 * columns (not a function inlined at its address) and counts in the total
 * like every function of the stack with inline frames, `fr`.
 */
static void functions_sample(struct csv_ctx *c, int ev, uint64_t period,
			     const struct csv_frame *own, const struct csv_frame *fr, size_t n)
{
	struct func *fn;
	size_t i;

	fn = func_get(c, ev, own);
	if (!fn)
		return;
	fn->self_samples++;
	fn->self_period += period;
	fn->stamp = c->sample_no;
	fn->total_samples++;
	fn->total_period += period;
	/* a recursive function is on the stack once as far as totals go */
	for (i = 0; i < n; i++) {
		fn = func_get(c, ev, &fr[i]);
		if (!fn)
			return;
		if (fn->stamp == c->sample_no)
			continue;
		fn->stamp = c->sample_no;
		fn->total_samples++;
		fn->total_period += period;
	}
}

/* ------------------------------------------------------------ lines */

struct line_agg {
	int ev;
	const char *file;
	unsigned int line;
	uint64_t samples, period;
};

static bool line_eq(const void *item, const void *key)
{
	const struct line_agg *a = item, *k = key;

	return a->ev == k->ev && a->file == k->file && a->line == k->line;
}

/*
 * The site of a frame with its source position: the innermost entry, so
 * that code inlined into a function is charged to the line it came from.
 * Kept by (DSO, address): DWARF line lookups are slow and profiles repeat
 * addresses.  An unwound frame comes with its site (resolve_sample()).
 */
static const struct csv_site *srcpos_of(struct csv_ctx *c, const struct csv_frame *fr)
{
	const struct pd_sym_frame *f = fr->f;
	struct csv_site *e = fr->site ? fr->site : site_get(c, f->has_map ? f->dso : NULL, f->addr);
	struct pd_sym_srcline sl;
	const char *file = "";

	if (!e || e->file)
		return e;
	if (e->dso && pd_machine_srcline(c->m, f, &sl) > 0 && sl.pos[0].file) {
		file = sl.pos[0].file;
		e->line = sl.pos[0].line;
	}
	e->file = str_pool_intern(&c->str, file, strlen(file));
	if (!e->file)
		return nomem(c);
	return e;
}

static void lines_sample(struct csv_ctx *c, int ev, uint64_t period, const struct csv_frame *fr)
{
	const struct csv_site *sp = srcpos_of(c, fr);
	struct line_agg k = { 0 }, *la;
	uint64_t h;

	if (!sp)
		return;
	k.ev = ev;
	k.file = sp->file;
	k.line = sp->line;
	h = hash_ptr(k.file, ((uint64_t)(unsigned int)ev << 32) | k.line);
	la = agg_entry(c, &c->lines, h, line_eq, &k, sizeof(*la));
	if (!la)
		return;
	if (!la->file)
		*la = k;
	la->samples++;
	la->period += period;
}

/* ------------------------------------------------------------ folded */

struct stack {
	uint64_t samples, period;
	uint32_t n;		/* names: [0] the comm, then frames outermost first */
	const char *names[];
};

struct stack_key {
	uint32_t n;
	const char *const *names;
};

static bool stack_eq(const void *item, const void *key)
{
	const struct stack *a = item;
	const struct stack_key *k = key;

	return a->n == k->n && !memcmp(a->names, k->names, k->n * sizeof(*k->names));
}

/* The comm as stackcollapse-perf shows it: spaces become '_'. */
static const char *folded_comm(struct csv_ctx *c, const char *comm)
{
	size_t n = strlen(comm), i;

	if (!ensure_scratch(c, n + 1))
		return NULL;
	for (i = 0; i < n; i++)
		c->scratch[i] = comm[i] == ' ' ? '_' : comm[i];
	return str_pool_intern(&c->str, c->scratch, n);
}

static void folded_sample(struct csv_ctx *c, int ev, uint64_t period, const char *comm,
			  const struct csv_frame *fr, size_t n)
{
	struct stack_key k;
	struct stack *st;
	uint64_t h;
	size_t i;

	/*
	 * Adding up different events (cycles and page faults) makes no sense
	 * in one flame graph: like stackcollapse-perf, keep the first event
	 * that has samples (--event selects which samples reach this table).
	 */
	if (c->folded_ev < 0)
		c->folded_ev = ev;
	if (ev != c->folded_ev) {
		c->folded_other = true;
		return;
	}
	c->fkey[0] = folded_comm(c, comm ? comm : "");
	if (!c->fkey[0]) {
		c->nomem = true;
		return;
	}
	for (i = 0; i < n; i++)
		c->fkey[1 + i] = fr[n - 1 - i].name->folded;
	k.n = (uint32_t)(n + 1);
	k.names = c->fkey;
	h = hash_bytes(c->fkey, k.n * sizeof(*c->fkey), 17);
	st = agg_entry(c, &c->folded, h, stack_eq, &k, sizeof(*st) + k.n * sizeof(*st->names));
	if (!st)
		return;
	if (!st->n) {
		st->n = k.n;
		memcpy(st->names, c->fkey, k.n * sizeof(*st->names));
	}
	st->samples++;
	st->period += period;
}

/* ------------------------------------------------------------ streaming tables */

/*
 * The samples table is formatted on a second thread (batch_pipe.h): the
 * resolving thread writes each sample as a struct srow followed by the
 * names of its frames.  Everything a row points to lives as long as the
 * run: frame names are interned in the context, comms in the machine,
 * event names in the reader.
 */
struct srow {
	uint64_t index, time, period, ip;
	int32_t pid, tid;
	uint32_t cpu;
	uint16_t have;		/* SROW_* */
	uint16_t n;		/* frames with inline ones, innermost first */
	const char *comm;
	const char *event;
	const struct csv_fname *own;	/* the sample's own frame: sym and dso */
	const struct csv_fname *names[];
};

#define SROW_TIME	0x1
#define SROW_TID	0x2
#define SROW_CPU	0x4
#define SROW_IP		0x8

/* Bytes of a row with n frames, rounded up to keep the next one aligned. */
static inline size_t srow_size(size_t n)
{
	return (sizeof(struct srow) + n * sizeof(((struct srow *)0)->names[0]) + 7) & ~(size_t)7;
}

static void samples_row(struct csv_ctx *c, const struct pd_record *rec, int ev, uint64_t period,
			const char *comm, const struct csv_fname *own, const struct csv_frame *fr,
			size_t n)
{
	const struct pd_sample *s = &rec->u.sample;
	size_t size = srow_size(n);
	struct srow *r = batch_pipe_reserve(&c->samples_pipe, size);
	size_t i;

	r->index = rec->index;
	r->time = s->time;
	r->period = period;
	r->ip = s->ip;
	r->pid = (int32_t)s->pid;
	r->tid = (int32_t)s->tid;
	r->cpu = s->cpu;
	r->have = (s->sample_type & PD_SAMPLE_TIME ? SROW_TIME : 0) |
		  (s->sample_type & PD_SAMPLE_TID ? SROW_TID : 0) |
		  (s->sample_type & PD_SAMPLE_CPU ? SROW_CPU : 0) |
		  (s->sample_type & PD_SAMPLE_IP ? SROW_IP : 0);
	r->n = (uint16_t)n;
	r->comm = comm;
	r->event = event_name(c, ev);
	r->own = own;
	for (i = 0; i < n; i++)
		r->names[i] = fr[i].name;
	batch_pipe_commit(&c->samples_pipe, size);
}

/* Scratch of the formatting thread: callchains that need quoting. */
struct sfmt {
	struct csv_out *o;
	char *scratch;
	size_t cap;
	_Atomic int *err;
};

static void format_srow(struct sfmt *sf, const struct srow *r)
{
	struct csv_out *o = sf->o;
	const struct csv_fname *own = r->own;
	size_t need = 0, len = 0, i;
	bool plain = true;
	char *p;

	csv_u64(o, r->index);
	if (r->have & SROW_TIME)
		csv_u64(o, r->time);
	else
		csv_empty(o);
	if (r->have & SROW_TID) {
		csv_i64(o, r->pid);
		csv_i64(o, r->tid);
	} else {
		csv_empty(o);
		csv_empty(o);
	}
	csv_str(o, r->comm);
	if (r->have & SROW_CPU)
		csv_u64(o, r->cpu);
	else
		csv_empty(o);
	csv_str(o, r->event);
	csv_u64(o, r->period);
	if (r->have & SROW_IP)
		csv_hex(o, r->ip);
	else
		csv_empty(o);
	if (own->sym_plain)
		csv_plain(o, own->sym_col, own->sym_len);
	else
		csv_strn(o, own->sym_col, own->sym_len);
	if (own->dso_plain)
		csv_plain(o, own->dso_col, own->dso_len);
	else
		csv_strn(o, own->dso_col, own->dso_len);

	/* outermost first, as in a flame graph and in the folded table */
	for (i = 0; i < r->n; i++) {
		need += r->names[i]->chain_len + 1;
		plain &= r->names[i]->chain_plain;
	}
	if (plain && need < CSV_BUF_SIZE / 4) {
		/* the common case: straight into the output buffer */
		csv_empty(o);
		csv_reserve(o, need + CSV_SMALL);
		p = o->ob.buf + o->ob.len;
		for (i = r->n; i > 0; i--) {
			const struct csv_fname *fn = r->names[i - 1];

			memcpy(p + len, fn->chain, fn->chain_len);
			len += fn->chain_len;
			p[len++] = ';';
		}
		o->ob.len += len ? len - 1 : 0;
		csv_eol(o);
		return;
	}
	if (!grow_array(&sf->scratch, &sf->cap, need + 1, 1)) {
		/* the row is lost: say so through the table's error */
		if (!o->out.sink.err)
			o->out.sink.err = ENOMEM;
		return;
	}
	for (i = r->n; i > 0; i--) {
		const struct csv_fname *fn = r->names[i - 1];

		memcpy(sf->scratch + len, fn->chain, fn->chain_len);
		len += fn->chain_len;
		sf->scratch[len++] = ';';
	}
	csv_strn(o, sf->scratch, len ? len - 1 : 0);
	csv_eol(o);
}

static void format_samples(void *arg, const unsigned char *data, size_t len)
{
	struct sfmt *sf = arg;
	size_t at = 0;

	while (at < len) {
		const struct srow *r = (const struct srow *)(const void *)(data + at);

		format_srow(sf, r);
		at += srow_size(r->n);
	}
	if (csv_err(sf->o))
		atomic_store(sf->err, csv_err(sf->o));
}

int csv_samples_start(struct csv_ctx *c)
{
	struct sfmt *sf = calloc(1, sizeof(*sf));

	if (!sf)
		return -1;
	sf->o = &c->out[CSV_SAMPLES];
	sf->err = &c->samples_err;
	if (batch_pipe_start(&c->samples_pipe, format_samples, sf)) {
		free(sf);
		return -1;
	}
	c->samples_fmt = sf;
	return 0;
}

void csv_samples_stop(struct csv_ctx *c)
{
	struct sfmt *sf = c->samples_fmt;

	batch_pipe_finish(&c->samples_pipe);
	if (sf) {
		free(sf->scratch);
		free(sf);
		c->samples_fmt = NULL;
	}
}

int csv_write_error(const struct csv_ctx *c)
{
	int i, err;

	for (i = 0; i < CSV_NR_TABLES; i++) {
		if (!c->open[i])
			continue;
		/* the formatting thread owns that table while it runs */
		err = i == CSV_SAMPLES && c->samples_fmt ? atomic_load(&c->samples_err) :
							   csv_err(&c->out[i]);
		if (err)
			return err;
	}
	return 0;
}

/* pid and tid a record is about: its own fields, else its sample_id trailer */
static bool record_pid_tid(const struct pd_record *rec, int32_t *pid, int32_t *tid)
{
	if (rec->decoded) {
		switch (rec->type) {
		case PD_REC_MMAP:
		case PD_REC_MMAP2:
			*pid = (int32_t)rec->u.mmap.pid;
			*tid = (int32_t)rec->u.mmap.tid;
			return true;
		case PD_REC_COMM:
			*pid = (int32_t)rec->u.comm.pid;
			*tid = (int32_t)rec->u.comm.tid;
			return true;
		case PD_REC_FORK:
		case PD_REC_EXIT:
			*pid = (int32_t)rec->u.fork.pid;
			*tid = (int32_t)rec->u.fork.tid;
			return true;
		default:
			break;
		}
	}
	if (rec->sid.present & PD_SAMPLE_TID) {
		*pid = (int32_t)rec->sid.pid;
		*tid = (int32_t)rec->sid.tid;
		return true;
	}
	return false;
}

/* The pid and tid columns: those of record_pid_tid(), empty when it has none. */
static void put_pid_tid(struct csv_out *o, const struct pd_record *rec)
{
	int32_t pid, tid;

	if (record_pid_tid(rec, &pid, &tid)) {
		csv_i64(o, pid);
		csv_i64(o, tid);
	} else {
		csv_empty(o);
		csv_empty(o);
	}
}

static void records_row(struct csv_ctx *c, const struct pd_record *rec)
{
	struct csv_out *o = &c->out[CSV_RECORDS];
	char tbuf[24];
	size_t start;

	csv_u64(o, rec->index);
	csv_str(o, rec->stream);
	csv_hex(o, rec->offset);
	csv_u64(o, rec->size);
	put_time(o, rec);
	csv_str(o, tool_type_name(rec->type, tbuf, sizeof(tbuf)));
	csv_str(o, rec->event ? rec->event->name : NULL);
	put_pid_tid(o, rec);
	put_cpu(o, rec);
	/*
	 * The record's fields as dump shows them but a sample's callchain list
	 * (its frames are the samples table's callchain), in place: no copy.
	 */
	start = csv_text_begin(o);
	rec_text_fields(&o->ob, rec, 0);
	csv_text_end(o, start, 1);	/* without the space before the first field */
	csv_eol(o);
}

static void mmaps_row(struct csv_ctx *c, const struct pd_record *rec)
{
	const struct pd_rec_mmap *mm = &rec->u.mmap;
	struct csv_out *o = &c->out[CSV_MMAPS];
	char prot[5], bid[41];
	unsigned int i;

	csv_u64(o, rec->index);
	put_time(o, rec);
	csv_str(o, rec->type == PD_REC_MMAP ? "MMAP" : "MMAP2");
	csv_i64(o, (int32_t)mm->pid);
	csv_i64(o, (int32_t)mm->tid);
	csv_str(o, cpumode_name(rec->misc & PD_MISC_CPUMODE_MASK));
	csv_hex(o, mm->start);
	csv_hex(o, mm->start + mm->len);
	csv_hex(o, mm->pgoff);
	if (rec->type == PD_REC_MMAP2) {
		/* PROT_READ 1, PROT_WRITE 2, PROT_EXEC 4; MAP_SHARED 1 */
		prot[0] = mm->prot & 1 ? 'r' : '-';
		prot[1] = mm->prot & 2 ? 'w' : '-';
		prot[2] = mm->prot & 4 ? 'x' : '-';
		prot[3] = mm->flags & 1 ? 's' : 'p';
		prot[4] = '\0';
		csv_str(o, prot);
		csv_hex(o, mm->flags);
	} else {
		csv_empty(o);
		csv_empty(o);
	}
	if (rec->type == PD_REC_MMAP2 && !mm->has_build_id) {
		csv_u64(o, mm->maj);
		csv_u64(o, mm->min);
		csv_u64(o, mm->ino);
		csv_u64(o, mm->ino_generation);
	} else {
		for (i = 0; i < 4; i++)
			csv_empty(o);
	}
	if (rec->type == PD_REC_MMAP2 && mm->has_build_id) {
		unsigned int n = mm->build_id_size <= 20 ? mm->build_id_size : 20;

		bid[fmt_hex_bytes(bid, mm->build_id, n)] = '\0';
		csv_str(o, bid);
	} else {
		csv_empty(o);
	}
	csv_str(o, mm->filename);
	csv_eol(o);
}

static void comms_row(struct csv_ctx *c, const struct pd_record *rec)
{
	struct csv_out *o = &c->out[CSV_COMMS];

	csv_u64(o, rec->index);
	put_time(o, rec);
	csv_i64(o, (int32_t)rec->u.comm.pid);
	csv_i64(o, (int32_t)rec->u.comm.tid);
	csv_u64(o, rec->misc & PD_MISC_COMM_EXEC ? 1 : 0);
	csv_str(o, rec->u.comm.comm);
	csv_eol(o);
}

static void lost_row(struct csv_ctx *c, const struct pd_record *rec)
{
	struct csv_out *o = &c->out[CSV_LOST];
	const struct pd_event *e;
	char tbuf[24];

	csv_u64(o, rec->index);
	put_time(o, rec);
	csv_str(o, tool_type_name(rec->type, tbuf, sizeof(tbuf)));
	put_pid_tid(o, rec);
	put_cpu(o, rec);
	if (rec->type == PD_REC_LOST) {
		e = pd_reader_event_by_id(c->r, rec->u.lost.id);
		csv_str(o, e ? e->name : NULL);
		csv_u64(o, rec->u.lost.id);
		csv_u64(o, rec->u.lost.lost);
	} else {
		csv_str(o, rec->event ? rec->event->name : NULL);
		csv_empty(o);
		csv_u64(o, rec->u.lost_samples.lost);
	}
	csv_eol(o);
}

static void switches_row(struct csv_ctx *c, const struct pd_record *rec)
{
	struct csv_out *o = &c->out[CSV_SWITCHES];
	char tbuf[24];

	csv_u64(o, rec->index);
	put_time(o, rec);
	csv_str(o, tool_type_name(rec->type, tbuf, sizeof(tbuf)));
	put_pid_tid(o, rec);
	put_cpu(o, rec);
	csv_str(o, rec->misc & PD_MISC_SWITCH_OUT ? "out" : "in");
	csv_u64(o, rec->misc & PD_MISC_SWITCH_OUT_PREEMPT ? 1 : 0);
	if (rec->type == PD_REC_SWITCH_CPU_WIDE) {
		csv_i64(o, (int32_t)rec->u.sw.next_prev_pid);
		csv_i64(o, (int32_t)rec->u.sw.next_prev_tid);
	} else {
		csv_empty(o);
		csv_empty(o);
	}
	csv_eol(o);
}

/* ------------------------------------------------------------ per record */

/*
 * One record can stand for several samples (pd_members.h: leader
 * sampling reads every member of the group): each is charged to its own
 * event with its own period, as perf counts them; they share the stack.
 */
static void sample_record(struct csv_ctx *c, const struct pd_record *rec)
{
	const struct pd_sample *s = &rec->u.sample;
	struct csv_frame fr[PD_SYM_MAX_STACK];
	const char *comm = NULL;
	struct pd_member mbr;
	struct csv_evsum *es;
	bool resolved = false;
	size_t n = 0, nx = 0, pos = 0;
	int ret;

	while ((ret = pd_members_next(c->members, rec, &pos, &mbr)) > 0) {
		int ev = mbr.event_index;

		es = evsum(c, &c->ev, ev);
		if (!es)
			return;
		es->samples++;
		es->period += mbr.period;
		/* the machine keeps the process table (pd_sym_opts.processes) */
		if (c->want[CSV_PROCESSES] &&
		    pd_machine_count_sample(c->m, rec, ev, mbr.period) < 0) {
			c->nomem = true;
			return;
		}
		if (!c->want[CSV_SAMPLES] && !c->want[CSV_FUNCTIONS] && !c->want[CSV_LINES] &&
		    !c->want[CSV_FOLDED])
			continue;
		if (!resolved) {
			resolved = true;
			c->sample_no++;
			n = resolve_sample(c, rec, fr);
			nx = expand_inline(c, fr, n);
			if (c->want[CSV_SAMPLES] || c->want[CSV_FOLDED]) {
				if (s->sample_type & PD_SAMPLE_TID)
					comm = pd_machine_comm(c->m, (int32_t)s->pid,
							       (int32_t)s->tid);
				else
					comm = pd_machine_comm(c->m, -1, -1);
			}
		}
		if (!n)
			continue;
		if (c->want[CSV_SAMPLES])
			samples_row(c, rec, ev, mbr.period, comm, fr[0].name, c->xfr, nx);
		if (c->want[CSV_FUNCTIONS])
			functions_sample(c, ev, mbr.period, &fr[0], c->xfr, nx);
		if (c->want[CSV_LINES])
			lines_sample(c, ev, mbr.period, &fr[0]);
		if (c->want[CSV_FOLDED])
			folded_sample(c, ev, mbr.period, comm, c->xfr, nx);
	}
	if (ret < 0)
		c->nomem = true;
}

bool csv_wants_symbols(const struct csv_ctx *c)
{
	return c->want[CSV_SAMPLES] || c->want[CSV_PROCESSES] || c->want[CSV_FUNCTIONS] ||
	       c->want[CSV_LINES] || c->want[CSV_FOLDED];
}

void csv_record(struct csv_ctx *c, const struct pd_record *rec)
{
	/* the stats table's samples and period per event (records by type: d->types) */
	bool counts = c->want[CSV_STATS];

	if (c->want[CSV_RECORDS])
		records_row(c, rec);
	if (!rec->decoded)
		return;

	switch (rec->type) {
	case PD_REC_SAMPLE:
		/* a sample without its attr has no event: nothing to charge it to */
		if (rec->event_index >= 0 && (counts || csv_wants_symbols(c))) {
			struct csv_evsum *es = evsum(c, &c->ev, rec->event_index);

			if (es)
				es->bytes += rec->size;
			sample_record(c, rec);
		}
		break;
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
		if (c->want[CSV_MMAPS])
			mmaps_row(c, rec);
		break;
	case PD_REC_COMM:
		if (c->want[CSV_COMMS])
			comms_row(c, rec);
		break;
	case PD_REC_LOST:
	case PD_REC_LOST_SAMPLES:
		if (c->want[CSV_LOST])
			lost_row(c, rec);
		break;
	case PD_REC_SWITCH:
	case PD_REC_SWITCH_CPU_WIDE:
		if (c->want[CSV_SWITCHES])
			switches_row(c, rec);
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------------ final tables */

/* a row of the stats table for a record type: its records and bytes */
static void type_row(const struct type_count *n, void *arg)
{
	struct csv_ctx *c = arg;
	struct csv_out *o = &c->out[CSV_STATS];
	char tbuf[24];

	csv_str(o, tool_type_name(n->type, tbuf, sizeof(tbuf)));
	csv_empty(o);
	csv_u64(o, n->records);
	csv_u64(o, n->bytes);
	if (n->type == PD_REC_SAMPLE) {
		uint64_t samples = 0, period = 0;
		size_t e;

		for (e = 0; e < c->ev.nr; e++) {
			samples += c->ev.v[e].samples;
			period += c->ev.v[e].period;
		}
		csv_u64(o, samples);
		csv_u64(o, period);
	} else {
		csv_empty(o);
		csv_empty(o);
	}
	csv_eol(o);
}

static void write_stats(struct csv_ctx *c)
{
	struct csv_out *o = &c->out[CSV_STATS];
	size_t i;

	type_counts_each(c->types, type_row, c);
	if (c->types->overflow.records) {
		csv_str(o, "UNKNOWN_OTHER");
		csv_empty(o);
		csv_u64(o, c->types->overflow.records);
		csv_u64(o, c->types->overflow.bytes);
		csv_empty(o);
		csv_empty(o);
		csv_eol(o);
	}
	/* then one SAMPLE row per event, in attr order */
	for (i = 0; i < pd_reader_nr_events(c->r); i++) {
		const struct csv_evsum *es = i < c->ev.nr ? &c->ev.v[i] : NULL;

		csv_str(o, "SAMPLE");
		csv_str(o, event_name(c, (int)i));
		csv_u64(o, es ? es->samples : 0);
		csv_u64(o, es ? es->bytes : 0);
		csv_u64(o, es ? es->samples : 0);
		csv_u64(o, es ? es->period : 0);
		csv_eol(o);
	}
}

static void proc_row(struct csv_ctx *c, const struct pd_sym_process *p, const char *comms, int ev,
		     const struct pd_sym_count *n)
{
	struct csv_out *o = &c->out[CSV_PROCESSES];

	csv_i64(o, p->pid);
	if (p->has_ppid)
		csv_i64(o, p->ppid);
	else
		csv_empty(o);
	csv_str(o, p->comm);
	csv_str(o, comms);
	if (p->has_fork)
		csv_u64(o, p->fork_time);
	else
		csv_empty(o);
	if (p->has_exit)
		csv_u64(o, p->exit_time);
	else
		csv_empty(o);
	csv_u64(o, p->mmaps);
	csv_u64(o, p->threads);
	csv_str(o, ev >= 0 ? event_name(c, ev) : "");
	csv_u64(o, n ? n->samples : 0);
	csv_u64(o, n ? n->period : 0);
	csv_eol(o);
}

/* One process of the machine's table: a row per event it has samples of. */
static void process_rows(void *arg, const struct pd_sym_process *p)
{
	struct csv_ctx *c = arg;
	size_t len = 0, need = 1, e;
	uint32_t k;
	bool any = false;

	for (k = 0; k < p->nr_comms; k++)
		need += strlen(p->comms[k]) + 1;
	need += 4;	/* "...;" */
	if (!ensure_scratch(c, need))
		return;
	for (k = 0; k < p->nr_comms; k++) {
		size_t l = strlen(p->comms[k]);

		if (k)
			c->scratch[len++] = ';';
		if (p->comms_elided && k == p->nr_comms - 1) {
			memcpy(c->scratch + len, "...;", 4);
			len += 4;
		}
		memcpy(c->scratch + len, p->comms[k], l);
		len += l;
	}
	c->scratch[len] = '\0';
	for (e = 0; e < p->nr_counts; e++) {
		if (!p->counts[e].samples)
			continue;
		proc_row(c, p, c->scratch, (int)e, &p->counts[e]);
		any = true;
	}
	if (!any)
		proc_row(c, p, c->scratch, -1, NULL);
}

static int func_cmp(const void *a, const void *b)
{
	const struct func *x = *(const struct func *const *)a;
	const struct func *y = *(const struct func *const *)b;
	int r;

	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	if (x->self_samples != y->self_samples)
		return x->self_samples > y->self_samples ? -1 : 1;
	if (x->total_samples != y->total_samples)
		return x->total_samples > y->total_samples ? -1 : 1;
	r = strcmp(x->dso_name ? x->dso_name : "", y->dso_name ? y->dso_name : "");
	if (r)
		return r;
	r = strcmp(x->name->chain, y->name->chain);
	if (r)
		return r;
	return x->sym_start < y->sym_start ? -1 : x->sym_start > y->sym_start;
}

/* The file a function is defined in: the outermost entry of its source position. */
static const char *func_srcfile(struct csv_ctx *c, const struct func *fn)
{
	struct pd_sym_srcline sl;

	if (!c->srcline || !fn->sym || !fn->frame.has_map)
		return NULL;
	if (pd_machine_srcline(c->m, &fn->frame, &sl) <= 0 || !sl.nr)
		return NULL;
	/* an inlined function: the position inside it (innermost first, as its chain) */
	if (fn->depth >= 0)
		return (unsigned int)fn->depth < sl.nr ? sl.pos[fn->depth].file : NULL;
	return sl.pos[sl.nr - 1].file;
}

static void functions_row(struct csv_ctx *c, const void *entry)
{
	const struct func *fn = entry;
	struct csv_out *o = &c->out[CSV_FUNCTIONS];

	csv_str(o, event_name(c, fn->ev));
	csv_str(o, fn->dso_name ? fn->dso_name : "[unknown]");
	csv_str(o, fn->sym ? fn->sym : "[unknown]");
	if (fn->sym)
		csv_hex(o, fn->sym_start);
	else
		csv_empty(o);
	csv_u64(o, fn->self_samples);
	csv_u64(o, fn->self_period);
	csv_u64(o, fn->total_samples);
	csv_u64(o, fn->total_period);
	csv_str(o, func_srcfile(c, fn));
	csv_eol(o);
}

static int line_cmp(const void *a, const void *b)
{
	const struct line_agg *x = *(const struct line_agg *const *)a;
	const struct line_agg *y = *(const struct line_agg *const *)b;
	int r;

	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	r = strcmp(x->file, y->file);
	if (r)
		return r;
	return x->line < y->line ? -1 : x->line > y->line;
}

static void lines_row(struct csv_ctx *c, const void *entry)
{
	const struct line_agg *la = entry;
	struct csv_out *o = &c->out[CSV_LINES];

	csv_str(o, event_name(c, la->ev));
	csv_str(o, la->file);
	if (la->file[0])
		csv_u64(o, la->line);
	else
		csv_empty(o);
	csv_u64(o, la->samples);
	csv_u64(o, la->period);
	csv_eol(o);
}

struct folded_line {
	char *s;
	size_t len;
	uint64_t count;
};

static int folded_cmp(const void *a, const void *b)
{
	const struct folded_line *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int r = memcmp(x->s, y->s, n);

	if (r)
		return r;
	return x->len < y->len ? -1 : x->len > y->len;
}

/*
 * stackcollapse-perf prints its stacks sorted bytewise; so do we, which
 * makes the file diffable against its output.
 */
static void write_folded(struct csv_ctx *c)
{
	struct csv_out *o = &c->out[CSV_FOLDED];
	struct stack **v = (struct stack **)hmap_items(&c->folded);
	struct folded_line *lines;
	struct arena a = { 0 };
	size_t i, k;

	if (!c->folded.nr)
		return;
	lines = calloc(c->folded.nr, sizeof(*lines));
	if (!v || !lines)
		goto nomem;
	for (i = 0; i < c->folded.nr; i++) {
		const struct stack *st = v[i];
		size_t cap = 0, len = 0;
		char *s;

		for (k = 0; k < st->n; k++)
			cap += 3 * strlen(st->names[k]) + 1;
		s = arena_alloc(&a, cap + 1);
		if (!s)
			goto nomem;
		for (k = 0; k < st->n; k++) {
			if (k)
				s[len++] = ';';
			csv_utf8_append(s, cap, &len, st->names[k], strlen(st->names[k]));
		}
		lines[i].s = s;
		lines[i].len = len;
		lines[i].count = c->folded_period ? st->period : st->samples;
	}
	qsort(lines, c->folded.nr, sizeof(*lines), folded_cmp);
	for (i = 0; i < c->folded.nr; i++) {
		char num[24];
		size_t n;

		csv_raw(o, lines[i].s, lines[i].len);
		num[0] = ' ';
		n = 1 + fmt_u64(num + 1, lines[i].count);
		num[n++] = '\n';
		csv_raw(o, num, n);
	}
	goto out;
nomem:
	c->nomem = true;
out:
	arena_free(&a);
	free(lines);
	free(v);
}

void csv_finish(struct csv_ctx *c)
{
	csv_samples_stop(c);
	if (c->want[CSV_STATS])
		write_stats(c);
	if (c->want[CSV_PROCESSES])
		if (pd_machine_processes(c->m, process_rows, c) < 0)
			c->nomem = true;
	if (c->want[CSV_FUNCTIONS])
		write_sorted(c, &c->funcs, func_cmp, functions_row);
	if (c->want[CSV_LINES])
		write_sorted(c, &c->lines, line_cmp, lines_row);
	if (c->want[CSV_FOLDED])
		write_folded(c);
}

int csv_ctx_init(struct csv_ctx *c)
{
	c->folded_ev = -1;
	return 0;
}

void csv_ctx_free(struct csv_ctx *c)
{
	csv_samples_stop(c);
	free(c->ev.v);
	hmap_free(&c->names);
	hmap_free(&c->funcs);
	hmap_free(&c->lines);
	hmap_free(&c->sites);
	free(c->inl_names);
	hmap_free(&c->folded);
	str_pool_free(&c->str);
	arena_free(&c->arena);
	pd_members_free(c->members);
	pd_frame_cache_free(c->fc);
	free(c->scratch);
}
