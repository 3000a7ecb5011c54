// SPDX-License-Identifier: MIT
/*
 * swap_twin.c - the byte-swapped twin of a perf.data file (see swap_twin.h).
 *
 * Values are always read from the native bytes before the bytes are
 * swapped in place; every loop is bounded by the record or payload it
 * walks, and anything that does not fit makes the twin fail with a
 * message (the input is expected to be valid).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <zstd.h>

#include "perfdata/pd_consts.h"
#include "swap_twin.h"

#define MAGIC_NATIVE	0x32454c4946524550ULL
#define FILE_HDR	104
#define PIPE_HDR	16
#define ATTR_VER0	64

#define TRAILER_BITS	(PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID | \
			 PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_IDENTIFIER)

struct tattr {
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint64_t regs_user;
	uint64_t regs_intr;
	bool sample_id_all;
	int id_pos, is_pos;
	size_t id_hdr;
	uint64_t *ids;
	size_t nr_ids;
};

struct obuf {
	uint8_t *p;
	size_t len, cap;
};

struct twin {
	struct tattr *attrs;
	size_t nr_attrs, cap_attrs;
	uint32_t nrcpus_avail, nrcpus_online;
	bool failed;
	char *err;
	size_t errlen;
	ZSTD_DStream *zd;
	ZSTD_CStream *zc;
};

static void fail(struct twin *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(struct twin *t, const char *fmt, ...)
{
	va_list ap;

	if (t->failed)
		return;
	t->failed = true;
	va_start(ap, fmt);
	vsnprintf(t->err, t->errlen, fmt, ap);
	va_end(ap);
}

/* ---- native loads, in-place swaps ---- */

static uint16_t r16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static uint32_t r32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t r64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void w64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void s16(uint8_t *p)
{
	uint16_t v = __builtin_bswap16(r16(p));

	memcpy(p, &v, 2);
}

static void s32(uint8_t *p)
{
	uint32_t v = __builtin_bswap32(r32(p));

	memcpy(p, &v, 4);
}

static void s64(uint8_t *p)
{
	w64(p, __builtin_bswap64(r64(p)));
}

/* Swap n u64 words at p. */
static void s64n(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		s64(p + 8 * i);
}

/*
 * A C bit-field word as a big-endian compiler lays it out: the field of
 * width w at little-endian bit p moves to bit 64 - p - w of the value,
 * which is then stored big-endian.  widths: from the LSB, 0-terminated.
 */
static void bitfield_to_be(uint8_t *p, const unsigned int *widths)
{
	uint64_t v = r64(p), out = 0;
	unsigned int pos = 0;

	for (; *widths; widths++) {
		unsigned int w = *widths;
		uint64_t mask = w == 64 ? ~0ULL : (1ULL << w) - 1;

		out |= ((v >> pos) & mask) << (64 - pos - w);
		pos += w;
	}
	w64(p, __builtin_bswap64(out));
}

/* perf_event_attr flags: 15 single bits, precise_ip:2, 23 single bits, reserved:24 */
static const unsigned int attr_flag_widths[] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 24, 0,
};

/* perf_branch_entry flags: mispred, predicted, in_tx, abort, cycles, type, spec, new_type, priv, reserved */
static const unsigned int branch_flag_widths[] = { 1, 1, 1, 1, 16, 4, 2, 4, 3, 31, 0 };

/* ---- attrs ---- */

static void attr_positions(struct tattr *a)
{
	uint64_t st = a->sample_type;

	if (st & PD_SAMPLE_IDENTIFIER) {
		a->id_pos = 0;
		a->is_pos = 1;
	} else if (st & PD_SAMPLE_ID) {
		a->id_pos = __builtin_popcountll(st & (PD_SAMPLE_IP | PD_SAMPLE_TID |
						      PD_SAMPLE_TIME | PD_SAMPLE_ADDR));
		a->is_pos = 1 + !!(st & PD_SAMPLE_CPU) + !!(st & PD_SAMPLE_STREAM_ID);
	} else {
		a->id_pos = a->is_pos = -1;
	}
	a->id_hdr = 8 * (size_t)__builtin_popcountll(st & TRAILER_BITS);
}

/* Parse native attr bytes (len bytes available) into t->attrs. */
static struct tattr *add_attr(struct twin *t, const uint8_t *p, size_t len)
{
	uint32_t size = len >= 8 ? r32(p + 4) : 0;
	struct tattr *a;

	if (!size)
		size = ATTR_VER0;
	if (size > len)
		size = (uint32_t)len;
	if (t->nr_attrs == t->cap_attrs) {
		size_t ncap = t->cap_attrs ? t->cap_attrs * 2 : 8;
		struct tattr *na = realloc(t->attrs, ncap * sizeof(*na));

		if (!na) {
			fail(t, "out of memory");
			return NULL;
		}
		t->attrs = na;
		t->cap_attrs = ncap;
	}
	a = &t->attrs[t->nr_attrs++];
	memset(a, 0, sizeof(*a));
	if (size >= 48) {
		a->sample_type = r64(p + 24);
		a->read_format = r64(p + 32);
		a->sample_id_all = (r64(p + 40) >> 18) & 1;
	}
	if (size >= 80)
		a->branch_sample_type = r64(p + 72);
	if (size >= 88)
		a->regs_user = r64(p + 80);
	if (size >= 104)
		a->regs_intr = r64(p + 96);
	attr_positions(a);
	return a;
}

static void attr_add_ids(struct twin *t, struct tattr *a, const uint8_t *p, size_t n)
{
	size_t i;

	if (!n)
		return;
	a->ids = calloc(n, 8);
	if (!a->ids) {
		fail(t, "out of memory");
		return;
	}
	for (i = 0; i < n; i++)
		a->ids[i] = r64(p + 8 * i);
	a->nr_ids = n;
}

