// SPDX-License-Identifier: MIT
/*
 * uwalias.c - one function under several global names (tests/symbolize/unwind.sh).
 *
 * Built into a stripped shared library (.dynsym only) and into a static-pie
 * program without debug information: perf names the frame after the alias
 * it prefers (the longest name), addr2line after the first in the symbol
 * table, so perf script shows that one as "(inlined)" in its place.
 */
volatile unsigned long uwalias_sink;

unsigned long uwalias_work(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++) {
		s += i * i;
		uwalias_sink = s;
	}
	return s;
}

unsigned long uwalias_w(unsigned long n) __attribute__((alias("uwalias_work")));
unsigned long uwalias_longest_name(unsigned long n) __attribute__((alias("uwalias_work")));
