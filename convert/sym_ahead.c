// SPDX-License-Identifier: MIT
/*
 * sym_ahead.c - frames of samples written in file order, resolved against
 * the machine state of the sample's time.
 *
 * perf builds its view of the processes (threads, maps) from the records
 * in time order.  In file order a sample can come before the MMAP2 that
 * maps its code: every CPU's ring buffer is written out on its own, so the
 * exec's maps of a process started on one CPU may be stored after the
 * process's first samples from another.  Feeding the machine in file order
 * leaves such samples unresolved.
 *
 * So a second reader of the same input runs in time order, ahead of the
 * writer's file-order reader: it feeds the machine and resolves every
 * sample it passes, keeping the frames under the sample's place in its
 * stream (stream index, record index), until the writer asks for them.
 * The time-ordered reader delivers a record at most one round (or its
 * order queue's limit) after reading it, so it is never further ahead of
 * the writer than that window, and the frames held are bounded by it.
 * Frames of samples the writer leaves out (a selection) are dropped once
 * the writer has gone past them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/grow.h"
#include "sym_ahead.h"

/* a regular file on standard input is read again through its own open */
#define STDIN_AGAIN "/proc/self/fd/0"
/* drop frames the writer went past when this many more are held */
#define SWEEP_MIN 1024

struct ahead_key {
	uint32_t stream;
	uint64_t index;
};

struct ahead_entry {
	struct ahead_key key;
	size_t nr, cap;
	struct ahead_frame *frames;	/* kept when the entry is reused */
};

struct sym_ahead {
	struct pd_reader *r;
	struct pd_machine *m;
	struct pd_sym_frame *tmp;	/* PD_SYM_MAX_STACK */

	struct ahead_entry *ents;
	size_t nr_ents, cap_ents;
	uint32_t *free_ents;		/* stack of unused entries */
	size_t nr_free, cap_free;
	/* open addressing, linear probing: entry index + 1, 0 empty */
	uint32_t *ht;
	size_t ht_cap, live;
	size_t live_after_sweep;

	uint32_t given;			/* entry handed out last, + 1 */
	bool ended;			/* the time-ordered reader has nothing more */
};

static bool key_less(const struct ahead_key *a, const struct ahead_key *b)
{
	return a->stream < b->stream || (a->stream == b->stream && a->index < b->index);
}

static bool key_eq(const struct ahead_key *a, const struct ahead_key *b)
{
	return a->stream == b->stream && a->index == b->index;
}

static size_t key_slot(const struct sym_ahead *a, const struct ahead_key *k)
{
	uint64_t h = (k->index ^ ((uint64_t)k->stream << 48)) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & (a->ht_cap - 1);
}

static struct ahead_key rec_key(const struct pd_record *rec)
{
	struct ahead_key k = { rec->stream_index, rec->index };

	return k;
}

bool sym_ahead_rereadable(const char *input)
{
	struct stat st;

	if (strcmp(input, "-"))
		return stat(input, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
	return fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode);
}

int sym_ahead_open(const char *input, struct pd_machine *m, struct sym_ahead **out)
{
	struct pd_reader_opts ro = PD_READER_OPTS_INIT;
	struct sym_ahead *a;
	int ret;

	*out = NULL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return PD_STATUS_NOMEM;
	a->m = m;
	a->ht_cap = 1024;
	a->ht = calloc(a->ht_cap, sizeof(*a->ht));
	a->tmp = calloc(PD_SYM_MAX_STACK, sizeof(*a->tmp));
	if (!a->ht || !a->tmp) {
		sym_ahead_free(a);
		return PD_STATUS_NOMEM;
	}
	/* every sample, selected or not: the writer's selection decides */
	ro.time_order = true;
	ro.skip_compressed = true;
	ret = pd_reader_open(strcmp(input, "-") ? input : STDIN_AGAIN, &ro, &a->r);
	if (ret < 0) {
		sym_ahead_free(a);
		return ret;
	}
	*out = a;
	return 0;
}

void sym_ahead_free(struct sym_ahead *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nr_ents; i++)
		free(a->ents[i].frames);
	free(a->ents);
	free(a->free_ents);
	free(a->ht);
	free(a->tmp);
	pd_reader_close(a->r);
	free(a);
}

static void ht_put(struct sym_ahead *a, uint32_t e)
{
	size_t s = key_slot(a, &a->ents[e].key);

	while (a->ht[s])
		s = (s + 1) & (a->ht_cap - 1);
	a->ht[s] = e + 1;
}

/* Slot of the entry with key k, or ht_cap. */
static size_t ht_find(const struct sym_ahead *a, const struct ahead_key *k)
{
	size_t s = key_slot(a, k);

	while (a->ht[s]) {
		if (key_eq(&a->ents[a->ht[s] - 1].key, k))
			return s;
		s = (s + 1) & (a->ht_cap - 1);
	}
	return a->ht_cap;
}

/* Take slot s out, moving later entries of its probe run back into place. */
static void ht_del(struct sym_ahead *a, size_t s)
{
	size_t mask = a->ht_cap - 1, hole = s, i = s;

	a->ht[hole] = 0;
	for (;;) {
		size_t home;

		i = (i + 1) & mask;
		if (!a->ht[i])
			break;
		home = key_slot(a, &a->ents[a->ht[i] - 1].key);
		/* move it when its home is not between the hole and it */
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			a->ht[hole] = a->ht[i];
			a->ht[i] = 0;
			hole = i;
		}
	}
	a->live--;
}

