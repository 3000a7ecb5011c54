// SPDX-License-Identifier: MIT
/*
 * cmd_to_pprof.c - perfconv to-pprof: perf.data as a gzip-compressed
 * pprof profile (perftools.profiles.Profile, schema/profile.proto),
 * symbolized, for go tool pprof and the viewers that read its format.
 *
 *	perfconv to-pprof [-o OUT] [--no-srcline] [--no-unwind] [--no-inline] [--max-stack N]
 *	                  [--symfs DIR] [--kallsyms FILE] [SELECTION] FILE|DIR|-
 *
 * One pass in time order feeds the symbolization machine and aggregates
 * every sample into its stack (pprof_prof.c); the profile is written at
 * the end through a temporary file renamed when complete.
 */
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../common/tool_select.h"
#include "driver.h"
#include "pprof/pprof_prof.h"

/* ---- the writer ops (driver.h) ---- */

struct pprof_writer {
	struct drv_out out;
	bool srcline;
	const struct pd_select *sel;
	struct pp_prof *p;
	struct pd_members *members;
};

/* a negative status of pprof_prof.c: its temporary file failed, or memory */
static int pprof_err(int ret)
{
	if (ret != PD_STATUS_IO)
		return PD_STATUS_NOMEM;
	/* the unnamed file tmpfile() made in TMPDIR, or /tmp */
	tool_io_error(cli_progname, "write", "temporary file of the stacks", errno);
	return PD_STATUS_IO;
}

static int pprof_begin(struct drv *d, void *w)
{
	struct pprof_writer *pw = w;

	if (drv_out_open(&pw->out, "to-pprof"))
		return PD_STATUS_IO;
	pw->p = pp_new(d->m, pw->srcline, &pw->out.sink);
	if (!pw->p || pd_members_new(d->r, pw->sel, &pw->members) < 0)
		return PD_STATUS_NOMEM;
	return 0;
}

static int pprof_record(struct drv *d, void *w, const struct pd_record *rec)
{
	struct pprof_writer *pw = w;
	struct pd_member mbr;
	size_t pos = 0;
	int ret;

	/* a sample without its attr has no event: nothing to charge it to */
	if (rec->type != PD_REC_SAMPLE || !rec->decoded || rec->event_index < 0)
		return 0;
	/* without PERF_SAMPLE_READ a sample is its only member (pd_members_next()) */
	if (!(rec->u.sample.sample_type & PD_SAMPLE_READ) && rec->event) {
		ret = pp_sample(pw->p, rec, rec->event_index, rec->u.sample.period);
		return ret ? pprof_err(ret) : 0;
	}
	/* the samples perf makes of it: one per member for leader sampling */
	while ((ret = pd_members_next(pw->members, rec, &pos, &mbr)) > 0) {
		ret = pp_sample(pw->p, rec, mbr.event_index, mbr.period);
		if (ret)
			break;
	}
	return ret ? pprof_err(ret) : 0;
}

static int pprof_end(struct drv *d, void *w)
{
	struct pprof_writer *pw = w;
	int ret;

	if (d->failed)
		return 0;
	ret = pp_write(pw->p, d->r);
	return ret ? pprof_err(ret) : 0;
}

static int pprof_close(struct drv *d, void *w, int code)
{
	struct pprof_writer *pw = w;

	/* first: its second thread may still be writing to the output */
	pp_free(pw->p);
	pw->p = NULL;
	code = drv_out_close(&pw->out, drv_out_keep(d, code), code);
	pd_members_free(pw->members);
	return code;
}

static const struct writer_ops pprof_ops = {
	.begin = pprof_begin,
	.record = pprof_record,
	.end = pprof_end,
	.close = pprof_close,
};

static const struct tool_flag pprof_flags[] = {
	TOOL_FLAG("no-srcline", 0, struct pprof_writer, srcline, false,
		  "no source lines; inlined functions only in unwound\n"
		  "frames, as perf shows them (not with --no-inline)"),
	{ NULL, 0, 0, false, NULL },
};

static const struct tool_cmd to_pprof_cmd = {
	.prog = CLI_PROGNAME,
	.name = "to-pprof",
	.groups = TOOL_ARG_OUTPUT | TOOL_ARG_STRICT | TOOL_ARG_VERBOSE | TOOL_ARG_SELECT |
		  TOOL_ARG_SYMBOLS,
	.flags = pprof_flags,
	.help_head = "usage: " CLI_PROGNAME " to-pprof [-o OUT] [--no-srcline] [--symfs DIR]\n"
		     "                         [--kallsyms FILE] [--no-unwind] [--no-inline]\n"
		     "                         [--max-stack N] [--strict] [-v] [SELECTION]\n"
		     "                         [FILE|DIR|-]\n\n"
		     "Write the samples as a gzip-compressed pprof profile "
		     "(perftools.profiles.Profile,\n"
		     "schema/profile.proto) for go tool pprof and the viewers that read it: one\n"
		     "sample per distinct stack, thread and event, symbolized, with source lines "
		     "and\n"
		     "inlined functions from debug info, and pid, tid and comm labels.\n\n",
	.help_tail = "Sample values: samples/count, then the summed period of each event that "
		     "has\n"
		     "samples (--event chooses them).  Read with: go tool pprof -top OUT\n"
		     CLI_INPUT_HELP_TAIL,
	.binary = "a compressed profile",
	.binary_how = "redirect",
	.binary_tail = "> out.pb.gz",
};

static int pprof_setup(struct drv_opts *o, struct tool_args *a, void *w)
{
	struct pprof_writer *pw = w;

	a->so.srcline = pw->srcline;
	/* perf's order: it decides the comm and the maps of every sample */
	o->ro.time_order = true;
	o->so = &a->so;
	pw->out.path = a->output;
	pw->sel = a->cs.sel;
	return CLI_EXIT_OK;
}

int cmd_to_pprof(int argc, char **argv)
{
	struct pprof_writer pw = { .srcline = true };

#ifdef __GLIBC__
	/*
	 * Large blocks straight from mmap, at a fixed threshold: glibc's own
	 * threshold rises with every large block freed, and the growing
	 * tables then leave holes in the heap that stay resident (2.4 MiB
	 * of the peak on the large benchmark file, in fewer instructions).
	 */
	mallopt(M_MMAP_THRESHOLD, 64 << 10);
#endif
	return drv_main(&to_pprof_cmd, argc, argv, &pw, pprof_setup, &pprof_ops, &pw);
}
