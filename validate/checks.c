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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfcheck.h"
#include "../common/grow.h"
#include "../common/tool.h"

/* Threads tracked for the FORK/EXIT and announcement checks. */
#define MAX_THREADS		(1u << 17)
/* AUXTRACE record offsets kept to check the AUXTRACE index against. */
#define MAX_AUXTRACE		(1u << 18)
/* Attrs whose id arrays take part in the section layout check. */
#define MAX_LAYOUT_ATTRS	4096
/* Unknown ids whose repeats are counted instead of reported. */
#define MAX_UNKNOWN_IDS		256
/* ID_INDEX entries kept to check sample cpus against. */
#define MAX_ID_CPUS		(1u << 16)
/* Their id table (map_id_cpus()) spans at most this many ids per entry, plus ID_MAP_MIN. */
#define ID_MAP_SLACK		16
#define ID_MAP_MIN		1024
/* Bytes after the data section scanned for stray records. */
#define GAP_SCAN		4096

enum {
	THR_ANNOUNCED = 1,	/* COMM or FORK seen */
	THR_SAMPLED = 2,	/* a sample names it */
	THR_FORKED = 4,		/* fork_time is valid */
};

/* An event opened on one cpu (ID_INDEX), and what its samples said. */
struct id_cpu {
	uint64_t id;
	uint32_t cpu;
	uint64_t entry_off;	/* the entry's cpu field */
	uint64_t samples, wrong;
	uint64_t first_off;	/* first sample on another cpu: its cpu field */
	int64_t first_idx;
	uint32_t first_cpu;
	bool one_cpu;		/* every wrong sample on first_cpu */
};

/* An id that matched no attr (PD311): reported once, then counted. */
struct unknown_id {
	uint64_t id;
	uint64_t first_off;
	int64_t first_idx;
	uint32_t first_type;
	uint64_t repeats;
};

struct thr {
	uint32_t tid;		/* 0: free slot (tid 0 is never tracked) */
	uint32_t flags;
	uint32_t pid;
	uint64_t fork_time;
	uint64_t first_sample_off;
	int64_t first_sample_idx;
};

/*
 * A finding about a sample's layout, held back: when every sample of an
 * attr fails the same way, the attr is wrong, not the samples, and one
 * finding at the attr replaces them all.
 */
struct held {
	enum pd_code code;
	uint64_t offset;
	int64_t rec_idx;
	char stream[24];	/* directory stream name, "" if none */
	char detail[200];
};

/* Sample findings of one record, before the record says its attr. */
#define PENDING_MAX	8
/* Attrs whose failing samples are held back. */
#define HOLD_ATTRS	256
/* Findings held per attr; past these, counted only. */
#define HOLD_PER_ATTR	64
/* Candidate values of the wrong attr field that are kept and shown. */
#define MAX_FITS	4

struct attr_fit {
	uint64_t samples, failed;
	bool released;		/* a sample fit: findings go straight out */
	bool mixed;		/* failures with more than one code */
	enum pd_code first_code;
	uint64_t first_off;
	int64_t first_idx;
	struct held *held;
	unsigned int nr_held;
	uint64_t dropped;	/* failures past HOLD_PER_ATTR */
	/* attr field values under which the first failing sample fits */
	const char *fit_field;	/* NULL: none found */
	unsigned int fit_field_off;
	unsigned int nr_fits;
	uint64_t fit_value[MAX_FITS], fit_count[MAX_FITS];
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

	/* FINISHED_ROUND ordering (docs/perf-data-format.md §8.4) */
	uint64_t cur_max, round_max, flush_limit;
	uint64_t rounds;

	/* threads */
	struct thr *thr;
	size_t thr_cap, thr_nr;
	bool thr_full;
	uint32_t sampled_tid;	/* the last sample's thread, marked THR_SAMPLED; 0 if none */

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

	/* pipe mode: what follows the last FINISHED_ROUND */
	uint64_t round_off, stream_end;
	/* records and samples counted up to the last FINISHED_ROUND, and in all */
	uint64_t round_recs, round_samples, samples;
	uint64_t header_build_ids;

	/* pipe features */
	uint64_t nr_feat_recs, feat_end_off;
	int64_t feat_idx;
	bool end_marker;

	/* samples that do not fit their attr (below) */
	struct held pending[PENDING_MAX];
	unsigned int nr_pending;
	struct attr_fit *fit;	/* HOLD_ATTRS entries, allocated at the first sample finding */
	uint64_t blamed[HOLD_ATTRS / 64];	/* attrs reported by ATTR_NO_SAMPLE_FITS */

	/* ids that matched no attr */
	struct unknown_id *unk;
	unsigned int unk_nr;

	/* ID_INDEX entries of events bound to one cpu, sorted by id */
	struct id_cpu *idc;
	size_t idc_nr, idc_cap;
	/*
	 * The entry of id idc_base + k is idc[idc_map[k] - 1] (0: none), for
	 * ids close together as the kernel hands them out; NULL when they
	 * are not, and samples search idc instead.
	 */
	uint32_t *idc_map;
	uint64_t idc_base, idc_span;
	/* the last sample's id and its entry (NULL: none), until idc changes */
	uint64_t idc_last_id;
	struct id_cpu *idc_last;
	bool idc_last_valid;

	/* AUXTRACE records, in file order (so sorted by offset) */
	uint64_t *aux_off;
	uint64_t *aux_size;
	size_t aux_nr, aux_cap;
	bool aux_full;
};

static bool feat_ok(const struct pd_features *f, unsigned int id);

/* ------------------------------------------------------------------ */
/* findings of the header phase, in file order                         */

/*
 * The reader reports the header, attrs and feature sections while it
 * opens the input, before the layout check can say that two sections
 * share bytes; a feature decoded from bytes that belong to another
 * section then fails as a symptom of that overlap.  Those findings are
 * held here, the layout check adds its own, and all go out in file-offset
 * order, each overlap (the cause) with one counted note for the findings
 * inside the overlapping feature sections instead of those findings.
 */
