#!/bin/sh
# to-pprof.sh - perfconv to-pprof read by the real clients.
#
#  1. For every input with samples (corpus/, and the quipper and simpleperf
#     files of ../shared/corpus when present):
#     - `go tool pprof -raw` parses the profile and its samples/count add
#       up to the samples of the input (to-csv's stats table);
#     - every mapping with a location that has a function is flagged
#       so (has_functions, pprof's rule), so that pprof does not
#       symbolize it again in place of perf's answers;
#     - the samples of every (pid, tid, comm) in `go tool pprof -raw`
#       labels are those of to-csv's samples table (pid and tid 0 too);
#     - the flat sample count of every function in `go tool pprof -top`
#       of a --no-inline profile equals the self samples of to-csv's
#       functions table (names as pprof shows them: unsymbolized addresses
#       as "[DSO basename]");
#     - the stacks of `go tool pprof -traces` (--no-srcline: inline frames
#       only where the stack was unwound, as perf shows them) are to-csv's
#       folded table, exactly (same event);
#     - `protoc --decode` with schema/profile.proto shows every part
#       (sample types, samples with pid/tid/comm labels, mappings with
#       build ids, locations, functions, comments), and decoding with
#       pprof's own schema (../shared/corpus/pprof) gives the same text:
#       every field has pprof's number and type.
#  2. Against perf: per-function flat counts against `perf report --sort
#     dso,sym` on the inputs perf reads and on a recording made here
#     (>= 99 % of all their samples agree; each file's figure is printed
#     when below 100 %).
#     When the recording's kernel is not the running one (decided as in
#     to-json.sh), perf would name kernel frames from the wrong kallsyms:
#     kernel frames are then compared by address, as one
#     "[[kernel.kallsyms]]" entry on both sides (perfconv run with an empty
#     --kallsyms).
#     The recordings made here (a C program, a C++ one with inlining,
#     with frame pointers and with DWARF unwinding) have their program as
#     the first mapping (pprof's main binary), and no mangled function
#     names in `go tool pprof -top` (their mangled names as system_name).
#  3. Memory budgets: with PERFCONV_PPROF_BUDGET=1, every stack goes
#     through the spill file and the table of locations starts again
#     every dozen; pprof must read the same flat counts and stacks.
#     Command line: --event and --pid choose samples and sample types,
#     --no-unwind gives to-csv's stacks without unwinding,
#     usage errors, bad input (diagnostics with offsets, exit 1; --strict
#     leaves no output), no temporary file left behind.
# A comparison that cannot run (no go, no protoc, no perf) is counted as
# skipped and says why.
#
# Env: O = build directory (default bin), PERF = perf binary, GO = go binary.
set -u

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
O=${O:-bin}
case $O in /*) ;; *) O=$ROOT/$O ;; esac
PERFCONV=${PERFCONV:-$O/perfconv}
# a perf that runs on this kernel, or PERF="" (tests/find-perf.sh)
. "$ROOT/tests/find-perf.sh"
. "$ROOT/tests/fold-stacks.sh"
GO=${GO:-go}
SHARED=$ROOT/../shared/corpus
MIN_AGREE=99
TEST=to-pprof.sh
. "$ROOT/tests/harness.sh"
test_tmpdir to-pprof-test
export HOME="$T/home" GOFLAGS=-mod=mod GOTOOLCHAIN=local
mkdir -p "$HOME"
: > "$T/empty"
cd "$ROOT" || exit 1

[ -x "$PERFCONV" ] || { echo "to-pprof.sh: $PERFCONV not built: run make" >&2; exit 1; }
command -v sqlite3 > /dev/null 2>&1 ||
	{ echo "to-pprof.sh: sqlite3 missing (see scripts/install-deps.sh)" >&2; exit 1; }

have_go=0
if command -v "$GO" > /dev/null 2>&1 && "$GO" tool pprof -h > /dev/null 2>&1; then
	have_go=1
fi
NO_GO="go tool pprof not available (Debian golang-go, scripts/install-deps.sh)"
no_go=0		# checks that need go tool pprof, not made
no_protoc=0	# checks that need protoc, not made
have_protoc=0
command -v protoc > /dev/null 2>&1 && have_protoc=1
have_perf=0
command -v "$PERF" > /dev/null 2>&1 && "$PERF" version > /dev/null 2>&1 && have_perf=1

pprof() {
	"$GO" tool pprof -symbolize=none "$@"
}

# flat samples per function name as `go tool pprof -top` prints them: "NAME\tCOUNT"
pprof_flat() {
	pprof -top -noinlines -sample_index=samples -nodecount=1000000 -nodefraction=0 \
		-edgefraction=0 "$1" 2> /dev/null |
	awk 'on && NF >= 6 { name = $6; for (i = 7; i <= NF; i++) name = name " " $i
			     if ($1 + 0 > 0) c[name] += $1 }
	     /^ *flat  *flat%/ { on = 1 }
	     END { for (n in c) print n "\t" c[n] }' | sort
}

# to-csv's functions table grouped the same way: "NAME\tCOUNT"
csv_flat() {
	sqlite3 -batch "$1" "SELECT name || char(9) || n FROM (
		SELECT CASE WHEN sym != '[unknown]' THEN sym
		WHEN dso = '[unknown]' THEN '<unknown>'
		ELSE '[' || replace(dso, rtrim(dso, replace(dso, '/', '')), '') || ']' END AS name,
		sum(CAST(self_samples AS INTEGER)) AS n FROM functions GROUP BY name) WHERE n > 0" |
	awk -F'\t' '{ c[$1] += $2 } END { for (n in c) print n "\t" c[n] }' | sort
}

# Is the kernel that recorded FILE the running one (perf_same_kernel of
# find-perf.sh)?  A file that names neither its kernel's build id nor its
# release is taken for another kernel's (nobody can resolve its kernel
# frames for sure).
running_kernel() {
	perf_same_kernel "$1"
}

# perf_flat FILE KADDR [PIPEFILE]: perf report's samples per function,
# named as pprof names them; with KADDR=1 every kernel frame is one
# "[[kernel.kallsyms]]" entry.  FILE "-" reads PIPEFILE on standard input.
perf_flat() {
	# perf crashes on some pipe inputs: the shell's message would be noise
	if [ "$1" = - ]; then
		# "|| :": the subshell must wait for perf itself (not exec it), so
		# that the message of a crash goes to its silenced stderr
		(timeout 120 "$PERF" report -i - --stdio --no-group --no-branch-stack --sort dso,sym -n --no-children \
			-g none --percent-limit 0 -q < "$3" || :) 2> /dev/null
	else
		timeout 120 "$PERF" report -i "$1" --stdio --no-group --no-branch-stack --sort dso,sym -n \
			--no-children -g none --percent-limit 0 -q 2> /dev/null
	fi |
	awk -v kaddr="$2" 'NF >= 5 && $1 ~ /%$/ {
		dso = $3; sym = $5; for (i = 6; i <= NF; i++) sym = sym " " $i
		# a kernel address is a kernel frame, whatever perf made of it
		if (kaddr && (dso == "[kernel.kallsyms]" || sym ~ /^0xffff[89a-f]/))
			sym = "[[kernel.kallsyms]]"
		else if (sym ~ /^0x[0-9a-f]+$/ || sym == "[unknown]") {
			b = dso; sub(/.*\//, "", b); sym = "[" b "]"
			if (dso == "[unknown]") sym = "<unknown>"
		}
		c[sym] += $2 }
	     END { for (n in c) print n "\t" c[n] }' | sort
}

# pprof -traces of a profile as to-csv's folded table: "comm;outer;...;inner
# count", frame names tidied as stackcollapse-perf tidies them
pprof_folded() {
	pprof -traces -sample_index=samples "$1" 2> /dev/null | pprof_traces_fold | sort
}

# agree A B: % of the counts of A that B has under the same name
agree() {
	awk -F'\t' 'FNR == NR { a[$1] += $2; total += $2; next } { b[$1] += $2 }
	     END { for (k in a) if (k in b) same += (a[k] < b[k] ? a[k] : b[k]);
		   printf "%.2f\n", total ? 100 * same / total : 100 }' "$1" "$2"
}

# agree_counts A B: "SAME TOTAL" sample counts of A that B has under the same name
agree_counts() {
	awk -F'\t' 'FNR == NR { a[$1] += $2; total += $2; next } { b[$1] += $2 }
	     END { for (k in a) if (k in b) same += (a[k] < b[k] ? a[k] : b[k]);
		   print same + 0, total + 0 }' "$1" "$2"
}

# samples by labels in `go tool pprof -raw` output RAW: "pid,tid,comm\tCOUNT"
# (a label pprof did not keep is empty)
raw_labels() {
	awk 'function flush() { if (have) c[pid "," tid "," comm] += cnt; have = 0 }
	     /^Samples:/ { on = 1; next }
	     /^Locations/ { flush(); on = 0 }
	     on && /^ *[0-9]+ .*:/ { flush(); have = 1; cnt = $1; comm = pid = tid = ""; next }
	     on && /^ +comm:\[/ { s = $0; sub(/^ +comm:\[/, "", s); sub(/\]$/, "", s); comm = s }
	     on && /pid:\[/ { s = $0; sub(/.*pid:\[/, "", s); sub(/[] ].*/, "", s); pid = s }
	     on && /tid:\[/ { s = $0; sub(/.*tid:\[/, "", s); sub(/[] ].*/, "", s); tid = s }
	     END { flush(); for (k in c) print k "\t" c[k] }' "$1" | sort
}

