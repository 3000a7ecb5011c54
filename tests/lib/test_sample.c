// SPDX-License-Identifier: MIT
/*
 * test_sample.c - PERF_RECORD_SAMPLE bodies (pd_sample_decode through
 * pd_record_decode), read_format values and the sample_id trailer.
 *
 * Fixtures are written once as macros over the integer writers and
 * instantiated little-endian and big-endian; the big-endian branch flags
 * are written in the big-endian bit-field allocation (BR), so the twin
 * checks the remapping of §11.3 as well as the byte swapping.
 */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "diag_recorder.h"
#include "decode.h"
#include "fixture_bytes.h"
#include "perfdata/pd_sample_fields.h"

int pd_test_register_sample(void);

/* ---- fixtures (the byte writers: fixture_bytes.h) ---- */

/*
 * perf_branch_entry.flags as a big-endian compiler lays the bit-fields out
 * (widths 1,1,1,1,16,4,2,4,3,31 from the most significant bit), given the
 * little-endian numbered value v.
 */
#define BE_BRFLAGS(v)							\
	((((uint64_t)(v) & 1) << 63) |					\
	 ((((uint64_t)(v) >> 1) & 1) << 62) |				\
	 ((((uint64_t)(v) >> 2) & 1) << 61) |				\
	 ((((uint64_t)(v) >> 3) & 1) << 60) |				\
	 ((((uint64_t)(v) >> 4) & 0xffff) << 44) |			\
	 ((((uint64_t)(v) >> 20) & 0xf) << 40) |			\
	 ((((uint64_t)(v) >> 24) & 0x3) << 38) |			\
	 ((((uint64_t)(v) >> 26) & 0xf) << 34) |			\
	 ((((uint64_t)(v) >> 30) & 0x7) << 31) |			\
	 (((uint64_t)(v) >> 33) & 0x7fffffff))
#define LBR(v) L64(v)
#define BBR(v) B64(BE_BRFLAGS(v))

#define DEF_FX(name, FX)							\
	static const uint8_t name##_le[] = { FX(L16, L32, L64, LBR) };		\
	static const uint8_t name##_be[] = { FX(B16, B32, B64, BBR) }

#define HDR(W16, W32, m, s) W32(PD_REC_SAMPLE), W16(m), W16(s)

#define BASE 8192u
#define REC_INDEX 11

/* ---- diagnostic recorder ---- */

static struct diag_recorder diags;

static void reset(void)
{
	diag_recorder_reset(&diags);
}

#define ASSERT_ONE(c, o)						\
	do {								\
		CU_ASSERT_EQUAL(diags.n, 1);				\
		if (diags.n >= 1) {					\
			CU_ASSERT_EQUAL(diags.seen[0].code, (c));		\
			CU_ASSERT_EQUAL(diags.seen[0].offset, (uint64_t)(o));	\
			CU_ASSERT_EQUAL(diags.seen[0].record_index, REC_INDEX);	\
			CU_ASSERT_EQUAL(diags.seen[0].record_type, PD_REC_SAMPLE); \
		}							\
	} while (0)

/* ---- events ---- */

#define ST_ALL (PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |	\
		PD_SAMPLE_ADDR | PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU |	\
		PD_SAMPLE_PERIOD | PD_SAMPLE_READ | PD_SAMPLE_CALLCHAIN |		\
		PD_SAMPLE_RAW | PD_SAMPLE_BRANCH_STACK | PD_SAMPLE_REGS_USER |		\
		PD_SAMPLE_STACK_USER | PD_SAMPLE_WEIGHT | PD_SAMPLE_DATA_SRC |		\
		PD_SAMPLE_TRANSACTION | PD_SAMPLE_REGS_INTR | PD_SAMPLE_PHYS_ADDR |	\
		PD_SAMPLE_CGROUP | PD_SAMPLE_DATA_PAGE_SIZE |				\
		PD_SAMPLE_CODE_PAGE_SIZE | PD_SAMPLE_AUX)

static struct pd_event ev_all;

static void make_event(struct pd_event *ev, uint64_t sample_type)
{
	memset(ev, 0, sizeof(*ev));
	ev->attr.sample_type = sample_type;
	ev->attr.sample_period = 4000;
	ev->attr.flags = PD_ATTR_SAMPLE_ID_ALL;
	ev->id_pos = -1;
	ev->is_pos = -1;
	ev->name = "test";
}

static void init_events(void)
{
	make_event(&ev_all, ST_ALL);
	ev_all.attr.read_format = PD_FORMAT_TOTAL_TIME_ENABLED | PD_FORMAT_ID;
	ev_all.attr.branch_sample_type = PD_BRANCH_HW_INDEX;
	ev_all.attr.sample_regs_user = 0x5;	/* two registers */
	ev_all.attr.sample_regs_intr = 0x1;	/* one register */
	ev_all.id_pos = 0;
	ev_all.is_pos = 1;
	ev_all.id_hdr_size = 48;
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
	rec.type = PD_REC_SAMPLE;
	rec.misc = pd_ld16(p + 4, swap);
	rec.size = pd_ld16(p + 6, swap);
	rec.offset = BASE;
	rec.index = REC_INDEX;
	rec.swapped = swap;
	rec.raw = p;
	rec.raw_len = len;
	rec.event = ev;
	rec.event_index = ev ? 0 : -1;
	return pd_record_decode(&dec, &rec, ev, &diags.sink);
}

static void both(const uint8_t *le, size_t lel, const uint8_t *be, size_t bel,
		 const struct pd_event *ev, void (*check)(const struct pd_record *r))
{
	int pass;

	CU_ASSERT_EQUAL_FATAL(lel, bel);
	for (pass = 0; pass < 2; pass++) {
		bool is_be = pass == 1, swap = fixture_swap(is_be);

		CU_ASSERT_EQUAL(run(is_be ? be : le, is_be ? bel : lel, swap, ev), 0);
		CU_ASSERT_EQUAL(rec.size, lel);
		CU_ASSERT_EQUAL(diags.n, 0);
		CU_ASSERT(rec.decoded);
		CU_ASSERT(!rec.has_trailer);
		check(&rec);
	}
}