#define MAX_EARLY	1024
#define MAX_OVERLAPS	32

struct early {
	enum pd_code code;
	enum pd_severity severity;
	uint64_t offset, key;
	int64_t rec_idx;
	uint32_t rec_type;
	uint32_t seq;
	bool fatal, layout, symptom;
	char stream[24];
	char detail[512];
};

struct overlap {
	uint64_t off, size;	/* a feature section that overlaps another section */
	uint64_t cause;		/* offset of the PD214 finding */
};

struct pc_early {
	struct early *e;
	size_t nr, cap;
	bool passthrough;	/* too many: they go out as they come */
	struct overlap ov[MAX_OVERLAPS];
	unsigned int nr_ov;
};

static void early_begin(struct pc_file *pf)
{
	pf->early = calloc(1, sizeof(*pf->early));
}

static void early_replay(struct pc_file *pf, const struct early *e)
{
	struct pd_diag d;

	d.code = e->code;
	d.severity = e->severity;
	d.offset = e->offset;
	d.record_index = e->rec_idx;
	d.record_type = e->rec_type;
	d.fatal = e->fatal;
	d.stream = e->stream[0] ? e->stream : NULL;
	d.detail = e->detail;
	pc_diag(&d, pf);
}

static int cmp_early(const void *a, const void *b)
{
	const struct early *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static bool feature_decode_code(enum pd_code code)
{
	return code >= PD_FEAT_TRUNCATED && code <= PD_FEAT_NOT_CONVERTIBLE &&
	       code != PD_FEAT_SECTION_OUT_OF_FILE && code != PD_FEAT_SECTION_OVERLAP &&
	       code != PD_FEAT_SKIPPED_SWAPPED;
}

/* One counted note per overlap whose feature sections held findings. */
static void early_symptoms(struct pc_early *q)
{
	size_t i, n = q->nr;
	unsigned int k, j;

	for (k = 0; k < q->nr_ov; k++) {
		const struct early *first = NULL;
		uint64_t count = 0, cause = q->ov[k].cause;

		/* both sections of one overlap share their cause: count them once */
		for (j = 0; j < k && q->ov[j].cause != cause; j++)
			;
		if (j < k)
			continue;
		for (i = 0; i < n; i++) {
			struct early *e = &q->e[i];

			if (e->layout || !feature_decode_code(e->code) || e->offset == PD_NO_OFFSET)
				continue;
			for (j = k; j < q->nr_ov; j++)
				if (q->ov[j].cause == cause && e->offset >= q->ov[j].off &&
				    e->offset - q->ov[j].off < q->ov[j].size)
					break;
			if (j == q->nr_ov || e->symptom)
				continue;
			e->symptom = true;
			count++;
			if (!first)
				first = e;
		}
		if (!count || q->nr == q->cap)
			continue;
		q->e[q->nr] = (struct early){
			.code = PD_OVERLAP_SYMPTOMS,
			.severity = pd_code_severity(PD_OVERLAP_SYMPTOMS),
			.offset = first->offset,
			.key = cause,
			.rec_idx = -1,
			.seq = UINT32_MAX,
		};
		snprintf(q->e[q->nr].detail, sizeof(q->e[q->nr].detail),
			 "findings=%" PRIu64 " code=%s cause=%#" PRIx64, count,
			 pd_code_id(first->code), cause);
		q->nr++;
	}
}

/* Everything held goes out, in file-offset order; later findings are not held. */
static void early_end(struct pc_file *pf)
{
	struct pc_early *q = pf->early;
	size_t i;

	if (!q)
		return;
	pf->early = NULL;
	early_symptoms(q);
	if (q->nr > 1)	/* an empty queue may have no array at all */
		qsort(q->e, q->nr, sizeof(*q->e), cmp_early);
	for (i = 0; i < q->nr; i++)
		if (!q->e[i].symptom)
			early_replay(pf, &q->e[i]);
	free(q->e);
	free(q);
}

/* Hold one finding; false when it must go out now. */
static bool early_add(struct pc_file *pf, const struct pd_diag *d, bool layout)
{
	struct pc_early *q = pf->early;
	struct early *e;
	size_t need;

	if (!q || q->passthrough)
		return false;
	/* this one and room for one summary note per overlap, MAX_EARLY in all */
	need = q->nr + 1 + MAX_OVERLAPS;
	if (need > MAX_EARLY || !grow_array_unzeroed(&q->e, &q->cap, need, sizeof(*q->e))) {
		/* keep what is held in order, then let the rest through */
		early_end(pf);
		return false;
	}
	e = &q->e[q->nr];
	memset(e, 0, offsetof(struct early, detail));
	e->code = d->code;
	e->severity = d->severity;
	e->offset = d->offset;
	e->key = d->offset;
	e->rec_idx = d->record_index;
	e->rec_type = d->record_type;
	e->fatal = d->fatal;
	e->layout = layout;
	e->seq = (uint32_t)q->nr;
	snprintf(e->stream, sizeof(e->stream), "%s", d->stream ? d->stream : "");
	snprintf(e->detail, sizeof(e->detail), "%s", d->detail ? d->detail : "");
	q->nr++;
	return true;
}

/* A finding of the layout check: held with the reader's while they are. */
static void layout_emit(struct pc_file *pf, enum pd_code code, uint64_t offset, const char *fmt,
			...) __attribute__((format(printf, 4, 5)));

static void layout_emit(struct pc_file *pf, enum pd_code code, uint64_t offset, const char *fmt,
			...)
{
	char detail[PC_DETAIL_MAX];
	struct pd_diag d;
	va_list ap;

	va_start(ap, fmt);
	pc_vfinding(&d, detail, sizeof(detail), code, offset, -1, 0, NULL, fmt, ap);
	va_end(ap);
	if (!early_add(pf, &d, true))
		pc_diag(&d, pf);
}

/* A feature section found overlapping: findings inside it are its symptoms. */
static void early_overlap(struct pc_file *pf, uint64_t off, uint64_t size, uint64_t cause)
{
	struct pc_early *q = pf->early;

	if (q && q->nr_ov < MAX_OVERLAPS)
		q->ov[q->nr_ov++] = (struct overlap){ off, size, cause };
}

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
	layout_emit(c->pf, a->feat || b->feat ? PD_FEAT_SECTION_OVERLAP : PD_SECTION_OVERLAP,
		    at->field, "a=%s b=%s a_offset=%" PRIu64 " a_size=%" PRIu64 " b_offset=%" PRIu64
		    " b_size=%" PRIu64, an, bn, a->off, a->size, b->off, b->size);
	if (a->feat && a->idx >= 0)
		early_overlap(c->pf, a->off, a->size, at->field);
	if (b->feat && b->idx >= 0)
		early_overlap(c->pf, b->off, b->size, at->field);
}

