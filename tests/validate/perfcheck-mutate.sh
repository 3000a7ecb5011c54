#!/bin/sh
# SPDX-License-Identifier: MIT
#
# perfcheck-mutate.sh - mutation test of every command: damaged copies of
# the corpus files (bit flips, truncations, edited record sizes, header
# fields, feature-table entries and counts) through perfcheck (thousands
# of them, 1 s each at most), then through every other command and writer:
# perfconv info, info --json, dump, to-json, to-json --full, to-csv,
# to-proto, to-proto --quipper-compat, pipe-to-file, file-to-pipe and
# perfsym.  No run may crash, hang, trip a sanitizer or exit with a status
# other than the documented ones for a damaged input: 0 or 1 (and 2 for
# pipe-to-file given a file and file-to-pipe given a stream, which a
# damaged header can make of either).
#
# Environment: O (build directory, default bin), MUTATE_RUNS (perfcheck's
# runs, default 3000), MUTATE_CMD_RUNS (runs of each other command, default
# 100), MUTATE_SEED (default 1: the same runs every time, so failures
# reproduce).  Damaged inputs that fail are kept in $O/mutate-failures/.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
O=${O:-bin}
case $O in /*) ;; *) O=$top/$O ;; esac
runs=${MUTATE_RUNS:-3000}
cmd_runs=${MUTATE_CMD_RUNS:-100}
seed=${MUTATE_SEED:-1}
TEST=perfcheck-mutate
. "$top/tests/harness.sh"

for b in "$O/perfcheck" "$O/perfcheck-mutate" "$O/perfconv" "$O/perfsym"; do
	if [ ! -x "$b" ]; then
		echo "perfcheck-mutate: $b missing (run make O=$O)" >&2
		exit 1
	fi
done

# Small inputs of every kind: file and pipe mode, compressed, simpleperf,
# old perf versions, big-endian twins when the corpus has them.
set --
for f in "$top"/corpus/*.data "$top"/corpus/*.dir/data* "$top"/corpus/bad/*.data; do
	[ -f "$f" ] && set -- "$@" "$f"
done
shared=$top/../shared/corpus
if [ -d "$shared" ]; then
	for f in "$shared"/quipper/perf.data.* "$shared"/simpleperf/*.data; do
		case $f in *.pb_text|*.buildids) continue ;; esac
		[ -f "$f" ] && set -- "$@" "$f"
	done
fi

faildir=$O/mutate-failures
rm -rf "$faildir"
mkdir -p "$faildir"
start=$(date +%s)
# one check: a command's runs, all within the documented statuses
mutate() {
	if "$O/perfcheck-mutate" -o "$faildir" "$@"; then
		ok
	else
		cmd="$*"
		ko "runs of ${cmd##* -- } (inputs kept in $faildir)"
	fi
}
# A run takes well under 0.1 s (ASan build included); the limit only has to
# catch a hang, with room for a machine busy with other jobs.
mutate -t 10 "$runs" "$seed" "$@" -- "$O/perfcheck" -q --max-per-code 1 @IN@

# The other commands: fewer runs each (they write whole outputs), a time
# limit that only a hang reaches, and a seed of their own.  Kernel symbols
# come from a small fixed file, not from the running kernel.
PC=$O/perfconv
KS=$top/tests/kallsyms.small
s=$seed
for c in "info @IN@" "info --json @IN@" "dump @IN@" \
	"to-json --no-progress --kallsyms $KS -o @OUT@ @IN@" \
	"to-json --full --symbols --no-progress --kallsyms $KS -o @OUT@ @IN@" \
	"to-csv --srcline --kallsyms $KS -o @OUT@ @IN@" "to-proto -o @OUT@ @IN@" \
	"to-proto --quipper-compat -o @OUT@ @IN@"; do
	s=$((s + 1))
	# shellcheck disable=SC2086
	mutate -t 20 "$cmd_runs" "$s" "$@" -- "$PC" $c
done
mutate -t 20 -x 0,1,2 "$cmd_runs" $((s + 1)) "$@" -- "$PC" pipe-to-file -o @OUT@ @IN@
mutate -t 20 -x 0,1,2 "$cmd_runs" $((s + 2)) "$@" -- "$PC" file-to-pipe -o @OUT@ @IN@
mutate -t 20 "$cmd_runs" $((s + 3)) "$@" -- "$O/perfsym" --srcline --kallsyms "$KS" @IN@

end=$(date +%s)
[ $fail -eq 0 ] && rmdir "$faildir" 2>/dev/null
test_summary "($((end - start)) s)"
