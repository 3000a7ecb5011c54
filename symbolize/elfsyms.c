// SPDX-License-Identifier: MIT
/*
 * elfsyms.c - ELF symbol tables of user-space DSOs, read with libelf.
 *
 * Follows perf 6.1 (docs/symbolization.md §6): the candidate files
 * are tried in perf's order, the first with a .symtab gives the symbols
 * and the first with a .dynsym the "runtime" image (program headers, PLT);
 * symbol values are moved into the file-offset space through the PT_LOAD
 * that contains them, because map_ip() of a user map yields file offsets
 * for PIE, non-PIE and shared objects alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym_internal.h"

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif

void pd_elf_init(void)
{
	static bool done;

	if (!done) {
		elf_version(EV_CURRENT);
		done = true;
	}
}

void pd_hex(const uint8_t *id, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * n] = '\0';
}

bool pd_build_id_equal(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
	size_t i;

	/* a 20-byte recorded id also matches a shorter one padded with zeros */
	if (na > nb && na == 20) {
		if (memcmp(a, b, nb))
			return false;
		for (i = nb; i < na; i++)
			if (a[i])
				return false;
		return true;
	}
	return na == nb && !memcmp(a, b, na);
}

/* First section called `name` (perf looks sections up by name, first match). */
static Elf_Scn *section_by_name(Elf *elf, const char *name, GElf_Shdr *shdr, size_t *idx)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name)) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

static int elf_build_id(Elf *elf, uint8_t *id, size_t max)
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	GElf_Shdr shdr;
	size_t i;

	for (i = 0; i < 3; i++) {
		Elf_Scn *scn = section_by_name(elf, names[i], &shdr, NULL);
		Elf_Data *data;

		if (!scn)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf || shdr.sh_type == SHT_NOBITS)
			return -1;
		/* libelf gives note sections in host byte order */
		return pd_elf_notes_build_id(data->d_buf, data->d_size,
					     __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, id, max);
	}
	return -1;
}

int pd_elf_fd_build_id(int fd, uint8_t *id, size_t max)
{
	Elf *elf;
	int ret = -1;

	pd_elf_init();
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		return -1;
	if (elf_kind(elf) == ELF_K_ELF)
		ret = elf_build_id(elf, id, max);
	elf_end(elf);
	return ret;
}

/* An ELF image under consideration, with what perf's symsrc remembers. */
struct symsrc {
	int fd;
	Elf *elf;
	char *path;
	GElf_Ehdr ehdr;
	Elf_Scn *symtab, *dynsym;
	GElf_Shdr symshdr, dynshdr;
	size_t dynsym_idx;
	bool under_root;
};

static void symsrc_close(struct symsrc *s)
{
	if (s->elf)
		elf_end(s->elf);
	if (s->fd >= 0)
		close(s->fd);
	free(s->path);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

static void symsrc_sections(struct symsrc *s)
{
	s->symtab = section_by_name(s->elf, ".symtab", &s->symshdr, NULL);
	if (s->symtab && s->symshdr.sh_type != SHT_SYMTAB)
		s->symtab = NULL;
	s->dynsym = section_by_name(s->elf, ".dynsym", &s->dynshdr, &s->dynsym_idx);
	if (s->dynsym && s->dynshdr.sh_type != SHT_DYNSYM)
		s->dynsym = NULL;
}

/*
 * The runtime image's PT_LOAD segments that adjust() looks at, in their
 * order, read once per symbol table rather than once per symbol (a
 * program header read from libelf costs as much as the rest of a
 * symbol's load).  Up to the first header libelf cannot give.
 */
#define ADJ_SEGS 64

struct adj_segs {
	size_t n;
	bool all;		/* every segment is here; else adjust() reads them */
	struct {
		uint64_t vaddr, offset, size;
	} seg[ADJ_SEGS];
};

static void adj_segs_read(Elf *runtime, struct adj_segs *a)
{
	size_t i, nph;

	a->n = 0;
	a->all = true;
	if (elf_getphdrnum(runtime, &nph) != 0)
		return;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;
		uint64_t sz;

		if (!gelf_getphdr(runtime, (int)i, &ph))
			return;
		if (ph.p_type != PT_LOAD)
			continue;
		sz = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		if (!sz)
			continue;
		if (a->n == ADJ_SEGS) {
			a->all = false;
			return;
		}
		a->seg[a->n].vaddr = ph.p_vaddr;
		a->seg[a->n].offset = ph.p_offset;
		a->seg[a->n].size = sz;
		a->n++;
	}
}

