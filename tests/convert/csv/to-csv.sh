#!/bin/sh
# to-csv.sh - perfconv to-csv end to end.
#
#  1. SQL checks: the tables of corpus files are loaded into SQLite
#     (sqlite3 .import --csv, which also rejects rows whose field count
#     differs from the header) and checked with SQL: record counts per type
#     equal `perfconv info`, one samples row per sample, self samples in
#     functions add up to the samples, processes agrees with samples, the
#     folded counts add up to the samples of their event, samples and
#     records are in time order.  The records table's summary is, row for
#     row, the text `perfconv dump --time-order` prints after the record's
#     type without a sample's callchain=[...] list, and the values in the
#     summaries of MMAP, MMAP2, COMM, FORK and EXIT records are those of
#     `perf script --show-mmap-events --show-task-events`.
#  2. command line: one table on stdout, usage errors, bad input (warnings
#     with offsets, exit 1; --strict writes nothing; a read error, exit 3,
#     leaves no table), no temporary file left behind, a summary with '"',
#     ',' and an invalid UTF-8 byte quoted and repaired.
#  3. fidelity against perf on recordings made here: functions against
#     `perf report --stdio --sort dso,sym` (samples per symbol), folded
#     against a stackcollapse-perf folding of `perf script`, each >= 99 %
#     of the samples.  Counted as skipped without perf or without the
#     right to record.
#
# Run from the project root with O=<build dir> (make test does).
set -u

O=${O:-bin}
PERFCONV=${PERFCONV:-$O/perfconv}
# a perf that runs on this kernel, or PERF="" (tests/find-perf.sh)
. "$(dirname "$0")/../../find-perf.sh"
. "$(dirname "$0")/../../fold-stacks.sh"
TEST=to-csv.sh
. "$(dirname "$0")/../../harness.sh"
test_tmpdir to-csv-test
MIN_AGREE=99

if ! command -v sqlite3 > /dev/null 2>&1; then
	echo "to-csv.sh: sqlite3 missing (Debian package sqlite3, see scripts/install-deps.sh)" >&2
	exit 1
fi

