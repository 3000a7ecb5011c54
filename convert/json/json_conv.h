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
#include "driver.h"
#include "json/json_emit.h"
#include "json/json_tep.h"
#include "sym_ahead.h"

/* Version of schema/perf-data-full.schema.json that --full output follows. */
#define JSON_FULL_SCHEMA_VERSION 1

#define PERF_TYPE_TRACEPOINT_ID 2	/* enum perf_type_id */

struct jconv {
	struct pd_reader *r;		/* the driver's, from begin on */
	struct je *je;
	const char *input;		/* as given: path or "-" */
	const struct pd_select *sel;	/* samples selected, NULL for all */
	bool have_mtime;
	time_t mtime;			/* of the input, for "captured-on" */

	struct pd_machine *m;		/* the driver's; NULL without symbolization */
	/* --full --symbols in file order: frames resolved in time order */
	struct sym_ahead *ahead;
	bool trace_fields;		/* tracepoint fields by name */
	bool jsonl;			/* --full: one object per line */

	/* tracing data: parsed on first need */
	struct jtep *tep;
	bool tep_tried;
	uint8_t *pipe_tracing;		/* copy of a pipe-mode HEADER_TRACING_DATA blob */
	size_t pipe_tracing_len;

	/* the state of the writer at work */
	struct perf_ctx *perf;
	struct full_ctx *full;
};

/*
 * The two documents as writer ops of the read driver, on a struct jconv
 * whose output is open: perf's (json_perf.c) and the lossless one
 * (json_full.c).  cmd_to_json.c opens the output and calls them.
 */
extern const struct writer_ops json_perf_ops;
extern const struct writer_ops json_full_ops;

/* json_trace.c: tracepoint formats of the input (file feature or pipe record), NULL if none. */
struct jtep *jconv_tep(struct jconv *c);
/* Keep a copy of a pipe-mode tracing-data blob (record HEADER_TRACING_DATA). */
void jconv_take_tracing(struct jconv *c, const struct pd_record *rec);
/* Free the formats and the blob. */
void jconv_trace_free(struct jconv *c);

#endif /* PERFCONV_JSON_CONV_H */
