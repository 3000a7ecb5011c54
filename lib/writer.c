// SPDX-License-Identifier: MIT
/*
 * writer.c - perf.data files (file mode) and streams (pipe mode) in host
 * byte order (docs/perf-data-format.md §14.4 and §8.2).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "perfdata/pd_reader.h"
#include "perfdata/pd_writer.h"
#include "internal.h"
#include "swap.h"

#define MAGIC_PERFILE2		0x32454c4946524550ULL
#define FILE_HEADER_SIZE	104
#define DEFAULT_BUFFER		(8u << 20)
#define MIN_BUFFER		(64u << 10)
/* smaller copies are not worth a hand-over to the copying thread */
#define ASYNC_COPY_MIN		(1u << 20)
#define PIPE_LAST_FEATURE	32
#define MAX_REC_SIZE		65535u
/* perf's limit for one compressed record: PERF_SAMPLE_MAX_SIZE - header - 1 */
#define ZMAX_COMPRESSED		(MAX_REC_SIZE - 8 - 1)
/* COMPRESSED2: ALIGN(16 + data_size, 8) must stay within the u16 size */
#define ZMAX_COMPRESSED2	(MAX_REC_SIZE - 7 - 16)
#define ZSTD_LEVEL		1

struct wevent {
	struct pd_attr attr;
	uint32_t size;		/* as recorded */
	uint64_t *ids;
	size_t nr_ids;
	uint64_t ids_off;	/* where the ids were written (file mode) */
};

struct wfeat {
	uint8_t *p;
	size_t len;
	size_t cap;
	bool present;
};

struct pd_writer {
	struct pd_writer_opts opts;
	struct pd_diag_sink sink;
	int fd;			/* the caller's: never closed here */
	const char *name;
	int err;		/* sticky negative enum pd_status */

	uint8_t *buf;
	size_t len;
	size_t cap;
	uint64_t pos;		/* output offset of the next byte (buffered included) */

	/*
	 * Large copies from another file run on a second thread, so that the
	 * caller parses the next records while the kernel copies these (see
	 * pd_writer_copy_file_range()).  One copy at most is in flight; every
	 * other output operation waits for it first (copy_wait()).
	 */
	bool copy_pending;	/* a copy was handed over and not waited for */
	bool copy_thread_on;
	bool copy_thread_failed;	/* could not be started: copy in place */
	pthread_t copy_thread;
	pthread_mutex_t copy_mu;
	pthread_cond_t copy_cv;
	bool copy_busy;		/* under copy_mu: the thread has work */
	bool copy_stop;
	bool copy_in_place;	/* the kernel refused: the rest is ours to copy */
	int copy_fd;
	uint64_t copy_off, copy_len;	/* what is left of the copy */

	struct wevent *ev;
	size_t nr_ev;
	size_t cap_ev;
	uint32_t attr_size;	/* chosen when the attrs are first written */
	bool data_started;
	bool attrs_written;	/* before the data */
	bool attrs_stale;	/* an event came after them: write all again at the end */
	uint64_t attrs_off;	/* of the table written before the data */
	uint64_t data_off;
	struct wfeat feat[PD_FEAT_BITS];

	bool feat_ended;	/* pipe mode: end marker written */

	uint8_t *scratch;	/* converted records */
	size_t scratch_cap;

	ZSTD_CStream *zcs;
	bool zgroup;		/* inside a container being recompressed */
	uint32_t ztype;
	uint8_t *zbuf;
	size_t zlen;
	size_t zmax;
	uint64_t nr_recompressed;
};

static int fail(struct pd_writer *w, int status, enum pd_code code, const char *what)
{
	int e = errno;

	if (!w->err) {
		pd_diag_emit(&w->sink, code, w->pos, -1, 0, true, "output=\"%s\" op=%s errno=%d (%s)",
			     w->name, what, e, strerror(e));
		w->err = status;
	}
	return w->err;
}

static int nomem(struct pd_writer *w)
{
	if (!w->err) {
		pd_diag_emit(&w->sink, PD_NO_MEMORY, PD_NO_OFFSET, -1, 0, true, "where=writer");
		w->err = PD_STATUS_NOMEM;
	}
	return w->err;
}

static int copy_wait(struct pd_writer *w);

static int flush(struct pd_writer *w)
{
	if (w->copy_pending && copy_wait(w) < 0)
		return w->err;
	if (w->err)
		return w->err;
	if (w->len && pd_write_all(w->fd, w->buf, w->len) < 0)
		return fail(w, PD_STATUS_IO, PD_WRITE_FAILED, "write");
	w->len = 0;
	return 0;
}

/*
 * copy_file_range() from `in` at *off to `out` until *len is done; *off
 * and *len follow.  Returns false when the kernel refuses (another file
 * system, a special file): the rest must go through user memory.
 */
