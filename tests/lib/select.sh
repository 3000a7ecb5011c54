#!/bin/sh
# SPDX-License-Identifier: MIT
#
# select.sh - the sample selections (--pid, --tid, --comm, --cpu, --time,
# --reltime, --event) and -i, compared sample by sample with perf script.
#
# Records tests/lib/select/selwork.c (four processes, seven threads with their
# own command names, one exec, pinned to different CPUs, two events) with
# the machine's perf, then for every selection compares what perf script
# prints with the same options against the samples of
#   perfconv to-csv --table samples   (time pid tid cpu comm event)
#   perfconv to-json                  (time pid tid cpu comm)
#   perfconv dump                     (time pid tid cpu event, file order)
#   perfsym                           (comm tid ip)
#   perfconv to-proto                 (number of samples, with protoc)
# and checks that every record other than samples is kept, that --full
# names its selection, and the usage errors.  Skips (exit 0) with a
# message when perf or gcc is missing or perf may not record here.
#
# Environment: O = build directory (default bin), KEEP=1 keeps the
# temporary directory.
set -u
O=${O:-bin}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case $O in /*) ;; *) O=$ROOT/$O ;; esac
PERFCONV=$O/perfconv
PERFSYM=$O/perfsym

TEST=select.sh
. "$ROOT/tests/harness.sh"

. "$ROOT/tests/find-perf.sh"
[ -n "$PERF" ] || skip_test "$PERF_MISSING"
command -v gcc > /dev/null 2>&1 || skip_test "gcc not found"
for b in "$PERFCONV" "$PERFSYM"; do
	[ -x "$b" ] || { echo "select.sh: $b missing: run make" >&2; exit 1; }
done

test_tmpdir pd-select
cd "$T" || exit 1

gcc -O1 -pthread -o selwork "$ROOT/tests/lib/select/selwork.c" ||
	{ echo "select.sh: building the workload failed" >&2; exit 1; }
cp selwork selexec
"$PERF" record -N -q -o probe.data true > probe.out 2> probe.err ||
	skip_test "perf record does not work here: $(tail -1 probe.err)"
"$PERF" record -N -q --sample-cpu -F 4000 -e cpu-clock -e task-clock -o sel.data \
	./selwork 100 > rec.out 2> rec.err ||
	{ echo "select.sh: perf record failed: $(tail -1 rec.err)" >&2; exit 1; }

# ------------------------------------------------------------ the oracle
# perf script line: "comm pid/tid [cpu] sec.nsec: event:"
# -> "time pid tid cpu comm event", time in nanoseconds
perf_rows() {
	"$PERF" script -i sel.data "$@" -F comm,pid,tid,cpu,time,event --ns 2> perf.err |
	awk '{ split($2, pt, "/"); c = $3; gsub(/[][]/, "", c); t = $4; sub(/:$/, "", t)
	       sub(/\./, "", t); sub(/^0+/, "", t); if (t == "") t = 0; e = $5; sub(/:$/, "", e)
	       print t, pt[1], pt[2], c + 0, $1, e }'
}

perf_rows > all.perf
nall=$(wc -l < all.perf)
[ "$nall" -ge 100 ] || { echo "select.sh: only $nall samples recorded" >&2; exit 1; }
# pids and tids of the workload, read from perf's own output
pid_of() { awk -v c="$1" '$5 == c { print $2; exit }' all.perf; }
tid_of() { awk -v c="$1" '$5 == c { print $3; exit }' all.perf; }
PEXEC=$(pid_of selexec)
P1=$(pid_of selwork-1)
T1=$(tid_of selthr-1)
[ -n "$PEXEC" ] && [ -n "$P1" ] && [ -n "$T1" ] ||
	{ echo "select.sh: the workload's processes have no samples" >&2; exit 1; }
# times of samples at 25%, 40%, 60% and 80% of the run, as seconds
sec_at() {
	awk -v n="$nall" -v f="$1" 'NR == int(n * f) + 1 {
		t = $1; while (length(t) < 10) t = "0" t
		print substr(t, 1, length(t) - 9) "." substr(t, length(t) - 8) }' all.perf
}
A=$(sec_at 0.25)
B=$(sec_at 0.40)
C=$(sec_at 0.60)
D=$(sec_at 0.80)

# ------------------------------------------------------------ ours
csv_rows() {
	"$PERFCONV" to-csv --table samples "$@" sel.data 2> ours.err |
	awk -F, 'NR > 1 { print $2, $3, $4, $6, $5, $7 }'
}
json_rows() {
	"$PERFCONV" to-json --no-progress "$@" sel.data 2> ours.err |
	awk '/"timestamp":/ { t = $2 } /"pid":/ { p = $2 } /"tid":/ { d = $2 }
	     /"cpu":/ { c = $2 } /"comm":/ { m = $2 }
	     /"callchain":/ { gsub(/[",]/, "", t); gsub(/[",]/, "", p); gsub(/[",]/, "", d)
	                      gsub(/[",]/, "", c); gsub(/[",]/, "", m); print t, p, d, c, m }'
}
dump_rows() {
	"$PERFCONV" dump "$@" sel.data 2> ours.err | awk '$3 == "SAMPLE" {
		for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		print v["time"], v["pid"], v["tid"], v["cpu"], v["event"] }' | sort
}

# compare NAME [--perf-event EV PERF_OPTIONS] [--no-time] [--all] -- OPTIONS...
# perf script and our commands with the same OPTIONS; --perf-event keeps
# only perf's samples of one event (perf script has no such option) and
# gives perf PERF_OPTIONS (split on spaces) instead; --no-time compares
# everything but the time (perf prints --reltime times relative); --all
# also compares perfsym and to-proto (one selection of each kind, to keep
# the run short: every command reads through the same selection code).
compare() {
	name=$1
	shift
	ev=
	popts=
	notime=0
	all=0
	while [ "$1" != -- ]; do
		case $1 in
		--all) all=1 ;;
		--perf-event) ev=$2; popts=$3; shift 2 ;;
		--no-time) notime=1 ;;
		esac
		shift
	done
	shift
	if [ -n "$ev" ]; then
		# shellcheck disable=SC2086
		perf_rows $popts | awk -v e="$ev" '$6 == e' > sel.perf
	else
		perf_rows "$@" > sel.perf
	fi
	n=$(wc -l < sel.perf)
	if [ "$n" -ge "$nall" ]; then
		ko "$name: perf selects $n of $nall samples: not a useful selection"
		return
	fi
	# a time slice can fall where the loaded machine did not run the
	# workload: still compared (we must select nothing too), said so
	[ "$n" -eq 0 ] && echo "select.sh: note: $name: perf selects no sample in this recording"
	strip() { if [ "$notime" = 1 ]; then cut -d' ' -f2-; else cat; fi; }
	csv_rows "$@" | strip > sel.csv
	strip < sel.perf > sel.want
	if cmp -s sel.want sel.csv; then ok; else
		ko "$name: to-csv differs from perf script ($n samples)"
		diff sel.want sel.csv | head -5 | sed 's/^/    /'
		cat ours.err | head -3
	fi
	cut -d' ' -f1-5 sel.perf | strip > sel.want5
	json_rows "$@" | strip > sel.json
	if cmp -s sel.want5 sel.json; then ok; else
		ko "$name: to-json differs from perf script"
		diff sel.want5 sel.json | head -5 | sed 's/^/    /'
	fi
	awk '{ print $1, $2, $3, $4, $6 }' sel.perf | strip | sort > sel.want6
	dump_rows "$@" | strip | sort > sel.dump
	if cmp -s sel.want6 sel.dump; then ok; else
		ko "$name: dump differs from perf script"
		diff sel.want6 sel.dump | head -5 | sed 's/^/    /'
	fi
	if [ -z "$ev" ] && [ "$all" = 1 ]; then
		"$PERF" script -i sel.data "$@" -F comm,tid,ip 2> /dev/null | awk '{ print $1, $2, $3 }' > sel.wsym
		"$PERFSYM" "$@" sel.data 2> /dev/null | awk '{ print $1, $2, $3 }' > sel.sym
		if cmp -s sel.wsym sel.sym; then ok; else
			ko "$name: perfsym differs from perf script"
			diff sel.wsym sel.sym | head -5 | sed 's/^/    /'
		fi
	fi
	if [ -z "$PROTOC" ] && [ "$all" = 1 ]; then
		no_protoc=$((no_protoc + 1))
	elif [ "$all" = 1 ]; then
		got=$("$PERFCONV" to-proto "$@" sel.data 2> /dev/null |
		      protoc --decode=quipper.PerfDataProto -I"$ROOT/schema" perf_data.proto |
		      grep -c '^  sample_event {')
		if [ "$got" = "$n" ]; then ok; else
			ko "$name: to-proto has $got samples, perf script $n"
		fi
	fi
	echo "select.sh: $name: $n of $nall samples agree"
}

PROTOC=
no_protoc=0	# to-proto counts that could not be checked
command -v protoc > /dev/null 2>&1 && PROTOC=protoc

compare "--pid exec'd process" -- --pid "$PEXEC"
compare "--pid two processes" --all -- --pid "$PEXEC,$P1"
compare "--tid" -- --tid "$T1"
compare "--tid and --pid" --all -- --pid "$P1" --tid "$T1"
compare "--comm exec name (inherited by its thread)" --all -- --comm selexec
compare "--comm two names" -- --comm selwork-0,selthr-1
compare "--cpu 0" -- --cpu 0
compare "--cpu 1" -- --cpu 1
compare "--cpu 0 --comm selexec" --all -- --cpu 0 --comm selexec
compare "--time 10%/2" -- --time 10%/2
compare "--time 50%" -- --time 50%
compare "--time 0%-25%,50%-75%" --all -- --time 0%-25%,50%-75%
compare "--time 10%/1,10%/3" -- --time 10%/1,10%/3
compare "--time START,STOP" -- --time "$A,$C"
compare "--time START," -- --time "$B,"
compare "--time ,STOP" -- --time ",$B"
compare "--time two ranges" --all -- --time "$A,$B $C,$D"
compare "--reltime --time" --no-time -- --reltime --time 0.02,0.06
compare "--event task-clock" --perf-event task-clock "" -- --event task-clock
compare "--event cpu-clock --pid" --perf-event cpu-clock "--pid $P1" -- --event cpu-clock --pid "$P1"
sk_count $no_protoc "protoc not found: to-proto sample counts not checked"

# ------------------------------------------------------------ everything else is kept
"$PERFCONV" dump sel.data | awk '$3 != "SAMPLE"' > all.side
"$PERFCONV" dump --pid "$PEXEC" --time 10%/2 sel.data | awk '$3 != "SAMPLE" && !/^# selection/' > sel.side
if cmp -s all.side sel.side; then ok; else ko "dump --pid: records other than samples were dropped"; fi
if "$PERFCONV" to-json --full --pid "$PEXEC" --time 10%/2 sel.data |
   head -n 1 | grep -q "\"selection\":{\"pid\":\"$PEXEC\",\"time\":\"10%/2\"}"; then ok; else
	ko "to-json --full does not name its selection in the file description"
fi
if "$PERFCONV" dump --cpu 1 sel.data | grep -q '^# selection --cpu 1$'; then ok; else
	ko "dump does not name its selection"
fi

# ------------------------------------------------------------ usage errors
# expect CODE PATTERN -- COMMAND...: exit code and a fixed string on stderr
expect() {
	want=$1
	pat=$2
	shift 3
	"$@" > out.txt 2> err.txt < /dev/null
	got=$?
	if [ "$got" = "$want" ] && { [ -z "$pat" ] || grep -qF -- "$pat" err.txt; }; then ok; else
		ko "$*: exit $got (want $want), stderr: $(head -2 err.txt)"
	fi
}
expect 2 "--event 'nosuch'" -- "$PERFCONV" to-json --event nosuch sel.data
expect 2 "cpu-clock" -- "$PERFCONV" to-csv --table samples --event nosuch sel.data
expect 2 "--time 'soon'" -- "$PERFCONV" dump --time soon sel.data
expect 2 "--time '2,1'" -- "$PERFCONV" dump --time 2,1 sel.data
expect 2 "--time '10%/0'" -- "$PERFCONV" dump --time 10%/0 sel.data
expect 2 "--cpu '1-0'" -- "$PERFCONV" to-proto -o out.pb --cpu 1-0 sel.data
expect 2 "--pid 'x'" -- "$PERFSYM" --pid x sel.data
expect 2 "--comm ''" -- "$PERFCONV" dump --comm "" sel.data
expect 2 "too many arguments" -- "$PERFCONV" dump -i sel.data sel.data
expect 2 "do not record their CPU" -- "$PERFCONV" dump --cpu 0 probe.data
# percentages need the recording's first and last sample times: none in a pipe
"$PERF" record -N -q -o - true 2> /dev/null > pipe.data
expect 2 "SAMPLE_TIME" -- "$PERFCONV" to-json --time 10% pipe.data

# ------------------------------------------------------------ -i and perf.data
"$PERFCONV" dump sel.data > pos.txt
"$PERFCONV" dump -i sel.data > opt.txt
if cmp -s pos.txt opt.txt; then ok; else ko "dump -i FILE differs from dump FILE"; fi
mkdir cwd && cp sel.data cwd/perf.data
(cd cwd && "$PERFCONV" dump < /dev/null > ../def.txt 2> ../def.err)
if sed 's/perf\.data/sel.data/' def.txt | cmp -s - pos.txt; then ok; else
	ko "dump without input does not read ./perf.data: $(head -1 def.err)"
fi
(cd cwd && cat perf.data | "$PERFCONV" info > ../pipe.txt 2>&1)
if grep -q '^file: <stdin>\|^file: -' pipe.txt; then ok; else
	ko "info without input does not read a pipe on standard input: $(head -1 pipe.txt)"
fi
(cd cwd && "$PERFSYM" < /dev/null > ../sym-def.txt 2>&1)
"$PERFSYM" sel.data > sym-pos.txt 2>&1
if cmp -s sym-def.txt sym-pos.txt; then ok; else ko "perfsym without input does not read ./perf.data"; fi
expect 2 "no perf.data" -- "$PERFCONV" to-json
PERFCHECK=$O/perfcheck
if [ -x "$PERFCHECK" ]; then
	expect 0 "" -- "$PERFCHECK" -q -i sel.data
	(cd cwd && "$PERFCHECK" < /dev/null > ../chk.txt 2>&1)
	if grep -q '^perf\.data: .*PASS' chk.txt; then ok; else
		ko "perfcheck without input does not check ./perf.data: $(head -1 chk.txt)"
	fi
else
	sk_count 2 "$PERFCHECK not built: its -i and ./perf.data not checked"
fi

test_summary || exit 1
echo "select.sh: PASS"
