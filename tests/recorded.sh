#!/bin/sh
# recorded.sh - comparisons with perf on recordings this test makes itself,
# on the running kernel, so that kernel symbols can be compared too (the
# corpus may come from another kernel, whose kallsyms this machine lacks).
#
#  - to-json --full --symbols in file order resolves every sample as in
#    time order (--ordered) and as perf script does, kernel frames
#    included: in file order a process's maps can come after its samples;
#  - kernel symbols: perfsym against perf script on a recording that is
#    mostly kernel frames;
#  - leader sampling (-e '{cpu-clock,task-clock}:S'): to-csv samples and
#    stats, to-csv and to-json --event MEMBER, perfsym and to-proto against
#    perf script (one sample per member, the counter's increase as period);
#  - a process that execs through a wrapper script: to-csv processes.comm
#    (its last name, perf report --sort pid) and processes.comms (every
#    name in order, perf script's COMM events).
#
# Skips (exit 0) with a message when perf, gcc or the permission to
# record is missing; a comparison that cannot run is counted as skipped.
#
# Environment: O = build directory (default bin), KEEP=1 keeps the
# temporary directory, PERF = perf binary to try first.
set -u
O=${O:-bin}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $O in /*) ;; *) O=$ROOT/$O ;; esac
PERFCONV=$O/perfconv

TEST=recorded.sh
. "$ROOT/tests/harness.sh"

. "$ROOT/tests/find-perf.sh"
[ -n "$PERF" ] || skip_test "$PERF_MISSING"
command -v gcc > /dev/null 2>&1 || skip_test "gcc not found"
[ -x "$PERFCONV" ] || { echo "recorded.sh: $PERFCONV missing: run make" >&2; exit 1; }

test_tmpdir pd-recorded
cd "$T" || exit 1
perf_can_record "$T" || skip_test "perf record does not work here: $PERF_MISSING"

CF="-O1 -fno-omit-frame-pointer"
gcc $CF -pthread -o spin "$ROOT/tests/workloads/spin.c" &&
	gcc $CF -pthread -o forkexec "$ROOT/tests/workloads/forkexec.c" ||
	{ echo "recorded.sh: building the workloads failed" >&2; exit 1; }

record() {	# name args...
	name=$1
	shift
	"$PERF" record -N -q -o "$name.data" "$@" > "$name.out" 2> "$name.err" ||
		{ echo "recorded.sh: perf record failed: $(tail -1 "$name.err")" >&2; exit 1; }
}

# ------------------------------------------------------------ symbols in file order
# One line per sample, sorted: "tid time sym;sym;..." ([unknown] for a
# frame without symbol), from perf script and from to-json --jsonl.
perf_stacks() {
	"$PERF" script -i "$1" -F tid,time,ip,sym --ns 2> /dev/null | awk '
	function flush() { if (hdr != "") print hdr, out; hdr = "" }
	/^ *[0-9]+ +[0-9]+\.[0-9]+: *$/ {
		flush(); t = $2; sub(/:$/, "", t); sub(/\./, "", t); sub(/^0+/, "", t)
		hdr = $1 " " t; out = ""; next
	}
	/^\t/ { s = $0; sub(/^[ \t]*[0-9a-f]+ /, "", s); out = out (out == "" ? "" : ";") s; next }
	END { flush() }' | sort
}

json_stacks() {
	awk '/"type":"SAMPLE"/ {
		tid = $0; sub(/.*"tid":/, "", tid); sub(/[,}].*/, "", tid)
		t = $0; sub(/.*"time":/, "", t); sub(/[,}].*/, "", t)
		fr = $0; sub(/.*"frames":\[/, "", fr); sub(/\]}$/, "", fr)
		n = split(fr, f, /\},\{/); out = ""
		for (i = 1; i <= n; i++) {
			s = "[unknown]"
			if (match(f[i], /"symbol":"([^"\\]|\\.)*"/))
				s = substr(f[i], RSTART + 10, RLENGTH - 11)
			out = out (out == "" ? "" : ";") s
		}
		print tid, t, out
	}' "$1" | sort
}

