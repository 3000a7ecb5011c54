// SPDX-License-Identifier: MIT
/*
 * report.c - perfcheck's output: text lines, one JSON document, or a JUnit
 * XML report, into the output buffer the caller gives (common/out_buf.h),
 * and the exit code of each file.
 *
 * Findings are written as they arrive so that memory does not grow with
 * their number; only JUnit keeps a file's failures until the file is
 * done, because a test case's counts come before its children.  That
 * buffer is capped.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfcheck.h"
#include "../common/diag_json.h"
#include "../common/json_str.h"
#include "../common/utf8.h"

/* A JUnit report beyond this per file says it was cut instead. */
#define JUNIT_BUF_MAX	(1u << 20)

static unsigned int sev_index(enum pd_severity sev)
{
	return sev <= PD_SEV_ERROR ? (unsigned int)sev : PD_SEV_ERROR;
}

/* Does this finding make the run fail? */
static bool fails(const struct pc_opts *o, enum pd_severity sev)
{
	return sev == PD_SEV_ERROR || (o->strict && sev == PD_SEV_WARNING);
}

static void put_line(struct out_buf *out, const char *s)
{
	out_buf_s(out, s);
	out_buf_c(out, '\n');
}

/*
 * The text line of a finding: every command's diagnostic line
 * (tool_format_diag()), and the note that reading stopped there.
 */
static void format_line(char *buf, size_t size, const char *name, const struct pd_diag *d)
{
	size_t len = tool_format_diag(buf, size, name, d);

	if (d->fatal && len < size)
		snprintf(buf + len, size - len, " (reading stopped here)");
}

/* ---- JSON ---- */

/*
 * Strings from a damaged file can hold any byte: they are escaped by the
 * one rule of every JSON output (common/json_str.h, perf's), under which
 * the document always parses.
 */
static void json_str(struct out_buf *out, const char *s)
{
	json_str_put(out, s, strlen(s));
}

/* A finding: the one JSON form of a diagnostic (common/diag_json.h, that of perfconv info --json too). */
static void json_finding(struct pc_file *pf, const struct pd_diag *d)
{
	struct out_buf *out = pf->rep->out;

	out_buf_s(out, pf->nr_json++ ? ",\n    " : "\n    ");
	diag_json_put(out, d);
}

/* ---- JUnit XML ---- */

/* Keep n bytes of JUnit lines; false when the report's size limit is reached. */
static bool junit_keep(struct pc_file *pf, const char *s, size_t n)
{
	struct out_buf *b = &pf->junit;

	if (!b->buf && out_buf_init(b, -1, 0))
		return false;
	if (b->err || b->len + n + 1 > JUNIT_BUF_MAX)
		return false;
	out_buf_put(b, s, n);
	return !b->err;
}

/*
 * XML 1.0 allows neither most control characters nor broken UTF-8: they
 * become U+FFFD (utf8.h), markup characters become entities.
 */
static size_t xml_escape(char *out, size_t size, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, n = strlen(s), i = 0;

	while (i < n && o + 8 < size) {
		unsigned char c = p[i];
		const char *ent = NULL;
		size_t len;

		switch (c) {
		case '&': ent = "&amp;"; break;
		case '<': ent = "&lt;"; break;
		case '>': ent = "&gt;"; break;
		case '"': ent = "&quot;"; break;
		case '\'': ent = "&apos;"; break;
		default: break;
		}
		if (ent) {
			memcpy(out + o, ent, strlen(ent));
			o += strlen(ent);
			i++;
			continue;
		}
		len = utf8_seq_len(p + i, n - i);
		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
			len = 0;
		if (o + UTF8_REPLACEMENT_LEN + len + 8 >= size)
			break;
		if (!len) {
			memcpy(out + o, UTF8_REPLACEMENT, UTF8_REPLACEMENT_LEN);
			o += UTF8_REPLACEMENT_LEN;
			i++;
			continue;
		}
		memcpy(out + o, p + i, len);
		o += len;
		i += len;
	}
	out[o] = '\0';
	return o;
}

static void junit_finding(struct pc_file *pf, const struct pd_diag *d)
{
	char line[1024], buf[1100];
	unsigned int code = (unsigned int)d->code, i;
	int n;

	if (code >= PC_MAX_CODE)
		return;
	for (i = 0; i < pf->junit_nr_codes && pf->junit_codes[i] != code; i++)
		;
	if (i == pf->junit_nr_codes)
		pf->junit_codes[pf->junit_nr_codes++] = (uint16_t)code;
	format_line(line, sizeof(line), pf->name, d);
	n = snprintf(buf, sizeof(buf), "%u %s\n", code, line);
	if (n > 0 && !junit_keep(pf, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1))
		pf->junit_truncated = true;
}

