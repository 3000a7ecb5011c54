// SPDX-License-Identifier: MIT
/*
 * grow.c - growable arrays (grow.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

#define GROW_MIN	16

bool grow_array_slow(void *arrayp, size_t *cap, size_t need, size_t size, bool zero)
{
	void **p = arrayp;
	size_t n = *cap ? *cap : GROW_MIN;
	void *v;

	while (n < need) {
		if (n > SIZE_MAX / 2)
			return false;
		n *= 2;
	}
	if (!size || n > SIZE_MAX / size)
		return false;
	v = realloc(*p, n * size);
	if (!v)
		return false;
	if (zero)
		memset((char *)v + *cap * size, 0, (n - *cap) * size);
	*p = v;
	*cap = n;
	return true;
}
