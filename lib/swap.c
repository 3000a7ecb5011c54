// SPDX-License-Identifier: MIT
/*
 * swap.c - records and feature payloads of the opposite byte order to
 * host order (layouts: docs/perf-data-format.md §5, §6, §7, §11).
 *
 * The fixed fields of a record are reversed by their widths as
 * layout_tables.h describes them; what follows them is converted here by
 * type, because its layout depends on the data: counts, misc bits, update
 * types, versions, and for SAMPLE the event's sample_type and read_format,
 * its fields in the order of pd_sample_field_table[] (pd_sample_fields.h).
 */
#include <inttypes.h>
#include <string.h>

#include "perfdata/pd_sample_fields.h"
#include "layout.h"
#include "swap.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BE 1
#else
#define HOST_BE 0
#endif

/* ---- in-place reversal; callers check bounds first ---- */

static void bs16(uint8_t *p)
{
	pd_st16(p, pd_ld16(p, true));
}

static void bs32(uint8_t *p)
{
	pd_st32(p, pd_ld32(p, true));
}

static void bs64(uint8_t *p)
{
	pd_st64(p, pd_ld64(p, true));
}

/*
 * A cursor over the copy being converted.  Every step checks that the
 * field lies inside [pos, end); a failed step sets `bad` and leaves the
 * rest untouched, so a malformed payload never makes us write outside it.
 */
struct sw {
	uint8_t *p;
	size_t end;
	size_t pos;
	bool bad;
};

static bool sw_has(struct sw *s, size_t n)
{
	if (s->bad || s->end - s->pos < n) {
		s->bad = true;
		return false;
	}
	return true;
}

static uint16_t sw_u16(struct sw *s)
{
	uint16_t v;

	if (!sw_has(s, 2))
		return 0;
	bs16(s->p + s->pos);
	v = pd_ld16(s->p + s->pos, false);
	s->pos += 2;
	return v;
}

static uint32_t sw_u32(struct sw *s)
{
	uint32_t v;

	if (!sw_has(s, 4))
		return 0;
	bs32(s->p + s->pos);
	v = pd_ld32(s->p + s->pos, false);
	s->pos += 4;
	return v;
}

static uint64_t sw_u64(struct sw *s)
{
	uint64_t v;

	if (!sw_has(s, 8))
		return 0;
	bs64(s->p + s->pos);
	v = pd_ld64(s->p + s->pos, false);
	s->pos += 8;
	return v;
}

static void sw_skip(struct sw *s, uint64_t n)
{
	if (s->bad || n > s->end - s->pos) {
		s->bad = true;
		return;
	}
	s->pos += (size_t)n;
}

/* n consecutive u64 values */
static void sw_u64s(struct sw *s, uint64_t n)
{
	uint64_t i;

	if (s->bad || n > (s->end - s->pos) / 8) {
		s->bad = true;
		return;
	}
	for (i = 0; i < n; i++)
		sw_u64(s);
}

static void sw_u32s(struct sw *s, uint64_t n)
{
	uint64_t i;

	if (s->bad || n > (s->end - s->pos) / 4) {
		s->bad = true;
		return;
	}
	for (i = 0; i < n; i++)
		sw_u32(s);
}

static void sw_u16s(struct sw *s, uint64_t n)
{
	uint64_t i;

	if (s->bad || n > (s->end - s->pos) / 2) {
		s->bad = true;
		return;
	}
	for (i = 0; i < n; i++)
		sw_u16(s);
}

/* The rest of the window as u64 values; it must be a whole number of them. */
static void sw_u64_rest(struct sw *s)
{
	if (!s->bad && (s->end - s->pos) % 8)
		s->bad = true;
	sw_u64s(s, (s->end - s->pos) / 8);
}

/* perf_header_string: u32 length, then that many bytes. */
static void sw_str(struct sw *s)
{
	sw_skip(s, sw_u32(s));
}

static void sw_str_list(struct sw *s)
{
	uint32_t i, nr = sw_u32(s);

	for (i = 0; i < nr && !s->bad; i++)
		sw_str(s);
}

static void sw_init(struct sw *s, uint8_t *p, size_t pos, size_t end)
{
	s->p = p;
	s->pos = pos;
	s->end = end;
	s->bad = pos > end;
}

