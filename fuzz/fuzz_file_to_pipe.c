// SPDX-License-Identifier: MIT
/*
 * fuzz_file_to_pipe.c - libFuzzer target for `perfconv file-to-pipe` (a
 * perf.data file rewritten as a pipe-mode stream).
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
		"file-to-pipe", "-o", "@OUT@", "@IN@", NULL
	};

	fuzz_run_cmd(cmd_file_to_pipe, args, "out.data", true, data, size);
	return 0;
}
