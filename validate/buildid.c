// SPDX-License-Identifier: MIT
/*
 * buildid.c - --check-buildids: compare the build ids a perf.data records
 * with the binaries on this machine (or under --symfs).
 *
 * The notes are read by the symbolization library's note reader
 * (pd_elf_file_build_id(), pd_kernel_build_id()), which needs no libelf.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/pd_symbols.h"
#include "perfcheck.h"

/* Paths compared per file: each is looked up once. */
#define MAX_SEEN		65536

struct pc_buildids {
	const char *symfs;
	char **seen;		/* open-addressing set of compared paths */
	size_t cap, nr;
};

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
		n = pd_kernel_build_id(found, sizeof(found));
	} else if (filename[0] != '/') {
		/* [vdso], //anon, [guest.kernel] ...: nothing on disk to compare */
		return;
	} else {
		snprintf(path, sizeof(path), "%s%s", b->symfs ? b->symfs : "", filename);
		n = pd_elf_file_build_id(path, found, sizeof(found));
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