/* The kept lines of one code, escaped, one per line. */
static void junit_lines_of(struct out_buf *out, const struct pc_file *pf, unsigned int code)
{
	const char *p = pf->junit.buf, *end, *nl;
	char want[16], line[1100], esc[4096];
	size_t wl;

	if (!p)
		return;
	end = p + pf->junit.len;
	snprintf(want, sizeof(want), "%u ", code);
	wl = strlen(want);
	for (; p < end; p = nl + 1) {
		size_t len;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;
		if ((size_t)(nl - p) < wl || memcmp(p, want, wl))
			continue;
		len = (size_t)(nl - p - (ptrdiff_t)wl);
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p + wl, len);
		line[len] = '\0';
		xml_escape(esc, sizeof(esc), line);
		put_line(out, esc);
	}
}

/*
 * One test suite per input, one test case per check that fired, so that
 * a CI page that shows one failure per test case shows every check; a
 * check's findings are the body of its failure (or its output, when they
 * do not fail the run).  An input with no finding is one passing case.
 */
static void junit_file(struct pc_file *pf, int code, const char *summary)
{
	const struct pc_opts *o = pf->rep->opts;
	struct out_buf *out = pf->rep->out;
	unsigned int i, nfail = 0, ntests = pf->junit_nr_codes;
	char name[1024], esc[1024], msg[600], cls[1024];
	bool unexplained = code == PC_EXIT_FINDINGS;

	for (i = 0; i < pf->junit_nr_codes; i++)
		if (fails(o, pd_code_severity((enum pd_code)pf->junit_codes[i])))
			nfail++;
	if (nfail)
		unexplained = false;
	/* the input itself: passes, or carries what no check explains */
	if (!ntests || code == PC_EXIT_IO || unexplained)
		ntests++;
	xml_escape(cls, sizeof(cls), pf->name);
	out_buf_printf(out, "  <testsuite name=\"%s\" tests=\"%u\" failures=\"%u\" errors=\"%d\" "
		"skipped=\"0\">\n", cls, ntests, nfail + unexplained, code == PC_EXIT_IO);
	for (i = 0; i < pf->junit_nr_codes; i++) {
		enum pd_code c = (enum pd_code)pf->junit_codes[i];
		uint32_t count = pf->by_code[c];

		snprintf(name, sizeof(name), "%s %s", pd_code_id(c), pd_code_name(c));
		xml_escape(esc, sizeof(esc), name);
		out_buf_printf(out, "    <testcase classname=\"%s\" name=\"%s\">\n", cls, esc);
		snprintf(name, sizeof(name), "%s: %" PRIu32 " %s %s", pd_code_text(c), count,
			 pd_severity_name(pd_code_severity(c)), count == 1 ? "finding" : "findings");
		xml_escape(msg, sizeof(msg), name);
		if (fails(o, pd_code_severity(c))) {
			out_buf_printf(out, "      <failure type=\"%s\" message=\"%s\">",
				       pd_code_id(c), msg);
			junit_lines_of(out, pf, c);
			out_buf_s(out, "</failure>\n");
		} else {
			out_buf_printf(out, "      <system-out>%s\n", msg);
			junit_lines_of(out, pf, c);
			out_buf_s(out, "</system-out>\n");
		}
		out_buf_s(out, "    </testcase>\n");
	}
	xml_escape(esc, sizeof(esc), summary);
	if (ntests > pf->junit_nr_codes) {
		out_buf_printf(out, "    <testcase classname=\"%s\" name=\"perfcheck\">\n", cls);
		if (code == PC_EXIT_IO)
			out_buf_s(out, "      <error message=\"input could not be read\"/>\n");
		else if (unexplained)
			/* A reader failure without a diagnostic still fails the case. */
			out_buf_s(out, "      <failure message=\"malformed input\"/>\n");
		out_buf_s(out, "    </testcase>\n");
	}
	out_buf_printf(out, "    <system-out>%s%s</system-out>\n  </testsuite>\n",
		pf->junit_truncated ? "(more findings not kept: report size limit)\n" : "", esc);
}

/* ---- the callback ---- */