/* ---- branch entry flags (§11.3) ---- */

/* sub-field widths from the least significant bit in the UAPI allocation */
static const unsigned int br_widths[] = { 1, 1, 1, 1, 16, 4, 2, 4, 3, 31 };

uint64_t pd_br_flags_be_to_le(uint64_t v)
{
	uint64_t out = 0;
	unsigned int i, lo = 0;

	for (i = 0; i < sizeof(br_widths) / sizeof(br_widths[0]); i++) {
		unsigned int w = br_widths[i];
		uint64_t mask = w == 64 ? ~0ULL : (1ULL << w) - 1;

		out |= ((v >> (64 - lo - w)) & mask) << lo;
		lo += w;
	}
	return out;
}

uint64_t pd_br_flags_le_to_be(uint64_t v)
{
	uint64_t out = 0;
	unsigned int i, lo = 0;

	for (i = 0; i < sizeof(br_widths) / sizeof(br_widths[0]); i++) {
		unsigned int w = br_widths[i];
		uint64_t mask = (1ULL << w) - 1;

		out |= ((v >> lo) & mask) << (64 - lo - w);
		lo += w;
	}
	return out;
}

/* ---- records ---- */

/* The trailer's fields, in its order (pd_sample_fields.h): the u32 pairs as two u32. */
static void sw_trailer(struct sw *s, uint64_t st)
{
	const struct pd_sample_field *f;
	size_t k;

#pragma GCC unroll 64
	for (k = 0; k < PD_SID_STEPS; k++) {
		f = pd_sample_id_field(k);
		if (!f || !(st & f->bit))
			continue;
		if (f->kind == PD_SF_U32 || f->kind == PD_SF_I32)
			sw_u32(s);
		else
			sw_u64(s);
	}
}

static void sw_read_values(struct sw *s, uint64_t rf)
{
	uint64_t per = 1 + !!(rf & PD_FORMAT_ID) + !!(rf & PD_FORMAT_LOST);
	uint64_t nr;

	if (rf & PD_FORMAT_GROUP) {
		nr = sw_u64(s);
		if (rf & PD_FORMAT_TOTAL_TIME_ENABLED)
			sw_u64(s);
		if (rf & PD_FORMAT_TOTAL_TIME_RUNNING)
			sw_u64(s);
		if (nr > (s->end - s->pos) / 8 / per) {
			s->bad = true;
			return;
		}
		sw_u64s(s, nr * per);
	} else {
		sw_u64s(s, 1 + !!(rf & PD_FORMAT_TOTAL_TIME_ENABLED) +
			   !!(rf & PD_FORMAT_TOTAL_TIME_RUNNING) + per - 1);
	}
}

static void sw_regs(struct sw *s, uint64_t mask)
{
	if (sw_u64(s))
		sw_u64s(s, (uint64_t)__builtin_popcountll(mask));
}

/* nr, hw_idx with HW_INDEX, the entries, the counters with COUNTERS (§7.4) */
static void sw_branch_stack(struct sw *s, const struct pd_attr *a, bool file_be)
{
	uint64_t nr, i;

	nr = sw_u64(s);
	if (a->branch_sample_type & PD_BRANCH_HW_INDEX)
		sw_u64(s);
	if (s->bad || nr > (s->end - s->pos) / 24) {
		s->bad = true;
		return;
	}
	for (i = 0; i < nr; i++) {
		uint8_t *fp;

		sw_u64(s);
		sw_u64(s);
		fp = s->p + s->pos;
		sw_u64(s);
		/* bit-fields: allocated from the other end in the other byte order (§11.3) */
		pd_st64(fp, file_be ? pd_br_flags_be_to_le(pd_ld64(fp, false)) :
				      pd_br_flags_le_to_be(pd_ld64(fp, false)));
	}
	if (a->branch_sample_type & PD_BRANCH_COUNTERS)
		sw_u64s(s, nr);
}

/* size, then when it is not 0 the bytes and dyn_size */
static void sw_stack_user(struct sw *s)
{
	uint64_t size = sw_u64(s);

	if (size) {
		sw_skip(s, size);	/* memory bytes, never swapped */
		sw_u64(s);
	}
}

