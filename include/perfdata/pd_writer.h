/* SPDX-License-Identifier: MIT */
/*
 * pd_writer.h - write perf.data files (file mode) or streams (pipe mode)
 * in host byte order.
 *
 * File mode, the layout perf record uses:
 *	header (104) | ids | attrs | data records | feature table | payloads
 * The data section is streamed through one large buffer; features are
 * kept until pd_writer_commit(), which appends them after the data and
 * rewrites the header last.  Events added after the first data byte move
 * the ids and attrs behind the features (perf inject's layout).
 *
 * The writer writes to a descriptor the caller owns and never closes,
 * renames or removes it: where the bytes go (a temporary file renamed
 * over the target once complete, standard output, a pipe) is the
 * caller's choice.  The commands write through common/out_sink.c.
 *
 *	struct pd_writer_opts o = PD_WRITER_OPTS_INIT;
 *	struct pd_writer *w;
 *	int fd = mkstemp(tmp);
 *
 *	if (pd_writer_open_fd(fd, "out.data", &o, &w) < 0)
 *		... a diagnostic said why ...
 *	pd_writer_add_event(w, &attr, 128, ids, nr_ids);
 *	pd_writer_write_record(w, raw, raw_len);	// as often as needed
 *	pd_writer_set_feature(w, PD_FEAT_HOSTNAME, payload, len);
 *	ret = pd_writer_commit(w);			// frees w
 *	close(fd);	// then, if ret is 0, rename(tmp, "out.data")
 *
 * Pipe mode writes what perf record -o - writes, as it is given:
 * HEADER_ATTR for each event, HEADER_FEATURE for each feature, the
 * end-of-features marker, HEADER_TRACING_DATA + blob for TRACING_DATA,
 * HEADER_BUILD_ID records for BUILD_ID, then the data records.  The output
 * may be a pipe.
 *
 * Functions return 0 or a negative enum pd_status (pd_reader.h); after a
 * failure every further call fails too and only commit (which then aborts)
 * or abort remain useful.  The writer never prints: problems go to the
 * diagnostic callback.
 */
#ifndef PERFDATA_PD_WRITER_H
#define PERFDATA_PD_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/pd_attr.h"
#include "perfdata/pd_diag.h"
#include "perfdata/pd_feature.h"
#include "perfdata/pd_record.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Write all of buf[0..len) to fd, retrying after EINTR and short writes
 * (a pipe's capacity, a signal).  Returns 0, or -1 with errno set (EIO
 * when write(2) writes nothing).  The writer's own output goes through
 * it; it is public so that a program writing other formats next to
 * perf.data needs no loop of its own.
 */
int pd_write_all(int fd, const void *buf, size_t len);

enum pd_writer_mode {
	PD_WRITER_FILE = 0,
	PD_WRITER_PIPE = 1,
};

struct pd_writer_opts {
	enum pd_writer_mode mode;
	pd_diag_fn diag_fn;	/* NULL: diagnostics are only counted */
	void *diag_arg;
	size_t buffer_size;	/* output buffer (0: 8 MiB) */
	bool fsync;		/* fsync the descriptor on commit */
	/*
	 * Bytes of each attr in the attrs section or HEADER_ATTR record.
	 * 0: pipe mode keeps each event's size; file mode uses the largest
	 * size given to pd_writer_add_event(), except that sizes above 128
	 * shrink to the smallest one (not below 128) holding every non-zero
	 * field: perf refuses attrs larger than its own struct.
	 */
	uint32_t attr_size;
};

#define PD_WRITER_OPTS_INIT { 0 }

struct pd_writer;

/*
 * Start writing to `fd`, an open descriptor the caller keeps (name is
 * used in diagnostics).  File mode needs a seekable regular file at
 * offset 0, not opened with O_APPEND (PD_OUTPUT_NOT_SEEKABLE otherwise);
 * pipe mode writes anything.  Returns 0 and sets *out, or a negative
 * enum pd_status.
 */
int pd_writer_open_fd(int fd, const char *name, const struct pd_writer_opts *opts,
		      struct pd_writer **out);

/*
 * Add an event: its attr (host order, as decoded by the reader),
 * attr_size the size of the attr as recorded (0: 64), and its sample ids.
 * Copies everything.
 */
int pd_writer_add_event(struct pd_writer *w, const struct pd_attr *attr, uint32_t attr_size,
			const uint64_t *ids, size_t nr_ids);

/*
 * Set a feature's payload (host order, the file-mode section bytes),
 * replacing an earlier one.  Pipe mode emits it at once (TRACING_DATA as
 * a HEADER_TRACING_DATA record and its blob, BUILD_ID as one
 * HEADER_BUILD_ID record per entry).  A payload too large for a pipe
 * record is dropped with PD_TOO_LARGE_FOR_PIPE (return 1).
 */
