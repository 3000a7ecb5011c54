/* SPDX-License-Identifier: MIT */
/*
 * cli.h - helpers shared by the perfconv subcommands: the command table,
 * exit codes, diagnostic printing, option parsing and name formatting.
 */
#ifndef PERFCONV_CLI_H
#define PERFCONV_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "perfdata/perfdata.h"
/* the message shape and path checks shared with perfcheck and perfsym */
#include "../common/tool.h"

/*
 * The subcommands: _CMD(name, function, summary).  Adding a command is one
 * line here plus one file defining `int function(int argc, char **argv)`;
 * perfconv.c builds its dispatch table and its help text from this list.
 * argv[0] is the command name; run() returns a CLI_EXIT_* code and never
 * calls exit().
 */
#define CLI_COMMANDS								\
	_CMD("info", cmd_info, "header, attrs, features and record counts")	\
	_CMD("dump", cmd_dump, "one line per record with every decoded field")	\
	_CMD("to-json", cmd_to_json, "perf-compatible JSON, or lossless JSON of everything (--full)") \
	_CMD("to-proto", cmd_to_proto, "quipper-compatible PerfDataProto protobuf message") \
	_CMD("to-pprof", cmd_to_pprof, "gzip-compressed pprof profile for go tool pprof and its viewers") \
	_CMD("to-csv", cmd_to_csv, "CSV tables for spreadsheets and SQL, folded stacks for flame graphs") \
	_CMD("pipe-to-file", cmd_pipe_to_file, "convert a pipe-mode stream into a perf.data file") \
	_CMD("file-to-pipe", cmd_file_to_pipe, "write the pipe-mode stream of a perf.data file")

#define _CMD(name, fn, summary) int fn(int argc, char **argv);
CLI_COMMANDS
#undef _CMD

/* Exit codes of every command (documented in perfconv(1)). */
enum cli_exit {
	CLI_EXIT_OK = TOOL_EXIT_OK,		/* success */
	CLI_EXIT_MALFORMED = TOOL_EXIT_FAILED,	/* error diagnostic, or PD_STATUS_MALFORMED */
	CLI_EXIT_USAGE = TOOL_EXIT_USAGE,	/* bad command line */
	CLI_EXIT_IO = TOOL_EXIT_IO,		/* I/O or system error, out of memory, cannot open */
};

/* Program name used in messages ("perfconv"). */
#define CLI_PROGNAME "perfconv"
extern const char *cli_progname;

/* "perfconv: " + message on stderr; for usage and system errors, not for input findings. */
#define cli_error(...)	tool_error(cli_progname, NULL, __VA_ARGS__)

/* "file", "pipe" or "dir": how the input is laid out (pd_header.mode). */
const char *cli_mode_name(enum pd_mode mode);

#endif /* PERFCONV_CLI_H */
