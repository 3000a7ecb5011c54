// SPDX-License-Identifier: MIT
/*
 * tool_args.c - the one parser of the commands' command lines (tool_args.h).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"
#include "tool_args.h"

/*
 * The shared groups' options, each with the group that brings it, in the
 * order of --help: -o, then the command's own, then the others.
 */
static const struct {
	unsigned int group;
	struct option opt;
	const char *arg;	/* its argument's name in --help */
	const char *help;
} shared_longopts[] = {
	{ TOOL_ARG_OUTPUT, { "output", required_argument, NULL, 'o' }, "OUT",
	  "write to OUT (replaced only when complete);\ndefault or -: standard output" },
	{ TOOL_ARG_SRCLINE, { "srcline", no_argument, NULL, CLI_OPT_SRCLINE }, NULL,
	  "source lines from debug info" },
	{ TOOL_ARG_SYMBOLS | TOOL_ARG_SYMFS,
	  { "symfs", required_argument, NULL, CLI_OPT_SYMFS }, "DIR",
	  "look for every binary under DIR" },
	{ TOOL_ARG_SYMBOLS, { "kallsyms", required_argument, NULL, CLI_OPT_KALLSYMS }, "FILE",
	  "kernel symbols from FILE" },
	{ TOOL_ARG_BUILDID_DIR, { "buildid-dir", required_argument, NULL, CLI_OPT_BUILDID_DIR },
	  "DIR", "build-id cache (default $PERF_BUILDID_DIR,\n"
	  "else $HOME/.debug; with --symfs, its /.debug)" },
	{ TOOL_ARG_SYMBOLS, { "no-unwind", no_argument, NULL, CLI_OPT_NO_UNWIND }, NULL,
	  "do not unwind the user stack of --call-graph dwarf\n"
	  "samples: the recorded callchain only" },
	{ TOOL_ARG_SYMBOLS, { "no-inline", no_argument, NULL, CLI_OPT_NO_INLINE }, NULL,
	  "no inline frames in unwound stacks\n(perf script --no-inline)" },
	{ TOOL_ARG_SYMBOLS, { "max-stack", required_argument, NULL, CLI_OPT_MAX_STACK }, "N",
	  "at most N callchain entries and N unwound user\n"
	  "frames per sample (1 to 127, default 127)" },
	{ TOOL_ARG_STRICT, { "strict", no_argument, NULL, CLI_OPT_STRICT }, NULL,
	  "stop at the first warning or error in the input" },
	{ TOOL_ARG_VERBOSE, { "verbose", no_argument, NULL, 'v' }, NULL,
	  "also print diagnostics of severity note" },
	/* every command takes -h, --help */
	{ ~0u, { "help", no_argument, NULL, 'h' }, NULL, "show this help" },
	{ TOOL_ARG_VERSION, { "version", no_argument, NULL, 'V' }, NULL, "show the version" },
	{ TOOL_ARG_INPUT | TOOL_ARG_SELECT | TOOL_ARG_INPUTS,
	  { "input", required_argument, NULL, 'i' }, "FILE",
	  "the input (same as the FILE argument)" },
	/* from here on, the selection (printed under its own heading) */
	{ TOOL_ARG_SELECT, { "pid", required_argument, NULL, CLI_OPT_PID }, "LIST",
	  "samples of these processes (12,13)" },
	{ TOOL_ARG_SELECT, { "tid", required_argument, NULL, CLI_OPT_TID }, "LIST",
	  "samples of these threads" },
	{ TOOL_ARG_SELECT, { "comm", required_argument, NULL, CLI_OPT_COMM }, "LIST",
	  "samples of threads with these command names" },
	{ TOOL_ARG_SELECT, { "cpu", required_argument, NULL, CLI_OPT_CPU }, "LIST",
	  "samples taken on these CPUs (0-3,7)" },
	{ TOOL_ARG_SELECT, { "time", required_argument, NULL, CLI_OPT_TIME }, "RANGES",
	  "samples in time ranges as perf script --time\n"
	  "takes them: START,STOP in seconds, several\n"
	  "separated by spaces, 10%/2, 0%-10%,30%-40%" },
	{ TOOL_ARG_SELECT, { "reltime", no_argument, NULL, CLI_OPT_RELTIME }, NULL,
	  "--time is relative to the first sample" },
	{ TOOL_ARG_SELECT, { "event", required_argument, NULL, CLI_OPT_EVENT }, "NAMES",
	  "samples of these events (cycles, cycles:u)" },
};

