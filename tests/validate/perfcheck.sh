#!/bin/sh
# SPDX-License-Identifier: MIT
#
# perfcheck.sh - command-line tests of perfcheck:
#   - usage and exit codes (0 pass, 1 findings, 2 usage, 3 I/O; worst of several files),
#   - every valid recording passes with no error, and warns only where listed below,
#   - every damaged file of corpus/bad/MANIFEST gives its code at its offset,
#   - JSON and JUnit output parse, JSON strings have perf's escapes (exact bytes),
#     stdin and directory inputs work,
#   - --strict, --max-errors, -q, --check-buildids.
#
# Environment: O (build directory: bin or build-asan).
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
O=${O:-bin}
PC=$O/perfcheck
shared=../shared/corpus
TEST=perfcheck.sh
. "$top/tests/harness.sh"
test_tmpdir perfcheck-test
tmp=$T

# expect_rc RC CMD...: run CMD (stdout to $tmp/out, stderr to $tmp/err), check its exit code
expect_rc() {
	want=$1
	shift
	"$@" > "$tmp/out" 2> "$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		ok
	else
		ko "exit $got, want $want: $*"
		head -5 "$tmp/out" "$tmp/err" >&2
	fi
}

if [ ! -x "$PC" ]; then
	echo "perfcheck.sh: $PC missing (run make O=$O)" >&2
	exit 1
fi

# ---- usage and exit codes

expect_rc 2 "$PC"
expect_rc 2 "$PC" --no-such-option corpus/basic.data
expect_rc 2 "$PC" --format xml corpus/basic.data
expect_rc 2 "$PC" --max-errors x corpus/basic.data
expect_rc 2 "$PC" --symfs /tmp corpus/basic.data
expect_rc 0 "$PC" --help
grep -q 'Exit status' "$tmp/out" && ok || ko "--help does not describe the exit status"
expect_rc 0 "$PC" --version
expect_rc 0 "$PC" --list-checks
# the catalogue: every code once, with severity and text; the 6xx checks included
for code in PD001 PD008 PD107 PD209 PD301 PD403 PD501 PD603 PD604 PD611 PD614 PD619 PD627 PD628 \
	PD629 PD630 PD631; do
	grep -q "^$code " "$tmp/out" && ok || ko "--list-checks lacks $code"
done
n=$(wc -l < "$tmp/out")
u=$(cut -d' ' -f1 "$tmp/out" | sort -u | wc -l)
[ "$n" -eq "$u" ] && [ "$n" -gt 100 ] && ok || ko "--list-checks: $n lines, $u distinct codes"
# --format json: the same catalogue as one JSON document; junit has none
cp "$tmp/out" "$tmp/checks.txt"
expect_rc 0 "$PC" --list-checks --format json
if command -v python3 > /dev/null; then
	python3 - "$tmp/out" "$tmp/checks.txt" <<'EOF' && ok || ko "--list-checks --format json is not the catalogue as JSON"
import json, sys
d = json.load(open(sys.argv[1]))
text = [l.split()[:3] for l in open(sys.argv[2])]
assert [[c["code"], c["severity"], c["name"]] for c in d["checks"]] == text
assert all(c["description"] for c in d["checks"])
EOF
else
	grep -q '^{"checks":\[' "$tmp/out" && ok || ko "--list-checks --format json prints no JSON"
fi
expect_rc 2 "$PC" --list-checks --format junit
expect_rc 3 "$PC" "$tmp/no-such-file.data"
grep -q 'PD901' "$tmp/out" && ok || ko "missing file: no PD901 finding"
expect_rc 0 "$PC" corpus/basic.data
grep -q '^corpus/basic.data: [0-9]* records, 0 errors, 0 warnings, 0 notes: PASS$' "$tmp/out" && ok ||
	ko "summary line of basic.data: $(cat "$tmp/out")"
expect_rc 1 "$PC" corpus/basic.data corpus/bad/bad-magic.data
expect_rc 3 "$PC" corpus/bad/bad-magic.data "$tmp/no-such-file.data"
expect_rc 0 "$PC" -q corpus/basic.data
[ -s "$tmp/out" ] && ko "-q printed something for a valid file" || ok
expect_rc 1 "$PC" -q corpus/bad/zero-size-record.data
grep -q 'PD317' "$tmp/out" && ok || ko "-q hides the error"
grep -q 'note\|records' "$tmp/out" && ko "-q shows notes or the summary" || ok

