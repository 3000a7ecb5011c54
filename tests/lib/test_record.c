// SPDX-License-Identifier: MIT
/*
 * test_record.c - pd_record_decode() for every non-sample layout, and the
 * name / minimum-size tables of names.c.
 *
 * Every fixture is written once as a macro over the integer writers
 * (W16/W32/W64) and instantiated twice: little-endian and big-endian.
 * The big-endian copy is decoded with swap=true and must give the same
 * typed result.  Malformed variants are patched copies of a fixture and
 * check the exact code and the exact absolute offset of the diagnostic.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "diag_recorder.h"
#include "decode.h"
#include "layout.h"
#include "fixture_bytes.h"

int pd_test_register_record(void);

/* ---- fixtures (the byte writers: fixture_bytes.h) ---- */

/* Instantiate fixture FX as name_le[] and name_be[]. */
#define DEF_FX(name, FX)						\
	static const uint8_t name##_le[] = { FX(L16, L32, L64) };	\
	static const uint8_t name##_be[] = { FX(B16, B32, B64) }

/* perf_event_header: type, misc, size */
#define HDR(W16, W32, t, m, s) W32(t), W16(m), W16(s)
#define Z8 0, 0, 0, 0, 0, 0, 0, 0

/* where the records pretend to live in the stream */
#define BASE 4096u
#define REC_INDEX 7

/* ---- diagnostic recorder ---- */

static struct diag_recorder diags;

static void reset(void)
{
	diag_recorder_reset(&diags);
}

/* Exactly one diagnostic, with this code at this offset. */
#define ASSERT_ONE(c, o)						\
	do {								\
		CU_ASSERT_EQUAL(diags.n, 1);				\
		if (diags.n >= 1) {					\
			CU_ASSERT_EQUAL(diags.seen[0].code, (c));		\
			CU_ASSERT_EQUAL(diags.seen[0].offset, (uint64_t)(o));	\
			CU_ASSERT_EQUAL(diags.seen[0].record_index, REC_INDEX);	\
		}							\
	} while (0)

/* ---- events ---- */

#define SID_ALL (PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID | \
		 PD_SAMPLE_CPU | PD_SAMPLE_IDENTIFIER)

/* sample_id_all with all six trailer fields: a 48-byte trailer */
static struct pd_event ev_sid;
/* no sample_id_all: records end where their layout ends */
static struct pd_event ev_plain;
/* READ: non-group and group read_format */
static struct pd_event ev_read;
static struct pd_event ev_rgroup;

static void init_events(void)
{
	memset(&ev_sid, 0, sizeof(ev_sid));
	ev_sid.attr.sample_type = PD_SAMPLE_IP | SID_ALL;
	ev_sid.attr.flags = PD_ATTR_SAMPLE_ID_ALL;
	ev_sid.id_pos = 0;
	ev_sid.is_pos = 1;
	ev_sid.id_hdr_size = 48;
	ev_sid.name = "ev_sid";

	memset(&ev_plain, 0, sizeof(ev_plain));
	ev_plain.attr.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID;
	ev_plain.id_pos = -1;
	ev_plain.is_pos = -1;
	ev_plain.name = "ev_plain";

	ev_read = ev_plain;
	ev_read.attr.read_format = PD_FORMAT_TOTAL_TIME_ENABLED |
				   PD_FORMAT_TOTAL_TIME_RUNNING | PD_FORMAT_ID;
	ev_rgroup = ev_plain;
	ev_rgroup.attr.read_format = PD_FORMAT_GROUP | PD_FORMAT_TOTAL_TIME_ENABLED |
				     PD_FORMAT_ID | PD_FORMAT_LOST;
}

/* ---- running the decoder ---- */

static struct pd_decoder dec;
static struct pd_record rec;

static int run(const uint8_t *p, size_t len, bool swap, const struct pd_event *ev)
{
	reset();
	pd_decoder_fini(&dec);
	pd_decoder_init(&dec, swap);
	memset(&rec, 0, sizeof(rec));
	rec.type = pd_ld32(p, swap);
	if (rec.type >= PD_REC_SP_START) {
		/* simpleperf: {u32 type; u16 size_hi; u16 size_lo}, misc 0 */
		rec.size = (uint32_t)pd_ld16(p + 4, swap) << 16 | pd_ld16(p + 6, swap);
	} else {
		rec.misc = pd_ld16(p + 4, swap);
		rec.size = pd_ld16(p + 6, swap);
	}
	rec.offset = BASE;
	rec.index = REC_INDEX;
	rec.swapped = swap;
	rec.raw = p;
	rec.raw_len = len;
	rec.event = ev;
	rec.event_index = ev ? 0 : -1;
	return pd_record_decode(&dec, &rec, ev, &diags.sink);
}

/* Decode the LE and the BE fixture and run `check` on both results. */
static void both(const uint8_t *le, size_t lel, const uint8_t *be, size_t bel,
		 const struct pd_event *ev, void (*check)(const struct pd_record *r))
{
	int pass;

	CU_ASSERT_EQUAL_FATAL(lel, bel);
	for (pass = 0; pass < 2; pass++) {
		bool is_be = pass == 1, swap = fixture_swap(is_be);

		CU_ASSERT_EQUAL(run(is_be ? be : le, is_be ? bel : lel, swap, ev), 0);
		/* the fixtures state their own size: catch typos in them */
		CU_ASSERT_EQUAL(rec.size, lel);
		CU_ASSERT_EQUAL(diags.n, 0);
		CU_ASSERT(rec.decoded);
		check(&rec);
	}
}

#define BOTH(name, ev, check) \
	both(name##_le, sizeof(name##_le), name##_be, sizeof(name##_be), ev, check)

/* A writable copy of a fixture for malformed variants. */
static uint8_t *dup_fx(const uint8_t *p, size_t len)
{
	uint8_t *q = malloc(len ? len : 1);

	memcpy(q, p, len);
	return q;
}

/* Expect a failure with exactly one diagnostic. */
#define BAD(p, len, ev, code, off)					\
	do {								\
		CU_ASSERT_EQUAL(run(p, len, HOST_BE, ev), -1);	\
		CU_ASSERT(!rec.decoded);				\
		ASSERT_ONE(code, off);					\
	} while (0)

/* Expect a warning only: still decoded. */
#define WARN(p, len, ev, code, off)					\
	do {								\
		CU_ASSERT_EQUAL(run(p, len, HOST_BE, ev), 0);		\
		CU_ASSERT(rec.decoded);					\
		ASSERT_ONE(code, off);					\
	} while (0)

/* ================= trailer ================= */

/* sample_id trailer of ev_sid: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER */
#define TRAILER(W32, W64)						\
	W32(101), W32(102),		/* pid, tid */			\
	W64(0x1122334455667788ULL),	/* time */			\
	W64(77),			/* id */			\
	W64(88),			/* stream_id */			\
	W32(3), W32(0),			/* cpu, res */			\
	W64(77)				/* identifier */

static void check_trailer(const struct pd_record *r)
{
	CU_ASSERT(r->has_trailer);
	CU_ASSERT_EQUAL(r->sid.present, SID_ALL);
	CU_ASSERT_EQUAL(r->sid.pid, 101);
	CU_ASSERT_EQUAL(r->sid.tid, 102);
	CU_ASSERT_EQUAL(r->sid.time, 0x1122334455667788ULL);
	CU_ASSERT_EQUAL(r->sid.id, 77);
	CU_ASSERT_EQUAL(r->sid.stream_id, 88);
	CU_ASSERT_EQUAL(r->sid.cpu, 3);
	CU_ASSERT_EQUAL(r->sid.cpu_res, 0);
}

/* ================= MMAP ================= */

#define FX_MMAP(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_MMAP, 2, 96),	/* USER; 40 + 8 + trailer 48 */	\
	W32(10), W32(11),		/* pid, tid */			\
	W64(0x400000),			/* start */			\
	W64(0x1000),			/* len */			\
	W64(0x2000),			/* pgoff */			\
	'/', 'b', 'i', 'n', '/', 'l', 's', 0,	/* filename */		\
	TRAILER(W32, W64)
DEF_FX(mmap, FX_MMAP);

/* the same without trailer, for ev_plain */
#define FX_MMAP_PLAIN(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_MMAP, 2, 48),					\
	W32(10), W32(11), W64(0x400000), W64(0x1000), W64(0x2000),	\
	'/', 'b', 'i', 'n', '/', 'l', 's', 0
DEF_FX(mmap_plain, FX_MMAP_PLAIN);

static void check_mmap_fields(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.mmap.pid, 10);
	CU_ASSERT_EQUAL(r->u.mmap.tid, 11);
	CU_ASSERT_EQUAL(r->u.mmap.start, 0x400000);
	CU_ASSERT_EQUAL(r->u.mmap.len, 0x1000);
	CU_ASSERT_EQUAL(r->u.mmap.pgoff, 0x2000);
	CU_ASSERT_STRING_EQUAL(r->u.mmap.filename, "/bin/ls");
}

static void check_mmap(const struct pd_record *r)
{
	check_mmap_fields(r);
	check_trailer(r);
}

static void check_mmap_plain(const struct pd_record *r)
{
	check_mmap_fields(r);
	CU_ASSERT(!r->has_trailer);
	CU_ASSERT_EQUAL(r->sid.present, 0);
}

static void test_mmap(void)
{
	uint8_t *b, big[56];

	BOTH(mmap, &ev_sid, check_mmap);
	BOTH(mmap_plain, &ev_plain, check_mmap_plain);
	/* no event: decoded, the trailer (if any) cannot be judged */
	BOTH(mmap, NULL, check_mmap_fields);

	b = dup_fx(mmap_plain_le, sizeof(mmap_plain_le));
	/* filename without NUL */
	b[47] = 'X';
	BAD(b, 48, &ev_plain, PD_REC_BAD_STRING, BASE + 40);
	/* below the fixed part */
	BAD(mmap_plain_le, 32, &ev_plain, PD_REC_BELOW_MIN, BASE);
	/* 48 bytes cannot hold the fixed part and a 48-byte trailer */
	BAD(mmap_plain_le, 48, &ev_sid, PD_REC_TRAILER_DOES_NOT_FIT, BASE);
	/* padding beyond ALIGN(strlen + 1, 8) */
	memcpy(big, mmap_plain_le, 48);
	memset(big + 48, 0xee, 8);	/* non-zero: zero tails are padding */
	big[6] = 56;
	WARN(big, 56, &ev_plain, PD_REC_TRAILING_BYTES, BASE + 48);
	CU_ASSERT_STRING_EQUAL(rec.u.mmap.filename, "/bin/ls");
	free(b);
}

/* ================= MMAP2 ================= */

#define FX_MMAP2(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_MMAP2, 2, 80),					\
	W32(20), W32(21),		/* pid, tid */			\
	W64(0x7f0000000000ULL),		/* start */			\
	W64(0x3000),			/* len */			\
	W64(0),				/* pgoff */			\
	W32(8), W32(1),			/* maj, min */			\
	W64(123456),			/* ino */			\
	W64(9),				/* ino_generation */		\
	W32(5), W32(2),			/* prot, flags */		\
	'/', 'l', 'i', 'b', '.', 's', 'o', 0	/* filename */
DEF_FX(mmap2, FX_MMAP2);

#define BID20 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20
#define FX_MMAP2_BID(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_MMAP2, 0x4002, 80),	/* MMAP_BUILD_ID | USER */	\
	W32(20), W32(21), W64(0x7f0000000000ULL), W64(0x3000), W64(0),	\
	16, 0, W16(0),			/* build_id_size, reserved */	\
	BID20,				/* build_id[20] */		\
	W32(5), W32(2),							\
	'/', 'l', 'i', 'b', '.', 's', 'o', 0
DEF_FX(mmap2_bid, FX_MMAP2_BID);

