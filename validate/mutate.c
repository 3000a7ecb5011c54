// SPDX-License-Identifier: MIT
/*
 * mutate.c - mutation test driver for every command of the project.
 *
 * Usage: perfcheck-mutate [-t SECONDS] [-o FAILDIR] [-x CODES] RUNS SEED FILE... -- CMD ARG...
 * (perfcheck-mutate --help)
 *
 * Each run damages one of the FILEs (bit flips, a truncation, an edited
 * record size, an edited header or feature-table field, an edited count)
 * and runs CMD on the result: "@IN@" in its arguments stands for the
 * damaged input and "@OUT@" for an output path in a private directory.
 * A run passes when CMD exits with one of CODES (default "0,1": success or
 * malformed input) within the time limit; anything else (another exit
 * code, a signal, a sanitizer report, the time limit) is a failure, and
 * the damaged input is kept in FAILDIR with the command that reproduces it.
 * The same SEED gives the same runs, so a failure in CI reproduces.
 *
 * The records and the feature area of each FILE are where the reader
 * finds them: the damage lands on real size fields and table entries.
 *
 * Exit status: 0 all runs passed, 1 some failed, 2 usage or setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfdata/perfdata.h"
#include "../common/tool.h"
#include "../common/tool_args.h"

/* Inputs larger than this are skipped: every run must stay well under a second. */
#define MAX_INPUT_SIZE	(1u << 20)
#define MAX_RECS	4096
/* Sanitizer reports get their own exit code, so that they never pass as 1. */
#define SAN_EXIT	99
/* The u64 fields of a 104-byte file header after its magic: sizes, offsets, feature bits. */
#define HEADER_FIELDS	12

struct input {
	const char *path;
	uint8_t *data;
	size_t len;
	size_t recs[MAX_RECS];	/* offsets of record headers found by a walk */
	size_t nr_recs;
	size_t tail;		/* end of the data section of a 104-byte header, 0 if none */
};

struct mutate_ctx {
	uint64_t timeout;	/* -t SECONDS */
	const char *faildir;	/* -o FAILDIR */
	uint32_t allowed;	/* -x CODES: bit mask of the exit codes that pass */
	uint64_t runs, seed;
	char **files;
	char **cmd;
	int nr_files, nr_cmd;
};

static uint64_t rng_state;

/* xorshift64*: small, and the same sequence on every machine */
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static size_t rnd_below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

static uint64_t ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Size of the record at off of an input (found by find_records()). */
static uint32_t rec_size(const struct input *in, size_t off)
{
	return pd_record_header_decode(in->data + off, false).size;
}

/*
 * The records of a little-endian file or pipe, where the reader places
 * the data section (after its repairs of the header), to find real size
 * fields; and where the feature area starts.
 */
static void find_records(struct input *in)
{
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	const struct pd_header *h;
	struct pd_reader *r;
	size_t pos, end;

	in->nr_recs = 0;
	in->tail = 0;
	if (pd_reader_open(in->path, &o, &r) < 0)
		return;
	h = pd_reader_header(r);
	/* the damage is written in the host's byte order, the corpus's */
	if (h->swapped || (h->mode == PD_MODE_FILE && (h->data.offset > in->len ||
						       h->data.size > in->len - h->data.offset))) {
		pd_reader_close(r);
		return;
	}
	if (h->mode == PD_MODE_FILE) {
		pos = (size_t)h->data.offset;
		end = pos + (size_t)h->data.size;
		if (h->has_feature_bitmap)
			in->tail = end;
	} else {
		pos = (size_t)h->header_size;
		end = in->len;
	}
	pd_reader_close(r);
	while (end - pos >= 8 && in->nr_recs < MAX_RECS) {
		uint32_t size = rec_size(in, pos);

		if (size < 8 || size > end - pos)
			break;
		in->recs[in->nr_recs++] = pos;
		pos += size;
	}
}

static const uint64_t interesting[] = {
	0, 1, 7, 8, 15, 16, 0x7f, 0xff, 0x100, 0xfff8, 0xffff, 0x10000, 0x7fffffff,
	0x80000000, 0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL, 0x8000000000000000ULL,
	0xfffffffffffffff8ULL, 0xffffffffffffffffULL,
};

#define NR_INTERESTING (sizeof(interesting) / sizeof(interesting[0]))

static void put(uint8_t *p, size_t len, size_t off, uint64_t v, unsigned int width)
{
	if (off >= len || width > len - off)
		return;
	memcpy(p + off, &v, width);	/* little-endian host: the corpus byte order */
}

