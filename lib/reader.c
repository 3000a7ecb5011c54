// SPDX-License-Identifier: MIT
/*
 * reader.c - the streaming perf.data reader: container detection (file,
 * pipe, directory), file header, attrs and features, record framing over a
 * bounded read window, zstd decompression, simpleperf SPLIT reassembly and
 * optional time ordering.
 *
 * Memory is bounded by the window, the decompression buffer, the
 * time-order queue limit and the caps on attrs, ids and features, never by
 * the size of the input.
 */
#include <dirent.h>
#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "decode.h"
#include "internal.h"
#include "sample_fixed.h"
#include "select.h"
#include "perfdata/pd_reader.h"
#include "perfdata/pd_sample_fields.h"
#include "perfdata/pd_writer.h"

/* set by the Makefile from its VERSION, the one place the version lives */
#ifndef PD_VERSION_STRING
#error "PD_VERSION_STRING must come from the build (Makefile VERSION)"
#endif

#define MAGIC_PERFILE2		0x32454c4946524550ULL
#define MAGIC_PERFILE2_SWAPPED	0x50455246494c4532ULL
#define MAGIC_PERFFILE		0x454c494646524550ULL	/* "PERFFILE" read LE */
#define MAGIC_PERFFILE_SWAPPED	0x5045524646494c45ULL

#define FILE_HEADER_SIZE	104
#define FILE_HEADER_SIZE_OLD	72
#define PIPE_HEADER_SIZE	16

#define DEFAULT_WINDOW		(1u << 20)
#define DEFAULT_QUEUE_MAX	(20u << 20)
#define DEFAULT_MAX_DECOMP	(256ULL << 20)
#define DEFAULT_MAX_IDS		(4ULL << 20)
#define MAX_ATTRS		65536
#define MAX_FEATURE_SIZE	(256ULL << 20)
#define MAX_TRACING_DATA	(256ULL << 20)
#define MAX_SPLIT_RECORD	(64ULL << 20)
#define MAX_RECORD_SIZE		(16u << 20)	/* simpleperf 32-bit sizes only */
#define ZBUF_CHUNK		(1u << 20)
#define AUX_HOLD_MAX		(1u << 20)	/* AUX data kept in memory up to this */
#define MAX_DIR_STREAMS		4096

/* One byte stream: the main file or pipe, or a data.N file of a directory. */
struct pd_stream {
	int fd;
	bool own_fd;
	char *name;		/* diagnostics: NULL for the main stream of file/pipe mode */
	uint8_t *buf;
	size_t cap;
	size_t start;		/* first unconsumed byte */
	size_t end;		/* end of valid bytes */
	uint64_t pos;		/* stream offset of buf[start] */
	uint64_t limit;		/* end of the data: records must not cross it */
	bool limit_is_eof;	/* limit is where the file ends, not a stated data end */
	bool eof;
	bool done;
	uint64_t index;		/* next record index */

	/* compressed records */
	ZSTD_DStream *zds;
	uint8_t *zbuf;
	size_t zcap, zstart, zend;
	bool zactive;		/* inner records of a container are being delivered */
	bool zpending;		/* container delivered, start decompressing on next call */
	bool zbroken;		/* the zstd stream failed: later containers are skipped */
	const uint8_t *zin;
	size_t zin_len, zin_pos;
	uint64_t zcontainer_off;
	uint64_t zcontainer_total;
	uint32_t zinner_off;

	/* simpleperf SPLIT reassembly */
	uint8_t *split;
	size_t split_len, split_cap;
	uint64_t split_off;
	bool split_ready;	/* deliver the reassembled record on the next call */
	struct pd_record_header split_hdr;	/* its header, read by split_end() */

	/*
	 * Time order: a read-only map of a regular file, so that the queue
	 * keeps where its records are instead of copies (mapped on the first
	 * record queued; map_tried with map NULL: copies).
	 */
	const uint8_t *map;
	size_t map_len;
	bool map_tried;
	/*
	 * The window is the map (time order, a file with a known data
	 * end): records are framed where they are in the file, not read()
	 * into buf first.  Framed pages are dropped MAPPED_LAG behind the
	 * window's start: mapped_dropped is where they are dropped to,
	 * mapped_counted how far bytes_read counts; both move when the
	 * start passes mapped_check (SIZE_MAX for a window read into buf).
	 */
	bool mapped_window;
	uint64_t mapped_dropped, mapped_counted;
	size_t mapped_check;
	uint64_t mapped_ahead;	/* mapped in advance up to here (map_ahead()) */

	/* time order */
	int64_t cur_run;	/* the queue's run its records are appended to, -1: none */
	uint64_t merge_time;	/* directory: newest record time read from it */
};

/*
 * Time-order queue.  Records arrive in time order per ring buffer, so
 * consecutive records with non-decreasing times form a run; a small heap
 * orders the runs by their oldest record, so popping costs a heap step
 * over a handful of runs, not over every queued record.
 *
 * Each run keeps its records (a header, then the raw bytes) back to back
 * in its own list of chunks.  A run is consumed front to back, so its
 * chunks empty in order and are freed as soon as their last record has
 * been delivered: the queue's memory follows the bytes actually queued,
 * with no per-record allocation and no fragmentation of a shared arena.
 *
 * A record read from a regular file is queued as a header only: its
 * bytes are still in the file, and it is delivered from a read-only map
 * of it.  The queue then costs 48 bytes a record instead of the record
 * (a callchain sample is 150 to 300 bytes); copies are kept where the
 * bytes are not in the file as read (pipes, decompressed records,
 * reassembled SPLITs).  The pages a run has been delivered from are
 * dropped from the map as the run moves on (MADV_DONTNEED: they stay in
 * the page cache, only the mapping goes), so the mapped part of the file
 * stays about QMAP_RESIDENT plus the framed pages not yet delivered (at
 * most MAPPED_LAG) whatever the file's size.
 */
#define QCHUNK_MIN (16u << 10)
#define QCHUNK_MAX (256u << 10)
#define QCHUNK_CLASSES 5	/* QCHUNK_MIN << 0 .. QCHUNK_MAX */
/* chunks kept for reuse: the rest go back to malloc for the other tables */
#define QCHUNK_SPARE_MAX (1u << 20)
#define QMAP_RESIDENT (4u << 20)	/* delivered pages kept mapped, all runs */
#define QDROP_BATCH (2u << 20)		/* pages to drop, gathered to drop at once */
#define QDROP_SLOTS 32

/*
 * Ranges of a stream's map to drop.  Each madvise() flushes the TLB and
 * costs the lookups after it (the symbol tables' most of all), so the
 * ranges are gathered and dropped merged, a few times per 2 MiB.
 */
struct qdrop {
	uint64_t from, end;
	uint32_t stream;
};

struct qchunk {
	struct qchunk *next;
	size_t used;		/* bytes written */
	size_t consumed;	/* bytes of records already popped */
	size_t cap;
	uint8_t data[];
};

/* What is kept of a queued record besides its bytes, which follow it. */
struct qhdr {
	uint64_t time;
	uint64_t seq;
	uint64_t offset;
	uint64_t index;
	uint32_t len;
	uint32_t inner_off;
	int32_t event_index;
	uint16_t stream;
	uint8_t from_compressed;
	uint8_t in_file;	/* no copy follows: the bytes are in the stream's map */
};

/*
 * A run in the heap, with the order of its head record: comparing keys
 * reads the heap array only, not the head records in the runs' chunks.
 */
struct qkey {
	uint64_t time, seq;
	const uint8_t *raw;	/* the head record's bytes, to prefetch */
	uint32_t run;
};

struct qrun {
	struct qchunk *first, *last;	/* oldest chunk first */
	uint64_t nr;			/* records in the run */
	uint64_t last_time;
	uint32_t stream;		/* the stream whose records it holds */
	bool in_heap;
	/* delivered from the map and not dropped yet: [map_from, map_end) */
	bool mapped;
	uint16_t map_stream;
	uint64_t map_from, map_end;
	uint64_t map_block;		/* the block of the last record delivered from it */
};

/*
 * The unit in which delivered pages are dropped from a stream's map:
 * whole blocks of the kernel's fault-around (64 KiB), which maps the
 * cached pages of a block together, so that a block kept for a run's
 * next records never maps pages already dropped below it.
 */
static uint64_t qmap_unit(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > (64 << 10) ? (uint64_t)page : 64 << 10;
}

struct pd_reader {
	struct pd_reader_opts opts;
	struct pd_diag_sink sink;
	struct pd_header hdr;
	struct pd_features feat;
	/* file offset of each feature bit's table entry, 0: none read */
	uint64_t feat_entry[PD_FEAT_BITS];
	bool swap;
	bool bitmap_u32;	/* swapped bitmap written as u32 words (32-bit writer) */
	bool simpleperf;

	/* events and sample ids */
	struct pd_event *events;
	size_t nr_events, cap_events;
	uint64_t **event_ids;		/* owned id arrays, parallel to events */
	char **event_names;		/* owned names, parallel to events */
	uint64_t total_ids;
	uint64_t last_id;		/* one-entry cache of the id lookup */
	int last_idx;
	/* open-addressing id -> event index + 1 (0 = empty) */
	uint64_t *ht_keys;
	uint32_t *ht_vals;
	size_t ht_cap;

	/* the obsolete event_types section, decoded (file mode) */
	struct pd_event_type *event_types;
	size_t nr_event_types;

	struct pd_stream *streams;
	uint32_t nr_streams;
	uint32_t cur_stream;
	char *dir_path;
	/*
	 * Time order of a directory: its streams read merged, the next
	 * record always from the stream read least far in time (a heap of
	 * stream indices by merge_time), so that a record is queued only
	 * until every stream has been read past it.
	 */
	bool merge;
	bool merge_ready;
	uint32_t *sheap;
	uint32_t sheap_n;

	struct pd_decoder dec;
	struct pd_record rec;
	/* pd_reader_sample_fits_attr()'s arena: apart from dec, whose arrays rec holds */
	struct pd_decoder fit_dec;

	uint8_t *tracing;		/* pipe-mode tracing data blob */
	uint64_t tracing_len;

	/* time order */
	/*
	 * The queue is a set of runs: records arrive in time order per ring
	 * buffer, so consecutive records with non-decreasing times are kept
	 * in one FIFO run, and a small heap orders the runs by their oldest
	 * record.  Popping is then a heap operation over a handful of runs
	 * rather than over every queued record.
	 */
	struct qrun *runs;
	uint32_t nr_runs, cap_runs;
	struct qkey *rheap;		/* runs, heap by head record */
	uint32_t rheap_n, rheap_cap;
	uint32_t *free_runs;		/* stack of empty run indices */
	uint32_t nr_free_runs;
	size_t q_nr;			/* records in the queue */
	uint64_t q_bytes;		/* memory of the queue's chunks */
	uint64_t q_live_bytes;		/* bytes of the records in the queue */
	uint64_t flush_to_bytes;	/* over the limit: pop until this many are left */
	uint64_t q_seq;
	uint64_t round_limit;		/* flush records with time <= this at the next round */
	uint64_t max_time;		/* newest time seen */
	uint64_t last_flushed;
	bool have_flushed;
	bool flushing;			/* deliver queued records up to flush_limit */
	uint64_t flush_limit;
	bool pending_valid;		/* a FINISHED_ROUND held back while flushing */
	struct pd_record round_rec;
	uint8_t round_raw[8];
	struct qchunk *q_retired;	/* emptied chunk holding the record being delivered */
	/* pages of a drained run, dropped once its last record is no longer in use */
	bool q_drop_pending;
	uint16_t q_drop_stream;
	uint64_t q_drop_from, q_drop_end;
	uint64_t q_map_unit;		/* see qmap_unit() */
	struct qdrop q_drops[QDROP_SLOTS];
	uint32_t q_nr_drops;
	uint64_t q_drop_bytes;
	/*
	 * Emptied chunks kept for reuse, by size, up to the queue's limit:
	 * freed, they went back to the kernel and every byte queued cost a
	 * fresh page fault (most of the time-order cost of 8 KiB samples).
	 */
	struct qchunk *q_free[QCHUNK_CLASSES];
	size_t q_free_bytes;
	bool ooo_reported;
	bool qfull_reported;
	bool ended;
	bool defer_kernel;		/* time order: decode kernel records at delivery */

	uint64_t bytes_read;

	struct pd_sel_state *sel;	/* NULL without a selection: nothing to pay */
};

const char *pd_version(void)
{
	return PD_VERSION_STRING;
}

/* ------------------------------------------------------------------ */
/* diagnostics helpers                                                 */