/* Move a symbol value into the file-offset space (perf's adjust_symbols). */
static uint64_t adjust(Elf *runtime, const struct adj_segs *a, uint64_t value,
		       const GElf_Shdr *sec)
{
	size_t i, nph;

	if (a->all) {
		for (i = 0; i < a->n; i++)
			if (value >= a->seg[i].vaddr && value < a->seg[i].vaddr + a->seg[i].size)
				return value - (a->seg[i].vaddr - a->seg[i].offset);
		return value - (sec->sh_addr - sec->sh_offset);
	}
	if (elf_getphdrnum(runtime, &nph) == 0) {
		for (i = 0; i < nph; i++) {
			GElf_Phdr ph;
			uint64_t sz;

			if (!gelf_getphdr(runtime, (int)i, &ph))
				break;
			if (ph.p_type != PT_LOAD)
				continue;
			sz = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
			if (!sz)
				continue;
			if (value >= ph.p_vaddr && value < ph.p_vaddr + sz)
				return value - (ph.p_vaddr - ph.p_offset);
		}
	}
	return value - (sec->sh_addr - sec->sh_offset);
}

/* Insert the kept symbols of one table; returns the number inserted or -1. */
static long load_table(struct pd_dso *d, struct symsrc *syms, struct symsrc *rt, bool dynamic)
{
	Elf_Scn *scn = dynamic ? syms->dynsym : syms->symtab;
	const GElf_Shdr *sh = dynamic ? &syms->dynshdr : &syms->symshdr;
	size_t sym_shstr, rt_shstr, i, nr;
	Elf_Data *data = elf_getdata(scn, NULL);
	long inserted = 0;
	bool arm = syms->ehdr.e_machine == EM_ARM || syms->ehdr.e_machine == EM_AARCH64;
	struct adj_segs segs;

	if (!data || sh->sh_entsize == 0)
		return 0;
	if (elf_getshdrstrndx(syms->elf, &sym_shstr) || elf_getshdrstrndx(rt->elf, &rt_shstr))
		return 0;
	adj_segs_read(rt->elf, &segs);
	nr = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < nr; i++) {
		GElf_Sym s;
		GElf_Shdr shdr;
		Elf_Scn *sec;
		Elf *sec_elf = syms->elf;
		size_t sec_shstr = sym_shstr;
		const char *name, *secname;
		char *dem;
		bool ok;
		int type, vis;
		bool is_label, is_func, is_obj;
		uint64_t value;

		if (!gelf_getsym(data, (int)i, &s))
			break;
		type = GELF_ST_TYPE(s.st_info);
		vis = GELF_ST_VISIBILITY(s.st_other);
		is_func = (type == STT_FUNC || type == STT_GNU_IFUNC) && s.st_name && s.st_shndx != SHN_UNDEF;
		is_obj = type == STT_OBJECT && s.st_name && s.st_shndx != SHN_UNDEF;
		is_label = type == STT_NOTYPE && s.st_name && s.st_shndx != SHN_UNDEF &&
			   s.st_shndx != SHN_ABS && vis != STV_HIDDEN && vis != STV_INTERNAL;
		if (!is_label && !is_func && !is_obj)
			continue;
		name = elf_strptr(syms->elf, sh->sh_link, s.st_name);
		if (!name)
			continue;
		/* ARM mapping symbols name no function */
		if (arm && name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
		    (name[2] == '\0' || name[2] == '.'))
			continue;
		if (s.st_shndx == SHN_ABS)
			continue;
		sec = elf_getscn(syms->elf, s.st_shndx);
		if (!sec || !gelf_getshdr(sec, &shdr))
			return -1;	/* perf gives up on the table here */
		if (!(shdr.sh_flags & SHF_ALLOC))
			continue;
		/* a debug file's sections are NOBITS: use the runtime image's */
		if (shdr.sh_type == SHT_NOBITS) {
			sec = elf_getscn(rt->elf, s.st_shndx);
			if (!sec || !gelf_getshdr(sec, &shdr))
				return -1;
			sec_elf = rt->elf;
			sec_shstr = rt_shstr;
		}
		if (is_label) {
			secname = elf_strptr(sec_elf, sec_shstr, shdr.sh_name);
			if (!secname || (!strstr(secname, "text") && !strstr(secname, "data")))
				continue;
		}
		value = s.st_value;
		if (arm && syms->ehdr.e_machine == EM_ARM && type == STT_FUNC)
			value &= ~(uint64_t)1;
		value = adjust(rt->elf, &segs, value, &shdr);
		dem = pd_demangle(name);
		if (dem)
			name = dem;
		ok = pd_symtab_insert(&d->syms, value, value + s.st_size, GELF_ST_BIND(s.st_info),
				      (uint8_t)type, name, strlen(name)) != 0;
		free(dem);
		if (!ok)
			return -1;
		inserted++;
	}
	if (inserted > 0) {
		pd_symtab_fixup_end(&d->syms, false);
		pd_symtab_fixup_duplicate(&d->syms);
	}
	return inserted;
}