int pd_writer_set_feature(struct pd_writer *w, unsigned int id, const void *payload, size_t len);

/* Append bytes to a feature's payload (file mode; pipe mode: as set). */
int pd_writer_append_feature(struct pd_writer *w, unsigned int id, const void *payload,
			     size_t len);

/* Forget a feature (file mode). */
void pd_writer_clear_feature(struct pd_writer *w, unsigned int id);

bool pd_writer_has_feature(const struct pd_writer *w, unsigned int id);

/*
 * The current payload of a feature (file mode), or NULL; valid until the
 * feature is changed.  Lets callers patch a value they set.
 */
const uint8_t *pd_writer_feature(const struct pd_writer *w, unsigned int id, size_t *len);

/*
 * Set a feature from a payload as read from an input of either byte
 * order: `swapped` payloads are converted to host order first (`f`, the
 * input's decoded features, supplies counts some layouts need, e.g.
 * NRCPUS for CPU_TOPOLOGY; it may be NULL).  Payloads that cannot be
 * converted (BPF_PROG_INFO, BPF_BTF, unknown ids) are dropped with
 * PD_FEAT_NOT_CONVERTIBLE: returns 1.
 */
int pd_writer_set_feature_from(struct pd_writer *w, unsigned int id, const uint8_t *payload,
			       size_t len, bool swapped, const struct pd_features *f);

/*
 * Set a feature from a HEADER_FEATURE record of a pipe-mode input: as
 * pd_writer_set_feature_from(), without the zero padding perf 6.12 and
 * later add to these records.  The end marker is skipped (returns 1).
 */
int pd_writer_set_feature_from_record(struct pd_writer *w, const struct pd_record *rec,
				      const struct pd_features *f);

/*
 * Pipe mode: write the end-of-features marker (a HEADER_FEATURE record
 * without payload) with feat_id `last_feature`, the writer's
 * HEADER_LAST_FEATURE (0: 32, what perf 5.13 to 6.15 write).  Written
 * automatically before the first data record if not called.
 */
int pd_writer_end_features(struct pd_writer *w, unsigned int last_feature);

/*
 * Write raw bytes of the data section: one record in host order
 * (header.size must equal len), or the bytes that follow one outside
 * header.size (AUX data, tracing data in pipe mode).
 */
int pd_writer_write_record(struct pd_writer *w, const void *raw, size_t len);
int pd_writer_write_bytes(struct pd_writer *w, const void *p, size_t len);

/*
 * Copy a record delivered by pd_reader_next() into the data section,
 * followed by the bytes it carries outside header.size (AUXTRACE data).
 * Records of an input of the opposite byte order are converted (fields
 * per the record's event; layouts it does not know keep a converted
 * header, PD_REC_NOT_CONVERTIBLE).  Compressed containers: a host-order
 * container is copied verbatim and the records the reader delivers from
 * inside it are skipped; for a swapped input the inner records are
 * converted and recompressed into new containers of the same type (one
 * zstd stream for the whole output).  Returns 0 when written or folded
 * into a container, 1 when skipped, or a negative enum pd_status.
 */
int pd_writer_copy_record(struct pd_writer *w, const struct pd_record *rec);

/*
 * Copy `len` bytes at `off` of another (regular, host-order) file into
 * the data section, in the kernel when possible: the fast path for runs
 * of records copied unchanged from a seekable input.
 */
int pd_writer_copy_file_range(struct pd_writer *w, int fd, uint64_t off, uint64_t len);

/*
 * The host-order bytes of a reader record (rec->raw itself when not
 * swapped, else a converted copy valid until the next call on w).
 * Returns 0, 1 when only partly converted, or a negative enum pd_status.
 */
int pd_writer_record_to_host(struct pd_writer *w, const struct pd_record *rec,
			     const uint8_t **out);

/* Offset the next data byte will have in the output (file mode: absolute). */
uint64_t pd_writer_offset(const struct pd_writer *w);
/* Bytes of the data section written so far. */
uint64_t pd_writer_data_size(const struct pd_writer *w);
/* Compressed containers written by recompression (0 unless a swapped input was compressed). */
uint64_t pd_writer_recompressed(const struct pd_writer *w);
uint64_t pd_writer_diag_count(const struct pd_writer *w, enum pd_severity sev);

/*
 * Finish: file mode writes the features and the attrs where they go,
 * rewrites the header and cuts the file there; optionally fsyncs.  Frees
 * w whatever the result (after a failure as pd_writer_abort()).  Returns
 * 0 or a negative enum pd_status.
 */
int pd_writer_commit(struct pd_writer *w);

/* Give up: file mode truncates the file to nothing; frees w. */
void pd_writer_abort(struct pd_writer *w);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_PD_WRITER_H */
