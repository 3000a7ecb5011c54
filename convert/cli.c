// SPDX-License-Identifier: MIT
/*
 * cli.c - helpers shared by the perfconv subcommands.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char *cli_progname = CLI_PROGNAME;

const char *cli_mode_name(enum pd_mode mode)
{
	static const char *const names[] = { "file", "pipe", "dir" };

	return (unsigned int)mode < 3 ? names[mode] : "?";
}

