// SPDX-License-Identifier: MIT
/*
 * pprof_prof.c - samples aggregated by stack into pprof's profile model,
 * written as a gzip-compressed perftools.profiles.Profile.
 *
 * Model (schema/profile.proto):
 *   mapping   one per (DSO, start, end, file offset) that a frame hit
 *   location  one per (mapping, address): its lines are the functions at
 *             that address, inlined ones first, from debug info; for a
 *             frame found by DWARF unwinding, the inline frames perf
 *             shows (pd_machine_inline_frames(), as every output)
 *   function  one per symbol (DSO, name, start), and one per inlined
 *             function (name, source file)
 *   sample    one per (event, stack, pid, tid, comm): its values are the
 *             sample count and the summed period in the event's column
 *
 * Stacks come from the symbolizer's one stack walk,
 * pd_machine_sample_stack(), which to-csv's tables use too.
 *
 * The message is written in pieces: serialized Profile messages
 * concatenate into one whose repeated fields are the pieces' fields in
 * order (the protobuf merge rule), so each sample, location, ... is
 * encoded on its own (samples and locations by hand, the rest by
 * libprotobuf-c) and goes straight into the gzip stream; nothing holds
 * the whole message.  Locations go out as they are found, the rest at
 * the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../common/fmt_num.h"
#include "../common/grow.h"
#include "batch_pipe.h"
#include "hmap.h"
#include "pprof/pprof_prof.h"
#include "proto_wire.h"
#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_value_type;

/* perf_event_attr.type and the software events counting nanoseconds */
#define ATTR_TYPE_SOFTWARE	1
#define SW_CPU_CLOCK		0
#define SW_TASK_CLOCK		1

/* indexes of the strings every profile has (added first, in this order) */
enum { STR_EMPTY, STR_PID, STR_TID, STR_COMM, STR_SAMPLES, STR_COUNT, STR_NANOSECONDS };

struct pp_str {
	uint64_t idx;
	uint32_t len;
	char s[];
};

struct pp_mapping {
	uint64_t id;
	const struct pd_dso *dso;
	uint64_t start, end, pgoff;
	uint64_t filename, build_id;
	/* how many of its locations carry functions, files, lines; all of them? */
	uint64_t nr_locs, with_func, with_file, with_line, with_inline_info;
};

struct pp_line {
	uint64_t function_id;
	int64_t line;
};

/* A location written already: its key and id, in an open-addressing table. */
struct loc_slot {
	uint64_t address;
	const char *sym;
	uint32_t map_key;	/* mapping id (0: in none) | LOC_UNWOUND */
	uint32_t id;		/* 0: free slot */
};

/* direct-mapped cache of comm string indexes (comm_idx()) */
#define COMM_BITS	10
#define COMM_SLOTS	(1u << COMM_BITS)

/* in a location's key: an unwound frame's, whose lines are perf's inline frames */
#define LOC_UNWOUND	0x80000000u

struct pp_func {
	uint64_t id;
	const void *dso;	/* symbol functions: their DSO; inlined ones: NULL */
	const char *sym;
	uint64_t sym_start;
	uint64_t name, filename;	/* string indexes */
	uint64_t system_name;		/* the mangled name, else name */
};

struct pp_stack {
	uint64_t count, period;
	int32_t pid, tid;
	uint32_t comm;		/* string index */
	uint32_t ev;
	bool has_tid;
	uint8_t n;		/* at most PD_SYM_MAX_STACK */
	uint32_t loc[];		/* location ids, innermost first */
};

/*
 * Memory for stacks before they are moved to the spill file: the input
 * may have more distinct (stack, thread) pairs than fit in the memory a
 * converter may use.  Each spill writes the aggregated stacks to an
 * unnamed temporary file and starts again; the file is read back when the
 * profile is written, so a stack seen in two windows becomes two samples,
 * which pprof adds up.
 */
#define STACK_BUDGET	(4u << 20)

/*
 * PERFCONV_PPROF_BUDGET=BYTES lowers both budgets (never raises them): the
 * tests make small inputs go through the spill file and the early
 * location writes with it.
 */
#define BUDGET_ENV	"PERFCONV_PPROF_BUDGET"

/*
 * Locations are written to the profile (which takes them in any order)
 * when first seen; their keys are kept in a table of at most this many
 * bytes, and when it is full it is emptied, so that an address seen again
 * becomes a new location.
 */
#define LOC_BUDGET	(2u << 20)

/*
 * The spilled stacks as the Sample messages they become, deflated by the
 * aggregating thread as it spills them (into one raw deflate stream in a
 * second temporary file), so that writing the profile copies them instead
 * of encoding and deflating them all at the end, when nothing else is
 * left to do on the other threads.  An encoded Sample has a value column
 * per event with samples: the columns are those of the events seen until
 * the first spill, and they stand only when no other event has samples
 * after it (else the samples come from the spill file as before).
 */
#define ZSPILL_BUF	(256u << 10)

struct zspill {
	z_stream z;
	bool ready;		/* z initialized */
	bool off;		/* a failure, or columns that moved: not used */
	FILE *f;
	uint32_t crc;		/* of the encoded bytes, and how many */
	uint64_t len;
	uint8_t *seen;		/* by event index: has samples */
	uint32_t *col;		/* by event index: its column, from the first spill */
	size_t nr_seen, nt;	/* room in seen and col; columns (1 + events seen) */
	uint8_t *buf;		/* encoded, not deflated yet */
	size_t buf_len, buf_cap;
	unsigned char out[64u << 10];
};

struct pp_ev {
	uint64_t samples;
	int type_idx;		/* column of Sample.value, 0 until written */
};

struct pp_prof {
	struct pd_machine *m;
	bool srcline;
	struct arena arena;
	struct hmap strs, mappings, sym_funcs, inl_funcs, stacks;
	/* strings, functions and locations by id - 1, in the order written */
	struct pp_str **str_by_idx;
	size_t nr_strs, cap_strs;
	struct pp_func **funcs;
	size_t nr_funcs, cap_funcs;
	struct loc_slot *loc_tab;
	size_t loc_cap, nr_loc_tab;
	uint64_t next_loc_id;
	struct gz_buf *gz;		/* the output, open from the start */
	uint64_t stack_budget, loc_budget;
	struct pp_mapping **map_list;
	size_t nr_maps, cap_maps;
	struct batch_pipe agg;		/* stacks to the aggregating thread */
	int agg_err, agg_errno;		/* its failure */
	struct pp_stack **stack_list;	/* in the order first seen */
	size_t nr_stacks, cap_stacks;
	struct arena stack_arena;
	FILE *spill;			/* NULL until the first spill */
	bool spill_failed;
	struct zspill *zs;		/* the spilled samples encoded and deflated */
	struct pd_frame_cache *fc;	/* resolved frames: location ids */
	struct pd_frame_ref refs[PD_SYM_MAX_STACK];
	/*
	 * String indexes of comms by their pointer: the machine interns its
	 * comms for its lifetime, so one pointer is one string, and samples
	 * of the threads running at a time repeat a few of them.
	 */
	struct comm_slot {
		const char *comm;
		uint64_t idx;
	} comm_cache[COMM_SLOTS];
	struct pp_ev *ev;
	size_t nr_ev;
	uint64_t first_time, last_time;
	bool have_time;
};

/* ------------------------------------------------------------ strings */

struct str_key {
	const char *s;
	size_t len;
};

static bool str_eq(const void *item, const void *key)
{
	const struct pp_str *a = item;
	const struct str_key *k = key;

	return a->len == k->len && !memcmp(a->s, k->s, k->len);
}

/* Index of s[0..len) in the string table, added when new; -1 when out of memory. */
static int64_t str_idx_n(struct pp_prof *p, const char *s, size_t len)
{
	struct str_key k = { s, len };
	uint64_t h = hash_bytes(s, len, 3);
	struct pp_str *e = hmap_find(&p->strs, h, str_eq, &k);

	if (e)
		return (int64_t)e->idx;
	if (len > UINT32_MAX || !grow_array(&p->str_by_idx, &p->cap_strs, p->nr_strs + 1,
				      sizeof(*p->str_by_idx)))
		return -1;
	e = arena_alloc(&p->arena, sizeof(*e) + len + 1);
	if (!e || hmap_add(&p->strs, h, e))
		return -1;
	memcpy(e->s, s, len);
	e->len = (uint32_t)len;
	e->idx = p->nr_strs;
	p->str_by_idx[p->nr_strs++] = e;
	return (int64_t)e->idx;
}

static int64_t str_idx(struct pp_prof *p, const char *s)
{
	return str_idx_n(p, s ? s : "", s ? strlen(s) : 0);
}

