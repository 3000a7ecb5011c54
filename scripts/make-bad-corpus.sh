#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make-bad-corpus.sh - regenerate corpus/bad/ (damaged perf.data files and
# their MANIFEST) from the small real recordings in corpus/.
#
# Usage: sh scripts/make-bad-corpus.sh [CORPUS_DIR [NAME...]]
#
# With NAMEs, only those files of scripts/make_bad_corpus.c are written and
# their MANIFEST lines replaced; nothing else in corpus/bad/ changes.
#
# The damage is done by scripts/make_bad_corpus.c, compiled here with the
# system C compiler; it computes every expected offset from the base files,
# so the MANIFEST stays right whenever corpus/ is re-recorded.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-$top/corpus}
[ $# -gt 0 ] && shift
out=$corpus/bad
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/make-bad-corpus.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

for f in basic.data basic.pipe.data callchain-fp.data callchain-dwarf.data multi-event.data \
	 compressed.data; do
	if [ ! -f "$corpus/$f" ]; then
		echo "make-bad-corpus: $corpus/$f is missing (run scripts/make-corpus.sh)" >&2
		exit 1
	fi
done

$cc -std=c11 -O1 -Wall -Wextra -o "$tmp/make_bad_corpus" "$top/scripts/make_bad_corpus.c"
mkdir -p "$out"

# perf inject's cross-endian bug: a swapped file with unswapped features
inject_twin() {
	$cc -std=c11 -D_GNU_SOURCE -O1 -I"$top/include" -I"$top/tests/lib" -o "$tmp/make_inject_twin" \
		"$top/scripts/make_inject_twin.c" "$top/tests/lib/swap_twin.c" -lzstd
	off=$("$tmp/make_inject_twin" "$corpus/basic.data" "$out/inject-cross-endian.data")
	grep -v '^inject-cross-endian.data ' "$out/MANIFEST" > "$tmp/MANIFEST" || true
	echo "inject-cross-endian.data | 218 | $off | basic.data byte-swapped but its feature sections left in the writer's order, as perf inject writes on a host of the other byte order (warning)" >> "$tmp/MANIFEST"
	cat "$tmp/MANIFEST" > "$out/MANIFEST"
}

# an unknown feature bit in a big-endian file: its byte in the swapped bitmap
swapped_unknown_bit() {
	off=$("$tmp/make_inject_twin" -b 100 "$out/unknown-feature-bit.data" "$out/unknown-feature-bit-be.data")
	grep -v '^unknown-feature-bit-be.data ' "$out/MANIFEST" > "$tmp/MANIFEST" || true
	echo "unknown-feature-bit-be.data | 13 | $off | unknown-feature-bit.data byte-swapped: bit 100 (bit 36 of the big-endian bitmap word at 80) lies in its 4th byte (warning)" >> "$tmp/MANIFEST"
	cat "$tmp/MANIFEST" > "$out/MANIFEST"
}

if [ "${1:-}" = inject-cross-endian.data ] && [ $# -eq 1 ]; then
	inject_twin
	echo "make-bad-corpus: wrote 1 files to $out"
	exit 0
fi
if [ "${1:-}" = unknown-feature-bit-be.data ] && [ $# -eq 1 ]; then
	inject_twin > /dev/null
	swapped_unknown_bit
	echo "make-bad-corpus: wrote 2 files to $out"
	exit 0
fi
if [ $# -gt 0 ]; then
	"$tmp/make_bad_corpus" "$corpus" "$out" "$@"
	echo "make-bad-corpus: wrote $# files to $out"
	exit 0
fi
# Old outputs go: the MANIFEST lists exactly what this run produces.
find "$out" -maxdepth 1 -type f -name '*.data' -exec rm -f {} +
"$tmp/make_bad_corpus" "$corpus" "$out"
n=$(grep -vc '^#' "$out/MANIFEST")
echo "make-bad-corpus: wrote $n files to $out"
inject_twin
swapped_unknown_bit
# perfcheck's cross-record and cross-section cases (check-*.data)
sh "$top/scripts/make-bad-corpus-check.sh" "$corpus"
