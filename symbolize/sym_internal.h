/* SPDX-License-Identifier: MIT */
/* sym_internal.h - shared declarations of the symbolization module. */
#ifndef PD_SYM_INTERNAL_H
#define PD_SYM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfdata/pd_symbols.h"

/*
 * The one rule of the symbolizer's growable arrays (the rule of the
 * commands' common/grow.h, which the library does not use): room for at
 * least `need` elements of `size` bytes in the array *arrayp (a pointer to
 * the array's pointer) of *cap elements, the capacity doubling from 16,
 * the new elements zeroed, never more than `max_bytes` in all.  false
 * when out of memory or over the limit: the array is left as it was.
 */
static inline bool pd_grow(void *arrayp, size_t *cap, size_t need, size_t size, size_t max_bytes)
{
	size_t n = *cap ? *cap : 16;
	void **p = arrayp, *v;

	if (need <= *cap)
		return true;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return false;
		n *= 2;
	}
	if (!size || n > max_bytes / size)
		return false;
	v = realloc(*p, n * size);
	if (!v)
		return false;
	memset((char *)v + *cap * size, 0, (n - *cap) * size);
	*p = v;
	*cap = n;
	return true;
}

/*
 * Symbol table.  perf keeps symbols in a red-black tree and, when symbols
 * overlap (a zero-size symbol stretched over later ones, aliases), the
 * answer of a lookup depends on the shape of that tree.  To give the same
 * answers the table is the same kind of tree, fed the same insertions and
 * deletions; nodes live in one array and link by index (0 is the sentinel).
 *
 * Once loaded, a table whose symbols do not overlap is sealed into sorted
 * arrays (16 bytes a symbol instead of a 40-byte node, names sharing the
 * bytes of a name they end): there every lookup has one answer whatever
 * the tree's shape, found by binary search.  A symbol added to a sealed
 * table (a KSYMBOL record) makes it a tree again, with the same indexes.
 *
 * Symbols inserted in address order (kallsyms, perf map files) are not
 * linked as they come: the table stays flat, its nodes in index order,
 * an erased one marked and remembered in the order of erasing, until
 * something needs the tree (an insert out of order or after an erase, the
 * end of loading without a seal, a lookup).  Then the same inserts and
 * erases are replayed, giving the tree they would have built; a table
 * sealed first never needs it.
 */
struct pd_symn {
	uint64_t start, end;	/* [start, end); start == end covers start only */
	uint32_t name;		/* offset in the string pool */
	uint32_t left, right, parent;
	uint8_t bind, type;
	uint8_t red;
	uint8_t erased;		/* flat table: erased */
	uint32_t erased_next;	/* flat table: the node erased after this one */
};

struct pd_symtab {
	struct pd_symn *n;
	uint32_t nr, cap;
	uint32_t root;		/* sealed: 1 (it has symbols) */
	uint32_t last;		/* the rightmost node; NIL: not known */
	uint32_t live;		/* inserted minus deleted */
	bool linked;		/* the nodes form the tree; false: flat (above) */
	uint32_t erased_first, erased_last;	/* flat: erased nodes, in order */
	char *str;
	size_t str_len, str_cap;
	/* sealed (seal != NULL, n NULL): symbol x is [x - 1] of each */
	struct pd_symseal *seal;
};

struct pd_symseal {
	uint64_t *start;	/* ascending */
	uint32_t *len;		/* end - start */
	uint32_t *name;		/* offset in the string pool */
	uint8_t *info;		/* bind << 4 | type */
};

/*
 * A sealed table built from symbols given in address order, none
 * overlapping the next (pd_symtab_shrink() seals a loaded table this way;
 * a loader that has its symbols sorted and fixed up seals them at once):
 * begin with their count and the bytes of their names (each with a NUL),
 * add each, finish into a table, whose arrays and names it replaces.
 */
struct pd_symseal_build {
	struct pd_symseal *s;
	char *str;
	size_t len, prev_len;
	uint32_t cnt, i, prev_off;
};

bool pd_symseal_begin(struct pd_symseal_build *b, uint32_t cnt, size_t names);
void pd_symseal_add(struct pd_symseal_build *b, uint64_t start, uint32_t len, uint8_t info,
		    const char *name, size_t n);
void pd_symseal_finish(struct pd_symseal_build *b, struct pd_symtab *t);

