/*
 * nogprog.c - the program of tests/symbolize/srcline.sh built without -g: no
 * DWARF, so the source file perf prints comes from the ELF symbol table (the
 * STT_FILE symbol before a function's symbol): "nogprog.c:0" for the static
 * function, nothing for the global one (a linked file's globals come after
 * the STT_FILE symbols of all its objects).
 *
 * usage: nogprog [rounds]
 */
#include <stdlib.h>

static volatile long sink;

static __attribute__((noinline)) void hot_static(long n)
{
	long i;

	for (i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void hot_global(long n)
{
	long i;

	for (i = 0; i < n; i++)
		sink -= i;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20, k;

	for (k = 0; k < rounds; k++) {
		hot_static(3000000);
		hot_global(3000000);
	}
	return 0;
}
