// SPDX-License-Identifier: MIT
/*
 * fuzz_to_json.c - libFuzzer target for `perfconv to-json` (perf's JSON
 * document, samples formatted on the second thread).
 *
 * The input runs through the command as from the command line (see
 * fuzz_cmd.h); seeds are both corpora, as for the reader's target.
 *
 * Tracepoint fields are on: damaged event formats reach libtraceevent
 * through the trial parse in a child process (json_tep.c), which must
 * turn its crashes into a refusal.
 *
 * Build and run: make fuzz-writers-run FUZZ_SECONDS=N
 */
#include "fuzz_cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const args[] = {
		"to-json", "--no-progress", "--kallsyms", "@KALLSYMS@", "-o", "@OUT@",
		"@IN@", NULL
	};

	fuzz_run_cmd(cmd_to_json, args, "out.json", false, data, size);
	return 0;
}