#define BOTH(name, ev, check) \
	both(name##_le, sizeof(name##_le), name##_be, sizeof(name##_be), ev, check)

static uint8_t *dup_fx(const uint8_t *p, size_t len, size_t extra)
{
	uint8_t *q = calloc(1, len + extra + 1);

	memcpy(q, p, len);
	return q;
}

#define BAD(p, len, ev, code, off)					\
	do {								\
		CU_ASSERT_EQUAL(run(p, len, HOST_BE, ev), -1);		\
		CU_ASSERT(!rec.decoded);				\
		ASSERT_ONE(code, off);					\
	} while (0)

/* ================= every field at once ================= */

#define BR0 (1ULL | (0x123ULL << 4) | (4ULL << 20) | (1ULL << 30))
#define BR1 ((1ULL << 1) | (1ULL << 2) | (1ULL << 3) | (15ULL << 20) | \
	     (2ULL << 24) | (3ULL << 26) | (3ULL << 30))

#define FX_ALL(W16, W32, W64, WBR)					\
	HDR(W16, W32, 0x4002, 360),	/* EXACT_IP | USER */		\
	W64(77),			/* @8 IDENTIFIER */		\
	W64(0x401234),			/* @16 IP */			\
	W32(100), W32(101),		/* @24 TID: pid, tid */		\
	W64(5000),			/* @32 TIME */			\
	W64(0xdead0000),		/* @40 ADDR */			\
	W64(77),			/* @48 ID */			\
	W64(88),			/* @56 STREAM_ID */		\
	W32(3), W32(0),			/* @64 CPU: cpu, res */		\
	W64(1000),			/* @72 PERIOD */		\
	W64(12345), W64(999), W64(77),	/* @80 READ: value, enabled, id */ \
	W64(3),				/* @104 CALLCHAIN nr */		\
	W64(PD_CONTEXT_USER), W64(0x401234), W64(0x402000),		\
	W32(12),			/* @136 RAW size */		\
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,	/* @140 raw data */	\
	W64(2),				/* @152 BRANCH nr */		\
	W64(5),				/* @160 hw_idx */		\
	W64(0x401000), W64(0x402000), WBR(BR0),	/* @168 from, to, flags */ \
	W64(0x403000), W64(0x404000), WBR(BR1),	/* @192 */		\
	W64(2), W64(0x11), W64(0x22),	/* @216 REGS_USER: abi, regs */	\
	W64(16),			/* @240 STACK_USER size */	\
	0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,	/* @248 data */	\
	0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,		\
	W64(10),			/* @264 dyn_size */		\
	W64(300),			/* @272 WEIGHT */		\
	W64(0x68100142),		/* @280 DATA_SRC */		\
	W64(0x500000002ULL),		/* @288 TRANSACTION */		\
	W64(1), W64(0x33),		/* @296 REGS_INTR: abi 32, reg */ \
	W64(0x1234000),			/* @312 PHYS_ADDR */		\
	W64(9),				/* @320 CGROUP */		\
	W64(4096),			/* @328 DATA_PAGE_SIZE */	\
	W64(2097152),			/* @336 CODE_PAGE_SIZE */	\
	W64(8),				/* @344 AUX size */		\
	0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7	/* @352 data */
DEF_FX(all, FX_ALL);

