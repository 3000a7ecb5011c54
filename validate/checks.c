// SPDX-License-Identifier: MIT
/*
 * checks.c - the validator pass: checks that need state across records or
 * across sections, on top of what the reader reports while decoding.
 *
 * One structure is checked where it is decoded (the parsing core); what
 * is left for this pass is every relation: sections against each other,
 * features against attrs and records, records against earlier records.
 * The pass sees each record once, in file order, and keeps a bounded
 * amount of state: every table below has a fixed cap, past which the
 * check it feeds is skipped rather than the memory grown.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfcheck.h"
#include "../common/tool.h"

/* Threads tracked for the FORK/EXIT and announcement checks. */
#define MAX_THREADS		(1u << 17)
/* AUXTRACE record offsets kept to check the AUXTRACE index against. */
#define MAX_AUXTRACE		(1u << 18)
/* Attrs whose id arrays take part in the section layout check. */
#define MAX_LAYOUT_ATTRS	4096
/* Bytes after the data section scanned for stray records. */
#define GAP_SCAN		4096

enum {
	THR_ANNOUNCED = 1,	/* COMM or FORK seen */
	THR_SAMPLED = 2,	/* a sample names it */
	THR_FORKED = 4,		/* fork_time is valid */
};

struct thr {
	uint32_t tid;		/* 0: free slot (tid 0 is never tracked) */
	uint32_t flags;
	uint32_t pid;
	uint64_t fork_time;
	uint64_t first_sample_off;
	int64_t first_sample_idx;
};

struct pc_check {
	struct pc_file *pf;
	struct pd_reader *r;
	const struct pd_header *h;
	struct pc_buildids *bids;

	/* directory mode: which stream the records come from */
	uint32_t stream_index;
	const char *stream;
	bool any_rec;
	uint64_t last_off;
	int64_t last_idx;
	uint32_t last_type;

	/* FINISHED_ROUND ordering (reference §8.5) */
	uint64_t cur_max, round_max, flush_limit;
	uint64_t rounds;

	/* threads */
	struct thr *thr;
	size_t thr_cap, thr_nr;
	bool thr_full;

	/* data loss */
	uint64_t lost_recs, lost_total, lost_off;
	int64_t lost_idx;
	uint64_t ls_recs, ls_total, ls_bpf, ls_off;
	int64_t ls_idx;
	uint64_t thr_recs, thr_off;
	int64_t thr_idx;

	/* SAMPLE_TIME */
	bool st_known;
	uint64_t st_first, st_last;
	bool have_stime;
	uint64_t smin, smax;

	uint32_t nr_cpus_avail;	/* 0: unknown */

	/* COMPRESSED */
	uint64_t nr_compressed, compressed_off;
	int64_t compressed_idx;
	uint32_t compressed_type;

	/* pipe features */
	uint64_t nr_feat_recs, feat_end_off;
	int64_t feat_idx;
	bool end_marker;

	/* AUXTRACE records, in file order (so sorted by offset) */
	uint64_t *aux_off;
	uint64_t *aux_size;
	size_t aux_nr, aux_cap;
	bool aux_full;
};

/* ------------------------------------------------------------------ */
/* threads                                                             */

static uint32_t tid_hash(uint32_t tid)
{
	return tid * 2654435761u;
}

static struct thr *thr_get(struct pc_check *c, uint32_t tid)
{
	size_t i;

	/* 0 is the idle task and -1 "no task": neither is ever announced. */
	if (tid == 0 || tid == UINT32_MAX)
		return NULL;
	if (c->thr_nr * 2 >= c->thr_cap) {
		size_t ncap = c->thr_cap ? c->thr_cap * 2 : 1024, j;
		struct thr *nt;

		if (c->thr_nr >= MAX_THREADS) {
			c->thr_full = true;
			goto lookup;
		}
		nt = calloc(ncap, sizeof(*nt));
		if (!nt) {
			c->thr_full = true;
			goto lookup;
		}
		for (j = 0; j < c->thr_cap; j++) {
			if (!c->thr[j].tid)
				continue;
			i = tid_hash(c->thr[j].tid) & (ncap - 1);
			while (nt[i].tid)
				i = (i + 1) & (ncap - 1);
			nt[i] = c->thr[j];
		}
		free(c->thr);
		c->thr = nt;
		c->thr_cap = ncap;
	}
lookup:
	if (!c->thr_cap)
		return NULL;
	i = tid_hash(tid) & (c->thr_cap - 1);
	while (c->thr[i].tid) {
		if (c->thr[i].tid == tid)
			return &c->thr[i];
		i = (i + 1) & (c->thr_cap - 1);
	}
	/* Keep one free slot so that lookups always end. */
	if (c->thr_nr * 2 >= c->thr_cap)
		return NULL;
	c->thr[i].tid = tid;
	c->thr_nr++;
	return &c->thr[i];
}

/* ------------------------------------------------------------------ */
/* file layout (file mode)                                             */

struct sect {
	uint64_t off, size;
	uint64_t field;		/* header or table offset that describes it */
	const char *name;
	int idx;		/* attr or feature number, -1 if none */
	bool feat;
};

