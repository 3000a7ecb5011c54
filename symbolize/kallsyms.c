// SPDX-License-Identifier: MIT
/*
 * kallsyms.c - text symbol files: kallsyms and perf map files.
 *
 * Both are untrusted text: lines are parsed with explicit bounds, over-long
 * lines are cut, and nothing but hex numbers, a type letter and a name is
 * taken from them.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym_internal.h"

/* Read a whole descriptor; files here are a few MiB at most. */
static char *slurp(int fd, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);

	if (!buf)
		return NULL;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *p;

			if (cap > ((size_t)1 << 30)) {	/* refuse absurd sizes */
				free(buf);
				errno = EFBIG;
				return NULL;
			}
			cap *= 2;
			p = realloc(buf, cap + 1);
			if (!p) {
				free(buf);
				return NULL;
			}
			buf = p;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* perf's hex2u64: hex digits only, returns the number consumed */
static size_t hex_prefix(const char *p, const char *end, uint64_t *v)
{
	const char *s = p;
	uint64_t x = 0;

	/* the C locale's hex digits, without a locale lookup per character */
	while (p < end) {
		unsigned char ch = (unsigned char)*p;
		int d;

		if (ch >= '0' && ch <= '9')
			d = ch - '0';
		else if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f')
			d = (ch | 0x20) - 'a' + 10;
		else
			break;
		x = (x << 4) | (uint64_t)d;
		p++;
	}
	*v = x;
	return (size_t)(p - s);
}

#define BYTES_ONES 0x0101010101010101ULL
#define BYTES_HIGH 0x8080808080808080ULL

/*
 * 8 hex digits, the most significant first, into *v, all bytes at once;
 * false when a byte is no hex digit.  A byte's high bit after adding
 * 0x80 - lo is set when it is lo or more, after adding 0x7f - hi when it
 * is above hi; bytes below 0x80 never carry into the next.
 */
static bool hex8(const char *p, uint32_t *v)
{
	uint64_t x, folded, digit, letter;

	memcpy(&x, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	if (x & BYTES_HIGH)
		return false;
	digit = (x + BYTES_ONES * (0x80 - '0')) & ~(x + BYTES_ONES * (0x7f - '9')) & BYTES_HIGH;
	folded = x | BYTES_ONES * 0x20;
	letter = (folded + BYTES_ONES * (0x80 - 'a')) & ~(folded + BYTES_ONES * (0x7f - 'f')) &
		 BYTES_HIGH;
	if ((digit | letter) != BYTES_HIGH)
		return false;
	/* '0'-'9' are 0x30-0x39, 'a'-'f' and 'A'-'F' 0x61-0x66 and 0x41-0x46 */
	x = (x & BYTES_ONES * 0x0f) + (letter >> 7) * 9;
	/* the digits' nibbles together: byte pairs, then 16-bit pairs, then halves */
	x = ((x << 4) | (x >> 8)) & 0x00ff00ff00ff00ffULL;
	x = ((x << 8) | (x >> 16)) & 0x0000ffff0000ffffULL;
	*v = (uint32_t)((x << 16) | (x >> 32));
	return true;
}

/*
 * A kallsyms line's address: the kernel prints 16 hex digits and a blank on
 * 64-bit machines, taken here 8 digits at a time; anything else goes the
 * general way, which gives the same answer.
 */
static size_t kallsyms_addr(const char *p, const char *end, uint64_t *v)
{
	uint32_t hi, lo;

	if (end - p < 17 || p[16] != ' ' || !hex8(p, &hi) || !hex8(p + 8, &lo))
		return hex_prefix(p, end, v);
	*v = (uint64_t)hi << 32 | lo;
	return 16;
}

void pd_kallsyms_info_free(struct pd_kallsyms_info *info)
{
	free(info->mods);
	free(info->tab_idx);
	pd_symtab_free(&info->tab_syms);
	memset(info, 0, sizeof(*info));
}

/* a module's text symbol at addr into the summary; the file lists a module's symbols together */
static bool note_module_text(struct pd_kallsyms_info *info, const char *mod, size_t len,
			     uint64_t addr, size_t *cap)
{
	struct pd_kallsyms_mod *e = NULL;
	size_t i;

	if (info->mods_overflow)
		return true;
	if (len >= sizeof(info->mods[0].name)) {
		info->mods_overflow = true;
		return true;
	}
	for (i = info->nr_mods; i-- > 0;) {
		struct pd_kallsyms_mod *c = &info->mods[i];

		if (!strncmp(c->name, mod, len) && c->name[len] == '\0') {
			e = c;
			break;
		}
	}
	if (!e) {
		if (info->nr_mods == *cap) {
			struct pd_kallsyms_mod *n;

			/* a kernel has some hundreds of modules at most */
			if (*cap >= 65536) {
				info->mods_overflow = true;
				return true;
			}
			*cap = *cap ? *cap * 2 : 64;
			n = realloc(info->mods, *cap * sizeof(*n));
			if (!n)
				return false;
			info->mods = n;
		}
		e = &info->mods[info->nr_mods++];
		memcpy(e->name, mod, len);
		e->name[len] = '\0';
		e->lo = e->hi = addr;
		return true;
	}
	if (addr < e->lo)
		e->lo = addr;
	if (addr > e->hi)
		e->hi = addr;
	return true;
}

/* The index of a symbol whose name has a tab, kept in info->tab_idx. */
static bool note_tab_name(struct pd_kallsyms_info *info, uint32_t z, size_t *cap)
{
	if (info->tab_names == *cap) {
		size_t n = *cap ? *cap * 2 : 64;
		uint32_t *p = realloc(info->tab_idx, n * sizeof(*p));

		if (!p)
			return false;
		info->tab_idx = p;
		*cap = n;
	}
	info->tab_idx[info->tab_names++] = z;
	return true;
}

/*
 * A kallsyms file's bytes: a regular file (the build-id cache's copy, a
 * --kallsyms file) mapped, which neither copies 5 MiB from the page cache
 * nor faults in a buffer for them; /proc/kallsyms (size 0) read.  *mapped:
 * munmap() rather than free() them.
 */
static const char *kallsyms_bytes(int fd, size_t *len, bool *mapped)
{
	struct stat st;

	*mapped = false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= ((uint64_t)1 << 30)) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
			       fd, 0);

		if (m != MAP_FAILED) {
			*len = (size_t)st.st_size;
			*mapped = true;
			return m;
		}
	}
	return slurp(fd, len);
}

