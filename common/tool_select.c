// SPDX-License-Identifier: MIT
/*
 * tool_select.c - the input and the sample selection of the commands that
 * read samples (see tool_select.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "tool_select.h"

/* "PROG: CMD: text" (tool.h) */
#define sel_error(cs, ...)	tool_error((cs)->prog, (cs)->cmd, __VA_ARGS__)

void cli_select_init(struct cli_select *cs, const char *prog, const char *cmd)
{
	memset(cs, 0, sizeof(*cs));
	cs->prog = prog;
	cs->cmd = cmd;
}

void cli_select_free(struct cli_select *cs)
{
	pd_select_free(cs->sel);
	cs->sel = NULL;
}

static const struct {
	int opt;
	enum pd_select_key key;
} opt_keys[] = {
	{ CLI_OPT_PID, PD_SELECT_PID },
	{ CLI_OPT_TID, PD_SELECT_TID },
	{ CLI_OPT_COMM, PD_SELECT_COMM },
	{ CLI_OPT_CPU, PD_SELECT_CPU },
	{ CLI_OPT_TIME, PD_SELECT_TIME },
	{ CLI_OPT_EVENT, PD_SELECT_EVENT },
};

#define NR_OPT_KEYS (sizeof(opt_keys) / sizeof(opt_keys[0]))

static int need_sel(struct cli_select *cs)
{
	if (!cs->sel && pd_select_new(&cs->sel) < 0) {
		sel_error(cs, "out of memory");
		return -1;
	}
	return 0;
}

int cli_select_option(struct cli_select *cs, int c, const char *arg)
{
	const char *why;
	size_t i;

	if (c == 'i') {
		if (cs->input) {
			sel_error(cs, "-i given twice ('%s' and '%s')", cs->input, arg);
			return -1;
		}
		cs->input = arg;
		return 1;
	}
	if (c == CLI_OPT_RELTIME) {
		if (need_sel(cs) < 0)
			return -1;
		cs->reltime = true;
		pd_select_set_reltime(cs->sel, true);
		return 1;
	}
	for (i = 0; i < NR_OPT_KEYS; i++) {
		if (opt_keys[i].opt != c)
			continue;
		if (need_sel(cs) < 0)
			return -1;
		if (pd_select_add(cs->sel, opt_keys[i].key, arg, &why) < 0) {
			sel_error(cs, "--%s '%s': %s", pd_select_key_name(opt_keys[i].key), arg, why);
			return -1;
		}
		return 1;
	}
	return 0;
}

int cli_unwind_option(const char *prog, const char *cmd, int c, const char *arg,
		      struct pd_sym_opts *so)
{
	uint64_t v;

	if (c == CLI_OPT_NO_UNWIND) {
		so->no_unwind = true;
		return 1;
	}
	if (c == CLI_OPT_NO_INLINE) {
		so->no_inline = true;
		return 1;
	}
	if (c != CLI_OPT_MAX_STACK)
		return 0;
	/* 127: perf script's default, the kernel's default limit of recorded chains */
	if (!tool_parse_u64(arg, &v) || v < 1 || v > 127) {
		tool_error(prog, cmd, "--max-stack wants a number from 1 to 127, not '%s'", arg);
		return -1;
	}
	so->max_stack = (unsigned int)v;
	return 1;
}

const char *cli_select_input(struct cli_select *cs, int argc, char **argv, int first,
			     const char *fallback)
{
	int left = argc - first;

	if (left > 1 || (left == 1 && cs->input)) {
		sel_error(cs, "too many arguments: one input, given as FILE or -i FILE");
		return NULL;
	}
	if (left == 1)
		return argv[first];
	if (cs->input)
		return cs->input;
	if (fallback)
		return fallback;
	return tool_default_input(cs->prog, cs->cmd);
}

bool cli_select_active(const struct cli_select *cs)
{
	return pd_select_active(cs->sel);
}

void cli_select_reader_opts(struct cli_select *cs, struct pd_reader_opts *ro)
{
	if (cli_select_active(cs))
		ro->select = cs->sel;
}