/* Swap an attr of `len` bytes in place (fields present per attr.size). */
static void swap_attr(uint8_t *p, size_t len)
{
	static const struct {
		uint8_t off, width;
	} f[] = {
		{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
		{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 }, { 88, 4 },
		{ 92, 4 }, { 96, 8 }, { 104, 4 }, { 108, 2 }, { 110, 2 }, { 112, 4 },
		{ 116, 4 }, { 120, 8 }, { 128, 8 }, { 136, 8 },
	};
	uint32_t size = len >= 8 ? r32(p + 4) : 0;
	size_t i;

	if (!size)
		size = ATTR_VER0;
	if (size > len)
		size = (uint32_t)len;
	if (size >= 48)
		bitfield_to_be(p + 40, attr_flag_widths);
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i].off + f[i].width > size)
			continue;
		if (f[i].width == 2)
			s16(p + f[i].off);
		else if (f[i].width == 4)
			s32(p + f[i].off);
		else
			s64(p + f[i].off);
	}
}

/* §7.7: the attr of a record (native bytes). NULL if none matches. */
static struct tattr *find_attr(struct twin *t, const uint8_t *rec, size_t len, uint32_t type)
{
	struct tattr *first;
	size_t n_u64, i, k;
	uint64_t id;

	if (!t->nr_attrs)
		return NULL;
	first = &t->attrs[0];
	if (t->nr_attrs == 1)
		return first;
	if (type != PD_REC_SAMPLE && !first->sample_id_all)
		return first;
	n_u64 = (len - 8) / 8;
	if (type == PD_REC_SAMPLE) {
		if (first->id_pos < 0 || (size_t)first->id_pos >= n_u64)
			return first;
		id = r64(rec + 8 + 8 * (size_t)first->id_pos);
	} else {
		if (first->is_pos < 0 || (size_t)first->is_pos > n_u64)
			return first;
		id = r64(rec + len - 8 * (size_t)first->is_pos);
	}
	if (!id)
		return first;
	for (i = 0; i < t->nr_attrs; i++)
		for (k = 0; k < t->attrs[i].nr_ids; k++)
			if (t->attrs[i].ids[k] == id)
				return &t->attrs[i];
	return NULL;
}

/* ---- samples and trailers ---- */

struct cur {
	uint8_t *p;
	size_t len, pos;
	bool bad;
};

static uint8_t *take(struct cur *c, size_t n)
{
	uint8_t *q;

	if (c->bad || c->len - c->pos < n) {
		c->bad = true;
		return NULL;
	}
	q = c->p + c->pos;
	c->pos += n;
	return q;
}

static void cu64(struct cur *c)
{
	uint8_t *q = take(c, 8);

	if (q)
		s64(q);
}

static void cu32x2(struct cur *c)
{
	uint8_t *q = take(c, 8);

	if (q) {
		s32(q);
		s32(q + 4);
	}
}

static uint64_t peek64(struct cur *c)
{
	return c->len - c->pos >= 8 ? r64(c->p + c->pos) : 0;
}

/* read_format values (native first). */
static void swap_read_values(struct cur *c, uint64_t rf)
{
	size_t per = 1 + !!(rf & PD_FORMAT_ID) + !!(rf & PD_FORMAT_LOST);
	uint64_t nr, i;

	if (rf & PD_FORMAT_GROUP) {
		nr = peek64(c);
		cu64(c);
		if (rf & PD_FORMAT_TOTAL_TIME_ENABLED)
			cu64(c);
		if (rf & PD_FORMAT_TOTAL_TIME_RUNNING)
			cu64(c);
		if (nr > (c->len - c->pos) / 8 / per) {
			c->bad = true;
			return;
		}
		for (i = 0; i < nr * per; i++)
			cu64(c);
		return;
	}
	cu64(c);
	if (rf & PD_FORMAT_TOTAL_TIME_ENABLED)
		cu64(c);
	if (rf & PD_FORMAT_TOTAL_TIME_RUNNING)
		cu64(c);
	if (rf & PD_FORMAT_ID)
		cu64(c);
	if (rf & PD_FORMAT_LOST)
		cu64(c);
}

static void swap_regs(struct cur *c, uint64_t mask)
{
	uint64_t abi = peek64(c);
	int i, n = __builtin_popcountll(mask);

	cu64(c);
	if (!abi)
		return;
	for (i = 0; i < n; i++)
		cu64(c);
}

static void swap_sample(struct twin *t, const struct tattr *a, uint8_t *p, size_t len)
{
	struct cur c = { p, len, 8, false };
	uint64_t st = a->sample_type, nr, i;

	if (st & PD_SAMPLE_IDENTIFIER)
		cu64(&c);
	if (st & PD_SAMPLE_IP)
		cu64(&c);
	if (st & PD_SAMPLE_TID)
		cu32x2(&c);
	if (st & PD_SAMPLE_TIME)
		cu64(&c);
	if (st & PD_SAMPLE_ADDR)
		cu64(&c);
	if (st & PD_SAMPLE_ID)
		cu64(&c);
	if (st & PD_SAMPLE_STREAM_ID)
		cu64(&c);
	if (st & PD_SAMPLE_CPU)
		cu32x2(&c);
	if (st & PD_SAMPLE_PERIOD)
		cu64(&c);
	if (st & PD_SAMPLE_READ)
		swap_read_values(&c, a->read_format);
	if (st & PD_SAMPLE_CALLCHAIN) {
		nr = peek64(&c);
		cu64(&c);
		if (nr > (c.len - c.pos) / 8)
			c.bad = true;
		for (i = 0; i < nr && !c.bad; i++)
			cu64(&c);
	}
	if (st & PD_SAMPLE_RAW) {
		uint8_t *q = take(&c, 4);

		if (q) {
			uint32_t rsz = r32(q);

			s32(q);
			take(&c, rsz);
		}
	}
	if (st & PD_SAMPLE_BRANCH_STACK) {
		nr = peek64(&c);
		cu64(&c);
		/* The kernel writes an empty stack without hw_idx (docs/perf-data-format.md §7.4). */
		if ((a->branch_sample_type & PD_BRANCH_HW_INDEX) && !(nr == 0 && c.pos == c.len))
			cu64(&c);
		if (nr > (c.len - c.pos) / 24)
			c.bad = true;
		for (i = 0; i < nr && !c.bad; i++) {
			uint8_t *e = take(&c, 24);

			if (!e)
				break;
			s64(e);
			s64(e + 8);
			bitfield_to_be(e + 16, branch_flag_widths);
		}
		if (a->branch_sample_type & PD_BRANCH_COUNTERS)
			for (i = 0; i < nr && !c.bad; i++)
				cu64(&c);
	}
	if (st & PD_SAMPLE_REGS_USER)
		swap_regs(&c, a->regs_user);
	if (st & PD_SAMPLE_STACK_USER) {
		uint64_t size = peek64(&c);

		cu64(&c);
		if (size) {
			if (size > c.len - c.pos)
				c.bad = true;
			else
				take(&c, (size_t)size);
			cu64(&c);
		}
	}
	if (st & (PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT))
		cu64(&c);
	if (st & PD_SAMPLE_DATA_SRC)
		cu64(&c);
	if (st & PD_SAMPLE_TRANSACTION)
		cu64(&c);
	if (st & PD_SAMPLE_REGS_INTR)
		swap_regs(&c, a->regs_intr);
	if (st & PD_SAMPLE_PHYS_ADDR)
		cu64(&c);
	if (st & PD_SAMPLE_CGROUP)
		cu64(&c);
	if (st & PD_SAMPLE_DATA_PAGE_SIZE)
		cu64(&c);
	if (st & PD_SAMPLE_CODE_PAGE_SIZE)
		cu64(&c);
	if (st & PD_SAMPLE_AUX) {
		uint64_t size = peek64(&c);

		cu64(&c);
		if (size > c.len - c.pos)
			c.bad = true;
		else
			take(&c, (size_t)size);
	}
	if (c.bad)
		fail(t, "sample does not fit its record (sample_type %#llx, size %zu)",
		     (unsigned long long)st, len);
}

