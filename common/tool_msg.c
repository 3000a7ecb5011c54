// SPDX-License-Identifier: MIT
/*
 * tool_msg.c - the messages every command prints the same way (tool.h):
 * every "prog: cmd: message" line goes through tool_vmsg().
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/*
 * "prog: cmd: message" (or "prog: message") on stderr, after whatever
 * standard output holds; no newline.  The format attribute (0: a va_list)
 * lets the compiler check the callers' formats through it, which clang's
 * -Wformat-nonliteral asks of a format forwarded as a va_list.
 */
static void tool_vmsg(const char *prog, const char *cmd, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static void tool_vmsg(const char *prog, const char *cmd, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, cmd ? "%s: %s: " : "%s: ", prog, cmd);
	vfprintf(stderr, fmt, ap);
}

int tool_usage_error(const char *prog, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(prog, cmd, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "\nTry '%s %s --help'.\n", prog, cmd);
	else
		fprintf(stderr, "\nTry '%s --help'.\n", prog);
	return TOOL_EXIT_USAGE;
}

void tool_error(const char *prog, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(prog, cmd, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void tool_io_error(const char *prog, const char *what, const char *path, int err)
{
	if (path)
		tool_error(prog, NULL, "cannot %s '%s': %s", what, path, strerror(err));
	else
		tool_error(prog, NULL, "cannot %s standard output: %s", what, strerror(err));
}

/*
 * The value of `key` in a diagnostic's "key=value key=value" detail, up
 * to `stop` (a value may hold spaces: "op=write header errno=5") or, for
 * a quoted value, to its closing quote.  False when the key is absent.
 */
static bool detail_value(const char *detail, const char *key, const char *stop,
			 char *buf, size_t size)
{
	size_t klen = strlen(key), len;
	const char *p = detail, *end;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == detail || p[-1] == ' ') && p[klen] == '=')
			break;
		p += klen;
	}
	if (!p)
		return false;
	p += klen + 1;
	if (*p == '"') {
		p++;
		end = strstr(p, stop[0] == '"' ? stop : "\"");
	} else {
		end = stop ? strstr(p, stop) : NULL;
	}
	if (!end)
		end = p + strcspn(p, " ");
	len = (size_t)(end - p);
	if (len >= size)
		len = size - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return true;
}

/*
 * A failed system call reported by the reader or the writer, in the I/O
 * shape: what was attempted on which path, and why.  Their details name
 * the call (`open errno=2`, `op=create errno=13`, `path=DIR/data errno=2`,
 * lib/reader.c and lib/writer.c).  False when `d` is no such failure.
 */
static bool print_io_diag(const char *prog, const char *name, const struct pd_diag *d)
{
	char op[32] = "read", path[4096], num[16];
	int err;

	if (d->code != PD_IO_ERROR && d->code != PD_WRITE_FAILED && d->code != PD_DIR_NO_DATA)
		return false;
	if (!detail_value(d->detail, "errno", " ", num, sizeof(num)))
		return false;
	err = atoi(num);
	if (d->stream)
		snprintf(path, sizeof(path), "%s/%s", name, d->stream);
	else
		snprintf(path, sizeof(path), "%s", name);
	if (d->code == PD_IO_ERROR && !strncmp(d->detail, "open ", 5)) {
		strcpy(op, "open");
	} else if (d->code == PD_DIR_NO_DATA) {
		strcpy(op, "open");
		detail_value(d->detail, "path", " errno=", path, sizeof(path));
	} else if (d->code == PD_WRITE_FAILED) {
		if (!detail_value(d->detail, "op", " errno=", op, sizeof(op)))
			strcpy(op, "write");
		detail_value(d->detail, "output", "\" op=", path, sizeof(path));
	}
	/* the name the commands give standard output: the one shape of its failure */
	if (!strcmp(path, "<stdout>")) {
		tool_io_error(prog, op, NULL, err);
		return true;
	}
	if (d->offset != PD_NO_OFFSET && d->code == PD_IO_ERROR)
		tool_error(prog, NULL, "cannot %s '%s' at offset 0x%" PRIx64 ": %s", op, path,
			   d->offset, strerror(err));
	else
		tool_io_error(prog, op, path, err);
	return true;
}

/* Append to a line being formatted; a line longer than the buffer is cut. */
static void line_add(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void line_add(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= size - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	*len = (size_t)n < size - *len ? *len + (size_t)n : size - 1;
}

const char *tool_type_name(uint32_t type, char *buf, size_t size)
{
	const char *n = pd_record_type_name(type);

	if (n)
		return n;
	snprintf(buf, size, "UNKNOWN_%" PRIu32, type);
	return buf;
}

const char *tool_feature_name(unsigned int id, char *buf, size_t size)
{
	const char *n = pd_feature_name(id);

	if (n)
		return n;
	snprintf(buf, size, "FEATURE_%u", id);
	return buf;
}

size_t tool_format_diag(char *buf, size_t size, const char *name, const struct pd_diag *d)
{
	char tbuf[24];
	size_t len = 0;

	if (!size)
		return 0;
	buf[0] = '\0';
	line_add(buf, size, &len, "%s", name);
	if (d->stream) {
		size_t n = strlen(name);

		line_add(buf, size, &len, "%s%s", n && name[n - 1] == '/' ? "" : "/", d->stream);
	}
	if (d->offset != PD_NO_OFFSET)
		line_add(buf, size, &len, ":0x%" PRIx64, d->offset);
	line_add(buf, size, &len, ": %s %s", pd_severity_name(d->severity), pd_code_id(d->code));
	if (d->record_index >= 0)
		line_add(buf, size, &len, " [rec#%" PRId64 " %s]", d->record_index,
			 tool_type_name(d->record_type, tbuf, sizeof(tbuf)));
	line_add(buf, size, &len, ": %s", pd_code_text(d->code));
	if (d->detail && d->detail[0])
		line_add(buf, size, &len, " %s", d->detail);
	return len;
}

void tool_print_diag(const char *prog, const char *name, const struct pd_diag *d)
{
	char line[TOOL_DIAG_LINE_MAX];

	if (print_io_diag(prog, name, d))
		return;
	/*
	 * One line per finding so that the output greps and diffs well.
	 * stdout is flushed first: when both go to a terminal or the same
	 * file, a finding then appears next to the output it concerns.
	 */
	tool_format_diag(line, sizeof(line), name, d);
	fflush(stdout);
	fprintf(stderr, "%s\n", line);
}

void tool_diag_init(struct tool_diag *td, const char *prog, const char *path, bool verbose)
{
	memset(td, 0, sizeof(*td));
	td->prog = prog;
	td->name = strcmp(path, "-") ? path : "<stdin>";
	td->verbose = verbose;
}

void tool_diag_cb(const struct pd_diag *d, void *arg)
{
	struct tool_diag *td = arg;
	unsigned int sev = d->severity <= PD_SEV_ERROR ? d->severity : PD_SEV_ERROR;

	td->count[sev]++;
	if (td->hook)
		td->hook(d, td->hook_arg);
	if (td->quiet || (sev == PD_SEV_NOTE && !td->verbose))
		return;
	tool_print_diag(td->prog, td->name, d);
}

int tool_exit_code(int status, const struct tool_diag *td)
{
	if (status == PD_STATUS_IO || status == PD_STATUS_NOMEM)
		return TOOL_EXIT_IO;
	if (status < 0 || td->count[PD_SEV_ERROR])
		return TOOL_EXIT_FAILED;
	return TOOL_EXIT_OK;
}
