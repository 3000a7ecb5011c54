// SPDX-License-Identifier: MIT
/*
 * inline.c - the inline frames perf script shows in a call stack.
 *
 * perf 6.1 expands every user frame it unwound with DWARF that has a map,
 * a symbol and a DSO file (util/machine.c unwind_entry() and
 * append_inlines(); frames of a recorded callchain are not expanded): it asks addr2line -i
 * for the chain of functions at the frame's address in the file symbols
 * came from, innermost first, and prints each as a frame of its own at the
 * same address.  An entry whose (demangled) name is the frame's symbol is
 * that symbol, printed as usual; every other entry is a made-up symbol
 * printed "name (inlined)" - also the outermost one when the DWARF name of
 * the function differs from the ELF symbol (init_cpu_features against
 * init_cpu_features.constprop.0).  An address without debug information
 * is left as it is.
 *
 * Here libdw answers instead of addr2line: the scopes of the address
 * (dwarf_getscopes) from the innermost DW_TAG_inlined_subroutine to the
 * DW_TAG_subprogram around them, each named by its linkage name where it
 * has one, else its name (what addr2line prints).  The frame's address is
 * a file offset of the runtime image; its PT_LOAD headers turn it into the
 * link-time address the DWARF uses.  Answers are cached per DSO and address.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym_internal.h"

#define INL_MAX_SEG	16
#define INL_MAX_NEST	PD_SYM_MAX_INLINE
#define INL_MAX_CACHE	(1u << 20)	/* cached addresses per DSO */

struct inl_seg {
	uint64_t off, vaddr, filesz;
};

struct inl_slot {
	uint64_t addr;		/* + 1: 0 is an empty slot */
	uint32_t first, n;	/* names[first .. first + n) */
};

struct pd_inline_dso {
	int fd;
	Dwarf *dw;
	struct inl_seg seg[INL_MAX_SEG];
	int nseg;
	struct inl_slot *tab;
	size_t cap, used;
	char **names;		/* owned copies, demangled */
	size_t nnames, capnames;
};

static void inline_free(struct pd_dso *d)
{
	struct pd_inline_dso *id = d->inl;
	size_t i;

	if (!id)
		return;
	if (id->dw)
		dwarf_end(id->dw);
	if (id->fd >= 0)
		close(id->fd);
	for (i = 0; i < id->nnames; i++)
		free(id->names[i]);
	free(id->names);
	free(id->tab);
	free(id);
	d->inl = NULL;
}

/* The runtime image's PT_LOAD headers: file offsets to link-time addresses. */
static void read_segments(struct pd_machine *m, struct pd_dso *d, struct pd_inline_dso *id)
{
	int fd = pd_sym_open(pd_machine_env(m), d->runtime_path, true);
	Elf *e;
	size_t nph, i;

	if (fd < 0)
		return;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF && elf_getphdrnum(e, &nph) == 0) {
		for (i = 0; i < nph && id->nseg < INL_MAX_SEG; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			id->seg[id->nseg].off = ph.p_offset;
			id->seg[id->nseg].vaddr = ph.p_vaddr;
			id->seg[id->nseg].filesz = ph.p_filesz;
			id->nseg++;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
}

static struct pd_inline_dso *inline_open(struct pd_machine *m, struct pd_dso *d)
{
	struct pd_inline_dso *id;

	if (d->inl || d->inl_tried)
		return d->inl;
	d->inl_tried = true;
	if (!d->syms_path || !d->runtime_path)
		return NULL;
	id = calloc(1, sizeof(*id));
	if (!id)
		return NULL;
	id->fd = pd_sym_open(pd_machine_env(m), d->syms_path, d->syms_under_root);
	if (id->fd >= 0)
		id->dw = dwarf_begin(id->fd, DWARF_C_READ);
	if (!id->dw) {
		/* no debug information: every frame stays as it is */
		if (id->fd >= 0)
			close(id->fd);
		free(id);
		return NULL;
	}
	read_segments(m, d, id);
	d->inl = id;
	d->inl_free = inline_free;
	return id;
}

static bool to_vaddr(const struct pd_inline_dso *id, uint64_t off, uint64_t *vaddr)
{
	int i;

	for (i = 0; i < id->nseg; i++) {
		const struct inl_seg *s = &id->seg[i];

		if (off >= s->off && off - s->off < s->filesz) {
			*vaddr = s->vaddr + (off - s->off);
			return true;
		}
	}
	return false;
}

static const char *die_func_name(Dwarf_Die *die)
{
	Dwarf_Attribute at;
	const char *n = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &at) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at))
		n = dwarf_formstring(&at);
	if (!n && dwarf_attr_integrate(die, DW_AT_name, &at))
		n = dwarf_formstring(&at);
	return n;
}

static bool add_name(struct pd_inline_dso *id, const char *raw)
{
	char *dm, *s;

	if (id->nnames == id->capnames) {
		size_t cap = id->capnames ? id->capnames * 2 : 64;
		char **p = realloc(id->names, cap * sizeof(*p));

		if (!p)
			return false;
		id->names = p;
		id->capnames = cap;
	}
	/* perf prints "??" for a scope without a name */
	dm = raw ? pd_demangle(raw) : NULL;
	s = dm ? dm : strdup(raw ? raw : "??");
	if (!s)
		return false;
	id->names[id->nnames++] = s;
	return true;
}

/*
 * The functions at vaddr, innermost first: the concrete DIE tree of its
 * compile unit walked down through the children that contain vaddr,
 * keeping subprograms and inlined subroutines (the nesting addr2line -i
 * reports; the abstract origins' own parents do not count).
 */