/* The sample_id trailer in the last a->id_hdr bytes of p[0..len). */
static void swap_trailer(struct twin *t, const struct tattr *a, uint8_t *p, size_t len)
{
	uint64_t st = a->sample_type;
	struct cur c;

	if (!a->sample_id_all || !a->id_hdr)
		return;
	if (a->id_hdr > len - 8) {
		fail(t, "sample_id trailer does not fit a record of %zu bytes", len);
		return;
	}
	c.p = p;
	c.len = len;
	c.pos = len - a->id_hdr;
	c.bad = false;
	if (st & PD_SAMPLE_TID)
		cu32x2(&c);
	if (st & PD_SAMPLE_TIME)
		cu64(&c);
	if (st & PD_SAMPLE_ID)
		cu64(&c);
	if (st & PD_SAMPLE_STREAM_ID)
		cu64(&c);
	if (st & PD_SAMPLE_CPU)
		cu32x2(&c);
	if (st & PD_SAMPLE_IDENTIFIER)
		cu64(&c);
}

/* ---- features ---- */

/* u32 len + bytes; false when it does not fit. */
static bool fstr(struct cur *c)
{
	uint8_t *q = take(c, 4);
	uint32_t len;

	if (!q)
		return false;
	len = r32(q);
	s32(q);
	return take(c, len) != NULL;
}

static uint32_t fu32(struct cur *c)
{
	uint8_t *q = take(c, 4);
	uint32_t v;

	if (!q)
		return 0;
	v = r32(q);
	s32(q);
	return v;
}

static void fstr_list(struct cur *c)
{
	uint32_t nr = fu32(c), i;

	for (i = 0; i < nr && !c->bad; i++)
		fstr(c);
}

static void swap_build_ids(struct twin *t, uint8_t *p, size_t len)
{
	size_t pos = 0;

	while (len - pos >= 8) {
		uint16_t size = r16(p + pos + 6);

		if (size < 36 || size > len - pos) {
			fail(t, "build-id entry of %u bytes does not fit", size);
			return;
		}
		s32(p + pos);
		s16(p + pos + 4);
		s16(p + pos + 6);
		s32(p + pos + 8);
		s16(p + pos + 34);
		pos += size;
	}
}

