// SPDX-License-Identifier: MIT
/*
 * dwarf_lines.c - source file, line and inline frames from DWARF (libdw).
 *
 * The DWARF comes from the file the DSO's .symtab came from (the separate
 * debug file when one was found: .gnu_debuglink, /usr/lib/debug, build-id
 * links); no other path is opened here.
 *
 * Addresses: a frame's address is a file offset of the runtime image (what
 * map_ip() yields).  It becomes a link-time address through the runtime
 * image's PT_LOAD headers - never the debug file's, whose segments have no
 * file contents and whose offsets mean nothing - and then a debug-file
 * address through the difference of the .text addresses of both files
 * (zero unless one of them was prelinked or relinked).
 *
 * Speed: each DSO's DWARF is opened once.  The compile units' address
 * ranges are read into one sorted array on first use; a CU's line table
 * (dwarf_getsrclines) and its inlined-subroutine tree are read only when
 * an address falls in that CU, into sorted arrays searched by bisection.
 * Answers are cached per (DSO, address): profiles repeat addresses.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym_internal.h"

/* bounds against hostile or absurd debug info */
#define MAX_DIE_DEPTH	128
#define MAX_CACHE	(1u << 22)	/* cached addresses per DSO */

/* Index of the last element of arr[0..n) whose `field` is <= a, or -1. */
#define LAST_LE(arr, n, field, a, out)					\
	do {								\
		size_t lo_ = 0, hi_ = (n);				\
		while (lo_ < hi_) {					\
			size_t mid_ = lo_ + (hi_ - lo_) / 2;		\
			if ((arr)[mid_].field <= (a))			\
				lo_ = mid_ + 1;				\
			else						\
				hi_ = mid_;				\
		}							\
		(out) = (long)lo_ - 1;					\
	} while (0)

struct cu_range {
	uint64_t lo, hi;
	uint32_t cu;
};

struct line_row {
	uint64_t addr;
	const char *file;
	uint32_t line;
	uint32_t end;		/* DW_LNE_end_sequence: no code from here */
	uint32_t order;		/* position in the table: ties keep it */
};

/* One DW_TAG_inlined_subroutine; a CU's are in depth-first order. */
struct inl {
	const char *name;	/* the inlined function */
	const char *call_file;
	uint32_t call_line;
	uint32_t next;		/* first index after this node's subtree */
	uint32_t range, nrange;	/* its address ranges in cu->ranges */
};

struct addr_range {
	uint64_t lo, hi;
	uint32_t node;
};

struct cu {
	Dwarf_Die die;
	bool loaded;
	struct line_row *rows;
	size_t nrows;
	struct inl *inl;
	size_t ninl;
	struct addr_range *ranges;	/* of every inline node, grouped per node */
	size_t nranges, cap_ranges;
	struct addr_range *top;		/* of the outermost inline nodes, by lo */
	uint64_t *top_maxhi;		/* running maximum of top[].hi */
	size_t ntop;
};

struct cache_ent {
	uint64_t addr;
	uint32_t pos;		/* first entry in dl->pos */
	uint8_t nr;
	uint8_t used;
};

struct pd_dwarf_lines {
	int fd;
	Elf *elf;
	Dwarf *dw;
	Elf_Data *debug_line;	/* uncompressed, for the file-name spans */
	struct cu *cus;
	size_t ncus;
	struct cu_range *cur;	/* CU ranges sorted by lo */
	uint64_t *cur_maxhi;	/* running maximum of cur[].hi */
	size_t ncur;
	struct cache_ent *cache;
	size_t cache_cap, cache_nr;
	struct pd_sym_srcpos *pos;
	size_t npos, cap_pos;
};

static void cu_free(struct cu *c)
{
	free(c->rows);
	free(c->inl);
	free(c->ranges);
	free(c->top);
	free(c->top_maxhi);
}

