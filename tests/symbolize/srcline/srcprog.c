/*
 * srcprog.c - the program of tests/symbolize/srcline.sh: time in libc (qsort,
 * random, memchr, strlen), in a library whose debug info is separate
 * (srclib.c) and in its own inlined code.
 *
 * usage: srcprog [rounds]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned int srclib_hash(const char *s, unsigned int n, unsigned int rounds);

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static inline __attribute__((always_inline)) unsigned int scan(const char *buf, size_t n)
{
	unsigned int h = 0;
	size_t i;

	for (i = 0; i < 2000; i++)
		h += (unsigned int)strlen(buf + (i & 1023)) + (memchr(buf, 0, n - 1) != NULL);
	return h;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20, n = 100000, i, r;
	int *v = malloc(n * sizeof(*v));
	static char buf[4096];
	unsigned int h = 0;

	if (!v)
		return 1;
	for (r = 0; r < rounds; r++) {
		srandom((unsigned int)r);
		for (i = 0; i < n; i++)
			v[i] = (int)random();
		qsort(v, n, sizeof(*v), cmp_int);
		memset(buf, 'a' + r % 26, sizeof(buf) - 1);
		h += srclib_hash(buf, sizeof(buf), 600);
		h += scan(buf, sizeof(buf));
	}
	printf("%u\n", h);
	free(v);
	return 0;
}
