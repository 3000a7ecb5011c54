// SPDX-License-Identifier: MIT
/*
 * test_json.c - perfconv to-json: every output parses back with jansson,
 * every --full output validates against schema/perf-data-full.schema.json,
 * and --full agrees with `perfconv dump` record by record.
 *
 * The schema check uses the small validator below: the subset of JSON
 * Schema 2020-12 the schema uses ($ref to local $defs, type, const, enum,
 * properties, required, additionalProperties, items, minItems, maxItems,
 * minimum, maximum, pattern, anyOf, allOf).
 * Runs over corpus/ and, when present, ../shared/corpus.
 */
#include <dirent.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <jansson.h>

#include "test_suites.h"

#define MAX_INPUTS 512

static const char *perfconv(void)
{
	const char *p = getenv("PERFCONV");

	return p ? p : "bin/perfconv";
}

/* ---- inputs ---- */

static char *inputs[MAX_INPUTS];
static size_t nr_inputs;

static void add_dir(const char *dir, bool all_files)
{
	struct dirent **ents;
	int n, i;

	n = scandir(dir, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		size_t len = strlen(name);
		char path[1024];

		if (name[0] == '.' || nr_inputs >= MAX_INPUTS)
			goto next;
		if (all_files ? (strstr(name, ".pb_text") || strstr(name, ".buildids") ||
				 strstr(name, ".md")) :
		    !(len > 5 && (!strcmp(name + len - 5, ".data") || !strcmp(name + len - 4, ".dir"))))
			goto next;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		inputs[nr_inputs++] = strdup(path);
next:
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

static void collect_inputs(void)
{
	struct stat st;

	if (nr_inputs)
		return;
	add_dir("corpus", false);
	if (stat("../shared/corpus", &st) == 0) {
		add_dir("../shared/corpus/quipper", true);
		add_dir("../shared/corpus/simpleperf", true);
	} else {
		printf("\n  ../shared/corpus not found: external corpus cases skipped\n");
	}
}

/* ---- running perfconv ---- */

static char *run(const char *args, const char *input, size_t *len)
{
	char cmd[2048];
	char *buf = NULL;
	size_t cap = 0, n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "'%s' %s%s '%s' 2>/dev/null", perfconv(), args,
		 strncmp(args, "to-json", 7) ? "" : " --no-progress", input);
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	for (;;) {
		size_t got;

		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			buf = realloc(buf, cap + 1);
			if (!buf)
				break;
		}
		got = fread(buf + n, 1, cap - n, p);
		if (!got)
			break;
		n += got;
	}
	pclose(p);
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

/* ---- a JSON Schema subset ---- */

static json_t *schema_root;

static int validate(json_t *v, json_t *s, const char *path, char *err, size_t errsz);

static bool type_ok(json_t *v, const char *t)
{
	if (!strcmp(t, "object"))
		return json_is_object(v);
	if (!strcmp(t, "array"))
		return json_is_array(v);
	if (!strcmp(t, "string"))
		return json_is_string(v);
	if (!strcmp(t, "integer"))
		return json_is_integer(v);
	if (!strcmp(t, "number"))
		return json_is_number(v);
	if (!strcmp(t, "boolean"))
		return json_is_boolean(v);
	if (!strcmp(t, "null"))
		return json_is_null(v);
	return false;
}

static json_t *resolve_ref(const char *ref)
{
	const char *prefix = "#/$defs/";

	if (strncmp(ref, prefix, strlen(prefix)))
		return NULL;
	return json_object_get(json_object_get(schema_root, "$defs"), ref + strlen(prefix));
}

static int fail(char *err, size_t errsz, const char *path, const char *what)
{
	snprintf(err, errsz, "%s: %s", path, what);
	return -1;
}

static int validate(json_t *v, json_t *s, const char *path, char *err, size_t errsz)
{
	json_t *k;
	char sub[512];

	if (!json_is_object(s))
		return 0;
	k = json_object_get(s, "$ref");
	if (k) {
		json_t *target = resolve_ref(json_string_value(k));

		if (!target)
			return fail(err, errsz, path, "unresolved $ref");
		if (validate(v, target, path, err, errsz))
			return -1;
	}
	k = json_object_get(s, "type");
	if (k) {
		bool ok = false;

		if (json_is_string(k)) {
			ok = type_ok(v, json_string_value(k));
		} else {
			size_t i;
			json_t *t;

			json_array_foreach(k, i, t)
				ok = ok || type_ok(v, json_string_value(t));
		}
		if (!ok)
			return fail(err, errsz, path, "wrong type");
	}
	k = json_object_get(s, "const");
	if (k && !json_equal(k, v))
		return fail(err, errsz, path, "const mismatch");
	k = json_object_get(s, "enum");
	if (k) {
		size_t i;
		json_t *e;
		bool ok = false;

		json_array_foreach(k, i, e)
			ok = ok || json_equal(e, v);
		if (!ok)
			return fail(err, errsz, path, "not in enum");
	}
	if (json_is_number(v)) {
		k = json_object_get(s, "minimum");
		if (k && json_number_value(v) < json_number_value(k))
			return fail(err, errsz, path, "below minimum");
		k = json_object_get(s, "maximum");
		if (k && json_number_value(v) > json_number_value(k))
			return fail(err, errsz, path, "above maximum");
	}
	k = json_object_get(s, "pattern");
	if (k && json_is_string(v)) {
		regex_t re;
		int r;

		if (regcomp(&re, json_string_value(k), REG_EXTENDED | REG_NOSUB))
			return fail(err, errsz, path, "bad pattern in schema");
		r = regexec(&re, json_string_value(v), 0, NULL, 0);
		regfree(&re);
		if (r)
			return fail(err, errsz, path, "pattern mismatch");
	}
	if (json_is_object(v)) {
		json_t *props = json_object_get(s, "properties");
		json_t *addl = json_object_get(s, "additionalProperties");
		json_t *req = json_object_get(s, "required");
		const char *key;
		json_t *val, *r;
		size_t i;

		json_array_foreach(req, i, r)
			if (!json_object_get(v, json_string_value(r))) {
				snprintf(sub, sizeof(sub), "missing %s", json_string_value(r));
				return fail(err, errsz, path, sub);
			}
		json_object_foreach(v, key, val) {
			json_t *ps = props ? json_object_get(props, key) : NULL;

			snprintf(sub, sizeof(sub), "%s.%s", path, key);
			if (ps) {
				if (validate(val, ps, sub, err, errsz))
					return -1;
			} else if (json_is_false(addl)) {
				return fail(err, errsz, sub, "property not allowed");
			} else if (json_is_object(addl)) {
				if (validate(val, addl, sub, err, errsz))
					return -1;
			}
		}
	}
	if (json_is_array(v)) {
		json_t *items = json_object_get(s, "items"), *e;
		size_t i;

		k = json_object_get(s, "minItems");
		if (k && json_array_size(v) < (size_t)json_integer_value(k))
			return fail(err, errsz, path, "too few items");
		k = json_object_get(s, "maxItems");
		if (k && json_array_size(v) > (size_t)json_integer_value(k))
			return fail(err, errsz, path, "too many items");
		if (items)
			json_array_foreach(v, i, e) {
				snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
				if (validate(e, items, sub, err, errsz))
					return -1;
			}
	}
	k = json_object_get(s, "allOf");
	if (k) {
		size_t i;
		json_t *e;

		json_array_foreach(k, i, e)
			if (validate(v, e, path, err, errsz))
				return -1;
	}
	k = json_object_get(s, "anyOf");
	if (k) {
		size_t i;
		json_t *e;
		bool ok = false;

		json_array_foreach(k, i, e)
			if (!ok && !validate(v, e, path, err, errsz))
				ok = true;
		if (!ok)
			return -1;	/* err holds the last branch's reason */
	}
	return 0;
}

static int load_schema(void)
{
	json_error_t e;

	if (schema_root)
		return 0;
	schema_root = json_load_file("schema/perf-data-full.schema.json", 0, &e);
	if (!schema_root) {
		printf("\n  schema: %s:%d: %s\n", e.source, e.line, e.text);
		return -1;
	}
	return 0;
}

/* ---- tests ---- */

static void test_schema_self(void)
{
	json_t *v;

	CU_ASSERT_FATAL(load_schema() == 0);
	v = json_object_get(schema_root, "x-schema-version");
	CU_ASSERT(json_integer_value(v) == 1);
	CU_ASSERT(json_object_get(json_object_get(schema_root, "$defs"), "line") != NULL);
}

static void test_default_parses(void)
{
	size_t i, ok = 0, runs = 0;

	collect_inputs();
	for (i = 0; i < nr_inputs; i++) {
		json_error_t e;
		size_t len;
		char *out = run("to-json", inputs[i], &len);
		json_t *d;

		if (!out || !len) {
			/* inputs that cannot be opened give no document */
			free(out);
			continue;
		}
		runs++;
		d = json_loadb(out, len, 0, &e);
		if (!d) {
			printf("\n  %s: default output is not JSON: line %d: %s\n", inputs[i], e.line,
			       e.text);
		} else if (json_integer_value(json_object_get(d, "linux-perf-json-version")) != 1 ||
			   !json_is_array(json_object_get(d, "samples"))) {
			printf("\n  %s: not a linux-perf-json-version 1 document\n", inputs[i]);
		} else {
			ok++;
		}
		json_decref(d);
		free(out);
	}
	CU_ASSERT(runs > 0);
	CU_ASSERT_EQUAL(ok, runs);
}

static void test_full_validates(void)
{
	size_t i, docs = 0, bad = 0;

	CU_ASSERT_FATAL(load_schema() == 0);
	collect_inputs();
	for (i = 0; i < nr_inputs; i++) {
		char err[1024] = "";
		json_error_t e;
		size_t len;
		char *out = run("to-json --full", inputs[i], &len);
		json_t *d;

		if (!out || !len) {
			free(out);
			continue;
		}
		docs++;
		d = json_loadb(out, len, 0, &e);
		if (!d) {
			printf("\n  %s: --full is not JSON: line %d: %s\n", inputs[i], e.line, e.text);
			bad++;
		} else if (validate(d, schema_root, "$", err, sizeof(err))) {
			printf("\n  %s: --full does not validate: %s\n", inputs[i], err);
			bad++;
		}
		json_decref(d);
		free(out);
	}
	CU_ASSERT(docs > 0);
	CU_ASSERT_EQUAL(bad, 0);
}

/* --jsonl --symbols --ordered: every line parses and validates as a line */
static void test_jsonl_validates(void)
{
	json_t *line_schema;
	size_t i, lines = 0, bad = 0;

	CU_ASSERT_FATAL(load_schema() == 0);
	line_schema = json_object_get(json_object_get(schema_root, "$defs"), "line");
	collect_inputs();
	for (i = 0; i < nr_inputs; i++) {
		size_t len;
		char *out = run("to-json --jsonl --symbols --ordered", inputs[i], &len);
		char *p, *nl;

		for (p = out; p && *p; p = nl + 1) {
			char err[1024] = "";
			json_error_t e;
			json_t *d;

			nl = strchr(p, '\n');
			if (!nl)
				break;
			lines++;
			d = json_loadb(p, (size_t)(nl - p), 0, &e);
			if (!d || validate(d, line_schema, "$", err, sizeof(err))) {
				if (bad++ < 5)
					printf("\n  %s: bad JSONL line: %s\n", inputs[i],
					       d ? err : e.text);
			}
			json_decref(d);
		}
		free(out);
	}
	CU_ASSERT(lines > 0);
	CU_ASSERT_EQUAL(bad, 0);
}

/* value of key=... in a dump line, NULL if absent (copied into buf) */
static const char *dump_field(const char *line, const char *key, char *buf, size_t size)
{
	size_t kl = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key))) {
		if (p > line && p[-1] == ' ' && p[kl] == '=') {
			size_t n = strcspn(p + kl + 1, " \n");

			if (n >= size)
				n = size - 1;
			memcpy(buf, p + kl + 1, n);
			buf[n] = '\0';
			return buf;
		}
		p += kl;
	}
	return NULL;
}

