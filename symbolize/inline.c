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
 * init_cpu_features.constprop.0).
 *
 * A function whose DWARF name is no linkage name (C++, Rust) is named
 * as binutils names it, by the ELF symbol at the first address asked
 * about in it, with state kept per DSO as perf's addr2line process keeps
 * it (add_innermost()).
 *
 * Where no DWARF function holds the address (a file without debug
 * information, code no CU describes), addr2line names the ELF symbol bfd
 * chooses there (pd_elf_symbol_function(): of aliases the first in table
 * order, .dynsym's in a file without .symtab), and perf expands the frame
 * into that one entry: an alias other than perf's symbol is printed as
 * inlined in its place (__libc_free for free in a static-pie program
 * without debug information).
 *
 * Here libdw answers instead of addr2line: the scopes of the address
 * from the innermost DW_TAG_inlined_subroutine to the DW_TAG_subprogram
 * around them, each named by its linkage name where it has one, else its
 * name (what addr2line prints).  The frame's address is a file offset of
 * the runtime image; its PT_LOAD headers turn it into the link-time
 * address the DWARF uses.  A compile unit's functions and the blocks
 * around them are read from libdw once, into an array searched for every
 * address of that CU; answers are cached per DSO and address.
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
/* bytes of the CUs' indexes of a DSO: past it they are read again as needed */
#define INL_MAX_INDEX	((size_t)16 << 20)

struct inl_seg {
	uint64_t off, vaddr, filesz;
};

/*
 * A function whose name is no linkage name, once addr2line named it as
 * the innermost at an address: name is the index of the ELF symbol's name
 * in names when it took that name for good, -1 when it keeps its own.
 */
struct inl_named {
	Dwarf_Off off;		/* + 1: 0 is an empty slot */
	int32_t name;
};

#define INL_MAX_NAMED	(1u << 20)

struct inl_slot {
	uint64_t addr;		/* + 1: 0 is an empty slot */
	uint32_t first, n;	/* names[first .. first + n) */
};

struct pd_inline_dso {
	int fd;
	Elf *elf;
	Dwarf *dw;
	struct inl_seg seg[INL_MAX_SEG];
	int nseg;
	struct inl_slot *tab;
	size_t cap, used;
	char **names;		/* owned copies, demangled */
	size_t nnames, capnames;
	struct inl_cu *cus;	/* hashed by DIE offset */
	size_t ncus, capcus;
	struct inl_named *named;	/* addr2line's names for functions, hashed by DIE */
	size_t nnamed, capnamed;
	size_t index_bytes;
};

static void cus_free(struct pd_inline_dso *id);

static void inline_free_id(struct pd_inline_dso *id)
{
	size_t i;

	if (id->dw)
		dwarf_end(id->dw);
	if (id->elf)
		elf_end(id->elf);
	if (id->fd >= 0)
		close(id->fd);
	for (i = 0; i < id->nnames; i++)
		free(id->names[i]);
	free(id->names);
	free(id->tab);
	cus_free(id);
	free(id->named);
	free(id);
}

static void inline_free(struct pd_dso *d)
{
	if (!d->inl)
		return;
	inline_free_id(d->inl);
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

/*
 * libdw decompresses every DWARF section it knows when it opens a file
 * (libc6-dbg's are compressed: 10 MB to inflate); the line table and the
 * location lists are not used here, so they are marked as having no
 * contents in libelf's private copy of the section headers (a copy-on-write
 * mapping: the file is not written) and libdw leaves them alone.
 */
static void hide_unused_sections(Elf *elf)
{
	static const char *const unused[] = {
		".debug_line", ".debug_loc", ".debug_loclists", ".debug_macro",
		".debug_macinfo", ".debug_pubnames", ".debug_pubtypes", ".debug_frame",
	};
	Elf_Scn *scn = NULL;
	size_t shstrndx, i;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strncmp(name, ".debug_", 7))
			continue;
		for (i = 0; i < sizeof(unused) / sizeof(unused[0]); i++) {
			if (strcmp(name, unused[i]))
				continue;
			sh.sh_type = SHT_NOBITS;
			gelf_update_shdr(scn, &sh);
			break;
		}
	}
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
		id->elf = elf_begin(id->fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (id->elf && elf_kind(id->elf) == ELF_K_ELF) {
		hide_unused_sections(id->elf);
		id->dw = dwarf_begin_elf(id->elf, DWARF_C_READ, NULL);
	}
	if (!id->dw) {
		/* no debug information: only the symbol table names functions */
		if (id->elf)
			elf_end(id->elf);
		if (id->fd >= 0)
			close(id->fd);
		id->elf = NULL;
		id->fd = -1;
	}
	read_segments(m, d, id);
	if (!id->nseg) {
		inline_free_id(id);
		return NULL;
	}
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

	if (!pd_grow(&id->names, &id->capnames, id->nnames + 1, sizeof(*id->names), SIZE_MAX))
		return false;
	/* perf prints "??" for a scope without a name */
	dm = raw ? pd_demangle(raw) : NULL;
	s = dm ? dm : strdup(raw ? raw : "??");
	if (!s)
		return false;
	id->names[id->nnames++] = s;
	return true;
}

/*
 * A compile unit's functions and the blocks that may hold them, read from
 * its DIE tree into one array: walking the sibling DIEs of a large CU per
 * address was most of the time of a profile with inline frames.  The
 * children of a function are read when a lookup first enters it (most
 * functions of a CU never hold a sampled address), as one segment of
 * nodes in depth-first order appended to the array; a block's children
 * follow the block in the segment of the function or CU that holds it.
 */
enum { NODE_FUNC = 1, NODE_BLOCK = 2, NODE_BLOCK_PC = 3 };

struct inl_node {
	Dwarf_Off off;		/* the DIE: named when on a path, read when entered */
	uint32_t next;		/* first index after this node's subtree in its segment */
	uint32_t range, nrange;	/* its address ranges in cu->ranges */
	uint32_t sub, nsub;	/* a function's children: nodes[sub .. sub + nsub) */
	uint8_t kind;
	bool read;		/* a function's children are read */
};

struct inl_range {
	uint64_t lo, hi;
};

struct inl_cu {
	Dwarf_Off off;		/* of the CU's DIE, + 1; 0: empty slot */
	struct inl_node *nodes;
	uint32_t nnodes, capnodes;
	uint32_t ntop;		/* nodes[0 .. ntop): the CU's own children */
	struct inl_range *ranges;
	uint32_t nranges, capranges;
	bool failed;		/* out of memory or budget: no inline frames in it */
};

/*
 * find_path() looks at the children of a DIE while its depth is at most
 * 64: the CU's children are at depth 0, so no node is deeper than that.
 */
#define INL_MAX_DEPTH	64

static bool node_tag_kind(int tag, uint8_t *kind)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
		*kind = NODE_FUNC;
		return true;
	case DW_TAG_lexical_block:
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
		*kind = NODE_BLOCK;
		return true;
	default:
		return false;
	}
}

