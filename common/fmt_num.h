/* SPDX-License-Identifier: MIT */
/*
 * fmt_num.h - decimal and hexadecimal digits of a u64, for the text
 * outputs of the commands (perfconv's JSON, CSV and dump, perfsym's
 * frames).  They carry several numbers per sample, so these write two
 * decimal digits per division and no temporary copy: the digit count is
 * found first and the digits are written from the end.
 */
#ifndef PD_COMMON_FMT_NUM_H
#define PD_COMMON_FMT_NUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

extern const char fmt_digit_pairs[200];
/* 10^i for i in 0..19 */
extern const uint64_t fmt_pow10[20];

static inline size_t fmt_dec_len(uint64_t v)
{
	/* log10 from log2 (1233 / 4096 ~ log10(2)), then one comparison */
	unsigned int t = (unsigned int)(64 - __builtin_clzll(v | 1)) * 1233 >> 12;

	return t + (v >= fmt_pow10[t]) + (v == 0);
}

/* x < 100 as two digits at p */
static inline void fmt_dec2(char *p, unsigned int x)
{
	memcpy(p, fmt_digit_pairs + 2 * x, 2);
}

/* x < 10^8 as exactly 8 digits at p: two independent halves, short dependency chains */
static inline void fmt_dec8(char *p, uint32_t x)
{
	uint32_t hi = x / 10000, lo = x % 10000;

	fmt_dec2(p, hi / 100);
	fmt_dec2(p + 2, hi % 100);
	fmt_dec2(p + 4, lo / 100);
	fmt_dec2(p + 6, lo % 100);
}

/*
 * Digits of v in decimal at p (up to 20 bytes); returns their count.
 * Written from the end: blocks of eight digits split off with one 64-bit
 * division each, the rest in 32 bits, two digits at a time.
 */
static inline size_t fmt_u64(char *p, uint64_t v)
{
	size_t n = fmt_dec_len(v);
	char *e = p + n;
	uint32_t x;

	while (v >= 100000000) {
		e -= 8;
		fmt_dec8(e, (uint32_t)(v % 100000000));
		v /= 100000000;
	}
	x = (uint32_t)v;
	while (x >= 100) {
		e -= 2;
		fmt_dec2(e, x % 100);
		x /= 100;
	}
	if (x >= 10)
		fmt_dec2(p, x);
	else
		p[0] = (char)('0' + x);
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

/* n bytes as 2n lower-case hex digits at p, no NUL (build ids, payloads); returns 2n. */
static inline size_t fmt_hex_bytes(char *p, const uint8_t *b, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		p[2 * i] = hex[b[i] >> 4];
		p[2 * i + 1] = hex[b[i] & 15];
	}
	return 2 * n;
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

#endif /* PD_COMMON_FMT_NUM_H */