# A process that execs on the second CPU and then runs on the first: its
# maps are in the second CPU's ring buffer, its later samples in the
# first's, which perf record writes out first in the same round, so in
# file order those samples come before the maps.  (The first sleep lets
# the round perf record writes at the start go by.)  Then a fork and exec
# of a child; page faults give kernel frames.
if taskset -c 1 true 2> /dev/null; then
	cat > migrate.sh <<-'EOF'
	sleep 0.2
	taskset -c 1 ./spin 300 &
	sleep 0.1
	taskset -p -c 0 $! > /dev/null
	wait
	./forkexec ./spin 50
	EOF
else
	echo "recorded.sh: note: one CPU: the recording may have no sample before its maps"
	echo './forkexec ./spin 300' > migrate.sh
fi
record order -g -- sh migrate.sh
"$PERFCONV" to-json --jsonl --symbols order.data > order.file.jsonl 2> order.file.err
rc_file=$?
"$PERFCONV" to-json --jsonl --symbols --ordered order.data > order.time.jsonl 2> order.time.err
rc_time=$?
json_stacks order.file.jsonl > order.file
json_stacks order.time.jsonl > order.time
perf_stacks order.data > order.perf
n=$(wc -l < order.perf)
resolved=$(grep -vc ' \[unknown\]$' order.file)
kframes=$(grep -c '^[0-9]* [0-9]* [a-z_]*sys_\|do_syscall_64' order.perf)
if [ $rc_file -ne 0 ] || [ $rc_time -ne 0 ]; then
	ko "to-json --symbols exit $rc_file (file order), $rc_time (--ordered)"
elif ! cmp -s order.file order.time; then
	ko "--symbols in file order differs from --ordered in $(diff order.file order.time | grep -c '^<') of $n samples"
	diff order.time order.file | head -6 | sed 's/^/    /'
else
	ok "--symbols in file order resolves as --ordered ($resolved of $n samples with a symbol)"
fi
if [ "$n" -eq 0 ]; then
	ko "perf script printed no sample of order.data"
elif ! cmp -s order.file order.perf; then
	ko "--symbols in file order differs from perf script in $(diff order.perf order.file | grep -c '^<') of $n samples"
	diff order.perf order.file | head -6 | sed 's/^/    /'
else
	ok "--symbols in file order agrees with perf script on $n samples ($kframes with kernel frames)"
fi
# a pipe cannot be read twice: refused, with --ordered accepted
"$PERF" record -N -q -o - -- ./spin 50 2> /dev/null > order.pipe.data
cat order.pipe.data | "$PERFCONV" to-json --full --symbols - > /dev/null 2> pipe.err
rc=$?
if [ $rc -eq 2 ] && grep -q -- '--ordered' pipe.err; then
	ok "--symbols in file order on a pipe: exit 2, names --ordered"
else
	ko "--symbols in file order on a pipe: exit $rc, $(head -1 pipe.err)"
fi
cat order.pipe.data | "$PERFCONV" to-json --full --symbols --ordered - > /dev/null 2> pipe.err
rc=$?
[ $rc -eq 0 ] && ok "--symbols --ordered on a pipe" || ko "--symbols --ordered on a pipe: exit $rc"
"$PERFCONV" to-json --jsonl --symbols - < order.data > order.stdin.jsonl 2> stdin.err
rc=$?
if [ $rc -eq 0 ] && json_stacks order.stdin.jsonl | cmp -s - order.file; then
	ok "--symbols in file order on a regular file as standard input"
else
	ko "--symbols in file order on a regular file as standard input: exit $rc"
fi

# ------------------------------------------------------------ kernel symbols
# A workload that lives in system calls, recorded here: its kernel frames
# are resolved with this kernel's symbols by perf and by perfsym alike
# (the corpus may come from another kernel, see to-json.sh).
record kernel -g -- dd if=/dev/zero of=/dev/null bs=64 count=400000
"$PERF" script -i kernel.data -F comm,tid,ip,sym,dso 2> /dev/null > kernel.perf
"$O/perfsym" kernel.data > kernel.mine 2> /dev/null
kn=$(grep -c '(\[kernel.kallsyms\])$' kernel.perf)
kresolved=$(grep '(\[kernel.kallsyms\])$' kernel.perf | grep -vc ' \[unknown\] ')
if [ "$kn" -eq 0 ] || [ "$kresolved" -eq 0 ]; then
	sk "kernel symbols: perf resolved no kernel frame here (kptr_restrict or no kallsyms)"
