// SPDX-License-Identifier: MIT
/*
 * dwarf_lines.c - source file, line and inline frames from DWARF (libdw).
 *
 * The one index of a DSO's DWARF, for both questions asked of it: the
 * source positions of --srcline with their chain of inlined subroutines
 * (pd_dwarf_srcline()), and the functions perf script shows as inline
 * frames of a DWARF-unwound stack (pd_dwarf_inline_frames(), for
 * inline.c).  Both come from one tree per CU of its functions and inlined
 * subroutines, so an output that asks both reads the DWARF once.  Their
 * rules stay those of perf's two answers: source lines descend from the
 * outermost inlined subroutine that starts last, through the first child
 * holding the address; inline frames from the outermost function holding
 * it, at each level the one whose range there is the shortest (addr2line's
 * choice among gas's aliases), up to PD_SYM_MAX_INLINE levels from the
 * outermost, and find the CU by .debug_aranges as libdw's dwarf_addrdie()
 * does (source lines: by the CUs' own ranges).  Compilers give both the
 * same answer.
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
 * Speed: the compile units' address ranges are read into one sorted array
 * on first use; a CU's line table (its line program, read here: see
 * lt_read()) and its tree are read only when an address falls in that CU,
 * into compact sorted arrays searched by bisection, whose strings are
 * copied into the DSO's own pool.  Without --srcline (inline frames
 * alone) the line tables are never read, .debug_line is not decompressed
 * and the CUs come from .debug_aranges; functions join the tree only once
 * inline frames are asked of the DSO, and names not needed for source
 * lines are read when an inline frame first shows them.  Those arrays of all DSOs
 * together are kept within CU_TABLES_BUDGET: the least recently used CUs'
 * are forgotten and read again when needed.  Answers are cached per (DSO,
 * address): profiles repeat addresses.
 *
 * Memory: libdw keeps, for as long as its Dwarf handle is open, its own
 * form of every DIE read; nothing here points into it once a CU is read,
 * so the Dwarf handles of all DSOs together are kept within LIBDW_BUDGET
 * (the least recently used ended first; another is made over the same Elf
 * handle in a fraction of a millisecond).  The Elf handle holds the debug
 * sections, mapped from the file, or from a copy with them decompressed
 * when the file has them compressed (libc6-dbg's files): in anonymous
 * memory within KEPT_COPIES_BUDGET, else in an unlinked temporary file.
 * The pages of a map of a file are dropped again after every CU read
 * (they come back from the page cache when needed); those of a copy in
 * anonymous memory stay while its handle is open.  The Elf
 * handles of all DSOs together are kept within DWARF_OPEN_BUDGET: the
 * least recently used are closed and opened again when another of their
 * CUs is needed.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <libdeflate.h>
#include <libelf.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "sym_internal.h"

/* bounds against hostile or absurd debug info */
#define MAX_DIE_DEPTH	128
/* debug files copied ahead at most (pd_dwarf_copy_ahead()) */
#define COPIES_AHEAD	4
#define MAX_CACHE	(1u << 16)	/* cached addresses per DSO, then it starts again */
#define MAX_STRINGS	(1u << 24)	/* distinct strings per DSO */

/* memory of the CUs' compact tables of a machine, all DSOs */
#define CU_TABLES_BUDGET	((size_t)8 << 20)
/* estimated memory of the open Elf handles of a machine, all DSOs */
#define DWARF_OPEN_BUDGET	((size_t)24 << 20)
/*
 * memory of the decompressed copies in anonymous memory, whose pages stay
 * (see decompressed_copy()), of a machine, open or on their way; past it
 * a copy is made in a file.  libc6-dbg's: 11 MB, 13 MB with .debug_line.
 */
#define KEPT_COPIES_BUDGET	((size_t)24 << 20)
/* what stays of a handle whose mapped pages are dropped: libelf's section list */
#define MAPPED_HANDLE_BYTES	((size_t)256 << 10)
/* estimated memory of the Dwarf handles of a machine, all DSOs */
#define LIBDW_BUDGET		((size_t)1 << 20)
/* libdw's memory per line row it read (its Dwarf_Line and sorting) */
#define LIBDW_ROW_BYTES		64
/* per unit it knows (its Dwarf_CU and the abbreviations of the unit DIE) */
#define LIBDW_UNIT_BYTES	1024
/* units whose headers libdw reads between drops of the map's pages */
#define UNITS_DROP_EVERY	64
/* per CU whose DIEs were walked (their abbreviations) */
#define LIBDW_CU_BYTES		((size_t)16 << 10)

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

/* A line-table row; strings are ids in the DSO's pool (0: none). */
struct line_row {
	uint64_t addr;
	uint32_t line;		/* ROW_END: DW_LNE_end_sequence, no code from here */
	uint32_t file;
};

#define ROW_END		(1u << 31)

/*
 * One DW_TAG_inlined_subroutine, or a DW_TAG_subprogram with code (a
 * function: what the inline frames of an unwound stack end with); a CU's
 * are in depth-first order.
 */
struct inl {
	uint32_t name;		/* string id (see add_node()) */
	uint32_t next;		/* first index after this node's subtree */
	uint32_t range;		/* its address ranges in cu->ranges */
	uint32_t nrange : 29;
	uint32_t func : 1;	/* a DW_TAG_subprogram */
	uint32_t named : 1;	/* name and linkage are read */
	uint32_t linkage : 1;	/* binutils takes its name as a linkage name */
	struct {
		uint32_t file, line;
	} call;			/* an inlined subroutine's call site */
	uint32_t die;		/* its DIE offset past the CU's (UINT32_MAX: too far) */
};

struct addr_range {
	uint64_t lo, hi;
	uint32_t node;
};

struct pd_dwarf_cu {
	Dwarf_Off off;		/* of its DIE: found again when libdw is reopened */
	bool loaded;
	bool funcs;		/* its functions are nodes too */
	bool lines;		/* its line rows and call sites are read */
	uint16_t lang;		/* DW_AT_language of its DIE */
	/* while loaded with tables: in env's list, most recently used first */
	struct pd_dwarf_cu *newer, *older;
	size_t bytes;		/* of its tables */
	struct line_row *rows;
	size_t nrows;
	struct inl *inl;
	size_t ninl;
	struct addr_range *ranges;	/* of every inline node, grouped per node */
	size_t nranges, cap_ranges;
	struct addr_range *top;		/* of the outermost inlined subroutines, by lo */
	uint64_t *top_maxhi;		/* running maximum of top[].hi */
	/*
	 * top[0 .. ntop): for source lines; top[ntop .. ntop + nftop), with
	 * functions: the nodes outside any other, for inline frames
	 */
	uint32_t ntop, nftop;
};

struct cache_ent {
	uint64_t addr;
	uint32_t pos;		/* first entry in dl->pos */
	uint8_t nr;
	uint8_t used;
	uint8_t symtab;		/* the answer came from the ELF symbols */
};

/* a cached position: string ids */
struct cpos {
	uint32_t func, file, line;
};

struct named_slot {
	uint64_t off;		/* DIE offset + 1; 0: empty */
	int64_t name;
};

struct shown_slot {
	uint32_t raw, shown;	/* string ids; raw 0: empty */
};

/* answers cached by address */
struct answers {
	struct cache_ent *tab;
	size_t cap, nr;
	struct cpos *pos;
	size_t npos, cap_pos;
};

/* Strings copied out of libdw, deduplicated: they outlive its handle. */
struct str_chunk {
	struct str_chunk *next;
	size_t used, size;
	char data[];
};

struct str_pool {
	const char **str;	/* by id; [0] is NULL */
	uint32_t nstr, cap_str;
	uint32_t *hash;		/* open addressing: ids, 0 empty */
	size_t cap_hash;
	struct str_chunk *chunks;
};

struct pd_dwarf_lines {
	struct pd_sym_env *env;
	/* the Elf handle, while open */
	int fd;
	Elf *elf;
	char *map;		/* the file, mapped here when its pages may be dropped */
	size_t map_size;
	size_t keep_hdr, keep_sh_lo, keep_sh_hi;	/* pages never dropped */
	Dwarf *dw;		/* over elf, within LIBDW_BUDGET */
	Dwarf_CU *units_last;	/* the last unit of dw walked by units_up_to() */
	Dwarf_Off units_off;	/* the offset of its DIE */
	size_t dw_cost;		/* its estimated memory */
	/* uncompressed, for the line programs and the file-name spans */
	Elf_Data *debug_line, *debug_line_str, *debug_str;
	size_t cost;		/* its estimated memory */
	struct pd_dwarf_lines *newer, *older;	/* in env->dwarf_open */
	bool gone;		/* could not be opened again: no more CUs */
	bool want_funcs;	/* inline frames were asked: CUs are read with functions */
	bool nodwarf;		/* the file has none to use: kept for inline frames */
	bool decompressed;	/* its debug sections are compressed in the file */
	bool copy;		/* mapped from a decompressed copy of the file */
	bool copy_kept;		/* the copy is in anonymous memory: its pages stay */
	/* what stays */
	struct pd_dwarf_cu *cus;
	size_t ncus;
	struct cu_range *cur;	/* CU ranges sorted by lo */
	uint64_t *cur_maxhi;	/* running maximum of cur[].hi */
	size_t ncur;
	/* .debug_aranges, sorted by lo: where inline frames look for a CU */
	struct cu_range *acur;
	uint64_t *acur_maxhi;
	size_t nacur;
	bool acur_read;
	struct answers lines;	/* source positions by address */
	struct answers frames;	/* inline frames by address: shown names in func */
	struct str_pool strs;
	/*
	 * functions whose name is no linkage name, as addr2line named them
	 * first (see addr2line_name()): DIE offset + 1 to a shown string id,
	 * -1 when they keep their own name
	 */
	struct named_slot *named;
	size_t cap_named, nnamed;
	/* names shown in inline frames: string id to that of its demangled form */
	struct shown_slot *shown;
	size_t cap_shown, nshown;
};

static void cu_free(struct pd_dwarf_cu *c)
{
	free(c->rows);
	free(c->inl);
	free(c->ranges);
	free(c->top);
	free(c->top_maxhi);
}

static void cu_unlink(struct pd_sym_env *env, struct pd_dwarf_cu *c)
{
	if (!c->bytes)
		return;
	if (c->newer)
		c->newer->older = c->older;
	else
		env->dwarf_cu_newest = c->older;
	if (c->older)
		c->older->newer = c->newer;
	else
		env->dwarf_cu_oldest = c->newer;
	c->newer = c->older = NULL;
	env->dwarf_cu_bytes -= c->bytes;
	c->bytes = 0;
}

/* Forget a CU's tables: they are read again when needed. */
static void cu_unload(struct pd_sym_env *env, struct pd_dwarf_cu *c)
{
	Dwarf_Off off = c->off;

	cu_unlink(env, c);
	cu_free(c);
	memset(c, 0, sizeof(*c));
	c->off = off;
}

/* c was used: it becomes the newest. */
static void cu_used(struct pd_sym_env *env, struct pd_dwarf_cu *c)
{
	if (!c->bytes || !c->newer)
		return;
	c->newer->older = c->older;
	if (c->older)
		c->older->newer = c->newer;
	else
		env->dwarf_cu_oldest = c->newer;
	c->newer = NULL;
	c->older = env->dwarf_cu_newest;
	c->older->newer = c;
	env->dwarf_cu_newest = c;
}

/*
 * c was read: its tables join the others, and past the budget the least
 * recently used are forgotten (never c itself).
 */
static void cu_loaded(struct pd_sym_env *env, struct pd_dwarf_cu *c)
{
	size_t bytes = c->nrows * sizeof(*c->rows) + c->ninl * sizeof(*c->inl) +
		       c->cap_ranges * sizeof(*c->ranges) +
		       (c->ntop + c->nftop) * (sizeof(*c->top) + sizeof(*c->top_maxhi));

	if (!bytes)
		return;
	c->bytes = bytes;
	c->newer = NULL;
	c->older = env->dwarf_cu_newest;
	if (c->older)
		c->older->newer = c;
	else
		env->dwarf_cu_oldest = c;
	env->dwarf_cu_newest = c;
	env->dwarf_cu_bytes += bytes;
	while (env->dwarf_cu_bytes > CU_TABLES_BUDGET && env->dwarf_cu_oldest != c)
		cu_unload(env, env->dwarf_cu_oldest);
}

/* ------------------------------------------------------------ strings */

static uint64_t str_hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

