// SPDX-License-Identifier: MIT
/*
 * cmd_to_json.c - perfconv to-json: perf's JSON document, or --full, a
 * lossless JSON description of every part of the file.
 *
 * The command owns what both writers share: options, the input, the
 * output (a temporary file renamed into place only when the document is
 * complete), symbolization, diagnostics and the progress line; the
 * tracepoint formats are json_trace.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/tool_select.h"
#include "json/json_conv.h"

#define OUT_BUF_SIZE (1024 * 1024)

/* the options of to-json's own */
struct to_json_opts {
	bool full, jsonl, ordered, symbols, trace_fields, progress;
};

static const struct tool_flag json_flags[] = {
	TOOL_FLAG("full", 0, struct to_json_opts, full, true,
		  "lossless: header, attrs, features and every record"),
	TOOL_FLAG("jsonl", 0, struct to_json_opts, jsonl, true,
		  "--full as JSON Lines: the file description first,\nthen one line per record"),
	TOOL_FLAG("ordered", 0, struct to_json_opts, ordered, true,
		  "--full: records in time order (default: file order)"),
	TOOL_FLAG("symbols", 0, struct to_json_opts, symbols, true,
		  "--full: add resolved frames to samples (in file\norder the input is read twice: not a pipe)"),
	TOOL_FLAG("no-trace-fields", 0, struct to_json_opts, trace_fields, false,
		  "leave tracepoint fields out of samples (perf 6.1 did)"),
	TOOL_FLAG("no-progress", 0, struct to_json_opts, progress, false,
		  "no progress bar on stderr"),
	{ NULL, 0, 0, false, NULL },
};

static const struct tool_help json_help[] = {
	{ "output", "FILE", "write FILE (complete or not at all) instead of\n"
			    "stdout (- is stdout)" },
	{ "no-unwind", NULL, "--symbols: do not unwind the user stack of\n"
			     "--call-graph dwarf samples (the default output\n"
			     "always shows the recorded callchain, as perf)" },
	{ "no-inline", NULL, "--symbols: no inline frames in unwound stacks" },
	{ "max-stack", NULL, "--symbols: at most N callchain entries and N\n"
			     "unwound user frames per sample (1 to 127,\n"
			     "default 127)" },
	{ "strict", NULL, "stop at the first warning or error: exit 1, no -o file" },
	{ NULL, NULL, NULL },
};

static const struct tool_cmd to_json_cmd = {
	.prog = CLI_PROGNAME,
	.name = "to-json",
	.groups = TOOL_ARG_OUTPUT | TOOL_ARG_STRICT | TOOL_ARG_VERBOSE |
		  TOOL_ARG_SELECT | TOOL_ARG_SYMBOLS | TOOL_ARG_BUILDID_DIR,
	.flags = json_flags,
	.help_head = "usage: " CLI_PROGNAME " to-json [OPTIONS] [FILE|DIR|-]\n\n"
		     "Convert a perf.data file to JSON.  Default: the document of\n"
		     "'perf data convert --to-json' (samples in time order, symbolized).\n\n",
	.help = json_help,
	.help_tail = CLI_INPUT_HELP_TAIL
		     "Exit status: 0 success, 1 malformed input, 2 usage error,\n"
		     "3 I/O or system error.\n",
};

/*
 * to-json's writer ops: the output (a temporary file renamed into place
 * only when the document is complete) and the second reader of --symbols
 * in file order around the ops of the chosen document.
 */
struct to_json {
	struct jconv c;
	const struct writer_ops *doc;	/* json_perf_ops or json_full_ops */
	struct drv_out out;
	bool second_reader;		/* --full --symbols in file order */
	struct je je;
	struct to_json_opts opt;	/* the command line's */
};

static int tj_begin(struct drv *d, void *w)
{
	struct to_json *tj = w;
	struct jconv *c = &tj->c;
	int status;

	c->r = d->r;
	c->m = d->m;
	if (tj->second_reader) {
		status = sym_ahead_open(c->input, c->m, &c->ahead);
		if (status == PD_STATUS_NOMEM)
			return status;
		if (status < 0) {
			cli_error("to-json: %s: cannot be opened a second time for --symbols",
				  c->input);
			return tool_exit_code(status, &d->cd);
		}
	}
	if (drv_out_open(&tj->out, "to-json") < 0 ||
	    je_init(&tj->je, tj->out.sink.fd, OUT_BUF_SIZE) < 0)
		return PD_STATUS_IO;
	c->je = &tj->je;
	return tj->doc->begin(d, c);
}

