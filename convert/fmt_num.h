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
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/* The count of hex digits of v: 1 for 0. */
static inline size_t fmt_hex_len(uint64_t v)
{
	return v ? (size_t)(64 - __builtin_clzll(v) + 3) / 4 : 1;
}

/*
 * The digits of v in lower-case hexadecimal at p, no prefix, all at once
 * rather than one by one (callchains are lists of them): writes 16 bytes
 * at p, of which the first (the count returned) are the digits.  The
 * digits are shifted to the top of the word first, so that the 16 bytes
 * start with them.
 */
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline size_t fmt_hex_wide(char *p, uint64_t v)
{
	size_t n = fmt_hex_len(v);
	/* the most significant byte first in memory */
	uint64_t w = __builtin_bswap64(v << (64 - 4 * n));
	const __m128i low4 = _mm_set1_epi8(0x0f);
	__m128i x = _mm_cvtsi64_si128((long long)w);
	/* each byte's high nibble, then its low one */
	__m128i d = _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi64(x, 4), low4),
				      _mm_and_si128(x, low4));
	/* '0' + nibble, and 'a' - '0' - 10 more for those above 9 */
	__m128i above9 = _mm_cmpgt_epi8(d, _mm_set1_epi8(9));

	d = _mm_add_epi8(d, _mm_set1_epi8('0'));
	d = _mm_add_epi8(d, _mm_and_si128(above9, _mm_set1_epi8('a' - '0' - 10)));
	_mm_storeu_si128((__m128i *)(void *)p, d);
	return n;
}
#else
static inline size_t fmt_hex_wide(char *p, uint64_t v)
{
	const uint64_t ones = 0x0101010101010101ULL;
	size_t n = fmt_hex_len(v);
	uint64_t w = v << (64 - 4 * n), half[2];
	int i;

	for (i = 0; i < 2; i++) {
		/* the nibbles of 32 bits spread over the bytes of x, low first */
		uint64_t x = i ? (uint32_t)w : w >> 32;

		x = (x | x << 16) & 0x0000ffff0000ffffULL;
		x = (x | x << 8) & 0x00ff00ff00ff00ffULL;
		x = (x | x << 4) & 0x0f0f0f0f0f0f0f0fULL;
		/* '0' + nibble, and 'a' - '0' - 10 more for those above 9 */
		x += '0' * ones + (((x + 6 * ones) >> 4) & ones) * ('a' - '0' - 10);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		x = __builtin_bswap64(x);
#endif
		half[i] = x;
	}
	memcpy(p, half, 16);
	return n;
}
#endif

#endif /* PERFCONV_FMT_NUM_H */