# the profile decoded with a schema: SCHEMA_DIR OUT
decode() {
	gzip -dc "$2" | protoc -I "$1" --decode=perftools.profiles.Profile profile.proto
}

# ---- 1. every input with samples
inputs=$(ls corpus/*.data 2> /dev/null)
if [ -d "$SHARED/quipper" ]; then
	inputs="$inputs $(ls "$SHARED"/quipper/perf.data.* | grep -v -e '\.pb_text$' -e '\.buildids$')"
	inputs="$inputs $(ls "$SHARED"/simpleperf/*.data 2> /dev/null)"
else
	sk "$SHARED not present: the quipper and simpleperf files are not read"
fi
# a recording made here, when perf can record: user callchains of a workload
if [ $have_perf = 1 ] && "$PERF" record -q -o "$T/probe.data" -- true > /dev/null 2>&1 &&
	cc -O1 -g -fno-omit-frame-pointer -o "$T/spin" tests/workloads/spin.c 2> /dev/null &&
	"$PERF" record -q -F 2999 -g -o "$T/recorded.data" -- "$T/spin" 400 > /dev/null 2>&1; then
	inputs="$inputs $T/recorded.data"
else
	sk "perf cannot record here (not installed, or perf_event_paranoid): no fresh recording"
fi
# a C++ program with templates and inlining (tests/workloads/tmpl.cc), with
# frame pointers and with DWARF unwinding
if [ -s "$T/recorded.data" ] && command -v g++ > /dev/null 2>&1 &&
	g++ -O2 -g -fno-omit-frame-pointer -o "$T/tmpl" tests/workloads/tmpl.cc 2> /dev/null; then
	"$PERF" record -q -F 2999 -g -o "$T/tmpl-fp.data" -- "$T/tmpl" 30 > /dev/null 2>&1 &&
		inputs="$inputs $T/tmpl-fp.data" || ko "perf record -g of tmpl failed"
	"$PERF" record -q -F 999 --call-graph dwarf -o "$T/tmpl-dwarf.data" -- "$T/tmpl" 10 \
		> /dev/null 2>&1 && inputs="$inputs $T/tmpl-dwarf.data" ||
		ko "perf record --call-graph dwarf of tmpl failed"
elif [ -s "$T/recorded.data" ]; then
	sk "g++ missing: no recording of a C++ program"
fi
files=0
for in in $inputs; do
	name=$(basename "$in")
	out=$T/out.pb.gz
	rm -rf "$out" "$T/db" "$T/csv"
	"$PERFCONV" to-csv -o "$T/csv" --table stats,functions,samples "$in" > /dev/null 2>&1
	csv_rc=$?
	"$PERFCONV" to-pprof -o "$out" "$in" > /dev/null 2> "$T/err"
	rc=$?
	if [ $rc != $csv_rc ]; then
		ko "$name: to-pprof exit $rc, to-csv $csv_rc: $(head -1 "$T/err")"
		continue
	fi
	[ $rc -le 1 ] || continue	# rejected input (not perf.data): both refused it
	if [ ! -s "$out" ]; then
		# exit 1 without output: the reader could not open it, as to-csv
		[ $rc = 1 ] && [ ! -s "$T/csv/stats.csv" ] || ko "$name: no output (exit $rc)"
		continue
	fi
	ls "$T" | grep -q '\.tmp' && ko "$name: temporary file left behind"
	sqlite3 -batch "$T/db" ".import --csv $T/csv/stats.csv stats" \
		".import --csv $T/csv/functions.csv functions" \
		".import --csv $T/csv/samples.csv samples" 2> /dev/null ||
		{ ko "$name: to-csv tables do not load"; continue; }
	want=$(sqlite3 -batch "$T/db" "SELECT coalesce(sum(CAST(samples AS INTEGER)), 0)
		FROM stats WHERE event != ''")
	[ "$want" -gt 0 ] || continue
	files=$((files + 1))

	if [ $have_protoc = 1 ]; then
		if decode schema "$out" > "$T/ours.txt" 2> "$T/perr"; then
			miss=""
			fields="'sample_type {' 'sample {' 'location_id:' 'value:' 'label {' \
				'location {' 'address:' 'string_table: \"samples\"' \
				'string_table: \"count\"' 'string_table: \"pid\"' 'period_type {'"
			# mappings where a frame fell in one
			[ "$(sqlite3 -batch "$T/db" "SELECT count(*) FROM functions
				WHERE dso != '[unknown]'")" = 0 ] ||
				fields="$fields 'mapping {' 'memory_limit:' 'filename:'"
			eval "set -- $fields"
			for field in "$@"; do
				grep -q "^ *$field" "$T/ours.txt" || miss="$miss '$field'"
			done
			# a file with a CMDLINE feature has it as the first comment
			if "$PERFCONV" info "$in" 2> /dev/null | grep -q '^  *cmdline'; then
				grep -q '^comment:' "$T/ours.txt" || miss="$miss 'comment:'"
			fi
			[ -z "$miss" ] && ok || ko "$name: protoc decode lacks$miss"
			if [ -f "$SHARED/pprof/profile.proto" ]; then
				decode "$SHARED/pprof" "$out" > "$T/theirs.txt" 2> /dev/null
				cmp -s "$T/ours.txt" "$T/theirs.txt" && ok ||
					ko "$name: decoded with pprof's schema, the profile reads differently"
			fi
		else
			ko "$name: protoc cannot decode the profile: $(head -1 "$T/perr")"
		fi
	else
		# the decoding, and the decoding with pprof's schema
		no_protoc=$((no_protoc + 1))
		[ -f "$SHARED/pprof/profile.proto" ] && no_protoc=$((no_protoc + 1))
	fi
	# the sample count, the stacks and the flat counts
	[ $have_go = 1 ] || { no_go=$((no_go + 3)); continue; }
	if ! pprof -raw "$out" > "$T/raw.txt" 2> "$T/gerr"; then
		ko "$name: go tool pprof -raw: $(head -1 "$T/gerr")"
		continue
	fi
	got=$(awk '/^Samples:/ { on = 1; next } /^Locations/ { on = 0 }
		   on && /^ *[0-9]+ .*:/ { n += $1 } END { print n + 0 }' "$T/raw.txt")
	[ "$got" = "$want" ] && ok || ko "$name: pprof counts $got samples, the input has $want"
	# a mapping with a symbolized location says so (has_functions, ...),
	# as pprof's symbolizer would: else pprof symbolizes all its
	# locations again with binutils, in place of perf's answers
	unflagged=$(awk '/^Locations/ { loc = 1; next } /^Mappings/ { loc = 0; map = 1; next }
		loc && $3 ~ /^M=/ && NF >= 4 { sub(/^M=/, "", $3); named[$3] = 1 }
		map && /^[0-9]+:/ && !/\[(FN|FL|LN)\]/ { id = $1; sub(/:$/, "", id); if (id in named) n++ }
		END { print n + 0 }' "$T/raw.txt")
	[ "$unflagged" = 0 ] && ok ||
		ko "$name: $unflagged mappings with symbolized locations lack has_functions"
	# labels: the samples of every (pid, tid, comm) of to-csv's samples
	# table, as pprof reads them (pid 0 included)
	raw_labels "$T/raw.txt" > "$T/plabels.txt"
	sqlite3 -batch "$T/db" "SELECT pid || ',' || tid || ',' || comm || char(9) || count(*)
		FROM samples GROUP BY pid, tid, comm" | sort > "$T/clabels.txt"
	if cmp -s "$T/plabels.txt" "$T/clabels.txt"; then
		ok
	else
		ko "$name: samples by pid, tid, comm labels differ from to-csv's samples (<, >):"
		diff "$T/clabels.txt" "$T/plabels.txt" | head -6 >&2
	fi
	# stacks: the folded table of the first event; inline frames only
	# where a stack was unwound, as perf shows them, with --no-srcline
	ev=$(sqlite3 -batch "$T/db" "SELECT event FROM stats WHERE event != ''
		AND CAST(samples AS INTEGER) > 0 LIMIT 1")
	case $ev in
	*,*) sk "$name: event '$ev' cannot be named in --event: stacks not compared" ;;
	*)
		"$PERFCONV" to-pprof --no-srcline --event "$ev" -o "$T/ev.pb.gz" "$in" 2> /dev/null
		"$PERFCONV" to-csv --table folded --event "$ev" "$in" 2> /dev/null |
			sort > "$T/folded.txt"
		pprof_folded "$T/ev.pb.gz" > "$T/pfolded.txt"
		# a DSO named "X (deleted)": stackcollapse-perf's split of "SYM (DSO)"
		# leaves a name cut after a space, differently on both sides
		for x in folded pfolded; do
			sed -E 's/(^|;)[^;]* (;| [0-9]+$)/\1~\2/g; s/(^|;)[^;]* (;| [0-9]+$)/\1~\2/g' \
				"$T/$x.txt" | sort > "$T/$x.n"
		done
		if cmp -s "$T/folded.n" "$T/pfolded.n"; then
			ok
		else
			ko "$name: pprof -traces stacks differ from to-csv's folded table (<, >):"
			diff "$T/folded.txt" "$T/pfolded.txt" | head -6 >&2
		fi
		;;
	esac
	# flat counts of the frames' own functions: where perf names the
	# function around an unwound frame's inline frames by its DWARF name
	# (init_cpu_features for init_cpu_features.constprop.0), the location
	# ends with that name as perf script shows it, while perf report and
	# the functions table charge the symbol; --no-inline has the symbol
	"$PERFCONV" to-pprof --no-inline -o "$T/flat.pb.gz" "$in" 2> /dev/null
	pprof_flat "$T/flat.pb.gz" > "$T/pflat.txt"
	csv_flat "$T/db" > "$T/cflat.txt"
	if cmp -s "$T/pflat.txt" "$T/cflat.txt"; then
		ok
	else
		ko "$name: pprof -top flat counts differ from the functions table (< pprof, > to-csv):"
		diff "$T/pflat.txt" "$T/cflat.txt" | head -6 >&2
	fi
	# perf report: the inputs it reads (recorded by perf, not simpleperf)
	[ $have_perf = 1 ] || continue
	case $in in */simpleperf/*) continue ;; esac
	"$PERFCONV" info "$in" > "$T/info.txt" 2> /dev/null
	if grep -q '^ *sample_type_names .*READ' "$T/info.txt"; then
		sk "$name: samples with group read values: perf report counts every member"
		continue
	fi
	if grep -q '^ *AUXTRACE  *[0-9]' "$T/info.txt"; then
		sk "$name: AUX trace: perf report adds samples decoded from it"
		continue
	fi
	kaddr=0
	case $in in
	*.pipe.data|*/perf.data.piped.*)
		(running_kernel - < "$in") 2> /dev/null || kaddr=1
		perf_flat - $kaddr "$in" > "$T/perf.txt" ;;
	*)
		running_kernel "$in" || kaddr=1
		perf_flat "$in" $kaddr > "$T/perf.txt" ;;
	esac
	if [ $kaddr = 1 ]; then
		# ours by address too: no kernel symbols at all
		"$PERFCONV" to-pprof --no-inline --kallsyms "$T/empty" -o "$T/k.pb.gz" "$in" 2> /dev/null
		pprof_flat "$T/k.pb.gz" > "$T/pflat.txt"
	fi
	if [ ! -s "$T/perf.txt" ]; then
		sk "$name: perf report prints nothing for it"
		continue
	fi
	a=$(agree "$T/perf.txt" "$T/pflat.txt")
	[ "$a" = 100.00 ] || echo "to-pprof.sh: $name: pprof vs perf report: $a % agree"
	agree_counts "$T/perf.txt" "$T/pflat.txt" >> "$T/agree.txt"