# load DIR DB: every DIR/*.csv (folded excepted) as a table of its name
load() {
	rm -f "$2"
	for f in "$1"/*.csv; do
		t=$(basename "$f" .csv)
		[ "$t" = folded ] && continue
		echo ".import --csv '$f' $t"
	done > "$T/load.sql"
	sqlite3 "$2" < "$T/load.sql" > "$T/load.err" 2>&1
	if [ -s "$T/load.err" ]; then
		ko "$3: sqlite3 .import: $(head -3 "$T/load.err")"
		return 1
	fi
	ok
}

q() {
	sqlite3 -batch "$1" "$2"
}

# expect NAME SQL WANT: the query result must be WANT
expect() {
	got=$(q "$DB" "$2")
	[ "$got" = "$3" ] && ok || ko "$NAME: $1: got '$got', want '$3'"
}

# perf_side DATA: perf script's MMAP, MMAP2, COMM, FORK and EXIT records,
# one line each: TYPE pid/tid start len pgoff filename, COMM [exec] pid/tid
# comm, FORK|EXIT pid:tid ppid:ptid
perf_side() {
	"$PERF" script -i "$1" --show-mmap-events --show-task-events -F tid 2> /dev/null |
	sed -n -e 's/.*PERF_RECORD_\(MMAP2*\) \([-0-9]*\/[-0-9]*\): \[\(0x[0-9a-f]*\)(\(0x[0-9a-f]*\)) @ \([0-9a-fx]*\)[^]]*\]: [^ ]* \(.*\)$/\1 \2 \3 \4 \5 \6/p' \
	       -e 's/.*PERF_RECORD_COMM\( exec\)*: \(.*\):\([-0-9]*\/[-0-9]*\)$/COMM\1 \3 \2/p' \
	       -e 's/.*PERF_RECORD_\(FORK\|EXIT\)(\([-0-9]*:[-0-9]*\)):(\([-0-9]*:[-0-9]*\))$/\1 \2 \3/p' |
	sort
}

# our_side: the same lines from the summaries of the records table in $DB
our_side() {
	q "$DB" "SELECT type || ' ' || summary FROM records
		 WHERE type IN ('MMAP', 'MMAP2', 'COMM', 'FORK', 'EXIT')" |
	awk 'function v(k) {
		if (!match($0, " " k "=[^ ]*"))
			return "?"
		return substr($0, RSTART + length(k) + 2, RLENGTH - length(k) - 2)
	     }
	     # a string field runs to the sample_id fields (names may hold spaces)
	     function str(k,   s) {
		if (!match($0, " " k "=.*"))
			return "?"
		s = substr($0, RSTART + length(k) + 2)
		sub(/ sid\..*$/, "", s)
		return s
	     }
	     $1 ~ /^MMAP/ {
		pgoff = v("pgoff") == "0x0" ? 0 : v("pgoff")	# perf: %#lx
		print $1, v("pid") "/" v("tid"), v("start"), v("len"), pgoff, str("filename")
		next
	     }
	     $1 == "COMM" {
		print "COMM" (v("exec") == "1" ? " exec" : ""), v("pid") "/" v("tid"), str("comm")
		next
	     }
	     { print $1, v("pid") ":" v("tid"), v("ppid") ":" v("ptid") }' | sort
}

# ---- 1. SQL checks over corpus files
DB=$T/t.db
checked=0
side_checked=0
side_no_perf=0	# summaries not compared with perf script: no perf
for in in corpus/basic.data corpus/basic.pipe.data corpus/callchain-fp.data \
	  corpus/callchain-fp.pipe.data corpus/compressed.data corpus/multi-event.data \
	  corpus/multi-event.pipe.data corpus/lost.data corpus/sched.data corpus/namespaces.data \
	  corpus/group-read.data corpus/no-samples.data corpus/bpf.data \
	  corpus/callchain-dwarf.data corpus/per-thread.data; do
	[ -f "$in" ] || continue
	NAME=$(basename "$in")
	D=$T/out
	rm -rf "$D"
	if ! "$PERFCONV" to-csv -o "$D" "$in" 2> "$T/err"; then
		ko "$NAME: to-csv failed: $(head -2 "$T/err")"
		continue
	fi
	ok
	ls -A "$D" | grep -q '\.tmp\.' && ko "$NAME: temporary file left in the output directory" || ok
	load "$D" "$DB" "$NAME" || continue
	checked=$((checked + 1))

	# record counts per type, as perfconv info counts them
	"$PERFCONV" info "$in" 2> /dev/null |
		awk '/^records:/ { on = 1; next } /^summary:/ { on = 0 } on { print $1 "|" $2 }' |
		sort > "$T/info.txt"
	q "$DB" "SELECT type, count FROM stats WHERE event = ''" | sort > "$T/stats.txt"
	if cmp -s "$T/info.txt" "$T/stats.txt"; then
		ok
	else
		ko "$NAME: stats differs from perfconv info:"
		diff "$T/info.txt" "$T/stats.txt" | head -10
	fi
	# samples as perf counts them: a leader-sampling record is one per
	# group member (pd_members.h), so the SAMPLE row's samples, not count
	nsamples=$(q "$DB" "SELECT coalesce((SELECT samples FROM stats WHERE type = 'SAMPLE' AND event = ''), 0)")
	expect "one samples row per sample" "SELECT count(*) FROM samples" "$nsamples"
	expect "records rows = records" "SELECT count(*) FROM records" \
		"$(q "$DB" "SELECT sum(count) FROM stats WHERE event = ''")"
	expect "per-event stats add up" \
		"SELECT coalesce(sum(samples), 0) FROM stats WHERE event != ''" "$nsamples"
	expect "self samples add up" "SELECT coalesce(sum(self_samples), 0) FROM functions" "$nsamples"
	expect "self samples per event" "SELECT count(*) FROM (
		SELECT event, count(*) AS n FROM samples GROUP BY event
		EXCEPT SELECT event, sum(self_samples) FROM functions GROUP BY event)" 0
	expect "total >= self" "SELECT count(*) FROM functions
		WHERE CAST(total_samples AS INTEGER) < CAST(self_samples AS INTEGER)" 0
	expect "processes agrees with samples" "SELECT count(*) FROM (
		SELECT pid, event, count(*), sum(period) FROM samples GROUP BY pid, event
		EXCEPT SELECT pid, event, CAST(samples AS INTEGER), CAST(period AS INTEGER)
		FROM processes WHERE CAST(samples AS INTEGER) > 0)" 0
	expect "samples agrees with processes" "SELECT count(*) FROM (
		SELECT pid, event, CAST(samples AS INTEGER), CAST(period AS INTEGER)
		FROM processes WHERE CAST(samples AS INTEGER) > 0
		EXCEPT SELECT pid, event, count(*), sum(period) FROM samples GROUP BY pid, event)" 0
	expect "samples in time order" "SELECT count(*) FROM (SELECT CAST(time AS INTEGER) AS t,
		lag(CAST(time AS INTEGER)) OVER (ORDER BY rowid) AS p FROM samples WHERE time != '')
		WHERE t < p" 0
	expect "mmaps rows" "SELECT count(*) FROM mmaps" \
		"$(q "$DB" "SELECT coalesce(sum(count), 0) FROM stats WHERE event = '' AND type IN ('MMAP', 'MMAP2')")"
	expect "comms rows" "SELECT count(*) FROM comms" \
		"$(q "$DB" "SELECT coalesce(sum(count), 0) FROM stats WHERE event = '' AND type = 'COMM'")"
	expect "lost rows" "SELECT count(*) FROM lost" \
		"$(q "$DB" "SELECT coalesce(sum(count), 0) FROM stats WHERE event = '' AND type IN ('LOST', 'LOST_SAMPLES')")"
	# folded: the samples of one event (the first sampled), each counted once
	if [ "$nsamples" -gt 0 ]; then
		fev=$(q "$DB" "SELECT event FROM samples ORDER BY rowid LIMIT 1")
		want=$(q "$DB" "SELECT count(*) FROM samples WHERE event = '$fev'")
		got=$(awk '{ n += $NF } END { print n + 0 }' "$D/folded.csv")
		[ "$got" = "$want" ] && ok || ko "$NAME: folded counts $got samples, want $want"
	fi
	# the summary is dump's text of the record after its type, in the same
	# order, but a sample's callchain list (callchain_nr stays)
	"$PERFCONV" dump --time-order "$in" 2> /dev/null | grep -v '^#' |
		sed -e '/^0x[0-9a-f]* \[[0-9]*\] SAMPLE /s/ callchain=\[[^]]*\]//' \
		    -e 's/^0x[0-9a-f]* \[[0-9]*\] [^ ]*//' -e 's/^ \[from [^]]*\]//' \
		    -e 's/ (not decoded)$//' -e 's/^ //' > "$T/dump.txt"
	q "$DB" "SELECT summary FROM records ORDER BY rowid" > "$T/summary.txt"
	if cmp -s "$T/dump.txt" "$T/summary.txt"; then
		ok
	else
		ko "$NAME: records.summary differs from perfconv dump:"
		diff "$T/dump.txt" "$T/summary.txt" | head -6
	fi
	# and its values are perf's
	if [ -n "$PERF" ]; then
		perf_side "$in" > "$T/perf.side"
		our_side > "$T/our.side"
		if [ ! -s "$T/perf.side" ] && [ -s "$T/our.side" ]; then
			sk "$NAME: perf script shows no MMAP/COMM/FORK/EXIT record"
		elif cmp -s "$T/perf.side" "$T/our.side"; then
			side_checked=$((side_checked + 1))
			ok
		else
			ko "$NAME: MMAP/COMM/FORK/EXIT summaries differ from perf script:"
			diff "$T/perf.side" "$T/our.side" | head -6
		fi
	else
		side_no_perf=$((side_no_perf + 1))
	fi
