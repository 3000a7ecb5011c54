/* SPDX-License-Identifier: MIT */
/*
 * rec_text.h - a record's fields as one line of text, " key=value" each.
 *
 * The one text rendering of the record walk (pd_visit.h): perfconv dump
 * prints it after each record's type, and the summary column of to-csv's
 * records table is the same text but a sample's callchain list.  It is written in place into an output
 * buffer (common/out_buf.h), since both run over every record of files of
 * hundreds of megabytes: no allocation and no printf() per record.
 *
 * Every field starts with a space, so the text of a record is either
 * empty or begins with ' '.  Strings from the file are written as they
 * are, except control characters and backslashes, which become \xNN so
 * that a record stays on one line.
 */
#ifndef PERFCONV_REC_TEXT_H
#define PERFCONV_REC_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "../common/out_buf.h"
#include "../common/fmt_num.h"


/* What rec_text_fields() shows beyond what it always does */
enum rec_text_opts {
	/* payloads of any size (sample raw and aux data) */
	REC_TEXT_BULK		= 1u << 0,
	/*
	 * A sample's callchain=[...] list (its callchain_nr always shows).
	 * The records table leaves it out: the samples table has the frames
	 * symbolized, and a big file's summaries would be mostly addresses.
	 */
	REC_TEXT_CALLCHAIN	= 1u << 1,
};

/*
 * The fields of rec: misc when set (but for samples, whose misc the walk
 * shows as cpumode), then, when rec was decoded, its body, its sample_id
 * trailer (sid.*) and the extent of the data that follows it; opts is a
 * mask of enum rec_text_opts.
 */
void rec_text_fields(struct out_buf *b, const struct pd_record *rec, unsigned int opts);

/* An attr's summary (pd_attr_visit()): attr_type, config, sample_period/freq, sample_type, ... */
void rec_text_attr(struct out_buf *b, const struct pd_attr *a);

/* ---- the pieces, for the lines around records (dump's header) ---- */

void rec_text_str_n(struct out_buf *b, const char *s, size_t max);

static inline void rec_text_s(struct out_buf *b, const char *s)
{
	out_buf_put(b, s, strlen(s));
}

static inline void rec_text_u64(struct out_buf *b, uint64_t v)
{
	b->len += fmt_u64(out_buf_room(b, 20), v);
}

static inline void rec_text_i64(struct out_buf *b, int64_t v)
{
	if (v < 0) {
		out_buf_c(b, '-');
		rec_text_u64(b, -(uint64_t)v);
	} else {
		rec_text_u64(b, (uint64_t)v);
	}
}

static inline void rec_text_hex(struct out_buf *b, uint64_t v)
{
	char *p = out_buf_room(b, 18);

	p[0] = '0';
	p[1] = 'x';
	b->len += 2 + fmt_hex_wide(p + 2, v);
}

static inline void rec_text_key(struct out_buf *b, const char *k)
{
	out_buf_c(b, ' ');
	rec_text_s(b, k);
	out_buf_c(b, '=');
}

static inline void rec_text_kv_u(struct out_buf *b, const char *k, uint64_t v)
{
	rec_text_key(b, k);
	rec_text_u64(b, v);
}

static inline void rec_text_kv_i(struct out_buf *b, const char *k, int64_t v)
{
	rec_text_key(b, k);
	rec_text_i64(b, v);
}

static inline void rec_text_kv_x(struct out_buf *b, const char *k, uint64_t v)
{
	rec_text_key(b, k);
	rec_text_hex(b, v);
}

static inline void rec_text_kv_s(struct out_buf *b, const char *k, const char *s)
{
	rec_text_key(b, k);
	rec_text_str_n(b, s, SIZE_MAX);
}

#endif /* PERFCONV_REC_TEXT_H */
