// SPDX-License-Identifier: MIT
/*
 * buildid.c - --check-buildids: compare the build ids a perf.data records
 * with the binaries on this machine (or under --symfs).
 *
 * Only the GNU build-id note is needed, so a small ELF note reader does
 * the job without a dependency on libelf.  Every read is bounded: the
 * files compared are the user's own binaries, but a path in a damaged
 * perf.data can name anything.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfcheck.h"

#define NT_GNU_BUILD_ID		3
#define SHT_NOTE		7
#define PT_NOTE			4
#define MAX_NOTE_BYTES		(64u << 10)
#define MAX_HEADERS		4096
/* Paths compared per file: each is looked up once. */
#define MAX_SEEN		65536

struct pc_buildids {
	const char *symfs;
	char **seen;		/* open-addressing set of compared paths */
	size_t cap, nr;
};

static uint64_t rd(const uint8_t *p, unsigned int n, bool be)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
	return v;
}

static bool pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (uint8_t *)buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

/* Find the GNU build-id note in a run of notes; returns its length or -1. */
static int scan_notes(const uint8_t *p, size_t len, bool be, uint8_t *out, unsigned int max)
{
	size_t pos = 0;

	while (len - pos >= 12) {
		uint64_t namesz = rd(p + pos, 4, be), descsz = rd(p + pos + 4, 4, be);
		uint64_t type = rd(p + pos + 8, 4, be);
		uint64_t name_room = (namesz + 3) & ~3ULL, desc_room = (descsz + 3) & ~3ULL;

		pos += 12;
		if (name_room > len - pos || desc_room > len - pos - name_room)
			return -1;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + pos, "GNU", 4) &&
		    descsz && descsz <= max) {
			memcpy(out, p + pos + name_room, (size_t)descsz);
			return (int)descsz;
		}
		pos += (size_t)(name_room + desc_room);
	}
	return -1;
}

static int read_notes_at(int fd, uint64_t off, uint64_t size, bool be, uint8_t *out,
			 unsigned int max)
{
	uint8_t *buf;
	int ret;

	if (!size || size > MAX_NOTE_BYTES)
		return -1;
	buf = malloc((size_t)size);
	if (!buf)
		return -1;
	ret = pread_all(fd, buf, (size_t)size, off) ? scan_notes(buf, (size_t)size, be, out, max) : -1;
	free(buf);
	return ret;
}

int pc_elf_build_id(const char *path, uint8_t *out, unsigned int max)
{
	uint8_t eh[64], sh[64];
	uint64_t shoff, phoff, i;
	unsigned int shentsize, shnum, phentsize, phnum;
	bool is64, be;
	struct stat st;
	int fd, ret = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	/* Only regular files: a FIFO or a device under that name must not block us. */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !pread_all(fd, eh, sizeof(eh), 0) ||
	    memcmp(eh, "\177ELF", 4))
		goto out;
	/* /sys/kernel/notes is not an ELF file: the caller reads it raw. */
	is64 = eh[4] == 2;
	be = eh[5] == 2;
	if (is64) {
		phoff = rd(eh + 32, 8, be);
		shoff = rd(eh + 40, 8, be);
		phentsize = (unsigned int)rd(eh + 54, 2, be);
		phnum = (unsigned int)rd(eh + 56, 2, be);
		shentsize = (unsigned int)rd(eh + 58, 2, be);
		shnum = (unsigned int)rd(eh + 60, 2, be);
	} else {
		phoff = rd(eh + 28, 4, be);
		shoff = rd(eh + 32, 4, be);
		phentsize = (unsigned int)rd(eh + 42, 2, be);
		phnum = (unsigned int)rd(eh + 44, 2, be);
		shentsize = (unsigned int)rd(eh + 46, 2, be);
		shnum = (unsigned int)rd(eh + 48, 2, be);
	}
	/* Section headers first: relocatable objects (kernel modules) have no segments. */
	if (shoff && shentsize >= (is64 ? 64u : 40u) && shnum <= MAX_HEADERS) {
		for (i = 0; i < shnum && ret < 0; i++) {
			uint64_t off, size;

			if (!pread_all(fd, sh, is64 ? 64 : 40, shoff + i * shentsize))
				break;
			if (rd(sh + 4, 4, be) != SHT_NOTE)
				continue;
			off = is64 ? rd(sh + 24, 8, be) : rd(sh + 16, 4, be);
			size = is64 ? rd(sh + 32, 8, be) : rd(sh + 20, 4, be);
			ret = read_notes_at(fd, off, size, be, out, max);
		}
	}
	if (ret < 0 && phoff && phentsize >= (is64 ? 56u : 32u) && phnum <= MAX_HEADERS) {
		for (i = 0; i < phnum && ret < 0; i++) {
			uint64_t off, size;

			if (!pread_all(fd, sh, is64 ? 56 : 32, phoff + i * phentsize))
				break;
			if (rd(sh, 4, be) != PT_NOTE)
				continue;
			off = is64 ? rd(sh + 8, 8, be) : rd(sh + 4, 4, be);
			size = is64 ? rd(sh + 32, 8, be) : rd(sh + 16, 4, be);
			ret = read_notes_at(fd, off, size, be, out, max);
		}
	}