static void kallsyms_bytes_free(const char *buf, size_t len, bool mapped)
{
	if (mapped)
		munmap((void *)(uintptr_t)buf, len);
	else
		free((void *)(uintptr_t)buf);
}

/*
 * Room for the file's symbols and all of it as names, reserved at once:
 * the kernel's lines are 45 bytes on average (16 hex digits, the type, a
 * name), so len / 32 is more than its symbols without counting lines (a
 * file of shorter lines only doubles the node array as before), and the
 * names are less than the file.  The table is shrunk when sealed.
 */
static bool kallsyms_reserve(struct pd_symtab *t, size_t len)
{
	return pd_symtab_reserve(t, t->nr + len / 32 + 16, t->str_len + len + 1);
}

/* A line of a kallsyms file that names a symbol. */
struct kallsyms_line {
	uint64_t addr;
	const char *name;
	size_t name_len;
	uint8_t bind;
};

/*
 * The next line of buf[*pos..len) that names a symbol, into *l (*pos goes
 * past it); what the file says of its layout (_text, _stext, the modules'
 * text) goes to info on the way.  1: a symbol, 0: the end, -1: out of
 * memory.
 */
static int kallsyms_next(const char *buf, size_t len, size_t *pos, struct kallsyms_line *l,
			 struct pd_kallsyms_info *info, size_t *mods_cap)
{
	while (*pos < len) {
		const char *line = buf + *pos, *nl = memchr(line, '\n', len - *pos);
		const char *end = nl ? nl : buf + len;
		size_t k, name_len;
		char type;
		const char *name;

		*pos = (size_t)(end - buf) + 1;
		k = kallsyms_addr(line, end, &l->addr);
		if (k == 0 || line + k + 3 > end || line[k] != ' ' || line[k + 2] != ' ')
			continue;
		type = line[k + 1];
		name = line + k + 3;
		if (name >= end)
			continue;
		name_len = (size_t)(end - name);
		if (name_len == 5 && !info->have_text && !memcmp(name, "_text", 5)) {
			info->text = l->addr;
			info->have_text = true;
		} else if (name_len == 6 && !info->have_stext && !memcmp(name, "_stext", 6)) {
			info->stext = l->addr;
			info->have_stext = true;
		}
		/* the C locale's classes of the type letter, without a lookup per line */
		switch (type) {
		case 'T': case 'D': case 'B':
			l->bind = PD_STB_GLOBAL;
			break;
		case 't': case 'd': case 'b':
			l->bind = PD_STB_LOCAL;
			break;
		case 'W':
			l->bind = PD_STB_WEAK;
			break;
		case 'w':
			l->bind = PD_STB_LOCAL;
			break;
		default:
			continue;
		}
		if (name[0] == '$')
			continue;
		/* a module's symbol ends in "\t[mod]" */
		if ((type == 't' || type == 'T') && end[-1] == ']') {
			const char *tab = memrchr(name, '\t', name_len);

			if (tab && tab[1] == '[' &&
			    !note_module_text(info, tab + 1, (size_t)(end - tab - 1), l->addr,
					      mods_cap))
				return -1;
		}
		l->name = name;
		l->name_len = name_len;
		return 1;
	}
	return 0;
}

