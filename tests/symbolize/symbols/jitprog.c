// SPDX-License-Identifier: MIT
/*
 * jitprog.c - a minimal "JIT" for tests/symbolize/symbols.sh: copies a
 * counting loop into executable anonymous memory, describes it in
 * /tmp/perf-PID.map the way JIT runtimes do, and runs it.  Prints its pid so
 * that the test can remove the map file afterwards.  x86-64 only; elsewhere
 * it does nothing.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
#if defined(__x86_64__)
	/* mov %rdi,%rax; 1: dec %rdi; jnz 1b; ret */
	static const unsigned char code[] = { 0x48, 0x89, 0xf8, 0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3 };
	unsigned long (*fn)(unsigned long);
	char path[64];
	unsigned char *mem;
	volatile unsigned long sink = 0;
	struct timespec t0, t1;
	FILE *f;

	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	memcpy(mem + 64, code, sizeof(code));
	if (mprotect(mem, 4096, PROT_READ | PROT_EXEC))
		return 1;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx %zx jitted_count_loop\n", (unsigned long)(mem + 64), sizeof(code));
	fclose(f);
	fn = (unsigned long (*)(unsigned long))(void *)(mem + 64);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		sink += fn(10000000);
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while ((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) < 400000000L);
#endif
	printf("%d\n", (int)getpid());
	return 0;
}
