// SPDX-License-Identifier: MIT
/*
 * tool_path.c - checks of the paths given to the commands (tool.h).
 */
#include <errno.h>
#include <fcntl.h>
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

int tool_check_output(const char *prog, const char *cmd, const char *in, const char *out)
{
	if (!tool_output_is_input(in, out))
		return TOOL_EXIT_OK;
	if (strcmp(out, "-"))
		tool_error(prog, cmd, "output '%s' is the input: refusing to overwrite it", out);
	else
		tool_error(prog, cmd, "standard output is the input: refusing to overwrite it");
	return TOOL_EXIT_USAGE;
}

const char *tool_default_input(const char *prog, const char *cmd)
{
	struct stat st;

	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	if (access("perf.data", F_OK) < 0) {
		tool_error(prog, cmd, "no input file given, and no perf.data in the current directory");
		return NULL;
	}
	return "perf.data";
}

int tool_check_option_path(const char *prog, const char *option, const char *path, bool dir)
{
	char what[64];
	struct stat st;
	int err = 0, fd;

	if (!path)
		return 0;
	if (stat(path, &st) < 0)
		err = errno;
	else if (dir && !S_ISDIR(st.st_mode))
		err = ENOTDIR;
	else if (!dir && S_ISDIR(st.st_mode))
		err = EISDIR;
	else if (dir && access(path, X_OK) < 0)
		err = errno;
	else if (!dir) {
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			err = errno;
		else
			close(fd);
	}
	if (!err)
		return 0;
	snprintf(what, sizeof(what), "use %s", option);
	tool_io_error(prog, what, path, err);
	return -1;
}

int tool_check_sym_paths(const char *prog, const char *symfs, const char *kallsyms,
			 const char *buildid_dir)
{
	if (tool_check_option_path(prog, "--symfs", symfs, true) ||
	    tool_check_option_path(prog, "--kallsyms", kallsyms, false) ||
	    tool_check_option_path(prog, "--buildid-dir", buildid_dir, true))
		return -1;
	return 0;
}
