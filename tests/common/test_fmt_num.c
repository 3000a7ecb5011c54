// SPDX-License-Identifier: MIT
/*
 * test_fmt_num.c - the number formatting of the text outputs
 * (common/fmt_num.h: fmt_u64, fmt_hex, fmt_hex_wide) against snprintf()
 * on every digit-count boundary and a sweep of pseudo-random values.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "common/fmt_num.h"
#include "test_suites.h"

static unsigned int bad_dec, bad_hex, bad_wide;

static void check(uint64_t v)
{
	char want[32], got[32];
	size_t n;

	snprintf(want, sizeof(want), "%" PRIu64, v);
	memset(got, 'X', sizeof(got));
	n = fmt_u64(got, v);
	got[n] = '\0';
	bad_dec += strcmp(want, got) != 0 || got[n + 1] != 'X';

	snprintf(want, sizeof(want), "%" PRIx64, v);
	memset(got, 'X', sizeof(got));
	n = fmt_hex(got, v);
	got[n] = '\0';
	bad_hex += strcmp(want, got) != 0 || got[n + 1] != 'X';

	memset(got, 'X', sizeof(got));
	n = fmt_hex_wide(got, v);
	bad_wide += n != strlen(want) || memcmp(want, got, n) != 0 || got[16] != 'X';
}

static void test_boundaries(void)
{
	uint64_t p = 1, x = 0x9e3779b97f4a7c15ULL;
	int i;

	bad_dec = bad_hex = bad_wide = 0;
	check(0);
	check(UINT64_MAX);
	for (i = 0; i < 20; i++) {
		check(p - 1);
		check(p);
		check(p + 1);
		if (p > UINT64_MAX / 10)
			break;
		p *= 10;
	}
	for (i = 0; i < 64; i++) {
		check((1ULL << i) - 1);
		check(1ULL << i);
	}
	for (i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		check(x);
		check(x >> (i % 64));
	}
	CU_ASSERT_EQUAL(bad_dec, 0);
	CU_ASSERT_EQUAL(bad_hex, 0);
	CU_ASSERT_EQUAL(bad_wide, 0);
}

int pd_test_register_fmt_num(void)
{
	CU_pSuite s = CU_add_suite("fmt_num", NULL, NULL);

	if (!s || !CU_add_test(s, "decimal and hex against snprintf", test_boundaries))
		return -1;
	return 0;
}