#define DIAG(r, code, off, fmt, ...) \
	pd_diag_emit(&(r)->sink, (code), (off), -1, 0, false, fmt, ##__VA_ARGS__)
#define DIAG_FATAL(r, code, off, fmt, ...) \
	pd_diag_emit(&(r)->sink, (code), (off), -1, 0, true, fmt, ##__VA_ARGS__)

static void set_stream_name(struct pd_reader *r, const struct pd_stream *s)
{
	r->sink.stream = s->name;
}

/* ------------------------------------------------------------------ */
/* low-level I/O                                                       */

/*
 * The framed pages of a mapped window gathered before they are dropped
 * at once (each madvise() flushes the TLB): as much as the window read
 * into buf holds.  They are dropped MAPPED_LAG behind the window's start,
 * not at once: most records of a recording per CPU are delivered 4 to 16
 * MiB after they were framed, from the same pages, which the queue drops
 * itself once delivered (q_track_map).  Dropped at framing, they were
 * mapped twice (1,600 of the 11,300 faults of perfsym on dwarf.data),
 * for 8 to 13 MiB less peak RSS.  The lagging drop bounds what the queue
 * never delivers from the map (records delivered at once, copies).
 */
#define MAPPED_DROP	(1u << 20)
#define MAPPED_LAG	(16u << 20)
#define MAPPED_AHEAD	(2u << 20)

static bool stream_map(struct pd_stream *s);
static void map_ahead(const struct pd_reader *r, struct pd_stream *s);

/*
 * A regular file read in time order, whose data end is known: framed
 * from the map the queue delivers from, so that the kernel neither
 * copies the file into the window nor maps its pages a second time for
 * the queue.  Only at the start, when the window holds nothing yet.
 */
static void stream_map_window(struct pd_reader *r, struct pd_stream *s)
{
	if (!r->opts.time_order || s->limit == UINT64_MAX || s->end || s->pos > s->limit)
		return;
	if (!stream_map(s) || s->limit > s->map_len)
		return;
	free(s->buf);
	s->buf = (uint8_t *)(uintptr_t)s->map;
	s->cap = s->map_len;
	s->start = (size_t)s->pos;
	s->end = (size_t)s->limit;
	s->eof = true;
	s->mapped_window = true;
	s->mapped_dropped = s->pos & ~(r->q_map_unit - 1);
	s->mapped_counted = s->pos;
	s->mapped_check = (size_t)(s->mapped_dropped + MAPPED_DROP);
	s->mapped_ahead = 0;
	map_ahead(r, s);
}

/*
 * Map the window's pages up to MAPPED_AHEAD past its start in one call
 * rather than a fault at a time: a fault costs as much as mapping a
 * dozen pages this way, and many times that in a virtual machine whose
 * page tables the hypervisor shadows.  Advice only: a kernel without
 * MADV_POPULATE_READ (before 5.14) faults them in as before.
 */
static void map_ahead(const struct pd_reader *r, struct pd_stream *s)
{
#ifdef MADV_POPULATE_READ
	uint64_t to = s->start + MAPPED_AHEAD < s->end ? s->start + MAPPED_AHEAD : s->end;
	uint64_t from = (s->mapped_ahead > s->start ? s->mapped_ahead : s->start) &
			~(r->q_map_unit - 1);

	if (s->mapped_ahead == UINT64_MAX || to <= from)
		return;
	if (madvise((void *)(uintptr_t)(s->map + from), (size_t)(to - from),
		    MADV_POPULATE_READ) != 0) {
		s->mapped_ahead = UINT64_MAX;	/* not this kernel's, or past the file */
		return;
	}
	s->mapped_ahead = to;
#else
	(void)r;
	(void)s;
#endif
}

/*
 * A mapped window whose start passed mapped_check, or at its end: count
 * the bytes framed, drop the pages left behind.
 */
static ssize_t stream_fill_mapped(struct pd_reader *r, struct pd_stream *s)
{
	uint64_t to;

	r->bytes_read += s->start - s->mapped_counted;
	s->mapped_counted = s->start;
	if (s->start - s->mapped_dropped >= MAPPED_LAG + MAPPED_DROP) {
		to = (s->start - MAPPED_LAG) & ~(r->q_map_unit - 1);
		madvise((void *)(uintptr_t)(s->map + s->mapped_dropped),
			(size_t)(to - s->mapped_dropped), MADV_DONTNEED);
		s->mapped_dropped = to;
	}
	s->mapped_check = SIZE_MAX - s->start > MAPPED_DROP ? s->start + MAPPED_DROP : SIZE_MAX;
	map_ahead(r, s);
	return (ssize_t)(s->end - s->start);
}

/*
 * Make at least `need` bytes available at s->buf + s->start.  Returns the
 * number available (less than need only at end of input), PD_STATUS_IO on
 * a read error or PD_STATUS_NOMEM.  May move the window: pointers into it
 * are invalidated.
 */
static ssize_t stream_fill(struct pd_reader *r, struct pd_stream *s, size_t need)
{
	size_t avail = s->end - s->start;

	if (avail >= need && s->start < s->mapped_check)
		return (ssize_t)avail;
	if (s->mapped_window)
		return stream_fill_mapped(r, s);
	if (avail >= need)
		return (ssize_t)avail;
	if (!s->map_tried && !avail) {
		stream_map_window(r, s);
		if (s->mapped_window)
			return stream_fill_mapped(r, s);
	}
	if (s->start) {
		memmove(s->buf, s->buf + s->start, avail);
		s->start = 0;
		s->end = avail;
	}
	while (!s->eof && s->end - s->start < need) {
		size_t want;
		ssize_t n;

		/*
		 * Grow only as bytes arrive, never to a size a record header
		 * merely claims: a short stream that announces 256 MiB of
		 * tracing data costs what it holds, not what it claims.
		 * (start is 0 here, so a full buffer is smaller than need.)
		 */
		if (s->end == s->cap) {
			size_t ncap = s->cap * 2 < need ? s->cap * 2 : need;
			uint8_t *nb = realloc(s->buf, ncap);

			if (!nb)
				return PD_STATUS_NOMEM;
			s->buf = nb;
			s->cap = ncap;
		}
		want = s->cap - s->end;
		/* Never read past the data limit of a file: the feature table follows. */
		if (s->limit != UINT64_MAX) {
			uint64_t in_buf = s->pos + (s->end - s->start);
			uint64_t left = s->limit > in_buf ? s->limit - in_buf : 0;

			if (left < want)
				want = (size_t)left;
			if (!want) {
				s->eof = true;
				break;
			}
		}
		n = read(s->fd, s->buf + s->end, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return PD_STATUS_IO;
		}
		if (n == 0) {
			s->eof = true;
			break;
		}
		s->end += (size_t)n;
		r->bytes_read += (uint64_t)n;
	}
	return (ssize_t)(s->end - s->start);
}

static void stream_consume(struct pd_stream *s, size_t n)
{
	s->start += n;
	s->pos += n;
}

/*
 * Skip n bytes that are not kept (large AUX data).  Returns 0, 1 when the
 * input ends first, or the negative pd_status of a failed read.
 */
static int stream_skip(struct pd_reader *r, struct pd_stream *s, uint64_t n)
{
	size_t avail = s->end - s->start;

	if (n <= avail) {
		stream_consume(s, (size_t)n);
		return 0;
	}
	if (s->mapped_window) {
		/* past the data end: the window holds all of it */
		stream_consume(s, avail);
		return 1;
	}
	n -= avail;
	s->pos += avail;
	s->start = s->end = 0;
	if (lseek(s->fd, (off_t)n, SEEK_CUR) != (off_t)-1) {
		struct stat st;

		/* A seek past EOF succeeds silently: check against the size. */
		if (fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode)) {
			off_t cur = lseek(s->fd, 0, SEEK_CUR);

			if (cur > st.st_size) {
				s->eof = true;
				return 1;
			}
		}
		s->pos += n;
		r->bytes_read += n;
		return 0;
	}
	while (n) {
		ssize_t got = stream_fill(r, s, 1);

		if (got < 0)
			return (int)got;
		if (got == 0)
			return 1;
		avail = s->end - s->start;
		if (avail > n)
			avail = (size_t)n;
		stream_consume(s, avail);
		n -= avail;
	}
	return 0;
}

static int stream_init(struct pd_reader *r, struct pd_stream *s, int fd, bool own_fd,
		       const char *name, uint64_t pos, uint64_t limit)
{
	memset(s, 0, sizeof(*s));
	s->cur_run = -1;
	s->fd = fd;
	s->own_fd = own_fd;
	s->pos = pos;
	s->limit = limit;
	s->mapped_check = SIZE_MAX;
	s->cap = r->opts.window_size;
	s->buf = malloc(s->cap);
	if (!s->buf)
		return -1;
	if (name) {
		s->name = strdup(name);
		if (!s->name)
			return -1;
	}
	return 0;
}

static void stream_fini(struct pd_stream *s)
{
	if (s->map)
		munmap((void *)(uintptr_t)s->map, s->map_len);
	if (s->own_fd && s->fd >= 0)
		close(s->fd);
	if (!s->mapped_window)
		free(s->buf);
	free(s->name);
	free(s->zbuf);
	free(s->split);
	if (s->zds)
		ZSTD_freeDStream(s->zds);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

/* ------------------------------------------------------------------ */
/* events and ids                                                      */

/*
 * Where a slot of a sample or of a trailer is follows from sample_type
 * alone (pd_sample_fields.h): the slots before READ, and the trailer's,
 * are one u64 a bit.  The bits before a field are known when compiling,
 * so that where a record's time is costs a few instructions
 * (record_time()).
 */

/*
 * The slots the bits of `bits` in st bring, bits a constant: a test and
 * an add a bit, where __builtin_popcountll is a libgcc call without
 * -mpopcnt.
 */
static inline __attribute__((always_inline)) size_t slots(uint64_t st, uint64_t bits)
{
	size_t n = 0;
	unsigned int b;

#pragma GCC unroll 64
	for (b = 0; b < 64; b++)
		if (bits & (1ULL << b))
			n += !!(st & (1ULL << b));
	return n;
}

/* The bits of the slots before field i of a sample, i before READ. */
static inline __attribute__((always_inline)) uint64_t sample_bits_before(size_t i)
{
	/* not its own: pid's slot is tid's too, cpu's cpu_res's */
	return pd_sample_field_bits(0, i) & ~pd_sample_field_table[i].bit;
}

/* The bits of the trailer's slots from trailer field i to the record's end. */
static inline __attribute__((always_inline)) uint64_t trailer_bits_from(size_t i)
{
	const struct pd_sample_field *f;
	uint64_t bits = 0;
	size_t k;

#pragma GCC unroll 64
	for (k = 0; k < PD_SID_STEPS; k++) {
		f = pd_sample_id_field(k);
		/* the steps of field i, then those after it */
		if (f && k >= (pd_sample_field_table[i].flags & PD_SFF_SAMPLE_ID_LAST ?
			       PD_SFI_NR + i : i))
			bits |= f->bit;
	}
	return bits;
}

static void event_positions(struct pd_event *ev)
{
	/* the id that finds a record's event: IDENTIFIER's (its purpose), else ID's */
	static const size_t id_fields[] = { PD_SFI_IDENTIFIER, PD_SFI_ID };
	uint64_t st = ev->attr.sample_type;
	size_t i, f;

	ev->id_pos = -1;
	ev->is_pos = -1;
	for (i = 0; i < sizeof(id_fields) / sizeof(id_fields[0]); i++) {
		f = id_fields[i];
		if (st & pd_sample_field_table[f].bit) {
			ev->id_pos = __builtin_popcountll(st & sample_bits_before(f));
			/* counted from the end: the slot holding it is 1 */
			ev->is_pos = __builtin_popcountll(st & trailer_bits_from(f));
			break;
		}
	}
	ev->id_hdr_size = 8u * (uint32_t)__builtin_popcountll(st & pd_sample_id_bits());
	ev->sample_fixed_size = 8u * (uint32_t)__builtin_popcountll(st & pd_sample_field_bits(0,
									PD_SFI_FIXED_END));
}

static uint64_t id_hash(uint64_t id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return id;
}

static int ht_lookup(const struct pd_reader *r, uint64_t id)
{
	size_t mask, i;

	if (!r->ht_cap)
		return -1;
	mask = r->ht_cap - 1;
	for (i = id_hash(id) & mask;; i = (i + 1) & mask) {
		if (!r->ht_vals[i])
			return -1;
		if (r->ht_keys[i] == id)
			return (int)r->ht_vals[i] - 1;
	}
}

static int ht_grow(struct pd_reader *r, size_t want)
{
	size_t ncap = r->ht_cap ? r->ht_cap : 64, i;
	uint64_t *nk;
	uint32_t *nv;

	while (ncap < want * 2)
		ncap *= 2;
	if (ncap == r->ht_cap)
		return 0;
	nk = calloc(ncap, sizeof(*nk));
	nv = calloc(ncap, sizeof(*nv));
	if (!nk || !nv) {
		free(nk);
		free(nv);
		return -1;
	}
	for (i = 0; i < r->ht_cap; i++) {
		size_t j;

		if (!r->ht_vals[i])
			continue;
		for (j = id_hash(r->ht_keys[i]) & (ncap - 1); nv[j]; j = (j + 1) & (ncap - 1))
			;
		nk[j] = r->ht_keys[i];
		nv[j] = r->ht_vals[i];
	}
	free(r->ht_keys);
	free(r->ht_vals);
	r->ht_keys = nk;
	r->ht_vals = nv;
	r->ht_cap = ncap;
	return 0;
}

/* Map an id to an event; returns -1 when the id is already taken by another event. */
static int ht_insert(struct pd_reader *r, uint64_t id, size_t ev)
{
	size_t mask, i;

	if (ht_grow(r, r->total_ids + 1) < 0)
		return PD_STATUS_NOMEM;
	mask = r->ht_cap - 1;
	for (i = id_hash(id) & mask; r->ht_vals[i]; i = (i + 1) & mask) {
		if (r->ht_keys[i] == id)
			return r->ht_vals[i] - 1 == ev ? 0 : -1;
	}
	r->ht_keys[i] = id;
	r->ht_vals[i] = (uint32_t)ev + 1;
	r->last_idx = -1;
	r->total_ids++;
	return 0;
}

/* Bits and values the kernel ABI leaves reserved (docs/perf-data-format.md §4, §7.1, §7.3). */
static void check_attr(struct pd_reader *r, const struct pd_attr *a, uint64_t off, int64_t rec_idx,
		       uint32_t rec_type)
{
	if (a->sample_type & ~(PD_SAMPLE_MAX - 1))
		pd_diag_emit(&r->sink, PD_ATTR_UNKNOWN_SAMPLE_BITS, off + 24, rec_idx, rec_type,
			     false, "sample_type=%#" PRIx64, a->sample_type);
	if (a->read_format & ~(PD_FORMAT_MAX - 1))
		pd_diag_emit(&r->sink, PD_ATTR_UNKNOWN_READ_FORMAT, off + 32, rec_idx, rec_type,
			     false, "read_format=%#" PRIx64, a->read_format);
	if (a->flags & ~PD_ATTR_FLAGS_KNOWN)
		pd_diag_emit(&r->sink, PD_ATTR_RESERVED_BITS, off + 40, rec_idx, rec_type, false,
			     "field=flags value=%#" PRIx64, (uint64_t)(a->flags & ~PD_ATTR_FLAGS_KNOWN));
	if (a->reserved_2)
		pd_diag_emit(&r->sink, PD_ATTR_RESERVED_BITS, off + 110, rec_idx, rec_type, false,
			     "field=reserved_2 value=%#x", a->reserved_2);
	if (a->aux_action & ~7u)
		pd_diag_emit(&r->sink, PD_ATTR_RESERVED_BITS, off + 116, rec_idx, rec_type, false,
			     "field=aux_action value=%#x", a->aux_action);
	if ((a->sample_type & PD_SAMPLE_WEIGHT) && (a->sample_type & PD_SAMPLE_WEIGHT_STRUCT))
		pd_diag_emit(&r->sink, PD_ATTR_WEIGHT_BOTH, off + 24, rec_idx, rec_type, false,
			     "sample_type=%#" PRIx64, a->sample_type);
	if ((a->sample_type & PD_SAMPLE_BRANCH_STACK) &&
	    (a->branch_sample_type & ~(PD_BRANCH_MAX - 1)))
		pd_diag_emit(&r->sink, PD_ATTR_UNKNOWN_BRANCH_BITS, off + 72, rec_idx, rec_type,
			     false, "branch_sample_type=%#" PRIx64, a->branch_sample_type);
}

/*
 * Append an event.  Ids are copied (and capped).  Pointers inside the
 * events array change when it grows, so the ids/names pointers are
 * refreshed from the parallel arrays.
 */
static int add_event(struct pd_reader *r, const struct pd_attr *attr, uint32_t on_disk,
		     uint64_t file_offset, const uint64_t *ids, size_t nr_ids, int64_t rec_idx,
		     uint32_t rec_type)
{
	struct pd_event *ev;
	size_t i, idx = r->nr_events;
	uint64_t *copy = NULL;

	if (r->nr_events >= MAX_ATTRS) {
		pd_diag_emit(&r->sink, PD_TOO_MANY_ATTRS, file_offset, rec_idx, rec_type, false,
			     "max=%d", MAX_ATTRS);
		return -1;
	}
	if (r->nr_events == r->cap_events) {
		size_t ncap = r->cap_events ? r->cap_events * 2 : 8;
		struct pd_event *ne = realloc(r->events, ncap * sizeof(*ne));
		uint64_t **ni;
		char **nn;

		if (!ne)
			return PD_STATUS_NOMEM;
		r->events = ne;
		ni = realloc(r->event_ids, ncap * sizeof(*ni));
		if (!ni)
			return PD_STATUS_NOMEM;
		r->event_ids = ni;
		nn = realloc(r->event_names, ncap * sizeof(*nn));
		if (!nn)
			return PD_STATUS_NOMEM;
		r->event_names = nn;
		r->cap_events = ncap;
	}
	if (nr_ids > r->opts.max_ids - r->total_ids) {
		pd_diag_emit(&r->sink, PD_ATTR_TOO_MANY_IDS, file_offset, rec_idx, rec_type, false,
			     "nr_ids=%zu max=%" PRIu64, nr_ids, r->opts.max_ids);
		nr_ids = 0;
	}
	if (nr_ids) {
		copy = malloc(nr_ids * sizeof(*copy));
		if (!copy)
			return PD_STATUS_NOMEM;
		memcpy(copy, ids, nr_ids * sizeof(*copy));
	}
	check_attr(r, attr, file_offset, rec_idx, rec_type);
	ev = &r->events[idx];
	memset(ev, 0, sizeof(*ev));
	ev->attr = *attr;
	ev->attr_size_on_disk = on_disk;
	ev->file_offset = file_offset;
	ev->ids = copy;
	ev->nr_ids = nr_ids;
	r->event_ids[idx] = copy;
	r->event_names[idx] = NULL;
	event_positions(ev);
	r->nr_events++;

	for (i = 0; i < nr_ids; i++) {
		int ret = ht_insert(r, copy[i], idx);

		if (ret == PD_STATUS_NOMEM)
			return PD_STATUS_NOMEM;
		if (ret == -1)
			pd_diag_emit(&r->sink, PD_DUPLICATE_ID, file_offset, rec_idx, rec_type,
				     false, "id=%" PRIu64 " attr=%zu other_attr=%d", copy[i], idx,
				     ht_lookup(r, copy[i]));
	}
	return 0;
}

static void refresh_event_pointers(struct pd_reader *r)
{
	size_t i;

	for (i = 0; i < r->nr_events; i++) {
		struct pd_event *ev = &r->events[i];

		ev->ids = r->event_ids[i];
		if (r->event_names[i]) {
			ev->name = r->event_names[i];
		} else {
			const char *dn = pd_event_default_name(ev->attr.type, ev->attr.config);

			ev->name = dn ? dn : "unknown";
		}
	}
}

static int set_event_name(struct pd_reader *r, size_t idx, const char *name)
{
	char *copy = strdup(name);

	if (!copy)
		return PD_STATUS_NOMEM;
	free(r->event_names[idx]);
	r->event_names[idx] = copy;
	r->events[idx].name = copy;
	return 0;
}

/* Names from EVENT_DESC, matched by position as perf does. */
static void apply_event_desc(struct pd_reader *r)
{
	const struct pd_feat_event_desc *ed = &r->feat.event_desc;
	size_t i;

	if (!r->feat.raw[PD_FEAT_EVENT_DESC].decoded)
		return;
	for (i = 0; i < ed->nr && i < r->nr_events; i++)
		if (ed->ev[i].name && ed->ev[i].name[0])
			set_event_name(r, i, ed->ev[i].name);
}

/* ------------------------------------------------------------------ */
/* file header                                                         */

static void fix_bitmap(struct pd_reader *r, const uint8_t *raw)
{
	uint64_t *bm = r->hdr.features;
	int i;

	for (i = 0; i < 4; i++)
		bm[i] = pd_ld64(raw + 8 * i, r->swap);
	if (!r->swap || (bm[0] & (1ULL << PD_FEAT_HOSTNAME)))
		return;
	/* A 32-bit big-endian writer: swap as u32 words instead (perf's heuristic). */
	for (i = 0; i < 4; i++) {
		uint32_t lo = pd_ld32(raw + 8 * i, true);
		uint32_t hi = pd_ld32(raw + 8 * i + 4, true);

		bm[i] = (uint64_t)lo | ((uint64_t)hi << 32);
	}
	if (bm[0] & (1ULL << PD_FEAT_HOSTNAME)) {
		r->bitmap_u32 = true;
		DIAG(r, PD_BITMAP_HEURISTIC, 72, "words=u32");
		return;
	}
	memset(bm, 0, 4 * sizeof(*bm));
	bm[0] = 1ULL << PD_FEAT_BUILD_ID;
	DIAG(r, PD_BITMAP_HEURISTIC, 72, "fallback=build_id_only");
}

/* The byte of the file header that holds feature bit `bit`, in the file's word order. */
static uint64_t bitmap_byte(const struct pd_reader *r, unsigned int bit)
{
	if (!r->swap)
		return 72 + bit / 8;
	if (r->bitmap_u32)
		return 72 + 4 * (bit / 32) + 3 - (bit % 32) / 8;
	return 72 + 8 * (bit / 64) + 7 - (bit % 64) / 8;
}

static bool section_in_file(const struct pd_section *s, uint64_t file_size)
{
	return s->offset <= file_size && s->size <= file_size - s->offset;
}

static bool sections_overlap(const struct pd_section *a, const struct pd_section *b)
{
	if (!a->size || !b->size)
		return false;
	return a->offset < b->offset + b->size && b->offset < a->offset + a->size;
}

/* The size field of the attr that starts at off (0 means PERF_ATTR_SIZE_VER0). */
static bool attr_size_at(const struct pd_reader *r, int fd, uint64_t off, uint32_t *size)
{
	uint8_t b[4];

	if (pd_io_pread(fd, b, sizeof(b), off + 4) < 0)
		return false;
	*size = pd_ld32(b, r->swap);
	if (!*size)
		*size = PD_ATTR_SIZE_VER0;
	return true;
}

/*
 * Do the attrs of the section sit stride bytes apart, each saying it is
 * stride - 16 bytes long (want_own) or all saying the same size?
 */
static bool attrs_tile(const struct pd_reader *r, int fd, uint64_t stride, bool want_own)
{
	const struct pd_header *h = &r->hdr;
	uint32_t first = 0, size;
	uint64_t i, n;

	if (stride < PD_ATTR_SIZE_VER0 + 16 || !h->attrs.size || h->attrs.size % stride)
		return false;
	n = h->attrs.size / stride;
	if (n > MAX_ATTRS)
		return false;
	for (i = 0; i < n; i++) {
		if (!attr_size_at(r, fd, h->attrs.offset + i * stride, &size))
			return false;
		if (i == 0)
			first = size;
		if (size != first || (want_own && size != stride - 16))
			return false;
	}
	return true;
}

/*
 * A header attr_size that does not tile the attrs section while the
 * attrs' own size fields do: the header field is wrong, and every attr
 * read with it would be misread.  Returns the attr_size that fits, or 0.
 * (Files whose attrs all state another size than attr_size - 16 but
 * tile with attr_size are old perf's and read as they are: PD101.)
 */
static uint64_t attr_size_that_fits(const struct pd_reader *r, int fd)
{
	const struct pd_header *h = &r->hdr;
	uint32_t own;

	if (!section_in_file(&h->attrs, h->file_size) || h->attrs.size < 8)
		return 0;
	if (attrs_tile(r, fd, h->attr_size, false))
		return 0;
	if (!attr_size_at(r, fd, h->attrs.offset, &own))
		return 0;
	if (own + 16ULL == h->attr_size || !attrs_tile(r, fd, own + 16ULL, true))
		return 0;
	return own + 16ULL;
}

static int read_attrs(struct pd_reader *r, int fd)
{
	const struct pd_header *h = &r->hdr;
	uint64_t n, i, file_size = h->file_size, fits;
	uint8_t *buf;

	fits = attr_size_that_fits(r, fd);
	if (fits) {
		DIAG(r, PD_ATTR_SIZE_WRONG, 16,
		     "attr_size=%" PRIu64 " attrs_size=%" PRIu64 " attr.size=%" PRIu64 " fits=%" PRIu64,
		     h->attr_size, h->attrs.size, fits - 16, fits);
		r->hdr.attr_size = fits;
	}
	if (h->attr_size < PD_ATTR_SIZE_VER0 + 16) {
		DIAG_FATAL(r, PD_BAD_ATTR_SIZE, 16, "attr_size=%" PRIu64 " min=%d", h->attr_size,
			   PD_ATTR_SIZE_VER0 + 16);
		return PD_STATUS_MALFORMED;
	}
	if (!section_in_file(&h->attrs, file_size)) {
		DIAG_FATAL(r, PD_SECTION_OUT_OF_FILE, 24,
			   "section=attrs offset=%" PRIu64 " size=%" PRIu64 " file_size=%" PRIu64,
			   h->attrs.offset, h->attrs.size, file_size);
		return PD_STATUS_MALFORMED;
	}
	n = h->attrs.size / h->attr_size;
	if (h->attrs.size % h->attr_size)
		DIAG(r, PD_ATTRS_SIZE_REMAINDER, 32, "attrs_size=%" PRIu64 " attr_size=%" PRIu64,
		     h->attrs.size, h->attr_size);
	if (n == 0) {
		DIAG(r, PD_NO_ATTRS, 32, "attrs_size=%" PRIu64, h->attrs.size);
		return 0;
	}
	if (n > MAX_ATTRS) {
		DIAG_FATAL(r, PD_TOO_MANY_ATTRS, 32, "nr=%" PRIu64 " max=%d", n, MAX_ATTRS);
		return PD_STATUS_MALFORMED;
	}
	buf = malloc((size_t)(n * h->attr_size));
	if (!buf)
		return PD_STATUS_NOMEM;
	if (pd_io_pread(fd, buf, (size_t)(n * h->attr_size), h->attrs.offset) < 0) {
		free(buf);
		DIAG_FATAL(r, PD_IO_ERROR, h->attrs.offset, "errno=%d", errno);
		return PD_STATUS_IO;
	}
	for (i = 0; i < n; i++) {
		const uint8_t *e = buf + i * h->attr_size;
		uint64_t eoff = h->attrs.offset + i * h->attr_size;
		uint32_t asz = pd_ld32(e + 4, r->swap);
		uint32_t on_disk = asz ? asz : PD_ATTR_SIZE_VER0;
		uint32_t room = (uint32_t)(h->attr_size - 16);
		struct pd_section ids;
		struct pd_attr attr;
		uint64_t *idv = NULL;
		size_t nr_ids = 0;
		int ret;

		if (on_disk != room)
			DIAG(r, PD_ATTR_SIZE_MISMATCH, eoff + 4,
			     "attr=%" PRIu64 " size=%u attr_size=%" PRIu64, i, on_disk, h->attr_size);
		if (on_disk % 8 || on_disk < PD_ATTR_SIZE_VER0 || (on_disk > 96 && on_disk < 104) ||
		    on_disk > PD_ATTR_SIZE_MAX_KNOWN)
			if (on_disk != 96 && !(on_disk >= 64 && on_disk <= PD_ATTR_SIZE_MAX_KNOWN &&
					       on_disk % 8 == 0))
				DIAG(r, PD_ATTR_SIZE_UNKNOWN, eoff + 4, "attr=%" PRIu64 " size=%u",
				     i, on_disk);
		pd_attr_decode(e, on_disk < room ? on_disk : room, r->swap, &attr);
		/* The id section follows the attr as the header's attr_size places it. */
		ids.offset = pd_ld64(e + room, r->swap);
		ids.size = pd_ld64(e + room + 8, r->swap);
		if (ids.size) {
			if (!section_in_file(&ids, file_size)) {
				DIAG(r, PD_ATTR_IDS_OUT_OF_FILE, eoff + room,
				     "attr=%" PRIu64 " offset=%" PRIu64 " size=%" PRIu64, i,
				     ids.offset, ids.size);
			} else {
				if (ids.size % 8)
					DIAG(r, PD_ATTR_IDS_SIZE, eoff + room + 8,
					     "attr=%" PRIu64 " size=%" PRIu64, i, ids.size);
				nr_ids = (size_t)(ids.size / 8);
				if (nr_ids > r->opts.max_ids) {
					DIAG(r, PD_ATTR_TOO_MANY_IDS, eoff + room + 8,
					     "attr=%" PRIu64 " nr=%zu max=%" PRIu64, i, nr_ids,
					     r->opts.max_ids);
					nr_ids = 0;
				}
			}
			if (nr_ids) {
				size_t k;

				idv = malloc(nr_ids * 8);
				if (!idv) {
					free(buf);
					return PD_STATUS_NOMEM;
				}
				if (pd_io_pread(fd, idv, nr_ids * 8, ids.offset) < 0) {
					free(idv);
					free(buf);
					DIAG_FATAL(r, PD_IO_ERROR, ids.offset, "errno=%d", errno);
					return PD_STATUS_IO;
				}
				if (r->swap)
					for (k = 0; k < nr_ids; k++)
						idv[k] = __builtin_bswap64(idv[k]);
			}
		}
		ret = add_event(r, &attr, on_disk, eoff, idv, nr_ids, -1, 0);
		free(idv);
		if (ret == 0 && r->nr_events) {
			r->events[r->nr_events - 1].ids_offset = ids.offset;
			r->events[r->nr_events - 1].ids_size = ids.size;
		}
		if (ret == PD_STATUS_NOMEM) {
			free(buf);
			return PD_STATUS_NOMEM;
		}
	}
	free(buf);
	return 0;
}

/* The cross-attr rules perf applies when opening a file (docs/perf-data-format.md §7.7). */
static void check_attr_consistency(struct pd_reader *r)
{
	const struct pd_event *first;
	size_t i;

	if (!r->nr_events)
		return;
	first = &r->events[0];
	if ((first->attr.sample_type & PD_SAMPLE_READ) &&
	    !(first->attr.read_format & PD_FORMAT_ID))
		DIAG(r, PD_ATTR_READ_WITHOUT_ID, first->file_offset + 32,
		     "attr=0 read_format=%#" PRIx64, first->attr.read_format);
	if (r->nr_events < 2 || pd_features_has(&r->feat, PD_FEAT_STAT))
		return;
	for (i = 0; i < r->nr_events; i++) {
		const struct pd_event *ev = &r->events[i];

		if (ev->id_pos != first->id_pos || ev->is_pos != first->is_pos || ev->id_pos < 0)
			DIAG(r, PD_ATTR_ID_POS_MISMATCH, ev->file_offset + 24,
			     "attr=%zu id_pos=%d is_pos=%d first_id_pos=%d first_is_pos=%d", i,
			     ev->id_pos, ev->is_pos, first->id_pos, first->is_pos);
		if ((ev->attr.flags ^ first->attr.flags) & PD_ATTR_SAMPLE_ID_ALL)
			DIAG(r, PD_ATTR_SAMPLE_ID_ALL_MISMATCH, ev->file_offset + 40,
			     "attr=%zu sample_id_all=%d first=%d", i,
			     !!(ev->attr.flags & PD_ATTR_SAMPLE_ID_ALL),
			     !!(first->attr.flags & PD_ATTR_SAMPLE_ID_ALL));
	}
}

/* Features whose payload may legitimately be empty. */
static bool feature_may_be_empty(const struct pd_reader *r, unsigned int bit)
{
	switch (bit) {
	case PD_FEAT_BRANCH_STACK:
	case PD_FEAT_STAT:
	case PD_FEAT_BUILD_ID:
		return true;
	case PD_FEAT_AUXTRACE:
		return r->simpleperf;
	default:
		return !pd_feature_is_known(bit) || bit >= PD_FEAT_SP_FILE;
	}
}

/* Does the section at s decode as feature bit, in byte order swap, without a complaint? */
static bool section_fits_order(struct pd_reader *r, int fd, const struct pd_section *s,
			       unsigned int bit, bool swap)
{
	struct pd_diag_sink *sink;
	struct pd_features scratch;
	uint8_t *payload;
	bool ok = false;

	if (!section_in_file(s, r->hdr.file_size) || s->size > MAX_FEATURE_SIZE)
		return false;
	if (!s->size)
		return feature_may_be_empty(r, bit);
	sink = calloc(1, sizeof(*sink));
	payload = malloc((size_t)s->size);
	if (sink && payload && pd_io_pread(fd, payload, (size_t)s->size, s->offset) == 0) {
		pd_features_init(&scratch);
		if (pd_feature_decode(&scratch, bit, payload, (size_t)s->size, swap, s->offset,
				      -1, 0, sink) >= 0)
			ok = !sink->counts[PD_SEV_ERROR] && !sink->counts[PD_SEV_WARNING];
		pd_features_free(&scratch);
	}
	free(payload);
	free(sink);
	return ok;
}

static bool section_fits(struct pd_reader *r, int fd, const struct pd_section *s, unsigned int bit)
{
	return section_fits_order(r, fd, s, bit, r->swap);
}

/*
 * perf inject on a host of the other byte order writes the header, attrs
 * and records of a byte-swapped file swapped but its feature sections as
 * they are in its own memory: in the reader's order (perf then shows
 * "(null)" for the hostname).  Seen as a HOSTNAME that decodes only
 * unswapped.  Returns the byte order to decode the features in.
 */
static bool feature_byte_order(struct pd_reader *r, int fd, const uint8_t *table,
			       const unsigned int *bits, uint64_t nr)
{
	struct pd_section s;
	uint64_t k;

	if (!r->swap)
		return false;
	for (k = 0; k < nr && bits[k] != PD_FEAT_HOSTNAME; k++)
		;
	if (k == nr)
		return true;
	s.offset = pd_ld64(table + 16 * k, r->swap);
	s.size = pd_ld64(table + 16 * k + 8, r->swap);
	if (section_fits_order(r, fd, &s, PD_FEAT_HOSTNAME, true) ||
	    !section_fits_order(r, fd, &s, PD_FEAT_HOSTNAME, false))
		return true;
	DIAG(r, PD_FEAT_WRITER_BYTE_ORDER, s.offset,
	     "feature=HOSTNAME writer=perf_inject features=not_swapped header=swapped");
	return false;
}

/* Bits set without a section that the table layout can still tell apart. */
#define MAX_BITS_WITHOUT_SECTION 4

static bool entry_past_table(struct pd_reader *r, const uint8_t *table, uint64_t j,
			     uint64_t table_end)
{
	struct pd_section e = { pd_ld64(table + 16 * j, r->swap), pd_ld64(table + 16 * j + 8, r->swap) };

	return section_in_file(&e, r->hdr.file_size) && e.offset >= table_end;
}

/*
 * A bitmap with m bits more than the table has entries: every entry
 * after the first such bit's place is read for a bit before its own, and
 * the last m from past the table (zeros where perf reserved room, or the
 * first payload bytes) point nowhere.  Seen as: every entry but the last
 * m lies in the file past a table of nr - m entries, the last m do not
 * (the least m for which that holds).  Find the bits that have no
 * section: those that let the most entries decode as the features they
 * are then read for (ties: the latest, so that entries that decode as
 * they are keep their bits).  Fills missing[] with their ranks in bits[],
 * in order, and returns m, or 0 when the table does not look like that.
 */
static unsigned int bits_without_section(struct pd_reader *r, int fd, const uint8_t *table,
					 uint64_t table_off, uint64_t nr, const unsigned int *bits,
					 uint64_t *missing)
{
	/* best[j][d]: the most entries j.. that fit when entry j is read for bits[j + d] */
	static const unsigned int M = MAX_BITS_WITHOUT_SECTION;
	unsigned int best[PD_FEAT_BITS][MAX_BITS_WITHOUT_SECTION + 1];
	unsigned int m, d, dd, top, nmiss = 0;
	uint64_t j, n, rank;

	for (m = 1; m <= M && m < nr; m++) {
		uint64_t end = table_off + 16 * (nr - m);

		for (j = 0; j < nr - m && entry_past_table(r, table, j, end); j++)
			;
		if (j < nr - m)
			continue;
		for (j = nr - m; j < nr && !entry_past_table(r, table, j, end); j++)
			;
		if (j == nr)
			break;
	}
	if (m > M || m >= nr)
		return 0;
	n = nr - m;
	for (j = n; j-- > 0;) {
		struct pd_section e = { pd_ld64(table + 16 * j, r->swap),
					pd_ld64(table + 16 * j + 8, r->swap) };

		for (d = 0; d <= m; d++) {
			top = 0;
			for (dd = d; j + 1 < n && dd <= m; dd++)
				if (best[j + 1][dd] > top)
					top = best[j + 1][dd];
			best[j][d] = top + section_fits(r, fd, &e, bits[j + d]);
		}
	}
	/* the least shift at each entry on ties: the missing bits come as late as they can */
	for (j = 0, d = 0, rank = 0; j < n; j++) {
		unsigned int pick = d;

		for (dd = d; dd <= m; dd++)
			if (best[j][dd] > best[j][pick])
				pick = dd;
		for (; rank < j + pick; rank++)
			missing[nmiss++] = rank;
		rank = j + pick + 1;
		d = pick;
	}
	for (; rank < nr; rank++)
		missing[nmiss++] = rank;
	return nmiss == m ? m : 0;
}

static int read_features(struct pd_reader *r, int fd)
{
	const struct pd_header *h = &r->hdr;
	uint64_t table_off, nr = 0, k = 0;
	unsigned int bit, bits[PD_FEAT_BITS], nr_missing, i;
	uint64_t missing[MAX_BITS_WITHOUT_SECTION], no_section[PD_FEAT_BITS / 64] = { 0 };
	bool feat_swap;
	uint8_t *table;

	if (!h->has_feature_bitmap || !h->data.size)
		return 0;
	for (bit = 0; bit < PD_FEAT_BITS; bit++)
		if ((h->features[bit / 64] >> (bit % 64)) & 1)
			nr++;
	if (h->features[0] & 1)
		DIAG(r, PD_RESERVED_FEATURE_BIT, bitmap_byte(r, 0), "bit=0");
	if (!nr)
		return 0;
	table_off = h->data.offset + h->data.size;
	r->hdr.feat_table_offset = table_off;
	r->hdr.feat_table_entries = (uint32_t)nr;
	if (table_off > h->file_size || nr * 16 > h->file_size - table_off) {
		DIAG(r, PD_FEATURE_TABLE_OUT_OF_FILE, table_off,
		     "offset=%" PRIu64 " entries=%" PRIu64 " file_size=%" PRIu64, table_off, nr,
		     h->file_size);
		return 0;
	}
	table = malloc((size_t)nr * 16);
	if (!table)
		return PD_STATUS_NOMEM;
	if (pd_io_pread(fd, table, (size_t)nr * 16, table_off) < 0) {
		free(table);
		DIAG_FATAL(r, PD_IO_ERROR, table_off, "errno=%d", errno);
		return PD_STATUS_IO;
	}
	for (bit = 0, k = 0; bit < PD_FEAT_BITS; bit++)
		if ((h->features[bit / 64] >> (bit % 64)) & 1)
			bits[k++] = bit;
	k = 0;
	feat_swap = feature_byte_order(r, fd, table, bits, nr);
	nr_missing = bits_without_section(r, fd, table, table_off, nr, bits, missing);
	for (i = 0; i < nr_missing; i++) {
		unsigned int nb = bits[missing[i]];

		DIAG(r, PD_FEATURE_BIT_NO_SECTION, bitmap_byte(r, nb),
		     "bit=%u feature=%s entry=%" PRIu64 " entry_offset=%" PRIu64
		     " entries_written=%" PRIu64 " bits_set=%" PRIu64, nb,
		     pd_feature_name(nb) ? pd_feature_name(nb) : "unknown", missing[i],
		     table_off + 16 * missing[i], nr - nr_missing, nr);
		no_section[nb / 64] |= 1ULL << (nb % 64);
	}
	r->hdr.feat_table_entries = (uint32_t)(nr - nr_missing);
	for (bit = 0; bit < PD_FEAT_BITS; bit++) {
		struct pd_section s;
		uint64_t eoff;
		uint8_t *payload;
		int ret;

		if (!((h->features[bit / 64] >> (bit % 64)) & 1) ||
		    ((no_section[bit / 64] >> (bit % 64)) & 1))
			continue;
		eoff = table_off + k * 16;
		s.offset = pd_ld64(table + k * 16, r->swap);
		s.size = pd_ld64(table + k * 16 + 8, r->swap);
		r->hdr.feat_sections[bit] = s;
		r->feat_entry[bit] = eoff;
		k++;
		if (bit == 0)
			continue;
		if (!pd_feature_is_known(bit))
			DIAG(r, PD_UNKNOWN_FEATURE_BIT, bitmap_byte(r, bit),
			     "bit=%u byte_bit=%u entry=%" PRIu64 " entry_offset=%" PRIu64
			     " section_offset=%" PRIu64 " size=%" PRIu64, bit, bit % 8, k - 1, eoff,
			     s.offset, s.size);
		if (!section_in_file(&s, h->file_size)) {
			DIAG(r, PD_FEAT_SECTION_OUT_OF_FILE, eoff,
			     "feature=%s offset=%" PRIu64 " size=%" PRIu64 " file_size=%" PRIu64,
			     pd_feature_name(bit) ? pd_feature_name(bit) : "unknown", s.offset,
			     s.size, h->file_size);
			continue;
		}
		if (s.size > MAX_FEATURE_SIZE) {
			DIAG(r, PD_FEAT_TOO_LARGE, eoff + 8, "feature=%u size=%" PRIu64 " max=%llu",
			     bit, s.size, MAX_FEATURE_SIZE);
			continue;
		}
		if (!s.size && !feature_may_be_empty(r, bit)) {
			/* perf leaves the bit set when a writer fails (seen in perf 3.x files). */
			DIAG(r, PD_FEAT_EMPTY, eoff + 8, "feature=%s", pd_feature_name(bit));
			continue;
		}
		payload = malloc(s.size ? (size_t)s.size : 1);
		if (!payload) {
			free(table);
			return PD_STATUS_NOMEM;
		}
		if (s.size && pd_io_pread(fd, payload, (size_t)s.size, s.offset) < 0) {
			free(payload);
			free(table);
			DIAG_FATAL(r, PD_IO_ERROR, s.offset, "errno=%d", errno);
			return PD_STATUS_IO;
		}
		ret = pd_feature_decode(&r->feat, bit, payload, (size_t)s.size, feat_swap, s.offset,
					-1, 0, &r->sink);
		free(payload);
		if (ret == PD_STATUS_NOMEM) {
			free(table);
			return PD_STATUS_NOMEM;
		}
	}
	free(table);
	return 0;
}

/*
 * Could a feature section table of nr entries start at off?  perf writes
 * the table right after the records and the sections after the table, in
 * bit order: the first entry points past the table (a few entries more
 * when perf reserved room for features it then failed to write, fewer
 * when bits without a section were counted in nr), and every entry
 * before the first section lies in the file.
 */
static bool table_plausible(const struct pd_reader *r, int fd, uint64_t off, uint64_t nr)
{
	uint64_t file_size = r->hdr.file_size, first, k;
	struct pd_section s;
	uint8_t e[16];

	if (!nr || off > file_size || nr * 16 > file_size - off)
		return false;
	if (pd_io_pread(fd, e, sizeof(e), off) < 0)
		return false;
	s.offset = pd_ld64(e, r->swap);
	s.size = pd_ld64(e + 8, r->swap);
	if (s.offset < off + 16 || (s.offset - off) % 8 || !section_in_file(&s, file_size))
		return false;
	first = (s.offset - off) / 16;
	if (first > nr + PD_FEAT_BITS / 8)
		return false;
	for (k = 1; k < nr && k < first; k++) {
		if (pd_io_pread(fd, e, sizeof(e), off + 16 * k) < 0)
			return false;
		s.offset = pd_ld64(e, r->swap);
		s.size = pd_ld64(e + 8, r->swap);
		if (!section_in_file(&s, file_size) || s.offset < off + 16 * first)
			return false;
	}
	return true;
}

/* Window of the record walk below. */
#define WALK_WINDOW	65536

/*
 * Where the chain of record headers that starts at start stops: the first
 * offset at or past end, or where no record header fits (size below 8,
 * or running past the file).  Reads headers only, a window at a time.
 */
static uint64_t walk_records(const struct pd_reader *r, int fd, uint64_t start, uint64_t end)
{
	uint64_t file_size = r->hdr.file_size, pos = start, wbase = 0, wlen = 0;
	uint8_t *w = malloc(WALK_WINDOW);

	if (!w)
		return start;
	while (pos < end && file_size - pos >= 8) {
		struct pd_record_header h;

		if (pos < wbase || pos - wbase > wlen - 8 || wlen < 8) {
			wbase = pos;
			wlen = file_size - pos < WALK_WINDOW ? file_size - pos : WALK_WINDOW;
			if (pd_io_pread(fd, w, (size_t)wlen, wbase) < 0)
				break;
		}
		h = pd_rec_header(w + (pos - wbase), r->swap);
		if (h.size < 8 || h.size > file_size - pos || h.size < pd_record_min_size(h.type))
			break;
		pos += h.size;
	}
	free(w);
	return pos;
}

/*
 * data.size is 0 (perf record killed before it rewrote the header) or
 * does not end where the records do, while a feature table follows the
 * records: find the real end of the records, so that the features are
 * read from their table and the records are not taken for features (or
 * the features for records).  Reports the header field as the cause.
 */
static void find_data_end(struct pd_reader *r, int fd)
{
	struct pd_header *h = &r->hdr;
	uint64_t nr = 0, data_end, end;
	unsigned int bit;

	if (h->has_feature_bitmap)
		for (bit = 0; bit < PD_FEAT_BITS; bit++)
			if ((h->features[bit / 64] >> (bit % 64)) & 1)
				nr++;
	if (!h->data.size) {
		end = nr ? walk_records(r, fd, h->data.offset, h->file_size) : h->file_size;
		if (end < h->file_size && table_plausible(r, fd, end, nr)) {
			DIAG(r, PD_DATA_SIZE_ZERO, 48,
			     "data_offset=%" PRIu64 " file_size=%" PRIu64 " records_end=%" PRIu64
			     " feature_table=%" PRIu64, h->data.offset, h->file_size, end, end);
			h->data.size = end - h->data.offset;
		} else {
			DIAG(r, PD_DATA_SIZE_ZERO, 48, "data_offset=%" PRIu64 " file_size=%" PRIu64,
			     h->data.offset, h->file_size);
		}
		return;
	}
	if (!nr || !section_in_file(&h->data, h->file_size))
		return;
	data_end = h->data.offset + h->data.size;
	if (table_plausible(r, fd, data_end, nr))
		return;
	end = walk_records(r, fd, h->data.offset, h->file_size);
	if (end == data_end || end == h->data.offset || !table_plausible(r, fd, end, nr))
		return;
	DIAG(r, PD_DATA_SIZE_WRONG, 48,
	     "data_offset=%" PRIu64 " data_size=%" PRIu64 " records_end=%" PRIu64
	     " fits=%" PRIu64, h->data.offset, h->data.size, end, end - h->data.offset);
	h->data.size = end - h->data.offset;
}

/* simpleperf writes its own feature ids or record types; some rules differ. */
static void detect_simpleperf(struct pd_reader *r)
{
	unsigned int bit;

	for (bit = PD_FEAT_SP_FILE; bit < PD_FEAT_SP_MAX; bit++)
		if ((r->hdr.features[bit / 64] >> (bit % 64)) & 1)
			r->simpleperf = true;
}

/*
 * The obsolete event_types section (perf before 2.6.38 wrote it; later
 * files leave it empty): u64 id and a 64-byte name per entry.  A section
 * outside the file is left undecoded (perfcheck's layout check reports
 * it); at most MAX_ATTRS entries are kept.
 */
#define EVENT_TYPE_ENTRY	72

static int read_event_types(struct pd_reader *r, int fd)
{
	const struct pd_section *sec = &r->hdr.event_types;
	uint64_t n = sec->size / EVENT_TYPE_ENTRY, i;
	uint8_t *raw;

	if (!n || !section_in_file(sec, r->hdr.file_size))
		return 0;
	if (n > MAX_ATTRS)
		n = MAX_ATTRS;
	raw = malloc((size_t)n * EVENT_TYPE_ENTRY);
	r->event_types = calloc((size_t)n, sizeof(*r->event_types));
	if (!raw || !r->event_types) {
		free(raw);
		return PD_STATUS_NOMEM;
	}
	if (pd_io_pread(fd, raw, (size_t)n * EVENT_TYPE_ENTRY, sec->offset) < 0) {
		DIAG(r, PD_IO_ERROR, sec->offset, "section=event_types errno=%d", errno);
		free(raw);
		return 0;
	}
	for (i = 0; i < n; i++) {
		struct pd_event_type *et = &r->event_types[i];
		const uint8_t *e = raw + i * EVENT_TYPE_ENTRY;

		et->id = pd_ld64(e, r->swap);
		memcpy(et->name, e + 8, sizeof(et->name) - 1);
		et->name[sizeof(et->name) - 1] = '\0';
	}
	r->nr_event_types = (size_t)n;
	free(raw);
	return 0;
}

static int open_file_mode(struct pd_reader *r, int fd, const uint8_t *hb)
{
	struct pd_header *h = &r->hdr;
	struct pd_stream *s;
	uint64_t limit;
	int ret;

	h->mode = PD_MODE_FILE;
	h->attr_size = pd_ld64(hb + 16, r->swap);
	h->attrs.offset = pd_ld64(hb + 24, r->swap);
	h->attrs.size = pd_ld64(hb + 32, r->swap);
	h->data.offset = pd_ld64(hb + 40, r->swap);
	h->data.size = pd_ld64(hb + 48, r->swap);
	h->event_types.offset = pd_ld64(hb + 56, r->swap);
	h->event_types.size = pd_ld64(hb + 64, r->swap);
	if (h->header_size == FILE_HEADER_SIZE) {
		h->has_feature_bitmap = true;
		fix_bitmap(r, hb + 72);
	}
	detect_simpleperf(r);

	if (h->event_types.size)
		DIAG(r, PD_EVENT_TYPES_NONZERO, 56, "offset=%" PRIu64 " size=%" PRIu64,
		     h->event_types.offset, h->event_types.size);
	if (!section_in_file(&h->data, h->file_size)) {
		/* A truncated copy: read what is there, complain once. */
		DIAG(r, PD_SECTION_OUT_OF_FILE, 40,
		     "section=data offset=%" PRIu64 " size=%" PRIu64 " file_size=%" PRIu64,
		     h->data.offset, h->data.size, h->file_size);
		if (h->data.offset > h->file_size) {
			DIAG_FATAL(r, PD_SECTION_OUT_OF_FILE, 40, "section=data unreadable");
			return PD_STATUS_MALFORMED;
		}
	}
	if (h->data.offset < h->header_size && h->data.size)
		DIAG(r, PD_HEADER_DATA_BEFORE_HEADER, 40, "section=data offset=%" PRIu64,
		     h->data.offset);
	if (h->attrs.offset < h->header_size && h->attrs.size)
		DIAG(r, PD_HEADER_DATA_BEFORE_HEADER, 24, "section=attrs offset=%" PRIu64,
		     h->attrs.offset);
	if (sections_overlap(&h->attrs, &h->data))
		DIAG(r, PD_SECTION_OVERLAP, 24,
		     "a=attrs b=data attrs_offset=%" PRIu64 " data_offset=%" PRIu64,
		     h->attrs.offset, h->data.offset);

	ret = read_attrs(r, fd);
	if (ret < 0)
		return ret;
	find_data_end(r, fd);
	ret = read_features(r, fd);
	if (ret < 0)
		return ret;
	ret = read_event_types(r, fd);
	if (ret < 0)
		return ret;
	check_attr_consistency(r);
	apply_event_desc(r);

	/*
	 * data.size == 0 means perf record was killed: the records run to
	 * the end of the file (docs/perf-data-format.md §3.2).
	 */
	if (h->data.size == 0)
		limit = h->file_size;
	else if (section_in_file(&h->data, h->file_size))
		limit = h->data.offset + h->data.size;
	else
		limit = h->file_size;

	r->streams = calloc(1, sizeof(*r->streams));
	if (!r->streams)
		return PD_STATUS_NOMEM;
	r->nr_streams = 1;
	s = &r->streams[0];
	if (stream_init(r, s, fd, false, NULL, h->data.offset, limit) < 0)
		return PD_STATUS_NOMEM;
	s->limit_is_eof = limit == h->file_size && (h->data.size == 0 ||
						    !section_in_file(&h->data, h->file_size));
	if (lseek(fd, (off_t)h->data.offset, SEEK_SET) == (off_t)-1) {
		DIAG_FATAL(r, PD_IO_ERROR, h->data.offset, "errno=%d", errno);
		return PD_STATUS_IO;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return 0;
}

/* Copy a non-seekable input to an unlinked temporary file. */
static int spool(struct pd_reader *r, int fd, const uint8_t *head, size_t head_len)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	uint8_t *buf;
	int tfd;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/perfdata-spool-XXXXXX", dir);
	tfd = mkstemp(path);
	if (tfd < 0)
		return -1;
	unlink(path);
	buf = malloc(1 << 20);
	if (!buf) {
		close(tfd);
		return -1;
	}
	if (pd_write_all(tfd, head, head_len) < 0)
		goto fail;
	for (;;) {
		ssize_t n = pd_io_read(fd, buf, 1 << 20);

		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		r->bytes_read += (uint64_t)n;
		if (pd_write_all(tfd, buf, (size_t)n) < 0)
			goto fail;
	}
	free(buf);
	r->hdr.spooled = true;
	return tfd;
fail:
	free(buf);
	close(tfd);
	return -1;
}

/*
 * Identify the container from its first bytes.  `main_fd` may be replaced
 * by a spool file for non-seekable file-mode input.
 */
static int open_main(struct pd_reader *r, int fd, bool own_fd)
{
	struct pd_header *h = &r->hdr;
	uint8_t hb[FILE_HEADER_SIZE];
	bool seekable;
	struct stat st;
	int got, ret;
	uint64_t magic;

	memset(hb, 0, sizeof(hb));
	seekable = lseek(fd, 0, SEEK_CUR) != (off_t)-1 && fstat(fd, &st) == 0 &&
		   S_ISREG(st.st_mode);
	if (seekable) {
		h->file_size = (uint64_t)st.st_size;
		got = (int)pread(fd, hb, sizeof(hb), 0);
		if (got < 0) {
			DIAG_FATAL(r, PD_IO_ERROR, 0, "errno=%d", errno);
			return PD_STATUS_IO;
		}
	} else {
		got = (int)pd_io_read(fd, hb, PIPE_HEADER_SIZE);
		if (got < 0) {
			DIAG_FATAL(r, PD_IO_ERROR, 0, "errno=%d", errno);
			return PD_STATUS_IO;
		}
		r->bytes_read += (uint64_t)got;
	}
	if (got == 0) {
		DIAG_FATAL(r, PD_EMPTY_FILE, 0, "size=0");
		return PD_STATUS_MALFORMED;
	}
	if (got < 16) {
		DIAG_FATAL(r, PD_TRUNCATED_HEADER, 0, "size=%d need=16", got);
		return PD_STATUS_MALFORMED;
	}
	magic = pd_ld64(hb, false);
	h->magic = magic;
	if (magic == MAGIC_PERFILE2) {
		r->swap = false;
	} else if (magic == MAGIC_PERFILE2_SWAPPED) {
		r->swap = true;
	} else if (magic == MAGIC_PERFFILE || magic == MAGIC_PERFFILE_SWAPPED) {
		DIAG_FATAL(r, PD_LEGACY_PERFFILE, 0, "magic=PERFFILE");
		return PD_STATUS_MALFORMED;
	} else {
		DIAG_FATAL(r, PD_NOT_PERF, 0, "magic=0x%016" PRIx64, magic);
		return PD_STATUS_MALFORMED;
	}
	h->swapped = r->swap;
	h->big_endian = (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) == r->swap;
	if (r->swap)
		DIAG(r, PD_BYTE_SWAPPED, 0, "byte_order=%s", h->big_endian ? "big" : "little");
	pd_decoder_init(&r->dec, r->swap);
	h->header_size = pd_ld64(hb + 8, r->swap);

	if (h->header_size == PIPE_HEADER_SIZE) {
		struct pd_stream *s;

		h->mode = PD_MODE_PIPE;
		r->streams = calloc(1, sizeof(*r->streams));
		if (!r->streams)
			return PD_STATUS_NOMEM;
		r->nr_streams = 1;
		s = &r->streams[0];
		if (stream_init(r, s, fd, own_fd, NULL, PIPE_HEADER_SIZE, UINT64_MAX) < 0)
			return PD_STATUS_NOMEM;
		if (seekable) {
			if (lseek(fd, PIPE_HEADER_SIZE, SEEK_SET) == (off_t)-1) {
				DIAG_FATAL(r, PD_IO_ERROR, 0, "errno=%d", errno);
				return PD_STATUS_IO;
			}
			posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		}
		return 0;
	}
	if (h->header_size != FILE_HEADER_SIZE && h->header_size != FILE_HEADER_SIZE_OLD) {
		DIAG_FATAL(r, PD_BAD_HEADER_SIZE, 8, "size=%" PRIu64, h->header_size);
		return PD_STATUS_MALFORMED;
	}
	if (!seekable) {
		int tfd = spool(r, fd, hb, (size_t)got);

		if (tfd < 0) {
			DIAG_FATAL(r, PD_IO_ERROR, 0, "spool errno=%d", errno);
			return PD_STATUS_IO;
		}
		if (own_fd)
			close(fd);
		fd = tfd;
		own_fd = true;
		if (fstat(fd, &st) < 0) {
			close(fd);
			return PD_STATUS_IO;
		}
		h->file_size = (uint64_t)st.st_size;
		got = (int)pread(fd, hb, sizeof(hb), 0);
	}
	if ((uint64_t)got < h->header_size) {
		if (own_fd)
			close(fd);
		DIAG_FATAL(r, PD_TRUNCATED_HEADER, 0, "size=%d need=%" PRIu64, got, h->header_size);
		return PD_STATUS_MALFORMED;
	}
	ret = open_file_mode(r, fd, hb);
	if (r->streams)
		r->streams[0].own_fd = own_fd;
	else if (own_fd)
		close(fd);
	return ret;
}

static int cmp_dir_names(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	unsigned long nx = strtoul(x + 5, NULL, 10), ny = strtoul(y + 5, NULL, 10);

	return nx < ny ? -1 : nx > ny;
}

/* Directory mode: DIR/data plus DIR/data.N streams (HEADER_DIR_FORMAT 1). */
static int open_dir_streams(struct pd_reader *r, const char *dir)
{
	char **names = NULL;
	size_t nr = 0, cap = 0, i;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		char *end;

		if (strncmp(n, "data.", 5) || !n[5])
			continue;
		strtoul(n + 5, &end, 10);
		if (*end)
			continue;
		if (nr == MAX_DIR_STREAMS)
			break;
		if (nr == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			char **nn = realloc(names, ncap * sizeof(*nn));

			if (!nn) {
				ret = PD_STATUS_NOMEM;
				goto out;
			}
			names = nn;
			cap = ncap;
		}
		names[nr] = strdup(n);
		if (!names[nr]) {
			ret = PD_STATUS_NOMEM;
			goto out;
		}
		nr++;
	}
	if (!nr)
		goto out;
	qsort(names, nr, sizeof(*names), cmp_dir_names);
	{
		struct pd_stream *ns = realloc(r->streams, (1 + nr) * sizeof(*ns));

		if (!ns) {
			ret = PD_STATUS_NOMEM;
			goto out;
		}
		r->streams = ns;
	}
	for (i = 0; i < nr; i++) {
		char path[4096];
		struct pd_stream *s = &r->streams[r->nr_streams];
		struct stat st;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			DIAG(r, PD_DIR_STREAM, PD_NO_OFFSET, "stream=%s errno=%d", names[i], errno);
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (stream_init(r, s, fd, true, names[i], 0, (uint64_t)st.st_size) < 0) {
			close(fd);
			ret = PD_STATUS_NOMEM;
			goto out;
		}
		s->limit_is_eof = true;
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		r->nr_streams++;
	}
out:
	closedir(d);
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return ret;
}

static void init_opts(struct pd_reader *r, const struct pd_reader_opts *opts)
{
	if (opts)
		r->opts = *opts;
	if (!r->opts.window_size)
		r->opts.window_size = DEFAULT_WINDOW;
	if (r->opts.window_size < 256 * 1024)
		r->opts.window_size = 256 * 1024;
	if (!r->opts.order_queue_max)
		r->opts.order_queue_max = DEFAULT_QUEUE_MAX;
	if (!r->opts.max_decompressed)
		r->opts.max_decompressed = DEFAULT_MAX_DECOMP;
	if (!r->opts.max_ids)
		r->opts.max_ids = DEFAULT_MAX_IDS;
	r->sink.fn = r->opts.diag_fn;
	r->sink.arg = r->opts.diag_arg;
}

/* The selection's view of the events (select.h). */
static const struct pd_event *sel_event_by_id(const void *ctx, uint64_t id, int *index)
{
	const struct pd_reader *r = ctx;
	const struct pd_event *ev = pd_reader_event_by_id(r, id);

	*index = ev ? (int)(ev - pd_reader_event(r, 0)) : -1;
	return ev;
}

static struct pd_reader *reader_alloc(const struct pd_reader_opts *opts)
{
	struct pd_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	init_opts(r, opts);
	r->last_idx = -1;
	r->q_map_unit = qmap_unit();
	r->defer_kernel = r->opts.time_order;
	pd_features_init(&r->feat);
	if (pd_select_active(r->opts.select)) {
		r->sel = pd_sel_state_new(r->opts.select, sel_event_by_id, r);
		if (!r->sel) {
			free(r);
			return NULL;
		}
	}
	return r;
}

int pd_reader_open_fd(int fd, const char *name, const struct pd_reader_opts *opts,
		      struct pd_reader **out)
{
	struct pd_reader *r;
	int ret;

	*out = NULL;
	r = reader_alloc(opts);
	if (!r)
		return PD_STATUS_NOMEM;
	ret = open_main(r, fd, false);
	if (ret < 0) {
		pd_reader_close(r);
		return ret;
	}
	r->hdr.nr_streams = r->nr_streams;
	refresh_event_pointers(r);
	/* file mode knows its sample times now; pipe mode at its first sample */
	if (r->sel && r->hdr.mode != PD_MODE_PIPE)
		pd_sel_resolve_time(r->sel, &r->feat);
	*out = r;
	return 0;
}

/*
 * --comm: hand the selection every COMM and FORK of the input before the
 * first record (lib/select.c says why), read by a second reader of the
 * same path that reports nothing (this one reports what it finds).  A
 * failure leaves the selection following names as records arrive.
 */
static void prescan_comms(struct pd_reader *r, const char *path)
{
	struct pd_reader_opts o = r->opts;
	const struct pd_record *rec;
	struct pd_reader *scan;

	o.diag_fn = NULL;
	o.diag_arg = NULL;
	o.select = NULL;
	o.time_order = false;
	if (pd_reader_open(path, &o, &scan) < 0)
		return;
	while (pd_reader_next(scan, &rec) > 0)
		if (rec->type == PD_REC_COMM || rec->type == PD_REC_FORK)
			pd_sel_prescan_record(r->sel, rec);
	pd_reader_close(scan);
	pd_sel_prescan_done(r->sel);
}

int pd_reader_open(const char *path, const struct pd_reader_opts *opts, struct pd_reader **out)
{
	struct pd_reader *r;
	struct stat st;
	bool is_dir = false;
	int fd, ret;

	*out = NULL;
	if (!strcmp(path, "-"))
		return pd_reader_open_fd(STDIN_FILENO, "-", opts, out);
	r = reader_alloc(opts);
	if (!r)
		return PD_STATUS_NOMEM;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		char dpath[4096];

		is_dir = true;
		snprintf(dpath, sizeof(dpath), "%s/data", path);
		fd = open(dpath, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			DIAG_FATAL(r, PD_DIR_NO_DATA, PD_NO_OFFSET, "path=%s errno=%d", dpath, errno);
			pd_reader_close(r);
			return PD_STATUS_IO;
		}
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			DIAG_FATAL(r, PD_IO_ERROR, PD_NO_OFFSET, "open errno=%d", errno);
			pd_reader_close(r);
			return PD_STATUS_IO;
		}
	}
	ret = open_main(r, fd, true);
	if (ret < 0) {
		pd_reader_close(r);
		return ret;
	}
	if (is_dir) {
		r->hdr.mode = PD_MODE_DIR;
		r->streams[0].name = strdup("data");
		if (!r->streams[0].name) {
			pd_reader_close(r);
			return PD_STATUS_NOMEM;
		}
		ret = open_dir_streams(r, path);
		if (ret < 0) {
			pd_reader_close(r);
			return ret;
		}
		r->sink.stream = r->streams[0].name;
	}
	r->hdr.nr_streams = r->nr_streams;
	refresh_event_pointers(r);
	/* file mode knows its sample times now; pipe mode at its first sample */
	if (r->sel && r->hdr.mode != PD_MODE_PIPE)
		pd_sel_resolve_time(r->sel, &r->feat);
	if (r->sel && pd_sel_wants_comm_prescan(r->sel))
		prescan_comms(r, path);
	*out = r;
	return 0;
}