static bool kernel_copy(int in, uint64_t *off, uint64_t *len, int out)
{
	while (*len) {
		size_t chunk = *len > (1u << 30) ? 1u << 30 : (size_t)*len;
		loff_t in_off = (loff_t)*off;
		ssize_t n = copy_file_range(in, &in_off, out, NULL, chunk, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		*off += (uint64_t)n;
		*len -= (uint64_t)n;
	}
	return true;
}

static void *copy_worker(void *arg)
{
	struct pd_writer *w = arg;

	pthread_mutex_lock(&w->copy_mu);
	for (;;) {
		while (!w->copy_busy && !w->copy_stop)
			pthread_cond_wait(&w->copy_cv, &w->copy_mu);
		if (!w->copy_busy)
			break;
		pthread_mutex_unlock(&w->copy_mu);

		/* refused: the caller copies the rest through its buffer */
		if (!kernel_copy(w->copy_fd, &w->copy_off, &w->copy_len, w->fd))
			w->copy_in_place = true;

		pthread_mutex_lock(&w->copy_mu);
		w->copy_busy = false;
		pthread_cond_broadcast(&w->copy_cv);
	}
	pthread_mutex_unlock(&w->copy_mu);
	return NULL;
}

static bool copy_thread_start(struct pd_writer *w)
{
	if (w->copy_thread_on)
		return true;
	if (w->copy_thread_failed)
		return false;
	if (pthread_mutex_init(&w->copy_mu, NULL))
		goto fail;
	if (pthread_cond_init(&w->copy_cv, NULL))
		goto fail_mutex;
	if (pthread_create(&w->copy_thread, NULL, copy_worker, w))
		goto fail_cond;
	w->copy_thread_on = true;
	return true;

fail_cond:
	pthread_cond_destroy(&w->copy_cv);
fail_mutex:
	pthread_mutex_destroy(&w->copy_mu);
fail:
	w->copy_thread_failed = true;
	return false;
}

static int copy_in_place(struct pd_writer *w, int fd, uint64_t off, uint64_t len);

/* The copy in flight is complete (or failed): the output is ours again. */
static int copy_wait(struct pd_writer *w)
{
	if (!w->copy_pending)
		return w->err;
	w->copy_pending = false;
	pthread_mutex_lock(&w->copy_mu);
	while (w->copy_busy)
		pthread_cond_wait(&w->copy_cv, &w->copy_mu);
	pthread_mutex_unlock(&w->copy_mu);
	if (w->copy_in_place) {
		w->copy_in_place = false;
		return copy_in_place(w, w->copy_fd, w->copy_off, w->copy_len) < 0 ? w->err : 0;
	}
	return w->err;
}

static void copy_thread_stop(struct pd_writer *w)
{
	if (!w->copy_thread_on)
		return;
	copy_wait(w);
	pthread_mutex_lock(&w->copy_mu);
	w->copy_stop = true;
	pthread_cond_broadcast(&w->copy_cv);
	pthread_mutex_unlock(&w->copy_mu);
	pthread_join(w->copy_thread, NULL);
	pthread_cond_destroy(&w->copy_cv);
	pthread_mutex_destroy(&w->copy_mu);
	w->copy_thread_on = false;
	w->copy_thread_failed = true;
}

/* Append bytes to the output, through the buffer unless they are larger than it. */
static int emit(struct pd_writer *w, const void *p, size_t n)
{
	if (w->copy_pending && copy_wait(w) < 0)
		return w->err;
	if (w->err)
		return w->err;
	if (!n)
		return 0;	/* empty payloads may come with a NULL pointer */
	if (n > w->cap - w->len && flush(w) < 0)
		return w->err;
	if (n >= w->cap) {
		if (pd_write_all(w->fd, p, n) < 0)
			return fail(w, PD_STATUS_IO, PD_WRITE_FAILED, "write");
	} else {
		memcpy(w->buf + w->len, p, n);
		w->len += n;
	}
	w->pos += n;
	return 0;
}

static int emit_zeros(struct pd_writer *w, size_t n)
{
	static const uint8_t zeros[8];

	while (n) {
		size_t k = n < sizeof(zeros) ? n : sizeof(zeros);

		if (emit(w, zeros, k) < 0)
			return w->err;
		n -= k;
	}
	return 0;
}

static void put_header(uint8_t *p, uint32_t type, uint16_t misc, uint16_t size)
{
	pd_st32(p, type);
	pd_st16(p + 4, misc);
	pd_st16(p + 6, size);
}

/* ------------------------------------------------------------------ */
/* open / close                                                        */

static struct pd_writer *writer_alloc(const struct pd_writer_opts *opts)
{
	struct pd_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	if (opts)
		w->opts = *opts;
	w->sink.fn = w->opts.diag_fn;
	w->sink.arg = w->opts.diag_arg;
	w->fd = -1;
	w->cap = w->opts.buffer_size ? w->opts.buffer_size : DEFAULT_BUFFER;
	if (w->cap < MIN_BUFFER)
		w->cap = MIN_BUFFER;
	w->buf = malloc(w->cap);
	if (!w->buf) {
		free(w);
		return NULL;
	}
	return w;
}

static void writer_free(struct pd_writer *w)
{
	size_t i;

	for (i = 0; i < w->nr_ev; i++)
		free(w->ev[i].ids);
	free(w->ev);
	for (i = 0; i < PD_FEAT_BITS; i++)
		free(w->feat[i].p);
	copy_thread_stop(w);
	if (w->zcs)
		ZSTD_freeCStream(w->zcs);
	free(w->zbuf);
	free(w->scratch);
	free(w->buf);
	free(w);
}

/* The first bytes: a placeholder file header, or the pipe header. */
static int start_output(struct pd_writer *w)
{
	uint8_t hdr[FILE_HEADER_SIZE];

	memset(hdr, 0, sizeof(hdr));
	pd_st64(hdr, MAGIC_PERFILE2);
	if (w->opts.mode == PD_WRITER_PIPE) {
		pd_st64(hdr + 8, 16);
		return emit(w, hdr, 16);
	}
	/* rewritten by commit; a killed writer leaves a file no reader accepts */
	return emit(w, hdr, sizeof(hdr));
}

/* File mode needs to come back to offset 0 for the header. */
static bool fd_seekable(int fd)
{
	struct stat st;
	int fl;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_APPEND))
		return false;
	return lseek(fd, 0, SEEK_CUR) == 0;
}

