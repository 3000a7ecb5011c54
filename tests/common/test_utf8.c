// SPDX-License-Identifier: MIT
/*
 * test_utf8.c - the one rule for bytes that are not UTF-8 (common/utf8.c):
 * which sequences are valid, and the exact repaired bytes.
 */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "common/utf8.h"
#include "test_suites.h"

static size_t len_of(const char *s, size_t n)
{
	return utf8_seq_len((const unsigned char *)s, n);
}

static void test_seq_len(void)
{
	CU_ASSERT_EQUAL(len_of("a", 1), 1);
	CU_ASSERT_EQUAL(len_of("\x7f", 1), 1);
	CU_ASSERT_EQUAL(len_of("\xc3\xa9", 2), 2);		/* é */
	CU_ASSERT_EQUAL(len_of("\xe2\x82\xac", 3), 3);		/* € */
	CU_ASSERT_EQUAL(len_of("\xf0\x9f\x98\x80", 4), 4);	/* U+1F600 */
	CU_ASSERT_EQUAL(len_of("\xef\xbf\xbd", 3), 3);		/* U+FFFD itself */
	CU_ASSERT_EQUAL(len_of("\xe9", 1), 0);			/* Latin-1 é */
	CU_ASSERT_EQUAL(len_of("\x80", 1), 0);			/* stray continuation */
	CU_ASSERT_EQUAL(len_of("\xc0\x80", 2), 0);		/* overlong NUL */
	CU_ASSERT_EQUAL(len_of("\xc1\xbf", 2), 0);		/* overlong */
	CU_ASSERT_EQUAL(len_of("\xe0\x9f\xbf", 3), 0);		/* overlong three-byte */
	CU_ASSERT_EQUAL(len_of("\xed\xa0\x80", 3), 0);		/* surrogate U+D800 */
	CU_ASSERT_EQUAL(len_of("\xf0\x8f\xbf\xbf", 4), 0);	/* overlong four-byte */
	CU_ASSERT_EQUAL(len_of("\xf4\x90\x80\x80", 4), 0);	/* past U+10FFFF */
	CU_ASSERT_EQUAL(len_of("\xf5\x80\x80\x80", 4), 0);
	CU_ASSERT_EQUAL(len_of("\xe2\x82", 2), 0);		/* cut short */
	CU_ASSERT_EQUAL(len_of("\xe2\x82\xac", 2), 0);		/* cut by n */
	CU_ASSERT_EQUAL(len_of("\xe2\x28\xac", 3), 0);		/* bad continuation */
}

static void check_repair(const char *in, size_t n, const char *want)
{
	char *out = utf8_repair(in, n);

	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_STRING_EQUAL(out, want);
	free(out);
}

static void test_repair(void)
{
	check_repair("vm", 2, "vm");
	check_repair("v\xe9", 2, "v\xef\xbf\xbd");
	/* one U+FFFD per byte, valid characters around them untouched */
	check_repair("\xe9\xe9" "\xc3\xa9" "\x80", 5,
		     "\xef\xbf\xbd\xef\xbf\xbd" "\xc3\xa9" "\xef\xbf\xbd");
	/* a sequence cut by the end: each of its bytes */
	check_repair("a\xe2\x82", 3, "a\xef\xbf\xbd\xef\xbf\xbd");
	/* a NUL ends the text */
	check_repair("ab\0\xe9", 4, "ab");
	check_repair("", 0, "");
}

int pd_test_register_utf8(void)
{
	CU_pSuite s = CU_add_suite("utf8", NULL, NULL);

	if (!s || !CU_add_test(s, "valid and invalid sequences", test_seq_len) ||
	    !CU_add_test(s, "repair: U+FFFD per invalid byte", test_repair))
		return -1;
	return 0;
}
