// SPDX-License-Identifier: MIT
/*
 * test_json_value.c - a jansson value written through the emitter
 * (convert/json/json_value.c) against jansson's own json_dumps() with the
 * flags the outputs used before: the same bytes, compact and indented,
 * for every kind of value and for reals across their whole range; only
 * the escapes of the one string rule (common/json_str.h) differ.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>
#include <jansson.h>

#include "json/json_value.h"
#include "test_suites.h"

/* v through je_value() as a NUL-terminated string (malloc'd). */
static char *emit(json_t *v, unsigned int indent)
{
	struct je j;
	char *s;

	if (je_init_mem(&j))
		return NULL;
	je_value(&j, v, indent);
	s = j.ob.err ? NULL : strndup(j.ob.buf, j.ob.len);
	je_free(&j);
	return s;
}

static void check_as_jansson(json_t *v)
{
	static const size_t flags[] = { JSON_COMPACT, JSON_INDENT(2), JSON_INDENT(4) };
	static const unsigned int indent[] = { 0, 2, 4 };
	size_t i;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		char *want = json_dumps(v, flags[i] | JSON_ENCODE_ANY);
		char *got = emit(v, indent[i]);

		CU_ASSERT_PTR_NOT_NULL_FATAL(want);
		CU_ASSERT_PTR_NOT_NULL_FATAL(got);
		CU_ASSERT_STRING_EQUAL(got, want);
		free(want);
		free(got);
	}
}

/* Objects, arrays (empty and nested), strings, integers, reals, literals. */
static void test_layout(void)
{
	json_t *o = json_object(), *a = json_array(), *in = json_object();

	json_object_set_new(o, "empty_object", json_object());
	json_object_set_new(o, "empty_array", json_array());
	/* what both write the same way: short escapes, '/', DEL, UTF-8 */
	json_array_append_new(a, json_string("plain \"quoted\" back\\slash a/b \x7f"));
	json_array_append_new(a, json_string("\b\f\n\r\t caf\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x98\x80"));
	json_array_append_new(a, json_stringn("nul\0inside", 10));
	json_array_append_new(a, json_integer(0));
	json_array_append_new(a, json_integer(-1));
	json_array_append_new(a, json_integer(INT64_MAX));
	json_array_append_new(a, json_integer(INT64_MIN));
	json_array_append_new(a, json_real(0.0));
	json_array_append_new(a, json_real(-0.0));
	json_array_append_new(a, json_real(1e-6));
	json_array_append_new(a, json_real(1e21));
	json_array_append_new(a, json_real(1e100));
	json_array_append_new(a, json_true());
	json_array_append_new(a, json_false());
	json_array_append_new(a, json_null());
	json_array_append_new(a, json_array());
	json_object_set_new(in, "z", json_integer(1));
	json_object_set_new(in, "a", json_array());
	json_object_set_new(in, "key \"with\" \xc3\xa9", json_object());
	json_array_append_new(a, in);
	json_object_set_new(o, "values", a);
	json_object_set_new(o, "last", json_string(""));
	check_as_jansson(o);
	json_decref(o);

	/* a scalar alone, as to-json --full splices them */
	a = json_integer(42);
	check_as_jansson(a);
	json_decref(a);
	a = json_string("alone");
	check_as_jansson(a);
	json_decref(a);
}

/* Reals: 17 digits, ".0" on an integral value, the exponent shortened. */
static void test_reals(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	json_t *a = json_array();
	int i, e;

	for (e = -320; e <= 308; e += 7) {
		char buf[32];

		snprintf(buf, sizeof(buf), "1e%d", e);
		json_array_append_new(a, json_real(strtod(buf, NULL)));
		snprintf(buf, sizeof(buf), "-3.25e%d", e);
		json_array_append_new(a, json_real(strtod(buf, NULL)));
	}
	/* every bit pattern of a finite double, spread out */
	for (i = 0; i < 2000; i++) {
		double d;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(&d, &x, sizeof(d));
		if (d == d && d - d == 0)
			json_array_append_new(a, json_real(d));
	}
	check_as_jansson(a);
	json_decref(a);
}

/* The one difference: other control bytes in lowercase hex, as in every string of ours. */
static void test_control_bytes(void)
{
	json_t *o = json_object();
	char *got;

	json_object_set_new(o, "host\x1b", json_string("a\x01" "b\x1f" "c\x7f" "d\n"));
	got = emit(o, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_STRING_EQUAL(got, "{\"host\\u001b\":\"a\\u0001b\\u001fc\x7f" "d\\n\"}");
	free(got);
	json_decref(o);
}

int pd_test_register_json_value(void)
{
	CU_pSuite s = CU_add_suite("json_value", NULL, NULL);

	if (!s || !CU_add_test(s, "jansson's layout, compact and indented", test_layout) ||
	    !CU_add_test(s, "reals as jansson writes them", test_reals) ||
	    !CU_add_test(s, "control bytes by the one string rule", test_control_bytes))
		return -1;
	return 0;
}