static void str_pool_free(struct str_pool *sp)
{
	struct str_chunk *c, *next;

	for (c = sp->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(sp->str);
	free(sp->hash);
	memset(sp, 0, sizeof(*sp));
}

static char *str_copy(struct str_pool *sp, const char *s, size_t n)
{
	struct str_chunk *c = sp->chunks;
	char *p;

	if (!c || c->size - c->used <= n) {
		size_t size = n + 1 > 65536 - sizeof(*c) ? n + 1 : 65536 - sizeof(*c);

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = sp->chunks;
		sp->chunks = c;
	}
	p = c->data + c->used;
	memcpy(p, s, n);
	p[n] = '\0';
	c->used += n + 1;
	return p;
}

static bool str_rehash(struct str_pool *sp)
{
	size_t ncap = sp->cap_hash ? sp->cap_hash * 2 : 1024, i;
	uint32_t *nh = calloc(ncap, sizeof(*nh));

	if (!nh)
		return false;
	for (i = 1; i < sp->nstr; i++) {
		const char *s = sp->str[i];
		size_t h = (size_t)str_hash(s, strlen(s)) & (ncap - 1);

		while (nh[h])
			h = (h + 1) & (ncap - 1);
		nh[h] = (uint32_t)i;
	}
	free(sp->hash);
	sp->hash = nh;
	sp->cap_hash = ncap;
	return true;
}

/* The id of s in the pool, added when new; 0 for NULL; -1 out of memory. */
static int64_t str_id(struct str_pool *sp, const char *s)
{
	size_t n, h, cap;
	char *copy;

	if (!s)
		return 0;
	if (sp->nstr == 0) {
		size_t cap32 = 0;

		if (!pd_grow(&sp->str, &cap32, 1, sizeof(*sp->str), SIZE_MAX))
			return -1;
		sp->cap_str = (uint32_t)cap32;
		sp->str[0] = NULL;
		sp->nstr = 1;
	}
	if ((size_t)sp->nstr * 2 >= sp->cap_hash && !str_rehash(sp))
		return -1;
	n = strlen(s);
	h = (size_t)str_hash(s, n) & (sp->cap_hash - 1);
	while (sp->hash[h]) {
		const char *t = sp->str[sp->hash[h]];

		if (!strcmp(t, s))
			return sp->hash[h];
		h = (h + 1) & (sp->cap_hash - 1);
	}
	if (sp->nstr >= MAX_STRINGS)
		return -1;
	cap = sp->cap_str;
	if (!pd_grow(&sp->str, &cap, (size_t)sp->nstr + 1, sizeof(*sp->str), SIZE_MAX))
		return -1;
	sp->cap_str = (uint32_t)cap;
	copy = str_copy(sp, s, n);
	if (!copy)
		return -1;
	sp->str[sp->nstr] = copy;
	sp->hash[h] = sp->nstr;
	return sp->nstr++;
}

/*
 * Ids of the names of one file table (Dwarf_Files), by index: a CU's rows
 * name a few files many times.
 */
struct file_ids {
	Dwarf_Files *files;
	uint32_t *id;		/* + 1: 0 not known yet */
	size_t n;
};

#define MAX_FILE_IDX	(1u << 20)	/* larger indexes are not remembered */

static int64_t file_id(struct str_pool *sp, struct file_ids *fi, Dwarf_Files *files, size_t idx)
{
	int64_t id;

	if (fi->files != files) {
		if (fi->n)	/* no array yet: nothing to forget (memset of NULL) */
			memset(fi->id, 0, fi->n * sizeof(*fi->id));
		fi->files = files;
	}
	if (idx < fi->n && fi->id[idx])
		return fi->id[idx] - 1;
	id = str_id(sp, dwarf_filesrc(files, idx, NULL, NULL));
	if (id < 0 || idx >= MAX_FILE_IDX)
		return id;
	if (idx >= fi->n) {
		size_t n = fi->n ? fi->n : 16;
		uint32_t *p;

		while (n <= idx)
			n *= 2;
		p = realloc(fi->id, n * sizeof(*p));
		if (!p)
			return id;
		memset(p + fi->n, 0, (n - fi->n) * sizeof(*p));
		fi->id = p;
		fi->n = n;
	}
	fi->id[idx] = (uint32_t)id + 1;
	return id;
}

/* ------------------------------------------------------------ libdw handles */

/* A copy in anonymous memory of `size` fits in KEPT_COPIES_BUDGET: reserved. */
static bool kept_reserve(_Atomic size_t *kept_bytes, size_t size)
{
	size_t cur = atomic_load(kept_bytes);

	do {
		if (size > KEPT_COPIES_BUDGET || cur > KEPT_COPIES_BUDGET - size)
			return false;
	} while (!atomic_compare_exchange_weak(kept_bytes, &cur, cur + size));
	return true;
}

static void kept_release(_Atomic size_t *kept_bytes, size_t size)
{
	atomic_fetch_sub(kept_bytes, size);
}

/* dl's map goes (a copy in anonymous memory: its reservation too). */
static void unmap_file(struct pd_dwarf_lines *dl)
{
	if (!dl->map)
		return;
	munmap(dl->map, dl->map_size);
	if (dl->copy_kept)
		kept_release(&dl->env->dwarf_kept_bytes, dl->map_size);
	dl->map = NULL;
	dl->copy_kept = false;
}

static void handle_unlink(struct pd_dwarf_lines *dl)
{
	struct pd_sym_env *env = dl->env;

	if (dl->newer)
		dl->newer->older = dl->older;
	else if (env->dwarf_open == dl)
		env->dwarf_open = dl->older;
	if (dl->older)
		dl->older->newer = dl->newer;
	dl->newer = dl->older = NULL;
}

static void handle_close(struct pd_dwarf_lines *dl)
{
	if (!dl->elf && !dl->dw && dl->fd < 0)
		return;
	if (dl->dw)
		dwarf_end(dl->dw);
	if (dl->elf)
		elf_end(dl->elf);
	unmap_file(dl);
	if (dl->fd >= 0)
		close(dl->fd);
	dl->dw = NULL;
	dl->units_last = NULL;
	dl->units_off = 0;
	dl->dw_cost = 0;
	dl->elf = NULL;
	dl->map = NULL;
	dl->fd = -1;
	dl->debug_line = dl->debug_line_str = dl->debug_str = NULL;
	handle_unlink(dl);
	dl->env->dwarf_open_bytes -= dl->cost;
	dl->cost = 0;
#ifdef __GLIBC__
	/*
	 * The decompressed sections were freed in the middle of the heap,
	 * where malloc keeps them resident until it reuses the space.
	 */
	if (dl->decompressed && !dl->copy)
		malloc_trim(0);
#endif
	dl->copy = false;
}

/* The pages of the mapped file go: libdw reads them again when needed. */
static void drop_pages(struct pd_dwarf_lines *dl)
{
	if (dl->map && dl->keep_sh_lo > dl->keep_hdr)
		madvise(dl->map + dl->keep_hdr, dl->keep_sh_lo - dl->keep_hdr, MADV_DONTNEED);
	if (dl->map && dl->map_size > dl->keep_sh_hi)
		madvise(dl->map + dl->keep_sh_hi, dl->map_size - dl->keep_sh_hi, MADV_DONTNEED);
}

/*
 * A CU was read (bytes: an estimate of the memory libdw took for it):
 * past the budget, the least recently used Dwarf handles end, and the
 * pages of the mapped file go.
 */
static void handle_rest(struct pd_dwarf_lines *dl, size_t bytes)
{
	struct pd_dwarf_lines *h, *oldest;
	size_t total = 0;

	if (dl->dw)
		dl->dw_cost += bytes;
	for (h = dl->env->dwarf_open; h; h = h->older)
		total += h->dw_cost;
	while (total > LIBDW_BUDGET) {
		oldest = NULL;
		for (h = dl->env->dwarf_open; h; h = h->older)
			if (h->dw && h != dl)
				oldest = h;
		if (!oldest)
			oldest = dl;
		if (!oldest->dw)
			break;
		total -= oldest->dw_cost;
		dwarf_end(oldest->dw);
		oldest->dw = NULL;
		oldest->units_last = NULL;
		oldest->units_off = 0;
		oldest->dw_cost = 0;
	}
	drop_pages(dl);
}

/*
 * dl's handle is the one used last; past the budget, close the others,
 * least recently used first, those of mapped files (opened again in a
 * fraction of a millisecond) before those that had to be decompressed
 * (libc's debug file: tens of milliseconds).
 */
static void handle_used(struct pd_dwarf_lines *dl, size_t more)
{
	struct pd_sym_env *env = dl->env;
	struct pd_dwarf_lines *old, *victim;

	dl->cost += more;
	env->dwarf_open_bytes += more;
	if (env->dwarf_open != dl) {
		handle_unlink(dl);
		dl->older = env->dwarf_open;
		if (dl->older)
			dl->older->newer = dl;
		env->dwarf_open = dl;
	}
	while (env->dwarf_open_bytes > DWARF_OPEN_BUDGET) {
		victim = NULL;
		for (old = dl->older; old; old = old->older)
			if (!victim || victim->decompressed || !old->decompressed)
				victim = old;
		if (!victim)
			break;
		handle_close(victim);
	}
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

/*
 * What libdw's handle will hold of the file's debug sections: compressed
 * ones are decompressed into memory whole; the others are mapped from the
 * file and only the pages read become resident (those of the CUs read:
 * about a quarter here), which also makes them cheap to open again.
 */
static size_t debug_sections_size(Elf *elf, bool *decompressed)
{
	size_t shstrndx, total = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;
		GElf_Chdr ch;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!n || (strncmp(n, ".debug_", 7) && strncmp(n, ".zdebug_", 8)))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) && gelf_getchdr(scn, &ch)) {
			total += ch.ch_size;
			*decompressed = true;
		} else if (!strncmp(n, ".zdebug_", 8)) {
			total += sh.sh_size * 4;	/* decompressed: about that */
			*decompressed = true;
		} else {
			total += sh.sh_size / 4;
		}
	}
	return total;
}

/* Page-aligned [lo, hi) around bytes [off, off + len) of a map of size n. */
static void page_span(size_t off, size_t len, size_t n, size_t *lo, size_t *hi)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	*lo = off / page * page;
	*hi = len > n - off ? n : off + len;
	*hi = *hi > n - (page - 1) ? n : (*hi + page - 1) / page * page;
}

/*
 * The pages libelf may write in a private map of the file: the ELF and
 * program headers, and the section headers, which it updates in place for
 * a section it decompresses.  False when the headers are not in the file.
 */
static bool header_pages(struct pd_dwarf_lines *dl, Elf *elf)
{
	GElf_Ehdr eh;
	size_t shnum, lo;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &shnum) != 0 ||
	    eh.e_phoff > dl->map_size || eh.e_shoff > dl->map_size ||
	    (uint64_t)eh.e_phnum * eh.e_phentsize > dl->map_size - eh.e_phoff ||
	    (uint64_t)shnum * eh.e_shentsize > dl->map_size - eh.e_shoff)
		return false;
	page_span(0, eh.e_phoff + (size_t)eh.e_phnum * eh.e_phentsize > eh.e_ehsize ?
		  eh.e_phoff + (size_t)eh.e_phnum * eh.e_phentsize : eh.e_ehsize,
		  dl->map_size, &lo, &dl->keep_hdr);
	page_span(eh.e_shoff, shnum * eh.e_shentsize, dl->map_size, &dl->keep_sh_lo,
		  &dl->keep_sh_hi);
	(void)lo;
	return true;
}

/*
 * The debug sections read here: the units and their DIEs, line tables
 * (lines: not for inline frames alone, without --srcline), strings and
 * address ranges.  Location lists, call frames, address tables, name
 * indexes and macros never are.
 */
static bool section_used(const char *name, bool lines)
{
	static const char *const used[] = {
		"info", "abbrev", "line", "line_str", "str", "str_offsets", "addr",
		"ranges", "rnglists", "types", "aranges",
	};
	size_t i;

	if (!strncmp(name, ".debug_", 7))
		name += 7;
	else if (!strncmp(name, ".zdebug_", 8))
		name += 8;
	else
		return true;
	if (!lines && !strcmp(name, "line"))
		return false;
	for (i = 0; i < sizeof(used) / sizeof(used[0]); i++)
		if (!strcmp(name, used[i]))
			return true;
	return false;
}

/*
 * Compressed debug sections that are never read become SHT_NOBITS in our
 * private map, which libdw skips: it would decompress each of them whole
 * (libc6-dbg's location lists alone are 1.4 MB).
 */
static void hide_unused_sections(Elf *elf, bool lines)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!n || section_used(n, lines) ||
		    (!(sh.sh_flags & SHF_COMPRESSED) && strncmp(n, ".zdebug_", 8)))
			continue;
		sh.sh_type = SHT_NOBITS;
		gelf_update_shdr(scn, &sh);
	}
}

/*
 * Advice on the pages of the copy's map (base, size) around bytes
 * [off, off + len).  Either advice leaves the contents of a copy in a
 * file as they are: the map is shared, its pages are the file's (never
 * MADV_DONTNEED on a kept copy: its anonymous pages would read as zeros).
 */
static void copy_pages(uint8_t *base, size_t size, uint64_t off, size_t len, int advice)
{
	size_t lo, hi;

	page_span((size_t)off, len, size, &lo, &hi);
	if (hi > lo)
		madvise(base + lo, hi - lo, advice);
}

/*
 * Inflate the zlib stream in[0..in_len) into the copy's map (base, size)
 * at off, which it must fill with exactly want bytes; false when the
 * stream is damaged, fails its Adler-32 or is not of that size.
 *
 * libdeflate inflates a whole buffer at once, about 2.7 times as fast as
 * zlib's streaming inflate (libc6-dbg's .debug_info: 13 ms against 35):
 * the copy's pages are faulted in at once for it and, in a file (not
 * kept), dropped after, so that the process holds the section's pages
 * only while it is inflated.
 */
static bool inflate_into(uint8_t *base, size_t size, uint64_t off, uint64_t want,
			 const uint8_t *in, size_t in_len, bool kept)
{
	struct libdeflate_decompressor *d;
	enum libdeflate_result r;

	if (off > size || want > size - off)
		return false;
	d = libdeflate_alloc_decompressor();
	if (!d)
		return false;
#ifdef MADV_POPULATE_WRITE
	copy_pages(base, size, off, (size_t)want, MADV_POPULATE_WRITE);
#endif
	/* NULL: the output must be exactly want bytes */
	r = libdeflate_zlib_decompress(d, in, in_len, base + off, (size_t)want, NULL);
	if (!kept)
		copy_pages(base, size, off, (size_t)want, MADV_DONTNEED);
	libdeflate_free_decompressor(d);
	return r == LIBDEFLATE_SUCCESS;
}

/* One section header of the copy, in the file's class, at out. */
static bool put_shdr(uint8_t *out, int cls, const GElf_Shdr *sh)
{
	Elf32_Shdr s32;

	if (cls == ELFCLASS64) {
		memcpy(out, sh, sizeof(*sh));	/* GElf_Shdr is Elf64_Shdr */
		return true;
	}
	if (sh->sh_offset > UINT32_MAX || sh->sh_size > UINT32_MAX)
		return false;
	s32.sh_name = sh->sh_name;
	s32.sh_type = sh->sh_type;
	s32.sh_flags = (Elf32_Word)sh->sh_flags;
	s32.sh_addr = (Elf32_Addr)sh->sh_addr;
	s32.sh_offset = (Elf32_Off)sh->sh_offset;
	s32.sh_size = (Elf32_Word)sh->sh_size;
	s32.sh_link = sh->sh_link;
	s32.sh_info = sh->sh_info;
	s32.sh_addralign = (Elf32_Word)sh->sh_addralign;
	s32.sh_entsize = (Elf32_Word)sh->sh_entsize;
	memcpy(out, &s32, sizeof(s32));
	return true;
}

/* The ELF header's e_shoff, written in the copy. */
static bool put_shoff(uint8_t *out, int cls, uint64_t shoff)
{
	if (cls == ELFCLASS64) {
		Elf64_Off v = shoff;

		memcpy(out + offsetof(Elf64_Ehdr, e_shoff), &v, sizeof(v));
	} else {
		Elf32_Off v = (Elf32_Off)shoff;

		if (shoff > UINT32_MAX)
			return false;
		memcpy(out + offsetof(Elf32_Ehdr, e_shoff), &v, sizeof(v));
	}
	return true;
}

/* A section of the copy: its header there, and where its bytes come from. */
struct copy_sec {
	GElf_Shdr sh;
	uint64_t skip_off, skip_len;	/* a compressed section: not copied */
	uint64_t in_off, in_len;	/* its zlib stream, when inflated */
};

