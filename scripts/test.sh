#!/bin/sh
# test.sh - the whole test suite, from a fresh machine:
#   1. install build and test dependencies (Debian packages),
#   2. build with -Werror and run unit, corpus and CLI tests,
#   3. rebuild with AddressSanitizer + UndefinedBehaviorSanitizer and run
#      everything again,
#   4. short libFuzzer runs, seeded with both corpora, over the reader,
#      perfcheck and every writer (to-json and --full, to-csv, to-proto
#      and --quipper-compat, pipe-to-file, file-to-pipe, the symbolizer).
# Set FUZZ_SECONDS to change each fuzz target's run (default 25: about
# 4 to 5 minutes for the ten targets), SKIP_FUZZ=1 or SKIP_ASAN=1 to leave
# a stage out while developing.
set -eu
cd "$(dirname "$0")/.."

sh scripts/install-deps.sh --with-fuzz
make -j2 WERROR=1
make WERROR=1 test
if [ "${SKIP_ASAN:-0}" != 1 ]; then
	make -j2 WERROR=1 asan
	make WERROR=1 asan-test
fi
if [ "${SKIP_FUZZ:-0}" != 1 ]; then
	make WERROR=1 fuzz-run FUZZ_SECONDS="${FUZZ_SECONDS:-25}"
	make WERROR=1 fuzz-perfcheck-run FUZZ_SECONDS="${FUZZ_SECONDS:-25}"
	make WERROR=1 fuzz-writers-run FUZZ_SECONDS="${FUZZ_SECONDS:-25}"
fi
echo "test.sh: all tests passed"
