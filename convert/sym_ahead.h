/* SPDX-License-Identifier: MIT */
/*
 * sym_ahead.h - frames of samples written in file order, resolved against
 * the machine state of the sample's time.
 */
#ifndef PERFCONV_SYM_AHEAD_H
#define PERFCONV_SYM_AHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "perfdata/pd_symbols.h"

/* What a written frame needs; strings point into the machine. */
struct ahead_frame {
	uint64_t ip;
	uint64_t addr;		/* inside the DSO, when has_map */
	uint64_t sym_off;
	const char *dso;	/* the name the DSO was mapped with */
	const char *sym;	/* NULL without a symbol */
	const struct pd_dso *d;	/* NULL without a map */
	bool has_map;
	bool unwound;		/* found by DWARF unwinding: has inline frames */
};

struct sym_ahead;

/*
 * Can `input` be read a second time, from the start?  A path to a file or
 * directory can; "-" only when standard input is a regular file.
 */
bool sym_ahead_rereadable(const char *input);

/*
 * Open a second, time-ordered reader of `input` that feeds `m` (which
 * must have taken the file's features already).  Its diagnostics are
 * only counted: the writer's own reader reports the same ones.  Returns
 * 0, or a negative enum pd_status (PD_STATUS_NOMEM: out of memory).
 */
int sym_ahead_open(const char *input, struct pd_machine *m, struct sym_ahead **out);
void sym_ahead_free(struct sym_ahead *a);

/*
 * Frames of `rec`, a sample of the writer's file-order reader of the same
 * input: the time-ordered reader runs on until it has passed that sample,
 * so the machine held every record older than it when it was resolved.
 * Samples must be asked for in file order (some may be left out).
 * *frames is valid until the next call.  Returns the number of frames, or
 * -1 when out of memory.
 */
long sym_ahead_frames(struct sym_ahead *a, const struct pd_record *rec,
		      const struct ahead_frame **frames);

#endif /* PERFCONV_SYM_AHEAD_H */
