// SPDX-License-Identifier: MIT
/*
 * test_corpus.c - the reader against real and damaged recordings.
 *
 * Suites:
 *   corpus-valid       every perf.data of corpus/ (corpus/MANIFEST) and of
 *                      ../shared/corpus/{quipper,simpleperf} reads without
 *                      error diagnostics; warnings must be allow-listed.
 *   corpus-perf-stats  per-type record counts of `perfconv info --json`
 *                      equal those of `perf report --stats`.
 *   corpus-bad         every file of corpus/bad/MANIFEST reports its code
 *                      at its offset.
 *   regress            every file of fuzz/regress/ is read in a child
 *                      process that must neither crash nor hang.
 *
 * Paths are relative to the project root (where `make test` runs).  The
 * external corpus is optional: without ../shared/corpus those cases say so
 * and pass.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <jansson.h>

#include "perfdata/perfdata.h"
#include "test_suites.h"

#define CORPUS_DIR	"corpus"
#define BAD_DIR		"corpus/bad"
#define EXT_DIR		"../shared/corpus"
#define QUIPPER_DIR	EXT_DIR "/quipper"
#define SP_DIR		EXT_DIR "/simpleperf"
#define REGRESS_DIR	"fuzz/regress"
#define REGRESS_TIMEOUT	20	/* seconds per file */

/* Failure with a formatted message (CUnit copies the text). */
static void check(bool ok, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void check(bool ok, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (ok) {
		CU_assertImplementation(CU_TRUE, (unsigned int)line, "ok", __FILE__, "", CU_FALSE);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "  FAIL: %s\n", msg);
	CU_assertImplementation(CU_FALSE, (unsigned int)line, msg, __FILE__, "", CU_FALSE);
}

#define CHECK(cond, ...) check((cond), __LINE__, __VA_ARGS__)

/* ------------------------------------------------------------------ */
/* file lists                                                          */

struct file_list {
	char **path;
	size_t nr, cap;
};

static void list_add(struct file_list *l, const char *path)
{
	if (l->nr == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 64;
		char **np = realloc(l->path, ncap * sizeof(*np));

		if (!np)
			abort();
		l->path = np;
		l->cap = ncap;
	}
	l->path[l->nr] = strdup(path);
	if (!l->path[l->nr])
		abort();
	l->nr++;
}

static void list_free(struct file_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->path[i]);
	free(l->path);
	memset(l, 0, sizeof(*l));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* corpus/MANIFEST: "path | mode | command | covers"; the path is relative to corpus/. */
static void list_project_corpus(struct file_list *l)
{
	char line[8192], path[4096];
	FILE *f = fopen(CORPUS_DIR "/MANIFEST", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *bar, *name;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		bar = strchr(line, '|');
		if (bar)
			*bar = '\0';
		name = trim(line);
		if (!*name)
			continue;
		/* "threads.dir/" and "threads.dir" both name the directory. */
		if (ends_with(name, "/"))
			name[strlen(name) - 1] = '\0';
		snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, name);
		list_add(l, path);
	}
	fclose(f);
}

/* Regular files of dir whose names pass keep(); sorted. */
static void list_dir(struct file_list *l, const char *dir, bool (*keep)(const char *name))
{
	char path[4096];
	struct dirent *de;
	size_t first = l->nr;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' || !keep(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		list_add(l, path);
	}
	closedir(d);
	if (l->nr > first)
		qsort(l->path + first, l->nr - first, sizeof(*l->path), cmp_str);
}

static bool keep_quipper(const char *name)
{
	return !ends_with(name, ".pb_text") && !ends_with(name, ".buildids");
}

static bool keep_data(const char *name)
{
	return ends_with(name, ".data");
}

static bool keep_regress(const char *name)
{
	return strcmp(name, "README") != 0;
}

