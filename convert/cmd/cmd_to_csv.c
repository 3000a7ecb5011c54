// SPDX-License-Identifier: MIT
/*
 * cmd_to_csv.c - perfconv to-csv: perf.data as tables for spreadsheets,
 * SQL and flame graphs.
 *
 *	perfconv to-csv [-o DIR] [--table NAME]... [--srcline] [--symfs DIR] FILE|-
 *
 * One pass in time order feeds the symbolization machine (when a selected
 * table needs symbols) and every selected table (csv_tables.c).  Streaming tables keep no state per
 * record; the aggregated ones grow with their distinct keys only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "../common/tool_select.h"
#include "driver.h"
#include "csv/csv_tables.h"

static int table_id(const char *name, size_t len)
{
	int i;

	for (i = 0; i < CSV_NR_TABLES; i++)
		if (strlen(csv_table_names[i]) == len && !strncmp(csv_table_names[i], name, len))
			return i;
	return -1;
}

/* "--table a,b": every name must exist */
static int add_tables(bool *want, const char *arg)
{
	const char *p = arg;

	for (;;) {
		size_t len = strcspn(p, ",");
		int id = table_id(p, len);

		if (id < 0) {
			cli_error("to-csv: unknown table '%.*s'", (int)len, p);
			return -1;
		}
		want[id] = true;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* 1: made, 0: there already, -1 after a message */
static int make_dir(const char *dir)
{
	struct stat st;

	if (!mkdir(dir, 0777))
		return 1;
	if (errno == EEXIST && !stat(dir, &st) && S_ISDIR(st.st_mode))
		return 0;
	tool_io_error(cli_progname, "create directory", dir, errno == EEXIST ? ENOTDIR : errno);
	return -1;
}

/* No table may be written over the input (nor into a directory-mode input). */
static int check_tables(const struct csv_ctx *c, const char *input, const char *dir)
{
	char path[4096];
	int i;

	for (i = 0; i < CSV_NR_TABLES; i++) {
		if (!c->want[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s.csv", dir, csv_table_names[i]);
		if (tool_check_output(cli_progname, "to-csv", input, path))
			return -1;
	}
	return 0;
}

static int open_tables(struct csv_ctx *c, const char *dir)
{
	char file[64];
	int i;

	for (i = 0; i < CSV_NR_TABLES; i++) {
		if (!c->want[i])
			continue;
		/* the folded table is no CSV but stays with its siblings as NAME.csv */
		snprintf(file, sizeof(file), "%s.csv", csv_table_names[i]);
		if (csv_open(&c->out[i], dir, file))
			return -1;
		c->open[i] = true;
		if (csv_table_cols[i])
			csv_header(&c->out[i], csv_table_cols[i]);
	}
	return 0;
}

/*
 * Close every table, all kept or none (drv_out_keep()): a table that could
 * not be written is closed as kept, which names it and removes it, and
 * the others are dropped; a table that fails only as it is kept removes
 * those kept before it.  Returns the code.
 */
static int close_tables(struct csv_ctx *c, const char *dir, bool keep, int code)
{
	bool failed = false;
	int i, kept = 0;

	csv_samples_stop(c);
	for (i = 0; keep && i < CSV_NR_TABLES; i++)
		if (c->open[i]) {
			csv_flush(&c->out[i]);
			failed = failed || csv_err(&c->out[i]);
		}
	for (i = 0; i < CSV_NR_TABLES; i++) {
		if (!c->open[i])
			continue;
		c->open[i] = false;
		if (keep && (!failed || csv_err(&c->out[i])))
			code = csv_close(&c->out[i], true, code);
		else
			code = csv_close(&c->out[i], false, code);
		if (!failed && keep && code == CLI_EXIT_IO)
			failed = true;
		else if (!failed && keep)
			kept = i + 1;
	}
	for (i = 0; failed && dir && i < kept; i++) {
		char path[4096];

		if (!c->want[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s.csv", dir, csv_table_names[i]);
		unlink(path);
	}
	return code;
}

/* ---- the writer ops (driver.h) ---- */

struct csv_writer {
	struct csv_ctx *c;
	const char *dir;		/* NULL: one table on standard output */
	bool made_dir;			/* dir is ours: removed with the tables */
	const struct pd_select *sel;
	uint64_t nr_records;
};

static int csv_begin(struct drv *d, void *w)
{
	struct csv_writer *cw = w;
	struct csv_ctx *c = cw->c;

	c->r = d->r;
	c->m = d->m;
	c->types = &d->types;
	if (pd_members_new(c->r, cw->sel, &c->members) < 0)
		return PD_STATUS_NOMEM;
	if (cw->dir) {
		int made = make_dir(cw->dir);

		if (made < 0)
			return PD_STATUS_IO;
		cw->made_dir = made;
	}
	/* the tables opened so far are dropped by csv_close_op() */
	if (open_tables(c, cw->dir))
		return PD_STATUS_IO;
	if (c->want[CSV_SAMPLES] && csv_samples_start(c))
		return PD_STATUS_NOMEM;
	return 0;
}

static int csv_rec(struct drv *d, void *w, const struct pd_record *rec)
{
	struct csv_writer *cw = w;

	csv_record(cw->c, rec);
	if (cw->c->nomem)
		return PD_STATUS_NOMEM;
	/* a full disk or a closed pipe: reading on is pointless */
	if (!(++cw->nr_records & 1023) && csv_write_error(cw->c))
		return DRV_STOP;
	return 0;
}

static int csv_end(struct drv *d, void *w)
{
	struct csv_writer *cw = w;

	if (d->failed)
		return 0;
	csv_finish(cw->c);
	return cw->c->nomem ? PD_STATUS_NOMEM : 0;
}

static int csv_close_op(struct drv *d, void *w, int code)
{
	struct csv_writer *cw = w;
	struct csv_ctx *c = cw->c;
	bool keep;

	if (!d->werr && c->want[CSV_FOLDED] && c->folded_ev >= 0 && c->folded_other) {
		const struct pd_event *e = pd_reader_event(c->r, (size_t)c->folded_ev);

		cli_error("to-csv: folded holds the samples of %s only (choose with --event)",
			  e ? e->name : "?");
	}
	/* the rule of every output: a failed run (exit 3, a usage error at the end) leaves none */
	keep = drv_out_keep(d, code);
	code = close_tables(c, cw->dir, keep, code);
	if (cw->made_dir && (!keep || code == CLI_EXIT_IO))
		rmdir(cw->dir);
	return code;
}

static const struct writer_ops csv_ops = {
	.begin = csv_begin,
	.record = csv_rec,
	.end = csv_end,
	.close = csv_close_op,
};

/* -t, --table NAME[,NAME...] */
static int csv_option(int ch, const char *arg, void *ctx)
{
	struct csv_ctx *c = ctx;

	return add_tables(c->want, arg) ? CLI_EXIT_USAGE : 0;
}

static const struct tool_option csv_options[] = {
	TOOL_CALL("table", 't', "NAME",
		  "only this table (repeat, or NAME,NAME); without -o\n"
		  "(or with -o -) exactly one, written to standard output"),
	TOOL_OPTIONS_END,
};

static const struct tool_help csv_help[] = {
	{ "output", "DIR", "write every table as DIR/NAME.csv (DIR is created)" },
	{ "srcline", NULL, "source lines from debug info: adds the lines table" },
	{ "no-inline", NULL, "no inline frames in unwound stacks (perf script\n"
			     "--no-inline): callchain, functions and folded" },
	{ NULL, NULL, NULL },
};

static const struct tool_flag csv_flags[] = {
	TOOL_FLAG("folded-period", 0, struct csv_ctx, folded_period, true,
		  "folded counts the period, not the samples"),
	{ NULL, 0, 0, false, NULL },
};

static const struct tool_cmd to_csv_cmd = {
	.prog = CLI_PROGNAME,
	.name = "to-csv",
	.groups = TOOL_ARG_OUTPUT | TOOL_ARG_STRICT | TOOL_ARG_VERBOSE | TOOL_ARG_SELECT |
		  TOOL_ARG_SYMBOLS | TOOL_ARG_SRCLINE,
	.flags = csv_flags,
	.shortopts = "t:",
	.options = csv_options,
	.option = csv_option,
	.help_head =
		"usage: " CLI_PROGNAME " to-csv [-o DIR] [--table NAME]... [--srcline] [--symfs DIR]\n"
		"                       [--kallsyms FILE] [--folded-period] [--no-unwind]\n"
		"                       [--no-inline] [--max-stack N] [--strict] [-v]\n"
		"                       [SELECTION] [FILE|DIR|-]\n\n"
		"Write the recording as CSV tables (RFC 4180, UTF-8, a header row):\n"
		"  stats      records and bytes per record type; samples and period per event\n"
		"  records    every record in time order with its fields as dump prints them\n"
		"  samples    one row per sample, symbolized, with its callchain\n"
		"  processes  per process and event: names, fork/exit time, samples, period\n"
		"  functions  per event, DSO and symbol: self and total samples and period\n"
		"  lines      per event, source file and line (needs --srcline)\n"
		"  mmaps, comms, lost, switches   the side-band records\n"
		"  folded     one line per distinct stack for flame graphs (not CSV)\n\n",
	.help = csv_help,
	.help_tail = "The folded table holds the first event that has samples: choose it\n"
		     "with --event.  Tables in a directory are written to temporary files\n"
		     "and renamed when complete.  Columns are listed in perfconv(1).\n"
		     CLI_INPUT_HELP_TAIL,
};

/* The tables of the command line; 0, or -1 after a message. */
static int choose_tables(struct csv_ctx *c, const char *dir, bool srcline)
{
	int i, n = 0;

	for (i = 0; i < CSV_NR_TABLES; i++)
		n += c->want[i];
	if (!n) {
		if (!dir) {
			cli_error("to-csv: give -o DIR for all tables, or --table NAME for one on stdout");
			return -1;
		}
		for (i = 0; i < CSV_NR_TABLES; i++)
			c->want[i] = i != CSV_LINES || srcline;
	} else if (!dir && n != 1) {
		cli_error("to-csv: standard output takes one table: use -o DIR for more");
		return -1;
	}
	return 0;
}

static int csv_setup(struct drv_opts *o, struct tool_args *a, void *w)
{
	struct csv_writer *cw = w;
	struct csv_ctx *c = cw->c;

	if (choose_tables(c, a->output, a->so.srcline) ||
	    (a->output && check_tables(c, a->input, a->output)))
		return CLI_EXIT_USAGE;
	/* asking for the lines table is asking for source lines */
	if (c->want[CSV_LINES])
		a->so.srcline = true;
	/*
	 * The functions table names each function's source file: one DWARF
	 * lookup per distinct function, loaded only for DSOs that have it.
	 */
	a->so.srcline = a->so.srcline || c->want[CSV_FUNCTIONS];
	a->so.processes = c->want[CSV_PROCESSES];
	c->srcline = a->so.srcline;

	/* perf script's order: it decides comm and maps of every sample */
	o->ro.time_order = true;
	/* the records and side-band tables need no symbols: no machine for them */
	o->so = csv_wants_symbols(c) ? &a->so : NULL;
	cw->dir = a->output;
	cw->sel = a->cs.sel;
	return CLI_EXIT_OK;
}

int cmd_to_csv(int argc, char **argv)
{
	struct csv_writer cw = { 0 };
	struct csv_ctx *c;
	int code;

	c = calloc(1, sizeof(*c));
	if (!c || csv_ctx_init(c)) {
		cli_error("to-csv: out of memory");
		if (c)
			csv_ctx_free(c);
		free(c);
		return CLI_EXIT_IO;
	}
	cw.c = c;
	code = drv_main(&to_csv_cmd, argc, argv, c, csv_setup, &csv_ops, &cw);
	c->m = NULL;
	c->r = NULL;
	csv_ctx_free(c);
	free(c);
	return code;
}
