// SPDX-License-Identifier: MIT
/*
 * make_bad_corpus.c - derive the hand-made damaged inputs of corpus/bad/
 * from small real recordings of corpus/.
 *
 * Usage: make_bad_corpus CORPUS_DIR OUT_DIR [NAME...]
 *
 * With NAMEs, only those files are written and only their MANIFEST lines
 * replaced: one new case does not rewrite the others (whose base files
 * may have been re-recorded since).
 *
 * Every output damages one field of a valid recording so that exactly one
 * reader diagnostic is the point of the file.  The offsets written to
 * OUT_DIR/MANIFEST are computed here from the base file, so regenerating
 * corpus/ and running scripts/make-bad-corpus.sh again keeps them right.
 *
 * Host byte order is assumed to be little-endian (the base files are
 * recorded on the build machine); the generator refuses anything else.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR_SIZE	104
#define MAX_FEAT	256

/* sample_type bits used here */
#define S_IP		(1ULL << 0)
#define S_TID		(1ULL << 1)
#define S_TIME		(1ULL << 2)
#define S_ADDR		(1ULL << 3)
#define S_READ		(1ULL << 4)
#define S_CALLCHAIN	(1ULL << 5)
#define S_ID		(1ULL << 6)
#define S_CPU		(1ULL << 7)
#define S_PERIOD	(1ULL << 8)
#define S_STREAM_ID	(1ULL << 9)
#define S_STACK_USER	(1ULL << 13)
#define S_WEIGHT	(1ULL << 14)
#define S_DATA_SRC	(1ULL << 15)
#define S_IDENTIFIER	(1ULL << 16)
#define S_TRAILER	(S_TID | S_TIME | S_ID | S_STREAM_ID | S_CPU | S_IDENTIFIER)
#define SAMPLE_ID_ALL	(1ULL << 18)

#define R_COMM		3
#define R_SAMPLE	9
#define R_FINISHED_ROUND 68
#define R_COMPRESSED	81
#define R_COMPRESSED2	83

#define FEAT_HOSTNAME	3
#define FEAT_EVENT_DESC	12
#define FEAT_GROUP_DESC	17
#define FEAT_DIR_FORMAT	24

struct buf {
	uint8_t *p;
	size_t len;
};

static const char *out_dir;
static FILE *manifest;
static int failures;
/* NAME arguments: write only these; NULL: all */
static char **only;
static int nr_only;

