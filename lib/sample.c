// SPDX-License-Identifier: MIT
/*
 * sample.c - PERF_RECORD_SAMPLE bodies, read_format values and the
 * sample_id trailer of non-sample records.
 *
 * This is the hot path of the reader: one straight pass over the fields in
 * the order of the format (docs/perf-data-format.md §7.2), no allocation (arrays
 * go to the decoder's arena, reserved per record), no indirect calls, and
 * the fixed slots before READ bounds-checked with a single comparison.
 *
 * Which sample_type bit brings which field, and in which order, is not
 * written here: the pass is a loop over the list of a sample's fields,
 * pd_sample_field_table[] (pd_sample_fields.h), which the walk and
 * to-proto follow too.  The loop is inlined and unrolled over the constant
 * table, so that each field's bit, kind and member are known where it is
 * compiled: the code is the pass written field by field, a test of the
 * field's bit and its read.  The fields whose length depends on the data
 * (read values, callchain, raw data, branch stack, registers, user stack,
 * aux data) keep their own functions, called by kind.  The pass starts
 * as the reader's sample_fixed_only path does, with the sample cleared
 * and its slots before READ read (sample_fixed.h, inline in both).  The
 * sample_id trailer of the other records is read the same way, by a loop
 * over the table's fields marked for it (pd_sample_id_field()).
 *
 * Internally the parse steps return a pd_code and leave the position of
 * the offending field in `bad`; only the entry point emits diagnostics, so
 * that the empty-branch-stack retry (below) can run a parse without
 * reporting anything.
 */
#include "perfdata/pd_sample_fields.h"
#include "decode.h"
#include "sample_fixed.h"

#define SDIAG(sink, rec, code, pos, ...)					\
	do {									\
		if (sink)							\
			pd_diag_emit(sink, code, pd_rec_off(rec, pos),		\
				     (int64_t)(rec)->index, (rec)->type, false,	\
				     __VA_ARGS__);				\
	} while (0)

struct sparse {
	const uint8_t *p;	/* record start */
	size_t len;		/* record length */
	size_t pos;		/* next field */
	size_t bad;		/* offending field on failure */
	bool swap;
	bool file_be;		/* branch flags need the bit-field remap */
};

/*
 * Without -mpopcnt __builtin_popcountll is a libgcc call; this is the
 * branch-free SWAR count, a dozen instructions inline.
 */
static inline unsigned int popcount64(uint64_t v)
{
	v = v - ((v >> 1) & 0x5555555555555555ULL);
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned int)((v * 0x0101010101010101ULL) >> 56);
}

static inline uint64_t ld64(const struct sparse *s, size_t pos)
{
	return pd_ld64(s->p + pos, s->swap);
}

static inline size_t left(const struct sparse *s)
{
	return s->len - s->pos;
}

static inline bool host_is_be(void)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return true;
#else
	return false;
#endif
}

/*
 * A big-endian writer allocates the bit-fields of perf_branch_entry from
 * the most significant bit: a field of width w at little-endian position
 * p sits at bit 64 - p - w of the value.  Move each one back (§11.3).
 */
static inline uint64_t br_flags_from_be(uint64_t v)
{
	return ((v >> 63) & 1) |
	       (((v >> 62) & 1) << 1) |
	       (((v >> 61) & 1) << 2) |
	       (((v >> 60) & 1) << 3) |
	       (((v >> 44) & 0xffff) << 4) |
	       (((v >> 40) & 0xf) << 20) |
	       (((v >> 38) & 0x3) << 24) |
	       (((v >> 34) & 0xf) << 26) |
	       (((v >> 31) & 0x7) << 30) |
	       ((v & 0x7fffffffULL) << 33);
}

