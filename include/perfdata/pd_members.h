/* SPDX-License-Identifier: MIT */
/*
 * pd_members.h - the samples perf makes of one sample record.
 *
 * A sample with PERF_SAMPLE_READ (leader sampling, perf record -e
 * '{a,b}:S', reads every member of the group at each sample of the
 * leader) stands for one sample per read value whose counter moved since
 * the previous sample of the same id: a sample of that value's event,
 * with the increase as its period (perf's deliver_sample_value()).  Values
 * of ids no event owns are left out, as perf leaves them out.  Any other
 * sample is one sample of its own event and period.  Every output that
 * counts samples per event follows this, so that its counts are perf's.
 *
 * Usage:
 *	struct pd_members *mb;
 *	struct pd_member m;
 *	size_t pos = 0;
 *
 *	pd_members_new(r, select, &mb);
 *	... for each decoded sample rec of r, in delivery order:
 *	while (pd_members_next(mb, rec, &pos, &m) > 0)
 *		... one sample of m.event with period m.period ...
 *	pos = 0;
 *	pd_members_free(mb);
 */
#ifndef PERFDATA_PD_MEMBERS_H
#define PERFDATA_PD_MEMBERS_H

#include <stddef.h>
#include <stdint.h>

#include "perfdata/pd_reader.h"
#include "perfdata/pd_select.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pd_member {
	const struct pd_event *event;
	int event_index;	/* as pd_reader_event() numbers it */
	uint64_t id;		/* the value's id (the sample's own without READ) */
	uint64_t period;
};

struct pd_members;

/*
 * `sel` (may be NULL) leaves out the members of events it does not take;
 * their counters are followed all the same.  Returns 0, or
 * PD_STATUS_NOMEM.
 */
int pd_members_new(const struct pd_reader *r, const struct pd_select *sel,
		   struct pd_members **out);
void pd_members_free(struct pd_members *mb);

/*
 * The next sample perf makes of `rec`, starting from *pos = 0: returns 1
 * with *out filled, 0 when there is none left (call until then: the
 * counters move as the values are taken), or PD_STATUS_NOMEM.  A record
 * that is not a decoded sample with an event gives none.
 */
int pd_members_next(struct pd_members *mb, const struct pd_record *rec, size_t *pos,
		    struct pd_member *out);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_PD_MEMBERS_H */
