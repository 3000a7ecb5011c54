/* SPDX-License-Identifier: MIT */
/*
 * grow.h - the one rule for the growable arrays the commands keep (string
 * tables, per-event sums, lists of mappings): the capacity doubles, the
 * size is checked for overflow, and new elements start zeroed.
 */
#ifndef PERFDATA_GROW_H
#define PERFDATA_GROW_H

#include <stdbool.h>
#include <stddef.h>

bool grow_array_slow(void *arrayp, size_t *cap, size_t need, size_t size);

/*
 * Room for at least `need` elements of `size` bytes in the array *arrayp
 * (a pointer to the array's pointer) of *cap elements.  Elements past the
 * old capacity are zeroed.  false when out of memory: the array is left
 * as it was.
 */
static inline bool grow_array(void *arrayp, size_t *cap, size_t need, size_t size)
{
	return need <= *cap || grow_array_slow(arrayp, cap, need, size);
}

#endif /* PERFDATA_GROW_H */
