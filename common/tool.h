/* SPDX-License-Identifier: MIT */
/*
 * tool.h - what the three commands (perfconv, perfcheck, perfsym) share
 * on their command line: exit codes, usage errors, number options, the
 * shape of their error messages, and the checks of the paths they are
 * given.
 *
 * This layer sits beside convert/ and validate/, which never include each
 * other: it uses the core only through include/perfdata/ and knows nothing
 * of any command (scripts/check-layers.sh).
 */
#ifndef PERFDATA_TOOL_H
#define PERFDATA_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/perfdata.h"

/*
 * Exit codes of every command (perfconv(1), perfcheck(1), perfsym(1)):
 * the input is malformed or fails the check (1), the command line is
 * wrong (2), a system call or an allocation failed (3).
 */
enum tool_exit {
	TOOL_EXIT_OK = 0,
	TOOL_EXIT_FAILED = 1,
	TOOL_EXIT_USAGE = 2,
	TOOL_EXIT_IO = 3,
};

/*
 * A wrong command line, two lines on stderr:
 *	PROG: CMD: text
 *	Try 'PROG CMD --help'.
 * (without CMD for a command that has no subcommands).  Returns
 * TOOL_EXIT_USAGE.
 */
int tool_usage_error(const char *prog, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A message without the hint, one line on stderr after standard output
 * is flushed:
 *	PROG: CMD: text
 * (PROG: text when `cmd` is NULL).
 */
void tool_error(const char *prog, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * An unknown option or a missing argument seen by getopt_long() (`c` is
 * what it returned, '?' or ':' with opterr 0), as tool_usage_error().
 */
int tool_bad_option(const char *prog, const char *cmd, int argc, char **argv, int c);

/*
 * A number given on the command line: decimal digits only (no sign, no
 * trailing text), within uint64_t.  Returns false otherwise.
 */
bool tool_parse_u64(const char *s, uint64_t *out);

/*
 * --version: "PROG VERSION" on standard output, the library's version
 * (the commands ship with it).  Returns tool_finish_output()'s code.
 */
int tool_print_version(const char *prog);

/*
 * Standard output could not be written (a full disk, a closed pipe): an
 * I/O error, not a success.  Returns `code`, or TOOL_EXIT_IO after a
 * message.
 */
int tool_finish_output(const char *prog, int code);

/*
 * An I/O failure, one line on stderr in the one shape of every command:
 *	PROG: cannot WHAT 'PATH': strerror(err)
 * ("perfconv: cannot open 'x.data': No such file or directory"); a NULL
 * `path` is standard output ("PROG: cannot write standard output: ...").
 * Standard output is flushed first so that the line lands after the
 * output it follows.
 */
void tool_io_error(const char *prog, const char *what, const char *path, int err);

/*
 * The one text shape of a diagnostic, the line every command prints:
 *	NAME:0xOFFSET: SEVERITY PDnnn [rec#N TYPE]: text detail
 * (NAME/STREAM in directory mode; no offset or record part when the
 * finding has none), into buf, cut to size - 1 bytes.  Returns its length.
 */
#define TOOL_DIAG_LINE_MAX	8192
size_t tool_format_diag(char *buf, size_t size, const char *name, const struct pd_diag *d);

/*
 * A diagnostic of the reader or the writer, one line on stderr in the
 * shape of tool_format_diag().  A failed system call (cannot open, read, create or
 * write a file) is printed in the shape of tool_io_error() instead, with
 * the offset of a failed read:
 *	PROG: cannot read 'NAME' at offset 0x2000: Input/output error
 */
void tool_print_diag(const char *prog, const char *name, const struct pd_diag *d);

/* Record type name, "UNKNOWN_<n>" for an unknown type; buf needs 24 bytes. */
const char *tool_type_name(uint32_t type, char *buf, size_t size);
/* Feature name, "FEATURE_<n>" for an unknown id; buf needs 24 bytes. */
const char *tool_feature_name(unsigned int id, char *buf, size_t size);

/*
 * The diagnostics of one input as every command takes them: counted by
 * severity, handed to the hook if any, and printed by tool_print_diag()
 * unless quiet (notes only when verbose).  tool_diag_cb() is the diag_fn
 * of the reader and of the symbolizer, with the struct tool_diag as arg.
 */
struct tool_diag {
	const char *prog;
	const char *name;	/* input as shown in messages: path, or "<stdin>" */
	bool verbose;
	bool quiet;		/* print nothing, only count */
	uint64_t count[3];	/* by enum pd_severity */
	void (*hook)(const struct pd_diag *d, void *arg);
	void *hook_arg;
};

/* Diagnostics named `path`; "-" is an input there, named <stdin>. */
void tool_diag_init(struct tool_diag *td, const char *prog, const char *path, bool verbose);
void tool_diag_cb(const struct pd_diag *d, void *arg);

/*
 * Exit code of a finished run: `status` is the last negative result of
 * pd_reader_open()/pd_reader_next() or 0.  I/O and memory failures win over
 * malformed input or an error diagnostic, which win over success.
 */
int tool_exit_code(int status, const struct tool_diag *td);

/*
 * Would writing `out` destroy `in`?  True when both name the same file
 * (same device and inode: through hard and symbolic links too), or when
 * `in` is a directory-mode recording and `out` is one of its streams
 * (DIR/data, DIR/data.N).  "-"
 * is standard input for `in` and standard output for `out`; an `out` that
 * does not exist yet is never the input.
 */
bool tool_output_is_input(const char *in, const char *out);

/*
 * Refuse an output that is the input (tool_output_is_input()), with
 * nothing touched: returns TOOL_EXIT_USAGE after one of
 *	PROG: CMD: output 'OUT' is the input: refusing to overwrite it
 *	PROG: CMD: standard output is the input: refusing to overwrite it
 * else TOOL_EXIT_OK.
 */
int tool_check_output(const char *prog, const char *cmd, const char *in, const char *out);

/*
 * The input of a command given none: perf's rule, standard input ("-")
 * when it is a pipe, else perf.data in the current directory; NULL after
 *	PROG: CMD: no input file given, and no perf.data in the current directory
 */
const char *tool_default_input(const char *prog, const char *cmd);

/*
 * A path given in an option (--symfs DIR, --kallsyms FILE, --buildid-dir
 * DIR) must be usable before anything is read: a directory that can be
 * searched (`dir`), else a file that can be opened for reading.  Returns
 * 0, or -1 after a message in the I/O shape, which the caller turns into
 * a usage error (exit 2):
 *	PROG: cannot use --symfs '/nonexistent': No such file or directory
 * NULL (option not given) is fine.
 */
int tool_check_option_path(const char *prog, const char *option, const char *path, bool dir);

/* The three of the symbolizing commands: --symfs, --kallsyms, --buildid-dir. */
int tool_check_sym_paths(const char *prog, const char *symfs, const char *kallsyms,
			 const char *buildid_dir);

/*
 * The private directory of a test driver's outputs (perfcheck-mutate,
 * the fuzz targets of the commands): "$TMPDIR/NAME.XXXXXX" made by
 * mkdtemp() into buf, under /tmp when TMPDIR is unset, empty or too long
 * for buf.  Returns false (errno set) when it could not be made.
 */
bool tool_make_tmpdir(char *buf, size_t size, const char *name);

/*
 * Remove dir and what it holds, subdirectories `depth` levels deep (one
 * for to-csv's -o DIR).  What cannot be removed stays.
 */
void tool_remove_tree(const char *dir, int depth);

#endif /* PERFDATA_TOOL_H */