static bool wanted(const char *name)
{
	int i;

	if (!only)
		return true;
	for (i = 0; i < nr_only; i++)
		if (!strcmp(only[i], name))
			return true;
	return false;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "make_bad_corpus: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static uint16_t get16(const struct buf *b, size_t off)
{
	uint16_t v;

	if (off + 2 > b->len)
		die("read past end at %zu", off);
	memcpy(&v, b->p + off, 2);
	return v;
}

static uint32_t get32(const struct buf *b, size_t off)
{
	uint32_t v;

	if (off + 4 > b->len)
		die("read past end at %zu", off);
	memcpy(&v, b->p + off, 4);
	return v;
}

static uint64_t get64(const struct buf *b, size_t off)
{
	uint64_t v;

	if (off + 8 > b->len)
		die("read past end at %zu", off);
	memcpy(&v, b->p + off, 8);
	return v;
}

static void put16(struct buf *b, size_t off, uint16_t v)
{
	memcpy(b->p + off, &v, 2);
}

static void put32(struct buf *b, size_t off, uint32_t v)
{
	memcpy(b->p + off, &v, 4);
}

static void put64(struct buf *b, size_t off, uint64_t v)
{
	memcpy(b->p + off, &v, 8);
}

static struct buf load(const char *dir, const char *name)
{
	char path[4096];
	struct buf b = { NULL, 0 };
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		die("%s: %s", path, strerror(errno));
	for (;;) {
		size_t n;

		if (b.len == cap) {
			cap = cap ? cap * 2 : 65536;
			b.p = realloc(b.p, cap);
			if (!b.p)
				die("out of memory");
		}
		n = fread(b.p + b.len, 1, cap - b.len, f);
		if (!n)
			break;
		b.len += n;
	}
	fclose(f);
	return b;
}

static struct buf copy(const struct buf *src)
{
	struct buf b;

	b.len = src->len;
	b.p = malloc(b.len ? b.len : 1);
	if (!b.p)
		die("out of memory");
	memcpy(b.p, src->p, b.len);
	return b;
}

/* Write OUT_DIR/name and its MANIFEST line. */
static void emit(const char *name, struct buf *b, unsigned int code, uint64_t offset,
		 const char *what)
{
	char path[4096];
	FILE *f;

	if (!wanted(name)) {
		free(b->p);
		b->p = NULL;
		return;
	}
	if (b->len > 65536)
		die("%s: %zu bytes, keep bad files under 64 KiB", name, b->len);
	snprintf(path, sizeof(path), "%s/%s", out_dir, name);
	f = fopen(path, "wb");
	if (!f || (b->len && fwrite(b->p, 1, b->len, f) != b->len) || fclose(f))
		die("%s: %s", path, strerror(errno));
	fprintf(manifest, "%s | %u | %llu | %s\n", name, code, (unsigned long long)offset, what);
	free(b->p);
	b->p = NULL;
}

/* ---- file-mode helpers ---- */

static uint64_t data_off(const struct buf *b)
{
	return get64(b, 40);
}

static uint64_t data_size(const struct buf *b)
{
	return get64(b, 48);
}

static uint64_t attr0(const struct buf *b, size_t field)
{
	return get64(b, get64(b, 24) + field);
}

/* Offset of the n-th record (0-based) of `type` in [start, end), or 0. */
static uint64_t find_rec(const struct buf *b, uint64_t start, uint64_t end, uint32_t type,
			 unsigned int nth)
{
	uint64_t pos = start;

	while (pos + 8 <= end) {
		uint16_t size = get16(b, pos + 6);

		if (size < 8)
			die("bad base record at %llu", (unsigned long long)pos);
		if (get32(b, pos) == type && !nth--)
			return pos;
		pos += size;
	}
	return 0;
}

static uint64_t last_rec(const struct buf *b, uint64_t start, uint64_t end, uint16_t min)
{
	uint64_t pos = start, last = 0;

	while (pos + 8 <= end) {
		if (get16(b, pos + 6) >= min)
			last = pos;
		pos += get16(b, pos + 6);
	}
	return last;
}

static unsigned int nr_feat(const struct buf *b)
{
	unsigned int i, n = 0;

	for (i = 0; i < 4; i++)
		n += (unsigned int)__builtin_popcountll(get64(b, 72 + 8 * i));
	return n;
}

/* Absolute offset of the feature table entry of `bit` (must be set). */
static uint64_t feat_entry(const struct buf *b, unsigned int bit)
{
	unsigned int i, rank = 0;

	for (i = 0; i < bit; i++)
		if ((get64(b, 72 + 8 * (i / 64)) >> (i % 64)) & 1)
			rank++;
	return data_off(b) + data_size(b) + 16ULL * rank;
}

/*
 * Rebuild the feature area with one extra bit set and `len` payload bytes
 * for it: the table grows by one entry and every payload moves.
 */
static struct buf add_feature(const struct buf *src, unsigned int bit, const uint8_t *payload,
			      size_t len)
{
	uint64_t table = data_off(src) + data_size(src);
	unsigned int n = nr_feat(src), i, k = 0;
	struct buf b;
	uint64_t pos;

	b.len = table + 16ULL * (n + 1);
	for (i = 0; i < n; i++)
		b.len += get64(src, table + 16ULL * i + 8);
	b.len += len;
	b.p = calloc(1, b.len);
	if (!b.p)
		die("out of memory");
	memcpy(b.p, src->p, table);
	put64(&b, 72 + 8 * (bit / 64), get64(src, 72 + 8 * (bit / 64)) | (1ULL << (bit % 64)));
	pos = table + 16ULL * (n + 1);
	for (i = 0; i < MAX_FEAT; i++) {
		uint64_t off, size;

		if (!((get64(&b, 72 + 8 * (i / 64)) >> (i % 64)) & 1))
			continue;
		if (i == bit) {
			off = pos;
			size = len;
			memcpy(b.p + pos, payload, len);
		} else {
			uint64_t e = feat_entry(src, i);

			off = pos;
			size = get64(src, e + 8);
			memcpy(b.p + pos, src->p + get64(src, e), size);
		}
		put64(&b, table + 16ULL * k, off);
		put64(&b, table + 16ULL * k + 8, size);
		pos += size;
		k++;
	}
	return b;
}

/* Position of the first byte after the fixed sample slots, before READ. */
static size_t sample_slot(uint64_t st, uint64_t upto)
{
	static const uint64_t order[] = {
		S_IDENTIFIER, S_IP, S_TID, S_TIME, S_ADDR, S_ID, S_STREAM_ID, S_CPU, S_PERIOD,
	};
	size_t i, pos = 8;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (order[i] == upto)
			break;
		if (st & order[i])
			pos += 8;
	}
	return pos;
}

