// SPDX-License-Identifier: MIT
/*
 * csv_out.c - buffered RFC 4180 table output (see csv_out.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "csv/csv_out.h"
#include "../common/utf8.h"

int csv_open(struct csv_out *o, const char *dir, const char *file)
{
	char *tmp = NULL;
	int ret;

	memset(o, 0, sizeof(*o));
	if (dir && asprintf(&o->path, "%s/%s", dir, file) < 0) {
		o->path = NULL;
		goto nomem;
	}
	/* a dot file: a listing of DIR during the run shows no half table */
	if (dir && asprintf(&tmp, "%s/.%s.tmp.XXXXXX", dir, file) < 0)
		goto nomem;
	o->out.path = o->path;
	o->out.tmp = tmp;
	ret = drv_out_open(&o->out, "to-csv");
	o->out.tmp = NULL;
	free(tmp);
	if (ret < 0)
		goto fail;
	if (out_buf_init(&o->ob, o->out.sink.fd, CSV_BUF_SIZE) < 0) {
		drv_out_close(&o->out, false, 0);
		goto nomem;
	}
	return 0;

nomem:
	cli_error("to-csv: out of memory");
fail:
	free(o->path);
	memset(o, 0, sizeof(*o));
	return -1;
}

void csv_flush(struct csv_out *o)
{
	/* the sink keeps the first failure for drv_out_close() */
	if (out_buf_flush(&o->ob) < 0 && !o->out.sink.err)
		o->out.sink.err = o->ob.err;
}

int csv_close(struct csv_out *o, bool keep, int code)
{
	if (!o->out.open)
		return code;
	if (keep)
		csv_flush(o);
	code = drv_out_close(&o->out, keep, code);
	out_buf_free(&o->ob);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return code;
}

void csv_raw(struct csv_out *o, const char *s, size_t n)
{
	out_buf_put(&o->ob, s, n);
	csv_reserve(o, CSV_SMALL);
}

void csv_header(struct csv_out *o, const char *cols)
{
	csv_rawstr(o, cols);
	csv_raw(o, "\r\n", 2);
}

bool csv_utf8_append(char *dst, size_t cap, size_t *len, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t at = *len, i = 0;

	while (i < n) {
		size_t k = utf8_seq_len(p + i, n - i);

		if (k) {
			if (cap - at < k)
				return false;
			memcpy(dst + at, p + i, k);
			at += k;
			i += k;
		} else {
			if (cap - at < 3)
				return false;
			memcpy(dst + at, UTF8_REPLACEMENT, UTF8_REPLACEMENT_LEN);
			at += 3;
			i++;
		}
	}
	*len = at;
	return true;
}

bool csv_is_plain(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] >= 0x80 || p[i] == ',' || p[i] == '"' || p[i] == '\n' || p[i] == '\r')
			return false;
	return true;
}

void csv_plain(struct csv_out *o, const char *s, size_t n)
{
	csv_sep(o);
	csv_raw(o, s, n);
}

void csv_strn(struct csv_out *o, const char *s, size_t n)
{
	size_t start;

	if (csv_is_plain(s, n)) {
		csv_plain(o, s, n);
		return;
	}
	/* the rare case: quoted and repaired in place, as a text field is */
	start = csv_text_begin(o);
	csv_raw(o, s, n);
	csv_text_end(o, start, 0);
}

void csv_str(struct csv_out *o, const char *s)
{
	if (!s) {
		csv_empty(o);
		return;
	}
	csv_strn(o, s, strlen(s));
}

size_t csv_text_begin(struct csv_out *o)
{
	csv_sep(o);
	/* in memory until csv_text_end(): half a field must never be written */
	o->ob.fd = -1;
	return o->ob.len;
}

enum {
	TEXT_QUOTE = 1,	/* ',', '"', CR or LF: quoted */
	TEXT_BYTES = 2,	/* '"' or bytes >= 0x80: doubled or checked as UTF-8 */
};

/* 16 bytes as one vector value (GCC and Clang vector extensions, any target) */
typedef unsigned char text_vec __attribute__((vector_size(16)));

