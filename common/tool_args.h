/* SPDX-License-Identifier: MIT */
/*
 * tool_args.h - one parser for the command lines of every command
 * (perfconv's subcommands, perfcheck, perfsym).
 *
 * A command describes itself in a struct tool_cmd: the groups of options
 * it shares with the others, and its own options.  tool_args_parse()
 * scans argv with getopt_long() over both, handles every shared group the
 * one way (the input, the selection, -v, --strict, the symbol options,
 * the output and its checks), hands the command's own options to its
 * callback, and leaves the result in a struct tool_args.  The command
 * keeps only its own options and its work.
 */
#ifndef PERFDATA_TOOL_ARGS_H
#define PERFDATA_TOOL_ARGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "perfdata/pd_symbols.h"
#include "tool_select.h"

struct tool_args;

/* The groups of shared options a command takes (struct tool_cmd.groups). */
enum tool_arg_group {
	TOOL_ARG_OUTPUT = 1 << 0,	/* -o, --output OUT, never the input */
	TOOL_ARG_VERBOSE = 1 << 1,	/* -v, --verbose */
	TOOL_ARG_STRICT = 1 << 2,	/* --strict */
	TOOL_ARG_INPUT = 1 << 3,	/* -i, --input FILE */
	TOOL_ARG_SELECT = 1 << 4,	/* -i and --pid, --tid, ... --event (tool_select.h) */
	/* --symfs, --kallsyms, --no-unwind, --no-inline, --max-stack: into args.so */
	TOOL_ARG_SYMBOLS = 1 << 5,
	TOOL_ARG_BUILDID_DIR = 1 << 6,	/* --buildid-dir DIR */
	TOOL_ARG_SRCLINE = 1 << 7,	/* --srcline: args.so.srcline */
	/* -i FILE (repeatable) and FILE arguments, any number: args.inputs */
	TOOL_ARG_INPUTS = 1 << 8,
	TOOL_ARG_SYMFS = 1 << 10,	/* --symfs DIR alone (TOOL_ARG_SYMBOLS has it too) */
	TOOL_ARG_VERSION = 1 << 11,	/* -V, --version */
	/*
	 * The arguments after the options are the command's own
	 * (args.operands), and options end at the first of them, so that
	 * they may hold another command line: perfcheck-mutate's
	 * "RUNS SEED FILE... -- CMD ARG...".  No input is looked for.
	 */
	TOOL_ARG_OPERANDS = 1 << 12,
	/* modifier of TOOL_ARG_OUTPUT: */
	TOOL_ARG_NAMED = 1 << 9,	/* -o '' is refused */
};

/*
 * The help of an option is its lines for --help: the first beside the
 * option, the others ('\n' between them) below it, in the same column.
 *
 * An option of a command's own that only sets a bool in the command's
 * context (the `ctx` of tool_args_parse()), written
 *	TOOL_FLAG("hex", 'x', struct dump_writer, dc.hex, true, "add the raw bytes")
 */
struct tool_flag {
	const char *name;	/* the long name, or NULL for a short option only */
	char short_name;	/* 'x', or 0 for a long option only */
	size_t offset;		/* of the bool in the context */
	bool value;		/* what the option sets it to */
	const char *help;
};

#define TOOL_FLAG(name, short_name, type, member, value, help)	\
	{ name, short_name, offsetof(type, member), value, help }

/* What the parser does with the argument of a command's own option. */
enum tool_option_kind {
	TOOL_OPTION_CALL,	/* hands it to cmd->option */
	/*
	 * A number (tool_parse_u64()) into the uint64_t at `offset` in the
	 * context; else "--NAME needs a number, got 'ARG'", exit 2.
	 */
	TOOL_OPTION_U64,
	/*
	 * One of `choices`: its index into the unsigned int (or enum) at
	 * `offset`; else "unknown NAME 'ARG' (A, B or C)", exit 2.
	 */
	TOOL_OPTION_CHOICE,
};

/*
 * An option of a command's own that takes an argument, handed to
 * cmd->option:
 *	TOOL_CALL("table", 't', "NAME", "help")
 * those the parser stores itself:
 *	TOOL_U64("max-errors", struct pc_opts, max_errors, "N", "help")
 *	TOOL_CHOICE("format", struct pc_opts, format, pc_formats, "FMT", "help")
 */
struct tool_option {
	struct option opt;	/* for getopt_long(): name, has_arg, NULL, val */
	const char *arg;	/* the argument's name in --help: "NAME" */
	const char *help;
	enum tool_option_kind kind;
	size_t offset;		/* TOOL_OPTION_U64, TOOL_OPTION_CHOICE: of the value */
	const char *const *choices;	/* TOOL_OPTION_CHOICE: NULL ended */
};

#define TOOL_CALL(name, val, arg, help)						\
	{ { name, required_argument, NULL, val }, arg, help, TOOL_OPTION_CALL, 0, NULL }
