// SPDX-License-Identifier: MIT
/*
 * vdsoprog.c - spends its time in the vdso (clock_gettime) for about
 * 300 ms, so that tests/symbolize/symbols.sh sees many [vdso] frames.
 */
#include <time.h>

int main(void)
{
	struct timespec t0, t1;
	volatile long sink = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		sink += t1.tv_nsec;
	} while ((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) < 300000000L);
	return 0;
}