static void check_mmap2_common(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.mmap.pid, 20);
	CU_ASSERT_EQUAL(r->u.mmap.tid, 21);
	CU_ASSERT_EQUAL(r->u.mmap.start, 0x7f0000000000ULL);
	CU_ASSERT_EQUAL(r->u.mmap.len, 0x3000);
	CU_ASSERT_EQUAL(r->u.mmap.prot, 5);
	CU_ASSERT_EQUAL(r->u.mmap.flags, 2);
	CU_ASSERT_STRING_EQUAL(r->u.mmap.filename, "/lib.so");
}

static void check_mmap2(const struct pd_record *r)
{
	check_mmap2_common(r);
	CU_ASSERT(!r->u.mmap.has_build_id);
	CU_ASSERT_EQUAL(r->u.mmap.maj, 8);
	CU_ASSERT_EQUAL(r->u.mmap.min, 1);
	CU_ASSERT_EQUAL(r->u.mmap.ino, 123456);
	CU_ASSERT_EQUAL(r->u.mmap.ino_generation, 9);
}

static void check_mmap2_bid(const struct pd_record *r)
{
	static const uint8_t id[20] = { BID20 };

	check_mmap2_common(r);
	CU_ASSERT(r->u.mmap.has_build_id);
	CU_ASSERT_EQUAL(r->u.mmap.build_id_size, 16);
	CU_ASSERT_EQUAL(memcmp(r->u.mmap.build_id, id, 20), 0);
	CU_ASSERT_EQUAL(r->u.mmap.ino, 0);
}

static void test_mmap2(void)
{
	uint8_t *b = dup_fx(mmap2_bid_le, sizeof(mmap2_bid_le));

	BOTH(mmap2, &ev_plain, check_mmap2);
	BOTH(mmap2_bid, &ev_plain, check_mmap2_bid);
	b[40] = 21;
	BAD(b, 80, &ev_plain, PD_REC_BAD_FIELD, BASE + 40);
	BAD(mmap2_le, 72, &ev_plain, PD_REC_BAD_STRING, BASE + 72);
	BAD(mmap2_le, 64, &ev_plain, PD_REC_BELOW_MIN, BASE);
	free(b);
}

/* ================= COMM ================= */

#define FX_COMM(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_COMM, 0x2000, 80),	/* COMM_EXEC; 16 + 16 + 48 */	\
	W32(30), W32(31),		/* pid, tid */			\
	'h', 'e', 'l', 'l', 'o', '-', 'w', 'o',				\
	'r', 'l', 'd', 0, 0, 0, 0, 0,	/* comm, padded to 8 */		\
	TRAILER(W32, W64)
DEF_FX(comm, FX_COMM);

static void check_comm(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->misc, 0x2000);
	CU_ASSERT_EQUAL(r->u.comm.pid, 30);
	CU_ASSERT_EQUAL(r->u.comm.tid, 31);
	CU_ASSERT_STRING_EQUAL(r->u.comm.comm, "hello-world");
	check_trailer(r);
}

static void test_comm(void)
{
	uint8_t *b = dup_fx(comm_le, sizeof(comm_le));

	BOTH(comm, &ev_sid, check_comm);
	/* the NUL must be before the trailer */
	memset(b + 16, 'a', 16);
	BAD(b, sizeof(comm_le), &ev_sid, PD_REC_BAD_STRING, BASE + 16);
	free(b);
}

/* ================= EXIT / FORK ================= */

#define FX_EXIT(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_EXIT, 0, 32),					\
	W32(5), W32(1), W32(6), W32(2),	/* pid, ppid, tid, ptid */	\
	W64(999)			/* time */
DEF_FX(exit, FX_EXIT);
#define FX_FORK(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_FORK, 0, 80),					\
	W32(5), W32(1), W32(6), W32(2), W64(999),			\
	TRAILER(W32, W64)
DEF_FX(fork, FX_FORK);

static void check_exit(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.fork.pid, 5);
	CU_ASSERT_EQUAL(r->u.fork.ppid, 1);
	CU_ASSERT_EQUAL(r->u.fork.tid, 6);
	CU_ASSERT_EQUAL(r->u.fork.ptid, 2);
	CU_ASSERT_EQUAL(r->u.fork.time, 999);
}

static void check_fork(const struct pd_record *r)
{
	check_exit(r);
	check_trailer(r);
}

static void test_exit_fork(void)
{
	uint8_t big[40];

	BOTH(exit, &ev_plain, check_exit);
	BOTH(fork, &ev_sid, check_fork);
	memcpy(big, exit_le, 32);
	memset(big + 32, 0xee, 8);	/* non-zero: zero tails are padding */
	big[6] = 40;
	WARN(big, 40, &ev_plain, PD_REC_TRAILING_BYTES, BASE + 32);
	BAD(exit_le, 24, &ev_plain, PD_REC_BELOW_MIN, BASE);
}

/* ================= THROTTLE / UNTHROTTLE / LOST ================= */

#define FX_THROTTLE(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_THROTTLE, 0, 32),					\
	W64(12345), W64(77), W64(88)	/* time, id, stream_id */
DEF_FX(throttle, FX_THROTTLE);
#define FX_UNTHROTTLE(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_UNTHROTTLE, 0, 32), W64(12345), W64(77), W64(88)
DEF_FX(unthrottle, FX_UNTHROTTLE);
#define FX_LOST(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_LOST, 0, 24),					\
	W64(77), W64(42)		/* id, lost */
DEF_FX(lost, FX_LOST);

static void check_throttle(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.throttle.time, 12345);
	CU_ASSERT_EQUAL(r->u.throttle.id, 77);
	CU_ASSERT_EQUAL(r->u.throttle.stream_id, 88);
}

static void check_lost(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.lost.id, 77);
	CU_ASSERT_EQUAL(r->u.lost.lost, 42);
}

static void test_throttle_lost(void)
{
	BOTH(throttle, &ev_plain, check_throttle);
	BOTH(unthrottle, &ev_plain, check_throttle);
	BOTH(lost, &ev_plain, check_lost);
	BAD(lost_le, 16, &ev_plain, PD_REC_BELOW_MIN, BASE);
}

/* ================= READ ================= */

#define FX_READ(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_READ, 0, 48),					\
	W32(40), W32(41),		/* pid, tid */			\
	W64(1000),			/* value */			\
	W64(2000), W64(1500),		/* time_enabled, time_running */ \
	W64(77)				/* id */
DEF_FX(read, FX_READ);

#define FX_READ_GROUP(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_READ, 0, 80),					\
	W32(40), W32(41),		/* pid, tid */			\
	W64(2),				/* nr */			\
	W64(2000),			/* time_enabled */		\
	W64(10), W64(77), W64(0),	/* value, id, lost */		\
	W64(20), W64(78), W64(1)
DEF_FX(read_group, FX_READ_GROUP);

static void check_read(const struct pd_record *r)
{
	const struct pd_read *v = &r->u.read.values;

	CU_ASSERT_EQUAL(r->u.read.pid, 40);
	CU_ASSERT_EQUAL(r->u.read.tid, 41);
	CU_ASSERT_EQUAL(v->format, ev_read.attr.read_format);
	CU_ASSERT_EQUAL_FATAL(v->nr, 1);
	CU_ASSERT_EQUAL(v->time_enabled, 2000);
	CU_ASSERT_EQUAL(v->time_running, 1500);
	CU_ASSERT_EQUAL(v->values[0].value, 1000);
	CU_ASSERT_EQUAL(v->values[0].id, 77);
}

static void check_read_group(const struct pd_record *r)
{
	const struct pd_read *v = &r->u.read.values;

	CU_ASSERT_EQUAL_FATAL(v->nr, 2);
	CU_ASSERT_EQUAL(v->time_enabled, 2000);
	CU_ASSERT_EQUAL(v->time_running, 0);
	CU_ASSERT_EQUAL(v->values[0].value, 10);
	CU_ASSERT_EQUAL(v->values[0].id, 77);
	CU_ASSERT_EQUAL(v->values[1].value, 20);
	CU_ASSERT_EQUAL(v->values[1].id, 78);
	CU_ASSERT_EQUAL(v->values[1].lost, 1);
}

static void test_read(void)
{
	uint8_t *b = dup_fx(read_group_le, sizeof(read_group_le));

	BOTH(read, &ev_read, check_read);
	BOTH(read_group, &ev_rgroup, check_read_group);
	b[16] = 3;
	BAD(b, sizeof(read_group_le), &ev_rgroup, PD_REC_BAD_COUNT, BASE + 16);
	/* values that do not fit the read_format */
	BAD(read_le, 40, &ev_read, PD_REC_BELOW_MIN, BASE);
	free(b);
}

/* ================= small kernel records ================= */

#define FX_AUX(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_AUX, 0, 32),						\
	W64(0x10000), W64(0x8000),	/* aux_offset, aux_size */	\
	W64(1)				/* flags: TRUNCATED */
DEF_FX(aux, FX_AUX);
#define FX_ITRACE(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_ITRACE_START, 0, 16), W32(50), W32(51)	/* pid, tid */
DEF_FX(itrace, FX_ITRACE);
#define FX_LOST_SAMPLES(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_LOST_SAMPLES, 0x8000, 16), W64(17)		/* lost */
DEF_FX(lost_samples, FX_LOST_SAMPLES);
#define FX_SWITCH(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_SWITCH, 0x2000, 56), TRAILER(W32, W64)	/* OUT */
DEF_FX(switch, FX_SWITCH);
#define FX_SWITCH_CPU(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_SWITCH_CPU_WIDE, 0, 16),				\
	W32(60), W32(61)		/* next_prev_pid, next_prev_tid */
DEF_FX(switch_cpu, FX_SWITCH_CPU);
#define FX_HW_ID(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_AUX_OUTPUT_HW_ID, 0, 16), W64(0xabcdef)	/* hw_id */
DEF_FX(hw_id, FX_HW_ID);
#define FX_BPF_EVENT(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_BPF_EVENT, 0, 24),					\
	W16(1), W16(0),			/* type PROG_LOAD, flags */	\
	W32(55),			/* id */			\
	1, 2, 3, 4, 5, 6, 7, 8		/* tag */
DEF_FX(bpf_event, FX_BPF_EVENT);

static void check_aux(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.aux.aux_offset, 0x10000);
	CU_ASSERT_EQUAL(r->u.aux.aux_size, 0x8000);
	CU_ASSERT_EQUAL(r->u.aux.flags, 1);
}

static void check_itrace(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.itrace_start.pid, 50);
	CU_ASSERT_EQUAL(r->u.itrace_start.tid, 51);
}

static void check_lost_samples(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.lost_samples.lost, 17);
	CU_ASSERT_EQUAL(r->misc, 0x8000);
}

static void check_switch(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->misc, 0x2000);
	check_trailer(r);
}

static void check_switch_cpu(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.sw.next_prev_pid, 60);
	CU_ASSERT_EQUAL(r->u.sw.next_prev_tid, 61);
}

static void check_hw_id(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.aux_output_hw_id.hw_id, 0xabcdef);
}