static void swap_feature(struct twin *t, unsigned int id, uint8_t *p, size_t len)
{
	struct cur c = { p, len, 0, false };
	uint32_t nr, i, k;

	switch (id) {
	case PD_FEAT_TRACING_DATA:
	case PD_FEAT_BRANCH_STACK:
	case PD_FEAT_STAT:
	case PD_FEAT_BPF_PROG_INFO:	/* host order only: stays as bytes */
	case PD_FEAT_BPF_BTF:
		return;
	case PD_FEAT_BUILD_ID:
		swap_build_ids(t, p, len);
		return;
	case PD_FEAT_HOSTNAME:
	case PD_FEAT_OSRELEASE:
	case PD_FEAT_VERSION:
	case PD_FEAT_ARCH:
	case PD_FEAT_CPUDESC:
	case PD_FEAT_CPUID:
		fstr(&c);
		break;
	case PD_FEAT_NRCPUS:
		if (len >= 8) {
			t->nrcpus_avail = r32(p);
			t->nrcpus_online = r32(p + 4);
		}
		fu32(&c);
		fu32(&c);
		break;
	case PD_FEAT_TOTAL_MEM:
	case PD_FEAT_CLOCKID:
	case PD_FEAT_DIR_FORMAT:
		cu64(&c);
		break;
	case PD_FEAT_CMDLINE:
		fstr_list(&c);
		break;
	case PD_FEAT_EVENT_DESC: {
		uint32_t sz;

		nr = fu32(&c);
		sz = fu32(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			uint8_t *a = take(&c, sz);
			uint32_t nids;

			if (!a)
				break;
			swap_attr(a, sz);
			nids = fu32(&c);
			fstr(&c);
			for (k = 0; k < nids && !c.bad; k++)
				cu64(&c);
		}
		break;
	}
	case PD_FEAT_CPU_TOPOLOGY:
		fstr_list(&c);
		fstr_list(&c);
		if (c.pos < c.len) {
			for (i = 0; i < t->nrcpus_avail && !c.bad; i++) {
				fu32(&c);
				fu32(&c);
			}
		}
		if (c.pos < c.len) {
			fstr_list(&c);
			for (i = 0; i < t->nrcpus_avail && !c.bad; i++)
				fu32(&c);
		}
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		nr = fu32(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			fu32(&c);
			cu64(&c);
			cu64(&c);
			fstr(&c);
		}
		break;
	case PD_FEAT_PMU_MAPPINGS:
		nr = fu32(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			fu32(&c);
			fstr(&c);
		}
		break;
	case PD_FEAT_GROUP_DESC:
		nr = fu32(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			fstr(&c);
			fu32(&c);
			fu32(&c);
		}
		break;
	case PD_FEAT_AUXTRACE:
	case PD_FEAT_SAMPLE_TIME:
	case PD_FEAT_MEM_TOPOLOGY:	/* every field is a u64 */
		s64n(p, len / 8);
		c.pos = len - len % 8;
		break;
	case PD_FEAT_CACHE:
		fu32(&c);
		nr = fu32(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			for (k = 0; k < 4; k++)
				fu32(&c);
			fstr(&c);
			fstr(&c);
			fstr(&c);
		}
		break;
	case PD_FEAT_COMPRESSED:
		for (k = 0; k < 5; k++)
			fu32(&c);
		break;
	case PD_FEAT_CPU_PMU_CAPS:
	case PD_FEAT_HYBRID_TOPOLOGY:
		nr = fu32(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			fstr(&c);
			fstr(&c);
		}
		break;
	case PD_FEAT_CLOCK_DATA:
		fu32(&c);
		fu32(&c);
		cu64(&c);
		cu64(&c);
		break;
	case PD_FEAT_PMU_CAPS:
		nr = fu32(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			uint32_t ncaps = fu32(&c);

			for (k = 0; k < ncaps && !c.bad; k++) {
				fstr(&c);
				fstr(&c);
			}
			fstr(&c);
		}
		break;
	case PD_FEAT_CPU_DOMAIN_INFO: {
		uint32_t version = fu32(&c);

		fu32(&c);
		while (c.pos < c.len && !c.bad) {
			uint32_t nd;

			fu32(&c);
			nd = fu32(&c);
			for (k = 0; k < nd && !c.bad; k++) {
				fu32(&c);
				if (version >= 17)
					fstr(&c);
				fstr(&c);
				fstr(&c);
			}
		}
		break;
	}
	case PD_FEAT_E_MACHINE:
		fu32(&c);
		fu32(&c);
		break;
	case PD_FEAT_CLN_SIZE:
		if (len == 4)
			fu32(&c);
		else if (len == 8)
			cu64(&c);
		c.pos = len;
		break;
	default:
		return;	/* unknown: bytes */
	}
	if (c.bad)
		fail(t, "feature %u does not parse (%zu bytes)", id, len);
}

/* ---- records ---- */

/* perf_record_cpu_map_data at p, n bytes available. */
static void swap_cpu_map(struct twin *t, uint8_t *p, size_t n)
{
	uint16_t type, nr, ls, i;

	if (n < 8) {
		fail(t, "cpu map of %zu bytes", n);
		return;
	}
	type = r16(p);
	s16(p);
	if (type == 0) {
		nr = r16(p + 2);
		s16(p + 2);
		if (4 + 2 * (size_t)nr > n) {
			fail(t, "cpu map nr %u does not fit", nr);
			return;
		}
		for (i = 0; i < nr; i++)
			s16(p + 4 + 2 * i);
	} else if (type == 1) {
		nr = r16(p + 2);
		ls = r16(p + 4);
		s16(p + 2);
		s16(p + 4);
		if (ls == 4 && 6 + 4 * (size_t)nr <= n) {
			for (i = 0; i < nr; i++)
				s32(p + 6 + 4 * i);
		} else if (ls == 8 && 10 + 8 * (size_t)nr <= n) {
			for (i = 0; i < nr; i++)
				s64(p + 10 + 8 * i);
		} else {
			fail(t, "cpu mask nr %u long_size %u does not fit", nr, ls);
		}
	} else if (type == 2) {
		s16(p + 4);
		s16(p + 6);
	} else {
		fail(t, "cpu map type %u", type);
	}
}

static size_t strend(struct twin *t, const uint8_t *p, size_t from, size_t to)
{
	const uint8_t *z;

	if (from >= to) {
		fail(t, "string does not fit");
		return to;
	}
	z = memchr(p + from, 0, to - from);
	if (!z) {
		fail(t, "string without NUL");
		return to;
	}
	return (size_t)(z - p) + 1;
}