/*
 * Field i of pd_sample_field_table[], at s->pos.  Inlined into the loop of
 * sw_sample() over the constant table, which the compiler unrolls: each
 * test on the field's bit and kind is decided when compiling, as in the
 * decoder (sample.c).  A failed step leaves s->bad set, and every later
 * step does nothing.
 */
static inline __attribute__((always_inline)) void
sw_sample_field(struct sw *s, const struct pd_attr *a, uint64_t st, bool file_be, size_t i)
{
	const struct pd_sample_field *f = &pd_sample_field_table[i];

	/* a list's count is swapped with the list, WEIGHT_STRUCT's slot with WEIGHT's */
	if (!pd_sample_field_has_slot(st, i))
		return;
	switch (f->kind) {
	case PD_SF_U64:
	case PD_SF_HEX:
	/* the union is defined per byte order: a value swap is right */
	case PD_SF_WEIGHT_STRUCT:
		sw_u64(s);
		return;
	case PD_SF_U32:
	case PD_SF_I32:
		/* pid and tid, cpu and cpu_res: two u32 (§11.1) */
		sw_u32(s);
		return;
	case PD_SF_READ:
		sw_read_values(s, a->read_format);
		return;
	case PD_SF_CALLCHAIN:
		sw_u64s(s, sw_u64(s));
		return;
	case PD_SF_RAW:
		sw_skip(s, sw_u32(s));	/* tracepoint data keeps the recorder's order */
		return;
	case PD_SF_BYTES:
		sw_skip(s, sw_u64(s));	/* aux data: bytes */
		return;
	case PD_SF_BRANCH_STACK:
		sw_branch_stack(s, a, file_be);
		return;
	case PD_SF_REGS:
		sw_regs(s, f->bit == PD_SAMPLE_REGS_USER ? a->sample_regs_user :
			   a->sample_regs_intr);
		return;
	case PD_SF_STACK:
		sw_stack_user(s);
		return;
	default:
		return;
	}
}

/* Fields from..to-1 of the table, in record order (from and to are constants). */
static inline __attribute__((always_inline)) void
sw_sample_fields(struct sw *s, const struct pd_attr *a, uint64_t st, bool file_be, size_t from,
		 size_t to)
{
	size_t i;

#pragma GCC unroll 64
	for (i = from; i < to; i++)
		sw_sample_field(s, a, st, file_be, i);
}

/*
 * A sample's fields in the order and under the bits of
 * pd_sample_field_table[].  Two loops, the fixed slots and the rest: GCC
 * 12 leaves one loop over all the fields a loop, reading the table at
 * run time (50 % more instructions to swap a sample); each of the two it
 * unrolls.
 */
static void sw_sample(struct sw *s, const struct pd_attr *a, bool file_be)
{
	/* a local: the swap's byte stores could alias a->sample_type */
	uint64_t st = a->sample_type;

	sw_sample_fields(s, a, st, file_be, 0, PD_SFI_FIXED_END);
	sw_sample_fields(s, a, st, file_be, PD_SFI_FIXED_END, PD_SFI_NR);
}

/* perf_record_cpu_map_data (CPU_MAP, docs/perf-data-format.md §6.4), packed */
static void sw_cpu_map(struct sw *s)
{
	uint16_t type = sw_u16(s), nr, long_size;

	switch (type) {
	case 0:		/* CPUS */
		nr = sw_u16(s);
		for (; nr && !s->bad; nr--)
			sw_u16(s);
		break;
	case 1:		/* MASK */
		nr = sw_u16(s);
		long_size = sw_u16(s);
		if (long_size == 4) {
			sw_u32s(s, nr);
		} else if (long_size == 8) {
			sw_skip(s, 4);
			sw_u64s(s, nr);
		} else {
			s->bad = true;
		}
		break;
	case 2:		/* RANGE_CPUS: u8 any_cpu, u8 pad, u16 start, u16 end */
		sw_skip(s, 2);
		sw_u16(s);
		sw_u16(s);
		break;
	default:
		s->bad = true;
		break;
	}
}

/*
 * The fixed fields of a layout (layout_tables.h) that start in [from, to), by
 * their widths; the cursor is at the first of them.  A run of numbers of
 * one width converts whole or not at all.  Bytes, strings and padding
 * stay as they are: a number after them checks that they fit.
 */