static bool have_external(void)
{
	struct stat st;

	return !stat(EXT_DIR, &st) && S_ISDIR(st.st_mode);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* ------------------------------------------------------------------ */
/* reading a file and collecting diagnostics                           */

struct seen_diag {
	enum pd_code code;
	enum pd_severity sev;
	uint64_t offset;
};

struct read_result {
	int open_ret;
	int end_ret;		/* last pd_reader_next() result */
	uint64_t records;
	uint64_t errors, warnings;
	struct seen_diag *diags;
	size_t nr_diags, cap_diags;
	uint64_t dropped;	/* diagnostics beyond the cap */
};

#define MAX_KEPT_DIAGS 4096

static void collect_diag(const struct pd_diag *d, void *arg)
{
	struct read_result *res = arg;

	if (d->severity == PD_SEV_ERROR)
		res->errors++;
	else if (d->severity == PD_SEV_WARNING)
		res->warnings++;
	if (res->nr_diags == MAX_KEPT_DIAGS) {
		res->dropped++;
		return;
	}
	if (res->nr_diags == res->cap_diags) {
		size_t ncap = res->cap_diags ? res->cap_diags * 2 : 32;
		struct seen_diag *nd = realloc(res->diags, ncap * sizeof(*nd));

		if (!nd) {
			res->dropped++;
			return;
		}
		res->diags = nd;
		res->cap_diags = ncap;
	}
	res->diags[res->nr_diags].code = d->code;
	res->diags[res->nr_diags].sev = d->severity;
	res->diags[res->nr_diags].offset = d->offset;
	res->nr_diags++;
}

static void read_all(const char *path, struct read_result *res)
{
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	const struct pd_record *rec;
	struct pd_reader *r;
	int ret;

	memset(res, 0, sizeof(*res));
	o.diag_fn = collect_diag;
	o.diag_arg = res;
	res->open_ret = pd_reader_open(path, &o, &r);
	if (res->open_ret < 0)
		return;
	while ((ret = pd_reader_next(r, &rec)) > 0)
		res->records++;
	res->end_ret = ret;
	pd_reader_close(r);
}

static void result_free(struct read_result *res)
{
	free(res->diags);
	memset(res, 0, sizeof(*res));
}

static bool has_code(const struct read_result *res, enum pd_code code)
{
	size_t i;

	for (i = 0; i < res->nr_diags; i++)
		if (res->diags[i].code == code)
			return true;
	return false;
}

static bool has_code_at(const struct read_result *res, enum pd_code code, uint64_t off)
{
	size_t i;

	for (i = 0; i < res->nr_diags; i++)
		if (res->diags[i].code == code && res->diags[i].offset == off)
			return true;
	return false;
}

/* "PD001@0x0 PD305@0x1e0 ..." of the errors and warnings, for messages. */
static void describe(const struct read_result *res, char *buf, size_t size)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < res->nr_diags && n + 40 < size; i++) {
		if (res->diags[i].sev == PD_SEV_NOTE)
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s%s@%#" PRIx64, n ? " " : "",
				      pd_code_id(res->diags[i].code), res->diags[i].offset);
	}
	if (!n)
		snprintf(buf, size, "none");
}

/* ------------------------------------------------------------------ */
/* corpus-valid                                                        */

/* Files of the corpora that are damaged on purpose, and what they must report. */
static const struct {
	const char *name;
	enum pd_code code;
	const char *why;
} known_damaged[] = {
	{ "perf.data.piped.corrupted.zero_size_sample-3.2", PD_REC_ZERO_SIZE,
	  "quipper test input with a zero-size record" },
	{ "invalid_perf.data", PD_NOT_PERF, "simpleperf test input: 1024 zero bytes" },
	{ "etm_perf_inject.data", PD_NOT_PERF,
	  "simpleperf test input: text output of `simpleperf inject` (branch list), not perf.data" },
};

/*
 * Warnings that valid recordings are known to produce.  Anything else is a
 * failure: either the reader is wrong or a new quirk needs a reason here.
 */
static const struct {
	enum pd_code code;
	const char *reason;
} allowed_warnings[] = {
	{ PD_REC_TRAILING_BYTES,
	  "perf <= 6.x sizes EVENT_UPDATE UNIT/NAME/SCALE records as sizeof(struct) + payload: "
	  "zero bytes follow the last field" },
	{ PD_FEAT_EMPTY, "perf 3.14 (quipper armv7 file) left an empty CPUDESC section when its writer failed" },
	{ PD_ATTR_SIZE_MISMATCH, "simpleperf writes attr.size 120 with header attr_size 144" },
	{ PD_ATTR_SIZE_UNKNOWN, "simpleperf and old perf write attr sizes between published versions" },
	{ PD_FEAT_TRAILING_BYTES, "old perf pads some feature sections" },
	{ PD_OUT_OF_ORDER, "not reported without time_order; kept for completeness" },
	{ PD_FEAT_BUILDID_PADDING, "perf 6.12 wrote 36 stray bytes per build-id entry (known bug)" },
	{ PD_FEAT_NO_END_MARKER, "old pipe-mode perf (3.x) wrote no end-of-features marker" },
};

