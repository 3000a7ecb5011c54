#!/bin/sh
# compare-builds.sh - the cost of every converter in two builds of this
# project, run back to back on the same input: did a change make any
# command slower?
#
# Usage:
#     scripts/compare-builds.sh [--cpu N] BEFORE_BIN AFTER_BIN FILE [PIPEFILE]
#
# BEFORE_BIN and AFTER_BIN are the bin/ directories of two builds (for an
# older commit: `git worktree add /tmp/old COMMIT && make -C /tmp/old`).
# FILE is a file-mode perf.data, PIPEFILE its pipe-mode twin (`perfconv
# file-to-pipe -o PIPEFILE FILE`); without it the pipe rows are left out.
#
# By default each command's instructions are counted with valgrind's
# cachegrind (Debian package valgrind, not installed by install-deps.sh):
# a count does not depend on the load of the machine, so a difference of
# 1 % is a difference.  The count covers every thread.  With --cpu N each
# command runs N times instead and the best user + system CPU time is
# shown (GNU time), for machines without valgrind; on a shared machine
# those figures move by several percent from run to run.
#
# Output: a Markdown table, one row a command: the two figures and the
# change.  Outputs go to /dev/null or to a temporary directory removed at
# the end.  The commands are those of scripts/bench.sh, with the
# symbolizing ones loading the symbols of the DSOs the recording maps, as
# found on this machine (the same for both builds, run one after the
# other).
set -eu

cpu_runs=0
if [ "${1:-}" = --cpu ]; then
	cpu_runs=${2:?--cpu needs a number of runs}
	shift 2
fi
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
	sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
fi
before=$1
after=$2
file=$3
pipe=${4:-}
for d in "$before" "$after"; do
	for p in perfconv perfcheck perfsym; do
		if [ ! -x "$d/$p" ]; then
			echo "compare-builds.sh: $d/$p: not an executable" >&2
			exit 2
		fi
	done
done
if [ "$cpu_runs" = 0 ] && ! command -v valgrind > /dev/null; then
	echo "compare-builds.sh: valgrind is not installed (apt-get install valgrind), or use --cpu N" >&2
	exit 2
fi
if [ "$cpu_runs" != 0 ] && [ ! -x /usr/bin/time ]; then
	echo "compare-builds.sh: --cpu needs GNU time (apt-get install time)" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-builds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# cost CMD: instructions (cachegrind) or best CPU seconds of sh -c CMD
cost() {
	if [ "$cpu_runs" = 0 ]; then
		# cachegrind follows the exec of sh -c; the counts of a program
		# whose libstdc++ is loaded late (the demangler) need it preloaded
		LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libstdc++.so.6 \
			valgrind --tool=cachegrind --cache-sim=no --trace-children=yes \
			--cachegrind-out-file=/dev/null sh -c "$1" 2> "$tmp/vg" > /dev/null || true
		awk '/I +refs:/ { gsub(",", "", $NF); n = $NF } END { print n + 0 }' "$tmp/vg"
		return
	fi
	i=0
	best=
	while [ "$i" -lt "$cpu_runs" ]; do
		/usr/bin/time -f '%U %S' -o "$tmp/t" sh -c "$1" > /dev/null 2>&1 || true
		t=$(awk '{ printf "%.3f", $1 + $2 }' "$tmp/t")
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$t
		fi
		i=$((i + 1))
	done
	echo "$best"
}

# row NAME CMD: CMD with @ standing for a build's bin directory
row() {
	b=$(cost "$(echo "$2" | sed "s|@|$before|g")")
	a=$(cost "$(echo "$2" | sed "s|@|$after|g")")
	awk -v n="$1" -v b="$b" -v a="$a" -v cpu="$cpu_runs" 'BEGIN {
		if (cpu == 0) { b /= 1e6; a /= 1e6 }
		if (b > 0)
			printf "| `%s` | %.*f | %.*f | %+.1f %% |\n", n, cpu ? 3 : 1, b,
			       cpu ? 3 : 1, a, (a - b) * 100 / b
		else if (cpu)
			printf "| `%s` | %.3f | %.3f | |\n", n, b, a
		else
			printf "| `%s` | failed | %.1f | |\n", n, a
	}'
}

if [ "$cpu_runs" = 0 ]; then
	unit="M instructions"
else
	unit="CPU s (best of $cpu_runs)"
fi
echo "| command | before, $unit | after | change |"
echo "|---|---:|---:|---:|"
row "perfconv info FILE" "exec @/perfconv info '$file'"
[ -n "$pipe" ] && row "perfconv info - < PIPEFILE" "exec @/perfconv info - < '$pipe'"
row "perfcheck -q FILE" "exec @/perfcheck -q '$file'"
[ -n "$pipe" ] && row "perfcheck -q - < PIPEFILE" "exec @/perfcheck -q - < '$pipe'"
row "perfconv dump FILE" "exec @/perfconv dump '$file'"
row "perfconv to-json FILE" "exec @/perfconv to-json '$file'"
[ -n "$pipe" ] && row "perfconv to-json - < PIPEFILE" "exec @/perfconv to-json - < '$pipe'"
row "perfconv to-json --jsonl FILE" "exec @/perfconv to-json --jsonl '$file'"
row "perfconv to-json --full FILE" "exec @/perfconv to-json --full '$file'"
row "perfconv to-csv --table samples FILE" "exec @/perfconv to-csv --table samples '$file'"
row "perfconv to-proto FILE" "exec @/perfconv to-proto '$file'"
[ -n "$pipe" ] && row "perfconv to-proto - < PIPEFILE" "exec @/perfconv to-proto - < '$pipe'"
row "perfconv to-proto --quipper-compat FILE" "exec @/perfconv to-proto --quipper-compat '$file'"
row "perfconv to-pprof --no-srcline FILE" \
	"exec @/perfconv to-pprof --no-srcline -o '$tmp/out.pb.gz' '$file'"
[ -n "$pipe" ] && row "perfconv pipe-to-file -o OUT PIPEFILE" \
	"exec @/perfconv pipe-to-file -o '$tmp/out.data' '$pipe'"
row "perfsym --bench FILE" "exec @/perfsym --bench '$file'"
exit 0
