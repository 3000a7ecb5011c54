// SPDX-License-Identifier: MIT
/*
 * uwjmp.c - setjmp and longjmp in a loop, for unwind.sh: a good share of
 * its samples land in __longjmp after it has restored the registers of
 * setjmp's caller, where perf's libunwind takes the caller's stack
 * pointer from the CFA the row gives (the jmp_buf) rather than from the
 * register the row names.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;

__attribute__((noinline)) static void jump_back(long i)
{
	longjmp(env, (int)(i & 0xff) | 1);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 30000000, i;
	volatile long sum = 0;

	for (i = 0; i < n; i++) {
		int r = setjmp(env);

		if (r == 0)
			jump_back(i);
		else
			sum += r;
	}
	printf("%ld\n", (long)sum);
	return 0;
}