int pd_writer_open_fd(int fd, const char *name, const struct pd_writer_opts *opts,
		      struct pd_writer **out)
{
	struct pd_writer *w = writer_alloc(opts);

	*out = NULL;
	if (!w)
		return PD_STATUS_NOMEM;
	w->fd = fd;
	w->name = name ? name : "<output>";
	if (w->opts.mode == PD_WRITER_FILE && !fd_seekable(fd)) {
		pd_diag_emit(&w->sink, PD_OUTPUT_NOT_SEEKABLE, PD_NO_OFFSET, -1, 0, true,
			     "output=\"%s\"", w->name);
		writer_free(w);
		return PD_STATUS_IO;
	}
	if (start_output(w) < 0) {
		int ret = w->err;

		writer_free(w);
		return ret;
	}
	*out = w;
	return 0;
}

void pd_writer_abort(struct pd_writer *w)
{
	if (!w)
		return;
	copy_thread_stop(w);
	if (w->opts.mode == PD_WRITER_FILE && w->fd >= 0)
		/* leave the file empty rather than half written */
		(void)!ftruncate(w->fd, 0);
	writer_free(w);
}

/* ------------------------------------------------------------------ */
/* events and attrs                                                    */

static uint32_t event_size(const struct wevent *e)
{
	return e->size ? e->size : 64;
}

static int emit_header_attr(struct pd_writer *w, const struct wevent *e)
{
	uint32_t asz = w->opts.attr_size ? w->opts.attr_size : event_size(e);
	uint8_t rec[8 + 512];
	struct pd_attr a = e->attr;
	size_t size;

	if (asz > 512 || (e->nr_ids > (MAX_REC_SIZE - 8 - asz) / 8)) {
		pd_diag_emit(&w->sink, PD_TOO_LARGE_FOR_PIPE, w->pos, -1, PD_REC_HEADER_ATTR, false,
			     "attr_size=%u nr_ids=%zu", asz, e->nr_ids);
		return 1;
	}
	size = 8 + asz + 8 * e->nr_ids;
	a.size = asz;
	put_header(rec, PD_REC_HEADER_ATTR, 0, (uint16_t)size);
	pd_attr_encode(&a, rec + 8, asz);
	if (emit(w, rec, 8 + asz) < 0)
		return w->err;
	return emit(w, e->ids, 8 * e->nr_ids);
}

int pd_writer_add_event(struct pd_writer *w, const struct pd_attr *attr, uint32_t attr_size,
			const uint64_t *ids, size_t nr_ids)
{
	struct wevent *e;

	if (w->err)
		return w->err;
	if (w->nr_ev == w->cap_ev) {
		size_t ncap = w->cap_ev ? 2 * w->cap_ev : 16;
		struct wevent *n = realloc(w->ev, ncap * sizeof(*n));

		if (!n)
			return nomem(w);
		w->ev = n;
		w->cap_ev = ncap;
	}
	e = &w->ev[w->nr_ev];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	e->size = attr_size ? attr_size : 64;
	if (nr_ids > SIZE_MAX / 8)
		return nomem(w);
	if (nr_ids) {
		e->ids = malloc(nr_ids * 8);
		if (!e->ids)
			return nomem(w);
		memcpy(e->ids, ids, nr_ids * 8);
	}
	e->nr_ids = nr_ids;
	w->nr_ev++;
	if (w->opts.mode == PD_WRITER_PIPE) {
		int ret = emit_header_attr(w, e);

		return ret < 0 ? ret : 0;
	}
	if (w->data_started)
		w->attrs_stale = true;
	return 0;
}