static void sw_fields(struct sw *s, const struct pd_layout *l, size_t from, size_t to)
{
	const struct pd_field *f, *end = pd_layout_fields_stop(l), *run;

	for (f = l->fields; f < end && !s->bad; f = run) {
		run = f + 1;
		if (f->off < from || f->off >= to)
			continue;
		if (!pd_field_is_number(f)) {
			s->pos = f->off + f->size < s->end ? f->off + f->size : s->end;
			continue;
		}
		while (run < end && pd_field_is_number(run) && run->size == f->size &&
		       run->off < to)
			run++;
		if (f->off > s->end) {
			s->bad = true;
			break;
		}
		s->pos = f->off;
		if (f->size == 2)
			sw_u16s(s, (uint64_t)(run - f));
		else if (f->size == 4)
			sw_u32s(s, (uint64_t)(run - f));
		else
			sw_u64s(s, (uint64_t)(run - f));
	}
}

/*
 * Kernel records 1..22 except SAMPLE: the fields before the trailer.
 * What follows the fixed fields depends on the data here.
 */
static void sw_kernel_rest(struct sw *s, uint32_t type)
{
	switch (type) {
	case PD_REC_READ:
		sw_u64_rest(s);	/* read_format values, group form included */
		break;
	case PD_REC_NAMESPACES:
		sw_u64s(s, 2 * pd_ld64(s->p + 16, false));	/* {dev, ino} links */
		break;
	case PD_REC_CALLCHAIN_DEFERRED:
		sw_u64s(s, pd_ld64(s->p + 16, false));		/* ips */
		break;
	default:
		break;
	}
}

static void sw_kernel_body(struct sw *s, const struct pd_layout *l, uint32_t type,
			   uint16_t misc)
{
	if (type == PD_REC_MMAP2 && (misc & PD_MISC_MMAP_BUILD_ID)) {
		/* u8 size, u8 reserved, u16 reserved, u8 build_id[20] */
		sw_fields(s, l, 8, PD_MMAP2_BUILD_ID_START);
		sw_skip(s, 2);
		sw_u16(s);
		sw_skip(s, 20);
		sw_fields(s, l, PD_MMAP2_BUILD_ID_END, SIZE_MAX);
		return;
	}
	sw_fields(s, l, 8, SIZE_MAX);
	if (!s->bad && l->rest == PD_REST_SPECIAL)
		sw_kernel_rest(s, type);
}

/* Records perf writes (64..86): what follows the fixed fields. */
static void sw_user_rest(struct sw *s, uint8_t *out, uint32_t type, const uint8_t *in,
			 size_t len, const struct pd_features *f, struct pd_diag_sink *sink)
{
	uint64_t nr, i;
	uint32_t fmt;

	switch (type) {
	case PD_REC_HEADER_TRACING_DATA:
		if (len >= 16)
			sw_u32(s);	/* the pad of 16-byte records */
		break;
	case PD_REC_AUXTRACE_INFO:
		sw_u64_rest(s);
		break;
	case PD_REC_AUXTRACE_ERROR:
		fmt = pd_ld32(out + 28, false);
		if (fmt >= 1 && len >= 48)
			sw_u64(s);	/* time */
		if (fmt >= 2 && len >= 120) {
			s->pos = 112;	/* machine_pid, vcpu after msg[64] */
			sw_u32s(s, 2);
		}
		break;
	case PD_REC_THREAD_MAP:
		nr = pd_ld64(out + 8, false);
		if (nr > (s->end - s->pos) / 24) {
			s->bad = true;
			break;
		}
		for (i = 0; i < nr; i++) {
			sw_u64(s);
			sw_skip(s, 16);	/* comm */
		}
		break;
	case PD_REC_EVENT_UPDATE:
		nr = pd_ld64(out + 8, false);
		if (nr == 1)		/* SCALE: a double, swapped as its 8 bytes */
			sw_u64(s);
		else if (nr == 3)	/* CPUS */
			sw_cpu_map(s);
		break;
	case PD_REC_TIME_CONV:
		if (len >= 56)
			sw_u64s(s, 2);	/* time_cycles, time_mask; then u8s */
		break;
	case PD_REC_HEADER_FEATURE:
		nr = pd_ld64(out + 8, false);
		if (len > 16 && (nr >= PD_FEAT_BITS ||
				 pd_swap_feature((unsigned int)nr, in + 16, len - 16, out + 16, f,
						 sink)))
			s->bad = true;
		break;
	case PD_REC_SCHEDSTAT_CPU:
		/* the CPU counter set of versions 15 to 17: 6 x u32, 3 x u64 */
		if (s->end - s->pos == 48) {
			sw_u32s(s, 6);
			sw_u64s(s, 3);
		} else {
			s->bad = true;
		}
		break;
	case PD_REC_SCHEDSTAT_DOMAIN:
		/* version 17 domain counters: 45 x u32 */
		if (pd_ld16(out + 20, false) == 17 && s->end - s->pos == 180)
			sw_u32s(s, 45);
		else
			s->bad = true;
		break;
	default:
		/* strings, byte arrays and compressed data */
		break;
	}
}