/* The symbols of a kallsyms file's bytes into t, unfixed (pd_kallsyms_load()). */
static long load_bytes(const char *buf, size_t len, struct pd_symtab *t,
		       struct pd_kallsyms_info *info)
{
	size_t pos = 0, mods_cap = 0, tab_cap = 0;
	struct kallsyms_line l;
	long nr = 0;
	int ret;

	memset(info, 0, sizeof(*info));
	if (!kallsyms_reserve(t, len)) {
		errno = ENOMEM;
		return -1;
	}
	while ((ret = kallsyms_next(buf, len, &pos, &l, info, &mods_cap)) > 0) {
		/* the name keeps a module's "\t[mod]" suffix, as perf's does */
		uint32_t z = pd_symtab_insert(t, l.addr, l.addr, l.bind, PD_STT_FUNC, l.name,
					      l.name_len);

		if (!z || (memchr(l.name, '\t', l.name_len) && !note_tab_name(info, z, &tab_cap)))
			break;
		nr++;
	}
	if (ret != 0) {
		pd_kallsyms_info_free(info);
		errno = ENOMEM;
		return -1;
	}
	return nr;
}

long pd_kallsyms_load(int fd, struct pd_symtab *t, struct pd_kallsyms_info *info)
{
	size_t len = 0;
	bool mapped;
	const char *buf = kallsyms_bytes(fd, &len, &mapped);
	long nr;

	memset(info, 0, sizeof(*info));
	if (!buf)
		return -1;
	nr = load_bytes(buf, len, t, info);
	kallsyms_bytes_free(buf, len, mapped);
	return nr;
}

/*
 * A kallsyms file's symbols in address order, as read for a sealed table
 * (load_sealed()): 24 bytes a symbol where the table's nodes and names
 * take about 90, the names left in the file's bytes.
 */
struct kallsyms_ent {
	uint64_t start;
	uint32_t name, name_len;	/* in the file's bytes */
	uint8_t bind;
	bool bracket;		/* a '[' in the name: a module's (pd_kallsyms_end()) */
	bool tab;		/* "NAME\t[MOD]": goes to info->tab_syms */
	bool gone;		/* a duplicate erased, or moved to info->tab_syms */
};

#define KALLSYMS_NOT_SEALED (-2)

/* ent[i]'s end after perf's fixup of ends (pd_symtab_fixup_end(t, true)) */
static uint64_t ent_end(const struct kallsyms_ent *ent, size_t nr, size_t i)
{
	if (i + 1 == nr)
		return pd_kallsyms_last_end(ent[i].start);
	return pd_kallsyms_end(ent[i].start, ent[i].bracket, ent[i + 1].start, ent[i + 1].bracket);
}

static size_t ent_next(const struct kallsyms_ent *ent, size_t nr, size_t i)
{
	while (++i < nr && ent[i].gone)
		;
	return i;
}