static void check_bpf_event(const struct pd_record *r)
{
	static const uint8_t tag[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	CU_ASSERT_EQUAL(r->u.bpf_event.type, 1);
	CU_ASSERT_EQUAL(r->u.bpf_event.flags, 0);
	CU_ASSERT_EQUAL(r->u.bpf_event.id, 55);
	CU_ASSERT_EQUAL(memcmp(r->u.bpf_event.tag, tag, 8), 0);
}

static void test_small_kernel(void)
{
	BOTH(aux, &ev_plain, check_aux);
	BOTH(itrace, &ev_plain, check_itrace);
	BOTH(lost_samples, &ev_plain, check_lost_samples);
	BOTH(switch, &ev_sid, check_switch);
	BOTH(switch_cpu, &ev_plain, check_switch_cpu);
	BOTH(hw_id, &ev_plain, check_hw_id);
	BOTH(bpf_event, &ev_plain, check_bpf_event);
	BAD(aux_le, 24, &ev_plain, PD_REC_BELOW_MIN, BASE);
	BAD(switch_le, 48, &ev_sid, PD_REC_TRAILER_DOES_NOT_FIT, BASE);
	WARN(switch_le, 56, &ev_plain, PD_REC_TRAILING_BYTES, BASE + 8);
}

/* ================= NAMESPACES ================= */

#define FX_NS(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_NAMESPACES, 0, 56),					\
	W32(70), W32(71),		/* pid, tid */			\
	W64(2),				/* nr_namespaces */		\
	W64(4), W64(0xf0000001),	/* NET: dev, ino */		\
	W64(4), W64(0xf0000002)		/* UTS: dev, ino */
DEF_FX(ns, FX_NS);

static void check_ns(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.namespaces.pid, 70);
	CU_ASSERT_EQUAL(r->u.namespaces.tid, 71);
	CU_ASSERT_EQUAL_FATAL(r->u.namespaces.nr, 2);
	CU_ASSERT_EQUAL(r->u.namespaces.links[0].dev, 4);
	CU_ASSERT_EQUAL(r->u.namespaces.links[0].ino, 0xf0000001);
	CU_ASSERT_EQUAL(r->u.namespaces.links[1].ino, 0xf0000002);
}

static void test_namespaces(void)
{
	uint8_t *b = dup_fx(ns_le, sizeof(ns_le));

	BOTH(ns, &ev_plain, check_ns);
	b[16] = 3;
	BAD(b, sizeof(ns_le), &ev_plain, PD_REC_BAD_COUNT, BASE + 16);
	/* an absurd count must not overflow the check */
	memset(b + 16, 0xff, 8);
	BAD(b, sizeof(ns_le), &ev_plain, PD_REC_BAD_COUNT, BASE + 16);
	free(b);
}

/* ================= KSYMBOL / CGROUP ================= */

#define FX_KSYM(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_KSYMBOL, 0, 32),					\
	W64(0xffffffffc0000000ULL),	/* addr */			\
	W32(0x40),			/* len */			\
	W16(1), W16(0),			/* ksym_type BPF, flags */	\
	'b', 'p', 'f', '_', 'p', 0, 0, 0	/* name */
DEF_FX(ksym, FX_KSYM);
#define FX_CGROUP(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_CGROUP, 0, 24),					\
	W64(3),				/* id */			\
	'/', 's', 'y', 's', 0, 0, 0, 0	/* path */
DEF_FX(cgroup, FX_CGROUP);

static void check_ksym(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.ksymbol.addr, 0xffffffffc0000000ULL);
	CU_ASSERT_EQUAL(r->u.ksymbol.len, 0x40);
	CU_ASSERT_EQUAL(r->u.ksymbol.ksym_type, 1);
	CU_ASSERT_STRING_EQUAL(r->u.ksymbol.name, "bpf_p");
}

static void check_cgroup(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.cgroup.id, 3);
	CU_ASSERT_STRING_EQUAL(r->u.cgroup.path, "/sys");
}

static void test_ksymbol_cgroup(void)
{
	uint8_t *b = dup_fx(ksym_le, sizeof(ksym_le));

	BOTH(ksym, &ev_plain, check_ksym);
	BOTH(cgroup, &ev_plain, check_cgroup);
	memset(b + 24, 'x', 8);
	BAD(b, 32, &ev_plain, PD_REC_BAD_STRING, BASE + 24);
	/* nothing after the fixed part: the NUL is missing too */
	BAD(cgroup_le, 16, &ev_plain, PD_REC_BAD_STRING, BASE + 16);
	free(b);
}

/* ================= TEXT_POKE ================= */

#define FX_POKE(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_TEXT_POKE, 0, 32),					\
	W64(0xffffffff81000000ULL),	/* addr */			\
	W16(2), W16(3),			/* old_len, new_len */		\
	0x90, 0x90,			/* old bytes */			\
	0xe8, 0x01, 0x02,		/* new bytes */			\
	0, 0, 0, 0, 0, 0, 0		/* padding to 16 + 16 */
DEF_FX(poke, FX_POKE);

static void check_poke(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.text_poke.addr, 0xffffffff81000000ULL);
	CU_ASSERT_EQUAL(r->u.text_poke.old_len, 2);
	CU_ASSERT_EQUAL(r->u.text_poke.new_len, 3);
	CU_ASSERT_EQUAL(r->u.text_poke.old_bytes[0], 0x90);
	CU_ASSERT_EQUAL(r->u.text_poke.new_bytes[0], 0xe8);
	CU_ASSERT_EQUAL(r->u.text_poke.new_bytes[2], 0x02);
}

static void test_text_poke(void)
{
	uint8_t *b = dup_fx(poke_le, sizeof(poke_le));

	BOTH(poke, &ev_plain, check_poke);
	b[16] = 20;
	BAD(b, 32, &ev_plain, PD_REC_BAD_COUNT, BASE + 16);
	free(b);
}

/* ================= CALLCHAIN_DEFERRED ================= */

#define FX_DEFER(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_CALLCHAIN_DEFERRED, 0, 40),				\
	W64(0x5555),			/* cookie */			\
	W64(2),				/* nr */			\
	W64(0x401000), W64(0x402000)	/* ips */
DEF_FX(defer, FX_DEFER);

static void check_defer(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.callchain_deferred.cookie, 0x5555);
	CU_ASSERT_EQUAL_FATAL(r->u.callchain_deferred.nr, 2);
	CU_ASSERT_EQUAL(r->u.callchain_deferred.ips[0], 0x401000);
	CU_ASSERT_EQUAL(r->u.callchain_deferred.ips[1], 0x402000);
}

static void test_callchain_deferred(void)
{
	uint8_t *b = dup_fx(defer_le, sizeof(defer_le));

	BOTH(defer, &ev_plain, check_defer);
	b[16] = 3;
	BAD(b, 40, &ev_plain, PD_REC_BAD_COUNT, BASE + 16);
	free(b);
}

/* ================= HEADER_ATTR ================= */

#define FX_HATTR(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_HEADER_ATTR, 0, 88),					\
	W32(0), W32(64),		/* attr.type HARDWARE, attr.size */ \
	W64(1),				/* config: instructions */	\
	W64(4000),			/* sample_period */		\
	W64(0x107),			/* sample_type */		\
	W64(0),				/* read_format */		\
	W64(0),				/* flags (bit-fields: none) */	\
	W32(0), W32(0),			/* wakeup_events, bp_type */	\
	W64(0),				/* config1 (VER0 ends here) */	\
	W64(100), W64(101)		/* ids at 8 + attr.size */
DEF_FX(hattr, FX_HATTR);

static void check_hattr(const struct pd_record *r)
{
	const struct pd_rec_header_attr *h = &r->u.header_attr;

	CU_ASSERT_EQUAL(h->attr_size, 64);
	CU_ASSERT_EQUAL(h->attr.type, 0);
	CU_ASSERT_EQUAL(h->attr.config, 1);
	CU_ASSERT_EQUAL(h->attr.sample_period, 4000);
	CU_ASSERT_EQUAL(h->attr.sample_type, 0x107);
	CU_ASSERT_EQUAL_FATAL(h->nr_ids, 2);
	CU_ASSERT_EQUAL(h->ids[0], 100);
	CU_ASSERT_EQUAL(h->ids[1], 101);
}

static void test_header_attr(void)
{
	uint8_t *b = dup_fx(hattr_le, sizeof(hattr_le));

	BOTH(hattr, NULL, check_hattr);
	/* attr.size 0 means 64 */
	b[12] = 0;
	CU_ASSERT_EQUAL(run(b, 88, HOST_BE, NULL), 0);
	CU_ASSERT_EQUAL(rec.u.header_attr.attr_size, 64);
	CU_ASSERT_EQUAL(rec.u.header_attr.nr_ids, 2);
	b[12] = 32;
	BAD(b, 88, NULL, PD_ATTR_TOO_SMALL, BASE + 12);
	b[12] = 200;
	BAD(b, 88, NULL, PD_REC_BAD_FIELD, BASE + 12);
	/* a half id */
	b[12] = 64;
	b[6] = 84;
	WARN(b, 84, NULL, PD_REC_TRAILING_BYTES, BASE + 80);
	CU_ASSERT_EQUAL(rec.u.header_attr.nr_ids, 1);
	free(b);
}

/* ================= HEADER_EVENT_TYPE ================= */

#define FX_EVTYPE(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_HEADER_EVENT_TYPE, 0, 80),				\
	W64(5),				/* event_id */			\
	's', 'c', 'h', 'e', 'd', 0, 0, 0,	/* name[64] */		\
	Z8, Z8, Z8, Z8, Z8, Z8, Z8
DEF_FX(evtype, FX_EVTYPE);

static void check_evtype(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.event_type.event_id, 5);
	CU_ASSERT_STRING_EQUAL(r->u.event_type.name, "sched");
}

static void test_event_type(void)
{
	uint8_t *b = dup_fx(evtype_le, sizeof(evtype_le));

	BOTH(evtype, NULL, check_evtype);
	memset(b + 16, 'a', 64);
	BAD(b, 80, NULL, PD_REC_BAD_STRING, BASE + 16);
	/* perf 3.x trimmed the name: 24 bytes is a valid record */
	CU_ASSERT_EQUAL(run(evtype_le, 24, HOST_BE, NULL), 0);
	CU_ASSERT_STRING_EQUAL(rec.u.event_type.name, "sched");
	BAD(evtype_le, 16, NULL, PD_REC_BELOW_MIN, BASE);
	free(b);
}

/* ================= HEADER_TRACING_DATA ================= */

#define FX_TD16(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_HEADER_TRACING_DATA, 0, 16),				\
	W32(4096), W32(0)		/* size, pad; blob follows */
DEF_FX(td16, FX_TD16);
#define FX_TD12(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_HEADER_TRACING_DATA, 0, 12), W32(4096)	/* old perf */
DEF_FX(td12, FX_TD12);
/* simpleperf before 2018-03: data inside the record, padded to 64 */
#define FX_TDIN(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_HEADER_TRACING_DATA, 0, 76),				\
	W32(10),			/* size */			\
	'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 0, 0, 0, 0, 0, 0, \
	Z8, Z8, Z8, Z8, Z8, Z8
DEF_FX(tdin, FX_TDIN);

static void check_td(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.tracing_data.size, 4096);
	CU_ASSERT(!r->u.tracing_data.inline_data);
	CU_ASSERT_PTR_NULL(r->u.tracing_data.data);
}

static void check_tdin(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.tracing_data.size, 10);
	CU_ASSERT(r->u.tracing_data.inline_data);
	CU_ASSERT_PTR_EQUAL(r->u.tracing_data.data, r->raw + 12);
}

static void test_tracing_data(void)
{
	uint8_t big[24];

	BOTH(td16, NULL, check_td);
	BOTH(td12, NULL, check_td);
	BOTH(tdin, NULL, check_tdin);
	memcpy(big, td16_le, 16);
	memset(big + 16, 0xee, 8);	/* non-zero: zero tails are padding */
	big[6] = 24;
	WARN(big, 24, NULL, PD_REC_TRAILING_BYTES, BASE + 16);
	BAD(td16_le, 8, NULL, PD_REC_BELOW_MIN, BASE);
}

/* ================= HEADER_BUILD_ID ================= */

#define FX_BID(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_HEADER_BUILD_ID, 0x8001, 44), /* BUILD_ID_SIZE | KERNEL */ \
	W32(-1),			/* pid: host */			\
	BID20,				/* build_id */			\
	16, 0, W16(0),			/* size, reserved */		\
	'/', 'b', 'i', 'n', '/', 'l', 's', 0	/* filename */
DEF_FX(bid, FX_BID);

static void check_bid(const struct pd_record *r)
{
	static const uint8_t id[20] = { BID20 };

	CU_ASSERT_EQUAL(r->u.build_id.cpumode, 1);
	CU_ASSERT_EQUAL(r->u.build_id.pid, -1);
	CU_ASSERT_EQUAL(r->u.build_id.build_id_size, 16);
	CU_ASSERT_EQUAL(memcmp(r->u.build_id.build_id, id, 20), 0);
	CU_ASSERT_STRING_EQUAL(r->u.build_id.filename, "/bin/ls");
}