void pd_reader_close(struct pd_reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_streams; i++)
		stream_fini(&r->streams[i]);
	free(r->streams);
	free(r->sheap);
	for (i = 0; i < r->nr_events; i++) {
		free(r->event_ids[i]);
		free(r->event_names[i]);
	}
	free(r->events);
	free(r->event_types);
	free(r->event_ids);
	free(r->event_names);
	free(r->ht_keys);
	free(r->ht_vals);
	for (i = 0; i < r->nr_runs; i++) {
		while (r->runs[i].first) {
			struct qchunk *c = r->runs[i].first;

			r->runs[i].first = c->next;
			free(c);
		}
	}
	free(r->runs);
	free(r->rheap);
	free(r->free_runs);
	free(r->q_retired);
	for (i = 0; i < QCHUNK_CLASSES; i++) {
		while (r->q_free[i]) {
			struct qchunk *c = r->q_free[i];

			r->q_free[i] = c->next;
			free(c);
		}
	}
	free(r->tracing);
	free(r->dir_path);
	pd_sel_state_free(r->sel);
	pd_features_free(&r->feat);
	pd_decoder_fini(&r->dec);
	pd_decoder_fini(&r->fit_dec);
	free(r);
}

const struct pd_header *pd_reader_header(const struct pd_reader *r)
{
	return &r->hdr;
}

