// SPDX-License-Identifier: MIT
/*
 * test_json_str.c - the one JSON string rule (common/json_str.c): the
 * exact bytes of each escape, and the same text whatever the room the
 * caller gives (a small buffer is filled with whole characters only).
 */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "common/json_str.h"
#include "test_suites.h"

/* s[0, n) escaped with all the room it can need, NUL-terminated. */
static char *escape_all(const char *s, size_t n)
{
	char *out = malloc(n * JSON_STR_MAX_GROWTH + 1);
	size_t used, len;

	if (!out)
		return NULL;
	len = json_str_escape(out, n * JSON_STR_MAX_GROWTH, s, n, &used);
	CU_ASSERT_EQUAL(used, n);
	out[len] = '\0';
	return out;
}

static void check_escape(const char *in, size_t n, const char *want)
{
	char *out = escape_all(in, n);

	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_STRING_EQUAL(out, want);
	free(out);
}

static void test_rule(void)
{
	check_escape("", 0, "");
	check_escape("plain text, 0-9 {}[]:/", 22, "plain text, 0-9 {}[]:/");
	check_escape("a\"b\\c", 5, "a\\\"b\\\\c");
	/* perf's short forms, \u00XX in lowercase for the other control bytes */
	check_escape("\b\f\n\r\t", 5, "\\b\\f\\n\\r\\t");
	check_escape("\x01\x1b\x1f", 3, "\\u0001\\u001b\\u001f");
	check_escape("a\0b", 3, "a\\u0000b");
	/* DEL passes as it is */
	check_escape("\x7f", 1, "\x7f");
	/* valid UTF-8 passes, each other byte becomes U+FFFD */
	check_escape("\xc3\xa9\xe2\x82\xac", 5, "\xc3\xa9\xe2\x82\xac");
	check_escape("v\xe9!", 3, "v\xef\xbf\xbd!");
	check_escape("\xff\xfe", 2, "\xef\xbf\xbd\xef\xbf\xbd");
	check_escape("\xe2\x82", 2, "\xef\xbf\xbd\xef\xbf\xbd");
	/* runs of eight plain bytes next to bytes to escape, at each position */
	check_escape("0123456\"89abcdef\n", 17, "0123456\\\"89abcdef\\n");
	check_escape("01234567\x01", 9, "01234567\\u0001");
	check_escape("0123456789abcde\xc3\xa9", 17, "0123456789abcde\xc3\xa9");
}

/* A text with every kind of byte, in a pattern that does not repeat in step with 8. */
static void fill_mixed(char *s, size_t n)
{
	static const char *const parts[] = {
		"abcdefghijk", "\"", "\\", "\n", "\x01", "\x7f", "\xc3\xa9", "\xe9", "xyz",
		"\xf0\x9f\x98\x80", "\t",
	};
	size_t i = 0, k = 0;

	while (i < n) {
		const char *p = parts[k++ % (sizeof(parts) / sizeof(parts[0]))];
		size_t l = strlen(p);

		if (l > n - i)
			l = n - i;
		memcpy(s + i, p, l);
		i += l;
	}
}

static void test_small_room(void)
{
	enum { N = 300 };
	char in[N], *want, out[N * JSON_STR_MAX_GROWTH + 1], buf[32];
	size_t cap;

	fill_mixed(in, N);
	want = escape_all(in, N);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	for (cap = JSON_STR_MAX_GROWTH; cap <= sizeof(buf); cap++) {
		size_t i = 0, len = 0;

		while (i < N) {
			size_t used, got = json_str_escape(buf, cap, in + i, N - i, &used);

			CU_ASSERT_FATAL(used > 0 && got <= cap);
			memcpy(out + len, buf, got);
			len += got;
			i += used;
		}
		out[len] = '\0';
		CU_ASSERT_STRING_EQUAL(out, want);
	}
	free(want);
}

static void test_put(void)
{
	enum { N = 5000 };	/* several reservations of the output buffer */
	struct out_buf b;
	char *in = malloc(N), *want;

	CU_ASSERT_PTR_NOT_NULL_FATAL(in);
	fill_mixed(in, N);
	want = escape_all(in, N);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	CU_ASSERT_EQUAL_FATAL(out_buf_init(&b, -1, 0), 0);
	json_str_put(&b, in, N);
	json_str_put(&b, "", 0);
	CU_ASSERT_EQUAL(b.err, 0);
	CU_ASSERT_EQUAL_FATAL(b.len, strlen(want) + 4);
	CU_ASSERT_EQUAL(b.buf[0], '"');
	CU_ASSERT_EQUAL(memcmp(b.buf + 1, want, strlen(want)), 0);
	CU_ASSERT_EQUAL(memcmp(b.buf + 1 + strlen(want), "\"\"\"", 3), 0);
	out_buf_free(&b);
	free(want);
	free(in);
}

int pd_test_register_json_str(void)
{
	CU_pSuite s = CU_add_suite("json_str", NULL, NULL);

	if (!s || !CU_add_test(s, "escapes: perf's rule, U+FFFD per invalid byte", test_rule) ||
	    !CU_add_test(s, "the same text in a small buffer", test_small_room) ||
	    !CU_add_test(s, "quoted into an output buffer", test_put))
		return -1;
	return 0;
}
