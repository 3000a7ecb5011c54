// SPDX-License-Identifier: MIT
/*
 * test_proto_schema.c - schema/perf_data.proto against quipper's own
 * schema (../shared/corpus/quipper/schema/perf_data.proto), field by field.
 *
 * Both schemas are compiled by protoc into descriptor sets
 * (FileDescriptorSet, protoc --descriptor_set_out), which this file reads
 * with a small wire decoder of its own: no descriptor.proto is needed.
 * Every message, field and enum value quipper defines must exist in ours
 * under the same full name, with the same number, type, label, message or
 * enum type and packing; a field we add to a message quipper defines must
 * be numbered 1000 or more (the extension range quipper-schema readers skip
 * as unknown).  Text decoded with one schema hides numbering differences:
 * this compares the numbers themselves.
 *
 * Skipped with a message when ../shared/corpus or protoc is absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "test_suites.h"

#define QUIPPER_SCHEMA_DIR "../shared/corpus/quipper/schema"

/* Field numbers of google/protobuf/descriptor.proto used here. */
enum {
	FDSET_FILE = 1,
	FILE_PACKAGE = 2, FILE_MESSAGE = 4, FILE_ENUM = 5,
	MSG_NAME = 1, MSG_FIELD = 2, MSG_NESTED = 3, MSG_ENUM = 4,
	FIELD_NAME = 1, FIELD_NUMBER = 3, FIELD_LABEL = 4, FIELD_TYPE = 5,
	FIELD_TYPE_NAME = 6, FIELD_OPTIONS = 8,
	FIELDOPT_PACKED = 2,
	ENUM_NAME = 1, ENUM_VALUE = 2,
	ENUMVAL_NAME = 1, ENUMVAL_NUMBER = 2,
};

/* One flattened schema entry: a field or an enum value. */
struct sch_item {
	char *owner;		/* full name of the message or enum */
	char *name;
	char *type_name;	/* message or enum type of a field, else "" */
	long long number;
	int type, label, packed;
	bool is_enum_value;
};

struct schema {
	struct sch_item *v;
	size_t n, cap;
	char **msgs;		/* full names of every message and enum */
	size_t nr_msgs, cap_msgs;
	bool bad;		/* undecodable descriptor set */
};

struct span {
	const unsigned char *p, *end;
};

static bool get_varint(struct span *s, unsigned long long *v)
{
	unsigned int shift = 0;

	*v = 0;
	while (s->p < s->end && shift < 64) {
		unsigned char c = *s->p++;

		*v |= (unsigned long long)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

/*
 * Next field of a message: its number, wire type, and for length-delimited
 * fields the payload in *sub; varints in *v.  Returns false at the end or on
 * a damaged encoding (sets *bad).
 */
static bool next_field(struct span *s, unsigned int *field, struct span *sub,
		       unsigned long long *v, bool *bad)
{
	unsigned long long key, len;

	if (s->p >= s->end)
		return false;
	if (!get_varint(s, &key))
		goto damaged;
	*field = (unsigned int)(key >> 3);
	switch (key & 7) {
	case 0:
		if (!get_varint(s, v))
			goto damaged;
		sub->p = sub->end = NULL;
		return true;
	case 1:
		if (s->end - s->p < 8)
			goto damaged;
		s->p += 8;
		*v = 0;
		sub->p = sub->end = NULL;
		return true;
	case 2:
		if (!get_varint(s, &len) || len > (unsigned long long)(s->end - s->p))
			goto damaged;
		sub->p = s->p;
		sub->end = s->p + len;
		s->p += len;
		*v = 0;
		return true;
	case 5:
		if (s->end - s->p < 4)
			goto damaged;
		s->p += 4;
		*v = 0;
		sub->p = sub->end = NULL;
		return true;
	}
damaged:
	*bad = true;
	return false;
}

static char *span_str(const struct span *s)
{
	size_t n = (size_t)(s->end - s->p);
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s->p, n);
		d[n] = '\0';
	}
	return d;
}

