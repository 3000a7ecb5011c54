/* SPDX-License-Identifier: MIT */
/*
 * pd_sample_fields.h - the fields of a sample, described once.
 *
 * SAMPLE is the one record type without fixed fields: which fields a
 * sample holds, and in which order, follows from its event's sample_type
 * (docs/perf-data-format.md §7.2).  pd_sample_field_table[] is that list,
 * in record order, with where struct pd_sample keeps each decoded value:
 * the reader decodes a sample's bytes in its order (lib/sample.c, and
 * lib/sample_fixed.h for the slots before READ, all that
 * sample_fixed_only decodes), finds where a sample's id and time are
 * (lib/reader.c: an event's id_pos, is_pos, id_hdr_size and
 * sample_fixed_size, a record's time), and swaps a sample of the other
 * byte order field by field (lib/swap.c); pd_record_visit() walks a
 * sample through it (after the sample's event, cpumode and exact_ip), and
 * an output that writes samples field by field without the walk, for
 * speed, follows it too (to-proto's SampleEvent).  The decoder and the
 * swap rely on more than the order: the fields before READ
 * (PD_SFI_FIXED_END) are one u64 slot a bit (pid and tid, cpu and
 * cpu_res two u32 of one), a list's count is the field before the list
 * (its `count` is that field's member), and a field kept in the same
 * member as the field before it shares its slot (WEIGHT_STRUCT after
 * WEIGHT; pd_sample_field_has_slot()).
 *
 * The sample_id trailer that other records carry with sample_id_all
 * (§7.6) is some of these fields, marked PD_SFF_SAMPLE_ID, with where
 * struct pd_sample_id keeps each: the reader decodes it, swaps it and
 * copies a sample's own, the walk and to-proto's SampleInfo follow it,
 * all by loops over pd_sample_id_field().
 *
 * The table is a constant in this header so that a loop over it compiles
 * to the code a list written field by field would be: unrolled (GCC's
 * `#pragma GCC unroll`), each field's bit, kind and member are known
 * where it is compiled.  An output refers to a field by its
 * enum pd_sample_field_id, its index in the table.
 */
#ifndef PERFDATA_PD_SAMPLE_FIELDS_H
#define PERFDATA_PD_SAMPLE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/pd_consts.h"
#include "perfdata/pd_record.h"
#include "perfdata/pd_visit.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pd_sample_field_kind {
	PD_SF_U64,	/* a uint64_t member, walked as u64 */
	PD_SF_HEX,	/* a uint64_t member, walked as hex */
	PD_SF_U32,	/* a uint32_t member, walked as u64 */
	PD_SF_I32,	/* a uint32_t member where -1 means "any", walked as i64 */
	PD_SF_READ,	/* a struct pd_read member: read */
	/* a const uint64_t * member, its uint64_t count at `count`: hex_list */
	PD_SF_CALLCHAIN,
	/* a const uint8_t * member, its uint32_t size at `count`: bytes, then raw_fields */
	PD_SF_RAW,
	PD_SF_BYTES,	/* a const uint8_t * member, its uint64_t size at `count`: bytes */
	PD_SF_BRANCH_STACK,	/* the branch_* members (member: branches): branch_stack */
	PD_SF_REGS,	/* a struct pd_regs member: regs */
	/*
	 * The stack_* members (member: stack_size): an object of size,
	 * dyn_size (when size is not 0) and the bytes, named data.
	 */
	PD_SF_STACK,
	/*
	 * A uint64_t member, walked as u64 named "weight" (a summary-only
	 * field when the sample has WEIGHT too, which gives the same value),
	 * then as an object of its parts var1, var2 and var3.
	 */
	PD_SF_WEIGHT_STRUCT,
};

