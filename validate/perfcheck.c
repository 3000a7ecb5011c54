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
#include <unistd.h>

#include "perfcheck.h"
#include "../common/tool_args.h"

/* Findings of one code shown per file unless --max-per-code says otherwise. */
#define DEFAULT_MAX_PER_CODE	100
#define STR(x)			#x
#define XSTR(x)			STR(x)

struct perfcheck_ctx {
	struct pc_opts o;
	bool list;		/* --list-checks */
};

/* in the order of enum pc_format, whose value the parser stores */
static const char *const formats[] = { "text", "json", "junit", NULL };
_Static_assert(sizeof(enum pc_format) == sizeof(unsigned int),
	       "--format is stored as an unsigned int");

static const struct tool_flag perfcheck_flags[] = {
	TOOL_FLAG("check-buildids", 0, struct perfcheck_ctx, o.check_buildids, true,
		  "compare recorded build ids with the binaries here"),
	TOOL_FLAG("list-checks", 0, struct perfcheck_ctx, list, true,
		  "print the catalogue of checks and exit (text,\n"
		  "or JSON with --format json)"),
	TOOL_FLAG("quiet", 'q', struct perfcheck_ctx, o.quiet, true,
		  "text: print only the findings that fail the check"),
	{ NULL, 0, 0, false, NULL },
};

static const struct tool_option perfcheck_options[] = {
	TOOL_CHOICE("format", struct perfcheck_ctx, o.format, formats, "FMT",
		    "text (default), json or junit"),
	TOOL_U64("max-errors", struct perfcheck_ctx, o.max_errors, "N",
		 "stop checking a file after N errors, reporting\n"
		 "exactly N (0: never)"),
	TOOL_U64("max-per-code", struct perfcheck_ctx, o.max_per_code, "N",
		 "show at most N findings of one code per file\n"
		 "(default " XSTR(DEFAULT_MAX_PER_CODE) ", 0: all); all are counted"),
	TOOL_OPTIONS_END,
};

static const struct tool_help perfcheck_help[] = {
	{ "strict", NULL, "warnings fail the check too (exit 1)" },
	{ "symfs", NULL, "with --check-buildids: look for those binaries\nunder DIR" },
	{ "input", NULL, "check FILE too (as a FILE argument; repeatable)" },
	{ NULL, NULL, NULL },
};

/*
 * Standard output: the report, or the catalogue of --list-checks, in
 * the one output buffer (common/out_buf.h), over static storage as
 * dump's: nothing to allocate before the first line.
 */
static char out_store[OUT_BUF_MIN];
static struct out_buf out = { .buf = out_store, .cap = sizeof(out_store), .fd = STDOUT_FILENO };

/* code, or PC_EXIT_IO when standard output could not take it all */
static int finish_output(int code)
{
	out_buf_flush(&out);
	if (out.err) {
		tool_io_error("perfcheck", "write", NULL, out.err);
		return PC_EXIT_IO;
	}
	return code;
}

/* --list-checks, or the options that need another: before the inputs are looked for */
static int perfcheck_check(struct tool_args *a, void *ctx)
{
	struct perfcheck_ctx *pc = ctx;

	if (pc->list) {
		if (pc->o.format == PC_FMT_JUNIT)
			return tool_usage_error(a->cmd->prog, NULL,
						"--list-checks prints text or json, not junit");
		pc_list_checks(&out, pc->o.format);
		return finish_output(PC_EXIT_OK);
	}
	if (a->so.symfs && !pc->o.check_buildids)
		return tool_usage_error(a->cmd->prog, NULL,
					"%s only makes sense with --check-buildids", "--symfs");
	return TOOL_ARGS_RUN;
}

static const struct tool_cmd perfcheck_cmd = {
	.prog = "perfcheck",
	.groups = TOOL_ARG_INPUTS | TOOL_ARG_STRICT | TOOL_ARG_SYMFS | TOOL_ARG_VERSION,
	.flags = perfcheck_flags,
	.options = perfcheck_options,
	.check = perfcheck_check,
	.help_head = "usage: perfcheck [OPTIONS] [FILE|-...]\n\n"
		     "Check perf.data files (file, pipe or directory mode) completely and report\n"
		     "every problem found, with its offset, record and stable code.\n\n",
	.help = perfcheck_help,
	.help_tail = "Without FILE and -i, the input is standard input when it is a pipe,\n"
		     "else perf.data in the current directory (as perf does).\n"
		     "Exit status: 0 no error, 1 errors found (or warnings with --strict),\n"
		     "2 usage error, 3 I/O or system error.  With several files, the worst.\n",
};

int main(int argc, char **argv)
{
	struct perfcheck_ctx pc = {
		.o = { .format = PC_FMT_TEXT, .max_per_code = DEFAULT_MAX_PER_CODE },
	};
	struct tool_args args;
	struct pc_report rep;
	size_t i;
	int ret;

	ret = tool_args_parse(&perfcheck_cmd, argc, argv, &args, &pc);
	if (ret != TOOL_ARGS_RUN)
		return ret;
	pc.o.strict = args.strict;
	pc.o.symfs = args.so.symfs;
	pc_report_begin(&rep, &pc.o, &out);
	rep.flush_lines = isatty(STDOUT_FILENO);
	for (i = 0; i < args.nr_inputs; i++)
		pc_check_path(&rep, args.inputs[i]);
	tool_args_free(&args);
	return finish_output(pc_report_end(&rep));
}
