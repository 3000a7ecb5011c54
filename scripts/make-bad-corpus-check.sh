#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make-bad-corpus-check.sh - add to corpus/bad/ one damaged file per
# perfcheck cross-record and cross-section check (codes 6xx, section
# overlaps, records after the data end, the pipe end marker), and their
# lines to corpus/bad/MANIFEST.
#
# Usage: sh scripts/make-bad-corpus-check.sh [CORPUS_DIR]
#
# The files are named check-*.data; running this again replaces them and
# their MANIFEST lines and leaves every other entry alone.  Offsets are
# computed from the base recordings, as scripts/make_bad_corpus.c does for
# the reader's cases.  The generator is C (below), built with the system
# compiler; it assumes a little-endian host and little-endian base files.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-$top/corpus}
out=$corpus/bad
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/make-bad-corpus-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

for f in basic.data basic.pipe.data cpu-timestamp.data multi-event.data group-read.data \
	 compressed.data stat.data lost-all.data throttle.data user-regs.data callchain-dwarf.data \
	 callchain-dwarf.pipe.data syscalls.data; do
	if [ ! -f "$corpus/$f" ]; then
		echo "make-bad-corpus-check: $corpus/$f is missing" >&2
		exit 1
	fi
done
mkdir -p "$out"
touch "$out/MANIFEST"

cat > "$tmp/gen.c" <<'EOF'
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	uint8_t *p;
	size_t len;
};

static const char *in_dir, *out_dir;
static FILE *manifest;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "make-bad-corpus-check: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static uint64_t get(const struct buf *b, uint64_t off, unsigned int n)
{
	uint64_t v = 0;

	if (off + n > b->len)
		die("read past the end at %llu", (unsigned long long)off);
	memcpy(&v, b->p + off, n);
	return v;
}

static void put(struct buf *b, uint64_t off, uint64_t v, unsigned int n)
{
	if (off + n > b->len)
		die("write past the end at %llu", (unsigned long long)off);
	memcpy(b->p + off, &v, n);
}

static struct buf load(const char *name)
{
	char path[4096];
	struct buf b;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", in_dir, name);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die("%s: %s", path, strerror(errno));
	b.len = (size_t)n;
	b.p = malloc(b.len + 64);
	if (!b.p || fread(b.p, 1, b.len, f) != b.len)
		die("%s: cannot read", path);
	fclose(f);
	if (memcmp(b.p, "PERFILE2", 8))
		die("%s: not a little-endian perf.data", path);
	return b;
}

static void emit(const char *name, struct buf *b, unsigned int code, uint64_t offset,
		 const char *what)
{
	char path[4096];
	FILE *f;

	if (b->len > 65536)
		die("%s: %zu bytes, keep bad files under 64 KiB", name, b->len);
	snprintf(path, sizeof(path), "%s/%s", out_dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(b->p, 1, b->len, f) != b->len || fclose(f))
		die("%s: %s", path, strerror(errno));
	fprintf(manifest, "%s | %u | %llu | %s\n", name, code, (unsigned long long)offset, what);
	free(b->p);
}

static bool is_pipe(const struct buf *b)
{
	return get(b, 8, 8) == 16;
}

static uint64_t data_start(const struct buf *b)
{
	return is_pipe(b) ? 16 : get(b, 40, 8);
}

static uint64_t data_end(const struct buf *b)
{
	return is_pipe(b) ? b->len : get(b, 40, 8) + get(b, 48, 8);
}

/* Offset of the nth record of type (0-based), from `from`; 0 if none. */
static uint64_t find(const struct buf *b, uint64_t from, uint32_t type, unsigned int nth)
{
	uint64_t pos = from ? from : data_start(b), end = data_end(b);

	while (pos + 8 <= end) {
		uint64_t size = get(b, pos + 6, 2);

		if (size < 8)
			die("bad base record at %llu", (unsigned long long)pos);
		if (get(b, pos, 4) == type && !nth--)
			return pos;
		pos += size;
	}
	return 0;
}

