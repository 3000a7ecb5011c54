// SPDX-License-Identifier: MIT
/* symlib.c - shared library of the symbolization test programs. */
#include <string.h>

unsigned long symlib_mix(const char *s, unsigned long n);

/* string calls go through the library's own PLT */
unsigned long symlib_mix(const char *s, unsigned long n)
{
	unsigned long h = n;
	size_t i, len = strlen(s);

	for (i = 0; i < 2000; i++)
		h = h * 31 + (unsigned char)s[i % len] + strlen(s + (i % len));
	return h;
}
