/* SPDX-License-Identifier: MIT */
/*
 * pprof_prof.h - the profile of `perfconv to-pprof`: samples aggregated
 * by stack while the input is read, written at the end as a gzip-compressed
 * perftools.profiles.Profile (schema/profile.proto) with libprotobuf-c.
 *
 * Memory grows with distinct locations, functions and mappings, never
 * with the number of samples: every sample adds one to an existing stack
 * or creates it; stacks beyond a fixed budget go to an unnamed temporary
 * file, and locations go to the output when first found (pprof_prof.c).
 *
 *	p = pp_new(machine, srcline, out);
 *	while (reading) {
 *		pd_machine_process(machine, rec);
 *		if (rec is a decoded sample with an event)
 *			pp_sample(p, rec);
 *	}
 *	pp_write(p, reader);
 *	pp_free(p);
 */
#ifndef PERFCONV_PPROF_PROF_H
#define PERFCONV_PPROF_PROF_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "perfdata/pd_symbols.h"
#include "../common/out_sink.h"

struct pp_prof;

/*
 * `srcline`: look up source lines and inline frames in debug info (the
 * machine must have been made with pd_sym_opts.srcline).  `out` receives
 * the compressed profile, deflated on a second thread; locations are
 * written to it while samples are still being added.  NULL when out of
 * memory.
 */
struct pp_prof *pp_new(struct pd_machine *m, bool srcline, struct out_sink *out);
void pp_free(struct pp_prof *p);

/*
 * Add one sample of event `ev` (index) with `period` made of the decoded
 * record `rec` (pd_members.h: a leader-sampling record makes one per
 * group member), after pd_machine_process() saw it: its stack is
 * resolved here and added up on a second thread.  Returns 0 or
 * PD_STATUS_NOMEM.
 */
int pp_sample(struct pp_prof *p, const struct pd_record *rec, int ev, uint64_t period);

/*
 * Finish the profile: events and comments come from the reader (its
 * events and header features).  Returns 0, PD_STATUS_NOMEM, or
 * PD_STATUS_IO (errno set) when the temporary file that takes the stacks
 * beyond the memory budget could not be written or read back (write
 * errors of the output stay in out->err).
 */
int pp_write(struct pp_prof *p, struct pd_reader *r);

#endif /* PERFCONV_PPROF_PROF_H */
