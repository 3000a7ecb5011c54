// SPDX-License-Identifier: MIT
/*
 * test_writer.c - the perf.data writer (file and pipe mode) and the
 * conversion of records and features of the opposite byte order.
 *
 * Files are written with the writer and read back with the reader; the
 * byte-order conversion is checked against the swapped twins of the
 * corpus' pipe streams (swap_twin.h): every record of a twin, converted
 * to host order, must equal the record of the original stream.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "perfdata/perfdata.h"
#include "perfdata/pd_writer.h"
#include "swap.h"
#include "swap_twin.h"
#include "test_suites.h"

static char tmpdir[] = "/tmp/pd-writer-test.XXXXXX";

static int suite_init(void)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int suite_clean(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The far end of a pipe, read with pauses so that the writer blocks on it. */
struct pipe_drain {
	int fd;
	uint8_t *got;
	size_t cap, n;
};

static void *drain_pipe(void *arg)
{
	struct pipe_drain *d = arg;

	while (d->n < d->cap) {
		size_t want = d->cap - d->n < 4096 ? d->cap - d->n : 4096;
		ssize_t n = read(d->fd, d->got + d->n, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		/*
		 * A pause now and then leaves the writer blocked on a full
		 * pipe over several alarms: the first ends its write short,
		 * the next interrupts the write after it before any byte.
		 */
		if ((d->n + (size_t)n) / 65536 != d->n / 65536)
			usleep(2000);
		d->n += (size_t)n;
	}
	return NULL;
}

static volatile sig_atomic_t alarms;

static void count_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/*
 * pd_write_all(), the one write loop of the toolkit: a write blocked on a
 * full pipe and interrupted by a signal without SA_RESTART returns early
 * (EINTR, or a short count); every byte must still arrive, in order.  A
 * pipe without a reader and a bad descriptor fail with their errno.
 */
static void test_write_all(void)
{
	const size_t len = (size_t)4 << 20;
	uint8_t *buf = malloc(len);
	struct pipe_drain d = { .cap = len };
	struct sigaction sa = { .sa_handler = count_alarm }, old_alrm, old_pipe;
	struct itimerval every = { { 0, 200 }, { 0, 200 } }, stop = { { 0, 0 }, { 0, 0 } };
	sigset_t alrm, prev;
	pthread_t t;
	int p[2];
	size_t i;

	d.got = malloc(len);
	CU_ASSERT_FATAL(buf && d.got && pipe(p) == 0);
	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 131 + (i >> 12));
	d.fd = p[0];
	/* the alarm is for the writing thread: the drain starts with it blocked */
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alrm, &prev);
	CU_ASSERT_FATAL(pthread_create(&t, NULL, drain_pipe, &d) == 0);
	pthread_sigmask(SIG_SETMASK, &prev, NULL);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old_alrm);
	alarms = 0;
	setitimer(ITIMER_REAL, &every, NULL);
	CU_ASSERT(pd_write_all(p[1], buf, len) == 0);
	setitimer(ITIMER_REAL, &stop, NULL);
	sigaction(SIGALRM, &old_alrm, NULL);
	close(p[1]);
	pthread_join(t, NULL);
	close(p[0]);
	CU_ASSERT(alarms > 0);
	CU_ASSERT(d.n == len);
	CU_ASSERT(d.n == len && memcmp(d.got, buf, len) == 0);

	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old_pipe);
	CU_ASSERT_FATAL(pipe(p) == 0);
	close(p[0]);
	errno = 0;
	CU_ASSERT(pd_write_all(p[1], buf, 16) == -1 && errno == EPIPE);
	close(p[1]);
	sigaction(SIGPIPE, &old_pipe, NULL);
	errno = 0;
	CU_ASSERT(pd_write_all(-1, buf, 1) == -1 && errno == EBADF);
	CU_ASSERT(pd_write_all(-1, buf, 0) == 0);
	free(buf);
	free(d.got);
}

static void tpath(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", tmpdir, name);
}

/* The descriptor the writer of the latest wopen() writes to (-1: none). */
static int out_fd = -1;

/*
 * The writer writes to a descriptor its caller owns: create `path` and
 * open a writer on it.  The previous test file is closed here.
 */
static int wopen(const char *path, const struct pd_writer_opts *o, struct pd_writer **w)
{
	if (out_fd >= 0)
		close(out_fd);
	out_fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out_fd < 0)
		return PD_STATUS_IO;
	return pd_writer_open_fd(out_fd, path, o, w);
}

