// SPDX-License-Identifier: MIT
/*
 * test_feature.c - header feature decoders and perf_event_attr decoding.
 *
 * Every fixture is written once as a macro over the integer writers
 * (W16/W32/W64) and instantiated twice: little-endian and big-endian.
 * The big-endian copy is decoded with swap=true and must give the same
 * typed result.  Malformed variants check the exact code and the exact
 * absolute offset of the diagnostic.
 */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "diag_recorder.h"
#include "perfdata/pd_attr.h"
#include "perfdata/pd_feature.h"
#include "internal.h"
#include "fixture_bytes.h"

int pd_test_register_feature(void);

/* ---- fixtures (the byte writers: fixture_bytes.h) ---- */

/* Instantiate fixture FX as name_le[] and name_be[]. */
#define DEF_FX(name, FX)						\
	static const uint8_t name##_le[] = { FX(L16, L32, L64) };	\
	static const uint8_t name##_be[] = { FX(B16, B32, B64) }

/* where the payloads pretend to live in the stream */
#define BASE 4096u

/* ---- diagnostic recorder ---- */

static struct diag_recorder diags;

static void reset(void)
{
	diag_recorder_reset(&diags);
}

static int dec(struct pd_features *f, unsigned int id, const uint8_t *p, size_t len, bool swap)
{
	return pd_feature_decode(f, id, p, len, swap, BASE, -1, 0, &diags.sink);
}

/* A little-endian fixture, read in this host's byte order or swapped. */
static int dec_le(struct pd_features *f, unsigned int id, const uint8_t *p, size_t len)
{
	return dec(f, id, p, len, fixture_swap(false));
}

/* Exactly one diagnostic, with this code at this offset. */
#define ASSERT_ONE(c, o)						\
	do {								\
		CU_ASSERT_EQUAL(diags.n, 1);				\
		if (diags.n >= 1) {					\
			CU_ASSERT_EQUAL(diags.seen[0].code, (c));		\
			CU_ASSERT_EQUAL(diags.seen[0].offset, (uint64_t)(o));	\
		}							\
	} while (0)

/*
 * Decode the LE and the BE fixture of one feature (after an optional
 * prerequisite feature in the same byte order) and run `check` on both.
 */
static void both(unsigned int id, const uint8_t *le, size_t lel, const uint8_t *be, size_t bel,
		 void (*check)(const struct pd_features *f), unsigned int pre_id,
		 const uint8_t *pre_le, size_t pre_lel, const uint8_t *pre_be, size_t pre_bel)
{
	struct pd_features f;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		bool is_be = pass == 1, swap = fixture_swap(is_be);

		reset();
		pd_features_init(&f);
		if (pre_le)
			CU_ASSERT_EQUAL(dec(&f, pre_id, is_be ? pre_be : pre_le,
					    is_be ? pre_bel : pre_lel, swap), 0);
		CU_ASSERT_EQUAL(dec(&f, id, is_be ? be : le, is_be ? bel : lel, swap), 0);
		CU_ASSERT_EQUAL(diags.n, 0);
		CU_ASSERT(f.raw[id].present);
		CU_ASSERT(f.raw[id].decoded);
		CU_ASSERT(pd_features_has(&f, id));
		CU_ASSERT_EQUAL(f.raw[id].offset, BASE);
		CU_ASSERT_EQUAL(f.raw[id].len, is_be ? bel : lel);
		if (f.raw[id].len)
			CU_ASSERT_EQUAL(memcmp(f.raw[id].data, is_be ? be : le, f.raw[id].len), 0);
		check(&f);
		pd_features_free(&f);
	}
}

#define BOTH(id, name, check) \
	both(id, name##_le, sizeof(name##_le), name##_be, sizeof(name##_be), check,	\
	     0, NULL, 0, NULL, 0)

/* Decode a modified copy of a fixture; return the decoder's result. */
static int bad(unsigned int id, const uint8_t *p, size_t len, struct pd_features *f)
{
	reset();
	pd_features_init(f);
	return dec_le(f, id, p, len);
}

static uint8_t *dup_fx(const uint8_t *p, size_t len)
{
	uint8_t *q = malloc(len ? len : 1);

	memcpy(q, p, len);
	return q;
}

/* ================= TRACING_DATA ================= */

#define FX_TRACING(W16, W32, W64)					\
	0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g',	/* magic */	\
	'0', '.', '6', 0,					/* version */	\
	0,							/* endianness (writer's) */ \
	8,							/* long size */	\
	W32(4096)						/* page size */
DEF_FX(tracing, FX_TRACING);

static void check_tracing(const struct pd_features *f)
{
	CU_ASSERT_EQUAL(f->tracing_data.size, sizeof(tracing_le));
	CU_ASSERT(f->tracing_data.magic_ok);
	CU_ASSERT_STRING_EQUAL(f->tracing_data.version, "0.6");
}

static void test_tracing_data(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(tracing_le, sizeof(tracing_le));

	BOTH(PD_FEAT_TRACING_DATA, tracing, check_tracing);
	b[0] = 0x18;
	CU_ASSERT_EQUAL(bad(PD_FEAT_TRACING_DATA, b, sizeof(tracing_le), &f), 0);
	ASSERT_ONE(PD_REC_TRACING_DATA_MAGIC, BASE);
	CU_ASSERT(!f.tracing_data.magic_ok);
	CU_ASSERT_PTR_NULL(f.tracing_data.version);
	pd_features_free(&f);
	free(b);
}

/* ================= BUILD_ID ================= */

#define BID20 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20
#define FX_BUILD_ID(W16, W32, W64)					\
	/* entry 0 @0: 36 + ALIGN(strlen + 1, 8) (perf >= 6.13) */	\
	W32(0),				/* header.type */		\
	W16(0x8001),			/* misc: KERNEL | BUILD_ID_SIZE */ \
	W16(44),			/* header.size */		\
	W32(-1),			/* pid: host */			\
	BID20,				/* build id */			\
	20, 0, 0, 0,			/* size, reserved */		\
	'/', 'b', 'i', 'n', '/', 'l', 's', 0,	/* filename */		\
	/* entry 1 @44: 8-byte build id */				\
	W32(0), W16(0x8002), W16(52),					\
	W32(1234),			/* pid: a guest */		\
	0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0x10, 0x11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
	8, 0, 0, 0,							\
	'/', 'u', 's', 'r', '/', 'l', 'i', 'b', '/', 'x', '.', 's', 'o', 0, 0, 0
DEF_FX(bid, FX_BUILD_ID);

static void check_bid(const struct pd_features *f)
{
	const struct pd_feat_build_ids *b = &f->build_ids;
	static const uint8_t id0[20] = { BID20 };

	CU_ASSERT_EQUAL_FATAL(b->nr, 2);
	CU_ASSERT(!b->legacy);
	CU_ASSERT(!b->perf612_padding);
	CU_ASSERT_EQUAL(b->ids[0].misc, 0x8001);
	CU_ASSERT_EQUAL(b->ids[0].pid, -1);
	CU_ASSERT_EQUAL(b->ids[0].size, 20);
	CU_ASSERT_EQUAL(memcmp(b->ids[0].id, id0, 20), 0);
	CU_ASSERT_STRING_EQUAL(b->ids[0].filename, "/bin/ls");
	CU_ASSERT_EQUAL(b->ids[0].offset, BASE);
	CU_ASSERT_EQUAL(b->ids[1].pid, 1234);
	CU_ASSERT_EQUAL(b->ids[1].size, 8);
	CU_ASSERT_EQUAL(b->ids[1].id[0], 0xa);
	CU_ASSERT_STRING_EQUAL(b->ids[1].filename, "/usr/lib/x.so");
	CU_ASSERT_EQUAL(b->ids[1].offset, BASE + 44);
}

/*
 * perf 6.12: header.size = ALIGN(36 + strlen + 1, 8) = 48 for "/bin/ls",
 * but 36 + 48 bytes were written: 36 stray zero bytes follow the entry.
 */
