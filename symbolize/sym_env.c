// SPDX-License-Identifier: MIT
/*
 * sym_env.c - what the symbol loaders (elfsyms.c, unwind.c) see of the
 * machine: its options, files opened under the --symfs root, and notes
 * on what could not be used.  Kept apart from machine.c so that the
 * process model calls the loaders and never the other way round.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "sym_internal.h"

void pd_sym_note(struct pd_sym_env *env, struct pd_dso *d, unsigned int kind, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (d) {
		if (d->notes & kind)
			return;
		d->notes |= kind;
	}
	env->notes++;
	if (!env->opts.note_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	env->opts.note_fn(env->opts.note_arg, d ? d->name : "", msg);
}

static int open_checked(int dirfd, const char *path, bool beneath)
{
	int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
	struct stat sb;
	int fd;

	if (beneath) {
		struct open_how how = {
			.flags = (uint64_t)flags,
			/* absolute links and ".." stay inside the root */
			.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
		};

		fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	} else {
		fd = open(path, flags);
	}
	if (fd < 0)
		return -1;
	/* FIFOs, devices and directories are never read: a name is no command */
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

int pd_sym_open(struct pd_sym_env *env, const char *path, bool under_root)
{
	char full[PATH_MAX], real[PATH_MAX];
	const char *rel = path;
	size_t rl;
	int fd;

	if (!under_root || !env->symfs)
		return open_checked(AT_FDCWD, path, false);
	while (*rel == '/')
		rel++;
	if (!*rel) {
		errno = ENOENT;
		return -1;
	}
	fd = open_checked(env->rootfd, rel, true);
	if (fd >= 0 || errno != ENOSYS)
		return fd;
	/* no openat2: resolve, then require the result to stay under the root */
	if (snprintf(full, sizeof(full), "%s/%s", env->symfs, rel) >= (int)sizeof(full)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (!realpath(full, real))
		return -1;
	rl = strlen(env->symfs);
	if (strncmp(real, env->symfs, rl) || (real[rl] != '/' && real[rl] != '\0')) {
		errno = EXDEV;
		return -1;
	}
	return open_checked(AT_FDCWD, real, false);
}
