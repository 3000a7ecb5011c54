/* SPDX-License-Identifier: MIT */
/*
 * proto_meta.h - the PerfDataProto fields that are not events: attrs,
 * event types, build ids, header features, metadata_mask.
 *
 * They are collected the way quipper collects them (attrs from the attrs
 * section or EVENT_DESC, pipe-mode HEADER_ATTR records with its duplicate
 * rule, build ids from the feature, pipe records and MMAP2 records) while
 * the records stream by, and written after the last event: field order on
 * the wire is free.
 */
#ifndef PERFCONV_PROTO_META_H
#define PERFCONV_PROTO_META_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "proto_wire.h"

struct pm_attr {
	struct pd_attr attr;
	uint32_t real_size;
	uint64_t *ids;
	size_t nr_ids;
	char *name;
};

struct pm_etype {
	uint64_t id;
	char *name;
};

struct pm_build_id {
	uint32_t misc;
	uint32_t pid;
	uint8_t hash[20];
	unsigned int hash_len;
	bool has_size;
	uint32_t size;
	char *filename;
	bool from_mmap2;
};

struct pm_state {
	bool ext;		/* write extensions (not --quipper-compat) */
	bool pipe;
	struct pm_attr *attrs;
	size_t nr_attrs, cap_attrs;
	struct pm_etype *etypes;
	size_t nr_etypes, cap_etypes;
	size_t nr_pipe_event_types;	/* HEADER_EVENT_TYPE records seen */
	uint64_t mask;			/* metadata_mask[0] */
	struct pm_build_id *bids;
	size_t nr_bids, cap_bids;
	uint8_t *tracing;		/* pipe mode HEADER_TRACING_DATA bytes */
	size_t tracing_len;
	bool nomem;
};

/* After pd_reader_open(): attrs, event types and build ids of a file-mode input. */
int pm_init(struct pm_state *st, struct pd_reader *r, bool ext);

/* Every record, in file order, before a writer decides to drop it. */
void pm_record(struct pm_state *st, struct pd_reader *r, const struct pd_record *rec);

/* Write every metadata field (and, with ext, the file header and raw features). */
void pm_encode(struct pm_state *st, struct pd_reader *r, struct pw_buf *b);

void pm_free(struct pm_state *st);

#endif /* PERFCONV_PROTO_META_H */
