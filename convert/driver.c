// SPDX-License-Identifier: MIT
/*
 * driver.c - the one read loop of perfconv's converters (driver.h).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"
#include "../common/out_sink.h"

/* inputs smaller than this finish before a progress line would help */
#define PROGRESS_MIN_BYTES (64ULL << 20)
/* records between two looks at the clock */
#define PROGRESS_EVERY 4096

struct progress {
	uint64_t total;		/* bytes of the input */
	double last;		/* when the line was drawn */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_tick(struct drv *d, struct progress *p)
{
	uint64_t done = pd_reader_bytes_read(d->r);
	double t = now_s();
	unsigned int pct, i;
	char bar[41];

	if (t - p->last < 0.2)
		return;
	p->last = t;
	pct = p->total ? (unsigned int)(done * 100 / p->total) : 0;
	if (pct > 100)
		pct = 100;
	for (i = 0; i < 40; i++)
		bar[i] = i < pct * 40 / 100 ? '#' : '.';
	bar[40] = '\0';
	fprintf(stderr, "\r%s %s: [%s] %3u%% %llu MB, %llu samples", cli_progname, d->o->cmd,
		bar, pct, (unsigned long long)(done / 1000000), (unsigned long long)drv_samples(d));
}

static void progress_end(void)
{
	/* wipe the line so that later messages start clean */
	fprintf(stderr, "\r%*s\r", 78, "");
}

static void diag_hook(const struct pd_diag *dg, void *arg)
{
	struct drv *d = arg;

	if (d->o->strict && dg->severity >= PD_SEV_WARNING)
		d->stop = true;
	if (d->o->diag_hook)
		d->o->diag_hook(dg, d->o->diag_hook_arg);
}

static void reader_diag(const struct pd_diag *dg, void *arg)
{
	struct drv *d = arg;

	if (d->o->diag_filter)
		d->o->diag_filter(dg, &d->cd, d->o->diag_filter_arg);
	else
		tool_diag_cb(dg, &d->cd);
}

static int nomem(struct drv *d)
{
	cli_error("%s: out of memory", d->o->cmd);
	return CLI_EXIT_IO;
}

/*
 * The symbolizer's diagnostics (a DSO without symbols, a sample not
 * unwound) are counted and printed as the reader's, notes under -v; they
 * are no finding in the input, so no filter rewords them.
 */
static void machine_diag(const struct pd_diag *dg, void *arg)
{
	struct drv *d = arg;

	tool_diag_cb(dg, &d->cd);
}

/* 0 or an exit code: the machine state, when the command symbolizes */
static int machine_start(struct drv *d)
{
	struct pd_sym_opts so = *d->o->so;

	so.diag_fn = machine_diag;
	so.diag_arg = d;
	/* the paths of the options were checked: only memory can fail here */
	if (pd_machine_new(&so, &d->m) < 0 ||
	    pd_machine_add_features(d->m, pd_reader_features(d->r)) < 0)
		return nomem(d);
	return 0;
}

/*
 * One pass over the records.  Called with constants, so that the
 * compiler makes a copy of it without the tests that cannot pass: one
 * without the progress line and the machine (tick and feed false: every
 * command but to-pprof's and a long run's on a terminal), and of that one
 * a lean copy for the common case, a writer with a record op and no
 * --strict (the one way d->stop is set, diag_hook()), where a record
 * costs the reader's call, the count by type and the writer's call.
 * The reader's last negative status goes to d->status; returns 0 or the
 * writer's.
 */
static inline __attribute__((always_inline)) int
record_loop(struct drv *d, int (*record)(struct drv *d, void *w, const struct pd_record *rec),
	    void *w, struct progress *pg, bool tick, bool feed, bool lean)
{
	const struct pd_record *rec;
	int ret = 0, werr = 0;

	while ((lean || !d->stop) && (ret = pd_reader_next(d->r, &rec)) > 0) {
		d->records++;
		if (type_counts_add(&d->types, rec->type, rec->size) < 0) {
			werr = PD_STATUS_NOMEM;
			break;
		}
		if (!lean && tick && !(d->records % PROGRESS_EVERY))
			progress_tick(d, pg);
		if (!lean && feed && pd_machine_process(d->m, rec) < 0) {
			werr = PD_STATUS_NOMEM;
			break;
		}
		/* info has nothing beyond the counts */
		if ((lean || record) && (werr = record(d, w, rec)))
			break;
	}
	if (ret < 0)
		d->status = ret;
	return werr;
}

/*
 * The loop.  The reader's last negative status goes to d->status; returns
 * 0, or the writer's negative status (a failed machine update counts as
 * the writer's: it is memory).
 */
static int read_records(struct drv *d, const struct writer_ops *ops, void *w)
{
	bool feed = d->m && !d->o->writer_feeds_machine;
	struct progress pg = { 0 };
	bool tick = false;
	int werr;

	if (d->o->progress && isatty(STDERR_FILENO)) {
		pg.total = pd_reader_header(d->r)->file_size;
		tick = pg.total >= PROGRESS_MIN_BYTES;
		pg.last = now_s();
	}
	/* ops->record loaded once: the writer cannot change its ops */
	if (tick || feed)
		werr = record_loop(d, ops->record, w, &pg, tick, feed, false);
	else if (d->o->strict || !ops->record)
		werr = record_loop(d, ops->record, w, &pg, false, false, false);
	else
		werr = record_loop(d, ops->record, w, &pg, false, false, true);
	if (tick)
		progress_end();
	return werr == DRV_STOP ? 0 : werr;
}

static void drv_opts_from_args(struct drv_opts *o, struct tool_args *a)
{
	memset(o, 0, sizeof(*o));
	o->cmd = a->cmd->name;
	o->input = a->input;
	o->cs = &a->cs;
	o->verbose = a->verbose;
	o->strict = a->strict;
	cli_select_reader_opts(&a->cs, &o->ro);
}

static int drv_run(const struct drv_opts *o, const struct writer_ops *ops, void *w)
{
	struct pd_reader_opts ro = o->ro;
	struct drv d = { .o = o };
	int status, werr = 0, code;

	type_counts_init(&d.types);
	tool_diag_init(&d.cd, cli_progname, o->input, o->verbose);
	d.cd.hook = diag_hook;
	d.cd.hook_arg = &d;
	ro.diag_fn = reader_diag;
	ro.diag_arg = &d;

	status = pd_reader_open(o->input, &ro, &d.r);
	if (status < 0) {
		code = tool_exit_code(status, &d.cd);
		if (o->close_unopened && ops->close)
			code = ops->close(&d, w, code);
		return code;
	}
	if (d.stop)
		code = tool_exit_code(PD_STATUS_MALFORMED, &d.cd);
	else
		code = o->cs ? cli_select_check(o->cs, d.r, false) : CLI_EXIT_OK;
	if (!code && o->so)
		code = machine_start(&d);
	if (code)
		goto out;

	if (ops->begin)
		werr = ops->begin(&d, w);
	if (werr > 0) {
		/* the writer said why */
		code = werr;
		d.werr = PD_STATUS_IO;
		d.failed = true;
		goto close;
	}
	if (!werr)
		werr = read_records(&d, ops, w);
	/* a problem found at the end of the input counts as much as one before it */
	d.failed = werr || d.stop || (d.status < 0 && o->strict);
	if (!werr && ops->end)
		werr = ops->end(&d, w);
	if (werr) {
		d.werr = werr;
		d.failed = true;
		code = werr == PD_STATUS_NOMEM ? nomem(&d) : CLI_EXIT_IO;
	} else {
		code = tool_exit_code(d.status, &d.cd);
		if (d.stop && code == CLI_EXIT_OK)
			code = CLI_EXIT_MALFORMED;
		if (code == CLI_EXIT_OK && o->cs)
			code = cli_select_check(o->cs, d.r, true);
	}
close:
	if (ops->close)
		code = ops->close(&d, w, code);
out:
	if (d.m)
		pd_machine_free(d.m);
	pd_reader_close(d.r);
	type_counts_free(&d.types);
	return code;
}

int drv_main(const struct tool_cmd *cmd, int argc, char **argv, void *cmd_opts,
	     int (*setup)(struct drv_opts *o, struct tool_args *a, void *w),
	     const struct writer_ops *ops, void *w)
{
	struct tool_args a;
	struct drv_opts o;
	int code;

	code = tool_args_parse(cmd, argc, argv, &a, cmd_opts);
	if (code != TOOL_ARGS_RUN)
		return code;
	drv_opts_from_args(&o, &a);
	code = setup ? setup(&o, &a, w) : CLI_EXIT_OK;
	if (code == CLI_EXIT_OK)
		code = drv_run(&o, ops, w);
	tool_args_free(&a);
	return code;
}

int drv_out_open(struct drv_out *out, const char *cmd)
{
	if (out_sink_open(&out->sink, cli_progname, cmd, out->path, out->tmp) < 0)
		return PD_STATUS_IO;
	out->open = true;
	return 0;
}

bool drv_out_keep(const struct drv *d, int code)
{
	return !d->failed && code != CLI_EXIT_USAGE && code != CLI_EXIT_IO;
}

int drv_out_close(struct drv_out *out, bool keep, int code)
{
	if (!out->open)
		return code;
	out->open = false;
	if (out_sink_close(&out->sink, keep) < 0) {
		/* the sink named a file; standard output is told here */
		if (!out->path)
			tool_io_error(cli_progname, "write", NULL, out->sink.err);
		code = CLI_EXIT_IO;
	}
	return code;
}

int drv_perf_out_open(const struct drv *d, struct drv_perf_out *po, const char *cmd,
		      enum pd_writer_mode mode)
{
	/* the writer's findings are about the output: standard output's name */
	const char *name = po->out.path ? po->out.path : "<stdout>";

	tool_diag_init(&po->wd, cli_progname, name, d->o->verbose);
	po->wo.mode = mode;
	po->wo.diag_fn = tool_diag_cb;
	po->wo.diag_arg = &po->wd;
	if (drv_out_open(&po->out, cmd) < 0)
		return PD_STATUS_IO;
	po->out.sink.mode = 0600;
	po->out.sink.sync_dir = po->wo.fsync;
	if (pd_writer_open_fd(po->out.sink.fd, name, &po->wo, &po->w) < 0)
		return PD_STATUS_IO;
	return 0;
}

int drv_perf_out_commit(struct drv_perf_out *po)
{
	int status = pd_writer_commit(po->w);

	po->w = NULL;
	if (drv_out_close(&po->out, status >= 0, CLI_EXIT_OK) != CLI_EXIT_OK && status >= 0)
		status = PD_STATUS_IO;
	return status;
}

void drv_perf_out_abort(struct drv_perf_out *po)
{
	if (po->w)
		pd_writer_abort(po->w);
	po->w = NULL;
	drv_out_close(&po->out, false, CLI_EXIT_OK);
}
