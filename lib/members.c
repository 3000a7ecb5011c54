// SPDX-License-Identifier: MIT
/*
 * members.c - the samples perf makes of one sample record (pd_members.h).
 *
 * The last value read for each sample id is kept in an open-addressing
 * table; ids come only from values whose id an event owns, so the table
 * is bounded by the reader's own cap on ids.
 */
#include <stdlib.h>
#include <string.h>

#include "perfdata/pd_members.h"
#include "perfdata/pd_consts.h"

struct id_value {
	uint64_t id, value;
	bool used;
};

struct pd_members {
	const struct pd_reader *r;
	const struct pd_select *sel;
	struct id_value *ids;
	size_t cap, nr;
	int8_t *taken;		/* by event index: 1 selected, -1 not, 0 unknown yet */
	size_t taken_cap;
};

int pd_members_new(const struct pd_reader *r, const struct pd_select *sel,
		   struct pd_members **out)
{
	struct pd_members *mb = calloc(1, sizeof(*mb));

	*out = NULL;
	if (!mb)
		return PD_STATUS_NOMEM;
	mb->r = r;
	mb->sel = pd_select_active(sel) ? sel : NULL;
	*out = mb;
	return 0;
}

void pd_members_free(struct pd_members *mb)
{
	if (!mb)
		return;
	free(mb->ids);
	free(mb->taken);
	free(mb);
}

static size_t id_home(uint64_t id, size_t cap)
{
	return (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

/* The slot of `id`, created with value 0 (perf's start) when new. */
static struct id_value *id_slot(struct pd_members *mb, uint64_t id)
{
	size_t i;

	if (2 * (mb->nr + 1) > mb->cap) {
		size_t ncap = mb->cap ? 2 * mb->cap : 64, k;
		struct id_value *n = calloc(ncap, sizeof(*n));

		if (!n)
			return NULL;
		for (i = 0; i < mb->cap; i++) {
			if (!mb->ids[i].used)
				continue;
			for (k = id_home(mb->ids[i].id, ncap); n[k].used; k = (k + 1) & (ncap - 1))
				;
			n[k] = mb->ids[i];
		}
		free(mb->ids);
		mb->ids = n;
		mb->cap = ncap;
	}
	for (i = id_home(id, mb->cap); mb->ids[i].used; i = (i + 1) & (mb->cap - 1))
		if (mb->ids[i].id == id)
			return &mb->ids[i];
	mb->ids[i].used = true;
	mb->ids[i].id = id;
	mb->ids[i].value = 0;
	mb->nr++;
	return &mb->ids[i];
}

static int event_index(const struct pd_reader *r, const struct pd_event *ev)
{
	/* the reader keeps its events in one array */
	return (int)(ev - pd_reader_event(r, 0));
}

/* Does the selection take event `ev` (index i)?  Remembered per event. */
static bool selected(struct pd_members *mb, const struct pd_event *ev, int i)
{
	if (!mb->sel)
		return true;
	if (i < 0)
		return pd_select_event_matches(mb->sel, ev->name);
	if ((size_t)i >= mb->taken_cap) {
		size_t ncap = (size_t)i + 16;
		int8_t *n = realloc(mb->taken, ncap);

		if (!n)
			return pd_select_event_matches(mb->sel, ev->name);
		memset(n + mb->taken_cap, 0, ncap - mb->taken_cap);
		mb->taken = n;
		mb->taken_cap = ncap;
	}
	if (!mb->taken[i])
		mb->taken[i] = pd_select_event_matches(mb->sel, ev->name) ? 1 : -1;
	return mb->taken[i] > 0;
}

int pd_members_next(struct pd_members *mb, const struct pd_record *rec, size_t *pos,
		    struct pd_member *out)
{
	const struct pd_sample *s = &rec->u.sample;
	const struct pd_read *rd = &s->read;
	uint64_t nr;

	if (rec->type != PD_REC_SAMPLE || !rec->decoded || !rec->event)
		return 0;
	if (!(s->sample_type & PD_SAMPLE_READ)) {
		if (*pos)
			return 0;
		*pos = 1;
		out->event = rec->event;
		out->event_index = rec->event_index;
		out->id = s->id;
		out->period = s->period;
		return 1;
	}
	nr = rd->format & PD_FORMAT_GROUP ? rd->nr : (rd->nr ? 1 : 0);
	while (rd->values && *pos < nr) {
		const struct pd_read_value *v = &rd->values[(*pos)++];
		const struct pd_event *ev = pd_reader_event_by_id(mb->r, v->id);
		struct id_value *iv;
		uint64_t period;

		if (!ev)
			continue;
		iv = id_slot(mb, v->id);
		if (!iv)
			return PD_STATUS_NOMEM;
		period = v->value - iv->value;
		iv->value = v->value;
		/* perf makes no sample of a counter that did not move */
		if (!period)
			continue;
		out->event_index = event_index(mb->r, ev);
		if (!selected(mb, ev, out->event_index))
			continue;
		out->event = ev;
		out->id = v->id;
		out->period = period;
		return 1;
	}
	return 0;
}
