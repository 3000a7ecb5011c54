// SPDX-License-Identifier: MIT
/*
 * perfsym - resolve every sample of a perf.data file with libperfdata-sym.
 *
 * Usage: perfsym [options] FILE
 *   (default)        print frames like `perf script -F comm,tid,ip,sym,dso`
 *   --srcline        add "file:line" (and inline frames) after each frame
 *   --bench          print only frame counts, frames/s, table figures and peak RSS
 *   --symfs DIR      resolve every file under DIR
 *   --kallsyms FILE  kernel symbols from FILE
 *   --buildid-dir D  perf's build-id cache (default $HOME/.debug)
 *   --file-order     process records in file order (perf script
 *                    --show-round-events does so)
 *   --no-inline      no inline frames (perf script shows them by default)
 *   --no-unwind      user frames of --call-graph dwarf samples are not
 *                    unwound: the recorded callchain only
 *   --max-stack N    at most N callchain entries and N unwound frames
 *   -v               also print notes (DSOs without symbols, ...)
 *   -i FILE, --pid, --tid, --comm, --cpu, --time, --reltime, --event
 *                    the input and the sample selection of perfconv
 *
 * Used by the test suite to compare with perf script and by bench.sh.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "perfdata/pd_diag.h"
#include "perfdata/pd_members.h"
#include "perfdata/pd_reader.h"
#include "perfdata/pd_symbols.h"

/* the command line shared with perfconv: the input, selection and symbol options */
#include "../common/fmt_num.h"
#include "../common/out_buf.h"
#include "../common/tool_args.h"
/* the message shape of every command */
#include "../common/tool.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The frames are formatted into one output buffer rather than by printf:
 * a dwarf recording has tens of frames per sample, inline frames included,
 * and printf's parsing of the format was a tenth of perfsym's time.
 */
static void put_str(struct out_buf *o, const char *s)
{
	out_buf_put(o, s, strlen(s));
}

/* v right-aligned in `width` characters (more where it needs more), as %*llx or %*lld */
static void put_num(struct out_buf *o, uint64_t v, bool negative, bool hex, unsigned int width)
{
	size_t n = (hex ? fmt_hex_len(v) : fmt_dec_len(v)) + negative;
	size_t pad = width > n ? width - n : 0;
	/* fmt_u64() and fmt_hex() may need 20 bytes whatever the count */
	char *p = out_buf_room(o, pad + n + 20);

	if (hex && !negative && width == 16) {
		/*
		 * An address, 155,000 of them in a dwarf recording's output:
		 * 16 spaces, then the digits written 16 bytes at once over
		 * the last n of them (fmt_hex_wide() writes 16 bytes, the
		 * ones past the digits are overwritten after)
		 */
		memset(p, ' ', 16);
		fmt_hex_wide(p + pad, v);
		o->len += pad + n;
		return;
	}
	memset(p, ' ', pad);
	p += pad;
	if (negative)
		*p++ = '-';
	if (hex)
		fmt_hex(p, v);
	else
		fmt_u64(p, v);
	o->len += pad + n;
}

static void put_dec(struct out_buf *o, int64_t v, unsigned int width)
{
	put_num(o, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0, false, width);
}

/* "%16llx NAME (DSO)\n" after `lead` */
static void put_frame_line(struct out_buf *o, char lead, uint64_t addr, const char *name,
			   const char *dso)
{
	out_buf_c(o, lead);
	put_num(o, addr, false, true, 16);
	out_buf_c(o, ' ');
	put_str(o, name);
	out_buf_put(o, " (", 2);
	put_str(o, dso);
	out_buf_put(o, ")\n", 2);
}

static void print_srcline(struct out_buf *o, struct pd_machine *m, const struct pd_sym_frame *f)
{
	struct pd_sym_srcline sl;
	unsigned int i;

	if (pd_machine_srcline(m, f, &sl) > 0) {
		for (i = 0; i < sl.nr; i++) {
			out_buf_put(o, "\t\t", 2);
			put_str(o, sl.pos[i].file ? sl.pos[i].file : "??");
			out_buf_c(o, ':');
			put_dec(o, sl.pos[i].line, 0);
			if (sl.pos[i].func) {
				out_buf_put(o, " inlined ", 9);
				put_str(o, sl.pos[i].func);
			}
			out_buf_c(o, '\n');
		}
	}
}

static void print_frame(struct out_buf *o, struct pd_machine *m, const struct pd_sym_frame *f,
			bool srcline)
{
	uint64_t shown = f->user_map ? f->addr : f->ip;
	struct pd_sym_inline in[PD_SYM_MAX_INLINE + 1];
	size_t n = pd_machine_inline_frames(m, f, in, PD_SYM_MAX_INLINE + 1), i;

	/* perf script's inline frames: the same address, "(inlined)" instead of the dso */
	for (i = 0; i < n; i++)
		put_frame_line(o, '\t', shown, in[i].name, in[i].inlined ? "inlined" : f->dso_name);
	if (!n)
		put_frame_line(o, '\t', shown, f->sym ? f->sym : "[unknown]",
			       f->has_map ? f->dso_name : "[unknown]");
	if (srcline)
		print_srcline(o, m, f);
}