# warnings pass, unless --strict
expect_rc 0 "$PC" corpus/bad/unknown-feature-bit.data
expect_rc 1 "$PC" --strict corpus/bad/unknown-feature-bit.data
# notes never fail
expect_rc 0 "$PC" --strict corpus/lost.data

# --max-errors stops the file and says so
expect_rc 1 "$PC" --max-errors 1 --max-per-code 0 corpus/bad/check-round-order.data
grep -q 'PD621' "$tmp/out" && ok || ko "--max-errors: no PD621"
[ "$(grep -c ': error PD' "$tmp/out")" -eq 1 ] && ok || ko "--max-errors 1 reported more than one error"
# N means N for every damaged file, whether the errors come from one record,
# the header or the features: shown and counted, in text and JSON
for f in corpus/bad/*.data; do
	"$PC" --max-errors 1 --max-per-code 0 "$f" > "$tmp/out" 2> "$tmp/err"
	shown=$(grep -c ': error PD' "$tmp/out")
	if [ "$shown" -le 1 ] && tail -n 1 "$tmp/out" | grep -q ": [0-9]* records\{0,1\}, [01] errors\{0,1\}, "; then
		ok
	else
		ko "--max-errors 1 $f: $shown errors shown; $(tail -n 1 "$tmp/out")"
	fi
	"$PC" --max-errors 1 --max-per-code 0 --format json "$f" > "$tmp/out" 2> "$tmp/err"
	grep -q '"errors":[01],' "$tmp/out" && ok || ko "--max-errors 1 --format json $f: more than 1 error"
done

# stdin: pipe mode streamed, file mode spooled
expect_rc 0 sh -c "\"$PC\" - < corpus/basic.pipe.data"
expect_rc 0 sh -c "cat corpus/basic.data | \"$PC\" -"
expect_rc 0 sh -c "cat corpus/compressed.pipe.data | \"$PC\" -"
expect_rc 1 sh -c "cat corpus/bad/zero-size-record.data | \"$PC\" -"

# ---- valid recordings: exit 0, no error, only the expected warnings

# FILE CODES: warnings a user wants to see on a valid file (none elsewhere)
cat > "$tmp/expected-warnings" <<'EOF'
perf.data.armv7.perf_3.14-3.8 PD216
perf_b.data PD605
perf_with_arm_regs.data PD101
EOF

set --
for f in corpus/*.data corpus/*.dir; do
	set -- "$@" "$f"
done
if [ -d "$shared" ]; then
	for f in "$shared"/quipper/perf.data.* "$shared"/simpleperf/*.data; do
		case $f in
		*.pb_text|*.buildids|*corrupted*|*/invalid_perf.data|*/etm_perf_inject.data) continue ;;
		esac
		set -- "$@" "$f"
	done
else
	echo "perfcheck.sh: $shared not found, project corpus only"
fi
nvalid=0
for f in "$@"; do
	nvalid=$((nvalid + 1))
	"$PC" --max-per-code 0 "$f" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		ko "valid $f: exit $rc"
		grep ': error PD' "$tmp/out" | head -3 >&2
		continue
	fi
	want=$(awk -v n="$(basename "$f")" '$1 == n { print $2 }' "$tmp/expected-warnings" | sort -u)
	got=$(sed -n 's/.*: warning \(PD[0-9]*\).*/\1/p' "$tmp/out" | sort -u)
	if [ "$want" = "$got" ]; then
		ok
	else
		ko "valid $f: warnings '$got', expected '$want'"
	fi
done

# ---- damaged files: the documented code at the documented offset

nbad=0
while IFS='|' read -r name code off what; do
	case $name in '#'*|'') continue ;; esac
	name=$(echo $name)
	code=$(printf 'PD%03d' "$(echo $code)")
	hex=$(printf '0x%x' "$(echo $off)")
	nbad=$((nbad + 1))
	"$PC" --max-per-code 0 "corpus/bad/$name" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
		ko "bad/$name: exit $rc"
	elif grep -q "^corpus/bad/$name[^ ]*:$hex: [a-z]* $code" "$tmp/out"; then
		ok
	else
		ko "bad/$name: no $code at $hex"
		head -3 "$tmp/out" >&2
	fi
	# errors fail the run; a file whose point is a warning or a note passes
	sev=$("$PC" --list-checks | awk -v c="$code" '$1 == c { print $2 }')
	if [ "$sev" = error ] && [ $rc -ne 1 ]; then
		ko "bad/$name: $code is an error but exit $rc"
	fi