static void test_build_id(void)
{
	uint8_t *b = dup_fx(bid_le, sizeof(bid_le));

	BOTH(bid, NULL, check_bid);
	/* without misc bit 15 the size byte is ignored */
	b[5] = 0;
	CU_ASSERT_EQUAL(run(b, 44, HOST_BE, NULL), 0);
	CU_ASSERT_EQUAL(rec.u.build_id.build_id_size, 20);
	b[5] = 0x80;
	b[32] = 21;
	BAD(b, 44, NULL, PD_REC_BAD_FIELD, BASE + 32);
	b[32] = 20;
	b[43] = 'x';
	BAD(b, 44, NULL, PD_REC_BAD_STRING, BASE + 36);
	free(b);
}

/* ================= FINISHED_ROUND / FINISHED_INIT ================= */

#define FX_ROUND(W16, W32, W64) HDR(W16, W32, PD_REC_FINISHED_ROUND, 0, 8)
DEF_FX(round, FX_ROUND);
#define FX_INIT(W16, W32, W64) HDR(W16, W32, PD_REC_FINISHED_INIT, 0, 8)
DEF_FX(init, FX_INIT);

static void check_nothing(const struct pd_record *r)
{
	CU_ASSERT(!r->has_trailer);
}

static void test_finished(void)
{
	uint8_t big[16] = { 0 };

	BOTH(round, NULL, check_nothing);
	BOTH(init, NULL, check_nothing);
	memcpy(big, round_le, 8);
	memset(big + 8, 0xee, 8);	/* non-zero: zero tails are padding */
	big[6] = 16;
	WARN(big, 16, NULL, PD_REC_TRAILING_BYTES, BASE + 8);
}

/* ================= ID_INDEX ================= */

#define FX_IDX(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_ID_INDEX, 0, 80),					\
	W64(2),				/* nr */			\
	W64(100), W64(0), W64(0), W64(-1),	/* id, idx, cpu, tid */	\
	W64(101), W64(1), W64(1), W64(-1)
DEF_FX(idx, FX_IDX);
#define FX_IDX_VCPU(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_ID_INDEX, 0, 64),					\
	W64(1),				/* nr */			\
	W64(100), W64(0), W64(2), W64(300),	/* id, idx, cpu, tid */	\
	W64(4242), W64(3)		/* machine_pid, vcpu */
DEF_FX(idx_vcpu, FX_IDX_VCPU);

static void check_idx(const struct pd_record *r)
{
	const struct pd_rec_id_index *x = &r->u.id_index;

	CU_ASSERT_EQUAL_FATAL(x->nr, 2);
	CU_ASSERT(!x->has_vcpu);
	CU_ASSERT_EQUAL(x->entries[0].id, 100);
	CU_ASSERT_EQUAL(x->entries[0].tid, UINT64_MAX);
	CU_ASSERT_EQUAL(x->entries[1].id, 101);
	CU_ASSERT_EQUAL(x->entries[1].idx, 1);
	CU_ASSERT_EQUAL(x->entries[1].cpu, 1);
}

static void check_idx_vcpu(const struct pd_record *r)
{
	const struct pd_rec_id_index *x = &r->u.id_index;

	CU_ASSERT_EQUAL_FATAL(x->nr, 1);
	CU_ASSERT(x->has_vcpu);
	CU_ASSERT_EQUAL(x->entries[0].cpu, 2);
	CU_ASSERT_EQUAL(x->entries[0].tid, 300);
	CU_ASSERT_EQUAL(x->entries[0].machine_pid, 4242);
	CU_ASSERT_EQUAL(x->entries[0].vcpu, 3);
}

static void test_id_index(void)
{
	uint8_t *b = dup_fx(idx_le, sizeof(idx_le));

	BOTH(idx, NULL, check_idx);
	BOTH(idx_vcpu, NULL, check_idx_vcpu);
	b[8] = 3;
	BAD(b, 80, NULL, PD_REC_BAD_COUNT, BASE + 8);
	/* nr 1 in 80 bytes: 16 + 48 = 64 used by the vcpu form */
	b[8] = 1;
	WARN(b, 80, NULL, PD_REC_TRAILING_BYTES, BASE + 64);
	CU_ASSERT(rec.u.id_index.has_vcpu);
	free(b);
}

/* ================= AUXTRACE_INFO / AUXTRACE ================= */

#define FX_ATINFO(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_AUXTRACE_INFO, 0, 32),				\
	W32(1), W32(0),			/* type INTEL_PT, reserved */	\
	W64(11), W64(22)		/* priv[] */
DEF_FX(atinfo, FX_ATINFO);
#define FX_AT(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_AUXTRACE, 0, 48),					\
	W64(4096), W64(0x100), W64(0xabc),	/* size, offset, reference */ \
	W32(1), W32(2), W32(3), W32(0)	/* idx, tid, cpu, reserved */
DEF_FX(at, FX_AT);

static void check_atinfo(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.auxtrace_info.type, 1);
	CU_ASSERT_EQUAL_FATAL(r->u.auxtrace_info.nr_priv, 2);
	CU_ASSERT_EQUAL(r->u.auxtrace_info.priv[0], 11);
	CU_ASSERT_EQUAL(r->u.auxtrace_info.priv[1], 22);
}

static void check_at(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.auxtrace.size, 4096);
	CU_ASSERT_EQUAL(r->u.auxtrace.offset, 0x100);
	CU_ASSERT_EQUAL(r->u.auxtrace.reference, 0xabc);
	CU_ASSERT_EQUAL(r->u.auxtrace.idx, 1);
	CU_ASSERT_EQUAL(r->u.auxtrace.tid, 2);
	CU_ASSERT_EQUAL(r->u.auxtrace.cpu, 3);
}

static void test_auxtrace(void)
{
	BOTH(atinfo, NULL, check_atinfo);
	BOTH(at, NULL, check_at);
	BAD(at_le, 40, NULL, PD_REC_BELOW_MIN, BASE);
}

/* ================= AUXTRACE_ERROR ================= */

#define MSG64 'o', 'o', 'p', 's', 0, 0, 0, 0, Z8, Z8, Z8, Z8, Z8, Z8, Z8
#define FX_ATERR2(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_AUXTRACE_ERROR, 0, 120),				\
	W32(1), W32(2), W32(3),		/* type, code, cpu */		\
	W32(4), W32(5), W32(2),		/* pid, tid, fmt */		\
	W64(0x401000),			/* ip */			\
	W64(777),			/* time */			\
	MSG64,				/* msg[64] */			\
	W32(9), W32(1)			/* machine_pid, vcpu */
DEF_FX(aterr2, FX_ATERR2);
#define FX_ATERR1(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_AUXTRACE_ERROR, 0, 120),				\
	W32(1), W32(2), W32(3), W32(4), W32(5), W32(1), W64(0x401000),	\
	W64(777), MSG64, W32(9), W32(1)	/* not read with fmt 1 */
DEF_FX(aterr1, FX_ATERR1);
#define FX_ATERR0(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_AUXTRACE_ERROR, 0, 104),				\
	W32(1), W32(2), W32(3), W32(4), W32(5), W32(0), W64(0x401000),	\
	MSG64				/* msg where time is now */
DEF_FX(aterr0, FX_ATERR0);

static void check_aterr_common(const struct pd_record *r)
{
	const struct pd_rec_auxtrace_error *a = &r->u.auxtrace_error;

	CU_ASSERT_EQUAL(a->type, 1);
	CU_ASSERT_EQUAL(a->code, 2);
	CU_ASSERT_EQUAL(a->cpu, 3);
	CU_ASSERT_EQUAL(a->pid, 4);
	CU_ASSERT_EQUAL(a->tid, 5);
	CU_ASSERT_EQUAL(a->ip, 0x401000);
	CU_ASSERT_STRING_EQUAL(a->msg, "oops");
}

static void check_aterr2(const struct pd_record *r)
{
	check_aterr_common(r);
	CU_ASSERT_EQUAL(r->u.auxtrace_error.fmt, 2);
	CU_ASSERT_EQUAL(r->u.auxtrace_error.time, 777);
	CU_ASSERT_EQUAL(r->u.auxtrace_error.machine_pid, 9);
	CU_ASSERT_EQUAL(r->u.auxtrace_error.vcpu, 1);
}

static void check_aterr1(const struct pd_record *r)
{
	check_aterr_common(r);
	CU_ASSERT_EQUAL(r->u.auxtrace_error.time, 777);
	CU_ASSERT_EQUAL(r->u.auxtrace_error.machine_pid, 0);
}

static void check_aterr0(const struct pd_record *r)
{
	check_aterr_common(r);
	CU_ASSERT_EQUAL(r->u.auxtrace_error.time, 0);
}

static void test_auxtrace_error(void)
{
	uint8_t *b = dup_fx(aterr1_le, sizeof(aterr1_le));

	BOTH(aterr2, NULL, check_aterr2);
	BOTH(aterr1, NULL, check_aterr1);
	BOTH(aterr0, NULL, check_aterr0);
	memset(b + 48, 'a', 64);
	BAD(b, 120, NULL, PD_REC_BAD_STRING, BASE + 48);
	free(b);
}

/* ================= THREAD_MAP ================= */

#define FX_TMAP(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_THREAD_MAP, 0, 64),					\
	W64(2),				/* nr */			\
	W64(100),			/* pid */			\
	'm', 'a', 'i', 'n', 0, 0, 0, 0, Z8,	/* comm[16] */		\
	W64(101),							\
	'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h',	/* 16 chars, no NUL */	\
	'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p'
DEF_FX(tmap, FX_TMAP);

static void check_tmap(const struct pd_record *r)
{
	CU_ASSERT_EQUAL_FATAL(r->u.thread_map.nr, 2);
	CU_ASSERT_EQUAL(r->u.thread_map.entries[0].pid, 100);
	CU_ASSERT_STRING_EQUAL(r->u.thread_map.entries[0].comm, "main");
	CU_ASSERT_EQUAL(r->u.thread_map.entries[1].pid, 101);
	CU_ASSERT_STRING_EQUAL(r->u.thread_map.entries[1].comm, "abcdefghijklmnop");
}

static void test_thread_map(void)
{
	uint8_t *b = dup_fx(tmap_le, sizeof(tmap_le));

	BOTH(tmap, NULL, check_tmap);
	b[8] = 3;
	BAD(b, 64, NULL, PD_REC_BAD_COUNT, BASE + 8);
	free(b);
}

/* ================= CPU_MAP ================= */

#define FX_CPUS(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_CPU_MAP, 0, 24),					\
	W16(0), W16(3),			/* type CPUS, nr */		\
	W16(0), W16(2), W16(0xffff),	/* cpu[]: 0, 2, -1 */		\
	0, 0, 0, 0, 0, 0		/* padding to 8 */
DEF_FX(cpus, FX_CPUS);
#define FX_MASK4(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_CPU_MAP, 0, 24),					\
	W16(1), W16(2), W16(4),		/* type MASK, nr, long_size */	\
	W32(0x5), W32(0x80000000),	/* CPUs 0, 2 and 63 */		\
	0, 0				/* padding */
DEF_FX(mask4, FX_MASK4);
#define FX_MASK8(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_CPU_MAP, 0, 32),					\
	W16(1), W16(1), W16(8),		/* type MASK, nr, long_size */	\
	0, 0, 0, 0,			/* pad */			\
	W64(0x8000000000000001ULL),	/* CPUs 0 and 63 */		\
	0, 0, 0, 0, 0, 0		/* padding */
DEF_FX(mask8, FX_MASK8);
#define FX_RANGE(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_CPU_MAP, 0, 16),					\
	W16(2), 1, 0,			/* type RANGE, any_cpu, pad */	\
	W16(4), W16(7)			/* start_cpu, end_cpu */