void pd_dwarf_free(struct pd_dso *d)
{
	struct pd_dwarf_lines *dl = d->dwarf;
	size_t i;

	if (!dl)
		return;
	for (i = 0; i < dl->ncus; i++)
		cu_free(&dl->cus[i]);
	free(dl->cus);
	free(dl->cur);
	free(dl->cur_maxhi);
	free(dl->cache);
	free(dl->pos);
	if (dl->dw)
		dwarf_end(dl->dw);
	if (dl->elf)
		elf_end(dl->elf);
	if (dl->fd >= 0)
		close(dl->fd);
	free(dl);
	d->dwarf = NULL;
}

/* Grow *p (n used, *cap allocated, elements of size sz) to hold one more. */
static bool grow(void **p, size_t n, size_t *cap, size_t sz)
{
	size_t ncap;
	void *np;

	if (n < *cap)
		return true;
	ncap = *cap ? *cap * 2 : 64;
	if (ncap > SIZE_MAX / sz)
		return false;
	np = realloc(*p, ncap * sz);
	if (!np)
		return false;
	*p = np;
	*cap = ncap;
	return true;
}

static int cmp_cu_range(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->cu < y->cu ? -1 : x->cu > y->cu;
}

static int cmp_addr_range(const void *a, const void *b)
{
	const struct addr_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* Compile units and their address ranges, sorted: read once per DSO. */
static bool index_cus(struct pd_dwarf_lines *dl)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Half version;
	uint8_t unit_type;
	Dwarf_Die cudie, subdie;
	size_t cap_cus = 0, cap_cur = 0, i;
	uint64_t maxhi = 0;

	while (dwarf_get_units(dl->dw, cu, &next, &version, &unit_type, &cudie, &subdie) == 0) {
		ptrdiff_t off = 0;
		Dwarf_Addr base, lo, hi;
		bool any = false;

		cu = next;
		if (unit_type != DW_UT_compile)
			continue;
		while ((off = dwarf_ranges(&cudie, off, &base, &lo, &hi)) > 0) {
			if (hi <= lo)
				continue;
			if (!grow((void **)&dl->cur, dl->ncur, &cap_cur, sizeof(*dl->cur)))
				return false;
			dl->cur[dl->ncur].lo = lo;
			dl->cur[dl->ncur].hi = hi;
			dl->cur[dl->ncur].cu = (uint32_t)dl->ncus;
			dl->ncur++;
			any = true;
		}
		if (!any)
			continue;
		if (!grow((void **)&dl->cus, dl->ncus, &cap_cus, sizeof(*dl->cus)))
			return false;
		memset(&dl->cus[dl->ncus], 0, sizeof(dl->cus[0]));
		dl->cus[dl->ncus].die = cudie;
		dl->ncus++;
	}
	if (!dl->ncur)
		return true;
	qsort(dl->cur, dl->ncur, sizeof(*dl->cur), cmp_cu_range);
	dl->cur_maxhi = malloc(dl->ncur * sizeof(*dl->cur_maxhi));
	if (!dl->cur_maxhi)
		return false;
	for (i = 0; i < dl->ncur; i++) {
		if (dl->cur[i].hi > maxhi)
			maxhi = dl->cur[i].hi;
		dl->cur_maxhi[i] = maxhi;
	}
	return true;
}