static int cmp_skip(const void *a, const void *b)
{
	const struct copy_sec *x = a, *y = b;

	return x->skip_off < y->skip_off ? -1 : x->skip_off > y->skip_off;
}

/*
 * The file the copy is written in: memory of its own (memfd), which no
 * file system journals or writes back; else an unlinked temporary file.
 */
static int copy_file(void)
{
	FILE *f;
	int fd;

#ifdef MFD_CLOEXEC
	fd = memfd_create("debug-copy", MFD_CLOEXEC);
	if (fd >= 0)
		return fd;
#endif
	f = tmpfile();
	if (!f)
		return -1;
	fd = dup(fileno(f));
	fclose(f);
	return fd;
}

/*
 * The headers of the copy's sections, in sec[0..shnum), and the copy's
 * size; false when a section cannot be handled here (then libelf
 * decompresses).  The section header table goes after the file, the
 * inflated sections after the table.
 */
static bool copy_layout(Elf *elf, size_t map_size, bool lines, struct copy_sec *sec,
			size_t shnum, uint64_t shoff, uint64_t *size)
{
	int cls = gelf_getclass(elf);
	size_t shstrndx, i, chdr_size = cls == ELFCLASS64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr);
	size_t entsize = cls == ELFCLASS64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	uint64_t end = shoff + shnum * entsize;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	for (i = 0; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr *sh = &sec[i].sh;
		GElf_Chdr ch;
		const char *n;
		uint64_t align;

		if (!scn || !gelf_getshdr(scn, sh))
			return false;
		n = i ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;
		if (n && !strncmp(n, ".zdebug_", 8))
			return false;	/* GNU's older form: libelf's */
		if (!n || sh->sh_type == SHT_NOBITS || !(sh->sh_flags & SHF_COMPRESSED) ||
		    strncmp(n, ".debug_", 7))
			continue;
		if (sh->sh_offset > map_size || sh->sh_size > map_size - sh->sh_offset)
			return false;
		/* no header of the copy points at the compressed bytes */
		sec[i].skip_off = sh->sh_offset;
		sec[i].skip_len = sh->sh_size;
		if (!section_used(n, lines)) {
			sh->sh_type = SHT_NOBITS;
			continue;
		}
		if (!gelf_getchdr(scn, &ch) || ch.ch_type != ELFCOMPRESS_ZLIB ||
		    sh->sh_size < chdr_size || ch.ch_size > UINT_MAX)
			return false;
		align = ch.ch_addralign > 8 && ch.ch_addralign <= 4096 &&
			!(ch.ch_addralign & (ch.ch_addralign - 1)) ? ch.ch_addralign : 8;
		end = (end + align - 1) & ~(align - 1);
		sec[i].in_off = sh->sh_offset + chdr_size;
		sec[i].in_len = sh->sh_size - chdr_size;
		sh->sh_offset = end;
		sh->sh_size = ch.ch_size;
		sh->sh_flags &= ~(uint64_t)SHF_COMPRESSED;
		sh->sh_addralign = align;
		end += ch.ch_size;
	}
	*size = end;
	return end <= SIZE_MAX;
}

/*
 * Fill the copy at out: the used sections inflated and the section
 * headers after the file, then the bytes of the file but its compressed
 * debug sections (never read: the copy's pages of them stay holes).
 * sec[] is sorted by the compressed sections' offsets on return.
 */
static bool copy_fill(uint8_t *out, size_t size, const uint8_t *map, size_t map_size, int cls,
		      struct copy_sec *sec, size_t shnum, uint64_t shoff, bool kept)
{
	size_t i, entsize = cls == ELFCLASS64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	uint64_t pos = 0;

	for (i = 0; i < shnum; i++) {
		if (sec[i].in_len && !inflate_into(out, size, sec[i].sh.sh_offset, sec[i].sh.sh_size,
						   map + sec[i].in_off, (size_t)sec[i].in_len, kept))
			return false;
		if (!put_shdr(out + shoff + i * entsize, cls, &sec[i].sh))
			return false;
	}
	qsort(sec, shnum, sizeof(*sec), cmp_skip);
	for (i = 0; i < shnum; i++) {
		uint64_t from = sec[i].skip_off, to = from + sec[i].skip_len;

		if (!sec[i].skip_len)
			continue;
		if (from > pos)
			memcpy(out + pos, map + pos, (size_t)(from - pos));
		if (to > pos)
			pos = to;
	}
	if (map_size > pos)
		memcpy(out + pos, map + pos, map_size - pos);
	return put_shoff(out, cls, shoff);
}

/*
 * A copy of a debug file whose sections are compressed (libc6-dbg's): the
 * file as it is but its compressed debug sections, then section headers
 * that point past it at the sections read here, inflated (libdeflate)
 * straight into a writable map of the copy (the unused compressed ones
 * made SHT_NOBITS), then mapped read-only in place of the file.
 *
 * A copy that fits what remains of KEPT_COPIES_BUDGET (*kept_bytes, all
 * threads') is anonymous memory, inflated (on the copy-ahead thread) into
 * pages that stay for as long as the handle is open (*fd is -1): libdw
 * then reads it without a page fault, and no page is dropped after each
 * CU (libc's copy in a file was dropped and faulted in again for every
 * CU read, each drop a TLB shootdown on the other threads' CPUs).  The
 * handle counts in DWARF_OPEN_BUDGET as one of a mapped file, as a copy
 * in a file does: two large copies never close each other's handle, which
 * would inflate them again and again.
 *
 * Else the copy is written in memory of its own or an unlinked temporary
 * file (copy_file()) through a shared map; its pages are dropped after
 * every CU as those of a file without compressed sections, so that the
 * decompressed DWARF is in the copy and not in the memory of the process.
 *
 * The copy's map and descriptor, or NULL when it cannot be made (then
 * libelf decompresses the sections into memory, as before).
 */
static uint8_t *decompressed_copy(Elf *elf, const uint8_t *map, size_t map_size, bool lines,
				  _Atomic size_t *kept_bytes, size_t *size, int *fd)
{
	int cls = gelf_getclass(elf);
	size_t shnum;
	uint64_t shoff = ((uint64_t)map_size + 7) & ~(uint64_t)7, end;
	struct copy_sec *sec;
	uint8_t *out = MAP_FAILED;
	bool kept = false;

	*fd = -1;
	if ((cls != ELFCLASS64 && cls != ELFCLASS32) || elf_getshdrnum(elf, &shnum) || !shnum ||
	    shnum > (size_t)1 << 20)
		return NULL;
	sec = calloc(shnum, sizeof(*sec));
	if (!sec)
		return NULL;
	if (!copy_layout(elf, map_size, lines, sec, shnum, shoff, &end) ||
	    end > (uint64_t)INT64_MAX)
		goto fail;
	kept = kept_reserve(kept_bytes, (size_t)end);
	if (kept) {
		out = mmap(NULL, (size_t)end, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0);
	} else {
		*fd = copy_file();
		if (*fd < 0 || ftruncate(*fd, (off_t)end) != 0)
			goto fail;
		out = mmap(NULL, (size_t)end, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	}
	if (out == MAP_FAILED ||
	    !copy_fill(out, (size_t)end, map, map_size, cls, sec, shnum, shoff, kept) ||
	    mprotect(out, (size_t)end, PROT_READ) != 0)
		goto fail;
	/* the pages are the copy's: out of the process until libdw reads them */
	if (!kept)
		madvise(out, (size_t)end, MADV_DONTNEED);
	free(sec);
	*size = (size_t)end;
	return out;
fail:
	if (out != MAP_FAILED)
		munmap(out, (size_t)end);
	if (kept)
		kept_release(kept_bytes, (size_t)end);
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	free(sec);
	return NULL;
}

/*
 * A debug file's decompressed copy made on a thread of its own from the
 * time the header's build-id table names its DSO (pd_dwarf_copy_ahead()),
 * for map_copy() to take when libdw first opens that file: its inflating
 * (libc6-dbg's: about 15 ms of CPU) overlaps the reading of the first
 * samples on the second core.  The copy is the same bytes either way; a
 * file that turns out to have no copy (or not to be the one opened) is
 * left to map_copy() as before.
 */
struct pd_copy_ahead {
	struct pd_copy_ahead *next;
	pthread_t thread;
	int src;		/* the debug file */
	bool lines;		/* env->opts.srcline, which the copy depends on */
	_Atomic size_t *kept_bytes;	/* env->dwarf_kept_bytes */
	dev_t dev;		/* the file, as map_copy() finds it again */
	ino_t ino;
	/* the thread's result: the copy, or map NULL */
	uint8_t *map;
	size_t size;
	int fd;
};

/* As elf_mapped() and map_copy() would make it, on the thread. */
static void *copy_ahead_main(void *arg)
{
	struct pd_copy_ahead *a = arg;
	struct stat st;
	bool compressed = false;
	const char *ident;
	void *file;
	Elf *elf;

	if (fstat(a->src, &st) != 0 || st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX)
		return NULL;
	file = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, a->src, 0);
	if (file == MAP_FAILED)
		return NULL;
	elf = elf_memory(file, (size_t)st.st_size);
	ident = elf && elf_kind(elf) == ELF_K_ELF ? elf_getident(elf, NULL) : NULL;
	if (ident && ident[EI_DATA] == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ?
					ELFDATA2LSB : ELFDATA2MSB)) {
		debug_sections_size(elf, &compressed);
		if (compressed)
			a->map = decompressed_copy(elf, file, (size_t)st.st_size, a->lines,
						   a->kept_bytes, &a->size, &a->fd);
	}
	if (elf)
		elf_end(elf);
	munmap(file, (size_t)st.st_size);
	return NULL;
}

void pd_dwarf_copy_ahead(struct pd_sym_env *env, int fd)
{
	struct pd_copy_ahead *a;
	struct stat st;
	size_t n = 0;

	if (fstat(fd, &st) != 0)
		goto fail;
	for (a = env->copies_ahead; a; a = a->next, n++)
		if (a->dev == st.st_dev && a->ino == st.st_ino)
			goto fail;	/* on its way */
	if (n >= COPIES_AHEAD)
		goto fail;
	a = calloc(1, sizeof(*a));
	if (!a)
		goto fail;
	pd_elf_init();
	a->src = fd;
	a->fd = -1;
	a->lines = env->opts.srcline;
	a->kept_bytes = &env->dwarf_kept_bytes;
	a->dev = st.st_dev;
	a->ino = st.st_ino;
	if (pthread_create(&a->thread, NULL, copy_ahead_main, a) != 0) {
		free(a);
		goto fail;
	}
	a->next = env->copies_ahead;
	env->copies_ahead = a;
	return;
fail:
	close(fd);
}

/* Wait for a's thread, and free a but its copy (*size, *fd: NULL without one). */
static uint8_t *copy_ahead_end(struct pd_copy_ahead *a, size_t *size, int *fd)
{
	uint8_t *map;

	pthread_join(a->thread, NULL);
	close(a->src);
	map = a->map;
	*size = a->size;
	*fd = a->fd;
	free(a);
	return map;
}

/* The copy made ahead of the file at fd, if any (see above). */
static uint8_t *copy_ahead_take(struct pd_sym_env *env, int fd, size_t *size, int *copy_fd)
{
	struct pd_copy_ahead **p, *a;
	struct stat st;

	if (!env->copies_ahead || fstat(fd, &st) != 0)
		return NULL;
	for (p = &env->copies_ahead; (a = *p) != NULL; p = &a->next)
		if (a->dev == st.st_dev && a->ino == st.st_ino)
			break;
	if (!a)
		return NULL;
	*p = a->next;
	return copy_ahead_end(a, size, copy_fd);
}

void pd_dwarf_copies_ahead_free(struct pd_sym_env *env)
{
	struct pd_copy_ahead *a;
	uint8_t *map;
	size_t size;
	int fd;

	while ((a = env->copies_ahead) != NULL) {
		env->copies_ahead = a->next;
		map = copy_ahead_end(a, &size, &fd);
		if (map) {
			munmap(map, size);
			if (fd >= 0)
				close(fd);
			else
				kept_release(&env->dwarf_kept_bytes, size);
		}
	}
}

/*
 * *elf, of the file mapped read-only, becomes the handle of a decompressed
 * copy mapped in its place (see above); false when there is none.
 */
static bool map_copy(struct pd_dwarf_lines *dl, Elf **elf)
{
	size_t size;
	int fd;
	uint8_t *map = copy_ahead_take(dl->env, dl->fd, &size, &fd);
	Elf *copy;

	if (!map)
		map = decompressed_copy(*elf, (const uint8_t *)dl->map, dl->map_size,
					dl->env->opts.srcline, &dl->env->dwarf_kept_bytes, &size, &fd);
	if (!map)
		return false;
	copy = elf_memory((char *)map, size);
	if (!copy || elf_kind(copy) != ELF_K_ELF) {
		if (copy)
			elf_end(copy);
		munmap(map, size);
		if (fd >= 0)
			close(fd);
		else
			kept_release(&dl->env->dwarf_kept_bytes, size);
		return false;
	}
	elf_end(*elf);
	munmap(dl->map, dl->map_size);	/* the file's: not a copy */
	close(dl->fd);
	*elf = copy;
	dl->fd = fd;
	dl->map = (char *)map;
	dl->map_size = size;
	/* a kept copy: no page is dropped (see drop_pages()) */
	dl->copy_kept = fd < 0;
	dl->keep_hdr = dl->copy_kept ? size : 0;
	dl->keep_sh_lo = dl->keep_sh_hi = size;
	dl->copy = true;
	return true;
}

/*
 * The file mapped by us, so that its pages can be dropped after each CU:
 * only a file in this machine's byte order, which libelf and libdw then
 * only read - read-only when its debug sections are not compressed; else
 * libelf writes the headers of the sections it decompresses, whose pages
 * are then kept (a file of the other byte order it would convert in
 * place).  NULL when the file is not such a one.
 */