static inline bool vec_any(text_vec v)
{
	uint64_t w[2];

	memcpy(w, &v, sizeof(w));
	return w[0] | w[1];
}

/*
 * What p[0..n) needs as a field.  The text is every row's last field and
 * hundreds of bytes long, so it is looked at 16 bytes at a time, the
 * comparisons accumulated and tested every 64 bytes: once a byte asks for
 * quotes (the ',' of a list, in most rows), only what needs repair is
 * looked for, in the sign bits of the bytes and of the '"' comparisons.
 */
static unsigned int text_needs(const char *p, size_t n)
{
	const text_vec high = (text_vec){ 0 } + 0x80;
	text_vec quote = { 0 }, bytes = { 0 }, v, dq;
	bool q = false, b;
	size_t i = 0, stop;

	while (!q && n - i >= 16) {
		stop = n - i >= 64 ? i + 64 : n;
		for (; stop - i >= 16; i += 16) {
			memcpy(&v, p + i, 16);
			dq = (text_vec)(v == '"');
			quote |= (text_vec)(v == ',') | dq | (text_vec)(v == '\r') |
				 (text_vec)(v == '\n');
			bytes |= v | dq;
		}
		q = vec_any(quote);
	}
	for (; n - i >= 16; i += 16) {
		memcpy(&v, p + i, 16);
		bytes |= v | (text_vec)(v == '"');
	}
	b = vec_any(bytes & high);
	for (; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		q |= c == ',' || c == '"' || c == '\r' || c == '\n';
		b |= c >= 0x80 || c == '"';
	}
	return (q ? TEXT_QUOTE : 0) | (b ? TEXT_BYTES : 0);
}

/*
 * p[0..n) as a field into dst, which has room for 3 * n + 2 bytes: quoted
 * if `quote`, each '"' doubled, each byte outside valid UTF-8 U+FFFD.
 * Returns the length.
 */
static size_t text_repair(char *dst, const unsigned char *p, size_t n, bool quote)
{
	size_t at = 0, i = 0;

	if (quote)
		dst[at++] = '"';
	while (i < n) {
		size_t k = utf8_seq_len(p + i, n - i);

		if (!k) {
			memcpy(dst + at, UTF8_REPLACEMENT, UTF8_REPLACEMENT_LEN);
			at += UTF8_REPLACEMENT_LEN;
			i++;
			continue;
		}
		if (p[i] == '"')
			dst[at++] = '"';
		memcpy(dst + at, p + i, k);
		at += k;
		i += k;
	}
	if (quote)
		dst[at++] = '"';
	return at;
}

void csv_text_end(struct csv_out *o, size_t start, size_t skip)
{
	struct out_buf *b = &o->ob;
	size_t n = b->len - start > skip ? b->len - start - skip : 0;
	unsigned int need;
	char *p;

	if (b->err) {
		/* out of memory: the table is lost anyway (csv_err()) */
		b->len = 0;
		goto out;
	}
	p = b->buf + start + skip;
	need = text_needs(p, n);
	if (!need) {
		if (skip)
			memmove(b->buf + start, p, n);
		b->len = start + n;
	} else if (need == TEXT_QUOTE) {
		/* the common case of lists: quotes around the text as it is */
		if (start + n + 2 > b->len) {
			out_buf_room(b, start + n + 2 - b->len);
			p = b->buf + start + skip;
		}
		if (skip != 1)
			memmove(b->buf + start + 1, p, n);
		b->buf[start] = '"';
		b->buf[start + 1 + n] = '"';
		b->len = start + n + 2;
	} else {
		/* repaired after the text, then moved in its place */
		size_t m, end = b->len;

		out_buf_room(b, 3 * n + 2);
		if (b->err) {
			b->len = 0;
			goto out;
		}
		m = text_repair(b->buf + end, (const unsigned char *)b->buf + start + skip, n,
				need & TEXT_QUOTE);
		memmove(b->buf + start, b->buf + end, m);
		b->len = start + m;
	}
out:
	b->fd = o->out.sink.fd;
	csv_reserve(o, CSV_SMALL);
}
