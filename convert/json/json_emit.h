/* SPDX-License-Identifier: MIT */
/*
 * json_emit.h - a small streaming JSON writer for perfconv to-json.
 *
 * Records are written straight into one large buffer that goes to a file
 * descriptor in big chunks: building a jansson object per record costs
 * several allocations per field and was measured to be far too slow for
 * multi-gigabyte inputs (see README).  Headers and features, which are
 * small, are still built with jansson and written here by je_value()
 * (json_value.h): one escaper for every string.
 *
 * Two layers:
 *  - raw primitives (je_raw, je_u64, je_str ...) that write exactly the
 *    bytes asked for: the perf-compatible writer lays out its own TABs and
 *    newlines with them;
 *  - compact structure helpers (je_obj_begin, je_key ...) that place the
 *    commas themselves: the --full writer uses them.
 */
#ifndef PERFCONV_JSON_EMIT_H
#define PERFCONV_JSON_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../common/out_buf.h"

struct je {
	struct out_buf ob;	/* the text, on its way to a descriptor or in memory */
	unsigned int depth;
	/* bit per depth: an item was already written at that level */
	uint64_t has_item;
	bool after_key;		/* a key was written, its value comes next */
};

/* A writer to fd through a buffer of cap bytes (out_buf.h). */
static inline int je_init(struct je *j, int fd, size_t cap)
{
	memset(j, 0, sizeof(*j));
	return out_buf_init(&j->ob, fd, cap);
}

/*
 * A writer into memory only: text is built in ob.buf[0, ob.len) and the
 * buffer grows as needed (up to OUT_BUF_MEM_MAX; past it, or without
 * memory, ob.err is ENOMEM and what was written is dropped, as after a
 * failed write).
 */
static inline int je_init_mem(struct je *j)
{
	return je_init(j, -1, OUT_BUF_MIN);
}

static inline void je_free(struct je *j)
{
	out_buf_free(&j->ob);
}

/* Write out the buffer; returns 0 or -1 (ob.err set). */
static inline int je_flush(struct je *j)
{
	return out_buf_flush(&j->ob);
}

/* Room for n more bytes (flushing when needed). */
static inline char *je_room(struct je *j, size_t n)
{
	return out_buf_room(&j->ob, n);
}

static inline void je_raw(struct je *j, const char *s, size_t n)
{
	out_buf_put(&j->ob, s, n);
}

#define je_lit(j, s) je_raw((j), (s), sizeof(s) - 1)

static inline void je_c(struct je *j, char c)
{
	out_buf_c(&j->ob, c);
}

void je_u64(struct je *j, uint64_t v);
void je_i64(struct je *j, int64_t v);
/* "0x1a2b" with the quotes (lowercase, no padding) */
void je_hexstr(struct je *j, uint64_t v);
/* 0x1a2b without quotes */
void je_hex(struct je *j, uint64_t v);
/*
 * A JSON number when v < 2^53 (exact in every JSON reader, jq and
 * JavaScript included), else a decimal string.
 */
void je_u64_safe(struct je *j, uint64_t v);
/*
 * A JSON string of at most `max` bytes of s (stops at NUL), escaped by
 * the one rule of common/json_str.h (perf's: valid UTF-8 passes, other
 * bytes >= 0x80 become U+FFFD, so that the output is always valid JSON).
 * NULL prints as "".
 */
void je_str(struct je *j, const char *s, size_t max);
void je_strn(struct je *j, const char *s, size_t n);	/* exactly n bytes, NULs escaped */
void je_base64(struct je *j, const uint8_t *p, size_t n);
void je_hexbytes(struct je *j, const uint8_t *p, size_t n);

/* ---- compact structure ---- */

/*
 * Comma placement: every value or key calls je_sep(), which writes a comma
 * when its level already holds an item, except right after a key.
 */
static inline void je_sep(struct je *j)
{
	uint64_t bit = 1ULL << (j->depth & 63);

	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->has_item & bit)
		je_c(j, ',');
	j->has_item |= bit;
}

static inline void je_open(struct je *j, char c)
{
	je_sep(j);
	je_c(j, c);
	j->depth++;
	j->has_item &= ~(1ULL << (j->depth & 63));
}

static inline void je_close(struct je *j, char c)
{
	j->depth--;
	je_c(j, c);
}

/* Start a new top-level value (a record line). */
static inline void je_reset(struct je *j)
{
	j->depth = 0;
	j->has_item = 0;
	j->after_key = false;
}

#define je_obj_begin(j)	je_open((j), '{')
#define je_obj_end(j)	je_close((j), '}')
#define je_arr_begin(j)	je_open((j), '[')
#define je_arr_end(j)	je_close((j), ']')

/* "key": -- key is a plain ASCII literal that needs no escaping */
static inline void je_key(struct je *j, const char *k)
{
	size_t n = strlen(k);
	char *p;

	je_sep(j);
	p = je_room(j, n + 3);
	p[0] = '"';
	memcpy(p + 1, k, n);
	p[n + 1] = '"';
	p[n + 2] = ':';
	j->ob.len += n + 3;
	j->after_key = true;
}

/* A key taken from the input (tracepoint field names): escaped. */
static inline void je_key_esc(struct je *j, const char *k)
{
	je_sep(j);
	je_str(j, k, SIZE_MAX);
	je_c(j, ':');
	j->after_key = true;
}

/* values, placed with je_sep() */
static inline void je_v_u(struct je *j, uint64_t v)
{
	je_sep(j);
	je_u64_safe(j, v);
}

static inline void je_v_i(struct je *j, int64_t v)
{
	je_sep(j);
	je_i64(j, v);
}

static inline void je_v_x(struct je *j, uint64_t v)
{
	je_sep(j);
	je_hexstr(j, v);
}

static inline void je_v_s(struct je *j, const char *s)
{
	je_sep(j);
	je_str(j, s, SIZE_MAX);
}

/*
 * A string known to need no escaping (a name from the project's own
 * tables: ASCII letters, digits, '_' and '-'): copied as it is, without
 * the escaper's pass over each byte.
 */
static inline void je_v_plain(struct je *j, const char *s)
{
	size_t n = strlen(s);
	char *p;

	je_sep(j);
	p = je_room(j, n + 2);
	p[0] = '"';
	memcpy(p + 1, s, n);
	p[n + 1] = '"';
	j->ob.len += n + 2;
}

static inline void je_v_bool(struct je *j, bool b)
{
	je_sep(j);
	if (b)
		je_lit(j, "true");
	else
		je_lit(j, "false");
}

static inline void je_kv_u(struct je *j, const char *k, uint64_t v)
{
	je_key(j, k);
	je_v_u(j, v);
}

static inline void je_kv_i(struct je *j, const char *k, int64_t v)
{
	je_key(j, k);
	je_v_i(j, v);
}

static inline void je_kv_x(struct je *j, const char *k, uint64_t v)
{
	je_key(j, k);
	je_v_x(j, v);
}

static inline void je_kv_s(struct je *j, const char *k, const char *s)
{
	je_key(j, k);
	je_v_s(j, s);
}

static inline void je_kv_plain(struct je *j, const char *k, const char *s)
{
	je_key(j, k);
	je_v_plain(j, s);
}

static inline void je_kv_bool(struct je *j, const char *k, bool b)
{
	je_key(j, k);
	je_v_bool(j, b);
}

static inline void je_kv_base64(struct je *j, const char *k, const uint8_t *p, size_t n)
{
	je_key(j, k);
	je_sep(j);
	je_base64(j, p, n);
}

#endif /* PERFCONV_JSON_EMIT_H */
