/* spin.c - tiny deterministic-ish CPU workload for recording the perf.data
 * corpus (see scripts/make-corpus.sh).
 *
 * usage: spin [ms] [pages]
 *   Busy-loops for about <ms> milliseconds (default 100) through a few
 *   nested, non-inlined functions so frame-pointer and DWARF callchains
 *   have some depth, and touches <pages> fresh anonymous pages (default 64)
 *   to produce page faults with data addresses.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

__attribute__((noinline)) static unsigned long middle(unsigned long x)
{
	return leaf(x) ^ leaf(x + 1);
}

__attribute__((noinline)) static unsigned long outer(unsigned long x)
{
	return middle(x) + middle(x >> 1);
}

__attribute__((noinline)) static void touch_pages(int pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)pages * psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	for (int i = 0; i < pages; i++)
		p[(size_t)i * psz] = (char)i;
	sink += p[0];
	munmap(p, (size_t)pages * psz);
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 100;
	int pages = argc > 2 ? atoi(argv[2]) : 64;
	double end = now_ms() + ms;
	unsigned long x = 1;

	touch_pages(pages);
	while (now_ms() < end)
		x = outer(x);
	touch_pages(pages);
	sink = x;
	return 0;
}
