// SPDX-License-Identifier: MIT
/*
 * json_tep.c - libtraceevent glue: parse the tracing-data blob (reference
 * §14.1) and print tracepoint fields.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "../common/grow.h"
#include "json/json_tep.h"

/* Formats looked up so far, by tracepoint id: samples repeat a few ids. */
struct jtep_cache {
	uint64_t id;
	struct tep_event *ev;
	struct tep_format_field **fields;
};

struct jtep {
	struct tep_handle *tep;
	unsigned int nr_events;
	struct trace_seq seq;
	struct jtep_cache *cache;
	size_t nr_cache, cap_cache;
};

struct blob {
	const uint8_t *p;
	size_t len, pos;
	bool big;		/* integers of the blob are big-endian */
	bool bad;
};

static uint64_t rd(struct blob *b, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	if (b->bad || b->len - b->pos < n) {
		b->bad = true;
		return 0;
	}
	for (i = 0; i < n; i++) {
		unsigned int k = b->big ? i : n - 1 - i;

		v = v << 8 | b->p[b->pos + k];
	}
	b->pos += n;
	return v;
}

static const char *rd_str(struct blob *b)
{
	const uint8_t *s = b->p + b->pos;
	const uint8_t *nul;

	if (b->bad)
		return NULL;
	nul = memchr(s, 0, b->len - b->pos);
	if (!nul) {
		b->bad = true;
		return NULL;
	}
	b->pos += (size_t)(nul - s) + 1;
	return (const char *)s;
}

/* A pointer to n bytes of the blob, or NULL when they are not all there. */
static const char *rd_bytes(struct blob *b, uint64_t n)
{
	const char *s = (const char *)b->p + b->pos;

	if (b->bad || n > b->len - b->pos) {
		b->bad = true;
		return NULL;
	}
	b->pos += (size_t)n;
	return s;
}

/* libtraceevent wants NUL-terminated text for some parsers: copy. */
/*
 * The next text section (its size in `size_bytes` bytes, then the text)
 * as a NUL-terminated copy, with a second NUL after the first:
 * libtraceevent's printk-format parser takes the format one byte after
 * the ':' it splits a line on, and on a last line without a ':' (or
 * ending in one) that is one byte past the terminating NUL.  NULL when
 * the section is empty, cut short, or the copy cannot be made.
 */
static char *rd_text(struct blob *b, unsigned int size_bytes)
{
	uint64_t n = rd(b, size_bytes);
	const char *s = rd_bytes(b, n);
	char *d = s && n ? malloc((size_t)n + 2) : NULL;

	if (d) {
		memcpy(d, s, (size_t)n);
		d[n] = '\0';
		d[n + 1] = '\0';
	}
	return d;
}

/*
 * Keep only the lines of a printk-format section that have the form
 * "ADDR : FORMAT" with something after the ':'; libtraceevent reads past
 * the end of the text on a line without one, and an empty line ends its
 * parse.  The text is rewritten in place (it only shrinks).
 */
static void keep_printk_lines(char *s)
{
	char *out = s, *line = s;

	while (*line) {
		char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *colon = memchr(line, ':', len);

		if (colon && (size_t)(colon - line) + 1 < len) {
			memmove(out, line, len);
			out += len;
			*out++ = '\n';
		}
		if (!end)
			break;
		line = end + 1;
	}
	*out = '\0';
}

static int parse_events(struct jtep *t, struct blob *b, const char *sys)
{
	uint32_t count = (uint32_t)rd(b, 4), i;

	for (i = 0; i < count && !b->bad; i++) {
		uint64_t sz = rd(b, 8);
		const char *txt = rd_bytes(b, sz);

		if (!txt)
			return -1;
		if (tep_parse_event(t->tep, txt, (unsigned long)sz, sys) == 0)
			t->nr_events++;
	}
	return b->bad ? -1 : 0;
}