/* ------------------------------------------------------------ mappings */

/*
 * One mapping per DSO segment (DSO, file offset, length), wherever and in
 * how many processes it was mapped: the first place it was seen stands for
 * all, and addresses of the others are moved there.  Profiles of many
 * processes then share their locations, and pprof reads one mapping per
 * file instead of one per process.
 */
struct map_key {
	const struct pd_dso *dso;
	uint64_t pgoff, len;
};

static bool map_eq(const void *item, const void *key)
{
	const struct pp_mapping *a = item;
	const struct map_key *k = key;

	return a->dso == k->dso && a->pgoff == k->pgoff && a->end - a->start == k->len;
}

/* The DSO's build id as lower-case hex, "" when unknown. */
static int64_t build_id_idx(struct pp_prof *p, const struct pd_dso *dso)
{
	char buf[2 * 64 + 1];
	const uint8_t *id;
	size_t size = 0;

	id = dso ? pd_dso_build_id(dso, &size) : NULL;
	if (!id || !size)
		return STR_EMPTY;
	if (size > 64)
		size = 64;
	return str_idx_n(p, buf, fmt_hex_bytes(buf, id, size));
}

static struct pp_mapping *mapping_of(struct pp_prof *p, const struct pd_sym_frame *f)
{
	struct map_key k = { f->dso, f->map_pgoff, f->map_end - f->map_start };
	uint64_t h = hash_ptr(k.dso, hash_u64(k.pgoff, k.len));
	struct pp_mapping *mp = hmap_find(&p->mappings, h, map_eq, &k);
	const char *name;
	int64_t fn, bid;

	if (mp)
		return mp;
	/* the file it stands for; the kernel and modules by perf's names */
	name = f->dso_path;
	if (f->dso_kind == PD_DSO_KERNEL || f->dso_kind == PD_DSO_MODULE || !name)
		name = f->dso_short ? f->dso_short : f->dso_name;
	fn = str_idx(p, name);
	bid = build_id_idx(p, f->dso);
	if (fn < 0 || bid < 0 ||
	    !grow_array(&p->map_list, &p->cap_maps, p->nr_maps + 1, sizeof(*p->map_list)))
		return NULL;
	mp = arena_alloc(&p->arena, sizeof(*mp));
	if (!mp || hmap_add(&p->mappings, h, mp))
		return NULL;
	mp->id = p->nr_maps + 1;
	mp->dso = k.dso;
	mp->start = f->map_start;
	mp->end = f->map_end;
	mp->pgoff = k.pgoff;
	mp->filename = (uint64_t)fn;
	mp->build_id = (uint64_t)bid;
	p->map_list[p->nr_maps++] = mp;
	return mp;
}

/* ------------------------------------------------------------ functions */

struct func_key {
	const void *dso;
	const char *sym;
	uint64_t sym_start;
	uint64_t name, filename;
};

static bool sym_func_eq(const void *item, const void *key)
{
	const struct pp_func *a = item;
	const struct func_key *k = key;

	return a->dso == k->dso && a->sym == k->sym && a->sym_start == k->sym_start;
}

static bool inl_func_eq(const void *item, const void *key)
{
	const struct pp_func *a = item;
	const struct func_key *k = key;

	return a->system_name == k->name && a->filename == k->filename;
}

static struct pp_func *func_new(struct pp_prof *p, struct hmap *map, uint64_t h,
				const struct func_key *k)
{
	struct pp_func *fn;

	if (!grow_array(&p->funcs, &p->cap_funcs, p->nr_funcs + 1, sizeof(*p->funcs)))
		return NULL;
	fn = arena_alloc(&p->arena, sizeof(*fn));
	if (!fn || hmap_add(map, h, fn))
		return NULL;
	fn->id = p->nr_funcs + 1;
	fn->dso = k->dso;
	fn->sym = k->sym;
	fn->sym_start = k->sym_start;
	fn->name = k->name;
	fn->system_name = k->name;
	fn->filename = k->filename;
	p->funcs[p->nr_funcs++] = fn;
	return fn;
}

/*
 * The function of a frame's symbol: one per (DSO, symbol), as to-csv's
 * functions table counts them.  Its source file is the first one debug
 * info names for it.
 */
static struct pp_func *sym_func(struct pp_prof *p, const struct pd_sym_frame *f, const char *file)
{
	struct func_key k = { f->has_map ? (const void *)f->dso : NULL, f->sym, f->sym_start, 0, 0 };
	uint64_t h = hash_ptr(k.dso, hash_ptr(k.sym, k.sym_start));
	struct pp_func *fn = hmap_find(&p->sym_funcs, h, sym_func_eq, &k);
	int64_t s;

	if (!fn) {
		s = str_idx(p, f->sym);
		if (s < 0)
			return NULL;
		k.name = (uint64_t)s;
		fn = func_new(p, &p->sym_funcs, h, &k);
		if (!fn)
			return NULL;
	}
	if (!fn->filename && file && *file) {
		s = str_idx(p, file);
		if (s < 0)
			return NULL;
		fn->filename = (uint64_t)s;
	}
	return fn;
}

/*
 * An inlined function: by name and source file.  The names of source
 * positions are those of the debug info, mangled where the language
 * mangles them: the function is named as perf prints it (demangled, as
 * the inline frames of unwound stacks and the symbols are), its
 * system_name keeps the mangled name.
 */
static struct pp_func *inline_func(struct pp_prof *p, const char *name, const char *file)
{
	struct func_key k = { NULL, NULL, 0, 0, 0 };
	int64_t n = str_idx(p, name ? name : "??"), fl = str_idx(p, file), shown;
	struct pp_func *fn;
	char *dm;
	uint64_t h;

	if (n < 0 || fl < 0)
		return NULL;
	k.name = (uint64_t)n;
	k.filename = (uint64_t)fl;
	h = hash_u64(k.name, k.filename);
	fn = hmap_find(&p->inl_funcs, h, inl_func_eq, &k);
	if (fn)
		return fn;
	fn = func_new(p, &p->inl_funcs, h, &k);
	dm = fn && name ? pd_sym_demangle(name) : NULL;
	if (dm) {
		shown = str_idx(p, dm);
		free(dm);
		if (shown < 0)
			return NULL;
		fn->name = (uint64_t)shown;
	}
	return fn;
}

/* ------------------------------------------------------------ locations */

static bool write_location(struct gz_buf *g, uint64_t id, uint64_t mapping_id,
			   uint64_t address, const struct pp_line *lines, size_t nr_lines);

static inline uint64_t loc_hash(uint32_t map_key, uint64_t address, const char *sym)
{
	return hash_ptr(sym, hash_u64(address, map_key));
}

/*
 * The lines of an unwound frame: the frames perf shows for it
 * (pd_machine_inline_frames(), as every other output), innermost first,
 * with the source lines of the same scopes where debug info has them.
 * Returns how many, 0 when the frame stands as it is, -1 when out of
 * memory.
 */
static int loc_inline_lines(struct pp_prof *p, struct pp_mapping *mp,
			    const struct pd_sym_frame *f, struct pp_line *lines)
{
	struct pd_sym_inline in[PD_SYM_MAX_INLINE + 1];
	struct pd_sym_srcline sl;
	struct pp_func *fn;
	size_t n = pd_machine_inline_frames(p->m, f, in, PD_SYM_MAX_INLINE + 1), i;

	if (!n)
		return 0;
	/* both walk the same DWARF scopes: the positions pair up when the counts do */
	sl.nr = 0;
	if (p->srcline && (pd_machine_srcline(p->m, f, &sl) <= 0 || sl.nr != n))
		sl.nr = 0;
	for (i = 0; i < n; i++) {
		const char *file = sl.nr ? sl.pos[i].file : NULL;

		fn = in[i].inlined ? inline_func(p, in[i].name, file) : sym_func(p, f, file);
		if (!fn)
			return -1;
		lines[i].function_id = fn->id;
		lines[i].line = sl.nr ? sl.pos[i].line : 0;
	}
	if (mp) {
		mp->with_func++;
		if (sl.nr && sl.pos[n - 1].file && sl.pos[n - 1].file[0])
			mp->with_file++;
		if (sl.nr && sl.pos[n - 1].line)
			mp->with_line++;
		mp->with_inline_info++;
	}
	return (int)n;
}

/*
 * The lines of a new location: the functions at its address, innermost
 * inlined one first and the symbol's own function last, with source lines
 * where debug info has them; none when no symbol covers the address.  An
 * unwound frame has perf's inline frames; others, with source lines, the
 * inlined functions of the debug info.
 * Returns how many (at most PD_SYM_MAX_INLINE + 1), -1 when out of memory.
 */
