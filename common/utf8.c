// SPDX-License-Identifier: MIT
/*
 * utf8.c - the one rule for bytes that are not UTF-8 (utf8.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

size_t utf8_seq_len(const unsigned char *p, size_t n)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	/* the second byte rules out overlong forms, surrogates and > U+10FFFF */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

char *utf8_repair(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, o = 0;
	char *out;

	/* each byte grows to three at most */
	if (n > (SIZE_MAX - 1) / UTF8_REPLACEMENT_LEN)
		return NULL;
	out = malloc(n * UTF8_REPLACEMENT_LEN + 1);
	if (!out)
		return NULL;
	while (i < n && p[i]) {
		size_t k = utf8_seq_len(p + i, n - i);

		if (k) {
			memcpy(out + o, p + i, k);
			o += k;
			i += k;
		} else {
			memcpy(out + o, UTF8_REPLACEMENT, UTF8_REPLACEMENT_LEN);
			o += UTF8_REPLACEMENT_LEN;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}