#define NR_SHARED (sizeof(shared_longopts) / sizeof(shared_longopts[0]))
/* room for the shared options and a command's own (to-json, the most, has 27) */
#define MAX_LONGOPTS 64
#define MAX_SHORTOPTS 64
/* what getopt_long() returns for the long-only flag i of a command */
#define FLAG_VAL 0x1400
/* and for the option i that takes an argument and has no value of its own */
#define OPTION_VAL 0x1500

static bool end_of_flags(const struct tool_flag *f)
{
	return !f->name && !f->short_name;
}

static int flag_val(const struct tool_flag *f, size_t i)
{
	return f->short_name ? f->short_name : FLAG_VAL + (int)i;
}

static int option_val(const struct tool_option *op, size_t i)
{
	return op->opt.val ? op->opt.val : OPTION_VAL + (int)i;
}

static void build_longopts(const struct tool_cmd *cmd, struct option *opts)
{
	const struct tool_flag *f;
	size_t i, n = 0;

	for (i = 0; i < NR_SHARED; i++)
		if (shared_longopts[i].group & cmd->groups)
			opts[n++] = shared_longopts[i].opt;
	for (i = 0, f = cmd->flags; f && !end_of_flags(&f[i]) && n < MAX_LONGOPTS - 1; i++) {
		if (f[i].name)
			opts[n++] = (struct option){ f[i].name, no_argument, NULL, flag_val(&f[i], i) };
	}
	for (i = 0; cmd->options && cmd->options[i].opt.name && n < MAX_LONGOPTS - 1; i++) {
		opts[n] = cmd->options[i].opt;
		opts[n++].val = option_val(&cmd->options[i], i);
	}
	memset(&opts[n], 0, sizeof(opts[n]));
}

/*
 * ":o:vhVi:" and the command's own: a leading ':' reports a missing
 * argument, a '+' before it ends the options at the first operand.
 */
static void build_shortopts(const struct tool_cmd *cmd, char *buf, size_t size)
{
	unsigned int g = cmd->groups;
	const struct tool_flag *f;
	size_t i, n;

	n = (size_t)snprintf(buf, size, "%s:%s%sh%s%s%s", g & TOOL_ARG_OPERANDS ? "+" : "",
			     g & TOOL_ARG_OUTPUT ? "o:" : "",
			     g & TOOL_ARG_VERBOSE ? "v" : "", g & TOOL_ARG_VERSION ? "V" : "",
			     g & (TOOL_ARG_INPUT | TOOL_ARG_SELECT | TOOL_ARG_INPUTS) ? "i:" : "",
			     cmd->shortopts ? cmd->shortopts : "");
	for (i = 0, f = cmd->flags; f && !end_of_flags(&f[i]) && n < size - 1; i++)
		if (f[i].short_name)
			buf[n++] = f[i].short_name;
	buf[n < size ? n : size - 1] = '\0';
}

/* The command's own bool option `c`, or NULL. */
static const struct tool_flag *own_flag(const struct tool_cmd *cmd, int c)
{
	const struct tool_flag *f = cmd->flags;
	size_t i;

	for (i = 0; f && !end_of_flags(&f[i]); i++)
		if (flag_val(&f[i], i) == c)
			return &f[i];
	return NULL;
}

