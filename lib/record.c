// SPDX-License-Identifier: MIT
/*
 * record.c - typed decoding of every record layout but SAMPLE (sample.c).
 *
 * The fixed fields of each type are read where layout_tables.h places them
 * (docs/perf-data-format.md §6.3 to §6.5), with byte-order aware loads;
 * nothing is converted in place.  What follows them is decoded here by
 * type, because its layout depends on the data (counts, misc bits,
 * versions, the event's read_format); where it starts is the end of the
 * type's fields in its table (FIELDS_END()), never a number here.  Each decoder gets the payload window [0, end) where end
 * excludes the sample_id trailer, checks counts against what is left by
 * division before reserving arena room, checks that strings end inside
 * their field, and flags bytes left over where the layout is exact.
 *
 * Any error leaves the record undecoded (-1); warnings (trailing bytes)
 * do not.
 */
#include "decode.h"
#include "layout_tables.h"

#define ALIGN8(x)	PD_ALIGN((uint64_t)(x), 8)
#define ALIGN64(x)	PD_ALIGN((uint64_t)(x), 64)

/*
 * Where the fixed fields of record type t end and its variable part
 * starts, as its table in layout_tables.h says: the tables are constant,
 * so this is a constant at build time, not a lookup.
 */
#define FIELDS_END(t)	pd_layout_fields_end(pd_layout_of(PD_REC_##t))

/*
 * Where the fixed field that layout l decodes to `member` lies: the count
 * or size a diagnostic points at.  Over a constant table the loop goes at
 * build time, as in fields_unrolled().
 */
static inline __attribute__((always_inline)) size_t field_at(const struct pd_layout *l,
							      size_t member)
{
	const struct pd_field *f, *end = pd_layout_fields_stop(l);

#pragma GCC unroll 16
	for (f = l->fields; f < end; f++)
		if (f->member_size && f->member == member)
			return f->off;
	return 0;	/* not reached: each use names a field of its type */
}

