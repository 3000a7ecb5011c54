/* SPDX-License-Identifier: MIT */
/*
 * grow.h - the one rule for the growable arrays the commands keep (string
 * tables, per-event sums, lists of mappings): the capacity doubles, the
 * size is checked for overflow, and new elements start zeroed (unless
 * the array is only ever appended to: grow_array_unzeroed()).
 */
#ifndef PERFDATA_GROW_H
#define PERFDATA_GROW_H

#include <stdbool.h>
#include <stddef.h>

bool grow_array_slow(void *arrayp, size_t *cap, size_t need, size_t size, bool zero);

/*
 * Room for at least `need` elements of `size` bytes in the array *arrayp
 * (a pointer to the array's pointer) of *cap elements.  Elements past the
 * old capacity are zeroed.  false when out of memory: the array is left
 * as it was.
 */
static inline bool grow_array(void *arrayp, size_t *cap, size_t need, size_t size)
{
	return need <= *cap || grow_array_slow(arrayp, cap, need, size, true);
}

/*
 * grow_array() for an array whose elements are each written as they are
 * appended, so that nothing past its count is ever read: the new elements
 * are not zeroed.  Zeroing the doubled capacity of a large array touches
 * pages it may never use (to-proto --quipper-compat of a 419 MB file kept
 * 300 MB more memory and spent its CPU on the page faults).
 */
static inline bool grow_array_unzeroed(void *arrayp, size_t *cap, size_t need, size_t size)
{
	return need <= *cap || grow_array_slow(arrayp, cap, need, size, false);
}

#endif /* PERFDATA_GROW_H */