enum pd_sample_field_flags {
	/*
	 * Walked without its bit too, as a PD_VF_DETAIL field: the period,
	 * which is the attr's fixed one then.
	 */
	PD_SFF_DEFAULTED	= 1u << 0,
	/*
	 * In the sample_id trailer of the other records too (sample_id_all,
	 * docs/perf-data-format.md §7.6), kept at `sid_member` of struct
	 * pd_sample_id.  The trailer holds these fields in the table's order
	 * but for PD_SFF_SAMPLE_ID_LAST.  A field kept in the sid member of a
	 * trailer field before it holds the same value (IDENTIFIER after ID):
	 * the reader keeps the later one, an output shows the member once,
	 * where the first of them is, when either is there.
	 */
	PD_SFF_SAMPLE_ID	= 1u << 1,
	/*
	 * With PD_SFF_SAMPLE_ID: last in the trailer, where a reader finds it
	 * at the record's end without knowing sample_type, as it is first in
	 * a sample (IDENTIFIER).
	 */
	PD_SFF_SAMPLE_ID_LAST	= 1u << 2,
};

struct pd_sample_field {
	uint64_t bit;		/* the sample_type bit that brings it, 0: every sample */
	const char *name;	/* the walk's */
	const char *flat;	/* objects: the walk's flat prefix */
	uint8_t kind;		/* enum pd_sample_field_kind */
	uint8_t flags;		/* enum pd_sample_field_flags */
	uint16_t vflags;	/* the enum pd_visit_flags the walk gives it */
	uint16_t member;	/* offsetof() the value in struct pd_sample */
	uint16_t count;		/* lists and bytes: offsetof() their count */
	uint16_t sid_member;	/* PD_SFF_SAMPLE_ID: offsetof() the value in struct pd_sample_id */
};

/* The index of each field in pd_sample_field_table[], in record order. */
enum pd_sample_field_id {
	PD_SFI_SAMPLE_TYPE, PD_SFI_IDENTIFIER, PD_SFI_IP, PD_SFI_PID, PD_SFI_TID, PD_SFI_TIME,
	PD_SFI_ADDR, PD_SFI_ID, PD_SFI_STREAM_ID, PD_SFI_CPU, PD_SFI_CPU_RES, PD_SFI_PERIOD,
	PD_SFI_READ, PD_SFI_CALLCHAIN_NR, PD_SFI_CALLCHAIN, PD_SFI_RAW_SIZE, PD_SFI_RAW,
	PD_SFI_BRANCH_STACK, PD_SFI_REGS_USER, PD_SFI_STACK_USER, PD_SFI_WEIGHT,
	PD_SFI_WEIGHT_STRUCT, PD_SFI_DATA_SRC, PD_SFI_TRANSACTION, PD_SFI_REGS_INTR,
	PD_SFI_PHYS_ADDR, PD_SFI_CGROUP, PD_SFI_DATA_PAGE_SIZE, PD_SFI_CODE_PAGE_SIZE,
	PD_SFI_AUX_SIZE, PD_SFI_AUX,
	PD_SFI_NR
};

/* C only: C++ has no designated initializers of arrays */
#ifndef __cplusplus
#define PD_SF_(id, bit, name, flat, kind, flags, vflags, m, n) \
	[PD_SFI_##id] = { bit, name, flat, PD_SF_##kind, flags, vflags, \
			  offsetof(struct pd_sample, m), n, 0 }
/* a field of the sample_id trailer too, kept in member sm of struct pd_sample_id */
#define PD_SF_SID(id, bit, name, kind, flags, vflags, m, sm) \
	[PD_SFI_##id] = { PD_SAMPLE_##bit, name, NULL, PD_SF_##kind, \
			  PD_SFF_SAMPLE_ID | (flags), vflags, \
			  offsetof(struct pd_sample, m), 0, \
			  offsetof(struct pd_sample_id, sm) }
