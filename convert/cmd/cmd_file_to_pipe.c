// SPDX-License-Identifier: MIT
/*
 * cmd_file_to_pipe.c - perfconv file-to-pipe: write the stream perf
 * record -o - would have written for a file-mode recording (§8.2):
 * HEADER_ATTR per event, HEADER_FEATURE per feature and the end marker,
 * HEADER_TRACING_DATA and its blob, HEADER_BUILD_ID per build id, an
 * EVENT_UPDATE NAME per event, then the data records unchanged (in host
 * byte order).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "../common/tool_select.h"
#include "driver.h"
#include "perfdata/pd_writer.h"

/* perf's HEADER_LAST_FEATURE from 5.13 until CPU_DOMAIN_INFO (32) existed */
#define PIPE_LAST_FEATURE 32

/* Features perf record sends in pipe mode, or that describe the recording. */
static bool pipe_feature(unsigned int id)
{
	switch (id) {
	case PD_FEAT_TRACING_DATA:	/* records of their own */
	case PD_FEAT_BUILD_ID:
	case PD_FEAT_AUXTRACE:		/* file offsets: meaningless in a stream */
	case PD_FEAT_DIR_FORMAT:	/* the stream is one file */
	case PD_FEAT_SAMPLE_TIME:	/* perf sends it before any sample: 0/0 */
		return false;
	default:
		return id < PD_FEAT_LINUX_MAX || pd_feature_name(id) == NULL;
	}
}

/* EVENT_UPDATE NAME, which perf record adds for every event in pipe mode. */
static int write_event_name(struct pd_writer *w, const struct pd_event *ev)
{
	uint8_t rec[8 + 16 + 256];
	size_t n, size;

	if (!ev->nr_ids || !ev->name)
		return 0;
	n = strlen(ev->name);
	if (n > 200)
		return 0;
	/* perf sizes it from its struct (the cpu map union) plus the name, 8-aligned */
	size = (40 + n + 1 + 7) & ~(size_t)7;
	memset(rec, 0, size);
	{
		uint32_t type = PD_REC_EVENT_UPDATE;
		uint16_t misc = 0, sz = (uint16_t)size;
		uint64_t kind = 2, id = ev->ids[0];

		memcpy(rec, &type, 4);
		memcpy(rec + 4, &misc, 2);
		memcpy(rec + 6, &sz, 2);
		memcpy(rec + 8, &kind, 8);
		memcpy(rec + 16, &id, 8);
	}
	memcpy(rec + 24, ev->name, n);
	return pd_writer_write_record(w, rec, size);
}

/* ---- the writer ops (driver.h) ---- */

struct f2p_writer {
	struct drv_perf_out out;
	int wstatus;			/* the writer's failure, or 0 */
	bool committed;			/* w is gone */
};

/* §8.2: attrs, features, end marker, tracing data, build ids */
static int write_header(struct pd_writer *w, struct pd_reader *r)
{
	const struct pd_features *f = pd_reader_features(r);
	bool swapped = pd_reader_header(r)->swapped;
	unsigned int id, last = PIPE_LAST_FEATURE;
	int status = 0;
	size_t i;

	for (i = 0; status >= 0 && i < pd_reader_nr_events(r); i++) {
		const struct pd_event *ev = pd_reader_event(r, i);

		status = pd_writer_add_event(w, &ev->attr, ev->attr_size_on_disk, ev->ids,
					     ev->nr_ids);
	}
	for (id = 1; status >= 0 && id < PD_FEAT_BITS; id++) {
		if (!pd_features_has(f, id) || !pipe_feature(id))
			continue;
		/* a newer writer's marker, so that its own features are not read as the end */
		if (id < PD_FEAT_LINUX_MAX && id >= last)
			last = id + 1;
		status = pd_writer_set_feature_from(w, id, f->raw[id].data, f->raw[id].len,
						    swapped, f);
	}
	if (status >= 0)
		status = pd_writer_end_features(w, last);
	if (status >= 0 && pd_features_has(f, PD_FEAT_TRACING_DATA))
		status = pd_writer_set_feature(w, PD_FEAT_TRACING_DATA,
					       f->raw[PD_FEAT_TRACING_DATA].data,
					       f->raw[PD_FEAT_TRACING_DATA].len);
	if (status >= 0 && pd_features_has(f, PD_FEAT_BUILD_ID))
		status = pd_writer_set_feature_from(w, PD_FEAT_BUILD_ID,
						    f->raw[PD_FEAT_BUILD_ID].data,
						    f->raw[PD_FEAT_BUILD_ID].len, swapped, f);
	for (i = 0; status >= 0 && i < pd_reader_nr_events(r); i++)
		status = write_event_name(w, pd_reader_event(r, i));
	return status;
}