static uint64_t next(const struct buf *b, uint64_t pos)
{
	return pos + get(b, pos + 6, 2);
}

/* Absolute offset of the table entry of feature `bit` (file mode). */
static uint64_t feat_entry(const struct buf *b, unsigned int bit)
{
	unsigned int i, rank = 0;

	if (!((get(b, 72 + 8 * (bit / 64), 8) >> (bit % 64)) & 1))
		die("feature %u not present", bit);
	for (i = 0; i < bit; i++)
		if ((get(b, 72 + 8 * (i / 64), 8) >> (i % 64)) & 1)
			rank++;
	return data_end(b) + 16ULL * rank;
}

static uint64_t feat_off(const struct buf *b, unsigned int bit)
{
	return get(b, feat_entry(b, bit), 8);
}

/* Byte offset of a sample_type field in a SAMPLE body (fixed fields only). */
static uint64_t sample_field(uint64_t st, uint64_t bit)
{
	static const uint64_t order[] = { 1 << 16, 1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 6,
					  1 << 9, 1 << 7, 1 << 8 };
	uint64_t off = 8;
	unsigned int i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (order[i] == bit)
			return off;
		if (st & order[i])
			off += 8;
	}
	die("sample field %llu not fixed", (unsigned long long)bit);
	return 0;
}

static uint64_t attr0_sample_type(const struct buf *b)
{
	return get(b, get(b, 24, 8) + 24, 8);
}

#define R_MMAP2		10
#define R_SAMPLE	9
#define R_EXIT		4
#define R_FORK		7
#define R_FINISHED_ROUND 68
#define R_ID_INDEX	69
#define R_HEADER_FEATURE 80
#define S_TID		(1ULL << 1)
#define S_TIME		(1ULL << 2)
#define S_CPU		(1ULL << 7)

static void order_cases(void)
{
	struct buf b = load("basic.data");
	uint64_t st = attr0_sample_type(&b), s, n, e, f, t, i;

	/*
	 * perf's guarantee: after FINISHED_ROUND n, nothing is older than
	 * the newest record before round n-1 ended.  The 20th sample (40
	 * bytes) becomes five FINISHED_ROUND records, and the sample after
	 * them gets time 1.
	 */
	s = find(&b, 0, R_SAMPLE, 20);
	if (!s || get(&b, s + 6, 2) % 8)
		die("basic.data: no 20th sample");
	n = next(&b, s);
	for (i = s; i < n; i += 8) {
		put(&b, i, R_FINISHED_ROUND, 4);
		put(&b, i + 4, 0, 2);
		put(&b, i + 6, 8, 2);
	}
	n = find(&b, n, R_SAMPLE, 0);
	put(&b, n + sample_field(st, S_TIME), 1, 8);
	emit("check-round-order.data", &b, 603, n,
	     "basic.data with its 20th SAMPLE replaced by FINISHED_ROUNDs and the next SAMPLE at time 1");

	/* EXIT before the FORK of the same thread */
	b = load("basic.data");
	for (e = find(&b, 0, R_EXIT, 0); e; e = find(&b, next(&b, e), R_EXIT, 0)) {
		uint32_t tid = (uint32_t)get(&b, e + 16, 4);

		for (f = find(&b, 0, R_FORK, 0); f; f = find(&b, next(&b, f), R_FORK, 0))
			if (get(&b, f + 16, 4) == tid && get(&b, f + 8, 4) == get(&b, e + 8, 4))
				break;
		if (f)
			break;
	}
	if (!e)
		die("basic.data: no EXIT of a forked thread");
	t = get(&b, f + 24, 8);
	put(&b, e + 24, t - 1000, 8);
	emit("check-exit-before-fork.data", &b, 604, e,
	     "basic.data with an EXIT time set 1 us before the FORK of the same thread");
}

