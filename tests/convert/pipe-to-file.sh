#!/bin/sh
# SPDX-License-Identifier: MIT
#
# pipe-to-file.sh - perfconv pipe-to-file and file-to-pipe: exit codes,
# truncated streams, and fidelity against the machine's perf.
#
# Usage: O=bin sh tests/convert/pipe-to-file.sh     (make test sets O)
# Run from the project root.  Fidelity checks need perf; without it they
# are counted as skipped and the rest still runs.  For every pipe-mode
# file of corpus/ and ../shared/corpus/quipper:
#   - perf script on the converted file prints what perf script prints for
#     the stream given on stdin (default fields, and a fixed field list);
#   - perf report --header-only on it shows the features the stream
#     carried (host name, OS release, perf version, command line, CPU
#     description, events);
#   - perfcheck (when built) finds no error in it.
# For every file-mode file of corpus/: file-to-pipe then pipe-to-file
# gives a file whose perf script output is the original's.
set -u

O=${O:-bin}
PERFCONV=$O/perfconv
PERFCHECK=$O/perfcheck
SHARED=../shared/corpus/quipper
FIELDS=comm,tid,time,event,ip,sym,dso

if [ ! -x "$PERFCONV" ]; then
	echo "pipe-to-file: $PERFCONV is not executable" >&2
	exit 1
fi
TEST=pipe-to-file
. "$(dirname "$0")/../harness.sh"
test_tmpdir pipe-to-file
tmp=$T
same=0
total=0
unreadable=0
no_perf=0	# comparisons with perf that could not run
no_check=0	# perfcheck runs that could not run

# expect CODE DESCRIPTION -- COMMAND...: run, check the exit code
expect() {
	want=$1
	what=$2
	shift 3
	"$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
	got=$?
	if [ "$got" -eq "$want" ]; then
		ok
	else
		ko "$what: exit $got, want $want ($(head -n 2 "$tmp/err" | tr '\n' ' '))"
	fi
}

have_perf=0
. "$(dirname "$0")/../find-perf.sh"
if [ -n "$PERF" ]; then
	have_perf=1
fi
have_check=0
[ -x "$PERFCHECK" ] && have_check=1

# ---- command line and exit codes ----

expect 0 "help" -- "$PERFCONV" pipe-to-file --help
expect 0 "help" -- "$PERFCONV" file-to-pipe --help
expect 2 "unknown option" -- "$PERFCONV" pipe-to-file --bogus corpus/basic.pipe.data
expect 2 "too many arguments" -- "$PERFCONV" pipe-to-file -o "$tmp/x" a b
expect 2 "file-to-pipe without input" -- "$PERFCONV" file-to-pipe
expect 3 "missing input" -- "$PERFCONV" pipe-to-file -o "$tmp/x" "$tmp/does-not-exist"
expect 2 "file-mode input" -- "$PERFCONV" pipe-to-file -o "$tmp/x" corpus/basic.data
expect 2 "pipe-mode input" -- "$PERFCONV" file-to-pipe -o "$tmp/x" corpus/basic.pipe.data
expect 1 "not perf data" -- "$PERFCONV" pipe-to-file -o "$tmp/x" corpus/README.md
[ -e "$tmp/x" ] && ko "failed conversion left $tmp/x behind"
cp corpus/basic.pipe.data "$tmp/same.data"
expect 2 "output is the input" -- "$PERFCONV" pipe-to-file -o "$tmp/same.data" "$tmp/same.data"
cmp -s corpus/basic.pipe.data "$tmp/same.data" || ko "refused conversion changed its input"
expect 2 "output directory" -- "$PERFCONV" pipe-to-file -o "$tmp" corpus/basic.pipe.data

# standard output: a pipe is refused clearly, a regular file works
"$PERFCONV" pipe-to-file < corpus/basic.pipe.data 2> "$tmp/err" | cat > /dev/null
if grep -q "not seekable" "$tmp/err"; then ok; else ko "unseekable stdout not reported"; fi
if "$PERFCONV" pipe-to-file < corpus/basic.pipe.data > "$tmp/stdout.data" 2> "$tmp/err" &&
   "$PERFCONV" info "$tmp/stdout.data" 2>/dev/null | grep -q "^mode: file"; then
	ok
else
	ko "pipe-to-file to a regular stdout: $(head -n 1 "$tmp/err")"
