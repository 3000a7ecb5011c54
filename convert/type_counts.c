// SPDX-License-Identifier: MIT
/*
 * type_counts.c - the records of a run counted by type (type_counts.h).
 */
#include <stdlib.h>
#include <string.h>

#include "type_counts.h"
#include "../common/grow.h"

void type_counts_init(struct type_counts *tc)
{
	uint32_t i;

	memset(tc, 0, sizeof(*tc));
	for (i = 0; i < 128; i++) {
		tc->low[i].type = i;
		tc->sp[i].type = PD_REC_SP_START + i;
	}
}

struct type_count *type_counts_other(struct type_counts *tc, uint32_t type)
{
	size_t lo = 0, hi = tc->nr_other;

	/* binary search, insert when new: such types are rare */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tc->other[mid].type < type)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < tc->nr_other && tc->other[lo].type == type)
		return &tc->other[lo];
	if (tc->nr_other >= TYPE_COUNTS_MAX_OTHER)
		return &tc->overflow;
	if (!grow_array(&tc->other, &tc->cap_other, tc->nr_other + 1, sizeof(*tc->other)))
		return NULL;
	memmove(tc->other + lo + 1, tc->other + lo, (tc->nr_other - lo) * sizeof(*tc->other));
	tc->nr_other++;
	tc->other[lo] = (struct type_count){ .type = type };
	return &tc->other[lo];
}

void type_counts_each(const struct type_counts *tc,
		      void (*fn)(const struct type_count *n, void *arg), void *arg)
{
	size_t i, j = 0;

	for (i = 0; i < 128; i++)
		if (tc->low[i].records)
			fn(&tc->low[i], arg);
	/* other types between the two known ranges */
	for (; j < tc->nr_other && tc->other[j].type < PD_REC_SP_START; j++)
		fn(&tc->other[j], arg);
	for (i = 0; i < 128; i++)
		if (tc->sp[i].records)
			fn(&tc->sp[i], arg);
	for (; j < tc->nr_other; j++)
		fn(&tc->other[j], arg);
}

void type_counts_free(struct type_counts *tc)
{
	free(tc->other);
	tc->other = NULL;
	tc->nr_other = tc->cap_other = 0;
}
