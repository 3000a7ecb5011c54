// SPDX-License-Identifier: MIT
/*
 * test_diag_json.c - the one JSON form of a diagnostic (common/diag_json.c),
 * that of perfconv info --json and perfcheck --format json: every key
 * present, in its order, null where the diagnostic has no such place, and
 * the detail's pairs as an object.
 */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "common/diag_json.h"
#include "test_suites.h"

static void check_diag(const struct pd_diag *d, const char *want)
{
	struct out_buf b;

	CU_ASSERT_EQUAL_FATAL(out_buf_init(&b, -1, 0), 0);
	diag_json_put(&b, d);
	CU_ASSERT_EQUAL(b.err, 0);
	CU_ASSERT_EQUAL(b.len, strlen(want));
	CU_ASSERT_NSTRING_EQUAL(b.buf, want, b.len);
	out_buf_free(&b);
}

static void test_every_key(void)
{
	struct pd_diag d = {
		.code = PD_REC_TRUNCATED,
		.severity = PD_SEV_ERROR,
		.offset = 2360,
		.record_index = 50,
		.record_type = 9,
		.fatal = true,
		.stream = "data.1",
		.detail = "size=48 available=38",
	};

	check_diag(&d, "{\"offset\":2360,\"stream\":\"data.1\",\"record_index\":50,"
		       "\"record_type\":\"SAMPLE\",\"code\":\"PD303\",\"name\":\"REC_TRUNCATED\","
		       "\"severity\":\"error\",\"message\":\"input ends inside a record\","
		       "\"fatal\":true,\"detail\":\"size=48 available=38\","
		       "\"details\":{\"size\":48,\"available\":38}}");
}

/* No offset, stream or record: null, never absent; no detail: "" and {}. */
static void test_nulls(void)
{
	struct pd_diag d = {
		.code = PD_TRUNCATED_HEADER,
		.severity = PD_SEV_ERROR,
		.offset = PD_NO_OFFSET,
		.record_index = -1,
		.record_type = 9,
		.detail = "",
	};

	check_diag(&d, "{\"offset\":null,\"stream\":null,\"record_index\":null,"
		       "\"record_type\":null,\"code\":\"PD004\",\"name\":\"TRUNCATED_HEADER\","
		       "\"severity\":\"error\",\"message\":\"file ends inside the file header\","
		       "\"fatal\":false,\"detail\":\"\",\"details\":{}}");
	d.detail = NULL;
	check_diag(&d, "{\"offset\":null,\"stream\":null,\"record_index\":null,"
		       "\"record_type\":null,\"code\":\"PD004\",\"name\":\"TRUNCATED_HEADER\","
		       "\"severity\":\"error\",\"message\":\"file ends inside the file header\","
		       "\"fatal\":false,\"detail\":\"\",\"details\":{}}");
}

/*
 * The pairs: a decimal of at most 15 digits is a number, any other value
 * a string (hex, leading zero, 16 digits); a value with spaces runs to the
 * next " key="; text before any key is "text"; bytes from the file are
 * escaped by the one rule.
 */
static void test_details(void)
{
	struct pd_diag d = {
		.code = PD_REC_TRUNCATED,
		.severity = PD_SEV_ERROR,
		.offset = 0,
		.record_index = -1,
		.detail = "cut short a=-7 b=0x1f c=007 d=1234567890123456 "
			  "comm=two words e=\"q\\\xff",
	};

	check_diag(&d, "{\"offset\":0,\"stream\":null,\"record_index\":null,"
		       "\"record_type\":null,\"code\":\"PD303\",\"name\":\"REC_TRUNCATED\","
		       "\"severity\":\"error\",\"message\":\"input ends inside a record\","
		       "\"fatal\":false,\"detail\":\"cut short a=-7 b=0x1f c=007 "
		       "d=1234567890123456 comm=two words e=\\\"q\\\\\xef\xbf\xbd\","
		       "\"details\":{\"text\":\"cut short\",\"a\":-7,\"b\":\"0x1f\",\"c\":\"007\","
		       "\"d\":\"1234567890123456\",\"comm\":\"two words\","
		       "\"e\":\"\\\"q\\\\\xef\xbf\xbd\"}}");
}

int pd_test_register_diag_json(void)
{
	CU_pSuite s = CU_add_suite("diag_json", NULL, NULL);

	if (!s || !CU_add_test(s, "every key, in order", test_every_key) ||
	    !CU_add_test(s, "null where there is no place, empty detail", test_nulls) ||
	    !CU_add_test(s, "the detail's pairs as an object", test_details))
		return -1;
	return 0;
}
