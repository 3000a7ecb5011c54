// SPDX-License-Identifier: MIT
/*
 * procs.c - the processes of a recording, kept by pid for its whole length
 * (struct pd_sym_process, pd_sym_opts.processes).
 *
 * The machine's threads follow perf: a reused tid or a thread forking
 * itself replaces the thread, and its history goes with it.  A table of
 * processes has to outlive that, so the machine keeps it beside the
 * threads and updates it from the same records (machine.c); this file is
 * the table alone and knows nothing of threads.  Both tables are chained
 * by id and grow through the one rehash below, pd_id_table_grow().
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sym_internal.h"

int pd_id_table_grow(void *bucketsp, size_t *nbuckets, size_t next_off, size_t id_off)
{
	size_t nb = *nbuckets ? *nbuckets * 2 : 256, i;
	void **h, **nh = calloc(nb, sizeof(*nh));

	if (!nh)
		return -1;
	memcpy(&h, bucketsp, sizeof(h));
	for (i = 0; i < *nbuckets; i++) {
		char *e = h[i], *n;

		for (; e; e = n) {
			int32_t id;
			size_t b;

			memcpy(&n, e + next_off, sizeof(n));
			memcpy(&id, e + id_off, sizeof(id));
			b = pd_id_bucket(id, nb);
			memcpy(e + next_off, &nh[b], sizeof(nh[b]));
			nh[b] = e;
		}
	}
	free(h);
	memcpy(bucketsp, &nh, sizeof(nh));
	*nbuckets = nb;
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
		for (p = t->h[pd_id_bucket(pid, t->nbuckets)]; p; p = p->hnext)
			if (p->pub.pid == pid) {
				t->last = p;
				return p;
			}
	}
	if (t->nr >= t->nbuckets &&
	    pd_id_table_grow(&t->h, &t->nbuckets, offsetof(struct pd_proc, hnext),
			     offsetof(struct pd_proc, pub.pid)) < 0)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pub.pid = pid;
	b = pd_id_bucket(pid, t->nbuckets);
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