static void mmap_cases(void)
{
	struct buf b = load("basic.data");
	uint64_t m = find(&b, 0, R_MMAP2, 0);

	put(&b, m + 24, 0, 8);
	emit("check-mmap-zero-len.data", &b, 605, m, "basic.data with the len of its first MMAP2 set to 0 (warning)");
	b = load("basic.data");
	put(&b, m + 16, 0xffffffffffff0000ULL, 8);
	put(&b, m + 24, 0x100000, 8);
	emit("check-mmap-wraps.data", &b, 606, m,
	     "basic.data with its first MMAP2 at 0xffffffffffff0000, len 1 MiB: past the top");
}

static void note_cases(void)
{
	struct buf b = load("lost-all.data");
	uint64_t r = find(&b, 0, 2, 0);

	emit("check-lost-events.data", &b, 607, r, "copy of lost-all.data: LOST records (note)");
	b = load("lost-all.data");
	r = find(&b, 0, 13, 0);
	emit("check-lost-samples.data", &b, 608, r, "copy of lost-all.data: LOST_SAMPLES records (note)");
	b = load("throttle.data");
	r = find(&b, 0, 5, 0);
	if (!r)
		die("throttle.data: no THROTTLE record");
	emit("check-throttled.data", &b, 609, r, "copy of throttle.data: THROTTLE records (note)");

	b = load("basic.data");
	r = find(&b, 0, R_SAMPLE, 0);
	put(&b, r + sample_field(attr0_sample_type(&b), S_TID), 99999, 4);
	put(&b, r + sample_field(attr0_sample_type(&b), S_TID) + 4, 99999, 4);
	emit("check-thread-not-announced.data", &b, 610, r,
	     "basic.data with its first SAMPLE moved to pid/tid 99999, never announced (note)");
}

static void sample_cases(void)
{
	struct buf b = load("cpu-timestamp.data");
	uint64_t st = attr0_sample_type(&b), s, last = 0, ft;

	s = find(&b, 0, R_SAMPLE, 0);
	put(&b, s + sample_field(st, S_CPU), 4096, 4);
	emit("check-sample-cpu.data", &b, 611, s,
	     "cpu-timestamp.data with the cpu of its first SAMPLE set to 4096 (>= NRCPUS avail)");

	b = load("basic.data");
	st = attr0_sample_type(&b);
	for (s = find(&b, 0, R_SAMPLE, 0); s; s = find(&b, next(&b, s), R_SAMPLE, 0))
		last = s;
	ft = feat_off(&b, 21);
	put(&b, last + sample_field(st, S_TIME), get(&b, ft + 8, 8) + 1000, 8);
	emit("check-sample-outside-time.data", &b, 612, last,
	     "basic.data with its last SAMPLE 1 us after the SAMPLE_TIME range");

	/* pipe: the range arrives as a feature record and is checked at the end */
	b = load("basic.pipe.data");
	for (s = find(&b, 0, R_HEADER_FEATURE, 0); s; s = find(&b, next(&b, s), R_HEADER_FEATURE, 0))
		if (get(&b, s + 8, 8) == 21)
			break;
	if (!s)
		die("basic.pipe.data: no SAMPLE_TIME feature record");
	put(&b, s + 16, 1, 8);
	put(&b, s + 24, 2, 8);
	emit("check-sample-time-pipe.data", &b, 613, s + 16,
	     "basic.pipe.data with its SAMPLE_TIME feature record set to 1..2 ns");
}

static void feature_cases(void)
{
	struct buf b = load("multi-event.data");
	uint64_t ed = feat_off(&b, 12), g, c;

	/* nr, attr_size, then the first attr: config at 8 */
	put(&b, ed + 8 + 8, 7, 8);
	emit("check-event-desc.data", &b, 614, ed,
	     "multi-event.data with the config of the first EVENT_DESC attr set to 7");

	b = load("group-read.data");
	g = feat_off(&b, 17);
	/* nr_groups, then name (u32 len + bytes), leader_idx, nr_members */
	put(&b, g + 4 + 4 + get(&b, g + 4, 4), 9, 4);
	emit("check-group-desc.data", &b, 615, g,
	     "group-read.data with the leader_idx of its first GROUP_DESC group set to 9 (2 attrs)");

	b = load("compressed.data");
	c = feat_off(&b, 27);
	put(&b, c + 4, 0, 4);
	emit("check-compressed-type.data", &b, 616, c + 4,
	     "compressed.data with the COMPRESSED feature type set to 0 (not zstd) (warning)");

	b = load("stat.data");
	c = feat_off(&b, 27);
	put(&b, c + 4, 1, 4);
	emit("check-compressed-unused.data", &b, 617, c,
	     "stat.data with the COMPRESSED feature type set to 1 (zstd) but no compressed record (note)");
}