static void list_events(const struct cli_select *cs, struct pd_reader *r)
{
	size_t i, n = pd_reader_nr_events(r);

	fprintf(stderr, "%s: the recording's events:", cs->prog);
	for (i = 0; i < n; i++) {
		const struct pd_event *e = pd_reader_event(r, i);
		const char *colon = e ? strrchr(e->name, ':') : NULL;
		size_t j;
		bool dup = false;

		if (!e)
			continue;
		/* one line per name (group members share none, but events may) */
		for (j = 0; j < i && !dup; j++) {
			const struct pd_event *o = pd_reader_event(r, j);

			dup = o && !strcmp(o->name, e->name);
		}
		if (dup)
			continue;
		fprintf(stderr, " %s", e->name);
		/* "cycles:u" is also taken as "cycles" */
		if (colon && colon != e->name &&
		    strspn(colon + 1, "ukhIGHpPSDWeb") == strlen(colon + 1) && colon[1])
			fprintf(stderr, " (%.*s)", (int)(colon - e->name), e->name);
	}
	fputc('\n', stderr);
}

/* Does one name of --event ("cycles", "cycles:u") match an event of the recording? */
static bool name_matches(struct pd_reader *r, const char *name, size_t len)
{
	struct pd_select *one = NULL;
	const char *why;
	char buf[512];
	size_t i, n = pd_reader_nr_events(r);
	bool found = false;

	if (len >= sizeof(buf))
		return true;	/* longer than any name perf writes: the reader judges */
	memcpy(buf, name, len);
	buf[len] = '\0';
	/* the reader's own matching rule, with this one name */
	if (pd_select_new(&one) < 0 || pd_select_add(one, PD_SELECT_EVENT, buf, &why) < 0) {
		pd_select_free(one);
		return true;
	}
	for (i = 0; i < n && !found; i++) {
		const struct pd_event *e = pd_reader_event(r, i);

		found = e && pd_select_event_matches(one, e->name);
	}
	pd_select_free(one);
	return found;
}

int cli_select_check(const struct cli_select *cs, struct pd_reader *r, bool at_end)
{
	const char *why = pd_reader_select_error(r);
	const char *events;
	size_t i, n;

	if (!cli_select_active(cs))
		return 0;
	if (why) {
		sel_error(cs, "--time '%s': %s", pd_select_text(cs->sel, PD_SELECT_TIME), why);
		return TOOL_EXIT_USAGE;
	}
	n = pd_reader_nr_events(r);
	/* perf refuses --cpu on a recording whose samples do not say their CPU */
	if (pd_select_text(cs->sel, PD_SELECT_CPU)) {
		for (i = 0; i < n; i++) {
			const struct pd_event *e = pd_reader_event(r, i);

			if (e && !(e->attr.sample_type & PD_SAMPLE_CPU)) {
				sel_error(cs, "--cpu: the samples of event %s do not record their CPU",
					  e->name);
				return TOOL_EXIT_USAGE;
			}
		}
	}
	events = pd_select_text(cs->sel, PD_SELECT_EVENT);
	/* pipe mode announces its events as it goes: judge at the end */
	if (!events || (!at_end && pd_reader_header(r)->mode == PD_MODE_PIPE))
		return 0;
	/* every name of the list must match: a misspelt one is no smaller selection */
	for (;;) {
		size_t len = strcspn(events, ",");

		if (!name_matches(r, events, len)) {
			sel_error(cs, "--event '%.*s': no event of the recording has this name",
				  (int)len, events);
			list_events(cs, r);
			return TOOL_EXIT_USAGE;
		}
		if (!events[len])
			return 0;
		events += len + 1;
	}
}

const char *cli_select_describe(const struct cli_select *cs, char *buf, size_t size)
{
	size_t len = 0;
	unsigned int k;

	buf[0] = '\0';
	if (!cli_select_active(cs))
		return buf;
	for (k = 0; k < PD_SELECT_NR_KEYS; k++) {
		const char *t = pd_select_text(cs->sel, (enum pd_select_key)k);
		int w;

		if (!t)
			continue;
		w = snprintf(buf + len, size - len, "%s--%s %s", len ? " " : "",
			     pd_select_key_name((enum pd_select_key)k), t);
		if (w < 0 || (size_t)w >= size - len)
			return buf;
		len += (size_t)w;
	}
	if (cs->reltime)
		snprintf(buf + len, size - len, "%s--reltime", len ? " " : "");
	return buf;
}
