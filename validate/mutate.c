// SPDX-License-Identifier: MIT
/*
 * mutate.c - mutation test driver for every command of the project.
 *
 * Usage: perfcheck-mutate [-t SECONDS] [-o FAILDIR] [-x CODES] RUNS SEED FILE... -- CMD ARG...
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
 * Exit status: 0 all runs passed, 1 some failed, 2 usage or setup error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Inputs larger than this are skipped: every run must stay well under a second. */
#define MAX_INPUT_SIZE	(1u << 20)
#define MAX_RECS	4096
/* Sanitizer reports get their own exit code, so that they never pass as 1. */
#define SAN_EXIT	99

struct input {
	const char *path;
	uint8_t *data;
	size_t len;
	size_t recs[MAX_RECS];	/* offsets of record headers found by a walk */
	size_t nr_recs;
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

static uint16_t ld16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

/* Walk the records of a little-endian file or pipe to find real size fields. */
static void find_records(struct input *in)
{
	size_t pos, end;

	in->nr_recs = 0;
	if (in->len < 16 || memcmp(in->data, "PERFILE2", 8))
		return;
	if (ld64(in->data + 8) == 16) {
		pos = 16;
		end = in->len;
	} else if (in->len >= 104) {
		pos = (size_t)ld64(in->data + 40);
		end = pos + (size_t)ld64(in->data + 48);
		if (pos > in->len || end > in->len || end < pos)
			return;
	} else {
		return;
	}
	while (end - pos >= 8 && in->nr_recs < MAX_RECS) {
		uint16_t size = ld16(in->data + pos + 6);

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
			v = (uint16_t)(ld16(buf + off + 6) + (int)(rnd_below(33)) - 16);
		put(buf, len, off + 6, v, 2);
		snprintf(what, wsize, "record at %zu: size set to %llu", off, (unsigned long long)v);
		break;
	case 4:		/* a header field: sizes, offsets, attr_size, feature bits */
		off = 8 + 8 * rnd_below(12);
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
		n = ld16(buf + off + 6);
		if (n <= 8)
			goto flips;
		off += 8 + 4 * rnd_below((n - 8) / 4);
		v = interesting[rnd_below(NR_INTERESTING)];
		put(buf, len, off, v, (rnd() & 1) ? 8 : 4);
		snprintf(what, wsize, "record field at %zu set to %llu", off, (unsigned long long)v);
		break;
	default:	/* the feature section table and whatever follows the data */
		if (len < 104 || ld64(buf + 8) != 104)
			goto flips;
		off = (size_t)(ld64(buf + 40) + ld64(buf + 48));
		if (off >= len)
			goto flips;
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

/* Empty and remove dir, one level of subdirectories deep (to-csv's -o DIR). */
static void remove_tree(const char *dir, int depth)
{
	char path[4300];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (depth && !lstat(path, &st) && S_ISDIR(st.st_mode))
			remove_tree(path, depth - 1);
		else
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* "0,1,2" -> bit mask of allowed exit codes (0..31); 0 when malformed. */
static uint32_t parse_codes(const char *s)
{
	uint32_t mask = 0;
	char *end;

	for (;;) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || v > 31)
			return 0;
		mask |= 1u << v;
		if (!*end)
			return mask;
		if (*end != ',')
			return 0;
		s = end + 1;
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: perfcheck-mutate [-t SECONDS] [-o FAILDIR] [-x CODES] RUNS SEED FILE... "
		"-- CMD ARG...\n");
}

static void report(unsigned long i, const struct input *in, const char *what, int rc,
		   char **argv, const char *keep, const char *errpath)
{
	char line[512];
	FILE *e;
	int k, nl = 0;

	fprintf(stderr, "perfcheck-mutate: run %lu (%s, %s): %s %d; input kept: %s\n", i,
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
	const char *faildir = NULL, *tmpdir = getenv("TMPDIR");
	unsigned int timeout = 1;
	uint32_t allowed = parse_codes("0,1");
	struct input *inputs;
	unsigned long runs, i, failures = 0;
	size_t nr_in = 0, maxlen = 0;
	char tmpl[4096], path[4200], errpath[4200], outpath[4200], keep[4300], what[160];
	char **cmd, **run_argv;
	int opt, k, nr_files, nr_cmd;
	uint8_t *buf;

	while ((opt = getopt(argc, argv, "+t:o:x:")) != -1) {
		switch (opt) {
		case 't':
			timeout = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'o':
			faildir = optarg;
			break;
		case 'x':
			allowed = parse_codes(optarg);
			break;
		default:
			usage();
			return 2;
		}
	}
	/* RUNS SEED FILE... -- CMD ARG... */
	for (k = optind; k < argc && strcmp(argv[k], "--"); k++)
		;
	nr_files = k - optind - 2;
	nr_cmd = argc - k - 1;
	if (nr_files < 1 || nr_cmd < 1 || !timeout || !allowed) {
		usage();
		return 2;
	}
	cmd = argv + k + 1;
	runs = strtoul(argv[optind], NULL, 10);
	rng_state = strtoull(argv[optind + 1], NULL, 10) * 0x9e3779b97f4a7c15ULL + 1;
	inputs = calloc((size_t)nr_files, sizeof(*inputs));
	run_argv = calloc((size_t)nr_cmd + 1, sizeof(*run_argv));
	if (!inputs || !run_argv)
		return 2;
	for (k = optind + 2; k < optind + 2 + nr_files; k++) {
		if (!load(&inputs[nr_in], argv[k]))
			continue;
		if (inputs[nr_in].len > maxlen)
			maxlen = inputs[nr_in].len;
		nr_in++;
	}
	if (!nr_in) {
		fprintf(stderr, "perfcheck-mutate: no usable input\n");
		return 2;
	}
	snprintf(tmpl, sizeof(tmpl), "%s/perfcheck-mutate.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(tmpl)) {
		perror("perfcheck-mutate: mkdtemp");
		return 2;
	}
	if (!faildir)
		faildir = tmpl;
	snprintf(path, sizeof(path), "%s/input.data", tmpl);
	snprintf(errpath, sizeof(errpath), "%s/stderr.txt", tmpl);
	snprintf(outpath, sizeof(outpath), "%s/out", tmpl);
	/* Sanitizer findings must not look like exit 1 ("malformed input"). */
	setenv("ASAN_OPTIONS", "exitcode=99:detect_leaks=1:abort_on_error=0", 0);
	setenv("UBSAN_OPTIONS", "exitcode=99:halt_on_error=1:print_stacktrace=1", 0);
	buf = malloc(maxlen);
	if (!buf)
		return 2;

	for (i = 0; i < runs; i++) {
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
		fill_argv(run_argv, cmd, nr_cmd, path, outpath);
		rc = run_one(run_argv, errpath, timeout);
		if (rc >= 0 && rc < 32 && (allowed >> rc) & 1)
			continue;
		failures++;
		snprintf(keep, sizeof(keep), "%s/fail-%lu.data", faildir, i);
		write_file(keep, buf, len);
		fill_argv(run_argv, cmd, nr_cmd, keep, outpath);
		report(i, in, what, rc, run_argv, keep, errpath);
	}
	unlink(path);
	unlink(errpath);
	remove_tree(outpath, 1);
	unlink(outpath);
	if (faildir != tmpl || !failures)
		rmdir(tmpl);
	printf("perfcheck-mutate: %s: %lu runs over %zu inputs, seed %s: %lu failure(s)\n",
	       cmd[1] && cmd[1][0] != '-' && cmd[1][0] != '@' ? cmd[1] : cmd[0], runs, nr_in,
	       argv[optind + 1], failures);
	for (i = 0; i < nr_in; i++)
		free(inputs[i].data);
	free(inputs);
	free(run_argv);
	free(buf);
	return failures ? 1 : 0;
}