/* One record in place: p holds len = header.size bytes (native). */
static void swap_record(struct twin *t, uint8_t *p, size_t len)
{
	uint32_t type = r32(p);
	uint16_t misc = r16(p + 4);
	const struct tattr *a = NULL;
	size_t body_end = len, i;

	if (len < 8) {
		fail(t, "record of %zu bytes", len);
		return;
	}
	if (type >= PD_REC_SP_START) {
		fail(t, "simpleperf record type %u is not supported", type);
		return;
	}
	if (type < PD_REC_KERNEL_MAX) {
		a = find_attr(t, p, len, type);
		if (!a) {
			fail(t, "record type %u: no attr for its id", type);
			return;
		}
		if (type != PD_REC_SAMPLE && a->sample_id_all) {
			if (a->id_hdr > len - 8) {
				fail(t, "record type %u: trailer does not fit", type);
				return;
			}
			body_end = len - a->id_hdr;
		}
	}

#define NEED(n) do { if ((n) > body_end) { fail(t, "record type %u too short", type); return; } } while (0)
	switch (type) {
	case PD_REC_MMAP:
		NEED(40);
		s32(p + 8);
		s32(p + 12);
		s64n(p + 16, 3);
		break;
	case PD_REC_LOST:
	case PD_REC_CGROUP:
		NEED(type == PD_REC_LOST ? 24 : 16);
		s64n(p + 8, type == PD_REC_LOST ? 2 : 1);
		break;
	case PD_REC_COMM:
	case PD_REC_ITRACE_START:
	case PD_REC_SWITCH_CPU_WIDE:
		NEED(16);
		s32(p + 8);
		s32(p + 12);
		break;
	case PD_REC_EXIT:
	case PD_REC_FORK:
		NEED(32);
		for (i = 0; i < 4; i++)
			s32(p + 8 + 4 * i);
		s64(p + 24);
		break;
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:
	case PD_REC_AUX:
		NEED(32);
		s64n(p + 8, 3);
		break;
	case PD_REC_READ:
		NEED(16);
		s32(p + 8);
		s32(p + 12);
		s64n(p + 16, (body_end - 16) / 8);
		break;
	case PD_REC_SAMPLE:
		swap_sample(t, a, p, len);
		break;
	case PD_REC_MMAP2:
		NEED(72);
		s32(p + 8);
		s32(p + 12);
		s64n(p + 16, 3);
		if (misc & PD_MISC_MMAP_BUILD_ID) {
			s16(p + 42);
		} else {
			s32(p + 40);
			s32(p + 44);
			s64n(p + 48, 2);
		}
		s32(p + 64);
		s32(p + 68);
		break;
	case PD_REC_LOST_SAMPLES:
	case PD_REC_AUX_OUTPUT_HW_ID:
		NEED(16);
		s64(p + 8);
		break;
	case PD_REC_SWITCH:
		break;
	case PD_REC_NAMESPACES: {
		uint64_t nr;

		NEED(24);
		nr = r64(p + 16);
		s32(p + 8);
		s32(p + 12);
		s64(p + 16);
		if (nr > (body_end - 24) / 16) {
			fail(t, "NAMESPACES nr %llu does not fit", (unsigned long long)nr);
			return;
		}
		s64n(p + 24, (size_t)nr * 2);
		break;
	}
	case PD_REC_KSYMBOL:
		NEED(24);
		s64(p + 8);
		s32(p + 16);
		s16(p + 20);
		s16(p + 22);
		break;
	case PD_REC_BPF_EVENT:
		NEED(24);
		s16(p + 8);
		s16(p + 10);
		s32(p + 12);
		break;
	case PD_REC_TEXT_POKE:
		NEED(20);
		s64(p + 8);
		s16(p + 16);
		s16(p + 18);
		break;
	case PD_REC_CALLCHAIN_DEFERRED: {
		uint64_t nr;

		NEED(24);
		nr = r64(p + 16);
		if (nr > (body_end - 24) / 8) {
			fail(t, "CALLCHAIN_DEFERRED nr does not fit");
			return;
		}
		s64n(p + 8, 2 + (size_t)nr);
		break;
	}
	case PD_REC_HEADER_ATTR: {
		uint32_t asz;

		NEED(8 + ATTR_VER0);
		asz = r32(p + 12);
		if (!asz)
			asz = ATTR_VER0;
		if (8 + (size_t)asz > len) {
			fail(t, "HEADER_ATTR attr size %u does not fit", asz);
			return;
		}
		swap_attr(p + 8, asz);
		s64n(p + 8 + asz, (len - 8 - asz) / 8);
		break;
	}
	case PD_REC_HEADER_EVENT_TYPE:
		NEED(16);
		s64(p + 8);
		break;
	case PD_REC_HEADER_TRACING_DATA:
		NEED(12);
		s32(p + 8);
		if (len >= 16)
			s32(p + 12);
		break;
	case PD_REC_HEADER_BUILD_ID:
		swap_build_ids(t, p, len);
		return;	/* header done there */
	case PD_REC_FINISHED_ROUND:
	case PD_REC_FINISHED_INIT:
		break;
	case PD_REC_ID_INDEX:
	case PD_REC_STAT_CONFIG:
	case PD_REC_STAT_ROUND:
	case PD_REC_TIME_CONV:
		NEED(16);
		if (type == PD_REC_TIME_CONV)
			s64n(p + 8, (len >= 48 ? 40 : len - 8) / 8);
		else
			s64n(p + 8, (len - 8) / 8);
		break;
	case PD_REC_AUXTRACE_INFO:
		NEED(16);
		s32(p + 8);
		s32(p + 12);
		s64n(p + 16, (len - 16) / 8);
		break;
	case PD_REC_AUXTRACE:
		NEED(48);
		s64n(p + 8, 3);
		for (i = 0; i < 4; i++)
			s32(p + 32 + 4 * i);
		break;
	case PD_REC_AUXTRACE_ERROR: {
		uint32_t fmt;

		NEED(40);
		fmt = r32(p + 28);
		for (i = 0; i < 6; i++)
			s32(p + 8 + 4 * i);
		s64(p + 32);
		if (fmt >= 1 && len >= 48)
			s64(p + 40);
		if (fmt >= 2 && len >= 120) {
			s32(p + 112);
			s32(p + 116);
		}
		break;
	}
	case PD_REC_THREAD_MAP: {
		uint64_t nr;

		NEED(16);
		nr = r64(p + 8);
		s64(p + 8);
		if (nr > (len - 16) / 24) {
			fail(t, "THREAD_MAP nr does not fit");
			return;
		}
		for (i = 0; i < nr; i++)
			s64(p + 16 + 24 * i);
		break;
	}
	case PD_REC_CPU_MAP:
		swap_cpu_map(t, p + 8, len - 8);
		break;
	case PD_REC_STAT:
		NEED(48);
		s64(p + 8);
		s32(p + 16);
		s32(p + 20);
		s64n(p + 24, 3);
		break;
	case PD_REC_EVENT_UPDATE: {
		uint64_t ut;

		NEED(24);
		ut = r64(p + 8);
		s64(p + 8);
		s64(p + 16);
		if (ut == 1 && len >= 32)
			s64(p + 24);	/* SCALE: a double, swapped as u64 */
		else if (ut == 3)
			swap_cpu_map(t, p + 24, len - 24);
		break;
	}
	case PD_REC_HEADER_FEATURE: {
		uint64_t id;

		NEED(16);
		id = r64(p + 8);
		s64(p + 8);
		/* size 16: the end-of-features marker, no payload */
		if (id < 256 && len > 16)
			swap_feature(t, (unsigned int)id, p + 16, len - 16);
		break;
	}
	case PD_REC_BPF_METADATA:
		NEED(528);
		s64(p + 520);
		break;
	case PD_REC_SCHEDSTAT_CPU:
	case PD_REC_SCHEDSTAT_DOMAIN:
		NEED(24);
		s64(p + 8);
		s32(p + 16);
		s16(p + 20);
		if (type == PD_REC_SCHEDSTAT_DOMAIN)
			s16(p + 22);
		break;
	default:
		break;	/* unknown type: only the header */
	}
#undef NEED
	if (a && type != PD_REC_SAMPLE)
		swap_trailer(t, a, p, len);
	/* Strings must end inside the body (catches a wrong body_end). */
	if (type == PD_REC_MMAP)
		strend(t, p, 40, body_end);
	else if (type == PD_REC_MMAP2)
		strend(t, p, 72, body_end);
	else if (type == PD_REC_COMM)
		strend(t, p, 16, body_end);
	s32(p);
	s16(p + 4);
	s16(p + 6);
}