/*
 * perf's choice between two symbols of one start (symbols__fixup_duplicate):
 * true when a (size la, binding, name na of sa bytes) stays and b goes.
 */
bool pd_sym_keep_first(uint64_t la, uint8_t bind_a, const char *na, size_t sa,
		       uint64_t lb, uint8_t bind_b, const char *nb, size_t sb);

/*
 * perf's end of a kallsyms symbol (symbols__fixup_end): the next one's
 * start, but a kernel symbol never stretches over the gap to the modules
 * (a name with '[' is a module's): a page past its own then.  The last
 * one ends a page past the page of its start.
 */
static inline uint64_t pd_kallsyms_end(uint64_t start, bool bracket, uint64_t next_start,
				       bool next_bracket)
{
	if (bracket != next_bracket)
		return (start + 4096 + 4095) & ~(uint64_t)4095;
	return next_start;
}

static inline uint64_t pd_kallsyms_last_end(uint64_t start)
{
	return ((start + 4095) & ~(uint64_t)4095) + 4096;
}

void pd_symtab_init(struct pd_symtab *t);
void pd_symtab_free(struct pd_symtab *t);
/*
 * Loading is done: seal the table when no symbols overlap, else free the
 * unused room of its arrays.
 */
void pd_symtab_shrink(struct pd_symtab *t);
/*
 * Room for `nodes` symbols and `names` bytes of names (each with its NUL)
 * in all, so that a loader that knows about how many are coming does not
 * copy and fault in the arrays again at each doubling.  false on ENOMEM.
 */
bool pd_symtab_reserve(struct pd_symtab *t, size_t nodes, size_t names);
/* Insert; equal starts go right of existing ones.  Returns index or 0 on ENOMEM. */
uint32_t pd_symtab_insert(struct pd_symtab *t, uint64_t start, uint64_t end, uint8_t bind,
			  uint8_t type, const char *name, size_t name_len);
void pd_symtab_erase(struct pd_symtab *t, uint32_t z);
uint32_t pd_symtab_first(const struct pd_symtab *t);
uint32_t pd_symtab_last(const struct pd_symtab *t);
uint32_t pd_symtab_next(const struct pd_symtab *t, uint32_t x);
/* perf's tree descent; 0 when nothing covers addr */
uint32_t pd_symtab_find(const struct pd_symtab *t, uint64_t addr);
/* zero-size symbols get the next start (kallsyms rule when `kallsyms`) */
void pd_symtab_fixup_end(struct pd_symtab *t, bool kallsyms);
/* one symbol per address, chosen like perf */
void pd_symtab_fixup_duplicate(struct pd_symtab *t);
/*
 * The symbols at idx[0..n) of a table filled in address order and not
 * linked yet (ascending indexes; erased ones skipped) inserted into the
 * empty table out, then erased; false, both tables as they were, when t
 * is linked or out of memory.
 */
bool pd_symtab_move_flat(struct pd_symtab *t, const uint32_t *idx, size_t n,
			 struct pd_symtab *out);
/* every symbol moved down by delta (modulo 2^64), sealed or not */
void pd_symtab_shift(struct pd_symtab *t, uint64_t delta);

static inline const char *pd_symtab_name(const struct pd_symtab *t, uint32_t i)
{
	return t->str + (t->seal ? t->seal->name[i - 1] : t->n[i].name);
}

static inline uint64_t pd_symtab_start(const struct pd_symtab *t, uint32_t i)
{
	return t->seal ? t->seal->start[i - 1] : t->n[i].start;
}

static inline uint64_t pd_symtab_end(const struct pd_symtab *t, uint32_t i)
{
	return t->seal ? t->seal->start[i - 1] + t->seal->len[i - 1] : t->n[i].end;
}

/* ELF binding values used without pulling in elf.h everywhere */
#define PD_STB_LOCAL	0
#define PD_STB_GLOBAL	1
#define PD_STB_WEAK	2
#define PD_STT_FUNC	2

enum pd_dso_load {
	PD_LOAD_NONE = 0,	/* not tried yet */
	PD_LOAD_DONE,		/* tried (symbols may still be empty) */
};

struct pd_machine;

/* A PT_LOAD of the runtime image: file offsets [off, off + size) at vaddr. */
struct pd_load_seg {
	uint64_t off, vaddr, size;
};