static void sw_user_record(struct sw *s, uint8_t *out, uint32_t type, const uint8_t *in,
			   size_t len, const struct pd_features *f, struct pd_diag_sink *sink)
{
	const struct pd_layout *l = pd_record_layout(type);

	switch (type) {
	case PD_REC_HEADER_ATTR: {
		/* the attr's own size says where the ids start */
		struct pd_attr a;
		uint32_t asz;

		if (!sw_has(s, 8))
			return;
		asz = pd_ld32(in + 12, true);
		if (!asz)
			asz = 64;
		if (asz < 64 || asz > len - 8) {
			s->bad = true;
			return;
		}
		pd_attr_decode(in + 8, asz, true, &a);
		pd_attr_encode(&a, out + 8, asz);
		s->pos = 8 + (size_t)asz;
		sw_u64_rest(s);
		return;
	}
	case PD_REC_ID_INDEX:
	case PD_REC_STAT_CONFIG:
		sw_u64_rest(s);	/* u64 words throughout, nr included */
		return;
	case PD_REC_CPU_MAP:
		sw_cpu_map(s);
		return;
	default:
		break;
	}
	sw_fields(s, l, 8, SIZE_MAX);
	if (!s->bad && l->rest == PD_REST_SPECIAL)
		sw_user_rest(s, out, type, in, len, f, sink);
}

int pd_swap_record(const struct pd_record *rec, uint8_t *out, struct pd_diag_sink *sink)
{
	const struct pd_event *ev = rec->event;
	size_t len = rec->raw_len;
	struct sw s;
	uint32_t type;
	uint16_t misc;
	bool file_be = HOST_BE ? !rec->swapped : rec->swapped;

	memcpy(out, rec->raw, len);
	if (len < 8)
		goto bad;
	bs32(out);
	bs16(out + 4);
	bs16(out + 6);
	type = pd_ld32(out, false);
	misc = pd_ld16(out + 4, false);
	sw_init(&s, out, 8, len);

	if (type == PD_REC_SAMPLE) {
		if (!ev)
			goto bad;
		sw_sample(&s, &ev->attr, file_be);
	} else if (type >= 1 && type < PD_REC_KERNEL_MAX) {
		size_t body_end = len;

		if (ev && (ev->attr.flags & PD_ATTR_SAMPLE_ID_ALL)) {
			if (ev->id_hdr_size > len - 8)
				goto bad;
			body_end = len - ev->id_hdr_size;
			sw_init(&s, out, body_end, len);
			sw_trailer(&s, ev->attr.sample_type);
			if (s.bad)
				goto bad;
		} else if (!ev && rec->has_trailer) {
			goto bad;
		}
		sw_init(&s, out, 8, body_end);
		sw_kernel_body(&s, pd_record_layout(type), type, misc);
	} else if (type >= 64 && type < PD_REC_USER_MAX) {
		sw_user_record(&s, out, type, rec->raw, len, NULL, sink);
	} else {
		s.bad = true;
	}
	if (!s.bad)
		return 0;
bad:
	pd_diag_emit(sink, PD_REC_NOT_CONVERTIBLE, rec->offset, (int64_t)rec->index, rec->type,
		     false, "type=%u size=%zu", rec->type, len);
	return 1;
}

/* ---- feature payloads (§5.4) ---- */