bool pd_reader_sample_fits_attr(struct pd_reader *r, const struct pd_record *rec,
				const struct pd_attr *attr)
{
	return pd_sample_fits_attr_in(&r->fit_dec, rec, attr);
}

size_t pd_reader_nr_events(const struct pd_reader *r)
{
	return r->nr_events;
}

/* Where the file header states each of its sections (offset, then size). */
#define HDR_ATTRS_FIELD		24
#define HDR_DATA_FIELD		40
#define HDR_EVENT_TYPES_FIELD	56

static void put_section(struct pd_section_info *out, size_t max, size_t *n,
			enum pd_section_kind kind, int index, const struct pd_section *s,
			uint64_t field_offset)
{
	if (*n < max)
		out[*n] = (struct pd_section_info){ kind, index, s->offset, s->size, field_offset };
	(*n)++;
}

size_t pd_reader_event_types(const struct pd_reader *r, const struct pd_event_type **out)
{
	*out = r->event_types;
	return r->nr_event_types;
}

int pd_reader_read_at(const struct pd_reader *r, uint64_t offset, void *buf, size_t len)
{
	const struct pd_header *h = &r->hdr;

	if (h->mode != PD_MODE_FILE || !r->nr_streams || offset > h->file_size ||
	    len > h->file_size - offset)
		return PD_STATUS_MALFORMED;
	return pd_io_pread(r->streams[0].fd, buf, len, offset) < 0 ? PD_STATUS_IO : 0;
}