static int tj_record(struct drv *d, void *w, const struct pd_record *rec)
{
	struct to_json *tj = w;

	return tj->doc->record(d, &tj->c, rec);
}

static int tj_end(struct drv *d, void *w)
{
	struct to_json *tj = w;

	return tj->doc->end(d, &tj->c);
}

static int tj_close(struct drv *d, void *w, int code)
{
	struct to_json *tj = w;

	code = tj->doc->close(d, &tj->c, code);
	/* the sink keeps the buffer's first failure for drv_out_close() */
	if (tj->c.je && je_flush(&tj->je) < 0 && !tj->out.sink.err)
		tj->out.sink.err = tj->je.ob.err;
	/*
	 * Malformed input converted as far as it could be read is kept (exit
	 * 1 says it was malformed).
	 */
	code = drv_out_close(&tj->out, drv_out_keep(d, code), code);
	if (tj->c.je)
		je_free(&tj->je);
	jconv_trace_free(&tj->c);
	sym_ahead_free(tj->c.ahead);
	tj->c.ahead = NULL;
	return code;
}

static const struct writer_ops to_json_ops = {
	.begin = tj_begin,
	.record = tj_record,
	.end = tj_end,
	.close = tj_close,
};

static int tj_setup(struct drv_opts *d, struct tool_args *a, void *w)
{
	struct to_json *tj = w;
	struct to_json_opts *o = &tj->opt;
	const char *input = a->input;
	struct stat st;

	/* --jsonl is --full as JSON Lines */
	o->full = o->full || o->jsonl;
	if (!o->full && (o->ordered || o->symbols)) {
		cli_error("to-json: --ordered and --symbols need --full "
			  "(the default document is always ordered and symbolized)");
		return CLI_EXIT_USAGE;
	}
	/*
	 * Symbols in file order need a second, time-ordered pass over the
	 * input (sym_ahead.c): a pipe cannot be read twice.
	 */
	if (o->full && o->symbols && !o->ordered && !sym_ahead_rereadable(input)) {
		cli_error("to-json: --symbols without --ordered reads the input twice "
			  "(a sample's maps can come after it in the file), which a pipe "
			  "cannot be: add --ordered or give a file");
		return CLI_EXIT_USAGE;
	}

	tj->c.input = input;
	tj->c.jsonl = o->jsonl;
	tj->c.trace_fields = o->trace_fields;
	tj->c.sel = a->cs.sel;
	tj->doc = o->full ? &json_full_ops : &json_perf_ops;
	tj->out.path = a->output;
	d->progress = o->progress;
	/* perf's converter reads in time order; --full keeps file order unless asked */
	d->ro.time_order = o->full ? o->ordered : true;
	d->ro.skip_compressed = !o->full;
	if (!o->full || o->symbols) {
		d->so = &a->so;
		/* in file order the machine is fed by the time-ordered reader */
		tj->second_reader = d->writer_feeds_machine = o->full && !o->ordered;
	}

	/*
	 * perf's "captured-on" is the input's modification time; in
	 * directory mode its header file's (DIR/data), not the directory's,
	 * which its later files (data.N) make newer
	 */
	if (strcmp(input, "-") ? stat(input, &st) == 0 : fstat(STDIN_FILENO, &st) == 0) {
		char header[PATH_MAX];
		struct stat hst;

		if (S_ISDIR(st.st_mode) &&
		    (size_t)snprintf(header, sizeof(header), "%s/data", input) < sizeof(header) &&
		    stat(header, &hst) == 0)
			st.st_mtime = hst.st_mtime;
		tj->c.have_mtime = true;
		tj->c.mtime = st.st_mtime;
	}
	return CLI_EXIT_OK;
}

int cmd_to_json(int argc, char **argv)
{
	struct to_json tj;

	memset(&tj, 0, sizeof(tj));
	tj.opt.trace_fields = true;
	tj.opt.progress = true;
	return drv_main(&to_json_cmd, argc, argv, &tj.opt, tj_setup, &to_json_ops, &tj);
}