bool pd_read_values_decode(struct pd_decoder *d, struct pd_cur *c, uint64_t read_format,
			   struct pd_read *out, enum pd_code *code)
{
	unsigned int n_id = !!(read_format & PD_FORMAT_ID);
	unsigned int n_lost = !!(read_format & PD_FORMAT_LOST);
	unsigned int n_en = !!(read_format & PD_FORMAT_TOTAL_TIME_ENABLED);
	unsigned int n_run = !!(read_format & PD_FORMAT_TOTAL_TIME_RUNNING);
	const uint8_t *p = c->p;
	struct pd_read_value *v;
	size_t pos = c->pos, avail = c->len - c->pos, ent, need, nr_pos;
	uint64_t nr, i;

	out->format = read_format;
	out->time_enabled = 0;
	out->time_running = 0;
	out->values = NULL;
	out->nr = 0;

	if (!(read_format & PD_FORMAT_GROUP)) {
		/* value, time_enabled, time_running, id, lost: all u64 */
		need = 8 * (1 + n_en + n_run + n_id + n_lost);
		if (avail < need) {
			/* The first slot that does not fit. */
			c->pos = pos + (avail / 8) * 8;
			*code = PD_SAMPLE_TRUNCATED;
			return false;
		}
		v = pd_scratch_alloc(d, sizeof(*v));
		if (!v) {
			*code = PD_NO_MEMORY;
			return false;
		}
		v->value = pd_ld64(p + pos, c->swap);
		pos += 8;
		if (n_en) {
			out->time_enabled = pd_ld64(p + pos, c->swap);
			pos += 8;
		}
		if (n_run) {
			out->time_running = pd_ld64(p + pos, c->swap);
			pos += 8;
		}
		v->id = 0;
		v->lost = 0;
		if (n_id) {
			v->id = pd_ld64(p + pos, c->swap);
			pos += 8;
		}
		if (n_lost) {
			v->lost = pd_ld64(p + pos, c->swap);
			pos += 8;
		}
		out->nr = 1;
		out->values = v;
		c->pos = pos;
		return true;
	}

	/* Group: nr, time_enabled, time_running, nr x {value, id, lost}. */
	need = 8 * (1 + n_en + n_run);
	if (avail < need) {
		c->pos = pos + (avail / 8) * 8;
		*code = PD_SAMPLE_TRUNCATED;
		return false;
	}
	nr_pos = pos;
	nr = pd_ld64(p + pos, c->swap);
	pos += 8;
	if (n_en) {
		out->time_enabled = pd_ld64(p + pos, c->swap);
		pos += 8;
	}
	if (n_run) {
		out->time_running = pd_ld64(p + pos, c->swap);
		pos += 8;
	}
	ent = 8 * (1 + n_id + n_lost);
	/* Division: nr * ent cannot overflow what is compared. */
	if (nr > (c->len - pos) / ent) {
		c->pos = nr_pos;
		*code = PD_SAMPLE_READ_GROUP_NR;
		return false;
	}
	if (nr) {
		v = pd_scratch_alloc(d, (size_t)nr * sizeof(*v));
		if (!v) {
			*code = PD_NO_MEMORY;
			return false;
		}
		for (i = 0; i < nr; i++) {
			v[i].value = pd_ld64(p + pos, c->swap);
			pos += 8;
			v[i].id = 0;
			v[i].lost = 0;
			if (n_id) {
				v[i].id = pd_ld64(p + pos, c->swap);
				pos += 8;
			}
			if (n_lost) {
				v[i].lost = pd_ld64(p + pos, c->swap);
				pos += 8;
			}
		}
		out->values = v;
	}
	out->nr = nr;
	c->pos = pos;
	return true;
}

/*
 * The trailer's fields are the table's with PD_SFF_SAMPLE_ID, in the
 * trailer's order (pd_sample_id_field()): a loop the compiler unrolls into
 * a test of each field's bit and its read.  perf reads the trailer
 * backwards from the record end (§7.6); it starts n bytes before the end,
 * where this reads it forwards.  IDENTIFIER, last, holds the same id as
 * ID and is the one kept, as perf does.
 */