static Elf *elf_mapped(struct pd_dwarf_lines *dl)
{
	struct stat st;
	bool compressed = false;
	Elf *elf;
	const char *ident;
	int prot;

	if (fstat(dl->fd, &st) != 0 || st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX)
		return NULL;
	dl->map_size = (size_t)st.st_size;
	for (prot = PROT_READ;; prot |= PROT_WRITE) {
		dl->map = mmap(NULL, dl->map_size, prot, MAP_PRIVATE, dl->fd, 0);
		if (dl->map == MAP_FAILED) {
			dl->map = NULL;
			return NULL;
		}
		elf = elf_memory(dl->map, dl->map_size);
		ident = elf && elf_kind(elf) == ELF_K_ELF ? elf_getident(elf, NULL) : NULL;
		if (!ident || ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ?
						 ELFDATA2LSB : ELFDATA2MSB))
			break;
		/* libdw finds a dwz file by the path of the file's descriptor */
		if (section_data(elf, ".gnu_debugaltlink"))
			break;
		debug_sections_size(elf, &compressed);
		if (!compressed) {
			dl->keep_hdr = 0;
			dl->keep_sh_lo = dl->keep_sh_hi = dl->map_size;
			return elf;
		}
		if (prot & PROT_WRITE) {
			if (!header_pages(dl, elf))
				break;
			hide_unused_sections(elf, dl->env->opts.srcline);
			return elf;
		}
		if (map_copy(dl, &elf))
			return elf;
		elf_end(elf);
		munmap(dl->map, dl->map_size);
	}
	if (elf)
		elf_end(elf);
	munmap(dl->map, dl->map_size);
	dl->map = NULL;
	return NULL;
}

/* Open the DSO's symbol file with libelf; false when it cannot be used. */
static bool handle_open(struct pd_dwarf_lines *dl, struct pd_dso *d)
{
	size_t size;

	dl->fd = d->syms_path ? pd_sym_open(dl->env, d->syms_path, d->syms_under_root) : -1;
	if (dl->fd < 0)
		return false;
	pd_elf_init();
	dl->elf = elf_mapped(dl);
again:
	if (!dl->elf)
		dl->elf = elf_begin(dl->fd, ELF_C_READ_MMAP, NULL);
	if (!dl->elf || elf_kind(dl->elf) != ELF_K_ELF)
		goto fail;
	/* before libdw decompresses them */
	dl->decompressed = false;
	size = debug_sections_size(dl->elf, &dl->decompressed);
	if (dl->map && !dl->decompressed)
		size = MAPPED_HANDLE_BYTES;
	/* a copy costs a decompression to open again */
	dl->decompressed |= dl->copy;
	dl->dw = dwarf_begin_elf(dl->elf, DWARF_C_READ, NULL);
	if (!dl->dw && dl->map) {
		/* as libelf would have opened it */
		elf_end(dl->elf);
		unmap_file(dl);
		dl->elf = NULL;
		goto again;
	}
	if (!dl->dw)
		goto fail;
	if (dl->env->opts.srcline) {
		dl->debug_line = section_data(dl->elf, ".debug_line");
		dl->debug_line_str = section_data(dl->elf, ".debug_line_str");
		dl->debug_str = section_data(dl->elf, ".debug_str");
	}
	handle_used(dl, size);
	return true;
fail:
	if (dl->elf)
		elf_end(dl->elf);
	unmap_file(dl);
	if (dl->fd >= 0)
		close(dl->fd);
	dl->elf = NULL;
	dl->fd = -1;
	dl->copy = false;
	return false;
}

/* ------------------------------------------------------------ DWARF */

static void dwarf_lines_free(struct pd_dwarf_lines *dl)
{
	size_t i;

	handle_close(dl);
	for (i = 0; i < dl->ncus; i++) {
		cu_unlink(dl->env, &dl->cus[i]);
		cu_free(&dl->cus[i]);
	}
	free(dl->cus);
	free(dl->cur);
	free(dl->cur_maxhi);
	free(dl->acur);
	free(dl->acur_maxhi);
	free(dl->lines.tab);
	free(dl->lines.pos);
	free(dl->frames.tab);
	free(dl->frames.pos);
	free(dl->shown);
	free(dl->named);
	str_pool_free(&dl->strs);
	free(dl);
}

void pd_dwarf_free(struct pd_dso *d)
{
	if (!d->dwarf)
		return;
	dwarf_lines_free(d->dwarf);
	d->dwarf = NULL;
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

/* CU ranges sorted by lo, with their running maximum of hi. */
static bool sort_cu_ranges(struct cu_range *r, size_t n, uint64_t **maxhi)
{
	uint64_t m = 0;
	size_t i;

	if (!n)
		return true;
	/* libdw's aranges come sorted */
	for (i = 1; i < n && cmp_cu_range(&r[i - 1], &r[i]) <= 0; i++)
		;
	if (i < n)
		qsort(r, n, sizeof(*r), cmp_cu_range);
	*maxhi = malloc(n * sizeof(**maxhi));
	if (!*maxhi)
		return false;
	for (i = 0; i < n; i++) {
		if (r[i].hi > m)
			m = r[i].hi;
		(*maxhi)[i] = m;
	}
	return true;
}

/* Compile units and their address ranges, sorted: read once per DSO. */
static bool index_cus(struct pd_dwarf_lines *dl)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Half version;
	uint8_t unit_type;
	Dwarf_Die cudie, subdie;
	size_t cap_cus = 0, cap_cur = 0;

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
			if (!pd_grow(&dl->cur, &cap_cur, dl->ncur + 1, sizeof(*dl->cur), SIZE_MAX))
				return false;
			dl->cur[dl->ncur].lo = lo;
			dl->cur[dl->ncur].hi = hi;
			dl->cur[dl->ncur].cu = (uint32_t)dl->ncus;
			dl->ncur++;
			any = true;
		}
		if (!any)
			continue;
		if (!pd_grow(&dl->cus, &cap_cus, dl->ncus + 1, sizeof(*dl->cus), SIZE_MAX))
			return false;
		memset(&dl->cus[dl->ncus], 0, sizeof(dl->cus[0]));
		dl->cus[dl->ncus].off = dwarf_dieoffset(&cudie);
		dl->ncus++;
	}
	return sort_cu_ranges(dl->cur, dl->ncur, &dl->cur_maxhi);
}

static int cmp_off(const void *a, const void *b)
{
	Dwarf_Off x = *(const Dwarf_Off *)a, y = *(const Dwarf_Off *)b;

	return x < y ? -1 : x > y;
}

/*
 * A file without .debug_aranges (clang and LLVM's linkers make none
 * unless asked, -gdwarf-aranges): addr2line then finds the CU by the
 * ranges of the CUs' own DIEs, and so do the inline frames here.  The
 * CUs are those of index_cus() (read here when make_cus).  False when
 * out of memory.
 */
static bool aranges_from_cus(struct pd_dwarf_lines *dl, bool make_cus)
{
	if (make_cus && !index_cus(dl))
		return false;
	if (!dl->ncur)
		return true;
	dl->acur = malloc(dl->ncur * sizeof(*dl->acur));
	if (!dl->acur)
		return false;
	memcpy(dl->acur, dl->cur, dl->ncur * sizeof(*dl->acur));
	dl->nacur = dl->ncur;
	return sort_cu_ranges(dl->acur, dl->nacur, &dl->acur_maxhi);
}

/*
 * The CUs by .debug_aranges, where inline frames look an address up (as
 * libdw's dwarf_addrdie() does); by the CUs' own ranges in a file without
 * any (aranges_from_cus()).  make_cus: the CUs are those it names
 * (without --srcline: walking every unit and reading its DIE's ranges
 * costs more than a profile's inline frames); else those of index_cus().
 * False when out of memory.
 */
static bool index_aranges(struct pd_dwarf_lines *dl, bool make_cus)
{
	Dwarf_Aranges *ar;
	Dwarf_Off *offs = NULL, *sorted = NULL;
	size_t n, i, k = 0, cap = 0;
	bool ok = false;

	if (dwarf_getaranges(dl->dw, &ar, &n) != 0 || !n)
		return aranges_from_cus(dl, make_cus);
	offs = malloc(n * sizeof(*offs));
	if (!offs || !pd_grow(&dl->acur, &cap, n, sizeof(*dl->acur), SIZE_MAX))
		goto out;
	for (i = 0; i < n; i++) {
		Dwarf_Addr start;
		Dwarf_Word len;
		Dwarf_Off off;

		if (dwarf_getarangeinfo(dwarf_onearange(ar, i), &start, &len, &off) != 0 ||
		    !len || len > UINT64_MAX - start)
			continue;
		dl->acur[k].lo = start;
		dl->acur[k].hi = start + len;
		offs[k++] = off;
	}
	if (make_cus && k) {
		size_t j, m = 0;

		sorted = malloc(k * sizeof(*sorted));
		if (!sorted)
			goto out;
		memcpy(sorted, offs, k * sizeof(*sorted));
		qsort(sorted, k, sizeof(*sorted), cmp_off);
		for (j = 0; j < k; j++)
			if (!j || sorted[j] != sorted[j - 1])
				sorted[m++] = sorted[j];
		dl->cus = calloc(m, sizeof(*dl->cus));
		if (!dl->cus)
			goto out;
		for (j = 0; j < m; j++)
			dl->cus[j].off = sorted[j];
		dl->ncus = m;
	}
	/* each arange's CU by its DIE offset (dl->cus are in offset order) */
	for (i = 0; i < k; i++) {
		long c;

		LAST_LE(dl->cus, dl->ncus, off, offs[i], c);
		if (c < 0 || dl->cus[c].off != offs[i])
			continue;
		dl->acur[dl->nacur] = dl->acur[i];
		dl->acur[dl->nacur].cu = (uint32_t)c;
		dl->nacur++;
	}
	ok = sort_cu_ranges(dl->acur, dl->nacur, &dl->acur_maxhi);
out:
	free(offs);
	free(sorted);
	return ok;
}

/* a row as read, before it is sorted and made compact */
struct raw_row {
	uint64_t addr;
	uint32_t line;		/* with ROW_END */
	uint32_t file;
	uint32_t order;		/* position in the table: ties keep it */
};

/* keep_rows() writes the kept rows over the raw ones */
_Static_assert(sizeof(struct line_row) <= sizeof(struct raw_row), "a kept row fits a raw one");