/*
 * The smallest published attr size that holds every non-zero byte of the
 * attr (the size field itself aside).
 */
static uint32_t attr_needed(const struct pd_attr *attr)
{
	static const uint32_t sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136, 144 };
	struct pd_attr a = *attr;
	uint8_t b[144];
	size_t last = 0, i;

	a.size = 0;
	pd_attr_encode(&a, b, sizeof(b));
	for (i = 0; i < sizeof(b); i++)
		if (b[i])
			last = i + 1;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (sizes[i] >= last)
			return sizes[i];
	return 144;
}

/*
 * File mode attr size: the recorded one, except that attrs larger than
 * 128 bytes (VER7, what perf 5.13 to 6.2 know) shrink to 128 when the
 * fields beyond are zero.  perf refuses files whose attrs are larger than
 * its own struct, while pipe mode, where the recording came from, never
 * checked; this keeps converted files readable by the perf that read the
 * stream, and loses nothing.
 */
static uint32_t file_attr_size(const struct wevent *e)
{
	uint32_t sz = event_size(e), need;

	if (sz <= 128 || sz > 144)
		return sz;
	need = attr_needed(&e->attr);
	need = need < 128 ? 128 : need;
	return need < sz ? need : sz;
}

/* ids arrays, then the perf_file_attr table; returns the table's offset */
static int write_attrs(struct pd_writer *w, uint64_t *attrs_off)
{
	uint8_t ent[512 + 16];
	size_t i;

	if (!w->attr_size) {
		w->attr_size = w->opts.attr_size;
		for (i = 0; !w->opts.attr_size && i < w->nr_ev; i++)
			if (file_attr_size(&w->ev[i]) > w->attr_size)
				w->attr_size = file_attr_size(&w->ev[i]);
		if (w->attr_size < 64)
			w->attr_size = 64;
		if (w->attr_size > 512)
			w->attr_size = 512;
	}
	for (i = 0; i < w->nr_ev; i++) {
		w->ev[i].ids_off = w->pos;
		if (emit(w, w->ev[i].ids, 8 * w->ev[i].nr_ids) < 0)
			return w->err;
	}
	*attrs_off = w->pos;
	for (i = 0; i < w->nr_ev; i++) {
		struct pd_attr a = w->ev[i].attr;

		/* perf raises every attr's size to the writer's struct size */
		a.size = w->attr_size;
		pd_attr_encode(&a, ent, w->attr_size);
		pd_st64(ent + w->attr_size, w->ev[i].nr_ids ? w->ev[i].ids_off : 0);
		pd_st64(ent + w->attr_size + 8, 8 * (uint64_t)w->ev[i].nr_ids);
		if (emit(w, ent, w->attr_size + 16) < 0)
			return w->err;
	}
	return 0;
}

/* Before the first data byte. */
static int begin_data(struct pd_writer *w)
{
	if (w->data_started)
		return w->err;
	w->data_started = true;
	if (w->opts.mode == PD_WRITER_PIPE)
		return w->feat_ended ? 0 : pd_writer_end_features(w, 0);
	if (w->nr_ev) {
		uint64_t off;

		if (write_attrs(w, &off) < 0)
			return w->err;
		w->attrs_written = true;
		w->attrs_off = off;
	}
	w->data_off = w->pos;
	return 0;
}

/* ------------------------------------------------------------------ */
/* features                                                            */

static int feat_store(struct pd_writer *w, unsigned int id, const void *p, size_t len,
		      bool append)
{
	struct wfeat *f = &w->feat[id];
	size_t need;

	if (!append)
		f->len = 0;
	if (len > SIZE_MAX - f->len)
		return nomem(w);
	need = f->len + len;
	if (need > f->cap) {
		size_t ncap = f->cap ? f->cap : 256;
		uint8_t *n;

		while (ncap < need)
			ncap = ncap > SIZE_MAX / 2 ? need : 2 * ncap;
		n = realloc(f->p, ncap);
		if (!n)
			return nomem(w);
		f->p = n;
		f->cap = ncap;
	}
	if (len)
		memcpy(f->p + f->len, p, len);
	f->len = need;
	f->present = true;
	return 0;
}