bool pd_trailer_decode(const uint8_t *raw, size_t len, bool swap, const struct pd_event *ev,
		       struct pd_sample_id *sid)
{
	uint64_t st = ev->attr.sample_type & pd_sample_id_bits();
	size_t n = 8 * (size_t)popcount64(st);
	const struct pd_sample_field *f;
	size_t pos, k;

	memset(sid, 0, sizeof(*sid));
	/* The trailer never overlaps the 8-byte header. */
	if (len < 8 || len - 8 < n)
		return false;
	pos = len - n;
#pragma GCC unroll 64
	for (k = 0; k < PD_SID_STEPS; k++) {
		f = pd_sample_id_field(k);
		if (!f || !(st & f->bit))
			continue;
		/* pid and tid, cpu and cpu_res: two u32 in file order (§11.1) */
		if (f->kind == PD_SF_U32 || f->kind == PD_SF_I32) {
			MEMBER(sid, f->sid_member, uint32_t) = pd_ld32(raw + pos, swap);
			pos += 4;
		} else {
			MEMBER(sid, f->sid_member, uint64_t) = pd_ld64(raw + pos, swap);
			pos += 8;
		}
	}
	sid->present = st;
	return true;
}

static enum pd_code parse_regs(struct pd_decoder *d, struct sparse *s, uint64_t mask,
			       struct pd_regs *r)
{
	uint64_t abi, *regs;
	unsigned int n;

	r->mask = mask;
	r->abi = 0;
	r->nr = 0;
	r->regs = NULL;
	if (left(s) < 8) {
		s->bad = s->pos;
		return PD_SAMPLE_TRUNCATED;
	}
	abi = ld64(s, s->pos);
	if (abi > 2) {
		s->bad = s->pos;
		return PD_SAMPLE_BAD_REGS_ABI;
	}
	s->pos += 8;
	r->abi = abi;
	if (!abi)
		return PD_OK;
	n = popcount64(mask);
	if (left(s) / 8 < n) {
		s->bad = s->pos;
		return PD_SAMPLE_TRUNCATED;
	}
	if (n) {
		regs = pd_scratch_alloc(d, (size_t)n * 8);
		if (!regs)
			return PD_NO_MEMORY;
		pd_copy_u64(regs, s->p + s->pos, n, s->swap);
		s->pos += (size_t)n * 8;
		r->regs = regs;
	}
	r->nr = n;
	return PD_OK;
}

/* A user stack copy: size, the bytes, and dyn_size when size is not 0 (§7.2). */
static inline __attribute__((always_inline)) enum pd_code
parse_stack(struct sparse *s, struct pd_sample *out)
{
	uint64_t sz;

	if (left(s) < 8) {
		s->bad = s->pos;
		return PD_SAMPLE_TRUNCATED;
	}
	sz = ld64(s, s->pos);
	out->stack_size = sz;
	out->stack_data = NULL;
	out->stack_dyn_size = 0;
	if (sz) {
		if (sz > left(s) - 8) {
			s->bad = s->pos;
			return PD_SAMPLE_STACK_SIZE;
		}
		s->pos += 8;
		/* Raw memory of the task: never swapped. */
		out->stack_data = s->p + s->pos;
		s->pos += (size_t)sz;
		if (left(s) < 8) {
			s->bad = s->pos;
			return PD_SAMPLE_TRUNCATED;
		}
		out->stack_dyn_size = ld64(s, s->pos);
		if (out->stack_dyn_size > sz) {
			s->bad = s->pos;
			return PD_SAMPLE_STACK_DYN_SIZE;
		}
	}
	s->pos += 8;
	return PD_OK;
}