static void record_cases(void)
{
	struct buf b = load("basic.data");
	uint64_t r = find(&b, 0, R_ID_INDEX, 0), de, last = 0, pos;

	put(&b, r + 16, 0xdeadbeef, 8);
	emit("check-id-index.data", &b, 619, r + 16,
	     "basic.data with the id of the first ID_INDEX entry set to 0xdeadbeef");

	b = load("basic.data");
	r = find(&b, 0, 3, 1);
	put(&b, r + 6, 4, 2);
	emit("check-stream-stopped.data", &b, 620, r,
	     "basic.data with the size of its second COMM set to 4: the rest cannot be read (note)");

	/* data.size short by the last record: that record follows the stated end */
	b = load("basic.data");
	for (pos = data_start(&b), de = data_end(&b); pos + 8 <= de; pos = next(&b, pos))
		last = pos;
	put(&b, 48, last - data_start(&b), 8);
	emit("check-after-data-end.data", &b, 20, 48,
	     "basic.data with data.size ending before its last record: the header field, not the table read from inside it");
}

static void layout_cases(void)
{
	struct buf b = load("basic.data");
	uint64_t attr_size = get(&b, 16, 8), field = get(&b, 24, 8) + attr_size - 16;
	uint64_t os, e;

	/* attr 0's id array moved into the data section */
	put(&b, field, data_start(&b) + 8, 8);
	emit("check-ids-overlap.data", &b, 6, field,
	     "basic.data with the id array of attr 0 moved into the data section");

	/*
	 * The same in a file whose records carry ids: every record of attr
	 * 0's event then has an id no attr owns (one PD311, one PD631).
	 */
	b = load("multi-event.data");
	field = get(&b, 24, 8) + get(&b, 16, 8) - 16;
	put(&b, field, data_start(&b) + 8, 8);
	emit("check-ids-unknown.data", &b, 6, field,
	     "multi-event.data with the id array of attr 0 moved into the data section: its records' ids match no attr");

	/* HOSTNAME's section moved inside OSRELEASE's */
	b = load("basic.data");
	os = feat_off(&b, 4);
	e = feat_entry(&b, 3);
	put(&b, e, os + 8, 8);
	put(&b, e + 8, 8, 8);
	emit("check-feature-overlap.data", &b, 214, e,
	     "basic.data with the HOSTNAME section moved 8 bytes into the OSRELEASE section");

	/* HOSTNAME's entry pointing into the feature table itself */
	b = load("basic.data");
	e = feat_entry(&b, 3);
	put(&b, e, data_end(&b) + 16, 8);
	put(&b, e + 8, 16, 8);
	emit("check-feature-in-table.data", &b, 214, e,
	     "basic.data with the HOSTNAME section placed on the second entry of the feature table");

	/* the data section grown over the feature table */
	b = load("basic.data");
	e = feat_entry(&b, 3);
	put(&b, e, data_start(&b) + 64, 8);
	emit("check-feature-in-data.data", &b, 214, e,
	     "basic.data with the HOSTNAME section moved into the data section");

	/* event_types, obsolete, pointing past the end of the file */
	b = load("basic.data");
	put(&b, 56, b.len + 4096, 8);
	put(&b, 64, 64, 8);
	emit("check-event-types-out.data", &b, 5, 56,
	     "basic.data with the obsolete event_types section 4096 bytes past the end");
}

