#!/bin/sh
# SPDX-License-Identifier: MIT
#
# run-cli-tests.sh - exit codes and diagnostics of the perfconv commands.
#
# Usage: PERFCONV=bin/perfconv sh tests/run-cli-tests.sh
# Run from the project root (make test does).  Exit codes of perfconv:
# 0 valid input, 1 malformed input, 2 usage error, 3 I/O error or missing
# file.  Any other code, in particular > 128 (killed by a signal, i.e. a
# crash), fails the test.  JSON validity of `info --json` is checked by the
# corpus suites of unit-tests (jansson); here only that stdout is non-empty.
set -u

PERFCONV=${PERFCONV:-bin/perfconv}
if [ ! -x "$PERFCONV" ]; then
	echo "run-cli-tests: $PERFCONV is not executable" >&2
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli-tests.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0

ok() {
	pass=$((pass + 1))
}

ko() {
	fail=$((fail + 1))
	echo "FAIL: $*"
}

# expect CODE [STDERR_PATTERN] -- perfconv ARGS...
# Runs perfconv with ARGS (stdin from /dev/null unless redirected by the
# caller through run_stdin), checks the exit code and, when given, that
# stderr contains STDERR_PATTERN (fixed string).
expect() {
	want=$1
	pat=$2
	shift 3
	"$PERFCONV" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	check_result "$want" "$pat" "perfconv $*"
}

# expect_stdin CODE PATTERN FILE -- perfconv ARGS...: input from FILE on stdin
expect_stdin() {
	want=$1
	pat=$2
	in=$3
	shift 4
	"$PERFCONV" "$@" >"$tmp/out" 2>"$tmp/err" <"$in"
	check_result "$want" "$pat" "perfconv $* < $in"
}

check_result() {
	got=$?
	if [ "$got" -gt 128 ]; then
		ko "$3: killed by signal $((got - 128)) (crash)"
		sed 's/^/    /' "$tmp/err" | head -20
		return
	fi
	if [ "$got" -ne "$1" ]; then
		ko "$3: exit code $got, expected $1"
		sed 's/^/    /' "$tmp/err" | head -5
		return
	fi
	if [ -n "$2" ] && ! grep -qF -- "$2" "$tmp/err"; then
		ko "$3: stderr lacks '$2'"
		sed 's/^/    /' "$tmp/err" | head -5
		return
	fi
	ok
}

# stdout of the last command must not be empty
expect_stdout() {
	if [ -s "$tmp/out" ]; then
		ok
	else
		ko "$1: empty stdout"
	fi
}

# --- valid inputs: every command succeeds ---------------------------
for f in corpus/basic.data corpus/basic.pipe.data corpus/compressed.data \
	 corpus/callchain-fp.data corpus/stat.data corpus/threads.dir; do
	[ -e "$f" ] || { echo "run-cli-tests: $f missing, skipped"; continue; }
	expect 0 "" -- info "$f"
	expect_stdout "info $f"
	expect 0 "" -- info --json "$f"
	expect_stdout "info --json $f"
	expect 0 "" -- dump "$f"
	expect_stdout "dump $f"
done
if [ -e corpus/basic.pipe.data ]; then
	expect_stdin 0 "" corpus/basic.pipe.data -- info -
	expect_stdin 0 "" corpus/basic.pipe.data -- info --json -
	expect_stdout "info --json - < corpus/basic.pipe.data"
	expect_stdin 0 "" corpus/basic.data -- dump -
fi

# --- malformed inputs: exit 1 and the PD code on stderr ---------------
manifest=corpus/bad/MANIFEST
if [ -f "$manifest" ]; then
	grep -v '^#' "$manifest" | while IFS='|' read -r name code off what; do
		name=$(echo "$name" | tr -d ' ')
		code=$(echo "$code" | tr -d ' ')
		[ -n "$name" ] || continue
		# check-*.data: problems only perfcheck's cross-record pass finds
		# (tests/perfcheck.sh); perfconv reads them like valid files.
		case $name in check-*) continue ;; esac
		printf '%s %s\n' "$name" "$code"
	done >"$tmp/bad.list"
	while read -r name code; do
		f=corpus/bad/$name
		pd=$(printf 'PD%03d' "$code")
		# Warnings alone do not make an input malformed.
		case $code in
		8|13|305) want=0 ;;
		*) want=1 ;;
		esac
		expect "$want" "$pd" -- info "$f"
		expect "$want" "$pd" -- info --json "$f"
		expect "$want" "$pd" -- dump "$f"
	done <"$tmp/bad.list"
else
	ko "$manifest missing"
fi
if [ -f corpus/bad/pipe-truncated.pipe.data ]; then
	expect_stdin 1 PD303 corpus/bad/pipe-truncated.pipe.data -- info -
fi

# --- usage errors: exit 2 ---------------------------------------------
expect 2 "" --
expect 2 "" -- frobnicate
expect 2 "" -- --bogus
expect 2 "" -- info
expect 2 "" -- info --bogus corpus/basic.data
expect 2 "" -- info --json
expect 2 "" -- dump
expect 2 "" -- dump --bogus corpus/basic.data
expect 2 "" -- info corpus/basic.data corpus/basic.data

# --- help and version: exit 0 -----------------------------------------
expect 0 "" -- --help
expect_stdout "--help"
expect 0 "" -- --version
expect_stdout "--version"
expect 0 "" -- info --help
expect 0 "" -- dump --help

# --- missing input: exit 3 --------------------------------------------
expect 3 "" -- info "$tmp/does-not-exist.data"
expect 3 "" -- info --json "$tmp/does-not-exist.data"
expect 3 "" -- dump "$tmp/does-not-exist.data"

# --- -o naming a FIFO or device: written to, never replaced -----------
# (a rename over /dev/null would replace the device with a regular file)
for cmd in to-json to-proto; do
	rm -f "$tmp/fifo" "$tmp/got" "$tmp/want"
	mkfifo "$tmp/fifo" || { ko "mkfifo"; continue; }
	# bounded: a FIFO replaced by the output would leave cat waiting
	timeout 30 cat "$tmp/fifo" > "$tmp/got" &
	reader=$!
	"$PERFCONV" "$cmd" -o "$tmp/fifo" corpus/basic.data 2> "$tmp/err"
	rc=$?
	wait "$reader"
	"$PERFCONV" "$cmd" corpus/basic.data > "$tmp/want" 2> /dev/null
	if [ "$rc" -ne 0 ]; then
		ko "perfconv $cmd -o FIFO: exit $rc, want 0: $(head -1 "$tmp/err")"
	elif [ ! -p "$tmp/fifo" ]; then
		ko "perfconv $cmd -o FIFO: the FIFO was replaced"
	elif [ ! -s "$tmp/want" ] || ! cmp -s "$tmp/got" "$tmp/want"; then
		ko "perfconv $cmd -o FIFO: output differs from stdout's"
	else
		ok
	fi
	ls "$tmp" | grep -q '\.tmp' && ko "perfconv $cmd -o FIFO: left a temporary file"
done

echo "run-cli-tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