done < corpus/bad/MANIFEST

# ---- root causes: the cause is reported, its symptoms are not errors of their own

# NAME ERRORS WARNINGS: the whole count of findings that damaged file gives
while read -r name errs warns; do
	"$PC" --max-per-code 0 "corpus/bad/$name" > "$tmp/out" 2> "$tmp/err"
	want="$errs $(test "$errs" -eq 1 && echo error || echo errors), $warns $(test "$warns" -eq 1 && echo warning || echo warnings),"
	grep -q "^corpus/bad/$name: [0-9]* records, $want" "$tmp/out" && ok ||
		ko "bad/$name: want $want only the cause; got: $(grep -c PD "$tmp/out") findings"
done <<'EOF'
data-size-short.data 1 0
data-size-zero-features.data 0 1
check-after-data-end.data 1 0
attr-size-small.data 1 0
attr-size-wrong.data 1 0
attr-size-halves.data 1 0
feature-bit-no-section.data 1 0
feature-bits-no-section.data 2 0
check-sample-cpu-event.data 1 0
check-sample-cpu-event-far-ids.data 2 0
check-id-index-cpu.data 1 0
check-stack-user-unaligned.data 1 0
check-ids-unknown.data 4 0
check-stack-user-unaligned.pipe.data 1 1
check-sample-type-extra.data 1 0
check-sample-type-missing.data 1 0
check-read-format.data 1 0
check-regs-user.data 1 0
check-stack-user.data 1 0
check-feature-overlap.data 1 0
check-feature-in-table.data 1 0
check-feature-in-data.data 1 0
inject-cross-endian.data 0 1
EOF
# the value that fits, where one does
for nf in check-sample-type-extra.data:fits=0x107 check-sample-type-missing.data:fits=0x107 \
	  check-read-format.data:fits=0x1f check-regs-user.data:fits=3_regs \
	  check-stack-user.data:fits=2048; do
	"$PC" "corpus/bad/${nf%%:*}" > "$tmp/out" 2> "$tmp/err"
	grep -q "PD624.* ${nf#*:}\$" "$tmp/out" && ok || ko "bad/${nf%%:*}: PD624 without ${nf#*:}"
	grep -q "PD625.*cause=0x" "$tmp/out" && ok || ko "bad/${nf%%:*}: no PD625 summary pointing at the cause"
done