static void check_all(const struct pd_record *r)
{
	const struct pd_sample *s = &r->u.sample;
	static const uint8_t raw[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };

	CU_ASSERT_EQUAL(s->sample_type, ST_ALL);
	CU_ASSERT_EQUAL(s->identifier, 77);
	CU_ASSERT_EQUAL(s->ip, 0x401234);
	CU_ASSERT_EQUAL(s->pid, 100);
	CU_ASSERT_EQUAL(s->tid, 101);
	CU_ASSERT_EQUAL(s->time, 5000);
	CU_ASSERT_EQUAL(s->addr, 0xdead0000);
	CU_ASSERT_EQUAL(s->id, 77);
	CU_ASSERT_EQUAL(s->stream_id, 88);
	CU_ASSERT_EQUAL(s->cpu, 3);
	CU_ASSERT_EQUAL(s->cpu_res, 0);
	CU_ASSERT_EQUAL(s->period, 1000);
	CU_ASSERT_EQUAL(s->read.format, ev_all.attr.read_format);
	CU_ASSERT_EQUAL_FATAL(s->read.nr, 1);
	CU_ASSERT_EQUAL(s->read.time_enabled, 999);
	CU_ASSERT_EQUAL(s->read.values[0].value, 12345);
	CU_ASSERT_EQUAL(s->read.values[0].id, 77);
	CU_ASSERT_EQUAL_FATAL(s->callchain_nr, 3);
	CU_ASSERT_EQUAL(s->callchain[0], PD_CONTEXT_USER);
	CU_ASSERT_EQUAL(s->callchain[2], 0x402000);
	CU_ASSERT_EQUAL(s->raw_size, 12);
	CU_ASSERT_EQUAL(memcmp(s->raw_data, raw, 12), 0);
	CU_ASSERT_EQUAL_FATAL(s->branch_nr, 2);
	CU_ASSERT(s->branch_has_hw_idx);
	CU_ASSERT_EQUAL(s->branch_hw_idx, 5);
	CU_ASSERT_PTR_NULL(s->branch_counters);
	CU_ASSERT_EQUAL(s->branches[0].from, 0x401000);
	CU_ASSERT_EQUAL(s->branches[0].to, 0x402000);
	CU_ASSERT_EQUAL(s->branches[0].flags, BR0);
	CU_ASSERT_EQUAL(PD_BR_MISPRED(s->branches[0].flags), 1);
	CU_ASSERT_EQUAL(PD_BR_CYCLES(s->branches[0].flags), 0x123);
	CU_ASSERT_EQUAL(PD_BR_TYPE(s->branches[0].flags), 4);
	CU_ASSERT_EQUAL(PD_BR_PRIV(s->branches[0].flags), 1);
	CU_ASSERT_EQUAL(s->branches[1].flags, BR1);
	CU_ASSERT_EQUAL(PD_BR_PREDICTED(s->branches[1].flags), 1);
	CU_ASSERT_EQUAL(PD_BR_IN_TX(s->branches[1].flags), 1);
	CU_ASSERT_EQUAL(PD_BR_ABORT(s->branches[1].flags), 1);
	CU_ASSERT_EQUAL(PD_BR_SPEC(s->branches[1].flags), 2);
	CU_ASSERT_EQUAL(PD_BR_NEW_TYPE(s->branches[1].flags), 3);
	CU_ASSERT_EQUAL(PD_BR_PRIV(s->branches[1].flags), 3);
	CU_ASSERT_EQUAL(s->regs_user.abi, 2);
	CU_ASSERT_EQUAL(s->regs_user.mask, 0x5);
	CU_ASSERT_EQUAL_FATAL(s->regs_user.nr, 2);
	CU_ASSERT_EQUAL(s->regs_user.regs[0], 0x11);
	CU_ASSERT_EQUAL(s->regs_user.regs[1], 0x22);
	CU_ASSERT_EQUAL(s->stack_size, 16);
	/* raw memory: the same bytes in both byte orders */
	CU_ASSERT_EQUAL(s->stack_data[0], 0xa0);
	CU_ASSERT_EQUAL(s->stack_data[15], 0xaf);
	CU_ASSERT_EQUAL(s->stack_dyn_size, 10);
	CU_ASSERT_EQUAL(s->weight, 300);
	CU_ASSERT_EQUAL(s->data_src, 0x68100142);
	CU_ASSERT_EQUAL(s->transaction, 0x500000002ULL);
	CU_ASSERT_EQUAL(s->regs_intr.abi, 1);
	CU_ASSERT_EQUAL_FATAL(s->regs_intr.nr, 1);
	CU_ASSERT_EQUAL(s->regs_intr.regs[0], 0x33);
	CU_ASSERT_EQUAL(s->phys_addr, 0x1234000);
	CU_ASSERT_EQUAL(s->cgroup, 9);
	CU_ASSERT_EQUAL(s->data_page_size, 4096);
	CU_ASSERT_EQUAL(s->code_page_size, 2097152);
	CU_ASSERT_EQUAL(s->aux_size, 8);
	CU_ASSERT_EQUAL(s->aux_data[0], 0xb0);
	CU_ASSERT_EQUAL(s->aux_data[7], 0xb7);

	/* sid from the sample's own fields */
	CU_ASSERT_EQUAL(r->sid.present, PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID |
			PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_IDENTIFIER);
	CU_ASSERT_EQUAL(r->sid.pid, 100);
	CU_ASSERT_EQUAL(r->sid.tid, 101);
	CU_ASSERT_EQUAL(r->sid.time, 5000);
	CU_ASSERT_EQUAL(r->sid.id, 77);
	CU_ASSERT_EQUAL(r->sid.stream_id, 88);
	CU_ASSERT_EQUAL(r->sid.cpu, 3);
}

static void test_all_fields(void)
{
	uint8_t *b;

	BOTH(all, &ev_all, check_all);
	/* the same through the exported entry point */
	reset();
	CU_ASSERT_EQUAL(pd_sample_decode(&dec, &rec, &ev_all, &diags.sink), 0);
	CU_ASSERT_EQUAL(diags.n, 0);
	CU_ASSERT(rec.decoded);

	/* no attr, no layout: -1 without a diagnostic (the reader reports) */
	CU_ASSERT_EQUAL(run(all_le, sizeof(all_le), HOST_BE, NULL), -1);
	CU_ASSERT_EQUAL(diags.n, 0);
	CU_ASSERT(!rec.decoded);

	/* bytes after the last field: a warning, still decoded */
	b = dup_fx(all_le, sizeof(all_le), 8);
	CU_ASSERT_EQUAL(run(b, sizeof(all_le) + 8, HOST_BE, &ev_all), 0);
	CU_ASSERT(rec.decoded);
	ASSERT_ONE(PD_SAMPLE_TRAILING_BYTES, BASE + 360);
	CU_ASSERT_EQUAL(rec.u.sample.aux_size, 8);
	free(b);
}