static int loc_lines(struct pp_prof *p, struct pp_mapping *mp, const struct pd_sym_frame *f,
		     struct pp_line *lines)
{
	struct pd_sym_srcline sl;
	struct pp_func *fn;
	unsigned int i;
	int ret;

	sl.nr = 0;
	if (!f->sym)
		return 0;
	ret = loc_inline_lines(p, mp, f, lines);
	if (ret)
		return ret;
	if (p->srcline && f->has_map && pd_machine_srcline(p->m, f, &sl) <= 0)
		sl.nr = 0;
	if (sl.nr > PD_SYM_MAX_INLINE + 1)
		sl.nr = PD_SYM_MAX_INLINE + 1;
	if (!sl.nr) {
		fn = sym_func(p, f, NULL);
		if (!fn)
			return -1;
		lines[0].function_id = fn->id;
		lines[0].line = 0;
	}
	for (i = 0; i < sl.nr; i++) {
		const struct pd_sym_srcpos *sp = &sl.pos[i];

		if (i + 1 < sl.nr)
			fn = inline_func(p, sp->func, sp->file);
		else
			fn = sym_func(p, f, sp->file);
		if (!fn)
			return -1;
		lines[i].function_id = fn->id;
		lines[i].line = sp->line;
	}
	if (mp) {
		mp->with_func++;
		/* "": an unnamed STT_FILE symbol, which names no file */
		if (sl.nr && sl.pos[sl.nr - 1].file && sl.pos[sl.nr - 1].file[0])
			mp->with_file++;
		if (sl.nr && sl.pos[sl.nr - 1].line)
			mp->with_line++;
		/*
		 * debug info of the address: its inlined functions are known (a
		 * file from the ELF symbols says nothing of them)
		 */
		if (sl.nr && !sl.from_symtab)
			mp->with_inline_info++;
	}
	return sl.nr ? (int)sl.nr : 1;
}

/*
 * Forget every location of the table: they are in the output already, and
 * the frame cache keeps the ids it has; an address seen again becomes a
 * new location (pprof takes both).
 */
static void loc_table_clear(struct pp_prof *p)
{
	memset(p->loc_tab, 0, p->loc_cap * sizeof(*p->loc_tab));
	p->nr_loc_tab = 0;
}

/* Make room for one more location in the table.  false when out of memory. */
static bool loc_table_room(struct pp_prof *p)
{
	struct loc_slot *nt;
	size_t ncap, i, j;

	/* at most three quarters full: probe sequences stay short */
	if ((p->nr_loc_tab + 1) * 4 <= p->loc_cap * 3)
		return true;
	/* from small: a tiny budget (PERFCONV_PPROF_BUDGET) makes it start again soon */
	ncap = p->loc_cap ? 2 * p->loc_cap : 16;
	if (ncap * sizeof(*nt) > p->loc_budget && p->loc_cap) {
		loc_table_clear(p);
		return true;
	}
	nt = calloc(ncap, sizeof(*nt));
	if (!nt)
		return false;
	for (i = 0; i < p->loc_cap; i++) {
		const struct loc_slot *e = &p->loc_tab[i];

		if (!e->id)
			continue;
		for (j = loc_hash(e->map_key, e->address, e->sym) & (ncap - 1); nt[j].id;
		     j = (j + 1) & (ncap - 1))
			;
		nt[j] = *e;
	}
	free(p->loc_tab);
	p->loc_tab = nt;
	p->loc_cap = ncap;
	return true;
}

/*
 * The location id of a resolved frame: one per (mapping, address, symbol)
 * while the table holds it.  A new location goes to the output at once,
 * so that only its key stays in memory.  0 when out of memory.
 */
static uint64_t loc_of(struct pp_prof *p, const struct pd_sym_frame *f, uint64_t *map_id)
{
	struct pp_mapping *mp = f->has_map && f->dso ? mapping_of(p, f) : NULL;
	struct pp_line lines[PD_SYM_MAX_INLINE + 1];
	uint64_t address = f->ip, mapping_id, h, id;
	uint32_t map_key;
	struct loc_slot *e;
	size_t i;
	int nl;

	if (f->has_map && f->dso && !mp)
		return 0;
	/* the address where the mapping that stands for this one has it */
	if (mp)
		address = f->ip - f->map_start + mp->start;
	mapping_id = mp ? mp->id : 0;
	if (mapping_id >= LOC_UNWOUND)
		return 0;
	*map_id = mapping_id;
	map_key = (uint32_t)mapping_id | (f->unwound ? LOC_UNWOUND : 0);
	h = loc_hash(map_key, address, f->sym);
	if (p->loc_cap) {
		for (i = h & (p->loc_cap - 1); p->loc_tab[i].id; i = (i + 1) & (p->loc_cap - 1)) {
			e = &p->loc_tab[i];
			if (e->address == address && e->map_key == map_key && e->sym == f->sym)
				return e->id;
		}
	}
	if (p->next_loc_id >= UINT32_MAX || !loc_table_room(p))
		return 0;
	nl = loc_lines(p, mp, f, lines);
	if (nl < 0)
		return 0;
	id = ++p->next_loc_id;
	if (mp)
		mp->nr_locs++;
	if (!write_location(p->gz, id, mapping_id, address, lines, (size_t)nl))
		return 0;
	for (i = h & (p->loc_cap - 1); p->loc_tab[i].id; i = (i + 1) & (p->loc_cap - 1))
		;
	e = &p->loc_tab[i];
	e->address = address;
	e->sym = f->sym;
	e->map_key = map_key;
	e->id = (uint32_t)id;
	p->nr_loc_tab++;
	return id;
}

/*
 * The location of a stack entry the frame cache did not know.  Its site
 * (the DSO and address, shared by every process mapping the DSO) keeps
 * the location id with the mapping and the offset inside the map that
 * the id stands for: where those are the same, so is the location
 * (mapping, address, symbol).  0 when out of memory.
 */
static uint32_t frame_loc(struct pp_prof *p, const struct pd_frame_ref *r)
{
	const struct pd_sym_frame *f = r->frame;
	uint64_t *site = r->site, map_id = 0, id;

	if (site && site[0]) {
		const struct pp_mapping *mp = p->map_list[(site[0] >> 32) - 1];

		if (site[1] == f->ip - f->map_start && mp->pgoff == f->map_pgoff &&
		    mp->end - mp->start == f->map_end - f->map_start)
			return (uint32_t)site[0];
	}
	id = loc_of(p, f, &map_id);
	if (id && site && map_id) {
		site[0] = map_id << 32 | id;
		site[1] = f->ip - f->map_start;
	}
	return (uint32_t)id;
}

/* ------------------------------------------------------------ samples */

struct stack_key {
	int ev;
	int32_t pid, tid;
	bool has_tid;
	uint32_t comm;
	uint32_t n;
	const uint32_t *loc;
};

static bool stack_eq(const void *item, const void *key)
{
	const struct pp_stack *a = item;
	const struct stack_key *k = key;

	return a->n == k->n && a->ev == (uint32_t)k->ev && a->pid == k->pid && a->tid == k->tid &&
	       a->has_tid == k->has_tid && a->comm == k->comm &&
	       !memcmp(a->loc, k->loc, k->n * sizeof(*k->loc));
}

static int64_t comm_idx(struct pp_prof *p, const char *comm)
{
	struct comm_slot *cs;
	int64_t i;

	if (!comm)
		return str_idx(p, comm);
	/* the high bits of one multiplication: interned strings are apart */
	cs = &p->comm_cache[(uint64_t)(uintptr_t)comm * 0x9e3779b97f4a7c15ULL >> (64 - COMM_BITS)];
	if (cs->comm == comm)
		return (int64_t)cs->idx;
	i = str_idx(p, comm);
	if (i >= 0) {
		cs->comm = comm;
		cs->idx = (uint64_t)i;
	}
	return i;
}

/* ------------------------------------------------------------ spill file */

static void zspill_add(struct pp_prof *p);
static void zspill_seen(struct pp_prof *p, uint32_t ev);

