// SPDX-License-Identifier: MIT
/*
 * uwlib.c - a shared library the unwind test calls through
 * (tests/symbolize/unwind.sh).
 */
volatile unsigned long uwlib_sink;

__attribute__((noinline)) void uwlib_work(int n)
{
	for (int i = 0; i < n; i++)
		uwlib_sink += (unsigned long)i * 13u;
}

__attribute__((noinline)) void uwlib_call(void (*cb)(int), int n)
{
	cb(n);
	uwlib_sink++;
}

/* called through a lazily bound PLT in uwexec's loop: short, so that samples land in the stub */
__attribute__((noinline)) unsigned long uwlib_tiny(unsigned long x)
{
	return x * 33 + 7;
}
