/* SPDX-License-Identifier: MIT */
/*
 * fmt_num.h - decimal and hexadecimal digits of a u64, for the text
 * writers of perfconv (JSON, CSV).  Their outputs carry several numbers
 * per sample, so these write two decimal digits per division and no
 * temporary copy: the digit count is found first and the digits are
 * written from the end.
 */
#ifndef PERFCONV_FMT_NUM_H
#define PERFCONV_FMT_NUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern const char fmt_digit_pairs[200];

static inline size_t fmt_dec_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	if (v >= 1000)
		return n + 3;
	if (v >= 100)
		return n + 2;
	return v >= 10 ? n + 1 : n;
}

/* Digits of v in decimal at p (up to 20 bytes); returns their count. */
static inline size_t fmt_u64(char *p, uint64_t v)
{
	size_t n = fmt_dec_len(v), i = n;

	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		i -= 2;
		memcpy(p + i, fmt_digit_pairs + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(p, fmt_digit_pairs + 2 * v, 2);
	else
		p[0] = (char)('0' + v);
	return n;
}

/* Digits of v in lower-case hexadecimal at p (up to 16 bytes), no prefix. */
static inline size_t fmt_hex(char *p, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = v ? (size_t)(64 - __builtin_clzll(v) + 3) / 4 : 1, i = n;

	do {
		p[--i] = hex[v & 15];
		v >>= 4;
	} while (v);
	return n;
}

#endif /* PERFCONV_FMT_NUM_H */
