// SPDX-License-Identifier: MIT
/*
 * json_emit.c - the streaming JSON writer behind perfconv to-json.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "../common/fmt_num.h"
#include "json/json_emit.h"
#include "../common/json_str.h"
#include "../common/out_sink.h"

void je_u64(struct je *j, uint64_t v)
{
	char *p = je_room(j, 20);

	j->ob.len += fmt_u64(p, v);
}

void je_i64(struct je *j, int64_t v)
{
	if (v < 0) {
		je_c(j, '-');
		je_u64(j, -(uint64_t)v);
	} else {
		je_u64(j, (uint64_t)v);
	}
}

void je_hex(struct je *j, uint64_t v)
{
	char *p = je_room(j, 18);

	p[0] = '0';
	p[1] = 'x';
	j->ob.len += 2 + fmt_hex(p + 2, v);
}

void je_hexstr(struct je *j, uint64_t v)
{
	je_room(j, 20);
	j->ob.buf[j->ob.len++] = '"';
	je_hex(j, v);
	j->ob.buf[j->ob.len++] = '"';
}

void je_u64_safe(struct je *j, uint64_t v)
{
	if (v < (1ULL << 53)) {
		je_u64(j, v);
	} else {
		je_room(j, 22);
		j->ob.buf[j->ob.len++] = '"';
		je_u64(j, v);
		j->ob.buf[j->ob.len++] = '"';
	}
}

void je_str(struct je *j, const char *s, size_t max)
{
	if (!s)
		s = "";
	json_str_put(&j->ob, s, max == SIZE_MAX ? strlen(s) : strnlen(s, max));
}

void je_strn(struct je *j, const char *s, size_t n)
{
	json_str_put(&j->ob, s ? s : "", s ? n : 0);
}

void je_base64(struct je *j, const uint8_t *p, size_t n)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i = 0;

	je_c(j, '"');
	while (i + 3 <= n) {
		/* in chunks so that a huge stack copy does not need a huge buffer */
		size_t chunk = (n - i) / 3;
		char *o;

		if (chunk > 4096)
			chunk = 4096;
		o = je_room(j, chunk * 4);
		for (size_t k = 0; k < chunk; k++, i += 3) {
			uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];

			*o++ = b64[v >> 18];
			*o++ = b64[(v >> 12) & 63];
			*o++ = b64[(v >> 6) & 63];
			*o++ = b64[v & 63];
		}
		j->ob.len = (size_t)(o - j->ob.buf);
	}
	if (n - i) {
		uint32_t v = (uint32_t)p[i] << 16 | (n - i == 2 ? (uint32_t)p[i + 1] << 8 : 0);
		char *o = je_room(j, 4);

		o[0] = b64[v >> 18];
		o[1] = b64[(v >> 12) & 63];
		o[2] = n - i == 2 ? b64[(v >> 6) & 63] : '=';
		o[3] = '=';
		j->ob.len += 4;
	}
	je_c(j, '"');
}

void je_hexbytes(struct je *j, const uint8_t *p, size_t n)
{
	size_t i = 0;

	je_c(j, '"');
	while (i < n) {
		size_t chunk = n - i > 8192 ? 8192 : n - i;

		j->ob.len += fmt_hex_bytes(je_room(j, chunk * 2), p + i, chunk);
		i += chunk;
	}
	je_c(j, '"');
}