static bool index_grow(struct pd_inline_dso *id, void **p, uint32_t *cap, uint32_t n, size_t sz)
{
	size_t ncap;
	void *np;

	if (n < *cap)
		return true;
	ncap = *cap ? (size_t)*cap * 2 : 64;
	if (ncap > UINT32_MAX || id->index_bytes + (ncap - *cap) * sz > INL_MAX_INDEX)
		return false;
	np = realloc(*p, ncap * sz);
	if (!np)
		return false;
	id->index_bytes += (ncap - *cap) * sz;
	*p = np;
	*cap = (uint32_t)ncap;
	return true;
}

static void index_add_ranges(struct pd_inline_dso *id, struct inl_cu *cu, Dwarf_Die *die,
			     uint32_t at)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	uint32_t first = cu->nranges;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (!index_grow(id, (void **)&cu->ranges, &cu->capranges, cu->nranges,
				sizeof(*cu->ranges))) {
			cu->failed = true;
			return;
		}
		cu->ranges[cu->nranges].lo = lo;
		cu->ranges[cu->nranges].hi = hi;
		cu->nranges++;
	}
	cu->nodes[at].range = first;
	cu->nodes[at].nrange = cu->nranges - first;
}

/* The children of parent appended, blocks' children after each block. */
static void index_children(struct pd_inline_dso *id, struct inl_cu *cu, Dwarf_Die *parent,
			   unsigned int depth)
{
	Dwarf_Off last = 0;
	Dwarf_Die child;

	if (depth > INL_MAX_DEPTH || dwarf_child(parent, &child) != 0)
		return;
	do {
		Dwarf_Off here = dwarf_dieoffset(&child);
		struct inl_node *node;
		uint32_t at, ranges_before;
		uint8_t kind;

		/* a DW_AT_sibling that points back would walk these DIEs forever */
		if (here <= last) {
			cu->failed = true;
			return;
		}
		last = here;
		if (!node_tag_kind(dwarf_tag(&child), &kind))
			continue;
		if (!index_grow(id, (void **)&cu->nodes, &cu->capnodes, cu->nnodes,
				sizeof(*cu->nodes))) {
			cu->failed = true;
			return;
		}
		ranges_before = cu->nranges;
		at = cu->nnodes++;
		node = &cu->nodes[at];
		memset(node, 0, sizeof(*node));
		node->off = here;
		if (kind == NODE_BLOCK && (dwarf_hasattr(&child, DW_AT_low_pc) ||
					   dwarf_hasattr(&child, DW_AT_ranges)))
			kind = NODE_BLOCK_PC;
		node->kind = kind;
		/* a block without ranges of its own is entered whatever vaddr */
		if (kind != NODE_BLOCK)
			index_add_ranges(id, cu, &child, at);
		if (kind != NODE_FUNC)
			index_children(id, cu, &child, depth + 1);
		if (cu->failed)
			return;
		/*
		 * A function without ranges (a declaration, an abstract
		 * instance) never holds vaddr, and a block with no such
		 * function below it never leads to one: find_path() would
		 * step over them, so they are left out (the prototypes of a
		 * C header, the classes of a C++ namespace).
		 */
		if (kind == NODE_FUNC ? !cu->nodes[at].nrange : cu->nnodes == at + 1) {
			cu->nnodes = at;
			cu->nranges = ranges_before;
			continue;
		}
		cu->nodes[at].next = cu->nnodes;
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* A function's children, read on first entry; false: none to look at. */
static bool index_function(struct pd_inline_dso *id, struct inl_cu *cu, uint32_t at,
			   unsigned int depth)
{
	struct inl_node *node = &cu->nodes[at];
	Dwarf_Die die;
	uint32_t sub = cu->nnodes;

	if (node->read)
		return node->nsub > 0;
	node->read = true;
	if (!dwarf_offdie(id->dw, node->off, &die))
		return false;
	index_children(id, cu, &die, depth);
	if (cu->failed)
		return false;
	cu->nodes[at].sub = sub;
	cu->nodes[at].nsub = cu->nnodes - sub;
	return cu->nnodes > sub;
}

static void cu_index_free(struct inl_cu *cu)
{
	free(cu->nodes);
	free(cu->ranges);
	cu->nodes = NULL;
	cu->ranges = NULL;
	cu->nnodes = cu->nranges = cu->capnodes = cu->capranges = 0;
}

static void cus_free(struct pd_inline_dso *id)
{
	size_t i;

	for (i = 0; i < id->capcus; i++)
		cu_index_free(&id->cus[i]);
	free(id->cus);
	id->cus = NULL;
	id->capcus = id->ncus = 0;
	id->index_bytes = 0;
}

/* The index of the CU whose DIE is cudie, its top level read on first use. */
static struct inl_cu *cu_index(struct pd_inline_dso *id, Dwarf_Die *cudie)
{
	Dwarf_Off off = dwarf_dieoffset(cudie) + 1;
	struct inl_cu *cu;
	size_t mask, h;

	/* past the budget, the indexes of this DSO are read again as needed */
	if (id->index_bytes >= INL_MAX_INDEX / 2)
		cus_free(id);
	if (id->ncus * 2 >= id->capcus) {
		size_t ncap = id->capcus ? id->capcus * 2 : 64, i;
		struct inl_cu *nt = calloc(ncap, sizeof(*nt));

		if (!nt)
			return NULL;
		for (i = 0; i < id->capcus; i++) {
			if (!id->cus[i].off)
				continue;
			h = (size_t)pd_hash_u64(id->cus[i].off) & (ncap - 1);
			while (nt[h].off)
				h = (h + 1) & (ncap - 1);
			nt[h] = id->cus[i];
		}
		free(id->cus);
		id->index_bytes += (ncap - id->capcus) * sizeof(*nt);
		id->cus = nt;
		id->capcus = ncap;
	}
	mask = id->capcus - 1;
	h = (size_t)pd_hash_u64(off) & mask;
	while (id->cus[h].off) {
		if (id->cus[h].off == off)
			return &id->cus[h];
		h = (h + 1) & mask;
	}
	cu = &id->cus[h];
	cu->off = off;
	id->ncus++;
	index_children(id, cu, cudie, 0);
	cu->ntop = cu->nnodes;
	return cu;
}

/* The length of the range of node `at` that holds vaddr (0: none does). */
static uint64_t range_len_at(const struct inl_cu *cu, uint32_t at, uint64_t vaddr)
{
	const struct inl_node *node = &cu->nodes[at];
	uint32_t i;

	for (i = 0; i < node->nrange; i++) {
		const struct inl_range *r = &cu->ranges[node->range + i];

		if (vaddr >= r->lo && vaddr < r->hi)
			return r->hi - r->lo;
	}
	return 0;
}

/*
 * The path of functions whose ranges hold vaddr, among the nodes
 * [first, end) that are the children of one DIE at `depth`, depth-first.
 * Where several functions of one level hold it (gas gives an assembly
 * function one DW_TAG_subprogram per alias: __execve, __GI___execve,
 * execve, __GI_execve), addr2line takes the one whose range there is the
 * shortest, and of equal ones the last (binutils dwarf2.c,
 * lookup_address_in_function_table): so does this.  A block is entered
 * only while no function of its level held vaddr before it.  The nodes
 * may move while a function is read: only indexes are kept.
 */
static bool find_path(struct pd_inline_dso *id, struct inl_cu *cu, uint32_t first,
		      uint32_t end, uint64_t vaddr, Dwarf_Off *path, uint32_t *n,
		      unsigned int depth)
{
	uint64_t best_len = 0;
	uint32_t i, best = 0;

	if (depth > INL_MAX_DEPTH)
		return false;
	for (i = first; i < end; i = cu->nodes[i].next) {
		uint8_t kind = cu->nodes[i].kind;

		if (kind == NODE_FUNC) {
			uint64_t len = range_len_at(cu, i, vaddr);

			if (len && (!best_len || len <= best_len)) {
				best = i;
				best_len = len;
			}
			continue;
		}
		if (best_len)
			continue;
		/* a block without ranges may still hold functions that have some */
		if (kind == NODE_BLOCK_PC && !range_len_at(cu, i, vaddr))
			continue;
		if (find_path(id, cu, i + 1, cu->nodes[i].next, vaddr, path, n, depth + 1))
			return true;
	}
	if (!best_len)
		return false;
	if (*n < INL_MAX_NEST)
		path[(*n)++] = cu->nodes[best].off;
	if (index_function(id, cu, best, depth + 1))
		find_path(id, cu, cu->nodes[best].sub, cu->nodes[best].sub + cu->nodes[best].nsub,
			  vaddr, path, n, depth + 1);
	return true;
}

/*
 * The functions at vaddr, innermost first: the concrete DIE tree of its
 * compile unit searched for the subprograms and inlined subroutines that
 * contain vaddr (the nesting addr2line -i reports; an abstract origin's
 * own parents do not count), each named by its linkage name where it has
 * one, else its name.
 */
/*
 * Whether binutils takes a function's name as its linkage name: a
 * DW_AT_linkage_name (its own, its origin's or its declaration's), or a
 * DW_AT_name in a language whose names are not mangled (bfd's
 * mangle_style() of 0: C, Fortran 77, Pascal, assembly and the like; C++,
 * Rust and languages it does not know are mangled).
 */
static bool name_is_linkage(Dwarf_Die *die, int lang)
{
	Dwarf_Attribute at;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &at) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at))
		return true;
	if (!dwarf_attr_integrate(die, DW_AT_name, &at))
		return false;
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