size_t pd_reader_sections(const struct pd_reader *r, struct pd_section_info *out, size_t max)
{
	const struct pd_header *h = &r->hdr;
	struct pd_section table;
	unsigned int bit;
	size_t n = 0, i;

	if (h->mode != PD_MODE_FILE)
		return 0;
	put_section(out, max, &n, PD_SECT_ATTRS, -1, &h->attrs, HDR_ATTRS_FIELD);
	put_section(out, max, &n, PD_SECT_DATA, -1, &h->data, HDR_DATA_FIELD);
	put_section(out, max, &n, PD_SECT_EVENT_TYPES, -1, &h->event_types,
		    HDR_EVENT_TYPES_FIELD);
	/* The id array's pair ends the attr's slot as the header's attr_size places it. */
	for (i = 0; i < r->nr_events; i++) {
		const struct pd_event *ev = &r->events[i];
		struct pd_section ids = { ev->ids_offset, ev->ids_size };

		put_section(out, max, &n, PD_SECT_ATTR_IDS, (int)i, &ids,
			    ev->file_offset + h->attr_size - 16);
	}
	if (!h->feat_table_entries)
		return n;
	table.offset = h->feat_table_offset;
	table.size = 16ULL * h->feat_table_entries;
	put_section(out, max, &n, PD_SECT_FEATURE_TABLE, -1, &table, table.offset);
	for (bit = 0; bit < PD_FEAT_BITS; bit++)
		if (r->feat_entry[bit])
			put_section(out, max, &n, PD_SECT_FEATURE, (int)bit,
				    &h->feat_sections[bit], r->feat_entry[bit]);
	return n;
}