# an overlap before its symptoms: the decode findings of the overlapping
# feature become one note right after the PD214 they come from
for nf in check-feature-overlap.data:0x1578:PD203 check-feature-in-table.data:0x12b0:PD203 \
	  check-feature-in-data.data:0x14d:PD202; do
	name=${nf%%:*} rest=${nf#*:}
	"$PC" "corpus/bad/$name" > "$tmp/out" 2> "$tmp/err"
	sed -n 's/^[^:]*:\(0x[0-9a-f]*\): [a-z]* \(PD[0-9]*\).*/\1 \2/p' "$tmp/out" | head -2 > "$tmp/order"
	printf '0x12b0 PD214\n%s PD628\n' "${rest%%:*}" | cmp -s - "$tmp/order" && ok ||
		ko "bad/$name: not PD214 then PD628 at ${rest%%:*}: $(cat "$tmp/order")"
	grep -q "PD628: .* findings=1 code=${rest#*:} cause=0x12b0\$" "$tmp/out" && ok ||
		ko "bad/$name: PD628 does not count its ${rest#*:} for the overlap at 0x12b0"
done
# two bits without a section: both named, each at its own header byte
"$PC" corpus/bad/feature-bits-no-section.data > "$tmp/out" 2> "$tmp/err"
grep -q "^corpus/bad/feature-bits-no-section.data:0x4b: error PD022: .* bit=24 feature=DIR_FORMAT entry=18 .*entries_written=20 bits_set=22\$" "$tmp/out" &&
	ok || ko "bad/feature-bits-no-section.data: no PD022 for bit 24 at 0x4b"
# records of an id that no attr owns: the first reported, the others counted at it
"$PC" --max-per-code 0 corpus/bad/check-ids-unknown.data > "$tmp/out" 2> "$tmp/err"
[ "$(grep -c 'PD311' "$tmp/out")" -eq 1 ] && ok || ko "bad/check-ids-unknown.data: PD311 more than once"
grep -q "^corpus/bad/check-ids-unknown.data:0x4a8: note PD631 .* id=2333 more_records=55 event_desc_attr=0 attr_ids_field=0x118\$" "$tmp/out" &&
	ok || ko "bad/check-ids-unknown.data: no PD631 counting the other 55 records"
# header findings in file-offset order
"$PC" --max-per-code 0 corpus/bad/check-event-types-out.data > "$tmp/out" 2> "$tmp/err"
sed -n 's/^[^:]*:\(0x[0-9a-f]*\): .*/\1/p' "$tmp/out" | while read -r o; do printf '%d\n' "$o"; done > "$tmp/offs"
[ "$(wc -l < "$tmp/offs")" -eq 2 ] && sort -n -c "$tmp/offs" && ok ||
	ko "check-event-types-out.data: header findings not in offset order"

# the samples' summary names their own code: a stack copy larger than sample_stack_user
"$PC" corpus/bad/check-stack-user.data > "$tmp/out" 2> "$tmp/err"
grep -q "^corpus/bad/check-stack-user.data:0xd60: note PD625 .*samples=4 code=PD627 cause=0xd0\$" "$tmp/out" &&
	ok || ko "bad/check-stack-user.data: no PD625 summary of 4 PD627 samples at 0xd60"

# ---- JSON and JUnit

expect_rc 1 "$PC" --format json corpus/basic.data corpus/bad/check-round-order.data corpus/bad/comm-no-nul.data
cp "$tmp/out" "$tmp/report.json"
if command -v python3 > /dev/null; then
	python3 - "$tmp/report.json" <<'EOF' && ok || ko "JSON report does not parse or lacks facts"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["summary"]["exit_code"] == 1 and d["summary"]["files"] == 3
f = d["files"][1]
assert f["summary"]["result"] == "fail" and f["summary"]["errors"] > 0
x = [g for g in f["findings"] if g["code"] == "PD603"][0]
for k in ("offset", "record_index", "record_type", "code", "severity", "message", "details"):
    assert k in x, k
assert x["record_type"] == "SAMPLE" and x["details"]["time"] == 1
assert d["files"][0]["summary"]["result"] == "pass"
EOF
else
	grep -q '"summary":{"files":3,' "$tmp/report.json" && grep -q '"code":"PD603"' "$tmp/report.json" &&
		ok || ko "JSON report lacks its summary or findings"
fi
# damaged strings stay valid JSON
expect_rc 1 "$PC" --format json corpus/bad/comm-no-nul.data corpus/bad/feature-string-overrun.data
if command -v python3 > /dev/null; then
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" && ok ||
		ko "JSON of damaged strings does not parse"
else
	sk "no python3 to parse the JSON of damaged strings"
fi

# strings by the one rule of every JSON output (common/json_str.h, perf's):
# short escapes, \u00XX for other control bytes, DEL as it is, U+FFFD
# for a byte that is not UTF-8; the input's name carries one of each
name=$(printf 'a\tb\nc\001d\177e\377f.data')
cp corpus/basic.data "$tmp/$name"
expect_rc 0 "$PC" --format json "$tmp/$name"
want=$(printf '"file":"%s/a\\tb\\nc\\u0001d\177e\357\277\275f.data"' "$tmp")
LC_ALL=C grep -qF "$want" "$tmp/out" && ok || ko "JSON: escapes of a name with TAB, LF, 0x01, DEL, 0xff"
if command -v python3 > /dev/null; then
	python3 - "$tmp/out" "$tmp" <<'EOF' && ok || ko "JSON of control, DEL and non-UTF-8 bytes does not parse to the name"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["files"][0]["file"] == sys.argv[2] + "/a\tb\nc\x01d\x7fe\ufffdf.data", d["files"][0]["file"]
EOF
else
	sk "no python3 to parse the JSON of escaped bytes"
fi
rm -f "$tmp/$name"

expect_rc 1 "$PC" --format junit corpus/basic.data corpus/bad/check-round-order.data
cp "$tmp/out" "$tmp/report.xml"
if command -v python3 > /dev/null; then
	python3 - "$tmp/report.xml" <<'EOF' && ok || ko "JUnit report is not well-formed or wrong"
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites"
suites = root.findall("testsuite")
assert len(suites) == 2
# a clean input: one passing test case
assert suites[0].get("tests") == "1" and suites[0].get("failures") == "0"
assert not suites[0].findall("testcase/failure")
# one test case per check that fired, one failure per failing check
cases = {c.get("name"): c for c in suites[1].findall("testcase")}
assert set(cases) == {"PD603 ROUND_ORDER", "PD612 SAMPLE_OUTSIDE_TIME_RANGE"}, cases.keys()
assert int(suites[1].get("tests")) == 2 and suites[1].get("failures") == "1"
f = cases["PD603 ROUND_ORDER"].findall("failure")
assert len(f) == 1 and f[0].get("type") == "PD603"
assert f[0].text.count("PD603") == 15 and "15 error findings" in f[0].get("message")
assert not cases["PD612 SAMPLE_OUTSIDE_TIME_RANGE"].findall("failure")
assert "PD612" in cases["PD612 SAMPLE_OUTSIDE_TIME_RANGE"].find("system-out").text
EOF
else
	grep -q '^<testsuites' "$tmp/report.xml" && grep -q '</testsuites>' "$tmp/report.xml" &&
		ok || ko "JUnit report lacks its root"
fi
# --strict: the warning's test case fails too
expect_rc 1 "$PC" --strict --format junit corpus/bad/check-round-order.data
[ "$(grep -c '<failure ' "$tmp/out")" -eq 2 ] && ok || ko "JUnit --strict: not one failure per failing check"

# ---- --check-buildids

mkdir -p "$tmp/symfs"
expect_rc 0 "$PC" --check-buildids --symfs "$tmp/symfs" corpus/basic.data
grep -q 'note PD623' "$tmp/out" && ok || ko "--check-buildids: no PD623 for a missing binary"
# a binary with another build id under the recorded path
path=$(sed -n 's/.*PD623.*file=\(\/[^ ]*\).*/\1/p' "$tmp/out" | head -1)
elf=
for e in /usr/bin/true /bin/true /bin/ls; do
	[ -f "$e" ] && elf=$e && break
done
if [ -n "$path" ] && [ -n "$elf" ]; then
	mkdir -p "$tmp/symfs$(dirname "$path")"
	cp "$elf" "$tmp/symfs$path"
	expect_rc 0 "$PC" --check-buildids --symfs "$tmp/symfs" corpus/basic.data
	grep -q "warning PD622.*file=$path" "$tmp/out" && ok || ko "--check-buildids: no PD622 for $path"
	expect_rc 1 "$PC" --strict --check-buildids --symfs "$tmp/symfs" corpus/basic.data
	# the id found in the binary is the one readelf shows
	want=$(readelf -n "$elf" 2>/dev/null | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p' | head -1)
	if [ -n "$want" ]; then
		got=$(sed -n "s|.*PD622.*file=$path .*found=\([0-9a-f]*\).*|\1|p" "$tmp/out" | head -1)
		[ "$got" = "$want" ] && ok || ko "--check-buildids: found=$got, readelf says $want"
	else
		sk "no readelf, or no build id in $elf"
	fi
fi

# records past data.size (PD313): basic.data without features, its data
# section cut before its last 3 records, then before its last one (a lone
# record could be chance: no finding); where they start and how many
# bytes follow, from a walk of the records here
if command -v python3 > /dev/null; then
	python3 - corpus/basic.data "$tmp" > "$tmp/cut.txt" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
doff, dsize = struct.unpack_from("<QQ", b, 40)
recs, pos = [], doff
while pos < doff + dsize:
    recs.append(pos)
    pos += struct.unpack_from("<H", b, pos + 6)[0]
b[72:104] = bytes(32)
for cut in (3, 1):
    struct.pack_into("<Q", b, 48, recs[-cut] - doff)
    open("%s/cut%d.data" % (sys.argv[2], cut), "wb").write(b)
    print(cut, recs[-cut], len(b) - recs[-cut])
EOF
	read -r _ end3 bytes3 < "$tmp/cut.txt"
	expect_rc 0 "$PC" "$tmp/cut3.data"
	grep -q "^$tmp/cut3.data:$(printf '0x%x' "$end3"): warning PD313: .* data_end=$end3 records=3 bytes=$bytes3\$" \
		"$tmp/out" && ok || ko "records past data.size: $(head -1 "$tmp/out")"
	expect_rc 1 "$PC" --strict "$tmp/cut3.data"
	expect_rc 0 "$PC" "$tmp/cut1.data"
	grep -q PD313 "$tmp/out" && ko "one record past data.size taken for records" || ok
else
	# three exit statuses, two findings
	sk_count 5 "no python3 to cut basic.data's data section"
fi

test_summary "($nvalid valid inputs, $nbad damaged inputs)"
