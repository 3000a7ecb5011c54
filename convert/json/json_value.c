// SPDX-License-Identifier: MIT
/*
 * json_value.c - a jansson value through the emitter (see json_value.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json/json_value.h"

/* Before an item (after "[", "{" or ","), or before the closing bracket. */
static void item_break(struct je *j, unsigned int indent, unsigned int depth)
{
	size_t n = (size_t)indent * depth;
	char *p;

	if (!indent)
		return;
	p = je_room(j, n + 1);
	p[0] = '\n';
	memset(p + 1, ' ', n);
	j->ob.len += n + 1;
}

/*
 * A real as jansson writes it: 17 significant digits, ".0" added when
 * that reads as an integer, the exponent without "+" or leading zeros.
 */
static void put_real(struct je *j, double v)
{
	char buf[40];
	int n = snprintf(buf, sizeof(buf), "%.17g", v);
	char *e, *digits, *p;

	/* jansson holds no such real (json_real() refuses them) */
	if (!isfinite(v) || n < 0 || (size_t)n >= sizeof(buf) - 2) {
		je_lit(j, "null");
		return;
	}
	/* a locale's decimal comma: JSON has only the point */
	p = strchr(buf, ',');
	if (p)
		*p = '.';
	e = strchr(buf, 'e');
	if (!e && !strchr(buf, '.')) {
		memcpy(buf + n, ".0", 3);
		n += 2;
	}
	if (e) {
		digits = e + 1;
		if (*digits == '-')
			digits++;
		p = digits;
		if (*p == '+')
			p++;
		while (*p == '0' && p[1])
			p++;
		if (p != digits) {
			memmove(digits, p, (size_t)(buf + n - p) + 1);
			n -= (int)(p - digits);
		}
	}
	je_raw(j, buf, (size_t)n);
}

static void put_value(struct je *j, json_t *v, unsigned int indent, unsigned int depth)
{
	const char *key;
	size_t i, n;
	void *it;

	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_OBJECT:
		je_c(j, '{');
		it = json_object_iter(v);
		if (!it) {
			je_c(j, '}');
			return;
		}
		item_break(j, indent, depth + 1);
		while (it) {
			key = json_object_iter_key(it);
			je_strn(j, key, strlen(key));
			if (indent)
				je_lit(j, ": ");
			else
				je_c(j, ':');
			put_value(j, json_object_iter_value(it), indent, depth + 1);
			it = json_object_iter_next(v, it);
			if (it)
				je_c(j, ',');
			item_break(j, indent, it ? depth + 1 : depth);
		}
		je_c(j, '}');
		return;
	case JSON_ARRAY:
		je_c(j, '[');
		n = json_array_size(v);
		if (!n) {
			je_c(j, ']');
			return;
		}
		item_break(j, indent, depth + 1);
		for (i = 0; i < n; i++) {
			put_value(j, json_array_get(v, i), indent, depth + 1);
			if (i + 1 < n)
				je_c(j, ',');
			item_break(j, indent, i + 1 < n ? depth + 1 : depth);
		}
		je_c(j, ']');
		return;
	case JSON_STRING:
		je_strn(j, json_string_value(v), json_string_length(v));
		return;
	case JSON_INTEGER:
		je_i64(j, (int64_t)json_integer_value(v));
		return;
	case JSON_REAL:
		put_real(j, json_real_value(v));
		return;
	case JSON_TRUE:
		je_lit(j, "true");
		return;
	case JSON_FALSE:
		je_lit(j, "false");
		return;
	case JSON_NULL:
	default:
		je_lit(j, "null");
		return;
	}
}

void je_value(struct je *j, json_t *v, unsigned int indent)
{
	put_value(j, v, indent, 0);
}

void je_value_nested(struct je *j, json_t *v, unsigned int indent, unsigned int depth)
{
	put_value(j, v, indent, depth);
}
