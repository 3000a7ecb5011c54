// SPDX-License-Identifier: MIT
/*
 * test_reader.c - the reader end to end on hand-built streams: container
 * detection, pipe and file headers, attribution by id, compression, time
 * order, directory mode, spooling of non-seekable file-mode input and the
 * diagnostics (code and exact offset) for damaged framing.
 *
 * Every stream is built twice, in little- and big-endian byte order, by
 * the same builder, and must decode to the same values.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <zstd.h>

#include "diag_recorder.h"
#include "perfdata/perfdata.h"
#include "internal.h"
#include "test_suites.h"

/* ---- a byte builder that writes in a chosen byte order ---- */

struct bb {
	uint8_t buf[65536 * 2];
	size_t len;
	bool be;
};

static void bb_u8(struct bb *b, uint8_t v)
{
	b->buf[b->len++] = v;
}

static void bb_uint(struct bb *b, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		int shift = b->be ? 8 * (n - 1 - i) : 8 * i;

		b->buf[b->len++] = (uint8_t)(v >> shift);
	}
}

static void bb_u16(struct bb *b, uint16_t v) { bb_uint(b, v, 2); }
static void bb_u32(struct bb *b, uint32_t v) { bb_uint(b, v, 4); }
static void bb_u64(struct bb *b, uint64_t v) { bb_uint(b, v, 8); }

