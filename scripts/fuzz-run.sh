#!/bin/sh
# SPDX-License-Identifier: MIT
#
# fuzz-run.sh - run one libFuzzer target (the reader's, perfcheck's, or a
# writer's) for a while.
#
# Usage: sh scripts/fuzz-run.sh BINARY SECONDS
#
# Seeds: every file of corpus/ (directories included file by file) and
# corpus/bad/, and the small files of ../shared/corpus when it exists
# (under FUZZ_SEED_MAX_KB, default 1024 KiB: the writer targets take less,
# so that their first pass over the seeds stays short), copied into a
# temporary seed directory that the fuzzer may grow.
# On a crash (or leak, timeout, OOM) the reproducer libFuzzer wrote to
# fuzz/out/ is copied to fuzz/regress/ and the script exits 1.
set -u

if [ $# -ne 2 ]; then
	echo "usage: $0 BINARY SECONDS" >&2
	exit 2
fi
bin=$1
secs=$2
case $secs in
''|*[!0-9]*)
	echo "fuzz-run: SECONDS must be a number, got '$secs'" >&2
	exit 2
	;;
esac
if [ ! -x "$bin" ]; then
	echo "fuzz-run: $bin is not an executable (run make fuzz)" >&2
	exit 2
fi

top=$(cd "$(dirname "$0")/.." && pwd)
seeds=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-seeds.XXXXXX") || exit 1
trap 'rm -rf "$seeds"' EXIT INT TERM
mkdir -p "$top/fuzz/out" "$top/fuzz/regress"

n=0
add_seed() {
	# One flat name per seed: path with / replaced.
	name=$(printf '%s' "$1" | sed 's|^\./||; s|/|_|g')
	cp "$1" "$seeds/$name" && n=$((n + 1))
}

cd "$top" || exit 1
for f in $(find corpus -type f ! -name MANIFEST ! -name '*.md' ! -name 'README*' | sort); do
	add_seed "$f"
done
if [ -d ../shared/corpus ]; then
	for f in $(find ../shared/corpus -type f -size -"${FUZZ_SEED_MAX_KB:-1024}"k ! -name '*.pb_text' \
			! -name '*.buildids' ! -name '*.md' | sort); do
		add_seed "$f"
	done
else
	echo "fuzz-run: ../shared/corpus not found, project seeds only"
fi
echo "fuzz-run: $n seeds, $secs seconds"

# leaks inside libraries we cannot free through (fuzz/lsan.supp says which)
LSAN_OPTIONS="suppressions=$top/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS

before=$(ls fuzz/out 2>/dev/null | sort)
# -close_fd_mask=3: the command targets print diagnostics on stdout and
# stderr; libFuzzer and the sanitizers keep reporting on their own copy.
"$bin" -max_total_time="$secs" -rss_limit_mb=1024 -timeout=25 -close_fd_mask=3 \
	-artifact_prefix=fuzz/out/ "$seeds"
rc=$?
after=$(ls fuzz/out 2>/dev/null | sort)
new=$(printf '%s\n' "$after" | grep -vxF -e "$before" -e '' 2>/dev/null || true)
if [ -z "$before" ]; then
	new=$after
fi

found=0
for f in $new; do
	case $f in
	crash-*|leak-*|timeout-*|oom-*)
		cp "fuzz/out/$f" "fuzz/regress/$f"
		echo "fuzz-run: $f copied to fuzz/regress/ (reproduce: $bin fuzz/regress/$f)"
		found=1
		;;
	esac
done
if [ $rc -ne 0 ] || [ $found -ne 0 ]; then
	echo "fuzz-run: FAILED (fuzzer exit status $rc)" >&2
	exit 1
fi
echo "fuzz-run: no crash in $secs seconds"
exit 0