/*
 * One of the command's own options that take an argument: its entry, or
 * NULL for one given by shortopts alone (*own is true for both).
 */
static const struct tool_option *own_option(const struct tool_cmd *cmd, int c, bool *own)
{
	size_t i;

	*own = false;
	if (c == '?' || c == ':')
		return NULL;
	for (i = 0; cmd->options && cmd->options[i].opt.name; i++)
		if (option_val(&cmd->options[i], i) == c) {
			*own = true;
			return &cmd->options[i];
		}
	*own = cmd->shortopts && c < 256 && strchr(cmd->shortopts, c);
	return NULL;
}

/* "A, B or C" into buf, cut to size - 1 bytes */
static void join_choices(char *buf, size_t size, const char *const *choices)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; choices[i] && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
				      !i ? "" : choices[i + 1] ? ", " : " or ", choices[i]);
}

/*
 * The argument of an option the parser stores: 0 when taken, else the
 * exit code after a message.
 */
static int store_option(const struct tool_cmd *cmd, const struct tool_option *op,
			const char *arg, void *ctx)
{
	void *value = (char *)ctx + op->offset;
	char list[256];
	unsigned int i;

	if (op->kind == TOOL_OPTION_U64) {
		if (tool_parse_u64(arg, value))
			return 0;
		return tool_usage_error(cmd->prog, cmd->name, "--%s needs a number, got '%s'",
					op->opt.name, arg);
	}
	for (i = 0; op->choices[i]; i++)
		if (!strcmp(arg, op->choices[i])) {
			*(unsigned int *)value = i;
			return 0;
		}
	join_choices(list, sizeof(list), op->choices);
	return tool_usage_error(cmd->prog, cmd->name, "unknown %s '%s' (%s)", op->opt.name, arg,
				list);
}

/* -i FILE or a FILE argument of a command of several inputs */
static void add_input(struct tool_args *a, const char *path)
{
	a->inputs[a->nr_inputs++] = path;
}

/* A shared option that is no selection or stack option: true when taken. */
static bool shared_option(struct tool_args *a, int c, const char *arg)
{
	switch (c) {
	case 'o':
		/* "-" is standard output, as for the input */
		a->output = strcmp(arg, "-") ? arg : NULL;
		return true;
	case 'v':
		a->verbose = true;
		return true;
	case CLI_OPT_STRICT:
		a->strict = true;
		return true;
	case CLI_OPT_SYMFS:
		a->so.symfs = arg;
		return true;
	case CLI_OPT_KALLSYMS:
		a->so.kallsyms = arg;
		return true;
	case CLI_OPT_BUILDID_DIR:
		a->so.buildid_dir = arg;
		return true;
	case CLI_OPT_SRCLINE:
		a->so.srcline = true;
		return true;
	default:
		return false;
	}
}

/*
 * An option that is neither the command's own nor handled above: a stack
 * option when `so` is not NULL, a selection or input option, or a usage
 * error naming the command.  Returns 0 when it was taken, else the exit
 * code (2) after a message.
 */
static int select_or_stack_option(struct cli_select *cs, struct pd_sym_opts *so, int c,
				  const char *arg, int argc, char **argv)
{
	int taken;

	if (so) {
		taken = cli_unwind_option(cs->prog, cs->cmd, c, arg, so);
		if (taken)
			return taken < 0 ? TOOL_EXIT_USAGE : 0;
	}
	taken = cli_select_option(cs, c, arg);
	if (taken > 0)
		return 0;
	return taken < 0 ? TOOL_EXIT_USAGE : tool_bad_option(cs->prog, cs->cmd, argc, argv, c);
}