static void bb_bytes(struct bb *b, const void *p, size_t n)
{
	if (!n)
		return;
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

static void bb_put_u16_at(struct bb *b, size_t at, uint16_t v)
{
	size_t save = b->len;

	b->len = at;
	bb_u16(b, v);
	b->len = save;
}

/* Record header; returns the record start for bb_end_rec(). */
static size_t bb_rec(struct bb *b, uint32_t type, uint16_t misc)
{
	size_t start = b->len;

	bb_u32(b, type);
	bb_u16(b, misc);
	bb_u16(b, 0);	/* size, patched by bb_end_rec */
	return start;
}

static void bb_end_rec(struct bb *b, size_t start)
{
	bb_put_u16_at(b, start + 6, (uint16_t)(b->len - start));
}

static void bb_pipe_header(struct bb *b)
{
	/* magic "PERFILE2" as a u64 in the writer's order */
	bb_u64(b, 0x32454c4946524550ULL);
	bb_u64(b, 16);	/* header size: pipe */
}

/*
 * attr (VER5, 112 bytes) with the given sample_type; flags word: a
 * big-endian compiler allocates bit-fields from the most significant bit
 * of the word, so flag bit i is stored as bit 63 - i.
 */
static void bb_attr(struct bb *b, uint64_t sample_type, uint64_t flags)
{
	uint64_t stored = flags;
	int i;

	if (b->be) {
		/* bit i of the LE numbering is bit 63 - i of a big-endian word */
		stored = 0;
		for (i = 0; i < 64; i++)
			if (flags & (1ULL << i))
				stored |= 1ULL << (63 - i);
	}
	bb_u32(b, 1);		/* type: SOFTWARE */
	bb_u32(b, 112);		/* size */
	bb_u64(b, 0);		/* config: cpu-clock */
	bb_u64(b, 4000);	/* sample_period */
	bb_u64(b, sample_type);
	bb_u64(b, 0);		/* read_format */
	bb_u64(b, stored);	/* flags */
	bb_u32(b, 0);		/* wakeup_events */
	bb_u32(b, 0);		/* bp_type */
	bb_u64(b, 0);		/* config1 */
	bb_u64(b, 0);		/* config2 */
	bb_u64(b, 0);		/* branch_sample_type */
	bb_u64(b, 0);		/* sample_regs_user */
	bb_u32(b, 0);		/* sample_stack_user */
	bb_u32(b, 0);		/* clockid */
	bb_u64(b, 0);		/* sample_regs_intr */
	bb_u32(b, 0);		/* aux_watermark */
	bb_u16(b, 0);		/* sample_max_stack */
	bb_u16(b, 0);		/* reserved_2 */
}

#define ST_BASIC (PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME)

static void bb_header_attr(struct bb *b, uint64_t id)
{
	size_t r = bb_rec(b, PD_REC_HEADER_ATTR, 0);

	bb_attr(b, ST_BASIC, PD_ATTR_SAMPLE_ID_ALL | PD_ATTR_FREQ);
	bb_u64(b, id);
	bb_end_rec(b, r);
}

static void bb_sample(struct bb *b, uint64_t id, uint64_t ip, uint32_t pid, uint64_t time)
{
	size_t r = bb_rec(b, PD_REC_SAMPLE, 2 /* USER */);

	bb_u64(b, id);
	bb_u64(b, ip);
	bb_u32(b, pid);
	bb_u32(b, pid + 1);
	bb_u64(b, time);
	bb_end_rec(b, r);
}

static void bb_round(struct bb *b)
{
	size_t r = bb_rec(b, PD_REC_FINISHED_ROUND, 0);

	bb_end_rec(b, r);
}

/* ---- diagnostics collected by the tests ---- */

/* tests/diag_recorder.h: struct diag_recorder, diag_recorder_fn/_find */

static int write_tmp(const struct bb *b)
{
	char path[] = "/tmp/pd-test-XXXXXX";
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	unlink(path);
	CU_ASSERT_FATAL(write(fd, b->buf, b->len) == (ssize_t)b->len);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* A real pipe: the reader must cope with a non-seekable descriptor. */
static int write_pipe(const struct bb *b)
{
	int p[2];

	CU_ASSERT_FATAL(b->len < 60000);	/* fits the pipe buffer */
	CU_ASSERT_FATAL(pipe(p) == 0);
	CU_ASSERT_FATAL(write(p[1], b->buf, b->len) == (ssize_t)b->len);
	close(p[1]);
	return p[0];
}

static struct pd_reader *open_bb(const struct bb *b, bool use_pipe, struct diag_recorder *seen,
				 bool time_order, int *fd_out, int *status)
{
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	struct pd_reader *r = NULL;
	int fd = use_pipe ? write_pipe(b) : write_tmp(b);

	o.diag_fn = diag_recorder_fn;
	o.diag_arg = seen;
	o.time_order = time_order;
	*status = pd_reader_open_fd(fd, "test", &o, &r);
	*fd_out = fd;
	return r;
}

/* ---- tests ---- */

static void check_pipe_basic(bool be, bool use_pipe)
{
	struct bb *b = calloc(1, sizeof(*b));
	const struct pd_record *rec;
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	int fd, st, n = 0;

	b->be = be;
	bb_pipe_header(b);
	bb_header_attr(b, 77);
	bb_sample(b, 77, 0x401000, 100, 5000);
	r = open_bb(b, use_pipe, &seen, false, &fd, &st);
	CU_ASSERT_EQUAL_FATAL(st, 0);
	CU_ASSERT_EQUAL(pd_reader_header(r)->mode, PD_MODE_PIPE);
	CU_ASSERT_EQUAL(pd_reader_header(r)->big_endian, be);
	while (pd_reader_next(r, &rec) > 0) {
		if (n == 0) {
			CU_ASSERT_EQUAL(rec->type, PD_REC_HEADER_ATTR);
			CU_ASSERT_EQUAL(rec->offset, 16);
		} else {
			CU_ASSERT_EQUAL(rec->type, PD_REC_SAMPLE);
			CU_ASSERT_EQUAL(rec->offset, 16 + 8 + 112 + 8);
			CU_ASSERT_TRUE(rec->decoded);
			CU_ASSERT_EQUAL(rec->event_index, 0);
			CU_ASSERT_EQUAL(rec->u.sample.ip, 0x401000);
			CU_ASSERT_EQUAL(rec->u.sample.pid, 100);
			CU_ASSERT_EQUAL(rec->u.sample.tid, 101);
			CU_ASSERT_EQUAL(rec->u.sample.time, 5000);
			CU_ASSERT_EQUAL(rec->u.sample.identifier, 77);
			CU_ASSERT_EQUAL(rec->u.sample.period, 4000);
		}
		n++;
	}
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_EQUAL(pd_reader_nr_events(r), 1);
	CU_ASSERT_EQUAL(pd_reader_event(r, 0)->attr.sample_type, ST_BASIC);
	CU_ASSERT_TRUE(pd_reader_event(r, 0)->attr.flags & PD_ATTR_SAMPLE_ID_ALL);
	CU_ASSERT_TRUE(pd_reader_event(r, 0)->attr.flags & PD_ATTR_FREQ);
	CU_ASSERT_STRING_EQUAL(pd_reader_event(r, 0)->name, "cpu-clock");
	CU_ASSERT_EQUAL(pd_reader_diag_count(r, PD_SEV_ERROR), 0);
	pd_reader_close(r);
	close(fd);
	free(b);
}

static void test_pipe_le(void)
{
	check_pipe_basic(false, true);
}

static void test_pipe_be(void)
{
	check_pipe_basic(true, true);
}

static void test_pipe_saved_as_file(void)
{
	check_pipe_basic(false, false);
	check_pipe_basic(true, false);
}

static void expect_open_failure(const uint8_t *bytes, size_t len, enum pd_code code,
				uint64_t offset)
{
	struct bb *b = calloc(1, sizeof(*b));
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	int fd, st, i;

	bb_bytes(b, bytes, len);
	r = open_bb(b, false, &seen, false, &fd, &st);
	CU_ASSERT_PTR_NULL(r);
	CU_ASSERT_EQUAL(st, PD_STATUS_MALFORMED);
	i = diag_recorder_find(&seen, code);
	CU_ASSERT_TRUE_FATAL(i >= 0);
	CU_ASSERT_EQUAL(seen.seen[i].offset, offset);
	close(fd);
	free(b);
}

static void test_bad_magic(void)
{
	static const uint8_t junk[32] = "this is not a perf.data file...";

	expect_open_failure(junk, sizeof(junk), PD_NOT_PERF, 0);
}

static void test_legacy_perffile(void)
{
	uint8_t hdr[104] = "PERFFILE";

	expect_open_failure(hdr, sizeof(hdr), PD_LEGACY_PERFFILE, 0);
}

static void test_bad_header_size(void)
{
	uint8_t hdr[104] = "PERFILE2";

	hdr[8] = 50;	/* header size 50: neither 16, 72 nor 104 */
	expect_open_failure(hdr, sizeof(hdr), PD_BAD_HEADER_SIZE, 8);
}

static void test_truncated_header(void)
{
	static const uint8_t hdr[10] = "PERFILE2";

	expect_open_failure(hdr, sizeof(hdr), PD_TRUNCATED_HEADER, 0);
}

static void test_empty_input(void)
{
	expect_open_failure(NULL, 0, PD_EMPTY_FILE, 0);
}

static void test_zero_size_record(void)
{
	struct bb *b = calloc(1, sizeof(*b));
	const struct pd_record *rec;
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	size_t bad_at;
	int fd, st, ret, n = 0, i;

	bb_pipe_header(b);
	bb_header_attr(b, 1);
	bad_at = b->len;
	bb_u32(b, PD_REC_SAMPLE);	/* type */
	bb_u16(b, 0);			/* misc */
	bb_u16(b, 0);			/* size 0: would loop a naive reader */
	r = open_bb(b, true, &seen, false, &fd, &st);
	CU_ASSERT_EQUAL_FATAL(st, 0);
	while ((ret = pd_reader_next(r, &rec)) > 0)
		n++;
	CU_ASSERT_EQUAL(ret, PD_STATUS_MALFORMED);
	CU_ASSERT_EQUAL(n, 1);
	i = diag_recorder_find(&seen, PD_REC_ZERO_SIZE);
	CU_ASSERT_TRUE_FATAL(i >= 0);
	CU_ASSERT_EQUAL(seen.seen[i].offset, bad_at);
	CU_ASSERT_EQUAL(seen.seen[i].record_index, 1);
	pd_reader_close(r);
	close(fd);
	free(b);
}

static void test_truncated_stream(void)
{
	struct bb *b = calloc(1, sizeof(*b));
	const struct pd_record *rec;
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	size_t cut;
	int fd, st, ret, n = 0, i;

	bb_pipe_header(b);
	bb_header_attr(b, 1);
	bb_sample(b, 1, 0x1000, 5, 10);
	cut = b->len;
	bb_sample(b, 1, 0x2000, 5, 20);
	b->len -= 4;	/* a killed perf record -o - */
	r = open_bb(b, true, &seen, false, &fd, &st);
	CU_ASSERT_EQUAL_FATAL(st, 0);
	while ((ret = pd_reader_next(r, &rec)) > 0)
		n++;
	CU_ASSERT_EQUAL(ret, 0);	/* everything complete was delivered */
	CU_ASSERT_EQUAL(n, 2);
	i = diag_recorder_find(&seen, PD_REC_TRUNCATED);
	CU_ASSERT_TRUE_FATAL(i >= 0);
	CU_ASSERT_EQUAL(seen.seen[i].offset, cut);
	pd_reader_close(r);
	close(fd);
	free(b);
}

/* COMPRESSED records: one zstd stream over two containers, a record split between them. */
static void check_compressed(bool be, bool v2)
{
	struct bb *b = calloc(1, sizeof(*b)), *inner = calloc(1, sizeof(*inner));
	uint8_t zout[4096];
	const struct pd_record *rec;
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	ZSTD_CStream *zcs = ZSTD_createCStream();
	size_t half, k, cut[2];
	int fd, st, n_samples = 0, n_containers = 0;
	uint64_t want_ip = 0x1000;

	b->be = inner->be = be;
	for (k = 0; k < 6; k++)
		bb_sample(inner, 9, 0x1000 + k, 42, 100 + k);
	half = inner->len / 2 + 3;	/* cuts a record in two */
	cut[0] = half;
	cut[1] = inner->len - half;
	bb_pipe_header(b);
	bb_header_attr(b, 9);
	ZSTD_initCStream(zcs, 3);
	for (k = 0; k < 2; k++) {
		ZSTD_inBuffer in = { inner->buf + (k ? half : 0), cut[k], 0 };
		ZSTD_outBuffer out = { zout, sizeof(zout), 0 };
		size_t rs;

		while (in.pos < in.size)
			ZSTD_compressStream(zcs, &out, &in);
		ZSTD_flushStream(zcs, &out);
		if (v2) {
			rs = bb_rec(b, PD_REC_COMPRESSED2, 0);
			bb_u64(b, out.pos);
			bb_bytes(b, zout, out.pos);
			while ((b->len - rs) % 8)
				bb_u8(b, 0);
		} else {
			rs = bb_rec(b, PD_REC_COMPRESSED, 0);
			bb_bytes(b, zout, out.pos);
		}
		bb_end_rec(b, rs);
	}
	ZSTD_freeCStream(zcs);
	r = open_bb(b, true, &seen, false, &fd, &st);
	CU_ASSERT_EQUAL_FATAL(st, 0);
	while (pd_reader_next(r, &rec) > 0) {
		if (rec->type == PD_REC_COMPRESSED || rec->type == PD_REC_COMPRESSED2) {
			n_containers++;
			CU_ASSERT_FALSE(rec->from_compressed);
		}
		if (rec->type == PD_REC_SAMPLE) {
			CU_ASSERT_TRUE(rec->from_compressed);
			CU_ASSERT_EQUAL(rec->u.sample.ip, want_ip);
			CU_ASSERT_EQUAL(rec->u.sample.pid, 42);
			want_ip++;
			n_samples++;
		}
	}
	CU_ASSERT_EQUAL(n_containers, 2);
	CU_ASSERT_EQUAL(n_samples, 6);
	CU_ASSERT_EQUAL(pd_reader_diag_count(r, PD_SEV_ERROR), 0);
	pd_reader_close(r);
	close(fd);
	free(b);
	free(inner);
}

static void test_compressed(void)
{
	check_compressed(false, false);
	check_compressed(true, false);
	check_compressed(false, true);
	check_compressed(true, true);
}

static void test_compressed_corrupt(void)
{
	struct bb *b = calloc(1, sizeof(*b));
	const struct pd_record *rec;
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	size_t rs, at;
	int fd, st, ret, n = 0, i;

	bb_pipe_header(b);
	bb_header_attr(b, 9);
	at = b->len;
	rs = bb_rec(b, PD_REC_COMPRESSED, 0);
	bb_bytes(b, "not a zstd frame at all", 24);
	bb_end_rec(b, rs);
	bb_sample(b, 9, 0x5000, 1, 1);	/* the outer stream stays in sync */
	r = open_bb(b, true, &seen, false, &fd, &st);
	CU_ASSERT_EQUAL_FATAL(st, 0);
	while ((ret = pd_reader_next(r, &rec)) > 0)
		n++;
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(n, 3);
	i = diag_recorder_find(&seen, PD_ZSTD_ERROR);
	CU_ASSERT_TRUE_FATAL(i >= 0);
	CU_ASSERT_EQUAL(seen.seen[i].offset, at);
	pd_reader_close(r);
	close(fd);
	free(b);
}

/* FINISHED_ROUND ordering as perf report does it (docs/perf-data-format.md §8.4). */
static void test_time_order(void)
{
	static const uint64_t want[] = { 5, 7, 10, 15, 20 };
	struct bb *b = calloc(1, sizeof(*b));
	const struct pd_record *rec;
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	char order[64] = "";
	int fd, st, ns = 0;

	bb_pipe_header(b);
	bb_header_attr(b, 3);
	bb_sample(b, 3, 1, 1, 10);
	bb_sample(b, 3, 1, 1, 5);
	bb_round(b);
	bb_sample(b, 3, 1, 1, 7);
	bb_sample(b, 3, 1, 1, 20);
	bb_round(b);
	bb_sample(b, 3, 1, 1, 15);
	r = open_bb(b, true, &seen, true, &fd, &st);
	CU_ASSERT_EQUAL_FATAL(st, 0);
	while (pd_reader_next(r, &rec) > 0) {
		size_t l = strlen(order);

		if (rec->type == PD_REC_SAMPLE) {
			CU_ASSERT_TRUE_FATAL(ns < 5);
			CU_ASSERT_EQUAL(rec->u.sample.time, want[ns]);
			ns++;
			snprintf(order + l, sizeof(order) - l, "S");
		} else if (rec->type == PD_REC_FINISHED_ROUND) {
			snprintf(order + l, sizeof(order) - l, "R");
		} else {
			snprintf(order + l, sizeof(order) - l, "A");
		}
	}
	CU_ASSERT_EQUAL(ns, 5);
	/* attr, round 1 (nothing to flush), 5 7 10, round 2, then 15 20 at the end */
	CU_ASSERT_STRING_EQUAL(order, "ARSSSRSS");
	pd_reader_close(r);
	close(fd);
	free(b);
}

/* What a test keeps of a delivered record. */
struct seen_rec {
	uint64_t offset, index, time, ip;
	uint32_t type;
};

/*
 * A pipe-mode stream of `rounds` rounds, each with `cpus` blocks of
 * `per_cpu` samples in time order (one ring buffer each, interleaved in
 * time with the others, overlapping the next round), in a growing buffer.
 */
static uint8_t *build_rounds(bool be, int rounds, int cpus, int per_cpu, size_t *len)
{
	struct bb *b = calloc(1, sizeof(*b));
	uint8_t *out = NULL;
	size_t n = 0;
	int k, c, j;

	CU_ASSERT_FATAL(b != NULL);
	b->be = be;
	bb_pipe_header(b);
	bb_header_attr(b, 3);
	for (k = 0; k <= rounds; k++) {
		uint64_t base = 1000 + (uint64_t)k * (uint64_t)cpus * (uint64_t)per_cpu * 3 / 4;

		if (k) {
			for (c = 0; c < cpus; c++)
				for (j = 0; j < per_cpu; j++) {
					uint64_t t = base + (uint64_t)(j * cpus + c);

					bb_sample(b, 3, t * 16, (uint32_t)c + 1, t);
				}
			bb_round(b);
		}
		out = realloc(out, n + b->len);
		CU_ASSERT_FATAL(out != NULL);
		memcpy(out + n, b->buf, b->len);
		n += b->len;
		b->len = 0;
	}
	free(b);
	*len = n;
	return out;
}

/* Read buf (a file, or a pipe a child writes) in time order; returns the records. */
static struct seen_rec *read_time_order(const uint8_t *buf, size_t len, bool use_pipe,
					size_t queue_max, size_t *nr, size_t *qfull)
{
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	struct diag_recorder seen = { 0 };
	const struct pd_record *rec;
	struct seen_rec *out = NULL;
	size_t n = 0, cap = 0;
	struct pd_reader *r;
	pid_t child = -1;
	unsigned int i;
	int fd, ret;

	if (use_pipe) {
		int p[2];

		CU_ASSERT_FATAL(pipe(p) == 0);
		child = fork();
		CU_ASSERT_FATAL(child >= 0);
		if (!child) {
			size_t done = 0;

			close(p[0]);
			while (done < len) {
				ssize_t w = write(p[1], buf + done, len - done);

				if (w <= 0)
					_exit(1);
				done += (size_t)w;
			}
			_exit(0);
		}
		close(p[1]);
		fd = p[0];
	} else {
		char path[] = "/tmp/pd-test-XXXXXX";

		fd = mkstemp(path);
		CU_ASSERT_FATAL(fd >= 0);
		unlink(path);
		CU_ASSERT_FATAL(write(fd, buf, len) == (ssize_t)len);
		lseek(fd, 0, SEEK_SET);
	}
	o.diag_fn = diag_recorder_fn;
	o.diag_arg = &seen;
	o.time_order = true;
	o.order_queue_max = queue_max;
	CU_ASSERT_EQUAL_FATAL(pd_reader_open_fd(fd, "test", &o, &r), 0);
	while ((ret = pd_reader_next(r, &rec)) > 0) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			out = realloc(out, cap * sizeof(*out));
			CU_ASSERT_FATAL(out != NULL);
		}
		out[n].type = rec->type;
		out[n].offset = rec->offset;
		out[n].index = rec->index;
		out[n].time = rec->type == PD_REC_SAMPLE ? rec->u.sample.time : 0;
		out[n].ip = rec->type == PD_REC_SAMPLE ? rec->u.sample.ip : 0;
		n++;
	}
	CU_ASSERT_EQUAL(ret, 0);
	pd_reader_close(r);
	close(fd);
	if (child > 0) {
		int status;

		CU_ASSERT_EQUAL(waitpid(child, &status, 0), child);
		CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	*qfull = 0;
	for (i = 0; i < seen.n && i < DIAG_RECORDER_KEPT; i++)
		if (seen.seen[i].code == PD_ORDER_QUEUE_FULL)
			(*qfull)++;
	*nr = n;
	return out;
}

/*
 * From a file the queue keeps where each record is and delivers it from
 * a map of the file; from a pipe it keeps copies.  Both must deliver the
 * same records in the same order, whatever the runs, the size of the
 * stream against the map's dropping unit, the byte order and the queue
 * limit (a small one flushes early).
 */
static void test_time_order_file_like_pipe(void)
{
	static const struct {
		int rounds, cpus, per_cpu;
	} shapes[] = {
		{ 100, 8, 40 },		/* many short runs, 1.3 MB */
		{ 60, 1, 2000 },	/* one run through 4.8 MB */
	};
	size_t si, qi;

	for (si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
		for (qi = 0; qi < 3; qi++) {
			bool be = qi == 2;
			size_t queue_max = qi == 1 ? 16 << 10 : 0;
			size_t len, nf, np, qf, qp, i, samples = 0, differ = 0, unordered = 0;
			uint8_t *buf = build_rounds(be, shapes[si].rounds, shapes[si].cpus,
						    shapes[si].per_cpu, &len);
			struct seen_rec *f = read_time_order(buf, len, false, queue_max, &nf, &qf);
			struct seen_rec *p = read_time_order(buf, len, true, queue_max, &np, &qp);
			uint64_t last = 0;

			CU_ASSERT_EQUAL(nf, np);
			CU_ASSERT_EQUAL(qf, qp);
			CU_ASSERT_EQUAL(qf, queue_max ? 1 : 0);
			for (i = 0; i < nf && i < np; i++) {
				if (f[i].type != p[i].type || f[i].offset != p[i].offset ||
				    f[i].index != p[i].index || f[i].time != p[i].time ||
				    f[i].ip != f[i].time * 16)
					differ++;
				if (f[i].type != PD_REC_SAMPLE)
					continue;
				samples++;
				/* in order unless the small limit flushed early */
				if (!queue_max && f[i].time < last)
					unordered++;
				last = f[i].time;
			}
			CU_ASSERT_EQUAL(differ, 0);
			CU_ASSERT_EQUAL(unordered, 0);
			CU_ASSERT_EQUAL(samples, (size_t)shapes[si].rounds *
					(size_t)shapes[si].cpus * (size_t)shapes[si].per_cpu);
			free(f);
			free(p);
			free(buf);
		}
	}
}

/*
 * A file-mode file with two attrs told apart by IDENTIFIER, a HOSTNAME
 * feature, and a trailer on a COMM record.
 */
static void build_file(struct bb *b, bool killed)
{
	size_t ids_off, attrs_off, data_off, data_end, feat_tab, rs;
	static const char host[64] = "testhost";

	bb_u64(b, 0x32454c4946524550ULL);	/* magic */
	bb_u64(b, 104);				/* header size */
	bb_u64(b, 112 + 16);			/* attr_size */
	b->len = 104;
	ids_off = b->len;
	bb_u64(b, 11);				/* ids of attr 0 */
	bb_u64(b, 22);				/* ids of attr 1 */
	attrs_off = b->len;
	bb_attr(b, ST_BASIC, PD_ATTR_SAMPLE_ID_ALL);
	bb_u64(b, ids_off);
	bb_u64(b, 8);
	bb_attr(b, ST_BASIC, PD_ATTR_SAMPLE_ID_ALL);
	bb_u64(b, ids_off + 8);
	bb_u64(b, 8);
	data_off = b->len;
	bb_sample(b, 11, 0xa, 7, 100);
	bb_sample(b, 22, 0xb, 7, 200);
	rs = bb_rec(b, PD_REC_COMM, 0);
	bb_u32(b, 7);
	bb_u32(b, 7);
	bb_bytes(b, "worker\0\0", 8);
	bb_u32(b, 7);		/* trailer: pid, tid */
	bb_u32(b, 7);
	bb_u64(b, 300);		/* time */
	bb_u64(b, 22);		/* identifier */
	bb_end_rec(b, rs);
	data_end = b->len;
	feat_tab = b->len;
	bb_u64(b, feat_tab + 16);	/* HOSTNAME section */
	bb_u64(b, 4 + 64);
	bb_u32(b, 64);
	bb_bytes(b, host, 64);
	/* patch the header */
	{
		size_t save = b->len;

		b->len = 24;
		bb_u64(b, attrs_off);
		bb_u64(b, 2 * (112 + 16));
		bb_u64(b, data_off);
		bb_u64(b, killed ? 0 : data_end - data_off);
		bb_u64(b, 0);
		bb_u64(b, 0);
		bb_u64(b, 1ULL << PD_FEAT_HOSTNAME);
		b->len = save;
	}
	if (killed)
		b->len = data_end;	/* perf record died: no features written */
}

static void check_file(bool be, bool via_pipe)
{
	struct bb *b = calloc(1, sizeof(*b));
	const struct pd_record *rec;
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	int fd, st, n = 0;

	b->be = be;
	build_file(b, false);
	r = open_bb(b, via_pipe, &seen, false, &fd, &st);
	CU_ASSERT_EQUAL_FATAL(st, 0);
	CU_ASSERT_EQUAL(pd_reader_header(r)->mode, PD_MODE_FILE);
	CU_ASSERT_EQUAL(pd_reader_header(r)->spooled, via_pipe);
	CU_ASSERT_EQUAL(pd_reader_nr_events(r), 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pd_reader_features(r)->hostname);
	CU_ASSERT_STRING_EQUAL(pd_reader_features(r)->hostname, "testhost");
	while (pd_reader_next(r, &rec) > 0) {
		switch (n) {
		case 0:
			CU_ASSERT_EQUAL(rec->event_index, 0);
			CU_ASSERT_EQUAL(rec->u.sample.ip, 0xa);
			break;
		case 1:
			CU_ASSERT_EQUAL(rec->event_index, 1);
			CU_ASSERT_EQUAL(rec->u.sample.ip, 0xb);
			break;
		case 2:
			CU_ASSERT_EQUAL(rec->type, PD_REC_COMM);
			CU_ASSERT_EQUAL(rec->event_index, 1);
			CU_ASSERT_TRUE(rec->has_trailer);
			CU_ASSERT_EQUAL(rec->sid.time, 300);
			CU_ASSERT_STRING_EQUAL(rec->u.comm.comm, "worker");
			break;
		}
		n++;
	}
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_EQUAL(pd_reader_diag_count(r, PD_SEV_ERROR), 0);
	CU_ASSERT_EQUAL(pd_reader_diag_count(r, PD_SEV_WARNING), 0);
	pd_reader_close(r);
	close(fd);
	free(b);
}

static void test_file_mode(void)
{
	check_file(false, false);
	check_file(true, false);
}

static void test_file_mode_spooled(void)
{
	check_file(false, true);
}

/* The section map of build_file()'s layout. */
static void test_section_map(void)
{
	struct bb *b = calloc(1, sizeof(*b));
	struct diag_recorder seen = { 0 };
	struct pd_section_info m[8];
	const struct pd_header *h;
	struct pd_reader *r;
	uint64_t table;
	int fd, st;

	build_file(b, false);
	r = open_bb(b, false, &seen, false, &fd, &st);
	CU_ASSERT_EQUAL_FATAL(st, 0);
	h = pd_reader_header(r);
	table = h->data.offset + h->data.size;
	CU_ASSERT_EQUAL(pd_reader_sections(r, NULL, 0), 7);
	CU_ASSERT_EQUAL_FATAL(pd_reader_sections(r, m, 8), 7);
	CU_ASSERT_EQUAL(m[0].kind, PD_SECT_ATTRS);
	CU_ASSERT_EQUAL(m[0].offset, 120);
	CU_ASSERT_EQUAL(m[0].size, 256);
	CU_ASSERT_EQUAL(m[0].field_offset, 24);
	CU_ASSERT_EQUAL(m[1].kind, PD_SECT_DATA);
	CU_ASSERT_EQUAL(m[1].offset, 376);
	CU_ASSERT_EQUAL(m[1].field_offset, 40);
	CU_ASSERT_EQUAL(m[2].kind, PD_SECT_EVENT_TYPES);
	CU_ASSERT_EQUAL(m[2].size, 0);
	CU_ASSERT_EQUAL(m[2].field_offset, 56);
	/* each attr's id pair ends its 128-byte slot */
	CU_ASSERT_EQUAL(m[3].kind, PD_SECT_ATTR_IDS);
	CU_ASSERT_EQUAL(m[3].index, 0);
	CU_ASSERT_EQUAL(m[3].offset, 104);
	CU_ASSERT_EQUAL(m[3].size, 8);
	CU_ASSERT_EQUAL(m[3].field_offset, 120 + 112);
	CU_ASSERT_EQUAL(m[4].index, 1);
	CU_ASSERT_EQUAL(m[4].offset, 112);
	CU_ASSERT_EQUAL(m[4].field_offset, 248 + 112);
	CU_ASSERT_EQUAL(m[5].kind, PD_SECT_FEATURE_TABLE);
	CU_ASSERT_EQUAL(m[5].offset, table);
	CU_ASSERT_EQUAL(m[5].size, 16);
	CU_ASSERT_EQUAL(m[6].kind, PD_SECT_FEATURE);
	CU_ASSERT_EQUAL(m[6].index, PD_FEAT_HOSTNAME);
	CU_ASSERT_EQUAL(m[6].offset, table + 16);
	CU_ASSERT_EQUAL(m[6].size, 68);
	CU_ASSERT_EQUAL(m[6].field_offset, table);
	/* a short array gets the first entries and the whole count */
	CU_ASSERT_EQUAL(pd_reader_sections(r, m, 2), 7);
	pd_reader_close(r);
	close(fd);
	free(b);
}

static void test_killed_recording(void)
{
	struct bb *b = calloc(1, sizeof(*b));
	const struct pd_record *rec;
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	int fd, st, n = 0, i;

	build_file(b, true);
	r = open_bb(b, false, &seen, false, &fd, &st);
	CU_ASSERT_EQUAL_FATAL(st, 0);
	i = diag_recorder_find(&seen, PD_DATA_SIZE_ZERO);
	CU_ASSERT_TRUE_FATAL(i >= 0);
	CU_ASSERT_EQUAL(seen.seen[i].offset, 48);
	while (pd_reader_next(r, &rec) > 0)
		n++;
	CU_ASSERT_EQUAL(n, 3);	/* records run to the end of the file */
	CU_ASSERT_EQUAL(pd_reader_diag_count(r, PD_SEV_ERROR), 0);
	pd_reader_close(r);
	close(fd);
	free(b);
}

/*
 * data.size 0 with a feature table after the records: the walk that finds
 * where the records end reads a simpleperf record's 32-bit size (here
 * 65544: 1 in the misc half, 8 in the size half) as the reader frames it.
 */
static void test_killed_recording_simpleperf_size(void)
{
	struct bb *b = calloc(1, sizeof(*b));
	static const char host[64] = "testhost";
	const struct pd_record *rec;
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	size_t data_off = 104 + 16 + 2 * 128, table;
	int fd, st, n = 0, i;

	build_file(b, false);
	/* after the 3 records of build_file(): the long record, then the features */
	b->len = data_off + 40 + 40 + 48;
	bb_u32(b, PD_REC_SP_START + 100);
	bb_u16(b, 1);
	bb_u16(b, 8);
	memset(b->buf + b->len, 0, 65536);
	b->len += 65536;
	table = b->len;
	bb_u64(b, table + 16);
	bb_u64(b, 4 + 64);
	bb_u32(b, 64);
	bb_bytes(b, host, 64);
	{
		size_t save = b->len;

		b->len = 48;
		bb_u64(b, 0);	/* data.size */
		b->len = save;
	}
	r = open_bb(b, false, &seen, false, &fd, &st);
	CU_ASSERT_EQUAL_FATAL(st, 0);
	i = diag_recorder_find(&seen, PD_DATA_SIZE_ZERO);
	CU_ASSERT_TRUE_FATAL(i >= 0);
	CU_ASSERT_EQUAL(seen.seen[i].offset, 48);
	CU_ASSERT_EQUAL(pd_reader_header(r)->data.size, table - data_off);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pd_reader_features(r)->hostname);
	CU_ASSERT_STRING_EQUAL(pd_reader_features(r)->hostname, "testhost");
	while (pd_reader_next(r, &rec) > 0) {
		if (n == 3) {
			CU_ASSERT_EQUAL(rec->type, PD_REC_SP_START + 100);
			CU_ASSERT_EQUAL(rec->size, 65544);
		}
		n++;
	}
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_EQUAL(pd_reader_diag_count(r, PD_SEV_ERROR), 0);
	pd_reader_close(r);
	close(fd);
	free(b);
}