/* ---- the damaged files ---- */

static void header_cases(const struct buf *base)
{
	uint64_t table = data_off(base) + data_size(base);
	struct buf b;
	uint64_t off;

	b = copy(base);
	memcpy(b.p, "PERFILE3", 8);
	emit("bad-magic.data", &b, 1, 0, "basic.data with magic PERFILE3");

	b = copy(base);
	memcpy(b.p, "PERFFILE", 8);
	emit("legacy-perffile.data", &b, 2, 0, "basic.data with the version-1 magic PERFFILE");

	b = copy(base);
	put64(&b, 8, 100);
	emit("bad-header-size.data", &b, 3, 8, "basic.data with header size 100 (not 104/72/16)");

	b = copy(base);
	b.len = 60;
	emit("truncated-header.data", &b, 4, 0, "first 60 bytes of basic.data: ends inside the 104-byte header");

	b = copy(base);
	put64(&b, 40, b.len + 4096);
	emit("data-out-of-file.data", &b, 5, 40, "basic.data with data.offset 4096 bytes past the end of the file");

	b = copy(base);
	put64(&b, 16, 40);
	emit("attr-size-small.data", &b, 21, 16,
	     "basic.data with header attr_size 40 (< 64 + 16): the attrs are read with their own size");

	/* A killed perf record: data.size never rewritten, no feature table. */
	b = copy(base);
	b.len = table;
	put64(&b, 48, 0);
	emit("data-size-zero.data", &b, 8, 48,
	     "basic.data cut at the end of its data, data.size 0: a killed recording (warning)");

	b = copy(base);
	b.len = table + 8;
	emit("feature-table-out-of-file.data", &b, 11, table,
	     "basic.data cut 8 bytes into its feature section table");

	b = add_feature(base, 0, NULL, 0);
	emit("reserved-feature-bit.data", &b, 12, 72,
	     "basic.data with feature bit 0 (HEADER_RESERVED) set and an empty section for it");

	{
		static const uint8_t payload[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

		b = add_feature(base, 100, payload, sizeof(payload));
		emit("unknown-feature-bit.data", &b, 13, 72 + 100 / 8,
		     "basic.data with feature bit 100 set and an 8-byte section for it (warning)");
	}

	/* HOSTNAME: u32 len, then the string; len runs past the section. */
	b = copy(base);
	off = get64(&b, feat_entry(&b, FEAT_HOSTNAME));
	put32(&b, off, (uint32_t)get64(&b, feat_entry(&b, FEAT_HOSTNAME) + 8) + 100);
	emit("feature-string-overrun.data", &b, 203, off,
	     "basic.data with the HOSTNAME string length 100 bytes past its section");

	b.p = NULL;
	b.len = 0;
	emit("empty.data", &b, 19, 0, "empty file");

	/* Root causes: the header field, not every attr or feature it makes unreadable. */
	b = copy(base);
	put64(&b, 16, get64(base, 16) - 8);
	emit("attr-size-wrong.data", &b, 21, 16,
	     "basic.data with header attr_size 8 short: it does not divide the attrs section, the attrs' own size does");

	/* A bit set by a writer that then wrote no section and no table entry for it. */
	if ((get64(base, 72) >> FEAT_GROUP_DESC) & 1)
		die("basic.data already has GROUP_DESC");
	b = copy(base);
	put64(&b, 72, get64(base, 72) | (1ULL << FEAT_GROUP_DESC));
	emit("feature-bit-no-section.data", &b, 22, 72 + FEAT_GROUP_DESC / 8,
	     "basic.data with the GROUP_DESC bit set and its table unchanged: every later entry is read for the bit before");

	/* Two such bits: the entries after the second are read two bits early. */
	if ((get64(base, 72) >> FEAT_DIR_FORMAT) & 1)
		die("basic.data already has DIR_FORMAT");
	b = copy(base);
	put64(&b, 72, get64(base, 72) | (1ULL << FEAT_GROUP_DESC) | (1ULL << FEAT_DIR_FORMAT));
	emit("feature-bits-no-section.data", &b, 22, 72 + FEAT_GROUP_DESC / 8,
	     "basic.data with the GROUP_DESC and DIR_FORMAT bits set and its table unchanged: two entries short");

	b = copy(base);
	put64(&b, 48, 0);
	emit("data-size-zero-features.data", &b, 8, 48,
	     "basic.data with data.size 0 while its feature table follows the records (warning: not the table read as records)");

	b = copy(base);
	put64(&b, 48, data_size(base) - 400);
	emit("data-size-short.data", &b, 20, 48,
	     "basic.data with data.size 400 bytes short of its records (not the feature table read from inside them)");
}

static void record_cases(const struct buf *base)
{
	uint64_t start = data_off(base), end = start + data_size(base);
	uint64_t st = attr0(base, 24), flags = attr0(base, 40);
	uint64_t off, last;
	size_t trailer = 0, pos;
	struct buf b;

	if (flags & SAMPLE_ID_ALL)
		trailer = 8 * (size_t)__builtin_popcountll(st & S_TRAILER);

	off = find_rec(base, start, end, R_COMM, 0);
	if (!off)
		die("basic.data has no COMM record");

	b = copy(base);
	put16(&b, off + 6, 0);
	emit("zero-size-record.data", &b, 317, off, "basic.data with the size of its first COMM record set to 0");

	b = copy(base);
	put16(&b, off + 6, 4);
	emit("record-size-small.data", &b, 301, off, "basic.data with the size of its first COMM record set to 4");

	b = copy(base);
	put32(&b, off, 63);
	emit("unknown-record-type.data", &b, 305, off,
	     "basic.data with its first COMM record retyped to 63 (unknown kernel type, warning)");

	/* comm[] from offset 16 up to the trailer filled with 'A': no NUL. */
	b = copy(base);
	pos = get16(&b, off + 6) - trailer;
	memset(b.p + off + 16, 'A', pos - 16);
	emit("comm-no-nul.data", &b, 307, off + 16,
	     "basic.data with the comm string of its first COMM record filled without a NUL");

	last = last_rec(base, start, end, 8);
	b = copy(base);
	put16(&b, last + 6, (uint16_t)(get16(&b, last + 6) + 64));
	emit("record-crosses-end.data", &b, 302, last,
	     "basic.data with the size of its last record grown 64 bytes past the data section");

	/* Cut 16 bytes into the last record of 24+ bytes; data.size still claims it. */
	last = last_rec(base, start, end, 24);
	b = copy(base);
	b.len = last + 16;
	emit("truncated-mid-record.data", &b, 303, last,
	     "basic.data cut 16 bytes into its last record of 24 or more bytes (header still claims the full data section)");
}

static void callchain_case(const struct buf *base)
{
	uint64_t start = data_off(base), end = start + data_size(base);
	uint64_t st = attr0(base, 24), off;
	size_t pos;
	struct buf b;

	if (!(st & S_CALLCHAIN) || (st & S_READ))
		die("callchain-fp.data: unexpected sample_type %#llx", (unsigned long long)st);
	off = find_rec(base, start, end, R_SAMPLE, 0);
	if (!off)
		die("callchain-fp.data has no SAMPLE");
	pos = sample_slot(st, 0);
	b = copy(base);
	put64(&b, off + pos, 0x10000);
	emit("callchain-too-long.data", &b, 403, off + pos,
	     "callchain-fp.data with the callchain nr of its first SAMPLE set to 65536");
}

static void unknown_id_case(const struct buf *base)
{
	uint64_t start = data_off(base), end = start + data_size(base);
	uint64_t st = attr0(base, 24), off;
	size_t pos;
	struct buf b;

	if (!(st & (S_ID | S_IDENTIFIER)))
		die("multi-event.data: samples carry no id");
	off = find_rec(base, start, end, R_SAMPLE, 0);
	if (!off)
		die("multi-event.data has no SAMPLE");
	pos = (st & S_IDENTIFIER) ? 8 : sample_slot(st, S_ID);
	b = copy(base);
	put64(&b, off + pos, 0xdeadbeefULL);
	emit("unknown-sample-id.data", &b, 311, off,
	     "multi-event.data with the id of its first SAMPLE set to 0xdeadbeef");
}

/*
 * EVENT_DESC: u32 nr, u32 attr_size, then per event the attr, u32 nr_ids,
 * the name (u32 len + bytes) and the ids.  A name length of 0x7fffffff
 * stops the decoder after nr_ids: the first event is left half decoded
 * (attr and id count, no name, no ids), which every writer must survive.
 */
/* attr_size that divides the attrs section into fewer, misread attrs */
static void attr_size_case(const struct buf *base)
{
	uint64_t asz = get64(base, 16), asize = get64(base, 32);
	struct buf b;

	if (asize / asz != 3)
		die("multi-event.data: expected 3 attrs");
	b = copy(base);
	put64(&b, 16, asize / 2);
	emit("attr-size-halves.data", &b, 21, 16,
	     "multi-event.data (3 attrs) with header attr_size half its attrs section: 2 attrs that their own size fields contradict");
}

/* A COMM whose sample_id trailer names an id that no attr owns. */
static void trailer_id_case(const struct buf *base)
{
	uint64_t start = data_off(base), end = start + data_size(base);
	uint64_t st = attr0(base, 24), off;
	struct buf b;

	/* the id must be the trailer's last field */
	if (!(attr0(base, 40) & SAMPLE_ID_ALL) || !(st & S_ID) ||
	    (st & (S_STREAM_ID | S_CPU | S_IDENTIFIER)))
		die("multi-event.data: sample_type %#llx: the trailer does not end with the id",
		    (unsigned long long)st);
	off = find_rec(base, start, end, R_COMM, 0);
	if (!off)
		die("multi-event.data has no COMM");
	b = copy(base);
	put64(&b, off + get16(base, off + 6) - 8, 0xdeadbeefULL);
	emit("unknown-trailer-id.data", &b, 311, off,
	     "multi-event.data with the sample_id trailer id of its first COMM set to 0xdeadbeef: perf cannot tell its event");
}

/*
 * STACK_USER: u64 size, size bytes, u64 dyn_size; only WEIGHT and
 * DATA_SRC may follow it here, so dyn_size sits at a fixed distance from
 * the record's end.
 */
static void stack_case(const struct buf *base)
{
	uint64_t start = data_off(base), end = start + data_size(base);
	uint64_t st = attr0(base, 24), off, tail;
	struct buf b;

	if (!(st & S_STACK_USER) || (st & ~(S_STACK_USER * 2 - 1) & ~(S_WEIGHT | S_DATA_SRC)))
		die("callchain-dwarf.data: unexpected sample_type %#llx", (unsigned long long)st);
	tail = 8 * (uint64_t)__builtin_popcountll(st & (S_WEIGHT | S_DATA_SRC));
	off = find_rec(base, start, end, R_SAMPLE, 0);
	if (!off)
		die("callchain-dwarf.data has no SAMPLE");
	/* under 64 KiB: the records up to that sample's end, no features */
	b = copy(base);
	b.len = off + get16(base, off + 6);
	put64(&b, 48, b.len - start);
	memset(b.p + 72, 0, 32);
	off += get16(base, off + 6) - tail - 8;
	put64(&b, off, 0x7fffffff);
	emit("stack-dyn-size.data", &b, 405, off,
	     "callchain-dwarf.data up to its first SAMPLE (no features), whose user stack dyn_size is set past its stack copy");
}

static void event_desc_case(const struct buf *base)
{
	uint64_t sec, len_off;
	struct buf b;

	if (!((get64(base, 72) >> FEAT_EVENT_DESC) & 1))
		die("multi-event.data has no EVENT_DESC feature");
	sec = get64(base, feat_entry(base, FEAT_EVENT_DESC));
	if (get32(base, sec) < 1 || !get32(base, sec + 8 + get32(base, sec + 4)))
		die("multi-event.data: EVENT_DESC has no event with ids");
	len_off = sec + 8 + get32(base, sec + 4) + 4;
	b = copy(base);
	put32(&b, len_off, 0x7fffffff);
	emit("event-desc-half-decoded.data", &b, 203, len_off,
	     "multi-event.data with the name length of its first EVENT_DESC event set to 0x7fffffff: attr and id count decoded, name and ids not");
}

static void zstd_case(const struct buf *base)
{
	uint64_t start = data_off(base), end = start + data_size(base);
	uint64_t off;
	size_t payload;
	struct buf b;

	off = find_rec(base, start, end, R_COMPRESSED, 0);
	payload = 8;
	if (!off) {
		off = find_rec(base, start, end, R_COMPRESSED2, 0);
		payload = 16;
	}
	if (!off)
		die("compressed.data has no COMPRESSED record");
	b = copy(base);
	/* Destroy the zstd frame magic at the start of the stream. */
	memset(b.p + off + payload, 0xee, 4);
	emit("bad-zstd.data", &b, 501, off,
	     "compressed.data with the zstd frame magic of its first COMPRESSED record overwritten");
}

/*
 * A COMPRESSED record of our own after basic.data's last record: one zstd
 * frame of a single raw block (nothing to compress), holding a copy of the
 * first record and then the first bytes of a record that never ends.
 */
static void compressed_tail_case(const struct buf *base)
{
	uint64_t start = data_off(base), end = start + data_size(base), table, i;
	unsigned int first = get16(base, start + 6), tail, inner, rec_len, n = nr_feat(base);
	struct buf b;
	uint8_t *p;

	tail = (8 - (17 + first) % 8) % 8;
	if (!tail)
		tail = 8;
	inner = first + tail;
	if (inner > 255)
		die("basic.data: first record too large for a one-byte frame size");
	rec_len = 8 + 4 + 2 + 3 + inner;
	b.len = base->len + rec_len;
	b.p = calloc(1, b.len);
	if (!b.p)
		die("out of memory");
	memcpy(b.p, base->p, end);
	memcpy(b.p + end + rec_len, base->p + end, base->len - end);
	p = b.p + end;
	put32(&b, end, R_COMPRESSED);
	put16(&b, end + 6, (uint16_t)rec_len);
	put32(&b, end + 8, 0xfd2fb528);		/* zstd frame magic */
	p[12] = 0x20;				/* single segment, 1-byte content size */
	p[13] = (uint8_t)inner;
	put32(&b, end + 14, (inner << 3) | 1);	/* last block, raw, inner bytes (3 bytes) */
	memcpy(p + 17, base->p + start, first);
	for (i = 0; i < tail; i++)
		p[17 + first + i] = (uint8_t)(i + 1);
	put64(&b, 48, data_size(base) + rec_len);
	table = end + rec_len;
	for (i = 0; i < n; i++)
		put64(&b, table + 16 * i, get64(&b, table + 16 * i) + rec_len);
	emit("compressed-tail.data", &b, 503, end,
	     "basic.data with a COMPRESSED record after its records whose data ends 1..8 bytes into a second record (and no COMPRESSED feature)");
}

static void pipe_case(const struct buf *base)
{
	uint64_t last = last_rec(base, 16, base->len, 24);
	struct buf b;

	if (get64(base, 8) != 16)
		die("basic.pipe.data is not a pipe stream");
	b = copy(base);
	b.len = last + 16;
	emit("pipe-truncated.pipe.data", &b, 303, last,
	     "basic.pipe.data cut 16 bytes into its last record of 24 or more bytes");
}

/* The name of a MANIFEST line ("name | code | offset | what"), in buf. */
static const char *line_name(const char *line, char *buf, size_t size)
{
	size_t n = strcspn(line, " |\n");

	if (n >= size)
		n = size - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	return buf;
}

/*
 * Replace the MANIFEST lines of the files just written (in place) and
 * append those that are new; every other line stays as it was.
 */
static void merge_manifest(const char *path, char *new_lines)
{
	char line[4096], name[512], other[512], *lines[256], *p;
	bool used[256] = { false };
	size_t cap = 0, len, n = 0, i;
	char *out = NULL;
	FILE *f = fopen(path, "r"), *o;

	for (p = strtok(new_lines, "\n"); p && n < 256; p = strtok(NULL, "\n"))
		lines[n++] = p;
	o = open_memstream(&out, &cap);
	if (!o)
		die("out of memory");
	while (f && fgets(line, sizeof(line), f)) {
		line_name(line, name, sizeof(name));
		for (i = 0; line[0] != '#' && i < n; i++)
			if (!strcmp(line_name(lines[i], other, sizeof(other)), name))
				break;
		if (line[0] != '#' && i < n) {
			fprintf(o, "%s\n", lines[i]);
			used[i] = true;
		} else {
			fputs(line, o);
		}
	}
	if (f)
		fclose(f);
	for (i = 0; i < n; i++)
		if (!used[i])
			fprintf(o, "%s\n", lines[i]);
	if (fclose(o))
		die("out of memory");
	len = strlen(out);
	f = fopen(path, "w");
	if (!f || fwrite(out, 1, len, f) != len || fclose(f))
		die("%s: %s", path, strerror(errno));
	free(out);
}

int main(int argc, char **argv)
{
	const uint16_t probe = 1;
	char path[4096];
	struct buf b;

	char *new_lines = NULL;
	size_t new_len = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: %s CORPUS_DIR OUT_DIR [NAME...]\n", argv[0]);
		return 2;
	}
	if (*(const uint8_t *)&probe != 1)
		die("little-endian host required");
	out_dir = argv[2];
	snprintf(path, sizeof(path), "%s/MANIFEST", out_dir);
	if (argc > 3) {
		only = argv + 3;
		nr_only = argc - 3;
		manifest = open_memstream(&new_lines, &new_len);
	} else {
		manifest = fopen(path, "w");
	}
	if (!manifest)
		die("%s: %s", path, strerror(errno));
	if (!only)
		fprintf(manifest,
		"# corpus/bad: hand-made damaged inputs, written by scripts/make-bad-corpus.sh\n"
		"# name | code | offset | what is wrong\n"
		"# code: the diagnostic (PDnnn) the reader must report; offset: its absolute\n"
		"# byte offset in the file.  Other diagnostics may follow the first damage.\n");

	b = load(argv[1], "basic.data");
	header_cases(&b);
	record_cases(&b);
	compressed_tail_case(&b);
	free(b.p);

	b = load(argv[1], "callchain-fp.data");
	callchain_case(&b);
	free(b.p);

	b = load(argv[1], "multi-event.data");
	unknown_id_case(&b);
	trailer_id_case(&b);
	event_desc_case(&b);
	attr_size_case(&b);
	free(b.p);

	b = load(argv[1], "callchain-dwarf.data");
	stack_case(&b);
	free(b.p);

	b = load(argv[1], "compressed.data");
	zstd_case(&b);
	free(b.p);

	b = load(argv[1], "basic.pipe.data");
	pipe_case(&b);
	free(b.p);

	if (fclose(manifest))
		die("%s: %s", path, strerror(errno));
	if (only)
		merge_manifest(path, new_lines);
	free(new_lines);
	return failures ? 1 : 0;
}
