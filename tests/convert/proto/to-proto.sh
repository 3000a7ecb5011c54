#!/bin/sh
# to-proto.sh - perfconv to-proto end to end.
#
#  1. quipper fidelity: for every NAME.pb_text in ../shared/corpus/quipper
#     (quipper's own output, default options), `to-proto --quipper-compat
#     NAME` decoded with `protoc --decode` against QUIPPER'S OWN schema
#     (../shared/corpus/quipper/schema/perf_data.proto) must equal
#     NAME.pb_text byte for byte.  Text format names fields: decoding with
#     our schema would hide a field number that differs from quipper's.
#  2. default mode: every file of corpus/ and ../shared/corpus converts,
#     decodes with protoc, and has one event per record `perfconv dump`
#     shows (COMPRESSED containers excepted: their records are delivered
#     in their place), in the same order; decoded with quipper's schema,
#     every field quipper knows has quipper's name (our extensions,
#     numbered 1000 and up, are the only unknown fields).
#  3. output handling: no output file on failure, --strict, stdin.
#
# Run from the project root with O=<build dir> (make test does).  Checks
# that need ../shared/corpus or protoc are counted as skipped when absent.
set -u

O=${O:-bin}
PERFCONV=${PERFCONV:-$O/perfconv}
SCHEMA=schema/perf_data.proto
EXT=../shared/corpus
TEST=to-proto.sh
. "$(dirname "$0")/../../harness.sh"
test_tmpdir to-proto-test

decode() {
	protoc --decode=quipper.PerfDataProto --proto_path=schema "$SCHEMA" < "$1"
}

# quipper's real schema, the reference of the wire format
QSCHEMA_DIR=$EXT/quipper/schema
decode_quipper() {
	protoc --decode=quipper.PerfDataProto --proto_path="$QSCHEMA_DIR" perf_data.proto < "$1"
}

have_protoc=1
command -v protoc > /dev/null 2>&1 || have_protoc=0
NO_PROTOC="protoc not installed (Debian protobuf-compiler)"

# ---- 1. quipper fidelity
if [ ! -f "$QSCHEMA_DIR/perf_data.proto" ]; then
	sk "$QSCHEMA_DIR absent: quipper fidelity not compared"
elif [ $have_protoc = 0 ]; then
	sk_count "$(ls "$EXT"/quipper/*.pb_text | wc -l)" "$NO_PROTOC: quipper fidelity not compared"
