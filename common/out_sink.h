/* SPDX-License-Identifier: MIT */
/*
 * out_sink.h - where every command's output bytes go.
 *
 * An output path goes to a temporary file beside it that is renamed over
 * the path only once complete, so a failed or interrupted command never
 * leaves a truncated file where a reader would take it for a good one; an
 * output that is a device or FIFO (/dev/null, a named pipe) is written as
 * it is, and no path means standard output.  Every write goes through the
 * core's pd_write_all() (pd_writer.h), which retries on EINTR
 * and after a short write, and the first error is remembered: callers
 * write on and check the result of out_sink_close() once.
 *
 * Writers that format into a buffer of their own (the JSON emitter, the
 * CSV tables) hand it to out_sink_write() or pd_write_all() when full;
 * the perf.data writer of the core (pd_writer.h) writes to s->fd itself.
 */
#ifndef PERFDATA_OUT_SINK_H
#define PERFDATA_OUT_SINK_H

#include <stdbool.h>
#include <stddef.h>

struct out_sink {
	int fd;
	int err;		/* errno of the first failure, 0 if none */
	char *tmp;		/* temporary file beside the output, NULL otherwise */
	char *final;		/* the output's path, NULL for standard output */
	const char *prog;	/* program name for messages ("perfconv") */
	bool direct;		/* a device or FIFO, opened as it is */
	/* set after out_sink_open(), before out_sink_close(): */
	unsigned int mode;	/* permissions of a kept file (0: 0666 less the umask) */
	bool sync_dir;		/* flush the directory after renaming the file into it */
};

/*
 * Open `path`, or standard output when NULL.  A regular (or new) file is
 * written through a temporary file named `tmp_pattern` (a mkstemp()
 * template in the same directory), or "PATH.tmp.XXXXXX" when NULL.
 * `cmd` names the command in messages ("to-proto").  Returns 0, or -1
 * after a message.
 */
int out_sink_open(struct out_sink *s, const char *prog, const char *cmd, const char *path,
		  const char *tmp_pattern);

/* Write all of p[0..n); a failure is kept in s->err and later writes do nothing. */
void out_sink_write(struct out_sink *s, const void *p, size_t n);

/*
 * Close.  `keep` renames the temporary file over the output; without it
 * the temporary file is removed.  Returns 0, or -1 when a kept output
 * could not be written completely (after a message naming it; for
 * standard output the caller reports s->err).  s->err stays set.
 */
int out_sink_close(struct out_sink *s, bool keep);

#endif /* PERFDATA_OUT_SINK_H */