done
echo "to-csv.sh: SQL checks on $checked corpus files"
if [ -n "$PERF" ]; then
	echo "to-csv.sh: MMAP/COMM/FORK/EXIT summaries = perf script on $side_checked corpus files"
else
	sk_count $side_no_perf "$PERF_MISSING: summaries not compared with perf script"
fi

# ---- 2. command line
in=corpus/callchain-fp.data
"$PERFCONV" to-csv -o "$T/cl" "$in" 2> /dev/null
if "$PERFCONV" to-csv --table stats "$in" > "$T/stats.csv" 2> "$T/err"; then
	cmp -s "$T/stats.csv" "$T/cl/stats.csv" && ok || ko "--table stats on stdout differs from -o DIR"
else
	ko "--table stats on stdout failed: $(head -1 "$T/err")"
fi
if "$PERFCONV" to-csv --table samples - < corpus/callchain-fp.pipe.data > "$T/s.csv" 2> /dev/null; then
	ok
else
	ko "to-csv - < pipe file failed"
fi
if [ "$(head -1 "$T/s.csv" | tr -d '\r')" = "index,time,pid,tid,comm,cpu,event,period,ip,sym,dso,callchain" ]; then
	ok
else
	ko "samples header: $(head -1 "$T/s.csv")"
fi
head -c 200 "$T/s.csv" | od -c | grep -q '\\r  \\n' && ok || ko "rows do not end with CRLF"
# a summary with '"', ',' and a byte that is not UTF-8 (basic.data's first
# COMM renamed): quoted, the quote doubled, the byte as U+FFFD, exactly
cp corpus/basic.data "$T/quote.data"
printf 'pe"f,\351ec' | dd of="$T/quote.data" bs=1 seek=$((0x1f0)) conv=notrunc 2> /dev/null
want=$(printf '4,,0x1e0,48,0,COMM,cpu-clock:ppp,8526,8526,,"pid=8526 tid=8526 comm=pe""f,\357\277\275ecc sid.pid=0 sid.tid=0 sid.time=0"')
got=$("$PERFCONV" to-csv --table records "$T/quote.data" 2> /dev/null | sed -n 6p | tr -d '\r')
[ "$got" = "$want" ] && ok || ko "quoted summary: got '$got', want '$want'"
for args in "" "--table nosuch" "--table stats --table samples" "-o $T/x" "--bogus"; do
	# shellcheck disable=SC2086
	"$PERFCONV" to-csv $args ${args:+$in} > /dev/null 2>&1
	rc=$?
	if [ "$args" = "-o $T/x" ]; then
		[ $rc = 0 ] && ok || ko "to-csv -o DIR: exit $rc"
		continue
	fi
	[ $rc = 2 ] && ok || ko "to-csv $args: exit $rc, want 2"