static void sw_event_desc(struct sw *s, const uint8_t *in)
{
	uint32_t nr = sw_u32(s), asz = sw_u32(s), i;

	if (asz < 64) {
		s->bad = true;
		return;
	}
	for (i = 0; i < nr && !s->bad; i++) {
		struct pd_attr a;

		if (!sw_has(s, asz))
			return;
		pd_attr_decode(in + s->pos, asz, true, &a);
		pd_attr_encode(&a, s->p + s->pos, asz);
		s->pos += asz;
		{
			uint32_t nr_ids = sw_u32(s);

			sw_str(s);
			sw_u64s(s, nr_ids);
		}
	}
}

static void sw_build_ids(struct sw *s, bool legacy)
{
	while (!s->bad && s->pos < s->end) {
		size_t start = s->pos;
		uint16_t size;

		sw_u32(s);
		sw_u16(s);
		size = sw_u16(s);
		if (s->bad || size < 8 || size > s->end - start) {
			s->bad = true;
			return;
		}
		if (!legacy && size >= 12)
			sw_u32(s);	/* pid */
		s->pos = start + size;
	}
}

/* Does a string list of the file's byte order end exactly `len` bytes after p? */
static bool str_list_len(const uint8_t *p, size_t avail, size_t *len)
{
	size_t pos = 4;
	uint32_t nr, i;

	if (avail < 4)
		return false;
	nr = pd_ld32(p, true);
	for (i = 0; i < nr; i++) {
		uint32_t l;

		if (avail - pos < 4)
			return false;
		l = pd_ld32(p + pos, true);
		pos += 4;
		if (l > avail - pos)
			return false;
		pos += l;
	}
	*len = pos;
	return true;
}

/*
 * Without NRCPUS (a lone HEADER_FEATURE record), find the cpu count that
 * makes the optional parts fill the payload: 8 * nr bytes of ids, then
 * optionally a string list and 4 * nr bytes of die ids.
 */
static bool topology_nr_cpus(const struct sw *s, uint32_t *nr)
{
	size_t rest = s->end - s->pos, n, l;

	for (n = 1; 8 * n <= rest && n <= 65536; n++) {
		if (8 * n == rest ||
		    (str_list_len(s->p + s->pos + 8 * n, rest - 8 * n, &l) &&
		     l <= rest - 8 * n && rest - 8 * n - l == 4 * n)) {
			*nr = (uint32_t)n;
			return true;
		}
	}
	return false;
}

static void sw_cpu_topology(struct sw *s, const struct pd_features *f)
{
	uint32_t nr;

	sw_str_list(s);
	sw_str_list(s);
	if (s->bad || s->pos == s->end)
		return;
	/* the optional parts need NRCPUS' count, as perf's reader does */
	if (f && pd_features_has(f, PD_FEAT_NRCPUS))
		nr = f->nrcpus.avail;
	else if (!topology_nr_cpus(s, &nr)) {
		s->bad = true;
		return;
	}
	sw_u32s(s, 2 * (uint64_t)nr);
	if (s->bad || s->pos == s->end)
		return;
	sw_str_list(s);
	sw_u32s(s, nr);
}

static void sw_mem_topology(struct sw *s)
{
	uint64_t nr, i;

	sw_u64s(s, 2);
	nr = sw_u64(s);
	for (i = 0; i < nr && !s->bad; i++) {
		uint64_t nbits;

		sw_u64s(s, 2);
		nbits = sw_u64(s);
		sw_u64s(s, nbits / 64 + !!(nbits % 64));
	}
}

static void sw_cpu_domain_info(struct sw *s)
{
	uint32_t ver = sw_u32(s);

	sw_u32(s);
	while (!s->bad && s->pos < s->end) {
		uint32_t nr, i;

		sw_u32(s);
		nr = sw_u32(s);
		for (i = 0; i < nr && !s->bad; i++) {
			sw_u32(s);
			if (ver >= 17)
				sw_str(s);
			sw_str(s);
			sw_str(s);
		}
	}
}

