// SPDX-License-Identifier: MIT
/*
 * out_file.c - temporary file and rename for one-file writers (out_file.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "out_file.h"

int out_file_open(struct out_file *o, const char *cmd, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	if (!path) {
		o->fd = STDOUT_FILENO;
		return 0;
	}
	o->final = path;
	o->fd = cli_open_special(cmd, path);
	if (o->fd == -1)
		return -1;
	if (o->fd >= 0) {
		o->direct = true;
		return 0;
	}
	/* same directory, so that rename() is atomic */
	if (asprintf(&o->tmp, "%s.tmp.XXXXXX", path) < 0) {
		o->tmp = NULL;
		cli_error("%s: out of memory", cmd);
		return -1;
	}
	o->fd = mkstemp(o->tmp);
	if (o->fd < 0) {
		tool_io_error(cli_progname, "create", path, errno);
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	return 0;
}

void out_file_write(struct out_file *o, const void *p, size_t n)
{
	const char *s = p;
	size_t done = 0;

	while (!o->err && done < n) {
		ssize_t w = write(o->fd, s + done, n - done);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			o->err = errno;
			break;
		}
		done += (size_t)w;
	}
}

int out_file_close(struct out_file *o, bool keep)
{
	int ret = 0;

	if (o->direct) {
		o->direct = false;
		if (close(o->fd) && !o->err)
			o->err = errno;
		if (o->err && keep) {
			tool_io_error(cli_progname, "write", o->final, o->err);
			return -1;
		}
		return 0;
	}
	if (!o->tmp)
		return o->err ? -1 : 0;
	if (keep && !o->err) {
		/* mkstemp() made it private: give it the usual mode */
		mode_t um = umask(0);

		umask(um);
		if (fchmod(o->fd, 0666 & ~um))
			o->err = errno;
	}
	if (close(o->fd) && !o->err)
		o->err = errno;
	if (keep && !o->err && rename(o->tmp, o->final))
		o->err = errno;
	if (!keep || o->err)
		unlink(o->tmp);
	if (o->err) {
		tool_io_error(cli_progname, "write", o->final, o->err);
		ret = -1;
	}
	free(o->tmp);
	o->tmp = NULL;
	return ret;
}
