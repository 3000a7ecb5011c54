/* SPDX-License-Identifier: MIT */
/*
 * proto_wire.h - a small protobuf wire-format encoder for the to-proto
 * writer, and the values quipper computes (md5 prefixes, root_path).
 *
 * Records are encoded straight into a growable buffer instead of going
 * through protobuf-c's generated structs: filling a struct of forty
 * optional fields and letting the generic packer walk its descriptor costs
 * more than the parsing itself.  A nested message is written with a
 * one-byte length placeholder that is widened in place when the message
 * turns out longer than 127 bytes (pw_open()/pw_close()).
 *
 * Field numbers and wire types must agree with schema/perf_data.proto; the
 * tests decode the output with protobuf-c and protoc to check it.
 */
#ifndef PERFCONV_PROTO_WIRE_H
#define PERFCONV_PROTO_WIRE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../common/out_buf.h"

enum pw_wire_type {
	PW_VARINT = 0,
	PW_I64 = 1,
	PW_LEN = 2,
};

/*
 * The encoder's bytes live in the one output buffer (common/out_buf.h),
 * in memory: pw_close() patches a length placeholder that may already
 * lie a megabyte back, so nothing is written out while a message is
 * open; the owner hands the finished bytes on.  When it cannot grow, its
 * ENOMEM latch holds (pw_nomem()): the content is incomplete, and the
 * writes that follow land at the start of the storage it keeps, so that
 * encoders need no error path.
 */
struct pw_buf {
	struct out_buf ob;
};

/* An empty buffer; -1 when out of memory. */
int pw_buf_init(struct pw_buf *b);
void pw_buf_free(struct pw_buf *b);

static inline uint8_t *pw_data(const struct pw_buf *b)
{
	return (uint8_t *)b->ob.buf;
}

/* An allocation failed, here or in an encoder: the content is incomplete. */
static inline bool pw_nomem(const struct pw_buf *b)
{
	return b->ob.err != 0;
}

static inline void pw_set_nomem(struct pw_buf *b)
{
	b->ob.err = ENOMEM;
}

/*
 * Room for n more bytes, n at most OUT_BUF_MIN (a larger n is checked
 * with pw_room()); when the buffer could not grow, pw_nomem() and the
 * length reset.
 */
static inline void pw_need(struct pw_buf *b, size_t n)
{
	if (b->ob.cap - b->ob.len < n)
		out_buf_grow(&b->ob, n);
}

/*
 * Room for n more bytes, of any size: false when there is none.  true
 * does not say that nothing was lost before (pw_nomem() does); the
 * check of the latch is left to the slow path, out of the encoders'
 * loops.
 */
static inline bool pw_room(struct pw_buf *b, size_t n)
{
	if (b->ob.cap - b->ob.len >= n)
		return true;
	out_buf_grow(&b->ob, n);
	return !pw_nomem(b);
}

static inline size_t pw_varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* v as a varint at p, which has 10 bytes of room; returns the byte after it. */
static inline uint8_t *pw_put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Caller guarantees 10 bytes of room. */
static inline void pw_varint_nocheck(struct pw_buf *b, uint64_t v)
{
	b->ob.len = (size_t)(pw_put_varint(pw_data(b) + b->ob.len, v) - pw_data(b));
}

static inline void pw_varint(struct pw_buf *b, uint64_t v)
{
	pw_need(b, 10);
	pw_varint_nocheck(b, v);
}

static inline void pw_tag(struct pw_buf *b, unsigned int field, enum pw_wire_type wt)
{
	pw_varint(b, ((uint64_t)field << 3) | wt);
}

/* uint32, uint64 and bool fields: one varint */
static inline void pw_u64(struct pw_buf *b, unsigned int field, uint64_t v)
{
	pw_need(b, 20);
	pw_varint_nocheck(b, ((uint64_t)field << 3) | PW_VARINT);
	pw_varint_nocheck(b, v);
}

static inline void pw_bool(struct pw_buf *b, unsigned int field, bool v)
{
	pw_u64(b, field, v ? 1 : 0);
}

/* int32: negative values are sign-extended to ten bytes, as protobuf does */
static inline void pw_i32(struct pw_buf *b, unsigned int field, int32_t v)
{
	pw_u64(b, field, (uint64_t)(int64_t)v);
}

static inline void pw_double(struct pw_buf *b, unsigned int field, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	pw_tag(b, field, PW_I64);
	pw_need(b, 8);
	for (int i = 0; i < 8; i++)
		pw_data(b)[b->ob.len++] = (uint8_t)(u >> (8 * i));
}

static inline void pw_bytes(struct pw_buf *b, unsigned int field, const void *data, size_t n)
{
	pw_need(b, 20 + n);
	pw_varint_nocheck(b, ((uint64_t)field << 3) | PW_LEN);
	pw_varint_nocheck(b, n);
	if (b->ob.cap - b->ob.len < n)	/* allocation failed */
		return;
	if (n)
		memcpy(b->ob.buf + b->ob.len, data, n);
	b->ob.len += n;
}

/*
 * String fields.  NULL is written as "": the decoder leaves NULL the
 * strings of a feature it could not read to the end (pd_feature.h).
 */
static inline void pw_str(struct pw_buf *b, unsigned int field, const char *s)
{
	if (!s)
		s = "";
	pw_bytes(b, field, s, strlen(s));
}

/*
 * Start a length-delimited field (a nested message or a packed array);
 * returns the mark pw_close() needs.
 */
static inline size_t pw_open(struct pw_buf *b, unsigned int field)
{
	/* the tag and the placeholder: one check of the room */
	pw_need(b, 11);
	pw_varint_nocheck(b, ((uint64_t)field << 3) | PW_LEN);
	b->ob.buf[b->ob.len++] = 0;
	return b->ob.len;
}

void pw_close_long(struct pw_buf *b, size_t mark, size_t n);

static inline void pw_close(struct pw_buf *b, size_t mark)
{
	size_t n = b->ob.len - mark;

	if (n < 0x80)
		pw_data(b)[mark - 1] = (uint8_t)n;
	else
		pw_close_long(b, mark, n);
}

static inline void pw_packed_u64(struct pw_buf *b, unsigned int field, const uint64_t *v, size_t n)
{
	size_t mark, i;

	if (!n)
		return;
	mark = pw_open(b, field);
	for (i = 0; i < n; i++)
		pw_varint(b, v[i]);
	pw_close(b, mark);
}

/* First 8 bytes of the MD5 digest of the bytes, as a big-endian u64 (quipper). */
uint64_t pw_md5_prefix(const void *data, size_t n);

static inline uint64_t pw_md5_prefix_str(const char *s)
{
	if (!s)
		s = "";
	return pw_md5_prefix(s, strlen(s));
}

/*
 * quipper's root_path of an mmap filename: the first two directory levels
 * ("/usr/lib" for "/usr/lib/x86_64-linux-gnu/libc.so.6"), with special
 * cases for anonymous, memfd and /tmp names.  Writes into buf (size >=
 * strlen(filename) + 1) and returns it.
 */
const char *pw_root_path(const char *filename, char *buf, size_t size);

/* A string field and its md5 prefix (quipper's "name", "name_md5_prefix" pairs). */
static inline void pw_str_md5(struct pw_buf *b, unsigned int field, unsigned int md5_field,
			      const char *s)
{
	size_t n;

	if (!s)
		s = "";
	n = strlen(s);

	pw_bytes(b, field, s, n);
	pw_u64(b, md5_field, pw_md5_prefix(s, n));
}

#endif /* PERFCONV_PROTO_WIRE_H */