static int cmp_row(const void *a, const void *b)
{
	const struct raw_row *x = a, *y = b;
	uint32_t xe = x->line & ROW_END, ye = y->line & ROW_END;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* a sequence ending where the next begins ends first */
	if (xe != ye)
		return xe ? -1 : 1;
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
	if (!pd_grow(v, cap, *n + 1, sizeof(**v), SIZE_MAX))
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

/*
 * Line programs read here rather than by libdw, whose dwarf_getsrclines()
 * keeps some 64 bytes per row until its handle ends and needs twice that
 * while it reads and sorts them (libpython's ceval.c: 71,000 rows, 10 MB
 * at once).  The rows and the file names are libdw's: the same state
 * machine as elfutils 0.188's, the names made as it makes them (a
 * relative name after its directory and '/', index 0 of a table before
 * DWARF 5 named "???").  Anything this reader does not know the way libdw
 * takes it (DW_LNE_define_file, VLIW op indexes, vendor opcodes, forms
 * other than the usual, operands of unusual length, values libdw would
 * refuse) sends the CU to libdw, so that the answers stay the same.
 */
struct lt_file {
	const char *name;	/* in a section */
	uint64_t dir;
};

struct line_table {
	bool read;		/* the CU's program was read here */
	const char *comp_dir;
	const char **dirs;	/* DWARF 5: all; before: [0] is comp_dir (may be NULL) */
	size_t ndirs;
	struct lt_file *files;	/* before DWARF 5, [0] is libdw's "???" */
	size_t nfiles;
	uint32_t *ids;		/* string id + 1 by file index, 0 not made yet */
	char *path;		/* a made name */
	size_t path_cap;
	struct raw_row *raw;	/* in program order */
	size_t nraw, cap_raw;
};

static void lt_free(struct line_table *lt)
{
	free(lt->dirs);
	free(lt->files);
	free(lt->ids);
	free(lt->path);
	free(lt->raw);
	memset(lt, 0, sizeof(*lt));
}

/* what a line program holds beside .debug_line */
struct lt_sections {
	const Elf_Data *line, *line_str, *str;
};

/* A ULEB128 of the cursor; false past its end. */
static bool lt_uleb(struct lp *r, uint64_t *v)
{
	*v = lp_uleb(r);
	return !r->bad;
}

/* A string of a form in a DWARF 5 entry: NULL when not a string form. */
static const char *lt_string(struct lp *r, unsigned int form, unsigned int offset_size,
			     const struct lt_sections *sec)
{
	const Elf_Data *d;
	const char *s;
	uint64_t off;

	if (form == DW_FORM_string) {
		s = (const char *)r->p;
		if (!memchr(r->p, '\0', (size_t)(r->end - r->p))) {
			r->bad = true;
			return NULL;
		}
		r->p += strlen(s) + 1;
		return s;
	}
	if (form != DW_FORM_line_strp && form != DW_FORM_strp)
		return NULL;
	off = lp_fixed(r, offset_size);
	d = form == DW_FORM_line_strp ? sec->line_str : sec->str;
	if (r->bad || !d || !d->d_buf || off >= d->d_size ||
	    !memchr((const char *)d->d_buf + off, '\0', d->d_size - off))
		return NULL;
	return (const char *)d->d_buf + off;
}

/* Skip or read (into *num) a value of a form in a DWARF 5 entry; false: unknown. */
static bool lt_value(struct lp *r, unsigned int form, unsigned int offset_size, uint64_t *num)
{
	uint64_t n = 0;

	switch (form) {
	case DW_FORM_data1: n = lp_fixed(r, 1); break;
	case DW_FORM_data2: n = lp_fixed(r, 2); break;
	case DW_FORM_data4: n = lp_fixed(r, 4); break;
	case DW_FORM_data8: n = lp_fixed(r, 8); break;
	case DW_FORM_udata: n = lp_uleb(r); break;
	case DW_FORM_data16: lp_fixed(r, 8); lp_fixed(r, 8); break;
	case DW_FORM_line_strp:
	case DW_FORM_strp: lp_fixed(r, offset_size); break;
	case DW_FORM_string:
		if (!memchr(r->p, '\0', (size_t)(r->end - r->p)))
			return false;
		r->p += strlen((const char *)r->p) + 1;
		break;
	case DW_FORM_block:
		n = lp_uleb(r);
		if (r->bad || n > (uint64_t)(r->end - r->p))
			return false;
		r->p += n;
		break;
	default:
		return false;
	}
	if (num)
		*num = n;
	return !r->bad;
}

/* the forms of a directory index that dwarf_formudata() reads as libdw does */
static bool lt_number_form(unsigned int form)
{
	return form == DW_FORM_data1 || form == DW_FORM_data2 || form == DW_FORM_data4 ||
	       form == DW_FORM_data8 || form == DW_FORM_udata;
}

/* A DWARF 5 directory or file list; 0: read, 1: not as libdw reads it. */
static int lt_entries(struct lp *r, unsigned int offset_size, const struct lt_sections *sec,
		      bool files, struct line_table *lt)
{
	unsigned int nforms, i, form[255], path = 255, dir = 255;
	uint64_t n, k, type, f;

	nforms = (unsigned int)lp_fixed(r, 1);
	for (i = 0; i < nforms; i++) {
		if (!lt_uleb(r, &type) || !lt_uleb(r, &f) || f > 0xffff)
			return 1;
		form[i] = (unsigned int)f;
		if (type == DW_LNCT_path)
			path = i;
		else if (type == DW_LNCT_directory_index)
			dir = i;
	}
	if (!lt_uleb(r, &n) || path == 255 || (files && dir == 255) || !n ||
	    n > (uint64_t)(r->end - r->p) / nforms)
		return 1;
	if (files) {
		lt->files = calloc(n, sizeof(*lt->files));
		lt->nfiles = n;
	} else {
		lt->dirs = calloc(n, sizeof(*lt->dirs));
		lt->ndirs = n;
	}
	if (files ? !lt->files : !lt->dirs)
		return -1;
	for (k = 0; k < n; k++) {
		const char *name = NULL;
		uint64_t d = UINT64_MAX;

		for (i = 0; i < nforms; i++) {
			if (i == path) {
				name = lt_string(r, form[i], offset_size, sec);
				if (!name)
					return 1;
			} else if ((i == dir && !lt_number_form(form[i])) ||
				   !lt_value(r, form[i], offset_size, i == dir ? &d : NULL)) {
				return 1;
			}
		}
		if (files) {
			if (d >= lt->ndirs)
				return 1;
			lt->files[k].name = name;
			lt->files[k].dir = d;
		} else {
			lt->dirs[k] = name;
		}
	}
	return 0;
}

/* The header's directories and files before DWARF 5; 0 read, 1 not as libdw. */
static int lt_entries_v4(struct lp *r, struct line_table *lt)
{
	const uint8_t *p;
	size_t n = 1, k;

	/* directories: [0] is the CU's comp_dir */
	for (p = r->p; p < r->end && *p; p++) {
		p = memchr(p, '\0', (size_t)(r->end - p));
		if (!p)
			return 1;
		n++;
	}
	if (p >= r->end)
		return 1;
	lt->dirs = calloc(n, sizeof(*lt->dirs));
	if (!lt->dirs)
		return -1;
	lt->ndirs = n;
	lt->dirs[0] = lt->comp_dir;
	for (k = 1; k < n; k++) {
		lt->dirs[k] = (const char *)r->p;
		r->p += strlen((const char *)r->p) + 1;
	}
	r->p++;
	/* files: [0] is libdw's "???" */
	n = 1;
	for (p = r->p; p < r->end && *p;) {
		struct lp q;

		p = memchr(p, '\0', (size_t)(r->end - p));
		if (!p)
			return 1;
		/* the directory index, modification time and length */
		q.p = p + 1;
		q.end = r->end;
		q.bad = false;
		lp_uleb(&q);
		lp_uleb(&q);
		lp_uleb(&q);
		if (q.bad)
			return 1;
		p = q.p;
		n++;
	}
	if (p >= r->end)
		return 1;
	lt->files = calloc(n, sizeof(*lt->files));
	if (!lt->files)
		return -1;
	lt->nfiles = n;
	lt->files[0].name = "???";
	lt->files[0].dir = UINT64_MAX;
	for (k = 1; k < n; k++) {
		lt->files[k].name = (const char *)r->p;
		r->p += strlen((const char *)r->p) + 1;
		lt->files[k].dir = lp_uleb(r);
		lp_uleb(r);
		lp_uleb(r);
		if (lt->files[k].dir >= lt->ndirs)
			return 1;
	}
	r->p++;
	return 0;
}

/* Add a row: 0 added, 1 one libdw would refuse, -1 out of memory. */
static int lt_row(struct line_table *lt, uint64_t addr, int64_t line, uint32_t file, bool end)
{
	struct raw_row *w;

	if (line < 0 || line > INT32_MAX || lt->nraw >= UINT32_MAX)
		return 1;
	if (lt->nraw == lt->cap_raw) {
		/* not pd_grow(): zeroing the room would make all of it resident */
		size_t cap = lt->cap_raw ? lt->cap_raw * 2 : 1024;
		struct raw_row *p = cap <= SIZE_MAX / sizeof(*p) ? realloc(lt->raw, cap * sizeof(*p)) : NULL;

		if (!p)
			return -1;
		lt->raw = p;
		lt->cap_raw = cap;
	}
	w = &lt->raw[lt->nraw];
	w->addr = addr;
	/* as dwarf_lineno() gives it and load_lines() keeps it */
	w->line = (uint32_t)line;
	if (end)
		w->line |= ROW_END;
	w->file = file;		/* an index here: made an id by the caller */
	w->order = (uint32_t)lt->nraw;
	lt->nraw++;
	return 0;
}

/* the operand counts of the standard opcodes 1 to 12 */
static const uint8_t lt_std_len[12] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };

/*
 * Read the line program at off as libdw would: 0 read into lt, 1 leave it
 * to libdw, -1 out of memory.
 */
static int lt_read(const struct lt_sections *sec, uint64_t off, unsigned int addr_size,
		   struct line_table *lt)
{
	struct lp r;
	uint64_t len, hlen, addr = 0, u;
	unsigned int offset_size = 4, version, min_inst, line_range, opcode_base, i;
	int line_base, ret;
	const uint8_t *std_len, *hdr_end;
	int64_t line = 1;
	uint32_t file = 1;

	if (!sec->line || !sec->line->d_buf || off >= sec->line->d_size ||
	    (addr_size != 4 && addr_size != 8))
		return 1;
	r.p = (const uint8_t *)sec->line->d_buf + off;
	r.end = (const uint8_t *)sec->line->d_buf + sec->line->d_size;
	r.bad = false;
	len = lp_fixed(&r, 4);
	if (len == 0xffffffffu) {
		len = lp_fixed(&r, 8);
		offset_size = 8;
	}
	if (r.bad || len > (uint64_t)(r.end - r.p))
		return 1;
	r.end = r.p + len;
	version = (unsigned int)lp_fixed(&r, 2);
	if (r.bad || version < 2 || version > 5)
		return 1;
	if (version >= 5 && (lp_fixed(&r, 1) != addr_size || lp_fixed(&r, 1) != 0))
		return 1;
	hlen = lp_fixed(&r, offset_size);
	if (r.bad || hlen > (uint64_t)(r.end - r.p))
		return 1;
	hdr_end = r.p + hlen;
	min_inst = (unsigned int)lp_fixed(&r, 1);
	if (version >= 4 && lp_fixed(&r, 1) != 1)
		return 1;	/* VLIW operation indexes */
	lp_fixed(&r, 1);	/* default is_stmt */
	line_base = (int8_t)lp_fixed(&r, 1);
	line_range = (unsigned int)lp_fixed(&r, 1);
	opcode_base = (unsigned int)lp_fixed(&r, 1);
	/* below 10, libdw reads the operand counts of opcodes past the array */
	if (r.bad || !line_range || opcode_base < 10 || opcode_base - 1 > (size_t)(hdr_end - r.p))
		return 1;
	std_len = r.p - 1;	/* std_len[op] for op 1 .. opcode_base - 1 */
	for (i = 1; i < opcode_base && i <= 12; i++)
		if (std_len[i] != lt_std_len[i - 1])
			return 1;
	r.p += opcode_base - 1;
	{
		struct lp h = { .p = r.p, .end = hdr_end, .bad = false };

		if (version >= 5) {
			ret = lt_entries(&h, offset_size, sec, false, lt);
			if (!ret)
				ret = lt_entries(&h, offset_size, sec, true, lt);
		} else {
			ret = lt_entries_v4(&h, lt);
		}
		if (ret)
			return ret;
		if (h.bad || h.p != hdr_end)
			return 1;
	}
	r.p = hdr_end;
	while (r.p < r.end) {
		unsigned int op = *r.p++;

		if (op >= opcode_base) {
			line += line_base + (int)((op - opcode_base) % line_range);
			addr += (uint32_t)(min_inst * ((op - opcode_base) / line_range));
			ret = lt_row(lt, addr, line, file, false);
			if (ret)
				return ret;
		} else if (op == 0) {
			unsigned int elen, sub;
			const uint8_t *next;

			if (r.end - r.p < 2)
				return 1;
			elen = *r.p++;
			if (elen == 0 || elen >= 0x80 || (size_t)(r.end - r.p) < elen)
				return 1;
			next = r.p + elen;
			sub = *r.p++;
			switch (sub) {
			case DW_LNE_end_sequence:
				if (elen != 1)
					return 1;
				ret = lt_row(lt, addr, line, file, true);
				if (ret)
					return ret;
				addr = 0;
				line = 1;
				file = 1;
				break;
			case DW_LNE_set_address:
				if (elen - 1 != addr_size)
					return 1;
				addr = lp_fixed(&r, addr_size);
				if (r.bad)
					return 1;
				break;
			case DW_LNE_set_discriminator:
				lp_uleb(&r);
				if (r.bad || r.p != next)
					return 1;
				break;
			case DW_LNE_define_file:
				return 1;
			default:
				if (sub >= 0x80)
					return 1;	/* vendor: libdw may know it */
				r.p = next;
				break;
			}
		} else {
			switch (op) {
			case DW_LNS_copy:
				ret = lt_row(lt, addr, line, file, false);
				if (ret)
					return ret;
				break;
			case DW_LNS_advance_pc:
				if (!lt_uleb(&r, &u))
					return 1;
				addr += (uint32_t)(min_inst * (uint32_t)u);
				break;
			case DW_LNS_advance_line: {
				int64_t v = 0;
				unsigned int shift = 0;
				uint8_t b;

				do {
					if (r.p >= r.end || shift >= 63)
						return 1;
					b = *r.p++;
					v |= (int64_t)(b & 0x7f) << shift;
					shift += 7;
				} while (b & 0x80);
				if (shift < 64 && (b & 0x40))
					v |= -((int64_t)1 << shift);
				if (v < INT32_MIN || v > INT32_MAX)
					return 1;
				line += v;
				break;
			}
			case DW_LNS_set_file:
				if (!lt_uleb(&r, &u) || u > UINT32_MAX)
					return 1;
				file = (uint32_t)u;
				break;
			case DW_LNS_set_column:
				if (!lt_uleb(&r, &u) || u > 0xffff)
					return 1;
				break;
			case DW_LNS_const_add_pc:
				addr += (uint32_t)(min_inst * ((255 - opcode_base) / line_range));
				break;
			case DW_LNS_fixed_advance_pc:
				addr += lp_fixed(&r, 2);
				if (r.bad)
					return 1;
				break;
			case DW_LNS_set_isa:
				if (!lt_uleb(&r, &u) || u > 0xff)
					return 1;
				break;
			case DW_LNS_negate_stmt:
			case DW_LNS_set_basic_block:
			case DW_LNS_set_prologue_end:
			case DW_LNS_set_epilogue_begin:
				break;
			default:
				/* unknown standard opcode: its operands skipped */
				for (i = 0; i < std_len[op]; i++)
					if (!lt_uleb(&r, &u))
						return 1;
				break;
			}
		}
	}
	return 0;
}

/* The string id of a file of a table read here, made as libdw names it. */
static int64_t lt_file_id(struct pd_dwarf_lines *dl, struct line_table *lt, uint64_t idx)
{
	const struct lt_file *f;
	const char *dir;
	size_t need;
	int64_t id;

	if (idx >= lt->nfiles)
		return 0;
	if (!lt->ids) {
		lt->ids = calloc(lt->nfiles, sizeof(*lt->ids));
		if (!lt->ids)
			return -1;
	}
	if (lt->ids[idx])
		return lt->ids[idx] - 1;
	f = &lt->files[idx];
	dir = f->dir < lt->ndirs ? lt->dirs[f->dir] : NULL;
	if (f->name[0] == '/' || !dir) {
		id = str_id(&dl->strs, f->name);
	} else {
		need = strlen(dir) + 1 + strlen(f->name) + 1;
		if (need > lt->path_cap) {
			char *p = realloc(lt->path, need);

			if (!p)
				return -1;
			lt->path = p;
			lt->path_cap = need;
		}
		snprintf(lt->path, need, "%s/%s", dir, f->name);
		id = str_id(&dl->strs, lt->path);
	}
	if (id >= 0)
		lt->ids[idx] = (uint32_t)id + 1;
	return id;
}

/* The file of a row, as perf names it (see above): an id, -1 out of memory. */
static int64_t row_file(struct pd_dwarf_lines *dl, struct file_ids *fi, Dwarf_Line *l,
			uint64_t addr, const struct pd_line_span *spans, size_t nspans)
{
	Dwarf_Files *files;
	size_t idx;

	if (dwarf_line_file(l, &files, &idx) != 0)
		return str_id(&dl->strs, dwarf_linesrc(l, NULL, NULL));
	if (nspans && idx == 1 && in_spans(spans, nspans, addr) &&
	    dwarf_filesrc(files, 0, NULL, NULL))
		idx = 0;
	return file_id(&dl->strs, fi, files, idx);
}

/*
 * The rows kept of a CU's raw rows: sorted by address (libdw's order: an
 * end of sequence first, else as in the program), then only those a
 * lookup can answer with.  mark_last: the last row ends a sequence, as
 * libdw makes it for compilers that forget the end (it is done already
 * in libdw's rows).  The kept rows are written over the raw ones (a row
 * kept is smaller than a raw row and never ahead of it), so that a large
 * CU does not need both arrays at once; raw becomes c->rows or is freed.
 */
static bool keep_rows(struct pd_dwarf_cu *c, struct raw_row *raw, size_t k, bool mark_last)
{
	unsigned char *out = (unsigned char *)raw;
	struct line_row prev = { 0 }, row;
	size_t i;

	/* rows come sorted by address mostly: many tables are in order already */
	for (i = 1; i < k && cmp_row(&raw[i - 1], &raw[i]) < 0; i++)
		;
	if (i < k)
		qsort(raw, k, sizeof(*raw), cmp_row);
	if (mark_last && k)
		raw[k - 1].line |= ROW_END;
	/*
	 * A lookup takes the last row at or below the address: of rows at one
	 * address only the last can be the answer, and a row that says what
	 * the row kept before it says gives the same answer as that one.
	 * Row nrows ends at or before raw row i + 1 starts: raw[i] is read
	 * before the kept row is copied over its bytes.
	 */
	c->nrows = 0;
	for (i = 0; i < k; i++) {
		row.addr = raw[i].addr;
		row.line = raw[i].line;
		row.file = raw[i].file;
		if (i + 1 < k && raw[i + 1].addr == row.addr)
			continue;
		if (c->nrows && prev.line == row.line && prev.file == row.file)
			continue;
		memcpy(out + c->nrows * sizeof(row), &row, sizeof(row));
		prev = row;
		c->nrows++;
	}
	c->rows = realloc(raw, (c->nrows ? c->nrows : 1) * sizeof(*c->rows));
	if (!c->rows)
		c->rows = (struct line_row *)(void *)raw;	/* smaller: kept where it is */
	return true;
}