#define PD_SF(id, name, kind, m, vflags) \
	PD_SF_(id, PD_SAMPLE_##id, name, NULL, kind, 0, vflags, m, 0)
/* a list or bytes, their count in member n */
#define PD_SF_N(id, bit, name, kind, m, n, vflags) \
	PD_SF_(id, PD_SAMPLE_##bit, name, NULL, kind, 0, vflags, m, \
	       offsetof(struct pd_sample, n))

static const struct pd_sample_field pd_sample_field_table[PD_SFI_NR] = {
	PD_SF_(SAMPLE_TYPE, 0, "sample_type", NULL, HEX, 0, PD_VF_DETAIL,
	       sample_type, 0),
	PD_SF_SID(IDENTIFIER, IDENTIFIER, "identifier", U64, PD_SFF_SAMPLE_ID_LAST, 0,
		  identifier, id),
	PD_SF(IP, "ip", HEX, ip, 0),
	PD_SF_SID(PID, TID, "pid", I32, 0, 0, pid, pid),
	PD_SF_SID(TID, TID, "tid", I32, 0, 0, tid, tid),
	PD_SF_SID(TIME, TIME, "time", U64, 0, 0, time, time),
	PD_SF(ADDR, "addr", HEX, addr, 0),
	PD_SF_SID(ID, ID, "id", U64, 0, 0, id, id),
	PD_SF_SID(STREAM_ID, STREAM_ID, "stream_id", U64, 0, 0, stream_id, stream_id),
	PD_SF_SID(CPU, CPU, "cpu", I32, 0, 0, cpu, cpu),
	PD_SF_SID(CPU_RES, CPU, "cpu_res", U32, 0, PD_VF_DETAIL, cpu_res, cpu_res),
	PD_SF_(PERIOD, PD_SAMPLE_PERIOD, "period", NULL, U64, PD_SFF_DEFAULTED, 0, period, 0),
	PD_SF(READ, "read", READ, read, 0),
	PD_SF_(CALLCHAIN_NR, PD_SAMPLE_CALLCHAIN, "callchain_nr", NULL, U64, 0,
	       PD_VF_SUMMARY, callchain_nr, 0),
	PD_SF_N(CALLCHAIN, CALLCHAIN, "callchain", CALLCHAIN, callchain, callchain_nr,
		PD_VF_CALLCHAIN),
	PD_SF_(RAW_SIZE, PD_SAMPLE_RAW, "raw_size", NULL, U32, 0, 0, raw_size, 0),
	PD_SF_N(RAW, RAW, "raw", RAW, raw_data, raw_size,
		PD_VF_PAYLOAD | PD_VF_BULK),
	PD_SF(BRANCH_STACK, "branch_stack", BRANCH_STACK, branches, 0),
	PD_SF(REGS_USER, "regs_user", REGS, regs_user, 0),
	PD_SF_(STACK_USER, PD_SAMPLE_STACK_USER, "stack_user", "stack_", STACK, 0, 0,
	       stack_size, 0),
	/* the kernel refuses WEIGHT and WEIGHT_STRUCT together; a file may still have both */
	PD_SF(WEIGHT, "weight", U64, weight, 0),
	PD_SF_(WEIGHT_STRUCT, PD_SAMPLE_WEIGHT_STRUCT, "weight_struct", "weight.",
	       WEIGHT_STRUCT, 0, 0, weight, 0),
	PD_SF(DATA_SRC, "data_src", HEX, data_src, 0),
	PD_SF(TRANSACTION, "transaction", HEX, transaction, 0),
	PD_SF(REGS_INTR, "regs_intr", REGS, regs_intr, 0),
	PD_SF(PHYS_ADDR, "phys_addr", HEX, phys_addr, 0),
	PD_SF(CGROUP, "cgroup", U64, cgroup, 0),
	PD_SF(DATA_PAGE_SIZE, "data_page_size", U64, data_page_size, 0),
	PD_SF(CODE_PAGE_SIZE, "code_page_size", U64, code_page_size, 0),
	PD_SF_(AUX_SIZE, PD_SAMPLE_AUX, "aux_size", NULL, U64, 0, 0, aux_size, 0),
	PD_SF_N(AUX, AUX, "aux", BYTES, aux_data, aux_size,
		PD_VF_PAYLOAD | PD_VF_BULK),
};

/*
 * The fields before READ are perf's PERF_SAMPLE_MASK: each of their bits
 * brings one u64 slot (pid and tid, cpu and cpu_res are the two u32 of
 * one), at the start of the sample, so that their size and where each
 * one is follow from sample_type alone.
 */
#define PD_SFI_FIXED_END PD_SFI_READ

/* The sample_type bits of fields from .. to - 1: a constant when compiled. */
static inline __attribute__((always_inline)) uint64_t pd_sample_field_bits(size_t from, size_t to)
{
	uint64_t bits = 0;
	size_t i;

#pragma GCC unroll 64
	for (i = from; i < to; i++)
		bits |= pd_sample_field_table[i].bit;
	return bits;
}

/*
 * Whether field i, there under sample_type st, has bytes of its own where
 * it is in the record.  Not a list's count, which is read with the list
 * (the field after it), nor a field kept in the same member as the field
 * before it, there too: both share one slot (WEIGHT_STRUCT after WEIGHT,
 * read once and by value, docs/perf-data-format.md §7.5).  The decoder
 * and the byte swap skip such a field, so that each reads a slot once.
 */
static inline __attribute__((always_inline)) bool pd_sample_field_has_slot(uint64_t st, size_t i)
{
	const struct pd_sample_field *f = &pd_sample_field_table[i];
	const struct pd_sample_field *next = i + 1 < PD_SFI_NR ? f + 1 : NULL;
	const struct pd_sample_field *prev = i ? f - 1 : NULL;

	/* bit 0: not in the record (sample_type is the attr's) */
	if (!f->bit)
		return false;
	/* expected there: its code in line, a jump over it when it is not */
	if (__builtin_expect(!(st & f->bit), 0))
		return false;
	if (next && next->count && next->count == f->member)
		return false;
	return !(prev && prev->member == f->member && (st & prev->bit));
}

/*
 * The sample_id trailer's fields, in its order: steps 0 .. PD_SID_STEPS - 1
 * of a loop, each at most one field of the table, so that a loop over the
 * trailer unrolls as a loop over the table does.  Step k is field
 * k % PD_SFI_NR when that one is in the trailer, in its first part (the
 * table's order) for k < PD_SFI_NR, at its end (PD_SFF_SAMPLE_ID_LAST)
 * after; NULL otherwise.
 */
#define PD_SID_STEPS (2 * PD_SFI_NR)

static inline __attribute__((always_inline)) const struct pd_sample_field *
pd_sample_id_field(size_t k)
{
	const struct pd_sample_field *f = &pd_sample_field_table[k % PD_SFI_NR];
	const bool last = k >= PD_SFI_NR;

	if (!(f->flags & PD_SFF_SAMPLE_ID))
		return NULL;
	return !!(f->flags & PD_SFF_SAMPLE_ID_LAST) == last ? f : NULL;
}

/* The sample_type bits of the trailer's fields: a constant when compiled. */
static inline __attribute__((always_inline)) uint64_t pd_sample_id_bits(void)
{
	uint64_t bits = 0;
	size_t i;

#pragma GCC unroll 64
	for (i = 0; i < PD_SFI_NR; i++)
		if (pd_sample_field_table[i].flags & PD_SFF_SAMPLE_ID)
			bits |= pd_sample_field_table[i].bit;
	return bits;
}

/*
 * The bits that give a value to the sid member of trailer field f: its
 * own and those of the fields kept there too (ID's: ID and IDENTIFIER).
 */
static inline __attribute__((always_inline)) uint64_t
pd_sample_id_member_bits(const struct pd_sample_field *f)
{
	uint64_t bits = 0;
	size_t i;

#pragma GCC unroll 64
	for (i = 0; i < PD_SFI_NR; i++)
		if ((pd_sample_field_table[i].flags & PD_SFF_SAMPLE_ID) &&
		    pd_sample_field_table[i].sid_member == f->sid_member)
			bits |= pd_sample_field_table[i].bit;
	return bits;
}

/*
 * Whether step k's field is kept in the sid member of a trailer field
 * before it (IDENTIFIER's, ID's): an output has shown that member.
 */
static inline __attribute__((always_inline)) bool pd_sample_id_repeats(size_t k)
{
	const struct pd_sample_field *f = pd_sample_id_field(k), *g;
	size_t j;

#pragma GCC unroll 64
	for (j = 0; j < k; j++) {
		g = pd_sample_id_field(j);
		if (f && g && g->sid_member == f->sid_member)
			return true;
	}
	return false;
}

#undef PD_SF_
#undef PD_SF_SID
#undef PD_SF
#undef PD_SF_N
#endif /* __cplusplus */

#ifdef __cplusplus
}
#endif

#endif /* PERFDATA_PD_SAMPLE_FIELDS_H */