elif cmp -s kernel.perf kernel.mine; then
	ok "kernel symbols: perfsym = perf script on $kn kernel frames ($kresolved with a symbol)"
else
	ko "kernel symbols: perfsym differs from perf script in $(diff kernel.perf kernel.mine | grep -c '^<') of $(wc -l < kernel.perf) lines"
	diff kernel.perf kernel.mine | head -6 | sed 's/^/    /'
fi

# ------------------------------------------------------------ the kernel's kallsyms copy
# The running kernel's symbols come from its copy in the build-id cache
# (--buildid-dir) when the copy describes the recording, its _text where
# the recording's kernel map puts it: a copy of /proc/kallsyms with every
# name but _text and _stext prefixed gives perf's frames with the prefix;
# the same with _text moved, as a copy saved at another boot has it, is
# not used: the frames are /proc/kallsyms's.
kid=$("$PERF" buildid-list -i kernel.data 2> /dev/null | awk '$2 == "[kernel.kallsyms]" { print $1 }')
if [ -z "$kid" ] || [ "$kn" -eq 0 ] || [ "$kresolved" -eq 0 ] || ! cmp -s kernel.perf kernel.mine; then
	sk "kallsyms copy: no kernel build id or no kernel frames resolved as perf does"
else
	mkdir -p "bid/[kernel.kallsyms]/$kid" "bidmoved/[kernel.kallsyms]/$kid"
	# the vdso's image where kernel.mine took it from: else a sample that
	# happens to have a vdso frame shows [unknown] there
	defbid=${PERF_BUILDID_DIR:-$HOME/.debug}
	if [ -d "$defbid/.build-id" ]; then
		ln -s "$defbid/.build-id" bid/.build-id
		ln -s "$defbid/.build-id" bidmoved/.build-id
	fi
	sed -e '/ _s\{0,1\}text$/b' -e 's/^\([0-9a-f]* . \)/\1copy_/' /proc/kallsyms \
		> "bid/[kernel.kallsyms]/$kid/kallsyms"
	# _text (and _stext) moved by 16 MiB: the only difference
	awk '$3 == "_text" || $3 == "_stext" { t = $1; $1 = substr(t, 1, 9) sprintf("%x", (index("0123456789abcdef", substr(t, 10, 1)) % 16)) substr(t, 11) } { print }' \
		"bid/[kernel.kallsyms]/$kid/kallsyms" > "bidmoved/[kernel.kallsyms]/$kid/kallsyms"
	# module frames, [name] without vdso, come from kallsyms too
	sed -e '/(\[kernel\.kallsyms\])$/b k' -e '/(\[vdso[^]]*\])$/b' -e '/(\[unknown\])$/b' \
		-e '/(\[[^]]*\])$/b k' -e b -e ': k' -e '/ _s\{0,1\}text (/b' \
		-e 's/^\([[:space:]]*[0-9a-f]* \)\([^[]\)/\1copy_\2/' kernel.perf > kernel.copy.expected
	"$O/perfsym" --buildid-dir bid kernel.data > kernel.copy 2> kernel.copy.err
	rc=$?
	ncopy=$(grep -c ' copy_' kernel.copy)
	if [ $rc -eq 0 ] && cmp -s kernel.copy.expected kernel.copy && [ "$ncopy" -gt 0 ]; then
		ok "kallsyms copy that describes the recording: used ($ncopy frames with its names)"
	else
		ko "kallsyms copy that describes the recording: exit $rc, $(diff kernel.copy.expected kernel.copy | grep -c '^<') lines differ from perf's with its names"
		diff kernel.copy.expected kernel.copy | head -6 | sed 's/^/    /'
	fi
	"$O/perfsym" --buildid-dir bidmoved kernel.data > kernel.moved 2> kernel.moved.err
	rc=$?
	if [ $rc -eq 0 ] && cmp -s kernel.mine kernel.moved; then
		ok "kallsyms copy with _text elsewhere: not used, frames as /proc/kallsyms gives them"
	else
		ko "kallsyms copy with _text elsewhere: exit $rc, $(diff kernel.mine kernel.moved | grep -c '^<') lines differ from /proc/kallsyms's"
		diff kernel.mine kernel.moved | head -6 | sed 's/^/    /'
	fi
