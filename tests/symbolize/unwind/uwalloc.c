// SPDX-License-Identifier: MIT
/*
 * uwalloc.c - malloc and free in a loop, and a function with aliases
 * (uwalias.c), for tests/symbolize/unwind.sh: built with -static-pie and
 * no debug information, libc's malloc and free are reached through
 * symbols with several names each (free, __free, __libc_free), which
 * perf and addr2line choose among differently.
 */
#include <stdio.h>
#include <stdlib.h>

unsigned long uwalias_w(unsigned long n);

static volatile unsigned long sink;

__attribute__((noinline)) static void churn(int n)
{
	for (int i = 0; i < n; i++) {
		char *p = malloc(16 + (i & 255));

		if (!p)
			exit(1);
		p[0] = (char)i;
		sink += (unsigned long)p[0];
		free(p);
	}
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200;

	for (int r = 0; r < rounds; r++) {
		churn(200000);
		sink += uwalias_w(200000);
	}
	printf("%lu\n", sink);
	return 0;
}