fi
if "$PERFCONV" file-to-pipe corpus/basic.data 2> "$tmp/err" |
   "$PERFCONV" pipe-to-file -o "$tmp/rt.data" - 2>> "$tmp/err" &&
   "$PERFCONV" info "$tmp/rt.data" > /dev/null 2>&1; then
	ok
else
	ko "file-to-pipe | pipe-to-file: $(head -n 1 "$tmp/err")"
fi

# the writer's findings name the output: <stdout>, or the -o path
# (a command line of 90 KB is a CMDLINE feature that no pipe record holds)
if [ $have_perf = 1 ] && perf_can_record "$tmp"; then
	arg=$(head -c 30000 /dev/zero | tr '\0' a)
	"$PERF" record -N -q -e task-clock:u -o "$tmp/long.data" -- true "$arg" "$arg" "$arg" \
		> /dev/null 2>&1
	"$PERFCONV" file-to-pipe "$tmp/long.data" > "$tmp/long.pipe" 2> "$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] && grep -q "^<stdout>:0x[0-9a-f]*: warning PD703: .* feature=CMDLINE" "$tmp/err"; then
		ok
	else
		ko "file-to-pipe > stdout: exit $rc, PD703 not named <stdout>: $(head -n 1 "$tmp/err")"
	fi
	"$PERFCONV" file-to-pipe -o "$tmp/long2.pipe" "$tmp/long.data" 2> "$tmp/err"
	if grep -qF "$tmp/long2.pipe:0x" "$tmp/err" && cmp -s "$tmp/long.pipe" "$tmp/long2.pipe"; then
		ok
	else
		ko "file-to-pipe -o: PD703 not named after the output, or output differs from stdout's"
	fi
else
	sk "the writer's diagnostics on stdout: no perf recording here: $PERF_MISSING"
	sk "the writer's diagnostics on -o: no perf recording here: $PERF_MISSING"
fi

# ---- a stream cut inside a record (a killed perf record -o -) ----

size=$(wc -c < corpus/basic.pipe.data)
head -c $((size - 20)) corpus/basic.pipe.data > "$tmp/cut.pipe.data"
expect 0 "truncated stream" -- "$PERFCONV" pipe-to-file -o "$tmp/cut.data" "$tmp/cut.pipe.data"
if grep -q "warning.*ends early" "$tmp/err" && grep -q ":0x[0-9a-f]*:" "$tmp/err" &&
   [ -s "$tmp/cut.data" ]; then
	ok
else
	ko "truncated stream: no warning with offset, or no output"
fi
expect 1 "truncated stream --strict" -- \
	"$PERFCONV" pipe-to-file --strict -o "$tmp/cut-strict.data" "$tmp/cut.pipe.data"
[ -e "$tmp/cut-strict.data" ] && ko "--strict left output behind"
ls -a "$tmp" | grep -q '^\.cut-strict' && ko "--strict left a temporary file behind"
if [ $have_perf = 1 ]; then
	"$PERF" script -i - < "$tmp/cut.pipe.data" > "$tmp/cut.a" 2> /dev/null
	"$PERF" script -i "$tmp/cut.data" > "$tmp/cut.b" 2> /dev/null
	if cmp -s "$tmp/cut.a" "$tmp/cut.b"; then ok; else ko "truncated stream: perf script differs"; fi
else
	no_perf=$((no_perf + 1))
fi

corrupted=$SHARED/perf.data.piped.corrupted.zero_size_sample-3.2
if [ -f "$corrupted" ]; then
	expect 0 "corrupted stream" -- "$PERFCONV" pipe-to-file -o "$tmp/corr.data" "$corrupted"
	if grep -q "warning.*ends early" "$tmp/err" && [ -s "$tmp/corr.data" ]; then
		ok
	else
		ko "corrupted stream: no warning or no partial output"
	fi
	expect 1 "corrupted stream --strict" -- \
		"$PERFCONV" pipe-to-file --strict -o "$tmp/corr-strict.data" "$corrupted"
	[ -e "$tmp/corr-strict.data" ] && ko "--strict left output behind (corrupted)"
fi

# ---- fidelity: pipe-mode corpus ----

