// SPDX-License-Identifier: MIT
/*
 * test_select.c - the selection syntax (pd_select.h): lists, perf's time
 * ranges with their rounding, event names, and what is refused.  The
 * samples each selection takes are compared with perf script itself in
 * tests/select.sh.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/perfdata.h"
#include "test_suites.h"

static struct pd_select *sel_of(enum pd_select_key key, const char *arg, int want)
{
	struct pd_select *s = NULL;
	const char *why = NULL;
	int ret;

	CU_ASSERT_FATAL(pd_select_new(&s) == 0);
	ret = pd_select_add(s, key, arg, &why);
	CU_ASSERT_EQUAL(ret, want);
	if (want < 0)
		CU_ASSERT_PTR_NOT_NULL(why);
	return s;
}

static void refused(enum pd_select_key key, const char *arg)
{
	struct pd_select *s = sel_of(key, arg, -1);

	/* a refused argument leaves nothing selected */
	CU_ASSERT_FALSE(pd_select_active(s));
	pd_select_free(s);
}

static void test_lists(void)
{
	struct pd_select *s = sel_of(PD_SELECT_CPU, "0-3,7", 0);
	const char *why;

	CU_ASSERT_TRUE(pd_select_active(s));
	CU_ASSERT_EQUAL(pd_select_add(s, PD_SELECT_CPU, "9", &why), 0);
	CU_ASSERT_STRING_EQUAL(pd_select_text(s, PD_SELECT_CPU), "0-3,7,9");
	CU_ASSERT_PTR_NULL(pd_select_text(s, PD_SELECT_PID));
	CU_ASSERT_EQUAL(pd_select_add(s, PD_SELECT_COMM, "bash,make", &why), 0);
	CU_ASSERT_STRING_EQUAL(pd_select_text(s, PD_SELECT_COMM), "bash,make");
	pd_select_free(s);

	refused(PD_SELECT_CPU, "3-1");
	refused(PD_SELECT_CPU, "1,,2");
	refused(PD_SELECT_CPU, "-1");
	refused(PD_SELECT_CPU, " 1");
	refused(PD_SELECT_PID, "4294967296");
	refused(PD_SELECT_PID, "12a");
	refused(PD_SELECT_PID, "");
	refused(PD_SELECT_COMM, "a,");
	refused(PD_SELECT_EVENT, ",cycles");
}

/* ranges of a --time argument against a recording from first to last */
static int ranges(const char *arg, bool reltime, uint64_t first, uint64_t last, uint64_t *r)
{
	struct pd_select *s = NULL;
	const char *why;
	int n;

	CU_ASSERT_FATAL(pd_select_new(&s) == 0);
	if (pd_select_add(s, PD_SELECT_TIME, arg, &why) < 0) {
		pd_select_free(s);
		return -2;
	}
	pd_select_set_reltime(s, reltime);
	n = pd_select_time_ranges(s, first, last, r, 16, &why);
	pd_select_free(s);
	return n;
}

static void test_time_absolute(void)
{
	uint64_t r[32];

	CU_ASSERT_EQUAL(ranges("1.5,2", false, 0, 0, r), 1);
	CU_ASSERT_EQUAL(r[0], 1500000000ULL);
	CU_ASSERT_EQUAL(r[1], 2000000000ULL);
	/* nine fraction digits at most; an empty side is no bound */
	CU_ASSERT_EQUAL(ranges("587.271346565,", false, 0, 0, r), 1);
	CU_ASSERT_EQUAL(r[0], 587271346565ULL);
	CU_ASSERT_EQUAL(r[1], 0);
	CU_ASSERT_EQUAL(ranges(",3.", false, 0, 0, r), 1);
	CU_ASSERT_EQUAL(r[0], 0);
	CU_ASSERT_EQUAL(r[1], 3000000000ULL);
	/* several ranges separated by spaces, in order */
	CU_ASSERT_EQUAL(ranges("1,2 3,4  5,", false, 0, 0, r), 3);
	CU_ASSERT_EQUAL(r[2], 3000000000ULL);
	CU_ASSERT_EQUAL(r[5], 0);
	/* relative to the first sample; an open end stays open */
	CU_ASSERT_EQUAL(ranges("0.5,1", true, 100, 5000000000ULL, r), 1);
	CU_ASSERT_EQUAL(r[0], 500000100ULL);
	CU_ASSERT_EQUAL(r[1], 1000000100ULL);
	CU_ASSERT_EQUAL(ranges("0.5,", true, 100, 5000000000ULL, r), 1);
	CU_ASSERT_EQUAL(r[1], 0);
	/* relative times need the recording's sample times */
	CU_ASSERT_EQUAL(ranges("0.5,1", true, 0, 0, r), -1);

	CU_ASSERT_EQUAL(ranges("1", false, 0, 0, r), -2);		/* no comma */
	CU_ASSERT_EQUAL(ranges("2,1", false, 0, 0, r), -2);		/* backwards */
	CU_ASSERT_EQUAL(ranges("1.1234567890,", false, 0, 0, r), -2);	/* ten digits */
	CU_ASSERT_EQUAL(ranges("1,3 2,4", false, 0, 0, r), -2);	/* overlap */
	CU_ASSERT_EQUAL(ranges("1, 3,4", false, 0, 0, r), -2);		/* open end first */
	CU_ASSERT_EQUAL(ranges("x,1", false, 0, 0, r), -2);
	CU_ASSERT_EQUAL(ranges("1,2,3", false, 0, 0, r), -2);
}