/* ---- streams ---- */

static int ob_put(struct twin *t, struct obuf *o, const void *p, size_t n)
{
	if (o->cap - o->len < n) {
		size_t ncap = o->cap ? o->cap : 65536;
		uint8_t *np;

		while (ncap - o->len < n)
			ncap *= 2;
		np = realloc(o->p, ncap);
		if (!np) {
			fail(t, "out of memory");
			return -1;
		}
		o->p = np;
		o->cap = ncap;
	}
	if (n)
		memcpy(o->p + o->len, p, n);
	o->len += n;
	return 0;
}

/* Bytes after the record not counted in its size (AUXTRACE, TRACING_DATA). */
static uint64_t extra_after(const uint8_t *p, uint32_t type, size_t size)
{
	if (type == PD_REC_AUXTRACE && size >= 16)
		return r64(p + 8);
	if (type == PD_REC_HEADER_TRACING_DATA && size >= 12) {
		uint32_t tsz = r32(p + 8);

		if (!(tsz && size == 12 + ((tsz + 63) & ~63u)))
			return tsz;
	}
	return 0;
}

struct chunk {
	size_t len;	/* decompressed bytes produced by one container */
};

/*
 * Twin of the record stream in[start, end): appended to o.  Compressed
 * containers are decompressed into one buffer (one zstd stream), swapped
 * as a record stream, and recompressed chunk by chunk.
 */
static void swap_stream(struct twin *t, const uint8_t *in, size_t start, size_t end,
			struct obuf *o)
{
	struct obuf d = { NULL, 0, 0 };
	struct chunk *ch = NULL;
	size_t nch = 0, cch = 0, pos, k = 0, doff = 0;
	uint8_t *zout = NULL;
	size_t zcap = ZSTD_CStreamOutSize() * 4;

	if (t->zd)
		ZSTD_freeDStream(t->zd);
	if (t->zc)
		ZSTD_freeCStream(t->zc);
	t->zd = ZSTD_createDStream();
	t->zc = ZSTD_createCStream();
	if (!t->zd || !t->zc) {
		fail(t, "zstd: out of memory");
		return;
	}
	ZSTD_initDStream(t->zd);
	ZSTD_initCStream(t->zc, 1);

	/* Pass 1, native: attrs of pipe streams, features needed later, inner data. */
	for (pos = start; pos + 8 <= end && !t->failed;) {
		const uint8_t *p = in + pos;
		uint32_t type = r32(p);
		size_t size = r16(p + 6);
		uint64_t extra;

		if (size < 8 || size > end - pos) {
			fail(t, "record at %zu: size %zu", pos, size);
			break;
		}
		extra = extra_after(p, type, size);
		if (type == PD_REC_HEADER_ATTR && size >= 8 + ATTR_VER0) {
			uint32_t asz = r32(p + 12) ? r32(p + 12) : ATTR_VER0;

			if (8 + (size_t)asz <= size) {
				struct tattr *a = add_attr(t, p + 8, asz);

				if (a)
					attr_add_ids(t, a, p + 8 + asz, (size - 8 - asz) / 8);
			}
		} else if (type == PD_REC_HEADER_FEATURE && size >= 24 &&
			   r64(p + 8) == PD_FEAT_NRCPUS) {
			t->nrcpus_avail = r32(p + 16);
			t->nrcpus_online = r32(p + 20);
		} else if (type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2) {
			const uint8_t *z = p + 8;
			size_t zlen = size - 8, before = d.len;
			ZSTD_inBuffer zin;

			if (type == PD_REC_COMPRESSED2) {
				zlen = size >= 16 ? (size_t)r64(p + 8) : 0;
				z = p + 16;
				if (zlen > size - 16) {
					fail(t, "COMPRESSED2 data_size does not fit");
					break;
				}
			}
			zin.src = z;
			zin.size = zlen;
			zin.pos = 0;
			while (zin.pos < zin.size && !t->failed) {
				ZSTD_outBuffer zo;
				size_t r;

				if (d.cap - d.len < 65536) {
					uint8_t *np = realloc(d.p, d.cap ? d.cap * 2 : 1 << 20);

					if (!np) {
						fail(t, "out of memory");
						break;
					}
					d.p = np;
					d.cap = d.cap ? d.cap * 2 : 1 << 20;
				}
				zo.dst = d.p + d.len;
				zo.size = d.cap - d.len;
				zo.pos = 0;
				r = ZSTD_decompressStream(t->zd, &zo, &zin);
				if (ZSTD_isError(r)) {
					fail(t, "zstd: %s", ZSTD_getErrorName(r));
					break;
				}
				d.len += zo.pos;
			}
			if (nch == cch) {
				size_t nc = cch ? cch * 2 : 64;
				struct chunk *np = realloc(ch, nc * sizeof(*np));

				if (!np) {
					fail(t, "out of memory");
					break;
				}
				ch = np;
				cch = nc;
			}
			ch[nch++].len = d.len - before;
		}
		if (extra > end - pos - size) {
			fail(t, "record at %zu: %llu bytes of payload do not fit", pos,
			     (unsigned long long)extra);
			break;
		}
		pos += size + (size_t)extra;
	}