static bool same_num(json_t *v, const char *s)
{
	char buf[32];

	if (!s)
		return v == NULL;
	if (json_is_string(v))
		return !strcmp(json_string_value(v), s);
	if (!json_is_integer(v))
		return false;
	snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	return !strcmp(buf, s);
}

/*
 * --full (file order) against dump: same records in the same order, same
 * types and offsets, and for samples the same decoded fields.
 */
static int compare_with_dump(const char *input, size_t *nrec, size_t *nsamples)
{
	static const char *const num_keys[] = { "pid", "tid", "time", "id", "cpu", "period",
						"identifier", "stream_id", "cgroup",
						"data_page_size", "code_page_size", "weight" };
	size_t dlen, jlen, k;
	char *d = run("dump", input, &dlen);
	char *jl = run("to-json --jsonl", input, &jlen);
	char *dp, *jp, *dnl, *jnl;
	int bad = 0;

	if (!d || !jl) {
		free(d);
		free(jl);
		return 0;
	}
	jp = jl;
	for (dp = d; *dp; dp = dnl + 1) {
		char buf[256], buf2[256];
		json_t *rec = NULL;
		json_error_t e;
		unsigned long long off;

		dnl = strchr(dp, '\n');
		if (!dnl)
			break;
		if (*dp == '#' || *dp == ' ')
			continue;
		/* next record line of the JSONL output */
		for (;;) {
			jnl = strchr(jp, '\n');
			if (!jnl)
				break;
			rec = json_loadb(jp, (size_t)(jnl - jp), 0, &e);
			jp = jnl + 1;
			if (rec && !strcmp(json_string_value(json_object_get(rec, "kind")), "record"))
				break;
			json_decref(rec);
			rec = NULL;
		}
		if (!rec) {
			if (!bad++)
				printf("\n  %s: dump has more records than --full\n", input);
			break;
		}
		(*nrec)++;
		*dnl = '\0';
		off = strtoull(dp, NULL, 16);
		if ((unsigned long long)json_integer_value(json_object_get(rec, "offset")) != off) {
			if (bad++ < 3)
				printf("\n  %s: offset differs: dump '%.60s'\n", input, dp);
		}
		if (strstr(dp, "] SAMPLE") && json_is_true(json_object_get(rec, "decoded"))) {
			json_t *cc = json_object_get(rec, "callchain");

			(*nsamples)++;
			for (k = 0; k < sizeof(num_keys) / sizeof(num_keys[0]); k++) {
				const char *dv = dump_field(dp, num_keys[k], buf, sizeof(buf));

				if (!same_num(json_object_get(rec, num_keys[k]), dv) &&
				    !(dv == NULL && !strcmp(num_keys[k], "period"))) {
					if (bad++ < 3)
						printf("\n  %s: sample at 0x%llx: %s dump=%s json differs\n",
						       input, off, num_keys[k], dv ? dv : "-");
				}
			}
			if (dump_field(dp, "ip", buf, sizeof(buf)) &&
			    strcmp(buf, json_string_value(json_object_get(rec, "ip")) ?: "")) {
				if (bad++ < 3)
					printf("\n  %s: sample at 0x%llx: ip differs\n", input, off);
			}
			if (dump_field(dp, "callchain_nr", buf, sizeof(buf)) &&
			    strtoull(buf, NULL, 10) != json_array_size(cc)) {
				if (bad++ < 3)
					printf("\n  %s: sample at 0x%llx: callchain differs\n", input, off);
			}
			if (dump_field(dp, "raw_size", buf, sizeof(buf)) &&
			    !same_num(json_object_get(rec, "raw_size"), buf))
				bad++;
			if (dump_field(dp, "branch_nr", buf, sizeof(buf)) &&
			    !same_num(json_object_get(json_object_get(rec, "branch_stack"), "nr"), buf))
				bad++;
			if (dump_field(dp, "data_src", buf, sizeof(buf)) &&
			    strcmp(buf, json_string_value(json_object_get(rec, "data_src")) ?: ""))
				bad++;
			if (dump_field(dp, "addr", buf2, sizeof(buf2)) &&
			    strcmp(buf2, json_string_value(json_object_get(rec, "addr")) ?: ""))
				bad++;
		}
		json_decref(rec);
	}
	/* and --full has no record dump lacks */
	for (; (jnl = strchr(jp, '\n')); jp = jnl + 1) {
		if (strstr(jp, "\"kind\":\"record\"") && strstr(jp, "\"kind\":\"record\"") < jnl) {
			if (!bad++)
				printf("\n  %s: --full has more records than dump\n", input);
			break;
		}
	}
	free(d);
	free(jl);
	return bad;
}