static void test_time_percent(void)
{
	uint64_t r[32];

	/* perf's rounding: a slice ends one nanosecond before the next */
	CU_ASSERT_EQUAL(ranges("10%/2", false, 1000, 2000, r), 1);
	CU_ASSERT_EQUAL(r[0], 1100);
	CU_ASSERT_EQUAL(r[1], 1199);
	/* ... except at the end of the recording */
	CU_ASSERT_EQUAL(ranges("50%/2", false, 1000, 2000, r), 1);
	CU_ASSERT_EQUAL(r[0], 1500);
	CU_ASSERT_EQUAL(r[1], 2000);
	CU_ASSERT_EQUAL(ranges("25%", false, 1000, 2000, r), 1);
	CU_ASSERT_EQUAL(r[0], 1000);
	CU_ASSERT_EQUAL(r[1], 1249);
	CU_ASSERT_EQUAL(ranges("0%-10%,30%-40%", false, 1000, 2000, r), 2);
	CU_ASSERT_EQUAL(r[0], 1000);
	CU_ASSERT_EQUAL(r[1], 1099);
	CU_ASSERT_EQUAL(r[2], 1300);
	CU_ASSERT_EQUAL(r[3], 1399);
	CU_ASSERT_EQUAL(ranges("10%/1,10%/3", false, 1000, 2000, r), 2);
	CU_ASSERT_EQUAL(r[2], 1200);
	CU_ASSERT_EQUAL(r[3], 1299);
	/* rounding to the nearest nanosecond */
	CU_ASSERT_EQUAL(ranges("33.3%/2", false, 0, 1001, r), 1);
	CU_ASSERT_EQUAL(r[0], 333);
	CU_ASSERT_EQUAL(r[1], 666);
	/* percentages need the recording's sample times */
	CU_ASSERT_EQUAL(ranges("10%", false, 0, 0, r), -1);

	CU_ASSERT_EQUAL(ranges("10%/0", false, 0, 0, r), -2);
	CU_ASSERT_EQUAL(ranges("60%/2", false, 0, 0, r), -2);		/* beyond 100% */
	CU_ASSERT_EQUAL(ranges("0%/1", false, 0, 0, r), -2);
	CU_ASSERT_EQUAL(ranges("10%x", false, 0, 0, r), -2);
	CU_ASSERT_EQUAL(ranges("10%-", false, 0, 0, r), -2);
	CU_ASSERT_EQUAL(ranges("-5%", false, 0, 0, r), -2);
}

static void test_events(void)
{
	struct pd_select *s = sel_of(PD_SELECT_EVENT, "cycles,sched:sched_switch", 0);

	CU_ASSERT_TRUE(pd_select_event_matches(s, "cycles"));
	CU_ASSERT_TRUE(pd_select_event_matches(s, "cycles:u"));
	CU_ASSERT_TRUE(pd_select_event_matches(s, "cycles:ppp"));
	CU_ASSERT_TRUE(pd_select_event_matches(s, "sched:sched_switch"));
	CU_ASSERT_FALSE(pd_select_event_matches(s, "cycles:x"));
	CU_ASSERT_FALSE(pd_select_event_matches(s, "cycles2"));
	CU_ASSERT_FALSE(pd_select_event_matches(s, "instructions"));
	CU_ASSERT_FALSE(pd_select_event_matches(s, "sched:sched_wakeup"));
	pd_select_free(s);

	/* a name with its modifiers matches only itself */
	s = sel_of(PD_SELECT_EVENT, "cycles:u", 0);
	CU_ASSERT_TRUE(pd_select_event_matches(s, "cycles:u"));
	CU_ASSERT_FALSE(pd_select_event_matches(s, "cycles"));
	CU_ASSERT_FALSE(pd_select_event_matches(s, "cycles:k"));
	pd_select_free(s);
	/* no event selected: every event */
	CU_ASSERT_TRUE(pd_select_event_matches(NULL, "anything"));
}

/* The reader on a corpus file: samples only, and every other record kept. */
static void test_reader(void)
{
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	const struct pd_record *rec;
	struct pd_select *s = NULL;
	struct pd_reader *r;
	uint64_t all[2] = { 0, 0 }, sel[2] = { 0, 0 };
	const char *why;
	int pass;

	CU_ASSERT_FATAL(pd_select_new(&s) == 0);
	CU_ASSERT_FATAL(pd_select_add(s, PD_SELECT_TIME, "50%/2", &why) == 0);
	for (pass = 0; pass < 2; pass++) {
		uint64_t *n = pass ? sel : all;

		o.select = pass ? s : NULL;
		o.time_order = true;
		if (pd_reader_open("corpus/basic.data", &o, &r) < 0) {
			CU_FAIL("corpus/basic.data cannot be opened");
			break;
		}
		CU_ASSERT_PTR_NULL(pd_reader_select_error(r));
		while (pd_reader_next(r, &rec) > 0)
			n[rec->type == PD_REC_SAMPLE]++;
		pd_reader_close(r);
	}
	/* perf script -i corpus/basic.data --time 50%/2 prints 32 of 73 */
	CU_ASSERT_EQUAL(all[1], 73);
	CU_ASSERT_EQUAL(sel[1], 32);
	CU_ASSERT_EQUAL(sel[0], all[0]);
	pd_select_free(s);
}

int pd_test_register_select(void)
{
	CU_pSuite s = CU_add_suite("select", NULL, NULL);

	if (!s || !CU_add_test(s, "pid, cpu and comm lists", test_lists) ||
	    !CU_add_test(s, "--time in seconds, absolute and relative", test_time_absolute) ||
	    !CU_add_test(s, "--time in percent, perf's rounding", test_time_percent) ||
	    !CU_add_test(s, "event names with and without modifiers", test_events) ||
	    !CU_add_test(s, "the reader delivers the selected samples only", test_reader))
		return -1;
	return 0;
}