static void release(struct sym_ahead *a, uint32_t e)
{
	a->free_ents[a->nr_free++] = e;
}

/*
 * Rebuild the table at twice the size, or at the same size after dropping
 * the entries the writer has gone past (keys below `past`).
 */
static int ht_rebuild(struct sym_ahead *a, size_t cap, const struct ahead_key *past)
{
	uint32_t *old = a->ht;
	size_t old_cap = a->ht_cap, i;

	a->ht = calloc(cap, sizeof(*a->ht));
	if (!a->ht) {
		a->ht = old;
		return -1;
	}
	a->ht_cap = cap;
	a->live = 0;
	for (i = 0; i < old_cap; i++) {
		uint32_t e;

		if (!old[i])
			continue;
		e = old[i] - 1;
		if (past && key_less(&a->ents[e].key, past)) {
			release(a, e);
			continue;
		}
		ht_put(a, e);
		a->live++;
	}
	free(old);
	return 0;
}

static int new_entry(struct sym_ahead *a, uint32_t *out)
{
	if (a->nr_free) {
		*out = a->free_ents[--a->nr_free];
		return 0;
	}
	if (a->nr_ents >= UINT32_MAX - 1 ||
	    !grow_array(&a->ents, &a->cap_ents, a->nr_ents + 1, sizeof(*a->ents)) ||
	    !grow_array(&a->free_ents, &a->cap_free, a->nr_ents + 1, sizeof(*a->free_ents)))
		return -1;
	*out = (uint32_t)a->nr_ents++;
	return 0;
}

/* Resolve `rec` now into entry e. */
static int resolve_into(struct sym_ahead *a, const struct pd_record *rec, uint32_t e)
{
	struct ahead_entry *en = &a->ents[e];
	size_t n = pd_machine_resolve_sample(a->m, rec, a->tmp, PD_SYM_MAX_STACK), i;

	/* sized to the sample, not doubled: many entries are held at once */
	if (n > en->cap) {
		struct ahead_frame *f = realloc(en->frames, n * sizeof(*f));

		if (!f)
			return -1;
		en->frames = f;
		en->cap = n;
	}
	for (i = 0; i < n; i++) {
		const struct pd_sym_frame *s = &a->tmp[i];
		struct ahead_frame *f = &en->frames[i];
		struct pd_sym_inline first;

		/*
		 * The inline frames of a DSO depend on the addresses asked
		 * before (addr2line's names, pd_machine_inline_frames()): asked
		 * here, in time order as perf does, the writer's later question
		 * in file order gets the same answer.
		 */
		if (s->unwound)
			pd_machine_inline_frames(a->m, s, &first, 1);

		f->ip = s->ip;
		f->addr = s->addr;
		f->has_map = s->has_map;
		f->dso = s->dso_name;
		f->sym = s->sym;
		f->sym_off = s->sym_off;
		f->d = s->dso;
		f->unwound = s->unwound;
	}
	en->nr = n;
	en->key = rec_key(rec);
	return 0;
}

/* Keep the frames of a sample the writer has not reached yet. */
static int hold(struct sym_ahead *a, const struct pd_record *rec, const struct ahead_key *asked)
{
	uint32_t e;

	if (!key_less(asked, &(struct ahead_key){ rec->stream_index, rec->index }))
		return 0;	/* passed already: the writer left it out */
	if (a->live > 2 * a->live_after_sweep + SWEEP_MIN) {
		if (ht_rebuild(a, a->ht_cap, asked) < 0)
			return -1;
		a->live_after_sweep = a->live;
	}
	if (2 * (a->live + 1) > a->ht_cap && ht_rebuild(a, 2 * a->ht_cap, NULL) < 0)
		return -1;
	if (new_entry(a, &e) < 0 || resolve_into(a, rec, e) < 0)
		return -1;
	ht_put(a, e);
	a->live++;
	return 0;
}

long sym_ahead_frames(struct sym_ahead *a, const struct pd_record *rec,
		      const struct ahead_frame **frames)
{
	struct ahead_key k = rec_key(rec);
	const struct pd_record *t;
	uint32_t e;
	size_t s;

	if (a->given) {
		release(a, a->given - 1);
		a->given = 0;
	}
	s = ht_find(a, &k);
	if (s != a->ht_cap) {
		e = a->ht[s] - 1;
		ht_del(a, s);
		goto give;
	}
	/* run on in time order until this sample has been resolved */
	while (!a->ended) {
		if (pd_reader_next(a->r, &t) <= 0) {
			a->ended = true;
			break;
		}
		if (pd_machine_process(a->m, t) < 0)
			return -1;
		if (t->type != PD_REC_SAMPLE)
			continue;
		if (key_eq(&k, &(struct ahead_key){ t->stream_index, t->index })) {
			if (new_entry(a, &e) < 0 || resolve_into(a, t, e) < 0)
				return -1;
			goto give;
		}
		if (hold(a, t, &k) < 0)
			return -1;
	}
	/*
	 * The other reader stopped before this sample (its input ended or
	 * broke differently): the state it reached is the best there is.
	 */
	if (new_entry(a, &e) < 0 || resolve_into(a, rec, e) < 0)
		return -1;
give:
	a->given = e + 1;
	*frames = a->ents[e].frames;
	return (long)a->ents[e].nr;
}