/*
 * perf's removal of duplicates (pd_symtab_fixup_duplicate()) over the
 * symbols in address order: of two of one start, the one
 * pd_sym_keep_first() does not keep goes, and the one kept meets the next.
 */
static void ent_dedup(const char *buf, struct kallsyms_ent *ent, size_t nr)
{
	size_t curr = 0, next;

	while (curr < nr) {
		const struct kallsyms_ent *a = &ent[curr], *b;

		next = ent_next(ent, nr, curr);
		if (next == nr)
			break;
		b = &ent[next];
		if (a->start != b->start) {
			curr = next;
			continue;
		}
		if (pd_sym_keep_first(ent_end(ent, nr, curr) - a->start, a->bind, buf + a->name,
				      a->name_len, ent_end(ent, nr, next) - b->start, b->bind,
				      buf + b->name, b->name_len)) {
			ent[next].gone = true;
		} else {
			ent[curr].gone = true;
			curr = next;
		}
	}
}

/*
 * What pd_kallsyms_load(), pd_symtab_fixup_end(t, true),
 * pd_symtab_fixup_duplicate(), pd_symtab_move_flat() of the symbols with
 * a tab and pd_symtab_shrink() make of a file, made at once for the files
 * those leave sealed: listed in address order, names without a NUL, no
 * two symbols left covering one address.  The table is sealed from an
 * array of the symbols (kallsyms_ent) instead of being built node by node
 * and copied: the kernel's 122,000 symbols took 15 to 30 ms that way,
 * most of it faulting in 13 MiB of nodes and names.  KALLSYMS_NOT_SEALED
 * for any other file (t and info are then empty): the general way.
 */
static long load_sealed(const char *buf, size_t len, struct pd_symtab *t,
			struct pd_kallsyms_info *info)
{
	size_t pos = 0, mods_cap = 0, tab_cap = 0, cap = len / 32 + 16, nr = 0, i, live = 0;
	size_t names = 0;
	struct kallsyms_ent *ent = malloc(cap * sizeof(*ent));
	struct kallsyms_line l;
	struct pd_symseal_build b;
	uint64_t prev_start = 0, prev_end = 0;
	bool first = true;
	long ret = KALLSYMS_NOT_SEALED;
	int got;

	memset(info, 0, sizeof(*info));
	if (!ent || t->nr || len > UINT32_MAX)
		goto out;
	/* filled in order: the kernel's lines are 45 bytes on average */
	pd_sym_prefault(ent, (len / 45 < cap ? len / 45 : cap) * sizeof(*ent));
	while ((got = kallsyms_next(buf, len, &pos, &l, info, &mods_cap)) > 0) {
		struct kallsyms_ent *e;

		if (memchr(l.name, '\0', l.name_len) || (nr && l.addr < ent[nr - 1].start))
			goto out;
		if (nr == cap) {
			struct kallsyms_ent *n = realloc(ent, cap * 2 * sizeof(*ent));

			if (!n)
				goto out;
			ent = n;
			cap *= 2;
		}
		e = &ent[nr++];
		e->start = l.addr;
		e->name = (uint32_t)(l.name - buf);
		e->name_len = (uint32_t)l.name_len;
		e->bind = l.bind;
		e->bracket = memchr(l.name, '[', l.name_len) != NULL;
		e->tab = memchr(l.name, '\t', l.name_len) != NULL;
		e->gone = false;
		/* the index pd_kallsyms_load() gives it, after the sentinel */
		if (e->tab && !note_tab_name(info, (uint32_t)nr, &tab_cap))
			goto out;
	}
	if (got < 0 || !nr || nr > UINT32_MAX - 2)
		goto out;
	ent_dedup(buf, ent, nr);
	/* the symbols pd_symtab_shrink() would find sealable, and their names' bytes */
	for (i = 0; i < nr; i++) {
		uint64_t end;

		if (ent[i].gone || ent[i].tab)
			continue;
		end = ent_end(ent, nr, i);
		if (end < ent[i].start || end - ent[i].start > UINT32_MAX ||
		    (!first && (ent[i].start <= prev_start || ent[i].start < prev_end)))
			goto out;
		first = false;
		prev_start = ent[i].start;
		prev_end = end;
		names += ent[i].name_len + 1;
		live++;
	}
	if (!live || names > UINT32_MAX)
		goto out;
	/* the module symbols, in address order as pd_symtab_move_flat() inserts them */
	for (i = 0; i < nr; i++) {
		if (ent[i].gone || !ent[i].tab)
			continue;
		if (!pd_symtab_insert(&info->tab_syms, ent[i].start, ent_end(ent, nr, i),
				      ent[i].bind, PD_STT_FUNC, buf + ent[i].name, ent[i].name_len))
			goto out;
	}
	if (!pd_symseal_begin(&b, (uint32_t)live, names))
		goto out;
	for (i = 0; i < nr; i++) {
		if (ent[i].gone || ent[i].tab)
			continue;
		pd_symseal_add(&b, ent[i].start, (uint32_t)(ent_end(ent, nr, i) - ent[i].start),
			       (uint8_t)(ent[i].bind << 4 | PD_STT_FUNC), buf + ent[i].name,
			       ent[i].name_len);
	}
	pd_symseal_finish(&b, t);
	ret = (long)nr;
out:
	free(ent);
	if (ret == KALLSYMS_NOT_SEALED)
		pd_kallsyms_info_free(info);
	return ret;
}