DEF_FX(range, FX_RANGE);

static void check_cpus(const struct pd_record *r)
{
	const struct pd_cpu_map *m = &r->u.cpu_map.map;

	CU_ASSERT_EQUAL(m->encoding, 0);
	CU_ASSERT(m->any_cpu);
	CU_ASSERT_EQUAL_FATAL(m->nr, 3);
	CU_ASSERT_EQUAL(m->cpus[0], 0);
	CU_ASSERT_EQUAL(m->cpus[1], 2);
	CU_ASSERT_EQUAL(m->cpus[2], UINT32_MAX);
}

static void check_mask4(const struct pd_record *r)
{
	const struct pd_cpu_map *m = &r->u.cpu_map.map;

	CU_ASSERT_EQUAL(m->encoding, 1);
	CU_ASSERT_EQUAL(m->long_size, 4);
	CU_ASSERT(!m->any_cpu);
	CU_ASSERT_EQUAL_FATAL(m->nr, 3);
	CU_ASSERT_EQUAL(m->cpus[0], 0);
	CU_ASSERT_EQUAL(m->cpus[1], 2);
	CU_ASSERT_EQUAL(m->cpus[2], 63);
}

static void check_mask8(const struct pd_record *r)
{
	const struct pd_cpu_map *m = &r->u.cpu_map.map;

	CU_ASSERT_EQUAL(m->long_size, 8);
	CU_ASSERT_EQUAL_FATAL(m->nr, 2);
	CU_ASSERT_EQUAL(m->cpus[0], 0);
	CU_ASSERT_EQUAL(m->cpus[1], 63);
}

static void check_range(const struct pd_record *r)
{
	const struct pd_cpu_map *m = &r->u.cpu_map.map;

	CU_ASSERT_EQUAL(m->encoding, 2);
	CU_ASSERT(m->any_cpu);
	CU_ASSERT_EQUAL_FATAL(m->nr, 4);
	CU_ASSERT_EQUAL(m->cpus[0], 4);
	CU_ASSERT_EQUAL(m->cpus[3], 7);
}

static void test_cpu_map(void)
{
	uint8_t *b;

	BOTH(cpus, NULL, check_cpus);
	BOTH(mask4, NULL, check_mask4);
	BOTH(mask8, NULL, check_mask8);
	BOTH(range, NULL, check_range);

	b = dup_fx(cpus_le, sizeof(cpus_le));
	b[10] = 10;
	BAD(b, 24, NULL, PD_REC_BAD_COUNT, BASE + 10);
	b[8] = 5;
	BAD(b, 24, NULL, PD_REC_BAD_FIELD, BASE + 8);
	free(b);

	b = dup_fx(mask4_le, sizeof(mask4_le));
	b[12] = 6;
	BAD(b, 24, NULL, PD_REC_BAD_FIELD, BASE + 12);
	b[12] = 4;
	b[10] = 4;
	BAD(b, 24, NULL, PD_REC_BAD_COUNT, BASE + 10);
	free(b);

	b = dup_fx(range_le, sizeof(range_le));
	b[12] = 8;
	BAD(b, 16, NULL, PD_REC_BAD_FIELD, BASE + 12);
	free(b);
}

/* ================= STAT_CONFIG / STAT / STAT_ROUND ================= */

#define FX_SCONF(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_STAT_CONFIG, 0, 48),					\
	W64(2),				/* nr */			\
	W64(0), W64(1),			/* AGGR_MODE = 1 */		\
	W64(1), W64(1000)		/* INTERVAL = 1000 */
DEF_FX(sconf, FX_SCONF);
#define FX_STAT(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_STAT, 0, 48),					\
	W64(77),			/* id */			\
	W32(3), W32(4),			/* cpu, thread */		\
	W64(100), W64(200), W64(150)	/* val, ena, run */
DEF_FX(stat, FX_STAT);
#define FX_SROUND(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_STAT_ROUND, 0, 24), W64(1), W64(5555)	/* FINAL, time */
DEF_FX(sround, FX_SROUND);

static void check_sconf(const struct pd_record *r)
{
	CU_ASSERT_EQUAL_FATAL(r->u.stat_config.nr, 2);
	CU_ASSERT_EQUAL(r->u.stat_config.entries[0].tag, 0);
	CU_ASSERT_EQUAL(r->u.stat_config.entries[0].val, 1);
	CU_ASSERT_EQUAL(r->u.stat_config.entries[1].tag, 1);
	CU_ASSERT_EQUAL(r->u.stat_config.entries[1].val, 1000);
}

static void check_stat(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.stat.id, 77);
	CU_ASSERT_EQUAL(r->u.stat.cpu, 3);
	CU_ASSERT_EQUAL(r->u.stat.thread, 4);
	CU_ASSERT_EQUAL(r->u.stat.val, 100);
	CU_ASSERT_EQUAL(r->u.stat.ena, 200);
	CU_ASSERT_EQUAL(r->u.stat.run, 150);
}

static void check_sround(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.stat_round.type, 1);
	CU_ASSERT_EQUAL(r->u.stat_round.time, 5555);
}

static void test_stat(void)
{
	uint8_t *b = dup_fx(sconf_le, sizeof(sconf_le));

	BOTH(sconf, NULL, check_sconf);
	BOTH(stat, NULL, check_stat);
	BOTH(sround, NULL, check_sround);
	b[8] = 3;
	BAD(b, 48, NULL, PD_REC_BAD_COUNT, BASE + 8);
	free(b);
}

/* ================= EVENT_UPDATE ================= */

#define FX_EU_UNIT(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_EVENT_UPDATE, 0, 32),				\
	W64(0), W64(77),		/* type UNIT, id */		\
	'm', 's', 0, 0, 0, 0, 0, 0
DEF_FX(eu_unit, FX_EU_UNIT);
#define FX_EU_SCALE(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_EVENT_UPDATE, 0, 32),				\
	W64(1), W64(77),		/* type SCALE, id */		\
	W64(0x3fe0000000000000ULL)	/* 0.5 as a double */
DEF_FX(eu_scale, FX_EU_SCALE);
#define FX_EU_NAME(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_EVENT_UPDATE, 0, 32),				\
	W64(2), W64(77),		/* type NAME, id */		\
	'c', 'y', 'c', 0, 0, 0, 0, 0
DEF_FX(eu_name, FX_EU_NAME);
#define FX_EU_CPUS(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_EVENT_UPDATE, 0, 32),				\
	W64(3), W64(77),		/* type CPUS, id */		\
	W16(2), 0, 0, W16(0), W16(3)	/* RANGE 0..3 */
DEF_FX(eu_cpus, FX_EU_CPUS);

static void check_eu_unit(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.event_update.type, 0);
	CU_ASSERT_EQUAL(r->u.event_update.id, 77);
	CU_ASSERT_STRING_EQUAL(r->u.event_update.str, "ms");
}

static void check_eu_scale(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.event_update.type, 1);
	CU_ASSERT_DOUBLE_EQUAL(r->u.event_update.scale, 0.5, 0.0);
}

static void check_eu_name(const struct pd_record *r)
{
	CU_ASSERT_STRING_EQUAL(r->u.event_update.str, "cyc");
}

static void check_eu_cpus(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.event_update.cpus.encoding, 2);
	CU_ASSERT_EQUAL_FATAL(r->u.event_update.cpus.nr, 4);
	CU_ASSERT_EQUAL(r->u.event_update.cpus.cpus[3], 3);
}

static void test_event_update(void)
{
	uint8_t *b = dup_fx(eu_unit_le, sizeof(eu_unit_le));

	BOTH(eu_unit, NULL, check_eu_unit);
	BOTH(eu_scale, NULL, check_eu_scale);
	BOTH(eu_name, NULL, check_eu_name);
	BOTH(eu_cpus, NULL, check_eu_cpus);
	b[8] = 9;
	BAD(b, 32, NULL, PD_REC_BAD_FIELD, BASE + 8);
	b[8] = 1;
	BAD(b, 24, NULL, PD_REC_BELOW_MIN, BASE);
	b[8] = 0;
	memset(b + 24, 'x', 8);
	BAD(b, 32, NULL, PD_REC_BAD_STRING, BASE + 24);
	free(b);
}

/* ================= TIME_CONV ================= */

#define FX_TC56(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_TIME_CONV, 0, 56),					\
	W64(10), W64(500), W64(1000),	/* shift, mult, zero */		\
	W64(7), W64(0xffff),		/* time_cycles, time_mask */	\
	1, 1, 0, 0, 0, 0, 0, 0		/* caps, reserved */
DEF_FX(tc56, FX_TC56);
#define FX_TC32(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_TIME_CONV, 0, 32), W64(10), W64(500), W64(1000)
DEF_FX(tc32, FX_TC32);

static void check_tc32(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.time_conv.time_shift, 10);
	CU_ASSERT_EQUAL(r->u.time_conv.time_mult, 500);
	CU_ASSERT_EQUAL(r->u.time_conv.time_zero, 1000);
	CU_ASSERT(!r->u.time_conv.extended);
	CU_ASSERT_EQUAL(r->u.time_conv.time_mask, 0);
}

static void check_tc56(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.time_conv.time_zero, 1000);
	CU_ASSERT(r->u.time_conv.extended);
	CU_ASSERT_EQUAL(r->u.time_conv.time_cycles, 7);
	CU_ASSERT_EQUAL(r->u.time_conv.time_mask, 0xffff);
	CU_ASSERT_EQUAL(r->u.time_conv.cap_user_time_zero, 1);
	CU_ASSERT_EQUAL(r->u.time_conv.cap_user_time_short, 1);
}

static void test_time_conv(void)
{
	uint8_t b[40];

	BOTH(tc32, NULL, check_tc32);
	BOTH(tc56, NULL, check_tc56);
	memcpy(b, tc56_le, 40);
	b[6] = 40;
	WARN(b, 40, NULL, PD_REC_TRAILING_BYTES, BASE + 32);
	CU_ASSERT(!rec.u.time_conv.extended);
}

/* ================= HEADER_FEATURE / COMPRESSED ================= */

#define FX_FEAT(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_HEADER_FEATURE, 0, 21),				\
	W64(PD_FEAT_TOTAL_MEM),		/* feat_id */			\
	1, 2, 3, 4, 5			/* payload, not padded */
DEF_FX(feat, FX_FEAT);
#define FX_FEAT_END(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_HEADER_FEATURE, 0, 16), W64(PD_FEAT_LINUX_MAX)
DEF_FX(feat_end, FX_FEAT_END);
#define FX_Z(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_COMPRESSED, 0, 13), 0x28, 0xb5, 0x2f, 0xfd, 0x00
DEF_FX(z, FX_Z);
#define FX_Z2(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_COMPRESSED2, 0, 24),					\
	W64(5),				/* data_size */			\
	0x28, 0xb5, 0x2f, 0xfd, 0x00, 0, 0, 0	/* data, padding */
DEF_FX(z2, FX_Z2);

static void check_feat(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.header_feature.feat_id, PD_FEAT_TOTAL_MEM);
	CU_ASSERT_EQUAL(r->u.header_feature.len, 5);
	CU_ASSERT_PTR_EQUAL(r->u.header_feature.payload, r->raw + 16);
	CU_ASSERT(!r->u.header_feature.end_marker);
}

static void check_feat_end(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.header_feature.feat_id, PD_FEAT_LINUX_MAX);
	CU_ASSERT_EQUAL(r->u.header_feature.len, 0);
	CU_ASSERT(r->u.header_feature.end_marker);
}

static void check_z(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.compressed.data_size, 5);
	CU_ASSERT_PTR_EQUAL(r->u.compressed.data, r->raw + 8);
}

static void check_z2(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.compressed.data_size, 5);
	CU_ASSERT_PTR_EQUAL(r->u.compressed.data, r->raw + 16);
}