/* A COMM record with a sample_id trailer of TID|TIME|ID, host order. */
static size_t make_comm(uint8_t *p, uint32_t pid, uint64_t time, uint64_t id)
{
	uint32_t type = PD_REC_COMM;
	uint16_t misc = 0, size = 8 + 8 + 16 + 24;

	memset(p, 0, size);
	memcpy(p, &type, 4);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &size, 2);
	memcpy(p + 8, &pid, 4);
	memcpy(p + 12, &pid, 4);
	memcpy(p + 16, "workload", 8);
	memcpy(p + 32, &pid, 4);
	memcpy(p + 36, &pid, 4);
	memcpy(p + 40, &time, 8);
	memcpy(p + 48, &id, 8);
	return size;
}

static size_t make_sample(uint8_t *p, uint64_t ip, uint32_t pid, uint64_t time, uint64_t id)
{
	uint32_t type = PD_REC_SAMPLE;
	uint16_t misc = 2, size = 8 + 32;

	memcpy(p, &type, 4);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &size, 2);
	memcpy(p + 8, &ip, 8);
	memcpy(p + 16, &pid, 4);
	memcpy(p + 20, &pid, 4);
	memcpy(p + 24, &time, 8);
	memcpy(p + 32, &id, 8);
	return size;
}

static void test_attr(struct pd_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = 1;
	a->size = 128;
	a->sample_period = 999;
	a->sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID;
	a->flags = PD_ATTR_FREQ | PD_ATTR_SAMPLE_ID_ALL | PD_ATTR_COMM;
}

/* perf_header_string of "host" */
static size_t make_string(uint8_t *p, const char *s)
{
	uint32_t len = 64;

	memset(p, 0, 68);
	memcpy(p, &len, 4);
	memcpy(p + 4, s, strlen(s));
	return 68;
}

static void write_sample_file(const char *path, enum pd_writer_mode mode, bool late_event)
{
	struct pd_writer_opts o = PD_WRITER_OPTS_INIT;
	struct pd_writer *w;
	struct pd_attr a;
	uint64_t ids[2] = { 11, 12 }, ids2[1] = { 21 };
	uint8_t rec[128], str[68];
	size_t n;

	o.mode = mode;
	o.buffer_size = 1;	/* the minimum: exercises flushing */
	CU_ASSERT_FATAL(wopen(path, &o, &w) == 0);
	test_attr(&a);
	CU_ASSERT(pd_writer_add_event(w, &a, 128, ids, 2) == 0);
	if (!late_event) {
		a.config = 1;
		CU_ASSERT(pd_writer_add_event(w, &a, 128, ids2, 1) == 0);
	}
	make_string(str, "host");
	CU_ASSERT(pd_writer_set_feature(w, PD_FEAT_HOSTNAME, str, sizeof(str)) == 0);
	n = make_comm(rec, 42, 100, 11);
	CU_ASSERT(pd_writer_write_record(w, rec, n) == 0);
	if (late_event) {
		a.config = 1;
		CU_ASSERT(pd_writer_add_event(w, &a, 128, ids2, 1) == 0);
	}
	n = make_sample(rec, 0x1000, 42, 200, 21);
	CU_ASSERT(pd_writer_write_record(w, rec, n) == 0);
	/* a record whose size disagrees with its length is refused */
	CU_ASSERT(pd_writer_write_record(w, rec, n - 8) == PD_STATUS_MALFORMED);
	CU_ASSERT(pd_writer_commit(w) == 0);
}

static void check_sample_file(const char *path, enum pd_mode mode)
{
	struct pd_reader_opts ro = PD_READER_OPTS_INIT;
	const struct pd_record *rec;
	const struct pd_features *f;
	struct pd_reader *r;
	int ret, n = 0;

	CU_ASSERT_FATAL(pd_reader_open(path, &ro, &r) == 0);
	CU_ASSERT(pd_reader_header(r)->mode == mode);
	while ((ret = pd_reader_next(r, &rec)) > 0) {
		if (rec->type == PD_REC_COMM) {
			CU_ASSERT(rec->decoded);
			CU_ASSERT(rec->u.comm.pid == 42);
			CU_ASSERT_STRING_EQUAL(rec->u.comm.comm, "workload");
			n++;
		} else if (rec->type == PD_REC_SAMPLE) {
			CU_ASSERT(rec->decoded);
			CU_ASSERT(rec->event_index == 1);
			CU_ASSERT(rec->u.sample.ip == 0x1000);
			n++;
		}
	}
	CU_ASSERT(ret == 0);
	CU_ASSERT(n == 2);
	CU_ASSERT(pd_reader_nr_events(r) == 2);
	if (pd_reader_nr_events(r) == 2) {
		CU_ASSERT(pd_reader_event(r, 0)->nr_ids == 2);
		CU_ASSERT(pd_reader_event(r, 1)->ids[0] == 21);
		CU_ASSERT(pd_reader_event(r, 1)->attr.config == 1);
		CU_ASSERT(pd_reader_event(r, 0)->attr_size_on_disk == 128);
	}
	f = pd_reader_features(r);
	CU_ASSERT(pd_features_has(f, PD_FEAT_HOSTNAME));
	CU_ASSERT(f->hostname && !strcmp(f->hostname, "host"));
	CU_ASSERT(pd_reader_diag_count(r, PD_SEV_ERROR) == 0);
	CU_ASSERT(pd_reader_diag_count(r, PD_SEV_WARNING) == 0);
	pd_reader_close(r);
}