static int pipe_feature(struct pd_writer *w, unsigned int id, const uint8_t *p, size_t len)
{
	uint8_t hdr[16];

	if (id == PD_FEAT_TRACING_DATA) {
		uint64_t padded = PD_ALIGN((uint64_t)len, 8);

		if (padded > UINT32_MAX) {
			pd_diag_emit(&w->sink, PD_TOO_LARGE_FOR_PIPE, w->pos, -1,
				     PD_REC_HEADER_TRACING_DATA, false, "size=%zu", len);
			return 1;
		}
		put_header(hdr, PD_REC_HEADER_TRACING_DATA, 0, 16);
		pd_st32(hdr + 8, (uint32_t)padded);
		pd_st32(hdr + 12, 0);
		if (emit(w, hdr, 16) < 0 || emit(w, p, len) < 0)
			return w->err;
		return emit_zeros(w, (size_t)(padded - len));
	}
	if (id == PD_FEAT_BUILD_ID) {
		size_t pos = 0;

		/* one HEADER_BUILD_ID record per entry, as perf inject -b writes them */
		while (len - pos >= 8) {
			uint16_t sz = pd_ld16(p + pos + 6, false);
			uint8_t h[8];

			if (sz < 8 || sz > len - pos)
				break;
			put_header(h, PD_REC_HEADER_BUILD_ID, pd_ld16(p + pos + 4, false), sz);
			if (emit(w, h, 8) < 0 || emit(w, p + pos + 8, sz - 8u) < 0)
				return w->err;
			pos += sz;
		}
		return 0;
	}
	if (len > MAX_REC_SIZE - 16) {
		/* perf record drops such features from pipe streams as well */
		pd_diag_emit(&w->sink, PD_TOO_LARGE_FOR_PIPE, w->pos, -1, PD_REC_HEADER_FEATURE,
			     false, "feature=%s size=%zu",
			     pd_feature_name(id) ? pd_feature_name(id) : "unknown", len);
		return 1;
	}
	put_header(hdr, PD_REC_HEADER_FEATURE, 0, (uint16_t)(16 + len));
	pd_st64(hdr + 8, id);
	if (emit(w, hdr, 16) < 0)
		return w->err;
	return emit(w, p, len);
}

/* A pipe gets the payload as a record at once; a file keeps it for the feature table. */
static int feature_put(struct pd_writer *w, unsigned int id, const void *payload, size_t len,
		       bool append)
{
	if (w->err)
		return w->err;
	if (id == 0 || id >= PD_FEAT_BITS)
		return 1;
	if (w->opts.mode == PD_WRITER_PIPE)
		return pipe_feature(w, id, payload, len);
	return feat_store(w, id, payload, len, append);
}

int pd_writer_set_feature(struct pd_writer *w, unsigned int id, const void *payload, size_t len)
{
	return feature_put(w, id, payload, len, false);
}

int pd_writer_append_feature(struct pd_writer *w, unsigned int id, const void *payload,
			     size_t len)
{
	return feature_put(w, id, payload, len, true);
}

void pd_writer_clear_feature(struct pd_writer *w, unsigned int id)
{
	if (id < PD_FEAT_BITS) {
		w->feat[id].present = false;
		w->feat[id].len = 0;
	}
}

bool pd_writer_has_feature(const struct pd_writer *w, unsigned int id)
{
	return id < PD_FEAT_BITS && w->feat[id].present;
}

const uint8_t *pd_writer_feature(const struct pd_writer *w, unsigned int id, size_t *len)
{
	if (id >= PD_FEAT_BITS || !w->feat[id].present)
		return NULL;
	*len = w->feat[id].len;
	return w->feat[id].p;
}

int pd_writer_set_feature_from(struct pd_writer *w, unsigned int id, const uint8_t *payload,
			       size_t len, bool swapped, const struct pd_features *f)
{
	uint8_t *tmp;
	int ret;

	if (!swapped)
		return pd_writer_set_feature(w, id, payload, len);
	if (w->err)
		return w->err;
	tmp = malloc(len ? len : 1);
	if (!tmp)
		return nomem(w);
	ret = pd_swap_feature(id, payload, len, tmp, f, &w->sink);
	if (ret == 0)
		ret = pd_writer_set_feature(w, id, tmp, len);
	free(tmp);
	return ret;
}

/*
 * Since v6.12 perf pads HEADER_FEATURE records to a multiple of 8 bytes;
 * a feature section holds the payload alone.  The padding is the zero
 * tail whose removal leaves a payload that decodes exactly.
 */
