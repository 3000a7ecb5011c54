// SPDX-License-Identifier: MIT
/*
 * cmd_pipe_to_file.c - perfconv pipe-to-file: turn a pipe-mode stream
 * (perf record -o -) into the perf.data file perf record would have
 * written for the same recording (docs/perf-data-format.md §9.2).
 *
 * One pass, records streamed: HEADER_ATTR records become the attrs
 * section, HEADER_FEATURE payloads their feature sections, the tracing
 * data blob the TRACING_DATA feature, HEADER_BUILD_ID records the
 * BUILD_ID feature; SAMPLE_TIME is computed from the samples.  Every
 * other record is copied unchanged, in order, into the data section
 * (converted to host byte order when the stream comes from a host of the
 * other byte order).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "../common/grow.h"
#include "../common/tool_select.h"
#include "driver.h"
#include "perfdata/pd_writer.h"

struct p2f {
	struct drv_perf_out out;
	int wstatus;		/* convert_record()'s failure, or 0 */
	int code;		/* the exit code, once p2f_end() made it */
	bool done;
	bool strict;
	bool opened;		/* the stream header was read: later fatal findings end the stream */
	bool ended_early;

	uint64_t records;	/* outer records seen */
	uint64_t first_time;
	uint64_t last_time;
	bool have_time;
	bool branch_stack;
	bool stat_records;
	bool compressed;
	uint64_t zgroup;	/* bytes of the current container's records */
	uint64_t zgroup_max;
	/*
	 * A seekable input is copied in the kernel: runs of consecutive
	 * records kept unchanged are gathered as one span of the input and
	 * handed to copy_file_range when the run breaks.
	 */
	int src_fd;
	bool own_src;
	uint64_t src_size;	/* its bytes when opened */
	uint64_t span_off;
	uint64_t span_len;
	bool span_open;		/* the next record at span_off + span_len extends it */
	uint64_t *aux_index;	/* (offset, header.size) of AUXTRACE records in the output */
	size_t aux_nr;
	size_t aux_cap;
};

/*
 * A fatal finding after the stream header means the stream stops there:
 * everything before it is converted.  Without --strict that is the normal
 * outcome of a killed recorder, so the finding is shown as a warning, in
 * the shape of every diagnostic, and the exit status stays 0; with
 * --strict it stays an error.  I/O and memory failures are errors always.
 */
static void p2f_diag(const struct pd_diag *d, struct tool_diag *cd, void *arg)
{
	struct p2f *p = arg;
	struct pd_diag w;
	char detail[512];

	if (!d->fatal || !p->opened || d->code == PD_IO_ERROR || d->code == PD_NO_MEMORY) {
		tool_diag_cb(d, cd);
		return;
	}
	p->ended_early = true;
	if (p->strict) {
		tool_diag_cb(d, cd);
		return;
	}
	w = *d;
	w.severity = PD_SEV_WARNING;
	snprintf(detail, sizeof(detail), "%s%s(the stream ends early: the records before it are "
		 "converted)", d->detail, d->detail[0] ? " " : "");
	w.detail = detail;
	tool_diag_cb(&w, cd);
}

static int aux_index_add(struct p2f *p, uint64_t off, uint64_t size)
{
	/* aux_cap counts (offset, size) pairs */
	if (!grow_array_unzeroed(&p->aux_index, &p->aux_cap, p->aux_nr + 1,
				 2 * sizeof(*p->aux_index)))
		return -1;
	p->aux_index[2 * p->aux_nr] = off;
	p->aux_index[2 * p->aux_nr + 1] = size;
	p->aux_nr++;
	return 0;
}

/* Unchanged records are copied in runs of at most this many bytes. */
#define SPAN_HANDOVER	(16u << 20)

static int span_flush(struct p2f *p, struct pd_writer *w)
{
	int ret = 0;

	if (p->span_len)
		ret = pd_writer_copy_file_range(w, p->src_fd, p->span_off, p->span_len);
	p->span_len = 0;
	p->span_open = false;
	return ret;
}

/*
 * Copy a record (and what follows it) unchanged; with out_off, say where
 * it lands in the output (AUXTRACE's index needs it).
 */