static bool get_varint(FILE *f, uint64_t *v)
{
	unsigned int shift = 0;
	int c;

	*v = 0;
	while ((c = getc_unlocked(f)) != EOF && shift < 64) {
		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

/*
 * Move every stack in memory to the spill file, one record each:
 * varints ev, pid, tid (as u32), has_tid, comm, n, n location ids, count,
 * period.  Returns 0, or PD_STATUS_IO (errno set) when the file cannot be
 * made or written.
 */
static int spill(struct pp_prof *p)
{
	uint8_t buf[16 * (8 + PD_SYM_MAX_STACK)], *e;
	size_t i, k, len;

	if (!p->spill) {
		p->spill = tmpfile();
		if (!p->spill) {
			p->spill_failed = true;
			return PD_STATUS_IO;
		}
	}
	zspill_add(p);
	for (i = 0; i < p->nr_stacks; i++) {
		const struct pp_stack *sk = p->stack_list[i];

		e = pw_put_varint(buf, sk->ev);
		e = pw_put_varint(e, (uint32_t)sk->pid);
		e = pw_put_varint(e, (uint32_t)sk->tid);
		e = pw_put_varint(e, sk->has_tid);
		e = pw_put_varint(e, sk->comm);
		e = pw_put_varint(e, sk->n);
		for (k = 0; k < sk->n; k++)
			e = pw_put_varint(e, sk->loc[k]);
		e = pw_put_varint(e, sk->count);
		e = pw_put_varint(e, sk->period);
		len = (size_t)(e - buf);
		if (fwrite(buf, 1, len, p->spill) != len) {
			p->spill_failed = true;
			return PD_STATUS_IO;
		}
	}
	/* the table keeps its size: the next window fills it as much */
	if (p->stacks.cap)
		memset(p->stacks.slots, 0, p->stacks.cap * sizeof(*p->stacks.slots));
	p->stacks.nr = 0;
	arena_free(&p->stack_arena);
	p->nr_stacks = 0;
	return 0;
}

/* The next spilled stack into *sk (room for PD_SYM_MAX_STACK); false at the end. */
static bool unspill(struct pp_prof *p, struct pp_stack *sk)
{
	uint64_t v[6], x;
	size_t i;

	for (i = 0; i < 6; i++)
		if (!get_varint(p->spill, &v[i]))
			return false;
	if (v[5] > PD_SYM_MAX_STACK)
		return false;
	sk->ev = (uint32_t)v[0];
	sk->pid = (int32_t)(uint32_t)v[1];
	sk->tid = (int32_t)(uint32_t)v[2];
	sk->has_tid = v[3];
	sk->comm = (uint32_t)v[4];
	sk->n = (uint8_t)v[5];
	for (i = 0; i < sk->n; i++) {
		if (!get_varint(p->spill, &x))
			return false;
		sk->loc[i] = (uint32_t)x;
	}
	return get_varint(p->spill, &sk->count) && get_varint(p->spill, &sk->period);
}

/*
 * Aggregation runs on a second thread while the first reads and resolves:
 * the first hands each sample's stack over as an agg_rec, and only the
 * second touches the stacks, their table and the spill file until
 * batch_pipe_finish().  Its failure (out of memory, the spill file) is
 * kept in agg_err / agg_errno and reported by pp_write().
 */
struct agg_rec {
	uint64_t period;
	uint32_t ev;
	int32_t pid, tid;
	uint32_t comm;
	bool has_tid;
	uint8_t n;
	uint16_t len;		/* of the whole record, a multiple of 8 */
	uint32_t loc[];
};

/*
 * The hash of a stack's key.  Two lanes of a multiply and rotate over the
 * location ids, eight bytes each, mixed at the end: hash_bytes() mixes
 * every eight bytes fully, one after the other, which cost the
 * aggregating thread more than its table lookups.  The hash only places
 * stacks in their table: the profile does not depend on it.
 */
static inline uint64_t stack_hash(const struct agg_rec *ar)
{
	const uint8_t *b = (const uint8_t *)ar->loc;
	size_t n = ar->n * sizeof(*ar->loc);
	uint64_t a = ((uint64_t)(uint32_t)ar->pid << 32 | (uint32_t)ar->tid) ^ 0x9e3779b97f4a7c15ULL;
	uint64_t c = ((uint64_t)ar->ev << 40 ^ ar->comm ^ (uint64_t)n << 32) + 0xc2b2ae3d27d4eb4fULL;
	uint64_t w0, w1;

	while (n >= 16) {
		memcpy(&w0, b, 8);
		memcpy(&w1, b + 8, 8);
		a = (a ^ w0) * 0xff51afd7ed558ccdULL;
		c = (c ^ w1) * 0xc4ceb9fe1a85ec53ULL;
		a = a << 29 | a >> 35;
		c = c << 31 | c >> 33;
		b += 16;
		n -= 16;
	}
	if (n >= 8) {
		memcpy(&w0, b, 8);
		a = (a ^ w0) * 0xff51afd7ed558ccdULL;
		a = a << 29 | a >> 35;
		b += 8;
		n -= 8;
	}
	if (n) {
		/* location ids are 4 bytes: one is left */
		uint32_t w;

		memcpy(&w, b, 4);
		c = (c ^ w) * 0xc4ceb9fe1a85ec53ULL;
	}
	return hash_u64(a ^ (c << 32 | c >> 32), c);
}

static int agg_add(struct pp_prof *p, const struct agg_rec *ar, uint64_t h)
{
	struct stack_key k;
	struct pp_stack *sk;

	k.ev = (int)ar->ev;
	k.pid = ar->pid;
	k.tid = ar->tid;
	k.has_tid = ar->has_tid;
	k.comm = ar->comm;
	k.n = ar->n;
	k.loc = ar->loc;
	if (ar->ev >= p->zs->nr_seen || !p->zs->seen[ar->ev])
		zspill_seen(p, ar->ev);
	sk = hmap_find(&p->stacks, h, stack_eq, &k);
	if (!sk) {
		if (!grow_array(&p->stack_list, &p->cap_stacks, p->nr_stacks + 1,
			  sizeof(*p->stack_list)))
			return PD_STATUS_NOMEM;
		if (p->stack_arena.total + p->stacks.cap * sizeof(*p->stacks.slots) +
		    p->cap_stacks * sizeof(*p->stack_list) >= p->stack_budget && spill(p))
			return PD_STATUS_IO;
		sk = arena_alloc(&p->stack_arena, sizeof(*sk) + ar->n * sizeof(*sk->loc));
		if (!sk || hmap_add(&p->stacks, h, sk))
			return PD_STATUS_NOMEM;
		p->stack_list[p->nr_stacks++] = sk;
		sk->ev = ar->ev;
		sk->pid = ar->pid;
		sk->tid = ar->tid;
		sk->has_tid = ar->has_tid;
		sk->comm = ar->comm;
		sk->n = ar->n;
		memcpy(sk->loc, ar->loc, ar->n * sizeof(*sk->loc));
	}
	sk->count++;
	sk->period += ar->period;
	return 0;
}

/*
 * Records of a batch taken together: their hashes first, the table
 * slots they land on asked for, then the stacks those slots point to,
 * so that the cache misses of a group overlap instead of coming one
 * after the other.
 */
#define AGG_GROUP	16

/* The second thread's work: a batch of agg_rec. */
static void agg_batch(void *arg, const unsigned char *data, size_t len)
{
	struct pp_prof *p = arg;
	const struct agg_rec *group[AGG_GROUP];
	uint64_t hash[AGG_GROUP];
	size_t off = 0, n, i;
	int ret;

	while (!p->agg_err && len - off >= sizeof(struct agg_rec)) {
		const struct hmap *m = &p->stacks;

		for (n = 0; n < AGG_GROUP && len - off >= sizeof(struct agg_rec); n++) {
			const struct agg_rec *ar = (const void *)(data + off);

			group[n] = ar;
			hash[n] = stack_hash(ar);
			if (m->cap)
				__builtin_prefetch(&m->slots[hash[n] & (m->cap - 1)]);
			off += ar->len;
		}
		if (m->cap) {
			for (i = 0; i < n; i++) {
				const struct hmap_slot *sl = &m->slots[hash[i] & (m->cap - 1)];

				if (sl->item)
					__builtin_prefetch(sl->item);
			}
		}
		for (i = 0; i < n && !p->agg_err; i++) {
			ret = agg_add(p, group[i], hash[i]);
			if (ret) {
				p->agg_errno = errno;
				p->agg_err = ret;
			}
		}
	}
}

/* The aggregation's status once the second thread is idle: 0, or its failure. */
static int agg_status(struct pp_prof *p)
{
	if (p->agg_err == PD_STATUS_IO)
		errno = p->agg_errno;
	return p->agg_err;
}

int pp_sample(struct pp_prof *p, const struct pd_record *rec, int ev, uint64_t period)
{
	const struct pd_sample *s = &rec->u.sample;
	struct pd_sym_ip st[PD_SYM_MAX_STACK];
	struct stack_key k = { 0 };
	struct agg_rec *ar;
	size_t ar_len;
	int64_t comm;
	size_t n, i;

	if (ev < 0 || rec->type != PD_REC_SAMPLE || !rec->decoded)
		return 0;
	if (!grow_array(&p->ev, &p->nr_ev, (size_t)ev + 1, sizeof(*p->ev)))
		return PD_STATUS_NOMEM;
	k.pid = k.tid = -1;
	if (s->sample_type & PD_SAMPLE_TID) {
		k.pid = (int32_t)s->pid;
		k.tid = (int32_t)s->tid;
		k.has_tid = true;
	}
	n = pd_machine_sample_stack(p->m, rec, PD_STACK_REPORT, st, PD_SYM_MAX_STACK);
	if (pd_frame_cache_stack(p->fc, k.pid, k.tid, st, n, p->refs) < n)
		return PD_STATUS_NOMEM;
	/* the location ids go straight into the record (it counts once committed) */
	ar_len = (sizeof(*ar) + n * sizeof(*ar->loc) + 7) & ~(size_t)7;
	ar = batch_pipe_reserve(&p->agg, ar_len);
	for (i = 0; i < n; i++) {
		uint64_t *v = p->refs[i].value;

		if (!v[0]) {
			v[0] = frame_loc(p, &p->refs[i]);
			if (!v[0])
				return PD_STATUS_NOMEM;
		}
		ar->loc[i] = (uint32_t)v[0];
	}
	comm = comm_idx(p, pd_machine_comm(p->m, k.pid, k.tid));
	if (comm < 0 || comm > UINT32_MAX)
		return PD_STATUS_NOMEM;
	ar->period = period;
	ar->ev = (uint32_t)ev;
	ar->pid = k.pid;
	ar->tid = k.tid;
	ar->comm = (uint32_t)comm;
	ar->has_tid = k.has_tid;
	ar->n = (uint8_t)n;
	ar->len = (uint16_t)ar_len;
	batch_pipe_commit(&p->agg, ar_len);
	p->ev[ev].samples++;
	if (s->sample_type & PD_SAMPLE_TIME) {
		if (!p->have_time || s->time < p->first_time)
			p->first_time = s->time;
		if (!p->have_time || s->time > p->last_time)
			p->last_time = s->time;
		p->have_time = true;
	}
	return 0;
}

/* ------------------------------------------------------------ gzip output */

#define GZ_CHUNK (64u * 1024)

/*
 * Serialized bytes are gathered in batches of BATCH_PIPE_BATCH bytes and
 * deflated by a second thread while the first goes on reading and
 * resolving (the locations, written as they are found) or encoding (the
 * samples, at the end): deflate takes about as long as everything else
 * in writing the profile.  protobuf-c appends a message a few bytes at a
 * call, and deflate() and its checksum cost as much per call as per byte
 * at that size: batches avoid that too.  The encoders of samples and
 * locations put their bytes straight into the batch.
 *
 * The deflate state, the output sink and `failed` belong to the second
 * thread between batch_pipe_start() and batch_pipe_finish(), except after
 * a batch_pipe_sync().
 */

/* A protobuf-c output buffer that deflates into the output file. */
struct gz_buf {
	ProtobufCBuffer base;
	z_stream z;
	struct out_sink *out;
	bool failed;		/* zlib refused (out of memory) */
	bool big_failed;	/* no memory for a piece larger than a batch */
	uint8_t *big;		/* a piece larger than a batch */
	size_t big_cap;
	struct batch_pipe pipe;
	uint32_t crc;		/* of the bytes deflated so far, for the gzip trailer */
	uint64_t isize;		/* how many */
	unsigned char chunk[GZ_CHUNK];
};

static void gz_run(struct gz_buf *g, int flush)
{
	int ret;

	do {
		g->z.next_out = g->chunk;
		g->z.avail_out = GZ_CHUNK;
		ret = deflate(&g->z, flush);
		if (ret == Z_STREAM_ERROR) {
			g->failed = true;
			return;
		}
		out_sink_write(g->out, g->chunk, GZ_CHUNK - g->z.avail_out);
	} while (g->z.avail_out == 0 || (flush == Z_FINISH && ret != Z_STREAM_END));
}

/* Deflate len bytes at data. */
static void gz_deflate(struct gz_buf *g, const uint8_t *data, size_t len)
{
	while (len && !g->failed) {
		uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;

		/* zlib's input pointer is not const; deflate() only reads it */
		g->z.next_in = (Bytef *)(uintptr_t)data;
		g->z.avail_in = n;
		g->crc = (uint32_t)crc32_z(g->crc, data, n);
		g->isize += n;
		gz_run(g, Z_NO_FLUSH);
		data += n;
		len -= n;
	}
}

/* The second thread's work: one full batch. */
static void gz_batch(void *arg, const unsigned char *data, size_t len)
{
	gz_deflate(arg, data, len);
}

/*
 * Room for an encoded piece of `len` bytes: in the batch when it fits
 * there, else (a sample with thousands of value columns) in `big`,
 * deflated by gz_commit() once the second thread is idle.  NULL when out
 * of memory.
 */
static uint8_t *gz_reserve(struct gz_buf *g, size_t len)
{
	if (len <= BATCH_PIPE_BATCH)
		return batch_pipe_reserve(&g->pipe, len);
	if (len > g->big_cap) {
		uint8_t *nb = realloc(g->big, len);

		if (!nb) {
			g->big_failed = true;
			return NULL;
		}
		g->big = nb;
		g->big_cap = len;
	}
	return g->big;
}

/* The piece at start (from gz_reserve()) ends at end. */
static void gz_commit(struct gz_buf *g, uint8_t *start, const uint8_t *end)
{
	if (start == g->big) {
		batch_pipe_sync(&g->pipe);
		gz_deflate(g, start, (size_t)(end - start));
	} else {
		batch_pipe_commit(&g->pipe, (size_t)(end - start));
	}
}

static void gz_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct gz_buf *g = (struct gz_buf *)b;

	if (len > BATCH_PIPE_BATCH) {
		batch_pipe_sync(&g->pipe);
		gz_deflate(g, data, len);
		return;
	}
	memcpy(batch_pipe_reserve(&g->pipe, len), data, len);
	batch_pipe_commit(&g->pipe, len);
}

/* A 32-bit little-endian word of the gzip trailer. */
static void put_le32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

/*
 * Everything handed over deflated, the second thread stopped, the stream
 * ended and the gzip trailer (CRC-32 and size of what was deflated) after
 * it.
 */
static void gz_finish(struct gz_buf *g)
{
	uint8_t trailer[8];

	batch_pipe_finish(&g->pipe);
	if (g->failed)
		return;
	gz_run(g, Z_FINISH);
	put_le32(trailer, g->crc);
	put_le32(trailer + 4, (uint32_t)g->isize);
	out_sink_write(g->out, trailer, sizeof(trailer));
}

/*
 * Put `len` bytes whose raw deflate data (ending byte-aligned, no final
 * block) is in `f` and whose CRC-32 is `crc` into the stream here.  A
 * full flush first ends what was deflated so far on a byte and empties
 * the compressor's window, so that no later block refers back across the
 * spliced bytes.  false when `f` could not be read.
 */
static bool gz_splice(struct gz_buf *g, FILE *f, uint32_t crc, uint64_t len)
{
	size_t n;

	batch_pipe_sync(&g->pipe);
	if (g->failed)
		return true;
	gz_run(g, Z_FULL_FLUSH);
	if (fseek(f, 0, SEEK_SET))
		return false;
	while ((n = fread(g->chunk, 1, GZ_CHUNK, f)) > 0)
		out_sink_write(g->out, g->chunk, n);
	if (ferror(f))
		return false;
	g->crc = (uint32_t)crc32_combine(g->crc, crc, (z_off_t)len);
	g->isize += len;
	return true;
}

/* ------------------------------------------------------------ wire format */

/*
 * The messages a profile has many of, Sample, Location, Mapping and
 * Function, are encoded here rather than by protobuf-c: the same bytes
 * its packing gives (fields in number order, proto3 zeros left out,
 * repeated numbers packed), without building a message of pointers for
 * each.
 */
/* key (field number << 3 | wire type) of the fields used here: all below 16 */
#define WIRE_VARINT(field)	((uint8_t)((field) << 3 | PW_VARINT))
#define WIRE_LEN(field)		((uint8_t)((field) << 3 | PW_LEN))

/* A varint field, left out when zero as proto3 does. */
static inline uint8_t *wire_field(uint8_t *b, unsigned int field, uint64_t v)
{
	if (!v)
		return b;
	*b++ = WIRE_VARINT(field);
	return pw_put_varint(b, v);
}

/* ------------------------------------------------------------ writing */

static void put(struct gz_buf *g, const pb_profile *piece)
{
	perftools__profiles__profile__pack_to_buffer(piece, &g->base);
}

/* The unit of an event's period: time for the clock events, else events. */
static uint64_t period_unit(const struct pd_event *e)
{
	if (e->attr.type == ATTR_TYPE_SOFTWARE &&
	    (e->attr.config == SW_CPU_CLOCK || e->attr.config == SW_TASK_CLOCK))
		return STR_NANOSECONDS;
	return STR_COUNT;
}

/* Comments: perf's command line, host, os release, perf version. */
static int add_comments(struct pp_prof *p, const struct pd_features *ft, int64_t *out,
			size_t *n)
{
	static const struct {
		unsigned int feat;
		const char *label;
		size_t off;
	} texts[] = {
		{ PD_FEAT_HOSTNAME, "host: ", offsetof(struct pd_features, hostname) },
		{ PD_FEAT_OSRELEASE, "os release: ", offsetof(struct pd_features, osrelease) },
		{ PD_FEAT_VERSION, "perf version: ", offsetof(struct pd_features, version) },
	};
	char buf[4096];
	size_t i, len = 0;
	int64_t idx;

	*n = 0;
	if (!ft)
		return 0;
	if (pd_features_has(ft, PD_FEAT_CMDLINE) && ft->cmdline.nr) {
		for (i = 0; i < ft->cmdline.nr && len < sizeof(buf) - 1; i++) {
			int w = snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? " " : "",
					 ft->cmdline.s[i] ? ft->cmdline.s[i] : "");

			if (w < 0)
				break;
			len += (size_t)w;
		}
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		idx = str_idx_n(p, buf, len);
		if (idx < 0)
			return -1;
		out[(*n)++] = idx;
	}
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		const char *v = *(char *const *)(const void *)((const char *)ft + texts[i].off);

		if (!pd_features_has(ft, texts[i].feat) || !v)
			continue;
		snprintf(buf, sizeof(buf), "%s%s", texts[i].label, v);
		idx = str_idx(p, buf);
		if (idx < 0)
			return -1;
		out[(*n)++] = idx;
	}
	return 0;
}

