/* SPDX-License-Identifier: MIT */
/*
 * driver.h - the one read loop of perfconv's converters.
 *
 * A command hands drv_main() its command line, what it adds to the
 * driver's options (struct drv_opts) and its writer: a table of ops and
 * the writer's own state.  The
 * driver does what every conversion needs, once:
 *
 *	open the input with the command's reader options; count and print
 *	its diagnostics (cli.h); check the sample selection when the input
 *	is open and again at its end; build the symbolizer's machine state
 *	and feed it every record, when asked, its diagnostics counted and
 *	printed as the reader's; stop at the first warning
 *	under --strict; draw the progress line; turn it all into the
 *	command's exit code.
 *
 * and calls the writer:
 *
 *	begin	once, after the input is open and the selection checked
 *		(attrs and file-mode features are known): open the output,
 *		write what comes before the records
 *	record	for every record the reader delivers, after the machine
 *		state saw it
 *	end	once after the last record, unless the writer (or memory)
 *		failed: write what follows the records; d->failed says
 *		the input was not read to its end (--strict stopped it, or
 *		a damaged input under --strict), and most writers then
 *		write nothing more (to-json still closes its document)
 *	close	always, last, once begin was called (even when it failed):
 *		keep or drop the output given the exit code found so far;
 *		returns the final one
 *
 * Every op may be NULL (info has no record op: the driver counts the
 * records by type, d->types).  begin, record and end return 0, a
 * negative enum pd_status (PD_STATUS_NOMEM: the driver says "out of
 * memory"; PD_STATUS_IO: the writer said what failed) or, for begin only,
 * a positive CLI_EXIT_* code after the writer's own message.  record may
 * also return DRV_STOP: the output cannot take more (a full disk, a
 * closed pipe, whose error the writer reports in close), reading on is
 * pointless.
 */
#ifndef PERFCONV_DRIVER_H
#define PERFCONV_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "perfdata/pd_symbols.h"
#include "perfdata/pd_writer.h"

#include "cli.h"
#include "type_counts.h"
#include "../common/out_sink.h"
#include "../common/tool_args.h"
#include "../common/tool_select.h"

#define DRV_STOP 1

struct drv;

struct writer_ops {
	int (*begin)(struct drv *d, void *w);
	int (*record)(struct drv *d, void *w, const struct pd_record *rec);
	int (*end)(struct drv *d, void *w);
	int (*close)(struct drv *d, void *w, int code);
};

struct drv_opts {
	const char *cmd;		/* "to-proto": names the command in messages */
	const char *input;		/* as given: path, directory or "-" */
	struct cli_select *cs;		/* the selection options; NULL: none */
	struct pd_reader_opts ro;	/* the command's; the driver sets diag_fn/arg */
	bool verbose;			/* print notes too */
	bool strict;			/* stop at the first warning or error */
	/*
	 * Build the machine state (pd_symbols.h) from these options and the
	 * input's features; NULL: no symbolization.
	 */
	const struct pd_sym_opts *so;
	/* the writer feeds the machine itself (from a second reader) */
	bool writer_feeds_machine;
	/* draw a progress line on stderr for large inputs on a terminal */
	bool progress;
	/* call close even when the input cannot be opened (d->r NULL): info describes it */
	bool close_unopened;
	/* sees every diagnostic after it was counted, before it is printed */
	void (*diag_hook)(const struct pd_diag *dg, void *arg);
	void *diag_hook_arg;
	/*
	 * Given, every diagnostic of the reader goes through it instead of
	 * straight to tool_diag_cb(&d->cd): it may reword one (pipe-to-file
	 * makes the cut end of a stream a warning) before it hands it on.
	 */
	void (*diag_filter)(const struct pd_diag *dg, struct tool_diag *cd, void *arg);
	void *diag_filter_arg;
};

struct drv {
	const struct drv_opts *o;
	struct pd_reader *r;
	struct pd_machine *m;		/* NULL without symbolization */
	struct tool_diag cd;
	uint64_t records;		/* delivered so far */
	struct type_counts types;	/* the records delivered, by type */
	/* --strict saw a warning or an error: no record is read after it */
	bool stop;
	/* the run did not complete: no end, and the output is not kept */
	bool failed;
	/* the reader's last negative status, or 0 */
	int status;
	/* the writer's (or the machine's) negative status that ended the run, or 0 */
	int werr;
};

/* The samples delivered so far: the count by type has them. */
static inline uint64_t drv_samples(const struct drv *d)
{
	return d->types.low[PD_REC_SAMPLE].records;
}

/*
 * A command from its command line to its exit code (CLI_EXIT_*): the
 * line parsed by `cmd` (its own options stored in `cmd_opts`), the
 * driver's options taken from it (the command's name, the input, the
 * selection, -v and --strict; the reader options otherwise as
 * PD_READER_OPTS_INIT, symbolization off), completed by `setup` (NULL:
 * nothing to add; it returns 0 or the exit code that ends the command
 * there, a usage error), the conversion run with the writer and the
 * line freed.
 */
int drv_main(const struct tool_cmd *cmd, int argc, char **argv, void *cmd_opts,
	     int (*setup)(struct drv_opts *o, struct tool_args *a, void *w),
	     const struct writer_ops *ops, void *w);

/*
 * A command's output, -o OUT or standard output: opened in begin,
 * written through out->sink (out_sink.h: a file through a temporary one
 * beside it), and kept or removed in close.  Every output of perfconv
 * goes through it: the one stream of to-json, to-proto, to-pprof and the
 * perf.data writers, and each table of to-csv.
 */
struct drv_out {
	const char *path;		/* NULL: standard output */
	const char *tmp;		/* the temporary file's mkstemp() template; NULL: PATH.tmp.XXXXXX */
	struct out_sink sink;
	bool open;
};

/* Open it, `cmd` naming the command in messages; 0, or PD_STATUS_IO after a message. */
int drv_out_open(struct drv_out *out, const char *cmd);

/*
 * Should the output be kept: the run completed, and neither a usage error
 * found at its end (pipe mode's --event) nor an I/O error turned up.
 */
bool drv_out_keep(const struct drv *d, int code);

/*
 * Close: without `keep` nothing is left at its path.  A kept output that
 * could not be written completely (a file, or standard output) is named
 * in a message and makes the code CLI_EXIT_IO.  Returns the code.
 */
int drv_out_close(struct drv_out *out, bool keep, int code);

/*
 * A perf.data file or stream written by the core's writer (pd_writer.h)
 * through the command's output: that of pipe-to-file and file-to-pipe.
 */
struct drv_perf_out {
	struct drv_out out;		/* out.path NULL: standard output */
	struct pd_writer_opts wo;	/* the command's (--fsync); the mode is open's */
	struct tool_diag wd;		/* the writer's diagnostics, counted */
	struct pd_writer *w;		/* NULL once committed */
};

/*
 * Open po->out for a writer in `mode`: a file is kept with mode 0600, as
 * perf record makes perf.data files, and with --fsync its directory is
 * flushed after the rename.  Returns 0, or PD_STATUS_IO after a message.
 */
int drv_perf_out_open(const struct drv *d, struct drv_perf_out *po, const char *cmd,
		      enum pd_writer_mode mode);

/*
 * Finish the output and keep it: returns 0, or a negative status (the
 * writer's, or PD_STATUS_IO when the file could not be kept).
 */
int drv_perf_out_commit(struct drv_perf_out *po);

/* Drop an output not committed: nothing is left at its path. */
void drv_perf_out_abort(struct drv_perf_out *po);

#endif /* PERFCONV_DRIVER_H */