static const char *allowed_reason(enum pd_code code)
{
	size_t i;

	for (i = 0; i < sizeof(allowed_warnings) / sizeof(allowed_warnings[0]); i++)
		if (allowed_warnings[i].code == code)
			return allowed_warnings[i].reason;
	return NULL;
}

static int damaged_index(const char *path)
{
	size_t i;

	for (i = 0; i < sizeof(known_damaged) / sizeof(known_damaged[0]); i++)
		if (!strcmp(base_name(path), known_damaged[i].name))
			return (int)i;
	return -1;
}

static void check_valid_file(const char *path)
{
	char warn[1024], diags[2048];
	struct read_result res;
	size_t i, n = 0;
	int dmg = damaged_index(path);

	read_all(path, &res);
	describe(&res, diags, sizeof(diags));

	/* Distinct warning codes, with a count each. */
	warn[0] = '\0';
	for (i = 0; i < res.nr_diags; i++) {
		uint64_t cnt = 0;
		size_t j;
		bool dup = false;

		if (res.diags[i].sev != PD_SEV_WARNING)
			continue;
		for (j = 0; j < i; j++)
			if (res.diags[j].code == res.diags[i].code)
				dup = true;
		if (dup)
			continue;
		for (j = i; j < res.nr_diags; j++)
			cnt += res.diags[j].code == res.diags[i].code;
		if (n + 32 < sizeof(warn))
			n += (size_t)snprintf(warn + n, sizeof(warn) - n, "%s%sx%" PRIu64,
					      n ? " " : "", pd_code_id(res.diags[i].code), cnt);
	}
	printf("  %s: %" PRIu64 " records, warnings: %s%s\n", path, res.records,
	       n ? warn : "none", dmg >= 0 ? " (known damaged)" : "");

	if (dmg >= 0) {
		CHECK(has_code(&res, known_damaged[dmg].code),
		      "%s: known-damaged file (%s) must report %s; got %s", path,
		      known_damaged[dmg].why, pd_code_id(known_damaged[dmg].code), diags);
		result_free(&res);
		return;
	}
	CHECK(res.open_ret == 0, "%s: pd_reader_open failed (%d); diagnostics: %s", path,
	      res.open_ret, diags);
	CHECK(res.end_ret == 0, "%s: reading ended with status %d; diagnostics: %s", path,
	      res.end_ret, diags);
	CHECK(res.errors == 0, "%s: %" PRIu64 " error diagnostics: %s", path, res.errors, diags);
	for (i = 0; i < res.nr_diags; i++) {
		if (res.diags[i].sev != PD_SEV_WARNING)
			continue;
		CHECK(allowed_reason(res.diags[i].code) != NULL,
		      "%s: warning %s at %#" PRIx64 " is not in the allow-list", path,
		      pd_code_id(res.diags[i].code), res.diags[i].offset);
	}
	result_free(&res);
}

static void test_valid_project(void)
{
	struct file_list l = { 0 };
	size_t i;

	list_project_corpus(&l);
	CHECK(l.nr > 0, "%s/MANIFEST lists no files", CORPUS_DIR);
	for (i = 0; i < l.nr; i++)
		check_valid_file(l.path[i]);
	list_free(&l);
}

static void test_valid_external(void)
{
	struct file_list l = { 0 };
	size_t i;

	if (!have_external()) {
		printf("  external corpus %s not found: skipped\n", EXT_DIR);
		return;
	}
	list_dir(&l, QUIPPER_DIR, keep_quipper);
	list_dir(&l, SP_DIR, keep_data);
	for (i = 0; i < l.nr; i++)
		check_valid_file(l.path[i]);
	list_free(&l);
}

/* ------------------------------------------------------------------ */
/* corpus-perf-stats                                                   */

static const char *perfconv_path(void)
{
	const char *p = getenv("PERFCONV");

	return p && *p ? p : "bin/perfconv";
}

static bool have_perf(void)
{
	return system("command -v perf >/dev/null 2>&1") == 0;
}

/* Quote a path for sh: '...' with embedded quotes escaped. */
static void shquote(char *out, size_t size, const char *s)
{
	size_t n = 0;

	if (size < 3) {
		out[0] = '\0';
		return;
	}
	out[n++] = '\'';
	for (; *s && n + 6 < size; s++) {
		if (*s == '\'') {
			memcpy(out + n, "'\\''", 4);
			n += 4;
		} else {
			out[n++] = *s;
		}
	}
	out[n++] = '\'';
	out[n] = '\0';
}