#define PD_MAX_LOAD_SEGS 16

struct pd_dso {
	char *name;		/* as created: what perf script prints */
	char *long_name;	/* file it stands for */
	char *short_name;	/* perf's short name */
	enum pd_dso_kind kind;
	bool has_build_id;
	uint8_t build_id_size;
	uint8_t build_id[20];
	uint32_t maj, min;	/* dso id from MMAP2 (all zero: unknown) */
	uint64_t ino, ino_generation;
	enum pd_dso_load load;
	struct pd_symtab syms;
	char *syms_path;	/* file the symbol table came from (for DWARF) */
	bool syms_under_root;	/* syms_path is inside the symfs root */
	char *runtime_path;	/* file the program headers came from */
	struct pd_load_seg segs[PD_MAX_LOAD_SEGS];	/* the runtime image's PT_LOADs */
	unsigned int nsegs;
	int64_t debug_bias;	/* runtime .text address minus the symbol file's */
	uint64_t text_offset;	/* runtime .text address minus its file offset (perf's) */
	void *dwarf;		/* struct pd_dwarf_lines *, lazily */
	bool dwarf_tried;
	bool dwarf_told;	/* its lack of line information was reported */
	void *srcfiles;		/* struct pd_elf_srcfiles * (elfsyms.c), lazily */
	bool srcfiles_tried;
	struct pd_dso *hnext;	/* hash chain by name */
	struct pd_dso *next;	/* creation order */
	uint64_t diags;		/* bit (code - PD_SYM_DIAG_FIRST) per code already reported */
	uint8_t word_type;	/* PD_DSO_WORD_*: its ELF's word size, read once */
	/*
	 * Changes whenever its symbols or names may give other answers (a
	 * load, a KSYMBOL record): the frame cache keys its sites with it.
	 */
	uint32_t sym_gen;
	/*
	 * Its number in creation order: hashing it instead of the address
	 * keeps the frame cache's collisions, and so what it answers, the
	 * same from one run to the next.
	 */
	uint32_t seq;
};

/* pd_dso.word_type, as perf's dso__type() tells them apart */
enum {
	PD_DSO_WORD_UNREAD = 0,
	PD_DSO_WORD_UNKNOWN,	/* no readable ELF */
	PD_DSO_WORD_64,
	PD_DSO_WORD_32,
	PD_DSO_WORD_X32,	/* 32-bit ELF of x86_64 */
};

/*
 * The symbolizer's codes (pd_diag.h): PD801-PD849 concern one DSO and are
 * reported once per DSO, PD851-PD899 (the unwinder's) once per machine.
 */
#define PD_SYM_DIAG_FIRST	801
#define PD_SYM_DIAG_DSO_LAST	849
#define PD_SYM_DIAG_LAST	899
#define PD_SYM_DIAG_NR		(PD_SYM_DIAG_LAST - PD_SYM_DIAG_FIRST + 1)

/*
 * sym_env.c: what the loaders see of the machine (set up by
 * pd_machine_new()): its options, the --symfs root, the build-id cache,
 * and the count of notes given.
 */
struct pd_sym_env {
	struct pd_sym_opts opts;
	char *symfs;		/* realpath of opts.symfs, NULL without one */
	int rootfd;		/* the symfs root, -1 without one */
	char *buildid_dir;	/* NULL when there is none */
	bool buildid_under_root;	/* buildid_dir is inside the symfs root */
	uint64_t notes;		/* diagnostics given */
	uint64_t counts[PD_SYM_DIAG_NR];	/* by code: DSOs, or samples for the unwinder */
	/* the record last given to the machine, which diagnostics name */
	bool at_record;
	uint64_t rec_offset, rec_index;
	uint32_t rec_type;
	bool rec_has_stream;
	char rec_stream[24];
	/* dwarf_lines.c: DSOs whose libdw handle is open, most recent first */
	struct pd_dwarf_lines *dwarf_open;
	size_t dwarf_open_bytes;	/* their estimated memory */
	/* compile units with their tables read, most recently used first */
	struct pd_dwarf_cu *dwarf_cu_newest, *dwarf_cu_oldest;
	size_t dwarf_cu_bytes;		/* of those tables */
	/* debug files' decompressed copies on their way (pd_dwarf_copy_ahead()) */
	struct pd_copy_ahead *copies_ahead;
	/*
	 * memory of the copies in anonymous memory, on their way or open
	 * (dwarf_lines.c): reserved by the threads that make them
	 */
	_Atomic size_t dwarf_kept_bytes;
};