void pc_diag(const struct pd_diag *d, void *arg)
{
	struct pc_file *pf = arg;
	const struct pc_opts *o = pf->rep->opts;
	unsigned int sev = sev_index(d->severity);
	unsigned int code = (unsigned int)d->code;
	uint32_t seen = 0;
	char line[1024];

	/*
	 * Past --max-errors nothing more is reported, not even the rest of
	 * the findings of the header or record that reached the limit: N
	 * means N.  Only the note saying so (PD621) follows.
	 */
	if (pf->stop && d->code != PD_MAX_ERRORS)
		return;
	pf->counts[sev]++;
	if (code < PC_MAX_CODE) {
		if (pf->by_code[code] < UINT32_MAX)
			pf->by_code[code]++;
		seen = pf->by_code[code];
	}
	if (d->fatal && !pf->fatal) {
		pf->fatal = true;
		pf->fatal_offset = d->offset;
	}
	if (sev == PD_SEV_ERROR && o->max_errors && pf->counts[PD_SEV_ERROR] >= o->max_errors)
		pf->stop = true;
	/* One damaged field can repeat in every record: show the first ones. */
	if (o->max_per_code && seen > o->max_per_code)
		return;

	switch (o->format) {
	case PC_FMT_TEXT:
		if (o->quiet && !fails(o, d->severity))
			return;
		format_line(line, sizeof(line), pf->name, d);
		put_line(pf->rep->out, line);
		break;
	case PC_FMT_JSON:
		json_finding(pf, d);
		break;
	case PC_FMT_JUNIT:
		junit_finding(pf, d);
		break;
	case PC_FMT_NONE:
		break;
	}
	if (pf->rep->flush_lines)
		out_buf_flush(pf->rep->out);
}

void pc_vfinding(struct pd_diag *d, char *detail, size_t size, enum pd_code code,
		 uint64_t offset, int64_t rec_idx, uint32_t rec_type, const char *stream,
		 const char *fmt, va_list ap)
{
	detail[0] = '\0';
	if (fmt)
		vsnprintf(detail, size, fmt, ap);
	d->code = code;
	d->severity = pd_code_severity(code);
	d->offset = offset;
	d->record_index = rec_idx;
	d->record_type = rec_type;
	d->fatal = false;
	d->stream = stream;
	d->detail = detail;
}

void pc_emit(struct pc_file *pf, enum pd_code code, uint64_t offset, int64_t rec_idx,
	     uint32_t rec_type, const char *stream, const char *fmt, ...)
{
	char detail[PC_DETAIL_MAX];
	struct pd_diag d;
	va_list ap;

	va_start(ap, fmt);
	pc_vfinding(&d, detail, sizeof(detail), code, offset, rec_idx, rec_type, stream, fmt, ap);
	va_end(ap);
	pc_diag(&d, pf);
}

/* ---- documents and files ---- */

void pc_report_begin(struct pc_report *rep, const struct pc_opts *opts, struct out_buf *out)
{
	memset(rep, 0, sizeof(*rep));
	rep->opts = opts;
	rep->out = out;
	if (opts->format == PC_FMT_JSON)
		out_buf_printf(out, "{\"tool\":\"perfcheck\",\"version\":\"%s\",\"files\":[",
			       pd_version());
	else if (opts->format == PC_FMT_JUNIT)
		out_buf_s(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			  "<testsuites name=\"perfcheck\">\n");
}

int pc_report_end(struct pc_report *rep)
{
	struct out_buf *out = rep->out;

	if (rep->opts->format == PC_FMT_JSON)
		out_buf_printf(out, "\n],\"summary\":{\"files\":%u,\"errors\":%" PRIu64
			       ",\"warnings\":%" PRIu64 ",\"notes\":%" PRIu64 ",\"exit_code\":%d}}\n",
			       rep->nr_files, rep->counts[PD_SEV_ERROR], rep->counts[PD_SEV_WARNING],
			       rep->counts[PD_SEV_NOTE], rep->worst);
	else if (rep->opts->format == PC_FMT_JUNIT)
		out_buf_s(out, "</testsuites>\n");
	return rep->worst;
}