static struct jtep *jtep_build(const uint8_t *blob, size_t len, const char **why)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct blob b = { .p = blob, .len = len };
	const char *version, *txt;
	char *kallsyms, *printk, *cmdlines;
	struct jtep *t;
	unsigned int long_size, page_size, i, nr_sys;
	uint64_t sz;
	bool v06;

	*why = NULL;
	if (!blob || len < sizeof(magic) || memcmp(blob, magic, sizeof(magic))) {
		*why = "tracing data has no tracing magic";
		return NULL;
	}
	b.pos = sizeof(magic);
	version = rd_str(&b);
	if (!version) {
		*why = "tracing data version is not terminated";
		return NULL;
	}
	v06 = strcmp(version, "0.6") >= 0;
	b.big = rd(&b, 1) != 0;
	long_size = (unsigned int)rd(&b, 1);
	page_size = (unsigned int)rd(&b, 4);
	if (b.bad) {
		*why = "tracing data ends inside its header";
		return NULL;
	}

	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	/* libtraceevent's own complaints about odd formats would flood stderr */
	tep_set_loglevel(TEP_LOG_NONE);
	t->tep = tep_alloc();
	if (!t->tep) {
		free(t);
		return NULL;
	}
	trace_seq_init(&t->seq);
	tep_set_flag(t->tep, TEP_NSEC_OUTPUT);
	tep_set_file_bigendian(t->tep, b.big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(t->tep, (int)long_size);
	tep_set_page_size(t->tep, (int)page_size);

	/* header_page, header_event */
	txt = rd_bytes(&b, 12);
	if (txt && !memcmp(txt, "header_page", 12)) {
		sz = rd(&b, 8);
		txt = rd_bytes(&b, sz);
		if (txt)
			tep_parse_header_page(t->tep, (char *)(uintptr_t)txt, (unsigned long)sz, (int)long_size);
	} else {
		b.bad = true;
	}
	txt = rd_bytes(&b, 13);
	if (txt && !memcmp(txt, "header_event", 13)) {
		sz = rd(&b, 8);
		rd_bytes(&b, sz);	/* perf does not use it either */
	} else {
		b.bad = true;
	}
	if (!b.bad)
		parse_events(t, &b, "ftrace");
	nr_sys = b.bad ? 0 : (unsigned int)rd(&b, 4);
	for (i = 0; i < nr_sys && !b.bad; i++) {
		const char *sys = rd_str(&b);

		if (!sys || parse_events(t, &b, sys) < 0)
			break;
	}
	/* kallsyms, printk formats and saved cmdlines: used to print some fields */
	kallsyms = b.bad ? NULL : rd_text(&b, 4);
	printk = b.bad ? NULL : rd_text(&b, 4);
	cmdlines = !b.bad && v06 && b.len - b.pos >= 8 ? rd_text(&b, 8) : NULL;
	if (kallsyms)
		tep_parse_kallsyms(t->tep, kallsyms);
	if (printk) {
		keep_printk_lines(printk);
		tep_parse_printk_formats(t->tep, printk);
	}
	if (cmdlines)
		tep_parse_saved_cmdlines(t->tep, cmdlines);
	free(kallsyms);
	free(printk);
	free(cmdlines);
	if (!t->nr_events) {
		*why = b.bad ? "tracing data is truncated" : "tracing data has no event format";
		jtep_free(t);
		return NULL;
	}
	if (b.bad)
		*why = "tracing data is truncated: the formats read so far are used";
	return t;
}

static bool field_fits(struct jtep *t, const struct tep_format_field *f, const void *raw,
		       uint32_t raw_size);

/*
 * The signals a crash inside libtraceevent raises go back to their default
 * action in the trial child, through the system call itself: a sanitizer
 * or fuzzer runtime that intercepts sigaction() would otherwise report the
 * child's crash as one of this process.  With SIG_DFL, no flags and an
 * empty mask the kernel's struct sigaction is all zeros on every
 * architecture, whatever its field order.
 */
/* Set by a sanitizer runtime (a fuzzer uses it to save the crashing input). */
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void default_crash_signals(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGALRM };
	unsigned long ksa[4] = { 0 };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		syscall(SYS_rt_sigaction, sigs[i], ksa, NULL, sizeof(ksa[0]));
	/* a sanitizer's report of libtraceevent's bug ends the child only */
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);
}

/*
 * Everything the formats make libtraceevent do before the first sample:
 * parse them, then print every field of every event over zeroed data.
 */