static int cmp_row(const void *a, const void *b)
{
	const struct line_row *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* a sequence ending where the next begins ends first */
	if (x->end != y->end)
		return x->end ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * File names as perf shows them.  perf asks binutils' addr2line, which in a
 * DWARF 5 line table names the rows of a sequence that come before the
 * sequence's first DW_LNS_set_file after file entry 0 (the CU's primary
 * file), although the file register then holds 1.  GCC makes both entries
 * the primary file almost everywhere; where they differ (a sequence that
 * starts in an included header: C++ templates, glibc's libc-start.c) perf's
 * name is kept so that the lines agree with it.  libdw's rows are sorted by
 * address and say nothing of sequences or opcodes, so the line program is
 * walked once more here, only to find those prefixes' address spans.
 */
struct lp {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t lp_uleb(struct lp *r)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	while (r->p < r->end) {
		uint8_t b = *r->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

static uint64_t lp_fixed(struct lp *r, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	for (i = 0; i < n; i++)	/* little endian: the only one perf data here comes from */
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static bool add_span(struct pd_line_span **v, size_t *n, size_t *cap, uint64_t lo, uint64_t hi)
{
	if (!grow((void **)v, *n, cap, sizeof(**v)))
		return false;
	(*v)[*n].lo = lo;
	(*v)[*n].hi = hi;
	(*n)++;
	return true;
}

bool pd_dwarf_prefix_spans(const uint8_t *base, size_t size, uint64_t off,
			   struct pd_line_span **out, size_t *nout)
{
	size_t cap = 0;
	struct lp r;
	uint64_t len, hlen, addr = 0, lo = 0, hi = 0;
	unsigned int offset_size = 4, version, addr_size, min_inst, line_range, opcode_base;
	const uint8_t *std_len, *prog_end;
	bool in_prefix = true, have = false;

	*out = NULL;
	*nout = 0;
	if (!base || off >= size)
		return true;
	r.p = base + off;
	r.end = base + size;
	r.bad = false;
	len = lp_fixed(&r, 4);
	if (len == 0xffffffffu) {
		len = lp_fixed(&r, 8);
		offset_size = 8;
	}
	if (r.bad || len > (uint64_t)(r.end - r.p))
		return true;
	prog_end = r.p + len;
	r.end = prog_end;
	version = (unsigned int)lp_fixed(&r, 2);
	if (version < 5 || r.bad)
		return true;
	addr_size = (unsigned int)lp_fixed(&r, 1);
	lp_fixed(&r, 1);	/* segment selector size */
	hlen = lp_fixed(&r, offset_size);
	if (r.bad || hlen > (uint64_t)(r.end - r.p) || (addr_size != 4 && addr_size != 8))
		return true;
	prog_end = r.end;
	{
		const uint8_t *prog = r.p + hlen;

		min_inst = (unsigned int)lp_fixed(&r, 1);
		lp_fixed(&r, 1);	/* maximum operations per instruction */
		lp_fixed(&r, 1);	/* default is_stmt */
		lp_fixed(&r, 1);	/* line base */
		line_range = (unsigned int)lp_fixed(&r, 1);
		opcode_base = (unsigned int)lp_fixed(&r, 1);
		std_len = r.p;
		if (r.bad || !line_range || !opcode_base ||
		    opcode_base - 1 > (size_t)(prog - r.p))
			return true;
		r.p = prog;
	}
	while (r.p < prog_end && !r.bad) {
		unsigned int op = *r.p++;
		bool row = false;

		if (op >= opcode_base) {
			addr += (uint64_t)((op - opcode_base) / line_range) * min_inst;
			row = true;
		} else if (op == 0) {
			uint64_t elen = lp_uleb(&r);
			const uint8_t *next;
			unsigned int sub;

			if (r.bad || elen == 0 || elen > (uint64_t)(prog_end - r.p))
				break;
			next = r.p + elen;
			sub = *r.p++;
			if (sub == DW_LNE_end_sequence) {
				if (in_prefix && have && !add_span(out, nout, &cap, lo, hi))
					return false;
				addr = 0;
				in_prefix = true;
				have = false;
			} else if (sub == DW_LNE_set_address && elen - 1 == addr_size) {
				addr = lp_fixed(&r, addr_size);
			}
			r.p = next;
		} else {
			switch (op) {
			case DW_LNS_copy:
				row = true;
				break;
			case DW_LNS_advance_pc:
				addr += lp_uleb(&r) * min_inst;
				break;
			case DW_LNS_set_file:
				lp_uleb(&r);
				if (in_prefix && have && !add_span(out, nout, &cap, lo, hi))
					return false;
				in_prefix = false;
				break;
			case DW_LNS_const_add_pc:
				addr += (uint64_t)((255 - opcode_base) / line_range) * min_inst;
				break;
			case DW_LNS_fixed_advance_pc:
				addr += lp_fixed(&r, 2);
				break;
			default: {
				/* any other standard opcode: skip its operands */
				unsigned int i;

				for (i = 0; i < std_len[op - 1]; i++)
					lp_uleb(&r);
				break;
			}
			}
		}
		if (row && in_prefix) {
			if (!have)
				lo = addr;
			hi = addr;
			have = true;
		}
	}
	return true;
}

static int cmp_span(const void *a, const void *b)
{
	const struct pd_line_span *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/* spans sorted by lo; sequences of a linked file do not overlap */
static bool in_spans(const struct pd_line_span *v, size_t n, uint64_t a)
{
	long i;

	LAST_LE(v, n, lo, a, i);
	return i >= 0 && a <= v[i].hi;
}

static const char *row_file(Dwarf_Line *l, uint64_t addr, const struct pd_line_span *spans,
			    size_t nspans)
{
	Dwarf_Files *files;
	size_t idx;
	const char *f;

	if (nspans && dwarf_line_file(l, &files, &idx) == 0 && idx == 1 &&
	    in_spans(spans, nspans, addr)) {
		f = dwarf_filesrc(files, 0, NULL, NULL);
		if (f)
			return f;
	}
	return dwarf_linesrc(l, NULL, NULL);
}

static bool load_lines(struct pd_dwarf_lines *dl, struct cu *c)
{
	Dwarf_Lines *lines;
	Dwarf_Attribute at;
	Dwarf_Word stmt_list;
	struct pd_line_span *spans = NULL;
	size_t n, i, k = 0, nspans = 0;

	if (dwarf_getsrclines(&c->die, &lines, &n) != 0 || n == 0)
		return true;
	if (n > UINT32_MAX)
		return true;
	if (dl->debug_line && dwarf_attr(&c->die, DW_AT_stmt_list, &at) &&
	    dwarf_formudata(&at, &stmt_list) == 0 &&
	    !pd_dwarf_prefix_spans(dl->debug_line->d_buf, dl->debug_line->d_size, stmt_list,
				   &spans, &nspans))
		return false;
	if (nspans > 1)
		qsort(spans, nspans, sizeof(*spans), cmp_span);
	c->rows = malloc(n * sizeof(*c->rows));
	if (!c->rows) {
		free(spans);
		return false;
	}
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr;
		int lineno = 0;
		bool end = false;

		if (!l || dwarf_lineaddr(l, &addr) != 0)
			continue;
		dwarf_lineno(l, &lineno);
		dwarf_lineendsequence(l, &end);
		c->rows[k].addr = addr;
		c->rows[k].file = row_file(l, addr, spans, nspans);
		c->rows[k].line = lineno > 0 ? (uint32_t)lineno : 0;
		c->rows[k].end = end;
		c->rows[k].order = (uint32_t)i;
		k++;
	}
	free(spans);
	c->nrows = k;
	qsort(c->rows, c->nrows, sizeof(*c->rows), cmp_row);
	return true;
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute at;
	const char *n = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &at) ||
	    dwarf_attr_integrate(die, DW_AT_name, &at))
		n = dwarf_formstring(&at);
	if (!n)
		n = dwarf_diename(die);
	return n;
}

struct walk {
	struct cu *c;
	Dwarf_Files *files;
	size_t nfiles, cap_inl;
	bool nomem;
};

/* Tags whose children may hold code: everything else is skipped whole. */
static bool may_hold_code(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_lexical_block:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_namespace:
	case DW_TAG_module:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
		return true;
	default:
		return false;
	}
}

static void add_inline(struct walk *w, Dwarf_Die *die)
{
	struct cu *c = w->c;
	struct inl *n;
	Dwarf_Attribute at;
	Dwarf_Word fidx = 0, line = 0;
	ptrdiff_t off = 0;
	Dwarf_Addr base, lo, hi;

	if (!grow((void **)&c->inl, c->ninl, &w->cap_inl, sizeof(*c->inl))) {
		w->nomem = true;
		return;
	}
	n = &c->inl[c->ninl];
	n->name = die_name(die);
	if (dwarf_attr(die, DW_AT_call_file, &at))
		dwarf_formudata(&at, &fidx);
	if (dwarf_attr(die, DW_AT_call_line, &at))
		dwarf_formudata(&at, &line);
	n->call_file = w->files && fidx < w->nfiles ? dwarf_filesrc(w->files, fidx, NULL, NULL) : NULL;
	n->call_line = line <= UINT32_MAX ? (uint32_t)line : 0;
	n->range = (uint32_t)c->nranges;
	n->nrange = 0;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		if (!grow((void **)&c->ranges, c->nranges, &c->cap_ranges, sizeof(*c->ranges))) {
			w->nomem = true;
			return;
		}
		c->ranges[c->nranges].lo = lo;
		c->ranges[c->nranges].hi = hi;
		c->ranges[c->nranges].node = (uint32_t)c->ninl;
		c->nranges++;
		n->nrange++;
	}
	c->ninl++;
}