/* perfsym's own options; the others are the groups of tool_args.h */
struct perfsym_opts {
	bool bench;
	bool file_order;
	bool verbose;
};

static const struct tool_flag perfsym_flags[] = {
	TOOL_FLAG("bench", 0, struct perfsym_opts, bench, true,
		  "print only frame counts, frames/s, table figures, peak RSS"),
	TOOL_FLAG("file-order", 0, struct perfsym_opts, file_order, true,
		  "process records in file order"),
	/* -v without --verbose, as it always was */
	TOOL_FLAG(NULL, 'v', struct perfsym_opts, verbose, true,
		  "also print diagnostics of severity note"),
	{ NULL, 0, 0, false, NULL },
};

static const struct tool_help perfsym_help[] = {
	{ "srcline", NULL, "add file:line (and inline frames) to each frame" },
	{ NULL, NULL, NULL },
};

static const struct tool_cmd perfsym_cmd = {
	.prog = "perfsym",
	.groups = TOOL_ARG_SELECT | TOOL_ARG_SYMBOLS | TOOL_ARG_BUILDID_DIR | TOOL_ARG_SRCLINE |
		  TOOL_ARG_VERSION,
	.flags = perfsym_flags,
	.help_head = "usage: perfsym [--srcline] [--bench] [--symfs DIR] [--kallsyms FILE]\n"
		     "               [--buildid-dir DIR] [--file-order] [--no-inline] [--no-unwind]\n"
		     "               [--max-stack N] [-v] [--version] [SELECTION] [FILE|DIR|-]\n\n"
		     "Print the resolved frames of every sample, as\n"
		     "'perf script -F comm,tid,ip,sym,dso' does.\n\n",
	.help = perfsym_help,
	.help_tail = CLI_INPUT_HELP_TAIL,
};