/* Option `c` from getopt_long(): 0 when taken, else the exit code after a message. */
static int take_option(const struct tool_cmd *cmd, struct tool_args *a, void *ctx, int c,
		       int argc, char **argv)
{
	const struct tool_flag *flag = own_flag(cmd, c);
	bool symbols = cmd->groups & TOOL_ARG_SYMBOLS;
	const struct tool_option *op;
	bool own;

	if (flag) {
		*(bool *)((char *)ctx + flag->offset) = flag->value;
		return 0;
	}
	op = own_option(cmd, c, &own);
	if (op && op->kind != TOOL_OPTION_CALL)
		return store_option(cmd, op, optarg, ctx);
	if (own)
		return cmd->option(c, optarg, ctx);
	if (c == 'i' && (cmd->groups & TOOL_ARG_INPUTS)) {
		add_input(a, optarg);
		return 0;
	}
	if (shared_option(a, c, optarg))
		return 0;
	return select_or_stack_option(&a->cs, symbols ? &a->so : NULL, c, optarg, argc, argv);
}

/* The checks of a parsed command line: 0, or the exit code after a message. */
static int check_args(const struct tool_cmd *cmd, struct tool_args *a)
{
	const char *prog = cmd->prog, *name = cmd->name;

	if ((cmd->groups & TOOL_ARG_NAMED) && a->output && !*a->output) {
		tool_error(prog, name, "empty output name");
		return TOOL_EXIT_USAGE;
	}
	if ((cmd->groups & TOOL_ARG_OUTPUT) &&
	    tool_check_output(prog, name, a->input, a->output ? a->output : "-"))
		return TOOL_EXIT_USAGE;
	if (tool_check_sym_paths(prog, a->so.symfs, a->so.kallsyms, a->so.buildid_dir))
		return TOOL_EXIT_USAGE;
	/* a binary stream on a terminal is garbage and no use */
	if (cmd->binary && !a->output && isatty(STDOUT_FILENO)) {
		tool_error(prog, name, "refusing to write %s to a terminal", cmd->binary);
		fprintf(stderr, "Use -o OUT, or %s: %s %s %s %s\n", cmd->binary_how, prog, name,
			a->input, cmd->binary_tail);
		return TOOL_EXIT_USAGE;
	}
	return 0;
}

/*
 * Every FILE argument after the -i ones, in the order given; none: perf's
 * rule (tool_default_input()).  Returns the first, or NULL after a message.
 */
static const char *find_inputs(struct tool_args *a, int argc, char **argv, int first)
{
	int i;

	for (i = first; i < argc; i++)
		add_input(a, argv[i]);
	if (!a->nr_inputs) {
		a->inputs[0] = tool_default_input(a->cmd->prog, a->cmd->name);
		a->nr_inputs = a->inputs[0] ? 1 : 0;
	}
	return a->inputs[0];
}