static void test_record_crosses_data_end(void)
{
	struct bb *b = calloc(1, sizeof(*b));
	const struct pd_record *rec;
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	int fd, st, ret, n = 0, i;
	size_t third = 104 + 16 + 2 * 128 + 40 + 40;	/* header, ids, attrs, 2 samples */

	build_file(b, false);
	/* grow the COMM record's size by 8: it now runs into the feature table */
	bb_put_u16_at(b, third + 6, 48 + 8);
	r = open_bb(b, false, &seen, false, &fd, &st);
	CU_ASSERT_EQUAL_FATAL(st, 0);
	while ((ret = pd_reader_next(r, &rec)) > 0)
		n++;
	CU_ASSERT_EQUAL(ret, PD_STATUS_MALFORMED);
	CU_ASSERT_EQUAL(n, 2);
	i = diag_recorder_find(&seen, PD_REC_CROSSES_END);
	CU_ASSERT_TRUE_FATAL(i >= 0);
	CU_ASSERT_EQUAL(seen.seen[i].offset, third);
	pd_reader_close(r);
	close(fd);
	free(b);
}

/* DIR/NAME written with b's bytes. */
static void put_dir_file(const char *dir, const char *name, const struct bb *b)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, b->buf, b->len) == (ssize_t)b->len);
	close(fd);
}