static size_t unpadded_len(unsigned int id, const uint8_t *p, size_t len, bool swap,
			   const struct pd_features *f)
{
	struct pd_diag_sink *sink;
	struct pd_features *tmp;
	size_t k, best = len;

	if ((len + 16) % 8 || !len || !pd_feature_is_known(id))
		return len;
	sink = calloc(1, sizeof(*sink));
	tmp = malloc(sizeof(*tmp));
	if (!sink || !tmp)
		goto out;
	for (k = 0; k < 8 && k < len; k++) {
		bool clean;

		if (k && p[len - k])
			break;
		pd_features_init(tmp);
		if (f && f->raw[PD_FEAT_NRCPUS].present && id != PD_FEAT_NRCPUS)
			pd_feature_decode(tmp, PD_FEAT_NRCPUS, f->raw[PD_FEAT_NRCPUS].data,
					  f->raw[PD_FEAT_NRCPUS].len, swap, 0, -1, 0, NULL);
		memset(sink, 0, sizeof(*sink));
		clean = pd_feature_decode(tmp, id, p, len - k, swap, 0, -1, 0, sink) == 0 &&
			!sink->counts[PD_SEV_WARNING] && !sink->counts[PD_SEV_ERROR];
		pd_features_free(tmp);
		if (clean) {
			best = len - k;
			break;
		}
	}
out:
	free(sink);
	free(tmp);
	return best;
}

int pd_writer_set_feature_from_record(struct pd_writer *w, const struct pd_record *rec,
				      const struct pd_features *f)
{
	const struct pd_rec_header_feature *hf = &rec->u.header_feature;
	unsigned int id;
	size_t len;

	if (rec->type != PD_REC_HEADER_FEATURE || !rec->decoded || hf->end_marker ||
	    hf->feat_id == 0 || hf->feat_id >= PD_FEAT_BITS)
		return 1;
	id = (unsigned int)hf->feat_id;
	len = rec->raw_len % 8 ? hf->len : unpadded_len(id, hf->payload, hf->len, rec->swapped, f);
	return pd_writer_set_feature_from(w, id, hf->payload, len, rec->swapped, f);
}

int pd_writer_end_features(struct pd_writer *w, unsigned int last_feature)
{
	uint8_t rec[16];

	if (w->err)
		return w->err;
	if (w->opts.mode != PD_WRITER_PIPE || w->feat_ended)
		return 0;
	w->feat_ended = true;
	put_header(rec, PD_REC_HEADER_FEATURE, 0, 16);
	pd_st64(rec + 8, last_feature ? last_feature : PIPE_LAST_FEATURE);
	return emit(w, rec, 16);
}

/* ------------------------------------------------------------------ */
/* data                                                                */

int pd_writer_write_bytes(struct pd_writer *w, const void *p, size_t len)
{
	if (!w->data_started && begin_data(w) < 0)
		return w->err;
	return emit(w, p, len);
}

int pd_writer_write_record(struct pd_writer *w, const void *raw, size_t len)
{
	const uint8_t *p = raw;

	if (w->err)
		return w->err;
	if (len < 8 || pd_ld16(p + 6, false) != len) {
		pd_diag_emit(&w->sink, PD_REC_BAD_FIELD, w->pos, -1, len >= 4 ? pd_ld32(p, false) : 0,
			     false, "reason=size_mismatch len=%zu", len);
		return PD_STATUS_MALFORMED;
	}
	return pd_writer_write_bytes(w, raw, len);
}

/*
 * pread() + the buffer, for what the kernel will not copy itself.  The
 * caller has counted these bytes in w->pos already.
 */
static int copy_in_place(struct pd_writer *w, int fd, uint64_t off, uint64_t len)
{
	while (len) {
		size_t chunk = len > w->cap - w->len ? w->cap - w->len : (size_t)len;

		if (pd_io_pread(fd, w->buf + w->len, chunk, off) < 0)
			return fail(w, PD_STATUS_IO, PD_WRITE_FAILED, "copy");
		w->len += chunk;
		if (flush(w) < 0)
			return w->err;
		off += chunk;
		len -= chunk;
	}
	return 0;
}

/*
 * Bytes of another file, copied in the kernel (copy_file_range) when it
 * can: no pass through user memory, and page cache to page cache.  Large
 * copies are handed to a second thread and this returns at once; falls
 * back to pread() + the buffer where the kernel cannot.
 */
int pd_writer_copy_file_range(struct pd_writer *w, int fd, uint64_t off, uint64_t len)
{
	if (!w->data_started && begin_data(w) < 0)
		return w->err;
	if (flush(w) < 0)
		return w->err;
	if (len >= ASYNC_COPY_MIN && copy_thread_start(w)) {
		pthread_mutex_lock(&w->copy_mu);
		w->copy_fd = fd;
		w->copy_off = off;
		w->copy_len = len;
		w->copy_busy = true;
		pthread_cond_broadcast(&w->copy_cv);
		pthread_mutex_unlock(&w->copy_mu);
		w->copy_pending = true;
		w->pos += len;
		return 0;
	}
	w->pos += len;
	if (kernel_copy(fd, &off, &len, w->fd))
		return 0;
	return copy_in_place(w, fd, off, len);
}