/* Depth-first over the DIEs that can hold code, recording inline nodes. */
static void walk_dies(struct walk *w, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;

	if (depth > MAX_DIE_DEPTH || w->nomem || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);

		if (!may_hold_code(tag))
			continue;
		if (tag == DW_TAG_inlined_subroutine) {
			size_t me = w->c->ninl;

			add_inline(w, &child);
			if (w->nomem)
				return;
			walk_dies(w, &child, depth + 1);
			w->c->inl[me].next = (uint32_t)w->c->ninl;
		} else {
			walk_dies(w, &child, depth + 1);
		}
	} while (!w->nomem && dwarf_siblingof(&child, &child) == 0);
}

static bool load_inlines(struct cu *c)
{
	struct walk w = { .c = c };
	size_t i, k = 0;
	uint64_t maxhi = 0;

	if (dwarf_getsrcfiles(&c->die, &w.files, &w.nfiles) != 0)
		w.files = NULL;
	walk_dies(&w, &c->die, 0);
	if (w.nomem)
		return false;
	if (c->ninl > UINT32_MAX / 2)
		return true;
	/* the outermost nodes: those no earlier node's subtree contains */
	for (i = 0; i < c->ninl; i = c->inl[i].next)
		k += c->inl[i].nrange;
	if (!k)
		return true;
	c->top = malloc(k * sizeof(*c->top));
	c->top_maxhi = malloc(k * sizeof(*c->top_maxhi));
	if (!c->top || !c->top_maxhi)
		return false;
	for (i = 0; i < c->ninl; i = c->inl[i].next) {
		memcpy(&c->top[c->ntop], &c->ranges[c->inl[i].range],
		       c->inl[i].nrange * sizeof(*c->top));
		c->ntop += c->inl[i].nrange;
	}
	qsort(c->top, c->ntop, sizeof(*c->top), cmp_addr_range);
	for (i = 0; i < c->ntop; i++) {
		if (c->top[i].hi > maxhi)
			maxhi = c->top[i].hi;
		c->top_maxhi[i] = maxhi;
	}
	return true;
}