/* AUX data: a u64 size, then the bytes. */
static inline enum pd_code parse_aux(struct sparse *s, struct pd_sample *out)
{
	uint64_t sz;

	if (left(s) < 8) {
		s->bad = s->pos;
		return PD_SAMPLE_TRUNCATED;
	}
	sz = ld64(s, s->pos);
	if (sz > left(s) - 8) {
		s->bad = s->pos;
		return PD_SAMPLE_AUX_SIZE;
	}
	s->pos += 8;
	out->aux_size = sz;
	out->aux_data = sz ? s->p + s->pos : NULL;
	s->pos += (size_t)sz;
	return PD_OK;
}

static inline __attribute__((always_inline)) enum pd_code
parse_read(struct pd_decoder *d, struct sparse *s, const struct pd_event *ev,
	   struct pd_read *out)
{
	struct pd_cur c;
	enum pd_code code;

	pd_cur_init(&c, s->p, s->len, 0, s->swap);
	c.pos = s->pos;
	if (!pd_read_values_decode(d, &c, ev->attr.read_format, out, &code)) {
		s->bad = c.pos;
		return code;
	}
	s->pos = c.pos;
	return PD_OK;
}

/* The callchain: nr, then nr u64 ips. */
static inline __attribute__((always_inline)) enum pd_code
parse_callchain(struct pd_decoder *d, struct sparse *s, struct pd_sample *out)
{
	uint64_t nr, *ips;

	if (left(s) < 8) {
		s->bad = s->pos;
		return PD_SAMPLE_TRUNCATED;
	}
	nr = ld64(s, s->pos);
	if (nr > (left(s) - 8) / 8) {
		s->bad = s->pos;
		return PD_SAMPLE_CALLCHAIN_TOO_LONG;
	}
	s->pos += 8;
	out->callchain_nr = nr;
	if (nr && !s->swap && !((uintptr_t)(s->p + s->pos) & 7)) {
		/*
		 * Host order and aligned: the record's own bytes are the
		 * array (they live as long as the record), no copy.
		 */
		out->callchain = (const uint64_t *)(const void *)(s->p + s->pos);
		s->pos += (size_t)nr * 8;
	} else if (nr) {
		ips = pd_scratch_alloc(d, (size_t)nr * 8);
		if (!ips)
			return PD_NO_MEMORY;
		pd_copy_u64(ips, s->p + s->pos, (size_t)nr, s->swap);
		s->pos += (size_t)nr * 8;
		out->callchain = ips;
	}
	return PD_OK;
}

/* RAW: a u32 size, then the bytes. */
static inline __attribute__((always_inline)) enum pd_code
parse_raw(struct sparse *s, struct pd_sample *out)
{
	uint32_t rsz;

	if (left(s) < 4) {
		s->bad = s->pos;
		return PD_SAMPLE_TRUNCATED;
	}
	rsz = pd_ld32(s->p + s->pos, s->swap);
	if (rsz > left(s) - 4) {
		s->bad = s->pos;
		return PD_SAMPLE_RAW_SIZE;
	}
	out->raw_size = rsz;
	out->raw_data = rsz ? s->p + s->pos + 4 : NULL;
	s->pos += 4 + (size_t)rsz;
	return PD_OK;
}

/*
 * Field i of pd_sample_field_table[], at s->pos.  Inlined into the loop of
 * parse_fields() over the constant table, which the compiler unrolls: i,
 * and with it the field's bit, kind and member, is a constant here, and
 * every test on them below is decided when compiling.
 */
static inline __attribute__((always_inline)) enum pd_code
parse_field(struct pd_decoder *d, struct sparse *s, const struct pd_event *ev,
	    struct pd_sample *out, uint64_t st, size_t i)
{
	const struct pd_sample_field *f = &pd_sample_field_table[i];
	uint64_t v;