/*
 * A diagnostic of the symbolizer (code PD801-PD899) to opts.diag_fn, with
 * the record last given to the machine when `at_record`.  A DSO's code is
 * counted and reported once per DSO (d not NULL: the detail starts with
 * its dso=NAME), an unwinder's code is counted every time and reported
 * the first time.  `fmt` gives the rest of the detail, key=value ...
 */
void pd_sym_diag(struct pd_sym_env *env, struct pd_dso *d, enum pd_code code, bool at_record,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Was `code` (PD801-PD849) reported for d already? */
static inline bool pd_sym_diag_given(const struct pd_dso *d, enum pd_code code)
{
	return d->diags & (1ULL << ((unsigned int)code - PD_SYM_DIAG_FIRST));
}

void pd_sym_at_stream(struct pd_sym_env *env, const char *stream);

/*
 * The record diagnostics name from now on (pd_machine_process(),
 * ..._sample_stack()); inline, as it runs twice per sample.
 */
static inline void pd_sym_at_record(struct pd_sym_env *env, const struct pd_record *rec)
{
	env->at_record = true;
	env->rec_offset = rec->offset;
	env->rec_index = rec->index;
	env->rec_type = rec->type;
	env->rec_has_stream = rec->stream != NULL;
	if (rec->stream)
		pd_sym_at_stream(env, rec->stream);
}

/*
 * A detail value as it is, or in double quotes when it holds a space, a
 * quote or an '=' (or is empty), cut to fit buf.
 */
const char *pd_sym_quote(char *buf, size_t size, const char *value);

/*
 * Open a file named by untrusted input, read-only, regular files only.
 * `under_root`: resolve it inside the symfs root (when one is set) and
 * refuse anything that would leave it.  Returns an fd or -1 (errno set;
 * EXDEV for an escape attempt).
 */
int pd_sym_open(struct pd_sym_env *env, const char *path, bool under_root);

/*
 * The machine's environment, for loaders handed a machine by the public
 * API: it is the first member of struct pd_machine (machine.c checks), so
 * that reaching it is no call into the process model.
 */
static inline struct pd_sym_env *pd_machine_env(struct pd_machine *m)
{
	return (struct pd_sym_env *)(void *)m;
}

static inline const struct pd_sym_opts *pd_machine_opts(const struct pd_machine *m)
{
	return &((const struct pd_sym_env *)(const void *)m)->opts;
}

/* elfsyms.c */
void pd_elf_init(void);
/* Read the GNU build id of an open file; returns its size or -1. */
int pd_elf_fd_build_id(int fd, uint8_t *id, size_t max);
/* Load a user DSO's symbols following perf's search order. */
void pd_elf_load_dso(struct pd_sym_env *env, struct pd_dso *d);
/* Load ELF symbols from an in-memory image (the vdso). */
int pd_elf_load_mem(struct pd_dso *d, const void *image, size_t size);
/*
 * What binutils names as the source file of a symbol-file address that no
 * DWARF line covers: the file of the ELF symbol around it (the STT_FILE
 * symbol before it in d->syms_path's .symtab), NULL when there is none.
 * The DSO's index is built on first use; names stay valid until
 * pd_elf_srcfiles_free().
 */
const char *pd_elf_symbol_srcfile(struct pd_sym_env *env, struct pd_dso *d, uint64_t addr);
/*
 * The function addr2line -f names at such an address: that symbol's own
 * name (raw; of aliases the first in table order, from .dynsym when the
 * file has no .symtab) and *value its address, NULL when there is none.
 */
const char *pd_elf_symbol_function(struct pd_sym_env *env, struct pd_dso *d, uint64_t addr,
				   uint64_t *value);
void pd_elf_srcfiles_free(struct pd_dso *d);

/* elf_note.c */
/*
 * The first GNU build-id note of 1 to max bytes in a run of notes of the
 * given byte order; returns its size or -1.
 */
int pd_elf_notes_build_id(const uint8_t *p, size_t len, bool big_endian, uint8_t *id,
			  size_t max);
/*
 * len bytes of fd at off, retried on EINTR and short counts: the
 * symbolizer's one pread loop (the core's is internal to lib/).  False on
 * an error or when the file ends first.
 */
bool pd_sym_pread_all(int fd, void *buf, size_t len, uint64_t off);
/*
 * A table of size bytes, zeroed, on 2 MiB pages where the kernel gives
 * them (frame_cache.c); NULL when out of memory.
 */
void *pd_sym_table_alloc(size_t size);
/* The build-id link of a distribution's debug package: the first 2 hex digits, the rest. */
#define PD_DEBUG_BUILD_ID_LINK	"/usr/lib/debug/.build-id/%.2s/%s.debug"
void pd_sym_table_free(void *p, size_t size);
/*
 * Map the whole pages of [p, p + size), memory about to be written from
 * end to end, in one call rather than a fault a page: a fault costs as
 * much as mapping a dozen pages at once, and many times that in a virtual
 * machine whose page tables the hypervisor shadows.  A kernel before 5.14
 * (no MADV_POPULATE_WRITE) leaves them to fault as before.  Blocks under
 * 64 KiB are left alone: most of their pages are mapped already.
 */
static inline void pd_sym_prefault(void *p, size_t size)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p + size) & ~(page - 1);

	if (p && size >= ((size_t)64 << 10) && hi > lo)
		madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)size;