static void test_file_mode(void)
{
	char path[256];

	tpath(path, sizeof(path), "file.data");
	write_sample_file(path, PD_WRITER_FILE, false);
	check_sample_file(path, PD_MODE_FILE);
	/* an event after the first record moves the attrs behind the features */
	tpath(path, sizeof(path), "late.data");
	write_sample_file(path, PD_WRITER_FILE, true);
	check_sample_file(path, PD_MODE_FILE);
}

static void test_pipe_mode(void)
{
	char path[256];

	tpath(path, sizeof(path), "pipe.data");
	write_sample_file(path, PD_WRITER_PIPE, false);
	check_sample_file(path, PD_MODE_PIPE);
}

static void test_abort_and_targets(void)
{
	struct pd_writer_opts o = PD_WRITER_OPTS_INIT;
	struct pd_writer *w;
	char path[256];
	struct stat st;
	int fds[2], dirfd;

	/* abort: the file is left empty (its owner removes it), still open */
	tpath(path, sizeof(path), "aborted.data");
	CU_ASSERT_FATAL(wopen(path, &o, &w) == 0);
	CU_ASSERT(pd_writer_write_bytes(w, "12345678", 8) == 0);
	pd_writer_abort(w);
	CU_ASSERT(fstat(out_fd, &st) == 0 && st.st_size == 0);
	CU_ASSERT(fcntl(out_fd, F_GETFD) >= 0);

	/* file mode needs a seekable output */
	CU_ASSERT_FATAL(pipe(fds) == 0);
	CU_ASSERT(pd_writer_open_fd(fds[1], "pipe", &o, &w) == PD_STATUS_IO);
	CU_ASSERT(w == NULL);
	dirfd = open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CU_ASSERT_FATAL(dirfd >= 0);
	CU_ASSERT(pd_writer_open_fd(dirfd, tmpdir, &o, &w) == PD_STATUS_IO);
	close(dirfd);
	/* pipe mode is happy with a pipe */
	o.mode = PD_WRITER_PIPE;
	CU_ASSERT_FATAL(pd_writer_open_fd(fds[1], "pipe", &o, &w) == 0);
	CU_ASSERT(pd_writer_commit(w) == 0);
	close(fds[0]);
	close(fds[1]);
}

/*
 * Large copies from another file run on the writer's second thread: a
 * record written after one, a copy right before commit, and an abort with
 * a copy in flight must all keep the output in order and complete.
 */
#define COPY_RECORDS	200000	/* 8 MB of 40-byte samples */