/*
 * Wall-clock time of the first sample: the recording says how its clock
 * relates to the time of day only in CLOCK_DATA (perf record -k).
 */
static int64_t wall_time(const struct pp_prof *p, const struct pd_features *ft)
{
	const struct pd_feat_clock_data *cd;

	if (!ft || !p->have_time || !pd_features_has(ft, PD_FEAT_CLOCK_DATA))
		return 0;
	cd = &ft->clock_data;
	if (!cd->tod_ns || cd->clockid_ns > cd->tod_ns || p->first_time > INT64_MAX)
		return 0;
	if (cd->tod_ns - cd->clockid_ns > (uint64_t)INT64_MAX - p->first_time)
		return 0;
	return (int64_t)(cd->tod_ns - cd->clockid_ns + p->first_time);
}

static int write_header(struct pp_prof *p, struct pd_reader *r, struct gz_buf *g,
			int64_t *values_len)
{
	const struct pd_features *ft = pd_reader_features(r);
	pb_value_type *vt = NULL, **vtp = NULL, period_type;
	pb_profile piece = PERFTOOLS__PROFILES__PROFILE__INIT;
	int64_t comments[8];
	size_t nt = 1, i, nc;
	const struct pd_event *first = NULL;
	int ret = -1;

	vt = calloc(p->nr_ev + 1, sizeof(*vt));
	vtp = calloc(p->nr_ev + 1, sizeof(*vtp));
	if (!vt || !vtp)
		goto out;
	perftools__profiles__value_type__init(&vt[0]);
	vt[0].type = STR_SAMPLES;
	vt[0].unit = STR_COUNT;
	vtp[0] = &vt[0];
	for (i = 0; i < p->nr_ev; i++) {
		const struct pd_event *e = pd_reader_event(r, i);
		int64_t name;

		if (!p->ev[i].samples || !e)
			continue;
		name = str_idx(p, e->name);
		if (name < 0)
			goto out;
		perftools__profiles__value_type__init(&vt[nt]);
		vt[nt].type = name;
		vt[nt].unit = (int64_t)period_unit(e);
		vtp[nt] = &vt[nt];
		p->ev[i].type_idx = (int)nt;
		nt++;
		if (!first) {
			first = e;
			piece.default_sample_type = name;
			perftools__profiles__value_type__init(&period_type);
			period_type = vt[nt - 1];
			piece.period_type = &period_type;
			if (!(e->attr.flags & PD_ATTR_FREQ) && e->attr.sample_period <= INT64_MAX)
				piece.period = (int64_t)e->attr.sample_period;
		}
	}
	if (add_comments(p, ft, comments, &nc))
		goto out;
	piece.n_sample_type = nt;
	piece.sample_type = vtp;
	piece.n_comment = nc;
	piece.comment = comments;
	piece.time_nanos = wall_time(p, ft);
	if (p->have_time && p->last_time - p->first_time <= INT64_MAX)
		piece.duration_nanos = (int64_t)(p->last_time - p->first_time);
	put(g, &piece);
	*values_len = (int64_t)nt;
	ret = 0;
out:
	free(vt);
	free(vtp);
	return ret;
}

