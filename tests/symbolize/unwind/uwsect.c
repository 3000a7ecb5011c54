// SPDX-License-Identifier: MIT
/*
 * uwsect.c - code in a section of its own, linked a page above its file
 * offsets while .text is at them, as in BOLT's output (the original code
 * moved, the new .text not): perf asks addr2line about a frame's file
 * offset plus .text's distance, a page below the code, where
 * uwsect_padding is (tests/symbolize/unwind.sh).
 */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long text_work(unsigned long n)
{
	unsigned long s = 1, i;

	for (i = 0; i < n; i++)
		s = s * 6364136223846793005UL + i;
	return s;
}

/* first in uwcode: what lies a page below the functions after it */
__attribute__((used, noinline, section("uwcode"))) void uwsect_padding(void)
{
	__asm__ volatile(".skip 8192, 0x90");
}

__attribute__((noinline, section("uwcode"))) unsigned long sect_work(unsigned long n)
{
	unsigned long s = 0, i;

	for (i = 0; i < n; i++)
		s += (i * 2654435761UL) ^ (s >> 3);
	return s + text_work(n / 2);
}

__attribute__((noinline, section("uwcode"))) unsigned long sect_outer(unsigned long n)
{
	return sect_work(n) + sect_work(n / 3);
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 3000, r;

	for (r = 0; r < rounds; r++)
		sink += sect_outer(100000 + (r & 7));
	return 0;
}
