// SPDX-License-Identifier: MIT
/*
 * select.c - sample selection by pid, tid, command, CPU, time and event.
 *
 * The selection (struct pd_select) is what the user asked for, parsed
 * once.  The reader owns a struct pd_sel_state per input: the time ranges
 * resolved against the recording, which events match, and the command
 * name of every thread (from COMM and FORK records, as perf's thread
 * table has them) for --comm.  The reader asks pd_sel_keep() about every
 * record it is about to deliver; without a selection it never does.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/pd_reader.h"
#include "perfdata/pd_select.h"
#include "internal.h"
#include "select.h"

/* Caps on what a command line can ask for: nobody lists more. */
#define SEL_MAX_ITEMS 4096
#define SEL_MAX_RANGES 256
#define SEL_MAX_ARG 65536
/* threads whose command names are followed for --comm */
#define SEL_MAX_THREADS (1u << 22)
/*
 * COMM and FORK records kept by the --comm prescan (56 bytes each); a
 * recording with more falls back to following names in delivery order.
 */
#define SEL_MAX_COMM_EVENTS (1u << 21)

#define NSEC_PER_SEC 1000000000ULL

struct sel_range {
	uint64_t lo, hi;
};

struct sel_ids {
	struct sel_range *v;
	size_t n;
};

struct sel_strs {
	char **v;
	size_t n;
};

struct pd_select {
	struct sel_ids pids, tids, cpus;
	struct sel_strs comms, events;
	char *time;		/* the --time argument (the last one given) */
	bool reltime;
	char *text[PD_SELECT_NR_KEYS];
};

static const char *const key_names[PD_SELECT_NR_KEYS] = {
	[PD_SELECT_PID] = "pid",
	[PD_SELECT_TID] = "tid",
	[PD_SELECT_COMM] = "comm",
	[PD_SELECT_CPU] = "cpu",
	[PD_SELECT_TIME] = "time",
	[PD_SELECT_EVENT] = "event",
};

const char *pd_select_key_name(enum pd_select_key key)
{
	return (unsigned int)key < PD_SELECT_NR_KEYS ? key_names[key] : NULL;
}

int pd_select_new(struct pd_select **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : PD_STATUS_NOMEM;
}