/*
 * The start of a function's first address range as bfd keeps it: the
 * first range of the DIE, extended by a later one that ends where it
 * starts (bfd's arange_add() joins adjacent ranges into the first range
 * they touch, the first one looked at first).
 */
static bool first_range_low(Dwarf_Die *die, uint64_t *low)
{
	struct inl_range first = { 0, 0 }, rest[16];
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	unsigned int nrest = 0, i;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (lo == hi)
			continue;
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

/* The slot of a function in id->named, NULL when the table is full. */
static struct inl_named *named_slot(struct pd_inline_dso *id, Dwarf_Off off)
{
	size_t mask, h;

	if (id->nnamed * 2 >= id->capnamed) {
		size_t ncap = id->capnamed ? id->capnamed * 2 : 256, i;
		struct inl_named *nt;

		if (ncap > 2 * INL_MAX_NAMED)
			return NULL;
		nt = calloc(ncap, sizeof(*nt));
		if (!nt)
			return NULL;
		for (i = 0; i < id->capnamed; i++) {
			if (!id->named[i].off)
				continue;
			h = (size_t)pd_hash_u64(id->named[i].off) & (ncap - 1);
			while (nt[h].off)
				h = (h + 1) & (ncap - 1);
			nt[h] = id->named[i];
		}
		free(id->named);
		id->named = nt;
		id->capnamed = ncap;
	}
	mask = id->capnamed - 1;
	h = (size_t)pd_hash_u64(off + 1) & mask;
	while (id->named[h].off && id->named[h].off != off + 1)
		h = (h + 1) & mask;
	return &id->named[h];
}

/* A copy of a name already demangled, as the next entry of names. */
static bool add_copy(struct pd_inline_dso *id, uint32_t from)
{
	char *s;

	if (!pd_grow(&id->names, &id->capnames, id->nnames + 1, sizeof(*id->names), SIZE_MAX))
		return false;
	s = strdup(id->names[from]);
	if (!s)
		return false;
	id->names[id->nnames++] = s;
	return true;
}

/*
 * The name addr2line gives the innermost function at vaddr when its name
 * is no linkage name (binutils' dwarf2.c): the first time, the name of
 * the ELF symbol at vaddr where there is one, and the function takes that
 * name for good - also as the caller of a later answer - when the symbol
 * starts where its first range does; otherwise it keeps its own name from
 * then on.  perf asks one addr2line process per DSO and keeps its answers
 * per address, so what a frame shows depends on the addresses asked
 * before it, in the order perf meets them: innermost frame first, sample
 * by sample in time order, which is the order the outputs ask in.
 */
static bool add_innermost(struct pd_machine *m, struct pd_dso *d, struct pd_inline_dso *id,
			  Dwarf_Die *die, Dwarf_Off off, const char *raw, uint64_t vaddr)
{
	struct inl_named *nm = named_slot(id, off);
	const char *sym;
	uint64_t value, low;
	bool keep;

	if (nm && nm->off)
		return nm->name >= 0 ? add_copy(id, (uint32_t)nm->name) : add_name(id, raw);
	sym = pd_elf_symbol_function(pd_machine_env(m), d, vaddr, &value);
	if (!add_name(id, sym ? sym : raw))
		return false;
	keep = sym && first_range_low(die, &low) && low == value;
	if (nm) {
		nm->off = off + 1;
		nm->name = keep ? (int32_t)(id->nnames - 1) : -1;
		id->nnamed++;
	}
	return true;
}

static uint32_t lookup_dwarf(struct pd_machine *m, struct pd_dso *d, struct pd_inline_dso *id,
			     uint64_t vaddr)
{
	Dwarf_Die cudie;
	Dwarf_Off path[INL_MAX_NEST];
	struct inl_cu *cu;
	uint32_t n = 0, i;
	int lang;

	if (!id->dw || !dwarf_addrdie(id->dw, vaddr, &cudie))
		return 0;
	cu = cu_index(id, &cudie);
	if (!cu || cu->failed)
		return 0;
	find_path(id, cu, 0, cu->ntop, vaddr, path, &n, 0);
	if (cu->failed)
		return 0;
	lang = dwarf_srclang(&cudie);
	/* the path is outermost first, the names go innermost first */
	for (i = 0; i < n; i++) {
		Dwarf_Off off = path[n - 1 - i];
		const struct inl_named *nm;
		Dwarf_Die die;
		const char *raw = NULL;
		bool ok;

		if (!dwarf_offdie(id->dw, off, &die)) {
			ok = add_name(id, NULL);
			if (!ok)
				return i;
			continue;
		}
		raw = die_func_name(&die);
		if (name_is_linkage(&die, lang)) {
			ok = add_name(id, raw);
		} else if (i == 0) {
			ok = add_innermost(m, d, id, &die, off, raw, vaddr);
		} else {
			/* a caller: the symbol's name if it took it for good */
			nm = named_slot(id, off);
			ok = nm && nm->off && nm->name >= 0 ? add_copy(id, (uint32_t)nm->name)
							    : add_name(id, raw);
		}
		if (!ok)
			return i;
	}
	return n;
}

/* The DWARF's functions at vaddr, else the one ELF symbol addr2line names there. */
static uint32_t lookup(struct pd_machine *m, struct pd_dso *d, struct pd_inline_dso *id,
		       uint64_t vaddr)
{
	uint32_t n = lookup_dwarf(m, d, id, vaddr);
	const char *sym;

	if (n)
		return n;
	sym = pd_elf_symbol_function(pd_machine_env(m), d, vaddr, NULL);
	return sym && add_name(id, sym) ? 1 : 0;
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
		slot->n = to_vaddr(id, f->addr, &vaddr) ? lookup(m, d, id, vaddr) : 0;
		id->used++;
	}
	n = slot->n < max ? slot->n : max;
	for (i = 0; i < n; i++) {
		out[i].name = id->names[slot->first + i];
		out[i].inlined = strcmp(out[i].name, f->sym) != 0;
	}
	return n;
}
