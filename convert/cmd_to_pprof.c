// SPDX-License-Identifier: MIT
/*
 * cmd_to_pprof.c - perfconv to-pprof: perf.data as a gzip-compressed
 * pprof profile (perftools.profiles.Profile, schema/profile.proto),
 * symbolized, for go tool pprof and the viewers that read its format.
 *
 *	perfconv to-pprof [-o OUT] [--no-srcline] [--no-unwind] [--no-inline] [--max-stack N]
 *	                  [--symfs DIR] [--kallsyms FILE] [SELECTION] FILE|DIR|-
 *
 * One pass in time order feeds the symbolization machine and aggregates
 * every sample into its stack (pprof_prof.c); the profile is written at
 * the end through a temporary file renamed when complete.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_select.h"
#include "../common/out_sink.h"
#include "pprof_prof.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s to-pprof [-o OUT] [--no-srcline] [--no-unwind] [--no-inline]\n"
		"                         [--max-stack N]\n"
		"                         [--symfs DIR] [--kallsyms FILE] [--strict] [-v] [SELECTION]\n"
		"                         [FILE|DIR|-]\n\n"
		"Write the samples as a gzip-compressed pprof profile (perftools.profiles.Profile,\n"
		"schema/profile.proto) for go tool pprof and the viewers that read it: one\n"
		"sample per distinct stack, thread and event, symbolized, with source lines and\n"
		"inlined functions from debug info, and pid, tid and comm labels.\n\n"
		"  -o, --output OUT     write to OUT (replaced only when complete); default stdout\n"
		"      --no-srcline     no source lines or inlined functions (no DWARF lookups)\n"
		"      --symfs DIR      look for every binary under DIR\n"
		"      --kallsyms FILE  kernel symbols from FILE\n"
		"      --strict         stop at the first warning or error in the input\n"
		"  -v, --verbose        also print notes (DSOs without symbols, ...)\n"
		"  -h, --help           show this help\n"
		CLI_UNWIND_HELP
		CLI_SELECT_HELP "\n"
		"Sample values: samples/count, then the summed period of each event that has\n"
		"samples (--event chooses them).  Read with: go tool pprof -top OUT\n"
		CLI_INPUT_HELP_TAIL,
		cli_progname);
}

static void print_note(void *arg, const char *dso, const char *msg)
{
	if (arg)
		fprintf(stderr, "%s: to-pprof: note: %s: %s\n", cli_progname, dso, msg);
}

static bool stop_now(const struct cli_diag *cd, bool strict)
{
	return strict && (cd->count[PD_SEV_WARNING] || cd->count[PD_SEV_ERROR]);
}

enum { OPT_NO_SRCLINE = 0x1200, OPT_SYMFS, OPT_KALLSYMS, OPT_STRICT };

int cmd_to_pprof(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "no-srcline", no_argument, NULL, OPT_NO_SRCLINE },
		CLI_UNWIND_LONGOPTS,
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		CLI_SELECT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct pd_reader_opts ro = PD_READER_OPTS_INIT;
	struct pd_sym_opts so = PD_SYM_OPTS_INIT;
	struct pd_reader *r = NULL;
	struct pd_machine *m = NULL;
	struct pp_prof *p = NULL;
	struct pd_members *members = NULL;
	const struct pd_record *rec;
	struct cli_select cs;
	struct cli_diag cd;
	struct out_sink out;
	const char *output = NULL, *input;
	bool strict = false, verbose = false, failed = false, srcline = true, opened = false;
	int ch, status = 0, code = CLI_EXIT_USAGE, taken;

	cli_select_init(&cs, cli_progname, "to-pprof");
	cli_getopt_reset();
	while ((ch = getopt_long(argc, argv, ":o:vh" CLI_SELECT_SHORTOPTS, longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			output = optarg;
			break;
		case OPT_NO_SRCLINE:
			srcline = false;
			break;
		case OPT_SYMFS:
			so.symfs = optarg;
			break;
		case OPT_KALLSYMS:
			so.kallsyms = optarg;
			break;
		case OPT_STRICT:
			strict = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout);
			code = tool_finish_output(cli_progname, CLI_EXIT_OK);
			goto done;
		default:
			taken = cli_unwind_option("to-pprof", ch, optarg, &so);
			if (taken < 0)
				goto done;
			if (taken)
				break;
			taken = cli_select_option(&cs, ch, optarg);
			if (!taken)
				code = tool_bad_option(cli_progname, "to-pprof", argc, argv, ch);
			if (taken <= 0)
				goto done;
		}
	}
	input = cli_select_input(&cs, argc, argv, optind, NULL);
	if (!input) {
		usage(stderr);
		goto done;
	}
	if (cli_check_output("to-pprof", input, output ? output : "-") ||
	    tool_check_sym_paths(cli_progname, so.symfs, so.kallsyms, NULL))
		goto done;
	if (!output && isatty(STDOUT_FILENO)) {
		cli_error("to-pprof: refusing to write a compressed profile to a terminal");
		fprintf(stderr, "Use -o OUT, or redirect: %s to-pprof %s > out.pb.gz\n",
			cli_progname, input);
		goto done;
	}
	cli_select_reader_opts(&cs, &ro);
	so.srcline = srcline;
	so.note_fn = print_note;
	so.note_arg = verbose ? &so : NULL;

	cli_diag_init(&cd, input, verbose);
	ro.diag_fn = cli_diag_cb;
	ro.diag_arg = &cd;
	/* perf's order: it decides the comm and the maps of every sample */
	ro.time_order = true;
	status = pd_reader_open(input, &ro, &r);
	if (status < 0) {
		code = cli_exit_code(status, &cd);
		goto done;
	}
	code = cli_select_check(&cs, r, false);
	if (code)
		goto done;
	if (stop_now(&cd, strict)) {
		code = cli_exit_code(PD_STATUS_MALFORMED, &cd);
		goto done;
	}
	/* the paths of the options were checked: only memory can fail here */
	if (pd_machine_new(&so, &m) < 0)
		goto nomem;
	if (out_sink_open(&out, cli_progname, "to-pprof", output, NULL)) {
		code = CLI_EXIT_IO;
		goto done;
	}
	opened = true;
	p = pp_new(m, srcline, &out);
	if (!p || pd_members_new(r, cs.sel, &members) < 0 ||
	    pd_machine_add_features(m, pd_reader_features(r)) < 0)
		goto nomem;

	while ((status = pd_reader_next(r, &rec)) > 0) {
		if (pd_machine_process(m, rec) < 0)
			goto nomem;
		/* a sample without its attr has no event: nothing to charge it to */
		if (rec->type == PD_REC_SAMPLE && rec->decoded && rec->event_index >= 0) {
			struct pd_member mbr;
			size_t pos = 0;
			int ret;

			/* the samples perf makes of it: one per member for leader sampling */
			while ((ret = pd_members_next(members, rec, &pos, &mbr)) > 0) {
				ret = pp_sample(p, rec, mbr.event_index, mbr.period);
				if (ret)
					break;
			}
			if (ret == PD_STATUS_IO)
				goto tmp_err;
			if (ret)
				goto nomem;
		}
		if (stop_now(&cd, strict)) {
			status = PD_STATUS_MALFORMED;
			failed = true;
			break;
		}
	}
	/* a problem found at the end of the input counts as much as one before it */
	if ((status < 0 && strict) || stop_now(&cd, strict)) {
		failed = true;
		if (status >= 0)
			status = PD_STATUS_MALFORMED;
	}
	if (!failed) {
		int ret = pp_write(p, r);

		if (ret == PD_STATUS_IO)
			goto tmp_err;
		if (ret)
			goto nomem;
	}
	code = cli_exit_code(status < 0 ? status : 0, &cd);
	if (code == CLI_EXIT_OK)
		code = cli_select_check(&cs, r, true);
	opened = false;
	/* a usage error found at the end (pipe mode's --event) leaves no file either */
	if (out_sink_close(&out, !failed && code != CLI_EXIT_USAGE) && code == CLI_EXIT_OK)
		code = CLI_EXIT_IO;
	if (!output && out.err && code == CLI_EXIT_OK) {
		tool_io_error(cli_progname, "write", NULL, out.err);
		code = CLI_EXIT_IO;
	}
	goto done;

tmp_err:
	/* the unnamed file tmpfile() made in TMPDIR, or /tmp */
	tool_io_error(cli_progname, "write", "temporary file of the stacks", errno);
	code = CLI_EXIT_IO;
	goto done;
nomem:
	cli_error("to-pprof: out of memory");
	code = CLI_EXIT_IO;
done:
	if (opened)
		out_sink_close(&out, false);
	pp_free(p);
	pd_members_free(members);
	if (m)
		pd_machine_free(m);
	if (r)
		pd_reader_close(r);
	cli_select_free(&cs);
	return code;
}
