// SPDX-License-Identifier: MIT
/*
 * uwexec.c - started by tests/symbolize/unwind.sh through a shell script that
 * execs it, so that libc and ld.so are mapped by two images of the process
 * (perf keeps the maps from before an exec and looks the CFI of a library up
 * at its lowest map), calling a shared library function through a lazily
 * bound PLT in a tight loop (samples in the PLT stub, whose CFA is a DWARF
 * expression on rip).
 */
#include <stdlib.h>

unsigned long uwlib_tiny(unsigned long x);

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	unsigned long x = 1;

	for (long i = 0; i < n; i++)
		x = uwlib_tiny(x);
	/* the result is used, the status is 0 */
	return x == 0;
}