#endif
}

/* kallsyms.c */
/* The text symbols a kallsyms file lists for one module: their lowest and highest address. */
struct pd_kallsyms_mod {
	char name[64];		/* "[mod]", as in the file's "\t[mod]" suffix */
	uint64_t lo, hi;
};

/* What a kallsyms file says of the layout it describes, besides its symbols. */
struct pd_kallsyms_info {
	uint64_t text, stext;	/* the first _text and _stext listed */
	bool have_text, have_stext;
	bool mods_overflow;	/* a module name too long or too many modules to summarize */
	size_t tab_names;	/* names with a tab: a module's symbols, "NAME\t[MOD]" */
	uint32_t *tab_idx;	/* their indexes in the table loaded, ascending */
	size_t nr_mods;
	struct pd_kallsyms_mod *mods;
	/*
	 * A table read ahead: its symbols with a tab, taken out of it (in
	 * address order, after its fixups) so that it could be sealed; the
	 * table then holds none.
	 */
	struct pd_symtab tab_syms;
};

void pd_kallsyms_info_free(struct pd_kallsyms_info *info);
/*
 * Load a kallsyms-format file into t (raw, before fixups) and describe it
 * in *info (zeroed first; free it with pd_kallsyms_info_free()); returns
 * symbols or -1.
 */
long pd_kallsyms_load(int fd, struct pd_symtab *t, struct pd_kallsyms_info *info);
/*
 * pd_kallsyms_load(), then what load_kernel() does to any table read:
 * pd_symtab_fixup_end(t, true), pd_symtab_fixup_duplicate(), the symbols
 * with a tab moved to info->tab_syms (pd_symtab_move_flat()) and
 * pd_symtab_shrink().  A file in address order whose table ends sealed
 * is read into the sealed table at once; _ref always goes the way just
 * said (the reference the unit tests hold the other to).
 */
long pd_kallsyms_load_fixed(int fd, struct pd_symtab *t, struct pd_kallsyms_info *info);
long pd_kallsyms_load_fixed_ref(int fd, struct pd_symtab *t, struct pd_kallsyms_info *info);
/*
 * pd_kallsyms_load() on a thread of its own (NULL: none started): of the
 * file at copy when given, then of the file at path unless the copy's
 * _text is the one path lists first (path is the running kernel's
 * /proc/kallsyms, the copy that kernel's in the build-id cache: a copy
 * saved at another boot has another _text under KASLR and is not going to
 * be used).
 */
struct pd_kallsyms_prefetch *pd_kallsyms_prefetch_start(const char *copy, const char *path);
/*
 * The result for the file at path moved into the empty table t and *info,
 * once the thread is done, and its count of symbols; -1 where it read no
 * such file or failed: t is then as it was.  A table taken had
 * pd_symtab_fixup_end(t, true) and pd_symtab_fixup_duplicate() applied
 * already, then its symbols with a tab moved to info->tab_syms, then
 * pd_symtab_shrink().  It stays to be freed.
 */