static void strs_free(struct sel_strs *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

void pd_select_free(struct pd_select *s)
{
	unsigned int k;

	if (!s)
		return;
	free(s->pids.v);
	free(s->tids.v);
	free(s->cpus.v);
	strs_free(&s->comms);
	strs_free(&s->events);
	free(s->time);
	for (k = 0; k < PD_SELECT_NR_KEYS; k++)
		free(s->text[k]);
	free(s);
}

bool pd_select_active(const struct pd_select *s)
{
	unsigned int k;

	if (!s)
		return false;
	for (k = 0; k < PD_SELECT_NR_KEYS; k++)
		if (s->text[k])
			return true;
	return false;
}

const char *pd_select_text(const struct pd_select *s, enum pd_select_key key)
{
	return s && (unsigned int)key < PD_SELECT_NR_KEYS ? s->text[key] : NULL;
}

void pd_select_set_reltime(struct pd_select *s, bool reltime)
{
	s->reltime = reltime;
}

bool pd_select_reltime(const struct pd_select *s)
{
	return s && s->reltime;
}

/* ---- parsing ---- */

/* A decimal number with nothing else: strtoull alone takes "-1" and " 7". */
static bool parse_u64(const char *p, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!len || len > 20)
		return false;
	for (i = 0; i < len; i++) {
		unsigned int d;

		if (!isdigit((unsigned char)p[i]))
			return false;
		d = (unsigned int)(p[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* "0-3,7,12": what perf takes for --cpu (and, without ranges, --pid/--tid). */
static int add_ids(struct sel_ids *l, const char *arg, uint64_t max, const char **why)
{
	const char *p = arg;

	for (;;) {
		size_t len = strcspn(p, ",");
		size_t dash = strcspn(p, "-");
		struct sel_range r;
		struct sel_range *nv;

		if (dash < len) {
			if (!parse_u64(p, dash, &r.lo) || !parse_u64(p + dash + 1, len - dash - 1, &r.hi)) {
				*why = "expected a list of numbers and ranges such as 0-3,7";
				return -1;
			}
		} else if (parse_u64(p, len, &r.lo)) {
			r.hi = r.lo;
		} else {
			*why = "expected a list of numbers and ranges such as 0-3,7";
			return -1;
		}
		if (r.hi < r.lo) {
			*why = "a range ends before it starts";
			return -1;
		}
		if (r.hi > max) {
			*why = "a number is out of range";
			return -1;
		}
		if (l->n >= SEL_MAX_ITEMS) {
			*why = "too many items (4096 at most)";
			return -1;
		}
		nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
		if (!nv) {
			*why = "out of memory";
			return PD_STATUS_NOMEM;
		}
		l->v = nv;
		l->v[l->n++] = r;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static bool ids_have(const struct sel_ids *l, uint64_t v)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (v >= l->v[i].lo && v <= l->v[i].hi)
			return true;
	return false;
}

/* "a,b,c": names; an empty name never matches anything, so it is refused. */
static int add_strs(struct sel_strs *l, const char *arg, const char **why)
{
	const char *p = arg;

	for (;;) {
		size_t len = strcspn(p, ",");
		char **nv;

		if (!len) {
			*why = "an empty name in the list";
			return -1;
		}
		if (l->n >= SEL_MAX_ITEMS) {
			*why = "too many items (4096 at most)";
			return -1;
		}
		nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
		if (!nv) {
			*why = "out of memory";
			return PD_STATUS_NOMEM;
		}
		l->v = nv;
		l->v[l->n] = strndup(p, len);
		if (!l->v[l->n]) {
			*why = "out of memory";
			return PD_STATUS_NOMEM;
		}
		l->n++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/*
 * perf's seconds: "SEC" or "SEC.FRACTION" with at most nine fraction
 * digits ("1.5" is 1.500000000 s).  An empty string is no bound (0).
 */
static bool parse_sec(const char *p, size_t len, uint64_t *ns)
{
	size_t dot = 0;
	uint64_t sec, frac = 0;
	size_t i, nfrac;

	while (dot < len && p[dot] != '.')
		dot++;
	if (!parse_u64(p, dot, &sec) || sec > UINT64_MAX / NSEC_PER_SEC)
		return false;
	if (dot < len) {
		nfrac = len - dot - 1;
		if (nfrac > 9)
			return false;
		for (i = 0; i < nfrac; i++) {
			if (!isdigit((unsigned char)p[dot + 1 + i]))
				return false;
			frac = frac * 10 + (uint64_t)(p[dot + 1 + i] - '0');
		}
		for (; i < 9; i++)
			frac *= 10;
	}
	if (sec * NSEC_PER_SEC > UINT64_MAX - frac)
		return false;
	*ns = sec * NSEC_PER_SEC + frac;
	return true;
}

/* "START,STOP" with either side empty. */
static bool parse_one_range(const char *p, size_t len, uint64_t *lo, uint64_t *hi)
{
	size_t comma = 0;

	while (comma < len && p[comma] != ',')
		comma++;
	if (comma == len)
		return false;
	*lo = *hi = 0;
	if (comma && !parse_sec(p, comma, lo))
		return false;
	if (len - comma - 1 && !parse_sec(p + comma + 1, len - comma - 1, hi))
		return false;
	return !*hi || *hi >= *lo;
}

/*
 * Absolute ranges: "START,STOP", several separated by spaces
 * ("1.5,2 3,"), in increasing order without overlap; only the last may
 * be open-ended.  Returns the number of ranges or -1.
 */
static int parse_abs_ranges(const char *arg, uint64_t *out, size_t max)
{
	const char *p = arg;
	size_t n = 0, i;

	for (;;) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		len = strcspn(p, " \t");
		if (n >= max || !parse_one_range(p, len, &out[2 * n], &out[2 * n + 1]))
			return -1;
		n++;
		p += len;
	}
	if (!n)
		return -1;
	for (i = 0; i + 1 < n; i++)
		if (!out[2 * i + 1] || out[2 * i + 1] >= out[2 * (i + 1)])
			return -1;
	return (int)n;
}

/* "12.5%": a fraction in [0, 1]; the '%' must end the string. */
static bool parse_pct(const char *p, size_t len, double *out)
{
	char buf[64];
	char *end;

	if (len < 2 || len >= sizeof(buf) || p[len - 1] != '%')
		return false;
	memcpy(buf, p, len - 1);
	buf[len - 1] = '\0';
	if (!isdigit((unsigned char)buf[0]) && buf[0] != '.')
		return false;
	*out = strtod(buf, &end) / 100.0;
	return *end == '\0';
}

/* perf's rounding of a percentage slice to sample times. */
static bool pct_range(double a, double b, uint64_t first, uint64_t last, uint64_t *lo, uint64_t *hi)
{
	uint64_t total = last - first;

	if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
		return false;
	/* round() of non-negative values, without libm */
	*lo = first + (uint64_t)(a * (double)total + 0.5);
	*hi = first + (uint64_t)(b * (double)total + 0.5);
	/* a slice ends just before the next one starts, except the last */
	if (*hi > *lo && *hi != last)
		*hi -= 1;
	return true;
}

/*
 * Percent forms, as perf script takes them: "10%" (the first 10%),
 * "10%/2" (the second 10% slice), "0%-10%"; several with commas.  The
 * form is decided by the whole string as perf does: any '/' makes every
 * piece a slice, else any '-' makes every piece a span.
 */
static int parse_pct_ranges(const char *arg, uint64_t first, uint64_t last,
			    uint64_t *out, size_t max)
{
	bool slash = strchr(arg, '/'), dash = !slash && strchr(arg, '-');
	const char *p = arg;
	size_t n = 0;

	if (!slash && !dash) {
		double pc;

		if (!parse_pct(arg, strlen(arg), &pc) || pc <= 0.0 || max < 1 ||
		    !pct_range(0.0, pc, first, last, &out[0], &out[1]))
			return -1;
		return 1;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		size_t sep = strcspn(p, slash ? "/" : "-");
		double a, b;

		if (n >= max || sep >= len)
			return -1;
		if (slash) {
			uint64_t k;

			if (!parse_pct(p, sep, &a) || !parse_u64(p + sep + 1, len - sep - 1, &k) ||
			    a <= 0.0 || k > 1000000)
				return -1;
			b = a * (double)k;
			a = a * (double)(k ? k - 1 : 0);
			if (!k)
				a = b = -1.0;
		} else if (!parse_pct(p, sep, &a) || !parse_pct(p + sep + 1, len - sep - 1, &b)) {
			return -1;
		}
		if (!pct_range(a, b, first, last, &out[2 * n], &out[2 * n + 1]))
			return -1;
		n++;
		if (!p[len])
			break;
		p += len + 1;
	}
	return (int)n;
}

int pd_select_time_ranges(const struct pd_select *s, uint64_t first, uint64_t last,
			  uint64_t *ranges, size_t max, const char **why)
{
	bool pct;
	int n, i;

	if (!s->time) {
		*why = "no time selected";
		return -1;
	}
	pct = strchr(s->time, '%');
	if ((pct || s->reltime) && !first && !last) {
		*why = "percentages and relative times need the first and last sample times "
		       "(the SAMPLE_TIME feature), which this recording does not have";
		return -1;
	}
	if (pct && last < first) {
		*why = "the recording's last sample time is before its first";
		return -1;
	}
	n = pct ? parse_pct_ranges(s->time, first, last, ranges, max)
		: parse_abs_ranges(s->time, ranges, max);
	if (n < 0) {
		*why = pct ? "expected percentages such as 10%, 10%/2 or 0%-10%,30%-40%"
			   : "expected START,STOP in seconds (either may be empty), several "
			     "separated by spaces in increasing order";
		return -1;
	}
	if (s->reltime && !pct) {
		for (i = 0; i < n; i++) {
			/* an open end stays open; the start is at least the first sample */
			ranges[2 * i] += first;
			if (ranges[2 * i + 1])
				ranges[2 * i + 1] += first;
		}
	}
	return n;
}

static int set_text(struct pd_select *s, enum pd_select_key key, const char *arg, bool append)
{
	char *t;

	if (append && s->text[key]) {
		if (asprintf(&t, "%s,%s", s->text[key], arg) < 0)
			return -1;
	} else {
		t = strdup(arg);
		if (!t)
			return -1;
	}
	free(s->text[key]);
	s->text[key] = t;
	return 0;
}

int pd_select_add(struct pd_select *s, enum pd_select_key key, const char *arg,
		  const char **why)
{
	uint64_t scratch[2 * SEL_MAX_RANGES];
	int ret;

	*why = NULL;
	if (!arg || !*arg) {
		*why = "an empty argument";
		return -1;
	}
	if (strlen(arg) > SEL_MAX_ARG) {
		*why = "argument too long";
		return -1;
	}
	switch (key) {
	case PD_SELECT_PID:
		ret = add_ids(&s->pids, arg, UINT32_MAX, why);
		break;
	case PD_SELECT_TID:
		ret = add_ids(&s->tids, arg, UINT32_MAX, why);
		break;
	case PD_SELECT_CPU:
		ret = add_ids(&s->cpus, arg, UINT32_MAX, why);
		break;
	case PD_SELECT_COMM:
		ret = add_strs(&s->comms, arg, why);
		break;
	case PD_SELECT_EVENT:
		ret = add_strs(&s->events, arg, why);
		break;
	case PD_SELECT_TIME: {
		char *old = s->time;
		bool rel = s->reltime;

		s->time = strdup(arg);
		if (!s->time) {
			s->time = old;
			*why = "out of memory";
			return PD_STATUS_NOMEM;
		}
		/* check the syntax now, against a made-up recording */
		s->reltime = false;
		ret = pd_select_time_ranges(s, 1, NSEC_PER_SEC * 1000, scratch,
					    SEL_MAX_RANGES, why);
		s->reltime = rel;
		if (ret < 0) {
			free(s->time);
			s->time = old;
			return -1;
		}
		free(old);
		ret = 0;
		break;
	}
	default:
		*why = "unknown selection";
		return -1;
	}
	if (ret < 0)
		return ret;
	if (set_text(s, key, arg, key != PD_SELECT_TIME) < 0) {
		*why = "out of memory";
		return PD_STATUS_NOMEM;
	}
	return 0;
}

/* perf's event modifiers: "cycles:ppp", "instructions:uk" */
static bool only_modifiers(const char *p)
{
	if (!*p)
		return false;
	for (; *p; p++)
		if (!strchr("ukhIGHpPSDWeb", *p))
			return false;
	return true;
}

bool pd_select_event_matches(const struct pd_select *s, const char *name)
{
	size_t i;

	if (!s || !s->events.n)
		return true;
	if (!name)
		return false;
	for (i = 0; i < s->events.n; i++) {
		const char *e = s->events.v[i];
		size_t len = strlen(e);

		if (!strcmp(e, name))
			return true;
		if (!strncmp(e, name, len) && name[len] == ':' && only_modifiers(name + len + 1))
			return true;
	}
	return false;
}

/* ---- the reader's side ---- */

struct comm_slot {
	uint64_t key;		/* tid + 1; 0: empty */
	char comm[31];
	int8_t match;		/* the command is in the --comm list */
};

/* A COMM or FORK record seen by the --comm prescan. */
struct comm_event {
	uint64_t time;
	uint64_t seq;		/* file order, for records of the same time */
	uint32_t tid, ptid;
	bool is_fork;
	char comm[31];
};

/* From @time on (until the thread's next change), @tid's name matches or not. */
struct match_change {
	uint64_t time;
	uint64_t seq;
	uint32_t tid;
	int8_t match;
};

struct pd_sel_state {
	const struct pd_select *s;
	pd_sel_event_fn event_by_id;
	const void *event_ctx;
	bool time_done;
	const char *time_err;
	int nr_ranges;
	uint64_t ranges[2 * SEL_MAX_RANGES];

	int8_t *ev_match;	/* per event index: 0 unknown, 1 yes, -1 no */
	size_t ev_cap;

	struct comm_slot *ct;	/* tid -> command name, open addressing */
	size_t ct_cap, ct_n;
	bool ct_full;

	/* --comm prescan: COMM and FORK records as the file has them */
	struct comm_event *pre;
	size_t pre_n, pre_cap;
	bool pre_failed;
	/* its result: whether each thread's name matches, from which time */
	struct match_change *tl;
	size_t tl_n;
};

struct pd_sel_state *pd_sel_state_new(const struct pd_select *s, pd_sel_event_fn event_by_id,
				      const void *ctx)
{
	struct pd_sel_state *st = calloc(1, sizeof(*st));

	if (st) {
		st->s = s;
		st->event_by_id = event_by_id;
		st->event_ctx = ctx;
	}
	return st;
}

void pd_sel_state_free(struct pd_sel_state *st)
{
	if (!st)
		return;
	free(st->ev_match);
	free(st->ct);
	free(st->pre);
	free(st->tl);
	free(st);
}

void pd_sel_resolve_time(struct pd_sel_state *st, const struct pd_features *f)
{
	uint64_t first = 0, last = 0;
	const char *why = NULL;
	int n;

	if (st->time_done || !st->s->time)
		return;
	st->time_done = true;
	if (pd_features_has(f, PD_FEAT_SAMPLE_TIME)) {
		first = f->sample_time.first;
		last = f->sample_time.last;
	}
	n = pd_select_time_ranges(st->s, first, last, st->ranges, SEL_MAX_RANGES, &why);
	if (n < 0) {
		st->time_err = why;
		st->nr_ranges = 0;
	} else {
		st->nr_ranges = n;
	}
}

const char *pd_sel_error(const struct pd_sel_state *st)
{
	return st->time_err;
}

static void pd_sel_events_changed(struct pd_sel_state *st)
{
	if (st->ev_match)
		memset(st->ev_match, 0, st->ev_cap);
}

static size_t ct_hash(uint64_t key, size_t cap)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1);
}

static struct comm_slot *ct_find(struct pd_sel_state *st, uint32_t tid)
{
	uint64_t key = (uint64_t)tid + 1;
	size_t i;

	if (!st->ct)
		return NULL;
	for (i = ct_hash(key, st->ct_cap);; i = (i + 1) & (st->ct_cap - 1)) {
		if (st->ct[i].key == key)
			return &st->ct[i];
		if (!st->ct[i].key)
			return NULL;
	}
}

static struct comm_slot *ct_insert(struct pd_sel_state *st, uint32_t tid)
{
	uint64_t key = (uint64_t)tid + 1;
	struct comm_slot *slot = ct_find(st, tid);
	size_t i;

	if (slot)
		return slot;
	if ((st->ct_n + 1) * 2 > st->ct_cap) {
		size_t ncap = st->ct_cap ? st->ct_cap * 2 : 1024, j;
		struct comm_slot *nt;

		if (st->ct_n >= SEL_MAX_THREADS)
			return NULL;
		nt = calloc(ncap, sizeof(*nt));
		if (!nt)
			return NULL;
		for (j = 0; j < st->ct_cap; j++) {
			if (!st->ct[j].key)
				continue;
			for (i = ct_hash(st->ct[j].key, ncap); nt[i].key; i = (i + 1) & (ncap - 1))
				;
			nt[i] = st->ct[j];
		}
		free(st->ct);
		st->ct = nt;
		st->ct_cap = ncap;
	}
	for (i = ct_hash(key, st->ct_cap); st->ct[i].key; i = (i + 1) & (st->ct_cap - 1))
		;
	st->ct[i].key = key;
	st->ct_n++;
	return &st->ct[i];
}

static void set_comm(struct pd_sel_state *st, struct comm_slot *slot, const char *comm)
{
	size_t len = strlen(comm), i;

	if (len >= sizeof(slot->comm))
		len = sizeof(slot->comm) - 1;
	memcpy(slot->comm, comm, len);
	slot->comm[len] = '\0';
	slot->match = 0;
	for (i = 0; i < st->s->comms.n; i++)
		if (!strcmp(st->s->comms.v[i], comm))
			slot->match = 1;
}

/* perf's thread table: COMM names a thread, FORK gives the child its parent's name. */
static void track_comm(struct pd_sel_state *st, const struct pd_record *rec)
{
	struct comm_slot *slot;

	if (!rec->decoded)
		return;
	if (rec->type == PD_REC_COMM) {
		slot = ct_insert(st, rec->u.comm.tid);
		if (slot && rec->u.comm.comm)
			set_comm(st, slot, rec->u.comm.comm);
	} else {
		const struct comm_slot *parent = ct_find(st, rec->u.fork.ptid);
		char name[sizeof(parent->comm)];

		if (!parent) {
			/* a thread forked again under a known id loses its old name */
			slot = ct_find(st, rec->u.fork.tid);
			if (slot) {
				slot->comm[0] = '\0';
				slot->match = 0;
			}
			return;
		}
		memcpy(name, parent->comm, sizeof(name));
		slot = ct_insert(st, rec->u.fork.tid);
		if (slot)
			set_comm(st, slot, name);
	}
}

/*
 * perf script names a sample's thread as its thread table has it at the
 * sample's time: it replays COMM and FORK in time order.  A file written
 * from several ring buffers has them out of time order (a thread's FORK
 * from one CPU's buffer before its parent's exec COMM from another's), so
 * following names in file order selects the wrong samples.  The reader
 * therefore hands every COMM and FORK of a seekable input to the
 * selection before the first record; they are replayed in time order
 * into a timeline of when each thread's name starts or stops matching.
 */
bool pd_sel_wants_comm_prescan(const struct pd_sel_state *st)
{
	return st->s->comms.n != 0;
}

void pd_sel_prescan_record(struct pd_sel_state *st, const struct pd_record *rec)
{
	struct comm_event *e;
	const char *name;

	if (st->pre_failed || !rec->decoded ||
	    (rec->type != PD_REC_COMM && rec->type != PD_REC_FORK))
		return;
	/* without times there is no order to restore: follow the file */
	if (!(rec->sid.present & PD_SAMPLE_TIME)) {
		st->pre_failed = true;
		return;
	}
	if (st->pre_n == st->pre_cap) {
		size_t ncap = st->pre_cap ? st->pre_cap * 2 : 1024;
		struct comm_event *nv;

		if (st->pre_cap >= SEL_MAX_COMM_EVENTS) {
			st->pre_failed = true;
			return;
		}
		nv = realloc(st->pre, ncap * sizeof(*nv));
		if (!nv) {
			st->pre_failed = true;
			return;
		}
		st->pre = nv;
		st->pre_cap = ncap;
	}
	e = &st->pre[st->pre_n];
	memset(e, 0, sizeof(*e));
	e->time = rec->sid.time;
	e->seq = st->pre_n++;
	if (rec->type == PD_REC_COMM) {
		e->tid = rec->u.comm.tid;
		name = rec->u.comm.comm ? rec->u.comm.comm : "";
		strncpy(e->comm, name, sizeof(e->comm) - 1);
	} else {
		e->is_fork = true;
		e->tid = rec->u.fork.tid;
		e->ptid = rec->u.fork.ptid;
	}
}

static int cmp_comm_event(const void *a, const void *b)
{
	const struct comm_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_match_change(const void *a, const void *b)
{
	const struct match_change *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void track_comm(struct pd_sel_state *st, const struct pd_record *rec);

void pd_sel_prescan_done(struct pd_sel_state *st)
{
	struct pd_record rec;
	size_t i;

	if (st->pre_failed || !st->pre_n)
		goto out;
	qsort(st->pre, st->pre_n, sizeof(*st->pre), cmp_comm_event);
	st->tl = calloc(st->pre_n, sizeof(*st->tl));
	if (!st->tl)
		goto out;
	for (i = 0; i < st->pre_n; i++) {
		const struct comm_event *e = &st->pre[i];
		const struct comm_slot *slot;

		memset(&rec, 0, sizeof(rec));
		rec.decoded = true;
		if (e->is_fork) {
			rec.type = PD_REC_FORK;
			rec.u.fork.tid = e->tid;
			rec.u.fork.ptid = e->ptid;
		} else {
			rec.type = PD_REC_COMM;
			rec.u.comm.tid = e->tid;
			rec.u.comm.comm = e->comm;
		}
		track_comm(st, &rec);
		slot = ct_find(st, e->tid);
		st->tl[st->tl_n].time = e->time;
		st->tl[st->tl_n].seq = e->seq;
		st->tl[st->tl_n].tid = e->tid;
		st->tl[st->tl_n].match = slot && slot->match > 0;
		st->tl_n++;
	}
	qsort(st->tl, st->tl_n, sizeof(*st->tl), cmp_match_change);
	/* the records themselves are followed again as they are delivered */
	free(st->ct);
	st->ct = NULL;
	st->ct_cap = 0;
	st->ct_n = 0;
out:
	free(st->pre);
	st->pre = NULL;
	st->pre_n = 0;
	st->pre_cap = 0;
}

/* Whether @tid's name matches at @time by the timeline: -1 when it has no say. */
static int timeline_match(const struct pd_sel_state *st, uint32_t tid, uint64_t time)
{
	size_t lo = 0, hi = st->tl_n;

	/* the first change of @tid after @time */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct match_change *c = &st->tl[mid];

		if (c->tid < tid || (c->tid == tid && c->time <= time))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || st->tl[lo - 1].tid != tid)
		return -1;
	return st->tl[lo - 1].match;
}

static bool index_selected(struct pd_sel_state *st, int ev, const struct pd_event *event);

/*
 * A sample that read other counters (PERF_SAMPLE_READ, leader sampling)
 * stands for a sample of each of their events (pd_members.h): it is kept
 * when one of them is selected, and the writers leave out the others.
 */
static bool event_selected(struct pd_sel_state *st, const struct pd_record *rec)
{
	const struct pd_read *rd = &rec->u.sample.read;
	uint64_t i, nr;

	if (!(rec->u.sample.sample_type & PD_SAMPLE_READ))
		return index_selected(st, rec->event_index, rec->event);
	nr = rd->format & PD_FORMAT_GROUP ? rd->nr : (rd->nr ? 1 : 0);
	for (i = 0; st->event_by_id && rd->values && i < nr; i++) {
		int idx = -1;
		const struct pd_event *ev = st->event_by_id(st->event_ctx, rd->values[i].id, &idx);

		if (ev && index_selected(st, idx, ev))
			return true;
	}
	return false;
}

static bool index_selected(struct pd_sel_state *st, int ev, const struct pd_event *event)
{
	if (ev < 0 || !event)
		return false;
	if ((size_t)ev >= st->ev_cap) {
		size_t ncap = (size_t)ev + 16;
		int8_t *nv = realloc(st->ev_match, ncap);

		if (!nv)
			return pd_select_event_matches(st->s, event->name);
		memset(nv + st->ev_cap, 0, ncap - st->ev_cap);
		st->ev_match = nv;
		st->ev_cap = ncap;
	}
	if (!st->ev_match[ev])
		st->ev_match[ev] = pd_select_event_matches(st->s, event->name) ? 1 : -1;
	return st->ev_match[ev] > 0;
}

static bool time_selected(const struct pd_sel_state *st, uint64_t t)
{
	int i;

	/* perf keeps a sample without a time */
	if (!t)
		return true;
	for (i = 0; i < st->nr_ranges; i++)
		if (t >= st->ranges[2 * i] && (!st->ranges[2 * i + 1] || t <= st->ranges[2 * i + 1]))
			return true;
	return false;
}

bool pd_sel_keep(struct pd_sel_state *st, const struct pd_record *rec,
		 const struct pd_features *f)
{
	const struct pd_select *s = st->s;
	const struct pd_sample *smp;

	if (rec->type != PD_REC_SAMPLE) {
		if (s->comms.n && (rec->type == PD_REC_COMM || rec->type == PD_REC_FORK))
			track_comm(st, rec);
		if (rec->type == PD_REC_HEADER_ATTR || rec->type == PD_REC_EVENT_UPDATE ||
		    rec->type == PD_REC_HEADER_FEATURE)
			pd_sel_events_changed(st);
		return true;
	}
	/* a sample that could not be decoded cannot be told selected */
	if (!rec->decoded)
		return false;
	smp = &rec->u.sample;
	if (s->time) {
		if (!st->time_done)
			pd_sel_resolve_time(st, f);
		if (!time_selected(st, (smp->sample_type & PD_SAMPLE_TIME) ? smp->time : 0))
			return false;
	}
	if (s->cpus.n && (!(smp->sample_type & PD_SAMPLE_CPU) || !ids_have(&s->cpus, smp->cpu)))
		return false;
	if (s->events.n && !event_selected(st, rec))
		return false;
	if (s->pids.n || s->tids.n || s->comms.n) {
		/* perf's thread of a sample without TID is -1, in no list */
		if (!(smp->sample_type & PD_SAMPLE_TID))
			return false;
		if (s->pids.n && !ids_have(&s->pids, smp->pid))
			return false;
		if (s->tids.n && !ids_have(&s->tids, smp->tid))
			return false;
		if (s->comms.n) {
			const struct comm_slot *slot;
			int m = -1;

			if (st->tl && (smp->sample_type & PD_SAMPLE_TIME)) {
				m = timeline_match(st, smp->tid, smp->time);
				if (m < 0)
					return false;
			}
			if (m < 0) {
				slot = ct_find(st, smp->tid);
				m = slot && slot->match > 0;
			}
			if (!m)
				return false;
		}
	}
	return true;
}
