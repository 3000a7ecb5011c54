// SPDX-License-Identifier: MIT
/*
 * procs.c - the processes of a recording, kept by pid for its whole length
 * (struct pd_sym_process, pd_sym_opts.processes).
 *
 * The machine's threads follow perf: a reused tid or a thread forking
 * itself replaces the thread, and its history goes with it.  A table of
 * processes has to outlive that, so the machine keeps it beside the
 * threads and updates it from the same records (machine.c); this file is
 * the table alone and knows nothing of threads.
 */
#include <stdlib.h>
#include <string.h>

#include "sym_internal.h"

static uint64_t pid_hash(int32_t pid)
{
	uint64_t x = (uint32_t)pid;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static int procs_grow(struct pd_proc_table *t)
{
	size_t nb = t->nbuckets ? t->nbuckets * 2 : 256, i;
	struct pd_proc **nh = calloc(nb, sizeof(*nh));

	if (!nh)
		return -1;
	for (i = 0; i < t->nbuckets; i++) {
		struct pd_proc *p = t->h[i], *n;

		for (; p; p = n) {
			size_t b = pid_hash(p->pub.pid) & (nb - 1);

			n = p->hnext;
			p->hnext = nh[b];
			nh[b] = p;
		}
	}
	free(t->h);
	t->h = nh;
	t->nbuckets = nb;
	return 0;
}

struct pd_proc *pd_procs_get(struct pd_proc_table *t, int32_t pid)
{
	struct pd_proc *p;
	size_t b;

	/* a run of samples is mostly one process */
	if (t->last && t->last->pub.pid == pid)
		return t->last;
	if (t->nbuckets) {
		for (p = t->h[pid_hash(pid) & (t->nbuckets - 1)]; p; p = p->hnext)
			if (p->pub.pid == pid) {
				t->last = p;
				return p;
			}
	}
	if (t->nr >= t->nbuckets && procs_grow(t) < 0)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pub.pid = pid;
	b = pid_hash(pid) & (t->nbuckets - 1);
	p->hnext = t->h[b];
	t->h[b] = p;
	t->nr++;
	t->last = p;
	return p;
}

int pd_proc_add_comm(struct pd_proc *p, const char *s)
{
	uint32_t n = p->pub.nr_comms;

	if (!s)
		return -1;
	if (n && p->comms[n - 1] == s)
		return 0;
	if (n == PD_SYM_MAX_COMMS) {
		/* a process renaming itself in a loop: the first ones and the newest stay */
		p->comms[n - 1] = s;
		p->pub.comms_elided = true;
		return 0;
	}
	if (n == p->cap_comms) {
		uint32_t cap = p->cap_comms ? p->cap_comms * 2 : 2;
		const char **v = realloc(p->comms, cap * sizeof(*v));

		if (!v)
			return -1;
		p->comms = v;
		p->cap_comms = cap;
	}
	p->comms[p->pub.nr_comms++] = s;
	return 0;
}

int pd_proc_count(struct pd_proc *p, int ev, uint64_t period)
{
	size_t need = (size_t)ev + 1;

	if (ev < 0)
		return 0;
	if (need > p->nr_counts) {
		/* pipe mode learns events while reading: grow on demand */
		size_t n = need < 4 ? 4 : need * 2;
		struct pd_sym_count *v = realloc(p->counts, n * sizeof(*v));

		if (!v)
			return -1;
		memset(v + p->nr_counts, 0, (n - p->nr_counts) * sizeof(*v));
		p->counts = v;
		p->nr_counts = n;
	}
	p->counts[ev].samples++;
	p->counts[ev].period += period;
	return 0;
}

static int pid_cmp(const void *a, const void *b)
{
	const struct pd_proc *x = *(const struct pd_proc *const *)a;
	const struct pd_proc *y = *(const struct pd_proc *const *)b;

	return x->pub.pid < y->pub.pid ? -1 : x->pub.pid > y->pub.pid;
}

struct pd_proc **pd_procs_sorted(const struct pd_proc_table *t)
{
	struct pd_proc **v, *p;
	size_t i, n = 0;

	if (!t->nr)
		return NULL;
	v = malloc(t->nr * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < t->nbuckets; i++)
		for (p = t->h[i]; p; p = p->hnext)
			v[n++] = p;
	qsort(v, n, sizeof(*v), pid_cmp);
	return v;
}

void pd_procs_free(struct pd_proc_table *t)
{
	size_t i;

	for (i = 0; i < t->nbuckets; i++) {
		struct pd_proc *p = t->h[i], *n;

		for (; p; p = n) {
			n = p->hnext;
			free(p->comms);
			free(p->counts);
			free(p);
		}
	}
	free(t->h);
	memset(t, 0, sizeof(*t));
}