static int f2p_begin(struct drv *d, void *arg)
{
	struct f2p_writer *fw = arg;

	if (pd_reader_header(d->r)->mode == PD_MODE_PIPE) {
		cli_error("file-to-pipe: %s is already a pipe-mode stream", d->cd.name);
		return CLI_EXIT_USAGE;
	}
	if (drv_perf_out_open(d, &fw->out, "file-to-pipe", PD_WRITER_PIPE) < 0)
		return PD_STATUS_IO;
	fw->wstatus = write_header(fw->out.w, d->r);
	return fw->wstatus < 0 ? tool_exit_code(fw->wstatus, &d->cd) : 0;
}

static int f2p_record(struct drv *d, void *arg, const struct pd_record *rec)
{
	struct f2p_writer *fw = arg;
	int status = pd_writer_copy_record(fw->out.w, rec);

	if (status >= 0)
		return 0;
	/* the exit code is made in f2p_close() */
	fw->wstatus = status;
	return DRV_STOP;
}

static int f2p_end(struct drv *d, void *arg)
{
	struct f2p_writer *fw = arg;

	/* a stream cut by a damaged input is no stream: nothing is kept */
	if (fw->wstatus < 0 || d->status < 0)
		return 0;
	fw->committed = true;
	return drv_perf_out_commit(&fw->out) < 0 ? PD_STATUS_IO : 0;
}

static int f2p_close(struct drv *d, void *arg, int code)
{
	struct f2p_writer *fw = arg;

	if (fw->committed)
		return code;
	drv_perf_out_abort(&fw->out);
	if (fw->wstatus < 0)
		code = tool_exit_code(fw->wstatus, &d->cd);
	if ((fw->wstatus < 0 || d->status < 0) && fw->out.wd.count[PD_SEV_ERROR])
		code = CLI_EXIT_IO;
	return code;
}

static const struct writer_ops f2p_ops = {
	.begin = f2p_begin,
	.record = f2p_record,
	.end = f2p_end,
	.close = f2p_close,
};

static const struct tool_flag f2p_flags[] = {
	TOOL_FLAG("fsync", 0, struct f2p_writer, out.wo.fsync, true,
		  "flush the output to disk before renaming it"),
	{ NULL, 0, 0, false, NULL },
};

static const struct tool_help f2p_help[] = {
	{ "output", NULL, "output (default: standard output; a pipe is fine,\n"
			  "a terminal is refused)" },
	{ NULL, NULL, NULL },
};

static const struct tool_cmd file_to_pipe_cmd = {
	.prog = CLI_PROGNAME,
	.name = "file-to-pipe",
	/* only -i: every record is written */
	.groups = TOOL_ARG_OUTPUT | TOOL_ARG_NAMED | TOOL_ARG_VERBOSE |
		  TOOL_ARG_INPUT,
	.flags = f2p_flags,
	.help_head = "usage: " CLI_PROGNAME " file-to-pipe [--fsync] [-v] [-o OUT] [FILE|DIR|-]\n\n"
		     "Write the pipe-mode stream (perf record -o -) of a file-mode recording:\n"
		     "perf reads it on standard input and pipe-to-file turns it back into an\n"
		     "equivalent file.  A file of the other byte order is converted to host\n"
		     "order.\n\n",
	.help = f2p_help,
	.help_tail = "A regular output file is written to a temporary file next to it and\n"
		     "renamed when complete.\n" CLI_INPUT_HELP_TAIL,
	.binary = "a binary stream",
	.binary_how = "a pipe",
	.binary_tail = "| perf script -i -",
};

static int f2p_setup(struct drv_opts *o, struct tool_args *a, void *w)
{
	struct f2p_writer *fw = w;

	fw->out.out.path = a->output;
	return CLI_EXIT_OK;
}

int cmd_file_to_pipe(int argc, char **argv)
{
	struct f2p_writer fw = { .out.wo = PD_WRITER_OPTS_INIT };

	return drv_main(&file_to_pipe_cmd, argc, argv, &fw, f2p_setup, &f2p_ops, &fw);
}