/* A known kernel or perf-tool record type with a plausible size? */
static bool looks_like_record(const uint8_t *p, bool swap, uint64_t room, uint32_t *size)
{
	struct pd_record_header rh = pd_record_header_decode(p, swap);

	if (!((rh.type >= 1 && rh.type < PD_REC_KERNEL_MAX) ||
	      (rh.type >= 64 && rh.type < PD_REC_USER_MAX)))
		return false;
	if (rh.size < 8 || rh.size > room || rh.size < pd_record_min_size(rh.type))
		return false;
	if (rh.type < PD_REC_KERNEL_MAX && rh.size % 8)
		return false;
	*size = rh.size;
	return true;
}

/*
 * Bytes right after the data section's end that parse as records: a
 * writer that did not update data.size, or a file appended to.  (When a
 * feature table follows such records, the reader found the real end and
 * said so: PD020.)
 */
static void check_gap(struct pc_check *c, const struct sect *s, size_t n)
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
	if (pd_reader_read_at(c->r, data_end, buf, (size_t)len) < 0)
		return;
	while (len - pos >= 8 && looks_like_record(buf + pos, h->swapped, len - pos, &sz)) {
		nrec++;
		pos += sz;
	}
	/* One lone header-shaped word could be chance; two records are not. */
	if (nrec >= 2 || (nrec == 1 && pos == gap_end - data_end))
		layout_emit(c->pf, PD_REC_AFTER_DATA_END, data_end,
			    "data_end=%" PRIu64 " records=%u%s bytes=%" PRIu64, data_end, nrec,
			    pos == len && len == GAP_SCAN ? "+" : "", gap_end - data_end);
}

/*
 * Check that no two sections of the file share bytes: the header's
 * sections, each attr's id array and the feature table and sections, as
 * the reader's section map gives them (after its repairs: PD020, PD021,
 * PD022).  Only the gap scan reads the file's bytes, through the reader.
 */
static void check_layout(struct pc_check *c)
{
	static const char *const kind_name[] = {
		[PD_SECT_ATTRS] = "attrs",
		[PD_SECT_DATA] = "data",
		[PD_SECT_EVENT_TYPES] = "event_types",
		[PD_SECT_ATTR_IDS] = "ids",
		[PD_SECT_FEATURE_TABLE] = "feature_table",
		[PD_SECT_FEATURE] = "feature",
	};
	const struct pd_header *h = c->h;
	struct pd_section_info *map;
	size_t n, i, k;
	struct sect *s;

	if (h->mode != PD_MODE_FILE)
		return;
	n = pd_reader_sections(c->r, NULL, 0);
	map = calloc(n, sizeof(*map));
	s = calloc(n, sizeof(*s));
	if (!map || !s) {
		free(map);
		free(s);
		return;
	}
	n = pd_reader_sections(c->r, map, n);
	for (i = 0, k = 0; i < n; i++) {
		const struct pd_section_info *m = &map[i];

		if (m->kind == PD_SECT_EVENT_TYPES && m->size &&
		    !in_file(m->offset, m->size, h->file_size))
			layout_emit(c->pf, PD_SECTION_OUT_OF_FILE, m->field_offset,
				    "section=event_types offset=%" PRIu64 " size=%" PRIu64
				    " file_size=%" PRIu64, m->offset, m->size, h->file_size);
		if (m->kind == PD_SECT_ATTR_IDS && m->index >= MAX_LAYOUT_ATTRS)
			continue;
		s[k++] = (struct sect){ m->offset, m->size, m->field_offset, kind_name[m->kind],
					m->index, m->kind == PD_SECT_FEATURE ||
						  m->kind == PD_SECT_FEATURE_TABLE };
	}
	free(map);
	n = k;

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
		check_gap(c, s, k);
	free(s);
}

/* ------------------------------------------------------------------ */
/* samples that do not fit their attr                                  */

static bool sample_layout_code(enum pd_code code)
{
	return (code >= PD_SAMPLE_TRUNCATED && code <= PD_SAMPLE_STACK_SIZE) ||
	       code == PD_SAMPLE_STACK_OVER_ATTR;
}

/* The kernel copies at most sample_stack_user bytes, rounded up to u64. */
static uint64_t stack_limit(const struct pd_attr *attr)
{
	return ((uint64_t)attr->sample_stack_user + 7) & ~7ULL;
}

/*
 * A user stack copy larger than its attr asked for: the kernel never
 * writes one (perf_sample_ustack_size() only shrinks the request), so
 * the attr's sample_stack_user or the sample is wrong.  Held with the
 * sample's other layout findings: when every sample of the attr carries
 * such a copy, the attr field is reported once (PD624).
 */