/* A directory's data and its data.0 .. data.(nr - 1) removed, then itself. */
static void rm_dir_files(const char *dir, int nr)
{
	char path[256];
	int i;

	snprintf(path, sizeof(path), "%s/data", dir);
	unlink(path);
	for (i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), "%s/data.%d", dir, i);
		unlink(path);
	}
	rmdir(dir);
}

static void test_directory_mode(void)
{
	struct bb *b = calloc(1, sizeof(*b));
	char dir[] = "/tmp/pd-dir-XXXXXX";
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	const struct pd_record *rec;
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	int n = 0, in_streams = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	build_file(b, false);
	put_dir_file(dir, "data", b);
	b->len = 0;
	bb_sample(b, 11, 0xc, 8, 150);
	bb_sample(b, 22, 0xd, 8, 250);
	put_dir_file(dir, "data.0", b);
	put_dir_file(dir, "data.1", b);

	o.diag_fn = diag_recorder_fn;
	o.diag_arg = &seen;
	CU_ASSERT_EQUAL_FATAL(pd_reader_open(dir, &o, &r), 0);
	CU_ASSERT_EQUAL(pd_reader_header(r)->mode, PD_MODE_DIR);
	CU_ASSERT_EQUAL(pd_reader_header(r)->nr_streams, 3);
	while (pd_reader_next(r, &rec) > 0) {
		if (n >= 3) {
			CU_ASSERT_EQUAL(rec->type, PD_REC_SAMPLE);
			CU_ASSERT_EQUAL(rec->event_index, n % 2 ? 0 : 1);
			in_streams++;
		}
		n++;
	}
	CU_ASSERT_EQUAL(n, 7);
	CU_ASSERT_EQUAL(in_streams, 4);
	CU_ASSERT_EQUAL(pd_reader_diag_count(r, PD_SEV_ERROR), 0);
	pd_reader_close(r);
	rm_dir_files(dir, 2);
	free(b);
}