static void test_feature_compressed(void)
{
	uint8_t *b = dup_fx(z2_le, sizeof(z2_le));

	BOTH(feat, NULL, check_feat);
	BOTH(feat_end, NULL, check_feat_end);
	BOTH(z, NULL, check_z);
	BOTH(z2, NULL, check_z2);
	b[8] = 9;
	BAD(b, 24, NULL, PD_COMPRESSED_BAD_SIZE, BASE + 8);
	free(b);
}

/* ================= programmatic builder for the big layouts ================= */

struct bld {
	uint8_t b[2048];
	size_t n;
	bool be;
};

static void put(struct bld *x, uint64_t v, unsigned int w)
{
	unsigned int i;

	for (i = 0; i < w; i++)
		x->b[x->n + i] = (uint8_t)(v >> (8 * (x->be ? w - 1 - i : i)));
	x->n += w;
}

/* `len` bytes holding s and zero padding */
static void put_str(struct bld *x, const char *s, size_t len)
{
	memset(x->b + x->n, 0, len);
	memcpy(x->b + x->n, s, strlen(s));
	x->n += len;
}

static void put_hdr(struct bld *x, uint32_t type, uint16_t misc)
{
	x->n = 0;
	put(x, type, 4);
	put(x, misc, 2);
	put(x, 0, 2);		/* size: set by fix_size() */
}

static void fix_size(struct bld *x)
{
	size_t n = x->n;

	x->n = 6;
	put(x, n, 2);
	x->n = n;
}

/* ================= BPF_METADATA ================= */

static void build_bpf_md(struct bld *x, bool be)
{
	x->be = be;
	put_hdr(x, PD_REC_BPF_METADATA, 0);
	put_str(x, "prog", 512);		/* prog_name[512] */
	put(x, 2, 8);				/* nr_entries */
	put_str(x, "bpf_metadata_a", 64);	/* key[64] */
	put_str(x, "1", 256);			/* value[256] */
	put_str(x, "bpf_metadata_b", 64);
	put_str(x, "two", 256);
	fix_size(x);
}

static void test_bpf_metadata(void)
{
	struct bld x;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		build_bpf_md(&x, pass);
		CU_ASSERT_EQUAL(x.n, 528 + 640);
		CU_ASSERT_EQUAL(run(x.b, x.n, pass != HOST_BE, NULL), 0);
		CU_ASSERT_EQUAL(diags.n, 0);
		CU_ASSERT_STRING_EQUAL(rec.u.bpf_metadata.prog_name, "prog");
		CU_ASSERT_EQUAL_FATAL(rec.u.bpf_metadata.nr, 2);
		CU_ASSERT_STRING_EQUAL(rec.u.bpf_metadata.entries[0].key, "bpf_metadata_a");
		CU_ASSERT_STRING_EQUAL(rec.u.bpf_metadata.entries[1].value, "two");
	}
	build_bpf_md(&x, false);
	x.b[520] = 3;
	BAD(x.b, x.n, NULL, PD_REC_BAD_COUNT, BASE + 520);
	x.b[520] = 2;
	memset(x.b + 528 + 320 + 64, 'v', 256);
	BAD(x.b, x.n, NULL, PD_REC_BAD_STRING, BASE + 528 + 320 + 64);
	memset(x.b + 8, 'p', 512);
	BAD(x.b, x.n, NULL, PD_REC_BAD_STRING, BASE + 8);
	BAD(x.b, 520, NULL, PD_REC_BELOW_MIN, BASE);
}

/* ================= SCHEDSTAT ================= */

#define FX_SS_CPU(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_SCHEDSTAT_CPU, 0, 72),				\
	W64(123456789),			/* timestamp */			\
	W32(2), W16(17), 0, 0,		/* cpu, version, pad */		\
	W32(1), W32(2), W32(3),		/* yld_count, array_exp, sched_count */ \
	W32(4), W32(5), W32(6),		/* sched_goidle, ttwu_count, ttwu_local */ \
	W64(7), W64(8), W64(9)		/* rq_cpu_time, run_delay, pcount */
DEF_FX(ss_cpu, FX_SS_CPU);

static void check_ss_cpu(const struct pd_record *r)
{
	const struct pd_rec_schedstat *s = &r->u.schedstat;

	CU_ASSERT_EQUAL(s->timestamp, 123456789);
	CU_ASSERT_EQUAL(s->cpu, 2);
	CU_ASSERT_EQUAL(s->version, 17);
	CU_ASSERT_EQUAL(s->counter_len, 48);
	CU_ASSERT_EQUAL_FATAL(s->nr, 9);
	CU_ASSERT_STRING_EQUAL(s->counters[0].name, "yld_count");
	CU_ASSERT_EQUAL(s->counters[0].value, 1);
	CU_ASSERT_STRING_EQUAL(s->counters[5].name, "ttwu_local");
	CU_ASSERT_EQUAL(s->counters[5].value, 6);
	CU_ASSERT_STRING_EQUAL(s->counters[8].name, "pcount");
	CU_ASSERT_EQUAL(s->counters[8].value, 9);
}

/* domain counters 1..n, padded to 8 */
static void build_ss_dom(struct bld *x, bool be, uint16_t version, unsigned int n)
{
	unsigned int i;

	x->be = be;
	put_hdr(x, PD_REC_SCHEDSTAT_DOMAIN, 0);
	put(x, 42, 8);			/* timestamp */
	put(x, 1, 4);			/* cpu */
	put(x, version, 2);		/* version */
	put(x, 3, 2);			/* domain */
	for (i = 0; i < n; i++)
		put(x, i + 1, 4);
	while (x->n % 8)
		put(x, 0, 1);
	fix_size(x);
}

static void test_schedstat(void)
{
	static const struct {
		uint16_t version;
		unsigned int n;
		const char *first, *last;
	} v[] = {
		{ 15, 36, "idle_lb_count", "ttwu_move_balance" },
		{ 16, 36, "busy_lb_count", "ttwu_move_balance" },
		{ 17, 45, "busy_lb_count", "ttwu_move_balance" },
	};
	struct bld x;
	unsigned int i;
	int pass;

	BOTH(ss_cpu, NULL, check_ss_cpu);
	for (i = 0; i < 3; i++) {
		for (pass = 0; pass < 2; pass++) {
			build_ss_dom(&x, pass, v[i].version, v[i].n);
			CU_ASSERT_EQUAL(run(x.b, x.n, pass != HOST_BE, NULL), 0);
			CU_ASSERT_EQUAL(diags.n, 0);
			CU_ASSERT_EQUAL(rec.u.schedstat.domain, 3);
			CU_ASSERT_EQUAL_FATAL(rec.u.schedstat.nr, v[i].n);
			CU_ASSERT_STRING_EQUAL(rec.u.schedstat.counters[0].name, v[i].first);
			CU_ASSERT_STRING_EQUAL(rec.u.schedstat.counters[v[i].n - 1].name,
					       v[i].last);
			CU_ASSERT_EQUAL(rec.u.schedstat.counters[v[i].n - 1].value, v[i].n);
		}
	}
	/* v17 names the imbalance split */
	build_ss_dom(&x, false, 17, 45);
	CU_ASSERT_EQUAL(run(x.b, x.n, HOST_BE, NULL), 0);
	CU_ASSERT_STRING_EQUAL(rec.u.schedstat.counters[3].name, "busy_lb_imbalance_load");
	/* unknown version: raw counter bytes only */
	build_ss_dom(&x, false, 99, 10);
	CU_ASSERT_EQUAL(run(x.b, x.n, HOST_BE, NULL), 0);
	CU_ASSERT_EQUAL(diags.n, 0);
	CU_ASSERT_EQUAL(rec.u.schedstat.nr, 0);
	CU_ASSERT_EQUAL(rec.u.schedstat.counter_len, 40);
	CU_ASSERT_PTR_EQUAL(rec.u.schedstat.counter_bytes, x.b + 24);
	/* too short for the v17 counters */
	BAD(ss_cpu_le, 64, NULL, PD_REC_BELOW_MIN, BASE);
}

/* ================= simpleperf ================= */

#define FX_SP_KSYM(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_SP_KERNEL_SYMBOL, 0, 28),	/* size_hi 0, size_lo */ \
	W32(13),			/* kallsyms_size */		\
	'f', 'f', ' ', 't', ' ', '_', 't', 'e', 'x', 't', '\n', 'x', 'y', \
	0, 0, 0				/* padding to 8 */
DEF_FX(sp_ksym, FX_SP_KSYM);
#define FX_SP_DSO(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_SP_DSO, 0, 40),					\
	W64(1), W64(5), W64(0x1000),	/* dso_type, dso_id, min_vaddr */ \
	'/', 'a', '.', 's', 'o', 0, 0, 0	/* name */
DEF_FX(sp_dso, FX_SP_DSO);
#define FX_SP_SYM(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_SP_SYMBOL, 0, 40),					\
	W64(0x1100), W64(0x20), W64(5),	/* addr, len, dso_id */		\
	'm', 'a', 'i', 'n', 0, 0, 0, 0	/* name */
DEF_FX(sp_sym, FX_SP_SYM);
#define FX_SP_EVID(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_SP_EVENT_ID, 0, 48),					\
	W64(2),				/* count */			\
	W64(0), W64(100),		/* attr_index, event_id */	\
	W64(1), W64(200)
DEF_FX(sp_evid, FX_SP_EVID);
#define FX_SP_CC(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_SP_CALLCHAIN, 0, 72),				\
	W32(9), W32(10),		/* pid, tid */			\
	W64(2), W64(555),		/* chain_type JOINED_OFFLINE, time */ \
	W64(2),				/* ip_nr */			\
	W64(0x1000), W64(0x2000),	/* ips */			\
	W64(0x7ff0), W64(0x7ff8)	/* sps */
DEF_FX(sp_cc, FX_SP_CC);
#define FX_SP_UNW(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_SP_UNWINDING_RESULT, 0, 136),			\
	W64(555), W64(12),		/* time, used_time */		\
	W64(1), W64(0xdead),		/* error_code, error_addr */	\
	W64(0x7f00), W64(0x8000),	/* stack_start, stack_end */	\
	W64(2), W64(0x3),		/* regs_abi, reg_mask */	\
	W64(0x11), W64(0x22),		/* regs */			\
	W64(8),				/* stack_size */		\
	1, 2, 3, 4, 5, 6, 7, 8,		/* stack (raw) */		\
	W64(4),				/* dyn_size */			\
	W64(1),				/* callchain n */		\
	W64(0x1000), W64(0x7ff0)	/* ips, sps */
DEF_FX(sp_unw, FX_SP_UNW);
#define FX_SP_UNW_MIN(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_SP_UNWINDING_RESULT, 0, 88),				\
	W64(555), W64(12), W64(1), W64(0xdead), W64(0x7f00), W64(0x8000), \
	W64(0), W64(0),			/* no regs */			\
	W64(0),				/* stack_size */		\
	W64(0)				/* n */
DEF_FX(sp_unw_min, FX_SP_UNW_MIN);
#define FX_SP_TD(W16, W32, W64)						\
	HDR(W16, W32, PD_REC_SP_TRACING_DATA, 0, 76),				\
	W32(10),			/* data_size */			\
	0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g', 0, 0, 0, 0, 0, 0, \
	Z8, Z8, Z8, Z8, Z8, Z8
DEF_FX(sp_td, FX_SP_TD);
#define FX_SP_DEBUG(W16, W32, W64)					\
	HDR(W16, W32, PD_REC_SP_DEBUG, 0, 24), W64(1), 'd', 'b', 'g', 0, 0, 0, 0, 0
DEF_FX(sp_debug, FX_SP_DEBUG);
#define FX_SP_SPLIT_END(W16, W32, W64) HDR(W16, W32, PD_REC_SP_SPLIT_END, 0, 8)
DEF_FX(sp_split_end, FX_SP_SPLIT_END);
#define FX_UNKNOWN(W16, W32, W64) HDR(W16, W32, 1000, 0, 16), W64(1)
DEF_FX(unknown, FX_UNKNOWN);