/*
 * A copy of a file-mode recording with one more feature section: the table
 * at the data end grows by one entry, so every payload moves 16 bytes on,
 * and the new payload goes at the end of the file.  Returns its offset.
 */
static uint64_t add_feature(struct buf *b, unsigned int bit, const uint8_t *payload, size_t len)
{
	uint64_t table = data_end(b), old_end, i, rank = 0, n = 0, k;
	struct buf nb;

	for (i = 0; i < 256; i++) {
		if (!((get(b, 72 + 8 * (i / 64), 8) >> (i % 64)) & 1))
			continue;
		if (i < bit)
			rank++;
		n++;
	}
	old_end = table + 16 * n;
	nb.len = b->len + 16 + len;
	nb.p = calloc(1, nb.len + 64);
	if (!nb.p)
		die("out of memory");
	memcpy(nb.p, b->p, table);
	for (k = 0; k < n + 1; k++) {
		uint64_t src = k < rank ? k : k - 1;

		if (k == rank)
			continue;
		put(&nb, table + 16 * k, get(b, table + 16 * src, 8) + 16, 8);
		put(&nb, table + 16 * k + 8, get(b, table + 16 * src + 8, 8), 8);
	}
	memcpy(nb.p + old_end + 16, b->p + old_end, b->len - old_end);
	memcpy(nb.p + b->len + 16, payload, len);
	put(&nb, table + 16 * rank, b->len + 16, 8);
	put(&nb, table + 16 * rank + 8, len, 8);
	put(&nb, 72 + 8 * (bit / 64), get(b, 72 + 8 * (bit / 64), 8) | 1ULL << (bit % 64), 8);
	free(b->p);
	*b = nb;
	return b->len - len;
}

static void auxtrace_case(void)
{
	struct buf b = load("basic.data");
	uint8_t payload[24];
	uint64_t v, off;

	/* an index entry that points at the first COMM, not at an AUXTRACE record */
	v = 1;
	memcpy(payload, &v, 8);
	v = find(&b, 0, 3, 0);
	memcpy(payload + 8, &v, 8);
	v = 48;
	memcpy(payload + 16, &v, 8);
	off = add_feature(&b, 18, payload, sizeof(payload));
	emit("check-auxtrace-index.data", &b, 618, off + 8,
	     "basic.data with an AUXTRACE feature whose entry points at its first COMM record");
}

/*
 * Root causes: an attr field that no sample of the attr fits.  The
 * finding is the field (attrs section), not each sample.
 */
