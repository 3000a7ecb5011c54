/* SPDX-License-Identifier: MIT */
/*
 * tool.h - what the three commands (perfconv, perfcheck, perfsym) share
 * on their command line: the shape of their error messages, and the
 * checks of the paths they are given.
 *
 * This layer sits beside convert/ and validate/, which never include each
 * other: it uses the core only through include/perfdata/ and knows nothing
 * of any command (scripts/check-layers.sh).
 */
#ifndef PERFDATA_TOOL_H
#define PERFDATA_TOOL_H

#include <stdbool.h>

#include "perfdata/perfdata.h"

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
 * A diagnostic of the reader or the writer, one line on stderr:
 *	NAME:0xOFFSET: SEVERITY PDnnn [rec#N TYPE]: text detail
 * (NAME/STREAM in directory mode; no offset or record part when the
 * finding has none).  A failed system call (cannot open, read, create or
 * write a file) is printed in the shape of tool_io_error() instead, with
 * the offset of a failed read:
 *	PROG: cannot read 'NAME' at offset 0x2000: Input/output error
 */
void tool_print_diag(const char *prog, const char *name, const struct pd_diag *d);

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

#endif /* PERFDATA_TOOL_H */
