// SPDX-License-Identifier: MIT
/*
 * sym_env.c - what the symbol loaders (elfsyms.c, unwind.c) see of the
 * machine: its options, files opened under the --symfs root, and the
 * diagnostics on what could not be used.  Kept apart from machine.c so that the
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

const char *pd_sym_quote(char *buf, size_t size, const char *value)
{
	if (*value && !value[strcspn(value, " \"=")])
		return value;
	snprintf(buf, size, "\"%s\"", value);
	return buf;
}

/* the stream part of pd_sym_at_record(), directory mode only */
void pd_sym_at_stream(struct pd_sym_env *env, const char *stream)
{
	snprintf(env->rec_stream, sizeof(env->rec_stream), "%s", stream);
}

void pd_sym_diag(struct pd_sym_env *env, struct pd_dso *d, enum pd_code code, bool at_record,
		 const char *fmt, ...)
{
	unsigned int slot = (unsigned int)code - PD_SYM_DIAG_FIRST;
	char detail[1024], q[512];
	struct pd_diag dg;
	size_t len = 0;
	va_list ap;

	if (slot >= PD_SYM_DIAG_NR)
		return;
	if (d && code <= PD_SYM_DIAG_DSO_LAST) {
		/* once per DSO: a DSO has one file search and one load */
		if (d->diags & (1ULL << slot))
			return;
		d->diags |= 1ULL << slot;
	}
	/* the unwinder's: every sample is counted, the first one reported */
	if (env->counts[slot]++ && !d)
		return;
	env->notes++;
	if (!env->opts.diag_fn)
		return;
	detail[0] = '\0';
	if (d) {
		snprintf(detail, sizeof(detail), "dso=%s", pd_sym_quote(q, sizeof(q), d->name));
		len = strlen(detail);
	}
	if (fmt[0] && len + 1 < sizeof(detail)) {
		if (len)
			detail[len++] = ' ';
		va_start(ap, fmt);
		vsnprintf(detail + len, sizeof(detail) - len, fmt, ap);
		va_end(ap);
	}
	memset(&dg, 0, sizeof(dg));
	dg.code = code;
	dg.severity = pd_code_severity(code);
	dg.offset = PD_NO_OFFSET;
	dg.record_index = -1;
	if (at_record && env->at_record) {
		dg.offset = env->rec_offset;
		dg.record_index = (int64_t)env->rec_index;
		dg.record_type = env->rec_type;
		dg.stream = env->rec_has_stream ? env->rec_stream : NULL;
	}
	dg.detail = detail;
	env->opts.diag_fn(&dg, env->opts.diag_arg);
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
