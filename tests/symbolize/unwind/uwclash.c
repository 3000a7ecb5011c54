// SPDX-License-Identifier: MIT
/*
 * uwclash.c - a frame of 300 KB built with -fstack-clash-protection, for
 * unwind.sh: its probe loop keeps the CFA in r11, and the return address
 * is far past the 8 KiB stack copy.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long leaf(volatile char *p, long i)
{
	return p[i & 4095];
}

__attribute__((noinline)) static long big_frame(long i)
{
	volatile char buf[300000];

	buf[i % sizeof(buf)] = (char)i;
	return leaf(buf, i);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 3000000, r, s = 0;

	for (r = 0; r < rounds; r++)
		s += big_frame(r);
	printf("%ld\n", s);
	return 0;
}