static char *join(const char *scope, const char *name)
{
	size_t n = strlen(scope) + strlen(name) + 2;
	char *d = malloc(n);

	if (d)
		snprintf(d, n, "%s%s%s", scope, *scope ? "." : "", name);
	return d;
}

static void add_item(struct schema *sc, const struct sch_item *it)
{
	if (!it->owner || !it->name || !it->type_name) {
		free(it->owner);
		free(it->name);
		free(it->type_name);
		sc->bad = true;
		return;
	}
	if (sc->n == sc->cap) {
		size_t cap = sc->cap ? 2 * sc->cap : 256;
		struct sch_item *v = realloc(sc->v, cap * sizeof(*v));

		if (!v) {
			sc->bad = true;
			return;
		}
		sc->v = v;
		sc->cap = cap;
	}
	sc->v[sc->n++] = *it;
}

static void add_type(struct schema *sc, char *full)
{
	if (sc->nr_msgs == sc->cap_msgs) {
		size_t cap = sc->cap_msgs ? 2 * sc->cap_msgs : 64;
		char **v = realloc(sc->msgs, cap * sizeof(*v));

		if (!v) {
			sc->bad = true;
			free(full);
			return;
		}
		sc->msgs = v;
		sc->cap_msgs = cap;
	}
	sc->msgs[sc->nr_msgs++] = full;
}

/* The name field of a message, enum or field descriptor, or NULL. */
static char *find_name(struct span s, unsigned int name_field, bool *bad)
{
	struct span sub;
	unsigned long long v;
	unsigned int f;

	while (next_field(&s, &f, &sub, &v, bad))
		if (f == name_field && sub.p)
			return span_str(&sub);
	return NULL;
}

static void read_enum(struct schema *sc, struct span s, const char *scope)
{
	struct span sub, vs;
	unsigned long long v;
	unsigned int f, g;
	char *name = find_name(s, ENUM_NAME, &sc->bad), *full;

	if (!name) {
		sc->bad = true;
		return;
	}
	full = join(scope, name);
	free(name);
	if (!full) {
		sc->bad = true;
		return;
	}
	while (next_field(&s, &f, &sub, &v, &sc->bad)) {
		struct sch_item it = { .is_enum_value = true };

		if (f != ENUM_VALUE || !sub.p)
			continue;
		vs = sub;
		while (next_field(&vs, &g, &sub, &v, &sc->bad)) {
			if (g == ENUMVAL_NAME && sub.p)
				it.name = span_str(&sub);
			else if (g == ENUMVAL_NUMBER)
				it.number = (long long)(int)v;
		}
		it.owner = strdup(full);
		it.type_name = strdup("");
		add_item(sc, &it);
	}
	add_type(sc, full);
}

static void read_field(struct schema *sc, struct span s, const char *owner)
{
	struct sch_item it = { 0 };
	struct span sub, os;
	unsigned long long v;
	unsigned int f, g;

	while (next_field(&s, &f, &sub, &v, &sc->bad)) {
		switch (f) {
		case FIELD_NAME:
			if (sub.p)
				it.name = span_str(&sub);
			break;
		case FIELD_NUMBER:
			it.number = (long long)v;
			break;
		case FIELD_LABEL:
			it.label = (int)v;
			break;
		case FIELD_TYPE:
			it.type = (int)v;
			break;
		case FIELD_TYPE_NAME:
			if (sub.p)
				it.type_name = span_str(&sub);
			break;
		case FIELD_OPTIONS:
			if (!sub.p)
				break;
			os = sub;
			while (next_field(&os, &g, &sub, &v, &sc->bad))
				if (g == FIELDOPT_PACKED)
					it.packed = (int)v;
			break;
		}
	}
	it.owner = strdup(owner);
	if (!it.type_name)
		it.type_name = strdup("");
	add_item(sc, &it);
}

