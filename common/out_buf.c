// SPDX-License-Identifier: MIT
/*
 * out_buf.c - the one output buffer (see out_buf.h).
 */
#include <errno.h>
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
 * and grows.
 */
void out_buf_grow(struct out_buf *b, size_t n)
{
	size_t cap;
	char *p;

	if (b->fd >= 0) {
		out_buf_flush(b);
		return;
	}
	cap = b->cap;
	while (cap - b->len < n && cap <= OUT_BUF_MEM_MAX / 2)
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