/* The prefix spans of the CU's program (see above), sorted; false: no memory. */
static bool cu_spans(struct pd_dwarf_lines *dl, Dwarf_Die *die, struct pd_line_span **spans,
		     size_t *nspans)
{
	Dwarf_Attribute at;
	Dwarf_Word stmt_list;

	*spans = NULL;
	*nspans = 0;
	if (dl->debug_line && dwarf_attr(die, DW_AT_stmt_list, &at) &&
	    dwarf_formudata(&at, &stmt_list) == 0 &&
	    !pd_dwarf_prefix_spans(dl->debug_line->d_buf, dl->debug_line->d_size, stmt_list,
				   spans, nspans))
		return false;
	if (*nspans > 1)
		qsort(*spans, *nspans, sizeof(**spans), cmp_span);
	return true;
}

/*
 * The CU's line program read here into lt (lt->read), unless it is one to
 * leave to libdw: false when out of memory.
 */
static bool lt_load(struct pd_dwarf_lines *dl, Dwarf_Die *die, struct line_table *lt)
{
	struct lt_sections sec = { dl->debug_line, dl->debug_line_str, dl->debug_str };
	Dwarf_Attribute at;
	Dwarf_Word stmt_list;
	Dwarf_Die cudie;
	uint8_t addr_size = 0;
	int r;

	if (!dwarf_attr(die, DW_AT_stmt_list, &at) || dwarf_formudata(&at, &stmt_list) != 0 ||
	    !dwarf_diecu(die, &cudie, &addr_size, NULL))
		return true;
	lt->comp_dir = dwarf_formstring(dwarf_attr(die, DW_AT_comp_dir, &at));
	r = lt_read(&sec, stmt_list, addr_size, lt);
	if (r) {
		lt_free(lt);
		return r > 0;
	}
	lt->read = true;
	return true;
}

/* The rows of a program read here (lt), their files made string ids. */
static bool lt_lines(struct pd_dwarf_lines *dl, struct pd_dwarf_cu *c, Dwarf_Die *die,
		     struct line_table *lt)
{
	struct pd_line_span *spans;
	struct raw_row *raw = lt->raw;
	size_t i, n = lt->nraw, nspans;

	if (!n)
		return true;
	if (!cu_spans(dl, die, &spans, &nspans))
		return false;
	lt->raw = NULL;
	for (i = 0; i < n; i++) {
		uint64_t idx = raw[i].file;
		int64_t file;

		if (idx < lt->nfiles && nspans && idx == 1 && in_spans(spans, nspans, raw[i].addr))
			idx = 0;
		file = lt_file_id(dl, lt, idx);
		if (file < 0) {
			free(spans);
			free(raw);
			return false;
		}
		raw[i].file = (uint32_t)file;
	}
	free(spans);
	return keep_rows(c, raw, n, true);
}

static bool load_lines(struct pd_dwarf_lines *dl, struct pd_dwarf_cu *c, Dwarf_Die *die,
		       size_t *nread, struct line_table *lt)
{
	Dwarf_Lines *lines;
	struct pd_line_span *spans = NULL;
	struct file_ids fi = { 0 };
	struct raw_row *raw;
	size_t n, i, k = 0, nspans = 0;

	if (!lt_load(dl, die, lt))
		return false;
	if (lt->read)
		return lt_lines(dl, c, die, lt);
	if (dwarf_getsrclines(die, &lines, &n) != 0 || n == 0)
		return true;
	*nread = n;
	if (n > UINT32_MAX)
		return true;
	if (!cu_spans(dl, die, &spans, &nspans))
		return false;
	raw = malloc(n * sizeof(*raw));
	if (!raw) {
		free(spans);
		return false;
	}
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr;
		int lineno = 0;
		bool end = false;
		int64_t file;

		if (!l || dwarf_lineaddr(l, &addr) != 0)
			continue;
		dwarf_lineno(l, &lineno);
		dwarf_lineendsequence(l, &end);
		file = row_file(dl, &fi, l, addr, spans, nspans);
		if (file < 0) {
			free(fi.id);
			free(spans);
			free(raw);
			return false;
		}
		raw[k].addr = addr;
		raw[k].file = (uint32_t)file;
		raw[k].line = lineno > 0 ? (uint32_t)lineno & ~ROW_END : 0;
		if (end)
			raw[k].line |= ROW_END;
		raw[k].order = (uint32_t)i;
		k++;
	}
	free(fi.id);
	free(spans);
	return keep_rows(c, raw, k, false);
}

/*
 * A language whose names binutils does not demangle (bfd's mangle_style()
 * of 0: C, Fortran 77, Pascal, assembly and the like; C++, Rust and
 * languages it does not know are mangled): there a DW_AT_name is taken
 * as a linkage name.
 */
static bool lang_unmangled(int lang)
{
	switch (lang) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_Cobol74: case DW_LANG_Cobol85:
	case DW_LANG_Fortran77: case DW_LANG_Pascal83: case DW_LANG_PLI: case DW_LANG_C99:
	case DW_LANG_UPC: case DW_LANG_C11: case DW_LANG_Mips_Assembler:
	case 0x8004:	/* DW_LANG_HP_Basic91 */
	case 0x8006:	/* DW_LANG_HP_IMacro */
	case 0x8007:	/* DW_LANG_HP_Assembler */
	case 0x8765:	/* DW_LANG_Upc */
		return true;
	default:
		return false;
	}
}

/* What names a DIE: the attributes die_name() looks for, as read in one pass. */
struct name_attrs {
	Dwarf_Attribute at[5];	/* by the NAME_* below */
	unsigned int have;	/* bit per NAME_* */
};

enum { NAME_LINKAGE, NAME_MIPS, NAME_NAME, NAME_ORIGIN, NAME_SPEC };

static int name_attr(Dwarf_Attribute *at, void *arg)
{
	struct name_attrs *na = arg;
	int k;

	switch (dwarf_whatattr(at)) {
	case DW_AT_linkage_name: k = NAME_LINKAGE; break;
	case DW_AT_MIPS_linkage_name: k = NAME_MIPS; break;
	case DW_AT_name: k = NAME_NAME; break;
	case DW_AT_abstract_origin: k = NAME_ORIGIN; break;
	case DW_AT_specification: k = NAME_SPEC; break;
	default: return DWARF_CB_OK;
	}
	if (!(na->have & (1u << k))) {
		na->at[k] = *at;
		na->have |= 1u << k;
	}
	return DWARF_CB_OK;
}

/*
 * A function's name as addr2line gives it: its linkage name where it has
 * one (else the older DW_AT_MIPS_linkage_name), else its name, each the
 * first found along DW_AT_abstract_origin and DW_AT_specification, as
 * dwarf_attr_integrate() finds it (up to 16 steps).  One pass over each
 * DIE's attributes, where dwarf_attr_integrate() makes one per attribute.
 * *linkage: binutils takes the name as a linkage name (it has one, or a
 * name in a language of unmangled names, lang).
 */
static const char *die_name(Dwarf_Die *die, int lang, bool *linkage)
{
	struct name_attrs found = { .have = 0 };
	Dwarf_Die mem = *die, *cur = &mem;
	const char *n = NULL;
	unsigned int step;

	for (step = 0; step <= 16 && cur; step++) {
		struct name_attrs here = { .have = 0 };
		unsigned int k;

		if (dwarf_getattrs(cur, name_attr, &here, 0) < 0)
			break;
		for (k = NAME_LINKAGE; k <= NAME_NAME; k++) {
			if ((here.have & (1u << k)) && !(found.have & (1u << k))) {
				found.at[k] = here.at[k];
				found.have |= 1u << k;
			}
		}
		/* a linkage name decides, unless it is no string (then the name does) */
		if ((found.have & (1u << NAME_LINKAGE)) &&
		    (dwarf_formstring(&found.at[NAME_LINKAGE]) || (found.have & (1u << NAME_NAME))))
			break;
		if (here.have & (1u << NAME_ORIGIN))
			cur = dwarf_formref_die(&here.at[NAME_ORIGIN], &mem);
		else if (here.have & (1u << NAME_SPEC))
			cur = dwarf_formref_die(&here.at[NAME_SPEC], &mem);
		else
			break;
	}
	if (found.have & (1u << NAME_LINKAGE))
		n = dwarf_formstring(&found.at[NAME_LINKAGE]);
	else if (found.have & (1u << NAME_MIPS))
		n = dwarf_formstring(&found.at[NAME_MIPS]);
	if (!n && (found.have & (1u << NAME_NAME)))
		n = dwarf_formstring(&found.at[NAME_NAME]);
	*linkage = (found.have & ((1u << NAME_LINKAGE) | (1u << NAME_MIPS))) ||
		   ((found.have & (1u << NAME_NAME)) && lang_unmangled(lang));
	return n;
}