static int copy_verbatim_at(struct p2f *p, struct pd_writer *w, const struct pd_record *rec,
			    uint64_t *out_off)
{
	uint64_t len = rec->raw_len + rec->extra_len;
	int ret;

	if (p->src_fd < 0 || rec->swapped) {
		if (out_off)
			*out_off = pd_writer_offset(w);
		ret = pd_writer_copy_record(w, rec);
		return ret < 0 ? ret : 0;
	}
	if (!p->span_open || p->span_off + p->span_len != rec->offset) {
		ret = span_flush(p, w);
		/* an empty copy starts the data section: attrs go first */
		if (ret >= 0)
			ret = pd_writer_copy_file_range(w, p->src_fd, rec->offset, 0);
		if (ret < 0)
			return ret;
		p->span_off = rec->offset;
		p->span_open = true;
	}
	p->span_len += len;
	if (out_off)
		*out_off = pd_writer_offset(w) + p->span_len - len;
	/* the writer copies on its own thread: let it start while we parse on */
	if (p->span_len >= SPAN_HANDOVER) {
		uint64_t next = p->span_off + p->span_len;

		ret = span_flush(p, w);
		if (ret < 0)
			return ret;
		p->span_off = next;
		p->span_open = true;
	}
	return 0;
}

/*
 * Copy a record unchanged.  Nearly every record only lengthens the open
 * span by its bytes: that test inline, with no call, for every record of
 * the stream; the rest as copy_verbatim_at().
 */
static inline __attribute__((always_inline)) int
copy_verbatim(struct p2f *p, struct pd_writer *w, const struct pd_record *rec)
{
	uint64_t len = rec->raw_len + rec->extra_len;

	/* an open span is a seekable source in the host's byte order */
	if (p->span_open && !rec->swapped && p->span_off + p->span_len == rec->offset &&
	    p->span_len + len < SPAN_HANDOVER) {
		p->span_len += len;
		return 0;
	}
	return copy_verbatim_at(p, w, rec, NULL);
}

/* A regular file whose offset is at its start: copied from, or written, by offset. */
static bool regular_at_start(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || lseek(fd, 0, SEEK_CUR) != 0)
		return false;
	*size = (uint64_t)st.st_size;
	return true;
}