done
"$PERFCONV" to-csv -o "$T/nofile" "$T/does-not-exist" > /dev/null 2>&1
[ $? = 3 ] && ok || ko "missing input: want exit 3"

# bad input: converted as far as possible, warnings with offsets, exit 1
for bad in corpus/bad/truncated-mid-record.data corpus/bad/pipe-truncated.pipe.data; do
	[ -f "$bad" ] || continue
	rm -rf "$T/bad"
	"$PERFCONV" to-csv -o "$T/bad" "$bad" > /dev/null 2> "$T/err"
	rc=$?
	[ $rc = 1 ] && ok || ko "$(basename "$bad"): exit $rc, want 1"
	grep -q ':0x[0-9a-f]*: error PD' "$T/err" && ok || ko "$(basename "$bad"): no diagnostic with offset"
	[ -s "$T/bad/samples.csv" ] && ok || ko "$(basename "$bad"): no samples converted"
	rm -rf "$T/bad"
	"$PERFCONV" to-csv --strict -o "$T/bad" "$bad" > /dev/null 2>&1
	[ $? = 1 ] && ok || ko "$(basename "$bad") --strict: want exit 1"
	[ -z "$(ls -A "$T/bad" 2> /dev/null)" ] && ok || ko "$(basename "$bad") --strict: output left behind"
