/* SPDX-License-Identifier: MIT */
/*
 * decode.h - record decoding inside the core (not installed).
 *
 * The reader frames records (header, size, bounds) and finds their event;
 * the functions here turn the bytes of one framed record into the typed
 * struct pd_record.  Decoded arrays live in the decoder's scratch arena,
 * which is reset for every record and grows only when a record needs more
 * room than any before it: no allocation per record.
 */
#ifndef PD_LIB_DECODE_H
#define PD_LIB_DECODE_H

#include "internal.h"
#include "perfdata/pd_record.h"

struct pd_decoder {
	bool swap;		/* file byte order differs from the host's */
	uint8_t *scratch;	/* arena for decoded arrays */
	size_t cap;
	size_t used;
	bool nomem;		/* an arena allocation failed for this record */
};

void pd_decoder_init(struct pd_decoder *d, bool swap);
void pd_decoder_fini(struct pd_decoder *d);

/*
 * Forget the arrays of the previous record and make sure the arena can hold
 * the arrays of a record of raw_len bytes: every decoded array is bounded by
 * PD_SCRATCH_FACTOR times the record size plus PD_SCRATCH_SLACK (CPU lists
 * of CPU_MAP records are capped at 65536 entries to stay inside the slack).
 * Reserving up front means the arena never moves while a record is being
 * decoded, so pointers handed out for one record stay valid together.
 * Returns false when memory runs out.
 */
#define PD_SCRATCH_FACTOR 4
#define PD_SCRATCH_SLACK (320u * 1024)
#define PD_CPU_LIST_MAX 65536
bool pd_decoder_begin(struct pd_decoder *d, size_t raw_len);

/*
 * Room for n bytes, 8-byte aligned, valid until the next pd_decoder_begin().
 * Returns NULL (and sets nomem) when the reservation made by
 * pd_decoder_begin() is exhausted: decoders then report PD_NO_MEMORY.
 */
void *pd_scratch_alloc(struct pd_decoder *d, size_t n);

/*
 * Decode one framed record.  On entry rec->type, misc, size, offset, index,
 * from_compressed, inner_offset, swapped, raw and raw_len are set, and
 * rec->event / event_index name the record's event (NULL / -1 when none
 * was found).  `ev` is rec->event.
 *
 * Fills rec->u, rec->sid, rec->has_trailer and rec->decoded.  Problems are
 * reported through `sink` at absolute offsets: rec->offset plus the
 * position of the bad field, or rec->offset itself for records that came
 * out of compressed data.
 *
 * Returns 0 when decoded, PD_STATUS_MALFORMED (rec->decoded is false), or
 * PD_STATUS_NOMEM when memory ran out.
 */
int pd_record_decode(struct pd_decoder *d, struct pd_record *rec, const struct pd_event *ev,
		     struct pd_diag_sink *sink);

/*
 * Decode a PERF_RECORD_SAMPLE body (rec->raw + 8 .. rec->raw_len) with the
 * layout given by ev->attr.  Part of pd_record_decode(), exported for the
 * reader's tests.
 */
int pd_sample_decode(struct pd_decoder *d, struct pd_record *rec, const struct pd_event *ev,
		     struct pd_diag_sink *sink);

/*
 * pd_sample_fits_attr() with the decoding arena d, kept by the caller
 * across calls: a validator tries many layouts for each damaged sample.
 */
bool pd_sample_fits_attr_in(struct pd_decoder *d, const struct pd_record *rec,
			    const struct pd_attr *attr);

/*
 * Decode read_format values (READ records and PERF_SAMPLE_READ) from the
 * cursor.  Returns false and leaves *code set when they do not fit.
 */
bool pd_read_values_decode(struct pd_decoder *d, struct pd_cur *c, uint64_t read_format,
			   struct pd_read *out, enum pd_code *code);

/*
 * Parse a sample_id trailer of `ev` that ends at raw + len (perf parses it
 * backwards from the record end).  Returns false when it does not fit.
 */
bool pd_trailer_decode(const uint8_t *raw, size_t len, bool swap, const struct pd_event *ev,
		       struct pd_sample_id *sid);

/*
 * The header at the first 8 bytes of a record (pd_record_header_decode(),
 * and the reader for every record it frames): simpleperf's own types have
 * no misc and keep a 32-bit size across misc and size.
 */
static inline struct pd_record_header pd_rec_header(const uint8_t *p, bool swap)
{
	struct pd_record_header h;

	h.type = pd_ld32(p, swap);
	if (h.type >= PD_REC_SP_START) {
		h.misc = 0;
		h.size = ((uint32_t)pd_ld16(p + 4, swap) << 16) | pd_ld16(p + 6, swap);
	} else {
		h.misc = pd_ld16(p + 4, swap);
		h.size = pd_ld16(p + 6, swap);
	}
	return h;
}

/* Copy n u64 in file order to host order (a decoded array of the record). */
static inline void pd_copy_u64(uint64_t *dst, const uint8_t *src, size_t n, bool swap)
{
	size_t i;

	if (!swap) {
		memcpy(dst, src, n * 8);
		return;
	}
	for (i = 0; i < n; i++)
		dst[i] = pd_ld64(src + 8 * i, true);
}

/* Absolute offset to report for a field at byte `pos` of the record. */
static inline uint64_t pd_rec_off(const struct pd_record *rec, size_t pos)
{
	return rec->from_compressed ? rec->offset : rec->offset + pos;
}

#endif /* PD_LIB_DECODE_H */
