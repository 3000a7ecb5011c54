/* SPDX-License-Identifier: MIT */
/*
 * sample_fixed.h - the start of every decode of a sample, inline (not
 * installed).
 *
 * A sample is cleared, given its attr's defaults, and its slots before
 * READ read, by a loop over pd_sample_field_table[] (pd_sample_fields.h)
 * that the compiler unrolls; its sample_id is copied from those fields.
 * The full decoder (sample.c) starts so, and the reader's
 * sample_fixed_only path (pd_sample_fixed_decode(), for tools that copy
 * records) is that and nothing more: inline in both, so that the copying
 * tools pay no call for it and the full decoder no more than its own
 * loop.
 */
#ifndef PD_LIB_SAMPLE_FIXED_H
#define PD_LIB_SAMPLE_FIXED_H

#include <string.h>

#include "internal.h"
#include "perfdata/pd_record.h"
#include "perfdata/pd_sample_fields.h"

/* the member of the given type at offset off of struct s */
#define MEMBER(s, off, type)	(*(type *)(void *)((uint8_t *)(s) + (off)))
#define CMEMBER(s, off, type)	(*(const type *)(const void *)((const uint8_t *)(s) + (off)))

/*
 * Clear every byte, 32 at a time: GCC inlines a memset() of 32 bytes as
 * two vector stores, 22 for the struct, where a memset() of all of it
 * compiles to `rep stos`, whose start-up cost was 40 % of the decode time
 * of a typical sample, and clearing field by field to 36 stores.
 */
static inline __attribute__((always_inline)) void pd_sample_clear(struct pd_sample *s)
{
	uint8_t *p = (uint8_t *)s;
	size_t i;

#pragma GCC unroll 64
	for (i = 0; i + 32 <= sizeof(*s); i += 32)
		memset(p + i, 0, 32);
	memset(p + i, 0, sizeof(*s) - i);
}

/* The slots before READ, from p, in record order: their bits tell which are there. */
static inline __attribute__((always_inline)) void
pd_sample_fixed_read(struct pd_sample *out, const uint8_t *p, uint64_t st, bool swap)
{
	const struct pd_sample_field *f;
	size_t i;

#pragma GCC unroll 64
	for (i = 0; i < PD_SFI_FIXED_END; i++) {
		f = &pd_sample_field_table[i];
		if (!pd_sample_field_has_slot(st, i))
			continue;
		/* pid and tid, cpu and cpu_res: two u32 in file order, not one swapped u64 (§11.1) */
		if (f->kind == PD_SF_U32 || f->kind == PD_SF_I32) {
			MEMBER(out, f->member, uint32_t) = pd_ld32(p, swap);
			p += 4;
		} else {
			MEMBER(out, f->member, uint64_t) = pd_ld64(p, swap);
			p += 8;
		}
	}
}

/*
 * The slots before READ, at raw + 8: `need` bytes (8 a bit of sample_type
 * before READ, the event's sample_fixed_size), which the caller counts.
 * Cleared first; returns false, with nothing read, when they do not fit
 * in len bytes (len >= 8).
 */
static inline __attribute__((always_inline)) bool
pd_sample_fixed(struct pd_sample *out, const struct pd_event *ev, const uint8_t *raw,
		size_t len, bool swap, size_t need)
{
	uint64_t st = ev->attr.sample_type;

	pd_sample_clear(out);
	out->sample_type = st;
	/*
	 * Without PERIOD perf uses attr.sample_period (the table's
	 * PD_SFF_DEFAULTED); without TIME time stays 0.
	 */
	out->period = ev->attr.sample_period;
	/* one check for them all: each is there or not by its bit alone */
	if (len - 8 < need)
		return false;
	/* the byte order decided once, not at each load */
	if (swap)
		pd_sample_fixed_read(out, raw + 8, st, true);
	else
		pd_sample_fixed_read(out, raw + 8, st, false);
	return true;
}

/*
 * A sample's own sample_id: its trailer fields' values, copied whether
 * there or not (0 then), a sid member kept by several fields (ID's, by
 * IDENTIFIER too) from the last of them that is there.  Which of them is
 * there is read from the decoded sample, not from st: with st, GCC keeps
 * IDENTIFIER's bit on the stack from the start of the decode, two
 * instructions a sample more (cachegrind, perfconv info).
 */
static inline __attribute__((always_inline)) void
pd_sample_id_from_sample(struct pd_sample_id *sid, const struct pd_sample *out, uint64_t st)
{
	const struct pd_sample_field *f, *g;
	uint64_t v;
	size_t k, j;

	sid->present = st & pd_sample_id_bits();
#pragma GCC unroll 64
	for (k = 0; k < PD_SID_STEPS; k++) {
		f = pd_sample_id_field(k);
		if (!f || pd_sample_id_repeats(k))
			continue;
		if (f->kind == PD_SF_U32 || f->kind == PD_SF_I32) {
			MEMBER(sid, f->sid_member, uint32_t) = CMEMBER(out, f->member, uint32_t);
			continue;
		}
		v = CMEMBER(out, f->member, uint64_t);
#pragma GCC unroll 64
		for (j = k + 1; j < PD_SID_STEPS; j++) {
			g = pd_sample_id_field(j);
			if (g && g->sid_member == f->sid_member)
				v = out->sample_type & g->bit ? CMEMBER(out, g->member, uint64_t) : v;
		}
		MEMBER(sid, f->sid_member, uint64_t) = v;
	}
}

/*
 * sample_fixed_only: the slots before READ, the values the full decode
 * gives them, and the sample's sample_id; the rest of the sample empty
 * and unchecked.  Returns false, reporting nothing, when the slots do not
 * fit: the caller then decodes the whole sample, which reports why.
 */
static inline __attribute__((always_inline)) bool
pd_sample_fixed_decode(struct pd_record *rec, const struct pd_event *ev)
{
	if (rec->raw_len < 8 ||
	    !pd_sample_fixed(&rec->u.sample, ev, rec->raw, rec->raw_len, rec->swapped,
			     ev->sample_fixed_size))
		return false;
	pd_sample_id_from_sample(&rec->sid, &rec->u.sample, ev->attr.sample_type);
	rec->decoded = true;
	rec->partial = true;
	return true;
}

#endif /* PD_LIB_SAMPLE_FIXED_H */