done
echo "to-pprof.sh: $files inputs with samples converted"
if [ -s "$T/agree.txt" ]; then
	# over all inputs: a few samples of a small file may be attributed
	# differently (perf's guesses at kernel addresses without a kernel map)
	a=$(awk '{ s += $1; t += $2 } END { printf "%.2f", t ? 100 * s / t : 100 }' "$T/agree.txt")
	n=$(wc -l < "$T/agree.txt")
	echo "to-pprof.sh: pprof flat counts vs perf report over $n inputs: $a % of the samples agree"
	awk -v a="$a" -v m=$MIN_AGREE 'BEGIN { exit !(a >= m) }' && ok ||
		ko "pprof flat counts agree with perf report on $a % < $MIN_AGREE % of the samples"
fi
sk_count $no_go "$NO_GO: $files inputs not read with pprof"
sk_count $no_protoc "protoc missing: $files profiles not decoded"
if [ $have_perf = 0 ]; then
	sk "perf missing: no comparison with perf report"
elif [ $have_go = 0 ]; then
	sk "$NO_GO: no comparison with perf report"
fi

# ---- the main binary first, names demangled
# pprof takes the first mapping for the main binary ("File:" of its
# reports): the recorded program, not the dynamic linker whose code runs
# first.  Inline functions from debug info are named as perf names them
# (demangled) and keep their mangled name as system_name.
if [ $have_go = 1 ]; then
	for x in recorded:spin tmpl-fp:tmpl tmpl-dwarf:tmpl; do
		in=$T/${x%%:*}.data
		[ -s "$in" ] || continue
		"$PERFCONV" to-pprof -o "$T/m.pb.gz" "$in" 2> /dev/null
		file=$(pprof -top -nodecount=1 "$T/m.pb.gz" 2> /dev/null | sed -n 's/^File: //p')
		[ "$file" = "${x#*:}" ] && ok || ko "${x%%:*}.data: the main binary is '$file', want ${x#*:}"
	done
	if [ -s "$T/tmpl-fp.data" ]; then
		"$PERFCONV" to-pprof -o "$T/m.pb.gz" "$T/tmpl-fp.data" 2> /dev/null
		mangled=$(pprof -top -nodecount=1000000 "$T/m.pb.gz" 2> /dev/null | grep -c ' _Z')
		system=$(pprof -raw "$T/m.pb.gz" 2> /dev/null | grep -c '(_Z')
		[ "$mangled" = 0 ] && [ "$system" -gt 0 ] && ok ||
			ko "tmpl-fp.data: $mangled mangled function names, $system mangled system names"
	fi
