// SPDX-License-Identifier: MIT
/*
 * proto_wire.c - the wire encoder's buffer (an in-memory out_buf), the
 * widening of long messages' lengths, and the two values quipper derives
 * from strings: md5 prefixes and mmap root paths.
 */
#include <md5.h>
#include <stdlib.h>
#include <string.h>

#include "proto_wire.h"

/*
 * A whole --quipper-compat event list is held before the first event is
 * written: the buffer may grow as large as the input, past the cap of
 * the text outputs' in-memory buffers.
 */
int pw_buf_init(struct pw_buf *b)
{
	if (out_buf_init(&b->ob, -1, 0))
		return -1;
	b->ob.mem_max = SIZE_MAX;
	return 0;
}

void pw_buf_free(struct pw_buf *b)
{
	out_buf_free(&b->ob);
}

/* The message is 128 bytes or more: widen its length placeholder. */
void pw_close_long(struct pw_buf *b, size_t mark, size_t n)
{
	unsigned int k = pw_varint_size(n);
	size_t save;

	/*
	 * A failed growth since pw_open() may have put the length below the
	 * mark: the message is lost then, and n (wrapped) is no length.
	 */
	if (n > b->ob.len || !pw_room(b, k - 1))
		return;
	memmove(b->ob.buf + mark + k - 1, b->ob.buf + mark, n);
	save = b->ob.len;
	b->ob.len = mark - 1;
	pw_varint_nocheck(b, n);
	b->ob.len = save + k - 1;
}

uint64_t pw_md5_prefix(const void *data, size_t n)
{
	uint8_t d[MD5_DIGEST_LENGTH];
	MD5_CTX ctx;
	uint64_t v = 0;
	int i;

	MD5Init(&ctx);
	MD5Update(&ctx, data, n);
	MD5Final(d, &ctx);
	for (i = 0; i < 8; i++)
		v = v << 8 | d[i];
	return v;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * quipper keeps the top of the path so that unrecoverable file names can
 * still be grouped by where they live.  Its rule, followed exactly: after
 * the leading '/' and any further leading slashes, skip slashes and find
 * the next '/' twice; the root is the prefix before the last '/' found,
 * or the leading slashes when none was ("//anon" gives "//").
 */
const char *pw_root_path(const char *fn, char *buf, size_t size)
{
	size_t len = strlen(fn), pos, cut;
	int level;

	if (has_prefix(fn, "[anon:"))
		len = 6;
	else if (has_prefix(fn, "/memfd:"))
		len = 7;
	else if (has_prefix(fn, "/tmp/"))
		len = 4;
	else if (fn[0] != '/')
		len = 0;
	else {
		pos = 1;
		while (fn[pos] == '/')
			pos++;
		cut = pos;
		for (level = 0; level < 2; level++) {
			const char *slash;

			while (fn[pos] == '/')
				pos++;
			slash = strchr(fn + pos, '/');
			if (!slash)
				break;
			pos = (size_t)(slash - fn);
			cut = pos;
		}
		len = cut;
	}
	if (len >= size)
		len = size - 1;
	memcpy(buf, fn, len);
	buf[len] = '\0';
	return buf;
}