	/*
	 * Not there, or read with another field: a list's count
	 * (callchain_nr, raw_size, aux_size) with the list, WEIGHT_STRUCT
	 * with WEIGHT when both are there.
	 */
	if (!pd_sample_field_has_slot(st, i))
		return PD_OK;
	switch (f->kind) {
	case PD_SF_U64:
	case PD_SF_HEX:
	case PD_SF_WEIGHT_STRUCT:
		/* checked too where perf reads unchecked (PHYS_ADDR .. CODE_PAGE_SIZE) */
		if (left(s) < 8) {
			s->bad = s->pos;
			return PD_SAMPLE_TRUNCATED;
		}
		v = ld64(s, s->pos);
		MEMBER(out, f->member, uint64_t) = v;
		s->pos += 8;
		return PD_OK;
	case PD_SF_U32:
	case PD_SF_I32:
		/* pid and tid, cpu and cpu_res: two u32 in file order, not one swapped u64 (§11.1) */
		if (left(s) < 4) {
			s->bad = s->pos;
			return PD_SAMPLE_TRUNCATED;
		}
		MEMBER(out, f->member, uint32_t) = pd_ld32(s->p + s->pos, s->swap);
		s->pos += 4;
		return PD_OK;
	case PD_SF_READ:
		return parse_read(d, s, ev, &MEMBER(out, f->member, struct pd_read));
	case PD_SF_CALLCHAIN:
		return parse_callchain(d, s, out);
	case PD_SF_RAW:
		return parse_raw(s, out);
	case PD_SF_REGS:
		return parse_regs(d, s, f->bit == PD_SAMPLE_REGS_USER ? ev->attr.sample_regs_user :
					ev->attr.sample_regs_intr,
				  &MEMBER(out, f->member, struct pd_regs));
	case PD_SF_STACK:
		return parse_stack(s, out);
	case PD_SF_BYTES:
		/* aux, the one field of this kind */
		return parse_aux(s, out);
	default:
		/* PD_SF_BRANCH_STACK: parse_branch_and_tail(), outside the loop */
		return PD_OK;
	}
}

/*
 * Fields from..to-1 of the table, in record order: a loop the compiler
 * unrolls into the field-by-field pass (from and to are constants).
 */
static inline __attribute__((always_inline)) enum pd_code
parse_fields(struct pd_decoder *d, struct sparse *s, const struct pd_event *ev,
	     struct pd_sample *out, uint64_t st, size_t from, size_t to)
{
	enum pd_code code;
	size_t i;

#pragma GCC unroll 64
	for (i = from; i < to; i++) {
		code = parse_field(d, s, ev, out, st, i);
		if (code)
			return code;
	}
	return PD_OK;
}

/* Everything after the branch stack (§7.2 rows 14..24). */
static enum pd_code parse_tail(struct pd_decoder *d, struct sparse *s, const struct pd_event *ev,
			       struct pd_sample *out)
{
	return parse_fields(d, s, ev, out, ev->attr.sample_type, PD_SFI_BRANCH_STACK + 1,
			    PD_SFI_NR);
}

/* Branch entries and counters after nr (and hw_idx) were consumed. */
static enum pd_code parse_branches(struct pd_decoder *d, struct sparse *s, uint64_t nr,
				   size_t nr_pos, bool counters, struct pd_sample *out)
{
	struct pd_branch_entry *br;
	const uint8_t *src;
	uint64_t *cnt;
	size_t per = counters ? 32 : 24, i;

	out->branch_nr = nr;
	out->branches = NULL;
	out->branch_counters = NULL;
	if (nr > left(s) / per) {
		s->bad = nr_pos;
		return PD_SAMPLE_BRANCH_TOO_LONG;
	}
	if (!nr)
		return PD_OK;
	br = pd_scratch_alloc(d, (size_t)nr * sizeof(*br));
	if (!br)
		return PD_NO_MEMORY;
	src = s->p + s->pos;
	if (!s->swap) {
		/* pd_branch_entry is the UAPI layout: 3 x u64, no padding. */
		memcpy(br, src, (size_t)nr * 24);
		if (s->file_be)
			for (i = 0; i < nr; i++)
				br[i].flags = br_flags_from_be(br[i].flags);
	} else {
		for (i = 0; i < nr; i++, src += 24) {
			br[i].from = pd_ld64(src, true);
			br[i].to = pd_ld64(src + 8, true);
			br[i].flags = pd_ld64(src + 16, true);
			if (s->file_be)
				br[i].flags = br_flags_from_be(br[i].flags);
		}
	}
	s->pos += (size_t)nr * 24;
	out->branches = br;
	if (counters) {
		cnt = pd_scratch_alloc(d, (size_t)nr * 8);
		if (!cnt)
			return PD_NO_MEMORY;
		pd_copy_u64(cnt, s->p + s->pos, (size_t)nr, s->swap);
		s->pos += (size_t)nr * 8;
		out->branch_counters = cnt;
	}
	return PD_OK;
}

