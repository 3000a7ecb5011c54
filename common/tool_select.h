/* SPDX-License-Identifier: MIT */
/*
 * tool_select.h - the input and the sample selection, parsed the same way
 * by every command that reads samples (perfconv dump, to-json, to-csv,
 * to-proto, to-pprof, perfsym; perfcheck may take it too):
 *
 *	-i, --input FILE   the input, as the positional argument
 *	--pid, --tid, --comm, --cpu LIST, --time RANGES, --reltime, --event NAMES
 *
 * The one parser of the command lines (tool_args.h) hands these options
 * to cli_select_option() and takes the input from cli_select_input(); a
 * command passes cli_select_reader_opts() to the reader, which does the
 * selecting (lib/select.c).  In common/, beside the other command-line
 * helpers (tool.h), so that perfsym shares it without depending on
 * perfconv's code.
 */
#ifndef PERFDATA_TOOL_SELECT_H
#define PERFDATA_TOOL_SELECT_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "perfdata/perfdata.h"
#include "perfdata/pd_symbols.h"

/* the values getopt_long() returns for the shared long options (tool_args.c) */
enum {
	CLI_OPT_PID = 0x1100,
	CLI_OPT_TID,
	CLI_OPT_COMM,
	CLI_OPT_CPU,
	CLI_OPT_TIME,
	CLI_OPT_RELTIME,
	CLI_OPT_EVENT,
	CLI_OPT_NO_UNWIND,
	CLI_OPT_MAX_STACK,
	CLI_OPT_NO_INLINE,
	/* the other shared groups of tool_args.h */
	CLI_OPT_STRICT,
	CLI_OPT_SYMFS,
	CLI_OPT_KALLSYMS,
	CLI_OPT_BUILDID_DIR,
	CLI_OPT_SRCLINE,
};

/*
 * The stack options of the commands that symbolize (perfsym, to-csv,
 * to-json --full --symbols, to-pprof), TOOL_ARG_SYMBOLS of tool_args.h:
 * cli_unwind_option() sets pd_sym_opts' no_unwind, no_inline and
 * max_stack.  Returns 1 when `c` was a stack option (taken), 0 when it is
 * not one, -1 after a message naming `prog` and `cmd` (NULL for a
 * command without subcommands) when its argument is wrong (exit 2).
 */
int cli_unwind_option(const char *prog, const char *cmd, int c, const char *arg,
		      struct pd_sym_opts *so);

/* The end of the --help of a command that reads a recording (tool_args_usage()). */
#define CLI_INPUT_HELP_TAIL							\
	"Without FILE and -i, the input is standard input when it is a pipe,\n" \
	"else perf.data in the current directory (as perf does); '-' reads\n"	\
	"standard input.\n"

struct cli_select {
	const char *prog;	/* "perfconv" or "perfsym", for messages */
	const char *cmd;	/* "to-json", or NULL */
	const char *input;	/* -i FILE */
	struct pd_select *sel;	/* NULL until an option selects something */
	bool reltime;
};

void cli_select_init(struct cli_select *cs, const char *prog, const char *cmd);
void cli_select_free(struct cli_select *cs);

/*
 * One option from getopt_long(): returns 1 when it was a selection or
 * input option (taken), 0 when it is none of them, -1 when its argument
 * is wrong (a message was printed: exit 2).
 */
int cli_select_option(struct cli_select *cs, int c, const char *arg);

/*
 * The input of the command: -i FILE, or the one argument left at
 * argv[first..argc); when neither is given, `fallback` if not NULL, else
 * perf's rule: standard input when it is a pipe, else ./perf.data.  NULL
 * after a message (exit 2) when there are two inputs or none is found.
 */
const char *cli_select_input(struct cli_select *cs, int argc, char **argv, int first,
			     const char *fallback);

/* Set the reader's selection (when there is one).  Call after the options. */
void cli_select_reader_opts(struct cli_select *cs, struct pd_reader_opts *ro);

/* True when a selection is active. */
bool cli_select_active(const struct cli_select *cs);

/*
 * Check the selection against the opened input: a --time that needs
 * sample times the recording lacks, or an --event matching none of its
 * events (listed in the message).  `at_end`: after the last record (pipe
 * mode learns its events while reading).  Returns 0, or 2 after a message.
 */
int cli_select_check(const struct cli_select *cs, struct pd_reader *r, bool at_end);

/*
 * The selection as command-line options ("--pid 12 --time 10%/2"), for
 * headers that say how an output was made; "" without a selection.
 */
const char *cli_select_describe(const struct cli_select *cs, char *buf, size_t size);

#endif /* PERFDATA_TOOL_SELECT_H */
