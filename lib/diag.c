// SPDX-License-Identifier: MIT
/*
 * diag.c - the diagnostic code table and the emitter.
 */
#include <stdio.h>

#include "internal.h"

/* The id strings are built at run time once: simpler than preprocessor padding. */
static const struct {
	int num;
	const char *name;
	const char *text;
	enum pd_severity sev;
} code_table[] = {
#define _PD(num, nm, s, t) { num, #nm, t, PD_SEV_##s },
	PD_CODES
#undef _PD
};

#define NR_CODES (sizeof(code_table) / sizeof(code_table[0]))

static int code_slot(enum pd_code code)
{
	size_t i;

	for (i = 0; i < NR_CODES; i++)
		if (code_table[i].num == (int)code)
			return (int)i;
	return -1;
}

/* Ids are "PD" + three digits; a static table of strings avoids any locking. */
static char code_ids[NR_CODES][8];
static bool code_ids_ready;

static void build_ids(void)
{
	size_t i;

	if (code_ids_ready)
		return;
	for (i = 0; i < NR_CODES; i++)
		snprintf(code_ids[i], sizeof(code_ids[i]), "PD%03d", code_table[i].num % 1000);
	code_ids_ready = true;
}

const char *pd_code_id(enum pd_code code)
{
	int s = code_slot(code);

	if (s < 0)
		return "PD???";
	build_ids();
	return code_ids[s];
}

const char *pd_code_name(enum pd_code code)
{
	int s = code_slot(code);

	return s < 0 ? "UNKNOWN" : code_table[s].name;
}

const char *pd_code_text(enum pd_code code)
{
	int s = code_slot(code);

	return s < 0 ? "unknown diagnostic" : code_table[s].text;
}

enum pd_severity pd_code_severity(enum pd_code code)
{
	int s = code_slot(code);

	return s < 0 ? PD_SEV_ERROR : code_table[s].sev;
}

const char *pd_severity_name(enum pd_severity sev)
{
	switch (sev) {
	case PD_SEV_NOTE:
		return "note";
	case PD_SEV_WARNING:
		return "warning";
	case PD_SEV_ERROR:
		return "error";
	}
	return "error";
}

enum pd_code pd_code_at(unsigned int i)
{
	return i < NR_CODES ? (enum pd_code)code_table[i].num : PD_OK;
}

void pd_diag_emit(struct pd_diag_sink *s, enum pd_code code, uint64_t offset,
		  int64_t rec_idx, uint32_t rec_type, bool fatal, const char *fmt, ...)
{
	char detail[256];
	struct pd_diag d;
	va_list ap;

	d.code = code;
	d.severity = pd_code_severity(code);
	if (s) {
		s->counts[d.severity]++;
		if ((unsigned int)code < sizeof(s->by_code) / sizeof(s->by_code[0]))
			s->by_code[code]++;
	}
	if (!s || !s->fn)
		return;
	detail[0] = '\0';
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(detail, sizeof(detail), fmt, ap);
		va_end(ap);
	}
	d.offset = offset;
	d.record_index = rec_idx;
	d.record_type = rec_type;
	d.fatal = fatal;
	d.stream = s->stream;
	d.detail = detail;
	s->fn(&d, s->arg);
}