/* Each malformed variant of the all-fields fixture. */
static void test_all_malformed(void)
{
	uint8_t *b = dup_fx(all_le, sizeof(all_le), 0);
	size_t n = sizeof(all_le);

	/* the fixed slots: the first one that does not fit is STREAM_ID */
	BAD(b, 60, &ev_all, PD_SAMPLE_TRUNCATED, BASE + 56);
	BAD(b, 8, &ev_all, PD_SAMPLE_TRUNCATED, BASE + 8);
	/* READ values cut */
	BAD(b, 96, &ev_all, PD_SAMPLE_TRUNCATED, BASE + 96);
	/* callchain nr */
	b[104] = 100;
	BAD(b, n, &ev_all, PD_SAMPLE_CALLCHAIN_TOO_LONG, BASE + 104);
	memset(b + 104, 0xff, 8);
	BAD(b, n, &ev_all, PD_SAMPLE_CALLCHAIN_TOO_LONG, BASE + 104);
	memcpy(b + 104, all_le + 104, 8);
	/* raw size */
	b[137] = 1;
	BAD(b, n, &ev_all, PD_SAMPLE_RAW_SIZE, BASE + 136);
	b[137] = 0;
	/* branch nr */
	b[152] = 100;
	BAD(b, n, &ev_all, PD_SAMPLE_BRANCH_TOO_LONG, BASE + 152);
	b[152] = 2;
	/* register ABI */
	b[216] = 3;
	BAD(b, n, &ev_all, PD_SAMPLE_BAD_REGS_ABI, BASE + 216);
	b[216] = 2;
	/* stack size */
	b[241] = 4;
	BAD(b, n, &ev_all, PD_SAMPLE_STACK_SIZE, BASE + 240);
	b[241] = 0;
	/* dyn_size > size */
	b[264] = 17;
	BAD(b, n, &ev_all, PD_SAMPLE_STACK_DYN_SIZE, BASE + 264);
	b[264] = 10;
	/* REGS_INTR ABI */
	b[296] = 7;
	BAD(b, n, &ev_all, PD_SAMPLE_BAD_REGS_ABI, BASE + 296);
	b[296] = 1;
	/* aux size */
	b[344] = 9;
	BAD(b, n, &ev_all, PD_SAMPLE_AUX_SIZE, BASE + 344);
	b[344] = 8;
	/* cut inside the tail: CODE_PAGE_SIZE does not fit (perf reads it unchecked) */
	BAD(b, 340, &ev_all, PD_SAMPLE_TRUNCATED, BASE + 336);
	/* cut at each later field */
	BAD(b, 136, &ev_all, PD_SAMPLE_TRUNCATED, BASE + 136);
	BAD(b, 216, &ev_all, PD_SAMPLE_TRUNCATED, BASE + 216);
	BAD(b, 230, &ev_all, PD_SAMPLE_TRUNCATED, BASE + 224);
	BAD(b, 264, &ev_all, PD_SAMPLE_TRUNCATED, BASE + 264);
	BAD(b, 344, &ev_all, PD_SAMPLE_TRUNCATED, BASE + 344);
	/* the untouched copy decodes */
	CU_ASSERT_EQUAL(run(b, n, HOST_BE, &ev_all), 0);
	CU_ASSERT_EQUAL(diags.n, 0);
	free(b);
}

/* ================= every u64 slot alone ================= */

static void test_single_slots(void)
{
	static const struct {
		uint64_t bit;
		size_t off;	/* of the field in struct pd_sample */
	} f[] = {
		{ PD_SAMPLE_IDENTIFIER, offsetof(struct pd_sample, identifier) },
		{ PD_SAMPLE_IP, offsetof(struct pd_sample, ip) },
		{ PD_SAMPLE_TIME, offsetof(struct pd_sample, time) },
		{ PD_SAMPLE_ADDR, offsetof(struct pd_sample, addr) },
		{ PD_SAMPLE_ID, offsetof(struct pd_sample, id) },
		{ PD_SAMPLE_STREAM_ID, offsetof(struct pd_sample, stream_id) },
		{ PD_SAMPLE_PERIOD, offsetof(struct pd_sample, period) },
		{ PD_SAMPLE_WEIGHT, offsetof(struct pd_sample, weight) },
		{ PD_SAMPLE_WEIGHT_STRUCT, offsetof(struct pd_sample, weight) },
		{ PD_SAMPLE_DATA_SRC, offsetof(struct pd_sample, data_src) },
		{ PD_SAMPLE_TRANSACTION, offsetof(struct pd_sample, transaction) },
		{ PD_SAMPLE_PHYS_ADDR, offsetof(struct pd_sample, phys_addr) },
		{ PD_SAMPLE_CGROUP, offsetof(struct pd_sample, cgroup) },
		{ PD_SAMPLE_DATA_PAGE_SIZE, offsetof(struct pd_sample, data_page_size) },
		{ PD_SAMPLE_CODE_PAGE_SIZE, offsetof(struct pd_sample, code_page_size) },
	};
	static const uint8_t le[16] = {
		9, 0, 0, 0, 0, 0, 16, 0,			/* SAMPLE, misc, size */
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* the u64 */
	};
	static const uint8_t be[16] = {
		0, 0, 0, 9, 0, 0, 0, 16,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	};
	struct pd_event ev;
	uint64_t v;
	size_t i;
	int pass;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		make_event(&ev, f[i].bit);
		for (pass = 0; pass < 2; pass++) {
			CU_ASSERT_EQUAL(run(pass ? be : le, 16, (pass == 1) != HOST_BE, &ev), 0);
			CU_ASSERT_EQUAL(diags.n, 0);
			memcpy(&v, (const char *)&rec.u.sample + f[i].off, 8);
			CU_ASSERT_EQUAL(v, 0x0102030405060708ULL);
			CU_ASSERT_EQUAL(rec.u.sample.sample_type, f[i].bit);
		}
		/* and missing */
		BAD(le, 8, &ev, PD_SAMPLE_TRUNCATED, BASE + 8);
	}
	/* without PERIOD the attr's period; without TIME time is 0 */
	make_event(&ev, PD_SAMPLE_IP);
	CU_ASSERT_EQUAL(run(le, 16, HOST_BE, &ev), 0);
	CU_ASSERT_EQUAL(rec.u.sample.period, 4000);
	CU_ASSERT_EQUAL(rec.u.sample.time, 0);
	CU_ASSERT_EQUAL(rec.sid.present, 0);
	/* ID alone gives the sid id */
	make_event(&ev, PD_SAMPLE_ID);
	CU_ASSERT_EQUAL(run(le, 16, HOST_BE, &ev), 0);
	CU_ASSERT_EQUAL(rec.sid.present, PD_SAMPLE_ID);
	CU_ASSERT_EQUAL(rec.sid.id, 0x0102030405060708ULL);
	/* WEIGHT_STRUCT views of the value */
	make_event(&ev, PD_SAMPLE_WEIGHT_STRUCT);
	CU_ASSERT_EQUAL(run(le, 16, HOST_BE, &ev), 0);
	CU_ASSERT_EQUAL(PD_WEIGHT_VAR1(rec.u.sample.weight), 0x05060708);
	CU_ASSERT_EQUAL(PD_WEIGHT_VAR2(rec.u.sample.weight), 0x0304);
	CU_ASSERT_EQUAL(PD_WEIGHT_VAR3(rec.u.sample.weight), 0x0102);
	/* WEIGHT and WEIGHT_STRUCT together (the kernel refuses them): one slot, as perf reads */
	make_event(&ev, PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT);
	CU_ASSERT_EQUAL(run(le, 16, HOST_BE, &ev), 0);
	CU_ASSERT_EQUAL(diags.n, 0);
	CU_ASSERT_EQUAL(rec.u.sample.weight, 0x0102030405060708ULL);
}