static void read_message(struct schema *sc, struct span s, const char *scope)
{
	struct span sub;
	unsigned long long v;
	unsigned int f;
	char *name = find_name(s, MSG_NAME, &sc->bad), *full;

	if (!name) {
		sc->bad = true;
		return;
	}
	full = join(scope, name);
	free(name);
	if (!full) {
		sc->bad = true;
		return;
	}
	while (next_field(&s, &f, &sub, &v, &sc->bad)) {
		if (!sub.p)
			continue;
		if (f == MSG_FIELD)
			read_field(sc, sub, full);
		else if (f == MSG_NESTED)
			read_message(sc, sub, full);
		else if (f == MSG_ENUM)
			read_enum(sc, sub, full);
	}
	add_type(sc, full);
}

static void read_set(struct schema *sc, const unsigned char *p, size_t len)
{
	struct span s = { p, p + len }, file, sub;
	unsigned long long v;
	unsigned int f;

	while (next_field(&s, &f, &file, &v, &sc->bad)) {
		char *package;

		if (f != FDSET_FILE || !file.p)
			continue;
		package = find_name(file, FILE_PACKAGE, &sc->bad);
		if (!package)
			package = strdup("");
		while (package && next_field(&file, &f, &sub, &v, &sc->bad)) {
			if (!sub.p)
				continue;
			if (f == FILE_MESSAGE)
				read_message(sc, sub, package);
			else if (f == FILE_ENUM)
				read_enum(sc, sub, package);
		}
		free(package);
	}
}

static void free_schema(struct schema *sc)
{
	size_t i;

	for (i = 0; i < sc->n; i++) {
		free(sc->v[i].owner);
		free(sc->v[i].name);
		free(sc->v[i].type_name);
	}
	for (i = 0; i < sc->nr_msgs; i++)
		free(sc->msgs[i]);
	free(sc->v);
	free(sc->msgs);
}

/* protoc compiles DIR/FILE into a descriptor set at OUT; false on failure. */
static bool compile(const char *dir, const char *file, const char *out)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "protoc --proto_path='%s' --include_imports --descriptor_set_out='%s' '%s'",
		 dir, out, file);
	return system(cmd) == 0;
}

