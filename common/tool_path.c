// SPDX-License-Identifier: MIT
/*
 * tool_path.c - checks of the paths given to the commands (tool.h).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool.h"

static int stat_path(const char *path, int std_fd, struct stat *st)
{
	return strcmp(path, "-") ? stat(path, st) : fstat(std_fd, st);
}

/* The directory `path` is in: its text up to the last '/', or ".". */
static int stat_parent(const char *path, struct stat *st)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t len;

	if (!slash)
		return stat(".", st);
	len = slash == path ? 1 : (size_t)(slash - path);
	if (len >= sizeof(dir))
		return -1;
	memcpy(dir, path, len);
	dir[len] = '\0';
	return stat(dir, st);
}

/* "data" or "data.N", the file names of perf's directory mode */
static bool is_stream_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;

	return !strcmp(base, "data") || !strncmp(base, "data.", 5);
}

bool tool_output_is_input(const char *in, const char *out)
{
	struct stat a, b;

	if (stat_path(in, STDIN_FILENO, &a) < 0)
		return false;
	if (stat_path(out, STDOUT_FILENO, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
	    (S_ISREG(a.st_mode) || S_ISDIR(a.st_mode)))
		return true;
	/* DIR/data, DIR/data.N: the streams of a directory-mode recording */
	if (S_ISDIR(a.st_mode) && is_stream_name(out) && stat_parent(out, &b) == 0)
		return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	return false;
}
