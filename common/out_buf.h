/* SPDX-License-Identifier: MIT */
/*
 * out_buf.h - the one output buffer the commands format into.
 *
 * Text is assembled in place (out_buf_room() hands out the bytes, the
 * caller advances len) and written to a descriptor when the buffer is
 * full, through pd_write_all() (pd_writer.h), the one write loop.  The first
 * failure is kept in err and later output is dropped, so callers write on
 * and check err once at the end.  A buffer without a descriptor holds
 * its text in memory and grows instead, up to mem_max (OUT_BUF_MEM_MAX
 * unless the owner raises it); a failed growth sets err to ENOMEM, and
 * from then on the buffer never grows again: what is written lands at
 * its start and is dropped.
 */
#ifndef PERFDATA_OUT_BUF_H
#define PERFDATA_OUT_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* smallest buffer: every single reservation of the writers fits in it */
#define OUT_BUF_MIN	(64 * 1024)
#define OUT_BUF_MEM_MAX	((size_t)256 << 20)

struct out_buf {
	char *buf;
	size_t len, cap;
	int fd;			/* -1: in memory */
	int err;		/* errno of the first failure, 0 if none */
	uint64_t written;	/* bytes handed to the descriptor */
	size_t mem_max;		/* in memory: the most it grows to */
};

/* A buffer of cap bytes (at least OUT_BUF_MIN) for fd, or in memory when fd < 0. */
int out_buf_init(struct out_buf *b, int fd, size_t cap);
void out_buf_free(struct out_buf *b);
/* Write out what is buffered (nothing in memory); 0, or -1 with err set. */
int out_buf_flush(struct out_buf *b);
/* Make room for n bytes (n <= OUT_BUF_MIN unless in memory): flush or grow. */
void out_buf_grow(struct out_buf *b, size_t n);
/* Any length, in pieces of at most half the buffer. */
void out_buf_put_long(struct out_buf *b, const void *p, size_t n);
/* printf() into the buffer, any length: for text off the hot paths. */
void out_buf_printf(struct out_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_buf_vprintf(struct out_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static inline char *out_buf_room(struct out_buf *b, size_t n)
{
	if (b->cap - b->len < n)
		out_buf_grow(b, n);
	return b->buf + b->len;
}

static inline void out_buf_put(struct out_buf *b, const void *p, size_t n)
{
	if (n > 4096) {
		out_buf_put_long(b, p, n);
		return;
	}
	memcpy(out_buf_room(b, n), p, n);
	b->len += n;
}

static inline void out_buf_s(struct out_buf *b, const char *s)
{
	out_buf_put(b, s, strlen(s));
}

static inline void out_buf_c(struct out_buf *b, char c)
{
	*out_buf_room(b, 1) = c;
	b->len++;
}

#endif /* PERFDATA_OUT_BUF_H */