static bool node_has(const struct cu *c, uint32_t node, uint64_t a)
{
	const struct inl *n = &c->inl[node];
	uint32_t i;

	for (i = 0; i < n->nrange; i++) {
		const struct addr_range *r = &c->ranges[n->range + i];

		if (a >= r->lo && a < r->hi)
			return true;
	}
	return false;
}


/* The CU whose ranges hold a: the one starting last among those that do. */
static struct cu *find_cu(struct pd_dwarf_lines *dl, uint64_t a)
{
	long i;

	LAST_LE(dl->cur, dl->ncur, lo, a, i);
	for (; i >= 0 && dl->cur_maxhi[i] > a; i--)
		if (a < dl->cur[i].hi)
			return &dl->cus[dl->cur[i].cu];
	return NULL;
}

static const struct line_row *find_row(const struct cu *c, uint64_t a)
{
	long i;

	LAST_LE(c->rows, c->nrows, addr, a, i);
	if (i < 0 || c->rows[i].end)
		return NULL;
	return &c->rows[i];
}

/* Outermost to innermost inline nodes holding a; returns how many. */
static unsigned int find_inlines(const struct cu *c, uint64_t a, uint32_t *chain, unsigned int max)
{
	unsigned int n = 0;
	uint32_t node = UINT32_MAX, child, end;
	long i;

	LAST_LE(c->top, c->ntop, lo, a, i);
	for (; i >= 0 && c->top_maxhi[i] > a; i--) {
		if (a < c->top[i].hi) {
			node = c->top[i].node;
			break;
		}
	}
	while (node != UINT32_MAX && n < max) {
		chain[n++] = node;
		end = c->inl[node].next;
		for (child = node + 1; child < end; child = c->inl[child].next)
			if (node_has(c, child, a))
				break;
		node = child < end ? child : UINT32_MAX;
	}
	return n;
}