fi

# ------------------------------------------------------------ leader sampling
# perf record -e '{a,b}:S': the leader's samples read both counters
# (PERF_SAMPLE_READ, PERF_FORMAT_GROUP); perf makes one sample per member
# of each, with the counter's increase as period.
PERFSYM=$O/perfsym
if ! "$PERF" record -N -q -e '{cpu-clock,task-clock}:S' -o leader.data -- ./spin 200 \
	> leader.out 2> leader.err; then
	sk "leader sampling: perf record -e '{cpu-clock,task-clock}:S' fails: $(tail -1 leader.err)"
else
	# "time tid event period", one line per sample, sorted
	"$PERF" script -i leader.data -F tid,time,event,period --ns 2> /dev/null |
		awk '{ t = $2; sub(/:$/, "", t); sub(/\./, "", t); sub(/^0+/, "", t)
		       e = $4; sub(/:$/, "", e); print t, $1, e, $3 }' | sort > leader.perf
	"$PERFCONV" to-csv --table samples leader.data 2> leader.csv.err |
		awk -F, 'NR > 1 { print $2, $4, $7, $8 }' | sort > leader.csv
	n=$(wc -l < leader.perf)
	nmember=$(grep -c ' task-clock ' leader.perf)
	if [ "$nmember" -eq 0 ]; then
		ko "leader sampling: perf script shows no sample of the member task-clock"
	elif cmp -s leader.perf leader.csv; then
		ok "leader sampling: to-csv samples (time tid event period) = perf script ($n, $nmember of the member)"
	else
		ko "leader sampling: to-csv samples differ from perf script in $(diff leader.perf leader.csv | grep -c '^<') of $n"
		diff leader.perf leader.csv | head -6 | sed 's/^/    /'
	fi
	# stats: samples and period per event, as perf script sums them
	awk '{ s[$3]++; p[$3] += $4 } END { for (e in s) printf "%s %d %.0f\n", e, s[e], p[e] }' leader.perf |
		sort > leader.perf.stats
	"$PERFCONV" to-csv --table stats leader.data 2> /dev/null |
		awk -F, '$1 == "SAMPLE" && $2 != "" { sub(/\r$/, ""); print $2, $5, $6 }' |
		sort > leader.csv.stats
	if cmp -s leader.perf.stats leader.csv.stats; then
		ok "leader sampling: to-csv stats per event = perf script ($(tr '\n' ' ' < leader.csv.stats))"
	else
		ko "leader sampling: to-csv stats per event: $(tr '\n' ' ' < leader.csv.stats), perf: $(tr '\n' ' ' < leader.perf.stats)"
	fi
	grep ' task-clock ' leader.perf > leader.perf.member
	"$PERFCONV" to-csv --table samples --event task-clock leader.data 2> /dev/null |
		awk -F, 'NR > 1 { print $2, $4, $7, $8 }' | sort > leader.csv.member
	if cmp -s leader.perf.member leader.csv.member; then
		ok "leader sampling: to-csv --event task-clock = perf script's task-clock samples"
	else
		ko "leader sampling: to-csv --event task-clock has $(wc -l < leader.csv.member) samples, perf $nmember"
	fi
	got=$("$PERFCONV" to-json --event task-clock leader.data 2> /dev/null | grep -c '"timestamp"')
	if [ "$got" = "$nmember" ]; then
		ok "leader sampling: to-json --event task-clock has perf's $nmember samples"
	else
		ko "leader sampling: to-json --event task-clock has $got samples, perf $nmember"
	fi
	"$PERF" script -i leader.data -F comm,tid,ip,sym,dso 2> /dev/null > leader.sym.perf
	"$PERFSYM" leader.data > leader.sym 2> /dev/null
	if cmp -s leader.sym.perf leader.sym; then
		ok "leader sampling: perfsym = perf script -F comm,tid,ip,sym,dso ($(wc -l < leader.sym) lines)"
	else
		ko "leader sampling: perfsym differs from perf script in $(diff leader.sym.perf leader.sym | grep -c '^<') lines"
	fi
	# to-proto keeps records as quipper does: one sample event per record,
	# the group's values in its read_info
	if command -v protoc > /dev/null 2>&1; then
		records=$("$PERF" report -i leader.data --stats 2> /dev/null |
			  awk '/SAMPLE events:/ { print $3; exit }')
		"$PERFCONV" to-proto --event task-clock -o leader.pb leader.data 2> /dev/null
		protoc --decode=quipper.PerfDataProto -I"$ROOT/schema" perf_data.proto \
			< leader.pb > leader.pb.txt 2> /dev/null
		got=$(grep -c '^  sample_event {' leader.pb.txt)
		values=$(grep -c '^ *read_value {' leader.pb.txt)
		if [ "$got" = "$records" ] && [ "$values" = $((2 * records)) ]; then
			ok "leader sampling: to-proto --event task-clock keeps the $records records with both values"
		else
			ko "leader sampling: to-proto --event task-clock: $got sample events, $values read values; perf: $records records"
		fi
	else
		sk "leader sampling: protoc not found, to-proto not checked"
	fi