static void test_copy_ranges(void)
{
	struct pd_writer_opts o = PD_WRITER_OPTS_INIT;
	struct pd_reader_opts ro = PD_READER_OPTS_INIT;
	const struct pd_record *rec;
	struct pd_writer *w;
	struct stat st;
	struct pd_reader *r;
	struct pd_attr a;
	uint64_t ids[1] = { 11 }, half, i, n = 0, bad = 0, total;
	char src[256], path[256];
	uint8_t *buf, one[64];
	size_t len;
	int fd, ret;

	buf = malloc((size_t)COPY_RECORDS * 40);
	CU_ASSERT_FATAL(buf != NULL);
	for (i = 0; i < COPY_RECORDS; i++)
		make_sample(buf + i * 40, 0x1000 + i, 42, 1000 + i, 11);
	tpath(src, sizeof(src), "copy-src.bin");
	fd = open(src, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, buf, (size_t)COPY_RECORDS * 40) == (ssize_t)COPY_RECORDS * 40);
	free(buf);

	tpath(path, sizeof(path), "copied.data");
	CU_ASSERT_FATAL(wopen(path, &o, &w) == 0);
	test_attr(&a);
	CU_ASSERT(pd_writer_add_event(w, &a, 128, ids, 1) == 0);
	/* the first half, one record in between, the second half, commit */
	half = COPY_RECORDS / 2 * 40;
	CU_ASSERT(pd_writer_copy_file_range(w, fd, 0, half) == 0);
	len = make_sample(one, 0xdead, 42, 5, 11);
	CU_ASSERT(pd_writer_write_record(w, one, len) == 0);
	CU_ASSERT(pd_writer_copy_file_range(w, fd, half, (uint64_t)COPY_RECORDS * 40 - half) == 0);
	total = (uint64_t)COPY_RECORDS * 40 + len;
	CU_ASSERT(pd_writer_data_size(w) == total);
	CU_ASSERT(pd_writer_commit(w) == 0);

	CU_ASSERT_FATAL(pd_reader_open(path, &ro, &r) == 0);
	while ((ret = pd_reader_next(r, &rec)) > 0) {
		uint64_t want;

		if (rec->type != PD_REC_SAMPLE)
			continue;
		/* the single record sits between the halves */
		if (n == COPY_RECORDS / 2)
			want = 0xdead;
		else
			want = 0x1000 + (n < COPY_RECORDS / 2 ? n : n - 1);
		bad += !rec->decoded || rec->u.sample.ip != want;
		n++;
	}
	CU_ASSERT(ret == 0);
	CU_ASSERT(n == COPY_RECORDS + 1);
	CU_ASSERT(bad == 0);
	CU_ASSERT(pd_reader_diag_count(r, PD_SEV_ERROR) == 0);
	CU_ASSERT(pd_reader_header(r)->data.size == total);
	pd_reader_close(r);

	/* abort with a copy in flight: the copy ends before the file is emptied */
	tpath(path, sizeof(path), "copy-aborted.data");
	CU_ASSERT_FATAL(wopen(path, &o, &w) == 0);
	CU_ASSERT(pd_writer_add_event(w, &a, 128, ids, 1) == 0);
	CU_ASSERT(pd_writer_copy_file_range(w, fd, 0, (uint64_t)COPY_RECORDS * 40) == 0);
	pd_writer_abort(w);
	CU_ASSERT(fstat(out_fd, &st) == 0 && st.st_size == 0);
	close(fd);
	unlink(src);
}

static void test_attr_shrink(void)
{
	struct pd_writer_opts o = PD_WRITER_OPTS_INIT;
	struct pd_reader_opts ro = PD_READER_OPTS_INIT;
	struct pd_writer *w;
	struct pd_reader *r;
	struct pd_attr a;
	uint64_t id = 5;
	char path[256];

	/* a 136-byte attr with config3 zero is written as 128 bytes */
	tpath(path, sizeof(path), "shrink.data");
	CU_ASSERT_FATAL(wopen(path, &o, &w) == 0);
	test_attr(&a);
	a.size = 136;
	CU_ASSERT(pd_writer_add_event(w, &a, 136, &id, 1) == 0);
	CU_ASSERT(pd_writer_commit(w) == 0);
	CU_ASSERT_FATAL(pd_reader_open(path, &ro, &r) == 0);
	CU_ASSERT(pd_reader_header(r)->attr_size == 128 + 16);
	pd_reader_close(r);

	/* with config3 set the size stays */
	CU_ASSERT_FATAL(wopen(path, &o, &w) == 0);
	a.config3 = 7;
	CU_ASSERT(pd_writer_add_event(w, &a, 136, &id, 1) == 0);
	CU_ASSERT(pd_writer_commit(w) == 0);
	CU_ASSERT_FATAL(pd_reader_open(path, &ro, &r) == 0);
	CU_ASSERT(pd_reader_header(r)->attr_size == 136 + 16);
	CU_ASSERT(pd_reader_event(r, 0)->attr.config3 == 7);
	pd_reader_close(r);
}

static void test_branch_flags(void)
{
	uint64_t v = 1 | (1ULL << 3) | (0x1234ULL << 4) | (5ULL << 20) | (2ULL << 24) |
		     (9ULL << 26) | (3ULL << 30);

	CU_ASSERT(pd_br_flags_be_to_le(pd_br_flags_le_to_be(v)) == v);
	/* mispred is the most significant bit in the big-endian allocation */
	CU_ASSERT(pd_br_flags_le_to_be(1) == 1ULL << 63);
	CU_ASSERT(pd_br_flags_be_to_le(0xfULL << 40) == 0xfULL << 20);
}