/* Source position of a debug-file address: 1 found, 0 not, -1 no memory. */
static int lookup(struct pd_dwarf_lines *dl, uint64_t a, struct pd_sym_srcline *out)
{
	struct cu *c = find_cu(dl, a);
	const struct line_row *row;
	uint32_t chain[MAX_DIE_DEPTH];
	unsigned int n, i;

	out->nr = 0;
	if (!c)
		return 0;
	if (!c->loaded) {
		c->loaded = true;
		if (!load_lines(dl, c) || !load_inlines(c)) {
			Dwarf_Die die = c->die;

			cu_free(c);
			memset(c, 0, sizeof(*c));
			c->die = die;
			c->loaded = true;
			return -1;
		}
	}
	row = find_row(c, a);
	if (!row || !row->file)
		return 0;
	out->pos[0].func = NULL;
	out->pos[0].file = row->file;
	out->pos[0].line = row->line;
	out->nr = 1;
	n = find_inlines(c, a, chain, MAX_DIE_DEPTH);
	/*
	 * innermost first: each inline's position, then where it was called;
	 * deeper than PD_SYM_MAX_INLINE, the outermost levels are left out
	 */
	for (i = n; i-- > 0 && out->nr <= PD_SYM_MAX_INLINE;) {
		const struct inl *in = &c->inl[chain[i]];

		out->pos[out->nr - 1].func = in->name;
		out->pos[out->nr].func = NULL;
		out->pos[out->nr].file = in->call_file;
		out->pos[out->nr].line = in->call_line;
		out->nr++;
	}
	return 1;
}

/* A section's contents, uncompressed (libdw already did it for its own). */
static Elf_Data *section_data(Elf *elf, const char *name)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!n || strcmp(n, name))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
			return NULL;
		return elf_getdata(scn, NULL);
	}
	return NULL;
}

static struct pd_dwarf_lines *dwarf_open(int fd)
{
	struct pd_dwarf_lines *dl = calloc(1, sizeof(*dl));

	if (!dl) {
		close(fd);
		return NULL;
	}
	dl->fd = fd;
	pd_elf_init();
	dl->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!dl->elf || elf_kind(dl->elf) != ELF_K_ELF)
		goto fail;
	dl->dw = dwarf_begin_elf(dl->elf, DWARF_C_READ, NULL);
	if (!dl->dw || !index_cus(dl) || !dl->ncur)
		goto fail;
	dl->debug_line = section_data(dl->elf, ".debug_line");
	return dl;
