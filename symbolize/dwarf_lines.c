// SPDX-License-Identifier: MIT
/*
 * dwarf_lines.c - source file, line and inline frames through libdw.
 *
 * Only used when asked for: reading DWARF is much slower than symbol
 * tables.  The DWARF comes from the file the DSO's .symtab came from (the
 * separate debug file when one was found); no other debug file is searched,
 * so no path beyond those already checked is opened.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym_internal.h"

struct seg {
	uint64_t off, vaddr, size;
};

struct pd_dwarf_lines {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	struct seg seg[16];
	int nseg;
};

static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	/* the file handed over is the debug file: search nothing else */
	return -1;
}

static const Dwfl_Callbacks callbacks = {
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

void pd_dwarf_free(struct pd_dso *d)
{
	struct pd_dwarf_lines *dl = d->dwarf;

	if (dl) {
		dwfl_end(dl->dwfl);
		free(dl);
		d->dwarf = NULL;
	}
}

static struct pd_dwarf_lines *dwarf_open(int fd, const char *name)
{
	struct pd_dwarf_lines *dl = calloc(1, sizeof(*dl));
	GElf_Addr bias;
	Elf *elf;
	size_t nph, i;

	if (!dl) {
		close(fd);
		return NULL;
	}
	dl->dwfl = dwfl_begin(&callbacks);
	if (!dl->dwfl) {
		close(fd);
		free(dl);
		return NULL;
	}
	/* dwfl owns fd from here */
	dl->mod = dwfl_report_offline(dl->dwfl, name, name, fd);
	dwfl_report_end(dl->dwfl, NULL, NULL);
	if (!dl->mod)
		goto fail;
	elf = dwfl_module_getelf(dl->mod, &bias);
	if (!elf || elf_getphdrnum(elf, &nph))
		goto fail;
	/* file offsets back to link-time addresses */
	for (i = 0; i < nph && dl->nseg < 16; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		dl->seg[dl->nseg].off = ph.p_offset;
		dl->seg[dl->nseg].vaddr = ph.p_vaddr + bias;
		dl->seg[dl->nseg].size = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		dl->nseg++;
	}
	return dl;
fail:
	dwfl_end(dl->dwfl);
	free(dl);
	return NULL;
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

static void add_inlines(struct pd_dwarf_lines *dl, Dwarf_Addr a, struct pd_sym_srcline *out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(dl->mod, a, &bias);
	Dwarf_Die *scopes = NULL;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	int n, i;

	if (!cu)
		return;
	n = dwarf_getscopes(cu, a - bias, &scopes);
	if (n <= 0)
		return;
	if (dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
		files = NULL;
	for (i = 0; i < n && out->nr <= PD_SYM_MAX_INLINE; i++) {
		Dwarf_Attribute at;
		Dwarf_Word fidx = 0, line = 0;
		struct pd_sym_srcpos *cur = &out->pos[out->nr - 1];

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		/* the current position belongs to the inlined function ... */
		cur->func = die_name(&scopes[i]);
		/* ... which was called from here */
		if (out->nr == PD_SYM_MAX_INLINE + 1)
			break;
		if (dwarf_attr(&scopes[i], DW_AT_call_file, &at))
			dwarf_formudata(&at, &fidx);
		if (dwarf_attr(&scopes[i], DW_AT_call_line, &at))
			dwarf_formudata(&at, &line);
		out->pos[out->nr].func = NULL;
		out->pos[out->nr].file = files ? dwarf_filesrc(files, fidx, NULL, NULL) : NULL;
		out->pos[out->nr].line = (unsigned int)line;
		out->nr++;
	}
	free(scopes);
}

int pd_dwarf_srcline_fd(struct pd_dso *d, int fd, uint64_t addr, struct pd_sym_srcline *out,
			int *err)
{
	struct pd_dwarf_lines *dl = d->dwarf;
	Dwarf_Addr a = addr;
	Dwfl_Line *line;
	const char *file;
	int lineno = 0, i;

	out->nr = 0;
	if (!dl && !d->dwarf_tried) {
		d->dwarf_tried = true;
		if (fd >= 0)
			d->dwarf = dl = dwarf_open(fd, d->syms_path ? d->syms_path : d->long_name);
		if (!dl)
			*err = 1;
	} else if (fd >= 0) {
		close(fd);
	}
	if (!dl)
		return 0;
	if (d->kind != PD_DSO_KERNEL) {
		for (i = 0; i < dl->nseg; i++) {
			if (addr >= dl->seg[i].off && addr < dl->seg[i].off + dl->seg[i].size) {
				a = addr - dl->seg[i].off + dl->seg[i].vaddr;
				break;
			}
		}
	}
	line = dwfl_module_getsrc(dl->mod, a);
	if (!line)
		return 0;
	file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (!file)
		return 0;
	out->pos[0].func = NULL;
	out->pos[0].file = file;
	out->pos[0].line = (unsigned int)lineno;
	out->nr = 1;
	add_inlines(dl, a, out);
	return 1;
}