static const uint8_t bid612[] = {
	L32(0), L16(0x8001), L16(48), L32(-1), BID20, 20, 0, 0, 0,
	'/', 'b', 'i', 'n', '/', 'l', 's', 0,			/* 8 bytes of name */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 40 bytes of padding */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* next entry @84, also buggy */
	L32(0), L16(0x8002), L16(48), L32(-1), BID20, 20, 0, 0, 0,
	'/', 'b', 'i', 'n', '/', 's', 'h', 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* pre-2010 layout: no pid, build_id[24] at 8, filename at 32 */
static const uint8_t bid_legacy[] = {
	L32(0), L16(1), L16(56),				/* KERNEL, size 32 + 24 */
	BID20, 0, 0, 0, 0,					/* build_id[24] */
	'[', 'k', 'e', 'r', 'n', 'e', 'l', '.', 'k', 'a', 'l', 'l', 's', 'y', 'm', 's', ']', 0,
	0, 0, 0, 0, 0, 0,
	L32(0), L16(5), L16(40),				/* GUEST_USER */
	BID20, 0, 0, 0, 0,
	'/', 'a', 0, 0, 0, 0, 0, 0,
};

static void test_build_id(void)
{
	struct pd_features f;
	struct pd_feat_build_id one;
	uint8_t *b;

	BOTH(PD_FEAT_BUILD_ID, bid, check_bid);

	/* header.size below 36 */
	b = dup_fx(bid_le, sizeof(bid_le));
	b[6] = 20;
	CU_ASSERT_EQUAL(bad(PD_FEAT_BUILD_ID, b, sizeof(bid_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_BUILD_ID, BASE + 6);
	pd_features_free(&f);

	/* second entry crosses the section */
	CU_ASSERT_EQUAL(bad(PD_FEAT_BUILD_ID, bid_le, sizeof(bid_le) - 1, &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_BUILD_ID, BASE + 44 + 6);
	CU_ASSERT_EQUAL(f.build_ids.nr, 1);
	CU_ASSERT(!f.raw[PD_FEAT_BUILD_ID].decoded);
	pd_features_free(&f);

	/* fewer than 8 bytes left for a header */
	CU_ASSERT_EQUAL(bad(PD_FEAT_BUILD_ID, bid_le, 44 + 5, &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_BUILD_ID, BASE + 44);
	pd_features_free(&f);

	/* filename without NUL */
	memcpy(b, bid_le, sizeof(bid_le));
	b[43] = 'x';
	CU_ASSERT_EQUAL(bad(PD_FEAT_BUILD_ID, b, sizeof(bid_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_BUILD_ID, BASE + 36);
	CU_ASSERT_STRING_EQUAL(f.build_ids.ids[0].filename, "/bin/lsx");
	pd_features_free(&f);

	/* build-id size above 20 */
	memcpy(b, bid_le, sizeof(bid_le));
	b[32] = 21;
	CU_ASSERT_EQUAL(bad(PD_FEAT_BUILD_ID, b, sizeof(bid_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_BUILD_ID, BASE + 32);
	pd_features_free(&f);
	free(b);

	/* perf 6.12 padding bug: a warning, entries still found */
	CU_ASSERT_EQUAL(bad(PD_FEAT_BUILD_ID, bid612, sizeof(bid612), &f), 0);
	CU_ASSERT_EQUAL(diags.n, 2);
	CU_ASSERT_EQUAL(diags.seen[0].code, PD_FEAT_BUILDID_PADDING);
	CU_ASSERT_EQUAL(diags.seen[0].offset, BASE + 6);
	CU_ASSERT_EQUAL(diags.seen[1].code, PD_FEAT_BUILDID_PADDING);
	CU_ASSERT_EQUAL(diags.seen[1].offset, BASE + 84 + 6);
	CU_ASSERT_EQUAL_FATAL(f.build_ids.nr, 2);
	CU_ASSERT(f.build_ids.perf612_padding);
	CU_ASSERT_STRING_EQUAL(f.build_ids.ids[1].filename, "/bin/sh");
	CU_ASSERT_EQUAL(f.build_ids.ids[1].offset, BASE + 84);
	pd_features_free(&f);

	/* legacy layout */
	CU_ASSERT_EQUAL(bad(PD_FEAT_BUILD_ID, bid_legacy, sizeof(bid_legacy), &f), 0);
	CU_ASSERT_EQUAL(diags.n, 0);
	CU_ASSERT_EQUAL_FATAL(f.build_ids.nr, 2);
	CU_ASSERT(f.build_ids.legacy);
	CU_ASSERT_STRING_EQUAL(f.build_ids.ids[0].filename, "[kernel.kallsyms]");
	CU_ASSERT_EQUAL(f.build_ids.ids[0].pid, -1);
	CU_ASSERT_EQUAL(f.build_ids.ids[0].id[19], 20);
	CU_ASSERT_STRING_EQUAL(f.build_ids.ids[1].filename, "/a");
	CU_ASSERT_EQUAL(f.build_ids.ids[1].pid, 0);
	pd_features_free(&f);

	/* the record form, big-endian */
	reset();
	CU_ASSERT_EQUAL(pd_build_id_entry_decode(bid_be + 44, 52, true, 77, 5, 67, &diags.sink, &one), 0);
	CU_ASSERT_EQUAL(diags.n, 0);
	CU_ASSERT_EQUAL(one.pid, 1234);
	CU_ASSERT_EQUAL(one.size, 8);
	CU_ASSERT_STRING_EQUAL(one.filename, "/usr/lib/x.so");
	free(one.filename);
	reset();
	CU_ASSERT_EQUAL(pd_build_id_entry_decode(bid_le, 30, false, 77, 5, 67, &diags.sink, &one), -1);
	ASSERT_ONE(PD_FEAT_BAD_BUILD_ID, 77);
	CU_ASSERT_EQUAL(diags.seen[0].record_index, 5);
}

/* ================= HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID ================= */

#define FX_STR(W16, W32, W64)						\
	W32(8),					/* len incl. NUL and padding */	\
	'v', 'm', 0, 0, 0, 0, 0, 0		/* text */
DEF_FX(str, FX_STR);

static const unsigned int str_ids[] = { PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_VERSION,
					PD_FEAT_ARCH, PD_FEAT_CPUDESC, PD_FEAT_CPUID };

static char *const *str_member(const struct pd_features *f, unsigned int id)
{
	switch (id) {
	case PD_FEAT_HOSTNAME: return &f->hostname;
	case PD_FEAT_OSRELEASE: return &f->osrelease;
	case PD_FEAT_VERSION: return &f->version;
	case PD_FEAT_ARCH: return &f->arch;
	case PD_FEAT_CPUDESC: return &f->cpudesc;
	default: return &f->cpuid;
	}
}

static unsigned int cur_str_id;

static void check_str(const struct pd_features *f)
{
	CU_ASSERT_STRING_EQUAL(*str_member(f, cur_str_id), "vm");
}

static void test_strings(void)
{
	static const uint8_t nonul[] = { L32(4), 'a', 'b', 'c', 'd' };
	static const uint8_t trail[] = { L32(4), 'a', 0, 0, 0, 0xff, 0, 0, 0 };
	static const uint8_t overrun[] = { L32(9), 'a', 0, 0, 0, 0, 0, 0, 0 };
	struct pd_features f;
	unsigned int i;

	for (i = 0; i < sizeof(str_ids) / sizeof(str_ids[0]); i++) {
		cur_str_id = str_ids[i];
		BOTH(str_ids[i], str, check_str);
	}
	CU_ASSERT_EQUAL(bad(PD_FEAT_HOSTNAME, nonul, sizeof(nonul), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_STRING, BASE + 4);
	CU_ASSERT_STRING_EQUAL(f.hostname, "abcd");	/* still copied, terminated */
	CU_ASSERT(!f.raw[PD_FEAT_HOSTNAME].decoded);
	pd_features_free(&f);

	CU_ASSERT_EQUAL(bad(PD_FEAT_ARCH, trail, sizeof(trail), &f), 0);
	ASSERT_ONE(PD_FEAT_TRAILING_BYTES, BASE + 8);
	pd_features_free(&f);

	CU_ASSERT_EQUAL(bad(PD_FEAT_VERSION, overrun, sizeof(overrun), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_STRING, BASE);
	pd_features_free(&f);

	CU_ASSERT_EQUAL(bad(PD_FEAT_CPUDESC, overrun, 3, &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE);
	pd_features_free(&f);

	/* empty payload (a real quipper file, armv7 perf 3.14, has one) */
	CU_ASSERT_EQUAL(bad(PD_FEAT_CPUDESC, overrun, 0, &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE);
	pd_features_free(&f);
}

/* ========== NRCPUS, TOTAL_MEM, CLOCKID, DIR_FORMAT, E_MACHINE, CLN_SIZE ========== */

#define FX_NRCPUS(W16, W32, W64)					\
	W32(2),				/* nr_cpus_avail */		\
	W32(2)				/* nr_cpus_online */
DEF_FX(nrcpus, FX_NRCPUS);

static void check_nrcpus(const struct pd_features *f)
{
	CU_ASSERT_EQUAL(f->nrcpus.avail, 2);
	CU_ASSERT_EQUAL(f->nrcpus.online, 2);
}

#define FX_U64(W16, W32, W64)						\
	W64(0x123456789aULL)		/* the value */
DEF_FX(u64v, FX_U64);

static void check_u64(const struct pd_features *f)
{
	if (f->raw[PD_FEAT_TOTAL_MEM].present)
		CU_ASSERT_EQUAL(f->total_mem, 0x123456789aULL);
	if (f->raw[PD_FEAT_CLOCKID].present)
		CU_ASSERT_EQUAL(f->clockid_res_ns, 0x123456789aULL);
	if (f->raw[PD_FEAT_DIR_FORMAT].present)
		CU_ASSERT_EQUAL(f->dir_format, 0x123456789aULL);
}

#define FX_EMACH(W16, W32, W64)						\
	W32(62),			/* e_machine: EM_X86_64 */	\
	W32(0x5)			/* e_flags */
DEF_FX(emach, FX_EMACH);

static void check_emach(const struct pd_features *f)
{
	CU_ASSERT_EQUAL(f->e_machine.e_machine, 62);
	CU_ASSERT_EQUAL(f->e_machine.e_flags, 5);
}

#define FX_CLN4(W16, W32, W64) W32(64)		/* cache line size */
#define FX_CLN8(W16, W32, W64) W64(128)
DEF_FX(cln4, FX_CLN4);
DEF_FX(cln8, FX_CLN8);

static void check_cln4(const struct pd_features *f)
{
	CU_ASSERT(f->cln_size.has_value);
	CU_ASSERT_EQUAL(f->cln_size.value, 64);
}

static void check_cln8(const struct pd_features *f)
{
	CU_ASSERT(f->cln_size.has_value);
	CU_ASSERT_EQUAL(f->cln_size.value, 128);
}

static void test_scalars(void)
{
	static const uint8_t online_gt[] = { L32(2), L32(3) };
	static const uint8_t nine[] = { L64(1), 0 };
	struct pd_features f;

	BOTH(PD_FEAT_NRCPUS, nrcpus, check_nrcpus);
	BOTH(PD_FEAT_TOTAL_MEM, u64v, check_u64);
	BOTH(PD_FEAT_CLOCKID, u64v, check_u64);
	BOTH(PD_FEAT_DIR_FORMAT, u64v, check_u64);
	BOTH(PD_FEAT_E_MACHINE, emach, check_emach);
	BOTH(PD_FEAT_CLN_SIZE, cln4, check_cln4);
	BOTH(PD_FEAT_CLN_SIZE, cln8, check_cln8);

	CU_ASSERT_EQUAL(bad(PD_FEAT_NRCPUS, online_gt, sizeof(online_gt), &f), 0);
	ASSERT_ONE(PD_FEAT_INCONSISTENT, BASE + 4);
	pd_features_free(&f);
	CU_ASSERT_EQUAL(bad(PD_FEAT_NRCPUS, nrcpus_le, 6, &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 4);
	pd_features_free(&f);
	CU_ASSERT_EQUAL(bad(PD_FEAT_TOTAL_MEM, u64v_le, 7, &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE);
	pd_features_free(&f);
	CU_ASSERT_EQUAL(bad(PD_FEAT_CLOCKID, nine, sizeof(nine), &f), 0);
	ASSERT_ONE(PD_FEAT_TRAILING_BYTES, BASE + 8);
	pd_features_free(&f);
	CU_ASSERT_EQUAL(bad(PD_FEAT_E_MACHINE, emach_le, 5, &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 4);
	pd_features_free(&f);
	/* CLN_SIZE of another size: opaque, not an error */
	CU_ASSERT_EQUAL(bad(PD_FEAT_CLN_SIZE, nine, 3, &f), 0);
	CU_ASSERT_EQUAL(diags.n, 0);
	CU_ASSERT(!f.cln_size.has_value);
	CU_ASSERT_EQUAL(f.raw[PD_FEAT_CLN_SIZE].len, 3);
	pd_features_free(&f);
}

/* ================= CMDLINE ================= */

#define FX_CMDLINE(W16, W32, W64)					\
	W32(2),				/* nr */			\
	W32(8), 'p', 'e', 'r', 'f', 0, 0, 0, 0,		/* argv[0] @4 */	\
	W32(8), 'r', 'e', 'c', 'o', 'r', 'd', 0, 0	/* argv[1] @16 */
DEF_FX(cmdline, FX_CMDLINE);

static void check_cmdline(const struct pd_features *f)
{
	CU_ASSERT_EQUAL_FATAL(f->cmdline.nr, 2);
	CU_ASSERT_STRING_EQUAL(f->cmdline.s[0], "perf");
	CU_ASSERT_STRING_EQUAL(f->cmdline.s[1], "record");
}

static void test_cmdline(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(cmdline_le, sizeof(cmdline_le));

	BOTH(PD_FEAT_CMDLINE, cmdline, check_cmdline);
	b[0] = 3;		/* 3 strings fit the count check, the third is missing */
	CU_ASSERT_EQUAL(bad(PD_FEAT_CMDLINE, b, sizeof(cmdline_le), &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 28);
	CU_ASSERT_EQUAL(f.cmdline.nr, 2);
	pd_features_free(&f);
	b[0] = 100;		/* 400 bytes of lengths cannot fit in 24 */
	CU_ASSERT_EQUAL(bad(PD_FEAT_CMDLINE, b, sizeof(cmdline_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_COUNT, BASE);
	CU_ASSERT_EQUAL(f.cmdline.nr, 0);
	pd_features_free(&f);
	free(b);
}

/* ================= EVENT_DESC ================= */

/* Bit-field word as a big-endian compiler lays it out (see attr.c). */
#define R8(x) ((uint8_t)((((x) & 1) << 7) | (((x) & 2) << 5) | (((x) & 4) << 3) |		\
			 (((x) & 8) << 1) | (((x) & 16) >> 1) | (((x) & 32) >> 3) |		\
			 (((x) & 64) >> 5) | (((x) & 128) >> 7)))
#define PISW(v) (((v) & ~(3ULL << 15)) | ((((v) >> 15) & 1) << 16) | ((((v) >> 16) & 1) << 15))
#define BYTE(v, i) ((uint8_t)(((v) >> (8 * (i))) & 0xff))
#define FLAGS_LE(v) L64(v)
#define FLAGS_BE(v) R8(BYTE(PISW(v), 0)), R8(BYTE(PISW(v), 1)), R8(BYTE(PISW(v), 2)),	\
		    R8(BYTE(PISW(v), 3)), R8(BYTE(PISW(v), 4)), R8(BYTE(PISW(v), 5)),	\
		    R8(BYTE(PISW(v), 6)), R8(BYTE(PISW(v), 7))
#define WF(W64, v) FLAGS_##W64(v)
#define FLAGS_L64(v) FLAGS_LE(v)
#define FLAGS_B64(v) FLAGS_BE(v)

/* disabled | inherit | freq | precise_ip = 2 | sample_id_all */
#define EV_FLAGS (PD_ATTR_DISABLED | PD_ATTR_INHERIT | PD_ATTR_FREQ | (2ULL << 15) |	\
		  PD_ATTR_SAMPLE_ID_ALL)

#define FX_EVDESC(W16, W32, W64)					\
	W32(1),				/* nr_events */			\
	W32(72),			/* attr_size (VER1) */		\
	/* attr @8 */							\
	W32(0),				/* type: HARDWARE */		\
	W32(72),			/* size */			\
	W64(0),				/* config: cycles */		\
	W64(4000),			/* sample_freq */		\
	W64(0x107),			/* sample_type */		\
	W64(4),				/* read_format: ID */		\
	WF(W64, EV_FLAGS),		/* flags (bit-fields) */	\
	W32(0),				/* wakeup_events */		\
	W32(0),				/* bp_type */			\
	W64(0),				/* config1 */			\
	W64(0x55),			/* config2 */			\
	/* @80 */							\
	W32(2),				/* nr_ids */			\
	W32(8), 'c', 'y', 'c', 'l', 'e', 's', 0, 0,	/* name @84 */	\
	W64(101), W64(102)		/* ids @96 */
DEF_FX(evdesc, FX_EVDESC);

static void check_evdesc(const struct pd_features *f)
{
	const struct pd_feat_event *ev;

	CU_ASSERT_EQUAL_FATAL(f->event_desc.nr, 1);
	CU_ASSERT_EQUAL(f->event_desc.attr_size, 72);
	ev = &f->event_desc.ev[0];
	CU_ASSERT_EQUAL(ev->attr.type, 0);
	CU_ASSERT_EQUAL(ev->attr.size, 72);
	CU_ASSERT_EQUAL(ev->attr.sample_period, 4000);
	CU_ASSERT_EQUAL(ev->attr.sample_type, 0x107);
	CU_ASSERT_EQUAL(ev->attr.read_format, 4);
	CU_ASSERT_EQUAL(ev->attr.flags, EV_FLAGS);
	CU_ASSERT_EQUAL(pd_attr_precise_ip(&ev->attr), 2);
	CU_ASSERT_EQUAL(ev->attr.config2, 0x55);
	CU_ASSERT_EQUAL(ev->attr.branch_sample_type, 0);
	CU_ASSERT_STRING_EQUAL(ev->name, "cycles");
	CU_ASSERT_EQUAL_FATAL(ev->nr_ids, 2);
	CU_ASSERT_EQUAL(ev->ids[0], 101);
	CU_ASSERT_EQUAL(ev->ids[1], 102);
}

static void test_event_desc(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(evdesc_le, sizeof(evdesc_le));

	BOTH(PD_FEAT_EVENT_DESC, evdesc, check_evdesc);
	b[80] = 3;		/* 3 ids need 24 bytes, 16 left after the name */
	CU_ASSERT_EQUAL(bad(PD_FEAT_EVENT_DESC, b, sizeof(evdesc_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_COUNT, BASE + 80);
	pd_features_free(&f);
	memcpy(b, evdesc_le, sizeof(evdesc_le));
	b[4] = 32;		/* attr_size below VER0 */
	CU_ASSERT_EQUAL(bad(PD_FEAT_EVENT_DESC, b, sizeof(evdesc_le), &f), -1);
	ASSERT_ONE(PD_ATTR_TOO_SMALL, BASE + 4);
	pd_features_free(&f);
	memcpy(b, evdesc_le, sizeof(evdesc_le));
	b[1] = 1;		/* 257 events */
	CU_ASSERT_EQUAL(bad(PD_FEAT_EVENT_DESC, b, sizeof(evdesc_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_COUNT, BASE);
	pd_features_free(&f);
	free(b);
}

/* ================= CPU_TOPOLOGY ================= */

#define FX_TOPO(W16, W32, W64)						\
	W32(1),				/* core_siblings nr */		\
	W32(4), '0', '-', '1', 0,	/* "0-1" */			\
	W32(2),				/* thread_siblings nr @12 */	\
	W32(4), '0', 0, 0, 0,						\
	W32(4), '1', 0, 0, 0,						\
	/* @32: per cpu core_id, socket_id */				\
	W32(0), W32(0),							\
	W32(1), W32(0),							\
	W32(1),				/* die_siblings nr @48 */	\
	W32(4), '0', '-', '1', 0,					\
	W32(0), W32(0)			/* die_id per cpu @60 */
DEF_FX(topo, FX_TOPO);

static void check_topo(const struct pd_features *f)
{
	const struct pd_feat_cpu_topology *t = &f->cpu_topology;

	CU_ASSERT_EQUAL_FATAL(t->core_siblings.nr, 1);
	CU_ASSERT_STRING_EQUAL(t->core_siblings.s[0], "0-1");
	CU_ASSERT_EQUAL_FATAL(t->thread_siblings.nr, 2);
	CU_ASSERT_STRING_EQUAL(t->thread_siblings.s[1], "1");
	CU_ASSERT(t->has_cpu_ids);
	CU_ASSERT_EQUAL_FATAL(t->nr_cpus, 2);
	CU_ASSERT_EQUAL(t->core_id[1], 1);
	CU_ASSERT_EQUAL(t->socket_id[1], 0);
	CU_ASSERT(t->has_dies);
	CU_ASSERT_EQUAL_FATAL(t->die_siblings.nr, 1);
	CU_ASSERT_STRING_EQUAL(t->die_siblings.s[0], "0-1");
	CU_ASSERT_EQUAL(t->die_id[1], 0);
}

static void check_topo_guessed(const struct pd_features *f)
{
	check_topo(f);
	CU_ASSERT(f->cpu_topology.nr_cpus_guessed);
}

static void test_cpu_topology(void)
{
	struct pd_features f;

	both(PD_FEAT_CPU_TOPOLOGY, topo_le, sizeof(topo_le), topo_be, sizeof(topo_be), check_topo,
	     PD_FEAT_NRCPUS, nrcpus_le, sizeof(nrcpus_le), nrcpus_be, sizeof(nrcpus_be));
	/* no NRCPUS: the cpu count comes from the remaining size */
	BOTH(PD_FEAT_CPU_TOPOLOGY, topo, check_topo_guessed);

	/* old perf: parts 1 and 2 only */
	reset();
	pd_features_init(&f);
	CU_ASSERT_EQUAL(dec_le(&f, PD_FEAT_NRCPUS, nrcpus_le, sizeof(nrcpus_le)), 0);
	CU_ASSERT_EQUAL(dec_le(&f, PD_FEAT_CPU_TOPOLOGY, topo_le, 32), 0);
	CU_ASSERT_EQUAL(diags.n, 0);
	CU_ASSERT(!f.cpu_topology.has_cpu_ids);
	/* part 3 cut inside cpu 1's socket_id */
	CU_ASSERT_EQUAL(dec_le(&f, PD_FEAT_CPU_TOPOLOGY, topo_le, 32 + 12), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 32 + 12);
	CU_ASSERT_EQUAL(f.cpu_topology.thread_siblings.nr, 2);
	/* die ids cut */
	reset();
	CU_ASSERT_EQUAL(dec_le(&f, PD_FEAT_CPU_TOPOLOGY, topo_le, sizeof(topo_le) - 4), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 64);
	pd_features_free(&f);
}

/* ================= NUMA_TOPOLOGY ================= */

#define FX_NUMA(W16, W32, W64)						\
	W32(1),				/* nr nodes */			\
	W32(0),				/* node id @4 */		\
	W64(16000000),			/* mem_total kB @8 */		\
	W64(8000000),			/* mem_free kB @16 */		\
	W32(4), '0', '-', '1', 0	/* cpus @24 */
DEF_FX(numa, FX_NUMA);

static void check_numa(const struct pd_features *f)
{
	CU_ASSERT_EQUAL_FATAL(f->numa_topology.nr, 1);
	CU_ASSERT_EQUAL(f->numa_topology.nodes[0].node, 0);
	CU_ASSERT_EQUAL(f->numa_topology.nodes[0].mem_total, 16000000);
	CU_ASSERT_EQUAL(f->numa_topology.nodes[0].mem_free, 8000000);
	CU_ASSERT_STRING_EQUAL(f->numa_topology.nodes[0].cpus, "0-1");
}

static void test_numa(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(numa_le, sizeof(numa_le));

	BOTH(PD_FEAT_NUMA_TOPOLOGY, numa, check_numa);
	CU_ASSERT_EQUAL(bad(PD_FEAT_NUMA_TOPOLOGY, numa_le, 30, &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_STRING, BASE + 24);
	pd_features_free(&f);
	b[0] = 2;
	CU_ASSERT_EQUAL(bad(PD_FEAT_NUMA_TOPOLOGY, b, sizeof(numa_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_COUNT, BASE);
	pd_features_free(&f);
	free(b);
}

/* ================= BRANCH_STACK, STAT ================= */

static const uint8_t empty_le[1], empty_be[1];

static void check_flags(const struct pd_features *f)
{
	if (f->raw[PD_FEAT_BRANCH_STACK].present)
		CU_ASSERT(f->branch_stack);
	if (f->raw[PD_FEAT_STAT].present)
		CU_ASSERT(f->stat);
}

static void test_flag_features(void)
{
	static const uint8_t four[4];
	struct pd_features f;

	both(PD_FEAT_BRANCH_STACK, empty_le, 0, empty_be, 0, check_flags, 0, NULL, 0, NULL, 0);
	both(PD_FEAT_STAT, empty_le, 0, empty_be, 0, check_flags, 0, NULL, 0, NULL, 0);
	CU_ASSERT_EQUAL(bad(PD_FEAT_STAT, four, 4, &f), 0);
	ASSERT_ONE(PD_FEAT_TRAILING_BYTES, BASE);
	pd_features_free(&f);
}

/* ================= PMU_MAPPINGS ================= */

#define FX_PMUMAP(W16, W32, W64)					\
	W32(2),				/* nr */			\
	W32(1),				/* type @4 */			\
	W32(12), 's', 'o', 'f', 't', 'w', 'a', 'r', 'e', 0, 0, 0, 0,	/* @8 */ \
	W32(4),				/* type @24 */			\
	W32(4), 'c', 'p', 'u', 0	/* name @28 */
DEF_FX(pmumap, FX_PMUMAP);

static void check_pmumap(const struct pd_features *f)
{
	CU_ASSERT_EQUAL_FATAL(f->pmu_mappings.nr, 2);
	CU_ASSERT_EQUAL(f->pmu_mappings.pmus[0].type, 1);
	CU_ASSERT_STRING_EQUAL(f->pmu_mappings.pmus[0].name, "software");
	CU_ASSERT_EQUAL(f->pmu_mappings.pmus[1].type, 4);
	CU_ASSERT_STRING_EQUAL(f->pmu_mappings.pmus[1].name, "cpu");
}

static void test_pmu_mappings(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(pmumap_le, sizeof(pmumap_le));

	BOTH(PD_FEAT_PMU_MAPPINGS, pmumap, check_pmumap);
	b[28] = 0xff;		/* name length past the end */
	CU_ASSERT_EQUAL(bad(PD_FEAT_PMU_MAPPINGS, b, sizeof(pmumap_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_STRING, BASE + 28);
	CU_ASSERT_EQUAL(f.pmu_mappings.nr, 2);
	CU_ASSERT_STRING_EQUAL(f.pmu_mappings.pmus[0].name, "software");
	pd_features_free(&f);
	free(b);
}

/* ================= GROUP_DESC ================= */

#define FX_GROUP(W16, W32, W64)						\
	W32(1),				/* nr_groups */			\
	W32(16), '{', 'a', 'n', 'o', 'n', '_', 'g', 'r', 'o', 'u', 'p', '}', 0, 0, 0, 0, \
	W32(0),				/* leader_idx @24 */		\
	W32(2)				/* nr_members @28 */
DEF_FX(group, FX_GROUP);

static void check_group(const struct pd_features *f)
{
	CU_ASSERT_EQUAL_FATAL(f->group_desc.nr, 1);
	CU_ASSERT_STRING_EQUAL(f->group_desc.groups[0].name, "{anon_group}");
	CU_ASSERT_EQUAL(f->group_desc.groups[0].leader_idx, 0);
	CU_ASSERT_EQUAL(f->group_desc.groups[0].nr_members, 2);
}

static void test_group_desc(void)
{
	struct pd_features f;

	BOTH(PD_FEAT_GROUP_DESC, group, check_group);
	CU_ASSERT_EQUAL(bad(PD_FEAT_GROUP_DESC, group_le, sizeof(group_le) - 2, &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 28);
	pd_features_free(&f);
}

/* ================= AUXTRACE ================= */

#define FX_AUX(W16, W32, W64)						\
	W64(2),				/* nr */			\
	W64(0x1000), W64(0x2048),	/* file_offset, size */		\
	W64(0x3000), W64(0x100)
#define FX_AUX_SP(W16, W32, W64)					\
	/* simpleperf: no count */					\
	W64(0x1000), W64(48),						\
	W64(0x2000), W64(48)
DEF_FX(aux, FX_AUX);
DEF_FX(auxsp, FX_AUX_SP);

static void check_aux(const struct pd_features *f)
{
	CU_ASSERT(!f->auxtrace.simpleperf);
	CU_ASSERT_EQUAL_FATAL(f->auxtrace.nr, 2);
	CU_ASSERT_EQUAL(f->auxtrace.entries[0].file_offset, 0x1000);
	CU_ASSERT_EQUAL(f->auxtrace.entries[0].size, 0x2048);
	CU_ASSERT_EQUAL(f->auxtrace.entries[1].file_offset, 0x3000);
}

static void check_auxsp(const struct pd_features *f)
{
	CU_ASSERT(f->auxtrace.simpleperf);
	CU_ASSERT_EQUAL_FATAL(f->auxtrace.nr, 2);
	CU_ASSERT_EQUAL(f->auxtrace.entries[1].file_offset, 0x2000);
	CU_ASSERT_EQUAL(f->auxtrace.entries[1].size, 48);
}

static void test_auxtrace(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(aux_le, sizeof(aux_le));

	BOTH(PD_FEAT_AUXTRACE, aux, check_aux);
	BOTH(PD_FEAT_AUXTRACE, auxsp, check_auxsp);
	b[0] = 5;
	CU_ASSERT_EQUAL(bad(PD_FEAT_AUXTRACE, b, sizeof(aux_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_COUNT, BASE);
	pd_features_free(&f);
	b[0] = 1;		/* one entry, then 16 + 4 bytes too many */
	CU_ASSERT_EQUAL(bad(PD_FEAT_AUXTRACE, b, sizeof(aux_le) - 12, &f), 0);
	ASSERT_ONE(PD_FEAT_TRAILING_BYTES, BASE + 24);
	pd_features_free(&f);
	free(b);
}

/* ================= CACHE ================= */

#define FX_CACHE(W16, W32, W64)						\
	W32(1),				/* version */			\
	W32(1),				/* nr @4 */			\
	W32(1), W32(64), W32(64), W32(8),	/* level, line, sets, ways @8 */ \
	W32(8), 'D', 'a', 't', 'a', 0, 0, 0, 0,	/* type @24 */		\
	W32(4), '4', '8', 'K', 0,		/* size @36 */		\
	W32(4), '0', '-', '1', 0		/* map @44 */
DEF_FX(cache, FX_CACHE);

static void check_cache(const struct pd_features *f)
{
	const struct pd_feat_cache_level *l;

	CU_ASSERT_EQUAL(f->cache.version, 1);
	CU_ASSERT_EQUAL_FATAL(f->cache.nr, 1);
	l = &f->cache.levels[0];
	CU_ASSERT_EQUAL(l->level, 1);
	CU_ASSERT_EQUAL(l->line_size, 64);
	CU_ASSERT_EQUAL(l->sets, 64);
	CU_ASSERT_EQUAL(l->ways, 8);
	CU_ASSERT_STRING_EQUAL(l->type, "Data");
	CU_ASSERT_STRING_EQUAL(l->size, "48K");
	CU_ASSERT_STRING_EQUAL(l->map, "0-1");
}

static void test_cache(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(cache_le, sizeof(cache_le));

	BOTH(PD_FEAT_CACHE, cache, check_cache);
	b[0] = 2;
	CU_ASSERT_EQUAL(bad(PD_FEAT_CACHE, b, sizeof(cache_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_VERSION, BASE);
	pd_features_free(&f);
	b[0] = 1;
	b[4] = 2;
	CU_ASSERT_EQUAL(bad(PD_FEAT_CACHE, b, sizeof(cache_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_COUNT, BASE + 4);
	pd_features_free(&f);
	free(b);
}

/* ================= SAMPLE_TIME ================= */

#define FX_STIME(W16, W32, W64) W64(100), W64(200)	/* first, last */
DEF_FX(stime, FX_STIME);

static void check_stime(const struct pd_features *f)
{
	CU_ASSERT_EQUAL(f->sample_time.first, 100);
	CU_ASSERT_EQUAL(f->sample_time.last, 200);
}

static void test_sample_time(void)
{
	static const uint8_t rev[] = { L64(300), L64(200) };
	struct pd_features f;

	BOTH(PD_FEAT_SAMPLE_TIME, stime, check_stime);
	CU_ASSERT_EQUAL(bad(PD_FEAT_SAMPLE_TIME, rev, sizeof(rev), &f), 0);
	ASSERT_ONE(PD_FEAT_INCONSISTENT, BASE + 8);
	pd_features_free(&f);
	CU_ASSERT_EQUAL(bad(PD_FEAT_SAMPLE_TIME, rev, 12, &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 8);
	pd_features_free(&f);
}

/* ================= MEM_TOPOLOGY ================= */

#define FX_MEM(W16, W32, W64)						\
	W64(1),				/* version */			\
	W64(0x8000000),			/* block_size @8 */		\
	W64(1),				/* nr_nodes @16 */		\
	W64(0),				/* node_id @24 */		\
	W64(70),			/* size (blocks) @32 */		\
	W64(70),			/* bitmap nbits @40 */		\
	W64(0xff), W64(0x3f)		/* bitmap words @48 */
DEF_FX(mem, FX_MEM);

static void check_mem(const struct pd_features *f)
{
	const struct pd_feat_mem_topology *m = &f->mem_topology;

	CU_ASSERT_EQUAL(m->version, 1);
	CU_ASSERT_EQUAL(m->block_size, 0x8000000);
	CU_ASSERT_EQUAL_FATAL(m->nr, 1);
	CU_ASSERT_EQUAL(m->nodes[0].nbits, 70);
	CU_ASSERT_EQUAL(m->nodes[0].bitmap[0], 0xff);
	CU_ASSERT_EQUAL(m->nodes[0].bitmap[1], 0x3f);
}

static void test_mem_topology(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(mem_le, sizeof(mem_le));

	BOTH(PD_FEAT_MEM_TOPOLOGY, mem, check_mem);
	b[0] = 2;
	CU_ASSERT_EQUAL(bad(PD_FEAT_MEM_TOPOLOGY, b, sizeof(mem_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_VERSION, BASE);
	pd_features_free(&f);
	b[0] = 1;
	b[40] = 200;		/* 4 words needed, 2 present */
	CU_ASSERT_EQUAL(bad(PD_FEAT_MEM_TOPOLOGY, b, sizeof(mem_le), &f), -1);
	CU_ASSERT_EQUAL(diags.n, 2);
	CU_ASSERT_EQUAL(diags.seen[0].code, PD_FEAT_INCONSISTENT);	/* size != nbits */
	CU_ASSERT_EQUAL(diags.seen[0].offset, BASE + 40);
	CU_ASSERT_EQUAL(diags.seen[1].code, PD_FEAT_BAD_COUNT);
	CU_ASSERT_EQUAL(diags.seen[1].offset, BASE + 40);
	pd_features_free(&f);
	b[40] = 70;
	b[16] = 9;		/* 9 nodes of >= 24 bytes in 40 */
	CU_ASSERT_EQUAL(bad(PD_FEAT_MEM_TOPOLOGY, b, sizeof(mem_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_COUNT, BASE + 16);
	pd_features_free(&f);
	free(b);
}

/* ================= BPF_PROG_INFO, BPF_BTF ================= */

#define FX_BPFPROG(W16, W32, W64)					\
	W32(1),				/* count */			\
	W32(8),				/* info_len @4 */		\
	W32(4),				/* data_len @8 */		\
	W64(3),				/* arrays @12 */		\
	1, 2, 3, 4, 5, 6, 7, 8,		/* info (host-order struct) @20 */ \
	9, 10, 11, 12			/* data @28 */
DEF_FX(bpfprog, FX_BPFPROG);

#define FX_BTF(W16, W32, W64)						\
	W32(1),				/* count */			\
	W32(7),				/* id @4 */			\
	W32(4),				/* data_size @8 */		\
	0x9f, 0xeb, 1, 0		/* BTF bytes @12 */
DEF_FX(btf, FX_BTF);

static void test_bpf(void)
{
	struct pd_features f;
	uint8_t *b;

	/* little-endian: decoded */
	CU_ASSERT_EQUAL(bad(PD_FEAT_BPF_PROG_INFO, bpfprog_le, sizeof(bpfprog_le), &f), 0);
	CU_ASSERT_EQUAL(diags.n, 0);
	CU_ASSERT(f.raw[PD_FEAT_BPF_PROG_INFO].decoded);
	CU_ASSERT_EQUAL_FATAL(f.bpf_prog_info.nr, 1);
	CU_ASSERT_EQUAL(f.bpf_prog_info.progs[0].info_len, 8);
	CU_ASSERT_EQUAL(f.bpf_prog_info.progs[0].data_len, 4);
	CU_ASSERT_EQUAL(f.bpf_prog_info.progs[0].arrays, 3);
	CU_ASSERT_EQUAL(f.bpf_prog_info.progs[0].offset, 20);
	CU_ASSERT_EQUAL(dec_le(&f, PD_FEAT_BPF_BTF, btf_le, sizeof(btf_le)), 0);
	CU_ASSERT_EQUAL_FATAL(f.bpf_btf.nr, 1);
	CU_ASSERT_EQUAL(f.bpf_btf.btfs[0].id, 7);
	CU_ASSERT_EQUAL(f.bpf_btf.btfs[0].data_size, 4);
	CU_ASSERT_EQUAL(f.bpf_btf.btfs[0].offset, 12);
	pd_features_free(&f);

	/* the other byte order: host-order blobs cannot be swapped, kept as bytes */
	reset();
	pd_features_init(&f);
	CU_ASSERT_EQUAL(dec(&f, PD_FEAT_BPF_PROG_INFO, HOST_BE ? bpfprog_le : bpfprog_be,
			    sizeof(bpfprog_be), true), 0);
	ASSERT_ONE(PD_FEAT_SKIPPED_SWAPPED, BASE);
	CU_ASSERT(f.bpf_prog_info.skipped_swapped);
	CU_ASSERT(!f.raw[PD_FEAT_BPF_PROG_INFO].decoded);
	CU_ASSERT_EQUAL(f.raw[PD_FEAT_BPF_PROG_INFO].len, sizeof(bpfprog_be));
	reset();
	CU_ASSERT_EQUAL(dec(&f, PD_FEAT_BPF_BTF, HOST_BE ? btf_le : btf_be, sizeof(btf_be), true), 0);
	ASSERT_ONE(PD_FEAT_SKIPPED_SWAPPED, BASE);
	CU_ASSERT(f.bpf_btf.skipped_swapped);
	pd_features_free(&f);

	b = dup_fx(bpfprog_le, sizeof(bpfprog_le));
	b[4] = 100;
	CU_ASSERT_EQUAL(bad(PD_FEAT_BPF_PROG_INFO, b, sizeof(bpfprog_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_COUNT, BASE + 4);
	pd_features_free(&f);
	free(b);
	b = dup_fx(btf_le, sizeof(btf_le));
	b[8] = 5;
	CU_ASSERT_EQUAL(bad(PD_FEAT_BPF_BTF, b, sizeof(btf_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_COUNT, BASE + 8);
	pd_features_free(&f);
	free(b);
}

/* ================= COMPRESSED ================= */

#define FX_COMP(W16, W32, W64)						\
	W32(1),				/* version */			\
	W32(1),				/* type: zstd */		\
	W32(3),				/* level */			\
	W32(5),				/* ratio */			\
	W32(528384)			/* mmap_len */
DEF_FX(comp, FX_COMP);

static void check_comp(const struct pd_features *f)
{
	CU_ASSERT_EQUAL(f->compressed.version, 1);
	CU_ASSERT_EQUAL(f->compressed.type, 1);
	CU_ASSERT_EQUAL(f->compressed.level, 3);
	CU_ASSERT_EQUAL(f->compressed.ratio, 5);
	CU_ASSERT_EQUAL(f->compressed.mmap_len, 528384);
}

static void test_compressed(void)
{
	struct pd_features f;

	BOTH(PD_FEAT_COMPRESSED, comp, check_comp);
	CU_ASSERT_EQUAL(bad(PD_FEAT_COMPRESSED, comp_le, 18, &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 16);
	pd_features_free(&f);
}

/* ================= CPU_PMU_CAPS, PMU_CAPS ================= */

#define FX_CPUCAPS(W16, W32, W64)					\
	W32(1),				/* nr_caps */			\
	W32(12), 'b', 'r', 'a', 'n', 'c', 'h', 'e', 's', 0, 0, 0, 0,	/* name */ \
	W32(4), '3', '2', 0, 0		/* value @20 */
DEF_FX(cpucaps, FX_CPUCAPS);

static void check_cpucaps(const struct pd_features *f)
{
	CU_ASSERT_EQUAL_FATAL(f->cpu_pmu_caps.nr, 1);
	CU_ASSERT_STRING_EQUAL(f->cpu_pmu_caps.kv[0].key, "branches");
	CU_ASSERT_STRING_EQUAL(f->cpu_pmu_caps.kv[0].value, "32");
}

#define FX_PMUCAPS(W16, W32, W64)					\
	W32(1),				/* nr_pmus */			\
	W32(1),				/* nr_caps @4 */		\
	W32(8), 's', 'l', 'o', 't', 's', 0, 0, 0,	/* @8 */		\
	W32(4), '4', 0, 0, 0,		/* @20 */			\
	W32(12), 'c', 'p', 'u', '_', 'a', 't', 'o', 'm', 0, 0, 0, 0	/* pmu @28 */
DEF_FX(pmucaps, FX_PMUCAPS);

static void check_pmucaps(const struct pd_features *f)
{
	CU_ASSERT_EQUAL_FATAL(f->pmu_caps.nr, 1);
	CU_ASSERT_STRING_EQUAL(f->pmu_caps.pmus[0].pmu_name, "cpu_atom");
	CU_ASSERT_EQUAL_FATAL(f->pmu_caps.pmus[0].caps.nr, 1);
	CU_ASSERT_STRING_EQUAL(f->pmu_caps.pmus[0].caps.kv[0].key, "slots");
	CU_ASSERT_STRING_EQUAL(f->pmu_caps.pmus[0].caps.kv[0].value, "4");
}

static void test_pmu_caps(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(cpucaps_le, sizeof(cpucaps_le));
	uint8_t big[sizeof(pmucaps_le) + 2];

	BOTH(PD_FEAT_CPU_PMU_CAPS, cpucaps, check_cpucaps);
	BOTH(PD_FEAT_PMU_CAPS, pmucaps, check_pmucaps);
	b[0] = 5;
	CU_ASSERT_EQUAL(bad(PD_FEAT_CPU_PMU_CAPS, b, sizeof(cpucaps_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_COUNT, BASE);
	pd_features_free(&f);
	free(b);
	memcpy(big, pmucaps_le, sizeof(pmucaps_le));
	big[sizeof(pmucaps_le)] = 1;
	big[sizeof(pmucaps_le) + 1] = 2;
	CU_ASSERT_EQUAL(bad(PD_FEAT_PMU_CAPS, big, sizeof(big), &f), 0);
	ASSERT_ONE(PD_FEAT_TRAILING_BYTES, BASE + sizeof(pmucaps_le));
	pd_features_free(&f);
}

/* ================= CLOCK_DATA ================= */

#define FX_CLOCK(W16, W32, W64)						\
	W32(1),				/* version */			\
	W32(1),				/* clockid: MONOTONIC */	\
	W64(1700000000123456789ULL),	/* tod_ns @8 */			\
	W64(12345)			/* clockid_ns @16 */
DEF_FX(clock, FX_CLOCK);

static void check_clock(const struct pd_features *f)
{
	CU_ASSERT_EQUAL(f->clock_data.version, 1);
	CU_ASSERT_EQUAL(f->clock_data.clockid, 1);
	CU_ASSERT_EQUAL(f->clock_data.tod_ns, 1700000000123456789ULL);
	CU_ASSERT_EQUAL(f->clock_data.clockid_ns, 12345);
}

static void test_clock_data(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(clock_le, sizeof(clock_le));

	BOTH(PD_FEAT_CLOCK_DATA, clock, check_clock);
	b[0] = 2;
	CU_ASSERT_EQUAL(bad(PD_FEAT_CLOCK_DATA, b, sizeof(clock_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_VERSION, BASE);
	pd_features_free(&f);
	CU_ASSERT_EQUAL(bad(PD_FEAT_CLOCK_DATA, clock_le, 20, &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 16);
	pd_features_free(&f);
	free(b);
}

/* ================= HYBRID_TOPOLOGY ================= */

#define FX_HYBRID(W16, W32, W64)					\
	W32(1),				/* nr */			\
	W32(12), 'c', 'p', 'u', '_', 'c', 'o', 'r', 'e', 0, 0, 0, 0,	/* pmu @4 */ \
	W32(4), '0', '-', '1', 0	/* cpus @20 */
DEF_FX(hybrid, FX_HYBRID);

static void check_hybrid(const struct pd_features *f)
{
	CU_ASSERT_EQUAL_FATAL(f->hybrid_topology.nr, 1);
	CU_ASSERT_STRING_EQUAL(f->hybrid_topology.nodes[0].pmu_name, "cpu_core");
	CU_ASSERT_STRING_EQUAL(f->hybrid_topology.nodes[0].cpus, "0-1");
}

static void test_hybrid(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(hybrid_le, sizeof(hybrid_le));

	BOTH(PD_FEAT_HYBRID_TOPOLOGY, hybrid, check_hybrid);
	b[27] = '2';		/* "0-12", no NUL */
	CU_ASSERT_EQUAL(bad(PD_FEAT_HYBRID_TOPOLOGY, b, sizeof(hybrid_le), &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_STRING, BASE + 24);
	CU_ASSERT_STRING_EQUAL(f.hybrid_topology.nodes[0].cpus, "0-12");
	pd_features_free(&f);
	free(b);
}

/* ================= CPU_DOMAIN_INFO ================= */

#define FX_DOMAIN(W16, W32, W64)					\
	W32(17),			/* schedstat_version */		\
	W32(2),				/* max_sched_domains @4 */	\
	W32(0),				/* cpu @8 */			\
	W32(1),				/* nr_domains @12 */		\
	W32(0),				/* domain @16 */		\
	W32(4), 'S', 'M', 'T', 0,	/* name (version >= 17) @20 */	\
	W32(4), '3', 0, 0, 0,		/* cpumask @28 */		\
	W32(4), '0', '-', '1', 0,	/* cpulist @36 */		\
	W32(1),				/* cpu @44 */			\
	W32(1),								\
	W32(1),				/* domain @52 */		\
	W32(4), 'M', 'C', 0, 0,						\
	W32(4), '3', 0, 0, 0,						\
	W32(4), '0', '-', '1', 0
DEF_FX(domain, FX_DOMAIN);

static void check_domain(const struct pd_features *f)
{
	const struct pd_feat_cpu_domain_info *d = &f->cpu_domain_info;

	CU_ASSERT_EQUAL(d->schedstat_version, 17);
	CU_ASSERT_EQUAL(d->max_sched_domains, 2);
	CU_ASSERT_EQUAL_FATAL(d->nr, 2);
	CU_ASSERT_EQUAL(d->cpus[1].cpu, 1);
	CU_ASSERT_EQUAL_FATAL(d->cpus[1].nr_domains, 1);
	CU_ASSERT_EQUAL(d->cpus[1].domains[0].domain, 1);
	CU_ASSERT_STRING_EQUAL(d->cpus[1].domains[0].name, "MC");
	CU_ASSERT_STRING_EQUAL(d->cpus[0].domains[0].cpumask, "3");
	CU_ASSERT_STRING_EQUAL(d->cpus[0].domains[0].cpulist, "0-1");
}

static void test_cpu_domain_info(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(domain_le, sizeof(domain_le));

	both(PD_FEAT_CPU_DOMAIN_INFO, domain_le, sizeof(domain_le), domain_be, sizeof(domain_be),
	     check_domain, PD_FEAT_NRCPUS, nrcpus_le, sizeof(nrcpus_le), nrcpus_be,
	     sizeof(nrcpus_be));
	BOTH(PD_FEAT_CPU_DOMAIN_INFO, domain, check_domain);	/* no NRCPUS */

	reset();
	pd_features_init(&f);
	CU_ASSERT_EQUAL(dec_le(&f, PD_FEAT_NRCPUS, nrcpus_le, sizeof(nrcpus_le)), 0);
	/* the second cpu block is missing */
	CU_ASSERT_EQUAL(dec_le(&f, PD_FEAT_CPU_DOMAIN_INFO, domain_le, 44), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 44);
	CU_ASSERT_EQUAL(f.cpu_domain_info.nr, 1);
	/* domain index >= max_sched_domains, cpu >= nr_cpus_avail */
	reset();
	b[52] = 2;
	b[44] = 7;
	CU_ASSERT_EQUAL(dec_le(&f, PD_FEAT_CPU_DOMAIN_INFO, b, sizeof(domain_le)), 0);
	CU_ASSERT_EQUAL(diags.n, 2);
	CU_ASSERT_EQUAL(diags.seen[0].code, PD_FEAT_INCONSISTENT);
	CU_ASSERT_EQUAL(diags.seen[0].offset, BASE + 44);
	CU_ASSERT_EQUAL(diags.seen[1].code, PD_FEAT_INCONSISTENT);
	CU_ASSERT_EQUAL(diags.seen[1].offset, BASE + 52);
	/* nr_domains cannot fit */
	reset();
	memcpy(b, domain_le, sizeof(domain_le));
	b[12] = 9;
	CU_ASSERT_EQUAL(dec_le(&f, PD_FEAT_CPU_DOMAIN_INFO, b, sizeof(domain_le)), -1);
	ASSERT_ONE(PD_FEAT_BAD_COUNT, BASE + 12);
	pd_features_free(&f);
	free(b);
}

/* ================= simpleperf FILE (v1) ================= */

#define FX_SPFILE(W16, W32, W64)					\
	W32(47),			/* entry 0 size */		\
	'/', 'a', '.', 's', 'o', 0,	/* path @4 */			\
	W32(2),				/* dso_type ELF @10 */		\
	W64(0x1000),			/* min_vaddr @14 */		\
	W32(1),				/* symbol_count @22 */		\
	W64(0x1100), W32(0x20), 'm', 'a', 'i', 'n', 0,	/* symbol @26 */	\
	W64(0x80),			/* file_offset_of_min_vaddr @43 */ \
	W32(35),			/* entry 1 size @51 */		\
	'/', 'b', '.', 'd', 'e', 'x', 0,	/* path @55 */		\
	W32(3),				/* DEX @62 */			\
	W64(0),				/* min_vaddr */			\
	W32(0),				/* no symbols */		\
	W32(1), W64(0x70)		/* dex_file_offsets */
DEF_FX(spfile, FX_SPFILE);

static void check_spfile_list(const struct pd_feat_sp_files *fl)
{
	CU_ASSERT_EQUAL_FATAL(fl->nr, 2);
	CU_ASSERT_STRING_EQUAL(fl->files[0].path, "/a.so");
	CU_ASSERT_EQUAL(fl->files[0].type, 2);
	CU_ASSERT_EQUAL(fl->files[0].min_vaddr, 0x1000);
	CU_ASSERT_EQUAL_FATAL(fl->files[0].nr_symbols, 1);
	CU_ASSERT_EQUAL(fl->files[0].symbols[0].vaddr, 0x1100);
	CU_ASSERT_EQUAL(fl->files[0].symbols[0].len, 0x20);
	CU_ASSERT_STRING_EQUAL(fl->files[0].symbols[0].name, "main");
	CU_ASSERT(fl->files[0].has_min_vaddr_offset);
	CU_ASSERT_EQUAL(fl->files[0].min_vaddr_offset, 0x80);
	CU_ASSERT_STRING_EQUAL(fl->files[1].path, "/b.dex");
	CU_ASSERT_EQUAL(fl->files[1].type, 3);
	CU_ASSERT_EQUAL_FATAL(fl->files[1].nr_dex_offsets, 1);
	CU_ASSERT_EQUAL(fl->files[1].dex_offsets[0], 0x70);
}

static void check_spfile(const struct pd_features *f)
{
	check_spfile_list(&f->sp_file);
}

static void test_sp_file(void)
{
	struct pd_features f;
	uint8_t *b = dup_fx(spfile_le, sizeof(spfile_le));

	BOTH(PD_FEAT_SP_FILE, spfile, check_spfile);
	b[10] = 9;		/* unknown dso type: its optional u64 is then left over */
	CU_ASSERT_EQUAL(bad(PD_FEAT_SP_FILE, b, sizeof(spfile_le), &f), 0);
	CU_ASSERT_EQUAL(diags.n, 2);
	CU_ASSERT_EQUAL(diags.seen[0].code, PD_FEAT_INCONSISTENT);
	CU_ASSERT_EQUAL(diags.seen[0].offset, BASE + 10);
	CU_ASSERT_EQUAL(diags.seen[1].code, PD_FEAT_TRAILING_BYTES);
	CU_ASSERT_EQUAL(diags.seen[1].offset, BASE + 43);
	pd_features_free(&f);
	b[10] = 2;
	b[51] = 36;		/* entry 1 one byte longer than the section */
	CU_ASSERT_EQUAL(bad(PD_FEAT_SP_FILE, b, sizeof(spfile_le), &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 55);
	CU_ASSERT_EQUAL(f.sp_file.nr, 1);
	pd_features_free(&f);
	free(b);
}

/* ================= simpleperf META_INFO ================= */

#define FX_META(W16, W32, W64)						\
	's', 'i', 'm', 'p', 'l', 'e', 'p', 'e', 'r', 'f', '_',		\
	'v', 'e', 'r', 's', 'i', 'o', 'n', 0,	/* key @0 */		\
	'1', '.', '2', 0,			/* value @19 */		\
	'c', 'l', 'o', 'c', 'k', 'i', 'd', 0,	/* key @23 */		\
	'm', 'o', 'n', 'o', 't', 'o', 'n', 'i', 'c', 0	/* value @31 */
DEF_FX(meta, FX_META);

static void check_meta(const struct pd_features *f)
{
	CU_ASSERT_EQUAL_FATAL(f->sp_meta_info.nr, 2);
	CU_ASSERT_STRING_EQUAL(f->sp_meta_info.kv[0].key, "simpleperf_version");
	CU_ASSERT_STRING_EQUAL(f->sp_meta_info.kv[0].value, "1.2");
	CU_ASSERT_STRING_EQUAL(f->sp_meta_info.kv[1].key, "clockid");
	CU_ASSERT_STRING_EQUAL(f->sp_meta_info.kv[1].value, "monotonic");
}

static void test_sp_meta_info(void)
{
	static const uint8_t empty_val[] = { 'k', 0, 0 };
	struct pd_features f;

	BOTH(PD_FEAT_SP_META_INFO, meta, check_meta);
	CU_ASSERT_EQUAL(bad(PD_FEAT_SP_META_INFO, meta_le, sizeof(meta_le) - 1, &f), -1);
	ASSERT_ONE(PD_FEAT_BAD_STRING, BASE + 31);
	CU_ASSERT_STRING_EQUAL(f.sp_meta_info.kv[1].value, "monotonic");
	pd_features_free(&f);
	CU_ASSERT_EQUAL(bad(PD_FEAT_SP_META_INFO, meta_le, 31, &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 31);
	pd_features_free(&f);
	CU_ASSERT_EQUAL(bad(PD_FEAT_SP_META_INFO, empty_val, sizeof(empty_val), &f), 0);
	ASSERT_ONE(PD_FEAT_INCONSISTENT, BASE + 2);
	pd_features_free(&f);
}

/* ================= simpleperf DEBUG_UNWIND (+ DEBUG_UNWIND_FILE) ================= */

#define FX_DU(W16, W32, W64)						\
	0x0a, 0x0a,			/* file (1, LEN) len 10 */	\
	0x0a, 0x05, '/', 'a', '.', 's', 'o',	/* path (1, LEN) */	\
	0x10, 0xac, 0x02,		/* size (2, VARINT) = 300 */	\
	0x0a, 0x07,			/* file @12, len 7 */		\
	0x0a, 0x03, '/', 'b', 'b',					\
	0x10, 0x05			/* size 5 */
DEF_FX(du, FX_DU);

static void check_du(const struct pd_features *f)
{
	CU_ASSERT_EQUAL_FATAL(f->sp_debug_unwind.nr, 2);
	CU_ASSERT_STRING_EQUAL(f->sp_debug_unwind.paths[0], "/a.so");
	CU_ASSERT_EQUAL(f->sp_debug_unwind.sizes[0], 300);
	CU_ASSERT_STRING_EQUAL(f->sp_debug_unwind.paths[1], "/bb");
	CU_ASSERT_EQUAL(f->sp_debug_unwind.sizes[1], 5);
}

static void test_sp_debug_unwind(void)
{
	static const uint8_t dufile[10];
	struct pd_features f;

	BOTH(PD_FEAT_SP_DEBUG_UNWIND, du, check_du);
	CU_ASSERT_EQUAL(bad(PD_FEAT_SP_DEBUG_UNWIND, du_le, sizeof(du_le) - 1, &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 14);
	pd_features_free(&f);
	/* the files' sizes must add up to DEBUG_UNWIND_FILE's size (131 comes first) */
	CU_ASSERT_EQUAL(bad(PD_FEAT_SP_DEBUG_UNWIND_FILE, dufile, sizeof(dufile), &f), 0);
	CU_ASSERT(f.raw[PD_FEAT_SP_DEBUG_UNWIND_FILE].decoded);
	CU_ASSERT_EQUAL(dec_le(&f, PD_FEAT_SP_DEBUG_UNWIND, du_le, sizeof(du_le)), 0);
	ASSERT_ONE(PD_FEAT_INCONSISTENT, BASE);
	pd_features_free(&f);
}

/* ================= simpleperf FILE2 ================= */

#define FX_FILE2(W16, W32, W64)						\
	W32(30),			/* message 0 length */		\
	0x0a, 0x05, '/', 'a', '.', 's', 'o',	/* path @4 */		\
	0x10, 0x02,			/* type = ELF */		\
	0x18, 0x80, 0x20,		/* min_vaddr = 0x1000 */	\
	0x22, 0x0b,			/* symbol, 11 bytes */		\
	0x08, 0x80, 0x22,		/*   vaddr = 0x1100 */		\
	0x10, 0x20,			/*   len = 0x20 */		\
	0x1a, 0x04, 'm', 'a', 'i', 'n',	/*   name */			\
	0x32, 0x03, 0x08, 0x80, 0x01,	/* elf_file { offset = 0x80 } */ \
	W32(16),			/* message 1 length @34 */	\
	0x0a, 0x06, '/', 'b', '.', 'd', 'e', 'x',			\
	0x10, 0x03,			/* type = DEX */		\
	0x2a, 0x04, 0x0a, 0x02, 0x70, 0x71	/* dex_file { packed offsets } */
DEF_FX(file2, FX_FILE2);

static void check_file2(const struct pd_features *f)
{
	const struct pd_feat_sp_files *fl = &f->sp_file2;

	CU_ASSERT_EQUAL_FATAL(fl->nr, 2);
	CU_ASSERT_STRING_EQUAL(fl->files[0].path, "/a.so");
	CU_ASSERT_EQUAL(fl->files[0].type, 2);
	CU_ASSERT_EQUAL(fl->files[0].min_vaddr, 0x1000);
	CU_ASSERT_EQUAL(fl->files[0].msg_size, 30);
	CU_ASSERT_EQUAL_FATAL(fl->files[0].nr_symbols, 1);
	CU_ASSERT_EQUAL(fl->files[0].symbols[0].vaddr, 0x1100);
	CU_ASSERT_EQUAL(fl->files[0].symbols[0].len, 0x20);
	CU_ASSERT_STRING_EQUAL(fl->files[0].symbols[0].name, "main");
	CU_ASSERT(fl->files[0].has_min_vaddr_offset);
	CU_ASSERT_EQUAL(fl->files[0].min_vaddr_offset, 0x80);
	CU_ASSERT_STRING_EQUAL(fl->files[1].path, "/b.dex");
	CU_ASSERT_EQUAL(fl->files[1].type, 3);
	CU_ASSERT_EQUAL_FATAL(fl->files[1].nr_dex_offsets, 2);
	CU_ASSERT_EQUAL(fl->files[1].dex_offsets[0], 0x70);
	CU_ASSERT_EQUAL(fl->files[1].dex_offsets[1], 0x71);
}

static void test_sp_file2(void)
{
	static const uint8_t no_oneof[] = { L32(4), 0x0a, 0x00, 0x10, 0x02 };
	static const uint8_t bad_wt[] = { L32(1), 0x0f };
	struct pd_features f;
	uint8_t *b = dup_fx(file2_le, sizeof(file2_le));

	BOTH(PD_FEAT_SP_FILE2, file2, check_file2);
	b[0] = 200;
	CU_ASSERT_EQUAL(bad(PD_FEAT_SP_FILE2, b, sizeof(file2_le), &f), -1);
	ASSERT_ONE(PD_FEAT_TRUNCATED, BASE + 4);
	pd_features_free(&f);
	CU_ASSERT_EQUAL(bad(PD_FEAT_SP_FILE2, no_oneof, sizeof(no_oneof), &f), 0);
	ASSERT_ONE(PD_FEAT_INCONSISTENT, BASE + 4);
	pd_features_free(&f);
	CU_ASSERT_EQUAL(bad(PD_FEAT_SP_FILE2, bad_wt, sizeof(bad_wt), &f), -1);
	ASSERT_ONE(PD_FEAT_INCONSISTENT, BASE + 5);
	pd_features_free(&f);
	free(b);
}

/* ================= raw-only ids, unknown ids, bookkeeping ================= */

static void test_raw_only(void)
{
	static const uint8_t blob[] = { 1, 2, 3, 4, 5 };
	static const unsigned int ids[] = { PD_FEAT_SP_DEBUG_UNWIND_FILE,
					    PD_FEAT_SP_ETM_BRANCH_LIST,
					    PD_FEAT_SP_INIT_MAP };
	struct pd_features f;
	unsigned int i;

	pd_features_init(&f);
	for (i = 0; i < 3; i++) {
		reset();
		CU_ASSERT_EQUAL(dec(&f, ids[i], blob, sizeof(blob), i == 1), 0);
		CU_ASSERT_EQUAL(diags.n, 0);
		CU_ASSERT(f.raw[ids[i]].decoded);
		CU_ASSERT_EQUAL(f.raw[ids[i]].len, sizeof(blob));
		CU_ASSERT_EQUAL(memcmp(f.raw[ids[i]].data, blob, sizeof(blob)), 0);
	}
	/* an unknown id: bytes kept, no diagnostic, result 1 */
	reset();
	CU_ASSERT_EQUAL(dec_le(&f, 200, blob, sizeof(blob)), 1);
	CU_ASSERT_EQUAL(diags.n, 0);
	CU_ASSERT(f.raw[200].present);
	CU_ASSERT(!f.raw[200].decoded);
	CU_ASSERT(pd_features_has(&f, 200));
	CU_ASSERT_EQUAL(f.raw[200].data[4], 5);
	pd_feature_clear(&f, 200);
	CU_ASSERT(!pd_features_has(&f, 200));
	CU_ASSERT_PTR_NULL(f.raw[200].data);
	pd_features_free(&f);
}

static void test_is_known(void)
{
	CU_ASSERT(!pd_feature_is_known(0));
	CU_ASSERT(pd_feature_is_known(1));
	CU_ASSERT(pd_feature_is_known(34));
	CU_ASSERT(!pd_feature_is_known(35));
	CU_ASSERT(!pd_feature_is_known(127));
	CU_ASSERT(pd_feature_is_known(128));
	CU_ASSERT(pd_feature_is_known(134));
	CU_ASSERT(!pd_feature_is_known(135));
	CU_ASSERT(!pd_feature_is_known(255));
	CU_ASSERT(!pd_feature_is_known(256));
}

static void test_duplicate_and_pipe(void)
{
	static const uint8_t other[] = { L32(4), 'a', 'b', 0, 0 };
	/* 12-byte payload + 16-byte record header = 28: padded to 32 */
	static const uint8_t padded[] = { L32(8), 'v', 'm', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t noisy[] = { L32(8), 'v', 'm', 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	struct pd_features f;

	reset();
	pd_features_init(&f);
	CU_ASSERT_EQUAL(dec_le(&f, PD_FEAT_HOSTNAME, str_le, sizeof(str_le)), 0);
	CU_ASSERT_EQUAL(pd_feature_decode(&f, PD_FEAT_HOSTNAME, other, sizeof(other), false, 99,
					  -1, 0, &diags.sink), 0);
	CU_ASSERT_STRING_EQUAL(f.hostname, "ab");
	CU_ASSERT_EQUAL(f.raw[PD_FEAT_HOSTNAME].len, sizeof(other));
	CU_ASSERT_EQUAL(f.raw[PD_FEAT_HOSTNAME].offset, 99);
	CU_ASSERT_EQUAL(diags.n, 0);

	/* pipe mode: record index and type pass through; record padding is not trailing */
	CU_ASSERT_EQUAL(pd_feature_decode(&f, PD_FEAT_HOSTNAME, padded, sizeof(padded), false,
					  BASE, 7, PD_REC_HEADER_FEATURE, &diags.sink), 0);
	CU_ASSERT_EQUAL(diags.n, 0);
	CU_ASSERT_EQUAL(pd_feature_decode(&f, PD_FEAT_HOSTNAME, noisy, sizeof(noisy), fixture_swap(false),
					  BASE, 7, PD_REC_HEADER_FEATURE, &diags.sink), 0);
	ASSERT_ONE(PD_FEAT_TRAILING_BYTES, BASE + 12);
	CU_ASSERT_EQUAL(diags.seen[0].record_index, 7);
	reset();
	CU_ASSERT_EQUAL(dec_le(&f, PD_FEAT_HOSTNAME, padded, sizeof(padded)), 0);
	ASSERT_ONE(PD_FEAT_TRAILING_BYTES, BASE + 12);
	pd_features_free(&f);
}

/* ================= perf_event_attr ================= */

#define AA_LE(v) L32(v)
#define AA_BE(v) B32(v)

/* aux_action = aux_start_paused | aux_resume (bits 0 and 2) */
#define FX_ATTR(W16, W32, W64, WFL, flags, AA)				\
	W32(4),				/* type: RAW */			\
	W32(144),			/* size */			\
	W64(0x1111),			/* config @8 */			\
	W64(0x2222),			/* sample_period @16 */		\
	W64(0x3333),			/* sample_type @24 */		\
	W64(0x4444),			/* read_format @32 */		\
	WFL(flags),			/* flags @40 */			\
	W32(0x55),			/* wakeup_events @48 */		\
	W32(0x66),			/* bp_type @52 */		\
	W64(0x7777),			/* config1 @56 */		\
	W64(0x8888),			/* config2 @64 */		\
	W64(0x9999),			/* branch_sample_type @72 */	\
	W64(0xaaaa),			/* sample_regs_user @80 */	\
	W32(0xbb),			/* sample_stack_user @88 */	\
	W32(0xfffffffd),		/* clockid = -3 @92 */		\
	W64(0xcccc),			/* sample_regs_intr @96 */	\
	W32(0xdd),			/* aux_watermark @104 */	\
	W16(0xee),			/* sample_max_stack @108 */	\
	W16(0),				/* __reserved_2 @110 */		\
	W32(0xff),			/* aux_sample_size @112 */	\
	AA,				/* aux_action @116 */		\
	W64(0x1234),			/* sig_data @120 */		\
	W64(0x5678),			/* config3 @128 */		\
	W64(0x9abc)			/* config4 @136 */

/* exclude_kernel | mmap | comm | precise_ip = P | sample_id_all | mmap2 | build_id */
#define AFLAGS(p) (PD_ATTR_EXCLUDE_KERNEL | PD_ATTR_MMAP | PD_ATTR_COMM | ((uint64_t)(p) << 15) | \
		   PD_ATTR_SAMPLE_ID_ALL | PD_ATTR_MMAP2 | PD_ATTR_BUILD_ID)

static const uint8_t attr_le[] = { FX_ATTR(L16, L32, L64, FLAGS_LE, AFLAGS(2), AA_LE(5)) };
static const uint8_t attr_be_p0[] = {
	FX_ATTR(B16, B32, B64, FLAGS_BE, AFLAGS(0), AA_BE(0xa0000000))
};
static const uint8_t attr_be_p1[] = {
	FX_ATTR(B16, B32, B64, FLAGS_BE, AFLAGS(1), AA_BE(0xa0000000))
};
static const uint8_t attr_be_p2[] = {
	FX_ATTR(B16, B32, B64, FLAGS_BE, AFLAGS(2), AA_BE(0xa0000000))
};
static const uint8_t attr_be_p3[] = {
	FX_ATTR(B16, B32, B64, FLAGS_BE, AFLAGS(3), AA_BE(0xa0000000))
};

static void attr_expect(size_t len, struct pd_attr *e)
{
	memset(e, 0, sizeof(*e));
	e->type = 4;
	e->size = 144;
	e->config = 0x1111;
	e->sample_period = 0x2222;
	e->sample_type = 0x3333;
	e->read_format = 0x4444;
	e->flags = AFLAGS(2);
	e->wakeup_events = 0x55;
	e->bp_type = 0x66;
	e->config1 = 0x7777;
	if (len < 72)
		return;
	e->config2 = 0x8888;
	if (len < 80)
		return;
	e->branch_sample_type = 0x9999;
	if (len < 96)
		return;
	e->sample_regs_user = 0xaaaa;
	e->sample_stack_user = 0xbb;
	e->clockid = -3;
	if (len < 104)
		return;
	e->sample_regs_intr = 0xcccc;
	if (len < 112)
		return;
	e->aux_watermark = 0xdd;
	e->sample_max_stack = 0xee;
	if (len < 120)
		return;
	e->aux_sample_size = 0xff;
	e->aux_action = 5;
	if (len < 128)
		return;
	e->sig_data = 0x1234;
	if (len < 136)
		return;
	e->config3 = 0x5678;
	if (len < 144)
		return;
	e->config4 = 0x9abc;
}

static void test_attr_sizes(void)
{
	static const size_t sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136, 144 };
	struct pd_attr a, e, b;
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		attr_expect(sizes[i], &e);
		pd_attr_decode(attr_le, sizes[i], false, &a);
		CU_ASSERT_EQUAL(memcmp(&a, &e, sizeof(a)), 0);
		pd_attr_decode(attr_be_p2, sizes[i], true, &b);
		CU_ASSERT_EQUAL(memcmp(&b, &e, sizeof(b)), 0);
	}
	/* a field cut in half by len is absent */
	pd_attr_decode(attr_le, 76, false, &a);
	CU_ASSERT_EQUAL(a.config2, 0x8888);
	CU_ASSERT_EQUAL(a.branch_sample_type, 0);
}

static void test_attr_big_endian(void)
{
	struct pd_attr a;

	pd_attr_decode(attr_be_p1, sizeof(attr_be_p1), true, &a);
	CU_ASSERT_EQUAL(pd_attr_precise_ip(&a), 1);
	CU_ASSERT_EQUAL(a.flags, AFLAGS(1));
	CU_ASSERT_EQUAL(a.aux_action, 5);
	pd_attr_decode(attr_be_p2, sizeof(attr_be_p2), true, &a);
	CU_ASSERT_EQUAL(pd_attr_precise_ip(&a), 2);
	CU_ASSERT_EQUAL(a.flags, AFLAGS(2));
	pd_attr_decode(attr_be_p0, sizeof(attr_be_p0), true, &a);
	CU_ASSERT_EQUAL(a.flags, AFLAGS(0));
	pd_attr_decode(attr_be_p3, sizeof(attr_be_p3), true, &a);
	CU_ASSERT_EQUAL(a.flags, AFLAGS(3));
	CU_ASSERT(a.flags & PD_ATTR_EXCLUDE_KERNEL);
	CU_ASSERT(!(a.flags & PD_ATTR_EXCLUDE_USER));
	CU_ASSERT_EQUAL(a.clockid, -3);
	CU_ASSERT_EQUAL(a.sample_max_stack, 0xee);
}

static bool all_zero_tail(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

static void test_attr_encode(void)
{
	uint8_t out[160];
	struct pd_attr a, b;

	pd_attr_decode(attr_le, sizeof(attr_le), false, &a);
	memset(out, 0xaa, sizeof(out));
	pd_attr_encode(&a, out, 144);
	CU_ASSERT_EQUAL(memcmp(out, attr_le, 144), 0);
	CU_ASSERT_EQUAL(out[144], 0xaa);
	/* fields past size are dropped */
	pd_attr_encode(&a, out, 64);
	CU_ASSERT_EQUAL(memcmp(out, attr_le, 64), 0);
	pd_attr_decode(out, 64, false, &b);
	CU_ASSERT_EQUAL(b.config2, 0);
	CU_ASSERT_EQUAL(b.config1, 0x7777);
	/* zero-padded beyond 144 */
	pd_attr_encode(&a, out, 160);
	CU_ASSERT(all_zero_tail(out + 144, 16));
}

/* ================= registration ================= */

static const struct {
	const char *name;
	CU_TestFunc fn;
} feature_tests[] = {
	{ "TRACING_DATA", test_tracing_data },
	{ "BUILD_ID", test_build_id },
	{ "string features", test_strings },
	{ "NRCPUS TOTAL_MEM CLOCKID DIR_FORMAT E_MACHINE CLN_SIZE", test_scalars },
	{ "CMDLINE", test_cmdline },
	{ "EVENT_DESC", test_event_desc },
	{ "CPU_TOPOLOGY", test_cpu_topology },
	{ "NUMA_TOPOLOGY", test_numa },
	{ "BRANCH_STACK STAT", test_flag_features },
	{ "PMU_MAPPINGS", test_pmu_mappings },
	{ "GROUP_DESC", test_group_desc },
	{ "AUXTRACE", test_auxtrace },
	{ "CACHE", test_cache },
	{ "SAMPLE_TIME", test_sample_time },
	{ "MEM_TOPOLOGY", test_mem_topology },
	{ "BPF_PROG_INFO BPF_BTF", test_bpf },
	{ "COMPRESSED", test_compressed },
	{ "CPU_PMU_CAPS PMU_CAPS", test_pmu_caps },
	{ "CLOCK_DATA", test_clock_data },
	{ "HYBRID_TOPOLOGY", test_hybrid },
	{ "CPU_DOMAIN_INFO", test_cpu_domain_info },
	{ "simpleperf FILE", test_sp_file },
	{ "simpleperf META_INFO", test_sp_meta_info },
	{ "simpleperf DEBUG_UNWIND", test_sp_debug_unwind },
	{ "simpleperf FILE2", test_sp_file2 },
	{ "raw-only and unknown ids", test_raw_only },
	{ "pd_feature_is_known", test_is_known },
	{ "duplicates and pipe records", test_duplicate_and_pipe },
};

static const struct {
	const char *name;
	CU_TestFunc fn;
} attr_tests[] = {
	{ "every attr size version", test_attr_sizes },
	{ "big-endian flags and precise_ip", test_attr_big_endian },
	{ "encode", test_attr_encode },
};

int pd_test_register_feature(void)
{
	CU_pSuite s;
	size_t i;

	s = CU_add_suite("feature", NULL, NULL);
	if (!s)
		return CU_get_error();
	for (i = 0; i < sizeof(feature_tests) / sizeof(feature_tests[0]); i++)
		if (!CU_add_test(s, feature_tests[i].name, feature_tests[i].fn))
			return CU_get_error();
	s = CU_add_suite("attr", NULL, NULL);
	if (!s)
		return CU_get_error();
	for (i = 0; i < sizeof(attr_tests) / sizeof(attr_tests[0]); i++)
		if (!CU_add_test(s, attr_tests[i].name, attr_tests[i].fn))
			return CU_get_error();
	return CUE_SUCCESS;
}
