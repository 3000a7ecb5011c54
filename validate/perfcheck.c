// SPDX-License-Identifier: MIT
/*
 * perfcheck.c - command line of the perf.data validator.
 *
 *	perfcheck [--strict] [--format text|json|junit] [--max-errors N]
 *		  [--check-buildids [--symfs DIR]] [--list-checks] [-q] FILE|-...
 *
 * Every input is read to its end; the exit code is the worst of the
 * inputs: 0 no error, 1 errors (or warnings with --strict), 2 usage,
 * 3 I/O or system error.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "perfcheck.h"

static const char *progname = "perfcheck";

/* Findings of one code shown per file unless --max-per-code says otherwise. */
#define DEFAULT_MAX_PER_CODE	100

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [OPTIONS] [FILE|-...]\n\n"
		"Check perf.data files (file, pipe or directory mode) completely and report\n"
		"every problem found, with its offset, record and stable code.\n\n"
		"options:\n"
		"  --strict              warnings fail the check too (exit 1)\n"
		"  --format FMT          text (default), json or junit\n"
		"  --max-errors N        stop checking a file after N errors, reporting\n"
		"                        exactly N (0: never)\n"
		"  --max-per-code N      show at most N findings of one code per file\n"
		"                        (default %d, 0: all); all are counted\n"
		"  --check-buildids      compare recorded build ids with the binaries here\n"
		"  --symfs DIR           look for those binaries under DIR\n"
		"  --list-checks         print the catalogue of checks and exit (text,\n"
		"                        or JSON with --format json)\n"
		"  -i, --input FILE      check FILE too (as a FILE argument; repeatable)\n"
		"  -q, --quiet           text: print only the findings that fail the check\n"
		"  -h, --help            this help\n"
		"  -V, --version         version\n\n"
		"Without FILE and -i, the input is standard input when it is a pipe,\n"
		"else perf.data in the current directory (as perf does).\n"
		"Exit status: 0 no error, 1 errors found (or warnings with --strict),\n"
		"2 usage error, 3 I/O or system error.  With several files, the worst.\n",
		progname, DEFAULT_MAX_PER_CODE);
}

enum {
	OPT_STRICT = 256,
	OPT_FORMAT,
	OPT_MAX_ERRORS,
	OPT_MAX_PER_CODE,
	OPT_CHECK_BUILDIDS,
	OPT_SYMFS,
	OPT_LIST_CHECKS,
};

static const struct option long_opts[] = {
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "max-errors", required_argument, NULL, OPT_MAX_ERRORS },
	{ "max-per-code", required_argument, NULL, OPT_MAX_PER_CODE },
	{ "check-buildids", no_argument, NULL, OPT_CHECK_BUILDIDS },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "list-checks", no_argument, NULL, OPT_LIST_CHECKS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "input", required_argument, NULL, 'i' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

#define bad_usage(...)	tool_usage_error(progname, NULL, __VA_ARGS__)

int main(int argc, char **argv)
{
	struct pc_opts o = { .format = PC_FMT_TEXT, .max_per_code = DEFAULT_MAX_PER_CODE };
	struct pc_report rep;
	/* static: early returns leave it reachable, not leaked */
	static const char **inputs;
	size_t nr_inputs = 0;
	bool list = false;
	int c, i;

	/* -i FILE and FILE arguments, in the order given */
	inputs = calloc((size_t)argc + 1, sizeof(*inputs));
	if (!inputs) {
		tool_error(progname, NULL, "out of memory");
		return PC_EXIT_IO;
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qhVi:", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_STRICT:
			o.strict = true;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "text"))
				o.format = PC_FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				o.format = PC_FMT_JSON;
			else if (!strcmp(optarg, "junit"))
				o.format = PC_FMT_JUNIT;
			else
				return bad_usage("unknown format '%s' (text, json or junit)", optarg);
			break;
		case OPT_MAX_ERRORS:
			if (!tool_parse_u64(optarg, &o.max_errors))
				return bad_usage("--max-errors needs a number, got '%s'", optarg);
			break;
		case OPT_MAX_PER_CODE:
			if (!tool_parse_u64(optarg, &o.max_per_code))
				return bad_usage("--max-per-code needs a number, got '%s'", optarg);
			break;
		case OPT_CHECK_BUILDIDS:
			o.check_buildids = true;
			break;
		case OPT_SYMFS:
			o.symfs = optarg;
			break;
		case OPT_LIST_CHECKS:
			list = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'i':
			inputs[nr_inputs++] = optarg;
			break;
		case 'h':
			usage(stdout);
			return tool_finish_output(progname, PC_EXIT_OK);
		case 'V':
			return tool_print_version(progname);
		default:
			return tool_bad_option(progname, NULL, argc, argv, c);
		}
	}
	if (list) {
		if (o.format == PC_FMT_JUNIT) {
			free(inputs);
			return bad_usage("--list-checks prints text or json, not junit");
		}
		pc_list_checks(stdout, o.format);
		return tool_finish_output(progname, PC_EXIT_OK);
	}
	for (i = optind; i < argc; i++)
		inputs[nr_inputs++] = argv[i];
	if (!nr_inputs) {
		/* perf's rule: a pipe on standard input, else ./perf.data */
		inputs[nr_inputs++] = tool_default_input(progname, NULL);
		if (!inputs[0]) {
			usage(stderr);
			free(inputs);
			return PC_EXIT_USAGE;
		}
	}
	if (o.symfs && !o.check_buildids) {
		free(inputs);
		return bad_usage("%s only makes sense with --check-buildids", "--symfs");
	}
	if (tool_check_option_path(progname, "--symfs", o.symfs, true)) {
		free(inputs);
		return PC_EXIT_USAGE;
	}

	pc_report_begin(&rep, &o, stdout);
	for (i = 0; i < (int)nr_inputs; i++)
		pc_check_path(&rep, inputs[i]);
	free(inputs);
	return tool_finish_output(progname, pc_report_end(&rep));
}
