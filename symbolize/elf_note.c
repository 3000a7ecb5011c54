// SPDX-License-Identifier: MIT
/*
 * elf_note.c - the GNU build-id note: found in a run of ELF notes, in an
 * ELF file's note sections and segments, and in the running kernel's
 * notes.
 *
 * This file needs no libelf: perfcheck --check-buildids links it alone,
 * and the symbolizer hands it the note sections libelf found by perf's
 * names.  Every read is bounded: a path in a damaged perf.data can name
 * any file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym_internal.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID		3
#endif
#define ELF_SHT_NOTE		7
#define ELF_PT_NOTE		4
/* A note section or segment larger than this holds no build id worth reading. */
#define MAX_NOTE_BYTES		(64u << 10)
/* Section or program headers looked at per file. */
#define MAX_HEADERS		4096

/* An unsigned field of n bytes in the file's byte order. */
static uint64_t elf_ld(const uint8_t *p, unsigned int n, bool big_endian)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[big_endian ? n - 1 - i : i] << (8 * i);
	return v;
}

int pd_elf_notes_build_id(const uint8_t *p, size_t len, bool big_endian, uint8_t *id,
			  size_t max)
{
	size_t pos = 0;

	while (len - pos >= 12) {
		uint64_t namesz = elf_ld(p + pos, 4, big_endian);
		uint64_t descsz = elf_ld(p + pos + 4, 4, big_endian);
		uint64_t type = elf_ld(p + pos + 8, 4, big_endian);
		uint64_t name_room = (namesz + 3) & ~3ULL, desc_room = (descsz + 3) & ~3ULL;

		pos += 12;
		if (name_room > len - pos || desc_room > len - pos - name_room)
			return -1;
		/* An empty id, or one longer than the caller's buffer, is not one to compare. */
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + pos, "GNU", 4) &&
		    descsz && descsz <= max) {
			memcpy(id, p + pos + name_room, (size_t)descsz);
			return (int)descsz;
		}
		pos += (size_t)(name_room + desc_room);
	}
	return -1;
}

bool pd_sym_pread_all(int fd, void *buf, size_t len, uint64_t off)
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

static int notes_at(int fd, uint64_t off, uint64_t size, bool big_endian, uint8_t *id,
		    size_t max)
{
	uint8_t *buf;
	int ret;

	if (!size || size > MAX_NOTE_BYTES)
		return -1;
	buf = malloc((size_t)size);
	if (!buf)
		return -1;
	ret = pd_sym_pread_all(fd, buf, (size_t)size, off) ?
	      pd_elf_notes_build_id(buf, (size_t)size, big_endian, id, max) : -1;
	free(buf);
	return ret;
}

int pd_elf_file_build_id(const char *path, uint8_t *id, size_t max)
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
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    !pd_sym_pread_all(fd, eh, sizeof(eh), 0) || memcmp(eh, "\177ELF", 4))
		goto out;
	is64 = eh[4] == 2;
	be = eh[5] == 2;
	if (is64) {
		phoff = elf_ld(eh + 32, 8, be);
		shoff = elf_ld(eh + 40, 8, be);
		phentsize = (unsigned int)elf_ld(eh + 54, 2, be);
		phnum = (unsigned int)elf_ld(eh + 56, 2, be);
		shentsize = (unsigned int)elf_ld(eh + 58, 2, be);
		shnum = (unsigned int)elf_ld(eh + 60, 2, be);
	} else {
		phoff = elf_ld(eh + 28, 4, be);
		shoff = elf_ld(eh + 32, 4, be);
		phentsize = (unsigned int)elf_ld(eh + 42, 2, be);
		phnum = (unsigned int)elf_ld(eh + 44, 2, be);
		shentsize = (unsigned int)elf_ld(eh + 46, 2, be);
		shnum = (unsigned int)elf_ld(eh + 48, 2, be);
	}
	/* Section headers first: relocatable objects (kernel modules) have no segments. */
	if (shoff && shentsize >= (is64 ? 64u : 40u) && shnum <= MAX_HEADERS) {
		for (i = 0; i < shnum && ret < 0; i++) {
			uint64_t off, size;

			if (!pd_sym_pread_all(fd, sh, is64 ? 64 : 40, shoff + i * shentsize))
				break;
			if (elf_ld(sh + 4, 4, be) != ELF_SHT_NOTE)
				continue;
			off = is64 ? elf_ld(sh + 24, 8, be) : elf_ld(sh + 16, 4, be);
			size = is64 ? elf_ld(sh + 32, 8, be) : elf_ld(sh + 20, 4, be);
			ret = notes_at(fd, off, size, be, id, max);
		}
	}
	if (ret < 0 && phoff && phentsize >= (is64 ? 56u : 32u) && phnum <= MAX_HEADERS) {
		for (i = 0; i < phnum && ret < 0; i++) {
			uint64_t off, size;

			if (!pd_sym_pread_all(fd, sh, is64 ? 56 : 32, phoff + i * phentsize))
				break;
			if (elf_ld(sh, 4, be) != ELF_PT_NOTE)
				continue;
			off = is64 ? elf_ld(sh + 8, 8, be) : elf_ld(sh + 4, 4, be);
			size = is64 ? elf_ld(sh + 32, 8, be) : elf_ld(sh + 16, 4, be);
			ret = notes_at(fd, off, size, be, id, max);
		}
	}
out:
	close(fd);
	return ret;
}

int pd_kernel_build_id(uint8_t *id, size_t max)
{
	uint8_t buf[4096];
	ssize_t n;
	int fd;

	/* Not an ELF file: the kernel's notes themselves, in host byte order. */
	fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return -1;
	return pd_elf_notes_build_id(buf, (size_t)n, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, id,
				     max);
}