/* Read a whole stream (popen) into a NUL-terminated heap buffer. */
static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);

	if (!buf)
		return NULL;
	for (;;) {
		size_t got;

		if (cap - n < 2) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		if (!got)
			break;
		n += got;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static bool is_pipe_file(const char *path)
{
	uint8_t h[16];
	uint64_t size;
	bool ok = false;
	FILE *f = fopen(path, "rb");

	if (!f)
		return false;
	if (fread(h, 1, 16, f) == 16) {
		memcpy(&size, h + 8, 8);
		ok = size == 16 || __builtin_bswap64(size) == 16;
	}
	fclose(f);
	return ok;
}

struct perf_count {
	char name[64];
	uint64_t count;
};

/*
 * Run `perf report --stats` and keep the "Aggregated stats" section.
 * Returns the number of counts, or -1 when perf failed on the file.
 */
static int perf_stats(const char *path, struct perf_count *out, int max, char *why, size_t wsize)
{
	char q[4200], cmd[8600], errpath[] = "/tmp/pd-perf-stats-XXXXXX", *text, *line, *save;
	bool dir, in_agg = false;
	struct stat st;
	int n = 0, status, efd;
	char *errtext;
	FILE *p, *ef;

	efd = mkstemp(errpath);
	if (efd < 0) {
		snprintf(why, wsize, "mkstemp: %s", strerror(errno));
		return -1;
	}
	close(efd);
	shquote(q, sizeof(q), path);
	dir = !stat(path, &st) && S_ISDIR(st.st_mode);
	if (!dir && is_pipe_file(path))
		snprintf(cmd, sizeof(cmd), "perf report --stats --force -i - < %s 2>%s", q, errpath);
	else
		snprintf(cmd, sizeof(cmd), "perf report --stats --force -i %s 2>%s", q, errpath);
	p = popen(cmd, "r");
	if (!p) {
		unlink(errpath);
		snprintf(why, wsize, "popen: %s", strerror(errno));
		return -1;
	}
	text = slurp(p, NULL);
	status = pclose(p);
	ef = fopen(errpath, "r");
	errtext = ef ? slurp(ef, NULL) : NULL;
	if (ef)
		fclose(ef);
	unlink(errpath);
	if (!text) {
		free(errtext);
		snprintf(why, wsize, "out of memory");
		return -1;
	}
	/* perf 6.1 exits 0 after some failures: look at what it said too. */
	if (status != 0 || (errtext && (strstr(errtext, "unexpected end of event stream") ||
					strstr(errtext, "Couldn't decompress") ||
					strstr(errtext, "failed to process") ||
					strstr(errtext, "Error") ||
					strstr(errtext, "incompatible file format")))) {
		char *nl;

		snprintf(why, wsize, "perf exit status %d: %s", status,
			 errtext && *errtext ? trim(errtext) : "(no message)");
		nl = strchr(why, '\n');
		if (nl)
			*nl = '\0';
		free(text);
		free(errtext);
		return -1;
	}
	free(errtext);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		unsigned long long cnt;

		if (strstr(line, "Aggregated stats:")) {
			in_agg = true;
			continue;
		}
		if (!in_agg)
			continue;
		if (ends_with(trim(line), "stats:"))
			break;	/* per-event section */
		if (sscanf(line, " %63s events: %llu", name, &cnt) == 2 && n < max) {
			snprintf(out[n].name, sizeof(out[n].name), "%s", name);
			out[n].count = cnt;
			n++;
		}
	}
	free(text);
	if (!n) {
		snprintf(why, wsize, "perf printed no aggregated stats");
		return -1;
	}
	return n;
}

/* `perfconv info --json FILE`, parsed. NULL on failure (why says it). */
static json_t *perfconv_json(const char *path, char *why, size_t wsize)
{
	char q[4200], cmd[8600];
	json_error_t jerr;
	json_t *root;
	size_t len;
	char *text;
	FILE *p;

	shquote(q, sizeof(q), path);
	snprintf(cmd, sizeof(cmd), "%s info --json %s 2>/dev/null", perfconv_path(), q);
	p = popen(cmd, "r");
	if (!p) {
		snprintf(why, wsize, "popen: %s", strerror(errno));
		return NULL;
	}
	text = slurp(p, &len);
	pclose(p);
	if (!text || !len) {
		free(text);
		snprintf(why, wsize, "empty output from %.400s", cmd);
		return NULL;
	}
	root = json_loadb(text, len, 0, &jerr);
	free(text);
	if (!root)
		snprintf(why, wsize, "invalid JSON at line %d: %s", jerr.line, jerr.text);
	return root;
}