struct walk {
	struct pd_dwarf_lines *dl;
	struct pd_dwarf_cu *c;
	struct line_table *lt;	/* the files of a program read here, else: */
	Dwarf_Files *files;
	size_t nfiles, cap_inl;
	struct file_ids fi;
	bool funcs;		/* functions become nodes */
	bool lines;		/* inlined subroutines' names and call sites are read */
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

/*
 * A node for an inlined subroutine (its name and call site read now when
 * source lines are wanted: those of every address in it name them) or a
 * function; other names are read when an inline frame first needs them
 * (most functions of a CU never hold a sampled address).
 */
static void add_node(struct walk *w, Dwarf_Die *die, bool func)
{
	struct pd_dwarf_cu *c = w->c;
	struct inl *n;
	Dwarf_Attribute at;
	Dwarf_Word fidx = 0, line = 0;
	ptrdiff_t off = 0;
	Dwarf_Addr base, lo, hi;
	int64_t name = 0, file = 0;

	if (!pd_grow(&c->inl, &w->cap_inl, c->ninl + 1, sizeof(*c->inl), SIZE_MAX)) {
		w->nomem = true;
		return;
	}
	n = &c->inl[c->ninl];
	memset(n, 0, sizeof(*n));
	n->func = func;
	n->die = dwarf_dieoffset(die) - c->off < UINT32_MAX ?
		 (uint32_t)(dwarf_dieoffset(die) - c->off) : UINT32_MAX;
	if (!func && w->lines) {
		bool linkage;

		name = str_id(&w->dl->strs, die_name(die, c->lang, &linkage));
		n->linkage = linkage;
		if (dwarf_attr(die, DW_AT_call_file, &at))
			dwarf_formudata(&at, &fidx);
		if (dwarf_attr(die, DW_AT_call_line, &at))
			dwarf_formudata(&at, &line);
		if (w->lt)
			file = lt_file_id(w->dl, w->lt, fidx);
		else if (w->files && fidx < w->nfiles)
			file = file_id(&w->dl->strs, &w->fi, w->files, fidx);
		if (name < 0 || file < 0) {
			w->nomem = true;
			return;
		}
		n->name = (uint32_t)name;
		n->named = 1;
		n->call.file = (uint32_t)file;
		n->call.line = line <= UINT32_MAX ? (uint32_t)line : 0;
	}
	n->range = (uint32_t)c->nranges;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		if ((uint32_t)n->nrange + 1 >= (1u << 30) ||
		    !pd_grow(&c->ranges, &c->cap_ranges, c->nranges + 1, sizeof(*c->ranges),
			     SIZE_MAX)) {
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

/* Depth-first over the DIEs that can hold code, recording functions and inline nodes. */
static void walk_dies(struct walk *w, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;

	if (depth > MAX_DIE_DEPTH || w->nomem || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		struct pd_dwarf_cu *c = w->c;
		size_t me, ranges_before;

		if (!may_hold_code(tag))
			continue;
		/*
		 * A function without code of its own (a declaration, an
		 * abstract instance) has none below it either: its inlined
		 * subroutines are abstract too, without ranges.
		 */
		if (tag == DW_TAG_subprogram && !dwarf_hasattr(&child, DW_AT_low_pc) &&
		    !dwarf_hasattr(&child, DW_AT_ranges))
			continue;
		if (tag != DW_TAG_inlined_subroutine && (tag != DW_TAG_subprogram || !w->funcs)) {
			walk_dies(w, &child, depth + 1);
			continue;
		}
		me = c->ninl;
		ranges_before = c->nranges;
		add_node(w, &child, tag == DW_TAG_subprogram);
		if (w->nomem)
			return;
		walk_dies(w, &child, depth + 1);
		if (w->nomem)
			return;
		/* a function that holds no address and no inlined subroutine serves nothing */
		if (c->inl[me].func && !c->inl[me].nrange && c->ninl == me + 1) {
			c->ninl = me;
			c->nranges = ranges_before;
			continue;
		}
		c->inl[me].next = (uint32_t)c->ninl;
	} while (!w->nomem && dwarf_siblingof(&child, &child) == 0);
}

/* The ranges of the nodes [first, end) at one level, into top (NULL: counted only). */
static size_t top_ranges(const struct pd_dwarf_cu *c, size_t first, size_t end,
			 bool inlines, struct addr_range *top, int depth)
{
	size_t i, k = 0;

	for (i = first; i < end; i = c->inl[i].next) {
		const struct inl *n = &c->inl[i];

		/* srcline's outermost inlined subroutines may be inside functions */
		if (inlines && n->func) {
			if (depth < MAX_DIE_DEPTH)
				k += top_ranges(c, i + 1, n->next, inlines,
						top ? top + k : NULL, depth + 1);
			continue;
		}
		if (inlines || depth == 0 || n->func) {
			if (top)
				memcpy(&top[k], &c->ranges[n->range], n->nrange * sizeof(*top));
			k += n->nrange;
		}
		/*
		 * Functions nested in others (GNU C's nested functions, Ada's
		 * and Fortran's inner subprograms) have code outside their
		 * parent's ranges: addr2line finds every function of a unit by
		 * its own ranges, and so do inline frames (find_frames())
		 */
		if (!inlines && depth < MAX_DIE_DEPTH)
			k += top_ranges(c, i + 1, n->next, false, top ? top + k : NULL, depth + 1);
	}
	return k;
}

/* Ranges sorted by lo, with their running maximum of hi. */
static void sort_top(struct addr_range *top, uint64_t *maxhi, size_t n)
{
	uint64_t m = 0;
	size_t i;

	qsort(top, n, sizeof(*top), cmp_addr_range);
	for (i = 0; i < n; i++) {
		if (top[i].hi > m)
			m = top[i].hi;
		maxhi[i] = m;
	}
}

/* The outermost nodes' ranges, for source lines and (with functions) inline frames. */
static bool make_top(struct pd_dwarf_cu *c)
{
	size_t k = top_ranges(c, 0, c->ninl, true, NULL, 0);
	size_t kf = c->funcs ? top_ranges(c, 0, c->ninl, false, NULL, 0) : 0;

	if (!k && !kf)
		return true;
	if (k + kf > UINT32_MAX)
		return false;
	c->top = malloc((k + kf) * sizeof(*c->top));
	c->top_maxhi = malloc((k + kf) * sizeof(*c->top_maxhi));
	if (!c->top || !c->top_maxhi)
		return false;
	c->ntop = (uint32_t)top_ranges(c, 0, c->ninl, true, c->top, 0);
	if (kf)
		c->nftop = (uint32_t)top_ranges(c, 0, c->ninl, false, c->top + c->ntop, 0);
	sort_top(c->top, c->top_maxhi, c->ntop);
	sort_top(c->top + c->ntop, c->top_maxhi + c->ntop, c->nftop);
	return true;
}

static bool load_inlines(struct pd_dwarf_lines *dl, struct pd_dwarf_cu *c, Dwarf_Die *die,
			 struct line_table *lt)
{
	struct walk w = { .dl = dl, .c = c, .funcs = c->funcs, .lines = c->lines };
	int lang = dwarf_srclang(die);

	c->lang = lang > 0 && lang <= UINT16_MAX ? (uint16_t)lang : 0;

	if (lt->read)
		w.lt = lt;
	else if (!w.lines || dwarf_getsrcfiles(die, &w.files, &w.nfiles) != 0)
		w.files = NULL;
	walk_dies(&w, die, 0);
	free(w.fi.id);
	if (w.nomem)
		return false;
	if (c->ninl < w.cap_inl) {
		struct inl *p = realloc(c->inl, (c->ninl ? c->ninl : 1) * sizeof(*p));

		if (p)
			c->inl = p;
	}
	if (c->nranges < c->cap_ranges) {
		struct addr_range *p = realloc(c->ranges, (c->nranges ? c->nranges : 1) * sizeof(*p));

		if (p) {
			c->ranges = p;
			c->cap_ranges = c->nranges;
		}
	}
	if (c->ninl > UINT32_MAX / 2)
		return true;
	/*
	 * Source lines start from the outermost inlined subroutines, inline
	 * frames from the outermost functions (see find_inlines() and
	 * find_frames()).
	 */
	return make_top(c);
}

/*
 * libdw finds the unit of a DIE by reading the headers of all the units
 * before it that it does not know yet, which on a Dwarf handle made again
 * maps pages all over the file (each fault maps the pages around it too:
 * megabytes of libc's or libpython's debug information at once).  The
 * units up to the CU at `off` are made known here instead, a few at a
 * time, the map's pages dropped in between.
 */
static void units_up_to(struct pd_dwarf_lines *dl, Dwarf_Off off)
{
	Dwarf_CU *next;
	Dwarf_Die cudie;
	unsigned int n = 0;

	if (!dl->map || (dl->units_last && dl->units_off >= off))
		return;
	while (dwarf_get_units(dl->dw, dl->units_last, &next, NULL, NULL, &cudie, NULL) == 0) {
		dl->units_last = next;
		dl->units_off = dwarf_dieoffset(&cudie);
		if (dl->units_off >= off)
			break;
		if (++n % UNITS_DROP_EVERY == 0)
			drop_pages(dl);
	}
}

/*
 * Read a CU's lines and inline tree, opening libdw again when its handle
 * was closed.  Its line rows and call sites are read when source lines are
 * wanted (lines, or --srcline: then for every CU), its functions when
 * inline frames were asked of the DSO; a CU read without what a lookup
 * needs is read again.  False when out of memory (the CU then stays empty).
 */
static bool load_cu(struct pd_dwarf_lines *dl, struct pd_dso *d, struct pd_dwarf_cu *c,
		    bool lines)
{
	struct line_table lt = { 0 };
	Dwarf_Die die;
	size_t nread = 0, i;
	bool ok;

	c->loaded = true;
	c->lines = lines || dl->env->opts.srcline;
	c->funcs = dl->want_funcs;
	if (!dl->elf && (dl->gone || !handle_open(dl, d))) {
		/* the file changed or went: what was read stays */
		dl->gone = true;
		for (i = 0; i < dl->ncus; i++)
			cu_unlink(dl->env, &dl->cus[i]);
		return true;
	}
	handle_used(dl, 0);
	if (!dl->dw)
		dl->dw = dwarf_begin_elf(dl->elf, DWARF_C_READ, NULL);
	if (dl->dw)
		units_up_to(dl, c->off);
	if (!dl->dw || !dwarf_offdie(dl->dw, c->off, &die) ||
	    dwarf_tag(&die) != DW_TAG_compile_unit) {
		handle_rest(dl, 0);
		return true;
	}
	ok = (!c->lines || load_lines(dl, c, &die, &nread, &lt)) &&
	     load_inlines(dl, c, &die, &lt);
	lt_free(&lt);
	handle_rest(dl, nread * LIBDW_ROW_BYTES + LIBDW_CU_BYTES);
	if (!ok) {
		cu_unload(dl->env, c);
		c->loaded = c->lines = c->funcs = true;
		return false;
	}
	if (!dl->gone)
		cu_loaded(dl->env, c);
	return true;
}

static bool node_has(const struct pd_dwarf_cu *c, uint32_t node, uint64_t a)
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


/* The CU whose ranges in r hold a: the one starting last among those that do. */
static struct pd_dwarf_cu *find_cu_in(struct pd_dwarf_lines *dl, const struct cu_range *r,
				      const uint64_t *maxhi, size_t n, uint64_t a)
{
	long i;

	LAST_LE(r, n, lo, a, i);
	for (; i >= 0 && maxhi[i] > a; i--)
		if (a < r[i].hi)
			return &dl->cus[r[i].cu];
	return NULL;
}

static struct pd_dwarf_cu *find_cu(struct pd_dwarf_lines *dl, uint64_t a)
{
	return find_cu_in(dl, dl->cur, dl->cur_maxhi, dl->ncur, a);
}

static const struct line_row *find_row(const struct pd_dwarf_cu *c, uint64_t a)
{
	long i;

	LAST_LE(c->rows, c->nrows, addr, a, i);
	if (i < 0 || (c->rows[i].line & ROW_END))
		return NULL;
	return &c->rows[i];
}

/*
 * Outermost to innermost inlined subroutines holding a, for source lines:
 * the outermost that starts last, then at each level the first child that
 * holds a; returns how many.
 */
static unsigned int find_inlines(const struct pd_dwarf_cu *c, uint64_t a, uint32_t *chain,
				  unsigned int max)
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
			if (!c->inl[child].func && node_has(c, child, a))
				break;
		node = child < end ? child : UINT32_MAX;
	}
	return n;
}

/*
 * Source position of a debug-file address, as string ids: 1 found, 0 not,
 * -1 no memory.
 */
static int lookup(struct pd_dwarf_lines *dl, struct pd_dso *d, uint64_t a,
		  struct cpos *out, unsigned int *nr)
{
	struct pd_dwarf_cu *c = find_cu(dl, a);
	const struct line_row *row;
	uint32_t chain[MAX_DIE_DEPTH];
	unsigned int n, i;

	*nr = 0;
	if (!c)
		return 0;
	if (c->loaded && !c->lines && !dl->gone)
		cu_unload(dl->env, c);	/* read for inline frames alone */
	if (!c->loaded && !load_cu(dl, d, c, true))
		return -1;
	cu_used(dl->env, c);
	row = find_row(c, a);
	if (!row || !row->file)
		return 0;
	out[0].func = 0;
	out[0].file = row->file;
	out[0].line = row->line;
	*nr = 1;
	n = find_inlines(c, a, chain, MAX_DIE_DEPTH);
	/*
	 * innermost first: each inline's position, then where it was called;
	 * deeper than PD_SYM_MAX_INLINE, the outermost levels are left out
	 */
	for (i = n; i-- > 0 && *nr <= PD_SYM_MAX_INLINE;) {
		const struct inl *in = &c->inl[chain[i]];

		out[*nr - 1].func = in->name;
		out[*nr].func = 0;
		out[*nr].file = in->call.file;
		out[*nr].line = in->call.line;
		(*nr)++;
	}
	return 1;
}

/* First use of a DSO's DWARF: NULL when there is none to use. */
static struct pd_dwarf_lines *dwarf_open(struct pd_sym_env *env, struct pd_dso *d)
{
	struct pd_dwarf_lines *dl = calloc(1, sizeof(*dl));

	if (!dl)
		return NULL;
	dl->env = env;
	dl->fd = -1;
	/* without --srcline, only inline frames ask: they find CUs by .debug_aranges */
	dl->acur_read = !env->opts.srcline;
	if (!handle_open(dl, d) ||
	    !(env->opts.srcline ? index_cus(dl) : index_aranges(dl, true)) || !dl->ncus) {
		/*
		 * No DWARF to use: what stays serves the inline frames that
		 * the ELF symbols give (their cache and names).
		 */
		handle_close(dl);
		free(dl->cus);
		free(dl->cur);
		free(dl->cur_maxhi);
		free(dl->acur);
		free(dl->acur_maxhi);
		dl->cus = NULL;
		dl->cur = dl->acur = NULL;
		dl->cur_maxhi = dl->acur_maxhi = NULL;
		dl->ncus = dl->ncur = dl->nacur = 0;
		dl->nodwarf = dl->gone = dl->acur_read = true;
		return dl;
	}
	/* the units indexed: libdw keeps a Dwarf_CU and the unit DIE's abbreviations */
	handle_rest(dl, dl->ncus * LIBDW_UNIT_BYTES);
	return dl;
}

/*
 * File offset of the runtime image to the debug-file address perf asks
 * addr2line about: perf 6.1 adds to every offset the distance of .text
 * from its own file offset (map__rip_2objdump(), dso->text_offset), which
 * is the address itself wherever every code segment is as far from its
 * offset as .text.  Where one is not (BOLT's: librustc_driver's original
 * code a page from its offset, its new .text at it), the address is off
 * by the difference, and so are the answers: the lines and inline chain,
 * or without DWARF the ELF symbol, of another function.
 */
static uint64_t debug_addr(const struct pd_dso *d, uint64_t addr)
{
	if (d->kind == PD_DSO_KERNEL || !d->nsegs)
		return addr;
	return addr + d->text_offset - (uint64_t)d->debug_bias;
}

static struct cache_ent *cache_slot(struct answers *ans, uint64_t addr)
{
	size_t mask = ans->cap - 1;
	size_t h = (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 20) & mask;

	while (ans->tab[h].used && ans->tab[h].addr != addr)
		h = (h + 1) & mask;
	return &ans->tab[h];
}

static bool cache_grow(struct answers *ans)
{
	struct cache_ent *old = ans->tab;
	size_t oldcap = ans->cap, i;

	ans->cap = oldcap ? oldcap * 2 : 1024;
	ans->tab = calloc(ans->cap, sizeof(*ans->tab));
	if (!ans->tab) {
		ans->tab = old;
		ans->cap = oldcap;
		return false;
	}
	for (i = 0; i < oldcap; i++)
		if (old[i].used)
			*cache_slot(ans, old[i].addr) = old[i];
	free(old);
	return true;
}

/* The answer cached for addr, NULL when there is none. */
static const struct cache_ent *cache_get(struct answers *ans, uint64_t addr)
{
	const struct cache_ent *e;

	if (!ans->cap)
		return NULL;
	e = cache_slot(ans, addr);
	return e->used ? e : NULL;
}

/* Remember an answer; a failure only costs a later lookup. */
static void cache_put(struct answers *ans, uint64_t addr, const struct cpos *p,
		      unsigned int nr, bool symtab)
{
	struct cache_ent *e;

	if (ans->nr >= MAX_CACHE) {
		/* full: start again, so that memory does not grow with the input */
		memset(ans->tab, 0, ans->cap * sizeof(*ans->tab));
		ans->nr = 0;
		ans->npos = 0;
	}
	if ((ans->nr + 1) * 4 > ans->cap * 3 && !cache_grow(ans))
		return;
	if (!pd_grow(&ans->pos, &ans->cap_pos, ans->npos + nr, sizeof(*ans->pos), SIZE_MAX))
		return;
	e = cache_slot(ans, addr);
	e->addr = addr;
	e->pos = (uint32_t)ans->npos;
	e->nr = (uint8_t)nr;
	e->used = 1;
	e->symtab = symtab;
	if (nr)		/* an empty answer may come before any array */
		memcpy(&ans->pos[ans->npos], p, nr * sizeof(*p));
	ans->npos += nr;
	ans->nr++;
}

static void to_srcline(const struct pd_dwarf_lines *dl, const struct cpos *p, unsigned int nr,
		       struct pd_sym_srcline *out)
{
	const char *const *str = dl->strs.str;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		out->pos[i].func = str[p[i].func];
		out->pos[i].file = str[p[i].file];
		out->pos[i].line = p[i].line;
	}
	out->nr = nr;
}

/* The DSO's DWARF, opened on first use: NULL when there is none to use. */
static struct pd_dwarf_lines *dwarf_get(struct pd_sym_env *env, struct pd_dso *d)
{
	if (!d->dwarf && !d->dwarf_tried) {
		d->dwarf_tried = true;
		d->dwarf = dwarf_open(env, d);
	}
	return d->dwarf;
}

/*
 * The functions holding a, outermost first, for inline frames: of the
 * outermost functions that hold it, then at each level of the one chosen,
 * the one whose range there is the shortest, of equal ones the last.
 * That is addr2line's choice among functions (binutils dwarf2.c,
 * lookup_address_in_function_table), which matters where gas gives an
 * assembly function one DW_TAG_subprogram per alias (__execve,
 * __GI___execve, execve): siblings made by compilers do not overlap.
 * Deeper than max, the innermost levels are left out.
 */