# header lines perf report --header-only prints for features of the stream
header_check() {	# IN OUT
	"$PERFCONV" info "$1" > "$tmp/info" 2> /dev/null
	"$PERF" report --header-only -i "$2" > "$tmp/hdr" 2> /dev/null
	for pair in HOSTNAME:hostname OSRELEASE:"os release" VERSION:"perf version" \
		    CMDLINE:cmdline CPUDESC:cpudesc EVENT_DESC:event; do
		feat=${pair%%:*}
		line=${pair#*:}
		grep -q "^  $feat:" "$tmp/info" || continue
		if grep -q "^# $line *:" "$tmp/hdr"; then
			ok
		else
			ko "$1: perf report --header-only lacks '$line'"
		fi
	done
}

for f in corpus/*.pipe.data "$SHARED"/perf.data.piped.*; do
	[ -f "$f" ] || continue
	case $f in
	*.pb_text|*.buildids|*corrupted*) continue ;;
	esac
	b=$(basename "$f")
	out=$tmp/$b.out
	total=$((total + 1))
	if ! "$PERFCONV" pipe-to-file -o "$out" "$f" 2> "$tmp/err"; then
		ko "$f: conversion failed: $(head -n 1 "$tmp/err")"
		continue
	fi
	if grep -q "error" "$tmp/err" && ! "$PERFCONV" info "$f" 2>&1 >/dev/null | grep -q error; then
		ko "$f: conversion reported errors the input does not have"
	fi
	if "$PERFCONV" info "$out" > /dev/null 2>&1; then ok; else ko "$f: output unreadable"; fi
	if [ $have_check = 1 ]; then
		if "$PERFCHECK" -q "$out" > "$tmp/check" 2>&1; then
			ok
		elif "$PERFCHECK" -q "$f" > /dev/null 2>&1; then
			ko "$f: perfcheck finds errors in the output: $(head -n 1 "$tmp/check")"
		fi
	else
		no_check=$((no_check + 1))
	fi
	# perf script, and perf report --header-only
	[ $have_perf = 1 ] || { no_perf=$((no_perf + 2)); continue; }
	good=1
	"$PERF" script -i - < "$f" > "$tmp/a" 2> /dev/null
	ref=$?
	"$PERF" script -i "$out" > "$tmp/b" 2> /dev/null
	conv=$?
	if [ $ref -ne 0 ] && [ $conv -eq 0 ]; then
		# perf's pipe reader fails on some streams it reads fine as files
		echo "pipe-to-file: note: $f: perf cannot read the stream, reads the converted file"
		unreadable=$((unreadable + 1))
		ok
		header_check "$f" "$out"
		continue
	fi
	cmp -s "$tmp/a" "$tmp/b" || good=0
	"$PERF" script -F "$FIELDS" -i - < "$f" > "$tmp/a" 2> /dev/null
	"$PERF" script -F "$FIELDS" -i "$out" > "$tmp/b" 2> /dev/null
	cmp -s "$tmp/a" "$tmp/b" || good=0
	if [ $good = 1 ]; then
		ok
		same=$((same + 1))
	else
		ko "$f: perf script output differs"
	fi
	header_check "$f" "$out"
done

# ---- fidelity: file-mode corpus round trip ----

for f in corpus/*.data; do
	case $f in
	*.pipe.data) continue ;;
	esac
	"$PERFCONV" info "$f" 2> /dev/null | grep -q "^mode: file" || continue
	b=$(basename "$f")
	if ! "$PERFCONV" file-to-pipe -o "$tmp/$b.pipe" "$f" 2> "$tmp/err"; then
		ko "$f: file-to-pipe failed: $(head -n 1 "$tmp/err")"
		continue
	fi
	if ! "$PERFCONV" pipe-to-file -o "$tmp/$b.rt" "$tmp/$b.pipe" 2> "$tmp/err"; then
		ko "$f: pipe-to-file of its stream failed: $(head -n 1 "$tmp/err")"
		continue
	fi
	ok
	[ $have_perf = 1 ] || { no_perf=$((no_perf + 1)); continue; }
	"$PERF" script -i "$f" > "$tmp/a" 2> /dev/null
	"$PERF" script -i "$tmp/$b.rt" > "$tmp/b" 2> /dev/null
	if cmp -s "$tmp/a" "$tmp/b"; then ok; else ko "$f: round trip changes perf script output"; fi
	rm -f "$tmp/$b.pipe" "$tmp/$b.rt"
done

if [ $have_perf = 1 ]; then
	echo "pipe-to-file: perf script identical for $same of $total pipe-mode corpus files" \
	     "($unreadable not readable by perf as streams)"
fi
sk_count $no_perf "$PERF_MISSING"
sk_count $no_check "$PERFCHECK not built: outputs not checked by perfcheck"
test_summary
