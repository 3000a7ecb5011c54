// SPDX-License-Identifier: MIT
/*
 * out_buf.c - the one output buffer (see out_buf.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "out_buf.h"
#include "out_sink.h"
#include "perfdata/pd_writer.h"

int out_buf_init(struct out_buf *b, int fd, size_t cap)
{
	memset(b, 0, sizeof(*b));
	if (cap < OUT_BUF_MIN)
		cap = OUT_BUF_MIN;
	b->buf = malloc(cap);
	if (!b->buf)
		return -1;
	b->cap = cap;
	b->fd = fd;
	b->mem_max = OUT_BUF_MEM_MAX;
	return 0;
}

void out_buf_free(struct out_buf *b)
{
	free(b->buf);
	b->buf = NULL;
	b->cap = b->len = 0;
}

int out_buf_flush(struct out_buf *b)
{
	if (b->fd < 0)
		return b->err ? -1 : 0;
	/*
	 * After a failed write the rest is dropped: the caller checks err at
	 * the end, and the buffer must stay usable until then.
	 */
	if (!b->err && b->len) {
		b->err = pd_write_all(b->fd, b->buf, b->len) ? errno : 0;
		if (!b->err)
			b->written += b->len;
	}
	b->len = 0;
	return b->err ? -1 : 0;
}

/*
 * Writers never ask for more than a few KiB at a time (long data goes
 * through out_buf_put_long()), and the buffer is at least OUT_BUF_MIN:
 * flushing is enough, except in memory, where the buffer is the result
 * and grows.  Once it could not, the result is lost: the buffer keeps
 * its storage for the writes still to come, which land at its start,
 * and never asks for memory again.
 */
void out_buf_grow(struct out_buf *b, size_t n)
{
	size_t cap;
	char *p;

	if (b->fd >= 0) {
		out_buf_flush(b);
		return;
	}
	if (b->err) {
		b->len = 0;
		return;
	}
	cap = b->cap;
	while (cap - b->len < n && cap <= b->mem_max / 2)
		cap *= 2;
	p = cap - b->len >= n ? realloc(b->buf, cap) : NULL;
	if (!p) {
		b->err = ENOMEM;
		b->len = 0;
		return;
	}
	b->buf = p;
	b->cap = cap;
}

void out_buf_put_long(struct out_buf *b, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		size_t chunk = n > b->cap / 2 ? b->cap / 2 : n;

		memcpy(out_buf_room(b, chunk), s, chunk);
		b->len += chunk;
		s += chunk;
		n -= chunk;
	}
}

void out_buf_vprintf(struct out_buf *b, const char *fmt, va_list ap)
{
	size_t room = b->cap - b->len;
	va_list again;
	char *tmp;
	int n;

	va_copy(again, ap);
	n = vsnprintf(b->buf + b->len, room, fmt, ap);
	if (n >= 0 && (size_t)n < room) {
		b->len += (size_t)n;
	} else if (n >= 0 && (size_t)n < OUT_BUF_MIN) {
		/* the buffer keeps at least OUT_BUF_MIN bytes of room once grown or flushed */
		room = (size_t)n + 1;
		vsnprintf(out_buf_room(b, room), room, fmt, again);
		b->len += (size_t)n;
	} else if (n >= 0) {
		tmp = malloc((size_t)n + 1);
		if (tmp) {
			vsnprintf(tmp, (size_t)n + 1, fmt, again);
			out_buf_put_long(b, tmp, (size_t)n);
			free(tmp);
		} else if (!b->err) {
			b->err = ENOMEM;
		}
	} else if (!b->err) {
		b->err = errno ? errno : EINVAL;
	}
	va_end(again);
}

void out_buf_printf(struct out_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	out_buf_vprintf(b, fmt, ap);
	va_end(ap);
}