/* Bytes of a label with these fields (zeros left out). */
static inline size_t label_len(uint64_t key, uint64_t str, uint64_t num, uint64_t unit)
{
	return (key ? 1 + pw_varint_size(key) : 0) + (str ? 1 + pw_varint_size(str) : 0) +
	       (num ? 1 + pw_varint_size(num) : 0) + (unit ? 1 + pw_varint_size(unit) : 0);
}

static inline uint8_t *put_label(uint8_t *b, size_t len, uint64_t key, uint64_t str, uint64_t num,
				 uint64_t unit)
{
	*b++ = WIRE_LEN(3);
	b = pw_put_varint(b, len);
	b = wire_field(b, 1, key);
	b = wire_field(b, 2, str);
	b = wire_field(b, 3, num);
	return wire_field(b, 4, unit);
}

/*
 * The unit of a numeric label: none, but for the value 0 (pid and tid 0,
 * the idle task).  Its label would be a key alone, which pprof drops (it
 * keeps a label with a string, a number or a unit), and pprof's
 * `-tagfocus=pid=0`, `-tags` and `-raw` would not see it.  That label
 * gets the unit pprof gives the key anyway, its own name
 * (NumLabelUnits() of pprof's profile package), so every label of the
 * key has one unit and survives pprof's own re-encoding.
 */
static inline uint64_t num_label_unit(uint64_t key, uint64_t num)
{
	return num ? 0 : key;
}

/* The sizes of one Sample's parts, from sample_shape(). */
struct sample_shape {
	size_t nt, col;		/* value columns, and the period's (0: none) */
	size_t loc_len, val_len, lab_len[3], smp_len;
	uint64_t pid, tid;
	unsigned int n;
};

/*
 * The shape of stack sk's Sample with nt value columns, the period in
 * column col; returns its size in bytes.
 */
static size_t sample_shape(struct sample_shape *sh, size_t nt, size_t col,
			   const struct pp_stack *sk)
{
	size_t k;

	sh->nt = nt;
	sh->col = col < nt ? col : 0;
	sh->pid = (uint64_t)(int64_t)sk->pid;
	sh->tid = (uint64_t)(int64_t)sk->tid;
	sh->n = sk->n < PD_SYM_MAX_STACK ? sk->n : PD_SYM_MAX_STACK;
	sh->loc_len = 0;
	sh->smp_len = 0;
	for (k = 0; k < sh->n; k++)
		sh->loc_len += pw_varint_size(sk->loc[k]);
	sh->val_len = pw_varint_size(sk->count) + nt - 1;
	if (sh->col)
		sh->val_len += pw_varint_size(sk->period) - 1;
	if (sh->loc_len)
		sh->smp_len += 1 + pw_varint_size(sh->loc_len) + sh->loc_len;
	sh->smp_len += 1 + pw_varint_size(sh->val_len) + sh->val_len;
	sh->lab_len[0] = label_len(STR_PID, 0, sh->pid, num_label_unit(STR_PID, sh->pid));
	sh->lab_len[1] = label_len(STR_TID, 0, sh->tid, num_label_unit(STR_TID, sh->tid));
	sh->lab_len[2] = label_len(STR_COMM, sk->comm, 0, 0);
	for (k = sk->has_tid ? 0 : 2; k < 3; k++)
		sh->smp_len += 1 + pw_varint_size(sh->lab_len[k]) + sh->lab_len[k];
	return 1 + pw_varint_size(sh->smp_len) + sh->smp_len;
}

/*
 * One Sample in a Profile of its own at b (sample_shape()'s size):
 * location ids, then the values (the count first, the period in its
 * event's column, zeros elsewhere), then the labels pid, tid and comm
 * (only comm without a thread).  Returns the end.
 */
