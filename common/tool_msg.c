// SPDX-License-Identifier: MIT
/*
 * tool_msg.c - the error messages every command prints the same way (tool.h).
 */
#include <stdio.h>
#include <string.h>

#include "tool.h"

void tool_io_error(const char *prog, const char *what, const char *path, int err)
{
	fflush(stdout);
	fprintf(stderr, "%s: cannot %s '%s': %s\n", prog, what, path, strerror(err));
}
