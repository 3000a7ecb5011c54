/* SPDX-License-Identifier: MIT */
/*
 * fuzz_cmd.h - run one perfconv command on a fuzz input: the shared part
 * of the writer targets (fuzz_to_json.c, fuzz_to_proto.c, ...).
 *
 * The input goes to a memfd, handed to the command as /proc/self/fd/N:
 * a regular, seekable file, so that file mode, pipe mode and the header
 * checks are all reachable, exactly as from the command line.  Outputs go
 * to a private temporary directory removed at exit.  The command runs
 * in-process as perfconv's main() would call it; an exit status outside
 * the documented ones for an input problem (0 and 1, and 2 for a command
 * given the other mode's input) aborts, so that the fuzzer reports it like
 * a crash.
 *
 * Commands print their diagnostics on stderr: the fuzz runs pass
 * -close_fd_mask=3 (scripts/fuzz-run.sh), which keeps libFuzzer's and the
 * sanitizers' own reports.
 */
#ifndef PERFDATA_FUZZ_CMD_H
#define PERFDATA_FUZZ_CMD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "perfdata/pd_writer.h"
#include "../common/tool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fuzz_dir[64];

static inline void fuzz_cleanup(void)
{
	if (fuzz_dir[0])
		tool_remove_tree(fuzz_dir, 2);
}

/* The target's private output directory, made on first use. */
static inline const char *fuzz_tmpdir(void)
{
	if (!fuzz_dir[0]) {
		if (!tool_make_tmpdir(fuzz_dir, sizeof(fuzz_dir), "fuzz-cmd"))
			abort();
		atexit(fuzz_cleanup);
	}
	return fuzz_dir;
}

/*
 * A small kallsyms file in the private directory, given to the commands
 * that symbolize (--kallsyms): kernel frames resolve the same on every
 * machine, and no run reads the running kernel's /proc/kallsyms, which
 * takes most of a second.
 */
static inline const char *fuzz_kallsyms(void)
{
	static char path[128];
	FILE *f;

	if (path[0])
		return path;
	snprintf(path, sizeof(path), "%s/kallsyms", fuzz_tmpdir());
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs("ffffffff81000000 T _stext\n"
	      "ffffffff81000000 T _text\n"
	      "ffffffff81001000 T do_syscall_64\n"
	      "ffffffff81002000 t native_write_msr\n"
	      "ffffffff81003000 T asm_exc_page_fault\n"
	      "ffffffff82000000 T _etext\n"
	      "ffffffffc0000000 t ext4_readpage\t[ext4]\n"
	      "ffffffffc0001000 T ext4_file_read_iter\t[ext4]\n", f);
	if (fclose(f))
		abort();
	return path;
}

/* The input in a memfd; returns the descriptor, its path in *path. */
static inline int fuzz_memfd(const uint8_t *data, size_t size, char *path, size_t n)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);

	if (fd < 0 || pd_write_all(fd, data, size))
		abort();
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

/*
 * Run fn (a perfconv command) with ARGS, "@IN@" standing for the input,
 * "@OUT@" for OUT_NAME in the private directory and "@KALLSYMS@" for the
 * small kallsyms file; `other_mode_ok`
 * allows exit 2 (pipe-to-file on a file, file-to-pipe on a stream).
 */
static inline void fuzz_run_cmd(int (*fn)(int, char **), const char *const *args, const char *out_name,
			 bool other_mode_ok, const uint8_t *data, size_t size)
{
	char in[64], out[128], *argv[16];
	int argc = 0, fd, code;

	snprintf(out, sizeof(out), "%s/%s", fuzz_tmpdir(), out_name);
	fd = fuzz_memfd(data, size, in, sizeof(in));
	for (; *args && argc < 15; args++) {
		if (!strcmp(*args, "@IN@"))
			argv[argc++] = in;
		else if (!strcmp(*args, "@OUT@"))
			argv[argc++] = out;
		else if (!strcmp(*args, "@KALLSYMS@"))
			argv[argc++] = (char *)(uintptr_t)fuzz_kallsyms();
		else
			argv[argc++] = (char *)(uintptr_t)*args;
	}
	argv[argc] = NULL;
	code = fn(argc, argv);
	close(fd);
	if (code != CLI_EXIT_OK && code != CLI_EXIT_MALFORMED &&
	    !(other_mode_ok && code == CLI_EXIT_USAGE)) {
		fprintf(stderr, "fuzz: %s exited with %d on this input\n", argv[0], code);
		abort();
	}
}

#endif /* PERFDATA_FUZZ_CMD_H */
