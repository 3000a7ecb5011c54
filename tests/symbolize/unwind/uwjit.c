// SPDX-License-Identifier: MIT
/*
 * uwjit.c - code run from a deleted memfd mapped twice, writable below
 * and executable above (as a JIT such as Erlang's maps its code), for
 * unwind.sh.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* push %rbp; mov %rsp,%rbp; 1: dec %rdi; jnz 1b; pop %rbp; ret */
static const unsigned char code[] = {
	0x55, 0x48, 0x89, 0xe5, 0x48, 0xff, 0xcf, 0x75, 0xfb, 0x5d, 0xc3,
};

__attribute__((noinline)) static void rounds_of(void (*spin)(long), long rounds)
{
	long r;

	for (r = 0; r < rounds; r++)
		spin(2000000);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 150;
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *area, *rw, *rx;
	int fd = memfd_create("uwjit", 0);

	if (fd < 0 || ftruncate(fd, page) != 0)
		return 1;
	/* two pages of address space: the writable map first, the code above it */
	area = mmap(NULL, 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return 1;
	rw = mmap(area, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
	rx = mmap(area + page, page, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_FIXED, fd, 0);
	if (rw == MAP_FAILED || rx == MAP_FAILED)
		return 1;
	memcpy(rw, code, sizeof(code));
	rounds_of((void (*)(long))(void *)rx, rounds);
	printf("%ld\n", rounds);
	return 0;
}
