/* SPDX-License-Identifier: MIT */
/*
 * json_str.h - the one rule for a JSON string in every output of the
 * commands (perfconv's to-json documents, perfcheck's JSON report), the
 * rule of perf's own JSON (perf data convert --to-json), so that
 * perfconv's document stays byte-compatible with it:
 *  - '"' and '\' are escaped with a backslash;
 *  - \b \f \n \r \t take their short forms, every other byte below 0x20
 *    is \u00XX with lowercase hex digits;
 *  - DEL (0x7f) and the other printable ASCII bytes pass unchanged;
 *  - valid UTF-8 passes unchanged, and each byte outside a valid
 *    sequence becomes U+FFFD, written as the character (common/utf8.h),
 *    so that the document always parses.
 */
#ifndef PD_COMMON_JSON_STR_H
#define PD_COMMON_JSON_STR_H

#include <stddef.h>

#include "out_buf.h"

/* The most bytes one input byte becomes (\u00XX). */
#define JSON_STR_MAX_GROWTH	6

/*
 * The escaped text of s[0, n), without quotes, into dst (room for cap
 * bytes, at least JSON_STR_MAX_GROWTH): as many whole characters as fit.
 * Returns the bytes written; *used is the bytes of s they stand for
 * (n when all of s fit), so that a caller with a small buffer goes on
 * from s + *used.
 */
size_t json_str_escape(char *dst, size_t cap, const char *s, size_t n, size_t *used);

/* s[0, n) as a quoted JSON string into b (any length). */
void json_str_put(struct out_buf *b, const char *s, size_t n);

#endif /* PD_COMMON_JSON_STR_H */
