// SPDX-License-Identifier: MIT
/*
 * fuzz_to_pprof.c - libFuzzer target for `perfconv to-pprof` (samples
 * aggregated by stack, kernel symbols from a small kallsyms, source lines
 * looked up, the gzip-compressed profile written).
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
		"to-pprof", "--kallsyms", "@KALLSYMS@", "-o", "@OUT@", "@IN@", NULL
	};

	fuzz_run_cmd(cmd_to_pprof, args, "out.pb.gz", false, data, size);
	return 0;
}