/*
 * What the decoder takes from pd_sample_field_table[] beyond the order:
 * the fields before READ are one u64 slot a bit (sample.c checks them with
 * one comparison), a list's count is the field before it (read with the
 * list), and WEIGHT_STRUCT follows WEIGHT in the same member (one slot).
 */
static void test_field_table(void)
{
	unsigned int bytes[64] = { 0 };
	size_t i;

	for (i = 0; i < PD_SFI_READ; i++) {
		const struct pd_sample_field *f = &pd_sample_field_table[i];

		if (!f->bit)
			continue;
		if (f->kind == PD_SF_U64 || f->kind == PD_SF_HEX)
			bytes[__builtin_ctzll(f->bit)] += 8;
		else if (f->kind == PD_SF_U32 || f->kind == PD_SF_I32)
			bytes[__builtin_ctzll(f->bit)] += 4;
		else
			CU_FAIL("a field of variable length before READ");
	}
	for (i = 0; i < 64; i++)
		CU_ASSERT(bytes[i] == 0 || bytes[i] == 8);
	CU_ASSERT_EQUAL(pd_sample_field_table[PD_SFI_CALLCHAIN].count,
			pd_sample_field_table[PD_SFI_CALLCHAIN_NR].member);
	CU_ASSERT_EQUAL(pd_sample_field_table[PD_SFI_RAW].count,
			pd_sample_field_table[PD_SFI_RAW_SIZE].member);
	CU_ASSERT_EQUAL(pd_sample_field_table[PD_SFI_AUX].count,
			pd_sample_field_table[PD_SFI_AUX_SIZE].member);
	CU_ASSERT_EQUAL(PD_SFI_WEIGHT_STRUCT, PD_SFI_WEIGHT + 1);
	CU_ASSERT_EQUAL(pd_sample_field_table[PD_SFI_WEIGHT_STRUCT].member,
			pd_sample_field_table[PD_SFI_WEIGHT].member);
}

/*
 * The sample_id trailer as the table gives it (PD_SFF_SAMPLE_ID): the
 * kernel's six bits, in the kernel's order (TID, TIME, ID, STREAM_ID,
 * CPU, IDENTIFIER, docs/perf-data-format.md §7.6), u32 pairs as in a
 * sample, and IDENTIFIER kept in ID's member, after it.
 */
static void test_sample_id_table(void)
{
	static const size_t order[] = {
		PD_SFI_PID, PD_SFI_TID, PD_SFI_TIME, PD_SFI_ID, PD_SFI_STREAM_ID,
		PD_SFI_CPU, PD_SFI_CPU_RES, PD_SFI_IDENTIFIER,
	};
	size_t k, n = 0;

	CU_ASSERT_EQUAL(pd_sample_id_bits(), PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID |
			PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_IDENTIFIER);
	for (k = 0; k < PD_SID_STEPS; k++) {
		const struct pd_sample_field *f = pd_sample_id_field(k);

		if (!f)
			continue;
		CU_ASSERT_FATAL(n < sizeof(order) / sizeof(order[0]));
		CU_ASSERT_PTR_EQUAL(f, &pd_sample_field_table[order[n]]);
		CU_ASSERT_EQUAL(pd_sample_id_repeats(k), order[n] == PD_SFI_IDENTIFIER);
		n++;
	}
	CU_ASSERT_EQUAL(n, sizeof(order) / sizeof(order[0]));
	CU_ASSERT_EQUAL(pd_sample_field_table[PD_SFI_IDENTIFIER].sid_member,
			offsetof(struct pd_sample_id, id));
	CU_ASSERT_EQUAL(pd_sample_id_member_bits(&pd_sample_field_table[PD_SFI_ID]),
			PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER);
	CU_ASSERT_EQUAL(pd_sample_id_member_bits(&pd_sample_field_table[PD_SFI_CPU_RES]),
			PD_SAMPLE_CPU);
	CU_ASSERT_EQUAL(pd_sample_field_table[PD_SFI_CPU_RES].sid_member,
			offsetof(struct pd_sample_id, cpu_res));
}

/* ================= TID / CPU: two u32, not one u64 ================= */

#define FX_TIDCPU(W16, W32, W64, WBR)					\
	HDR(W16, W32, 0, 24),						\
	W32(0x11223344), W32(0x55667788),	/* pid, tid */		\
	W32(7), W32(0x99)			/* cpu, res */
DEF_FX(tidcpu, FX_TIDCPU);

static void check_tidcpu(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.sample.pid, 0x11223344);
	CU_ASSERT_EQUAL(r->u.sample.tid, 0x55667788);
	CU_ASSERT_EQUAL(r->u.sample.cpu, 7);
	CU_ASSERT_EQUAL(r->u.sample.cpu_res, 0x99);
	CU_ASSERT_EQUAL(r->sid.pid, 0x11223344);
	CU_ASSERT_EQUAL(r->sid.cpu, 7);
}

static void test_tid_cpu(void)
{
	struct pd_event ev;

	make_event(&ev, PD_SAMPLE_TID | PD_SAMPLE_CPU);
	BOTH(tidcpu, &ev, check_tidcpu);
	BAD(tidcpu_le, 20, &ev, PD_SAMPLE_TRUNCATED, BASE + 16);
}

/* ================= READ group ================= */