	/* Pass 2: the decompressed records, in place. */
	for (pos = 0; pos + 8 <= d.len && !t->failed;) {
		size_t size = r16(d.p + pos + 6);

		if (size < 8) {
			fail(t, "decompressed record at %zu: size %zu", pos, size);
			break;
		}
		if (size > d.len - pos)
			break;	/* incomplete tail: left as is */
		swap_record(t, d.p + pos, size);
		pos += size;
	}

	/* Pass 3: output. */
	zout = malloc(zcap);
	if (!zout)
		fail(t, "out of memory");
	for (pos = start; pos + 8 <= end && !t->failed;) {
		const uint8_t *p = in + pos;
		uint32_t type = r32(p);
		size_t size = r16(p + 6), at = o->len;
		uint64_t extra = extra_after(p, type, size);

		if (type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2) {
			ZSTD_inBuffer zin = { d.p + doff, ch[k].len, 0 };
			ZSTD_outBuffer zo = { zout, zcap, 0 };
			size_t r, hdr = type == PD_REC_COMPRESSED2 ? 16 : 8, max = 65535 - 16;
			size_t done = 0;

			doff += ch[k++].len;
			do {
				r = ZSTD_compressStream(t->zc, &zo, &zin);
				if (!ZSTD_isError(r))
					r = ZSTD_flushStream(t->zc, &zo);
				if (ZSTD_isError(r)) {
					fail(t, "zstd: %s", ZSTD_getErrorName(r));
					break;
				}
				if (zo.pos == zo.size) {
					fail(t, "zstd output of one container exceeds %zu bytes", zcap);
					break;
				}
			} while (r || zin.pos < zin.size);
			/* One container per 64 KiB of compressed bytes. */
			while (done < zo.pos && !t->failed) {
				size_t n = zo.pos - done > max ? max : zo.pos - done;
				size_t rsize = type == PD_REC_COMPRESSED2 ? (hdr + n + 7) & ~(size_t)7 :
					       hdr + n;
				uint8_t h[16] = { 0 };
				static const uint8_t zeros[8];

				memcpy(h, &type, 4);
				h[6] = (uint8_t)rsize;
				h[7] = (uint8_t)(rsize >> 8);
				w64(h + 8, n);
				s32(h);
				s16(h + 4);
				s16(h + 6);
				s64(h + 8);
				if (ob_put(t, o, h, hdr) || ob_put(t, o, zout + done, n) ||
				    ob_put(t, o, zeros, rsize - hdr - n))
					break;
				done += n;
			}
			pos += size;
			continue;
		}
		if (ob_put(t, o, p, size + (size_t)extra))
			break;
		swap_record(t, o->p + at, size);
		pos += size + (size_t)extra;
	}
	if (pos < end && !t->failed)
		fail(t, "%zu bytes of a partial record at the end of the data", end - pos);
	free(zout);
	free(d.p);
	free(ch);
}

/* ---- containers ---- */

static int load(const char *path, uint8_t **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = malloc(cap);
	FILE *f = fopen(path, "rb");

	if (!f || !b) {
		free(b);
		if (f)
			fclose(f);
		return -1;
	}
	for (;;) {
		size_t got;

		if (n == cap) {
			uint8_t *nb = realloc(b, cap * 2);

			if (!nb) {
				free(b);
				fclose(f);
				return -1;
			}
			b = nb;
			cap *= 2;
		}
		got = fread(b + n, 1, cap - n, f);
		if (!got)
			break;
		n += got;
	}
	fclose(f);
	*out = b;
	*len = n;
	return 0;
}

static int store(const char *path, const struct obuf *o)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	if ((o->len && fwrite(o->p, 1, o->len, f) != o->len) || fclose(f))
		return -1;
	return 0;
}

static uint64_t reloc(uint64_t off, uint64_t old_end, int64_t delta)
{
	return off >= old_end ? (uint64_t)((int64_t)off + delta) : off;
}