fail:
	if (dl->dw)
		dwarf_end(dl->dw);
	if (dl->elf)
		elf_end(dl->elf);
	close(fd);
	for (size_t i = 0; i < dl->ncus; i++)
		cu_free(&dl->cus[i]);
	free(dl->cus);
	free(dl->cur);
	free(dl->cur_maxhi);
	free(dl);
	return NULL;
}

/* File offset of the runtime image to a debug-file address. */
static uint64_t debug_addr(const struct pd_dso *d, uint64_t addr)
{
	unsigned int i;

	if (d->kind == PD_DSO_KERNEL || !d->nsegs)
		return addr;
	for (i = 0; i < d->nsegs; i++) {
		const struct pd_load_seg *s = &d->segs[i];

		if (addr >= s->off && addr - s->off < s->size) {
			addr = addr - s->off + s->vaddr;
			break;
		}
	}
	return addr - (uint64_t)d->debug_bias;
}

static struct cache_ent *cache_slot(struct pd_dwarf_lines *dl, uint64_t addr)
{
	size_t mask = dl->cache_cap - 1;
	size_t h = (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 20) & mask;

	while (dl->cache[h].used && dl->cache[h].addr != addr)
		h = (h + 1) & mask;
	return &dl->cache[h];
}

static bool cache_grow(struct pd_dwarf_lines *dl)
{
	struct cache_ent *old = dl->cache;
	size_t oldcap = dl->cache_cap, i;

	dl->cache_cap = oldcap ? oldcap * 2 : 1024;
	dl->cache = calloc(dl->cache_cap, sizeof(*dl->cache));
	if (!dl->cache) {
		dl->cache = old;
		dl->cache_cap = oldcap;
		return false;
	}
	for (i = 0; i < oldcap; i++)
		if (old[i].used)
			*cache_slot(dl, old[i].addr) = old[i];
	free(old);
	return true;
}

/* Remember an answer; a failure only costs a later lookup. */
static void cache_put(struct pd_dwarf_lines *dl, uint64_t addr, const struct pd_sym_srcline *sl)
{
	struct cache_ent *e;
	unsigned int i;

	if (dl->cache_nr >= MAX_CACHE)
		return;
	if ((dl->cache_nr + 1) * 4 > dl->cache_cap * 3 && !cache_grow(dl))
		return;
	if (dl->npos + sl->nr > UINT32_MAX)
		return;
	while (dl->npos + sl->nr > dl->cap_pos)
		if (!grow((void **)&dl->pos, dl->cap_pos, &dl->cap_pos, sizeof(*dl->pos)))
			return;
	e = cache_slot(dl, addr);
	e->addr = addr;
	e->pos = (uint32_t)dl->npos;
	e->nr = (uint8_t)sl->nr;
	e->used = 1;
	for (i = 0; i < sl->nr; i++)
		dl->pos[dl->npos++] = sl->pos[i];
	dl->cache_nr++;
}

int pd_dwarf_srcline_fd(struct pd_dso *d, int fd, uint64_t addr, struct pd_sym_srcline *out,
			int *err)
{
	struct pd_dwarf_lines *dl = d->dwarf;
	uint64_t a;
	int r;

	out->nr = 0;
	if (!dl && !d->dwarf_tried) {
		d->dwarf_tried = true;
		if (fd >= 0)
			d->dwarf = dl = dwarf_open(fd);
		if (!dl)
			*err = 1;
	} else if (fd >= 0) {
		close(fd);
	}
	if (!dl)
		return 0;
	a = debug_addr(d, addr);
	if (dl->cache_cap) {
		const struct cache_ent *e = cache_slot(dl, a);

		if (e->used) {
			out->nr = e->nr;
			if (e->nr)	/* no position stored yet: no array either */
				memcpy(out->pos, &dl->pos[e->pos], e->nr * sizeof(out->pos[0]));
			return out->nr > 0;
		}
	}
	r = lookup(dl, a, out);
	if (r < 0) {
		out->nr = 0;
		return 0;
	}
	cache_put(dl, a, out);
	return r;
}