done

# an input that cannot be read to its end (a read error: exit 3) leaves no
# table and no directory, as no perfconv output is left by a failed run;
# the same stream read whole gives the tables of the file.  The read
# error: the first half of a stream in a pipe whose writer stays open,
# read without blocking (EAGAIN once the half is read).
if ! command -v python3 > /dev/null 2>&1; then
	# the reference's conversion, three checks of the half, two of the whole
	sk_count 6 "read error and whole stream from a pipe: python3 missing"
elif [ -f corpus/basic.pipe.data ]; then
	rm -rf "$T/ref"
	if "$PERFCONV" to-csv -o "$T/ref" corpus/basic.pipe.data > /dev/null 2>&1; then
		ok
	else
		ko "basic.pipe.data: exit $?"
	fi
	for part in half whole; do
		rm -rf "$T/rd"
		python3 - "$PERFCONV" corpus/basic.pipe.data "$T/rd" $part > /dev/null 2> "$T/err" <<'EOF'
import fcntl, os, subprocess, sys
perfconv, path, out, part = sys.argv[1:5]
data = open(path, 'rb').read()
r, w = os.pipe()
os.write(w, data if part == 'whole' else data[:len(data) // 2])  # fits the pipe
if part == 'whole':
    os.close(w)
fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_NONBLOCK)
sys.exit(subprocess.run([perfconv, 'to-csv', '-o', out, '-'], stdin=r).returncode)
EOF
		rc=$?
		if [ $part = half ]; then
			[ $rc = 3 ] && ok || ko "read error: exit $rc, want 3"
			if grep -q "^perfconv: cannot read '<stdin>' at offset 0x" "$T/err"; then
				ok
			else
				ko "read error: no message: $(head -1 "$T/err")"
			fi
			[ -e "$T/rd" ] && ko "read error: output left: $(ls -A "$T/rd" | tr '\n' ' ')" || ok
		else
			[ $rc = 0 ] && ok || ko "whole stream from a pipe: exit $rc, want 0"
			diff -r "$T/ref" "$T/rd" > /dev/null && ok || ko "whole stream from a pipe: other tables"
		fi
	done
fi

# ---- 3. fidelity against perf on fresh recordings
# agree FILE_A FILE_B: % of the counts of A that B has for the same key
# (lines "KEY COUNT", the count last)
agree() {
	awk 'function key(l) { sub(/ [0-9]+$/, "", l); return l }
	     FNR == NR { a[key($0)] += $NF; total += $NF; next }
	     { b[key($0)] += $NF }
	     END { for (k in a) if (k in b) same += (a[k] < b[k] ? a[k] : b[k]);
		   printf "%.2f\n", total ? 100 * same / total : 100 }' "$1" "$2"
}

# perf report samples per (dso, symbol), unresolved addresses as [unknown].
# pid is a sort key: perf report applies --pid to merged entries, so that
# without it an entry hit by several processes is kept or dropped whole,
# after the first process it saw (a system-wide recording then loses and
# gains samples both ways)
report_syms() {	# DATA [SELECTION...]
	d=$1
	shift
	"$PERF" report -i "$d" "$@" --stdio --sort pid,dso,sym -n --no-children -g none \
		--percent-limit 0 -q -t "$(printf '\t')" 2> /dev/null |
	awk -F'\t' 'NF >= 5 {
		n = $2; gsub(/ /, "", n)
		dso = $4; sub(/^ +/, "", dso); sub(/ +$/, "", dso)
		sym = $5; sub(/^\[.\] /, "", sym); sub(/ +$/, "", sym)
		if (sym ~ /^0x[0-9a-f]+$/) sym = "[unknown]"
		print dso "\t" sym "\t" n }'
}

