// SPDX-License-Identifier: MIT
/*
 * tool_cli.c - exit codes, usage errors and number options of every command (tool.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

int tool_bad_option(const char *prog, const char *cmd, int argc, char **argv, int c)
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "?";

	if (c == ':')
		return tool_usage_error(prog, cmd, "option '%s' needs an argument", arg);
	/* getopt_long() sets optopt for an unknown short option only */
	if (optopt)
		return tool_usage_error(prog, cmd, "unknown option '-%c'", optopt);
	return tool_usage_error(prog, cmd, "unknown option '%s'", arg);
}

bool tool_parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

int tool_print_version(const char *prog)
{
	printf("%s %s\n", prog, pd_version());
	return tool_finish_output(prog, TOOL_EXIT_OK);
}

int tool_finish_output(const char *prog, int code)
{
	/* fflush() reports a failed write of buffered data, ferror() an earlier one */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		tool_io_error(prog, "write", NULL, errno ? errno : EIO);
		return TOOL_EXIT_IO;
	}
	return code;
}