/*
 * Time order of a directory: each data.N in time order, their times
 * interleaved, more records than the queue may hold.  Merged by time,
 * every record comes out in order, none reported out of order, and the
 * queue never holds more than a record per stream.
 */
static void test_directory_time_order(void)
{
	struct bb *b = calloc(1, sizeof(*b));
	char dir[] = "/tmp/pd-dir-XXXXXX", name[32];
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	const struct pd_record *rec;
	struct diag_recorder seen = { 0 };
	struct pd_reader *r;
	uint64_t last = 0, t;
	int n = 0, s, i, in_order = 1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	build_file(b, false);
	put_dir_file(dir, "data", b);
	for (s = 0; s < 2; s++) {
		b->len = 0;
		/* data.0: 1000, 1020, ...; data.1: 1010, 1030, ... */
		for (i = 0; i < 200; i++)
			bb_sample(b, 11, 0xc, 8, 1000 + 20 * (uint64_t)i + 10 * (uint64_t)s);
		snprintf(name, sizeof(name), "data.%d", s);
		put_dir_file(dir, name, b);
	}

	o.diag_fn = diag_recorder_fn;
	o.diag_arg = &seen;
	o.time_order = true;
	o.order_queue_max = 256;	/* a few records: read stream by stream, 196 came out of order */
	CU_ASSERT_EQUAL_FATAL(pd_reader_open(dir, &o, &r), 0);
	while (pd_reader_next(r, &rec) > 0) {
		if (rec->type != PD_REC_SAMPLE)
			continue;
		t = rec->u.sample.time;
		if (t < last)
			in_order = 0;
		last = t;
		n++;
	}
	CU_ASSERT_EQUAL(n, 2 + 400);	/* data's two (times 100, 200), then the streams' */
	CU_ASSERT_TRUE(in_order);
	CU_ASSERT_EQUAL(last, 1000 + 20 * 199 + 10);
	CU_ASSERT_EQUAL(diag_recorder_find(&seen, PD_OUT_OF_ORDER), -1);
	CU_ASSERT_EQUAL(diag_recorder_find(&seen, PD_ORDER_QUEUE_FULL), -1);
	CU_ASSERT_EQUAL(pd_reader_diag_count(r, PD_SEV_ERROR), 0);
	pd_reader_close(r);
	rm_dir_files(dir, 2);
	free(b);
}

