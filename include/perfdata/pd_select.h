/* SPDX-License-Identifier: MIT */
/*
 * pd_select.h - selecting samples by process, thread, command, CPU, time
 * and event, with perf's syntax and perf's rules.
 *
 * Usage:
 *	struct pd_select *s;
 *	const char *why;
 *
 *	pd_select_new(&s);
 *	if (pd_select_add(s, PD_SELECT_CPU, "0-3,7", &why) < 0)
 *		... usage error: why says what is wrong ...
 *	o.select = s;			// struct pd_reader_opts
 *	pd_reader_open(path, &o, &r);
 *	... pd_reader_next() delivers only the selected samples ...
 *	pd_reader_close(r);
 *	pd_select_free(s);		// after the readers that use it
 *
 * Only samples are selected.  Every other record (COMM, MMAP, FORK, ...)
 * is delivered as without a selection, as perf keeps them, so that the
 * selected samples resolve to the same threads, maps and symbols.  The
 * selections of different keys must all hold (perf's rule); a key given
 * twice adds to its list.
 */
#ifndef PERFDATA_PD_SELECT_H
#define PERFDATA_PD_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pd_select_key {
	PD_SELECT_PID,		/* "12,13": process ids (ranges "10-20" accepted) */
	PD_SELECT_TID,		/* thread ids, same syntax */
	PD_SELECT_COMM,		/* "bash,make": the thread's command name at the sample */
	PD_SELECT_CPU,		/* "0-3,7": samples taken on these CPUs */
	PD_SELECT_TIME,		/* perf script --time: "START,STOP", "A,B C,D", "10%/2", "0%-10%,30%-40%" */
	PD_SELECT_EVENT,	/* "cycles,instructions:u": event names, with or without modifiers */
	PD_SELECT_NR_KEYS,
};

struct pd_select;

/* Returns 0, or PD_STATUS_NOMEM (pd_reader.h). */
int pd_select_new(struct pd_select **out);
void pd_select_free(struct pd_select *s);

/*
 * Add a selection in the syntax perf takes on its command line.  Returns
 * 0, -1 with *why (a static string) saying what is wrong with `arg`, or
 * PD_STATUS_NOMEM (*why "out of memory").
 */
int pd_select_add(struct pd_select *s, enum pd_select_key key, const char *arg,
		  const char **why);

/*
 * --time ranges are relative to the first sample (perf script --reltime
 * --time): "0.5,1" is from half a second to one second after it.
 */
void pd_select_set_reltime(struct pd_select *s, bool reltime);

/* True when anything is selected (a reader with an empty selection pays nothing). */
bool pd_select_active(const struct pd_select *s);

/*
 * The arguments given for `key`, joined as perf would take them ("12,13",
 * "10%/2"), or NULL when the key is not selected.  For headers that say
 * which selection made an output.
 */
const char *pd_select_text(const struct pd_select *s, enum pd_select_key key);
bool pd_select_reltime(const struct pd_select *s);
/* "pid", "tid", "comm", "cpu", "time", "event" */
const char *pd_select_key_name(enum pd_select_key key);

/*
 * Does the event name (as pd_event.name gives it, "cycles:u") match the
 * event selection?  A name given without modifiers matches the event with
 * any modifiers ("cycles" matches "cycles:u" and "cycles:ppp").  True when
 * no event is selected.
 */
bool pd_select_event_matches(const struct pd_select *s, const char *name);

/*
 * Resolve --time against the recording's first and last sample times
 * (the SAMPLE_TIME feature): needed by percentages and by --reltime.
 * The reader does this by itself; exposed for tools and tests.  Returns
 * the number of ranges, or -1 with *why set.  ranges[2 * i] is a start,
 * ranges[2 * i + 1] a stop (0: open); at most `max` ranges are written.
 */
int pd_select_time_ranges(const struct pd_select *s, uint64_t first, uint64_t last,
			  uint64_t *ranges, size_t max, const char **why);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_PD_SELECT_H */
