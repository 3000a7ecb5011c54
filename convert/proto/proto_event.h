/* SPDX-License-Identifier: MIT */
/*
 * proto_event.h - one perf.data record as a quipper PerfEvent message.
 */
#ifndef PERFCONV_PROTO_EVENT_H
#define PERFCONV_PROTO_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "proto_wire.h"

/* Field numbers of PerfDataProto used by more than one file. */
enum {
	PF_FILE_ATTRS = 1,
	PF_EVENTS = 2,
	PF_TIMESTAMP_SEC = 3,
	PF_STATS = 4,
	PF_METADATA_MASK = 5,
	PF_BUILD_IDS = 7,
};

/* An MMAP or MMAP2 record in the form quipper's mapping passes rewrite. */
struct pe_mmap {
	uint32_t type, misc, size;	/* header; size changes with a rename */
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	bool has_inode;			/* maj, min, ino, ino_generation set */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	bool has_prot;			/* MMAP2: prot and flags set */
	uint32_t prot, flags;
	const char *filename;
	uint64_t filename_md5;
	const char *root_path;		/* kept from the original name on a rename */
	uint64_t root_md5;
	char build_id[41];		/* lowercase hex, "" when none */
	bool has_build_id;
	bool has_trailer;
	struct pd_sample_id sid;
	uint64_t timestamp;
	uint64_t offset;
	bool from_compressed;
};

/*
 * Types quipper keeps as events (its other types, and the records it
 * cannot parse, never reach its output).
 */
bool pe_quipper_keeps(uint32_t type);

/*
 * The time quipper sorts by: the sample time of a SAMPLE, the sample_id
 * time of the records that carry a sample_info, else 0.
 */
uint64_t pe_timestamp(const struct pd_record *rec);

/*
 * Fill m from an MMAP/MMAP2 record.  Strings point into the record (and
 * into rootbuf, which needs strlen(filename) + 1 bytes).
 */
void pe_mmap_from_record(struct pe_mmap *m, const struct pd_record *rec, char *rootbuf,
			 size_t rootsize);

/* Encode the body of a PerfEvent holding the mmap (ext: with extensions). */
void pe_encode_mmap(struct pw_buf *b, const struct pe_mmap *m, bool ext);

/*
 * Encode the body of the PerfEvent for rec.  ext adds the extension fields
 * and the records quipper has no message for; without it (quipper-compat)
 * only quipper's fields are written, samples always get `ip`, and false
 * is returned (nothing written) for a type quipper drops.
 */
bool pe_encode_event(struct pw_buf *b, const struct pd_record *rec, bool ext);

#endif /* PERFCONV_PROTO_EVENT_H */