static uint8_t *sample_put(uint8_t *b, const struct sample_shape *sh, const struct pp_stack *sk)
{
	size_t k;

	*b++ = WIRE_LEN(2);
	b = pw_put_varint(b, sh->smp_len);
	if (sh->loc_len) {
		*b++ = WIRE_LEN(1);
		b = pw_put_varint(b, sh->loc_len);
		for (k = 0; k < sh->n; k++)
			b = pw_put_varint(b, sk->loc[k]);
	}
	*b++ = WIRE_LEN(2);
	b = pw_put_varint(b, sh->val_len);
	b = pw_put_varint(b, sk->count);
	for (k = 1; k < sh->nt; k++) {
		if (k == sh->col)
			b = pw_put_varint(b, sk->period);
		else
			*b++ = 0;
	}
	if (sk->has_tid) {
		b = put_label(b, sh->lab_len[0], STR_PID, 0, sh->pid,
			      num_label_unit(STR_PID, sh->pid));
		b = put_label(b, sh->lab_len[1], STR_TID, 0, sh->tid,
			      num_label_unit(STR_TID, sh->tid));
	}
	return put_label(b, sh->lab_len[2], STR_COMM, sk->comm, 0, 0);
}

static void write_sample(struct pp_prof *p, struct gz_buf *g, size_t nt,
			 const struct pp_stack *sk)
{
	size_t col = sk->ev < p->nr_ev && p->ev[sk->ev].type_idx > 0 ?
		     (size_t)p->ev[sk->ev].type_idx : 0;
	struct sample_shape sh;
	uint8_t *b, *start;

	start = b = gz_reserve(g, sample_shape(&sh, nt, col, sk));
	if (!b)
		return;
	gz_commit(g, start, sample_put(b, &sh, sk));
}

/* ------------------------------------------------------------ spilled samples, deflated */

/* Deflate `len` bytes into the file (with `flush`); on failure it is off. */
static void zspill_deflate(struct zspill *zs, const uint8_t *data, size_t len, int flush)
{
	size_t n;
	int ret;

	zs->z.next_in = (Bytef *)(uintptr_t)data;
	zs->z.avail_in = (uInt)len;
	do {
		zs->z.next_out = zs->out;
		zs->z.avail_out = sizeof(zs->out);
		ret = deflate(&zs->z, flush);
		n = sizeof(zs->out) - zs->z.avail_out;
		if (ret == Z_STREAM_ERROR || (n && fwrite(zs->out, 1, n, zs->f) != n)) {
			zs->off = true;
			return;
		}
	} while (zs->z.avail_out == 0);
}

static void zspill_flush_buf(struct zspill *zs)
{
	zs->crc = (uint32_t)crc32_z(zs->crc, zs->buf, zs->buf_len);
	zs->len += zs->buf_len;
	zspill_deflate(zs, zs->buf, zs->buf_len, Z_NO_FLUSH);
	zs->buf_len = 0;
}

/* Event ev has samples (aggregating thread): a column of its own from the next spill. */
static void zspill_seen(struct pp_prof *p, uint32_t ev)
{
	struct zspill *zs = p->zs;

	if (zs->off)
		return;
	/* the spilled samples have no column for it */
	if (zs->ready) {
		zs->off = true;
		return;
	}
	if (!grow_array(&zs->seen, &zs->nr_seen, (size_t)ev + 1, sizeof(*zs->seen))) {
		zs->off = true;
		return;
	}
	zs->seen[ev] = 1;
}