const struct pd_event *pd_reader_event(const struct pd_reader *r, size_t i)
{
	return i < r->nr_events ? &r->events[i] : NULL;
}

const struct pd_event *pd_reader_event_by_id(const struct pd_reader *r, uint64_t id)
{
	int i = ht_lookup(r, id);

	return i < 0 ? NULL : &r->events[i];
}

const struct pd_features *pd_reader_features(const struct pd_reader *r)
{
	return &r->feat;
}

uint64_t pd_reader_diag_count(const struct pd_reader *r, enum pd_severity sev)
{
	return (unsigned int)sev < 3 ? r->sink.counts[sev] : 0;
}

uint64_t pd_reader_code_count(const struct pd_reader *r, enum pd_code code)
{
	return (unsigned int)code < 1000 ? r->sink.by_code[code] : 0;
}

uint64_t pd_reader_bytes_read(const struct pd_reader *r)
{
	return r->bytes_read;
}

/* ------------------------------------------------------------------ */
/* attribution of records to events                                    */

static const struct pd_event *find_event(struct pd_reader *r, struct pd_record *rec)
{
	const struct pd_event *first;
	uint64_t id;
	size_t n_u64;
	int idx;

	rec->event_index = -1;
	if (!r->nr_events)
		return NULL;
	if (rec->type >= 64 && rec->type != PD_REC_SAMPLE)
		return NULL;
	if (rec->type >= PD_REC_KERNEL_MAX)
		return NULL;
	first = &r->events[0];
	if (r->nr_events == 1) {
		rec->event_index = 0;
		return first;
	}
	if (rec->type != PD_REC_SAMPLE && !(first->attr.flags & PD_ATTR_SAMPLE_ID_ALL)) {
		rec->event_index = 0;
		return first;
	}
	n_u64 = (rec->raw_len - 8) / 8;
	if (rec->type == PD_REC_SAMPLE) {
		if (first->id_pos < 0 || (size_t)first->id_pos >= n_u64) {
			rec->event_index = 0;
			return first;
		}
		id = pd_ld64(rec->raw + 8 + 8 * (size_t)first->id_pos, r->swap);
	} else {
		if (first->is_pos < 0 || (size_t)first->is_pos > n_u64) {
			rec->event_index = 0;
			return first;
		}
		id = pd_ld64(rec->raw + rec->raw_len - 8 * (size_t)first->is_pos, r->swap);
	}
	if (id == 0) {
		rec->event_index = 0;
		return first;
	}
	/* Consecutive records mostly come from the same event instance. */
	if (id == r->last_id && r->last_idx >= 0 && (size_t)r->last_idx < r->nr_events) {
		rec->event_index = r->last_idx;
		return &r->events[r->last_idx];
	}
	idx = ht_lookup(r, id);
	if (idx >= 0) {
		r->last_id = id;
		r->last_idx = idx;
	}
	if (idx < 0) {
		pd_diag_emit(&r->sink, PD_REC_UNKNOWN_ID, rec->offset, (int64_t)rec->index,
			     rec->type, false, "id=%" PRIu64, id);
		return NULL;
	}
	rec->event_index = idx;
	return &r->events[idx];
}

/* ------------------------------------------------------------------ */
/* record side effects on the reader's state                          */

static void handle_header_attr(struct pd_reader *r, const struct pd_record *rec)
{
	const struct pd_rec_header_attr *ha = &rec->u.header_attr;
	size_t before = r->nr_events;

	if (add_event(r, &ha->attr, ha->attr_size, rec->offset + 8, ha->ids,
		      (size_t)ha->nr_ids, (int64_t)rec->index, rec->type) == 0 &&
	    r->nr_events > before) {
		/* EVENT_DESC may have arrived first in unusual streams. */
		refresh_event_pointers(r);
		apply_event_desc(r);
	}
}

static void handle_header_feature(struct pd_reader *r, const struct pd_record *rec)
{
	const struct pd_rec_header_feature *hf = &rec->u.header_feature;
	int ret;

	if (hf->end_marker)
		return;
	if (hf->feat_id >= PD_FEAT_BITS || !pd_feature_is_known((unsigned int)hf->feat_id)) {
		pd_diag_emit(&r->sink, PD_FEAT_UNKNOWN_ID, rec->offset + 8, (int64_t)rec->index,
			     rec->type, false, "feat_id=%" PRIu64 " size=%zu", hf->feat_id, hf->len);
		if (hf->feat_id >= PD_FEAT_BITS)
			return;
	}
	if (pd_features_has(&r->feat, (unsigned int)hf->feat_id))
		pd_diag_emit(&r->sink, PD_FEAT_DUPLICATE, rec->offset, (int64_t)rec->index,
			     rec->type, false, "feature=%s",
			     pd_feature_name((unsigned int)hf->feat_id) ?
			     pd_feature_name((unsigned int)hf->feat_id) : "unknown");
	ret = pd_feature_decode(&r->feat, (unsigned int)hf->feat_id, hf->payload, hf->len,
				r->swap, rec->from_compressed ? rec->offset : rec->offset + 16,
				(int64_t)rec->index, rec->type, &r->sink);
	if (ret == 0 && hf->feat_id == PD_FEAT_EVENT_DESC)
		apply_event_desc(r);
}

static void handle_event_update(struct pd_reader *r, const struct pd_record *rec)
{
	const struct pd_rec_event_update *eu = &rec->u.event_update;
	int idx;

	if (eu->type != 2 || !eu->str)
		return;
	idx = ht_lookup(r, eu->id);
	if (idx < 0 && r->nr_events == 1)
		idx = 0;
	if (idx >= 0)
		set_event_name(r, (size_t)idx, eu->str);
}

static void handle_sp_event_id(struct pd_reader *r, const struct pd_record *rec)
{
	const struct pd_rec_sp_event_id *ei = &rec->u.sp_event_id;
	uint64_t i;

	for (i = 0; i < ei->nr; i++) {
		if (ei->entries[i].attr_index >= r->nr_events)
			continue;
		ht_insert(r, ei->entries[i].event_id, (size_t)ei->entries[i].attr_index);
	}
}