/*
 * opts.sample_fixed_only: a sample's slots before READ, with the values
 * the full decode gives them and the rest empty, unchecked; a sample whose
 * slots do not fit is decoded in full, which reports why.  Two attrs
 * with ID but no IDENTIFIER: the id that finds the event is at slot 4.
 */
#define ST_FIXED (PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ADDR |	\
		  PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_PERIOD |	\
		  PD_SAMPLE_CALLCHAIN)

static size_t bb_fixed_sample(struct bb *b, uint64_t id, uint64_t chain_nr, uint64_t chain_have)
{
	size_t r = bb_rec(b, PD_REC_SAMPLE, 2 /* USER */), at = r;
	uint64_t i;

	bb_u64(b, 0x401000);		/* ip */
	bb_u32(b, 100);			/* pid */
	bb_u32(b, 101);			/* tid */
	bb_u64(b, 5000);		/* time */
	bb_u64(b, 0xdead0000);		/* addr */
	bb_u64(b, id);
	bb_u64(b, id + 100);		/* stream_id */
	bb_u32(b, 3);			/* cpu */
	bb_u32(b, 7);			/* cpu_res */
	bb_u64(b, 1234);		/* period */
	bb_u64(b, chain_nr);
	for (i = 0; i < chain_have; i++)
		bb_u64(b, 0x402000 + i);
	bb_end_rec(b, r);
	return at;
}