/*
 * Every record of the swapped twin, in host order, is the original's
 * record; containers are compared by type only (they are recompressed).
 */
static void compare_twin(const char *name)
{
	struct pd_reader_opts ro = PD_READER_OPTS_INIT;
	struct pd_writer_opts wo = PD_WRITER_OPTS_INIT;
	struct pd_reader *a, *b;
	struct pd_writer *w;
	const struct pd_record *ra, *rb;
	char in[256], twin[256], out[256], err[256];
	uint8_t *copy = malloc(1 << 16);
	int ret_a, ret_b, mismatches = 0;

	CU_ASSERT_FATAL(copy != NULL);
	snprintf(in, sizeof(in), "corpus/%s", name);
	if (access(in, R_OK)) {
		free(copy);
		return;
	}
	tpath(twin, sizeof(twin), "twin.data");
	tpath(out, sizeof(out), "twin-out.data");
	if (swap_twin(in, twin, err, sizeof(err))) {
		fprintf(stderr, "swap_twin %s: %s\n", name, err);
		CU_FAIL("swap_twin");
		free(copy);
		return;
	}
	ro.skip_compressed = true;
	CU_ASSERT_FATAL(pd_reader_open(in, &ro, &a) == 0);
	CU_ASSERT_FATAL(pd_reader_open(twin, &ro, &b) == 0);
	CU_ASSERT(pd_reader_header(b)->swapped);
	CU_ASSERT_FATAL(wopen(out, &wo, &w) == 0);
	for (;;) {
		const uint8_t *host;

		ret_a = pd_reader_next(a, &ra);
		ret_b = pd_reader_next(b, &rb);
		if (ret_a <= 0 || ret_b <= 0)
			break;
		if (ra->type != rb->type || ra->raw_len != rb->raw_len) {
			mismatches++;
			break;
		}
		memcpy(copy, ra->raw, ra->raw_len);
		if (pd_writer_record_to_host(w, rb, &host) != 0 ||
		    memcmp(host, copy, ra->raw_len)) {
			if (!mismatches++)
				fprintf(stderr, "%s: record %llu (type %u) differs after conversion\n",
					name, (unsigned long long)ra->index, ra->type);
		}
		if (ra->type == PD_REC_HEADER_FEATURE && rb->decoded &&
		    !rb->u.header_feature.end_marker)
			CU_ASSERT(pd_writer_set_feature_from_record(w, rb, pd_reader_features(b)) >= 0);
	}
	CU_ASSERT(ret_a == 0 && ret_b == 0);
	CU_ASSERT(mismatches == 0);
	pd_writer_abort(w);
	pd_reader_close(a);
	pd_reader_close(b);
	free(copy);
}

static void test_swap_corpus(void)
{
	static const char *const files[] = {
		"basic.pipe.data", "callchain-dwarf.pipe.data", "callchain-fp.pipe.data",
		"compressed.pipe.data", "group-read.pipe.data", "inherit-stat.pipe.data",
		"inject-buildid.pipe.data", "intr-regs.pipe.data", "lost.pipe.data",
		"multi-event.pipe.data", "namespaces.pipe.data", "sample-fields.pipe.data",
		"stat.pipe.data", "switch-cpu-wide.pipe.data", "syscalls.pipe.data",
		"system-wide.pipe.data", "bpf.pipe.data", "all-cgroups.pipe.data",
	};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		compare_twin(files[i]);
}

int pd_test_register_writer(void)
{
	CU_pSuite s = CU_add_suite("writer", suite_init, suite_clean);

	if (!s)
		return CU_get_error();
	if (!CU_add_test(s, "file mode round trip", test_file_mode) ||
	    !CU_add_test(s, "pipe mode round trip", test_pipe_mode) ||
	    !CU_add_test(s, "abort, unseekable and pipe outputs", test_abort_and_targets) ||
	    !CU_add_test(s, "large copies on the writer's thread", test_copy_ranges) ||
	    !CU_add_test(s, "attr size above 128 shrinks when lossless", test_attr_shrink) ||
	    !CU_add_test(s, "branch flags bit-field remap", test_branch_flags) ||
	    !CU_add_test(s, "swapped corpus twins convert back exactly", test_swap_corpus) ||
	    !CU_add_test(s, "the write loop: signals, short writes, errors", test_write_all))
		return CU_get_error();
	return CUE_SUCCESS;
}