static void check_sp_ksym(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.sp_kernel_symbol.kallsyms_size, 13);
	CU_ASSERT_EQUAL(memcmp(r->u.sp_kernel_symbol.kallsyms, "ff t _text\nxy", 13), 0);
}

static void check_sp_dso(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.sp_dso.dso_type, 1);
	CU_ASSERT_EQUAL(r->u.sp_dso.dso_id, 5);
	CU_ASSERT_EQUAL(r->u.sp_dso.min_vaddr, 0x1000);
	CU_ASSERT_STRING_EQUAL(r->u.sp_dso.name, "/a.so");
}

static void check_sp_sym(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.sp_symbol.addr, 0x1100);
	CU_ASSERT_EQUAL(r->u.sp_symbol.len, 0x20);
	CU_ASSERT_EQUAL(r->u.sp_symbol.dso_id, 5);
	CU_ASSERT_STRING_EQUAL(r->u.sp_symbol.name, "main");
}

static void check_sp_evid(const struct pd_record *r)
{
	CU_ASSERT_EQUAL_FATAL(r->u.sp_event_id.nr, 2);
	CU_ASSERT_EQUAL(r->u.sp_event_id.entries[1].attr_index, 1);
	CU_ASSERT_EQUAL(r->u.sp_event_id.entries[1].event_id, 200);
}

static void check_sp_cc(const struct pd_record *r)
{
	const struct pd_rec_sp_callchain *c = &r->u.sp_callchain;

	CU_ASSERT_EQUAL(c->pid, 9);
	CU_ASSERT_EQUAL(c->tid, 10);
	CU_ASSERT_EQUAL(c->chain_type, 2);
	CU_ASSERT_EQUAL(c->time, 555);
	CU_ASSERT_EQUAL_FATAL(c->nr, 2);
	CU_ASSERT_EQUAL(c->ips[1], 0x2000);
	CU_ASSERT_EQUAL(c->sps[0], 0x7ff0);
	CU_ASSERT_EQUAL(c->sps[1], 0x7ff8);
}

static void check_sp_unw(const struct pd_record *r)
{
	const struct pd_rec_sp_unwinding_result *u = &r->u.sp_unwinding_result;

	CU_ASSERT_EQUAL(u->time, 555);
	CU_ASSERT_EQUAL(u->error_code, 1);
	CU_ASSERT_EQUAL(u->stack_end, 0x8000);
	CU_ASSERT_EQUAL(u->regs_abi, 2);
	CU_ASSERT_EQUAL_FATAL(u->nr_regs, 2);
	CU_ASSERT_EQUAL(u->regs[1], 0x22);
	CU_ASSERT_EQUAL(u->stack_size, 8);
	CU_ASSERT_EQUAL(u->stack[0], 1);
	CU_ASSERT_EQUAL(u->stack[7], 8);
	CU_ASSERT_EQUAL(u->dyn_size, 4);
	CU_ASSERT(u->has_callchain);
	CU_ASSERT_EQUAL_FATAL(u->callchain_nr, 1);
	CU_ASSERT_EQUAL(u->ips[0], 0x1000);
	CU_ASSERT_EQUAL(u->sps[0], 0x7ff0);
}

static void check_sp_unw_min(const struct pd_record *r)
{
	const struct pd_rec_sp_unwinding_result *u = &r->u.sp_unwinding_result;

	CU_ASSERT_EQUAL(u->nr_regs, 0);
	CU_ASSERT_EQUAL(u->stack_size, 0);
	CU_ASSERT(u->has_callchain);
	CU_ASSERT_EQUAL(u->callchain_nr, 0);
}

static void check_sp_td(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.sp_tracing_data.size, 10);
	CU_ASSERT(r->u.sp_tracing_data.inline_data);
	CU_ASSERT_PTR_EQUAL(r->u.sp_tracing_data.data, r->raw + 12);
}

static void check_sp_debug(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.sp_debug.time, 1);
	CU_ASSERT_STRING_EQUAL(r->u.sp_debug.s, "dbg");
}

static void test_simpleperf(void)
{
	uint8_t *b;

	BOTH(sp_ksym, NULL, check_sp_ksym);
	BOTH(sp_dso, NULL, check_sp_dso);
	BOTH(sp_sym, NULL, check_sp_sym);
	BOTH(sp_evid, NULL, check_sp_evid);
	BOTH(sp_cc, NULL, check_sp_cc);
	BOTH(sp_unw, NULL, check_sp_unw);
	BOTH(sp_unw_min, NULL, check_sp_unw_min);
	BOTH(sp_td, NULL, check_sp_td);
	BOTH(sp_debug, NULL, check_sp_debug);
	BOTH(sp_split_end, NULL, check_nothing);
	BOTH(unknown, NULL, check_nothing);
	/* custom records never carry a trailer, even with sample_id_all */
	BOTH(sp_dso, &ev_sid, check_sp_dso);

	b = dup_fx(sp_ksym_le, sizeof(sp_ksym_le));
	b[8] = 100;
	BAD(b, 28, NULL, PD_REC_BAD_COUNT, BASE + 8);
	free(b);
	b = dup_fx(sp_evid_le, sizeof(sp_evid_le));
	b[8] = 3;
	BAD(b, 48, NULL, PD_REC_BAD_COUNT, BASE + 8);
	free(b);
	b = dup_fx(sp_cc_le, sizeof(sp_cc_le));
	b[32] = 3;
	BAD(b, 72, NULL, PD_REC_BAD_COUNT, BASE + 32);
	free(b);
	b = dup_fx(sp_unw_le, sizeof(sp_unw_le));
	b[64] = 0xff;		/* 8 registers do not leave room for stack_size */
	BAD(b, 136, NULL, PD_REC_BAD_COUNT, BASE + 64);
	b[64] = 3;
	b[88] = 100;		/* stack_size */
	BAD(b, 136, NULL, PD_REC_BAD_COUNT, BASE + 88);
	b[88] = 8;
	b[104] = 9;		/* dyn_size > stack_size */
	BAD(b, 136, NULL, PD_REC_BAD_FIELD, BASE + 104);
	b[104] = 4;
	b[112] = 2;		/* callchain n */
	BAD(b, 136, NULL, PD_REC_BAD_COUNT, BASE + 112);
	free(b);
	b = dup_fx(sp_td_le, sizeof(sp_td_le));
	b[8] = 70;
	BAD(b, 76, NULL, PD_REC_BAD_COUNT, BASE + 8);
	free(b);
	b = dup_fx(sp_dso_le, sizeof(sp_dso_le));
	memset(b + 32, 'n', 8);
	BAD(b, 40, NULL, PD_REC_BAD_STRING, BASE + 32);
	free(b);
	BAD(sp_unw_min_le, 72, NULL, PD_REC_BELOW_MIN, BASE);
}

/* ================= offsets of records from compressed data ================= */

static void test_from_compressed(void)
{
	uint8_t *b = dup_fx(ns_le, sizeof(ns_le));

	b[16] = 3;
	reset();
	pd_decoder_fini(&dec);
	pd_decoder_init(&dec, HOST_BE);
	memset(&rec, 0, sizeof(rec));
	rec.swapped = HOST_BE;
	rec.type = PD_REC_NAMESPACES;
	rec.size = sizeof(ns_le);
	rec.offset = BASE;
	rec.index = REC_INDEX;
	rec.from_compressed = true;
	rec.inner_offset = 100;
	rec.raw = b;
	rec.raw_len = sizeof(ns_le);
	CU_ASSERT_EQUAL(pd_record_decode(&dec, &rec, &ev_plain, &diags.sink), -1);
	/* inside compressed data the container's offset is reported */
	ASSERT_ONE(PD_REC_BAD_COUNT, BASE);
	CU_ASSERT_EQUAL(diags.seen[0].record_type, PD_REC_NAMESPACES);
	free(b);
}

/* ================= names.c ================= */

static void test_names(void)
{
	CU_ASSERT_STRING_EQUAL(pd_record_type_name(PD_REC_SAMPLE), "SAMPLE");
	CU_ASSERT_STRING_EQUAL(pd_record_type_name(PD_REC_MMAP2), "MMAP2");
	CU_ASSERT_STRING_EQUAL(pd_record_type_name(PD_REC_CALLCHAIN_DEFERRED),
			       "CALLCHAIN_DEFERRED");
	CU_ASSERT_STRING_EQUAL(pd_record_type_name(PD_REC_FINISHED_ROUND), "FINISHED_ROUND");
	CU_ASSERT_STRING_EQUAL(pd_record_type_name(PD_REC_HEADER_ATTR), "HEADER_ATTR");
	CU_ASSERT_STRING_EQUAL(pd_record_type_name(PD_REC_COMPRESSED2), "COMPRESSED2");
	CU_ASSERT_STRING_EQUAL(pd_record_type_name(PD_REC_SCHEDSTAT_DOMAIN), "SCHEDSTAT_DOMAIN");
	CU_ASSERT_STRING_EQUAL(pd_record_type_name(PD_REC_SP_KERNEL_SYMBOL),
			       "SIMPLEPERF_KERNEL_SYMBOL");
	CU_ASSERT_STRING_EQUAL(pd_record_type_name(PD_REC_SP_DEBUG), "SIMPLEPERF_DEBUG");
	CU_ASSERT_PTR_NULL(pd_record_type_name(0));
	CU_ASSERT_PTR_NULL(pd_record_type_name(PD_REC_KERNEL_MAX));
	CU_ASSERT_PTR_NULL(pd_record_type_name(63));
	CU_ASSERT_PTR_NULL(pd_record_type_name(PD_REC_USER_MAX));
	CU_ASSERT_PTR_NULL(pd_record_type_name(PD_REC_SP_START));
	CU_ASSERT_PTR_NULL(pd_record_type_name(PD_REC_SP_MAX));
	CU_ASSERT(pd_record_type_known(PD_REC_SP_SPLIT));
	CU_ASSERT(!pd_record_type_known(1000));

	CU_ASSERT_STRING_EQUAL(pd_feature_name(PD_FEAT_HOSTNAME), "HOSTNAME");
	CU_ASSERT_STRING_EQUAL(pd_feature_name(PD_FEAT_CLN_SIZE), "CLN_SIZE");
	CU_ASSERT_STRING_EQUAL(pd_feature_name(PD_FEAT_SP_META_INFO), "META_INFO");
	CU_ASSERT_STRING_EQUAL(pd_feature_name(PD_FEAT_SP_INIT_MAP), "INIT_MAP");
	CU_ASSERT_PTR_NULL(pd_feature_name(PD_FEAT_LINUX_MAX));
	CU_ASSERT_PTR_NULL(pd_feature_name(PD_FEAT_SP_MAX));

	CU_ASSERT_STRING_EQUAL(pd_sample_bit_name(0), "IP");
	CU_ASSERT_STRING_EQUAL(pd_sample_bit_name(24), "WEIGHT_STRUCT");
	CU_ASSERT_PTR_NULL(pd_sample_bit_name(25));
	CU_ASSERT_STRING_EQUAL(pd_read_format_bit_name(4), "LOST");
	CU_ASSERT_PTR_NULL(pd_read_format_bit_name(5));
	CU_ASSERT_STRING_EQUAL(pd_branch_sample_bit_name(17), "HW_INDEX");
	CU_ASSERT_STRING_EQUAL(pd_branch_sample_bit_name(19), "COUNTERS");
	CU_ASSERT_PTR_NULL(pd_branch_sample_bit_name(20));
	CU_ASSERT_STRING_EQUAL(pd_attr_flag_name(15), "precise_ip");
	CU_ASSERT_STRING_EQUAL(pd_attr_flag_name(16), "precise_ip");
	CU_ASSERT_STRING_EQUAL(pd_attr_flag_name(18), "sample_id_all");
	CU_ASSERT_STRING_EQUAL(pd_attr_flag_name(39), "defer_output");
	CU_ASSERT_PTR_NULL(pd_attr_flag_name(40));
	CU_ASSERT_STRING_EQUAL(pd_attr_type_name(3), "HW_CACHE");
	CU_ASSERT_PTR_NULL(pd_attr_type_name(6));
	CU_ASSERT_STRING_EQUAL(pd_event_default_name(0, 0), "cycles");
	/* a PMU type in the upper half of config */
	CU_ASSERT_STRING_EQUAL(pd_event_default_name(0, (8ULL << 32) | 1), "instructions");
	CU_ASSERT_STRING_EQUAL(pd_event_default_name(1, 0), "cpu-clock");
	CU_ASSERT_STRING_EQUAL(pd_event_default_name(1, 11), "cgroup-switches");
	CU_ASSERT_PTR_NULL(pd_event_default_name(1, 12));
	CU_ASSERT_PTR_NULL(pd_event_default_name(2, 0));
	CU_ASSERT_STRING_EQUAL(pd_cpumode_name(5), "GUEST_USER");
	CU_ASSERT_PTR_NULL(pd_cpumode_name(6));
	CU_ASSERT_STRING_EQUAL(pd_context_name(PD_CONTEXT_USER_DEFERRED), "USER_DEFERRED");
	CU_ASSERT_PTR_NULL(pd_context_name(PD_CONTEXT_MAX));
	CU_ASSERT_PTR_NULL(pd_context_name(0x1234));

	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_MMAP), 40);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_MMAP2), 72);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_COMM), 16);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_EXIT), 32);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_SAMPLE), 8);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_HEADER_ATTR), 72);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_BPF_METADATA), 528);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_SP_UNWINDING_RESULT), 80);
	CU_ASSERT_EQUAL(pd_record_min_size(5000), 8);
}

