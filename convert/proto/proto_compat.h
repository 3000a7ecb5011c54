/* SPDX-License-Identifier: MIT */
/*
 * proto_compat.h - `to-proto --quipper-compat`: quipper's default
 * conversion, reproduced.
 *
 * quipper sorts every event by time, deduces huge-page mappings, merges
 * split mappings and runs an address-mapping pass for its `stats` before it
 * writes anything, so this mode keeps the converted events (encoded, plus
 * what those passes need) until the input ends.
 */
#ifndef PERFCONV_PROTO_COMPAT_H
#define PERFCONV_PROTO_COMPAT_H

#include "perfdata/perfdata.h"
#include "proto/proto_meta.h"
#include "proto_wire.h"

struct pq_state;

struct pq_state *pq_new(void);
void pq_free(struct pq_state *q);

/* One record in file order; returns -1 when out of memory. */
int pq_record(struct pq_state *q, const struct pd_record *rec, const struct pm_state *meta);

/*
 * Sort, deduce, combine, count, and write the events and the stats into b.
 * flush(b, arg) is called whenever b holds more than a few MiB; it must
 * empty b.  Returns -1 when out of memory.
 */
int pq_finish(struct pq_state *q, const struct pm_state *meta, struct pw_buf *b,
	      void (*flush)(struct pw_buf *b, void *arg), void *arg);

#endif /* PERFCONV_PROTO_COMPAT_H */