static void apply_record(struct pd_reader *r, struct pd_record *rec)
{
	if (!rec->decoded)
		return;
	switch (rec->type) {
	case PD_REC_HEADER_ATTR:
		handle_header_attr(r, rec);
		break;
	case PD_REC_HEADER_FEATURE:
		handle_header_feature(r, rec);
		break;
	case PD_REC_EVENT_UPDATE:
		handle_event_update(r, rec);
		break;
	case PD_REC_SP_EVENT_ID:
		handle_sp_event_id(r, rec);
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------------------ */
/* framing                                                             */

enum frame_result {
	FRAME_OK = 1,
	FRAME_END = 0,
	FRAME_AGAIN = 2,	/* nothing to deliver, call again */
};

static bool kernel_type_aligned(uint32_t type)
{
	return type >= 1 && type < PD_REC_KERNEL_MAX;
}

/* Fill the common fields of r->rec for raw bytes, whose header is h. */
static void rec_frame(struct pd_reader *r, struct pd_stream *s, struct pd_record_header h,
		      const uint8_t *raw, size_t len, uint64_t offset, bool from_compressed,
		      uint32_t inner_off)
{
	struct pd_record *rec = &r->rec;

	rec->type = h.type;
	rec->misc = h.misc;
	rec->size = h.size;
	rec->offset = offset;
	rec->index = s->index++;
	rec->stream_index = (uint32_t)(s - r->streams);
	rec->stream = s->name;
	rec->from_compressed = from_compressed;
	rec->inner_offset = inner_off;
	rec->swapped = r->swap;
	rec->raw = raw;
	rec->raw_len = len;
	rec->extra = NULL;
	rec->extra_len = 0;
	rec->extra_offset = 0;
	rec->decoded = false;
	rec->partial = false;
	rec->deferred = false;
	rec->has_trailer = false;
	memset(&rec->sid, 0, sizeof(rec->sid));
}

/*
 * The whole record, and its effects on the reader.  Not inline: in
 * rec_decode() its registers would be saved for every sample that
 * sample_fixed_only decodes without it.
 */
static __attribute__((noinline)) int rec_decode_full(struct pd_reader *r, struct pd_record *rec,
						     const struct pd_event *ev)
{
	int ret;

	ret = pd_record_decode(&r->dec, rec, ev, &r->sink);
	if (ret == PD_STATUS_NOMEM)
		return PD_STATUS_NOMEM;
	apply_record(r, rec);
	return 0;
}

static int rec_decode(struct pd_reader *r, struct pd_record *rec, const struct pd_event *ev)
{
	rec->deferred = false;
	/* the fixed slots, enough for tools that only copy records */
	if (r->opts.sample_fixed_only && rec->type == PD_REC_SAMPLE && ev &&
	    pd_sample_fixed_decode(rec, ev))
		return 0;
	return rec_decode_full(r, rec, ev);
}

/* Decode the framed record and apply its effects.  Returns <0 on no memory. */
static int rec_finish(struct pd_reader *r)
{
	struct pd_record *rec = &r->rec;
	const struct pd_event *ev;

	ev = find_event(r, rec);
	rec->event = ev;
	if (rec->type == PD_REC_SAMPLE && !r->nr_events)
		pd_diag_emit(&r->sink, PD_REC_NO_ATTR, rec->offset, (int64_t)rec->index, rec->type,
			     false, "nr_attrs=0");
	if (!pd_record_type_known(rec->type))
		pd_diag_emit(&r->sink, PD_REC_UNKNOWN_TYPE, rec->offset, (int64_t)rec->index,
			     rec->type, false, "type=%u size=%u", rec->type, rec->size);
	/*
	 * In time order, kernel records are decoded when they leave the queue,
	 * not twice; they change no reader state, so nothing is lost by waiting.
	 */
	if (r->defer_kernel && rec->type >= 1 && rec->type < PD_REC_KERNEL_MAX) {
		rec->deferred = true;
		return 0;
	}
	return rec_decode(r, rec, ev);
}

/* Header sanity shared by outer and inner records.  Returns false when fatal. */
static bool check_size(struct pd_reader *r, uint32_t type, uint32_t size, uint64_t off,
		       uint64_t idx)
{
	if (size == 0) {
		pd_diag_emit(&r->sink, PD_REC_ZERO_SIZE, off, (int64_t)idx, type, true,
			     "type=%u size=0", type);
		return false;
	}
	if (size < 8) {
		pd_diag_emit(&r->sink, PD_REC_SIZE_TOO_SMALL, off, (int64_t)idx, type, true,
			     "type=%u size=%u min=8", type, size);
		return false;
	}
	if (size > MAX_RECORD_SIZE) {
		pd_diag_emit(&r->sink, PD_REC_BAD_FIELD, off, (int64_t)idx, type, true,
			     "type=%u size=%u max=%u", type, size, MAX_RECORD_SIZE);
		return false;
	}
	return true;
}

/* Deliver the next inner record of the active compressed container. */
static int next_inner(struct pd_reader *r, struct pd_stream *s)
{
	for (;;) {
		size_t avail = s->zend - s->zstart;

		if (avail >= 8) {
			const uint8_t *p = s->zbuf + s->zstart;
			struct pd_record_header h = pd_rec_header(p, r->swap);
			uint32_t type = h.type, size = h.size;

			if (!check_size(r, type, size, s->zcontainer_off, s->index)) {
				/* The decompressed stream is out of sync; the outer one is not. */
				s->zbroken = true;
				s->zactive = false;
				s->zstart = s->zend = 0;
				return FRAME_AGAIN;
			}
			if (size <= avail) {
				if (type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2)
					pd_diag_emit(&r->sink, PD_NESTED_COMPRESSED,
						     s->zcontainer_off, (int64_t)s->index, type,
						     false, "type=%u", type);
				rec_frame(r, s, h, p, size, s->zcontainer_off, true, s->zinner_off);
				s->zstart += size;
				s->zinner_off += size;
				if (type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2) {
					/* Do not recurse: deliver it undecoded. */
					r->rec.event = NULL;
					r->rec.event_index = -1;
					r->rec.decoded = false;
					return FRAME_OK;
				}
				if (rec_finish(r) < 0)
					return PD_STATUS_NOMEM;
				return FRAME_OK;
			}
		}
		if (s->zin_pos >= s->zin_len) {
			s->zactive = false;
			return FRAME_AGAIN;
		}
		/* Make room: keep the partial record, decompress more after it. */
		if (s->zstart) {
			memmove(s->zbuf, s->zbuf + s->zstart, avail);
			s->zstart = 0;
			s->zend = avail;
		}
		{
			ZSTD_outBuffer out = { s->zbuf, s->zcap, s->zend };
			ZSTD_inBuffer in = { s->zin, s->zin_len, s->zin_pos };
			size_t zr = ZSTD_decompressStream(s->zds, &out, &in);

			if (ZSTD_isError(zr)) {
				pd_diag_emit(&r->sink, PD_ZSTD_ERROR, s->zcontainer_off, -1, 0, false,
					     "zstd=\"%s\"", ZSTD_getErrorName(zr));
				s->zbroken = true;
				s->zactive = false;
				s->zstart = s->zend = 0;
				return FRAME_AGAIN;
			}
			if (out.pos == s->zend && in.pos == s->zin_pos) {
				/* No progress: output full with a record larger than the buffer. */
				if (s->zend == s->zcap) {
					pd_diag_emit(&r->sink, PD_DECOMPRESS_LIMIT, s->zcontainer_off,
						     -1, 0, false, "buffer=%zu", s->zcap);
					s->zbroken = true;
				}
				s->zactive = false;
				s->zstart = s->zend = 0;
				return FRAME_AGAIN;
			}
			s->zcontainer_total += out.pos - s->zend;
			s->zend = out.pos;
			s->zin_pos = in.pos;
			if (s->zcontainer_total > r->opts.max_decompressed) {
				pd_diag_emit(&r->sink, PD_DECOMPRESS_LIMIT, s->zcontainer_off, -1, 0,
					     false, "decompressed=%" PRIu64 " max=%" PRIu64,
					     s->zcontainer_total, r->opts.max_decompressed);
				s->zin_pos = s->zin_len;
			}
		}
	}
}

/* Start delivering the inner records of the container just delivered. */
static int start_container(struct pd_reader *r, struct pd_stream *s,
			   const struct pd_rec_compressed *c, uint64_t off)
{
	if (s->zbroken)
		return 0;
	if (!s->zds) {
		s->zds = ZSTD_createDStream();
		if (!s->zds)
			return PD_STATUS_NOMEM;
		ZSTD_initDStream(s->zds);
		s->zcap = ZBUF_CHUNK + 65536;
		s->zbuf = malloc(s->zcap);
		if (!s->zbuf)
			return PD_STATUS_NOMEM;
		s->zstart = s->zend = 0;
	}
	/*
	 * The container's payload stays valid: the window is not refilled
	 * while inner records are delivered (next_inner reads only zbuf).
	 */
	s->zin = c->data;
	s->zin_len = (size_t)c->data_size;
	s->zin_pos = 0;
	s->zcontainer_off = off;
	s->zcontainer_total = 0;
	s->zinner_off = 0;
	s->zactive = true;
	return 0;
}

/* simpleperf: append a SPLIT chunk; a SPLIT_END completes the record. */
static int split_add(struct pd_reader *r, struct pd_stream *s, const struct pd_record *rec)
{
	size_t chunk = rec->raw_len - 8;

	if (!s->split_len)
		s->split_off = rec->offset;
	if (chunk > MAX_SPLIT_RECORD - s->split_len) {
		pd_diag_emit(&r->sink, PD_REC_SPLIT_TOO_LARGE, rec->offset, (int64_t)rec->index,
			     rec->type, false, "size=%zu max=%llu", s->split_len + chunk,
			     MAX_SPLIT_RECORD);
		s->split_len = 0;
		return 0;
	}
	if (s->split_len + chunk > s->split_cap) {
		size_t ncap = s->split_cap ? s->split_cap : 65536;
		uint8_t *nb;

		while (ncap < s->split_len + chunk)
			ncap *= 2;
		nb = realloc(s->split, ncap);
		if (!nb)
			return PD_STATUS_NOMEM;
		s->split = nb;
		s->split_cap = ncap;
	}
	memcpy(s->split + s->split_len, rec->raw + 8, chunk);
	s->split_len += chunk;
	return 0;
}

static void split_end(struct pd_reader *r, struct pd_stream *s, const struct pd_record *rec)
{
	if (!s->split_len) {
		pd_diag_emit(&r->sink, PD_REC_SPLIT_BAD, rec->offset, (int64_t)rec->index, rec->type,
			     false, "reason=no_split_before_end");
		return;
	}
	if (s->split_len < 8) {
		pd_diag_emit(&r->sink, PD_REC_SPLIT_BAD, rec->offset, (int64_t)rec->index, rec->type,
			     false, "reason=too_short size=%zu", s->split_len);
		s->split_len = 0;
		return;
	}
	s->split_hdr = pd_rec_header(s->split, r->swap);
	if (s->split_hdr.size != s->split_len) {
		pd_diag_emit(&r->sink, PD_REC_SPLIT_BAD, rec->offset, (int64_t)rec->index, rec->type,
			     false, "reason=size_mismatch inner_size=%u assembled=%zu",
			     s->split_hdr.size, s->split_len);
		s->split_len = 0;
		return;
	}
	s->split_ready = true;
}

/*
 * Frame the next record of stream s from the window (or from the active
 * container / the reassembled SPLIT).  Returns FRAME_OK with r->rec
 * filled, FRAME_END at the end of the stream, FRAME_AGAIN, or a negative
 * status.
 */
static int next_from_stream(struct pd_reader *r, struct pd_stream *s)
{
	struct pd_record *rec = &r->rec;
	struct pd_record_header h;
	const uint8_t *p;
	uint32_t type, size;
	uint64_t extra = 0;
	ssize_t avail;
	bool hold_extra = false;

	if (s->done)
		return FRAME_END;
	if (s->split_ready) {
		s->split_ready = false;
		rec_frame(r, s, s->split_hdr, s->split, s->split_len, s->split_off, false, 0);
		s->split_len = 0;
		if (rec_finish(r) < 0)
			return PD_STATUS_NOMEM;
		return FRAME_OK;
	}
	if (s->zpending) {
		s->zpending = false;
		if (!s->zbroken)
			s->zactive = true;
	}
	if (s->zactive)
		return next_inner(r, s);

	avail = stream_fill(r, s, 8);
	if (avail < 0) {
		DIAG_FATAL(r, avail == PD_STATUS_NOMEM ? PD_NO_MEMORY : PD_IO_ERROR, s->pos, "errno=%d", errno);
		s->done = true;
		return (int)avail;
	}
	if (avail == 0) {
		s->done = true;
		if (s->limit != UINT64_MAX && s->pos < s->limit && r->hdr.mode != PD_MODE_PIPE)
			pd_diag_emit(&r->sink, PD_REC_TRUNCATED, s->pos, (int64_t)s->index, 0, false,
				     "data_end=%" PRIu64 " file_end=%" PRIu64, s->limit, s->pos);
		/* at the container whose decompressed bytes end in the partial record */
		if (s->zend > s->zstart)
			pd_diag_emit(&r->sink, PD_COMPRESSED_TAIL, s->zcontainer_off, -1, 0, false,
				     "bytes=%zu stream_end=%" PRIu64, s->zend - s->zstart, s->pos);
		if (s->split_len)
			pd_diag_emit(&r->sink, PD_REC_SPLIT_BAD, s->pos, -1, 0, false,
				     "reason=missing_split_end");
		return FRAME_END;
	}
	if (avail < 8) {
		s->done = true;
		pd_diag_emit(&r->sink,
			     s->eof && s->limit != UINT64_MAX && s->pos + (uint64_t)avail == s->limit ?
			     PD_REC_DATA_TAIL : PD_REC_TRUNCATED,
			     s->pos, (int64_t)s->index, 0, true, "bytes=%zd need=8", avail);
		return FRAME_END;
	}
	p = s->buf + s->start;
	h = pd_rec_header(p, r->swap);
	type = h.type;
	size = h.size;
	if (!check_size(r, type, size, s->pos, s->index)) {
		s->done = true;
		return PD_STATUS_MALFORMED;
	}
	if (s->limit != UINT64_MAX && size > s->limit - s->pos && s->limit_is_eof) {
		/* The file was cut short (or the recording killed) inside this record. */
		pd_diag_emit(&r->sink, PD_REC_TRUNCATED, s->pos, (int64_t)s->index, type, true,
			     "size=%u available=%" PRIu64, size, s->limit - s->pos);
		s->done = true;
		return FRAME_END;
	}
	if (s->limit != UINT64_MAX && size > s->limit - s->pos) {
		pd_diag_emit(&r->sink, PD_REC_CROSSES_END, s->pos, (int64_t)s->index, type, true,
			     "size=%u data_end=%" PRIu64, size, s->limit);
		s->done = true;
		return PD_STATUS_MALFORMED;
	}
	if (kernel_type_aligned(type) && size % 8)
		pd_diag_emit(&r->sink, PD_REC_UNALIGNED, s->pos, (int64_t)s->index, type, false,
			     "size=%u", size);
	avail = stream_fill(r, s, size);
	if (avail < 0) {
		DIAG_FATAL(r, avail == PD_STATUS_NOMEM ? PD_NO_MEMORY : PD_IO_ERROR, s->pos, "errno=%d", errno);
		s->done = true;
		return (int)avail;
	}
	if ((size_t)avail < size) {
		pd_diag_emit(&r->sink, PD_REC_TRUNCATED, s->pos, (int64_t)s->index, type, true,
			     "size=%u available=%zd", size, avail);
		s->done = true;
		return FRAME_END;
	}
	p = s->buf + s->start;

	/* Payload that follows the record outside header.size. */
	if (type == PD_REC_AUXTRACE && size >= 16) {
		extra = pd_ld64(p + 8, r->swap);
	} else if (type == PD_REC_HEADER_TRACING_DATA && size >= 12) {
		uint32_t tsz = pd_ld32(p + 8, r->swap);

		/* simpleperf's old inline form keeps the data inside the record. */
		if (!(tsz && size == 12 + PD_ALIGN(tsz, 64)))
			extra = tsz;
	}
	if (extra && s->limit != UINT64_MAX && extra > s->limit - s->pos - size) {
		pd_diag_emit(&r->sink, PD_REC_PAYLOAD_OUT_OF_DATA, s->pos + 8, (int64_t)s->index,
			     type, true, "payload=%" PRIu64 " data_end=%" PRIu64, extra, s->limit);
		s->done = true;
		return PD_STATUS_MALFORMED;
	}
	if (extra && (type == PD_REC_HEADER_TRACING_DATA ? extra <= MAX_TRACING_DATA :
		      extra <= AUX_HOLD_MAX)) {
		if (extra > SIZE_MAX - size)
			return PD_STATUS_NOMEM;
		avail = stream_fill(r, s, size + (size_t)extra);
		if (avail < 0) {
			s->done = true;
			return (int)avail;
		}
		if ((uint64_t)avail < size + extra) {
			pd_diag_emit(&r->sink, PD_REC_TRUNCATED, s->pos, (int64_t)s->index, type,
				     true, "size=%u payload=%" PRIu64 " available=%zd", size, extra,
				     avail);
			s->done = true;
			return FRAME_END;
		}
		p = s->buf + s->start;
		hold_extra = true;
	}

	/*
	 * Framing is the first read of the file's bytes, and the processor's
	 * own prefetch stops at page boundaries: the records after this one
	 * start loading while it is queued (a prefetch past the map never
	 * faults).
	 */
	if (s->mapped_window)
		__builtin_prefetch(p + size + 1024);
	rec_frame(r, s, h, p, size, s->pos, false, 0);
	rec->extra_len = extra;
	rec->extra_offset = s->pos + size;
	if (hold_extra)
		rec->extra = p + size;
	stream_consume(s, size);
	if (extra) {
		if (hold_extra) {
			stream_consume(s, (size_t)extra);
		} else {
			int sk = stream_skip(r, s, extra);

			if (sk < 0) {
				s->done = true;
				return sk;
			}
			if (sk > 0) {
				pd_diag_emit(&r->sink, PD_REC_TRUNCATED, rec->offset,
					     (int64_t)rec->index, type, false,
					     "payload=%" PRIu64, extra);
				s->done = true;
			}
		}
	}
	if (rec_finish(r) < 0)
		return PD_STATUS_NOMEM;

	if (rec->decoded && (type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2)) {
		int ret = start_container(r, s, &rec->u.compressed, rec->offset);

		if (ret < 0)
			return ret;
		if (s->zbroken)
			pd_diag_emit(&r->sink, PD_ZSTD_ERROR, rec->offset, (int64_t)rec->index, type,
				     false, "reason=earlier_failure");
		/* Deliver the container first, its contents on the next calls. */
		s->zactive = false;
		s->zpending = !s->zbroken;
		if (r->opts.skip_compressed)
			return FRAME_AGAIN;
	}
	if (type == PD_REC_SP_SPLIT) {
		if (split_add(r, s, rec) < 0)
			return PD_STATUS_NOMEM;
	} else if (type == PD_REC_SP_SPLIT_END) {
		split_end(r, s, rec);
	} else if (s->split_len) {
		pd_diag_emit(&r->sink, PD_REC_SPLIT_BAD, rec->offset, (int64_t)rec->index, type,
			     false, "reason=split_not_followed_by_end");
		s->split_len = 0;
	}
	return FRAME_OK;
}

/* ------------------------------------------------------------------ */
/* file order and time order                                           */

/* Next record of all streams in file order: stream by stream. */
static int next_file_order(struct pd_reader *r)
{
	while (r->cur_stream < r->nr_streams) {
		struct pd_stream *s = &r->streams[r->cur_stream];
		int ret;

		set_stream_name(r, s);
		ret = next_from_stream(r, s);
		if (ret == FRAME_AGAIN)
			continue;
		if (ret == FRAME_END) {
			r->cur_stream++;
			continue;
		}
		return ret;
	}
	return FRAME_END;
}

/*
 * Directory mode in time order.  perf record --threads writes each ring
 * buffer's records to a data.N file of their own, in time order, and no
 * FINISHED_ROUND: perf reads the files in turn and sorts all it has read
 * before delivering any.  Read stream by stream, the queue would have to
 * hold all of data.0 before data.1's first record could go out; merged,
 * a record waits only until every stream has been read past its time.
 */
static inline bool sheap_less(const struct pd_reader *r, uint32_t a, uint32_t b)
{
	uint64_t ta = r->streams[a].merge_time, tb = r->streams[b].merge_time;

	return ta < tb || (ta == tb && a < b);
}

static void sheap_down(struct pd_reader *r, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, m = i, t;

		if (l < r->sheap_n && sheap_less(r, r->sheap[l], r->sheap[m]))
			m = l;
		if (l + 1 < r->sheap_n && sheap_less(r, r->sheap[l + 1], r->sheap[m]))
			m = l + 1;
		if (m == i)
			break;
		t = r->sheap[i];
		r->sheap[i] = r->sheap[m];
		r->sheap[m] = t;
		i = m;
	}
}

static int merge_start(struct pd_reader *r)
{
	uint32_t i;

	r->merge_ready = true;
	r->merge = r->hdr.mode == PD_MODE_DIR && r->nr_streams > 1;
	if (!r->merge)
		return 0;
	r->sheap = malloc(r->nr_streams * sizeof(*r->sheap));
	if (!r->sheap)
		return PD_STATUS_NOMEM;
	/* all times 0: index order, a valid heap */
	for (i = 0; i < r->nr_streams; i++)
		r->sheap[i] = i;
	r->sheap_n = r->nr_streams;
	return 0;
}

/* The time every stream has been read up to: nothing older can come. */
static inline uint64_t merge_watermark(const struct pd_reader *r)
{
	return r->streams[r->sheap[0]].merge_time;
}

/* Next record of the stream read least far (the heap's top). */
static int next_merged(struct pd_reader *r)
{
	while (r->sheap_n) {
		struct pd_stream *s;
		int ret;

		r->cur_stream = r->sheap[0];
		s = &r->streams[r->cur_stream];
		set_stream_name(r, s);
		ret = next_from_stream(r, s);
		if (ret == FRAME_AGAIN)
			continue;
		if (ret == FRAME_END) {
			r->sheap[0] = r->sheap[--r->sheap_n];
			if (r->sheap_n)
				sheap_down(r, 0);
			continue;
		}
		return ret;
	}
	return FRAME_END;
}

/* A record of time t was read from the heap's top stream. */
static inline void merge_advance(struct pd_reader *r, uint64_t t)
{
	struct pd_stream *s = &r->streams[r->cur_stream];

	if (t > s->merge_time) {
		s->merge_time = t;
		sheap_down(r, 0);
	}
}

static inline const struct qhdr *run_head(const struct pd_reader *r, uint32_t run)
{
	const struct qchunk *c = r->runs[run].first;

	return (const struct qhdr *)(const void *)(c->data + c->consumed);
}

static inline bool kless(const struct qkey *a, const struct qkey *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void rheap_up(struct pd_reader *r, uint32_t i)
{
	while (i) {
		uint32_t p = (i - 1) / 2;
		struct qkey t;

		if (!kless(&r->rheap[i], &r->rheap[p]))
			break;
		t = r->rheap[i];
		r->rheap[i] = r->rheap[p];
		r->rheap[p] = t;
		i = p;
	}
}

static void rheap_down(struct pd_reader *r, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, m = i;
		struct qkey t;

		if (l < r->rheap_n && kless(&r->rheap[l], &r->rheap[m]))
			m = l;
		if (l + 1 < r->rheap_n && kless(&r->rheap[l + 1], &r->rheap[m]))
			m = l + 1;
		if (m == i)
			break;
		t = r->rheap[i];
		r->rheap[i] = r->rheap[m];
		r->rheap[m] = t;
		i = m;
	}
}

/* Time of the oldest queued record; the queue must not be empty. */
static inline uint64_t q_min_time(const struct pd_reader *r)
{
	return r->rheap[0].time;
}

/* A run to append to: the current one if the time keeps it sorted. */
static int q_run_for(struct pd_reader *r, uint64_t time, uint32_t *out)
{
	struct pd_stream *s = &r->streams[r->cur_stream];
	uint32_t idx;

	if (s->cur_run >= 0 && time >= r->runs[s->cur_run].last_time) {
		*out = (uint32_t)s->cur_run;
		return 0;
	}
	if (r->nr_free_runs) {
		idx = r->free_runs[--r->nr_free_runs];
	} else {
		if (r->nr_runs == r->cap_runs) {
			uint32_t ncap = r->cap_runs ? r->cap_runs * 2 : 16;
			struct qrun *nr = realloc(r->runs, ncap * sizeof(*nr));
			struct qkey *nh;
			uint32_t *nf;

			if (!nr)
				return PD_STATUS_NOMEM;
			r->runs = nr;
			nh = realloc(r->rheap, ncap * sizeof(*nh));
			if (!nh)
				return PD_STATUS_NOMEM;
			r->rheap = nh;
			nf = realloc(r->free_runs, ncap * sizeof(*nf));
			if (!nf)
				return PD_STATUS_NOMEM;
			r->free_runs = nf;
			r->cap_runs = ncap;
			r->rheap_cap = ncap;
		}
		idx = r->nr_runs++;
		memset(&r->runs[idx], 0, sizeof(r->runs[idx]));
	}
	r->runs[idx].nr = 0;
	r->runs[idx].stream = r->cur_stream;
	r->runs[idx].in_heap = false;
	r->runs[idx].mapped = false;
	s->cur_run = idx;
	*out = idx;
	return 0;
}

static int qchunk_class(size_t cap)
{
	int i;

	for (i = 0; i < QCHUNK_CLASSES; i++)
		if (cap == (size_t)QCHUNK_MIN << i)
			return i;
	return -1;
}

/*
 * A chunk of at least cap bytes: a kept one of that size or, rather than
 * a new one, a larger kept one (its pages are in memory already).
 */
static struct qchunk *qchunk_get(struct pd_reader *r, size_t cap)
{
	int k = qchunk_class(cap);
	struct qchunk *c;

	for (; k >= 0 && k < QCHUNK_CLASSES; k++) {
		if (!r->q_free[k])
			continue;
		c = r->q_free[k];
		r->q_free[k] = c->next;
		r->q_free_bytes -= sizeof(*c) + c->cap;
		return c;
	}
	c = malloc(sizeof(*c) + cap);
	if (c)
		c->cap = cap;
	return c;
}

static void qchunk_put(struct pd_reader *r, struct qchunk *c)
{
	int k = qchunk_class(c->cap);

	if (k >= 0 && r->q_free_bytes + sizeof(*c) + c->cap <= QCHUNK_SPARE_MAX &&
	    r->q_free_bytes + sizeof(*c) + c->cap <= r->opts.order_queue_max) {
		c->next = r->q_free[k];
		r->q_free[k] = c;
		r->q_free_bytes += sizeof(*c) + c->cap;
		return;
	}
	free(c);
}

/*
 * Can the record being queued be delivered from its stream's map?  Only
 * one framed from the window of a regular file: the window holds the
 * file's bytes at the stream position, which is the record's offset.
 */
static bool q_in_file(struct pd_reader *r, const struct pd_record *rec)
{
	struct pd_stream *s = &r->streams[r->cur_stream];
	uintptr_t raw = (uintptr_t)rec->raw, buf = (uintptr_t)s->buf;

	if (rec->from_compressed || raw < buf || raw - buf >= s->cap)
		return false;
	if (!s->map_tried)
		stream_map(s);
	return s->map && rec->offset <= s->map_len && rec->raw_len <= s->map_len - rec->offset;
}

/* Map the stream's file read-only, once; true when it is mapped. */
static bool stream_map(struct pd_stream *s)
{
	if (!s->map_tried) {
		struct stat st;

		s->map_tried = true;
		if (fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
		    (uint64_t)st.st_size <= SIZE_MAX) {
			/*
			 * The file must not shrink under us (a fault ends the
			 * process), as for any reader of a mapped file; perf
			 * only ever appends to a file it is writing.
			 */
			void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, s->fd, 0);

			if (m != MAP_FAILED) {
				s->map = m;
				s->map_len = (size_t)st.st_size;
			}
		}
	}
	return s->map;
}