compare_perf() {	# NAME DATA [SELECTION...]: the same selection given to perf and to us
	name=$1
	data=$2
	shift 2
	rm -rf "$T/p"
	if ! "$PERFCONV" to-csv -o "$T/p" --table functions,folded,samples "$@" "$data" 2> "$T/err"; then
		ko "$name: to-csv failed: $(head -1 "$T/err")"
		return
	fi
	ok
	load "$T/p" "$T/p.db" "$name" || return
	n=$(q "$T/p.db" "SELECT count(*) FROM samples")
	# ours: (basename of dso, sym) -> self samples, as perf report names DSOs
	q "$T/p.db" "SELECT replace(dso, rtrim(dso, replace(dso, '/', '')), '') || char(9) ||
		sym || ' ' || sum(self_samples) FROM functions GROUP BY dso, sym
		HAVING sum(self_samples) > 0" > "$T/ours.txt"
	report_syms "$data" "$@" | awk -F'\t' '{ k = $1 "\t" $2; c[k] += $3 } END { for (k in c) print k " " c[k] }' \
		> "$T/perf.txt"
	if [ ! -s "$T/perf.txt" ]; then
		sk "$name: perf report printed nothing: functions not compared"
	else
		a=$(agree "$T/perf.txt" "$T/ours.txt")
		echo "to-csv.sh: $name: functions vs perf report: $a % of $n samples agree"
		if awk -v a="$a" -v m=$MIN_AGREE 'BEGIN { exit !(a >= m) }'; then
			ok
		else
			ko "$name: functions agree with perf report on $a % < $MIN_AGREE %"
			sort "$T/perf.txt" > "$T/a"; sort "$T/ours.txt" > "$T/b"
			diff "$T/a" "$T/b" | head -10
		fi
	fi
	"$PERF" script -i "$data" "$@" -F comm,tid,ip,sym,dso 2> /dev/null | fold_script > "$T/script.folded"
	a=$(agree "$T/script.folded" "$T/p/folded.csv")
	echo "to-csv.sh: $name: folded vs perf script folding: $a % agree"
	if awk -v a="$a" -v m=$MIN_AGREE 'BEGIN { exit !(a >= m) }'; then
		ok
	else
		ko "$name: folded agrees with perf script on $a % < $MIN_AGREE %"
		sort "$T/script.folded" > "$T/a"; sort "$T/p/folded.csv" > "$T/b"
		diff "$T/a" "$T/b" | head -10
	fi
}

# the two recordings: each converted, loaded, and its functions and folded
# compared (four checks)
if [ -z "$PERF" ]; then
	sk_count 8 "$PERF_MISSING: recordings not compared with perf report / perf script"
elif ! "$PERF" record -q -o "$T/probe.data" -- true > /dev/null 2>&1; then
	sk_count 8 "perf cannot record here (perf_event_paranoid?): recordings not compared"
elif ! cc -O1 -g -fno-omit-frame-pointer -o "$T/spin" tests/workloads/spin.c 2> /dev/null; then
	sk_count 8 "cannot build tests/workloads/spin.c: recordings not compared"
else
	if "$PERF" record -q -F 2999 -g -o "$T/user.data" -- "$T/spin" 400 > /dev/null 2>&1; then
		compare_perf "user callchains" "$T/user.data"
	else
		ko "perf record -g failed"
	fi
	if "$PERF" record -q -a -g -F 999 -o "$T/sys.data" -- \
		"$PERF" bench sched messaging -g 2 -l 200 > /dev/null 2>&1; then
		# only the workload's processes: what else ran on the machine
		# (short-lived processes of a busy host) is not this test's.
		# Selected by pid, which perf report and perf script agree on (a
		# command name they do not: report takes a thread's last name,
		# script its name at the sample, and the workers rename
		# themselves after the fork)
		pids=$("$PERF" script -i "$T/sys.data" --comm sched-messaging -F pid 2> /dev/null |
		       awk '{ print $1 }' | sort -un | paste -sd, -)
		if [ -n "$pids" ]; then
			compare_perf "system-wide" "$T/sys.data" --pid "$pids"
		else
			sk_count 4 "system-wide: perf script shows no sched-messaging sample"
		fi
	else
		sk_count 4 "perf record -a not allowed here: system-wide recording not compared"
	fi
fi

test_summary