#define TOOL_U64(name, type, member, arg, help)					\
	TOOL_U64_SHORT(name, 0, type, member, arg, help)
/* the same with a short name too, which cmd->shortopts lists ("t:") */
#define TOOL_U64_SHORT(name, val, type, member, arg, help)			\
	{ { name, required_argument, NULL, val }, arg, help, TOOL_OPTION_U64,	\
	  offsetof(type, member), NULL }
#define TOOL_CHOICE(name, type, member, choices, arg, help)			\
	{ { name, required_argument, NULL, 0 }, arg, help, TOOL_OPTION_CHOICE,	\
	  offsetof(type, member), choices }
#define TOOL_OPTIONS_END { { NULL, 0, NULL, 0 }, NULL, NULL, TOOL_OPTION_CALL, 0, NULL }

/*
 * What one command says of a shared option (by its long name) in place
 * of the shared words: its own meaning of -o, --strict, --srcline.
 */
struct tool_help {
	const char *name;	/* "output" */
	const char *arg;	/* the argument's name, NULL: the shared one */
	const char *help;
};

struct tool_cmd {
	const char *prog;		/* "perfconv", for messages */
	const char *name;		/* "to-proto", or NULL for a program without commands */
	unsigned int groups;		/* enum tool_arg_group */
	const struct tool_flag *flags;	/* its own bool options, { NULL, 0 } ended, or NULL */
	/*
	 * Its own options that take an argument, with their callback; their
	 * values are characters ('t'), never those of the shared options
	 * (0x1100 and up, tool_select.h), of the flags (0x1400 and up) or of
	 * the options without a value (0x1500 and up, given to those the
	 * parser stores itself).
	 */
	const char *shortopts;		/* the command's own short options ("xt"), or NULL */
	const struct tool_option *options; /* its own, { { NULL } } ended, or NULL */
	/*
	 * One of the command's own options (a value of shortopts or
	 * longopts): 0 when taken, else the exit code after a message.
	 */
	int (*option)(int c, const char *arg, void *ctx);
	/*
	 * After the options, before the input is looked for (NULL: none):
	 * TOOL_ARGS_RUN to go on, else the exit code, the command's work done
	 * (perfcheck --list-checks) or after a message.
	 */
	int (*check)(struct tool_args *a, void *ctx);
	/*
	 * --help (on stdout; on stderr without an input): the head (usage
	 * line and description), the options of the tables with their help
	 * (shared ones first the way `help` words them), then the tail.
	 */
	const char *help_head;
	const struct tool_help *help;	/* { NULL } ended, or NULL */
	const char *help_tail;
	const char *default_input;	/* without FILE and -i; NULL: perf's rule */
	/*
	 * Binary output, refused on a terminal when it would go to standard
	 * output: "CMD: refusing to write BINARY to a terminal", then
	 * "Use -o OUT, or BINARY_HOW: PROG CMD INPUT BINARY_TAIL".
	 */
	const char *binary;		/* "binary protobuf"; NULL: text */
	const char *binary_how;		/* "redirect" */
	const char *binary_tail;	/* "> out.pb" */
};

struct tool_args {
	const struct tool_cmd *cmd;
	const char *input;		/* as given: a path, a directory or "-" */
	/* TOOL_ARG_INPUTS: every input in the order given (input is the first) */
	const char **inputs;
	size_t nr_inputs;
	const char *output;		/* -o OUT; NULL for standard output (none, or -o -) */
	bool verbose;
	bool strict;
	struct cli_select cs;		/* -i and the selection */
	/* TOOL_ARG_OPERANDS: the arguments after the options */
	char **operands;
	int nr_operands;
	struct pd_sym_opts so;		/* the symbol options */
};

/* tool_args_parse() found the command line good: run the command. */
#define TOOL_ARGS_RUN (-1)

/*
 * Parse argv[0..argc) (argv[0] is the command's name) for `cmd`; `ctx` is
 * the command's context, where its flags set their bools and which
 * cmd->option is handed.  After the options (and the operands set, with
 * TOOL_ARG_OPERANDS, which ends there), in this order: cmd->check,
 * the input (cli_select_input(), or every input with TOOL_ARG_INPUTS; the
 * usage on stderr when there is none), an empty
 * output name (TOOL_ARG_NAMED), an output that is the input, the paths of
 * the symbol options (tool_check_sym_paths()), binary output on a
 * terminal.  Returns TOOL_ARGS_RUN, with `a` to be freed by
 * tool_args_free(); else the exit code, with `a` freed: 0 (or 3 when
 * standard output failed) after --help or --version, 2 after a message.
 */
int tool_args_parse(const struct tool_cmd *cmd, int argc, char **argv, struct tool_args *a,
		    void *ctx);

void tool_args_free(struct tool_args *a);

/* The command's --help on f. */
void tool_args_usage(const struct tool_cmd *cmd, FILE *f);

#endif /* PERFDATA_TOOL_ARGS_H */