int pd_swap_feature(unsigned int id, const uint8_t *in, size_t len, uint8_t *out,
		    const struct pd_features *f, struct pd_diag_sink *sink)
{
	struct sw s;
	uint32_t nr, i;

	if (len)	/* an empty payload may come with no buffer at all */
		memcpy(out, in, len);
	sw_init(&s, out, 0, len);
	switch (id) {
	case PD_FEAT_TRACING_DATA:	/* the blob states its own byte order */
	case PD_FEAT_BRANCH_STACK:
	case PD_FEAT_STAT:
		break;
	case PD_FEAT_BUILD_ID:
		sw_build_ids(&s, f && f->build_ids.legacy);
		break;
	case PD_FEAT_HOSTNAME:
	case PD_FEAT_OSRELEASE:
	case PD_FEAT_VERSION:
	case PD_FEAT_ARCH:
	case PD_FEAT_CPUDESC:
	case PD_FEAT_CPUID:
		sw_str(&s);
		break;
	case PD_FEAT_NRCPUS:
	case PD_FEAT_E_MACHINE:
		sw_u32s(&s, 2);
		break;
	case PD_FEAT_TOTAL_MEM:
	case PD_FEAT_CLOCKID:
	case PD_FEAT_DIR_FORMAT:
		sw_u64(&s);
		break;
	case PD_FEAT_CMDLINE:
		sw_str_list(&s);
		break;
	case PD_FEAT_EVENT_DESC:
		sw_event_desc(&s, in);
		break;
	case PD_FEAT_CPU_TOPOLOGY:
		sw_cpu_topology(&s, f);
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		nr = sw_u32(&s);
		for (i = 0; i < nr && !s.bad; i++) {
			sw_u32(&s);
			sw_u64s(&s, 2);
			sw_str(&s);
		}
		break;
	case PD_FEAT_PMU_MAPPINGS:
		nr = sw_u32(&s);
		for (i = 0; i < nr && !s.bad; i++) {
			sw_u32(&s);
			sw_str(&s);
		}
		break;
	case PD_FEAT_GROUP_DESC:
		nr = sw_u32(&s);
		for (i = 0; i < nr && !s.bad; i++) {
			sw_str(&s);
			sw_u32s(&s, 2);
		}
		break;
	case PD_FEAT_AUXTRACE:
		sw_u64s(&s, 2 * sw_u64(&s));
		break;
	case PD_FEAT_CACHE:
		sw_u32(&s);
		nr = sw_u32(&s);
		for (i = 0; i < nr && !s.bad; i++) {
			sw_u32s(&s, 4);
			sw_str(&s);
			sw_str(&s);
			sw_str(&s);
		}
		break;
	case PD_FEAT_SAMPLE_TIME:
		sw_u64s(&s, 2);
		break;
	case PD_FEAT_MEM_TOPOLOGY:
		sw_mem_topology(&s);
		break;
	case PD_FEAT_COMPRESSED:
		sw_u32s(&s, 5);
		break;
	case PD_FEAT_CPU_PMU_CAPS:
	case PD_FEAT_HYBRID_TOPOLOGY:
		nr = sw_u32(&s);
		for (i = 0; i < nr && !s.bad; i++) {
			sw_str(&s);
			sw_str(&s);
		}
		break;
	case PD_FEAT_CLOCK_DATA:
		sw_u32s(&s, 2);
		sw_u64s(&s, 2);
		break;
	case PD_FEAT_PMU_CAPS:
		nr = sw_u32(&s);
		for (i = 0; i < nr && !s.bad; i++) {
			uint32_t j, caps = sw_u32(&s);

			for (j = 0; j < caps && !s.bad; j++) {
				sw_str(&s);
				sw_str(&s);
			}
			sw_str(&s);
		}
		break;
	case PD_FEAT_CPU_DOMAIN_INFO:
		sw_cpu_domain_info(&s);
		break;
	case PD_FEAT_CLN_SIZE:
		if (len == 4)
			sw_u32(&s);
		else if (len == 8)
			sw_u64(&s);
		else
			s.bad = true;
		break;
	case PD_FEAT_BPF_PROG_INFO:
	case PD_FEAT_BPF_BTF:
		/* host-order kernel structs: only an empty list converts */
		if (sw_u32(&s) || s.pos != len)
			s.bad = true;
		break;
	default:
		s.bad = true;
		break;
	}
	if (!s.bad)
		return 0;
	pd_diag_emit(sink, PD_FEAT_NOT_CONVERTIBLE, PD_NO_OFFSET, -1, 0, false,
		     "feature=%s id=%u size=%zu",
		     pd_feature_name(id) ? pd_feature_name(id) : "unknown", id, len);
	return 1;
}