static void check_stack_fit(struct pc_check *c, const struct pd_record *rec)
{
	const struct pd_sample *s = &rec->u.sample;
	uint64_t off = rec->offset;
	struct held *h;

	if (!(s->sample_type & PD_SAMPLE_STACK_USER) || !rec->decoded || !rec->event ||
	    s->stack_size <= stack_limit(&rec->event->attr) || c->nr_pending >= PENDING_MAX)
		return;
	/* the stack's size field, when the copy lies in the record as stored */
	if (!rec->from_compressed && s->stack_data && rec->raw && s->stack_data >= rec->raw + 16 &&
	    s->stack_data <= rec->raw + rec->raw_len)
		off += (uint64_t)(s->stack_data - rec->raw) - 8;
	h = &c->pending[c->nr_pending++];
	h->code = PD_SAMPLE_STACK_OVER_ATTR;
	h->offset = off;
	h->rec_idx = (int64_t)rec->index;
	snprintf(h->stream, sizeof(h->stream), "%s", rec->stream ? rec->stream : "");
	snprintf(h->detail, sizeof(h->detail), "stack_size=%" PRIu64 " sample_stack_user=%u",
		 s->stack_size, rec->event->attr.sample_stack_user);
}

/*
 * perf_copy_attr() refuses a user stack size that is not u64-aligned or
 * does not fit the u16 size of a sample: no kernel opened such an event.
 * at: the attr's sample_stack_user field.
 */
static void check_stack_attr(struct pc_check *c, const struct pd_attr *attr, size_t idx, uint64_t at)
{
	uint32_t v = attr->sample_stack_user;

	if (!(attr->sample_type & PD_SAMPLE_STACK_USER) || (v % 8 == 0 && v < 0xffff))
		return;
	layout_emit(c->pf, PD_ATTR_STACK_USER_INVALID, at,
		    "attr=%zu sample_stack_user=%u reason=%s", idx, v,
		    v >= 0xffff ? "not_below_65535" : "not_u64_aligned");
}

/* A sample without a user stack (a kernel thread's) says nothing about the attr's size. */
static bool stack_neutral(const struct pd_record *rec)
{
	return (rec->u.sample.sample_type & PD_SAMPLE_STACK_USER) && !rec->u.sample.stack_size;
}

static void hold_copy(struct held *h, const struct pd_diag *d)
{
	h->code = d->code;
	h->offset = d->offset;
	h->rec_idx = d->record_index;
	snprintf(h->stream, sizeof(h->stream), "%s", d->stream ? d->stream : "");
	snprintf(h->detail, sizeof(h->detail), "%s", d->detail);
}

static void held_emit(struct pc_check *c, const struct held *h)
{
	pc_emit(c->pf, h->code, h->offset, h->rec_idx, PD_REC_SAMPLE, h->stream[0] ? h->stream : NULL,
		"%s", h->detail);
}

/*
 * One damaged id (an attr's id array read from the wrong place, say)
 * makes every record of that event unattributable: the first is
 * reported, the rest counted in one note at the end (PD631) that names
 * the attr EVENT_DESC gives the id to, when it does.
 */
static bool unknown_id_repeat(struct pc_check *c, const struct pd_diag *d)
{
	const char *p = strstr(d->detail, "id=");
	unsigned long long id;
	unsigned int i;

	if (!p || sscanf(p + 3, "%llu", &id) != 1)
		return false;
	for (i = 0; i < c->unk_nr; i++) {
		if (c->unk[i].id == id) {
			c->unk[i].repeats++;
			return true;
		}
	}
	if (!c->unk)
		c->unk = calloc(MAX_UNKNOWN_IDS, sizeof(*c->unk));
	if (c->unk && c->unk_nr < MAX_UNKNOWN_IDS)
		c->unk[c->unk_nr++] = (struct unknown_id){ id, d->offset, d->record_index,
							   d->record_type, 0 };
	return false;
}

static void unknown_ids_finish(struct pc_check *c)
{
	const struct pd_features *f = pd_reader_features(c->r);
	unsigned int i, k;
	uint32_t j;

	for (i = 0; i < c->unk_nr; i++) {
		const struct unknown_id *u = &c->unk[i];
		char owner[96] = "";

		if (!u->repeats)
			continue;
		for (k = 0; f && feat_ok(f, PD_FEAT_EVENT_DESC) && k < f->event_desc.nr && !owner[0];
		     k++) {
			const struct pd_feat_event *fe = &f->event_desc.ev[k];
			const struct pd_event *ev = pd_reader_event(c->r, k);

			for (j = 0; j < fe->nr_ids; j++)
				if (fe->ids[j] == u->id)
					break;
			if (j == fe->nr_ids)
				continue;
			if (ev && c->h->mode == PD_MODE_FILE)
				snprintf(owner, sizeof(owner), " event_desc_attr=%u attr_ids_field=%#" PRIx64,
					 k, ev->file_offset + c->h->attr_size - 16);
			else
				snprintf(owner, sizeof(owner), " event_desc_attr=%u", k);
		}
		pc_emit(c->pf, PD_UNKNOWN_ID_REPEATED, u->first_off, u->first_idx, u->first_type, NULL,
			"id=%" PRIu64 " more_records=%" PRIu64 "%s", u->id, u->repeats, owner);
	}
}

/* The reader's diagnostics, with the layout findings of samples held back. */
static void check_diag(const struct pd_diag *d, void *arg)
{
	struct pc_file *pf = arg;
	struct pc_check *c = pf->check;

	if (!c && early_add(pf, d, false))
		return;
	if (c && d->code == PD_REC_UNKNOWN_ID && unknown_id_repeat(c, d))
		return;
	if (c && !d->fatal && d->record_index >= 0 && d->record_type == PD_REC_SAMPLE &&
	    sample_layout_code(d->code) && c->nr_pending < PENDING_MAX) {
		hold_copy(&c->pending[c->nr_pending++], d);
		return;
	}
	pc_diag(d, pf);
}

static void flush_pending(struct pc_check *c)
{
	unsigned int i, n = c->nr_pending;

	c->nr_pending = 0;
	for (i = 0; i < n; i++)
		held_emit(c, &c->pending[i]);
}

