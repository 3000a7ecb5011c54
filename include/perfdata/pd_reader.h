/* SPDX-License-Identifier: MIT */
/*
 * pd_reader.h - the streaming perf.data reader.
 *
 * Usage:
 *	struct pd_reader_opts o = PD_READER_OPTS_INIT;
 *	struct pd_reader *r;
 *	const struct pd_record *rec;
 *	int ret;
 *
 *	o.diag_fn = print_diag;
 *	ret = pd_reader_open(path, &o, &r);	// path "-" reads standard input
 *	if (ret < 0)
 *		... open failed: ret is a pd_status, a diagnostic said why ...
 *	while ((ret = pd_reader_next(r, &rec)) > 0)
 *		... use rec until the next call ...
 *	pd_reader_close(r);
 *
 * Header, attrs and (in file mode) features are read by pd_reader_open();
 * in pipe mode they arrive as records and the reader's view of them grows
 * while records are read.  Memory stays bounded whatever the input size.
 */
#ifndef PERFDATA_PD_READER_H
#define PERFDATA_PD_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/pd_attr.h"
#include "perfdata/pd_diag.h"
#include "perfdata/pd_feature.h"
#include "perfdata/pd_record.h"
#include "perfdata/pd_select.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Negative results of the reader's functions: enum pd_status (pd_consts.h). */

enum pd_mode {
	PD_MODE_FILE = 0,
	PD_MODE_PIPE = 1,
	PD_MODE_DIR = 2,
};

struct pd_section {
	uint64_t offset;
	uint64_t size;
};

/* What the reader learnt from the file or pipe header. */
struct pd_header {
	enum pd_mode mode;
	bool swapped;		/* written on a host of the opposite byte order */
	bool big_endian;	/* byte order of the file */
	uint64_t magic;		/* as read, host order */
	uint64_t header_size;	/* 104, 72 or 16 */
	uint64_t attr_size;	/* file mode; the attrs' own when the header's is wrong (PD021) */
	struct pd_section attrs;
	/*
	 * As the header says, except when data.size is 0 or does not end
	 * where the records do while a feature table follows them (PD008,
	 * PD020): then where the records really end.
	 */
	struct pd_section data;
	struct pd_section event_types;
	uint64_t features[4];	/* feature bitmap (after the byte-order fix) */
	bool has_feature_bitmap;	/* false for 72-byte headers and pipe mode */
	uint64_t file_size;	/* size of the main file, 0 for a stream */
	bool spooled;		/* a non-seekable file-mode input was copied to a temporary file */
	uint32_t nr_streams;	/* directory mode: 1 + number of data.N files */
	/*
	 * File mode: where the feature table was expected and each feature's
	 * section as the table gave it (size 0 and offset 0 for bits not set,
	 * and for all bits when the table was not readable).
	 */
	uint64_t feat_table_offset;
	uint32_t feat_table_entries;
	struct pd_section feat_sections[256];
};

struct pd_reader_opts {
	pd_diag_fn diag_fn;	/* NULL: diagnostics are only counted */
	void *diag_arg;
	bool time_order;	/* deliver records in time order (FINISHED_ROUND rule) */
	bool skip_compressed;	/* do not deliver COMPRESSED containers themselves */
	size_t window_size;	/* bytes read at a time (0: default 1 MiB) */
	size_t order_queue_max;	/* time-order queue limit in bytes (0: 20 MiB) */
	uint64_t max_decompressed;	/* per compressed record (0: 256 MiB) */
	uint64_t max_ids;	/* sample ids over all attrs (0: 4 Mi) */
	/*
	 * Decode only the fixed slots of samples (identifier, ip, pid/tid,
	 * time, addr, id, stream_id, cpu, period): for tools that copy
	 * records and need no more, such as format converters.  Such samples
	 * have pd_record.partial set; their variable fields are empty and
	 * their size is not checked against them.
	 */
	bool sample_fixed_only;
	/*
	 * Deliver only the samples this selection takes (pd_select.h); every
	 * other record is still delivered.  NULL or an empty selection costs
	 * nothing.  Must outlive the reader.
	 */
	const struct pd_select *select;
};

#define PD_READER_OPTS_INIT { 0 }

struct pd_reader;

/*
 * Open a perf.data file, a directory (perf record --threads) or, for
 * path "-", standard input.  Reads and checks the header, the attrs and
 * the features (file mode) or the pipe header (pipe mode).
 * Returns 0 and sets *out, or a negative enum pd_status (with *out NULL);
 * a diagnostic has described the problem.
 */
