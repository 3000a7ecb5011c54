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
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/out_sink.h"
#include "../common/tool_select.h"
#include "json_conv.h"

#define OUT_BUF_SIZE (1024 * 1024)

struct to_json_opts {
	const char *output;
	bool full, jsonl, ordered, symbols, strict, progress, verbose;
	bool trace_fields;
	struct pd_sym_opts so;
	struct cli_select cs;
	const char *input;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s to-json [OPTIONS] [FILE|DIR|-]\n\n"
		"Convert a perf.data file to JSON.  Default: the document of\n"
		"'perf data convert --to-json' (samples in time order, symbolized).\n\n"
		"  -o, --output FILE     write FILE (complete or not at all) instead of stdout\n"
		"      --full            lossless: header, attrs, features and every record\n"
		"      --jsonl           --full as JSON Lines: the file description first,\n"
		"                        then one line per record\n"
		"      --ordered         --full: records in time order (default: file order)\n"
		"      --symbols         --full: add resolved frames to samples (in file\n"
		"                        order the input is read twice: not a pipe)\n"
		"      --no-unwind       --symbols: do not unwind the user stack of\n"
		"                        --call-graph dwarf samples (the default output\n"
		"                        always shows the recorded callchain, as perf)\n"
		"      --no-inline       --symbols: no inline frames in unwound stacks\n"
		"      --max-stack N     --symbols: at most N callchain entries and N\n"
		"                        unwound user frames per sample (1 to 127)\n"
		"      --no-trace-fields leave tracepoint fields out of samples (perf 6.1 did)\n"
		"      --symfs DIR       look for every binary under DIR\n"
		"      --kallsyms FILE   kernel symbols from FILE\n"
		"      --buildid-dir DIR build-id cache (default $HOME/.debug)\n"
		"      --strict          stop at the first warning or error: exit 1, no -o file\n"
		"      --no-progress     no progress bar on stderr\n"
		"  -v, --verbose         also print notes (diagnostics, missing binaries)\n"
		"  -h, --help            show this help\n"
		CLI_SELECT_HELP "\n"
		CLI_INPUT_HELP_TAIL
		"Exit status: 0 success, 1 malformed input, 2 usage error, 3 I/O error.\n",
		cli_progname);
}

enum {
	OPT_FULL = 256, OPT_JSONL, OPT_ORDERED, OPT_SYMBOLS, OPT_NO_TRACE, OPT_SYMFS,
	OPT_KALLSYMS, OPT_BUILDID_DIR, OPT_STRICT, OPT_NO_PROGRESS,
};