/* Give up on one cause for this attr: its findings go out as they are. */
static void release(struct pc_check *c, struct attr_fit *a)
{
	unsigned int i;

	a->released = true;
	for (i = 0; i < a->nr_held; i++)
		held_emit(c, &a->held[i]);
	/* findings not kept still count */
	if (a->dropped) {
		c->pf->counts[pd_code_severity(a->first_code)] += a->dropped;
		if ((unsigned int)a->first_code < PC_MAX_CODE)
			c->pf->by_code[a->first_code] += (uint32_t)a->dropped;
	}
	free(a->held);
	a->held = NULL;
	a->nr_held = 0;
	a->dropped = 0;
}

static void add_fit(struct attr_fit *a, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < a->nr_fits; i++)
		if (a->fit_value[i] == v)
			return;
	if (a->nr_fits < MAX_FITS)
		a->fit_value[a->nr_fits++] = v;
}

/* The attr with one field replaced: field 24 sample_type, 32 read_format. */
static struct pd_attr with_field(const struct pd_attr *own, unsigned int field, uint64_t v)
{
	struct pd_attr alt = *own;

	if (field == 24)
		alt.sample_type = v;
	else
		alt.read_format = v;
	return alt;
}

/*
 * Values of sample_type (or read_format) that the first failing sample
 * fits, most telling first: the attr as EVENT_DESC recorded it, another
 * attr's, then the attr's own with one bit more or less (several of those
 * can fit: all are shown).  For the register masks, with one register
 * more or less: the value then says how many registers the samples carry.
 */
static void find_fit(struct pc_check *c, struct attr_fit *a, const struct pd_record *rec,
		     size_t idx)
{
	const struct pd_features *f = pd_reader_features(c->r);
	const struct pd_attr *own = &rec->event->attr;
	static const unsigned int fields[2] = { 24, 32 };
	unsigned int k, b, phase;
	struct pd_attr alt;
	size_t i;

	/* the largest copy of all the attr's samples is the least value that fits */
	if (a->first_code == PD_SAMPLE_STACK_OVER_ATTR) {
		a->fit_field = "sample_stack_user";
		a->fit_field_off = 88;
		a->nr_fits = 1;
		a->fit_value[0] = 0;
		return;
	}
	for (phase = 0; phase < 3 && !a->fit_field; phase++) {
		for (k = 0; k < 2 && !a->fit_field; k++) {
			unsigned int field = fields[k];
			uint64_t mine = field == 24 ? own->sample_type : own->read_format, v;

			if (field == 32 && !(own->sample_type & PD_SAMPLE_READ))
				break;
			if (phase == 0 && f && feat_ok(f, PD_FEAT_EVENT_DESC) &&
			    idx < f->event_desc.nr) {
				const struct pd_attr *ed = &f->event_desc.ev[idx].attr;

				v = field == 24 ? ed->sample_type : ed->read_format;
				alt = with_field(own, field, v);
				if (v != mine && pd_reader_sample_fits_attr(c->r, rec, &alt))
					add_fit(a, v);
			}
			for (i = 0; phase == 1 && i < pd_reader_nr_events(c->r) && !a->nr_fits; i++) {
				const struct pd_event *o = pd_reader_event(c->r, i);

				v = field == 24 ? o->attr.sample_type : o->attr.read_format;
				alt = with_field(own, field, v);
				if (v != mine && pd_reader_sample_fits_attr(c->r, rec, &alt))
					add_fit(a, v);
			}
			/* every bit that fits, not only the first */
			for (b = 0; phase == 2 && b < (field == 24 ? 25u : 5u); b++) {
				v = mine ^ (1ULL << b);
				alt = with_field(own, field, v);
				if (pd_reader_sample_fits_attr(c->r, rec, &alt))
					add_fit(a, v);
			}
			if (a->nr_fits) {
				a->fit_field = field == 24 ? "sample_type" : "read_format";
				a->fit_field_off = field;
			}
		}
	}
	for (b = 0; !a->fit_field && (own->sample_type & PD_SAMPLE_REGS_USER) && b < 64; b++) {
		alt = *own;
		alt.sample_regs_user ^= 1ULL << b;
		if (pd_reader_sample_fits_attr(c->r, rec, &alt)) {
			a->fit_field = "sample_regs_user";
			a->fit_field_off = 80;
			add_fit(a, (uint64_t)__builtin_popcountll(alt.sample_regs_user));
		}
	}
	for (b = 0; !a->fit_field && (own->sample_type & PD_SAMPLE_REGS_INTR) && b < 64; b++) {
		alt = *own;
		alt.sample_regs_intr ^= 1ULL << b;
		if (pd_reader_sample_fits_attr(c->r, rec, &alt)) {
			a->fit_field = "sample_regs_intr";
			a->fit_field_off = 96;
			add_fit(a, (uint64_t)__builtin_popcountll(alt.sample_regs_intr));
		}
	}
}

/* Count, per candidate value, the failing samples that fit it. */
static void count_fits(struct pc_check *c, struct attr_fit *a, const struct pd_record *rec)
{
	unsigned int i;

	for (i = 0; i < a->nr_fits; i++) {
		struct pd_attr alt;

		if (a->fit_field_off == 88) {
			if (rec->u.sample.stack_size > a->fit_value[i])
				a->fit_value[i] = rec->u.sample.stack_size;
			a->fit_count[i]++;
			continue;
		}
		/* a register count: the first sample stands for all */
		if (a->fit_field_off >= 80) {
			a->fit_count[i]++;
			continue;
		}
		alt = with_field(&rec->event->attr, a->fit_field_off, a->fit_value[i]);
		if (pd_reader_sample_fits_attr(c->r, rec, &alt))
			a->fit_count[i]++;
	}
}

