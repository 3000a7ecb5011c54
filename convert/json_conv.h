/* SPDX-License-Identifier: MIT */
/*
 * json_conv.h - state shared by perfconv to-json and its two writers:
 * the perf-compatible document (json_perf.c) and the lossless one
 * (json_full.c).
 */
#ifndef PERFCONV_JSON_CONV_H
#define PERFCONV_JSON_CONV_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "perfdata/perfdata.h"
#include "perfdata/pd_symbols.h"

#include "cli.h"
#include "json_emit.h"
#include "json_tep.h"
#include "sym_ahead.h"

/* Version of schema/perf-data-full.schema.json that --full output follows. */
#define JSON_FULL_SCHEMA_VERSION 1
#define JSON_FULL_SCHEMA_ID "https://perfconv.invalid/schema/perf-data-full/1"

#define PERF_TYPE_TRACEPOINT_ID 2	/* enum perf_type_id */

struct jconv {
	struct pd_reader *r;
	struct je *je;
	struct cli_diag *cd;
	const char *input;		/* as given: path or "-" */
	const struct pd_select *sel;	/* samples selected, NULL for all */
	bool have_mtime;
	time_t mtime;			/* of the input, for "captured-on" */

	struct pd_machine *m;		/* NULL without symbolization */
	/* --full --symbols in file order: frames resolved in time order */
	struct sym_ahead *ahead;
	bool trace_fields;		/* tracepoint fields by name */
	bool jsonl;			/* --full: one object per line */
	bool strict;			/* stop at the first problem */
	bool stop;			/* set by the diagnostic hook in strict mode */

	/* tracing data: parsed on first need */
	struct jtep *tep;
	bool tep_tried;
	uint8_t *pipe_tracing;		/* copy of a pipe-mode HEADER_TRACING_DATA blob */
	size_t pipe_tracing_len;

	/* counters for the summary and the progress line */
	uint64_t records, samples;

	/* called every few thousand records (progress bar), may be NULL */
	void (*tick)(struct jconv *c);
};

/*
 * json_perf.c, json_full.c: 0, or a negative enum pd_status: the reader's, or
 * PD_STATUS_NOMEM when the writer ran out of memory.
 */
int json_perf_write(struct jconv *c);
int json_full_write(struct jconv *c);

/* json_trace.c: tracepoint formats of the input (file feature or pipe record), NULL if none. */
struct jtep *jconv_tep(struct jconv *c);
/* Keep a copy of a pipe-mode tracing-data blob (record HEADER_TRACING_DATA). */
void jconv_take_tracing(struct jconv *c, const struct pd_record *rec);
/* Free the formats and the blob. */
void jconv_trace_free(struct jconv *c);

#endif /* PERFCONV_JSON_CONV_H */
