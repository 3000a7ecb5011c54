// SPDX-License-Identifier: MIT
/*
 * tool_cli.c - exit codes, option errors and number options of every command (tool.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "tool.h"

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