#define FX_RGROUP(W16, W32, W64, WBR)					\
	HDR(W16, W32, 0, 72),						\
	W64(0x400000),			/* IP */			\
	W64(2),				/* READ nr */			\
	W64(500), W64(400),		/* time_enabled, time_running */ \
	W64(10), W64(77),		/* value, id */			\
	W64(20), W64(78)
DEF_FX(rgroup, FX_RGROUP);

static void check_rgroup(const struct pd_record *r)
{
	const struct pd_read *v = &r->u.sample.read;

	CU_ASSERT_EQUAL(r->u.sample.ip, 0x400000);
	CU_ASSERT_EQUAL_FATAL(v->nr, 2);
	CU_ASSERT_EQUAL(v->time_enabled, 500);
	CU_ASSERT_EQUAL(v->time_running, 400);
	CU_ASSERT_EQUAL(v->values[0].value, 10);
	CU_ASSERT_EQUAL(v->values[0].id, 77);
	CU_ASSERT_EQUAL(v->values[1].value, 20);
	CU_ASSERT_EQUAL(v->values[1].id, 78);
	CU_ASSERT_EQUAL(v->values[1].lost, 0);
}

static void test_read_group(void)
{
	struct pd_event ev;
	uint8_t *b = dup_fx(rgroup_le, sizeof(rgroup_le), 0);

	make_event(&ev, PD_SAMPLE_IP | PD_SAMPLE_READ);
	ev.attr.read_format = PD_FORMAT_GROUP | PD_FORMAT_ID | PD_FORMAT_TOTAL_TIME_ENABLED |
			      PD_FORMAT_TOTAL_TIME_RUNNING;
	BOTH(rgroup, &ev, check_rgroup);
	b[16] = 3;
	BAD(b, 72, &ev, PD_SAMPLE_READ_GROUP_NR, BASE + 16);
	memset(b + 16, 0xff, 8);
	BAD(b, 72, &ev, PD_SAMPLE_READ_GROUP_NR, BASE + 16);
	/* the header of the group does not fit */
	BAD(rgroup_le, 32, &ev, PD_SAMPLE_TRUNCATED, BASE + 32);
	free(b);
}

/* ================= branch stack variants ================= */

/* counters, no hw_idx */
#define FX_BRCNT(W16, W32, W64, WBR)					\
	HDR(W16, W32, 0, 48),						\
	W64(1),				/* BRANCH nr */			\
	W64(0x10), W64(0x20), WBR(BR0),	/* entry */			\
	W64(0xc0ffee)			/* counters[nr] */
DEF_FX(brcnt, FX_BRCNT);

static void check_brcnt(const struct pd_record *r)
{
	const struct pd_sample *s = &r->u.sample;

	CU_ASSERT(!s->branch_has_hw_idx);
	CU_ASSERT_EQUAL_FATAL(s->branch_nr, 1);
	CU_ASSERT_EQUAL(s->branches[0].from, 0x10);
	CU_ASSERT_EQUAL(s->branches[0].flags, BR0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s->branch_counters);
	CU_ASSERT_EQUAL(s->branch_counters[0], 0xc0ffee);
}

/* HW_INDEX requested, the kernel wrote only nr = 0; WEIGHT follows */
#define FX_BREMPTY(W16, W32, W64, WBR)					\
	HDR(W16, W32, 0, 24),						\
	W64(0),				/* BRANCH nr, no hw_idx */	\
	W64(55)				/* WEIGHT */
DEF_FX(brempty, FX_BREMPTY);

/* HW_INDEX with nr = 0 as perf writes it: nr, hw_idx */
#define FX_BREMPTY_HW(W16, W32, W64, WBR)				\
	HDR(W16, W32, 0, 32),						\
	W64(0), W64(-1),		/* BRANCH nr, hw_idx */		\
	W64(55)				/* WEIGHT */
DEF_FX(brempty_hw, FX_BREMPTY_HW);

static void check_brempty(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.sample.branch_nr, 0);
	CU_ASSERT(!r->u.sample.branch_has_hw_idx);
	CU_ASSERT_PTR_NULL(r->u.sample.branches);
	CU_ASSERT_EQUAL(r->u.sample.weight, 55);
}

static void check_brempty_hw(const struct pd_record *r)
{
	CU_ASSERT_EQUAL(r->u.sample.branch_nr, 0);
	CU_ASSERT(r->u.sample.branch_has_hw_idx);
	CU_ASSERT_EQUAL(r->u.sample.branch_hw_idx, UINT64_MAX);
	CU_ASSERT_EQUAL(r->u.sample.weight, 55);
}

static void test_branch(void)
{
	struct pd_event ev;
	uint8_t *b;
	static const uint8_t be_one[] = {
		0, 0, 0, 9, 0, 0, 0, 40,
		0, 0, 0, 0, 0, 0, 0, 1,		/* nr = 1 */
		0, 0, 0, 0, 0, 0, 0, 0x10,	/* from */
		0, 0, 0, 0, 0, 0, 0, 0x20,	/* to */
		0x80, 0, 0, 0, 0, 0, 0, 0,	/* flags: mispred (MSB first) */
	};

	make_event(&ev, PD_SAMPLE_BRANCH_STACK);
	ev.attr.branch_sample_type = PD_BRANCH_COUNTERS;
	BOTH(brcnt, &ev, check_brcnt);
	b = dup_fx(brcnt_le, sizeof(brcnt_le), 0);
	/* with counters each entry takes 32 bytes: 2 do not fit in 40 */
	b[8] = 2;
	BAD(b, 48, &ev, PD_SAMPLE_BRANCH_TOO_LONG, BASE + 8);
	BAD(b, 8, &ev, PD_SAMPLE_TRUNCATED, BASE + 8);
	free(b);

	make_event(&ev, PD_SAMPLE_BRANCH_STACK | PD_SAMPLE_WEIGHT);
	ev.attr.branch_sample_type = PD_BRANCH_HW_INDEX;
	BOTH(brempty, &ev, check_brempty);
	BOTH(brempty_hw, &ev, check_brempty_hw);
	/* neither reading fits: reported against perf's (hw_idx present) */
	BAD(brempty_le, 16, &ev, PD_SAMPLE_TRUNCATED, BASE + 16);
	b = dup_fx(brempty_hw_le, sizeof(brempty_hw_le), 8);
	CU_ASSERT_EQUAL(run(b, 40, HOST_BE, &ev), 0);
	ASSERT_ONE(PD_SAMPLE_TRAILING_BYTES, BASE + 32);
	CU_ASSERT(rec.u.sample.branch_has_hw_idx);
	free(b);

	/* the big-endian bit-field remap, checked against raw bytes */
	make_event(&ev, PD_SAMPLE_BRANCH_STACK);
	CU_ASSERT_EQUAL(run(be_one, sizeof(be_one), !HOST_BE, &ev), 0);
	CU_ASSERT_EQUAL(diags.n, 0);
	CU_ASSERT_EQUAL_FATAL(rec.u.sample.branch_nr, 1);
	CU_ASSERT_EQUAL(rec.u.sample.branches[0].from, 0x10);
	CU_ASSERT_EQUAL(rec.u.sample.branches[0].flags, 1);
}

