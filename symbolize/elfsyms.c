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

/* Move a symbol value into the file-offset space (perf's adjust_symbols). */
static uint64_t adjust(Elf *runtime, uint64_t value, const GElf_Shdr *sec)
{
	size_t i, nph;

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

	if (!data || sh->sh_entsize == 0)
		return 0;
	if (elf_getshdrstrndx(syms->elf, &sym_shstr) || elf_getshdrstrndx(rt->elf, &rt_shstr))
		return 0;
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
		value = adjust(rt->elf, value, &shdr);
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
	if (syms->elf != rt->elf && section_by_name(rt->elf, ".text", &rt_text, NULL) &&
	    section_by_name(syms->elf, ".text", &sym_text, NULL))
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
		n = add_cand(c, n, true, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
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