int main(int argc, char **argv)
{
	struct perfsym_opts po = { 0 };
	struct tool_args args;
	const char *input;
	struct pd_reader_opts ro = PD_READER_OPTS_INIT;
	struct tool_diag dc;
	struct pd_sym_frame *frames;
	struct pd_machine *m;
	struct pd_members *members;
	struct out_buf out = { .fd = -1 };
	struct pd_reader *r;
	const struct pd_record *rec;
	bool bench, srcline;
	uint64_t nframes = 0, nsamples = 0, warm_frames = 0;
	double t0, t_res = 0, t_warm = 0;
	int ret;

	ret = tool_args_parse(&perfsym_cmd, argc, argv, &args, &po);
	if (ret != TOOL_ARGS_RUN)
		return ret;
	input = args.input;
	bench = po.bench;
	srcline = args.so.srcline;
	ro.time_order = !po.file_order;
	ro.skip_compressed = true;
	cli_select_reader_opts(&args.cs, &ro);
	/*
	 * Findings of the reader and the symbolizer in the shape of every
	 * command, notes only with -v; errors (only the reader has them)
	 * make the exit status 1.
	 */
	tool_diag_init(&dc, "perfsym", input, po.verbose);
	ro.diag_fn = tool_diag_cb;
	ro.diag_arg = &dc;
	args.so.diag_fn = tool_diag_cb;
	args.so.diag_arg = &dc;
	frames = calloc(PD_SYM_MAX_STACK, sizeof(*frames));
	if (out_buf_init(&out, 1, 0) < 0 || !frames || pd_machine_new(&args.so, &m) < 0) {
		/* the paths of the options were checked: only memory can fail here */
		tool_error("perfsym", NULL, "out of memory");
		return TOOL_EXIT_IO;
	}
	ret = pd_reader_open(input, &ro, &r);
	if (ret < 0) {
		/* the reader said why (tool_diag_cb) */
		pd_machine_free(m);
		free(frames);
		out_buf_free(&out);
		tool_args_free(&args);
		return tool_exit_code(ret, &dc);
	}
	if (cli_select_check(&args.cs, r, false)) {
		pd_reader_close(r);
		pd_machine_free(m);
		free(frames);
		out_buf_free(&out);
		tool_args_free(&args);
		return TOOL_EXIT_USAGE;
	}
	if (pd_members_new(r, args.cs.sel, &members) < 0) {
		tool_error("perfsym", NULL, "out of memory");
		pd_reader_close(r);
		pd_machine_free(m);
		free(frames);
		out_buf_free(&out);
		tool_args_free(&args);
		return TOOL_EXIT_IO;
	}
	pd_machine_add_features(m, pd_reader_features(r));
	t0 = now();
	while ((ret = pd_reader_next(r, &rec)) > 0) {
		struct pd_sym_stats before, after;
		uint8_t cpumode = rec->misc & 7;
		struct pd_member member;
		size_t n, i, pos;
		int mret;
		double a, b;

		if (pd_machine_process(m, rec) < 0) {
			tool_error("perfsym", NULL, "out of memory");
			break;
		}
		if (rec->type != PD_REC_SAMPLE || !rec->decoded)
			continue;
		/* perf script leaves guest samples out */
		if (cpumode == PD_CPUMODE_GUEST_KERNEL || cpumode == PD_CPUMODE_GUEST_USER)
			continue;
		nsamples++;
		if (bench) {
			pd_machine_stats(m, &before);
			a = now();
			n = pd_machine_resolve_sample(m, rec, frames, PD_SYM_MAX_STACK);
			b = now();
			pd_machine_stats(m, &after);
			nframes += n;
			t_res += b - a;
			/* samples that loaded a table are not "warm" */
			if (after.dsos_loaded == before.dsos_loaded) {
				warm_frames += n;
				t_warm += b - a;
			}
			continue;
		}
		n = pd_machine_resolve_sample(m, rec, frames, PD_SYM_MAX_STACK);
		nframes += n;
		/* perf script prints a sample per group member it stands for */
		for (pos = 0; (mret = pd_members_next(members, rec, &pos, &member)) > 0;) {
			const struct pd_sample *s = &rec->u.sample;
			const char *comm = pd_machine_comm(m, (int32_t)s->pid, (int32_t)s->tid);

			if (s->sample_type & PD_SAMPLE_CALLCHAIN) {
				/* "%s %5d \n" */
				put_str(&out, comm);
				out_buf_c(&out, ' ');
				put_dec(&out, (int32_t)s->tid, 5);
				out_buf_put(&out, " \n", 2);
				for (i = 0; i < n; i++)
					print_frame(&out, m, &frames[i], srcline);
				out_buf_c(&out, '\n');
			} else {
				const struct pd_sym_frame *f = &frames[0];
				size_t len = strlen(comm);

				/* "%16s %5d  %16llx %s (%s)\n" */
				if (len < 16)
					memset(out_buf_room(&out, 16 - len), ' ', 16 - len);
				if (len < 16)
					out.len += 16 - len;
				put_str(&out, comm);
				out_buf_c(&out, ' ');
				put_dec(&out, (int32_t)s->tid, 5);
				out_buf_c(&out, ' ');
				put_frame_line(&out, ' ', s->ip, f->sym ? f->sym : "[unknown]",
					       f->has_map ? f->dso_name : "[unknown]");
				if (srcline && n)
					print_srcline(&out, m, f);
			}
		}
		if (mret < 0) {
			tool_error("perfsym", NULL, "out of memory");
			ret = PD_STATUS_NOMEM;
			break;
		}
	}
	if (bench) {
		struct pd_sym_stats st;
		struct rusage ru;
		double total = now() - t0;

		pd_machine_stats(m, &st);
		printf("samples %llu\nframes %llu\n", (unsigned long long)nsamples,
		       (unsigned long long)nframes);
		printf("total_seconds %.3f\nresolve_seconds %.3f\n", total, t_res);
		printf("frames_per_second %.0f\n", t_res > 0 ? (double)nframes / t_res : 0);
		printf("warm_frames_per_second %.0f\n",
		       t_warm > 0 ? (double)warm_frames / t_warm : 0);
		printf("threads %llu\ndsos %llu\ndsos_loaded %llu\nsymbols %llu\n",
		       (unsigned long long)st.threads, (unsigned long long)st.dsos,
		       (unsigned long long)st.dsos_loaded, (unsigned long long)st.symbols);
		printf("unwound_samples %llu\nunwound_frames %llu\nunwind_cache_hits %llu\n"
		       "unwind_errors %llu\n", (unsigned long long)st.unwound_samples,
		       (unsigned long long)st.unwound_frames, (unsigned long long)st.unwind_cache_hits,
		       (unsigned long long)st.unwind_errors);
		printf("cache_hit_rate %.3f\n",
		       st.cache_hits + st.cache_misses ?
		       (double)st.cache_hits / (double)(st.cache_hits + st.cache_misses) : 0);
		/* so that a test can check that memory does not grow with the samples */
		if (getrusage(RUSAGE_SELF, &ru) == 0)
			printf("peak_rss_kib %ld\n", ru.ru_maxrss);
	}
	if (ret >= 0 && cli_select_check(&args.cs, r, true))
		ret = TOOL_EXIT_USAGE;
	pd_members_free(members);
	pd_reader_close(r);
	pd_machine_free(m);
	free(frames);
	tool_args_free(&args);
	out_buf_flush(&out);
	out_buf_free(&out);
	if (out.err) {
		tool_io_error("perfsym", "write", NULL, out.err);
		return TOOL_EXIT_IO;
	}
	/* ret: 0, a negative status, or TOOL_EXIT_USAGE for a selection that matched no event */
	return ret > 0 ? ret : tool_exit_code(ret, &dc);
}
