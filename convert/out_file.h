/* SPDX-License-Identifier: MIT */
/*
 * out_file.h - the output file of a perfconv writer that produces one file.
 *
 * `-o OUT` goes to a temporary file in OUT's directory that is renamed
 * over OUT only once complete, so a failed or interrupted conversion never
 * leaves a truncated file where a reader would take it for a good one.
 * An OUT that is a device or FIFO (/dev/null, a named pipe) is written as
 * it is; no -o means standard output.  Writes retry on EINTR and the first
 * error is remembered: callers write on and check out_file_close().
 */
#ifndef PERFCONV_OUT_FILE_H
#define PERFCONV_OUT_FILE_H

#include <stdbool.h>
#include <stddef.h>

struct out_file {
	int fd;
	int err;		/* errno of the first failed write, 0 if none */
	char *tmp;		/* temporary file beside OUT, NULL otherwise */
	const char *final;	/* OUT, NULL for standard output */
	const char *cmd;	/* command name for messages ("to-proto") */
	bool direct;		/* a device or FIFO, opened as it is */
};

/* Open OUT (`path`), or standard output when NULL.  Returns 0, or -1 after a message. */
int out_file_open(struct out_file *o, const char *cmd, const char *path);

/* Write all of p[0..n); a failure is kept in o->err and later writes do nothing. */
void out_file_write(struct out_file *o, const void *p, size_t n);

/*
 * Close.  `keep` renames the temporary file over OUT; without it the
 * temporary file is removed.  Returns 0, or -1 when the output could not
 * be written completely (after a message naming OUT; for standard output
 * the caller reports o->err).
 */
int out_file_close(struct out_file *o, bool keep);

#endif /* PERFCONV_OUT_FILE_H */