static void twin_file(struct twin *t, const uint8_t *in, size_t len, struct obuf *o)
{
	uint64_t hsize = r64(in + 8), attr_size, aoff, asize, doff, dsize, old_end, toff;
	uint64_t nattrs, i, bits[4] = { 0 };
	struct obuf data = { NULL, 0, 0 };
	unsigned int bit, nfeat = 0, k;
	uint8_t *h;
	int64_t delta;

	if (hsize != FILE_HDR && hsize != 72) {
		fail(t, "header size %llu", (unsigned long long)hsize);
		return;
	}
	attr_size = r64(in + 16);
	aoff = r64(in + 24);
	asize = r64(in + 32);
	doff = r64(in + 40);
	dsize = r64(in + 48);
	old_end = doff + dsize;
	if (attr_size < ATTR_VER0 + 16 || aoff > len || asize > len - aoff || doff > len ||
	    dsize > len - doff || !dsize) {
		fail(t, "header sections do not fit the file");
		return;
	}
	if (hsize == FILE_HDR)
		for (i = 0; i < 4; i++)
			bits[i] = r64(in + 72 + 8 * i);
	nattrs = asize / attr_size;
	for (i = 0; i < nattrs && !t->failed; i++) {
		const uint8_t *e = in + aoff + i * attr_size;
		uint64_t ioff = r64(e + attr_size - 16), isz = r64(e + attr_size - 8);
		struct tattr *a = add_attr(t, e, attr_size - 16);

		if (a && isz && ioff <= len && isz <= len - ioff)
			attr_add_ids(t, a, in + ioff, isz / 8);
	}
	/* NRCPUS before the data: CPU_TOPOLOGY needs it. */
	for (bit = 0; bit < 256; bit++)
		if ((bits[bit / 64] >> (bit % 64)) & 1)
			nfeat++;
	toff = old_end;
	if (toff + 16ULL * nfeat > len) {
		fail(t, "feature table does not fit the file");
		return;
	}
	for (bit = 0, k = 0; bit < 256; bit++) {
		if (!((bits[bit / 64] >> (bit % 64)) & 1))
			continue;
		if (bit == PD_FEAT_NRCPUS) {
			uint64_t fo = r64(in + toff + 16 * k), fs = r64(in + toff + 16 * k + 8);

			if (fs >= 8 && fo <= len - 8) {
				t->nrcpus_avail = r32(in + fo);
				t->nrcpus_online = r32(in + fo + 4);
			}
		}
		k++;
	}

	swap_stream(t, in, doff, old_end, &data);
	if (t->failed) {
		free(data.p);
		return;
	}
	delta = (int64_t)data.len - (int64_t)dsize;
	if (ob_put(t, o, in, doff) || ob_put(t, o, data.p, data.len) ||
	    ob_put(t, o, in + old_end, len - old_end)) {
		free(data.p);
		return;
	}
	free(data.p);
	h = o->p;

	/* Native fix-ups of every offset past the data, then the swaps. */
	w64(h + 48, data.len);
	aoff = reloc(aoff, old_end, delta);
	w64(h + 24, aoff);
	toff = (uint64_t)((int64_t)old_end + delta);
	for (k = 0; k < nfeat; k++)
		w64(h + toff + 16 * k, reloc(r64(h + toff + 16 * k), old_end, delta));
	for (i = 0; i < nattrs; i++) {
		uint8_t *e = h + aoff + i * attr_size;

		w64(e + attr_size - 16, reloc(r64(e + attr_size - 16), old_end, delta));
	}
	if (r64(h + 64))
		w64(h + 56, reloc(r64(h + 56), old_end, delta));

	for (bit = 0, k = 0; bit < 256 && !t->failed; bit++) {
		uint64_t fo, fs;

		if (!((bits[bit / 64] >> (bit % 64)) & 1))
			continue;
		fo = r64(h + toff + 16 * k);
		fs = r64(h + toff + 16 * k + 8);
		if (fo > o->len || fs > o->len - fo) {
			fail(t, "feature %u section does not fit", bit);
			break;
		}
		if (!swap_twin_keep_features)
			swap_feature(t, bit, h + fo, fs);
		s64(h + toff + 16 * k);
		s64(h + toff + 16 * k + 8);
		k++;
	}
	for (i = 0; i < nattrs; i++) {
		uint8_t *e = h + aoff + i * attr_size;
		uint64_t ioff = r64(e + attr_size - 16), isz = r64(e + attr_size - 8);

		if (isz && ioff <= o->len && isz <= o->len - ioff)
			s64n(h + ioff, isz / 8);
		swap_attr(e, attr_size - 16);
		s64(e + attr_size - 16);
		s64(e + attr_size - 8);
	}
	/* Legacy event_types: { u64 event_id; char name[64]; } entries. */
	if (r64(h + 64)) {
		uint64_t eo = r64(h + 56), es = r64(h + 64);

		if (eo <= o->len && es <= o->len - eo)
			for (i = 0; i + 72 <= es; i += 72)
				s64(h + eo + i);
	}
	s64n(h, hsize == FILE_HDR ? 13 : 9);
}

static void twin_pipe(struct twin *t, const uint8_t *in, size_t len, struct obuf *o)
{
	uint8_t h[16];

	memcpy(h, in, 16);
	s64(h);
	s64(h + 8);
	if (ob_put(t, o, h, 16))
		return;
	swap_stream(t, in, 16, len, o);
}

static void twin_reset(struct twin *t)
{
	size_t i;

	for (i = 0; i < t->nr_attrs; i++)
		free(t->attrs[i].ids);
	free(t->attrs);
	t->attrs = NULL;
	t->nr_attrs = t->cap_attrs = 0;
	if (t->zd)
		ZSTD_freeDStream(t->zd);
	if (t->zc)
		ZSTD_freeCStream(t->zc);
	t->zd = NULL;
	t->zc = NULL;
}

static int twin_one(struct twin *t, const char *in, const char *out, bool keep_attrs)
{
	struct obuf o = { NULL, 0, 0 };
	uint8_t *b;
	size_t len;

	if (load(in, &b, &len) < 0) {
		fail(t, "%s: %s", in, strerror(errno));
		return -1;
	}
	if (keep_attrs) {
		/* data.N of a directory: a bare record stream. */
		swap_stream(t, b, 0, len, &o);
	} else if (len < 16 || r64(b) != MAGIC_NATIVE) {
		fail(t, "%s: not a native-order perf.data", in);
	} else if (r64(b + 8) == PIPE_HDR) {
		twin_pipe(t, b, len, &o);
	} else if (len < FILE_HDR) {
		fail(t, "%s: truncated header", in);
	} else {
		twin_file(t, b, len, &o);
	}
	free(b);
	if (!t->failed && store(out, &o) < 0)
		fail(t, "%s: %s", out, strerror(errno));
	free(o.p);
	return t->failed ? -1 : 0;
}

bool swap_twin_keep_features;

int swap_twin(const char *in, const char *out, char *err, size_t errlen)
{
	struct twin t;
	struct stat st;
	int ret;

	memset(&t, 0, sizeof(t));
	t.err = err;
	t.errlen = errlen;
	if (errlen)
		err[0] = '\0';
	if (stat(in, &st) < 0) {
		fail(&t, "%s: %s", in, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		char ip[4096], op[4096];
		struct dirent *de;
		DIR *d;

		if (mkdir(out, 0755) < 0 && errno != EEXIST) {
			fail(&t, "%s: %s", out, strerror(errno));
			return -1;
		}
		snprintf(ip, sizeof(ip), "%s/data", in);
		snprintf(op, sizeof(op), "%s/data", out);
		ret = twin_one(&t, ip, op, false);
		d = opendir(in);
		while (!ret && d && (de = readdir(d))) {
			if (strncmp(de->d_name, "data.", 5))
				continue;
			snprintf(ip, sizeof(ip), "%s/%s", in, de->d_name);
			snprintf(op, sizeof(op), "%s/%s", out, de->d_name);
			ret = twin_one(&t, ip, op, true);
		}
		if (d)
			closedir(d);
	} else {
		ret = twin_one(&t, in, out, false);
	}
	twin_reset(&t);
	return ret;
}
