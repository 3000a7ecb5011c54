/* SPDX-License-Identifier: MIT */
/*
 * select.h - the reader's side of a sample selection (lib/select.c).
 * Not installed.
 */
#ifndef PD_LIB_SELECT_H
#define PD_LIB_SELECT_H

#include <stdbool.h>

#include "perfdata/pd_feature.h"
#include "perfdata/pd_reader.h"
#include "perfdata/pd_record.h"
#include "perfdata/pd_select.h"

struct pd_sel_state;

/*
 * The event of a sample id and its index among the reader's events, or
 * NULL: how the selection sees the events of the values a sample read
 * (pd_members.h) without depending on the reader.
 */
typedef const struct pd_event *(*pd_sel_event_fn)(const void *ctx, uint64_t id, int *index);

struct pd_sel_state *pd_sel_state_new(const struct pd_select *s, pd_sel_event_fn event_by_id,
				      const void *ctx);
void pd_sel_state_free(struct pd_sel_state *st);
/* Resolve --time with the first/last sample times known now (done once). */
void pd_sel_resolve_time(struct pd_sel_state *st, const struct pd_features *f);
/* Why the selection cannot be applied to this recording, or NULL. */
const char *pd_sel_error(const struct pd_sel_state *st);
/*
 * --comm on a seekable input: the reader passes every COMM and FORK of
 * the file (in file order) before its first record, then calls
 * pd_sel_prescan_done(), so that a sample is judged by its thread's name
 * at the sample's time, as perf names it.
 */
bool pd_sel_wants_comm_prescan(const struct pd_sel_state *st);
void pd_sel_prescan_record(struct pd_sel_state *st, const struct pd_record *rec);
void pd_sel_prescan_done(struct pd_sel_state *st);
/* Deliver this record?  Sees every record, in delivery order. */
bool pd_sel_keep(struct pd_sel_state *st, const struct pd_record *rec,
		 const struct pd_features *f);

#endif /* PD_LIB_SELECT_H */
