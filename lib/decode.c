// SPDX-License-Identifier: MIT
/*
 * decode.c - the decoder's scratch arena.
 */
#include <stdlib.h>

#include "decode.h"

void pd_decoder_init(struct pd_decoder *d, bool swap)
{
	memset(d, 0, sizeof(*d));
	d->swap = swap;
}

void pd_decoder_fini(struct pd_decoder *d)
{
	free(d->scratch);
	memset(d, 0, sizeof(*d));
}

bool pd_decoder_begin(struct pd_decoder *d, size_t raw_len)
{
	size_t need;
	uint8_t *np;

	d->used = 0;
	d->nomem = false;
	if (raw_len > (SIZE_MAX - PD_SCRATCH_SLACK) / PD_SCRATCH_FACTOR)
		return false;
	need = raw_len * PD_SCRATCH_FACTOR + PD_SCRATCH_SLACK;
	if (need <= d->cap)
		return true;
	/*
	 * Grow to a power of two at least the need of the largest record
	 * seen; never shrink.  Records of a recording differ in size by a few
	 * bytes: grown to each new largest one, the arena was moved and its
	 * pages faulted in anew dozens of times.  Nothing in it outlives a
	 * record, so it is not copied either.
	 */
	while (need & (need - 1)) {
		if (need > SIZE_MAX / 2 + 1)
			break;
		need = (need | (need - 1)) + 1;
	}
	free(d->scratch);
	d->scratch = NULL;
	d->cap = 0;
	np = malloc(need);
	if (!np)
		return false;
	d->scratch = np;
	d->cap = need;
	return true;
}

void *pd_scratch_alloc(struct pd_decoder *d, size_t n)
{
	size_t start = PD_ALIGN(d->used, 8);

	if (start > d->cap || n > d->cap - start) {
		d->nomem = true;
		return NULL;
	}
	d->used = start + n;
	return d->scratch + start;
}