/* JSON count for a perf stats name: perf drops the HEADER_ prefix of user types. */
static bool json_count(json_t *records, const char *perf_name, uint64_t *out)
{
	char alt[96];
	json_t *v = json_object_get(records, perf_name);

	if (!v) {
		snprintf(alt, sizeof(alt), "HEADER_%.63s", perf_name);
		v = json_object_get(records, alt);
	}
	if (!v || !json_is_integer(v)) {
		*out = 0;
		return false;
	}
	*out = (uint64_t)json_integer_value(v);
	return true;
}

static void compare_with_perf(const char *path, unsigned int *compared, unsigned int *skipped)
{
	struct perf_count pc[128];
	char why[512];
	json_t *root, *records;
	uint64_t total = 0;
	const char *key;
	json_t *val;
	int n, i;
	bool ok = true;

	n = perf_stats(path, pc, 128, why, sizeof(why));
	if (n < 0) {
		printf("  %s: skipped, perf cannot read it (%s)\n", path, why);
		(*skipped)++;
		return;
	}
	root = perfconv_json(path, why, sizeof(why));
	CHECK(root != NULL, "%s: perfconv info --json: %s", path, why);
	if (!root)
		return;
	records = json_object_get(root, "records");
	CHECK(json_is_object(records), "%s: info --json has no \"records\" object", path);
	if (!json_is_object(records)) {
		json_decref(root);
		return;
	}
	json_object_foreach(records, key, val)
		if (json_is_integer(val))
			total += (uint64_t)json_integer_value(val);
	for (i = 0; i < n; i++) {
		uint64_t mine;

		if (!strcmp(pc[i].name, "TOTAL")) {
			mine = total;
		} else {
			json_count(records, pc[i].name, &mine);
		}
		if (mine != pc[i].count)
			ok = false;
		CHECK(mine == pc[i].count, "%s: %s: perf counts %" PRIu64 ", perfconv %" PRIu64,
		      path, pc[i].name, pc[i].count, mine);
	}
	printf("  %s: %d types compared with perf: %s\n", path, n, ok ? "equal" : "DIFFERENT");
	(*compared)++;
	json_decref(root);
}

static void test_perf_stats(void)
{
	struct file_list l = { 0 };
	unsigned int compared = 0, skipped = 0;
	size_t i;

	if (!have_perf()) {
		printf("  perf is not installed: corpus-perf-stats skipped\n");
		return;
	}
	list_project_corpus(&l);
	if (have_external()) {
		list_dir(&l, QUIPPER_DIR, keep_quipper);
		list_dir(&l, SP_DIR, keep_data);
	} else {
		printf("  external corpus %s not found: skipped\n", EXT_DIR);
	}
	for (i = 0; i < l.nr; i++) {
		if (damaged_index(l.path[i]) >= 0)
			continue;
		compare_with_perf(l.path[i], &compared, &skipped);
	}
	printf("  %u files compared, %u skipped (perf could not read them)\n", compared, skipped);
	list_free(&l);
}

/* ------------------------------------------------------------------ */
/* corpus-bad                                                          */

