// SPDX-License-Identifier: MIT
/*
 * diag_recorder.c - the diagnostics a test saw (diag_recorder.h).
 */
#include <stdio.h>
#include <string.h>

#include "diag_recorder.h"

void diag_recorder_fn(const struct pd_diag *d, void *arg)
{
	struct diag_recorder *r = arg;

	if (r->n < DIAG_RECORDER_KEPT) {
		struct diag_seen *s = &r->seen[r->n];

		s->code = d->code;
		s->severity = d->severity;
		s->offset = d->offset;
		s->record_index = d->record_index;
		s->record_type = d->record_type;
		snprintf(s->detail, sizeof(s->detail), "%s", d->detail);
	}
	r->n++;
}

void diag_recorder_reset(struct diag_recorder *r)
{
	memset(r, 0, sizeof(*r));
	r->sink.fn = diag_recorder_fn;
	r->sink.arg = r;
}

int diag_recorder_find(const struct diag_recorder *r, enum pd_code code)
{
	unsigned int i, kept = r->n < DIAG_RECORDER_KEPT ? r->n : DIAG_RECORDER_KEPT;

	for (i = 0; i < kept; i++)
		if (r->seen[i].code == code)
			return (int)i;
	return -1;
}