elif [ -s "$T/recorded.data" ]; then
	sk_count 4 "$NO_GO: the main binary and the function names not read with pprof"
fi

# ---- 3. memory budgets: spill file and early location writes read the same
if [ $have_go = 1 ]; then
	for in in corpus/callchain-fp.data corpus/multi-event.pipe.data \
		  "$SHARED/quipper/perf.data.callgraph-3.8"; do
		[ -f "$in" ] || continue
		name=$(basename "$in")
		"$PERFCONV" to-pprof -o "$T/a.pb.gz" "$in" 2> /dev/null
		PERFCONV_PPROF_BUDGET=1 "$PERFCONV" to-pprof -o "$T/b.pb.gz" "$in" 2> /dev/null
		pprof_flat "$T/a.pb.gz" > "$T/a.txt"
		pprof_flat "$T/b.pb.gz" > "$T/b.txt"
		pprof_folded "$T/a.pb.gz" > "$T/af.txt"
		pprof_folded "$T/b.pb.gz" > "$T/bf.txt"
		[ -s "$T/a.txt" ] && cmp -s "$T/a.txt" "$T/b.txt" && cmp -s "$T/af.txt" "$T/bf.txt" &&
			ok || ko "$name: the profile made with the smallest budgets reads differently"
	done
else
	sk_count "$(ls corpus/callchain-fp.data corpus/multi-event.pipe.data \
		    "$SHARED/quipper/perf.data.callgraph-3.8" 2> /dev/null | wc -l)" \
		"$NO_GO: the profiles of the smallest budgets not compared"