int pd_writer_record_to_host(struct pd_writer *w, const struct pd_record *rec,
			     const uint8_t **out)
{
	if (!rec->swapped) {
		*out = rec->raw;
		return 0;
	}
	if (w->err)
		return w->err;
	if (rec->raw_len > w->scratch_cap) {
		size_t ncap = rec->raw_len < 65536 ? 65536 : rec->raw_len;
		uint8_t *n = realloc(w->scratch, ncap);

		if (!n)
			return nomem(w);
		w->scratch = n;
		w->scratch_cap = ncap;
	}
	*out = w->scratch;
	return pd_swap_record(rec, w->scratch, &w->sink);
}

static int zemit(struct pd_writer *w)
{
	uint8_t hdr[16];
	size_t size;

	if (!w->zlen)
		return 0;
	if (w->ztype == PD_REC_COMPRESSED2) {
		size = PD_ALIGN(16 + w->zlen, 8);
		put_header(hdr, PD_REC_COMPRESSED2, 0, (uint16_t)size);
		pd_st64(hdr + 8, w->zlen);
		if (emit(w, hdr, 16) < 0 || emit(w, w->zbuf, w->zlen) < 0 ||
		    emit_zeros(w, size - 16 - w->zlen) < 0)
			return w->err;
	} else {
		put_header(hdr, PD_REC_COMPRESSED, 0, (uint16_t)(8 + w->zlen));
		if (emit(w, hdr, 8) < 0 || emit(w, w->zbuf, w->zlen) < 0)
			return w->err;
	}
	w->nr_recompressed++;
	w->zlen = 0;
	return 0;
}

static int zfail(struct pd_writer *w, size_t zr)
{
	if (!w->err) {
		pd_diag_emit(&w->sink, PD_RECOMPRESS_FAILED, w->pos, -1, 0, true, "zstd=\"%s\"",
			     ZSTD_getErrorName(zr));
		w->err = PD_STATUS_IO;
	}
	return w->err;
}

static int zgroup_begin(struct pd_writer *w, uint32_t type)
{
	if (!w->zcs) {
		size_t zr;

		w->zcs = ZSTD_createCStream();
		w->zbuf = malloc(MAX_REC_SIZE);
		if (!w->zcs || !w->zbuf)
			return nomem(w);
		/* one stream for the whole output, as perf record keeps one per file */
		zr = ZSTD_initCStream(w->zcs, ZSTD_LEVEL);
		if (ZSTD_isError(zr))
			return zfail(w, zr);
	}
	if (!w->data_started && begin_data(w) < 0)
		return w->err;
	w->zgroup = true;
	w->ztype = type;
	w->zmax = type == PD_REC_COMPRESSED2 ? ZMAX_COMPRESSED2 : ZMAX_COMPRESSED;
	w->zlen = 0;
	return 0;
}

static int zfeed(struct pd_writer *w, const uint8_t *p, size_t n)
{
	ZSTD_inBuffer in = { p, n, 0 };

	while (in.pos < in.size) {
		ZSTD_outBuffer out = { w->zbuf + w->zlen, w->zmax - w->zlen, 0 };
		size_t zr = ZSTD_compressStream(w->zcs, &out, &in);

		if (ZSTD_isError(zr))
			return zfail(w, zr);
		w->zlen += out.pos;
		if (w->zlen == w->zmax && zemit(w) < 0)
			return w->err;
	}
	return 0;
}

/* Flush what the container's records produced: one or more new containers. */
static int zgroup_end(struct pd_writer *w)
{
	size_t rem;

	w->zgroup = false;
	do {
		ZSTD_outBuffer out = { w->zbuf + w->zlen, w->zmax - w->zlen, 0 };

		rem = ZSTD_flushStream(w->zcs, &out);
		if (ZSTD_isError(rem))
			return zfail(w, rem);
		w->zlen += out.pos;
		if ((w->zlen == w->zmax || !rem) && zemit(w) < 0)
			return w->err;
	} while (rem);
	return 0;
}

