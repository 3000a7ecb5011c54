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

#include "perfdata/pd_attr.h"
#include "perfdata/pd_feature.h"
#include "internal.h"

int pd_test_register_feature(void);

/* ---- byte writers ---- */

#define L16(v) (uint8_t)((v) & 0xff), (uint8_t)(((v) >> 8) & 0xff)
#define L32(v) L16((uint32_t)(v) & 0xffff), L16(((uint32_t)(v) >> 16) & 0xffff)
#define L64(v) L32((uint64_t)(v) & 0xffffffffu), L32(((uint64_t)(v) >> 32) & 0xffffffffu)
#define B16(v) (uint8_t)(((v) >> 8) & 0xff), (uint8_t)((v) & 0xff)
#define B32(v) B16(((uint32_t)(v) >> 16) & 0xffff), B16((uint32_t)(v) & 0xffff)
#define B64(v) B32(((uint64_t)(v) >> 32) & 0xffffffffu), B32((uint64_t)(v) & 0xffffffffu)

/* Instantiate fixture FX as name_le[] and name_be[]. */
#define DEF_FX(name, FX)						\
	static const uint8_t name##_le[] = { FX(L16, L32, L64) };	\
	static const uint8_t name##_be[] = { FX(B16, B32, B64) }

/* where the payloads pretend to live in the stream */
#define BASE 4096u

/* ---- diagnostic recorder ---- */

struct seen {
	enum pd_code code;
	uint64_t off;
	int64_t rec_idx;
};

static struct seen seen[64];
static unsigned int nseen;
static struct pd_diag_sink sink;

static void record_diag(const struct pd_diag *d, void *arg)
{
	if (nseen < 64) {
		seen[nseen].code = d->code;
		seen[nseen].off = d->offset;
		seen[nseen].rec_idx = d->record_index;
	}
	nseen++;
}

static void reset(void)
{
	memset(&sink, 0, sizeof(sink));
	sink.fn = record_diag;
	nseen = 0;
}

static int dec(struct pd_features *f, unsigned int id, const uint8_t *p, size_t len, bool swap)
{
	return pd_feature_decode(f, id, p, len, swap, BASE, -1, 0, &sink);
}

/* Exactly one diagnostic, with this code at this offset. */
#define ASSERT_ONE(c, o)						\
	do {								\
		CU_ASSERT_EQUAL(nseen, 1);				\
		if (nseen >= 1) {					\
			CU_ASSERT_EQUAL(seen[0].code, (c));		\
			CU_ASSERT_EQUAL(seen[0].off, (uint64_t)(o));	\
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
		bool swap = pass == 1;

		reset();
		pd_features_init(&f);
		if (pre_le)
			CU_ASSERT_EQUAL(dec(&f, pre_id, swap ? pre_be : pre_le,
					    swap ? pre_bel : pre_lel, swap), 0);
		CU_ASSERT_EQUAL(dec(&f, id, swap ? be : le, swap ? bel : lel, swap), 0);
		CU_ASSERT_EQUAL(nseen, 0);
		CU_ASSERT(f.raw[id].present);
		CU_ASSERT(f.raw[id].decoded);
		CU_ASSERT(pd_features_has(&f, id));
		CU_ASSERT_EQUAL(f.raw[id].offset, BASE);
		CU_ASSERT_EQUAL(f.raw[id].len, swap ? bel : lel);
		if (f.raw[id].len)
			CU_ASSERT_EQUAL(memcmp(f.raw[id].data, swap ? be : le, f.raw[id].len), 0);
		check(&f);
		pd_features_free(&f);
	}
}

#define BOTH(id, name, check) \
	both(id, name##_le, sizeof(name##_le), name##_be, sizeof(name##_be), check, 0, NULL, 0, NULL, 0)

/* Decode a modified copy of a fixture; return the decoder's result. */
static int bad(unsigned int id, const uint8_t *p, size_t len, struct pd_features *f)
{
	reset();
	pd_features_init(f);
	return dec(f, id, p, len, false);
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
	CU_ASSERT_EQUAL(nseen, 2);
	CU_ASSERT_EQUAL(seen[0].code, PD_FEAT_BUILDID_PADDING);
	CU_ASSERT_EQUAL(seen[0].off, BASE + 6);
	CU_ASSERT_EQUAL(seen[1].code, PD_FEAT_BUILDID_PADDING);
	CU_ASSERT_EQUAL(seen[1].off, BASE + 84 + 6);
	CU_ASSERT_EQUAL_FATAL(f.build_ids.nr, 2);
	CU_ASSERT(f.build_ids.perf612_padding);
	CU_ASSERT_STRING_EQUAL(f.build_ids.ids[1].filename, "/bin/sh");
	CU_ASSERT_EQUAL(f.build_ids.ids[1].offset, BASE + 84);
	pd_features_free(&f);

	/* legacy layout */
	CU_ASSERT_EQUAL(bad(PD_FEAT_BUILD_ID, bid_legacy, sizeof(bid_legacy), &f), 0);
	CU_ASSERT_EQUAL(nseen, 0);
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
	CU_ASSERT_EQUAL(pd_build_id_entry_decode(bid_be + 44, 52, true, 77, 5, 67, &sink, &one), 0);
	CU_ASSERT_EQUAL(nseen, 0);
	CU_ASSERT_EQUAL(one.pid, 1234);
	CU_ASSERT_EQUAL(one.size, 8);
	CU_ASSERT_STRING_EQUAL(one.filename, "/usr/lib/x.so");
	free(one.filename);
	reset();
	CU_ASSERT_EQUAL(pd_build_id_entry_decode(bid_le, 30, false, 77, 5, 67, &sink, &one), -1);
	ASSERT_ONE(PD_FEAT_BAD_BUILD_ID, 77);
	CU_ASSERT_EQUAL(seen[0].rec_idx, 5);
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
	ASSERT_ONE(PD_FEAT_FEAT_TRAILING_BYTES_PLACEHOLDER, 0);
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