fi

# ------------------------------------------------------------ names after exec
# A wrapper script named like the program it ends up running, through a
# second script: the process is named spin, stage, spin in turn.  perf
# reports it under its last name; to-csv's processes.comm must be that
# one and processes.comms every name in order, as perf script's COMM
# events give them.
mkdir -p wrap
printf '#!/bin/sh\nexec "%s/wrap/stage" "$@"\n' "$T" > wrap/spin
printf '#!/bin/sh\nexec "%s/spin" "$@"\n' "$T" > wrap/stage
chmod +x wrap/spin wrap/stage
record exec -- ./wrap/spin 100
# perf: "pid name" from perf report --sort pid, the names in order from
# the COMM events of each main thread (a repeat of the last one left out)
"$PERF" report -i exec.data --sort pid --stdio 2> /dev/null |
	awk '/^ *[0-9.]+%/ { split($2, a, ":"); print a[1], substr($2, length(a[1]) + 2) }' |
	sort > exec.perf.comm
"$PERF" script -i exec.data --show-task-events 2> /dev/null |
	awk '/PERF_RECORD_COMM/ { x = $NF; n = split(x, a, ":"); split(a[n], id, "/")
	     name = substr(x, 1, length(x) - length(a[n]) - 1)
	     if (id[1] != id[2]) next
	     if (last[id[1]] != name) names[id[1]] = (nr[id[1]]++ ? names[id[1]] ";" : "") name
	     last[id[1]] = name }
	     END { for (p in names) print p, names[p] }' | sort > exec.perf.comms
"$PERFCONV" to-csv --table processes exec.data 2> /dev/null |
	awk -F, 'NR > 1 { print $1, $3 }' | sort -u > exec.csv.comm.all
"$PERFCONV" to-csv --table processes exec.data 2> /dev/null |
	awk -F, 'NR > 1 { print $1, $4 }' | sort -u > exec.csv.comms.all
# only the processes perf reports (those with samples)
awk 'NR == FNR { want[$1] = 1; next } want[$1]' exec.perf.comm exec.csv.comm.all > exec.csv.comm
awk 'NR == FNR { want[$1] = 1; next } want[$1]' exec.perf.comm exec.csv.comms.all > exec.csv.comms
awk 'NR == FNR { want[$1] = 1; next } want[$1]' exec.perf.comm exec.perf.comms > exec.perf.comms.s
if ! grep -q ' spin$' exec.perf.comm; then
	ko "names after exec: perf report names no process spin: $(tr '\n' ' ' < exec.perf.comm)"
elif cmp -s exec.perf.comm exec.csv.comm; then
	ok "names after exec: processes.comm = perf report --sort pid ($(tr '\n' ' ' < exec.csv.comm))"
else
	ko "names after exec: processes.comm $(tr '\n' ' ' < exec.csv.comm), perf report: $(tr '\n' ' ' < exec.perf.comm)"
fi
if cmp -s exec.perf.comms.s exec.csv.comms; then
	ok "names after exec: processes.comms = perf script's COMM events in order ($(tr '\n' ' ' < exec.csv.comms))"
else
	ko "names after exec: processes.comms $(tr '\n' ' ' < exec.csv.comms), perf script: $(tr '\n' ' ' < exec.perf.comms.s)"
fi

test_summary || exit 1
echo "recorded.sh: PASS"
