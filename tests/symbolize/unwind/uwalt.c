// SPDX-License-Identifier: MIT
/*
 * uwalt.c - a signal handler on an alternate stack interrupting a loop
 * that keeps a frame pointer but has no CFI, for unwind.sh.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

/* no .cfi directives: no FDE covers it, where the rest of the file has its index */
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

static volatile long hits;

__attribute__((noinline)) static void on_alarm(int sig)
{
	volatile long s = 0;
	long i;

	for (i = 0; i < 300000; i++)
		s += i;
	hits += (s & 1) + (sig == SIGALRM);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 300, r;
	stack_t ss = { .ss_sp = malloc(1 << 16), .ss_size = 1 << 16 };
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	struct sigaction sa;

	if (!ss.ss_sp || sigaltstack(&ss, NULL) != 0)
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_ONSTACK | SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	for (r = 0; r < rounds; r++)
		spin_nocfi(1000000);
	printf("%ld\n", hits);
	return 0;
}
