// SPDX-License-Identifier: MIT
/*
 * tool_tmpdir.c - the private directory of a test driver (the mutation
 * driver, the fuzz targets of the commands), made and removed one way.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool.h"

bool tool_make_tmpdir(char *buf, size_t size, const char *name)
{
	const char *t = getenv("TMPDIR");
	size_t n = 0;

	if (t && *t)
		n = (size_t)snprintf(buf, size, "%s/%s.XXXXXX", t, name);
	if (!t || !*t || n >= size)
		n = (size_t)snprintf(buf, size, "/tmp/%s.XXXXXX", name);
	return n < size && mkdtemp(buf);
}

void tool_remove_tree(const char *dir, int depth)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			continue;
		if (depth && !lstat(path, &st) && S_ISDIR(st.st_mode))
			tool_remove_tree(path, depth - 1);
		else
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}
