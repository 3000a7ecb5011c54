// SPDX-License-Identifier: MIT
/*
 * uwdbgf.c - a program whose C has CFI in .debug_frame only
 * (-fno-asynchronous-unwind-tables -g), linked without an .eh_frame_hdr,
 * calling a loop with no CFI at all that keeps a frame pointer, for
 * unwind.sh: perf's lookup fails at the loop and its stack ends.
 */
#include <stdio.h>
#include <stdlib.h>

/* no .cfi directives: no FDE in .eh_frame or .debug_frame covers it */
__asm__(".text\n"
	".globl spin_nocfi\n"
	".type spin_nocfi, @function\n"
	"spin_nocfi:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"1:	dec %rdi\n"
	"	jnz 1b\n"
	"	pop %rbp\n"
	"	ret\n"
	".size spin_nocfi, .-spin_nocfi\n");
void spin_nocfi(long n);

__attribute__((noinline)) static void rounds_of(long rounds)
{
	long r;

	for (r = 0; r < rounds; r++)
		spin_nocfi(2000000);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 150;

	rounds_of(rounds);
	printf("%ld\n", rounds);
	return 0;
}