int pd_writer_copy_record(struct pd_writer *w, const struct pd_record *rec)
{
	const uint8_t *p;
	int ret;

	if (w->err)
		return w->err;
	if (rec->from_compressed) {
		/* a host-order container was copied whole: its records are in it */
		if (!w->zgroup)
			return 1;
		ret = pd_writer_record_to_host(w, rec, &p);
		if (ret < 0)
			return ret;
		return zfeed(w, p, rec->raw_len);
	}
	if (w->zgroup && zgroup_end(w) < 0)
		return w->err;
	if (rec->swapped && (rec->type == PD_REC_COMPRESSED || rec->type == PD_REC_COMPRESSED2))
		return zgroup_begin(w, rec->type);
	ret = pd_writer_record_to_host(w, rec, &p);
	if (ret < 0)
		return ret;
	if (pd_writer_write_bytes(w, p, rec->raw_len) < 0)
		return w->err;
	if (rec->extra_len) {
		if (!rec->extra) {
			pd_diag_emit(&w->sink, PD_EXTRA_NOT_HELD, rec->offset, (int64_t)rec->index,
				     rec->type, true, "bytes=%" PRIu64, rec->extra_len);
			w->err = PD_STATUS_MALFORMED;
			return w->err;
		}
		return emit(w, rec->extra, (size_t)rec->extra_len);
	}
	return 0;
}

uint64_t pd_writer_offset(const struct pd_writer *w)
{
	return w->pos;
}

uint64_t pd_writer_data_size(const struct pd_writer *w)
{
	return w->data_started && w->opts.mode == PD_WRITER_FILE ? w->pos - w->data_off : 0;
}

uint64_t pd_writer_recompressed(const struct pd_writer *w)
{
	return w->nr_recompressed;
}

uint64_t pd_writer_diag_count(const struct pd_writer *w, enum pd_severity sev)
{
	return (unsigned int)sev < 3 ? w->sink.counts[sev] : 0;
}

/* ------------------------------------------------------------------ */
/* commit                                                              */

static int finish_file(struct pd_writer *w)
{
	uint8_t hdr[FILE_HEADER_SIZE];
	uint64_t data_size, attrs_off = 0, attrs_len, bitmap[4] = { 0 }, off;
	unsigned int id;
	size_t nr = 0;

	if (!w->data_started && begin_data(w) < 0)
		return w->err;
	data_size = w->pos - w->data_off;

	/* feature table at data.offset + data.size, payloads after it */
	for (id = 1; id < PD_FEAT_BITS; id++)
		if (w->feat[id].present)
			nr++;
	off = w->pos + 16 * nr;
	for (id = 1; id < PD_FEAT_BITS; id++) {
		uint8_t sec[16];

		if (!w->feat[id].present)
			continue;
		bitmap[id / 64] |= 1ULL << (id % 64);
		pd_st64(sec, off);
		pd_st64(sec + 8, w->feat[id].len);
		if (emit(w, sec, 16) < 0)
			return w->err;
		off += w->feat[id].len;
	}
	for (id = 1; id < PD_FEAT_BITS; id++)
		if (w->feat[id].present && emit(w, w->feat[id].p, w->feat[id].len) < 0)
			return w->err;

	if (w->attrs_written && !w->attrs_stale) {
		attrs_off = w->attrs_off;
	} else if (w->nr_ev) {
		/* perf inject's layout: ids and attrs after the features */
		if (write_attrs(w, &attrs_off) < 0)
			return w->err;
	} else {
		attrs_off = w->pos;
	}
	attrs_len = (uint64_t)w->nr_ev * (w->attr_size + 16);
	if (flush(w) < 0)
		return w->err;
	if (ftruncate(w->fd, (off_t)w->pos) < 0)
		return fail(w, PD_STATUS_IO, PD_WRITE_FAILED, "truncate");

	memset(hdr, 0, sizeof(hdr));
	pd_st64(hdr, MAGIC_PERFILE2);
	pd_st64(hdr + 8, FILE_HEADER_SIZE);
	pd_st64(hdr + 16, (uint64_t)(w->attr_size ? w->attr_size : 64) + 16);
	pd_st64(hdr + 24, attrs_off);
	pd_st64(hdr + 32, attrs_len);
	pd_st64(hdr + 40, w->data_off);
	pd_st64(hdr + 48, data_size);
	/* event_types stays {0, 0} */
	for (id = 0; id < 4; id++)
		pd_st64(hdr + 72 + 8 * id, bitmap[id]);
	if (pwrite(w->fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr))
		return fail(w, PD_STATUS_IO, PD_WRITE_FAILED, "write header");
	return 0;
}

int pd_writer_commit(struct pd_writer *w)
{
	int ret;

	if (!w)
		return PD_STATUS_IO;
	if (w->zgroup)
		zgroup_end(w);
	if (w->opts.mode == PD_WRITER_FILE) {
		finish_file(w);
	} else {
		if (!w->feat_ended)
			pd_writer_end_features(w, 0);
		flush(w);
	}
	copy_thread_stop(w);
	if (!w->err && w->opts.fsync && fsync(w->fd) < 0 && errno != EINVAL && errno != EROFS)
		fail(w, PD_STATUS_IO, PD_WRITE_FAILED, "fsync");
	ret = w->err;
	if (ret) {
		pd_writer_abort(w);
		return ret;
	}
	writer_free(w);
	return 0;
}
