/* SPDX-License-Identifier: MIT */
/*
 * diag_recorder.h - the diagnostics a test saw, kept for exact assertions
 * on code, offset, record index and record type.
 *
 * One recorder serves both ways the core reports: as the decoders' sink
 * (&r->sink, after diag_recorder_reset()) and as a reader's diag_fn
 * (diag_recorder_fn with diag_arg = the recorder), and the symbolizer's
 * diag_fn (pd_symbols.h) the same way.
 */
#ifndef PD_TESTS_DIAG_RECORDER_H
#define PD_TESTS_DIAG_RECORDER_H

#include <stdint.h>

#include "internal.h"
#include "perfdata/pd_diag.h"

#define DIAG_RECORDER_KEPT 64

struct diag_seen {
	enum pd_code code;
	enum pd_severity severity;
	uint64_t offset;
	int64_t record_index;
	uint32_t record_type;
	char detail[256];	/* cut to fit */
};

struct diag_recorder {
	struct pd_diag_sink sink;	/* for the decoders */
	unsigned int n;			/* every diagnostic seen, kept or not */
	struct diag_seen seen[DIAG_RECORDER_KEPT];
};

/* Forget everything seen and point the sink at the recorder. */
void diag_recorder_reset(struct diag_recorder *r);

/* A pd_diag_fn: arg is the recorder. */
void diag_recorder_fn(const struct pd_diag *d, void *arg);

/* Index of the first kept diagnostic with this code, or -1. */
int diag_recorder_find(const struct diag_recorder *r, enum pd_code code);

/* Exactly one diagnostic, with this code at this offset. */
#define ASSERT_ONE_DIAG(r, c, o)						\
	do {									\
		CU_ASSERT_EQUAL((r)->n, 1);					\
		if ((r)->n >= 1) {						\
			CU_ASSERT_EQUAL((r)->seen[0].code, (c));		\
			CU_ASSERT_EQUAL((r)->seen[0].offset, (uint64_t)(o));	\
		}								\
	} while (0)

#endif