static unsigned int find_frames(const struct pd_dwarf_cu *c, uint64_t a, uint32_t *chain,
				unsigned int max)
{
	const struct addr_range *ftop;
	const uint64_t *ftop_maxhi;
	uint32_t node = UINT32_MAX, child, end;
	uint64_t best_len = 0;
	unsigned int n = 0;
	long i;

	if (!c->nftop)
		return 0;
	ftop = c->top + c->ntop;
	ftop_maxhi = c->top_maxhi + c->ntop;
	LAST_LE(ftop, c->nftop, lo, a, i);
	for (; i >= 0 && ftop_maxhi[i] > a; i--) {
		const struct addr_range *r = &ftop[i];

		if (a >= r->hi)
			continue;
		if (node == UINT32_MAX || r->hi - r->lo < best_len ||
		    (r->hi - r->lo == best_len && r->node > node)) {
			node = r->node;
			best_len = r->hi - r->lo;
		}
	}
	while (node != UINT32_MAX && n < max) {
		chain[n++] = node;
		end = c->inl[node].next;
		node = UINT32_MAX;
		for (child = chain[n - 1] + 1; child < end; child = c->inl[child].next) {
			const struct inl *in = &c->inl[child];
			uint32_t k;

			for (k = 0; k < in->nrange; k++) {
				const struct addr_range *r = &c->ranges[in->range + k];

				if (a < r->lo || a >= r->hi)
					continue;
				if (node == UINT32_MAX || r->hi - r->lo <= best_len) {
					node = child;
					best_len = r->hi - r->lo;
				}
				break;
			}
		}
	}
	return n;
}

/* The Dwarf handle, made again when it was ended: false when it cannot be. */
static bool handle_ready(struct pd_dwarf_lines *dl, struct pd_dso *d)
{
	if (!dl->elf && (dl->gone || !handle_open(dl, d)))
		return false;
	handle_used(dl, 0);
	if (!dl->dw)
		dl->dw = dwarf_begin_elf(dl->elf, DWARF_C_READ, NULL);
	return dl->dw != NULL;
}

/*
 * The name of a node: read from its DIE when first asked (its Dwarf handle
 * made again when it was ended).  0 when it has none or cannot be read:
 * "??" then, as addr2line prints it.
 */
static uint32_t node_name(struct pd_dwarf_lines *dl, struct pd_dso *d,
			  const struct pd_dwarf_cu *c, struct inl *n, bool *read)
{
	Dwarf_Die die;
	int64_t id = 0;

	if (n->named)
		return n->name;
	*read = true;
	if (n->die != UINT32_MAX && handle_ready(dl, d) &&
	    dwarf_offdie(dl->dw, c->off + n->die, &die)) {
		bool linkage;

		id = str_id(&dl->strs, die_name(&die, c->lang, &linkage));
		n->linkage = linkage;
	} else {
		n->linkage = 1;		/* "??" */
	}
	if (id < 0)
		return 0;	/* out of memory: asked again next time */
	n->name = (uint32_t)id;
	n->named = 1;
	return n->name;
}

static size_t shown_hash(uint32_t id, size_t mask)
{
	return (size_t)(((uint64_t)id * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

static bool shown_grow(struct pd_dwarf_lines *dl)
{
	size_t ncap = dl->cap_shown ? dl->cap_shown * 2 : 256, i, h;
	struct shown_slot *nt = calloc(ncap, sizeof(*nt));

	if (!nt)
		return false;
	for (i = 0; i < dl->cap_shown; i++) {
		if (!dl->shown[i].raw)
			continue;
		h = shown_hash(dl->shown[i].raw, ncap - 1);
		while (nt[h].raw)
			h = (h + 1) & (ncap - 1);
		nt[h] = dl->shown[i];
	}
	free(dl->shown);
	dl->shown = nt;
	dl->cap_shown = ncap;
	return true;
}

/*
 * The string id of the name perf prints for string id: demangled, kept in
 * the string pool once per name (0 stays 0: "??").
 */
static uint32_t shown_id(struct pd_dwarf_lines *dl, uint32_t id)
{
	struct shown_slot *slot = NULL;
	int64_t sid;
	char *dm;
	size_t h;

	if (!id)
		return 0;
	if ((dl->nshown + 1) * 2 <= dl->cap_shown || shown_grow(dl)) {
		h = shown_hash(id, dl->cap_shown - 1);
		while (dl->shown[h].raw && dl->shown[h].raw != id)
			h = (h + 1) & (dl->cap_shown - 1);
		slot = &dl->shown[h];
		if (slot->raw)
			return slot->shown;
	}
	dm = pd_demangle(dl->strs.str[id]);
	sid = dm ? str_id(&dl->strs, dm) : id;
	free(dm);
	if (sid <= 0)
		return id;	/* out of memory: as it is */
	if (slot) {
		slot->raw = id;
		slot->shown = (uint32_t)sid;
		dl->nshown++;
	}
	return (uint32_t)sid;
}

static const char *shown_name(const struct pd_dwarf_lines *dl, uint32_t sid)
{
	return sid ? dl->strs.str[sid] : "??";
}

#define MAX_NAMED	(1u << 20)	/* functions remembered per DSO */

/* The slot of a function's DIE in dl->named, NULL when the table is full. */
static struct named_slot *named_slot(struct pd_dwarf_lines *dl, uint64_t off)
{
	size_t mask, h;

	if (dl->nnamed * 2 >= dl->cap_named) {
		size_t ncap = dl->cap_named ? dl->cap_named * 2 : 256, i;
		struct named_slot *nt;

		if (ncap > 2 * MAX_NAMED)
			return NULL;
		nt = calloc(ncap, sizeof(*nt));
		if (!nt)
			return NULL;
		for (i = 0; i < dl->cap_named; i++) {
			if (!dl->named[i].off)
				continue;
			h = (size_t)pd_hash_u64(dl->named[i].off) & (ncap - 1);
			while (nt[h].off)
				h = (h + 1) & (ncap - 1);
			nt[h] = dl->named[i];
		}
		free(dl->named);
		dl->named = nt;
		dl->cap_named = ncap;
	}
	mask = dl->cap_named - 1;
	h = (size_t)pd_hash_u64(off + 1) & mask;
	while (dl->named[h].off && dl->named[h].off != off + 1)
		h = (h + 1) & mask;
	return &dl->named[h];
}

/*
 * The start of a function's first address range as bfd keeps it: the
 * first range of the DIE, extended by a later one that ends where it
 * starts (bfd's arange_add() joins adjacent ranges into the first range
 * they touch, the first one looked at first).
 */
static bool first_range_low(const struct pd_dwarf_cu *c, const struct inl *n, uint64_t *low)
{
	struct { uint64_t lo, hi; } first = { 0, 0 }, rest[16];
	unsigned int nrest = 0, i, k;

	for (k = 0; k < n->nrange; k++) {
		uint64_t lo = c->ranges[n->range + k].lo, hi = c->ranges[n->range + k].hi;

		if (!first.hi) {
			first.lo = lo;
			first.hi = hi;
			continue;
		}
		if (lo == first.hi) {
			first.hi = hi;
			continue;
		}
		if (hi == first.lo) {
			first.lo = lo;
			continue;
		}
		for (i = 0; i < nrest; i++) {
			if (lo == rest[i].hi) {
				rest[i].hi = hi;
				break;
			}
			if (hi == rest[i].lo) {
				rest[i].lo = lo;
				break;
			}
		}
		/* a new range goes right after the first */
		if (i == nrest && nrest < sizeof(rest) / sizeof(rest[0])) {
			memmove(rest + 1, rest, nrest * sizeof(rest[0]));
			rest[0].lo = lo;
			rest[0].hi = hi;
			nrest++;
		}
	}
	*low = first.lo;
	return first.hi != 0;
}

/*
 * The name addr2line gives a function whose name is no linkage name
 * (binutils' dwarf2.c; raw: its own, a string id), as a shown string id.
 * The first time it is the innermost at an address: the name of the ELF
 * symbol there where there is one, and the function takes that name for
 * good - also as the caller of a later answer - when the symbol starts
 * where its first range does; otherwise it keeps its own name from then
 * on.  perf asks one addr2line process per DSO and keeps its answers per
 * address, so what a frame shows depends on the addresses asked before
 * it, in the order perf meets them: innermost frame first, sample by
 * sample in time order, which is the order the outputs ask in (answers
 * are cached per address here too).
 */
static uint32_t addr2line_name(struct pd_dwarf_lines *dl, struct pd_dso *d,
			       const struct pd_dwarf_cu *c, const struct inl *n, uint32_t raw,
			       uint64_t a, bool innermost)
{
	struct named_slot *nm = named_slot(dl, c->off + n->die);
	const char *sym;
	uint64_t value = 0, low;
	int64_t sid;
	uint32_t id;

	if (nm && nm->off)
		return nm->name >= 0 ? (uint32_t)nm->name : shown_id(dl, raw);
	if (!innermost)
		return shown_id(dl, raw);
	sym = pd_elf_symbol_function(dl->env, d, a, &value);
	sid = sym ? str_id(&dl->strs, sym) : 0;
	id = shown_id(dl, sid > 0 ? (uint32_t)sid : raw);
	if (nm) {
		nm->off = c->off + n->die + 1;
		nm->name = sid > 0 && first_range_low(c, n, &low) && low == value ? (int64_t)id : -1;
		dl->nnamed++;
	}
	return id;
}

/* Is a file offset inside one of the runtime image's PT_LOADs? */
static bool in_image(const struct pd_dso *d, uint64_t off)
{
	unsigned int i;

	for (i = 0; i < d->nsegs; i++)
		if (off >= d->segs[i].off && off - d->segs[i].off < d->segs[i].size)
			return true;
	return false;
}

size_t pd_dwarf_inline_frames(struct pd_sym_env *env, struct pd_dso *d, uint64_t addr,
			      const char **names, size_t max)
{
	struct pd_dwarf_lines *dl;
	struct cpos pos[PD_SYM_MAX_INLINE];
	uint32_t chain[PD_SYM_MAX_INLINE];
	const struct cache_ent *e;
	struct pd_dwarf_cu *c;
	unsigned int n = 0, i;
	bool read = false;
	uint64_t a;

	if (!in_image(d, addr) || !(dl = dwarf_get(env, d)))
		return 0;
	a = debug_addr(d, addr);
	/* functions take memory that source lines alone do not need */
	dl->want_funcs = true;
	if (!dl->acur_read) {
		dl->acur_read = true;
		read = true;
		if (handle_ready(dl, d) && !index_aranges(dl, false))
			return 0;
	}
	e = cache_get(&dl->frames, a);
	if (!e) {
		c = dl->nodwarf ? NULL : find_cu_in(dl, dl->acur, dl->acur_maxhi, dl->nacur, a);
		if (c && c->loaded && !c->funcs && !dl->gone) {
			/* read for source lines alone: again, with its functions */
			cu_unload(env, c);
		}
		if (c && !c->loaded && !load_cu(dl, d, c, false))
			c = NULL;
		if (c) {
			cu_used(env, c);
			n = find_frames(c, a, chain, PD_SYM_MAX_INLINE);
			/* innermost first */
			for (i = 0; i < n; i++) {
				struct inl *in = &c->inl[chain[n - 1 - i]];
				uint32_t raw = node_name(dl, d, c, in, &read);

				pos[i].func = in->linkage ? shown_id(dl, raw) :
					addr2line_name(dl, d, c, in, raw, a, i == 0);
				pos[i].file = pos[i].line = 0;
			}
			/* its pages dropped again, as after a CU is read */
			if (read && dl->elf)
				handle_rest(dl, 0);
		}
		if (!n) {
			/* no DWARF function holds it: the ELF symbol addr2line names */
			const char *sym = pd_elf_symbol_function(env, d, a, NULL);
			int64_t id = sym ? str_id(&dl->strs, sym) : 0;

			if (id > 0) {
				pos[0].func = shown_id(dl, (uint32_t)id);
				pos[0].file = pos[0].line = 0;
				n = 1;
			}
		}
		cache_put(&dl->frames, a, pos, n, false);
		e = cache_get(&dl->frames, a);
		if (!e) {
			/* not cached (out of memory): answered from pos */
			for (i = 0; i < n && i < max; i++)
				names[i] = shown_name(dl, pos[i].func);
			return i;
		}
	}
	for (i = 0; i < e->nr && i < max; i++)
		names[i] = shown_name(dl, dl->frames.pos[e->pos + i].func);
	return i;
}

int pd_dwarf_srcline(struct pd_sym_env *env, struct pd_dso *d, uint64_t addr,
		     struct pd_sym_srcline *out, int *err)
{
	struct pd_dwarf_lines *dl = dwarf_get(env, d);
	struct cpos pos[PD_SYM_MAX_INLINE + 1];
	const struct cache_ent *e;
	unsigned int nr;
	const char *file;
	bool symtab = false;
	uint64_t a;
	int r;

	out->nr = 0;
	out->from_symtab = false;
	if ((!dl || dl->nodwarf) && !d->dwarf_told) {
		/* once per DSO, also when inline frames asked first */
		d->dwarf_told = true;
		*err = 1;
	}
	a = debug_addr(d, addr);
	if (!dl || dl->nodwarf) {
		/* no DWARF at all: the symbol table's answer is a bisection */
		file = pd_elf_symbol_srcfile(env, d, a);
		if (!file)
			return 0;
		out->pos[0].func = NULL;
		out->pos[0].file = file;
		out->pos[0].line = 0;
		out->nr = 1;
		out->from_symtab = true;
		return 1;
	}
	e = cache_get(&dl->lines, a);
	if (e) {
		/* no position stored yet: no array either */
		if (e->nr)
			to_srcline(dl, &dl->lines.pos[e->pos], e->nr, out);
		out->from_symtab = e->symtab;
		return out->nr > 0;
	}
	r = lookup(dl, d, a, pos, &nr);
	if (r < 0)
		return 0;
	if (!r) {
		/* no line row: binutils names the file of the ELF symbol around it */
		int64_t id;

		file = pd_elf_symbol_srcfile(env, d, a);
		id = file ? str_id(&dl->strs, file) : 0;
		if (id > 0) {
			pos[0].func = 0;
			pos[0].file = (uint32_t)id;
			pos[0].line = 0;
			nr = 1;
			r = 1;
			symtab = true;
		}
	}
	to_srcline(dl, pos, nr, out);
	out->from_symtab = symtab;
	cache_put(&dl->lines, a, pos, nr, symtab);
	return r;
}