void pc_file_begin(struct pc_report *rep, struct pc_file *pf, const char *name)
{
	memset(pf, 0, sizeof(*pf));
	pf->rep = rep;
	pf->name = name;
	if (rep->opts->format == PC_FMT_JSON) {
		out_buf_s(rep->out, rep->nr_files ? ",\n  {\"file\":" : "\n  {\"file\":");
		json_str(rep->out, name);
		out_buf_s(rep->out, ",\"findings\":[");
	}
	rep->nr_files++;
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* Codes that hit --max-per-code, as "PD311 x1234" words. */
static void suppressed_list(const struct pc_file *pf, char *buf, size_t size)
{
	uint64_t lim = pf->rep->opts->max_per_code;
	size_t len = 0;
	unsigned int c;

	buf[0] = '\0';
	if (!lim)
		return;
	for (c = 0; c < PC_MAX_CODE && len + 32 < size; c++) {
		int n;

		if (pf->by_code[c] <= lim)
			continue;
		n = snprintf(buf + len, size - len, "%s%s x%" PRIu32, len ? ", " : "",
			     pd_code_id((enum pd_code)c), pf->by_code[c]);
		if (n < 0)
			break;
		len += (size_t)n;
	}
}

int pc_file_end(struct pc_file *pf, int status)
{
	struct pc_report *rep = pf->rep;
	const struct pc_opts *o = rep->opts;
	struct out_buf *out = rep->out;
	char supp[512], line[1024];
	const char *verdict;
	int code;
	unsigned int i;

	if (status == PD_STATUS_IO || status == PD_STATUS_NOMEM)
		code = PC_EXIT_IO;
	else if (status < 0 || pf->counts[PD_SEV_ERROR] ||
		 (o->strict && pf->counts[PD_SEV_WARNING]))
		code = PC_EXIT_FINDINGS;
	else
		code = PC_EXIT_OK;
	verdict = code == PC_EXIT_OK ? "PASS" : code == PC_EXIT_IO ? "I/O ERROR" : "FAIL";
	for (i = 0; i < 3; i++)
		rep->counts[i] += pf->counts[i];
	/* 3 (cannot read) outranks 1 (malformed): both outrank 0. */
	if (code == PC_EXIT_IO || (code == PC_EXIT_FINDINGS && rep->worst != PC_EXIT_IO))
		rep->worst = code;
	suppressed_list(pf, supp, sizeof(supp));
	snprintf(line, sizeof(line),
		 "%s: %" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " %s: %s%s%s%s",
		 pf->name, pf->records, plural(pf->records, "record", "records"),
		 pf->counts[PD_SEV_ERROR], plural(pf->counts[PD_SEV_ERROR], "error", "errors"),
		 pf->counts[PD_SEV_WARNING], plural(pf->counts[PD_SEV_WARNING], "warning", "warnings"),
		 pf->counts[PD_SEV_NOTE], plural(pf->counts[PD_SEV_NOTE], "note", "notes"), verdict,
		 supp[0] ? " (not all shown: " : "", supp, supp[0] ? ")" : "");

	switch (o->format) {
	case PC_FMT_TEXT:
		if (!o->quiet)
			put_line(out, line);
		break;
	case PC_FMT_JSON:
		out_buf_printf(out, "%s],\"summary\":{\"records\":%" PRIu64 ",\"errors\":%" PRIu64
			",\"warnings\":%" PRIu64 ",\"notes\":%" PRIu64 ",\"result\":\"%s\","
			"\"exit_code\":%d,\"suppressed\":{",
			pf->nr_json ? "\n  " : "", pf->records, pf->counts[PD_SEV_ERROR],
			pf->counts[PD_SEV_WARNING], pf->counts[PD_SEV_NOTE],
			code == PC_EXIT_OK ? "pass" : code == PC_EXIT_IO ? "io_error" : "fail", code);
		if (o->max_per_code) {
			bool first = true;

			for (i = 0; i < PC_MAX_CODE; i++) {
				if (pf->by_code[i] <= o->max_per_code)
					continue;
				out_buf_printf(out, "%s\"%s\":%" PRIu32, first ? "" : ",",
					pd_code_id((enum pd_code)i), pf->by_code[i]);
				first = false;
			}
		}
		out_buf_s(out, "}}}");
		break;
	case PC_FMT_JUNIT:
		junit_file(pf, code, line);
		break;
	case PC_FMT_NONE:
		break;
	}
	if (rep->flush_lines)
		out_buf_flush(out);
	out_buf_free(&pf->junit);
	return code;
}

void pc_list_checks(struct out_buf *out, enum pc_format format)
{
	unsigned int i;
	enum pd_code c;

	if (format == PC_FMT_JSON)
		out_buf_s(out, "{\"checks\":[");
	for (i = 0; (c = pd_code_at(i)) != PD_OK; i++) {
		if (format != PC_FMT_JSON) {
			out_buf_printf(out, "%s  %-7s  %-28s %s\n", pd_code_id(c),
				pd_severity_name(pd_code_severity(c)), pd_code_name(c), pd_code_text(c));
			continue;
		}
		out_buf_s(out, i ? ",\n  {\"code\":" : "\n  {\"code\":");
		json_str(out, pd_code_id(c));
		out_buf_s(out, ",\"severity\":");
		json_str(out, pd_severity_name(pd_code_severity(c)));
		out_buf_s(out, ",\"name\":");
		json_str(out, pd_code_name(c));
		out_buf_s(out, ",\"description\":");
		json_str(out, pd_code_text(c));
		out_buf_c(out, '}');
	}
	if (format == PC_FMT_JSON)
		out_buf_s(out, "\n]}\n");
}