/*
 * A record header from bytes in either byte order: type, misc and size
 * as stored, and simpleperf's 32-bit size (misc as its upper half).
 */
static void test_record_header(void)
{
	static const struct {
		uint8_t bytes[8];
		bool big_endian;
		uint32_t type;
		uint16_t misc;
		uint32_t size;
	} cases[] = {
		{ { 0x0a, 0, 0, 0, 0x02, 0x00, 0x70, 0x00 }, false, PD_REC_MMAP2, 2, 0x70 },
		{ { 0, 0, 0, 0x0a, 0x00, 0x02, 0x00, 0x70 }, true, PD_REC_MMAP2, 2, 0x70 },
		{ { 0x01, 0x80, 0, 0, 0x01, 0x00, 0x10, 0x00 }, false, PD_REC_SP_KERNEL_SYMBOL, 0,
		  0x10010 },
		{ { 0, 0, 0x80, 0x01, 0x00, 0x01, 0x00, 0x10 }, true, PD_REC_SP_KERNEL_SYMBOL, 0,
		  0x10010 },
	};
	bool host_be = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	struct pd_record_header h;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		h = pd_record_header_decode(cases[i].bytes, cases[i].big_endian != host_be);
		CU_ASSERT_EQUAL(h.type, cases[i].type);
		CU_ASSERT_EQUAL(h.misc, cases[i].misc);
		CU_ASSERT_EQUAL(h.size, cases[i].size);
	}
}

/*
 * The one description of the fixed fields that decoding, byte-order
 * conversion, minimum sizes and the field walk all use: fields in file
 * order without gaps from the header on, each decoded to a member that
 * holds it, and the minimum size of the format's table (§6.6) never
 * before the end of the fields.
 */
static void test_layouts(void)
{
	static const uint32_t ranges[][2] = {
		{ 1, PD_REC_KERNEL_MAX },
		{ PD_REC_HEADER_ATTR, PD_REC_USER_MAX },
		{ PD_REC_SP_START + 1, PD_REC_SP_MAX },
	};
	size_t r, i;
	uint32_t t;

	CU_ASSERT_PTR_NULL(pd_record_layout(0));
	CU_ASSERT_PTR_NULL(pd_record_layout(PD_REC_KERNEL_MAX));
	CU_ASSERT_PTR_NULL(pd_record_layout(PD_REC_SP_START));
	CU_ASSERT_PTR_NULL(pd_record_layout(PD_REC_SP_MAX));
	for (r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
		for (t = ranges[r][0]; t < ranges[r][1]; t++) {
			const struct pd_layout *l = pd_record_layout(t);
			unsigned int pos = 8;

			CU_ASSERT_PTR_NOT_NULL_FATAL(l);
			for (i = 0; i < l->nr_fields; i++) {
				const struct pd_field *f = &l->fields[i];
				bool number = pd_field_is_number(f);

				CU_ASSERT_EQUAL(f->off, pos);
				pos = f->off + f->size;
				CU_ASSERT(f->member + f->member_size <= sizeof(struct pd_record));
				/* record.c clears only the first u_size bytes of the union */
				if (l->u_size && f->member_size)
					CU_ASSERT(f->member + f->member_size <=
						  offsetof(struct pd_record, u) + l->u_size);
				if (number) {
					CU_ASSERT(f->size == 2 || f->size == 4 || f->size == 8);
					/* record.c stores each at its size */
					CU_ASSERT_EQUAL(f->member_size, f->size);
				}
				if (f->kind == PD_FK_PID)
					CU_ASSERT_EQUAL(f->size, 4);
				if (f->kind == PD_FK_STR)
					CU_ASSERT_EQUAL(f->member_size, sizeof(const char *));
				if (f->kind == PD_FK_BYTES)
					CU_ASSERT_EQUAL(f->member_size, f->size);
				if (f->kind < PD_FK_RESERVED || f->kind == PD_FK_BYTES ||
				    f->kind == PD_FK_STR)
					CU_ASSERT_PTR_NOT_NULL(f->name);
			}
			CU_ASSERT_EQUAL(pd_layout_fields_end(l), pos);
			if (l->min)
				CU_ASSERT(l->min > pos);
			if (l->rest == PD_REST_STRING)
				CU_ASSERT_PTR_NOT_NULL(l->str_name);
			if (l->u_size && l->str_name)
				CU_ASSERT(l->str_member + sizeof(const char *) <=
					  offsetof(struct pd_record, u) + l->u_size);
		}
	}

	/* §6.6, without the string bytes */
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_LOST), 24);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_READ), 24);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_KSYMBOL), 24);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_BPF_EVENT), 24);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_TEXT_POKE), 24);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_CALLCHAIN_DEFERRED), 24);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_SWITCH), 8);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_HEADER_EVENT_TYPE), 24);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_HEADER_TRACING_DATA), 12);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_HEADER_BUILD_ID), 36);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_AUXTRACE), 48);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_AUXTRACE_ERROR), 48);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_CPU_MAP), 16);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_STAT), 48);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_TIME_CONV), 32);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_COMPRESSED), 8);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_COMPRESSED2), 16);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_SCHEDSTAT_DOMAIN), 24);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_SP_KERNEL_SYMBOL), 12);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_SP_CALLCHAIN), 40);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_SP_SPLIT), 8);
	CU_ASSERT_EQUAL(pd_record_min_size(PD_REC_SP_DEBUG), 16);
}

/*
 * Where the variable part of each type decoded by code starts: record.c
 * takes it from the tables (FIELDS_END(), pd_layout_fields_end() of the
 * type's layout), so these are the format's offsets (§6.3 to §6.5) the
 * tables must give.
 */
static void test_layout_variable_starts(void)
{
	static const struct {
		uint32_t type;
		uint16_t start;
	} starts[] = {
		{ PD_REC_MMAP2, 72 },			/* filename */
		{ PD_REC_READ, 16 },			/* read_format values */
		{ PD_REC_NAMESPACES, 24 },		/* links */
		{ PD_REC_TEXT_POKE, 20 },		/* old bytes, new bytes */
		{ PD_REC_CALLCHAIN_DEFERRED, 24 },	/* ips */
		{ PD_REC_HEADER_ATTR, 8 },		/* perf_event_attr */
		{ PD_REC_HEADER_EVENT_TYPE, 16 },	/* name[64] */
		{ PD_REC_HEADER_TRACING_DATA, 12 },	/* pad, or simpleperf's data */
		{ PD_REC_HEADER_BUILD_ID, 36 },		/* filename */
		{ PD_REC_ID_INDEX, 16 },		/* entries */
		{ PD_REC_AUXTRACE_INFO, 16 },		/* priv[] */
		{ PD_REC_AUXTRACE_ERROR, 40 },		/* time (fmt >= 1) or msg */
		{ PD_REC_THREAD_MAP, 16 },		/* entries */
		{ PD_REC_CPU_MAP, 8 },			/* cpu_map_data */
		{ PD_REC_STAT_CONFIG, 16 },		/* entries */
		{ PD_REC_EVENT_UPDATE, 24 },		/* unit, scale, name or cpus */
		{ PD_REC_TIME_CONV, 32 },		/* the extended fields */
		{ PD_REC_HEADER_FEATURE, 16 },		/* the feature's data */
		{ PD_REC_COMPRESSED, 8 },		/* data */
		{ PD_REC_COMPRESSED2, 16 },		/* data */
		{ PD_REC_BPF_METADATA, 528 },		/* entries */
		{ PD_REC_SCHEDSTAT_CPU, 24 },		/* counters */
		{ PD_REC_SCHEDSTAT_DOMAIN, 24 },	/* counters */
		{ PD_REC_SP_KERNEL_SYMBOL, 12 },	/* kallsyms */
		{ PD_REC_SP_EVENT_ID, 16 },		/* entries */
		{ PD_REC_SP_CALLCHAIN, 40 },		/* ips, sps */
		{ PD_REC_SP_UNWINDING_RESULT, 72 },	/* regs */
		{ PD_REC_SP_TRACING_DATA, 12 },		/* data */
	};
	size_t i;

	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		const struct pd_layout *l = pd_record_layout(starts[i].type);

		CU_ASSERT_PTR_NOT_NULL_FATAL(l);
		CU_ASSERT_EQUAL(pd_layout_fields_end(l), starts[i].start);
	}
}

/* ================= registration ================= */

static int suite_init(void)
{
	init_events();
	pd_decoder_init(&dec, false);
	return 0;
}

static int suite_clean(void)
{
	pd_decoder_fini(&dec);
	return 0;
}

int pd_test_register_record(void)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {
		{ "mmap", test_mmap },
		{ "mmap2", test_mmap2 },
		{ "comm", test_comm },
		{ "exit_fork", test_exit_fork },
		{ "throttle_lost", test_throttle_lost },
		{ "read", test_read },
		{ "small_kernel", test_small_kernel },
		{ "namespaces", test_namespaces },
		{ "ksymbol_cgroup", test_ksymbol_cgroup },
		{ "text_poke", test_text_poke },
		{ "callchain_deferred", test_callchain_deferred },
		{ "header_attr", test_header_attr },
		{ "event_type", test_event_type },
		{ "tracing_data", test_tracing_data },
		{ "build_id", test_build_id },
		{ "finished", test_finished },
		{ "id_index", test_id_index },
		{ "auxtrace", test_auxtrace },
		{ "auxtrace_error", test_auxtrace_error },
		{ "thread_map", test_thread_map },
		{ "cpu_map", test_cpu_map },
		{ "stat", test_stat },
		{ "event_update", test_event_update },
		{ "time_conv", test_time_conv },
		{ "feature_compressed", test_feature_compressed },
		{ "bpf_metadata", test_bpf_metadata },
		{ "schedstat", test_schedstat },
		{ "simpleperf", test_simpleperf },
		{ "from_compressed", test_from_compressed },
		{ "names", test_names },
		{ "record header", test_record_header },
		{ "layouts", test_layouts },
		{ "layout variable starts", test_layout_variable_starts },
	};
	CU_pSuite s;
	size_t i;

	s = CU_add_suite("record", suite_init, suite_clean);
	if (!s)
		return CU_get_error();
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!CU_add_test(s, tests[i].name, tests[i].fn))
			return CU_get_error();
	return CUE_SUCCESS;
}
