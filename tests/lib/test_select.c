// SPDX-License-Identifier: MIT
/*
 * test_select.c - the selection syntax (pd_select.h): lists, perf's time
 * ranges with their rounding, event names, and what is refused.  The
 * samples each selection takes are compared with perf script itself in
 * tests/lib/select.sh.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/perfdata.h"
#include "select.h"
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

static void side_band(struct pd_record *r, uint32_t type, uint64_t time, uint32_t tid,
		      uint32_t ptid, const char *comm)
{
	memset(r, 0, sizeof(*r));
	r->type = type;
	r->decoded = true;
	r->sid.present = PD_SAMPLE_TIME;
	r->sid.time = time;
	if (type == PD_REC_COMM) {
		r->u.comm.pid = tid;
		r->u.comm.tid = tid;
		r->u.comm.comm = comm;
	} else {
		r->u.fork.tid = tid;
		r->u.fork.ptid = ptid;
		r->u.fork.time = time;
	}
}

/*
 * Two ring buffers in file order: CPU 0's holds the exec'd process's
 * thread creation (time 300) and a sample of that thread (400); CPU 1's,
 * written after it, the process's fork (100) and exec COMM (200).  perf
 * replays them in time order: the thread inherits the exec name.
 */
static void test_comm_time_order(void)
{
	struct pd_record fork_thr, smp, fork_proc, comm_exec, comm_parent;
	const struct pd_record *file_order[] = {
		&comm_parent, &fork_thr, &smp, &fork_proc, &comm_exec,
	};
	struct pd_select *s = sel_of(PD_SELECT_COMM, "selexec", 0);
	struct pd_features f;
	int pass, i;

	memset(&f, 0, sizeof(f));
	side_band(&comm_parent, PD_REC_COMM, 50, 10, 0, "selwork");
	side_band(&fork_thr, PD_REC_FORK, 300, 12, 11, NULL);
	side_band(&fork_proc, PD_REC_FORK, 100, 11, 10, NULL);
	side_band(&comm_exec, PD_REC_COMM, 200, 11, 0, "selexec");
	memset(&smp, 0, sizeof(smp));
	smp.type = PD_REC_SAMPLE;
	smp.decoded = true;
	smp.u.sample.sample_type = PD_SAMPLE_TID | PD_SAMPLE_TIME;
	smp.u.sample.pid = 11;
	smp.u.sample.tid = 12;
	smp.u.sample.time = 400;
	for (pass = 0; pass < 2; pass++) {
		struct pd_sel_state *st = pd_sel_state_new(s, NULL, NULL);

		CU_ASSERT_PTR_NOT_NULL_FATAL(st);
		CU_ASSERT_TRUE(pd_sel_wants_comm_prescan(st));
		if (pass) {
			for (i = 0; i < 5; i++)
				if (file_order[i]->type != PD_REC_SAMPLE)
					pd_sel_prescan_record(st, file_order[i]);
			pd_sel_prescan_done(st);
		}
		for (i = 0; i < 5; i++) {
			bool keep = pd_sel_keep(st, file_order[i], &f);

			/*
			 * Side band is always kept; the sample when its thread is
			 * named as perf names it, which file order cannot know.
			 */
			CU_ASSERT_EQUAL(keep, file_order[i] != &smp || pass);
		}
		pd_sel_state_free(st);
	}
	pd_select_free(s);
}

int pd_test_register_select(void)
{
	CU_pSuite s = CU_add_suite("select", NULL, NULL);

	if (!s || !CU_add_test(s, "pid, cpu and comm lists", test_lists) ||
	    !CU_add_test(s, "--time in seconds, absolute and relative", test_time_absolute) ||
	    !CU_add_test(s, "--time in percent, perf's rounding", test_time_percent) ||
	    !CU_add_test(s, "event names with and without modifiers", test_events) ||
	    !CU_add_test(s, "the reader delivers the selected samples only", test_reader) ||
	    !CU_add_test(s, "--comm names threads in time order", test_comm_time_order))
		return -1;
	return 0;
}