static void attr_layout_cases(void)
{
	struct buf b = load("basic.data");
	uint64_t a = get(&b, 24, 8), st = get(&b, a + 24, 8), s;

	if ((st & (1 << 3)) || !(st & (1 << 8)))
		die("basic.data: sample_type %#llx has ADDR or lacks PERIOD", (unsigned long long)st);
	put(&b, a + 24, st | (1 << 3), 8);
	emit("check-sample-type-extra.data", &b, 624, a + 24,
	     "basic.data with ADDR added to the sample_type of its attr: no sample has it");

	b = load("basic.data");
	put(&b, a + 24, st & ~(1ULL << 8), 8);
	emit("check-sample-type-missing.data", &b, 624, a + 24,
	     "basic.data with PERIOD taken from the sample_type of its attr: every sample has it");

	b = load("group-read.data");
	a = get(&b, 24, 8);
	if (!(get(&b, a + 32, 8) & 1))
		die("group-read.data: read_format lacks TOTAL_TIME_ENABLED");
	put(&b, a + 32, get(&b, a + 32, 8) & ~1ULL, 8);
	emit("check-read-format.data", &b, 624, a + 32,
	     "group-read.data with TOTAL_TIME_ENABLED taken from the read_format of its first attr");

	b = load("user-regs.data");
	a = get(&b, 24, 8);
	if (get(&b, a + 80, 8) & 1)
		die("user-regs.data: sample_regs_user has register 0");
	put(&b, a + 80, get(&b, a + 80, 8) | 1, 8);
	emit("check-regs-user.data", &b, 624, a + 80,
	     "user-regs.data with one register added to sample_regs_user: the samples hold one less");

	/*
	 * sample_stack_user halved: every stack copy is then larger than
	 * the kernel would write.  Cut after the 4th SAMPLE (and without
	 * features) to stay under 64 KiB.
	 */
	b = load("callchain-dwarf.data");
	a = get(&b, 24, 8);
	if (!(get(&b, a + 24, 8) & (1 << 13)) || get(&b, a + 88, 4) < 16)
		die("callchain-dwarf.data: no user stack of 16 bytes or more");
	s = find(&b, 0, R_SAMPLE, 3);
	if (!s)
		die("callchain-dwarf.data: fewer than 4 samples");
	b.len = next(&b, s);
	put(&b, 48, b.len - data_start(&b), 8);
	memset(b.p + 72, 0, 32);
	put(&b, a + 88, get(&b, a + 88, 4) / 2, 4);
	emit("check-stack-user.data", &b, 624, a + 88,
	     "callchain-dwarf.data up to its 4th SAMPLE (no features) with sample_stack_user halved: every stack copy is larger");

	/* sample_stack_user 4 bytes short of the copies: not u64-aligned, so never a kernel's */
	b = load("callchain-dwarf.data");
	s = find(&b, 0, R_SAMPLE, 3);
	b.len = next(&b, s);
	put(&b, 48, b.len - data_start(&b), 8);
	memset(b.p + 72, 0, 32);
	put(&b, a + 88, get(&b, a + 88, 4) - 4, 4);
	emit("check-stack-user-unaligned.data", &b, 630, a + 88,
	     "callchain-dwarf.data up to its 4th SAMPLE (no features) with sample_stack_user 4 bytes short: not u64-aligned");

	/* the same in a pipe: the field of the HEADER_ATTR record */
	b = load("callchain-dwarf.pipe.data");
	a = find(&b, 0, 64, 0);
	if (!a || !(get(&b, a + 8 + 24, 8) & (1 << 13)))
		die("callchain-dwarf.pipe.data: no HEADER_ATTR with a user stack");
	s = find(&b, 0, R_SAMPLE, 3);
	if (!s)
		die("callchain-dwarf.pipe.data: fewer than 4 samples");
	b.len = next(&b, s);
	put(&b, a + 8 + 88, get(&b, a + 8 + 88, 4) - 4, 4);
	emit("check-stack-user-unaligned.pipe.data", &b, 630, a + 8 + 88,
	     "callchain-dwarf.pipe.data up to its 4th SAMPLE with the HEADER_ATTR sample_stack_user 4 bytes short: not u64-aligned");
}

/*
 * An event opened on one cpu (ID_INDEX cpu != -1) samples on that cpu
 * only.  One sample moved to the other cpu is that sample's fault; an
 * ID_INDEX entry moved is the entry's, seen in every sample of its id.
 */