static bool has_pc_attr(Dwarf_Die *die)
{
	return dwarf_hasattr(die, DW_AT_low_pc) || dwarf_hasattr(die, DW_AT_ranges);
}

/* The length of the range of `die` that holds vaddr (0: none does). */
static uint64_t range_len_at(Dwarf_Die *die, uint64_t vaddr)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0)
		if (vaddr >= lo && vaddr < hi)
			return hi - lo;
	return 0;
}

/*
 * Depth-first: the path of functions below `die` whose ranges hold vaddr.
 * Where several functions of one level hold it (gas gives an assembly
 * function one DW_TAG_subprogram per alias: __execve, __GI___execve,
 * execve, __GI_execve), addr2line takes the one whose range there is the
 * shortest, and of equal ones the last (binutils dwarf2.c,
 * lookup_address_in_function_table): so does this.
 */
static bool find_path(Dwarf_Die *die, uint64_t vaddr, const char **raw, uint32_t *n, int depth)
{
	Dwarf_Die child, best;
	uint64_t best_len = 0;

	if (depth > 64 || dwarf_child(die, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			uint64_t len = range_len_at(&child, vaddr);

			if (len && (!best_len || len <= best_len)) {
				best = child;
				best_len = len;
			}
			continue;
		}
		if (best_len)
			continue;
		if (tag != DW_TAG_lexical_block && tag != DW_TAG_namespace &&
		    tag != DW_TAG_class_type && tag != DW_TAG_structure_type &&
		    tag != DW_TAG_union_type && tag != DW_TAG_try_block &&
		    tag != DW_TAG_catch_block)
			continue;
		/* a block without ranges may still hold functions that have some */
		if (has_pc_attr(&child) && dwarf_haspc(&child, vaddr) <= 0)
			continue;
		if (find_path(&child, vaddr, raw, n, depth + 1))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	if (!best_len)
		return false;
	if (*n < INL_MAX_NEST)
		raw[(*n)++] = die_func_name(&best);
	find_path(&best, vaddr, raw, n, depth + 1);
	return true;
}

/*
 * The functions at vaddr, innermost first: the concrete DIE tree of its
 * compile unit searched for the subprograms and inlined subroutines that
 * contain vaddr (the nesting addr2line -i reports; an abstract origin's
 * own parents do not count).
 */
static uint32_t lookup(struct pd_inline_dso *id, uint64_t vaddr)
{
	Dwarf_Die cudie;
	const char *raw[INL_MAX_NEST];
	uint32_t n = 0, i;

	if (!dwarf_addrdie(id->dw, vaddr, &cudie))
		return 0;
	find_path(&cudie, vaddr, raw, &n, 0);
	/* outermost first so far */
	for (i = 0; i < n / 2; i++) {
		const char *t = raw[i];

		raw[i] = raw[n - 1 - i];
		raw[n - 1 - i] = t;
	}
	for (i = 0; i < n; i++)
		if (!add_name(id, raw[i]))
			return i;
	return n;
}

static struct inl_slot *cache_find(struct pd_inline_dso *id, uint64_t addr, bool *found)
{
	size_t mask, h;

	*found = false;
	if (id->used * 2 >= id->cap) {
		size_t ncap = id->cap ? id->cap * 2 : 1024, i;
		struct inl_slot *nt;

		if (ncap > 2 * INL_MAX_CACHE)
			return NULL;
		nt = calloc(ncap, sizeof(*nt));
		if (!nt)
			return NULL;
		for (i = 0; i < id->cap; i++) {
			if (!id->tab[i].addr)
				continue;
			h = (size_t)((id->tab[i].addr * 0x9e3779b97f4a7c15ULL) >> 20) & (ncap - 1);
			while (nt[h].addr)
				h = (h + 1) & (ncap - 1);
			nt[h] = id->tab[i];
		}
		free(id->tab);
		id->tab = nt;
		id->cap = ncap;
	}
	mask = id->cap - 1;
	h = (size_t)(((addr + 1) * 0x9e3779b97f4a7c15ULL) >> 20) & mask;
	while (id->tab[h].addr) {
		if (id->tab[h].addr == addr + 1) {
			*found = true;
			return &id->tab[h];
		}
		h = (h + 1) & mask;
	}
	return &id->tab[h];
}

size_t pd_machine_inline_frames(struct pd_machine *m, const struct pd_sym_frame *f,
				struct pd_sym_inline *out, size_t max)
{
	struct pd_dso *d = (struct pd_dso *)(uintptr_t)f->dso;
	struct pd_inline_dso *id;
	struct inl_slot *slot;
	uint64_t vaddr;
	bool found;
	size_t i, n;

	/* perf: a map, a symbol, and a file that is no [kernel], [vdso] or JIT map */
	if (!f->unwound || !d || !f->has_map || !f->sym || !max || d->kind != PD_DSO_USER ||
	    pd_machine_opts(m)->no_inline)
		return 0;
	id = inline_open(m, d);
	if (!id)
		return 0;
	slot = cache_find(id, f->addr, &found);
	if (!slot)
		return 0;
	if (!found) {
		slot->addr = f->addr + 1;
		slot->first = (uint32_t)id->nnames;
		slot->n = to_vaddr(id, f->addr, &vaddr) ? lookup(id, vaddr) : 0;
		id->used++;
	}
	n = slot->n < max ? slot->n : max;
	for (i = 0; i < n; i++) {
		out[i].name = id->names[slot->first + i];
		out[i].inlined = strcmp(out[i].name, f->sym) != 0;
	}
	return n;
}
