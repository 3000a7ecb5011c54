// SPDX-License-Identifier: MIT
/*
 * fuzz_to_proto_compat.c - libFuzzer target for `perfconv to-proto
 * --quipper-compat` (quipper's sorted, merged output).
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
		"to-proto", "--quipper-compat", "-o", "@OUT@", "@IN@", NULL
	};

	fuzz_run_cmd(cmd_to_proto, args, "out.pb", false, data, size);
	return 0;
}
