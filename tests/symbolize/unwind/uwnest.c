// SPDX-License-Identifier: MIT
/*
 * uwnest.c - a GNU C nested function, whose code lies outside its
 * parent's, with a function inlined into it, for unwind.sh.
 */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	int i;

	for (i = 0; i < 50; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

__attribute__((noinline)) static unsigned long outer(unsigned long k)
{
	/*
	 * nested: its DIE is inside outer's, its code apart.  Called, never
	 * taken by address: no trampoline on an executable stack
	 */
	__attribute__((noinline)) unsigned long inner(unsigned long x)
	{
		return mix(x + k) + mix(x ^ k);
	}
	unsigned long s = 0, i;

	for (i = 0; i < 40000; i++)
		s += inner(i);
	return s;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 40, r;
	unsigned long s = 0;

	for (r = 0; r < rounds; r++)
		s += outer((unsigned long)r);
	printf("%lu\n", s);
	return 0;
}
