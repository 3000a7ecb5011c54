// SPDX-License-Identifier: MIT
/*
 * fuzz_perfcheck.c - libFuzzer target for the validator pass.
 *
 * The input goes to a memfd so that the reader and the validator's own
 * layout re-read (pread of the header, attrs and feature table) both see
 * a regular file.  Findings are formatted as JSON into an output buffer
 * held in memory: the escaping of damaged strings is part of what is
 * fuzzed, and nothing reaches the terminal.  --max-errors is left off so the whole input is
 * walked; small reader limits keep each run fast.
 *
 * Build and run: make fuzz-perfcheck-run FUZZ_SECONDS=60
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfcheck.h"
#include "perfdata/pd_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pc_opts o = { .format = PC_FMT_JSON, .max_per_code = 4 };
	struct pc_report rep;
	struct out_buf out;
	int fd;

	fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	if (fd < 0 || pd_write_all(fd, data, size))
		abort();
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	if (out_buf_init(&out, -1, 0))
		abort();
	o.window_size = 256 << 10;
	o.max_decompressed = 16 << 20;
	pc_report_begin(&rep, &o, &out);
	pc_check_fd(&rep, fd, "fuzz");
	pc_report_end(&rep);
	out_buf_free(&out);
	close(fd);
	return 0;
}
