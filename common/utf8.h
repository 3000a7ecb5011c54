/* SPDX-License-Identifier: MIT */
/*
 * utf8.h - the one rule for text taken from a perf.data file, in every
 * output (JSON, CSV, perfcheck's reports): valid UTF-8 passes unchanged,
 * and each byte that does not belong to a valid sequence becomes U+FFFD
 * (REPLACEMENT CHARACTER), written as the character itself.  Outputs then
 * escape what their syntax needs (quotes, control characters) their own
 * way.
 */
#ifndef PERFDATA_UTF8_H
#define PERFDATA_UTF8_H

#include <stddef.h>

/* U+FFFD in UTF-8 */
#define UTF8_REPLACEMENT	"\xef\xbf\xbd"
#define UTF8_REPLACEMENT_LEN	3

/*
 * Length of the valid UTF-8 sequence at p (n > 0 bytes left): 1 for an
 * ASCII byte, 2 to 4 for a multi-byte character, 0 when the byte at p
 * starts none (a stray continuation byte, an overlong form, a surrogate,
 * a code point past U+10FFFF, or a sequence cut short).
 */
size_t utf8_seq_len(const unsigned char *p, size_t n);

/*
 * The n bytes at s as a NUL-terminated, valid UTF-8 string: a malloc'd
 * copy with each invalid byte replaced (a NUL byte ends the copy), or
 * NULL without memory.
 */
char *utf8_repair(const char *s, size_t n);

#endif /* PERFDATA_UTF8_H */