/* ================= registers and stack, empty forms ================= */

#define FX_EMPTY_RS(W16, W32, W64, WBR)					\
	HDR(W16, W32, 0, 32),						\
	W64(0x400000),			/* IP */			\
	W64(0),				/* REGS_USER abi NONE */	\
	W64(0)				/* STACK_USER size 0: no data, no dyn_size */
DEF_FX(empty_rs, FX_EMPTY_RS);

static void check_empty_rs(const struct pd_record *r)
{
	const struct pd_sample *s = &r->u.sample;

	CU_ASSERT_EQUAL(s->regs_user.abi, 0);
	CU_ASSERT_EQUAL(s->regs_user.nr, 0);
	CU_ASSERT_PTR_NULL(s->regs_user.regs);
	CU_ASSERT_EQUAL(s->regs_user.mask, 0xff);
	CU_ASSERT_EQUAL(s->stack_size, 0);
	CU_ASSERT_PTR_NULL(s->stack_data);
	CU_ASSERT_EQUAL(s->stack_dyn_size, 0);
}

static void test_empty_regs_stack(void)
{
	struct pd_event ev;

	make_event(&ev, PD_SAMPLE_IP | PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER);
	ev.attr.sample_regs_user = 0xff;
	BOTH(empty_rs, &ev, check_empty_rs);
	/* abi 2 with 8 registers does not fit */
	{
		uint8_t *b = dup_fx(empty_rs_le, sizeof(empty_rs_le), 0);

		b[16] = 2;
		BAD(b, 32, &ev, PD_SAMPLE_TRUNCATED, BASE + 24);
		free(b);
	}
}

/* ================= RAW, CALLCHAIN, AUX empty ================= */

#define FX_EMPTY_VAR(W16, W32, W64, WBR)				\
	HDR(W16, W32, 0, 32),						\
	W64(0),				/* CALLCHAIN nr */		\
	W32(4), 0xde, 0xad, 0xbe, 0xef,	/* RAW size, data (not swapped) */ \
	W64(0)				/* AUX size */
DEF_FX(empty_var, FX_EMPTY_VAR);

static void check_empty_var(const struct pd_record *r)
{
	const struct pd_sample *s = &r->u.sample;

	CU_ASSERT_EQUAL(s->callchain_nr, 0);
	CU_ASSERT_PTR_NULL(s->callchain);
	CU_ASSERT_EQUAL(s->raw_size, 4);
	CU_ASSERT_EQUAL(s->raw_data[0], 0xde);
	CU_ASSERT_EQUAL(s->raw_data[3], 0xef);
	CU_ASSERT_EQUAL(s->aux_size, 0);
	CU_ASSERT_PTR_NULL(s->aux_data);
}

static void test_empty_var(void)
{
	struct pd_event ev;

	make_event(&ev, PD_SAMPLE_CALLCHAIN | PD_SAMPLE_RAW | PD_SAMPLE_AUX);
	BOTH(empty_var, &ev, check_empty_var);
	BAD(empty_var_le, 19, &ev, PD_SAMPLE_TRUNCATED, BASE + 16);
	BAD(empty_var_le, 8, &ev, PD_SAMPLE_TRUNCATED, BASE + 8);
	BAD(empty_var_le, 28, &ev, PD_SAMPLE_TRUNCATED, BASE + 24);
}

/* ================= pd_trailer_decode / pd_read_values_decode ================= */

