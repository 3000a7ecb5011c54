/* SPDX-License-Identifier: MIT */
/*
 * type_counts.h - the records of a run counted by type, with their bytes:
 * the one count behind info's record counts, the summary of to-json
 * --full and to-csv's stats table.  The driver counts every record it
 * delivers (d->types, driver.h).
 *
 * The kernel's and perf's types (below 128) and simpleperf's (from
 * PD_REC_SP_START) each have an array; any other type is kept in a list
 * sorted by type of at most TYPE_COUNTS_MAX_OTHER distinct types, beyond
 * which such records are counted together in `overflow`, so that a file
 * of made-up types cannot take unbounded memory.
 */
#ifndef PERFCONV_TYPE_COUNTS_H
#define PERFCONV_TYPE_COUNTS_H

#include <stddef.h>
#include <stdint.h>

#include "perfdata/pd_consts.h"

#define TYPE_COUNTS_MAX_OTHER 65536

struct type_count {
	uint32_t type;
	uint64_t records, bytes;
};

struct type_counts {
	struct type_count low[128];	/* kernel and perf tool types */
	struct type_count sp[128];	/* simpleperf types from PD_REC_SP_START */
	struct type_count *other;	/* sorted by type */
	size_t nr_other, cap_other;
	struct type_count overflow;	/* types beyond TYPE_COUNTS_MAX_OTHER */
};

/* Empty counts, each array slot named by its type. */
void type_counts_init(struct type_counts *tc);

/* The slot of a type outside both arrays, added when new; NULL: out of memory. */
struct type_count *type_counts_other(struct type_counts *tc, uint32_t type);

/*
 * Count a record of `type` and `size` bytes; 0, or -1 when out of memory.
 * Inline because the driver calls it for every record: a known type is
 * an array slot, named by type_counts_init(), and only other types take
 * the call.
 */
static inline int type_counts_add(struct type_counts *tc, uint32_t type, uint64_t size)
{
	struct type_count *n;

	if (type < 128)
		n = &tc->low[type];
	else if (type >= PD_REC_SP_START && type - PD_REC_SP_START < 128)
		n = &tc->sp[type - PD_REC_SP_START];
	else if (!(n = type_counts_other(tc, type)))
		return -1;
	n->records++;
	n->bytes += size;
	return 0;
}

/* Call fn for every type counted, in ascending type order (not overflow). */
void type_counts_each(const struct type_counts *tc,
		      void (*fn)(const struct type_count *n, void *arg), void *arg);

void type_counts_free(struct type_counts *tc);

#endif /* PERFCONV_TYPE_COUNTS_H */