out:
	close(fd);
	return ret;
}

/* The running kernel's notes, for [kernel.kallsyms]. */
static int kernel_build_id(uint8_t *out, unsigned int max)
{
	uint8_t buf[4096];
	ssize_t n;
	int fd, ret;

	fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return -1;
	ret = scan_notes(buf, (size_t)n, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, out, max);
	return ret;
}

struct pc_buildids *pc_buildids_new(const char *symfs)
{
	struct pc_buildids *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->symfs = symfs && *symfs ? symfs : NULL;
	return b;
}

void pc_buildids_free(struct pc_buildids *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->cap; i++)
		free(b->seen[i]);
	free(b->seen);
	free(b);
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* True the first time a path is seen; false after, or when the set is full. */
static bool first_time(struct pc_buildids *b, const char *path)
{
	size_t i;

	if (b->nr * 2 >= b->cap) {
		size_t ncap = b->cap ? b->cap * 2 : 256, j;
		char **ns;

		if (b->nr >= MAX_SEEN)
			return false;
		ns = calloc(ncap, sizeof(*ns));
		if (!ns)
			return false;
		for (j = 0; j < b->cap; j++) {
			if (!b->seen[j])
				continue;
			i = str_hash(b->seen[j]) & (ncap - 1);
			while (ns[i])
				i = (i + 1) & (ncap - 1);
			ns[i] = b->seen[j];
		}
		free(b->seen);
		b->seen = ns;
		b->cap = ncap;
	}
	i = str_hash(path) & (b->cap - 1);
	while (b->seen[i]) {
		if (!strcmp(b->seen[i], path))
			return false;
		i = (i + 1) & (b->cap - 1);
	}
	b->seen[i] = strdup(path);
	if (!b->seen[i])
		return false;
	b->nr++;
	return true;
}

static void hex(char *out, const uint8_t *id, unsigned int n)
{
	static const char digits[] = "0123456789abcdef";
	unsigned int i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * n] = '\0';
}

void pc_buildids_check(struct pc_buildids *b, struct pc_file *pf, const char *filename,
		       const uint8_t *id, unsigned int size, uint64_t offset, int64_t rec_idx,
		       uint32_t rec_type)
{
	uint8_t found[64];
	char path[4096], rhex[129], fhex[129];
	unsigned int i, cmp;
	int n;

	if (!b || !filename || !filename[0] || size > 20 || !first_time(b, filename))
		return;
	if (!strcmp(filename, "[kernel.kallsyms]")) {
		if (b->symfs)
			return;
		n = kernel_build_id(found, sizeof(found));
	} else if (filename[0] != '/') {
		/* [vdso], //anon, [guest.kernel] ...: nothing on disk to compare */
		return;
	} else {
		snprintf(path, sizeof(path), "%s%s", b->symfs ? b->symfs : "", filename);
		n = pc_elf_build_id(path, found, sizeof(found));
	}
	hex(rhex, id, size);
	if (n < 0) {
		pc_emit(pf, PD_BUILDID_NO_BINARY, offset, rec_idx, rec_type, NULL,
			"file=%s build_id=%s", filename, rhex);
		return;
	}
	/* A 20-byte slot holding a shorter id is zero-padded. */
	cmp = (unsigned int)n < size ? (unsigned int)n : size;
	for (i = cmp; i < size; i++)
		if (id[i])
			cmp = 0;
	if (cmp && (unsigned int)n <= size && !memcmp(id, found, cmp))
		return;
	hex(fhex, found, (unsigned int)n);
	pc_emit(pf, PD_BUILDID_MISMATCH, offset, rec_idx, rec_type, NULL,
		"file=%s recorded=%s found=%s", filename, rhex, fhex);
}
