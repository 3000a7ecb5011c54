#!/bin/sh
# SPDX-License-Identifier: MIT
#
# damaged-inputs.sh - every command on damaged inputs.
#
#  1. corpus/bad/event-desc-half-decoded.data (an EVENT_DESC whose first
#     event is half decoded: attr and id count, no name, no ids) through
#     every command and writer, each with its exact exit status and the
#     PD203 diagnostic on stderr.  to-proto used to crash on it.
#  2. every file of corpus/bad/ and of fuzz/regress/ (the inputs the
#     fuzzers found crashing) through every command: no signal, no
#     sanitizer report, no hang (20 s), and only the documented exit
#     statuses for an input problem: 0 or 1 (2 where the input is of the
#     other mode: pipe-to-file on a file, file-to-pipe on a stream).
#
# Run from the project root with O=<build dir> (make test does).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-bin}
case $O in /*) ;; *) O=$top/$O ;; esac
PERFCONV=$O/perfconv
PERFCHECK=$O/perfcheck
PERFSYM=$O/perfsym
TEST=damaged-inputs.sh
. "$top/tests/harness.sh"
test_tmpdir damaged-inputs
runs=0

# Sanitizer findings must not pass as exit 1 ("malformed input").
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99
UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=99:halt_on_error=1
export ASAN_OPTIONS UBSAN_OPTIONS

for b in "$PERFCONV" "$PERFCHECK" "$PERFSYM"; do
	[ -x "$b" ] || { echo "damaged-inputs.sh: $b missing (run make O=$O)" >&2; exit 1; }
done

# run NAME INPUT CMD...: runs CMD with @IN@ replaced by INPUT and @OUT@ by
# a fresh output path, stdout to $T/stdout, stderr to $T/stderr, 20 s at
# most; sets rc (124: time limit, 128+N: signal N).
run() {
	name=$1
	in=$2
	shift 2
	rm -rf "$T/out" "$T/out.csv"
	cmd=""
	for a in "$@"; do
		case $a in
		@IN@) a=$in ;;
		@OUT@) a=$T/out ;;
		esac
		cmd="$cmd '$a'"
	done
	eval "timeout 20 $cmd" > "$T/stdout" 2> "$T/stderr" < /dev/null
	rc=$?
	runs=$((runs + 1))
}

# Every command and writer, as "NAME|ALLOWED|ARGS...": ALLOWED lists the
# exit statuses an input problem may give.  Kernel symbols come from a
# small fixed file: the same on every machine, and reading the running
# kernel's /proc/kallsyms takes most of a second per run.
KS=$top/tests/kallsyms.small
COMMANDS="info|0 1|$PERFCONV info @IN@
info-json|0 1|$PERFCONV info --json @IN@
dump|0 1|$PERFCONV dump --hex @IN@
to-json|0 1|$PERFCONV to-json --no-progress --kallsyms $KS -o @OUT@ @IN@
to-json-full|0 1|$PERFCONV to-json --full --symbols --no-progress --kallsyms $KS -o @OUT@ @IN@
to-jsonl|0 1|$PERFCONV to-json --full --jsonl --ordered --no-progress -o @OUT@ @IN@
to-csv|0 1|$PERFCONV to-csv --srcline --kallsyms $KS -o @OUT@ @IN@
to-proto|0 1|$PERFCONV to-proto -o @OUT@ @IN@
to-proto-compat|0 1|$PERFCONV to-proto --quipper-compat -o @OUT@ @IN@
to-pprof|0 1|$PERFCONV to-pprof --kallsyms $KS -o @OUT@ @IN@
file-to-pipe|0 1 2|$PERFCONV file-to-pipe -o @OUT@ @IN@
pipe-to-file|0 1 2|$PERFCONV pipe-to-file -o @OUT@ @IN@
perfcheck|0 1|$PERFCHECK @IN@
perfsym|0 1|$PERFSYM --srcline --kallsyms $KS @IN@"

# run_all INPUT EXPECT: every command on INPUT; EXPECT is "" (any allowed
# status) or a list of "NAME=STATUS" that must match exactly.
run_all() {
	input=$1
	expect=$2
	printf '%s\n' "$COMMANDS" > "$T/commands"
	while IFS='|' read -r name allowed args; do
		# shellcheck disable=SC2086
		run "$name" "$input" $args
		case $rc in
		124) ko "$name $(basename "$input"): no result within 20 s"; continue ;;
		99) ko "$name $(basename "$input"): sanitizer report: $(grep -m1 -e ERROR -e 'runtime error' "$T/stderr")"; continue ;;
		12[5-9]|1[3-9][0-9]|2[0-9][0-9])
			ko "$name $(basename "$input"): killed by signal $((rc - 128))"; continue ;;
		esac
		want=""
		for e in $expect; do
			[ "${e%%=*}" = "$name" ] && want=${e#*=}
		done
		if [ -n "$want" ]; then
			if [ "$rc" = "$want" ]; then
				ok
			else
				ko "$name $(basename "$input"): exit $rc, want $want: $(head -1 "$T/stderr")"
			fi
			# perfcheck reports on stdout; a usage error (other mode) has no finding
			if [ "$want" = 2 ] || cat "$T/stdout" "$T/stderr" | grep -q PD203; then
				ok
			else
				ko "$name $(basename "$input"): PD203 not reported"
			fi
			continue
		fi
		case " $allowed " in
		*" $rc "*) ok ;;
		*) ko "$name $(basename "$input"): exit $rc (allowed: $allowed): $(head -1 "$T/stderr")" ;;
		esac
	done < "$T/commands"
}

# ---- 1. the half-decoded EVENT_DESC, exact statuses
half=$top/corpus/bad/event-desc-half-decoded.data
if [ -f "$half" ]; then
	run_all "$half" "info=1 info-json=1 dump=1 to-json=1 to-json-full=1 to-jsonl=1 to-csv=1
		to-proto=1 to-proto-compat=1 to-pprof=1 file-to-pipe=1 pipe-to-file=2 perfcheck=1
		perfsym=1"
	# its pipe-mode twin carries the same feature in a HEADER_FEATURE record
	"$PERFCONV" file-to-pipe -o "$T/half.pipe.data" "$half" 2> /dev/null
	[ -s "$T/half.pipe.data" ] && ok || ko "file-to-pipe wrote nothing for $(basename "$half")"
	cp "$T/half.pipe.data" "$T/event-desc-half-decoded.pipe.data"
	run_all "$T/event-desc-half-decoded.pipe.data" "info=1 info-json=1 dump=1 to-json=1
		to-json-full=1 to-jsonl=1 to-csv=1 to-proto=1 to-proto-compat=1 to-pprof=1 file-to-pipe=2
		pipe-to-file=1 perfcheck=1 perfsym=1"
else
	ko "$half missing"
fi

# ---- 2. every damaged and fuzz-found input, documented statuses only
n=0
for f in "$top"/corpus/bad/*.data "$top"/fuzz/regress/*; do
	[ -f "$f" ] || continue
	case $f in */README*) continue ;; esac
	run_all "$f" ""
	n=$((n + 1))
done
echo "damaged-inputs.sh: $n damaged inputs, $runs runs"
test_summary