fi

# ---- 3. command line
in=corpus/multi-event.data
if [ -f "$in" ] && [ $have_protoc = 1 ]; then
	# --event: that event's samples and its column only
	"$PERFCONV" to-pprof --event task-clock -o "$T/ev.pb.gz" "$in" 2> /dev/null
	decode schema "$T/ev.pb.gz" > "$T/ev.txt" 2> /dev/null
	n=$(grep -c '^sample_type {' "$T/ev.txt")
	[ "$n" = 2 ] && grep -q '^string_table: "task-clock"' "$T/ev.txt" &&
		! grep -q '^string_table: "page-faults"' "$T/ev.txt" && ok ||
		ko "--event task-clock: $n sample types, want samples and task-clock"
	# every event with samples has its column, in the file's order
	"$PERFCONV" to-pprof -o "$T/all.pb.gz" "$in" 2> /dev/null
	decode schema "$T/all.pb.gz" > "$T/all.txt" 2> /dev/null
	types=$(awk '/^sample_type \{/ { on = 1; next } on && /type:/ { t[++n] = $2; on = 0 }
		     /^string_table:/ { s[i++] = $0 }
		     END { for (k = 1; k <= n; k++) { x = s[t[k]]; sub(/^string_table: /, "", x); printf "%s ", x } }' \
		"$T/all.txt")
	[ "$types" = '"samples" "cpu-clock" "task-clock" "page-faults" ' ] && ok ||
		ko "sample types of multi-event.data: $types"
	grep -q '^string_table: "nanoseconds"' "$T/all.txt" && ok || ko "cpu-clock's unit is not nanoseconds"
elif [ -f "$in" ]; then
	sk_count 3 "protoc missing: --event and the sample types of $in not decoded"
fi
in=corpus/basic.data
if [ -f "$in" ] && [ $have_go = 1 ]; then
	# --pid: only that process's samples, as the selection of every command
	"$PERFCONV" to-pprof -o "$T/all.pb.gz" "$in" 2> /dev/null
	pid=$(pprof -raw "$T/all.pb.gz" 2> /dev/null | sed -n 's/.*pid:\[\([0-9]*\)\].*/\1/p' | sort -u | head -1)
	"$PERFCONV" to-pprof --pid "$pid" -o "$T/pid.pb.gz" "$in" 2> /dev/null
	others=$(pprof -raw "$T/pid.pb.gz" 2> /dev/null | grep -c "pid:\[" )
	wrong=$(pprof -raw "$T/pid.pb.gz" 2> /dev/null | grep "pid:\[" | grep -vc "pid:\[$pid\]")
	want=$("$PERFCONV" to-csv --table samples --pid "$pid" "$in" 2> /dev/null | tail -n +2 | wc -l)
	got=$(pprof -raw "$T/pid.pb.gz" 2> /dev/null | awk '/^Samples:/ { on = 1; next }
		/^Locations/ { on = 0 } on && /^ *[0-9]+ .*:/ { n += $1 } END { print n + 0 }')
	[ "$others" -gt 0 ] && [ "$wrong" = 0 ] && [ "$got" = "$want" ] && ok ||
		ko "--pid $pid: $got samples ($want in to-csv), $wrong of another process"
elif [ -f "$in" ]; then
	sk "$NO_GO: --pid not read with pprof"
fi
# --no-unwind: the recorded callchains only, as to-csv's folded table has them
in=corpus/callchain-dwarf.data
if [ -f "$in" ] && [ $have_go = 1 ]; then
	"$PERFCONV" to-pprof --no-srcline --no-unwind -o "$T/nu.pb.gz" "$in" 2> /dev/null
	"$PERFCONV" to-pprof --no-srcline -o "$T/u.pb.gz" "$in" 2> /dev/null
	pprof_folded "$T/nu.pb.gz" > "$T/nu.txt"
	pprof_folded "$T/u.pb.gz" > "$T/u.txt"
	"$PERFCONV" to-csv --table folded --no-unwind "$in" 2> /dev/null | sort > "$T/cnu.txt"
	[ -s "$T/nu.txt" ] && cmp -s "$T/nu.txt" "$T/cnu.txt" && ! cmp -s "$T/nu.txt" "$T/u.txt" &&
		ok || ko "--no-unwind: stacks differ from to-csv --no-unwind, or equal the unwound ones"
	rm -f "$T/u.pb.gz"
elif [ -f "$in" ]; then
	sk "$NO_GO: --no-unwind not read with pprof"
fi
# usage errors: exit 2; a missing input: exit 3
for args in "--bogus corpus/basic.data" "corpus/basic.data corpus/lost.data" \
	    "--event nosuch corpus/basic.data"; do
	# shellcheck disable=SC2086
	"$PERFCONV" to-pprof -o "$T/u.pb.gz" $args > /dev/null 2>&1
	rc=$?
	[ $rc = 2 ] && ok || ko "to-pprof $args: exit $rc, want 2"
done
"$PERFCONV" to-pprof -o "$T/u.pb.gz" "$T/does-not-exist" > /dev/null 2>&1
rc=$?
[ $rc = 3 ] && ok || ko "missing input: exit $rc, want 3"
[ -e "$T/u.pb.gz" ] && ko "a failed run left $T/u.pb.gz"
# bad input: converted as far as it goes, diagnostics with offsets, exit 1;
# --strict stops at the first problem and leaves no output
for bad in corpus/bad/truncated-mid-record.data corpus/bad/pipe-truncated.pipe.data; do
	[ -f "$bad" ] || continue
	b=$(basename "$bad")
	rm -f "$T/bad.pb.gz"
	"$PERFCONV" to-pprof -o "$T/bad.pb.gz" "$bad" > /dev/null 2> "$T/err"
	rc=$?
	[ $rc = 1 ] && ok || ko "$b: exit $rc, want 1"
	grep -q ':0x[0-9a-f]*: error PD' "$T/err" && ok || ko "$b: no diagnostic with an offset"
	if [ $have_go = 1 ]; then
		pprof -raw "$T/bad.pb.gz" > "$T/raw.txt" 2> /dev/null && grep -q '^Samples:' "$T/raw.txt" &&
			ok || ko "$b: the profile of what could be read does not parse"
	else
		sk "$NO_GO: $b: the profile of what could be read not parsed"
	fi
	rm -f "$T/bad.pb.gz"
	"$PERFCONV" to-pprof --strict -o "$T/bad.pb.gz" "$bad" > /dev/null 2>&1
	rc=$?
	[ $rc = 1 ] && ok || ko "$b --strict: exit $rc, want 1"
	[ -e "$T/bad.pb.gz" ] && ko "$b --strict: output left behind"
	ls "$T" | grep -q '\.tmp' && ko "$b: temporary file left behind"
done

test_summary
