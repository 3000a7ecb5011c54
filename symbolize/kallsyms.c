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

long pd_kallsyms_load(int fd, struct pd_symtab *t, uint64_t *text_addr)
{
	size_t len, i = 0;
	char *buf = slurp(fd, &len);
	long nr = 0;
	bool have_text = false;

	if (!buf)
		return -1;
	while (i < len) {
		char *line = buf + i, *nl = memchr(line, '\n', len - i);
		char *end = nl ? nl : buf + len;
		uint64_t addr;
		size_t k;
		char type;
		const char *name;
		uint8_t bind;

		i = (size_t)(end - buf) + 1;
		k = hex_prefix(line, end, &addr);
		if (k == 0 || line + k + 3 > end || line[k] != ' ' || line[k + 2] != ' ')
			continue;
		type = line[k + 1];
		name = line + k + 3;
		if (name >= end)
			continue;
		if (!have_text && (size_t)(end - name) == 5 && !memcmp(name, "_text", 5)) {
			*text_addr = addr;
			have_text = true;
		}
		switch (toupper((unsigned char)type)) {
		case 'T': case 'W': case 'D': case 'B':
			break;
		default:
			continue;
		}
		if (name[0] == '$')
			continue;
		if (type == 'W')
			bind = PD_STB_WEAK;
		else if (isupper((unsigned char)type))
			bind = PD_STB_GLOBAL;
		else
			bind = PD_STB_LOCAL;
		/* the name keeps a module's "\t[mod]" suffix, as perf's does */
		if (!pd_symtab_insert(t, addr, addr, bind, PD_STT_FUNC, name, (size_t)(end - name))) {
			free(buf);
			errno = ENOMEM;
			return -1;
		}
		nr++;
	}
	free(buf);
	return nr;
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
 * header said the kernel is this machine's.
 */
struct pd_kallsyms_prefetch {
	pthread_t thread;
	bool joined;
	char *path;
	struct pd_symtab syms;
	uint64_t text;
	long nr;		/* pd_kallsyms_load()'s result; -1 also: not opened */
};

static void *prefetch_main(void *arg)
{
	struct pd_kallsyms_prefetch *p = arg;
	int fd = open(p->path, O_RDONLY | O_CLOEXEC);

	p->nr = -1;
	if (fd < 0)
		return NULL;
	p->nr = pd_kallsyms_load(fd, &p->syms, &p->text);
	close(fd);
	/* what load_kernel() does next to any table read, here off its thread */
	if (p->nr > 0) {
		pd_symtab_fixup_end(&p->syms, true);
		pd_symtab_fixup_duplicate(&p->syms);
	}
	return NULL;
}

struct pd_kallsyms_prefetch *pd_kallsyms_prefetch_start(const char *path)
{
	struct pd_kallsyms_prefetch *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	pd_symtab_init(&p->syms);
	p->path = strdup(path);
	if (!p->path || pthread_create(&p->thread, NULL, prefetch_main, p) != 0) {
		free(p->path);
		free(p);
		return NULL;
	}
	return p;
}

long pd_kallsyms_prefetch_take(struct pd_kallsyms_prefetch *p, const char *path,
			       struct pd_symtab *t, uint64_t *text_addr)
{
	if (!p->joined) {
		pthread_join(p->thread, NULL);
		p->joined = true;
	}
	/* another file, a table filled already or a failed read: not this answer */
	if (strcmp(path, p->path) || t->nr || p->nr < 0)
		return -1;
	pd_symtab_free(t);
	*t = p->syms;
	pd_symtab_init(&p->syms);
	*text_addr = p->text;
	return p->nr;
}

void pd_kallsyms_prefetch_free(struct pd_kallsyms_prefetch *p)
{
	if (!p)
		return;
	if (!p->joined)
		pthread_join(p->thread, NULL);
	pd_symtab_free(&p->syms);
	free(p->path);
	free(p);
}