/* A regular input read from its start can be copied by offset. */
static void open_source(struct p2f *p, const char *in)
{
	struct stat st;

	p->src_fd = -1;
	if (!strcmp(in, "-")) {
		if (regular_at_start(STDIN_FILENO, &p->src_size))
			p->src_fd = STDIN_FILENO;
		return;
	}
	p->src_fd = open(in, O_RDONLY | O_CLOEXEC);
	if (p->src_fd < 0)
		return;
	if (fstat(p->src_fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(p->src_fd);
		p->src_fd = -1;
		return;
	}
	p->src_size = (uint64_t)st.st_size;
	p->own_src = true;
}

static void note_sample(struct p2f *p, const struct pd_record *rec)
{
	uint64_t t;

	if (!rec->decoded || !rec->event || !(rec->event->attr.sample_type & PD_SAMPLE_TIME))
		return;
	t = rec->u.sample.time;
	if (!p->have_time || t < p->first_time)
		p->first_time = t;
	if (!p->have_time || t > p->last_time)
		p->last_time = t;
	p->have_time = true;
}

/*
 * One record of the stream; returns 0 or a negative pd_status.  Inline in
 * p2f_record(), its one caller, which the driver calls for every record.
 */
static inline __attribute__((always_inline)) int convert_record(struct p2f *p, struct pd_writer *w, struct pd_reader *r,
			  const struct pd_record *rec)
{
	const uint8_t *host;
	int ret;

	if (rec->type == PD_REC_SAMPLE)
		note_sample(p, rec);
	if (rec->from_compressed) {
		p->zgroup += rec->raw_len;
		if (p->zgroup > p->zgroup_max)
			p->zgroup_max = p->zgroup;
		if (rec->type >= PD_REC_STAT_CONFIG && rec->type <= PD_REC_STAT_ROUND)
			p->stat_records = true;
		ret = pd_writer_copy_record(w, rec);
		return ret < 0 ? ret : 0;
	}
	p->records++;
	switch (rec->type) {
	case PD_REC_HEADER_ATTR:
		if (!rec->decoded)
			return PD_STATUS_MALFORMED;
		ret = pd_writer_add_event(w, &rec->u.header_attr.attr,
					  rec->u.header_attr.attr_size, rec->u.header_attr.ids,
					  (size_t)rec->u.header_attr.nr_ids);
		return ret < 0 ? ret : 0;
	case PD_REC_HEADER_FEATURE:
		ret = pd_writer_set_feature_from_record(w, rec, pd_reader_features(r));
		return ret < 0 ? ret : 0;
	case PD_REC_HEADER_TRACING_DATA:
		if (!rec->extra_len)
			return 0;
		if (!rec->extra) {
			cli_error("pipe-to-file: tracing data at offset 0x%" PRIx64
				  " was not kept by the reader", rec->offset);
			return PD_STATUS_MALFORMED;
		}
		/* the blob carries its own byte order: copied as it is */
		ret = pd_writer_set_feature(w, PD_FEAT_TRACING_DATA, rec->extra,
					    (size_t)rec->extra_len);
		return ret < 0 ? ret : 0;
	case PD_REC_HEADER_BUILD_ID: {
		uint8_t ent[65536];

		ret = pd_writer_record_to_host(w, rec, &host);
		if (ret < 0)
			return ret;
		/* perf record leaves the type of the feature's entries at 0 */
		memcpy(ent, host, rec->raw_len);
		memset(ent, 0, 4);
		ret = pd_writer_append_feature(w, PD_FEAT_BUILD_ID, ent, rec->raw_len);
		return ret < 0 ? ret : 0;
	}
	case PD_REC_COMPRESSED:
	case PD_REC_COMPRESSED2:
		p->compressed = true;
		p->zgroup = 0;
		break;
	case PD_REC_AUXTRACE: {
		uint64_t off;

		/*
		 * A payload the input ends inside of (the reader said so,
		 * PD303): the stream ends before the record, as a killed
		 * recorder's does, not with a copy past the input's end
		 */
		if (p->src_fd >= 0 && !rec->swapped &&
		    (rec->extra_len > p->src_size || rec->extra_offset > p->src_size - rec->extra_len))
			return 0;
		ret = copy_verbatim_at(p, w, rec, &off);
		if (ret < 0)
			return ret;
		if (aux_index_add(p, off, rec->raw_len) < 0)
			return PD_STATUS_NOMEM;
		return 0;
	}
	case PD_REC_STAT_CONFIG:
	case PD_REC_STAT:
	case PD_REC_STAT_ROUND:
		p->stat_records = true;
		break;
	default:
		break;
	}
	return copy_verbatim(p, w, rec);
}

/* What perf record would have added at the end of a file-mode recording. */
static int finish_features(struct p2f *p, struct pd_writer *w, struct pd_reader *r)
{
	uint8_t buf[20];
	size_t i, len;
	const uint8_t *cur;
	int ret = 0;

	/* the stream's copy was written before any sample: 0/0 */
	memcpy(buf, &p->first_time, 8);
	memcpy(buf + 8, &p->last_time, 8);
	if (!p->have_time)
		memset(buf, 0, 16);
	ret = pd_writer_set_feature(w, PD_FEAT_SAMPLE_TIME, buf, 16);
	if (ret < 0)
		return ret;

	for (i = 0; i < pd_reader_nr_events(r); i++)
		if (pd_reader_event(r, i)->attr.sample_type & PD_SAMPLE_BRANCH_STACK)
			p->branch_stack = true;
	/* not pipe features (§5.3): perf record sets them in file mode */
	if (p->branch_stack && !pd_writer_has_feature(w, PD_FEAT_BRANCH_STACK))
		ret = pd_writer_set_feature(w, PD_FEAT_BRANCH_STACK, NULL, 0);
	if (ret >= 0 && p->stat_records && !pd_writer_has_feature(w, PD_FEAT_STAT))
		ret = pd_writer_set_feature(w, PD_FEAT_STAT, NULL, 0);
	if (ret >= 0 && p->aux_nr && !pd_writer_has_feature(w, PD_FEAT_AUXTRACE)) {
		uint64_t nr = p->aux_nr;

		ret = pd_writer_set_feature(w, PD_FEAT_AUXTRACE, &nr, 8);
		if (ret >= 0)
			ret = pd_writer_append_feature(w, PD_FEAT_AUXTRACE, p->aux_index,
						       16 * p->aux_nr);
	}
	if (ret < 0)
		return ret;

	if (!p->compressed)
		return 0;
	cur = pd_writer_feature(w, PD_FEAT_COMPRESSED, &len);
	if (cur && len >= 20) {
		memcpy(buf, cur, 20);
	} else {
		/* perf needs the decompression buffer size (§9.2): version 1, zstd */
		uint32_t v[5] = { 1, 1, 1, 0, 0 };
		uint64_t need = p->zgroup_max < 528384 ? 528384 : p->zgroup_max;

		v[4] = need > UINT32_MAX ? UINT32_MAX : (uint32_t)need;
		memcpy(buf, v, 20);
		len = 20;
	}
	if (pd_writer_recompressed(w)) {
		/*
		 * New containers end at record boundaries, so one may hold a
		 * record that spanned two originals: leave perf room for it.
		 */
		uint32_t mmap_len;

		memcpy(&mmap_len, buf + 16, 4);
		mmap_len = mmap_len > UINT32_MAX - 65536 ? UINT32_MAX : mmap_len + 65536;
		memcpy(buf + 16, &mmap_len, 4);
	}
	if (!cur || pd_writer_recompressed(w)) {
		ret = pd_writer_set_feature(w, PD_FEAT_COMPRESSED, buf, len > 20 ? 20 : len);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* ---- the writer ops (driver.h) ---- */

static int p2f_begin(struct drv *d, void *arg)
{
	struct p2f *p = arg;

	p->opened = true;
	open_source(p, d->o->input);
	if (pd_reader_header(d->r)->mode != PD_MODE_PIPE) {
		cli_error("pipe-to-file: %s is not a pipe-mode stream (use it as it is, or "
			  "see file-to-pipe)", d->cd.name);
		return CLI_EXIT_USAGE;
	}
	return drv_perf_out_open(d, &p->out, "pipe-to-file", PD_WRITER_FILE);
}

static int p2f_record(struct drv *d, void *arg, const struct pd_record *rec)
{
	struct p2f *p = arg;
	int status = convert_record(p, p->out.w, d->r, rec);

	if (status >= 0)
		return 0;
	/* the exit code is made in p2f_end() */
	p->wstatus = status;
	return DRV_STOP;
}

/* Keep the file or not, and the exit code: --strict is this command's own. */
static int p2f_end(struct drv *d, void *arg)
{
	struct p2f *p = arg;
	const struct tool_diag *cd = &d->cd;
	int status = p->wstatus ? p->wstatus : d->status;

	if (status == PD_STATUS_MALFORMED && p->ended_early)
		status = 0;	/* the stream stops there: convert what came before */
	if (status >= 0)
		status = span_flush(p, p->out.w);
	if (status >= 0)
		status = finish_features(p, p->out.w, d->r);

	p->done = true;
	if (status < 0 || (p->strict && (p->ended_early || cd->count[PD_SEV_ERROR]))) {
		if (p->strict && status >= 0)
			cli_error("pipe-to-file: %s: %s: no output written", cd->name,
				  p->ended_early ? "the stream ends early" : "errors in the input");
		p->code = status == PD_STATUS_IO || status == PD_STATUS_NOMEM ? CLI_EXIT_IO :
			  CLI_EXIT_MALFORMED;
		if (p->out.wd.count[PD_SEV_ERROR] && status != PD_STATUS_MALFORMED)
			p->code = CLI_EXIT_IO;
		return 0;
	}
	/*
	 * The output is kept, but an error elsewhere in the stream (a
	 * damaged feature) still makes the exit status say so; the end of a
	 * cut stream is not counted (p2f_diag).
	 */
	status = drv_perf_out_commit(&p->out);
	p->code = status < 0 ? CLI_EXIT_IO : cd->count[PD_SEV_ERROR] ? CLI_EXIT_MALFORMED :
		  CLI_EXIT_OK;
	return 0;
}

static int p2f_close(struct drv *d, void *arg, int code)
{
	struct p2f *p = arg;

	drv_perf_out_abort(&p->out);
	if (p->own_src)
		close(p->src_fd);
	free(p->aux_index);
	return p->done ? p->code : code;
}

static const struct writer_ops p2f_ops = {
	.begin = p2f_begin,
	.record = p2f_record,
	.end = p2f_end,
	.close = p2f_close,
};

static const struct tool_flag p2f_flags[] = {
	TOOL_FLAG("fsync", 0, struct p2f, out.wo.fsync, true,
		  "flush the output to disk before renaming it"),
	{ NULL, 0, 0, false, NULL },
};

static const struct tool_help p2f_help[] = {
	{ "output", NULL, "output file (default: standard output, which must\n"
			  "then be a regular file: the header is written last)" },
	{ "strict", NULL, "a stream that ends inside a record, or any error in\n"
			  "the input, fails the conversion and leaves no output" },
	{ NULL, NULL, NULL },
};

static const struct tool_cmd pipe_to_file_cmd = {
	.prog = CLI_PROGNAME,
	.name = "pipe-to-file",
	/* only -i: the stream is copied whole */
	.groups = TOOL_ARG_OUTPUT | TOOL_ARG_NAMED | TOOL_ARG_STRICT |
		  TOOL_ARG_VERBOSE | TOOL_ARG_INPUT,
	.flags = p2f_flags,
	.help_head = "usage: " CLI_PROGNAME " pipe-to-file [--strict] [--fsync] [-v] [-o OUT] "
		     "[FILE|-]\n\n"
		     "Convert a pipe-mode stream (perf record -o -) into a perf.data file:\n"
		     "attrs section, header features (EVENT_DESC, CMDLINE, HOSTNAME, tracing\n"
		     "data, build ids, ...), SAMPLE_TIME, and every other record in the data\n"
		     "section.  A stream of the other byte order is converted to host order.\n\n",
	.help = p2f_help,
	.help_tail = "FILE '-' or no FILE reads standard input.  The output is written to a\n"
		     "temporary file next to OUT and renamed when complete.\n",
	/* a stream comes on standard input unless named */
	.default_input = "-",
};

static int p2f_setup(struct drv_opts *o, struct tool_args *a, void *w)
{
	struct p2f *p = w;
	uint64_t out_size;
	struct stat st;

	p->out.out.path = a->output;
	if (a->output && stat(a->output, &st) == 0 && !S_ISREG(st.st_mode)) {
		cli_error("pipe-to-file: output '%s' is not a regular file: a perf.data file "
			  "needs a seekable output (its header is written last)", a->output);
		return CLI_EXIT_USAGE;
	}
	if (!a->output && !regular_at_start(STDOUT_FILENO, &out_size)) {
		cli_error("pipe-to-file: standard output is not seekable: a perf.data file "
			  "has its header written last; use -o FILE or redirect to a file");
		return CLI_EXIT_USAGE;
	}
	/* --strict is this command's own rule (p2f_end), not the driver's first-warning stop */
	p->strict = a->strict;
	o->strict = false;
	o->diag_filter = p2f_diag;
	o->diag_filter_arg = p;
	/*
	 * Samples are copied byte for byte: only their time is needed (for
	 * SAMPLE_TIME), so skip the full decode unless --strict asks for every
	 * problem inside them.
	 */
	o->ro.sample_fixed_only = !p->strict;
	return CLI_EXIT_OK;
}

int cmd_pipe_to_file(int argc, char **argv)
{
	struct p2f p;

	memset(&p, 0, sizeof(p));
	p.out.wo = (struct pd_writer_opts)PD_WRITER_OPTS_INIT;
	return drv_main(&pipe_to_file_cmd, argc, argv, &p, p2f_setup, &p2f_ops, &p);
}
