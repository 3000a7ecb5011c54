// SPDX-License-Identifier: MIT
/*
 * test_out_buf.c - the one output buffer (common/out_buf.c): formatted
 * text of any length, in memory and on a descriptor, and the latch of a
 * failed growth in memory (the protobuf encoder relies on it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "common/out_buf.h"
#include "test_suites.h"

/* Text longer than the buffer's minimum, so that it needs a malloc'd copy. */
#define LONG_TEXT	(OUT_BUF_MIN + 1000)

static char *long_text(void)
{
	char *s = malloc(LONG_TEXT + 1);
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < LONG_TEXT; i++)
		s[i] = (char)('a' + i % 26);
	s[LONG_TEXT] = '\0';
	return s;
}

static void test_printf_memory(void)
{
	char *s = long_text();
	struct out_buf b;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(out_buf_init(&b, -1, 0), 0);
	out_buf_printf(&b, "%u-%s|", 42u, "x");
	/* past the room left: formatted again after growing */
	out_buf_printf(&b, "%s", s + LONG_TEXT - (OUT_BUF_MIN - 10));
	out_buf_printf(&b, "[%s]", s);
	out_buf_s(&b, "end");
	CU_ASSERT_EQUAL(b.err, 0);
	CU_ASSERT_EQUAL_FATAL(b.len, 5 + (OUT_BUF_MIN - 10) + LONG_TEXT + 2 + 3);
	CU_ASSERT_EQUAL(memcmp(b.buf, "42-x|", 5), 0);
	CU_ASSERT_EQUAL(memcmp(b.buf + 5, s + LONG_TEXT - (OUT_BUF_MIN - 10), OUT_BUF_MIN - 10), 0);
	CU_ASSERT_EQUAL(b.buf[5 + OUT_BUF_MIN - 10], '[');
	CU_ASSERT_EQUAL(memcmp(b.buf + 5 + OUT_BUF_MIN - 9, s, LONG_TEXT), 0);
	CU_ASSERT_EQUAL(memcmp(b.buf + b.len - 4, "]end", 4), 0);
	out_buf_free(&b);
	free(s);
}

/* On a descriptor the same bytes arrive, whatever the flushes in between. */
static void test_printf_fd(void)
{
	char path[] = "/tmp/test-out-buf-XXXXXX";
	char *s = long_text(), *got;
	struct out_buf b;
	size_t want = 0, i;
	int fd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	unlink(path);
	CU_ASSERT_EQUAL_FATAL(out_buf_init(&b, fd, 0), 0);
	for (i = 0; i < 3000; i++)
		out_buf_printf(&b, "line %zu of %s\n", i, "many");
	out_buf_printf(&b, "%s\n", s);
	CU_ASSERT_EQUAL(out_buf_flush(&b), 0);
	CU_ASSERT_EQUAL(b.err, 0);
	got = malloc((size_t)b.written + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL_FATAL(pread(fd, got, (size_t)b.written + 1, 0), (ssize_t)b.written);
	for (i = 0; i < 3000; i++) {
		char line[64];
		int n = snprintf(line, sizeof(line), "line %zu of many\n", i);

		CU_ASSERT_EQUAL(memcmp(got + want, line, (size_t)n), 0);
		want += (size_t)n;
	}
	CU_ASSERT_EQUAL(memcmp(got + want, s, LONG_TEXT), 0);
	CU_ASSERT_EQUAL(got[want + LONG_TEXT], '\n');
	CU_ASSERT_EQUAL(b.written, want + LONG_TEXT + 1);
	out_buf_free(&b);
	free(got);
	free(s);
	close(fd);
}

/*
 * In memory, a growth past mem_max fails: err is ENOMEM, and the buffer
 * never grows again; what follows lands at its start, in the storage it
 * keeps.
 */
static void test_growth_latch(void)
{
	char *s = long_text();
	struct out_buf b;
	size_t cap;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(out_buf_init(&b, -1, 0), 0);
	b.mem_max = 2 * OUT_BUF_MIN;
	out_buf_put(&b, s, OUT_BUF_MIN);
	out_buf_put(&b, s, OUT_BUF_MIN);
	CU_ASSERT_EQUAL(b.err, 0);
	CU_ASSERT_EQUAL(b.len, 2 * OUT_BUF_MIN);
	cap = b.cap;
	out_buf_c(&b, 'x');
	CU_ASSERT_EQUAL(b.err, ENOMEM);
	CU_ASSERT_EQUAL(b.len, 1);
	CU_ASSERT_EQUAL(b.buf[0], 'x');
	b.len = cap - 1;
	out_buf_printf(&b, "%s", "no more growth");
	CU_ASSERT_EQUAL(b.err, ENOMEM);
	CU_ASSERT_EQUAL(b.cap, cap);
	CU_ASSERT_EQUAL(b.len, strlen("no more growth"));
	CU_ASSERT_EQUAL(out_buf_flush(&b), -1);
	out_buf_free(&b);
	free(s);
}

int pd_test_register_out_buf(void)
{
	CU_pSuite s = CU_add_suite("out_buf", NULL, NULL);

	if (!s || !CU_add_test(s, "printf in memory, any length", test_printf_memory) ||
	    !CU_add_test(s, "printf on a descriptor, across flushes", test_printf_fd) ||
	    !CU_add_test(s, "a failed growth in memory is a latch", test_growth_latch))
		return -1;
	return 0;
}
