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
#include "cli_select.h"
#include "json_conv.h"

#define OUT_BUF_SIZE (1024 * 1024)
/* inputs smaller than this finish before a progress line would help */
#define PROGRESS_MIN_BYTES (64ULL << 20)

struct to_json_opts {
	const char *output;
	bool full, jsonl, ordered, symbols, strict, progress, verbose;
	bool trace_fields;
	struct pd_sym_opts so;
	struct cli_select cs;
	const char *input;
};

/* ---- progress ---- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t progress_total;
static double progress_last;

static void progress_tick(struct jconv *c)
{
	uint64_t done = pd_reader_bytes_read(c->r);
	double t = now_s();
	unsigned int pct, i;
	char bar[41];

	if (t - progress_last < 0.2)
		return;
	progress_last = t;
	pct = progress_total ? (unsigned int)(done * 100 / progress_total) : 0;
	if (pct > 100)
		pct = 100;
	for (i = 0; i < 40; i++)
		bar[i] = i < pct * 40 / 100 ? '#' : '.';
	bar[40] = '\0';
	fprintf(stderr, "\r%s to-json: [%s] %3u%% %llu MB, %llu samples", cli_progname, bar, pct,
		(unsigned long long)(done / 1000000), (unsigned long long)c->samples);
}

static void progress_end(void)
{
	/* wipe the line so that later messages start clean */
	fprintf(stderr, "\r%*s\r", 78, "");
}

/* ---- diagnostics ---- */

static void strict_hook(const struct pd_diag *d, void *arg)
{
	struct jconv *c = arg;

	if (c->strict && d->severity >= PD_SEV_WARNING)
		c->stop = true;
}

static void sym_note(void *arg, const char *dso, const char *msg)
{
	if (arg)
		fprintf(stderr, "%s: to-json: note: %s: %s\n", cli_progname, dso, msg);
}

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
			taken = cli_unwind_option("to-json", c, optarg, &o->so);
			if (taken < 0)
				return CLI_EXIT_USAGE;
			if (taken)
				break;
			taken = cli_select_option(&o->cs, c, optarg);
			if (taken < 0)
				return CLI_EXIT_USAGE;
			if (!taken)
				return tool_bad_option(cli_progname, "to-json", argc, argv, c);
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

int cmd_to_json(int argc, char **argv)
{
	struct pd_reader_opts ro = PD_READER_OPTS_INIT;
	struct to_json_opts o;
	struct out_sink of;
	struct cli_diag cd;
	struct jconv c;
	struct je je;
	const char *input;
	struct stat st;
	int ret, status, code;

	ret = parse_opts(argc, argv, &o);
	if (ret) {
		cli_select_free(&o.cs);
		return ret < 0 ? tool_finish_output(cli_progname, CLI_EXIT_OK) : ret;
	}
	input = o.input;
	code = cli_check_output("to-json", input, o.output ? o.output : "-");
	if (code) {
		cli_select_free(&o.cs);
		return code;
	}

	memset(&c, 0, sizeof(c));
	c.input = input;
	c.strict = o.strict;
	c.jsonl = o.jsonl;
	c.trace_fields = o.trace_fields;
	c.sel = o.cs.sel;
	cli_diag_init(&cd, input, o.verbose);
	cd.hook = strict_hook;
	cd.hook_arg = &c;
	c.cd = &cd;
	ro.diag_fn = cli_diag_cb;
	ro.diag_arg = &cd;
	/* perf's converter reads in time order; --full keeps file order unless asked */
	ro.time_order = o.full ? o.ordered : true;
	ro.skip_compressed = !o.full;
	cli_select_reader_opts(&o.cs, &ro);

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

	/* perf's "captured-on" is the input's modification time */
	if (strcmp(input, "-") ? stat(input, &st) == 0 : fstat(STDIN_FILENO, &st) == 0) {
		c.have_mtime = true;
		c.mtime = st.st_mtime;
	}

	status = pd_reader_open(input, &ro, &c.r);
	if (status < 0) {
		cli_select_free(&o.cs);
		return cli_exit_code(status, &cd);
	}
	code = c.stop ? CLI_EXIT_MALFORMED : cli_select_check(&o.cs, c.r, false);
	if (code) {
		pd_reader_close(c.r);
		cli_select_free(&o.cs);
		return code;
	}

	if (!o.full || o.symbols) {
		o.so.note_fn = sym_note;
		o.so.note_arg = o.verbose ? &c : NULL;
		/* the paths of the options were checked: only memory can fail here */
		if (pd_machine_new(&o.so, &c.m) < 0) {
			cli_error("to-json: out of memory");
			code = CLI_EXIT_IO;
			pd_reader_close(c.r);
			cli_select_free(&o.cs);
			return code;
		}
		pd_machine_add_features(c.m, pd_reader_features(c.r));
		if (o.full && !o.ordered) {
			status = sym_ahead_open(input, c.m, &c.ahead);
			if (status < 0) {
				if (status == PD_STATUS_NOMEM)
					cli_error("to-json: out of memory");
				else
					cli_error("to-json: %s: cannot be opened a second time "
						  "for --symbols", input);
				code = cli_exit_code(status, &cd);
				pd_machine_free(c.m);
				pd_reader_close(c.r);
				cli_select_free(&o.cs);
				return code;
			}
		}
	}

	/* "-" is standard output */
	if (out_sink_open(&of, cli_progname, "to-json",
			  o.output && strcmp(o.output, "-") ? o.output : NULL, NULL) < 0 || je_init(&je, of.fd, OUT_BUF_SIZE) < 0) {
		sym_ahead_free(c.ahead);
		pd_machine_free(c.m);
		pd_reader_close(c.r);
		out_sink_close(&of, false);
		cli_select_free(&o.cs);
		return CLI_EXIT_IO;
	}
	c.je = &je;

	progress_total = pd_reader_header(c.r)->file_size;
	if (o.progress && isatty(STDERR_FILENO) && progress_total >= PROGRESS_MIN_BYTES) {
		c.tick = progress_tick;
		progress_last = now_s();
	}

	status = o.full ? json_full_write(&c) : json_perf_write(&c);

	if (c.tick)
		progress_end();
	je_flush(&je);
	if (je.err) {
		tool_io_error(cli_progname, "write", of.final, je.err);
		code = CLI_EXIT_IO;
	} else if (status == PD_STATUS_NOMEM) {
		cli_error("to-json: out of memory");
		code = CLI_EXIT_IO;
	} else {
		code = cli_exit_code(status, &cd);
		if (c.stop && code == CLI_EXIT_OK)
			code = CLI_EXIT_MALFORMED;
		if (code == CLI_EXIT_OK)
			code = cli_select_check(&o.cs, c.r, true);
	}
	/*
	 * The document is complete unless writing failed or --strict stopped
	 * it; malformed input converted as far as it could be read is kept
	 * (exit 1 says it was malformed).
	 */
	/* a usage error found at the end (pipe mode's --event) leaves no file either */
	if (out_sink_close(&of, code != CLI_EXIT_IO && code != CLI_EXIT_USAGE && !c.stop) < 0 &&
	    code == CLI_EXIT_OK)
		code = CLI_EXIT_IO;
	je_free(&je);
	jconv_trace_free(&c);
	sym_ahead_free(c.ahead);
	pd_machine_free(c.m);
	pd_reader_close(c.r);
	cli_select_free(&o.cs);
	return code;
}
