// SPDX-License-Identifier: MIT
/*
 * json_str.c - the one JSON string escaper (see json_str.h).
 *
 * perfconv writes several strings per sample (comm, symbol and file
 * names), so plain bytes are copied one for one in a tight loop, with
 * the room checked once per run of them rather than once per byte.
 */
#include <stdint.h>
#include <string.h>

#include "fmt_num.h"
#include "json_str.h"
#include "utf8.h"

/* 1: the byte stands for itself inside a JSON string (0x20-0x7f but '"' and '\\') */
static const unsigned char json_plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x00 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x10 */
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x20: '"' */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x30 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x40 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,	/* 0x50: '\\' */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x60 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x70: DEL too */
	/* 0x80-0xff: UTF-8 sequences, checked one by one */
};

#define BYTES_01	0x0101010101010101ULL
#define BYTES_80	0x8080808080808080ULL

/* Has the word a zero byte?  (Exact as a yes or no; which byte it is, not.) */
static inline uint64_t has_zero_byte(uint64_t w)
{
	return (w - BYTES_01) & ~w & BYTES_80;
}

/* Does any of the 8 bytes need more than a copy (below 0x20, 0x80 and up, '"', '\\')? */
static inline uint64_t word_needs_escape(uint64_t w)
{
	return (w & BYTES_80) | ((w - 0x20 * BYTES_01) & ~w & BYTES_80) |
	       has_zero_byte(w ^ ('"' * BYTES_01)) | has_zero_byte(w ^ ('\\' * BYTES_01));
}

size_t json_str_escape(char *dst, size_t cap, const char *src, size_t n, size_t *used)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, o = 0;

	while (i < n && cap - o >= JSON_STR_MAX_GROWTH) {
		/*
		 * Plain bytes as far as the room still holds the longest
		 * escape after them; a byte to escape before that point then
		 * always fits.
		 */
		size_t plain_room = cap - o - (JSON_STR_MAX_GROWTH - 1);
		size_t end = n - i < plain_room ? n : i + plain_room;
		unsigned char c;
		size_t l;

		/* eight plain bytes at a time, then byte by byte up to the first other */
		while (end - i >= 8) {
			uint64_t w;

			memcpy(&w, s + i, 8);
			if (word_needs_escape(w))
				break;
			memcpy(dst + o, &w, 8);
			i += 8;
			o += 8;
		}
		while (i < end && json_plain[s[i]])
			dst[o++] = (char)s[i++];
		if (i == end)
			continue;
		c = s[i];
		if (c >= 0x80) {
			l = utf8_seq_len(s + i, n - i);
			if (l) {
				memcpy(dst + o, s + i, l);
				o += l;
				i += l;
			} else {
				memcpy(dst + o, UTF8_REPLACEMENT, UTF8_REPLACEMENT_LEN);
				o += UTF8_REPLACEMENT_LEN;
				i++;
			}
			continue;
		}
		dst[o++] = '\\';
		switch (c) {
		case '"':
		case '\\': dst[o++] = (char)c; break;
		case '\b': dst[o++] = 'b'; break;
		case '\f': dst[o++] = 'f'; break;
		case '\n': dst[o++] = 'n'; break;
		case '\r': dst[o++] = 'r'; break;
		case '\t': dst[o++] = 't'; break;
		default:
			dst[o++] = 'u';
			dst[o++] = '0';
			dst[o++] = '0';
			o += fmt_hex_bytes(dst + o, &c, 1);
			break;
		}
		i++;
	}
	*used = i;
	return o;
}

/* Input bytes escaped per reservation of the output buffer: 6 KiB of room at most. */
#define JSON_STR_CHUNK	1024

void json_str_put(struct out_buf *b, const char *s, size_t n)
{
	size_t chunk = n < JSON_STR_CHUNK ? n : JSON_STR_CHUNK;
	/* room for the quotes too: a short string takes one reservation */
	char *p = out_buf_room(b, chunk * JSON_STR_MAX_GROWTH + 2);
	size_t len, used;

	p[0] = '"';
	len = 1 + json_str_escape(p + 1, chunk * JSON_STR_MAX_GROWTH, s, n, &used);
	while (used < n) {
		b->len += len;
		s += used;
		n -= used;
		chunk = n < JSON_STR_CHUNK ? n : JSON_STR_CHUNK;
		p = out_buf_room(b, chunk * JSON_STR_MAX_GROWTH + 1);
		len = json_str_escape(p, chunk * JSON_STR_MAX_GROWTH, s, n, &used);
	}
	p[len++] = '"';
	b->len += len;
}
