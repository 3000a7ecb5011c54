// SPDX-License-Identifier: MIT
/*
 * perfconv.c - entry point: global options and subcommand dispatch.
 *
 *	perfconv [--help|--version] COMMAND [ARGS]
 *
 * The commands come from CLI_COMMANDS in cli.h.  Each run() gets its own
 * argv (argv[0] is the command name) and returns an exit code; only main()
 * ends the process.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct subcmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct subcmd subcmds[] = {
#define _CMD(n, fn, s) { n, fn, s },
	CLI_COMMANDS
#undef _CMD
};

#define NR_SUBCMDS (sizeof(subcmds) / sizeof(subcmds[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: %s [--help|--version] COMMAND [ARGS]\n\n"
		"Read Linux perf.data files (file, pipe or directory mode) and show or\n"
		"convert their content.\n\ncommands:\n", cli_progname);
	for (i = 0; i < NR_SUBCMDS; i++)
		fprintf(f, "  %-14s %s\n", subcmds[i].name, subcmds[i].summary);
	fprintf(f, "\n'%s COMMAND --help' describes a command.\n"
		"Exit status: 0 success, 1 malformed input, 2 usage error,\n"
		"3 I/O or system error.\n",
		cli_progname);
}

int main(int argc, char **argv)
{
	const char *cmd;
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		/* "perfconv help CMD" is "perfconv CMD --help" */
		if (!strcmp(cmd, "help") && argc > 2) {
			for (i = 0; i < NR_SUBCMDS; i++) {
				if (!strcmp(argv[2], subcmds[i].name)) {
					static char help_opt[] = "--help";
					char *hargv[] = { argv[2], help_opt, NULL };

					return subcmds[i].run(2, hargv);
				}
			}
			cli_error("unknown command '%s'", argv[2]);
			return CLI_EXIT_USAGE;
		}
		usage(stdout);
		return tool_finish_output(cli_progname, CLI_EXIT_OK);
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		return tool_print_version(cli_progname);
	}
	if (cmd[0] == '-') {
		cli_error("unknown option '%s'", cmd);
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	for (i = 0; i < NR_SUBCMDS; i++)
		if (!strcmp(cmd, subcmds[i].name))
			return subcmds[i].run(argc - 1, argv + 1);

	cli_error("unknown command '%s'", cmd);
	fprintf(stderr, "Try '%s --help'.\n", cli_progname);
	return CLI_EXIT_USAGE;
}