/* perf's hex2u64 is strtoull(16): leading blanks and "0x" are accepted */
static size_t hex_strtoull(const char *p, uint64_t *v)
{
	char *e;

	*v = strtoull(p, &e, 16);
	return (size_t)(e - p);
}

long pd_perfmap_load(int fd, struct pd_symtab *t)
{
	size_t len, i = 0;
	char *buf = slurp(fd, &len);
	long nr = 0;

	if (!buf)
		return -1;
	while (i < len) {
		char *line = buf + i, *nl = memchr(line, '\n', len - i);
		size_t line_len, k;
		uint64_t start, size;

		line_len = (size_t)((nl ? nl : buf + len) - line);
		i += line_len + 1;
		/* perf drops the last character, newline or not */
		if (!nl && line_len > 0)
			line_len--;
		/* parse the line on its own, as perf does after getline() */
		line[line_len] = '\0';
		k = hex_strtoull(line, &start) + 1;
		if (k + 2 >= line_len)
			continue;
		k += hex_strtoull(line + k, &size) + 1;
		if (k + 2 >= line_len)
			continue;
		if (!pd_symtab_insert(t, start, start + size, PD_STB_GLOBAL, PD_STT_FUNC, line + k,
				      line_len - k)) {
			free(buf);
			errno = ENOMEM;
			return -1;
		}
		nr++;
	}
	free(buf);
	return nr;
}

/*
 * /proc/kallsyms read on a thread of its own: the kernel formats each of
 * its lines on every read (a tenth of a second of CPU time for 120,000
 * lines), and the first kernel frame needs them long after a file's
 * header said the kernel is this machine's.  Its copy in the build-id
 * cache, a file in the page cache, is read instead where it is going to be
 * used: load_kernel() takes it when it describes the recording.
 */
struct kallsyms_read {
	char *path;
	struct pd_symtab syms;
	struct pd_kallsyms_info info;
	long nr;		/* pd_kallsyms_load()'s result; -1 also: not read */
};

struct pd_kallsyms_prefetch {
	pthread_t thread;
	bool joined;
	struct kallsyms_read copy, proc;
};

static long load_fixed(int fd, struct pd_symtab *t, struct pd_kallsyms_info *info,
		       bool sealed_at_once)
{
	size_t len = 0;
	bool mapped;
	const char *buf = kallsyms_bytes(fd, &len, &mapped);
	long nr = KALLSYMS_NOT_SEALED;

	memset(info, 0, sizeof(*info));
	if (!buf)
		return -1;
	if (sealed_at_once)
		nr = load_sealed(buf, len, t, info);
	if (nr == KALLSYMS_NOT_SEALED) {
		nr = load_bytes(buf, len, t, info);
		if (nr > 0) {
			pd_symtab_fixup_end(t, true);
			pd_symtab_fixup_duplicate(t);
			if (!info->tab_names ||
			    pd_symtab_move_flat(t, info->tab_idx, info->tab_names, &info->tab_syms))
				pd_symtab_shrink(t);
		}
	}
	kallsyms_bytes_free(buf, len, mapped);
	return nr;
}

