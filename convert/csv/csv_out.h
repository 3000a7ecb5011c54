/* SPDX-License-Identifier: MIT */
/*
 * csv_out.h - buffered RFC 4180 table output for perfconv to-csv.
 *
 * One struct csv_out per table.  Rows are formatted straight into a large
 * buffer that is handed to write(2) when full: no stdio, no per-field
 * call into libc on the common path, because the samples table of a big
 * recording is several times the size of its input.
 *
 * A table is a command output of the driver (struct drv_out): one named
 * for a directory goes to a temporary file beside its final name and is
 * renamed only by csv_close(o, true, ...), so an interrupted or failed
 * conversion never leaves a truncated table that looks complete.
 *
 * Fields are separated by ',' and rows end with CRLF (RFC 4180).  A field
 * is quoted when it holds ',', '"', CR or LF; '"' is doubled inside
 * quotes.  Input strings come from the perf.data file and need not be
 * UTF-8: every invalid byte is written as U+FFFD so that the output always
 * is.
 */
#ifndef PERFCONV_CSV_OUT_H
#define PERFCONV_CSV_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../common/out_buf.h"
#include "driver.h"
#include "../common/fmt_num.h"

#define CSV_BUF_SIZE	(1u << 20)
/* room that a number field, its separator and a row end always fit in */
#define CSV_SMALL	64

struct csv_out {
	struct drv_out out;	/* out.sink: fd, temporary file, first write error */
	char *path;		/* DIR/FILE, NULL for standard output */
	struct out_buf ob;	/* CSV_BUF_SIZE bytes for out.sink.fd */
	unsigned int nf;	/* fields in the current row */
};

/*
 * Open a table: DIR/FILE through a temporary file when `dir` is set,
 * standard output otherwise.  Returns 0, or -1 after a message.
 */
int csv_open(struct csv_out *o, const char *dir, const char *file);

/*
 * Flush and close (drv_out_close()): `keep` renames the temporary file to
 * its final name; without it the temporary file is removed.  A table kept
 * that could not be written completely is named in a message and makes
 * the code CLI_EXIT_IO.  Returns the code.
 */
int csv_close(struct csv_out *o, bool keep, int code);

/* Hand the buffer to the sink; errors are remembered in o->out.sink.err. */
void csv_flush(struct csv_out *o);

/* The first failure of this table's output, 0 if none. */
static inline int csv_err(const struct csv_out *o)
{
	return o->out.sink.err ? o->out.sink.err : o->ob.err;
}

static inline void csv_reserve(struct csv_out *o, size_t n)
{
	if (o->ob.len + n > CSV_BUF_SIZE)
		csv_flush(o);
}

/* Bytes as they are, no quoting (the header row, the folded table). */
void csv_raw(struct csv_out *o, const char *s, size_t n);

static inline void csv_rawstr(struct csv_out *o, const char *s)
{
	csv_raw(o, s, strlen(s));
}

/* The header row: column names separated by ',' in one string. */
void csv_header(struct csv_out *o, const char *cols);

/*
 * True when s[0..n) can be written as it is: ASCII without ',', '"', CR
 * or LF.  Callers that write the same string many times test it once and
 * then use csv_plain().
 */
bool csv_is_plain(const char *s, size_t n);

/* A field known to be plain (see csv_is_plain()). */
void csv_plain(struct csv_out *o, const char *s, size_t n);

/* One text field, quoted when needed; NULL is an empty field. */
void csv_str(struct csv_out *o, const char *s);
void csv_strn(struct csv_out *o, const char *s, size_t n);

/*
 * The small fields below are inline: a table of millions of rows calls
 * them several times a row.  They rely on the invariant that every field
 * writer leaves at least CSV_SMALL bytes free, so they never check the
 * buffer before they write.
 */
static inline void csv_sep(struct csv_out *o)
{
	if (o->nf++)
		o->ob.buf[o->ob.len++] = ',';
}

static inline void csv_u64(struct csv_out *o, uint64_t v)
{
	csv_sep(o);
	o->ob.len += fmt_u64(o->ob.buf + o->ob.len, v);
	csv_reserve(o, CSV_SMALL);
}

static inline void csv_i64(struct csv_out *o, int64_t v)
{
	csv_sep(o);
	if (v < 0)
		o->ob.buf[o->ob.len++] = '-';
	o->ob.len += fmt_u64(o->ob.buf + o->ob.len,
			     v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
	csv_reserve(o, CSV_SMALL);
}

/* 0x-prefixed lower-case hexadecimal */
static inline void csv_hex(struct csv_out *o, uint64_t v)
{
	char *p;

	csv_sep(o);
	p = o->ob.buf + o->ob.len;
	p[0] = '0';
	p[1] = 'x';
	o->ob.len += 2 + fmt_hex(p + 2, v);
	csv_reserve(o, CSV_SMALL);
}

static inline void csv_empty(struct csv_out *o)
{
	csv_sep(o);
	csv_reserve(o, CSV_SMALL);
}

/* End of a data row. */
static inline void csv_eol(struct csv_out *o)
{
	o->ob.buf[o->ob.len++] = '\r';
	o->ob.buf[o->ob.len++] = '\n';
	o->nf = 0;
	csv_reserve(o, CSV_SMALL);
}

/*
 * A text field that a formatter of its own writes straight into o->ob
 * (the records table's summary, rec_text.h): csv_text_begin() starts the
 * field and returns where its text starts; the buffer holds the text
 * until csv_text_end() (it grows instead of being written out), which
 * drops the first `skip` bytes of the text (a leading separator) and
 * quotes and repairs the rest in place: the rule of every field, by which
 * csv_strn() writes the fields that are not plain.
 */
size_t csv_text_begin(struct csv_out *o);
void csv_text_end(struct csv_out *o, size_t start, size_t skip);

/*
 * Append `s` to `dst` (at most `cap` bytes, `*len` used) as valid UTF-8:
 * invalid bytes become U+FFFD.  Returns false when it did not fit.  The
 * folded table and the joined callchain field are built with it.
 */
bool csv_utf8_append(char *dst, size_t cap, size_t *len, const char *s, size_t n);

#endif /* PERFCONV_CSV_OUT_H */