/* Damage buf (a copy of in) in one of several ways; returns the new length. */
static size_t mutate(const struct input *in, uint8_t *buf, char *what, size_t wsize)
{
	size_t len = in->len, off, n, i;
	unsigned int kind = (unsigned int)rnd_below(7);
	uint64_t v;

	switch (kind) {
	case 0:		/* a few bit flips, anywhere */
	case 1:		/* ... or in the header, attrs and first records */
		n = 1 + rnd_below(8);
		for (i = 0; i < n; i++) {
			off = kind ? rnd_below(len < 2048 ? len : 2048) : rnd_below(len);
			buf[off] ^= (uint8_t)(1u << rnd_below(8));
		}
		snprintf(what, wsize, "%zu bit flip(s)%s", n, kind ? " near the start" : "");
		break;
	case 2:		/* truncation */
		len = rnd_below(len);
		snprintf(what, wsize, "truncated to %zu bytes", len);
		break;
	case 3:		/* a record's size field */
		if (!in->nr_recs)
			goto flips;
		off = in->recs[rnd_below(in->nr_recs)];
		if (rnd() & 1)
			v = interesting[rnd_below(NR_INTERESTING)] & 0xffff;
		else
			v = (uint16_t)(rec_size(in, off) + (int)(rnd_below(33)) - 16);
		put(buf, len, off + 6, v, 2);
		snprintf(what, wsize, "record at %zu: size set to %llu", off, (unsigned long long)v);
		break;
	case 4:		/* a header field: sizes, offsets, attr_size, feature bits */
		off = 8 + 8 * rnd_below(HEADER_FIELDS);
		v = interesting[rnd_below(NR_INTERESTING)];
		if (rnd() & 1)
			v = ld64(buf + off) + (uint64_t)rnd_below(64) - 32;
		put(buf, len, off, v, 8);
		snprintf(what, wsize, "header u64 at %zu set to %llu", off, (unsigned long long)v);
		break;
	case 5:		/* a u64 or u32 inside a record body: counts, lengths, ids */
		if (!in->nr_recs)
			goto flips;
		off = in->recs[rnd_below(in->nr_recs)];
		n = rec_size(in, off);
		if (n <= 8)
			goto flips;
		off += 8 + 4 * rnd_below((n - 8) / 4);
		v = interesting[rnd_below(NR_INTERESTING)];
		put(buf, len, off, v, (rnd() & 1) ? 8 : 4);
		snprintf(what, wsize, "record field at %zu set to %llu", off, (unsigned long long)v);
		break;
	default:	/* the feature section table and whatever follows the data */
		if (!in->tail || in->tail >= len)
			goto flips;
		off = in->tail;
		off += 8 * rnd_below((len - off) / 8 < 64 ? (len - off) / 8 + 1 : 64);
		v = interesting[rnd_below(NR_INTERESTING)];
		if (rnd() & 1)
			v = ld64(buf + (off + 8 <= len ? off : 0)) + (uint64_t)rnd_below(64) - 32;
		put(buf, len, off, v, 8);
		snprintf(what, wsize, "feature area u64 at %zu set to %llu", off,
			 (unsigned long long)v);
		break;
	}
	return len;
flips:
	off = rnd_below(len);
	buf[off] ^= (uint8_t)(1u << rnd_below(8));
	snprintf(what, wsize, "1 bit flip at %zu", off);
	return len;
}