static void id_cpu_cases(void)
{
	struct buf b = load("syscalls.data");
	uint64_t st = attr0_sample_type(&b), s, ii, e = 0, id, cpu, i;

	if (!(st & S_CPU) || !(st & (1 << 6)))
		die("syscalls.data: samples without ID and CPU");
	s = find(&b, 0, R_SAMPLE, 0);
	ii = find(&b, 0, R_ID_INDEX, 0);
	if (!s || !ii)
		die("syscalls.data: no SAMPLE or no ID_INDEX");
	id = get(&b, s + sample_field(st, 1 << 6), 8);
	cpu = get(&b, s + sample_field(st, S_CPU), 4);
	for (i = 0; i < get(&b, ii + 8, 8); i++)
		if (get(&b, ii + 16 + 32 * i, 8) == id)
			e = ii + 16 + 32 * i;
	if (!e || get(&b, e + 16, 8) != cpu || cpu > 1)
		die("syscalls.data: the first sample's id is not on its cpu in ID_INDEX");
	put(&b, s + sample_field(st, S_CPU), cpu ^ 1, 4);
	emit("check-sample-cpu-event.data", &b, 629, s + sample_field(st, S_CPU),
	     "syscalls.data with its first SAMPLE moved to the other cpu than its event's (ID_INDEX)");

	b = load("syscalls.data");
	put(&b, e + 16, cpu ^ 1, 8);
	emit("check-id-index-cpu.data", &b, 629, e + 16,
	     "syscalls.data with the ID_INDEX cpu of its first sample's event set to the other cpu: every sample of that id disagrees");

	/*
	 * The ids of ID_INDEX far apart (perfcheck searches them then, where
	 * it indexes ids close together): the same sample found.
	 */
	b = load("syscalls.data");
	for (i = get(&b, ii + 8, 8); i-- > 0;)
		if (get(&b, ii + 16 + 32 * i, 8) != id && get(&b, ii + 16 + 32 * i + 16, 8) <= 1)
			break;
	if (i == (uint64_t)-1)
		die("syscalls.data: no second per-cpu id in ID_INDEX");
	put(&b, ii + 16 + 32 * i, get(&b, ii + 16 + 32 * i, 8) + (1ULL << 40), 8);
	put(&b, s + sample_field(st, S_CPU), cpu ^ 1, 4);
	emit("check-sample-cpu-event-far-ids.data", &b, 629, s + sample_field(st, S_CPU),
	     "check-sample-cpu-event.data with another ID_INDEX entry's id moved 2^40 on (an id no attr has): ids far apart");
}

static void pipe_cases(void)
{
	struct buf b = load("basic.pipe.data");
	uint64_t r, last;

	for (r = find(&b, 0, R_HEADER_FEATURE, 0); r; r = find(&b, next(&b, r), R_HEADER_FEATURE, 0))
		if (get(&b, r + 6, 2) == 16)
			break;
	if (!r)
		die("basic.pipe.data: no end-of-features marker");
	/* turn the marker into a FINISHED_INIT of the same size */
	put(&b, r, 82, 4);
	emit("check-no-end-marker.pipe.data", &b, 211, r,
	     "basic.pipe.data with its end-of-features marker retyped to FINISHED_INIT (warning)");

	/* perf record killed: the stream stops after a sample, at a record boundary */
	b = load("basic.pipe.data");
	for (r = find(&b, 0, R_SAMPLE, 0), last = 0; r; r = find(&b, next(&b, r), R_SAMPLE, 0))
		last = r;
	if (!last)
		die("basic.pipe.data: no SAMPLE");
	b.len = next(&b, last);
	emit("check-pipe-not-finished.pipe.data", &b, 626, b.len,
	     "basic.pipe.data cut after its last SAMPLE: no FINISHED_ROUND closes the samples (warning)");
}

int main(int argc, char **argv)
{
	char path[4096];

	if (argc != 3)
		die("usage: gen CORPUS_DIR OUT_DIR");
	in_dir = argv[1];
	out_dir = argv[2];
	snprintf(path, sizeof(path), "%s/MANIFEST.check", out_dir);
	manifest = fopen(path, "w");
	if (!manifest)
		die("%s: %s", path, strerror(errno));
	order_cases();
	mmap_cases();
	note_cases();
	sample_cases();
	feature_cases();
	record_cases();
	layout_cases();
	auxtrace_case();
	pipe_cases();
	attr_layout_cases();
	id_cpu_cases();
	if (fclose(manifest))
		die("MANIFEST.check: %s", strerror(errno));
	return 0;
}
EOF

$cc -std=c11 -O1 -Wall -Wextra -o "$tmp/gen" "$tmp/gen.c"
rm -f "$out"/check-*.data
"$tmp/gen" "$corpus" "$out"
# Replace this script's lines, keep everyone else's.
grep -v '^check-' "$out/MANIFEST" > "$tmp/MANIFEST" || true
cat "$tmp/MANIFEST" "$out/MANIFEST.check" > "$out/MANIFEST"
rm -f "$out/MANIFEST.check"
n=$(grep -c '^check-' "$out/MANIFEST")
echo "make-bad-corpus-check: wrote $n files to $out"