long pd_kallsyms_prefetch_take(struct pd_kallsyms_prefetch *p, const char *path,
			       struct pd_symtab *t, struct pd_kallsyms_info *info);
void pd_kallsyms_prefetch_free(struct pd_kallsyms_prefetch *p);
/* perf map (/tmp/perf-PID.map) into d->syms; returns symbols or -1. */
long pd_perfmap_load(int fd, struct pd_symtab *t);

/* demangle.c: perf 6.1's C++ and Rust names (no parameters); NULL if neither */
char *pd_demangle(const char *name);
/* demangle_rust.c: a legacy or v0 Rust name as perf 6.1 prints it, or NULL */
char *pd_demangle_rust(const char *name);

/* dwarf_lines.c */
/*
 * Source position of a runtime-image file offset of d, from the DWARF of
 * d->syms_path; *err set when that file has no usable line information.
 * The strings stay valid until pd_dwarf_free().
 */
int pd_dwarf_srcline(struct pd_sym_env *env, struct pd_dso *d, uint64_t addr,
		     struct pd_sym_srcline *out, int *err);
/*
 * The functions perf shows as inline frames at a runtime-image file offset
 * of d, innermost first, demangled (names valid until pd_dwarf_free()):
 * from the same per-CU trees as pd_dwarf_srcline(), else the ELF symbol
 * addr2line names there (pd_elf_symbol_function()).  Returns how many.
 */
size_t pd_dwarf_inline_frames(struct pd_sym_env *env, struct pd_dso *d, uint64_t addr,
			      const char **names, size_t max);
void pd_dwarf_free(struct pd_dso *d);
/*
 * Start the decompressed copy of the debug file open at fd (which it
 * takes) on a thread, for the libdw handle that will open that file; the
 * copies not taken end with pd_dwarf_copies_ahead_free().
 */
void pd_dwarf_copy_ahead(struct pd_sym_env *env, int fd);
void pd_dwarf_copies_ahead_free(struct pd_sym_env *env);
/*
 * Address spans [lo, hi] of the rows that each sequence of the DWARF 5 line
 * program at `off` of .debug_line (base, size) emits before its first
 * DW_LNS_set_file: perf (binutils) names them after file entry 0.  *out is
 * malloc'ed (NULL when none); false only when out of memory; damaged or
 * older programs give what could be read.
 */
struct pd_line_span {
	uint64_t lo, hi;
};
bool pd_dwarf_prefix_spans(const uint8_t *base, size_t size, uint64_t off,
			   struct pd_line_span **out, size_t *nout);

/*
 * unwind.c: DWARF unwinding of user stacks (--call-graph dwarf).
 * The machine keeps one pd_unwinder and one pd_unwind_space per address
 * space; these are what the unwinder needs of the process model.
 */
struct pd_unwinder;
struct pd_unwind_space;

/*
 * State the unwinder keeps with the machine and with each address space,
 * with the functions the model calls on it (set by unwind.c with the
 * state): through them the model frees it and reports its counters
 * without depending on unwind.c.
 */
struct pd_uw_slot {
	void *state;			/* NULL until the unwinder needs it */
	void (*free)(void *state);
	void (*stats)(const void *state, struct pd_sym_stats *out);	/* the machine's only */
};

struct pd_uw_space {
	void *as;			/* the address space (opaque) */
	struct pd_uw_slot *slot;	/* the unwinder's state kept with it */
	int32_t pid;
	uint64_t stamp;			/* pd_machine_version() of its user maps */
};

struct pd_uw_map {
	uint64_t start, end, pgoff;
	struct pd_dso *dso;		/* loaded */
};

struct pd_uw_slot *pd_machine_unwinder(struct pd_machine *m);
const char *pd_machine_arch(const struct pd_machine *m);
int pd_machine_uw_space(struct pd_machine *m, int32_t pid, int32_t tid, struct pd_uw_space *out);
/* the file-backed map covering addr; loads its DSO */
bool pd_machine_uw_map(struct pd_machine *m, void *as, uint64_t addr, struct pd_uw_map *out);
/* some map of the address space, file-backed or not, covers addr */
bool pd_machine_uw_mapped(void *as, uint64_t addr);
/*
 * The lowest start of the maps of DSO d in the address space, maps left
 * from before an exec included (perf keeps them too).
 */
