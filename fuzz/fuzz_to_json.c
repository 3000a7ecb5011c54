// SPDX-License-Identifier: MIT
/*
 * fuzz_to_json.c - libFuzzer target for `perfconv to-json` (perf's JSON
 * document, samples formatted on the second thread).
 *
 * The input runs through the command as from the command line (see
 * fuzz_cmd.h); seeds are both corpora, as for the reader's target.
 *
 * --no-trace-fields: libtraceevent crashes on some damaged tracing data
 * inside its own parsers (tep_parse_event and friends); until the tracing
 * data is validated before it reaches the library, this target fuzzes our
 * writer without that path (fuzz/regress/ keeps the inputs that showed it).
 *
 * Build and run: make fuzz-writers-run FUZZ_SECONDS=N
 */
#include "fuzz_cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const args[] = {
		"to-json", "--no-progress", "--no-trace-fields", "--kallsyms", "@KALLSYMS@", "-o", "@OUT@",
		"@IN@", NULL
	};

	fuzz_run_cmd(cmd_to_json, args, "out.json", false, data, size);
	return 0;
}