/* name@plt entries of .plt, perf 6.1 style (section 6.6) */
static long synth_plt(struct pd_dso *d, struct symsrc *rt)
{
	GElf_Shdr rel_sh, plt_sh, str_sh;
	Elf_Scn *rel, *strs;
	Elf_Data *reldata, *syms, *symstrs;
	uint64_t header, entry, off;
	size_t i, nr;
	long n = 0;

	if (!rt->dynsym)
		return 0;
	rel = section_by_name(rt->elf, ".rela.plt", &rel_sh, NULL);
	if (!rel)
		rel = section_by_name(rt->elf, ".rel.plt", &rel_sh, NULL);
	if (!rel || rel_sh.sh_link != rt->dynsym_idx || rel_sh.sh_entsize == 0)
		return 0;
	if (!section_by_name(rt->elf, ".plt", &plt_sh, NULL))
		return 0;
	reldata = elf_getdata(rel, NULL);
	syms = elf_getdata(rt->dynsym, NULL);
	strs = elf_getscn(rt->elf, rt->dynshdr.sh_link);
	if (!reldata || !syms || !strs || !gelf_getshdr(strs, &str_sh))
		return 0;
	symstrs = elf_getdata(strs, NULL);
	if (!symstrs || symstrs->d_size == 0)
		return 0;
	switch (rt->ehdr.e_machine) {
	case EM_ARM:
		header = 20, entry = 12;
		break;
	case EM_AARCH64:
		header = 32, entry = 16;
		break;
	case EM_SPARC:
		header = 48, entry = 12;
		break;
	case EM_SPARCV9:
		header = 128, entry = 32;
		break;
	default:
		header = entry = plt_sh.sh_entsize;
		break;
	}
	off = plt_sh.sh_offset + header;
	nr = rel_sh.sh_size / rel_sh.sh_entsize;
	for (i = 0; i < nr; i++, off += entry) {
		size_t symidx;
		GElf_Sym s;
		const char *name = "";
		char *dem;
		char buf[512];
		int len;

		if (rel_sh.sh_type == SHT_RELA) {
			GElf_Rela r;

			if (!gelf_getrela(reldata, (int)i, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		} else {
			GElf_Rel r;

			if (!gelf_getrel(reldata, (int)i, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		}
		if (gelf_getsym(syms, (int)symidx, &s)) {
			const char *nm = elf_strptr(rt->elf, rt->dynshdr.sh_link, s.st_name);

			if (nm)
				name = nm;
		}
		dem = pd_demangle(name);
		len = snprintf(buf, sizeof(buf), "%s@plt", dem ? dem : name);
		free(dem);
		if (len < 0)
			continue;
		if ((size_t)len >= sizeof(buf))
			len = sizeof(buf) - 1;
		if (!pd_symtab_insert(&d->syms, off, off + entry, PD_STB_GLOBAL, PD_STT_FUNC, buf,
				      (size_t)len))
			return -1;
		n++;
	}
	return n;
}

/*
 * What source-line lookups need to turn a file offset of the runtime image
 * into an address of the symbol file's DWARF: the runtime image's PT_LOADs
 * (a separate debug file's program headers have no file contents, so their
 * offsets are meaningless) and the shift between the two files' .text.
 */
static void record_layout(struct pd_dso *d, struct symsrc *syms, struct symsrc *rt)
{
	GElf_Shdr rt_text, sym_text;
	size_t i, nph;

	d->nsegs = 0;
	d->debug_bias = 0;
	d->text_offset = 0;
	if (elf_getphdrnum(rt->elf, &nph) == 0) {
		for (i = 0; i < nph && d->nsegs < PD_MAX_LOAD_SEGS; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(rt->elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    !ph.p_filesz)
				continue;
			d->segs[d->nsegs].off = ph.p_offset;
			d->segs[d->nsegs].vaddr = ph.p_vaddr;
			d->segs[d->nsegs].size = ph.p_filesz;
			d->nsegs++;
		}
	}
	if (!section_by_name(rt->elf, ".text", &rt_text, NULL))
		return;
	d->text_offset = rt_text.sh_addr - rt_text.sh_offset;
	if (syms->elf != rt->elf && section_by_name(syms->elf, ".text", &sym_text, NULL))
		d->debug_bias = (int64_t)(rt_text.sh_addr - sym_text.sh_addr);
}

static void load_from(struct pd_dso *d, struct symsrc *syms, struct symsrc *rt)
{
	long nr = 0, r;

	record_layout(d, syms, rt);

	if (syms->symtab) {
		r = load_table(d, syms, rt, false);
		if (r < 0)
			return;
		nr += r;
	}
	if (syms->dynsym) {
		r = load_table(d, syms, rt, true);
		if (r < 0)
			return;
		nr += r;
	}
	if (nr > 0)
		synth_plt(d, rt);
}

int pd_elf_load_mem(struct pd_dso *d, const void *image, size_t size)
{
	struct symsrc s = { .fd = -1 };
	char *copy = malloc(size);

	if (!copy)
		return -1;
	memcpy(copy, image, size);
	pd_elf_init();
	s.elf = elf_memory(copy, size);
	if (!s.elf || elf_kind(s.elf) != ELF_K_ELF || !gelf_getehdr(s.elf, &s.ehdr)) {
		if (s.elf)
			elf_end(s.elf);
		free(copy);
		return -1;
	}
	symsrc_sections(&s);
	load_from(d, &s, &s);
	elf_end(s.elf);
	free(copy);
	return 0;
}

/* ------------------------------------------------------------ candidates */

struct cand {
	char path[PATH_MAX];
	bool under_root;
};

static bool has_dotdot(const char *p)
{
	const char *s = p;

	while ((s = strstr(s, "..")) != NULL) {
		if ((s == p || s[-1] == '/') && (s[2] == '/' || s[2] == '\0'))
			return true;
		s += 2;
	}
	return false;
}

/* .gnu_debuglink of a file: the linked name, or false */
static bool read_debuglink(struct pd_sym_env *env, const char *path, char *out, size_t outsz)
{
	int fd = pd_sym_open(env, path, true);
	Elf *elf;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *data;
	bool ok = false;

	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		scn = section_by_name(elf, ".gnu_debuglink", &sh, NULL);
		data = scn && sh.sh_type != SHT_NOBITS ? elf_getdata(scn, NULL) : NULL;
		if (data && data->d_buf && data->d_size > 0) {
			const char *s = data->d_buf;
			size_t n = strnlen(s, data->d_size);

			/* a bare file name: anything else could point elsewhere */
			if (n > 0 && n < data->d_size && n < outsz && !memchr(s, '/', n) &&
			    strcmp(s, ".") && strcmp(s, "..")) {
				memcpy(out, s, n);
				out[n] = '\0';
				ok = true;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return ok;
}

static size_t add_cand(struct cand *c, size_t n, bool root, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t add_cand(struct cand *c, size_t n, bool root, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(c[n].path, sizeof(c[n].path), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(c[n].path))
		return n;
	c[n].under_root = root;
	return n + 1;
}

/* Candidate files for a user DSO, in perf's binary_type_symtab order. */
static size_t candidates(struct pd_sym_env *env, struct pd_dso *d, struct cand *c)
{
	bool broot = env->buildid_under_root;
	const char *ln = d->long_name, *B = env->buildid_dir;
	char dir[PATH_MAX], base[PATH_MAX], link[256], hex[41];
	const char *slash = strrchr(ln, '/');
	size_t n = 0;

	if (!slash || slash - ln >= (long)sizeof(dir))
		return 0;
	memcpy(dir, ln, (size_t)(slash - ln));
	dir[slash - ln] = '\0';
	snprintf(base, sizeof(base), "%s", slash + 1);

	/* 1. .gnu_debuglink next to the file */
	if (read_debuglink(env, ln, link, sizeof(link))) {
		n = add_cand(c, n, true, "%s/%s", dir, link);
		n = add_cand(c, n, true, "%s/.debug/%s", dir, link);
		n = add_cand(c, n, true, "/usr/lib/debug%s/%s", dir, link);
	}
	if (d->has_build_id) {
		pd_hex(d->build_id, d->build_id_size, hex);
		/* 2./3. perf's build-id cache: old flat file, elf, debug */
		if (B) {
			n = add_cand(c, n, broot, "%s/.build-id/%.2s/%s", B, hex, hex + 2);
			n = add_cand(c, n, broot, "%s/.build-id/%.2s/%s/elf", B, hex, hex + 2);
			n = add_cand(c, n, broot, "%s/.build-id/%.2s/%s/debug", B, hex, hex + 2);
		}
	}
	/* 4./5. distribution debug packages */
	n = add_cand(c, n, true, "/usr/lib/debug%s.debug", ln);
	n = add_cand(c, n, true, "/usr/lib/debug%s", ln);
	/* 6. build-id link of the debug package */
	if (d->has_build_id)
		n = add_cand(c, n, true, PD_DEBUG_BUILD_ID_LINK, hex, hex + 2);
	/* 7. the file itself */
	n = add_cand(c, n, true, "%s", ln);
	/* 8. OpenEmbedded layout */
	n = add_cand(c, n, true, "%s/.debug/%s", dir, base);
	/* 9. an old Ubuntu layout */
	if (!strncmp(ln, "/usr/lib/", 9))
		n = add_cand(c, n, true, "/usr/lib/debug%s", ln + 4);
	return n;
}

/* Open a candidate as ELF and check its build id; false when unusable. */
static bool symsrc_open(struct pd_sym_env *env, struct pd_dso *d, const struct cand *c,
			struct symsrc *s)
{
	char q[PATH_MAX + 3];

	memset(s, 0, sizeof(*s));
	s->fd = pd_sym_open(env, c->path, c->under_root);
	if (s->fd < 0) {
		if (errno == EXDEV)
			pd_sym_diag(env, d, PD_SYM_OUTSIDE_SYMFS, true, "file=%s",
				    pd_sym_quote(q, sizeof(q), c->path));
		return false;
	}
	s->elf = elf_begin(s->fd, ELF_C_READ_MMAP, NULL);
	if (!s->elf || elf_kind(s->elf) != ELF_K_ELF || !gelf_getehdr(s->elf, &s->ehdr))
		goto fail;
	if (d->has_build_id) {
		uint8_t id[20];
		int sz = elf_build_id(s->elf, id, sizeof(id));

		if (sz <= 0 || !pd_build_id_equal(d->build_id, d->build_id_size, id, (size_t)sz)) {
			char want[41], got[41];

			pd_hex(d->build_id, d->build_id_size, want);
			if (sz > 0)
				pd_hex(id, (size_t)sz, got);
			else
				strcpy(got, "none");
			pd_sym_diag(env, d, PD_SYM_BUILDID_MISMATCH, true,
				    "file=%s recorded=%s found=%s",
				    pd_sym_quote(q, sizeof(q), c->path), want, got);
			goto fail;
		}
	}
	symsrc_sections(s);
	s->under_root = c->under_root;
	s->path = strdup(c->path);
	if (!s->path)
		goto fail;
	return true;
fail:
	symsrc_close(s);
	return false;
}

void pd_elf_load_dso(struct pd_sym_env *env, struct pd_dso *d)
{
	struct cand *c;
	struct symsrc syms = { .fd = -1 }, rt = { .fd = -1 }, s;
	bool have_syms = false, have_rt = false;
	char q[PATH_MAX + 3];
	size_t n, i;

	pd_elf_init();
	if (d->long_name[0] != '/' || has_dotdot(d->long_name)) {
		pd_sym_diag(env, d, PD_SYM_BAD_PATH, true, "file=%s",
			    pd_sym_quote(q, sizeof(q), d->long_name));
		return;
	}
	if (!d->has_build_id) {
		int fd = pd_sym_open(env, d->long_name, true);

		if (fd >= 0) {
			uint8_t id[20];
			int sz = pd_elf_fd_build_id(fd, id, sizeof(id));

			if (sz > 0) {
				memcpy(d->build_id, id, (size_t)sz);
				d->build_id_size = (uint8_t)sz;
				d->has_build_id = true;
			}
			close(fd);
		}
	}
	c = calloc(16, sizeof(*c));
	if (!c)
		return;
	n = candidates(env, d, c);
	for (i = 0; i < n; i++) {
		bool keep = false;

		if (!symsrc_open(env, d, &c[i], &s))
			continue;
		if (!have_syms && s.symtab) {
			syms = s;
			have_syms = keep = true;
		}
		if (!have_rt && s.dynsym) {
			if (keep) {
				rt = syms;	/* same image serves both */
			} else {
				rt = s;
				keep = true;
			}
			have_rt = true;
		}
		if (!keep)
			symsrc_close(&s);
		if (have_syms && have_rt)
			break;
	}
	free(c);
	if (!have_syms && !have_rt) {
		/* a file refused (build id, symfs root) was the reason given */
		if (!pd_sym_diag_given(d, PD_SYM_BUILDID_MISMATCH) &&
		    !pd_sym_diag_given(d, PD_SYM_OUTSIDE_SYMFS))
			pd_sym_diag(env, d, PD_SYM_NO_FILE, true, "file=%s",
				    pd_sym_quote(q, sizeof(q), d->long_name));
		return;
	}
	if (!have_syms)
		syms = rt;
	if (!have_rt)
		rt = syms;
	load_from(d, &syms, &rt);
	free(d->syms_path);
	free(d->runtime_path);
	d->syms_path = strdup(syms.path);
	d->syms_under_root = syms.under_root;
	d->runtime_path = strdup(rt.path);
	if (syms.elf == rt.elf) {
		symsrc_close(&syms);
	} else {
		symsrc_close(&syms);
		symsrc_close(&rt);
	}
}

/* ------------------------------------------------------------ source files of symbols */

/*
 * Where no DWARF line covers an address, perf 6.1 still prints a source
 * file: addr2line's libbfd falls back on the symbol table (elf_find_function
 * in bfd/elf.c) and perf reads its "FILE:?" as line 0.  Of the symbols of
 * the address's section that may be functions, bfd takes the one with the
 * highest value at or below the address (the larger size on a tie, then
 * the first), and names the file after the last STT_FILE symbol before it
 * in table order - for a global symbol only while no STT_FILE has come
 * after a symbol of another kind, since a linked file's globals follow the
 * local symbols of all its objects.  The address's section is the first
 * allocated section of the file that holds it.
 *
 * The same symbol is the function addr2line -f names there (perf 6.1 makes
 * it an inline frame when its name is not perf's symbol's): of aliases,
 * the first in table order.  binutils' addr2line reads .symtab, and
 * .dynsym when the file has no .symtab symbols (a stripped library): its
 * symbols name functions but never files.
 *
 * The index keeps the symbols that can be chosen, sorted by section and
 * value with one per (section, value), each with the file bfd would name
 * and its own name: a lookup is a bisection.
 */

#ifndef STT_RELC
#define STT_RELC	8
#define STT_SRELC	9
#endif

#define SRCFILE_MAX_SYMS	(1u << 22)	/* larger tables get no index */
#define SRCFILE_MAX_NAME	4096		/* longer file names are not used */
#define SRCFILE_MAX_FUNC	65536		/* nor longer function names */
#define SRCFILE_NONE		UINT32_MAX

struct srcfile_sec {
	uint64_t lo, hi;	/* [lo, hi) */
	uint32_t shndx;
};

struct srcfile_sym {
	uint64_t value;
	uint32_t shndx;
	uint32_t file;		/* offset in names, SRCFILE_NONE */
	uint32_t func;		/* the symbol's name: offset in names, SRCFILE_NONE */
};

struct srcfile_cand {
	struct srcfile_sym s;
	uint64_t size;
	uint32_t order;
	uint32_t name;		/* in the string table */
};

struct pd_elf_srcfiles {
	struct srcfile_sec *secs;	/* allocated sections, in header order */
	size_t nsecs;
	struct srcfile_sym *syms;
	size_t nsyms;
	char *names;
	size_t names_len;
};

void pd_elf_srcfiles_free(struct pd_dso *d)
{
	struct pd_elf_srcfiles *sf = d->srcfiles;

	if (!sf)
		return;
	free(sf->secs);
	free(sf->syms);
	free(sf->names);
	free(sf);
	d->srcfiles = NULL;
}

static int cmp_srcfile_cand(const void *a, const void *b)
{
	const struct srcfile_cand *x = a, *y = b;

	if (x->s.shndx != y->s.shndx)
		return x->s.shndx < y->s.shndx ? -1 : 1;
	if (x->s.value != y->s.value)
		return x->s.value < y->s.value ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;	/* the larger one wins */
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Types bfd never takes for a function (maybe_function_sym). */
static bool srcfile_not_function(int type)
{
	return type == STT_SECTION || type == STT_FILE || type == STT_OBJECT ||
	       type == STT_COMMON || type == STT_TLS || type == STT_RELC || type == STT_SRELC;
}

/* A string of the string table, NULL when it does not end inside it. */
static const char *srcfile_str(const Elf_Data *str, uint64_t off, size_t *len)
{
	const char *p;

	if (!str || !str->d_buf || off >= str->d_size)
		return NULL;
	p = (const char *)str->d_buf + off;
	*len = strnlen(p, str->d_size - off);
	return *len < str->d_size - off ? p : NULL;
}

/* The allocated sections: the first that holds an address is bfd's. */
static bool srcfile_sections(Elf *elf, struct pd_elf_srcfiles *sf, uint64_t **lo_by_idx,
			     size_t *nidx)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shnum, n = 0;

	if (elf_getshdrnum(elf, &shnum) != 0 || shnum == 0)
		return false;
	sf->secs = calloc(shnum, sizeof(*sf->secs));
	*lo_by_idx = calloc(shnum, sizeof(**lo_by_idx));
	if (!sf->secs || !*lo_by_idx)
		return false;
	*nidx = shnum;
	while ((scn = elf_nextscn(elf, scn)) != NULL && n < shnum) {
		size_t idx = elf_ndxscn(scn);

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size ||
		    sh.sh_addr > UINT64_MAX - sh.sh_size || idx >= shnum)
			continue;
		sf->secs[n].lo = sh.sh_addr;
		sf->secs[n].hi = sh.sh_addr + sh.sh_size;
		sf->secs[n].shndx = (uint32_t)idx;
		n++;
		/* +1: 0 marks a section no address falls in */
		(*lo_by_idx)[idx] = sh.sh_addr + 1;
	}
	sf->nsecs = n;
	return n > 0;
}

/* Copy a file name into the index; SRCFILE_NONE when it cannot be kept. */
static uint32_t srcfile_keep_name(struct pd_elf_srcfiles *sf, size_t *cap, size_t max,
				  const char *name, size_t len, size_t max_len)
{
	uint32_t off;

	if (len > max_len || sf->names_len + len + 1 > max ||
	    sf->names_len + len + 1 > UINT32_MAX - 1)
		return SRCFILE_NONE;
	if (sf->names_len + len + 1 > *cap) {
		size_t ncap = *cap ? *cap : 256;
		char *p;

		while (ncap < sf->names_len + len + 1)
			ncap *= 2;
		p = realloc(sf->names, ncap);
		if (!p)
			return SRCFILE_NONE;
		sf->names = p;
		*cap = ncap;
	}
	off = (uint32_t)sf->names_len;
	memcpy(sf->names + off, name, len);
	sf->names[off + len] = '\0';
	sf->names_len += len + 1;
	return off;
}

static struct pd_elf_srcfiles *srcfiles_build(Elf *elf)
{
	enum { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL_SEEN } state = NOTHING_SEEN;
	struct pd_elf_srcfiles *sf = calloc(1, sizeof(*sf));
	struct srcfile_cand *cand = NULL;
	uint64_t *lo_by_idx = NULL;
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL, *strscn;
	Elf_Data *data, *str;
	GElf_Shdr sh, dynsh, strsh;
	size_t nidx = 0, nr, i, ncand = 0, names_cap = 0, names_max, k, entsize;
	const char *file = NULL;
	size_t file_len = 0;
	uint32_t file_off = SRCFILE_NONE;	/* file's copy, once one symbol needed it */
	bool ok = false;

	if (!sf)
		return NULL;
	/*
	 * bfd reads the first SHT_SYMTAB, and addr2line the first SHT_DYNSYM
	 * when that gives no symbol (the null one does not count).
	 */
	entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!entsize)
		goto out;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr h;

		if (!gelf_getshdr(scn, &h))
			continue;
		if (h.sh_type == SHT_SYMTAB && !symtab) {
			symtab = scn;
			sh = h;
		} else if (h.sh_type == SHT_DYNSYM && !dynsym) {
			dynsym = scn;
			dynsh = h;
		}
	}
	if ((!symtab || sh.sh_size / entsize < 2) && dynsym) {
		symtab = dynsym;
		sh = dynsh;
	}
	if (!symtab || !sh.sh_entsize || !srcfile_sections(elf, sf, &lo_by_idx, &nidx))
		goto out;
	strscn = elf_getscn(elf, sh.sh_link);
	data = elf_getdata(symtab, NULL);
	if (!strscn || !gelf_getshdr(strscn, &strsh) || strsh.sh_type != SHT_STRTAB || !data)
		goto out;
	str = elf_getdata(strscn, NULL);
	if (!str || !str->d_buf)
		goto out;
	nr = data->d_size / entsize;
	if (nr > SRCFILE_MAX_SYMS)
		goto out;
	/*
	 * names are copies of table strings (files, then functions, some of
	 * them twice where the linker merged common tails): a sane file needs
	 * less than this
	 */
	names_max = 3 * str->d_size + 4096;
	cand = malloc((nr ? nr : 1) * sizeof(*cand));
	if (!cand)
		goto out;
	for (i = 1; i < nr; i++) {	/* bfd skips the null symbol */
		GElf_Sym s;
		int type, bind;
		uint64_t lo;

		if (!gelf_getsym(data, (int)i, &s))
			break;
		type = GELF_ST_TYPE(s.st_info);
		bind = GELF_ST_BIND(s.st_info);
		if (type == STT_FILE) {
			file = srcfile_str(str, s.st_name, &file_len);
			file_off = SRCFILE_NONE;
			if (state == SYMBOL_SEEN)
				state = FILE_AFTER_SYMBOL_SEEN;
			continue;
		}
		if (srcfile_not_function(type) || s.st_shndx == SHN_UNDEF ||
		    s.st_shndx >= SHN_LORESERVE || s.st_shndx >= nidx || !lo_by_idx[s.st_shndx])
			goto next;
		/* annobin's markers: local hidden untyped symbols of size 0 */
		if (!s.st_size && bind == STB_LOCAL && type == STT_NOTYPE &&
		    GELF_ST_VISIBILITY(s.st_other) == STV_HIDDEN)
			goto next;
		/* bfd counts from the section start: one below it is never chosen */
		lo = lo_by_idx[s.st_shndx] - 1;
		if (s.st_value < lo)
			goto next;
		cand[ncand].s.value = s.st_value;
		cand[ncand].s.shndx = s.st_shndx;
		cand[ncand].s.file = SRCFILE_NONE;
		cand[ncand].s.func = SRCFILE_NONE;
		cand[ncand].name = s.st_name;
		cand[ncand].size = s.st_size ? s.st_size : 1;
		cand[ncand].order = (uint32_t)i;
		if (file && (bind == STB_LOCAL || state != FILE_AFTER_SYMBOL_SEEN)) {
			if (file_off == SRCFILE_NONE)
				file_off = srcfile_keep_name(sf, &names_cap, names_max, file, file_len,
							     SRCFILE_MAX_NAME);
			cand[ncand].s.file = file_off;
		}
		ncand++;
next:
		if (state == NOTHING_SEEN)
			state = SYMBOL_SEEN;
	}
	if (!ncand)
		goto out;
	qsort(cand, ncand, sizeof(*cand), cmp_srcfile_cand);
	sf->syms = malloc(ncand * sizeof(*sf->syms));
	if (!sf->syms)
		goto out;
	for (i = 0, k = 0; i < ncand; i++) {
		const char *name;
		size_t len;

		if (k && sf->syms[k - 1].shndx == cand[i].s.shndx &&
		    sf->syms[k - 1].value == cand[i].s.value)
			continue;
		sf->syms[k] = cand[i].s;
		name = srcfile_str(str, cand[i].name, &len);
		if (name)
			sf->syms[k].func = srcfile_keep_name(sf, &names_cap, names_max, name, len,
							     SRCFILE_MAX_FUNC);
		k++;
	}
	sf->nsyms = k;
	ok = true;
out:
	free(cand);
	free(lo_by_idx);
	if (!ok) {
		free(sf->secs);
		free(sf->syms);
		free(sf->names);
		free(sf);
		return NULL;
	}
	return sf;
}

/* The symbol bfd chooses for a symbol-file address, NULL when none. */
static const struct srcfile_sym *srcfile_lookup(struct pd_sym_env *env, struct pd_dso *d,
						uint64_t addr)
{
	struct pd_elf_srcfiles *sf = d->srcfiles;
	const struct srcfile_sec *sec = NULL;
	size_t i, lo, hi;

	if (!sf && !d->srcfiles_tried) {
		int fd;

		d->srcfiles_tried = true;
		fd = d->syms_path ? pd_sym_open(env, d->syms_path, d->syms_under_root) : -1;
		if (fd >= 0) {
			Elf *elf;

			pd_elf_init();
			elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
			if (elf && elf_kind(elf) == ELF_K_ELF)
				d->srcfiles = sf = srcfiles_build(elf);
			if (elf)
				elf_end(elf);
			close(fd);
		}
	}
	if (!sf)
		return NULL;
	for (i = 0; i < sf->nsecs && !sec; i++)
		if (addr >= sf->secs[i].lo && addr < sf->secs[i].hi)
			sec = &sf->secs[i];
	if (!sec)
		return NULL;
	/* the last symbol at or below (section, addr) */
	lo = 0;
	hi = sf->nsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct srcfile_sym *s = &sf->syms[mid];

		if (s->shndx < sec->shndx || (s->shndx == sec->shndx && s->value <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || sf->syms[lo - 1].shndx != sec->shndx)
		return NULL;
	return &sf->syms[lo - 1];
}

const char *pd_elf_symbol_srcfile(struct pd_sym_env *env, struct pd_dso *d, uint64_t addr)
{
	const struct srcfile_sym *s = srcfile_lookup(env, d, addr);

	if (!s || s->file == SRCFILE_NONE)
		return NULL;
	return ((struct pd_elf_srcfiles *)d->srcfiles)->names + s->file;
}

const char *pd_elf_symbol_function(struct pd_sym_env *env, struct pd_dso *d, uint64_t addr,
				   uint64_t *value)
{
	const struct srcfile_sym *s = srcfile_lookup(env, d, addr);

	if (!s || s->func == SRCFILE_NONE)
		return NULL;
	if (value)
		*value = s->value;
	return ((struct pd_elf_srcfiles *)d->srcfiles)->names + s->func;
}