/* The stacks about to be spilled (aggregating thread), encoded and deflated. */
static void zspill_add(struct pp_prof *p)
{
	struct zspill *zs = p->zs;
	struct sample_shape sh;
	size_t i, len;

	if (zs->off)
		return;
	if (!zs->ready) {
		/* the columns, from now on */
		zs->col = calloc(zs->nr_seen ? zs->nr_seen : 1, sizeof(*zs->col));
		zs->buf = malloc(ZSPILL_BUF);
		zs->f = tmpfile();
		if (!zs->col || !zs->buf || !zs->f ||
		    deflateInit2(&zs->z, Z_BEST_SPEED, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			zs->off = true;
			return;
		}
		zs->ready = true;
		zs->buf_cap = ZSPILL_BUF;
		zs->nt = 1;
		for (i = 0; i < zs->nr_seen; i++)
			if (zs->seen[i])
				zs->col[i] = (uint32_t)zs->nt++;
	}
	for (i = 0; i < p->nr_stacks && !zs->off; i++) {
		const struct pp_stack *sk = p->stack_list[i];

		len = sample_shape(&sh, zs->nt, sk->ev < zs->nr_seen ? zs->col[sk->ev] : 0, sk);
		if (zs->buf_cap - zs->buf_len < len)
			zspill_flush_buf(zs);
		if (zs->buf_cap < len) {
			uint8_t *nb = realloc(zs->buf, len);

			if (!nb) {
				zs->off = true;
				return;
			}
			zs->buf = nb;
			zs->buf_cap = len;
		}
		zs->buf_len = (size_t)(sample_put(zs->buf + zs->buf_len, &sh, sk) - zs->buf);
	}
	if (!zs->off)
		zspill_flush_buf(zs);
}

/*
 * Whether the deflated spilled samples have the profile's columns: nt of
 * them, each event's where write_header() put it.  Ends their stream on a
 * byte (after the aggregating thread is done) when they do.
 */
static bool zspill_usable(struct pp_prof *p, size_t nt)
{
	struct zspill *zs = p->zs;
	size_t i;

	if (zs->off || !zs->ready || zs->nt != nt)
		return false;
	for (i = 0; i < p->nr_ev; i++) {
		uint32_t col = i < zs->nr_seen ? zs->col[i] : 0;

		if ((uint32_t)(p->ev[i].type_idx > 0 ? p->ev[i].type_idx : 0) != col)
			return false;
	}
	zspill_deflate(zs, NULL, 0, Z_SYNC_FLUSH);
	return !zs->off && !fflush(zs->f);
}

static void zspill_free(struct zspill *zs)
{
	if (!zs)
		return;
	if (zs->ready)
		deflateEnd(&zs->z);
	if (zs->f)
		fclose(zs->f);
	free(zs->seen);
	free(zs->col);
	free(zs->buf);
	free(zs);
}

/* Spilled samples first (in the order they were spilled), then those in memory. */
static int write_samples(struct pp_prof *p, struct gz_buf *g, size_t nt)
{
	struct pp_stack *sk;
	size_t i;

	if (p->spill && zspill_usable(p, nt)) {
		if (!gz_splice(g, p->zs->f, p->zs->crc, p->zs->len))
			p->spill_failed = true;
	} else if (p->spill) {
		sk = malloc(sizeof(*sk) + PD_SYM_MAX_STACK * sizeof(*sk->loc));
		if (!sk)
			return -1;
		if (fflush(p->spill) || fseek(p->spill, 0, SEEK_SET))
			p->spill_failed = true;
		while (!p->spill_failed && unspill(p, sk))
			write_sample(p, g, nt, sk);
		if (ferror(p->spill))
			p->spill_failed = true;
		free(sk);
	}
	for (i = 0; i < p->nr_stacks; i++)
		write_sample(p, g, nt, p->stack_list[i]);
	return 0;
}

/*
 * A message of varint fields, values[k] its field k + 1, as field `field`
 * of a Profile of its own: Mapping and Function.  When out of memory
 * gz_reserve() has said so.
 */
static void write_varint_message(struct gz_buf *g, unsigned int field, const uint64_t *values,
				 unsigned int n)
{
	size_t len = 0;
	uint8_t *b, *start;
	unsigned int k;

	for (k = 0; k < n; k++)
		len += values[k] ? 1 + pw_varint_size(values[k]) : 0;
	start = b = gz_reserve(g, 1 + pw_varint_size(len) + len);
	if (!b)
		return;
	*b++ = WIRE_LEN(field);
	b = pw_put_varint(b, len);
	for (k = 0; k < n; k++)
		b = wire_field(b, k + 1, values[k]);
	gz_commit(g, start, b);
}

/*
 * Is a mapping's file a shared library, by pprof's rule for its own
 * profiles (a name ending in ".so" or with ".so." or ".so_" and a digit,
 * " (deleted)" after it left out)?
 */
static bool is_library(const struct pp_str *name)
{
	static const char deleted[] = " (deleted)";
	const size_t dlen = sizeof(deleted) - 1;
	const char *s = name->s, *end = s + name->len;

	if (name->len >= dlen && !memcmp(end - dlen, deleted, dlen))
		end -= dlen;
	if (end - s >= 3 && !memcmp(end - 3, ".so", 3))
		return true;
	for (; (s = memmem(s, (size_t)(end - s), ".so", 3)) && end - s >= 5; s++)
		if ((s[3] == '.' || s[3] == '_') && s[4] >= '0' && s[4] <= '9')
			return true;
	return false;
}

/*
 * The mapping that goes first: pprof takes the first mapping of a
 * profile for its main binary ("File:" of its reports).  It is the
 * program file, of those the samples fell in, with the most locations:
 * a file a process mapped that is not a shared library (pprof's rule), not
 * the kernel, a module, the vdso, JIT or anonymous memory.  Without one,
 * the first mapping found.
 */
static size_t main_mapping(const struct pp_prof *p)
{
	size_t i, best = 0;
	uint64_t most = 0;

	for (i = 0; i < p->nr_maps; i++) {
		const struct pp_mapping *x = p->map_list[i];
		const struct pp_str *name = p->str_by_idx[x->filename];

		if (!x->dso || pd_dso_kind(x->dso) != PD_DSO_USER || !name->len ||
		    name->s[0] == '[' || is_library(name) || x->nr_locs <= most)
			continue;
		most = x->nr_locs;
		best = i;
	}
	return best;
}

static void write_mappings(struct pp_prof *p, struct gz_buf *g)
{
	size_t i, first = main_mapping(p);

	for (i = 0; i < p->nr_maps; i++) {
		/* the main mapping, then the others in the order found */
		const struct pp_mapping *x = p->map_list[!i ? first : i <= first ? i - 1 : i];
		/*
		 * has_*: when a location of the mapping has it, pprof's rule
		 * (its symbolizer sets them so): pprof symbolizes again, with
		 * binutils, every location of a mapping that has none of the
		 * first three, replacing perf's answers with its own
		 */
		const uint64_t m[] = { x->id, x->start, x->end, x->pgoff, x->filename, x->build_id,
				       x->with_func > 0, x->with_file > 0, x->with_line > 0,
				       x->with_inline_info > 0 };

		write_varint_message(g, 3, m, 10);
	}
}

/* One Location in a Profile of its own.  false when out of memory. */
static bool write_location(struct gz_buf *g, uint64_t id, uint64_t mapping_id,
			   uint64_t address, const struct pp_line *lines, size_t nr_lines)
{
	size_t k, len, line_len[PD_SYM_MAX_INLINE + 1];
	uint8_t *b, *start;

	if (nr_lines > PD_SYM_MAX_INLINE + 1)
		nr_lines = PD_SYM_MAX_INLINE + 1;
	len = (id ? 1 + pw_varint_size(id) : 0) +
	      (mapping_id ? 1 + pw_varint_size(mapping_id) : 0) +
	      (address ? 1 + pw_varint_size(address) : 0);
	for (k = 0; k < nr_lines; k++) {
		const struct pp_line *l = &lines[k];

		line_len[k] = (l->function_id ? 1 + pw_varint_size(l->function_id) : 0) +
			      (l->line ? 1 + pw_varint_size((uint64_t)l->line) : 0);
		len += 1 + pw_varint_size(line_len[k]) + line_len[k];
	}
	start = b = gz_reserve(g, 1 + pw_varint_size(len) + len);
	if (!b)
		return false;
	*b++ = WIRE_LEN(4);
	b = pw_put_varint(b, len);
	b = wire_field(b, 1, id);
	b = wire_field(b, 2, mapping_id);
	b = wire_field(b, 3, address);
	for (k = 0; k < nr_lines; k++) {
		*b++ = WIRE_LEN(4);
		b = pw_put_varint(b, line_len[k]);
		b = wire_field(b, 1, lines[k].function_id);
		b = wire_field(b, 2, (uint64_t)lines[k].line);
	}
	gz_commit(g, start, b);
	return true;
}

static void write_functions(struct pp_prof *p, struct gz_buf *g)
{
	size_t i;

	for (i = 0; i < p->nr_funcs; i++) {
		const struct pp_func *x = p->funcs[i];
		const uint64_t fn[] = { x->id, x->name, x->system_name, x->filename };

		write_varint_message(g, 5, fn, 4);
	}
}

static void write_strings(struct pp_prof *p, struct gz_buf *g)
{
	pb_profile piece = PERFTOOLS__PROFILES__PROFILE__INIT;
	char *batch[256];
	size_t i = 0, k;

	piece.string_table = batch;
	while (i < p->nr_strs) {
		for (k = 0; k < 256 && i < p->nr_strs; k++, i++)
			batch[k] = p->str_by_idx[i]->s;
		piece.n_string_table = k;
		put(g, &piece);
	}
}

int pp_write(struct pp_prof *p, struct pd_reader *r)
{
	struct gz_buf *g = p->gz;
	int64_t nt = 0;

	/* every stack aggregated: they are this thread's again */
	batch_pipe_finish(&p->agg);
	if (p->agg_err)
		return agg_status(p);
	/* every string the header needs exists before the string table is written */
	if (write_header(p, r, g, &nt) || write_samples(p, g, (size_t)nt))
		return PD_STATUS_NOMEM;
	write_mappings(p, g);
	write_functions(p, g);
	write_strings(p, g);
	gz_finish(g);
	return g->failed || g->big_failed ? PD_STATUS_NOMEM : p->spill_failed ? PD_STATUS_IO : 0;
}

/* ------------------------------------------------------------ life */

struct pp_prof *pp_new(struct pd_machine *m, bool srcline, struct out_sink *out)
{
	static const char *const fixed[] = {
		[STR_EMPTY] = "", [STR_PID] = "pid", [STR_TID] = "tid", [STR_COMM] = "comm",
		[STR_SAMPLES] = "samples", [STR_COUNT] = "count",
		[STR_NANOSECONDS] = "nanoseconds",
	};
	/* magic, deflate, no flags, no time, fastest level, Unix */
	static const uint8_t gzip_header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 3 };
	struct pp_prof *p = calloc(1, sizeof(*p));
	const char *env;
	size_t i;

	if (!p)
		return NULL;
	p->m = m;
	p->srcline = srcline;
	p->stack_budget = STACK_BUDGET;
	p->loc_budget = LOC_BUDGET;
	env = getenv(BUDGET_ENV);
	if (env && *env) {
		uint64_t b = strtoull(env, NULL, 10);

		if (b < p->stack_budget)
			p->stack_budget = b;
		if (b < p->loc_budget)
			p->loc_budget = b;
	}
	if (pd_frame_cache_new(m, 0, &p->fc) < 0)
		p->fc = NULL;
	p->gz = calloc(1, sizeof(*p->gz));
	p->zs = calloc(1, sizeof(*p->zs));
	if (!p->fc || !p->gz || !p->zs)
		goto fail;
	p->gz->base.append = gz_append;
	p->gz->out = out;
	/*
	 * A raw deflate stream (windowBits -15) between a gzip header and
	 * trailer of our own, so that the deflated spilled samples can go
	 * into it (gz_splice()).  The header is zlib's for level 1 on Unix,
	 * without a name or time.  Level 1: the repeated labels and values
	 * of a profile compress nearly as well as with the default level, at
	 * a fraction of its time.
	 */
	if (deflateInit2(&p->gz->z, Z_BEST_SPEED, Z_DEFLATED, -15, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		free(p->gz);
		p->gz = NULL;
		goto fail;
	}
	out_sink_write(out, gzip_header, sizeof(gzip_header));
	if (batch_pipe_start(&p->gz->pipe, gz_batch, p->gz) ||
	    batch_pipe_start(&p->agg, agg_batch, p))
		goto fail;
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (str_idx(p, fixed[i]) != (int64_t)i)
			goto fail;
	return p;
fail:
	pp_free(p);
	return NULL;
}

void pp_free(struct pp_prof *p)
{
	if (!p)
		return;
	/* the aggregating thread is done with the stacks after this */
	batch_pipe_finish(&p->agg);
	hmap_free(&p->strs);
	hmap_free(&p->mappings);
	hmap_free(&p->sym_funcs);
	hmap_free(&p->inl_funcs);
	hmap_free(&p->stacks);
	arena_free(&p->stack_arena);
	if (p->spill)
		fclose(p->spill);
	zspill_free(p->zs);
	arena_free(&p->arena);
	if (p->gz) {
		/* the second thread is done with the deflate state after this */
		batch_pipe_finish(&p->gz->pipe);
		deflateEnd(&p->gz->z);
		free(p->gz->big);
	}
	free(p->gz);
	free(p->str_by_idx);
	free(p->funcs);
	free(p->loc_tab);
	free(p->map_list);
	free(p->stack_list);
	pd_frame_cache_free(p->fc);
	free(p->ev);
	free(p);
}
