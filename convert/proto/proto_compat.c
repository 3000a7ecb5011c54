// SPDX-License-Identifier: MIT
/*
 * proto_compat.c - quipper's default pipeline after reading: time sort,
 * huge-page mapping deduction, combining of split mappings, and the parse
 * pass that yields `stats`.  The rules are those of quipper's
 * perf_parser, huge_page_deducer and address_mapper, as documented in
 * the project's quipper compatibility notes; the comments below say what
 * each step does, not why quipper chose it.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "hmap.h"
#include "proto/proto_compat.h"
#include "proto/proto_event.h"

#define KERNEL_PID	UINT32_MAX
#define PROT_EXEC_BIT	4
#define MAP_TYPE_MASK	0xf

struct pq_ev {
	uint64_t ts;
	uint64_t body;		/* offset of the encoded PerfEvent body (non-mmap) */
	uint32_t len;
	uint32_t type;
	int32_t mmap;		/* index in q->mmaps, -1 for other events */
	uint32_t pid, ppid;	/* FORK/COMM/SAMPLE pid (SAMPLE: 0 without TID) */
	uint64_t addrs;		/* SAMPLE: offset of its addresses in q->addr */
	uint32_t seq;		/* file order, for the stable sort */
	bool dropped;		/* absorbed by combining */
};

struct pq_mmap {
	struct pe_mmap m;
	char *own_filename;	/* what m.filename pointed to when read */
	char *own_root;
};

struct pq_state {
	struct pq_ev *ev;
	size_t nr_ev, cap_ev;
	struct pq_mmap *mmaps;
	size_t nr_mmaps, cap_mmaps;
	struct pw_buf bodies;
	uint64_t *addr;		/* per sample: ip, nr_cc, cc..., nr_br, (from, to)... */
	size_t nr_addr, cap_addr;
	bool nomem;
};

struct pq_state *pq_new(void)
{
	struct pq_state *q = calloc(1, sizeof(struct pq_state));

	if (q && pw_buf_init(&q->bodies)) {
		free(q);
		return NULL;
	}
	return q;
}

void pq_free(struct pq_state *q)
{
	size_t i;

	if (!q)
		return;
	for (i = 0; i < q->nr_mmaps; i++) {
		free(q->mmaps[i].own_filename);
		free(q->mmaps[i].own_root);
	}
	free(q->mmaps);
	free(q->ev);
	free(q->addr);
	pw_buf_free(&q->bodies);
	free(q);
}

static bool push_addr(struct pq_state *q, uint64_t v)
{
	if (!grow_array_unzeroed(&q->addr, &q->cap_addr, q->nr_addr + 1, sizeof(*q->addr)))
		return false;
	q->addr[q->nr_addr++] = v;
	return true;
}

static bool save_sample_addrs(struct pq_state *q, const struct pd_sample *s)
{
	bool ok = true;
	uint64_t i;

	ok &= push_addr(q, s->sample_type & PD_SAMPLE_IP ? s->ip : 0);
	if (s->sample_type & PD_SAMPLE_CALLCHAIN) {
		ok &= push_addr(q, s->callchain_nr);
		for (i = 0; ok && i < s->callchain_nr; i++)
			ok &= push_addr(q, s->callchain[i]);
	} else {
		ok &= push_addr(q, 0);
	}
	if (s->sample_type & PD_SAMPLE_BRANCH_STACK) {
		ok &= push_addr(q, s->branch_nr);
		for (i = 0; ok && i < s->branch_nr; i++) {
			ok &= push_addr(q, s->branches[i].from);
			ok &= push_addr(q, s->branches[i].to);
		}
	} else {
		ok &= push_addr(q, 0);
	}
	return ok;
}