else
	same=0 total=0
	for want in "$EXT"/quipper/*.pb_text; do
		in=${want%.pb_text}
		total=$((total + 1))
		if ! "$PERFCONV" to-proto --quipper-compat -o "$T/q.pb" "$in" 2> "$T/q.err"; then
			ko "$(basename "$in"): to-proto --quipper-compat failed: $(head -1 "$T/q.err")"
			continue
		fi
		decode_quipper "$T/q.pb" > "$T/q.txt" 2> "$T/q.err" || {
			ko "$(basename "$in"): protoc cannot decode with quipper's schema: $(head -1 "$T/q.err")"
			continue
		}
		if cmp -s "$T/q.txt" "$want"; then
			same=$((same + 1))
			ok
		else
			ko "$(basename "$in"): differs from quipper's output:"
			diff "$T/q.txt" "$want" | head -20
		fi
	done
	echo "to-proto.sh: quipper fidelity: $same / $total identical"
fi

# ---- 2. default mode over every corpus file
inputs=$(ls corpus/*.data 2>/dev/null)
if [ -d "$EXT" ]; then
	inputs="$inputs $(ls "$EXT"/quipper/perf.data.* "$EXT"/simpleperf/*.data 2>/dev/null |
		grep -v -e '\.pb_text$' -e '\.buildids$')"
fi
n=0
no_protoc=0	# decodings that could not run
no_qschema=0	# checks against quipper's schema that could not run
for in in $inputs; do
	rm -f "$T/d.pb"
	if ! "$PERFCONV" dump "$in" > "$T/dump.txt" 2> /dev/null && [ ! -s "$T/dump.txt" ]; then
		# rejected input: to-proto must fail the same way and write nothing
		if "$PERFCONV" to-proto -o "$T/d.pb" "$in" 2> /dev/null; then
			ko "$(basename "$in"): accepted"
		else
			ok
		fi
		if [ -e "$T/d.pb" ]; then ko "$(basename "$in"): output left behind"; else ok; fi
		continue
	fi
	"$PERFCONV" to-proto -o "$T/d.pb" "$in" 2> /dev/null
	[ -s "$T/d.pb" ] || { ko "$(basename "$in"): no output"; continue; }
	ok
	n=$((n + 1))
	# the decoding, quipper's names, the record types
	[ $have_protoc = 1 ] || { no_protoc=$((no_protoc + 3)); continue; }
	decode "$T/d.pb" > "$T/d.txt" 2> "$T/d.err" || {
		ko "$(basename "$in"): protoc cannot decode: $(head -1 "$T/d.err")"
		continue
	}
	ok
	if [ ! -f "$QSCHEMA_DIR/perf_data.proto" ]; then
		no_qschema=$((no_qschema + 1))
	else
		decode_quipper "$T/d.pb" > "$T/dq.txt" 2> "$T/d.err" || {
			ko "$(basename "$in"): protoc cannot decode with quipper's schema: $(head -1 "$T/d.err")"
			continue
		}
		# fields quipper does not know, outside the extensions' own
		# contents: must all be extensions (1000 and up)
		low=$(awk '/[{]$/ { depth++
				if (!skip && $1 ~ /^[0-9]+$/) { if ($1 + 0 < 1000) print; skip = depth }
				next }
			/^ *[}]$/ { if (skip == depth) skip = 0; depth--; next }
			!skip && $1 ~ /^[0-9]+:$/ { if ($1 + 0 < 1000) print }' "$T/dq.txt" | head -3)
		if [ -z "$low" ]; then ok; else ko "$(basename "$in"): fields unknown to quipper's schema: $low"; fi
	fi
	# record types in order: dump's third column vs the decoded headers
	awk '/^0x/ && $3 != "COMPRESSED" && $3 != "COMPRESSED2" { print $3 }' "$T/dump.txt" > "$T/t1"
	awk '/^events \{/ { ev = 1; next } ev && /^    type:/ { print $2; ev = 0 }' "$T/d.txt" > "$T/t2"
	if [ "$(wc -l < "$T/t1")" != "$(wc -l < "$T/t2")" ]; then
		ko "$(basename "$in"): $(wc -l < "$T/t2") events, dump shows $(wc -l < "$T/t1") records"
	else
		ok
	fi
done
echo "to-proto.sh: default mode: $n files converted"
sk_count $no_protoc "$NO_PROTOC: outputs not decoded"
sk_count $no_qschema "$QSCHEMA_DIR absent: outputs not decoded with quipper's schema"

# ---- 3. output handling
in=corpus/basic.data
if [ -f "$in" ]; then
	if "$PERFCONV" to-proto "$in" > "$T/stdout.pb"; then ok; else ko "stdout output failed"; fi
	if "$PERFCONV" to-proto -o "$T/file.pb" "$in"; then ok; else ko "-o output failed"; fi
	if cmp -s "$T/stdout.pb" "$T/file.pb"; then ok; else ko "stdout and -o outputs differ"; fi
	if "$PERFCONV" to-proto -o "$T/stdin.pb" - < "$in"; then ok; else ko "stdin input failed"; fi
	if [ -s "$T/stdin.pb" ]; then ok; else ko "stdin input gave no output"; fi
	if ls "$T" | grep -q '\.tmp\.'; then ko "temporary file left behind"; else ok; fi
fi
if "$PERFCONV" to-proto -o "$T/none.pb" /nonexistent/perf.data 2> /dev/null; then
	ko "missing input accepted"
else
	ok
fi
if [ -e "$T/none.pb" ]; then ko "output written for a missing input"; else ok; fi
bad=$(ls corpus/bad/* 2>/dev/null | head -20)
for in in $bad; do
	if ! "$PERFCONV" to-proto --strict -o "$T/strict.pb" "$in" 2> /dev/null; then
		if [ -e "$T/strict.pb" ]; then
			ko "$(basename "$in"): --strict failed but left output"
		else
			ok
		fi
	fi
	rm -f "$T/strict.pb"
done

test_summary