static void check_fixed_only(bool be)
{
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	struct bb *b = calloc(1, sizeof(*b));
	struct diag_recorder seen = { 0 };
	const struct pd_record *rec;
	const struct pd_sample *smp;
	struct pd_reader *r;
	size_t r1, cut_at, i, n = 0;
	int fd, d;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	b->be = be;
	bb_pipe_header(b);
	for (i = 0; i < 2; i++) {
		r1 = bb_rec(b, PD_REC_HEADER_ATTR, 0);
		bb_attr(b, ST_FIXED, PD_ATTR_SAMPLE_ID_ALL);
		bb_u64(b, 31 + i);
		bb_end_rec(b, r1);
	}
	bb_fixed_sample(b, 32, 2, 2);
	/* the callchain claims 5 ips and has 1: not looked at */
	bb_fixed_sample(b, 31, 5, 1);
	/* the period's slot cut: the full decode reports it */
	cut_at = bb_fixed_sample(b, 31, 0, 0);
	b->len -= 16;
	bb_end_rec(b, cut_at);

	fd = write_tmp(b);
	o.diag_fn = diag_recorder_fn;
	o.diag_arg = &seen;
	o.sample_fixed_only = true;
	CU_ASSERT_EQUAL_FATAL(pd_reader_open_fd(fd, "test", &o, &r), 0);
	while (pd_reader_next(r, &rec) > 0) {
		if (rec->type != PD_REC_SAMPLE)
			continue;
		smp = &rec->u.sample;
		if (n == 2) {
			CU_ASSERT_FALSE(rec->decoded);
			CU_ASSERT_FALSE(rec->partial);
			n++;
			continue;
		}
		CU_ASSERT_TRUE(rec->decoded);
		CU_ASSERT_TRUE(rec->partial);
		CU_ASSERT_EQUAL(rec->event_index, n == 0 ? 1 : 0);
		CU_ASSERT_EQUAL(smp->sample_type, ST_FIXED);
		CU_ASSERT_EQUAL(smp->identifier, 0);
		CU_ASSERT_EQUAL(smp->ip, 0x401000);
		CU_ASSERT_EQUAL(smp->pid, 100);
		CU_ASSERT_EQUAL(smp->tid, 101);
		CU_ASSERT_EQUAL(smp->time, 5000);
		CU_ASSERT_EQUAL(smp->addr, 0xdead0000);
		CU_ASSERT_EQUAL(smp->id, n == 0 ? 32 : 31);
		CU_ASSERT_EQUAL(smp->stream_id, smp->id + 100);
		CU_ASSERT_EQUAL(smp->cpu, 3);
		CU_ASSERT_EQUAL(smp->cpu_res, 7);
		CU_ASSERT_EQUAL(smp->period, 1234);
		CU_ASSERT_EQUAL(smp->callchain_nr, 0);
		CU_ASSERT_PTR_NULL(smp->callchain);
		CU_ASSERT_EQUAL(rec->sid.present, ST_FIXED & (PD_SAMPLE_TID | PD_SAMPLE_TIME |
				PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU));
		CU_ASSERT_EQUAL(rec->sid.pid, 100);
		CU_ASSERT_EQUAL(rec->sid.tid, 101);
		CU_ASSERT_EQUAL(rec->sid.time, 5000);
		CU_ASSERT_EQUAL(rec->sid.id, smp->id);
		CU_ASSERT_EQUAL(rec->sid.stream_id, smp->id + 100);
		CU_ASSERT_EQUAL(rec->sid.cpu, 3);
		CU_ASSERT_EQUAL(rec->sid.cpu_res, 7);
		n++;
	}
	CU_ASSERT_EQUAL(n, 3);
	/*
	 * The cut sample's one diagnostic, from the full decode, at the
	 * period's slot; big-endian input is noted (PD009).
	 */
	CU_ASSERT_EQUAL(seen.n, be ? 2 : 1);
	d = diag_recorder_find(&seen, PD_SAMPLE_TRUNCATED);
	CU_ASSERT_FATAL(d >= 0);
	CU_ASSERT_EQUAL(seen.seen[d].offset, cut_at + 8 + 8 * 7);
	pd_reader_close(r);
	close(fd);
	free(b);
}

static void test_fixed_only(void)
{
	check_fixed_only(false);
	check_fixed_only(true);
}

/*
 * pd_reader_sample_fits_attr(): true under the sample's own layout, false
 * under one a field longer or shorter, and the sample's decoded arrays left
 * as they were (the reader's own arena is not the one it decodes in).
 */
static void check_sample_fits(bool be)
{
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	struct bb *b = calloc(1, sizeof(*b));
	const struct pd_record *rec;
	const uint64_t *chain;
	struct pd_attr alt;
	struct pd_reader *r;
	size_t r1, n = 0;
	int fd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	b->be = be;
	bb_pipe_header(b);
	r1 = bb_rec(b, PD_REC_HEADER_ATTR, 0);
	bb_attr(b, ST_FIXED, PD_ATTR_SAMPLE_ID_ALL);
	bb_u64(b, 31);
	bb_end_rec(b, r1);
	bb_fixed_sample(b, 31, 2, 2);
	bb_fixed_sample(b, 31, 3, 3);

	fd = write_tmp(b);
	CU_ASSERT_EQUAL_FATAL(pd_reader_open_fd(fd, "test", &o, &r), 0);
	while (pd_reader_next(r, &rec) > 0) {
		if (rec->type != PD_REC_SAMPLE)
			continue;
		CU_ASSERT_TRUE_FATAL(rec->decoded);
		chain = rec->u.sample.callchain;
		CU_ASSERT_PTR_NOT_NULL_FATAL(chain);
		CU_ASSERT_TRUE(pd_reader_sample_fits_attr(r, rec, &rec->event->attr));
		CU_ASSERT_TRUE(pd_sample_fits_attr(rec, &rec->event->attr));
		alt = rec->event->attr;
		alt.sample_type &= ~PD_SAMPLE_ADDR;
		CU_ASSERT_FALSE(pd_reader_sample_fits_attr(r, rec, &alt));
		CU_ASSERT_FALSE(pd_sample_fits_attr(rec, &alt));
		alt.sample_type = rec->event->attr.sample_type | PD_SAMPLE_WEIGHT;
		CU_ASSERT_FALSE(pd_reader_sample_fits_attr(r, rec, &alt));
		CU_ASSERT_PTR_EQUAL(rec->u.sample.callchain, chain);
		CU_ASSERT_EQUAL(rec->u.sample.callchain_nr, n + 2);
		CU_ASSERT_EQUAL(chain[0], 0x402000);
		CU_ASSERT_EQUAL(chain[n + 1], 0x402000 + n + 1);
		CU_ASSERT_EQUAL(rec->u.sample.period, 1234);
		n++;
	}
	CU_ASSERT_EQUAL(n, 2);
	pd_reader_close(r);
	close(fd);
	free(b);
}

