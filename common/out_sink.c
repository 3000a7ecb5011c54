// SPDX-License-Identifier: MIT
/*
 * out_sink.c - buffered-writer back end, temporary file and rename (out_sink.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out_sink.h"
#include "perfdata/pd_writer.h"
#include "tool.h"

/*
 * A path naming an existing device or FIFO is written to, never replaced
 * by a renamed temporary file; a directory is refused before any work.
 * Returns its descriptor, -1 after a message when it cannot be opened,
 * NOT_SPECIAL for a regular file or none.
 */
#define NOT_SPECIAL	(-2)

static int open_special(const char *prog, const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0 || S_ISREG(st.st_mode))
		return NOT_SPECIAL;
	if (S_ISDIR(st.st_mode)) {
		tool_io_error(prog, "open", path, EISDIR);
		return -1;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		tool_io_error(prog, "open", path, errno);
	return fd < 0 ? -1 : fd;
}

int out_sink_open(struct out_sink *s, const char *prog, const char *cmd, const char *path,
		  const char *tmp_pattern)
{
	memset(s, 0, sizeof(*s));
	s->prog = prog;
	if (!path) {
		s->fd = STDOUT_FILENO;
		return 0;
	}
	s->final = strdup(path);
	if (!s->final)
		goto nomem;
	s->fd = open_special(prog, path);
	if (s->fd == -1)
		goto fail;
	if (s->fd != NOT_SPECIAL) {
		s->direct = true;
		return 0;
	}
	/* same directory, so that rename() is atomic */
	if (tmp_pattern)
		s->tmp = strdup(tmp_pattern);
	else if (asprintf(&s->tmp, "%s.tmp.XXXXXX", path) < 0)
		s->tmp = NULL;
	if (!s->tmp)
		goto nomem;
	s->fd = mkstemp(s->tmp);
	if (s->fd < 0) {
		tool_io_error(prog, "create", path, errno);
		goto fail;
	}
	return 0;

nomem:
	tool_error(prog, cmd, "out of memory");
fail:
	free(s->tmp);
	free(s->final);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	return -1;
}

/* The rename itself survives a crash once the directory is on disk. */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

void out_sink_write(struct out_sink *s, const void *p, size_t n)
{
	if (!s->err)
		s->err = pd_write_all(s->fd, p, n) ? errno : 0;
}

int out_sink_close(struct out_sink *s, bool keep)
{
	int ret = 0;

	if (s->fd < 0)
		return 0;
	if (s->direct) {
		if (close(s->fd) && !s->err)
			s->err = errno;
	} else if (s->tmp) {
		if (keep && !s->err) {
			/* mkstemp() made it private: give it the usual mode */
			mode_t um = umask(0);

			umask(um);
			if (fchmod(s->fd, s->mode ? (mode_t)s->mode : 0666 & ~um))
				s->err = errno;
		}
		if (close(s->fd) && !s->err)
			s->err = errno;
		if (keep && !s->err && rename(s->tmp, s->final))
			s->err = errno;
		if (!keep || s->err)
			unlink(s->tmp);
		else if (s->sync_dir)
			sync_dir(s->final);
	}
	/*
	 * Without `keep` the command failed already and said why; standard
	 * output's failure is told by the caller with its other findings.
	 */
	if (s->err && keep && s->final) {
		tool_io_error(s->prog, "write", s->final, s->err);
		ret = -1;
	} else if (s->err && keep) {
		ret = -1;
	}
	s->fd = -1;
	s->direct = false;
	free(s->tmp);
	s->tmp = NULL;
	free(s->final);
	s->final = NULL;
	return ret;
}
