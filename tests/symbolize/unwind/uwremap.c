// SPDX-License-Identifier: MIT
/*
 * uwremap.c - a program that maps part of its own file a second time and
 * runs code from that copy, as V8 in node does with its builtins: built
 * without PIE, its module is at its link addresses, and the copy is in a
 * map of the same file that no module covers.  perf finds the file, no
 * FDE for the address, and guesses the caller from rbp: built with frame
 * pointers (leaf functions too) so that the guess holds.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline, aligned(4096))) unsigned long remapped(unsigned long n)
{
	unsigned long s = 0, i;

	for (i = 0; i < n; i++)
		s += i * i % 7;
	return s;
}

__attribute__((noinline)) static unsigned long run(unsigned long (*fn)(unsigned long), int rounds)
{
	unsigned long t = 0;
	int r;

	for (r = 0; r < rounds; r++)
		t += fn(200000);
	return t;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t fn = (uintptr_t)remapped;
	unsigned long off = 0;
	char line[512];
	FILE *maps = fopen("/proc/self/maps", "r");
	unsigned long (*copy)(unsigned long);
	void *p;
	int fd, rounds = argc > 1 ? atoi(argv[1]) : 3000;

	/* the file offset of remapped()'s page, from the map that holds it */
	while (maps && fgets(line, sizeof(line), maps)) {
		unsigned long lo, hi, pgoff;

		if (sscanf(line, "%lx-%lx %*s %lx", &lo, &hi, &pgoff) == 3 && fn >= lo && fn < hi) {
			off = pgoff + (fn - lo);
			break;
		}
	}
	if (maps)
		fclose(maps);
	fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0 || !off)
		return 1;
	p = mmap(NULL, (size_t)page, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd,
		 (off_t)(off & ~(unsigned long)(page - 1)));
	if (p == MAP_FAILED)
		return 1;
	copy = (unsigned long (*)(unsigned long))((char *)p + (off & (unsigned long)(page - 1)));
	sink = run(copy, rounds) + run(remapped, rounds / 10);
	printf("%lu\n", sink);
	return 0;
}