static bool write_file(const char *path, const uint8_t *p, size_t len)
{
	FILE *f = fopen(path, "wb");
	bool ok;

	if (!f)
		return false;
	ok = fwrite(p, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

static bool load(struct input *in, const char *path)
{
	struct stat st;
	FILE *f;

	memset(in, 0, sizeof(*in));
	in->path = path;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < 16 ||
	    (uint64_t)st.st_size > MAX_INPUT_SIZE)
		return false;
	in->len = (size_t)st.st_size;
	in->data = malloc(in->len);
	f = fopen(path, "rb");
	if (!in->data || !f || fread(in->data, 1, in->len, f) != in->len) {
		if (f)
			fclose(f);
		free(in->data);
		in->data = NULL;
		return false;
	}
	fclose(f);
	find_records(in);
	return true;
}

/* argv of one run: @IN@ and @OUT@ replaced. */
static void fill_argv(char **argv, char *const *cmd, int n, char *in, char *out)
{
	int i;

	for (i = 0; i < n; i++)
		argv[i] = !strcmp(cmd[i], "@IN@") ? in : !strcmp(cmd[i], "@OUT@") ? out : cmd[i];
	argv[n] = NULL;
}

/* Run the command on path; returns its exit code, or -signal. */
static int run_one(char **argv, const char *errpath, unsigned int timeout)
{
	pid_t pid;
	int status;

	pid = fork();
	if (pid < 0)
		return -1000;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		int err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
		}
		if (err >= 0)
			dup2(err, 2);
		/* the alarm survives exec: a hang ends as SIGALRM */
		alarm(timeout);
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1000;
	if (WIFSIGNALED(status))
		return -WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* "0,1,2" -> bit mask of allowed exit codes (0..31); 0 when malformed. */
static uint32_t parse_codes(const char *s)
{
	uint32_t mask = 0;
	char code[4];
	uint64_t v;
	size_t n;

	for (;;) {
		n = strcspn(s, ",");
		if (n >= sizeof(code))
			return 0;
		memcpy(code, s, n);
		code[n] = '\0';
		if (!tool_parse_u64(code, &v) || v > 31)
			return 0;
		mask |= 1u << v;
		if (!s[n])
			return mask;
		s += n + 1;
	}
}

static int mutate_option(int c, const char *arg, void *ctx)
{
	struct mutate_ctx *mc = ctx;

	if (c == 'o') {
		mc->faildir = arg;
		return 0;
	}
	mc->allowed = parse_codes(arg);
	if (!mc->allowed)
		return tool_usage_error("perfcheck-mutate", NULL,
					"-x needs exit codes from 0 to 31 separated by commas, got '%s'",
					arg);
	return 0;
}

/* RUNS SEED FILE... -- CMD ARG... */
static int mutate_check(struct tool_args *a, void *ctx)
{
	const char *prog = a->cmd->prog;
	struct mutate_ctx *mc = ctx;
	int k;

	if (!mc->timeout || mc->timeout > UINT_MAX)
		return tool_usage_error(prog, NULL, "-t needs a number of seconds from 1, got %llu",
					(unsigned long long)mc->timeout);
	for (k = 0; k < a->nr_operands && strcmp(a->operands[k], "--"); k++)
		;
	if (k < 3 || k + 1 >= a->nr_operands)
		return tool_usage_error(prog, NULL, "needs RUNS SEED FILE... -- CMD ARG...");
	if (!tool_parse_u64(a->operands[0], &mc->runs) ||
	    !tool_parse_u64(a->operands[1], &mc->seed))
		return tool_usage_error(prog, NULL, "RUNS and SEED are numbers, got '%s' and '%s'",
					a->operands[0], a->operands[1]);
	mc->files = a->operands + 2;
	mc->nr_files = k - 2;
	mc->cmd = a->operands + k + 1;
	mc->nr_cmd = a->nr_operands - k - 1;
	return TOOL_ARGS_RUN;
}

static const struct tool_option mutate_options[] = {
	TOOL_U64_SHORT("timeout", 't', struct mutate_ctx, timeout, "SECONDS",
		       "a run that takes longer fails (default 1)"),
	TOOL_CALL("keep", 'o', "FAILDIR", "keep the inputs of failed runs in FAILDIR\n"
		  "(default: the private directory, then kept)"),
	TOOL_CALL("pass", 'x', "CODES", "the exit codes that pass (default 0,1)"),
	TOOL_OPTIONS_END,
};

static const struct tool_cmd mutate_cmd = {
	.prog = "perfcheck-mutate",
	.groups = TOOL_ARG_OPERANDS,
	.shortopts = "t:o:x:",
	.options = mutate_options,
	.option = mutate_option,
	.check = mutate_check,
	.help_head = "usage: perfcheck-mutate [OPTIONS] RUNS SEED FILE... -- CMD ARG...\n\n"
		     "Run CMD RUNS times, each on one of the FILEs damaged in one way (the\n"
		     "same SEED, the same runs): @IN@ in its arguments is the damaged input,\n"
		     "@OUT@ an output path in a private directory.\n\n",
	.help_tail = "Exit status: 0 all runs passed, 1 some failed, 2 usage or setup error.\n",
};

static void report(uint64_t i, const struct input *in, const char *what, int rc,
		   char **argv, const char *keep, const char *errpath)
{
	char line[512];
	FILE *e;
	int k, nl = 0;

	fprintf(stderr, "perfcheck-mutate: run %" PRIu64 " (%s, %s): %s %d; input kept: %s\n", i,
		in->path, what, rc == -SIGALRM ? "time limit, signal" :
		rc < 0 ? "signal" : "exit code", rc < 0 ? -rc : rc, keep);
	fprintf(stderr, "  reproduce:");
	for (k = 0; argv[k]; k++)
		fprintf(stderr, " %s", argv[k]);
	fputc('\n', stderr);
	e = fopen(errpath, "r");
	while (e && fgets(line, sizeof(line), e) && nl++ < 20)
		fprintf(stderr, "  | %s", line);
	if (e)
		fclose(e);
}

int main(int argc, char **argv)
{
	struct mutate_ctx mc = {
		.timeout = 1,
		.allowed = 1u << TOOL_EXIT_OK | 1u << TOOL_EXIT_FAILED,
	};
	char tmpl[4096], path[4200], errpath[4200], outpath[4200], keep[4300], what[160];
	struct tool_args args;
	struct input *inputs;
	uint64_t i, failures = 0;
	size_t nr_in = 0, maxlen = 0;
	const char *faildir;
	char **run_argv;
	uint8_t *buf;
	int k, ret;

	ret = tool_args_parse(&mutate_cmd, argc, argv, &args, &mc);
	if (ret != TOOL_ARGS_RUN)
		return ret;
	rng_state = mc.seed * 0x9e3779b97f4a7c15ULL + 1;
	inputs = calloc((size_t)mc.nr_files, sizeof(*inputs));
	run_argv = calloc((size_t)mc.nr_cmd + 1, sizeof(*run_argv));
	if (!inputs || !run_argv)
		return 2;
	for (k = 0; k < mc.nr_files; k++) {
		if (!load(&inputs[nr_in], mc.files[k]))
			continue;
		if (inputs[nr_in].len > maxlen)
			maxlen = inputs[nr_in].len;
		nr_in++;
	}
	if (!nr_in) {
		fprintf(stderr, "perfcheck-mutate: no usable input\n");
		return 2;
	}
	if (!tool_make_tmpdir(tmpl, sizeof(tmpl), "perfcheck-mutate")) {
		perror("perfcheck-mutate: mkdtemp");
		return 2;
	}
	faildir = mc.faildir ? mc.faildir : tmpl;
	snprintf(path, sizeof(path), "%s/input.data", tmpl);
	snprintf(errpath, sizeof(errpath), "%s/stderr.txt", tmpl);
	snprintf(outpath, sizeof(outpath), "%s/out", tmpl);
	/* Sanitizer findings must not look like exit 1 ("malformed input"). */
	setenv("ASAN_OPTIONS", "exitcode=99:detect_leaks=1:abort_on_error=0", 0);
	setenv("UBSAN_OPTIONS", "exitcode=99:halt_on_error=1:print_stacktrace=1", 0);
	buf = malloc(maxlen);
	if (!buf)
		return 2;

	for (i = 0; i < mc.runs; i++) {
		/* every input has its chance even when RUNS is below their number */
		const struct input *in = &inputs[rnd_below(nr_in)];
		size_t len;
		int rc;

		memcpy(buf, in->data, in->len);
		len = mutate(in, buf, what, sizeof(what));
		if (!write_file(path, buf, len)) {
			perror("perfcheck-mutate: write");
			return 2;
		}
		fill_argv(run_argv, mc.cmd, mc.nr_cmd, path, outpath);
		rc = run_one(run_argv, errpath, (unsigned int)mc.timeout);
		if (rc >= 0 && rc < 32 && (mc.allowed >> rc) & 1)
			continue;
		failures++;
		snprintf(keep, sizeof(keep), "%s/fail-%" PRIu64 ".data", faildir, i);
		write_file(keep, buf, len);
		fill_argv(run_argv, mc.cmd, mc.nr_cmd, keep, outpath);
		report(i, in, what, rc, run_argv, keep, errpath);
	}
	unlink(path);
	unlink(errpath);
	tool_remove_tree(outpath, 1);
	unlink(outpath);
	if (faildir != tmpl || !failures)
		rmdir(tmpl);
	printf("perfcheck-mutate: %s: %" PRIu64 " runs over %zu inputs, seed %" PRIu64
	       ": %" PRIu64 " failure(s)\n",
	       mc.cmd[1] && mc.cmd[1][0] != '-' && mc.cmd[1][0] != '@' ? mc.cmd[1] : mc.cmd[0],
	       mc.runs, nr_in, mc.seed, failures);
	for (i = 0; i < nr_in; i++)
		free(inputs[i].data);
	free(inputs);
	free(run_argv);
	free(buf);
	tool_args_free(&args);
	return failures ? 1 : 0;
}