long pd_kallsyms_load_fixed(int fd, struct pd_symtab *t, struct pd_kallsyms_info *info)
{
	return load_fixed(fd, t, info, true);
}

long pd_kallsyms_load_fixed_ref(int fd, struct pd_symtab *t, struct pd_kallsyms_info *info)
{
	return load_fixed(fd, t, info, false);
}

/*
 * What load_kernel() does next to any table read, here off its thread,
 * sealing included: the symbols with a tab, which load_kernel() moves out
 * to the modules' maps before it seals, are moved out first.
 */
static void read_one(struct kallsyms_read *r)
{
	int fd = open(r->path, O_RDONLY | O_CLOEXEC);

	r->nr = -1;
	if (fd < 0)
		return;
	r->nr = pd_kallsyms_load_fixed(fd, &r->syms, &r->info);
	close(fd);
}

/*
 * The _text the file at path lists first, from its first lines only: the
 * kernel lists its core symbols by address, _text among the first, and
 * formats no more lines than are read.
 */
static bool head_text(const char *path, uint64_t *text)
{
	char buf[16384];
	size_t n = 0, i = 0;
	bool found = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while (n < sizeof(buf)) {
		ssize_t r = read(fd, buf + n, sizeof(buf) - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	while (i < n && !found) {
		char *line = buf + i, *nl = memchr(line, '\n', n - i);
		size_t k;

		if (!nl)
			break;	/* a line cut by the buffer's end */
		i = (size_t)(nl - buf) + 1;
		k = kallsyms_addr(line, nl, text);
		found = k > 0 && (size_t)(nl - line) == k + 8 && line[k] == ' ' &&
			line[k + 2] == ' ' && !memcmp(line + k + 3, "_text", 5);
	}
	return found;
}

static void *prefetch_main(void *arg)
{
	struct pd_kallsyms_prefetch *p = arg;
	uint64_t running;

	p->copy.nr = -1;
	p->proc.nr = -1;
	if (p->copy.path) {
		read_one(&p->copy);
		if (p->copy.nr > 0 && p->copy.info.have_text && head_text(p->proc.path, &running) &&
		    running == p->copy.info.text)
			return NULL;
	}
	read_one(&p->proc);
	return NULL;
}

struct pd_kallsyms_prefetch *pd_kallsyms_prefetch_start(const char *copy, const char *path)
{
	struct pd_kallsyms_prefetch *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	pd_symtab_init(&p->copy.syms);
	pd_symtab_init(&p->proc.syms);
	p->proc.path = strdup(path);
	if (copy)
		p->copy.path = strdup(copy);
	if (!p->proc.path || (copy && !p->copy.path) ||
	    pthread_create(&p->thread, NULL, prefetch_main, p) != 0) {
		free(p->copy.path);
		free(p->proc.path);
		free(p);
		return NULL;
	}
	return p;
}

long pd_kallsyms_prefetch_take(struct pd_kallsyms_prefetch *p, const char *path,
			       struct pd_symtab *t, struct pd_kallsyms_info *info)
{
	struct kallsyms_read *r;
	long nr;

	if (!p->joined) {
		pthread_join(p->thread, NULL);
		p->joined = true;
	}
	if (p->copy.path && !strcmp(path, p->copy.path))
		r = &p->copy;
	else if (!strcmp(path, p->proc.path))
		r = &p->proc;
	else
		return -1;
	/* a table filled already or a failed (or skipped) read: not this answer */
	if (t->nr || r->nr < 0)
		return -1;
	pd_symtab_free(t);
	*t = r->syms;
	pd_symtab_init(&r->syms);
	*info = r->info;
	memset(&r->info, 0, sizeof(r->info));
	nr = r->nr;
	r->nr = -1;	/* taken */
	return nr;
}

void pd_kallsyms_prefetch_free(struct pd_kallsyms_prefetch *p)
{
	if (!p)
		return;
	if (!p->joined)
		pthread_join(p->thread, NULL);
	pd_symtab_free(&p->copy.syms);
	pd_symtab_free(&p->proc.syms);
	pd_kallsyms_info_free(&p->copy.info);
	pd_kallsyms_info_free(&p->proc.info);
	free(p->copy.path);
	free(p->proc.path);
	free(p);
}
