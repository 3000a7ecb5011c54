// SPDX-License-Identifier: MIT
/*
 * uwrbx.c - a frame whose CFA is kept in rbx (as ld.so's
 * _dl_runtime_resolve keeps its own) calling a loop whose CFI says
 * nothing of rbx (as _dl_fixup's before it saves it), for unwind.sh.
 */
#include <stdio.h>
#include <stdlib.h>

/*
 * rbx_frame realigns its stack and keeps the CFA in rbx; spin_leaf
 * leaves rbx alone, so its caller's rbx is still in the register: the
 * CFA of rbx_frame is the sampled rbx + 16.
 */
__asm__(".text\n"
	".globl rbx_frame\n"
	".type rbx_frame, @function\n"
	"rbx_frame:\n"
	"	.cfi_startproc\n"
	"	push %rbx\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	.cfi_rel_offset %rbx, 0\n"
	"	mov %rsp, %rbx\n"
	"	.cfi_def_cfa_register %rbx\n"
	"	and $-64, %rsp\n"
	"	sub $64, %rsp\n"
	"	call spin_leaf\n"
	"	mov %rbx, %rsp\n"
	"	.cfi_def_cfa_register %rsp\n"
	"	pop %rbx\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	.cfi_restore %rbx\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size rbx_frame, .-rbx_frame\n"
	".globl spin_leaf\n"
	".type spin_leaf, @function\n"
	"spin_leaf:\n"
	"	.cfi_startproc\n"
	"1:	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size spin_leaf, .-spin_leaf\n");
void rbx_frame(long n);

__attribute__((noinline)) static void rounds_of(long rounds)
{
	long r;

	for (r = 0; r < rounds; r++)
		rbx_frame(2000000);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 150;

	rounds_of(rounds);
	printf("%ld\n", rounds);
	return 0;
}
