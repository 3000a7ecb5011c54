#!/bin/sh
# SPDX-License-Identifier: MIT
#
# perfcheck-mutate.sh - mutation test of perfcheck: thousands of damaged
# copies of the corpus files (bit flips, truncations, edited record sizes,
# header fields, feature-table entries and counts), each checked by
# $O/perfcheck under a 1 s limit; every run must end with exit 0 or 1.
#
# Environment: O (build directory, default bin), MUTATE_RUNS (default 3000),
# MUTATE_SEED (default 1: the same runs every time, so failures reproduce).
# Damaged inputs that fail are kept in $O/mutate-failures/.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-bin}
case $O in /*) ;; *) O=$top/$O ;; esac
runs=${MUTATE_RUNS:-3000}
seed=${MUTATE_SEED:-1}

for b in "$O/perfcheck" "$O/perfcheck-mutate"; do
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
"$O/perfcheck-mutate" -t 1 -o "$faildir" "$O/perfcheck" "$runs" "$seed" "$@"
rc=$?
end=$(date +%s)
echo "perfcheck-mutate: $((end - start)) s"
[ $rc -eq 0 ] && rmdir "$faildir" 2>/dev/null
exit $rc