bool pd_machine_uw_dso_low(void *as, const struct pd_dso *d, uint64_t *low);
/*
 * The lowest start less file offset of the maps of DSO d, those left from
 * before an exec included: perf's libunwind glue takes it, minus the first
 * PT_LOAD's page, for the DSO's load bias.
 */
bool pd_machine_uw_dso_base(void *as, const struct pd_dso *d, uint64_t *base);
/*
 * some map of the address space has a readable ELF image, the 64-bit vdso
 * included (loads DSOs until one has)
 */
bool pd_machine_uw_any_image(struct pd_machine *m, void *as);

/*
 * Append the user frames unwound from the sample's registers and stack
 * copy (innermost first, cpumode user) to out[0..max); returns how many,
 * 0 when the sample has nothing to unwind or unwinding is off.
 */
size_t pd_unwind_sample(struct pd_machine *m, const struct pd_record *rec, struct pd_sym_ip *out,
			size_t max);
/* the same frames, as addresses valid until the next call (*nr 0: none) */
const uint64_t *pd_unwind_sample_ips(struct pd_machine *m, const struct pd_record *rec,
				     size_t *nr);

/* Resolve n stack entries of one thread, looked up once (stack.c). */
void pd_machine_resolve_ips(struct pd_machine *m, int32_t pid, int32_t tid,
			    const struct pd_sym_ip *st, size_t n, struct pd_sym_frame *frames);

/*
 * procs.c: the processes of the recording by pid (opts.processes); the
 * machine feeds it, it knows nothing of threads.
 */
struct pd_proc {
	struct pd_sym_process pub;	/* comms and counts are set when listed */
	const char **comms;		/* interned by the machine */
	uint32_t cap_comms;
	struct pd_sym_count *counts;	/* by event index */
	size_t nr_counts;
	struct pd_proc *hnext;
};

/* The mix of a 64-bit key for the symbolizer's hash tables. */
static inline uint64_t pd_hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* Bucket of `id` (a tid, a pid) in a chained table of nbuckets, a power of two. */
static inline size_t pd_id_bucket(int32_t id, size_t nbuckets)
{
	return pd_hash_u64((uint32_t)id) & (nbuckets - 1);
}

/*
 * The one rehash of the tables chained by id, threads by tid (machine.c)
 * and processes by pid: *bucketsp, an array of *nbuckets entry pointers,
 * becomes twice as long (256 when empty).  Each entry keeps its chain
 * link at next_off and its id, an int32_t, at id_off.  -1 on ENOMEM.
 */
int pd_id_table_grow(void *bucketsp, size_t *nbuckets, size_t next_off, size_t id_off);

struct pd_proc_table {
	struct pd_proc **h;		/* hash by pid */
	size_t nbuckets, nr;
	struct pd_proc *last;		/* the last one asked for */
};

/* The process of `pid`, created when new; NULL when out of memory. */
struct pd_proc *pd_procs_get(struct pd_proc_table *t, int32_t pid);
/* Its next name (interned: equal names are equal pointers); -1 on ENOMEM or s NULL. */
int pd_proc_add_comm(struct pd_proc *p, const char *s);
/* One sample of event `ev`; -1 on ENOMEM. */
int pd_proc_count(struct pd_proc *p, int ev, uint64_t period);
/* Every process by increasing pid, malloc'ed (NULL when none or out of memory: check nr). */
struct pd_proc **pd_procs_sorted(const struct pd_proc_table *t);
void pd_procs_free(struct pd_proc_table *t);

/*
 * Resolving in two halves, for the frame cache (frame_cache.c): the map
 * half fills every field of *f but the symbol ones (loading the DSO if it
 * was not) and returns the DSO, NULL when no map covers the address; the
 * symbol half fills the symbol fields of a frame with a DSO, from (DSO,
 * address) alone, and returns 1 when a symbol covers it.
 */
const struct pd_dso *pd_machine_resolve_map(struct pd_machine *m, int32_t pid, int32_t tid,
					    uint8_t cpumode, uint64_t ip, struct pd_sym_frame *f);
int pd_machine_resolve_sym(struct pd_machine *m, struct pd_sym_frame *f);

/* small helpers */
void pd_hex(const uint8_t *id, size_t n, char *out);
bool pd_build_id_equal(const uint8_t *a, size_t na, const uint8_t *b, size_t nb);

#endif /* PD_SYM_INTERNAL_H */