static int q_push(struct pd_reader *r, uint64_t time)
{
	const struct pd_record *rec = &r->rec;
	bool in_file = q_in_file(r, rec);
	size_t need = in_file ? sizeof(struct qhdr) :
		      PD_ALIGN(sizeof(struct qhdr) + rec->raw_len, 8);
	struct qchunk *c;
	struct qhdr *h;
	struct qrun *q;
	uint32_t run;
	int ret;

	ret = q_run_for(r, time, &run);
	if (ret < 0)
		return ret;
	q = &r->runs[run];
	c = q->last;
	if (!c || need > c->cap - c->used) {
		/*
		 * Room for some 64 records like this one: the part of a run's
		 * chunks not in use (the end of its last, the delivered start
		 * of its first) stays small for headers and small copies.
		 */
		size_t cap = QCHUNK_MIN;

		while (cap < QCHUNK_MAX && cap / 64 < need)
			cap <<= 1;
		if (cap < need)
			cap = need;
		c = qchunk_get(r, cap);
		if (!c)
			return PD_STATUS_NOMEM;
		c->next = NULL;
		c->used = c->consumed = 0;
		if (q->last)
			q->last->next = c;
		else
			q->first = c;
		q->last = c;
		r->q_bytes += sizeof(*c) + c->cap;
	}
	h = (struct qhdr *)(void *)(c->data + c->used);
	h->time = time;
	h->seq = r->q_seq++;
	h->offset = rec->offset;
	h->index = rec->index;
	h->len = (uint32_t)rec->raw_len;
	h->inner_off = rec->inner_offset;
	h->event_index = rec->event_index;
	h->stream = (uint16_t)r->cur_stream;
	h->from_compressed = rec->from_compressed;
	h->in_file = in_file;
	if (!in_file)
		memcpy(h + 1, rec->raw, rec->raw_len);
	c->used += need;
	q->nr++;
	q->last_time = time;
	r->q_nr++;
	r->q_live_bytes += rec->raw_len;
	if (!q->in_heap) {
		q->in_heap = true;
		r->rheap[r->rheap_n].time = time;
		r->rheap[r->rheap_n].seq = h->seq;
		r->rheap[r->rheap_n].raw = in_file ? r->streams[r->cur_stream].map + rec->offset :
					   (const uint8_t *)(h + 1);
		r->rheap[r->rheap_n].run = run;
		rheap_up(r, r->rheap_n++);
	}
	return 0;
}

static int qdrop_cmp(const void *pa, const void *pb)
{
	const struct qdrop *a = pa, *b = pb;

	if (a->stream != b->stream)
		return a->stream < b->stream ? -1 : 1;
	return a->from < b->from ? -1 : a->from > b->from;
}

/* Drop the gathered ranges, those that touch or overlap as one. */
static void q_drops_flush(struct pd_reader *r)
{
	uint32_t i = 0, n = r->q_nr_drops;

	qsort(r->q_drops, n, sizeof(r->q_drops[0]), qdrop_cmp);
	while (i < n) {
		struct qdrop d = r->q_drops[i++];
		const struct pd_stream *s = &r->streams[d.stream];

		while (i < n && r->q_drops[i].stream == d.stream && r->q_drops[i].from <= d.end) {
			if (r->q_drops[i].end > d.end)
				d.end = r->q_drops[i].end;
			i++;
		}
		madvise((void *)(uintptr_t)(s->map + d.from), (size_t)(d.end - d.from),
			MADV_DONTNEED);
	}
	r->q_nr_drops = 0;
	r->q_drop_bytes = 0;
}

static void q_unmap(struct pd_reader *r, uint16_t stream, uint64_t from, uint64_t end)
{
	const struct pd_stream *s = &r->streams[stream];
	struct qdrop *d;

	if (end > s->map_len)
		end = s->map_len;
	if (end <= from)
		return;
	if (r->q_nr_drops == QDROP_SLOTS)
		q_drops_flush(r);
	d = &r->q_drops[r->q_nr_drops++];
	d->from = from;
	d->end = end;
	d->stream = stream;
	r->q_drop_bytes += end - from;
	if (r->q_drop_bytes >= QDROP_BATCH)
		q_drops_flush(r);
}

/*
 * A record of run q is delivered from the map: drop the blocks the run
 * has left behind once they are more than its share of QMAP_RESIDENT,
 * looked at when the run moves on to another block.  Dropping a page
 * another run still needs only costs a fault later.
 */
static void q_track_map(struct pd_reader *r, struct qrun *q, uint16_t stream, uint64_t off,
			uint32_t len)
{
	uint64_t unit = r->q_map_unit, block = off & ~(unit - 1);
	uint64_t keep;

	if (q->mapped && block == q->map_block && stream == q->map_stream) {
		/* the block of the run's last record (most records): nothing to drop yet */
		q->map_end = off + len;
		return;
	}
	keep = QMAP_RESIDENT / (r->rheap_n ? r->rheap_n : 1);
	if (q->mapped && (q->map_stream != stream || block < q->map_from)) {
		q_unmap(r, q->map_stream, q->map_from, PD_ALIGN(q->map_end, unit));
		q->mapped = false;
	}
	if (!q->mapped) {
		q->mapped = true;
		q->map_stream = stream;
		q->map_from = block;
	} else if (block - q->map_from > keep) {
		q_unmap(r, stream, q->map_from, block);
		q->map_from = block;
	}
	q->map_block = block;
	q->map_end = off + len;
}

/* Pop the oldest queued record into r->rec (decoded again from its copy or the map). */
static int q_pop(struct pd_reader *r)
{
	uint32_t run = r->rheap[0].run;
	struct qrun *q = &r->runs[run];
	struct qchunk *c = q->first;
	struct qhdr e = *run_head(r, run);
	struct pd_stream *s = &r->streams[e.stream < r->nr_streams ? e.stream : 0];
	const uint8_t *raw;
	struct pd_record *rec = &r->rec;
	int ret;

	/* The record delivered last time is no longer in use. */
	if (r->q_retired) {
		r->q_bytes -= sizeof(*r->q_retired) + r->q_retired->cap;
		qchunk_put(r, r->q_retired);
		r->q_retired = NULL;
	}
	if (r->q_drop_pending) {
		q_unmap(r, r->q_drop_stream, r->q_drop_from, r->q_drop_end);
		r->q_drop_pending = false;
	}
	if (e.in_file) {
		raw = s->map + e.offset;
		q_track_map(r, q, (uint16_t)(s - r->streams), e.offset, e.len);
		c->consumed += sizeof(struct qhdr);
	} else {
		raw = c->data + c->consumed + sizeof(struct qhdr);
		c->consumed += PD_ALIGN(sizeof(struct qhdr) + e.len, 8);
	}
	q->nr--;
	r->q_nr--;
	r->q_live_bytes -= e.len;
	if (c->consumed >= c->used) {
		/* Emptied: kept only until this record has been delivered. */
		q->first = c->next;
		if (!q->first)
			q->last = NULL;
		r->q_retired = c;
	}
	if (!q->nr) {
		/* Run drained: out of the heap, back to the free list. */
		if (q->mapped) {
			/* its blocks, once its last record is no longer in use */
			r->q_drop_pending = true;
			r->q_drop_stream = q->map_stream;
			r->q_drop_from = q->map_from;
			r->q_drop_end = PD_ALIGN(q->map_end, r->q_map_unit);
			q->mapped = false;
		}
		q->in_heap = false;
		r->rheap[0] = r->rheap[--r->rheap_n];
		if (r->rheap_n)
			rheap_down(r, 0);
		r->free_runs[r->nr_free_runs++] = run;
		if (r->streams[q->stream].cur_run == (int64_t)run)
			r->streams[q->stream].cur_run = -1;
	} else {
		const struct qhdr *next = run_head(r, run);

		r->rheap[0].time = next->time;
		r->rheap[0].seq = next->seq;
		r->rheap[0].raw = next->in_file ? r->streams[next->stream].map + next->offset :
				  (const uint8_t *)(next + 1);
		/* and the headers after it, for this run's next turns */
		__builtin_prefetch((const uint8_t *)next + 64);
		__builtin_prefetch((const uint8_t *)next + 128);
		rheap_down(r, 0);
	}
	if (r->rheap_n) {
		/*
		 * The next record to leave is known: start loading it while
		 * this one is decoded and used (it is rarely in the cache).
		 */
		__builtin_prefetch(r->rheap[0].raw);
		__builtin_prefetch(r->rheap[0].raw + 64);
	}
	r->last_flushed = e.time;
	r->have_flushed = true;
	set_stream_name(r, s);
	{
		uint64_t keep = s->index;

		rec_frame(r, s, pd_rec_header(raw, r->swap), raw, e.len, e.offset,
			  e.from_compressed, e.inner_off);
		s->index = keep;
		rec->index = e.index;
	}
	/* Records in the queue never change reader state: decode only. */
	rec->event_index = e.event_index;
	rec->event = e.event_index >= 0 && (size_t)e.event_index < r->nr_events ?
		     &r->events[e.event_index] : NULL;
	ret = pd_record_decode(&r->dec, rec, rec->event, &r->sink);
	rec->deferred = false;
	return ret == PD_STATUS_NOMEM ? PD_STATUS_NOMEM : FRAME_OK;
}

/*
 * Time of a framed record, or false when it has none (then it is
 * delivered at once, as perf does).
 */
static bool record_time(const struct pd_reader *r, uint64_t *t)
{
	const struct pd_record *rec = &r->rec;

	if (rec->deferred) {
		const struct pd_event *ev = rec->event;
		uint64_t st;
		size_t pos;

		if (!ev)
			return false;
		st = ev->attr.sample_type;
		if (!(st & PD_SAMPLE_TIME))
			return false;
		if (rec->type == PD_REC_SAMPLE) {
			pos = 8 + 8 * slots(st, sample_bits_before(PD_SFI_TIME));
			if (rec->raw_len < 8 || pos > rec->raw_len - 8)
				return false;
		} else {
			size_t back = 8 * slots(st, trailer_bits_from(PD_SFI_TIME));

			if (!(ev->attr.flags & PD_ATTR_SAMPLE_ID_ALL) ||
			    rec->raw_len < 8 + (size_t)ev->id_hdr_size)
				return false;
			pos = rec->raw_len - back;
		}
		*t = pd_ld64(rec->raw + pos, r->swap);
		return *t != 0;
	}

	if (!rec->decoded || rec->type >= 64)
		return false;
	if (rec->type == PD_REC_SAMPLE) {
		if (!(rec->u.sample.sample_type & PD_SAMPLE_TIME))
			return false;
		*t = rec->u.sample.time;
		return true;
	}
	/*
	 * perf's synthesized records (and the LOST_SAMPLES it writes at the
	 * end) carry a zeroed trailer: time 0 means "no time", not "oldest".
	 */
	if (rec->has_trailer && (rec->sid.present & PD_SAMPLE_TIME) && rec->sid.time) {
		*t = rec->sid.time;
		return true;
	}
	return false;
}

/* A record that bypasses the queue: decode it now if that was deferred. */
static int deliver_now(struct pd_reader *r)
{
	if (r->rec.deferred && rec_decode(r, &r->rec, r->rec.event) < 0)
		return PD_STATUS_NOMEM;
	return FRAME_OK;
}

/*
 * Kept out of line: inlined into pd_reader_next(), its registers and
 * stack frame were set up for every record read in file order too.
 */
static __attribute__((noinline)) int next_time_order(struct pd_reader *r)
{
	if (!r->merge_ready) {
		int ret = merge_start(r);

		if (ret < 0)
			return ret;
	}
	for (;;) {
		uint64_t t;
		int ret;

		if (r->flush_to_bytes) {
			/* Over the memory limit: only the oldest leave early. */
			if (r->q_nr && r->q_live_bytes > r->flush_to_bytes)
				return q_pop(r);
			r->flush_to_bytes = 0;
		}
		if (r->flushing) {
			if (r->q_nr && q_min_time(r) <= r->flush_limit)
				return q_pop(r);
			r->flushing = false;
			if (r->pending_valid) {
				/* The FINISHED_ROUND that started the flush. */
				r->pending_valid = false;
				r->rec = r->round_rec;
				return FRAME_OK;
			}
		}
		if (r->ended) {
			if (r->q_nr)
				return q_pop(r);
			return FRAME_END;
		}
		if (r->merge) {
			if (r->q_nr && r->sheap_n && q_min_time(r) <= merge_watermark(r))
				return q_pop(r);
			ret = next_merged(r);
		} else {
			ret = next_file_order(r);
		}
		if (ret == FRAME_END) {
			r->ended = true;
			continue;
		}
		if (ret < 0)
			return ret;
		/* a directory's rounds: the merge orders its streams */
		if (r->rec.type == PD_REC_FINISHED_ROUND && !r->rec.from_compressed && !r->merge) {
			/* Flush what cannot be overtaken any more (docs/perf-data-format.md §8.4). */
			r->flush_limit = r->round_limit;
			r->round_limit = r->max_time;
			if (!r->q_nr || q_min_time(r) > r->flush_limit)
				return FRAME_OK;
			/* The round record itself goes out after the flush. */
			r->round_rec = r->rec;
			memcpy(r->round_raw, r->rec.raw, 8);
			r->round_rec.raw = r->round_raw;
			r->round_rec.raw_len = 8;
			r->pending_valid = true;
			r->flushing = true;
			return q_pop(r);
		}
		if (!record_time(r, &t))
			return deliver_now(r);
		if (r->have_flushed && t < r->last_flushed) {
			if (!r->ooo_reported) {
				pd_diag_emit(&r->sink, PD_OUT_OF_ORDER, r->rec.offset,
					     (int64_t)r->rec.index, r->rec.type, false,
					     "time=%" PRIu64 " last_delivered=%" PRIu64, t,
					     r->last_flushed);
				r->ooo_reported = true;
			}
			return deliver_now(r);
		}
		if (t > r->max_time)
			r->max_time = t;
		if (r->merge)
			merge_advance(r, t);
		ret = q_push(r, t);
		if (ret < 0)
			return ret;
		if (r->q_live_bytes > r->opts.order_queue_max) {
			/* Bounded memory beats perfect order: flush the oldest half. */
			if (!r->qfull_reported) {
				pd_diag_emit(&r->sink, PD_ORDER_QUEUE_FULL, r->rec.offset,
					     (int64_t)r->rec.index, r->rec.type, false,
					     "limit=%zu", r->opts.order_queue_max);
				r->qfull_reported = true;
			}
			/*
			 * Deliver the oldest records until half the limit is
			 * left: the fewer leave early, the less a late record
			 * can be out of order.
			 */
			r->flush_to_bytes = r->opts.order_queue_max / 2;
		}
	}
}

int pd_reader_next(struct pd_reader *r, const struct pd_record **out)
{
	int ret;

	*out = NULL;
	do {
		if (r->opts.time_order)
			ret = next_time_order(r);
		else
			ret = next_file_order(r);
	} while (ret == FRAME_OK && r->sel && !pd_sel_keep(r->sel, &r->rec, &r->feat));
	if (ret == FRAME_OK) {
		*out = &r->rec;
		return 1;
	}
	if (ret == FRAME_END)
		return 0;
	return ret;
}

const char *pd_reader_select_error(const struct pd_reader *r)
{
	return r->sel ? pd_sel_error(r->sel) : NULL;
}
