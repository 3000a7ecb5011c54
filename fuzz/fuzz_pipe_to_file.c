// SPDX-License-Identifier: MIT
/*
 * fuzz_pipe_to_file.c - libFuzzer target for `perfconv pipe-to-file` (a
 * pipe-mode stream rewritten as a perf.data file).
 *
 * The input runs through the command as from the command line (see
 * fuzz_cmd.h); seeds are both corpora, as for the reader's target.
 *
 * Build and run: make fuzz-writers-run FUZZ_SECONDS=N
 */
#include "fuzz_cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const args[] = {
		"pipe-to-file", "-o", "@OUT@", "@IN@", NULL
	};

	fuzz_run_cmd(cmd_pipe_to_file, args, "out.data", true, data, size);
	return 0;
}
