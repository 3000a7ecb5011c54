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
# Run from the project root with O=<build dir> (make test does).  Parts
# that need ../shared/corpus or protoc are skipped with a message.
set -u

O=${O:-bin}
PERFCONV=${PERFCONV:-$O/perfconv}
SCHEMA=schema/perf_data.proto
EXT=../shared/corpus
T=$(mktemp -d "${TMPDIR:-/tmp}/to-proto-test.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
fail=0

err() {
	echo "to-proto.sh: FAIL: $*" >&2
	fail=1
}

decode() {
	protoc --decode=quipper.PerfDataProto --proto_path=schema "$SCHEMA" < "$1"
}

# quipper's real schema, the reference of the wire format
QSCHEMA_DIR=$EXT/quipper/schema
decode_quipper() {
	protoc --decode=quipper.PerfDataProto --proto_path="$QSCHEMA_DIR" perf_data.proto < "$1"
}

have_protoc=1
command -v protoc > /dev/null 2>&1 || {
	echo "to-proto.sh: protoc not installed (Debian protobuf-compiler): decoding checks skipped"
	have_protoc=0
}

# ---- 1. quipper fidelity
if [ ! -f "$QSCHEMA_DIR/perf_data.proto" ]; then
	echo "to-proto.sh: SKIP: $QSCHEMA_DIR absent: quipper fidelity skipped"
elif [ $have_protoc = 1 ]; then
	same=0 total=0
	for want in "$EXT"/quipper/*.pb_text; do
		in=${want%.pb_text}
		total=$((total + 1))
		if ! "$PERFCONV" to-proto --quipper-compat -o "$T/q.pb" "$in" 2> "$T/q.err"; then
			err "$(basename "$in"): to-proto --quipper-compat failed: $(head -1 "$T/q.err")"
			continue
		fi
		decode_quipper "$T/q.pb" > "$T/q.txt" 2> "$T/q.err" || {
			err "$(basename "$in"): protoc cannot decode with quipper's schema: $(head -1 "$T/q.err")"
			continue
		}
		if cmp -s "$T/q.txt" "$want"; then
			same=$((same + 1))
		else
			err "$(basename "$in"): differs from quipper's output:"
			diff "$T/q.txt" "$want" | head -20 >&2
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
for in in $inputs; do
	rm -f "$T/d.pb"
	if ! "$PERFCONV" dump "$in" > "$T/dump.txt" 2> /dev/null && [ ! -s "$T/dump.txt" ]; then
		# rejected input: to-proto must fail the same way and write nothing
		"$PERFCONV" to-proto -o "$T/d.pb" "$in" 2> /dev/null && err "$(basename "$in"): accepted"
		[ -e "$T/d.pb" ] && err "$(basename "$in"): output left behind"
		continue
	fi
	"$PERFCONV" to-proto -o "$T/d.pb" "$in" 2> /dev/null
	[ -s "$T/d.pb" ] || { err "$(basename "$in"): no output"; continue; }
	n=$((n + 1))
	[ $have_protoc = 1 ] || continue
	decode "$T/d.pb" > "$T/d.txt" 2> "$T/d.err" || {
		err "$(basename "$in"): protoc cannot decode: $(head -1 "$T/d.err")"
		continue
	}
	if [ -f "$QSCHEMA_DIR/perf_data.proto" ]; then
		decode_quipper "$T/d.pb" > "$T/dq.txt" 2> "$T/d.err" || {
			err "$(basename "$in"): protoc cannot decode with quipper's schema: $(head -1 "$T/d.err")"
			continue
		}
		# fields quipper does not know, outside the extensions' own
		# contents: must all be extensions (1000 and up)
		low=$(awk '/[{]$/ { depth++
				if (!skip && $1 ~ /^[0-9]+$/) { if ($1 + 0 < 1000) print; skip = depth }
				next }
			/^ *[}]$/ { if (skip == depth) skip = 0; depth--; next }
			!skip && $1 ~ /^[0-9]+:$/ { if ($1 + 0 < 1000) print }' "$T/dq.txt" | head -3)
		[ -z "$low" ] || err "$(basename "$in"): fields unknown to quipper's schema: $low"
	fi
	# record types in order: dump's third column vs the decoded headers
	awk '/^0x/ && $3 != "COMPRESSED" && $3 != "COMPRESSED2" { print $3 }' "$T/dump.txt" > "$T/t1"
	awk '/^events \{/ { ev = 1; next } ev && /^    type:/ { print $2; ev = 0 }' "$T/d.txt" > "$T/t2"
	if [ "$(wc -l < "$T/t1")" != "$(wc -l < "$T/t2")" ]; then
		err "$(basename "$in"): $(wc -l < "$T/t2") events, dump shows $(wc -l < "$T/t1") records"
	fi
done
echo "to-proto.sh: default mode: $n files converted"

# ---- 3. output handling
in=corpus/basic.data
if [ -f "$in" ]; then
	"$PERFCONV" to-proto "$in" > "$T/stdout.pb" || err "stdout output failed"
	"$PERFCONV" to-proto -o "$T/file.pb" "$in" || err "-o output failed"
	cmp -s "$T/stdout.pb" "$T/file.pb" || err "stdout and -o outputs differ"
	"$PERFCONV" to-proto -o "$T/stdin.pb" - < "$in" || err "stdin input failed"
	[ -s "$T/stdin.pb" ] || err "stdin input gave no output"
	ls "$T" | grep -q '\.tmp\.' && err "temporary file left behind"
fi
"$PERFCONV" to-proto -o "$T/none.pb" /nonexistent/perf.data 2> /dev/null && err "missing input accepted"
[ -e "$T/none.pb" ] && err "output written for a missing input"
bad=$(ls corpus/bad/* 2>/dev/null | head -20)
for in in $bad; do
	if ! "$PERFCONV" to-proto --strict -o "$T/strict.pb" "$in" 2> /dev/null; then
		[ -e "$T/strict.pb" ] && err "$(basename "$in"): --strict failed but left output"
	fi
	rm -f "$T/strict.pb"
done

[ $fail = 0 ] && echo "to-proto.sh: all passed"
exit $fail
