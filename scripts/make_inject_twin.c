// SPDX-License-Identifier: MIT
/*
 * make_inject_twin.c - write the file perf inject produces on a host of the
 * other byte order: the byte-swapped twin of a recording (tests/swap_twin.c)
 * with its feature payloads left unswapped, and print the offset of its
 * HOSTNAME section, where the reader reports it.
 *
 * Usage: make_inject_twin IN OUT
 */
#include <stdint.h>
#include <stdio.h>

#include "swap_twin.h"

static uint64_t be64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

int main(int argc, char **argv)
{
	unsigned char h[104], e[16];
	uint64_t table, bits;
	unsigned int bit, rank = 0;
	char err[512];
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: %s IN OUT\n", argv[0]);
		return 2;
	}
	swap_twin_keep_features = true;
	if (swap_twin(argv[1], argv[2], err, sizeof(err))) {
		fprintf(stderr, "make_inject_twin: %s\n", err);
		return 1;
	}
	f = fopen(argv[2], "rb");
	if (!f || fread(h, 1, sizeof(h), f) != sizeof(h))
		return 1;
	table = be64(h + 40) + be64(h + 48);
	bits = be64(h + 72);
	if (!((bits >> 3) & 1))
		return 1;
	for (bit = 0; bit < 3; bit++)
		rank += (bits >> bit) & 1;
	if (fseek(f, (long)(table + 16 * rank), SEEK_SET) || fread(e, 1, 16, f) != 16)
		return 1;
	fclose(f);
	printf("%llu\n", (unsigned long long)be64(e));
	return 0;
}