static int cmp_sect(const void *a, const void *b)
{
	const struct sect *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->size < y->size ? -1 : x->size > y->size;
}

static bool pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (uint8_t *)buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

static uint32_t ld32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static uint16_t ld16(const uint8_t *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

static bool in_file(uint64_t off, uint64_t size, uint64_t file_size)
{
	return off <= file_size && size <= file_size - off;
}

static void sect_name(const struct sect *s, char *buf, size_t size)
{
	const char *fn;

	if (s->feat && s->idx >= 0) {
		fn = pd_feature_name((unsigned int)s->idx);
		if (fn)
			snprintf(buf, size, "feature:%s", fn);
		else
			snprintf(buf, size, "feature:%d", s->idx);
	} else if (s->idx >= 0) {
		snprintf(buf, size, "%s:%d", s->name, s->idx);
	} else {
		snprintf(buf, size, "%s", s->name);
	}
}

static void report_overlap(struct pc_check *c, const struct sect *a, const struct sect *b)
{
	char an[48], bn[48];
	const struct sect *at = b->feat ? b : a->feat ? a : b;

	/* The reader reports attrs against data itself. */
	if ((!strcmp(a->name, "attrs") && !strcmp(b->name, "data")) ||
	    (!strcmp(a->name, "data") && !strcmp(b->name, "attrs")))
		return;
	sect_name(a, an, sizeof(an));
	sect_name(b, bn, sizeof(bn));
	pc_emit(c->pf, a->feat || b->feat ? PD_FEAT_SECTION_OVERLAP : PD_SECTION_OVERLAP, at->field,
		-1, 0, NULL,
		"a=%s b=%s a_offset=%" PRIu64 " a_size=%" PRIu64 " b_offset=%" PRIu64
		" b_size=%" PRIu64, an, bn, a->off, a->size, b->off, b->size);
}

/* A known kernel or perf-tool record type with a plausible size? */
static bool looks_like_record(const uint8_t *p, bool swap, uint64_t room, uint32_t *size)
{
	uint32_t type = ld32(p, swap);
	uint16_t sz = ld16(p + 6, swap);

	if (!((type >= 1 && type < PD_REC_KERNEL_MAX) || (type >= 64 && type < PD_REC_USER_MAX)))
		return false;
	if (sz < 8 || sz > room || sz < pd_record_min_size(type))
		return false;
	if (type < PD_REC_KERNEL_MAX && sz % 8)
		return false;
	*size = sz;
	return true;
}

/*
 * Bytes right after the data section's end that parse as records: a
 * writer that did not update data.size, or a file appended to.  (When a
 * feature table follows such records, the reader found the real end and
 * said so: PD020.)
 */
static void check_gap(struct pc_check *c, int fd, const struct sect *s, size_t n)
{
	const struct pd_header *h = c->h;
	uint64_t data_end = h->data.offset + h->data.size, gap_end = h->file_size, len;
	uint8_t buf[GAP_SCAN];
	unsigned int nrec = 0;
	size_t i, pos = 0;
	uint32_t sz;

	for (i = 0; i < n; i++)
		if (s[i].off >= data_end && s[i].off < gap_end)
			gap_end = s[i].off;
	if (gap_end <= data_end || gap_end - data_end < 8)
		return;
	len = gap_end - data_end < GAP_SCAN ? gap_end - data_end : GAP_SCAN;
	if (!pread_full(fd, buf, (size_t)len, data_end))
		return;
	while (len - pos >= 8 && looks_like_record(buf + pos, h->swapped, len - pos, &sz)) {
		nrec++;
		pos += sz;
	}
	/* One lone header-shaped word could be chance; two records are not. */
	if (nrec >= 2 || (nrec == 1 && pos == gap_end - data_end))
		pc_emit(c->pf, PD_REC_AFTER_DATA_END, data_end, -1, 0, NULL,
			"data_end=%" PRIu64 " records=%u%s bytes=%" PRIu64, data_end, nrec,
			pos == len && len == GAP_SCAN ? "+" : "", gap_end - data_end);
}

/*
 * Check that no two sections of the file share bytes: the header's
 * sections, each attr's id array and the feature table and sections, as
 * the reader's section map gives them (after its repairs: PD020, PD021,
 * PD022).  Only the gap scan reads the file.
 */
static void check_layout(struct pc_check *c, int fd)
{
	const struct pd_header *h = c->h;
	size_t nattrs = pd_reader_nr_events(c->r), n = 0, cap, i, k;
	uint64_t table_off = h->feat_table_offset;
	struct sect *s;
	unsigned int bit;

	if (h->mode != PD_MODE_FILE)
		return;
	if (h->event_types.size && !in_file(h->event_types.offset, h->event_types.size, h->file_size))
		pc_emit(c->pf, PD_SECTION_OUT_OF_FILE, 56, -1, 0, NULL,
			"section=event_types offset=%" PRIu64 " size=%" PRIu64 " file_size=%" PRIu64,
			h->event_types.offset, h->event_types.size, h->file_size);
	if (nattrs > MAX_LAYOUT_ATTRS)
		nattrs = MAX_LAYOUT_ATTRS;
	cap = 4 + nattrs + PD_FEAT_BITS;
	s = calloc(cap, sizeof(*s));
	if (!s)
		return;
	s[n++] = (struct sect){ h->attrs.offset, h->attrs.size, 24, "attrs", -1, false };
	s[n++] = (struct sect){ h->data.offset, h->data.size, 40, "data", -1, false };
	s[n++] = (struct sect){ h->event_types.offset, h->event_types.size, 56, "event_types", -1,
				false };
	for (i = 0; i < nattrs; i++) {
		const struct pd_event *ev = pd_reader_event(c->r, i);

		if (ev)
			s[n++] = (struct sect){ ev->ids_offset, ev->ids_size,
						ev->file_offset + h->attr_size - 16, "ids", (int)i,
						false };
	}
	if (h->feat_table_entries && in_file(table_off, 16ULL * h->feat_table_entries,
					     h->file_size)) {
		s[n++] = (struct sect){ table_off, 16ULL * h->feat_table_entries, table_off,
					"feature_table", -1, true };
		for (bit = 0, k = 0; bit < PD_FEAT_BITS; bit++) {
			const struct pd_section *fs = &h->feat_sections[bit];

			if (!((h->features[bit / 64] >> (bit % 64)) & 1) ||
			    (!fs->offset && !fs->size))
				continue;
			s[n++] = (struct sect){ fs->offset, fs->size, table_off + 16 * k, "feature",
						(int)bit, true };
			k++;
		}
	}

	/* Sections outside the file were reported when they were read. */
	for (i = 0, k = 0; i < n; i++)
		if (s[i].size && in_file(s[i].off, s[i].size, h->file_size))
			s[k++] = s[i];
	qsort(s, k, sizeof(*s), cmp_sect);
	{
		size_t a = 0;	/* the section reaching furthest so far */

		for (i = 1; i < k; i++) {
			if (s[i].off < s[a].off + s[a].size)
				report_overlap(c, &s[a], &s[i]);
			if (s[i].off + s[i].size > s[a].off + s[a].size)
				a = i;
		}
	}
	if (h->data.size && in_file(h->data.offset, h->data.size, h->file_size))
		check_gap(c, fd, s, k);
	free(s);
}

/* ------------------------------------------------------------------ */
/* per record                                                          */

static void emit_rec(struct pc_check *c, const struct pd_record *rec, enum pd_code code,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void emit_rec(struct pc_check *c, const struct pd_record *rec, enum pd_code code,
		     const char *fmt, ...)
{
	char detail[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	/* Inside a COMPRESSED record, the offset is the container's. */
	if (rec->from_compressed)
		pc_emit(c->pf, code, rec->offset, (int64_t)rec->index, rec->type, c->stream,
			"%s inner_offset=%u", detail, rec->inner_offset);
	else
		pc_emit(c->pf, code, rec->offset, (int64_t)rec->index, rec->type, c->stream, "%s",
			detail);
}

/* The record's timestamp, if it has one perf would order by. */
static bool record_time(const struct pd_record *rec, uint64_t *t)
{
	if (!rec->decoded || rec->type >= 64)
		return false;
	if (rec->type == PD_REC_SAMPLE) {
		if (!(rec->u.sample.sample_type & PD_SAMPLE_TIME))
			return false;
		*t = rec->u.sample.time;
	} else if (rec->has_trailer && (rec->sid.present & PD_SAMPLE_TIME)) {
		*t = rec->sid.time;
	} else {
		return false;
	}
	/* perf delivers 0 and -1 at once, outside the ordering (synthesized records) */
	return *t != 0 && *t != UINT64_MAX;
}

static void check_order(struct pc_check *c, const struct pd_record *rec)
{
	uint64_t t;

	if (!record_time(rec, &t))
		return;
	/* Backward ring buffers are read newest first: perf does not expect order. */
	if (rec->event && (rec->event->attr.flags & PD_ATTR_WRITE_BACKWARD))
		return;
	if (t < c->flush_limit)
		emit_rec(c, rec, PD_ROUND_ORDER,
			 "time=%" PRIu64 " limit=%" PRIu64 " behind_ns=%" PRIu64 " round=%" PRIu64,
			 t, c->flush_limit, c->flush_limit - t, c->rounds);
	if (t > c->cur_max)
		c->cur_max = t;
}

static void check_cpu(struct pc_check *c, const struct pd_record *rec, uint32_t cpu)
{
	/* (u32)-1 is "any cpu", kept as such by perf */
	if (!c->nr_cpus_avail || cpu == UINT32_MAX || cpu < c->nr_cpus_avail)
		return;
	emit_rec(c, rec, PD_SAMPLE_CPU_RANGE, "cpu=%u nr_cpus_avail=%u", cpu, c->nr_cpus_avail);
}

static void check_sample(struct pc_check *c, const struct pd_record *rec)
{
	const struct pd_sample *s = &rec->u.sample;

	if (s->sample_type & PD_SAMPLE_CPU)
		check_cpu(c, rec, s->cpu);
	if ((s->sample_type & PD_SAMPLE_TIME) && s->time) {
		if (!c->have_stime || s->time < c->smin)
			c->smin = s->time;
		if (!c->have_stime || s->time > c->smax)
			c->smax = s->time;
		c->have_stime = true;
		if (c->st_known && (s->time < c->st_first || s->time > c->st_last)) {
			emit_rec(c, rec, PD_SAMPLE_OUTSIDE_TIME_RANGE,
				 "time=%" PRIu64 " first=%" PRIu64 " last=%" PRIu64, s->time,
				 c->st_first, c->st_last);
		}
	}
	if (s->sample_type & PD_SAMPLE_TID) {
		struct thr *t = thr_get(c, s->tid);

		if (t && !(t->flags & THR_SAMPLED)) {
			t->flags |= THR_SAMPLED;
			t->first_sample_off = rec->offset;
			t->first_sample_idx = (int64_t)rec->index;
		}
	}
}

static void check_mmap(struct pc_check *c, const struct pd_record *rec)
{
	const struct pd_rec_mmap *m = &rec->u.mmap;

	if (!m->len)
		/* start 0 in kernel mode: a recorder that could not read kernel addresses */
		emit_rec(c, rec, PD_MMAP_ZERO_LEN, "start=%#" PRIx64 " pid=%d tid=%d filename=%s%s",
			 m->start, (int)m->pid, (int)m->tid, m->filename ? m->filename : "",
			 !m->start && (rec->misc & PD_MISC_CPUMODE_MASK) == 1 ?
			 " reason=kernel_addresses_hidden" : "");
	else if (m->len - 1 > UINT64_MAX - m->start)
		/* A map may end at the very top (perf's kernel map does), not past it. */
		emit_rec(c, rec, PD_MMAP_WRAPS, "start=%#" PRIx64 " len=%#" PRIx64 " pid=%u tid=%u",
			 m->start, m->len, m->pid, m->tid);
	if (c->bids && rec->type == PD_REC_MMAP2 && m->has_build_id && m->filename)
		pc_buildids_check(c->bids, c->pf, m->filename, m->build_id, m->build_id_size,
				  rec->offset, (int64_t)rec->index, rec->type);
}

static void check_fork_exit(struct pc_check *c, const struct pd_record *rec)
{
	const struct pd_rec_fork *f = &rec->u.fork;
	struct thr *t = thr_get(c, f->tid);

	if (!t)
		return;
	if (rec->type == PD_REC_FORK) {
		t->flags |= THR_ANNOUNCED | THR_FORKED;
		t->fork_time = f->time;
		t->pid = f->pid;
		return;
	}
	/*
	 * A tid can be reused after an exit, so an EXIT is wrong only when it
	 * predates the FORK of the same life: same process, earlier time.
	 */
	if ((t->flags & THR_FORKED) && f->time && t->fork_time && f->time < t->fork_time &&
	    t->pid == f->pid)
		emit_rec(c, rec, PD_EXIT_BEFORE_FORK,
			 "pid=%u tid=%u exit_time=%" PRIu64 " fork_time=%" PRIu64, f->pid, f->tid,
			 f->time, t->fork_time);
}

static void check_id_index(struct pc_check *c, const struct pd_record *rec)
{
	const struct pd_rec_id_index *ii = &rec->u.id_index;
	size_t esz = ii->has_vcpu ? 48 : 32;
	uint64_t i;

	for (i = 0; i < ii->nr; i++)
		if (!pd_reader_event_by_id(c->r, ii->entries[i].id))
			pc_emit(c->pf, PD_ID_INDEX_UNKNOWN_ID, rec->offset + 16 + i * esz,
				(int64_t)rec->index, rec->type, c->stream,
				"entry=%" PRIu64 " id=%" PRIu64, i, ii->entries[i].id);
}

static void note_auxtrace(struct pc_check *c, const struct pd_record *rec)
{
	if (rec->from_compressed || c->aux_full)
		return;
	if (c->aux_nr == c->aux_cap) {
		size_t ncap = c->aux_cap ? c->aux_cap * 2 : 256;
		uint64_t *no, *ns;

		if (ncap > MAX_AUXTRACE) {
			c->aux_full = true;
			return;
		}
		no = realloc(c->aux_off, ncap * sizeof(*no));
		if (!no) {
			c->aux_full = true;
			return;
		}
		c->aux_off = no;
		ns = realloc(c->aux_size, ncap * sizeof(*ns));
		if (!ns) {
			c->aux_full = true;
			return;
		}
		c->aux_size = ns;
		c->aux_cap = ncap;
	}
	c->aux_off[c->aux_nr] = rec->offset;
	c->aux_size[c->aux_nr] = rec->size;
	c->aux_nr++;
}

static void check_record(struct pc_check *c, const struct pd_record *rec)
{
	if (rec->stream_index != c->stream_index) {
		/* Each stream of a directory is ordered by itself and has no rounds. */
		c->stream_index = rec->stream_index;
		c->cur_max = c->round_max = c->flush_limit = 0;
		c->rounds = 0;
	}
	c->stream = rec->stream;
	c->any_rec = true;
	c->last_off = rec->offset;
	c->last_idx = (int64_t)rec->index;
	c->last_type = rec->type;

	if (rec->type == PD_REC_FINISHED_ROUND) {
		c->flush_limit = c->round_max;
		c->round_max = c->cur_max;
		c->rounds++;
		return;
	}
	if ((rec->type == PD_REC_COMPRESSED || rec->type == PD_REC_COMPRESSED2) &&
	    !rec->from_compressed) {
		if (!c->nr_compressed++) {
			c->compressed_off = rec->offset;
			c->compressed_idx = (int64_t)rec->index;
			c->compressed_type = rec->type;
		}
		return;
	}
	if (!rec->decoded)
		return;
	check_order(c, rec);
	if (rec->type != PD_REC_SAMPLE && rec->has_trailer && (rec->sid.present & PD_SAMPLE_CPU))
		check_cpu(c, rec, rec->sid.cpu);

	switch (rec->type) {
	case PD_REC_SAMPLE:
		check_sample(c, rec);
		break;
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
		check_mmap(c, rec);
		break;
	case PD_REC_COMM: {
		struct thr *t = thr_get(c, rec->u.comm.tid);

		if (t)
			t->flags |= THR_ANNOUNCED;
		break;
	}
	case PD_REC_FORK:
	case PD_REC_EXIT:
		check_fork_exit(c, rec);
		break;
	case PD_REC_LOST:
		if (!c->lost_recs++) {
			c->lost_off = rec->offset;
			c->lost_idx = (int64_t)rec->index;
		}
		c->lost_total += rec->u.lost.lost;
		break;
	case PD_REC_LOST_SAMPLES:
		if (!c->ls_recs++) {
			c->ls_off = rec->offset;
			c->ls_idx = (int64_t)rec->index;
		}
		if (rec->misc & PD_MISC_LOST_SAMPLES_BPF)
			c->ls_bpf += rec->u.lost_samples.lost;
		else
			c->ls_total += rec->u.lost_samples.lost;
		break;
	case PD_REC_THROTTLE:
		if (!c->thr_recs++) {
			c->thr_off = rec->offset;
			c->thr_idx = (int64_t)rec->index;
		}
		break;
	case PD_REC_ID_INDEX:
		check_id_index(c, rec);
		break;
	case PD_REC_AUXTRACE:
		note_auxtrace(c, rec);
		break;
	case PD_REC_HEADER_FEATURE:
		if (rec->u.header_feature.end_marker) {
			c->end_marker = true;
		} else {
			c->nr_feat_recs++;
			c->feat_end_off = rec->offset + rec->size;
			c->feat_idx = (int64_t)rec->index;
		}
		break;
	case PD_REC_HEADER_BUILD_ID:
		if (c->bids)
			pc_buildids_check(c->bids, c->pf, rec->u.build_id.filename,
					  rec->u.build_id.build_id, rec->u.build_id.build_id_size,
					  rec->offset, (int64_t)rec->index, rec->type);
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------------------ */
/* after the last record                                               */

static uint64_t feat_off(const struct pd_features *f, unsigned int id)
{
	return f->raw[id].present ? f->raw[id].offset : PD_NO_OFFSET;
}

static bool feat_ok(const struct pd_features *f, unsigned int id)
{
	return pd_features_has(f, id) && f->raw[id].decoded;
}

static void check_event_desc(struct pc_check *c, const struct pd_features *f)
{
	const struct pd_feat_event_desc *ed = &f->event_desc;
	size_t n = pd_reader_nr_events(c->r), i;
	uint64_t off = feat_off(f, PD_FEAT_EVENT_DESC);

	if (!feat_ok(f, PD_FEAT_EVENT_DESC))
		return;
	if (ed->nr != n) {
		pc_emit(c->pf, PD_EVENT_DESC_MISMATCH, off, -1, 0, NULL,
			"reason=count event_desc=%u attrs=%zu", ed->nr, n);
		return;
	}
	for (i = 0; i < n; i++) {
		const struct pd_feat_event *fe = &ed->ev[i];
		const struct pd_event *ev = pd_reader_event(c->r, i);
		const char *what = NULL;

		if (!ev)
			return;
		if (fe->attr.type != ev->attr.type || fe->attr.config != ev->attr.config)
			what = "type_config";
		else if (fe->attr.sample_type != ev->attr.sample_type)
			what = "sample_type";
		else if (fe->attr.read_format != ev->attr.read_format)
			what = "read_format";
		else if ((fe->attr.flags ^ ev->attr.flags) & PD_ATTR_SAMPLE_ID_ALL)
			what = "sample_id_all";
		if (what) {
			pc_emit(c->pf, PD_EVENT_DESC_MISMATCH, off, -1, 0, NULL,
				"reason=attr event=%zu field=%s name=%s", i, what,
				fe->name ? fe->name : "");
			continue;
		}
		/*
		 * perf names events through the first id of each EVENT_DESC
		 * entry: ids that differ put names on the wrong events.
		 */
		if (fe->nr_ids && ev->nr_ids &&
		    (fe->nr_ids != ev->nr_ids ||
		     memcmp(fe->ids, ev->ids, (size_t)fe->nr_ids * sizeof(*fe->ids))))
			pc_emit(c->pf, PD_EVENT_DESC_MISMATCH, off, -1, 0, NULL,
				"reason=ids event=%zu event_desc_ids=%u attr_ids=%zu first=%" PRIu64
				" attr_first=%" PRIu64, i, fe->nr_ids, ev->nr_ids, fe->ids[0],
				ev->ids[0]);
	}
}

static void check_group_desc(struct pc_check *c, const struct pd_features *f)
{
	const struct pd_feat_group_desc *g = &f->group_desc;
	size_t n = pd_reader_nr_events(c->r);
	uint32_t i;

	if (!feat_ok(f, PD_FEAT_GROUP_DESC))
		return;
	for (i = 0; i < g->nr; i++) {
		const struct pd_feat_group *gr = &g->groups[i];

		if (gr->leader_idx < n && gr->nr_members && gr->nr_members <= n - gr->leader_idx)
			continue;
		pc_emit(c->pf, PD_GROUP_DESC_MISMATCH, feat_off(f, PD_FEAT_GROUP_DESC), -1, 0, NULL,
			"group=%u name=%s leader_idx=%u nr_members=%u attrs=%zu", i,
			gr->name ? gr->name : "", gr->leader_idx, gr->nr_members, n);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void check_auxtrace_index(struct pc_check *c, const struct pd_features *f)
{
	const struct pd_feat_auxtrace *a = &f->auxtrace;
	uint64_t base = feat_off(f, PD_FEAT_AUXTRACE), i;

	if (!feat_ok(f, PD_FEAT_AUXTRACE) || c->aux_full || c->h->mode != PD_MODE_FILE)
		return;
	if (!a->simpleperf)
		base += 8;
	for (i = 0; i < a->nr; i++) {
		const struct pd_feat_auxtrace_entry *e = &a->entries[i];
		const uint64_t *hit = NULL;

		if (c->aux_nr)
			hit = bsearch(&e->file_offset, c->aux_off, c->aux_nr, sizeof(*c->aux_off),
				      cmp_u64);
		if (!hit) {
			pc_emit(c->pf, PD_AUXTRACE_INDEX_MISMATCH, base + 16 * i, -1, 0, NULL,
				"entry=%" PRIu64 " offset=%" PRIu64 " size=%" PRIu64
				" reason=no_record_there", i, e->file_offset, e->size);
			continue;
		}
		/* perf indexes the record without its AUX payload: header.size */
		if (!a->simpleperf && e->size != c->aux_size[hit - c->aux_off])
			pc_emit(c->pf, PD_AUXTRACE_INDEX_MISMATCH, base + 16 * i + 8, -1, 0, NULL,
				"entry=%" PRIu64 " offset=%" PRIu64 " size=%" PRIu64
				" record_size=%" PRIu64 " reason=size", i, e->file_offset, e->size,
				c->aux_size[hit - c->aux_off]);
	}
}

static void check_totals(struct pc_check *c)
{
	if (c->lost_recs)
		pc_emit(c->pf, PD_LOST_EVENTS, c->lost_off, c->lost_idx, PD_REC_LOST, NULL,
			"records=%" PRIu64 " lost=%" PRIu64, c->lost_recs, c->lost_total);
	if (c->ls_recs)
		pc_emit(c->pf, PD_LOST_SAMPLES, c->ls_off, c->ls_idx, PD_REC_LOST_SAMPLES, NULL,
			"records=%" PRIu64 " lost=%" PRIu64 " bpf_filtered=%" PRIu64, c->ls_recs,
			c->ls_total, c->ls_bpf);
	if (c->thr_recs)
		pc_emit(c->pf, PD_THROTTLED, c->thr_off, c->thr_idx, PD_REC_THROTTLE, NULL,
			"records=%" PRIu64, c->thr_recs);
}

static void check_threads(struct pc_check *c)
{
	const struct thr *first = NULL;
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < c->thr_cap; i++) {
		const struct thr *t = &c->thr[i];

		if (!t->tid || (t->flags & (THR_SAMPLED | THR_ANNOUNCED)) != THR_SAMPLED)
			continue;
		n++;
		if (!first || t->first_sample_off < first->first_sample_off)
			first = t;
	}
	if (first)
		pc_emit(c->pf, PD_THREAD_NOT_ANNOUNCED, first->first_sample_off,
			first->first_sample_idx, PD_REC_SAMPLE, NULL, "threads=%" PRIu64 " first_tid=%u%s",
			n, first->tid, c->thr_full ? " incomplete=thread_limit" : "");
}

static void check_sample_time(struct pc_check *c, const struct pd_features *f)
{
	const struct pd_feat_sample_time *st = &f->sample_time;

	/*
	 * Samples were checked one by one when the range was known first
	 * (file mode).  Otherwise (a pipe) compare the extremes now.  The
	 * range need not be tight: perf takes it from the samples it
	 * processed, which may be fewer than those in the file.
	 */
	if (c->st_known || !c->have_stime || !feat_ok(f, PD_FEAT_SAMPLE_TIME) ||
	    (!st->first && !st->last) || st->first == UINT64_MAX || st->first > st->last)
		return;
	if (c->smin < st->first || c->smax > st->last)
		pc_emit(c->pf, PD_SAMPLE_TIME_MISMATCH, feat_off(f, PD_FEAT_SAMPLE_TIME), -1, 0, NULL,
			"first=%" PRIu64 " last=%" PRIu64 " sample_min=%" PRIu64 " sample_max=%" PRIu64,
			st->first, st->last, c->smin, c->smax);
}

static void check_compressed(struct pc_check *c, const struct pd_features *f)
{
	bool has = pd_features_has(f, PD_FEAT_COMPRESSED);

	if (c->nr_compressed && !has)
		pc_emit(c->pf, PD_COMPRESSED_NO_FEATURE, c->compressed_off, c->compressed_idx,
			c->compressed_type, NULL, "records=%" PRIu64 " reason=no_feature",
			c->nr_compressed);
	else if (c->nr_compressed && feat_ok(f, PD_FEAT_COMPRESSED) && f->compressed.type != 1)
		pc_emit(c->pf, PD_COMPRESSED_NO_FEATURE, feat_off(f, PD_FEAT_COMPRESSED) + 4, -1, 0,
			NULL, "records=%" PRIu64 " type=%u reason=not_zstd", c->nr_compressed,
			f->compressed.type);
	else if (!c->nr_compressed && feat_ok(f, PD_FEAT_COMPRESSED) && f->compressed.type == 1)
		/* type 0 is how perf stat record says "not compressed" */
		pc_emit(c->pf, PD_COMPRESSED_NO_RECORDS, feat_off(f, PD_FEAT_COMPRESSED), -1, 0, NULL,
			"type=%u level=%u", f->compressed.type, f->compressed.level);
}

/*
 * Pipe writers up to 4.16 sent feature records without an end marker;
 * it is certain from 5.x on (HEADER_LAST_FEATURE 32 from 5.13).
 */
static bool writer_has_end_marker(const struct pd_features *f)
{
	unsigned int major = 0, minor = 0;

	if (!f->version || sscanf(f->version, "%u.%u", &major, &minor) != 2)
		return false;
	return major >= 5;
}

/* complete: every record of the input was seen */
static void check_finish(struct pc_check *c, bool complete)
{
	const struct pd_features *f = pd_reader_features(c->r);
	uint32_t i;

	check_totals(c);
	if (!f)
		return;
	if (complete || c->h->mode == PD_MODE_FILE) {
		check_event_desc(c, f);
		check_group_desc(c, f);
	}
	if (c->bids && feat_ok(f, PD_FEAT_BUILD_ID))
		for (i = 0; i < f->build_ids.nr; i++)
			pc_buildids_check(c->bids, c->pf, f->build_ids.ids[i].filename,
					  f->build_ids.ids[i].id, f->build_ids.ids[i].size,
					  f->build_ids.ids[i].offset, -1, 0);
	if (!complete)
		return;
	check_threads(c);
	check_sample_time(c, f);
	check_compressed(c, f);
	check_auxtrace_index(c, f);
	if (c->nr_feat_recs && !c->end_marker && writer_has_end_marker(f))
		pc_emit(c->pf, PD_FEAT_NO_END_MARKER, c->feat_end_off, -1, 0, NULL,
			"feature_records=%" PRIu64, c->nr_feat_recs);
}

/* ------------------------------------------------------------------ */
/* one input                                                           */

static void init_features(struct pc_check *c)
{
	const struct pd_features *f = pd_reader_features(c->r);

	if (!f)
		return;
	if (feat_ok(f, PD_FEAT_NRCPUS))
		c->nr_cpus_avail = f->nrcpus.avail;
	/* In file mode the features are known before the first sample. */
	/* 0/0 (pipe) and -1/-1 (no sample seen) say nothing */
	if (feat_ok(f, PD_FEAT_SAMPLE_TIME) && (f->sample_time.first || f->sample_time.last) &&
	    f->sample_time.first != UINT64_MAX && f->sample_time.first <= f->sample_time.last) {
		c->st_known = true;
		c->st_first = f->sample_time.first;
		c->st_last = f->sample_time.last;
	}
}

/* Features that arrive as pipe records take effect from then on. */
static void refresh_features(struct pc_check *c, const struct pd_record *rec)
{
	if (rec->type == PD_REC_HEADER_FEATURE && rec->decoded && !rec->u.header_feature.end_marker &&
	    rec->u.header_feature.feat_id == PD_FEAT_NRCPUS) {
		const struct pd_features *f = pd_reader_features(c->r);

		if (f && feat_ok(f, PD_FEAT_NRCPUS))
			c->nr_cpus_avail = f->nrcpus.avail;
	}
}

static int run(struct pc_report *rep, struct pc_file *pf, struct pd_reader *r, int layout_fd)
{
	const struct pc_opts *o = rep->opts;
	const struct pd_record *rec;
	struct pc_check c;
	int ret = 0;

	memset(&c, 0, sizeof(c));
	c.pf = pf;
	c.r = r;
	c.h = pd_reader_header(r);
	c.lost_idx = c.ls_idx = c.thr_idx = -1;
	if (o->check_buildids)
		c.bids = pc_buildids_new(o->symfs);
	if (layout_fd >= 0)
		check_layout(&c, layout_fd);
	init_features(&c);

	while (!pf->stop && (ret = pd_reader_next(r, &rec)) > 0) {
		pf->records++;
		check_record(&c, rec);
		refresh_features(&c, rec);
	}
	if (pf->stop) {
		pc_emit(pf, PD_MAX_ERRORS, c.any_rec ? c.last_off : PD_NO_OFFSET,
			c.any_rec ? c.last_idx : -1, c.last_type, c.stream,
			"max_errors=%" PRIu64, o->max_errors);
		ret = 0;
	} else if (pf->fatal) {
		uint64_t left = 0;

		if (c.h->mode == PD_MODE_FILE && pf->fatal_offset != PD_NO_OFFSET) {
			uint64_t end = c.h->data.size ? c.h->data.offset + c.h->data.size :
				       c.h->file_size;

			if (end > c.h->file_size)
				end = c.h->file_size;
			left = end > pf->fatal_offset ? end - pf->fatal_offset : 0;
		}
		pc_emit(pf, PD_STREAM_STOPPED, pf->fatal_offset, -1, 0, c.stream,
			"records_read=%" PRIu64 " unchecked_bytes=%" PRIu64, pf->records, left);
	}
	check_finish(&c, ret == 0 && !pf->fatal && !pf->stop);
	pc_buildids_free(c.bids);
	free(c.thr);
	free(c.aux_off);
	free(c.aux_size);
	return ret < 0 ? ret : 0;
}

static void reader_opts(const struct pc_opts *o, struct pc_file *pf, struct pd_reader_opts *ro)
{
	struct pd_reader_opts init = PD_READER_OPTS_INIT;

	*ro = init;
	ro->diag_fn = pc_diag;
	ro->diag_arg = pf;
	ro->window_size = o->window_size;
	ro->max_decompressed = o->max_decompressed;
}

static bool is_regular(int fd)
{
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

int pc_check_fd(struct pc_report *rep, int fd, const char *name)
{
	struct pd_reader_opts ro;
	struct pd_reader *r;
	struct pc_file pf;
	int ret;

	pc_file_begin(rep, &pf, name);
	reader_opts(rep->opts, &pf, &ro);
	ret = pd_reader_open_fd(fd, name, &ro, &r);
	if (ret == 0) {
		/* A spooled pipe is a copy we cannot see: no layout re-read then. */
		ret = run(rep, &pf, r, is_regular(fd) && !pd_reader_header(r)->spooled ? fd : -1);
		pd_reader_close(r);
	}
	return pc_file_end(&pf, ret);
}

int pc_check_path(struct pc_report *rep, const char *path)
{
	struct pd_reader_opts ro;
	struct pd_reader *r;
	struct pc_file pf;
	struct stat st;
	int fd, ret;

	if (!strcmp(path, "-"))
		return pc_check_fd(rep, 0, "<stdin>");
	pc_file_begin(rep, &pf, path);
	reader_opts(rep->opts, &pf, &ro);
	if (stat(path, &st) < 0) {
		int err = errno;

		/* on stderr as every command says it; the finding goes to the report */
		tool_io_error("perfcheck", "open", path, err);
		pc_emit(&pf, PD_IO_ERROR, PD_NO_OFFSET, -1, 0, NULL, "errno=%d reason=%s", err,
			strerror(err));
		return pc_file_end(&pf, PD_STATUS_IO);
	}
	if (S_ISDIR(st.st_mode)) {
		char data[4096];

		ret = pd_reader_open(path, &ro, &r);
		if (ret == 0) {
			/* The header, attrs and features live in DIR/data. */
			snprintf(data, sizeof(data), "%s/data", path);
			fd = open(data, O_RDONLY | O_CLOEXEC);
			ret = run(rep, &pf, r, is_regular(fd) ? fd : -1);
			if (fd >= 0)
				close(fd);
			pd_reader_close(r);
		}
		return pc_file_end(&pf, ret);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		/* on stderr as every command says it; the finding goes to the report */
		tool_io_error("perfcheck", "open", path, err);
		pc_emit(&pf, PD_IO_ERROR, PD_NO_OFFSET, -1, 0, NULL, "errno=%d reason=%s", err,
			strerror(err));
		return pc_file_end(&pf, PD_STATUS_IO);
	}
	ret = pd_reader_open_fd(fd, path, &ro, &r);
	if (ret == 0) {
		ret = run(rep, &pf, r, is_regular(fd) && !pd_reader_header(r)->spooled ? fd : -1);
		pd_reader_close(r);
	}
	close(fd);
	return pc_file_end(&pf, ret);
}