static void test_bad(void)
{
	char line[4096], path[4096], diags[2048], why[512];
	unsigned int nr = 0;
	FILE *f = fopen(BAD_DIR "/MANIFEST", "r");

	CHECK(f != NULL, "%s/MANIFEST: %s", BAD_DIR, strerror(errno));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *field[4], *s = line;
		unsigned long code;
		unsigned long long off;
		struct read_result res;
		json_t *root;
		int k;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		for (k = 0; k < 4; k++) {
			field[k] = s;
			s = k < 3 ? strchr(s, '|') : NULL;
			if (k < 3 && !s)
				break;
			if (s)
				*s++ = '\0';
		}
		CHECK(k == 4, "%s/MANIFEST: malformed line", BAD_DIR);
		if (k != 4)
			continue;
		/*
		 * check-*.data hold problems only perfcheck's cross-record
		 * and cross-section pass finds; tests/validate/perfcheck.sh
		 * verifies them.  The reader must still read them without
		 * crashing.
		 */
		if (!strncmp(trim(field[0]), "check-", 6)) {
			snprintf(path, sizeof(path), "%s/%s", BAD_DIR, trim(field[0]));
			read_all(path, &res);
			result_free(&res);
			continue;
		}
		code = strtoul(trim(field[1]), NULL, 10);
		off = strtoull(trim(field[2]), NULL, 0);
		snprintf(path, sizeof(path), "%s/%s", BAD_DIR, trim(field[0]));
		read_all(path, &res);
		describe(&res, diags, sizeof(diags));
		printf("  %s: expect PD%03lu@%#llx, got %s\n", path, code, off, diags);
		CHECK(has_code_at(&res, (enum pd_code)code, off),
		      "%s (%s): expected PD%03lu at offset %llu (%#llx); reported: %s", path,
		      trim(field[3]), code, off, off, diags);
		result_free(&res);

		/* info --json must stay valid JSON whatever the input. */
		root = perfconv_json(path, why, sizeof(why));
		if (root)
			json_decref(root);
		else if (!strstr(why, "empty output"))
			CHECK(false, "%s: perfconv info --json: %s", path, why);
		nr++;
	}
	fclose(f);
	CHECK(nr > 0, "%s/MANIFEST lists no files", BAD_DIR);
}

/* ------------------------------------------------------------------ */
/* regress                                                             */

/* Child: read everything twice (file order, time order); exit 0 when done. */
static void regress_child(const char *path)
{
	int pass;

	alarm(REGRESS_TIMEOUT);
	for (pass = 0; pass < 2; pass++) {
		struct pd_reader_opts o = PD_READER_OPTS_INIT;
		const struct pd_record *rec;
		struct pd_reader *r;
		int ret;

		o.time_order = pass == 1;
		o.window_size = 256 << 10;
		o.max_decompressed = 16 << 20;
		ret = pd_reader_open(path, &o, &r);
		if (ret < 0)
			continue;
		while ((ret = pd_reader_next(r, &rec)) > 0)
			;
		pd_reader_close(r);
		if (ret != 0 && ret != PD_STATUS_MALFORMED && ret != PD_STATUS_IO &&
		    ret != PD_STATUS_NOMEM)
			_exit(3);
	}
	_exit(0);
}

static void test_regress(void)
{
	struct file_list l = { 0 };
	size_t i;

	list_dir(&l, REGRESS_DIR, keep_regress);
	if (!l.nr)
		printf("  %s holds no regression inputs\n", REGRESS_DIR);
	for (i = 0; i < l.nr; i++) {
		int status = 0;
		pid_t pid;

		fflush(NULL);
		pid = fork();
		CHECK(pid >= 0, "fork: %s", strerror(errno));
		if (pid < 0)
			break;
		if (pid == 0)
			regress_child(l.path[i]);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (WIFSIGNALED(status))
			CHECK(false, "%s: reader killed by signal %d%s", l.path[i], WTERMSIG(status),
			      WTERMSIG(status) == SIGALRM ? " (hang: no end within the time limit)" :
			      "");
		else
			CHECK(WEXITSTATUS(status) == 0, "%s: reader child exited with %d%s", l.path[i],
			      WEXITSTATUS(status),
			      WEXITSTATUS(status) == 3 ? " (bad final status)" : " (sanitizer report?)");
		printf("  %s: %s\n", l.path[i], status == 0 ? "ok" : "FAILED");
	}
	list_free(&l);
}

int pd_test_register_corpus(void)
{
	CU_pSuite s;

	s = CU_add_suite("corpus-valid", NULL, NULL);
	if (!s || !CU_add_test(s, "project corpus", test_valid_project) ||
	    !CU_add_test(s, "external corpus", test_valid_external))
		return CU_get_error();
	s = CU_add_suite("corpus-perf-stats", NULL, NULL);
	if (!s || !CU_add_test(s, "record counts equal perf report --stats", test_perf_stats))
		return CU_get_error();
	s = CU_add_suite("corpus-bad", NULL, NULL);
	if (!s || !CU_add_test(s, "code and offset of every damaged file", test_bad))
		return CU_get_error();
	s = CU_add_suite("regress", NULL, NULL);
	if (!s || !CU_add_test(s, "fuzz regression inputs", test_regress))
		return CU_get_error();
	return CUE_SUCCESS;
}