int tool_args_parse(const struct tool_cmd *cmd, int argc, char **argv, struct tool_args *a,
		    void *ctx)
{
	struct option longopts[MAX_LONGOPTS];
	char shortopts[MAX_SHORTOPTS];
	int c, code;

	memset(a, 0, sizeof(*a));
	a->cmd = cmd;
	cli_select_init(&a->cs, cmd->prog, cmd->name);
	if (cmd->groups & TOOL_ARG_INPUTS) {
		/* at most every argument, and the end */
		a->inputs = calloc((size_t)argc + 1, sizeof(*a->inputs));
		if (!a->inputs) {
			tool_error(cmd->prog, cmd->name, "out of memory");
			tool_args_free(a);
			return TOOL_EXIT_IO;
		}
	}
	build_longopts(cmd, longopts);
	build_shortopts(cmd, shortopts, sizeof(shortopts));
	/* glibc: optind 0 also resets the state kept between calls */
	optind = 0;
	/* every command words its usage errors the same way (tool_bad_option()) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == 'h') {
			tool_args_usage(cmd, stdout);
			tool_args_free(a);
			return tool_finish_output(cmd->prog, TOOL_EXIT_OK);
		}
		if (c == 'V' && (cmd->groups & TOOL_ARG_VERSION)) {
			tool_args_free(a);
			return tool_print_version(cmd->prog);
		}
		code = take_option(cmd, a, ctx, c, argc, argv);
		if (code) {
			tool_args_free(a);
			return code;
		}
	}
	if (cmd->groups & TOOL_ARG_OPERANDS) {
		a->operands = argv + optind;
		a->nr_operands = argc - optind;
	}
	code = cmd->check ? cmd->check(a, ctx) : TOOL_ARGS_RUN;
	if (code != TOOL_ARGS_RUN) {
		tool_args_free(a);
		return code;
	}
	if (cmd->groups & TOOL_ARG_OPERANDS)
		return TOOL_ARGS_RUN;
	if (cmd->groups & TOOL_ARG_INPUTS)
		a->input = find_inputs(a, argc, argv, optind);
	else
		a->input = cli_select_input(&a->cs, argc, argv, optind, cmd->default_input);
	if (!a->input)
		tool_args_usage(cmd, stderr);
	code = a->input ? check_args(cmd, a) : TOOL_EXIT_USAGE;
	if (code) {
		tool_args_free(a);
		return code;
	}
	return TOOL_ARGS_RUN;
}

void tool_args_free(struct tool_args *a)
{
	cli_select_free(&a->cs);
	free(a->inputs);
	a->inputs = NULL;
	a->nr_inputs = 0;
}

/* where the help of every option starts */
#define HELP_COLUMN 24

static void print_option(FILE *f, char short_name, const char *name, const char *arg,
			 const char *help)
{
	const char *nl;
	int n;

	if (name)
		n = short_name ? fprintf(f, "  -%c, --%s", short_name, name) :
				 fprintf(f, "      --%s", name);
	else
		n = fprintf(f, "  -%c", short_name);
	if (arg)
		n += fprintf(f, " %s", arg);
	fprintf(f, "%*s", n < HELP_COLUMN ? HELP_COLUMN - n : 1, "");
	while ((nl = strchr(help, '\n'))) {
		fprintf(f, "%.*s\n%*s", (int)(nl - help), help, HELP_COLUMN, "");
		help = nl + 1;
	}
	fprintf(f, "%s\n", help);
}

static void print_shared(FILE *f, const struct tool_cmd *cmd, size_t i)
{
	const struct option *o = &shared_longopts[i].opt;
	const char *arg = shared_longopts[i].arg, *help = shared_longopts[i].help;
	const struct tool_help *h;

	for (h = cmd->help; h && h->name; h++)
		if (!strcmp(h->name, o->name)) {
			arg = h->arg ? h->arg : arg;
			help = h->help;
		}
	print_option(f, o->val < 256 ? (char)o->val : 0, o->name, arg, help);
}

void tool_args_usage(const struct tool_cmd *cmd, FILE *f)
{
	const struct tool_flag *fl = cmd->flags;
	const struct tool_option *op;
	bool heading = false;
	size_t i;

	fputs(cmd->help_head, f);
	if (cmd->groups & TOOL_ARG_OUTPUT)
		print_shared(f, cmd, 0);
	for (i = 0; fl && !end_of_flags(&fl[i]); i++)
		print_option(f, fl[i].short_name, fl[i].name, NULL, fl[i].help);
	for (op = cmd->options; op && op->opt.name; op++)
		print_option(f, op->opt.val > 0 && op->opt.val < 256 ? (char)op->opt.val : 0,
			     op->opt.name, op->arg, op->help);
	for (i = 1; i < NR_SHARED; i++) {
		if (!(shared_longopts[i].group & cmd->groups))
			continue;
		if (shared_longopts[i].group == TOOL_ARG_SELECT && !heading) {
			fputs("\nSelection (only samples are selected; other records are kept, "
			      "as perf does):\n", f);
			heading = true;
		}
		print_shared(f, cmd, i);
	}
	if (cmd->help_tail)
		fprintf(f, "\n%s", cmd->help_tail);
}
