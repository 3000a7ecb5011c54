// SPDX-License-Identifier: MIT
/*
 * uwnocfi.c - calls, and is called back by, uwlib.c built without unwind
 * tables (tests/symbolize/unwind.sh): the library's .eh_frame is empty and
 * it has no .eh_frame_hdr, so perf's libunwind finds no unwind information
 * for its frames and ends the stack at the first of them (a frame with an
 * index but no FDE for it would be guessed from rbp instead).
 */
#include <stdlib.h>

void uwlib_work(int n);
void uwlib_call(void (*cb)(int), int n);

volatile unsigned long uwnocfi_sink;

__attribute__((noinline)) static void callback(int n)
{
	for (int i = 0; i < n; i++)
		uwnocfi_sink ^= (unsigned long)i * 7u;
	uwlib_work(n);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 40000;

	for (long r = 0; r < rounds; r++)
		uwlib_call(callback, 20000);
	return 0;
}
