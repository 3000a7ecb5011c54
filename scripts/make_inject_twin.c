// SPDX-License-Identifier: MIT
/*
 * make_inject_twin.c - write the file perf inject produces on a host of the
 * other byte order: the byte-swapped twin of a recording
 * (tests/lib/swap_twin.c) with its feature payloads left unswapped, and print
 * the offset of its HOSTNAME section, where the reader reports it.
 *
 * With -b BIT: the plain byte-swapped twin (features swapped too), and the
 * offset of the header byte that holds feature bit BIT in the twin's
 * big-endian bitmap (checked to be set there).
 *
 * Usage: make_inject_twin [-b BIT] IN OUT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

	if (argc == 5 && !strcmp(argv[1], "-b")) {
		unsigned int want = (unsigned int)strtoul(argv[2], NULL, 10);
		/* bit n is bit n % 64 of the u64 at 72 + 8 * (n / 64), stored most significant byte first */
		unsigned int byte = 72 + 8 * (want / 64) + 7 - (want % 64) / 8;

		if (want >= 256 || swap_twin(argv[3], argv[4], err, sizeof(err))) {
			fprintf(stderr, "make_inject_twin: %s\n", want >= 256 ? "bit past 255" : err);
			return 1;
		}
		f = fopen(argv[4], "rb");
		if (!f || fread(h, 1, sizeof(h), f) != sizeof(h) || !((h[byte] >> (want % 8)) & 1))
			return 1;
		fclose(f);
		printf("%u\n", byte);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: %s [-b BIT] IN OUT\n", argv[0]);
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