_Static_assert(sizeof(struct pd_branch_entry) == 24, "branch entry is 3 x u64");

/*
 * The branch stack and everything after it.  With HW_INDEX the kernel
 * writes only nr = 0 (no hw_idx) for a sample without branch data while
 * perf always expects hw_idx (§7.4): when nr is 0 we accept whichever of
 * the two readings consumes the sample exactly, preferring hw_idx.
 */
static enum pd_code parse_branch_and_tail(struct pd_decoder *d, struct sparse *s,
					  const struct pd_event *ev, struct pd_sample *out)
{
	uint64_t bst = ev->attr.branch_sample_type, nr;
	bool counters = bst & PD_BRANCH_COUNTERS;
	size_t nr_pos, mark, after_nr;
	enum pd_code code;

	if (!(ev->attr.sample_type & PD_SAMPLE_BRANCH_STACK))
		return parse_tail(d, s, ev, out);
	if (left(s) < 8) {
		s->bad = s->pos;
		return PD_SAMPLE_TRUNCATED;
	}
	nr_pos = s->pos;
	nr = ld64(s, s->pos);
	s->pos += 8;
	if (!(bst & PD_BRANCH_HW_INDEX)) {
		code = parse_branches(d, s, nr, nr_pos, counters, out);
		return code ? code : parse_tail(d, s, ev, out);
	}
	after_nr = s->pos;
	mark = d->used;
	if (nr == 0) {
		/* Reading 1: hw_idx present. */
		if (left(s) >= 8) {
			s->pos += 8;
			code = parse_tail(d, s, ev, out);
			if (code == PD_OK && s->pos == s->len) {
				out->branch_has_hw_idx = true;
				out->branch_hw_idx = ld64(s, after_nr);
				return PD_OK;
			}
			if (code == PD_NO_MEMORY)
				return code;
		}
		/* Reading 2: the kernel's bare nr = 0. */
		d->used = mark;
		s->pos = after_nr;
		code = parse_tail(d, s, ev, out);
		if (code == PD_OK && s->pos == s->len) {
			out->branch_has_hw_idx = false;
			out->branch_hw_idx = 0;
			return PD_OK;
		}
		if (code == PD_NO_MEMORY)
			return code;
		/* Neither is exact: report against perf's reading. */
		d->used = mark;
		s->pos = after_nr;
	}
	if (left(s) < 8) {
		s->bad = s->pos;
		return PD_SAMPLE_TRUNCATED;
	}
	out->branch_has_hw_idx = true;
	out->branch_hw_idx = ld64(s, s->pos);
	s->pos += 8;
	code = parse_branches(d, s, nr, nr_pos, counters, out);
	return code ? code : parse_tail(d, s, ev, out);
}

static inline void sparse_init(struct sparse *s, const struct pd_record *rec)
{
	s->p = rec->raw;
	s->len = rec->raw_len;
	s->pos = 8;
	s->bad = 8;
	s->swap = rec->swapped;
	s->file_be = rec->swapped != host_is_be();
}

static int sample_body(struct pd_decoder *d, struct pd_record *rec, const struct pd_event *ev,
		       struct pd_diag_sink *sink)
{
	struct pd_sample *out = &rec->u.sample;
	struct sparse s;
	enum pd_code code;
	uint64_t st;
	size_t need;

