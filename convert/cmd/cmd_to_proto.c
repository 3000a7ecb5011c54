// SPDX-License-Identifier: MIT
/*
 * cmd_to_proto.c - perfconv to-proto: perf.data to a quipper.PerfDataProto
 * protobuf message (schema/perf_data.proto).
 *
 * Default mode streams: every record becomes one `events` entry, encoded
 * and written as soon as it is read, so memory does not grow with the
 * input; the attrs, build ids and header features follow the last event
 * (protobuf readers do not care about field order).  --quipper-compat
 * reproduces quipper's own conversion, which needs the whole event list
 * before it can write the first one (see proto_compat.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "../common/tool_select.h"
#include "driver.h"
#include "proto/proto_compat.h"
#include "proto/proto_event.h"
#include "proto/proto_meta.h"
#include "proto_wire.h"

#define FLUSH_AT (1u << 20)

/* the encoder's buffer handed to the output file */
static void out_write(struct pw_buf *b, void *arg)
{
	out_sink_write(arg, pw_data(b), b->ob.len);
	b->ob.len = 0;
}

struct proto_writer {
	struct drv_out out;
	bool compat;
	struct pm_state meta;		/* zeroed until begin */
	struct pq_state *q;
	struct pw_buf buf;
};

static int proto_nomem(struct proto_writer *pw)
{
	return pw_nomem(&pw->buf) || pw->meta.nomem ? PD_STATUS_NOMEM : 0;
}

static int proto_begin(struct drv *d, void *w)
{
	struct proto_writer *pw = w;

	if (drv_out_open(&pw->out, "to-proto"))
		return PD_STATUS_IO;
	if (pw_buf_init(&pw->buf) || pm_init(&pw->meta, d->r, !pw->compat))
		return PD_STATUS_NOMEM;
	if (pw->compat) {
		pw->q = pq_new();
		if (!pw->q)
			return PD_STATUS_NOMEM;
	}
	return 0;
}

static int proto_record(struct drv *d, void *w, const struct pd_record *rec)
{
	struct proto_writer *pw = w;

	/* the metadata comes from MMAP2 and the pipe's header records: never a sample */
	if (rec->type != PD_REC_SAMPLE)
		pm_record(&pw->meta, d->r, rec);
	if (pw->compat) {
		if (pq_record(pw->q, rec, &pw->meta))
			return PD_STATUS_NOMEM;
	} else {
		size_t m = pw_open(&pw->buf, PF_EVENTS);

		pe_encode_event(&pw->buf, rec, true);
		pw_close(&pw->buf, m);
		if (pw->buf.ob.len >= FLUSH_AT)
			out_write(&pw->buf, &pw->out.sink);
	}
	if (proto_nomem(pw))
		return PD_STATUS_NOMEM;
	/* a full disk or a closed pipe: reading on is pointless */
	return pw->out.sink.err ? DRV_STOP : 0;
}

static int proto_end(struct drv *d, void *w)
{
	struct proto_writer *pw = w;

	if (d->failed)
		return 0;
	if (pw->compat && pq_finish(pw->q, &pw->meta, &pw->buf, out_write, &pw->out.sink))
		return PD_STATUS_NOMEM;
	pm_encode(&pw->meta, d->r, &pw->buf);
	if (proto_nomem(pw))
		return PD_STATUS_NOMEM;
	out_write(&pw->buf, &pw->out.sink);
	return 0;
}

static int proto_close(struct drv *d, void *w, int code)
{
	struct proto_writer *pw = w;

	code = drv_out_close(&pw->out, drv_out_keep(d, code), code);
	pq_free(pw->q);
	pm_free(&pw->meta);
	pw_buf_free(&pw->buf);
	return code;
}

static const struct writer_ops proto_ops = {
	.begin = proto_begin,
	.record = proto_record,
	.end = proto_end,
	.close = proto_close,
};

static const struct tool_flag proto_flags[] = {
	TOOL_FLAG("quipper-compat", 0, struct proto_writer, compat, true,
		  "produce what quipper's perf_converter writes: events\n"
		  "sorted by time, huge-page and split mappings merged,\n"
		  "stats added, no extension fields, the records quipper\n"
		  "drops left out"),
	{ NULL, 0, 0, false, NULL },
};

static const struct tool_cmd to_proto_cmd = {
	.prog = CLI_PROGNAME,
	.name = "to-proto",
	.groups = TOOL_ARG_OUTPUT | TOOL_ARG_STRICT | TOOL_ARG_VERBOSE | TOOL_ARG_SELECT,
	.flags = proto_flags,
	.help_head = "usage: " CLI_PROGNAME " to-proto [--quipper-compat] [--strict] [-v] [-o OUT]\n"
		     "                         [SELECTION] [FILE|DIR|-]\n\n"
		     "Write the recording as a quipper.PerfDataProto protobuf message\n"
		     "(schema/perf_data.proto), readable by programs built on quipper's "
		     "schema.\n\n",
	.help_tail = "Default mode keeps every record in file order and adds extension fields\n"
		     "(numbers >= 1000) for what quipper's schema cannot hold.\n"
		     "Decode with: protoc --decode=quipper.PerfDataProto schema/perf_data.proto"
		     " < OUT\n" CLI_INPUT_HELP_TAIL,
	.binary = "binary protobuf",
	.binary_how = "redirect",
	.binary_tail = "> out.pb",
};

static int proto_setup(struct drv_opts *o, struct tool_args *a, void *w)
{
	struct proto_writer *pw = w;

	pw->out.path = a->output;
	/* the records inside COMPRESSED ones are delivered in their place */
	o->ro.skip_compressed = true;
	return CLI_EXIT_OK;
}

int cmd_to_proto(int argc, char **argv)
{
	struct proto_writer pw = { 0 };

	return drv_main(&to_proto_cmd, argc, argv, &pw, proto_setup, &proto_ops, &pw);
}