#define FIELD_AT(t, m) \
	field_at(pd_layout_of(PD_REC_##t), offsetof(struct pd_record, u.m))

/* Sizes inside variable parts that are format facts, not layout ends. */
#define EVENT_TYPE_NAME_LEN	64	/* char name[64] after event_id */
#define TRACING_DATA_PAD	4	/* the u32 pad after size (not in perf 3.x) */
#define AUXTRACE_ERROR_MSG_LEN	64	/* char msg[64] */
#define BPF_METADATA_KEY_LEN	64	/* each entry: char key[64], char value[256] */
#define BPF_METADATA_VALUE_LEN	256
#define BPF_METADATA_ENTRY	(BPF_METADATA_KEY_LEN + BPF_METADATA_VALUE_LEN)

struct rctx {
	struct pd_decoder *d;
	struct pd_record *rec;
	const struct pd_event *ev;
	struct pd_diag_sink *sink;
	const uint8_t *p;	/* record start (header included) */
	size_t end;		/* payload end: the trailer starts here */
	bool swap;
	/*
	 * False for kernel records without an event: whether a trailer
	 * follows is unknown, so leftover bytes prove nothing.
	 */
	bool check_tail;
};

#define RDIAG(c, code, pos, ...)						\
	do {									\
		if ((c)->sink)							\
			pd_diag_emit((c)->sink, code, pd_rec_off((c)->rec, pos),\
				     (int64_t)(c)->rec->index, (c)->rec->type,	\
				     false, __VA_ARGS__);			\
	} while (0)

static inline uint16_t r16(const struct rctx *c, size_t pos)
{
	return pd_ld16(c->p + pos, c->swap);
}

static inline uint32_t r32(const struct rctx *c, size_t pos)
{
	return pd_ld32(c->p + pos, c->swap);
}

static inline uint64_t r64(const struct rctx *c, size_t pos)
{
	return pd_ld64(c->p + pos, c->swap);
}

static int below_min(struct rctx *c, size_t need)
{
	RDIAG(c, PD_REC_BELOW_MIN, 0, "size=%zu min=%zu", c->rec->raw_len, need);
	return PD_STATUS_MALFORMED;
}

static int bad_count(struct rctx *c, size_t pos, uint64_t nr)
{
	RDIAG(c, PD_REC_BAD_COUNT, pos, "nr=%llu bytes=%zu", (unsigned long long)nr,
	      pos < c->end ? c->end - pos : 0);
	return PD_STATUS_MALFORMED;
}

static int bad_field(struct rctx *c, size_t pos, uint64_t val)
{
	RDIAG(c, PD_REC_BAD_FIELD, pos, "value=%llu", (unsigned long long)val);
	return PD_STATUS_MALFORMED;
}

/*
 * Warn about bytes between the last field (`pos`) and the payload end.
 * Zero bytes are padding: perf sizes EVENT_UPDATE records by the whole
 * struct (a 16-byte union follows the payload) and rounds CPU_MAP records
 * up, so zero tails are normal in perf's own files.
 */
static void trailing(struct rctx *c, uint64_t pos)
{
	size_t i;

	if (!c->check_tail || pos >= c->end)
		return;
	for (i = (size_t)pos; i < c->end; i++)
		if (c->p[i])
			break;
	if (i == c->end)
		return;
	RDIAG(c, PD_REC_TRAILING_BYTES, (size_t)pos, "bytes=%llu",
	      (unsigned long long)(c->end - pos));
}

static void *alloc(struct rctx *c, size_t n)
{
	void *p = pd_scratch_alloc(c->d, n);

	if (!p)
		RDIAG(c, PD_NO_MEMORY, 0, "bytes=%zu", n);
	return p;
}

/* A string in a fixed array of n bytes at pos (the record may cut it short). */
static int str_fixed(struct rctx *c, size_t pos, size_t n, const char **out)
{
	size_t avail = pos < c->end ? c->end - pos : 0;

	if (n > avail)
		n = avail;
	if (!n || !memchr(c->p + pos, 0, n)) {
		RDIAG(c, PD_REC_BAD_STRING, pos, "len=%zu", n);
		return PD_STATUS_MALFORMED;
	}
	*out = (const char *)(c->p + pos);
	return 0;
}

/*
 * A string that is the last field: NUL-terminated inside the payload and
 * padded with zeros to `align`; only bytes beyond that padding are extra.
 */
static int str_tail(struct rctx *c, size_t pos, unsigned int align, const char **out)
{
	const uint8_t *nul = NULL;

	if (pos < c->end)
		nul = memchr(c->p + pos, 0, c->end - pos);
	if (!nul) {
		RDIAG(c, PD_REC_BAD_STRING, pos, "len=%zu", pos < c->end ? c->end - pos : 0);
		return PD_STATUS_MALFORMED;
	}
	*out = (const char *)(c->p + pos);
	trailing(c, pos + PD_ALIGN((uint64_t)(nul - (c->p + pos)) + 1, align));
	return 0;
}

/*
 * The fixed fields of layout l, all of them: pd_record_decode() checked
 * the record's minimum size, which is never less than the end of the
 * fields.  A number (2, 4 or 8 bytes) has a member of its size in the file
 * (tests/lib/test_record.c checks the tables): one load and one store.
 * This is one field of the table into its member.
 */
static inline __attribute__((always_inline)) int field(struct rctx *c, const struct pd_field *f)
{
	const uint8_t *src = c->p + f->off;
	uint8_t *m = (uint8_t *)c->rec + f->member;
	const char *str;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	if (!pd_field_is_number(f)) {
		if (f->kind == PD_FK_BYTES) {
			memcpy(m, src, f->size);
		} else if (f->kind == PD_FK_STR) {
			if (str_fixed(c, f->off, f->size, &str))
				return PD_STATUS_MALFORMED;
			memcpy(m, &str, sizeof(str));
		}
		return 0;
	}
	switch (f->size) {
	case 8:
		v64 = pd_ld64(src, c->swap);
		memcpy(m, &v64, 8);
		break;
	case 4:
		v32 = pd_ld32(src, c->swap);
		memcpy(m, &v32, 4);
		break;
	default:	/* 2 */
		v16 = pd_ld16(src, c->swap);
		memcpy(m, &v16, 2);
		break;
	}
	return 0;
}

static inline __attribute__((always_inline)) int fields(struct rctx *c, const struct pd_layout *l)
{
	const struct pd_field *f, *end = pd_layout_fields_stop(l);

	for (f = l->fields; f < end; f++)
		if (field(c, f))
			return PD_STATUS_MALFORMED;
	return 0;
}

/*
 * The same for a constant layout: unrolled (the tables have at most 16
 * fields), each field is read from the table at build time and becomes a
 * load and a store.
 */
static inline __attribute__((always_inline)) int fields_unrolled(struct rctx *c,
								 const struct pd_layout *l)
{
	const struct pd_field *f, *end = pd_layout_fields_stop(l);

#pragma GCC unroll 16
	for (f = l->fields; f < end; f++)
		if (field(c, f))
			return PD_STATUS_MALFORMED;
	return 0;
}

/* ---- kernel records: what follows the fixed fields ---- */

static int dec_mmap2(struct rctx *c, const struct pd_layout *l)
{
	struct pd_rec_mmap *m = &c->rec->u.mmap;

	/* The build id takes the bytes of maj..ino_generation. */
	if (c->rec->misc & PD_MISC_MMAP_BUILD_ID) {
		m->maj = m->min = 0;
		m->ino = m->ino_generation = 0;
		m->has_build_id = true;
		m->build_id_size = c->p[PD_MMAP2_BUILD_ID_START];
		if (m->build_id_size > 20)
			return bad_field(c, PD_MMAP2_BUILD_ID_START, m->build_id_size);
		memcpy(m->build_id, c->p + PD_MMAP2_BUILD_ID_START + 4, 20);
	}
	return str_tail(c, pd_layout_fields_end(l), 8, &m->filename);
}

static int dec_read(struct rctx *c)
{
	struct pd_rec_read *r = &c->rec->u.read;
	uint64_t rf = c->ev ? c->ev->attr.read_format : 0;
	enum pd_code code = PD_OK;
	struct pd_cur cur;

	pd_cur_init(&cur, c->p, c->end, 0, c->swap);
	cur.pos = FIELDS_END(READ);
	if (!pd_read_values_decode(c->d, &cur, rf, &r->values, &code)) {
		if (code == PD_NO_MEMORY) {
			RDIAG(c, PD_NO_MEMORY, 0, "size=%zu", c->rec->raw_len);
			return PD_STATUS_NOMEM;
		}
		if (code == PD_SAMPLE_READ_GROUP_NR)
			return bad_count(c, cur.pos, r64(c, cur.pos));
		RDIAG(c, PD_REC_BELOW_MIN, 0, "size=%zu read_format=%#llx",
		      c->rec->raw_len, (unsigned long long)rf);
		return PD_STATUS_MALFORMED;
	}
	trailing(c, cur.pos);
	return 0;
}

static int dec_namespaces(struct rctx *c)
{
	struct pd_rec_namespaces *n = &c->rec->u.namespaces;
	struct pd_ns_link *l;
	size_t links = FIELDS_END(NAMESPACES);
	uint64_t nr = n->nr, i;

	/* nr links of {u64 dev; u64 ino} */
	if (nr > (c->end - links) / 16)
		return bad_count(c, FIELD_AT(NAMESPACES, namespaces.nr), nr);
	if (nr) {
		l = alloc(c, (size_t)nr * sizeof(*l));
		if (!l)
			return PD_STATUS_NOMEM;
		for (i = 0; i < nr; i++) {
			l[i].dev = r64(c, links + 16 * i);
			l[i].ino = r64(c, links + 8 + 16 * i);
		}
		n->links = l;
	}
	trailing(c, links + 16 * nr);
	return 0;
}

static int dec_text_poke(struct rctx *c)
{
	struct pd_rec_text_poke *t = &c->rec->u.text_poke;
	size_t bytes = FIELDS_END(TEXT_POKE);
	size_t n = (size_t)t->old_len + t->new_len;

	if (n > c->end - bytes)
		return bad_count(c, FIELD_AT(TEXT_POKE, text_poke.old_len), n);
	t->old_bytes = t->old_len ? c->p + bytes : NULL;
	t->new_bytes = t->new_len ? c->p + bytes + t->old_len : NULL;
	/* The bytes are padded so that the trailer is u64 aligned. */
	trailing(c, ALIGN8(bytes + n));
	return 0;
}

static int dec_callchain_deferred(struct rctx *c)
{
	struct pd_rec_callchain_deferred *cd = &c->rec->u.callchain_deferred;
	size_t ips_at = FIELDS_END(CALLCHAIN_DEFERRED);
	uint64_t nr = cd->nr, *ips;

	if (nr > (c->end - ips_at) / 8)
		return bad_count(c, FIELD_AT(CALLCHAIN_DEFERRED, callchain_deferred.nr), nr);
	if (nr) {
		ips = alloc(c, (size_t)nr * 8);
		if (!ips)
			return PD_STATUS_NOMEM;
		pd_copy_u64(ips, c->p + ips_at, (size_t)nr, c->swap);
		cd->ips = ips;
	}
	trailing(c, ips_at + 8 * nr);
	return 0;
}

/* ---- records perf writes: what follows the fixed fields ---- */

static int dec_header_attr(struct rctx *c)
{
	struct pd_rec_header_attr *h = &c->rec->u.header_attr;
	size_t attr = FIELDS_END(HEADER_ATTR);
	/* perf_event_attr.size, the u32 after its type */
	uint32_t asz = r32(c, attr + 4);
	uint64_t nr, *ids;

	/* attr.size 0 is PERF_ATTR_SIZE_VER0 in very old files. */
	if (!asz)
		asz = PD_ATTR_SIZE_VER0;
	if (asz < PD_ATTR_SIZE_VER0) {
		RDIAG(c, PD_ATTR_TOO_SMALL, attr + 4, "attr_size=%u", asz);
		return PD_STATUS_MALFORMED;
	}
	if (asz > c->end - attr)
		return bad_field(c, attr + 4, asz);
	pd_attr_decode(c->p + attr, asz, c->swap, &h->attr);
	h->attr_size = asz;
	/* ids start after attr.size bytes, not at the reader's sizeof(attr). */
	nr = (c->end - attr - asz) / 8;
	h->nr_ids = nr;
	if (nr) {
		ids = alloc(c, (size_t)nr * 8);
		if (!ids)
			return PD_STATUS_NOMEM;
		pd_copy_u64(ids, c->p + attr + asz, (size_t)nr, c->swap);
		h->ids = ids;
	}
	trailing(c, attr + asz + 8 * nr);
	return 0;
}

static int dec_event_type(struct rctx *c)
{
	struct pd_rec_event_type *e = &c->rec->u.event_type;
	size_t name = FIELDS_END(HEADER_EVENT_TYPE);

	/*
	 * perf 3.x trimmed the 64-byte name to ALIGN(strlen, 8): records of
	 * 24 or 32 bytes whose name may end at the record end without a NUL
	 * ("cache-references" fills 16 bytes).  Only a full-size record must
	 * hold the NUL inside its 64 bytes.
	 */
	if (c->end < name + EVENT_TYPE_NAME_LEN) {
		size_t n = c->end - name;
		char *copy = alloc(c, n + 1);

		if (!copy)
			return PD_STATUS_NOMEM;
		memcpy(copy, c->p + name, n);
		copy[n] = '\0';
		e->name = copy;
		return 0;
	}
	if (str_fixed(c, name, EVENT_TYPE_NAME_LEN, &e->name))
		return PD_STATUS_MALFORMED;
	trailing(c, name + EVENT_TYPE_NAME_LEN);
	return 0;
}

/*
 * Linux: {u32 size; u32 pad} (12 bytes in old perf) with the blob after
 * the record.  Old simpleperf used this type for its inline layout
 * {u32 size; data[align64(size)]}: the sizes cannot be confused because
 * an inline record with data is at least 76 bytes (simpleperf §3.8).
 */
static int dec_tracing_data(struct rctx *c)
{
	struct pd_rec_tracing_data *t = &c->rec->u.tracing_data;
	size_t data = FIELDS_END(HEADER_TRACING_DATA);
	uint32_t n = t->size;

	if (n && c->end - data == ALIGN64(n)) {
		t->inline_data = true;
		t->data = c->p + data;
		return 0;
	}
	t->data = c->rec->extra;
	trailing(c, c->end >= data + TRACING_DATA_PAD ? data + TRACING_DATA_PAD : data);
	return 0;
}

static int dec_build_id(struct rctx *c, const struct pd_layout *l)
{
	struct pd_rec_build_id *b = &c->rec->u.build_id;

	/* Released perf leaves pid unswapped; it is a file-order s32 all the same. */
	b->cpumode = c->rec->misc & PD_MISC_CPUMODE_MASK;
	b->build_id_size = 20;
	if (c->rec->misc & PD_MISC_BUILD_ID_SIZE) {
		b->build_id_size = c->p[PD_BUILD_ID_SIZE_AT];
		if (b->build_id_size > 20)
			return bad_field(c, PD_BUILD_ID_SIZE_AT, b->build_id_size);
	}
	/* Filenames are padded to NAME_ALIGN (64). */
	return str_tail(c, pd_layout_fields_end(l), 64, &b->filename);
}

static int dec_id_index(struct rctx *c)
{
	struct pd_rec_id_index *x = &c->rec->u.id_index;
	struct pd_id_index_entry *e;
	uint64_t nr = x->nr, i;
	size_t entries = FIELDS_END(ID_INDEX), room = c->end - entries, vbase;

	if (nr > room / 32)
		return bad_count(c, FIELD_AT(ID_INDEX, id_index.nr), nr);
	/*
	 * {u64 id, idx, cpu, tid} each; the machine_pid/vcpu array is there
	 * iff it fits (§6.4).
	 */
	x->has_vcpu = nr <= room / 48;
	if (nr) {
		e = alloc(c, (size_t)nr * sizeof(*e));
		if (!e)
			return PD_STATUS_NOMEM;
		vbase = entries + 32 * (size_t)nr;
		for (i = 0; i < nr; i++) {
			e[i].id = r64(c, entries + 32 * i);
			e[i].idx = r64(c, entries + 8 + 32 * i);
			e[i].cpu = r64(c, entries + 16 + 32 * i);
			e[i].tid = r64(c, entries + 24 + 32 * i);
			e[i].machine_pid = 0;
			e[i].vcpu = 0;
			if (x->has_vcpu) {
				e[i].machine_pid = r64(c, vbase + 16 * i);
				e[i].vcpu = r64(c, vbase + 8 + 16 * i);
			}
		}
		x->entries = e;
	}
	trailing(c, entries + nr * (x->has_vcpu ? 48 : 32));
	return 0;
}

static int dec_auxtrace_info(struct rctx *c)
{
	struct pd_rec_auxtrace_info *a = &c->rec->u.auxtrace_info;
	size_t priv_at = FIELDS_END(AUXTRACE_INFO);
	uint64_t nr = (c->end - priv_at) / 8, *priv;

	a->nr_priv = nr;
	if (nr) {
		priv = alloc(c, (size_t)nr * 8);
		if (!priv)
			return PD_STATUS_NOMEM;
		pd_copy_u64(priv, c->p + priv_at, (size_t)nr, c->swap);
		a->priv = priv;
	}
	trailing(c, priv_at + 8 * nr);
	return 0;
}

static int dec_auxtrace_error(struct rctx *c)
{
	struct pd_rec_auxtrace_error *a = &c->rec->u.auxtrace_error;
	size_t time = FIELDS_END(AUXTRACE_ERROR), msg = time + 8;
	/* u32 machine_pid, vcpu after the message (fmt >= 2) */
	size_t vm = msg + AUXTRACE_ERROR_MSG_LEN;

	/* fmt 0 had no time: the message starts where time is now. */
	if (a->fmt == 0)
		msg = time;
	else
		a->time = r64(c, time);
	if (str_fixed(c, msg, AUXTRACE_ERROR_MSG_LEN, &a->msg))
		return PD_STATUS_MALFORMED;
	if (a->fmt >= 2 && c->end >= vm + 8) {
		a->machine_pid = r32(c, vm);
		a->vcpu = r32(c, vm + 4);
	}
	trailing(c, vm + 8);
	return 0;
}

static int dec_thread_map(struct rctx *c)
{
	struct pd_rec_thread_map *t = &c->rec->u.thread_map;
	struct pd_thread_map_entry *e;
	size_t entries = FIELDS_END(THREAD_MAP);
	uint64_t nr = t->nr, i;

	/* {u64 pid; char comm[16]} each */
	if (nr > (c->end - entries) / 24)
		return bad_count(c, FIELD_AT(THREAD_MAP, thread_map.nr), nr);
	if (nr) {
		e = alloc(c, (size_t)nr * sizeof(*e));
		if (!e)
			return PD_STATUS_NOMEM;
		for (i = 0; i < nr; i++) {
			e[i].pid = r64(c, entries + 24 * i);
			/* comm[16] need not hold a NUL: ours has room for one. */
			memcpy(e[i].comm, c->p + entries + 8 + 24 * i, 16);
			e[i].comm[16] = '\0';
		}
		t->entries = e;
	}
	trailing(c, entries + 24 * nr);
	return 0;
}

/*
 * perf_record_cpu_map_data at `base` (CPU_MAP, §6.4), packed, read with unaligned
 * loads; the record is padded to 8 after it.
 */
static int dec_cpu_map_data(struct rctx *c, size_t base, struct pd_cpu_map *m)
{
	size_t avail = c->end - base, used, w, nw, k;
	unsigned int lbits, b;
	uint64_t total = 0, word;
	uint32_t *cpus, i;
	uint16_t nr, start, stop;

	if (avail < 4)
		return below_min(c, base + 4);
	m->encoding = r16(c, base);
	switch (m->encoding) {
	case 0:		/* CPUS: u16 nr, u16 cpu[nr] */
		nr = r16(c, base + 2);
		if (nr > (avail - 4) / 2)
			return bad_count(c, base + 2, nr);
		if (nr) {
			cpus = alloc(c, (size_t)nr * 4);
			if (!cpus)
				return PD_STATUS_NOMEM;
			for (i = 0; i < nr; i++) {
				uint16_t v = r16(c, base + 4 + 2 * i);

				/* (u16)-1 stands for the "any CPU" entry -1. */
				if (v == 0xffff) {
					m->any_cpu = true;
					cpus[i] = UINT32_MAX;
				} else {
					cpus[i] = v;
				}
			}
			m->cpus = cpus;
		}
		m->nr = nr;
		used = 4 + 2 * (size_t)nr;
		break;
	case 1:		/* MASK: u16 nr, u16 long_size, mask words */
		if (avail < 6)
			return below_min(c, base + 6);
		nr = r16(c, base + 2);
		m->long_size = r16(c, base + 4);
		if (m->long_size == 4) {
			w = base + 6;
		} else if (m->long_size == 8) {
			/* 4 bytes of padding keep the old u64 layout. */
			if (avail < 10)
				return below_min(c, base + 10);
			w = base + 10;
		} else {
			return bad_field(c, base + 4, m->long_size);
		}
		nw = nr;
		if (nw > (c->end - w) / m->long_size)
			return bad_count(c, base + 2, nr);
		lbits = 8u * m->long_size;
		for (k = 0; k < nw; k++) {
			word = m->long_size == 4 ? r32(c, w + 4 * k) : r64(c, w + 8 * k);
			total += (uint64_t)__builtin_popcountll(word);
		}
		/* The cap keeps the list inside the arena's slack. */
		if (total > PD_CPU_LIST_MAX)
			return bad_count(c, base + 2, nr);
		if (total) {
			cpus = alloc(c, (size_t)total * 4);
			if (!cpus)
				return PD_STATUS_NOMEM;
			i = 0;
			for (k = 0; k < nw; k++) {
				word = m->long_size == 4 ? r32(c, w + 4 * k) : r64(c, w + 8 * k);
				for (b = 0; word; b++, word >>= 1)
					if (word & 1)
						cpus[i++] = (uint32_t)(k * lbits + b);
			}
			m->cpus = cpus;
		}
		m->nr = (uint32_t)total;
		used = (w - base) + nw * m->long_size;
		break;
	case 2:		/* RANGE_CPUS: u8 any_cpu, u8 pad, u16 start, u16 end */
		if (avail < 8)
			return below_min(c, base + 8);
		m->any_cpu = c->p[base + 2] != 0;
		start = r16(c, base + 4);
		stop = r16(c, base + 6);
		if (start > stop)
			return bad_field(c, base + 4, start);
		m->nr = (uint32_t)stop - start + 1;
		cpus = alloc(c, (size_t)m->nr * 4);
		if (!cpus)
			return PD_STATUS_NOMEM;
		for (i = 0; i < m->nr; i++)
			cpus[i] = start + i;
		m->cpus = cpus;
		used = 8;
		break;
	default:
		return bad_field(c, base, m->encoding);
	}
	trailing(c, ALIGN8(base + used));
	return 0;
}

static int dec_stat_config(struct rctx *c)
{
	struct pd_rec_stat_config *s = &c->rec->u.stat_config;
	struct pd_stat_config_entry *e;
	size_t entries = FIELDS_END(STAT_CONFIG);
	uint64_t nr = s->nr, i;

	/* {u64 tag; u64 val} each */
	if (nr > (c->end - entries) / 16)
		return bad_count(c, FIELD_AT(STAT_CONFIG, stat_config.nr), nr);
	if (nr) {
		e = alloc(c, (size_t)nr * sizeof(*e));
		if (!e)
			return PD_STATUS_NOMEM;
		for (i = 0; i < nr; i++) {
			e[i].tag = r64(c, entries + 16 * i);
			e[i].val = r64(c, entries + 8 + 16 * i);
		}
		s->entries = e;
	}
	trailing(c, entries + 16 * nr);
	return 0;
}

static int dec_event_update(struct rctx *c)
{
	struct pd_rec_event_update *e = &c->rec->u.event_update;
	size_t data = FIELDS_END(EVENT_UPDATE);
	uint64_t bits;

	switch (e->type) {
	case 0:		/* UNIT */
	case 2:		/* NAME */
		return str_tail(c, data, 8, &e->str);
	case 1:		/* SCALE: a double, swapped as a u64 */
		if (c->end < data + 8)
			return below_min(c, data + 8);
		bits = r64(c, data);
		memcpy(&e->scale, &bits, sizeof(e->scale));
		trailing(c, data + 8);
		return 0;
	case 3:		/* CPUS */
		return dec_cpu_map_data(c, data, &e->cpus);
	default:
		return bad_field(c, FIELD_AT(EVENT_UPDATE, event_update.type), e->type);
	}
}

static int dec_time_conv(struct rctx *c)
{
	struct pd_rec_time_conv *t = &c->rec->u.time_conv;
	size_t ext = FIELDS_END(TIME_CONV);

	/*
	 * Old perf wrote the fields alone; the extended layout adds u64
	 * time_cycles, u64 time_mask, u8 cap_user_time_zero and
	 * cap_user_time_short, padded to 8.
	 */
	if (c->end >= ext + 24) {
		t->extended = true;
		t->time_cycles = r64(c, ext);
		t->time_mask = r64(c, ext + 8);
		t->cap_user_time_zero = c->p[ext + 16];
		t->cap_user_time_short = c->p[ext + 17];
		trailing(c, ext + 24);
	} else {
		trailing(c, ext);
	}
	return 0;
}

static int dec_compressed2(struct rctx *c)
{
	struct pd_rec_compressed *z = &c->rec->u.compressed;
	size_t data = FIELDS_END(COMPRESSED2);
	uint64_t ds = z->data_size;

	if (ds > c->end - data) {
		RDIAG(c, PD_COMPRESSED_BAD_SIZE, FIELD_AT(COMPRESSED2, compressed.data_size),
		      "data_size=%llu bytes=%zu",
		      (unsigned long long)ds, c->end - data);
		return PD_STATUS_MALFORMED;
	}
	z->data = c->p + data;
	trailing(c, ALIGN8(data + ds));
	return 0;
}

static int dec_bpf_metadata(struct rctx *c)
{
	struct pd_rec_bpf_metadata *b = &c->rec->u.bpf_metadata;
	struct pd_bpf_metadata_entry *e;
	size_t entries = FIELDS_END(BPF_METADATA);
	uint64_t nr = b->nr, i;

	if (nr > (c->end - entries) / BPF_METADATA_ENTRY)
		return bad_count(c, FIELD_AT(BPF_METADATA, bpf_metadata.nr), nr);
	if (nr) {
		e = alloc(c, (size_t)nr * sizeof(*e));
		if (!e)
			return PD_STATUS_NOMEM;
		for (i = 0; i < nr; i++) {
			size_t key = entries + BPF_METADATA_ENTRY * i;

			if (str_fixed(c, key, BPF_METADATA_KEY_LEN, &e[i].key) ||
			    str_fixed(c, key + BPF_METADATA_KEY_LEN, BPF_METADATA_VALUE_LEN,
				      &e[i].value))
				return PD_STATUS_MALFORMED;
		}
		b->entries = e;
	}
	trailing(c, entries + BPF_METADATA_ENTRY * nr);
	return 0;
}

/*
 * SCHEDSTAT counter lists, in the order of perf's schedstat-v15/16/17.h
 * (fields laid out with natural alignment).  Domain counters are all u32.
 */
struct ss_field {
	const char *name;
	uint8_t size;
};

static const struct ss_field ss_cpu[] = {
	{ "yld_count", 4 }, { "array_exp", 4 }, { "sched_count", 4 },
	{ "sched_goidle", 4 }, { "ttwu_count", 4 }, { "ttwu_local", 4 },
	{ "rq_cpu_time", 8 }, { "run_delay", 8 }, { "pcount", 8 },
};

#define LB8(p)	p "_lb_count", p "_lb_balanced", p "_lb_failed", p "_lb_imbalance", \
		p "_lb_gained", p "_lb_hot_gained", p "_lb_nobusyq", p "_lb_nobusyg"
#define LB11(p)	p "_lb_count", p "_lb_balanced", p "_lb_failed",		\
		p "_lb_imbalance_load", p "_lb_imbalance_util",			\
		p "_lb_imbalance_task", p "_lb_imbalance_misfit",		\
		p "_lb_gained", p "_lb_hot_gained", p "_lb_nobusyq", p "_lb_nobusyg"
#define DOM_TAIL "alb_count", "alb_failed", "alb_pushed", "sbe_count",		\
		"sbe_balanced", "sbe_pushed", "sbf_count", "sbf_balanced",	\
		"sbf_pushed", "ttwu_wake_remote", "ttwu_move_affine",		\
		"ttwu_move_balance"

static const char *const ss_dom_v15[] = { LB8("idle"), LB8("busy"), LB8("newidle"), DOM_TAIL };
static const char *const ss_dom_v16[] = { LB8("busy"), LB8("idle"), LB8("newidle"), DOM_TAIL };
static const char *const ss_dom_v17[] = { LB11("busy"), LB11("idle"), LB11("newidle"), DOM_TAIL };

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static int dec_schedstat(struct rctx *c, bool domain)
{
	struct pd_rec_schedstat *s = &c->rec->u.schedstat;
	struct pd_schedstat_counter *ctr;
	const char *const *names = NULL;
	/* the same fields for both types, but each has its table */
	size_t ctrs = domain ? FIELDS_END(SCHEDSTAT_DOMAIN) : FIELDS_END(SCHEDSTAT_CPU);
	size_t n = 0, i, off = 0, need;

	s->counter_bytes = c->p + ctrs;
	s->counter_len = c->end - ctrs;

	if (s->version < 15 || s->version > 17)
		return 0;	/* unknown version: raw counter bytes only */
	if (domain) {
		if (s->version == 15) {
			names = ss_dom_v15;
			n = NELEM(ss_dom_v15);
		} else if (s->version == 16) {
			names = ss_dom_v16;
			n = NELEM(ss_dom_v16);
		} else {
			names = ss_dom_v17;
			n = NELEM(ss_dom_v17);
		}
		need = 4 * n;
	} else {
		n = NELEM(ss_cpu);
		need = 48;
	}
	if (s->counter_len < need)
		return below_min(c, ctrs + need);
	ctr = alloc(c, n * sizeof(*ctr));
	if (!ctr)
		return PD_STATUS_NOMEM;
	for (i = 0; i < n; i++) {
		if (domain) {
			ctr[i].name = names[i];
			ctr[i].value = r32(c, ctrs + 4 * i);
			continue;
		}
		off = PD_ALIGN(off, ss_cpu[i].size);
		ctr[i].name = ss_cpu[i].name;
		ctr[i].value = ss_cpu[i].size == 4 ? r32(c, ctrs + off) : r64(c, ctrs + off);
		off += ss_cpu[i].size;
	}
	s->nr = (uint32_t)n;
	s->counters = ctr;
	/* The struct is padded to its u64 alignment. */
	trailing(c, ALIGN8(ctrs + need));
	return 0;
}

/* ---- simpleperf records: what follows the fixed fields ---- */

static int dec_sp_kernel_symbol(struct rctx *c)
{
	struct pd_rec_sp_kernel_symbol *k = &c->rec->u.sp_kernel_symbol;
	size_t text = FIELDS_END(SP_KERNEL_SYMBOL);
	uint32_t n = k->kallsyms_size;

	if (n > c->end - text)
		return bad_count(c, FIELD_AT(SP_KERNEL_SYMBOL, sp_kernel_symbol.kallsyms_size), n);
	k->kallsyms = (const char *)(c->p + text);
	trailing(c, text + ALIGN8(n));
	return 0;
}

static int dec_sp_event_id(struct rctx *c)
{
	struct pd_rec_sp_event_id *s = &c->rec->u.sp_event_id;
	struct pd_sp_event_id_entry *e;
	size_t entries = FIELDS_END(SP_EVENT_ID);
	uint64_t nr = s->nr, i;

	/* {u64 attr_index; u64 event_id} each */
	if (nr > (c->end - entries) / 16)
		return bad_count(c, FIELD_AT(SP_EVENT_ID, sp_event_id.nr), nr);
	if (nr) {
		e = alloc(c, (size_t)nr * sizeof(*e));
		if (!e)
			return PD_STATUS_NOMEM;
		for (i = 0; i < nr; i++) {
			e[i].attr_index = r64(c, entries + 16 * i);
			e[i].event_id = r64(c, entries + 8 + 16 * i);
		}
		s->entries = e;
	}
	trailing(c, entries + 16 * nr);
	return 0;
}

/* n ips then n sps at pos, for CALLCHAIN and UNWINDING_RESULT */
static int ips_sps(struct rctx *c, size_t pos, uint64_t n, const uint64_t **ips,
		   const uint64_t **sps)
{
	uint64_t *a;

	if (!n)
		return 0;
	a = alloc(c, (size_t)n * 16);
	if (!a)
		return PD_STATUS_NOMEM;
	pd_copy_u64(a, c->p + pos, (size_t)n * 2, c->swap);
	*ips = a;
	*sps = a + n;
	return 0;
}

static int dec_sp_callchain(struct rctx *c)
{
	struct pd_rec_sp_callchain *s = &c->rec->u.sp_callchain;
	size_t ips = FIELDS_END(SP_CALLCHAIN);
	uint64_t nr = s->nr;

	if (nr > (c->end - ips) / 16)
		return bad_count(c, FIELD_AT(SP_CALLCHAIN, sp_callchain.nr), nr);
	if (ips_sps(c, ips, nr, &s->ips, &s->sps))
		return PD_STATUS_NOMEM;
	trailing(c, ips + 16 * nr);
	return 0;
}

static int dec_sp_unwinding_result(struct rctx *c)
{
	struct pd_rec_sp_unwinding_result *u = &c->rec->u.sp_unwinding_result;
	size_t pos = FIELDS_END(SP_UNWINDING_RESULT), ss_pos;
	uint64_t n, *regs;

	/* The mask is in the record; stack_size must follow the regs. */
	n = (uint64_t)__builtin_popcountll(u->reg_mask);
	if (n > (c->end - pos - 8) / 8)
		return bad_count(c, FIELD_AT(SP_UNWINDING_RESULT, sp_unwinding_result.reg_mask), n);
	u->nr_regs = (uint32_t)n;
	if (n) {
		regs = alloc(c, (size_t)n * 8);
		if (!regs)
			return PD_STATUS_NOMEM;
		pd_copy_u64(regs, c->p + pos, (size_t)n, c->swap);
		u->regs = regs;
	}
	pos += 8 * (size_t)n;
	ss_pos = pos;
	u->stack_size = r64(c, pos);
	pos += 8;
	if (u->stack_size) {
		if (u->stack_size > c->end - pos || c->end - pos - u->stack_size < 8)
			return bad_count(c, ss_pos, u->stack_size);
		u->stack = c->p + pos;
		pos += (size_t)u->stack_size;
		u->dyn_size = r64(c, pos);
		if (u->dyn_size > u->stack_size)
			return bad_field(c, pos, u->dyn_size);
		pos += 8;
	}
	/* The callchain tail (2021-03+) is present iff bytes remain. */
	if (c->end - pos >= 8) {
		n = r64(c, pos);
		if (n > (c->end - pos - 8) / 16)
			return bad_count(c, pos, n);
		u->has_callchain = true;
		u->callchain_nr = n;
		if (ips_sps(c, pos + 8, n, &u->ips, &u->sps))
			return PD_STATUS_NOMEM;
		pos += 8 + 16 * (size_t)n;
	}
	trailing(c, pos);
	return 0;
}

static int dec_sp_tracing_data(struct rctx *c)
{
	struct pd_rec_tracing_data *t = &c->rec->u.sp_tracing_data;
	size_t data = FIELDS_END(SP_TRACING_DATA);
	uint32_t n = t->size;

	if (n > c->end - data)
		return bad_count(c, FIELD_AT(SP_TRACING_DATA, sp_tracing_data.size), n);
	t->inline_data = true;
	t->data = c->p + data;
	trailing(c, data + ALIGN64(n));
	return 0;
}

/* What follows the fixed fields where its layout depends on the data. */
static int rest(struct rctx *c, const struct pd_layout *l, uint32_t type)
{
	struct pd_record *rec = c->rec;

	switch (type) {
	case PD_REC_READ:
		return dec_read(c);
	case PD_REC_MMAP2:
		return dec_mmap2(c, l);
	case PD_REC_NAMESPACES:
		return dec_namespaces(c);
	case PD_REC_TEXT_POKE:
		return dec_text_poke(c);
	case PD_REC_CALLCHAIN_DEFERRED:
		return dec_callchain_deferred(c);
	case PD_REC_HEADER_ATTR:
		return dec_header_attr(c);
	case PD_REC_HEADER_EVENT_TYPE:
		return dec_event_type(c);
	case PD_REC_HEADER_TRACING_DATA:
		return dec_tracing_data(c);
	case PD_REC_HEADER_BUILD_ID:
		return dec_build_id(c, l);
	case PD_REC_ID_INDEX:
		return dec_id_index(c);
	case PD_REC_AUXTRACE_INFO:
		return dec_auxtrace_info(c);
	case PD_REC_AUXTRACE_ERROR:
		return dec_auxtrace_error(c);
	case PD_REC_THREAD_MAP:
		return dec_thread_map(c);
	case PD_REC_CPU_MAP:
		return dec_cpu_map_data(c, FIELDS_END(CPU_MAP), &rec->u.cpu_map.map);
	case PD_REC_STAT_CONFIG:
		return dec_stat_config(c);
	case PD_REC_EVENT_UPDATE:
		return dec_event_update(c);
	case PD_REC_TIME_CONV:
		return dec_time_conv(c);
	case PD_REC_HEADER_FEATURE:
		rec->u.header_feature.len = c->end - FIELDS_END(HEADER_FEATURE);
		rec->u.header_feature.payload = c->end > FIELDS_END(HEADER_FEATURE) ?
						c->p + FIELDS_END(HEADER_FEATURE) : NULL;
		rec->u.header_feature.end_marker = c->end == FIELDS_END(HEADER_FEATURE);
		return 0;
	case PD_REC_COMPRESSED:
		rec->u.compressed.data_size = c->end - FIELDS_END(COMPRESSED);
		rec->u.compressed.data = c->p + FIELDS_END(COMPRESSED);
		return 0;
	case PD_REC_COMPRESSED2:
		return dec_compressed2(c);
	case PD_REC_BPF_METADATA:
		return dec_bpf_metadata(c);
	case PD_REC_SCHEDSTAT_CPU:
		return dec_schedstat(c, false);
	case PD_REC_SCHEDSTAT_DOMAIN:
		return dec_schedstat(c, true);
	case PD_REC_SP_KERNEL_SYMBOL:
		return dec_sp_kernel_symbol(c);
	case PD_REC_SP_EVENT_ID:
		return dec_sp_event_id(c);
	case PD_REC_SP_CALLCHAIN:
		return dec_sp_callchain(c);
	case PD_REC_SP_UNWINDING_RESULT:
		return dec_sp_unwinding_result(c);
	case PD_REC_SP_TRACING_DATA:
		return dec_sp_tracing_data(c);
	default:
		/* SPLIT chunks: nothing to decode here. */
		return 0;
	}
}

static inline __attribute__((always_inline)) int
dispatch(struct rctx *c, const struct pd_layout *l, uint32_t type, bool constant)
{
	const char *str;
	int ret;

	if (!l)
		return 0;	/* unknown types: nothing to decode */
	ret = constant ? fields_unrolled(c, l) : fields(c, l);
	if (ret)
		return ret;
	switch (l->rest) {
	case PD_REST_NONE:
		trailing(c, pd_layout_fields_end(l));
		return 0;
	case PD_REST_STRING:
		ret = str_tail(c, pd_layout_fields_end(l), 8, &str);
		if (!ret)
			memcpy((uint8_t *)c->rec + l->str_member, &str, sizeof(str));
		return ret;
	default:
		return rest(c, l, type);
	}
}

/*
 * A record of `type` (rec->type) with its layout; inline in
 * decode_other(), once for each of the frequent types with their type
 * and layout constants (the fields read without the loop over the table,
 * the union's size and the minimum known) and once for the others.
 */
static inline __attribute__((always_inline)) int
decode_layout(struct pd_decoder *d, struct pd_record *rec, const struct pd_event *ev,
	      struct pd_diag_sink *sink, uint32_t type, const struct pd_layout *layout,
	      bool constant)
{
	size_t len = rec->raw_len, min;
	bool trailer = false;
	struct rctx c;
	int ret;

	rec->decoded = false;
	rec->has_trailer = false;
	/* The type's member when the layout names it, else the whole union. */
	memset(&rec->u, 0, layout && layout->u_size ? layout->u_size : sizeof(rec->u));

	c.d = d;
	c.rec = rec;
	c.ev = ev;
	c.sink = sink;
	c.p = rec->raw;
	c.end = len;
	c.swap = rec->swapped;
	c.check_tail = true;

	/* Kernel records end with the sample_id trailer of their event. */
	if (type < PD_REC_KERNEL_MAX) {
		if (!ev)
			c.check_tail = false;
		else
			trailer = (ev->attr.flags & PD_ATTR_SAMPLE_ID_ALL) && ev->id_hdr_size;
	}
	/* pd_trailer_decode() clears rec->sid itself. */
	if (!trailer)
		memset(&rec->sid, 0, sizeof(rec->sid));

	if (!pd_decoder_begin(d, len)) {
		memset(&rec->sid, 0, sizeof(rec->sid));
		RDIAG(&c, PD_NO_MEMORY, 0, "size=%zu", len);
		return PD_STATUS_NOMEM;
	}
	min = layout ? pd_layout_min_size(layout) : 8;
	if (len < min) {
		memset(&rec->sid, 0, sizeof(rec->sid));
		return below_min(&c, min);
	}
	if (trailer) {
		if (len - min < ev->id_hdr_size ||
		    !pd_trailer_decode(rec->raw, len, c.swap, ev, &rec->sid)) {
			memset(&rec->sid, 0, sizeof(rec->sid));
			RDIAG(&c, PD_REC_TRAILER_DOES_NOT_FIT, 0,
			      "size=%zu min=%zu id_hdr_size=%u", len, min, ev->id_hdr_size);
			return PD_STATUS_MALFORMED;
		}
		rec->has_trailer = true;
		c.end = len - ev->id_hdr_size;
	}

	ret = dispatch(&c, layout, type, constant);
	if (ret == 0)
		rec->decoded = true;
	return ret;
}

/*
 * Out of line from pd_record_decode(), so that the samples, nearly every
 * record, do not pay for setting up this function's frame.  The types
 * taken apart are those of every recording's process tree and maps.
 */
static __attribute__((noinline)) int decode_other(struct pd_decoder *d, struct pd_record *rec,
						  const struct pd_event *ev,
						  struct pd_diag_sink *sink)
{
	switch (rec->type) {
	case PD_REC_MMAP2:
		return decode_layout(d, rec, ev, sink, PD_REC_MMAP2, PD_KERNEL_LAYOUT(MMAP2),
				     true);
	case PD_REC_COMM:
		return decode_layout(d, rec, ev, sink, PD_REC_COMM, PD_KERNEL_LAYOUT(COMM),
				     true);
	case PD_REC_FORK:
		return decode_layout(d, rec, ev, sink, PD_REC_FORK, PD_KERNEL_LAYOUT(FORK),
				     true);
	case PD_REC_EXIT:
		return decode_layout(d, rec, ev, sink, PD_REC_EXIT, PD_KERNEL_LAYOUT(EXIT),
				     true);
	default:
		return decode_layout(d, rec, ev, sink, rec->type, pd_layout_of(rec->type),
				     false);
	}
}

int pd_record_decode(struct pd_decoder *d, struct pd_record *rec, const struct pd_event *ev,
		     struct pd_diag_sink *sink)
{
	/* pd_sample_decode() sets up the arena itself. */
	if (rec->type == PD_REC_SAMPLE)
		return pd_sample_decode(d, rec, ev, sink);
	return decode_other(d, rec, ev, sink);
}