static void test_trailer(void)
{
	/* TID, TIME, CPU, IDENTIFIER after a 16-byte payload */
	static const uint8_t le[] = {
		L32(PD_REC_COMM), L16(0), L16(56),
		L32(1), L32(2), 'a', 0, 0, 0, 0, 0, 0, 0,
		L32(10), L32(11),	/* pid, tid */
		L64(1234),		/* time */
		L32(5), L32(0),		/* cpu, res */
		L64(99),		/* identifier */
	};
	static const uint8_t be[] = {
		B32(PD_REC_COMM), B16(0), B16(56),
		B32(1), B32(2), 'a', 0, 0, 0, 0, 0, 0, 0,
		B32(10), B32(11), B64(1234), B32(5), B32(0), B64(99),
	};
	/* a trailer alone: id, stream_id, identifier */
	static const uint8_t ids[] = {
		L32(PD_REC_EXIT), L16(0), L16(32), L64(7), L64(8), L64(9),
	};
	struct pd_event ev;
	struct pd_sample_id sid;
	int pass;

	make_event(&ev, PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_CPU |
		   PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_PERIOD);
	ev.id_hdr_size = 32;
	for (pass = 0; pass < 2; pass++) {
		CU_ASSERT(pd_trailer_decode(pass ? be : le, 56, (pass == 1) != HOST_BE, &ev, &sid));
		CU_ASSERT_EQUAL(sid.present, PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_CPU |
				PD_SAMPLE_IDENTIFIER);
		CU_ASSERT_EQUAL(sid.pid, 10);
		CU_ASSERT_EQUAL(sid.tid, 11);
		CU_ASSERT_EQUAL(sid.time, 1234);
		CU_ASSERT_EQUAL(sid.cpu, 5);
		CU_ASSERT_EQUAL(sid.id, 99);
		CU_ASSERT_EQUAL(sid.stream_id, 0);
	}
	/* it never reaches into the header */
	CU_ASSERT(!pd_trailer_decode(le, 32, HOST_BE, &ev, &sid));
	CU_ASSERT(pd_trailer_decode(le, 40, HOST_BE, &ev, &sid));

	/* ID, STREAM_ID and IDENTIFIER: the id is IDENTIFIER's, stream_id before it */
	make_event(&ev, PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID | PD_SAMPLE_IDENTIFIER);
	CU_ASSERT(pd_trailer_decode(ids, sizeof(ids), HOST_BE, &ev, &sid));
	CU_ASSERT_EQUAL(sid.id, 9);
	CU_ASSERT_EQUAL(sid.stream_id, 8);
	make_event(&ev, PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID);
	CU_ASSERT(pd_trailer_decode(ids, sizeof(ids), HOST_BE, &ev, &sid));
	CU_ASSERT_EQUAL(sid.id, 8);
	CU_ASSERT_EQUAL(sid.stream_id, 9);
}

static void test_read_values(void)
{
	static const uint8_t le[] = {
		L64(1), L64(2), L64(3), L64(4), L64(5),	/* value, en, run, id, lost */
	};
	struct pd_read out;
	struct pd_cur c;
	enum pd_code code = PD_OK;
	uint64_t rf = PD_FORMAT_TOTAL_TIME_ENABLED | PD_FORMAT_TOTAL_TIME_RUNNING |
		      PD_FORMAT_ID | PD_FORMAT_LOST;

	CU_ASSERT(pd_decoder_begin(&dec, 64));
	pd_cur_init(&c, le, sizeof(le), 0, HOST_BE);
	CU_ASSERT(pd_read_values_decode(&dec, &c, rf, &out, &code));
	CU_ASSERT_EQUAL(c.pos, 40);
	CU_ASSERT_EQUAL(out.format, rf);
	CU_ASSERT_EQUAL_FATAL(out.nr, 1);
	CU_ASSERT_EQUAL(out.values[0].value, 1);
	CU_ASSERT_EQUAL(out.time_enabled, 2);
	CU_ASSERT_EQUAL(out.time_running, 3);
	CU_ASSERT_EQUAL(out.values[0].id, 4);
	CU_ASSERT_EQUAL(out.values[0].lost, 5);
	/* a short window: the cursor names the first field that does not fit */
	pd_cur_init(&c, le, 20, 0, HOST_BE);
	CU_ASSERT(!pd_read_values_decode(&dec, &c, rf, &out, &code));
	CU_ASSERT_EQUAL(code, PD_SAMPLE_TRUNCATED);
	CU_ASSERT_EQUAL(c.pos, 16);
	/* group: nr = 1 needs 8 + 16 + 24 bytes */
	pd_cur_init(&c, le, 40, 0, HOST_BE);
	CU_ASSERT(!pd_read_values_decode(&dec, &c, rf | PD_FORMAT_GROUP, &out, &code));
	CU_ASSERT_EQUAL(code, PD_SAMPLE_READ_GROUP_NR);
	CU_ASSERT_EQUAL(c.pos, 0);
	/* read_format 0: one value */
	pd_cur_init(&c, le, 8, 0, HOST_BE);
	CU_ASSERT(pd_read_values_decode(&dec, &c, 0, &out, &code));
	CU_ASSERT_EQUAL(out.nr, 1);
	CU_ASSERT_EQUAL(out.values[0].value, 1);
}

/* ================= offsets inside compressed data ================= */

static void test_sample_from_compressed(void)
{
	uint8_t *b = dup_fx(all_le, sizeof(all_le), 0);

	b[104] = 100;
	reset();
	pd_decoder_fini(&dec);
	pd_decoder_init(&dec, HOST_BE);
	memset(&rec, 0, sizeof(rec));
	rec.type = PD_REC_SAMPLE;
	rec.size = sizeof(all_le);
	rec.offset = BASE;
	rec.index = REC_INDEX;
	rec.swapped = HOST_BE;
	rec.from_compressed = true;
	rec.raw = b;
	rec.raw_len = sizeof(all_le);
	CU_ASSERT_EQUAL(pd_record_decode(&dec, &rec, &ev_all, &diags.sink), -1);
	ASSERT_ONE(PD_SAMPLE_CALLCHAIN_TOO_LONG, BASE);
	free(b);
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

int pd_test_register_sample(void)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {
		{ "all_fields", test_all_fields },
		{ "all_malformed", test_all_malformed },
		{ "single_slots", test_single_slots },
		{ "field_table", test_field_table },
		{ "sample_id_table", test_sample_id_table },
		{ "tid_cpu", test_tid_cpu },
		{ "read_group", test_read_group },
		{ "branch", test_branch },
		{ "empty_regs_stack", test_empty_regs_stack },
		{ "empty_var", test_empty_var },
		{ "trailer", test_trailer },
		{ "read_values", test_read_values },
		{ "from_compressed", test_sample_from_compressed },
	};
	CU_pSuite s;
	size_t i;

	s = CU_add_suite("sample", suite_init, suite_clean);
	if (!s)
		return CU_get_error();
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!CU_add_test(s, tests[i].name, tests[i].fn))
			return CU_get_error();
	return CUE_SUCCESS;
}