static void test_full_vs_dump(void)
{
	size_t i, nrec = 0, nsamples = 0, files_bad = 0;

	collect_inputs();
	for (i = 0; i < nr_inputs; i++)
		if (compare_with_dump(inputs[i], &nrec, &nsamples))
			files_bad++;
	printf("\n  --full vs dump: %zu records, %zu samples, %zu of %zu inputs differ\n", nrec,
	       nsamples, files_bad, nr_inputs);
	CU_ASSERT(nrec > 0);
	CU_ASSERT_EQUAL(files_bad, 0);
}

/* --strict on a damaged file: exit 1, and no -o file left behind */
static void test_strict_no_output(void)
{
	char cmd[2048];
	struct stat st;
	const char *out = "/tmp/perfconv-test-strict.json";
	int rc;

	unlink(out);
	snprintf(cmd, sizeof(cmd), "'%s' to-json --strict --no-progress -o %s "
		 "corpus/bad/callchain-too-long.data 2>/dev/null", perfconv(), out);
	rc = system(cmd);
	CU_ASSERT(WIFEXITED(rc) && WEXITSTATUS(rc) == 1);
	CU_ASSERT(stat(out, &st) != 0);
	/* without --strict the document is written, valid, and exit says malformed */
	snprintf(cmd, sizeof(cmd), "'%s' to-json --no-progress -o %s "
		 "corpus/bad/callchain-too-long.data 2>/dev/null", perfconv(), out);
	rc = system(cmd);
	CU_ASSERT(WIFEXITED(rc) && WEXITSTATUS(rc) == 1);
	{
		json_error_t e;
		json_t *d = json_load_file(out, 0, &e);

		CU_ASSERT(d != NULL);
		json_decref(d);
	}
	unlink(out);
}

int pd_test_register_json(void)
{
	CU_pSuite s = CU_add_suite("json", NULL, NULL);

	if (!s)
		return CU_get_error();
	if (!CU_add_test(s, "schema loads", test_schema_self) ||
	    !CU_add_test(s, "default output parses", test_default_parses) ||
	    !CU_add_test(s, "--full validates", test_full_validates) ||
	    !CU_add_test(s, "--jsonl lines validate", test_jsonl_validates) ||
	    !CU_add_test(s, "--full equals dump", test_full_vs_dump) ||
	    !CU_add_test(s, "--strict leaves no output", test_strict_no_output))
		return CU_get_error();
	return CUE_SUCCESS;
}