static void test_sample_fits(void)
{
	check_sample_fits(false);
	check_sample_fits(true);
}

static void test_diag_table(void)
{
	unsigned int i;
	enum pd_code c;

	CU_ASSERT_STRING_EQUAL(pd_code_id(PD_REC_SIZE_TOO_SMALL), "PD301");
	CU_ASSERT_STRING_EQUAL(pd_code_id(PD_NOT_PERF), "PD001");
	CU_ASSERT_STRING_EQUAL(pd_code_name(PD_REC_ZERO_SIZE), "REC_ZERO_SIZE");
	CU_ASSERT_EQUAL(pd_code_severity(PD_DATA_SIZE_ZERO), PD_SEV_WARNING);
	/* every code has an id, a name and a text */
	for (i = 0; (c = pd_code_at(i)) != PD_OK; i++) {
		CU_ASSERT_NOT_EQUAL(strcmp(pd_code_id(c), "PD???"), 0);
		CU_ASSERT_TRUE(strlen(pd_code_text(c)) > 0);
	}
	CU_ASSERT_TRUE(i > 80);
}

/* ---- the bounds-checked cursor of lib/internal.h ---- */

static void test_cursor(void)
{
	static const uint8_t bytes[] = {
		/* u16 0x0102 LE */	0x02, 0x01,
		/* u32 0x03040506 */	0x06, 0x05, 0x04, 0x03,
		/* u64 */		0x0f, 0x0e, 0x0d, 0x0c, 0x0b, 0x0a, 0x09, 0x08,
		/* 3 spare bytes */	0xaa, 0xbb, 0xcc,
	};
	struct pd_cur c, sub;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;
	const uint8_t *p;

	pd_cur_init(&c, bytes, sizeof(bytes), 0x1000, false);
	CU_ASSERT_TRUE(pd_cur_u16(&c, &v16));
	CU_ASSERT_EQUAL(v16, 0x0102);
	CU_ASSERT_TRUE(pd_cur_u32(&c, &v32));
	CU_ASSERT_EQUAL(v32, 0x03040506);
	CU_ASSERT_EQUAL(pd_cur_off(&c), 0x1006);
	CU_ASSERT_TRUE(pd_cur_u64(&c, &v64));
	CU_ASSERT_EQUAL(v64, 0x08090a0b0c0d0e0fULL);
	/* 3 bytes left: a u32 does not fit and the cursor does not move */
	CU_ASSERT_FALSE(pd_cur_u32(&c, &v32));
	CU_ASSERT_EQUAL(pd_cur_left(&c), 3);
	CU_ASSERT_FALSE(pd_cur_bytes(&c, 4, &p));
	CU_ASSERT_FALSE(pd_cur_skip(&c, SIZE_MAX));	/* no overflow in the check */
	CU_ASSERT_TRUE(pd_cur_sub(&c, 2, &sub));
	CU_ASSERT_EQUAL(sub.base, 0x100e);
	CU_ASSERT_EQUAL(sub.len, 2);
	CU_ASSERT_TRUE(pd_cur_u8(&c, (uint8_t *)&v16));
	CU_ASSERT_EQUAL(pd_cur_left(&c), 0);

	/* the same bytes read as big-endian */
	pd_cur_init(&c, bytes, sizeof(bytes), 0, true);
	CU_ASSERT_TRUE(pd_cur_u16(&c, &v16));
	CU_ASSERT_EQUAL(v16, 0x0201);
	CU_ASSERT_TRUE(pd_cur_u32(&c, &v32));
	CU_ASSERT_EQUAL(v32, 0x06050403);
	CU_ASSERT_TRUE(pd_cur_u64(&c, &v64));
	CU_ASSERT_EQUAL(v64, 0x0f0e0d0c0b0a0908ULL);
}

static void test_bitrev(void)
{
	/* bit 0 of each byte becomes bit 7 (big-endian bit-field allocation) */
	CU_ASSERT_EQUAL(pd_bitrev_bytes(0x0000000000000001ULL), 0x0000000000000080ULL);
	CU_ASSERT_EQUAL(pd_bitrev_bytes(0x0100000000000000ULL), 0x8000000000000000ULL);
	CU_ASSERT_EQUAL(pd_bitrev_bytes(0x00000000000000f0ULL), 0x000000000000000fULL);
	CU_ASSERT_EQUAL(pd_bitrev_bytes(pd_bitrev_bytes(0x123456789abcdef0ULL)),
			0x123456789abcdef0ULL);
}

int pd_test_register_reader(void)
{
	CU_pSuite c = CU_add_suite("cursor", NULL, NULL);
	CU_pSuite s = CU_add_suite("reader", NULL, NULL);

	if (!c || !s)
		return CU_get_error();
	if (!CU_add_test(c, "typed loads, bounds, sub-windows", test_cursor) ||
	    !CU_add_test(c, "bit-field byte reversal", test_bitrev))
		return CU_get_error();
	if (!CU_add_test(s, "pipe mode, little-endian, real pipe", test_pipe_le) ||
	    !CU_add_test(s, "pipe mode, big-endian, real pipe", test_pipe_be) ||
	    !CU_add_test(s, "pipe stream saved as a file", test_pipe_saved_as_file) ||
	    !CU_add_test(s, "bad magic", test_bad_magic) ||
	    !CU_add_test(s, "legacy PERFFILE", test_legacy_perffile) ||
	    !CU_add_test(s, "bad header size", test_bad_header_size) ||
	    !CU_add_test(s, "truncated header", test_truncated_header) ||
	    !CU_add_test(s, "empty input", test_empty_input) ||
	    !CU_add_test(s, "zero-size record", test_zero_size_record) ||
	    !CU_add_test(s, "stream truncated mid-record", test_truncated_stream) ||
	    !CU_add_test(s, "compressed records", test_compressed) ||
	    !CU_add_test(s, "corrupt compressed record", test_compressed_corrupt) ||
	    !CU_add_test(s, "time order by rounds", test_time_order) ||
	    !CU_add_test(s, "time order from a file as from a pipe",
			 test_time_order_file_like_pipe) ||
	    !CU_add_test(s, "file mode, two attrs, both byte orders", test_file_mode) ||
	    !CU_add_test(s, "file mode from a non-seekable input", test_file_mode_spooled) ||
	    !CU_add_test(s, "section map of a file", test_section_map) ||
	    !CU_add_test(s, "killed recording (data.size 0)", test_killed_recording) ||
	    !CU_add_test(s, "data.size 0 before a simpleperf record of 32-bit size",
			 test_killed_recording_simpleperf_size) ||
	    !CU_add_test(s, "record crossing the data end", test_record_crosses_data_end) ||
	    !CU_add_test(s, "directory mode", test_directory_mode) ||
	    !CU_add_test(s, "directory mode in time order", test_directory_time_order) ||
	    !CU_add_test(s, "sample_fixed_only, both byte orders", test_fixed_only) ||
	    !CU_add_test(s, "sample layout fits, in the reader's own arena", test_sample_fits) ||
	    !CU_add_test(s, "diagnostic table", test_diag_table))
		return CU_get_error();
	return CUE_SUCCESS;
}