int pd_reader_open(const char *path, const struct pd_reader_opts *opts, struct pd_reader **out);

/* Same for an open descriptor (not closed by the reader); name is used in messages. */
int pd_reader_open_fd(int fd, const char *name, const struct pd_reader_opts *opts,
		      struct pd_reader **out);

/*
 * Next record.  Returns 1 and sets *rec (valid until the next call), 0 at
 * the end of the input, or a negative enum pd_status when reading cannot
 * continue (a fatal diagnostic said why; records before it were delivered).
 */
int pd_reader_next(struct pd_reader *r, const struct pd_record **rec);

void pd_reader_close(struct pd_reader *r);

/*
 * pd_sample_fits_attr() on a record of this reader, in a decoding arena the
 * reader keeps for it (allocated once, freed by pd_reader_close()): the
 * record's own decoded fields are left as they are.
 */
bool pd_reader_sample_fits_attr(struct pd_reader *r, const struct pd_record *rec,
				const struct pd_attr *attr);

const struct pd_header *pd_reader_header(const struct pd_reader *r);
size_t pd_reader_nr_events(const struct pd_reader *r);
const struct pd_event *pd_reader_event(const struct pd_reader *r, size_t i);
/* The event that owns a sample id, or NULL. */
const struct pd_event *pd_reader_event_by_id(const struct pd_reader *r, uint64_t id);
const struct pd_features *pd_reader_features(const struct pd_reader *r);
/*
 * The section map of a file-mode input: every region the file's header,
 * attrs and feature table describe, as the reader placed them (after its
 * repairs: PD020, PD021, PD022), each with where in the file its offset
 * and size are stated.  Empty, overlapping and out-of-file regions are
 * listed as they are; checking them is the caller's business.
 */
enum pd_section_kind {
	PD_SECT_ATTRS,
	PD_SECT_DATA,
	PD_SECT_EVENT_TYPES,
	PD_SECT_ATTR_IDS,	/* one attr's id array; index: the attr */
	PD_SECT_FEATURE_TABLE,
	PD_SECT_FEATURE,	/* one feature's section; index: its bit */
};

struct pd_section_info {
	enum pd_section_kind kind;
	int index;		/* attr number or feature bit, -1 for the others */
	uint64_t offset;
	uint64_t size;
	uint64_t field_offset;	/* file offset of the (offset, size) pair that states it */
};

/*
 * Fill out[] with up to max sections, in the order header sections, attr
 * id arrays, feature table, features by bit.  Returns the number of
 * sections the input has (0 for pipes and directories' data streams):
 * call with max 0 to size the array.
 */
size_t pd_reader_sections(const struct pd_reader *r, struct pd_section_info *out, size_t max);
/*
 * The obsolete event_types section of file-mode inputs (id and name per
 * entry, as perf before 2.6.38 wrote it): the number of entries, with
 * *out pointing at them (owned by the reader).  0 when the section is
 * empty, outside the file or the input is a stream.
 */
struct pd_event_type {
	uint64_t id;
	char name[65];		/* NUL-terminated */
};

size_t pd_reader_event_types(const struct pd_reader *r, const struct pd_event_type **out);

/*
 * Read len bytes of a file-mode input at a file offset, as stored (for
 * checks of the file's layout, such as bytes between its sections).
 * Returns 0, PD_STATUS_MALFORMED for a range outside the file or an input
 * that is not a file, or PD_STATUS_IO.
 */
int pd_reader_read_at(const struct pd_reader *r, uint64_t offset, void *buf, size_t len);

/* Diagnostics reported so far with the given severity / code. */
uint64_t pd_reader_diag_count(const struct pd_reader *r, enum pd_severity sev);
uint64_t pd_reader_code_count(const struct pd_reader *r, enum pd_code code);
/*
 * Why the reader's selection cannot be applied to this input (--time in
 * percent without the recording's sample times), or NULL.  Known after
 * pd_reader_open() in file mode, after the first sample in pipe mode;
 * such a selection takes no sample.
 */
const char *pd_reader_select_error(const struct pd_reader *r);
/* Bytes consumed from the input so far (all streams), for progress and speed figures. */
uint64_t pd_reader_bytes_read(const struct pd_reader *r);

/* Library version string, e.g. "0.1.0". */
const char *pd_version(void);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_PD_READER_H */