	rec->decoded = false;
	rec->has_trailer = false;
	memset(&rec->sid, 0, sizeof(rec->sid));
	/* No attr, no layout: the reader reports the missing attr. */
	if (!ev)
		return PD_STATUS_MALFORMED;
	if (rec->raw_len < 8) {
		SDIAG(sink, rec, PD_REC_BELOW_MIN, 0, "size=%zu min=8", rec->raw_len);
		return PD_STATUS_MALFORMED;
	}

	st = ev->attr.sample_type;
	sparse_init(&s, rec);
	need = 8 * (size_t)popcount64(st & pd_sample_field_bits(0, PD_SFI_FIXED_END));
	if (!pd_sample_fixed(out, ev, s.p, s.len, s.swap, need)) {
		/* the first slot that does not fit */
		s.bad = s.pos + ((s.len - s.pos) / 8) * 8;
		code = PD_SAMPLE_TRUNCATED;
		goto fail;
	}
	s.pos += need;
	/* the rest of the fields before the branch stack */
	code = parse_fields(d, &s, ev, out, st, PD_SFI_FIXED_END, PD_SFI_BRANCH_STACK);
	if (code)
		goto fail;
	/*
	 * The branch stack and everything after it, where most samples (a
	 * callchain and the fixed slots) have nothing: outside the loop, as
	 * which reading of the branch stack is right may depend on the rest.
	 */
	if (st & pd_sample_field_bits(PD_SFI_BRANCH_STACK, PD_SFI_NR)) {
		code = parse_branch_and_tail(d, &s, ev, out);
		if (code)
			goto fail;
	}

	if (s.pos != s.len)
		SDIAG(sink, rec, PD_SAMPLE_TRAILING_BYTES, s.pos, "bytes=%zu", s.len - s.pos);

	pd_sample_id_from_sample(&rec->sid, out, st);
	rec->decoded = true;
	return 0;

fail:
	if (code == PD_NO_MEMORY) {
		SDIAG(sink, rec, PD_NO_MEMORY, 0, "size=%zu", rec->raw_len);
		return PD_STATUS_NOMEM;
	}
	SDIAG(sink, rec, code, s.bad, "sample_type=%#llx size=%zu",
	      (unsigned long long)st, rec->raw_len);
	return PD_STATUS_MALFORMED;
}

int pd_sample_decode(struct pd_decoder *d, struct pd_record *rec, const struct pd_event *ev,
		     struct pd_diag_sink *sink)
{
	if (!pd_decoder_begin(d, rec->raw_len)) {
		SDIAG(sink, rec, PD_NO_MEMORY, 0, "size=%zu", rec->raw_len);
		rec->decoded = false;
		return PD_STATUS_NOMEM;
	}
	return sample_body(d, rec, ev, sink);
}

bool pd_sample_fits_attr_in(struct pd_decoder *d, const struct pd_record *rec,
			    const struct pd_attr *attr)
{
	struct pd_diag_sink sink;
	struct pd_event ev;
	struct pd_record copy;

	if (rec->type != PD_REC_SAMPLE || !rec->raw)
		return false;
	memset(&sink, 0, sizeof(sink));
	memset(&ev, 0, sizeof(ev));
	ev.attr = *attr;
	copy = *rec;
	d->swap = rec->swapped;
	return pd_sample_decode(d, &copy, &ev, &sink) == 0 && !sink.counts[PD_SEV_ERROR] &&
	       !sink.counts[PD_SEV_WARNING];
}

bool pd_sample_fits_attr(const struct pd_record *rec, const struct pd_attr *attr)
{
	struct pd_decoder d;
	bool fits;

	pd_decoder_init(&d, rec->swapped);
	fits = pd_sample_fits_attr_in(&d, rec, attr);
	pd_decoder_fini(&d);
	return fits;
}
