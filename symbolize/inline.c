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
 * it (dwarf_lines.c, addr2line_name()).
 *
 * Where no DWARF function holds the address (a file without debug
 * information, code no CU describes), addr2line names the ELF symbol bfd
 * chooses there (pd_elf_symbol_function(): of aliases the first in table
 * order, .dynsym's in a file without .symtab), and perf expands the frame
 * into that one entry: an alias other than perf's symbol is printed as
 * inlined in its place (__libc_free for free in a static-pie program
 * without debug information).
 *
 * The chain comes from dwarf_lines.c (pd_dwarf_inline_frames(), which
 * also asks the ELF symbol, and caches the answers per DSO and address),
 * from the per-CU trees of functions and inlined subroutines that also
 * give the source lines of --srcline, so that the DWARF of a DSO is read
 * once for both: the scopes of the address from the innermost
 * DW_TAG_inlined_subroutine to the DW_TAG_subprogram around them, each
 * named by its linkage name where it has one, else its name (what
 * addr2line prints).
 */
#include <string.h>

#include "sym_internal.h"

size_t pd_machine_inline_frames(struct pd_machine *m, const struct pd_sym_frame *f,
				struct pd_sym_inline *out, size_t max)
{
	struct pd_dso *d = (struct pd_dso *)(uintptr_t)f->dso;
	const char *names[PD_SYM_MAX_INLINE];
	size_t i, n;

	/* perf: a map, a symbol, and a file that is no [kernel], [vdso] or JIT map */
	if (!f->unwound || !d || !f->has_map || !f->sym || !max || d->kind != PD_DSO_USER ||
	    !d->syms_path || !d->runtime_path || pd_machine_opts(m)->no_inline)
		return 0;
	n = pd_dwarf_inline_frames(pd_machine_env(m), d, f->addr, names,
				   max < PD_SYM_MAX_INLINE ? max : PD_SYM_MAX_INLINE);
	for (i = 0; i < n; i++) {
		out[i].name = names[i];
		out[i].inlined = strcmp(out[i].name, f->sym) != 0;
	}
	return n;
}