/* After each sample: give its held findings to its attr, or let them out. */
static void sample_fit_after(struct pc_check *c, const struct pd_record *rec)
{
	struct attr_fit *a;
	size_t idx;
	unsigned int i;

	/* Until a sample fails, samples have nothing to count: the common case. */
	if (!c->nr_pending && !c->fit)
		return;
	if (!rec->event || rec->event_index < 0 || (size_t)rec->event_index >= HOLD_ATTRS ||
	    (size_t)rec->event_index >= pd_reader_nr_events(c->r)) {
		flush_pending(c);
		return;
	}
	idx = (size_t)rec->event_index;
	if (!c->fit) {
		c->fit = calloc(HOLD_ATTRS, sizeof(*c->fit));
		if (!c->fit) {
			flush_pending(c);
			return;
		}
	}
	a = &c->fit[idx];
	if (!c->nr_pending && stack_neutral(rec))
		return;
	a->samples++;
	if (a->released) {
		flush_pending(c);
		return;
	}
	if (!c->nr_pending) {
		/* One sample fits: the attr explains nothing. */
		if (a->failed)
			release(c, a);
		else
			a->released = true;
		return;
	}
	if (!a->failed++) {
		a->first_code = c->pending[0].code;
		a->first_off = rec->offset;
		a->first_idx = (int64_t)rec->index;
		find_fit(c, a, rec, idx);
	} else if (c->pending[0].code != a->first_code) {
		a->mixed = true;
	}
	count_fits(c, a, rec);
	for (i = 0; i < c->nr_pending; i++) {
		if (!a->held)
			a->held = calloc(HOLD_PER_ATTR, sizeof(*a->held));
		if (a->held && a->nr_held < HOLD_PER_ATTR)
			a->held[a->nr_held++] = c->pending[i];
		else
			a->dropped++;
	}
	c->nr_pending = 0;
}

/*
 * At the end: an attr none of whose samples fit (two at least), all
 * failing the same way, is reported once at its field (with the value
 * they fit, when one was found), and its samples as one counted note
 * pointing there.
 */
