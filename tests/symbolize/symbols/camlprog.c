// SPDX-License-Identifier: MIT
/*
 * camlprog.c - functions named the way OCaml's native compiler names them
 * ("caml", a capital letter, "__" between module and function, "$xx" for
 * other bytes), so that tests/symbolize/symbols.sh checks that their
 * names are decoded as perf decodes them, without an OCaml compiler.
 * camllower_case is not such a name.  symbols.sh renames the java_*
 * functions (objcopy --redefine-sym) to Java method signatures and
 * caml_upper to an OCaml name whose capital is a UTF-8 lead byte, which
 * perf demangles too.  About 300 ms of samples.
 */
#include <time.h>

volatile unsigned long sink;

__attribute__((noinline)) unsigned long camlDemo__work_12(unsigned long n)
{
	unsigned long s = sink, i;

	for (i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	return s;
}

/* "$2b" is '+': Demo.op+_3 */
__attribute__((noinline)) unsigned long camlDemo__op$2b_3(unsigned long n)
{
	return camlDemo__work_12(n) + sink;
}

/* "$zz" is not a hex escape and stays; "___" is "._" */
__attribute__((noinline)) unsigned long camlStdlib__List___map_$zz$4_9(unsigned long n)
{
	return camlDemo__op$2b_3(n) + sink;
}

/* "$41" and "$2e": A._A.._b */
__attribute__((noinline)) unsigned long camlA___$41$2e___b(unsigned long n)
{
	return camlStdlib__List___map_$zz$4_9(n) + sink;
}

__attribute__((noinline)) unsigned long java_method(unsigned long n)
{
	return camlA___$41$2e___b(n) + sink;
}

__attribute__((noinline)) unsigned long java_arrays(unsigned long n)
{
	return java_method(n) + sink;
}

__attribute__((noinline)) unsigned long java_init(unsigned long n)
{
	return java_arrays(n) + sink;
}

__attribute__((noinline)) unsigned long java_broken(unsigned long n)
{
	return java_init(n) + sink;
}

__attribute__((noinline)) unsigned long caml_upper(unsigned long n)
{
	return java_broken(n) + sink;
}

__attribute__((noinline)) unsigned long camllower_case(unsigned long n)
{
	return caml_upper(n) + sink;
}

int main(void)
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		sink += camllower_case(100000);
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while ((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) < 300000000L);
	return 0;
}