static bool save_mmap(struct pq_state *q, const struct pd_record *rec, struct pq_ev *e)
{
	struct pq_mmap *pm;
	size_t n = strlen(rec->u.mmap.filename) + 1;
	char *root;

	if (!grow_array_unzeroed(&q->mmaps, &q->cap_mmaps, q->nr_mmaps + 1, sizeof(*q->mmaps)))
		return false;
	root = malloc(n);
	if (!root)
		return false;
	pm = &q->mmaps[q->nr_mmaps];
	pe_mmap_from_record(&pm->m, rec, root, n);
	pm->own_root = root;
	pm->own_filename = strdup(rec->u.mmap.filename);
	if (!pm->own_filename) {
		free(root);
		return false;
	}
	pm->m.filename = pm->own_filename;
	e->mmap = (int32_t)q->nr_mmaps++;
	return true;
}

int pq_record(struct pq_state *q, const struct pd_record *rec, const struct pm_state *meta)
{
	struct pq_ev *e;
	size_t start;

	if (!rec->decoded || !pe_quipper_keeps(rec->type))
		return 0;
	if (rec->type == PD_REC_MMAP || rec->type == PD_REC_MMAP2) {
		/* quipper skips these two kinds of mmap before anything else sees them */
		if (rec->misc & PD_MISC_PROC_MAP_PARSE_TIMEOUT)
			return 0;
		if (!rec->u.mmap.len && (rec->misc & 1) && meta->nr_attrs &&
		    (meta->attrs[0].attr.flags & PD_ATTR_EXCLUDE_KERNEL))
			return 0;
	}
	if (!grow_array_unzeroed(&q->ev, &q->cap_ev, q->nr_ev + 1, sizeof(*q->ev)))
		return -1;
	e = &q->ev[q->nr_ev];
	memset(e, 0, sizeof(*e));
	e->ts = pe_timestamp(rec);
	e->type = rec->type;
	e->mmap = -1;
	e->seq = (uint32_t)q->nr_ev;
	switch (rec->type) {
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
		if (!save_mmap(q, rec, e))
			return -1;
		q->nr_ev++;
		return 0;
	case PD_REC_SAMPLE:
		e->pid = rec->u.sample.sample_type & PD_SAMPLE_TID ? rec->u.sample.pid : 0;
		e->addrs = q->nr_addr;
		if (!save_sample_addrs(q, &rec->u.sample))
			return -1;
		break;
	case PD_REC_FORK:
		e->pid = rec->u.fork.pid;
		e->ppid = rec->u.fork.ppid;
		break;
	case PD_REC_COMM:
		e->pid = rec->u.comm.pid;
		break;
	default:
		break;
	}
	start = q->bodies.ob.len;
	pe_encode_event(&q->bodies, rec, false);
	if (pw_nomem(&q->bodies))
		return -1;
	e->body = start;
	e->len = (uint32_t)(q->bodies.ob.len - start);
	q->nr_ev++;
	return 0;
}

/* ---- sort ---- */