static bool load(struct schema *sc, const char *path)
{
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f = fopen(path, "rb");

	memset(sc, 0, sizeof(*sc));
	if (!f)
		return false;
	for (;;) {
		if (len == cap) {
			unsigned char *nb = realloc(buf, cap ? 2 * cap : 65536);

			if (!nb)
				break;
			buf = nb;
			cap = cap ? 2 * cap : 65536;
		}
		n = fread(buf + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	read_set(sc, buf, len);
	free(buf);
	return !sc->bad && sc->n > 0;
}

static const struct sch_item *find_item(const struct schema *sc, const char *owner,
					const char *name)
{
	size_t i;

	for (i = 0; i < sc->n; i++)
		if (!strcmp(sc->v[i].owner, owner) && !strcmp(sc->v[i].name, name))
			return &sc->v[i];
	return NULL;
}

static bool has_type(const struct schema *sc, const char *full)
{
	size_t i;

	for (i = 0; i < sc->nr_msgs; i++)
		if (!strcmp(sc->msgs[i], full))
			return true;
	return false;
}

/*
 * Differences of OURS from REF (quipper's), one line each on OUT (none when
 * OUT is NULL); returns their number.
 */
static unsigned int compare_schemas(const struct schema *ref, const struct schema *ours, FILE *out)
{
	unsigned int diffs = 0;
	size_t i, j;

	for (i = 0; i < ref->nr_msgs; i++) {
		if (!has_type(ours, ref->msgs[i])) {
			if (out)
				fprintf(out, "\n  schema: %s missing", ref->msgs[i]);
			diffs++;
		}
	}
	for (i = 0; i < ref->n; i++) {
		const struct sch_item *r = &ref->v[i];
		const struct sch_item *o = find_item(ours, r->owner, r->name);

		if (!has_type(ours, r->owner))
			continue;	/* reported above */
		if (!o) {
			if (out)
				fprintf(out, "\n  schema: %s.%s (= %lld) missing",
					r->owner, r->name, r->number);
			diffs++;
			continue;
		}
		if (o->number != r->number || o->type != r->type || o->label != r->label ||
		    o->packed != r->packed || strcmp(o->type_name, r->type_name)) {
			if (out)
				fprintf(out, "\n  schema: %s.%s: ours = %lld type %d%s label %d "
					"packed %d, quipper's = %lld type %d%s label %d packed %d",
					r->owner, r->name, o->number, o->type, o->type_name,
					o->label, o->packed, r->number, r->type, r->type_name,
					r->label, r->packed);
			diffs++;
		}
	}
	/* what we add to quipper's messages and enums stays out of its numbers */
	for (j = 0; j < ours->n; j++) {
		const struct sch_item *o = &ours->v[j];

		if (!has_type(ref, o->owner) || find_item(ref, o->owner, o->name))
			continue;
		if (o->is_enum_value || o->number < 1000) {
			if (out)
				fprintf(out, "\n  schema: %s.%s = %lld is not in quipper's schema%s",
					o->owner, o->name, o->number, o->is_enum_value ? "" :
					" and below the extension range (1000)");
			diffs++;
		}
	}
	return diffs;
}

/* The comparison itself must see a renumbered field. */
static void test_compare_detects(void)
{
	char owner[] = "q.M", size[] = "size", sizes[] = "sizes", none[] = "";
	struct sch_item a = { .owner = owner, .name = size, .type_name = none,
			      .number = 6, .type = 13, .label = 1 };
	struct sch_item b = a;
	char *names[] = { owner };
	struct schema ref = { .v = &a, .n = 1, .msgs = names, .nr_msgs = 1 };
	struct schema ours = { .v = &b, .n = 1, .msgs = names, .nr_msgs = 1 };

	CU_ASSERT_EQUAL(compare_schemas(&ref, &ours, NULL), 0);
	b.number = 7;
	CU_ASSERT_EQUAL(compare_schemas(&ref, &ours, NULL), 1);
	b.number = 6;
	b.type = 8;
	CU_ASSERT_EQUAL(compare_schemas(&ref, &ours, NULL), 1);
	b.type = 13;
	b.name = sizes;	/* quipper's field missing, ours below 1000 */
	CU_ASSERT_EQUAL(compare_schemas(&ref, &ours, NULL), 2);
	b.number = 1000;		/* an extension is fine */
	CU_ASSERT_EQUAL(compare_schemas(&ref, &ours, NULL), 1);
}

static void test_matches_quipper(void)
{
	char dir[] = "/tmp/proto-schema.XXXXXX", ours_set[64], ref_set[64];
	struct schema ref, ours;
	struct stat st;

	if (stat(QUIPPER_SCHEMA_DIR "/perf_data.proto", &st)) {
		printf("\n  %s absent: comparison with quipper's schema SKIPPED", QUIPPER_SCHEMA_DIR);
		return;
	}
	if (system("protoc --version > /dev/null 2>&1")) {
		printf("\n  protoc not installed (Debian protobuf-compiler): "
		       "comparison with quipper's schema SKIPPED");
		return;
	}
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(ours_set, sizeof(ours_set), "%s/ours.pb", dir);
	snprintf(ref_set, sizeof(ref_set), "%s/quipper.pb", dir);
	CU_ASSERT_FATAL(compile("schema", "perf_data.proto", ours_set));
	CU_ASSERT_FATAL(compile(QUIPPER_SCHEMA_DIR, "perf_data.proto", ref_set));
	CU_ASSERT(load(&ours, ours_set));
	CU_ASSERT(load(&ref, ref_set));
	/* quipper's schema has dozens of messages and hundreds of fields */
	CU_ASSERT(ref.nr_msgs > 30 && ref.n > 300);
	CU_ASSERT_EQUAL(compare_schemas(&ref, &ours, stderr), 0);
	free_schema(&ours);
	free_schema(&ref);
	unlink(ours_set);
	unlink(ref_set);
	rmdir(dir);
}

int pd_test_register_proto_schema(void)
{
	CU_pSuite s = CU_add_suite("proto-schema", NULL, NULL);

	if (!s || !CU_add_test(s, "comparison sees renumbering", test_compare_detects) ||
	    !CU_add_test(s, "schema/perf_data.proto against quipper's", test_matches_quipper))
		return CU_get_error();
	return CUE_SUCCESS;
}