static int trial_parse(const uint8_t *blob, size_t len)
{
	static const unsigned char zeros[65536];
	const char *why;
	struct jtep *t = jtep_build(blob, len, &why);
	struct tep_event **evs;
	int i, n;

	if (!t)
		return 0;
	evs = tep_list_events(t->tep, TEP_EVENT_SORT_ID);
	for (i = 0; evs && evs[i]; i++) {
		struct tep_format_field **fields = tep_event_fields(evs[i]);

		for (n = 0; fields && fields[n]; n++) {
			if (!field_fits(t, fields[n], zeros, sizeof(zeros)))
				continue;
			trace_seq_reset(&t->seq);
			tep_print_field(&t->seq, (void *)(uintptr_t)zeros, fields[n]);
		}
		free(fields);
	}
	jtep_free(t);
	return 0;
}

/*
 * libtraceevent trusts the format texts it parses and crashes on some
 * damaged ones, far from anything this program can check first.  The
 * formats are therefore parsed once in a child process: when it does not
 * come back cleanly (a signal, or no answer within ten seconds), the
 * tracing data is refused with a reason instead of taking the whole
 * conversion down.  One fork per recording; where fork fails the parse
 * runs here, as it would without the trial.
 */
struct jtep *jtep_new(const uint8_t *blob, size_t len, const char **why)
{
	pid_t pid, got;
	int status;

	*why = NULL;
	pid = fork();
	if (pid == 0) {
		default_crash_signals();
		alarm(10);
		_exit(trial_parse(blob, len));
	}
	if (pid > 0) {
		do
			got = waitpid(pid, &status, 0);
		while (got < 0 && errno == EINTR);
		if (got == pid && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
			*why = "tracing data makes libtraceevent fail (a damaged event format)";
			return NULL;
		}
	}
	return jtep_build(blob, len, why);
}

void jtep_free(struct jtep *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_cache; i++)
		free(t->cache[i].fields);
	free(t->cache);
	trace_seq_destroy(&t->seq);
	tep_free(t->tep);
	free(t);
}

static struct jtep_cache *lookup(struct jtep *t, uint64_t id)
{
	struct jtep_cache *c;
	size_t i;

	for (i = 0; i < t->nr_cache; i++)
		if (t->cache[i].id == id)
			return &t->cache[i];
	if (!grow_array(&t->cache, &t->cap_cache, t->nr_cache + 1, sizeof(*t->cache)))
		return NULL;
	c = &t->cache[t->nr_cache++];
	c->id = id;
	c->ev = id <= INT32_MAX ? tep_find_event(t->tep, (int)id) : NULL;
	c->fields = c->ev ? tep_event_fields(c->ev) : NULL;
	return c;
}

const char *jtep_event_name(struct jtep *t, uint64_t config, const char **system)
{
	struct jtep_cache *c = t ? lookup(t, config) : NULL;

	if (!c || !c->ev)
		return NULL;
	if (system)
		*system = c->ev->system;
	return c->ev->name;
}

/*
 * The printer trusts the data: a field, or the dynamic array a __data_loc
 * word points to, outside the raw data would make it read past the record.
 */
static bool field_fits(struct jtep *t, const struct tep_format_field *f, const void *raw,
		       uint32_t raw_size)
{
	uint64_t loc, off, len;

	if ((uint64_t)(unsigned int)f->offset + (uint64_t)(unsigned int)f->size > raw_size)
		return false;
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
		return true;
	if (f->size < 4)
		return false;
	loc = tep_read_number(t->tep, (const char *)raw + f->offset, 4);
	off = loc & 0xffff;
	len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += (uint64_t)(unsigned int)f->offset + (uint64_t)(unsigned int)f->size;
	return off + len <= raw_size;
}

int jtep_fields(struct jtep *t, uint64_t config, const void *raw, uint32_t raw_size,
		jtep_field_fn fn, void *arg)
{
	struct jtep_cache *c;
	int n = 0;

	if (!t || !raw)
		return 0;
	c = lookup(t, config);
	if (!c || !c->fields)
		return 0;
	for (; c->fields[n]; n++) {
		struct tep_format_field *f = c->fields[n];

		trace_seq_reset(&t->seq);
		if (field_fits(t, f, raw, raw_size))
			tep_print_field(&t->seq, (void *)(uintptr_t)raw, f);
		trace_seq_terminate(&t->seq);
		fn(arg, f->name, t->seq.buffer);
	}
	return n;
}