static int cmp_ts(const void *a, const void *b)
{
	const struct pq_ev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- mapping rules ---- */

static bool is_anon(const struct pe_mmap *m)
{
	return !strcmp(m->filename, "//anon") || !strcmp(m->filename, "/anon_hugepage") ||
	       !strcmp(m->filename, "/anon_hugepage (deleted)");
}

static bool is_huge(const struct pe_mmap *m)
{
	const char *slash, *b;

	if (is_anon(m))
		return true;
	slash = strrchr(m->filename, '/');
	if (!slash)
		return false;
	b = strstr(slash + 1, ".buildid_");
	return b && b[9];
}

static bool vma_contig(const struct pe_mmap *a, const struct pe_mmap *b)
{
	return a->pid == b->pid && a->start + a->len == b->start;
}

static bool file_contig(const struct pe_mmap *a, const struct pe_mmap *b)
{
	return (a->pgoff + a->len == b->pgoff && !is_anon(a)) ||
	       (!(a->prot & PROT_EXEC_BIT) && !is_anon(a) && is_anon(b));
}

static bool equiv_file(const struct pe_mmap *a, const struct pe_mmap *b)
{
	return !strcmp(a->filename, b->filename) || is_huge(a) || is_huge(b);
}

static bool equiv_prot(const struct pe_mmap *a, const struct pe_mmap *b)
{
	uint32_t ta = a->flags & MAP_TYPE_MASK, tb = b->flags & MAP_TYPE_MASK;

	if (ta != tb && !(a->prot & PROT_EXEC_BIT))
		return false;
	return a->prot == b->prot || (a->prot == 1 && b->prot == 3) ||
	       (a->prot == 3 && b->prot == 1);
}

static uint32_t str_aligned(size_t len)
{
	return (uint32_t)((len + 1 + 7) & ~(size_t)7);
}

/* Give m the name of src; the record size follows the name's padded length. */
static void rename_to(struct pe_mmap *m, const struct pe_mmap *src)
{
	m->size = m->size + str_aligned(strlen(src->filename)) - str_aligned(strlen(m->filename));
	m->filename = src->filename;
	m->filename_md5 = src->filename_md5;
	if (src->has_build_id) {
		m->has_build_id = true;
		memcpy(m->build_id, src->build_id, sizeof(m->build_id));
	}
}

static int cmp_pid_pos(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Huge-page deduction over the mmaps of one pid (indexes into q->ev, list order). */
static void deduce_pid(struct pq_state *q, const size_t *pos, size_t n)
{
	size_t lo = n, hi = 0, i, k, first = SIZE_MAX, last = SIZE_MAX, pre = SIZE_MAX;

	for (i = 0; i < n; i++) {
		if (q->ev[pos[i]].ts == 0) {
			if (lo == n)
				lo = i;
			hi = i;
		}
	}
	if (lo == n)
		return;
	for (i = lo; i <= hi; i++) {
		struct pe_mmap *cur = &q->mmaps[q->ev[pos[i]].mmap].m;
		struct pe_mmap *f, *l;

		if (is_huge(cur)) {
			if (first == SIZE_MAX) {
				first = last = i;
				continue;
			}
			l = &q->mmaps[q->ev[pos[last]].mmap].m;
			if (vma_contig(l, cur) && !strcmp(l->filename, cur->filename) &&
			    (file_contig(l, cur) || (l->pgoff == 0 && cur->pgoff == 0))) {
				last = i;
			} else {
				first = last = i;
				pre = SIZE_MAX;
			}
			continue;
		}
		if (first != SIZE_MAX) {
			uint64_t L, S = 0;

			f = &q->mmaps[q->ev[pos[first]].mmap].m;
			l = &q->mmaps[q->ev[pos[last]].mmap].m;
			L = l->start - f->start + l->len;
			if (pre != SIZE_MAX) {
				struct pe_mmap *p = &q->mmaps[q->ev[pos[pre]].mmap].m;

				if (vma_contig(p, f) && equiv_file(p, f) && equiv_file(p, cur))
					S = p->pgoff + p->len;
			}
			if (vma_contig(l, cur) && equiv_file(l, cur) && cur->pgoff >= L &&
			    cur->pgoff - L == S) {
				uint64_t pg = cur->pgoff - L;

				for (k = first; k <= last; k++) {
					struct pe_mmap *m = &q->mmaps[q->ev[pos[k]].mmap].m;

					if (is_huge(m) || m->pgoff == 0) {
						rename_to(m, cur);
						if (m->pgoff == 0)
							m->pgoff = pg;
						if (cur->has_inode) {
							m->has_inode = true;
							m->maj = cur->maj;
							m->min = cur->min;
							m->ino = cur->ino;
							m->ino_generation = cur->ino_generation;
						}
					}
					pg += m->len;
				}
			}
			first = last = SIZE_MAX;
		}
		pre = i;
	}
}

static int deduce_huge_pages(struct pq_state *q)
{
	uint64_t *key;
	size_t *pos;
	size_t i, n = 0, start;

	key = malloc(q->nr_mmaps * 2 * sizeof(*key) + 1);
	pos = malloc(q->nr_mmaps * sizeof(*pos) + 1);
	if (!key || !pos) {
		free(key);
		free(pos);
		return -1;
	}
	for (i = 0; i < q->nr_ev; i++) {
		if (q->ev[i].mmap < 0)
			continue;
		key[2 * n] = (uint32_t)q->mmaps[q->ev[i].mmap].m.pid;
		key[2 * n + 1] = i;
		n++;
	}
	qsort(key, n, 2 * sizeof(*key), cmp_pid_pos);
	for (start = 0; start < n; ) {
		size_t end = start;

		while (end < n && key[2 * end] == key[2 * start]) {
			pos[end - start] = (size_t)key[2 * end + 1];
			end++;
		}
		deduce_pid(q, pos, end - start);
		start = end;
	}
	free(key);
	free(pos);
	return 0;
}

/*
 * ---- pid -> index: the last mapping of a pid, the address mapper of a pid ----
 *
 * Not the symbolizer's process table (pd_machine_processes()): to-proto
 * builds no machine state, and quipper's processes are not perf's.  The
 * address mapper of a pid is made at the pid's first event in the
 * time-sorted list: a copy of its parent's when that event is its FORK,
 * else of the kernel's (pid UINT32_MAX, a process of its own), and the
 * value kept is an index into arrays that grow.  Only the table is
 * shared: the writers' one hash table (hmap.h), entries in an arena.
 */

struct pid_entry {
	uint32_t pid;
	int idx;
};

struct pid_index {
	struct hmap map;
	struct arena arena;
};

static bool pid_eq(const void *item, const void *key)
{
	return ((const struct pid_entry *)item)->pid == *(const uint32_t *)key;
}

/*
 * A multiplication: slots are picked by the low bits, which it maps one
 * to one from the pid's, and pids differ most there.
 */
static inline uint64_t pid_hash(uint32_t pid)
{
	return (uint64_t)pid * 0x9e3779b97f4a7c15ULL;
}

/*
 * Inline, apart from the adding: the parse pass looks up the pid of
 * every sample, most of them in a run of another pid's (a system-wide
 * recording interleaves its CPUs), so a cache of the last one would miss.
 */
static inline int pid_index_get(const struct pid_index *t, uint32_t pid)
{
	const struct pid_entry *e = hmap_find(&t->map, pid_hash(pid), pid_eq, &pid);

	return e ? e->idx : -1;
}

static bool pid_index_put(struct pid_index *t, uint32_t pid, int idx)
{
	uint64_t h = pid_hash(pid);
	struct pid_entry *e = hmap_find(&t->map, h, pid_eq, &pid);

	if (!e) {
		e = arena_alloc(&t->arena, sizeof(*e));
		if (!e || hmap_add(&t->map, h, e))
			return false;
		e->pid = pid;
	}
	e->idx = idx;
	return true;
}

static void pid_index_free(struct pid_index *t)
{
	hmap_free(&t->map);
	arena_free(&t->arena);
}

/* ---- combining ---- */

static bool combinable(const struct pe_mmap *m)
{
	return strncmp(m->filename, "/dev/", 5) != 0;
}

static int combine_mappings(struct pq_state *q)
{
	struct pid_index last = { 0 };
	size_t i;

	for (i = 0; i < q->nr_ev; i++) {
		struct pe_mmap *cur, *prev;
		int p;

		if (q->ev[i].mmap < 0)
			continue;
		cur = &q->mmaps[q->ev[i].mmap].m;
		p = pid_index_get(&last, cur->pid);
		if (p >= 0) {
			prev = &q->mmaps[q->ev[p].mmap].m;
			if (combinable(cur) && combinable(prev) && equiv_file(prev, cur) &&
			    equiv_prot(prev, cur) && file_contig(prev, cur) && vma_contig(prev, cur)) {
				if (is_huge(prev) && !is_huge(cur)) {
					prev->pgoff = cur->pgoff - prev->len;
					rename_to(prev, cur);
				}
				prev->len += cur->len;
				q->ev[i].dropped = true;
				continue;
			}
		}
		if (!pid_index_put(&last, cur->pid, (int)i)) {
			pid_index_free(&last);
			return -1;
		}
	}
	pid_index_free(&last);
	return 0;
}

/* ---- the address mapper of the parse pass ---- */

struct range {
	uint64_t start, end;	/* inclusive */
};

struct mapper {
	struct range *r;
	size_t nr, cap;
};

struct mappers {
	struct mapper *m;
	size_t nr, cap;
	struct pid_index by_pid;
	bool nomem;
};

static struct mapper *mapper_get(struct mappers *ms, uint32_t pid, uint32_t ppid)
{
	int idx = pid_index_get(&ms->by_pid, pid), src;
	struct mapper *m;

	if (idx >= 0)
		return &ms->m[idx];
	if (!grow_array_unzeroed(&ms->m, &ms->cap, ms->nr + 1, sizeof(*ms->m)))
		goto nomem;
	m = &ms->m[ms->nr];
	memset(m, 0, sizeof(*m));
	/* a new process starts with a copy of its parent's (or the kernel's) map */
	src = pid_index_get(&ms->by_pid, ppid);
	if (src < 0)
		src = pid_index_get(&ms->by_pid, KERNEL_PID);
	if (src >= 0 && ms->m[src].nr) {
		m->r = malloc(ms->m[src].nr * sizeof(*m->r));
		if (!m->r)
			goto nomem;
		memcpy(m->r, ms->m[src].r, ms->m[src].nr * sizeof(*m->r));
		m->nr = m->cap = ms->m[src].nr;
	}
	if (!pid_index_put(&ms->by_pid, pid, (int)ms->nr)) {
		free(m->r);
		goto nomem;
	}
	return &ms->m[ms->nr++];
nomem:
	ms->nomem = true;
	return NULL;
}

/* index of the first range with start > addr */
static size_t upper(const struct mapper *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->r[mid].start > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static bool mapper_hit(const struct mapper *m, uint64_t addr)
{
	size_t i = upper(m, addr);

	return i > 0 && m->r[i - 1].end >= addr;
}

static bool mapper_insert(struct mapper *m, uint64_t start, uint64_t len)
{
	uint64_t end = start + len - 1;
	size_t i, j;

	/* quipper aborts on these; they cannot be mapped */
	if (!len || start + len < start)
		return true;
	i = upper(m, start);
	if (i > 0 && m->r[i - 1].end >= start)
		i--;
	/* an existing longer range around the new one is split around it */
	if (i < m->nr && m->r[i].start <= start && m->r[i].end >= end &&
	    m->r[i].end - m->r[i].start > end - start) {
		struct range old = m->r[i];
		size_t add = (old.start < start) + (old.end > end);

		if (!grow_array_unzeroed(&m->r, &m->cap, m->nr + add, sizeof(*m->r)))
			return false;
		memmove(&m->r[i + 1 + add], &m->r[i + 1], (m->nr - i - 1) * sizeof(*m->r));
		m->nr += add;
		if (old.start < start) {
			m->r[i].start = old.start;
			m->r[i].end = start - 1;
			i++;
		}
		m->r[i].start = start;
		m->r[i].end = end;
		if (old.end > end) {
			m->r[i + 1].start = end + 1;
			m->r[i + 1].end = old.end;
		}
		return true;
	}
	/* every other range that intersects is replaced */
	for (j = i; j < m->nr && m->r[j].start <= end; j++)
		;
	if (j == i) {
		if (!grow_array_unzeroed(&m->r, &m->cap, m->nr + 1, sizeof(*m->r)))
			return false;
		memmove(&m->r[i + 1], &m->r[i], (m->nr - i) * sizeof(*m->r));
		m->nr++;
	} else if (j > i + 1) {
		memmove(&m->r[i + 1], &m->r[j], (m->nr - j) * sizeof(*m->r));
		m->nr -= j - i - 1;
	}
	m->r[i].start = start;
	m->r[i].end = end;
	return true;
}

static bool sample_mapped(const struct mapper *m, const uint64_t *a)
{
	uint64_t ip = a[0], nr = a[1], i, k, nb;
	const uint64_t *cc = a + 2, *br;

	if (!mapper_hit(m, ip))
		return false;
	for (i = 0; i < nr; i++) {
		if (cc[i] >= 0xfffffffffffff001ULL || cc[i] == ip)
			continue;
		if (!mapper_hit(m, cc[i]))
			return false;
	}
	nb = cc[nr];
	br = cc + nr + 1;
	for (k = 0; k < nb && (br[2 * k] || br[2 * k + 1]); k++)
		;
	for (i = k; i < nb; i++)
		if (br[2 * i] || br[2 * i + 1])
			return false;
	for (i = 0; i < k; i++)
		if (!mapper_hit(m, br[2 * i]) || !mapper_hit(m, br[2 * i + 1]))
			return false;
	return true;
}

struct stats {
	uint32_t samples, mmaps, forks, exits, mapped;
};

static int parse_pass(struct pq_state *q, struct stats *st)
{
	struct mappers ms = { 0 };
	bool kernel_seen = false;
	size_t i;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < q->nr_ev && !ms.nomem; i++) {
		const struct pq_ev *e = &q->ev[i];
		struct mapper *m;

		if (e->dropped || e->type >= 64)
			continue;
		switch (e->type) {
		case PD_REC_SAMPLE:
			st->samples++;
			m = mapper_get(&ms, e->pid, KERNEL_PID);
			if (m && sample_mapped(m, q->addr + e->addrs))
				st->mapped++;
			break;
		case PD_REC_MMAP:
		case PD_REC_MMAP2: {
			const struct pe_mmap *mm = &q->mmaps[e->mmap].m;
			uint64_t start = mm->start, len = mm->len;

			st->mmaps++;
			m = mapper_get(&ms, mm->pid, KERNEL_PID);
			if (!m)
				break;
			/* the first kernel mmap is the kernel image: start at its pgoff */
			if ((mm->misc & PD_MISC_CPUMODE_MASK) == 1 && !kernel_seen) {
				kernel_seen = true;
				if (start < mm->pgoff && mm->pgoff < start + len) {
					len = start + len - mm->pgoff;
					start = mm->pgoff;
				}
			}
			if (!mapper_insert(m, start, len))
				ms.nomem = true;
			break;
		}
		case PD_REC_FORK:
			st->forks++;
			if (e->pid != e->ppid)
				mapper_get(&ms, e->pid, e->ppid);
			break;
		case PD_REC_EXIT:
			st->exits++;
			break;
		case PD_REC_COMM:
			mapper_get(&ms, e->pid, KERNEL_PID);
			break;
		default:
			break;
		}
	}
	if (ms.nomem)
		ret = -1;
	for (i = 0; i < ms.nr; i++)
		free(ms.m[i].r);
	free(ms.m);
	pid_index_free(&ms.by_pid);
	return ret;
}

int pq_finish(struct pq_state *q, const struct pm_state *meta, struct pw_buf *b,
	      void (*flush)(struct pw_buf *b, void *arg), void *arg)
{
	bool all_time = meta->nr_attrs > 0;
	struct stats st;
	size_t i, m;

	if (q->nomem || pw_nomem(&q->bodies))
		return -1;
	/* quipper sorts only when every attr samples the time */
	for (i = 0; i < meta->nr_attrs; i++)
		if (!(meta->attrs[i].attr.sample_type & PD_SAMPLE_TIME))
			all_time = false;
	if (all_time && q->nr_ev)
		qsort(q->ev, q->nr_ev, sizeof(*q->ev), cmp_ts);
	if (deduce_huge_pages(q) || combine_mappings(q) || parse_pass(q, &st))
		return -1;

	for (i = 0; i < q->nr_ev; i++) {
		const struct pq_ev *e = &q->ev[i];

		if (e->dropped)
			continue;
		m = pw_open(b, PF_EVENTS);
		if (e->mmap >= 0) {
			pe_encode_mmap(b, &q->mmaps[e->mmap].m, false);
		} else {
			if (pw_room(b, e->len)) {
				memcpy(pw_data(b) + b->ob.len, pw_data(&q->bodies) + e->body, e->len);
				b->ob.len += e->len;
			}
		}
		pw_close(b, m);
		if (b->ob.len >= (4u << 20))
			flush(b, arg);
	}
	m = pw_open(b, PF_STATS);
	pw_u64(b, 2, st.samples);
	pw_u64(b, 3, st.mmaps);
	pw_u64(b, 4, st.forks);
	pw_u64(b, 5, st.exits);
	pw_u64(b, 6, st.mapped);
	pw_bool(b, 7, false);
	pw_close(b, m);
	return pw_nomem(b) ? -1 : 0;
}