static int parse_opts(int argc, char **argv, struct to_json_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "full", no_argument, NULL, OPT_FULL },
		{ "jsonl", no_argument, NULL, OPT_JSONL },
		{ "ordered", no_argument, NULL, OPT_ORDERED },
		{ "symbols", no_argument, NULL, OPT_SYMBOLS },
		{ "no-trace-fields", no_argument, NULL, OPT_NO_TRACE },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "buildid-dir", required_argument, NULL, OPT_BUILDID_DIR },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		CLI_UNWIND_LONGOPTS,
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		CLI_SELECT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int c, taken;

	memset(o, 0, sizeof(*o));
	o->progress = true;
	o->trace_fields = true;
	cli_select_init(&o->cs, cli_progname, "to-json");
	cli_getopt_reset();
	while ((c = getopt_long(argc, argv, ":o:vh" CLI_SELECT_SHORTOPTS, longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case OPT_FULL:
			o->full = true;
			break;
		case OPT_JSONL:
			o->full = o->jsonl = true;
			break;
		case OPT_ORDERED:
			o->ordered = true;
			break;
		case OPT_SYMBOLS:
			o->symbols = true;
			break;
		case OPT_NO_TRACE:
			o->trace_fields = false;
			break;
		case OPT_SYMFS:
			o->so.symfs = optarg;
			break;
		case OPT_KALLSYMS:
			o->so.kallsyms = optarg;
			break;
		case OPT_BUILDID_DIR:
			o->so.buildid_dir = optarg;
			break;
		case OPT_STRICT:
			o->strict = true;
			break;
		case OPT_NO_PROGRESS:
			o->progress = false;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			taken = cli_common_option(&o->cs, &o->so, c, optarg, argc, argv);
			if (taken)
				return taken;
		}
	}
	o->input = cli_select_input(&o->cs, argc, argv, optind, NULL);
	if (!o->input) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (tool_check_sym_paths(cli_progname, o->so.symfs, o->so.kallsyms, o->so.buildid_dir))
		return CLI_EXIT_USAGE;
	if (!o->full && (o->ordered || o->symbols)) {
		cli_error("to-json: --ordered and --symbols need --full "
			  "(the default document is always ordered and symbolized)");
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/*
 * to-json's writer ops: the output (a temporary file renamed into place
 * only when the document is complete) and the second reader of --symbols
 * in file order around the ops of the chosen document.
 */
struct to_json {
	struct jconv c;
	const struct writer_ops *doc;	/* json_perf_ops or json_full_ops */
	const char *output;		/* NULL: standard output */
	bool second_reader;		/* --full --symbols in file order */
	bool opened;
	struct out_sink of;
	struct je je;
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
			return cli_exit_code(status, &d->cd);
		}
	}
	tj->opened = true;
	if (out_sink_open(&tj->of, cli_progname, "to-json", tj->output, NULL) < 0 ||
	    je_init(&tj->je, tj->of.fd, OUT_BUF_SIZE) < 0)
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
	if (tj->c.je) {
		je_flush(&tj->je);
		if (tj->je.ob.err) {
			tool_io_error(cli_progname, "write", tj->of.final, tj->je.ob.err);
			code = CLI_EXIT_IO;
		}
	}
	/*
	 * The document is complete unless writing failed or --strict stopped
	 * it; malformed input converted as far as it could be read is kept
	 * (exit 1 says it was malformed).  A usage error found at the end
	 * (pipe mode's --event) leaves no file either.
	 */
	if (tj->opened &&
	    out_sink_close(&tj->of, code != CLI_EXIT_IO && code != CLI_EXIT_USAGE && !d->stop) < 0 &&
	    code == CLI_EXIT_OK)
		code = CLI_EXIT_IO;
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

int cmd_to_json(int argc, char **argv)
{
	struct drv_opts d = { .cmd = "to-json", .ro = PD_READER_OPTS_INIT };
	struct to_json_opts o;
	struct to_json tj;
	const char *input;
	struct stat st;
	int ret, code;

	ret = parse_opts(argc, argv, &o);
	if (ret) {
		cli_select_free(&o.cs);
		return ret < 0 ? tool_finish_output(cli_progname, CLI_EXIT_OK) : ret;
	}
	input = o.input;
	code = tool_check_output(cli_progname, "to-json", input, o.output ? o.output : "-");
	if (code) {
		cli_select_free(&o.cs);
		return code;
	}

	memset(&tj, 0, sizeof(tj));
	tj.c.input = input;
	tj.c.jsonl = o.jsonl;
	tj.c.trace_fields = o.trace_fields;
	tj.c.sel = o.cs.sel;
	tj.doc = o.full ? &json_full_ops : &json_perf_ops;
	/* "-" is standard output */
	tj.output = o.output && strcmp(o.output, "-") ? o.output : NULL;
	d.input = input;
	d.cs = &o.cs;
	d.verbose = o.verbose;
	d.strict = o.strict;
	d.progress = o.progress;
	/* perf's converter reads in time order; --full keeps file order unless asked */
	d.ro.time_order = o.full ? o.ordered : true;
	d.ro.skip_compressed = !o.full;
	cli_select_reader_opts(&o.cs, &d.ro);

	/*
	 * Symbols in file order need a second, time-ordered pass over the
	 * input (sym_ahead.c): a pipe cannot be read twice.
	 */
	if (o.full && o.symbols && !o.ordered && !sym_ahead_rereadable(input)) {
		cli_error("to-json: --symbols without --ordered reads the input twice "
			  "(a sample's maps can come after it in the file), which a pipe "
			  "cannot be: add --ordered or give a file");
		cli_select_free(&o.cs);
		return CLI_EXIT_USAGE;
	}
	if (!o.full || o.symbols) {
		d.so = &o.so;
		/* in file order the machine is fed by the time-ordered reader */
		tj.second_reader = d.writer_feeds_machine = o.full && !o.ordered;
	}

	/* perf's "captured-on" is the input's modification time */
	if (strcmp(input, "-") ? stat(input, &st) == 0 : fstat(STDIN_FILENO, &st) == 0) {
		tj.c.have_mtime = true;
		tj.c.mtime = st.st_mtime;
	}

	code = drv_run(&d, &to_json_ops, &tj);
	cli_select_free(&o.cs);
	return code;
}