static void sample_fit_finish(struct pc_check *c)
{
	size_t i, n = pd_reader_nr_events(c->r);

	flush_pending(c);
	if (!c->fit)
		return;
	for (i = 0; i < HOLD_ATTRS && i < n; i++) {
		struct attr_fit *a = &c->fit[i];
		const struct pd_event *ev = pd_reader_event(c->r, i);
		uint64_t field_off;
		char fits[96];

		if (!a->failed || a->released)
			continue;
		/* one sample is no pattern: its own finding says more */
		if (a->mixed || a->failed != a->samples || a->failed < 2 || !ev) {
			release(c, a);
			continue;
		}
		field_off = ev->file_offset + (a->fit_field ? a->fit_field_off : 24);
		{
			size_t len = 0;
			unsigned int k;

			for (k = 0; k < a->nr_fits && len + 24 < sizeof(fits); k++) {
				if (a->fit_count[k] != a->failed)
					continue;
				len += (size_t)snprintf(fits + len, sizeof(fits) - len,
							a->fit_field_off == 88 ? "%s%" PRIu64 :
							a->fit_field_off >= 80 ? "%s%" PRIu64 "_regs" :
							"%s%#" PRIx64, len ? "/" : "", a->fit_value[k]);
			}
			if (!len)
				snprintf(fits, sizeof(fits), "none");
		}
		c->blamed[i / 64] |= 1ULL << (i % 64);
		pc_emit(c->pf, PD_ATTR_NO_SAMPLE_FITS, field_off, -1, 0, NULL,
			"attr=%zu field=%s sample_type=%#" PRIx64 " read_format=%#" PRIx64
			" samples=%" PRIu64 " fits=%s", i, a->fit_field ? a->fit_field : "sample_type",
			ev->attr.sample_type, ev->attr.read_format, a->samples, fits);
		pc_emit(c->pf, PD_SAMPLES_OF_WRONG_ATTR, a->first_off, a->first_idx, PD_REC_SAMPLE,
			NULL, "attr=%zu samples=%" PRIu64 " code=%s cause=%#" PRIx64, i, a->failed,
			pd_code_id(a->first_code), field_off);
		free(a->held);
		a->held = NULL;
	}
	free(c->fit);
	c->fit = NULL;
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
	/* Runs of samples of one thread are the rule: its entry is marked already. */
	if ((s->sample_type & PD_SAMPLE_TID) && s->tid != c->sampled_tid) {
		struct thr *t = thr_get(c, s->tid);

		if (t && !(t->flags & THR_SAMPLED)) {
			t->flags |= THR_SAMPLED;
			t->first_sample_off = rec->offset;
			t->first_sample_idx = (int64_t)rec->index;
		}
		/* 0 also stands for none yet: thr_get() keeps no entry for tid 0 */
		c->sampled_tid = t ? s->tid : 0;
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

static int cmp_id_cpu(const void *a, const void *b)
{
	const struct id_cpu *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Every sample looks its id up: a table indexed by the id's distance
 * from the smallest makes that a load, where the ids are dense enough
 * for the table to stay small.  The entry of each id is the one the
 * search would find, so that repeated ids keep their meaning.
 */
static void map_id_cpus(struct pc_check *c)
{
	uint64_t span = c->idc[c->idc_nr - 1].id - c->idc[0].id;
	size_t i;

	free(c->idc_map);
	c->idc_map = NULL;
	if (span >= ID_MAP_SLACK * c->idc_nr + ID_MAP_MIN)
		return;
	c->idc_map = calloc((size_t)span + 1, sizeof(*c->idc_map));
	if (!c->idc_map)
		return;
	c->idc_base = c->idc[0].id;
	c->idc_span = span + 1;
	for (i = 0; i < c->idc_nr; i++) {
		const struct id_cpu *e = bsearch(&c->idc[i], c->idc, c->idc_nr, sizeof(*c->idc),
						 cmp_id_cpu);

		c->idc_map[c->idc[i].id - c->idc_base] = (uint32_t)(e - c->idc) + 1;
	}
}

/* Events opened on one cpu: the kernel samples them there only. */
static void note_id_cpus(struct pc_check *c, const struct pd_record *rec)
{
	const struct pd_rec_id_index *ii = &rec->u.id_index;
	size_t esz = ii->has_vcpu ? 48 : 32, before = c->idc_nr;
	uint64_t i;

	for (i = 0; i < ii->nr && c->idc_nr < MAX_ID_CPUS; i++) {
		const struct pd_id_index_entry *e = &ii->entries[i];

		if (e->cpu >= UINT32_MAX || rec->from_compressed)
			continue;	/* any cpu (a per-thread event) */
		if (!grow_array_unzeroed(&c->idc, &c->idc_cap, c->idc_nr + 1, sizeof(*c->idc)))
			break;
		c->idc[c->idc_nr++] = (struct id_cpu){
			.id = e->id, .cpu = (uint32_t)e->cpu,
			.entry_off = rec->offset + 16 + i * esz + 16, .one_cpu = true,
		};
	}
	if (c->idc_nr != before) {
		qsort(c->idc, c->idc_nr, sizeof(*c->idc), cmp_id_cpu);
		map_id_cpus(c);
		c->idc_last_valid = false;
	}
}

/* The offset of a sample's cpu field: it follows IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID. */
static uint64_t sample_cpu_off(const struct pd_record *rec)
{
	const uint64_t before = PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
				PD_SAMPLE_ADDR | PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID;

	if (rec->from_compressed)
		return rec->offset;
	return rec->offset + 8 + 8 * (uint64_t)__builtin_popcountll(rec->u.sample.sample_type & before);
}

/* The ID_INDEX entry of a sample's id, NULL if its event may run on any cpu. */
static struct id_cpu *id_cpu_find(struct pc_check *c, uint64_t id)
{
	struct id_cpu key;

	if (c->idc_map) {
		uint64_t k = id - c->idc_base;

		return k < c->idc_span && c->idc_map[k] ? &c->idc[c->idc_map[k] - 1] : NULL;
	}
	key.id = id;
	return bsearch(&key, c->idc, c->idc_nr, sizeof(*c->idc), cmp_id_cpu);
}

static void check_id_cpu(struct pc_check *c, const struct pd_record *rec)
{
	const struct pd_sample *s = &rec->u.sample;
	uint64_t st = s->sample_type, id;
	struct id_cpu *e;

	if (!c->idc_nr || !(st & PD_SAMPLE_CPU) || !(st & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER)))
		return;
	id = (st & PD_SAMPLE_IDENTIFIER) ? s->identifier : s->id;
	/* samples come in runs of one id: the last answer is mostly the answer */
	if (id != c->idc_last_id || !c->idc_last_valid) {
		c->idc_last = id_cpu_find(c, id);
		c->idc_last_id = id;
		c->idc_last_valid = true;
	}
	e = c->idc_last;
	if (!e)
		return;
	e->samples++;
	if (s->cpu == e->cpu)
		return;
	if (!e->wrong++) {
		e->first_off = sample_cpu_off(rec);
		e->first_idx = (int64_t)rec->index;
		e->first_cpu = s->cpu;
	} else if (s->cpu != e->first_cpu) {
		e->one_cpu = false;
	}
}

/*
 * Samples of an event on another cpu than the one it was opened on: when
 * every sample of the event (two at least) says the same other cpu, the
 * ID_INDEX entry is what is wrong, and is reported; otherwise the first
 * such sample, with how many there are.
 */
static void check_id_cpus_finish(struct pc_check *c)
{
	size_t i;

	for (i = 0; i < c->idc_nr; i++) {
		const struct id_cpu *e = &c->idc[i];

		if (!e->wrong)
			continue;
		if (e->wrong == e->samples && e->samples >= 2 && e->one_cpu)
			pc_emit(c->pf, PD_SAMPLE_CPU_NOT_EVENT_CPU, e->entry_off, -1, 0, NULL,
				"id=%" PRIu64 " index_cpu=%u sample_cpu=%u samples=%" PRIu64
				" first_sample=%#" PRIx64 " reason=index_entry", e->id, e->cpu,
				e->first_cpu, e->samples, e->first_off);
		else
			pc_emit(c->pf, PD_SAMPLE_CPU_NOT_EVENT_CPU, e->first_off, e->first_idx,
				PD_REC_SAMPLE, c->stream,
				"id=%" PRIu64 " index_cpu=%u sample_cpu=%u index_entry=%#" PRIx64
				" wrong_samples=%" PRIu64 " samples=%" PRIu64, e->id, e->cpu,
				e->first_cpu, e->entry_off, e->wrong, e->samples);
	}
}

static void note_auxtrace(struct pc_check *c, const struct pd_record *rec)
{
	/* the two arrays grow alike: one capacity serves both */
	size_t cap_size = c->aux_cap;

	if (rec->from_compressed || c->aux_full)
		return;
	if (c->aux_nr == MAX_AUXTRACE ||
	    !grow_array_unzeroed(&c->aux_size, &cap_size, c->aux_nr + 1, sizeof(*c->aux_size)) ||
	    !grow_array_unzeroed(&c->aux_off, &c->aux_cap, c->aux_nr + 1, sizeof(*c->aux_off))) {
		c->aux_full = true;
		return;
	}
	c->aux_off[c->aux_nr] = rec->offset;
	c->aux_size[c->aux_nr] = rec->size;
	c->aux_nr++;
}

/* Features that arrive as pipe records take effect from then on. */
static void refresh_features(struct pc_check *c, const struct pd_record *rec)
{
	if (rec->u.header_feature.feat_id == PD_FEAT_NRCPUS) {
		const struct pd_features *f = pd_reader_features(c->r);

		if (f && feat_ok(f, PD_FEAT_NRCPUS))
			c->nr_cpus_avail = f->nrcpus.avail;
	}
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

	if (!rec->from_compressed) {
		c->stream_end = rec->offset + rec->size;
		if (rec->type == PD_REC_FINISHED_ROUND) {
			c->round_off = rec->offset;
			c->round_recs = c->pf->records;
			c->round_samples = c->samples;
		}
	}
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
		check_id_cpu(c, rec);
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
	case PD_REC_HEADER_ATTR:
		if (!rec->from_compressed && rec->u.header_attr.attr_size >= 92)
			/* the record's attr is the newest event */
			check_stack_attr(c, &rec->u.header_attr.attr,
					 pd_reader_nr_events(c->r) ? pd_reader_nr_events(c->r) - 1 : 0,
					 rec->offset + 8 + 88);
		break;
	case PD_REC_ID_INDEX:
		check_id_index(c, rec);
		note_id_cpus(c, rec);
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
			refresh_features(c, rec);
		}
		break;
	case PD_REC_HEADER_BUILD_ID:
		c->header_build_ids++;
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
		/* the attr's own field was found wrong: EVENT_DESC is right */
		if (what && i < HOLD_ATTRS && ((c->blamed[i / 64] >> (i % 64)) & 1) &&
		    (!strcmp(what, "sample_type") || !strcmp(what, "read_format")))
			what = NULL;
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
	check_id_cpus_finish(c);
	unknown_ids_finish(c);
	check_sample_time(c, f);
	check_compressed(c, f);
	check_auxtrace_index(c, f);
	/*
	 * perf record ends every pass over the ring buffers that wrote
	 * something with a FINISHED_ROUND, the last one at exit: samples
	 * after the last round are a recording cut off, the pipe's twin of
	 * data.size 0 (PD008).  perf inject -b holds samples back until it
	 * has their build ids (HEADER_BUILD_ID): its streams may end so.
	 * perf 3.x wrote no rounds in pipe mode: a stream without rounds is
	 * judged only when its features name a writer of 5.x or later.
	 */
	if (c->h->mode == PD_MODE_PIPE && c->samples != c->round_samples && !c->header_build_ids &&
	    (c->rounds || writer_has_end_marker(f)))
		pc_emit(c->pf, PD_PIPE_NOT_FINISHED, c->stream_end, -1, 0, NULL,
			"last_round=%s%" PRIu64 " records_after=%" PRIu64 " samples_after=%" PRIu64
			" rounds=%" PRIu64, c->rounds ? "" : "none:", c->round_off,
			c->pf->records - c->round_recs, c->samples - c->round_samples, c->rounds);
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

static int run(struct pc_report *rep, struct pc_file *pf, struct pd_reader *r)
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
	check_layout(&c);
	if (c.h->mode != PD_MODE_PIPE) {
		size_t i;

		for (i = 0; i < pd_reader_nr_events(r); i++) {
			const struct pd_event *ev = pd_reader_event(r, i);

			if (ev)
				check_stack_attr(&c, &ev->attr, i, ev->file_offset + 88);
		}
	}
	early_end(pf);
	init_features(&c);

	pf->check = &c;
	while (!pf->stop && (ret = pd_reader_next(r, &rec)) > 0) {
		pf->records++;
		if (rec->type == PD_REC_SAMPLE) {
			c.samples++;
			check_stack_fit(&c, rec);
			sample_fit_after(&c, rec);
		} else if (c.nr_pending) {
			/* only samples hold findings for their attr */
			flush_pending(&c);
		}
		check_record(&c, rec);
	}
	sample_fit_finish(&c);
	pf->check = NULL;
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
	free(c.idc);
	free(c.idc_map);
	free(c.unk);
	return ret < 0 ? ret : 0;
}

static void reader_opts(const struct pc_opts *o, struct pc_file *pf, struct pd_reader_opts *ro)
{
	struct pd_reader_opts init = PD_READER_OPTS_INIT;

	*ro = init;
	ro->diag_fn = check_diag;
	ro->diag_arg = pf;
	ro->window_size = o->window_size;
	ro->max_decompressed = o->max_decompressed;
}

/* Whatever is still held goes out before the file's summary. */
static int file_end(struct pc_file *pf, int status)
{
	early_end(pf);
	return pc_file_end(pf, status);
}

int pc_check_fd(struct pc_report *rep, int fd, const char *name)
{
	struct pd_reader_opts ro;
	struct pd_reader *r;
	struct pc_file pf;
	int ret;

	pc_file_begin(rep, &pf, name);
	early_begin(&pf);
	reader_opts(rep->opts, &pf, &ro);
	ret = pd_reader_open_fd(fd, name, &ro, &r);
	if (ret == 0) {
		ret = run(rep, &pf, r);
		pd_reader_close(r);
	}
	return file_end(&pf, ret);
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
	early_begin(&pf);
	reader_opts(rep->opts, &pf, &ro);
	if (stat(path, &st) < 0) {
		int err = errno;

		/*
		 * On stderr as every command says it, after the report so
		 * far; the finding goes to the report.
		 */
		out_buf_flush(rep->out);
		tool_io_error("perfcheck", "open", path, err);
		pc_emit(&pf, PD_IO_ERROR, PD_NO_OFFSET, -1, 0, NULL, "errno=%d reason=%s", err,
			strerror(err));
		return file_end(&pf, PD_STATUS_IO);
	}
	if (S_ISDIR(st.st_mode)) {
		/* The header, attrs and features live in DIR/data. */
		ret = pd_reader_open(path, &ro, &r);
		if (ret == 0) {
			ret = run(rep, &pf, r);
			pd_reader_close(r);
		}
		return file_end(&pf, ret);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		/*
		 * On stderr as every command says it, after the report so
		 * far; the finding goes to the report.
		 */
		out_buf_flush(rep->out);
		tool_io_error("perfcheck", "open", path, err);
		pc_emit(&pf, PD_IO_ERROR, PD_NO_OFFSET, -1, 0, NULL, "errno=%d reason=%s", err,
			strerror(err));
		return file_end(&pf, PD_STATUS_IO);
	}
	ret = pd_reader_open_fd(fd, path, &ro, &r);
	if (ret == 0) {
		ret = run(rep, &pf, r);
		pd_reader_close(r);
	}
	close(fd);
	return file_end(&pf, ret);
}
