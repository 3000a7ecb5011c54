#!/bin/sh
# test.sh - the whole test suite, from a fresh machine:
#   1. install build and test dependencies (Debian packages),
#   2. build with -Werror and run unit, corpus and CLI tests,
#   3. rebuild with AddressSanitizer + UndefinedBehaviorSanitizer and run
#      everything again,
#   4. a short libFuzzer run over the reader, seeded with the corpus.
# Set FUZZ_SECONDS to change the fuzz run's length (default 60), SKIP_FUZZ=1
# or SKIP_ASAN=1 to leave a stage out while developing.
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
	make WERROR=1 fuzz-run FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
	make WERROR=1 fuzz-perfcheck-run FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
fi
echo "test.sh: all tests passed"
