#!/bin/sh
# unwind.sh - DWARF unwinding of --call-graph dwarf recordings, compared
# with perf itself.
#
# Builds the programs in tests/symbolize/unwind/ without frame pointers (C
# with -O2 calling through a shared library, a shallow and a deep recursion, a
# signal handler; C++ with inlined templates and lambdas), records each with
# the machine's `perf record --call-graph dwarf`, and compares
#  - every frame of every sample: perfsym --no-inline against
#        perf script -F comm,tid,ip,sym,dso --no-inline
#  - the same with inline frames (perf script's default), where perf
#    asks addr2line and perfsym reads the DWARF itself (and names what
#    addr2line names from the symbol table as it does): reported, and
#    failed below UNWIND_INLINE_MIN_RATE (default 99.5 %: the programs
#    here agree fully; naming one lambda as the DWARF does, not as
#    addr2line does, brings them under 99);
#  - perfsym --max-stack 6 against perf script --max-stack 6;
#  - the folded stacks of `perfconv to-csv --table folded --no-inline`
#    against a stackcollapse-perf folding of the same perf script output;
#  - every output with inline frames against perf's (counted with the
#    inline frames above): to-csv's folded table against a folding of
#    `perf script` (its default, inline frames included), the samples
#    table's callchains against the stacks of `perf script` with inline
#    frames named "NAME (inlined)", the functions table's totals against
#    the Children column of `perf report --children --sort dso,sym`;
#  - the frames of `perfconv to-json --full --symbols` against perf script
#    with inline frames (counted with them) and exactly against perfsym's;
#  - `go tool pprof -traces` of `perfconv to-pprof`, where an unwound
#    frame is one location whose lines are its inline frames, innermost
#    first: against the folding of perf script with inline frames
#    (counted with them), and exactly to-csv's folded table; -raw shows
#    locations of several lines;
#  - --no-unwind: no unwound user frame is left;
#  - perfsym's peak RSS does not grow with the samples: uwprog recorded
#    with 32 KiB stack copies, and again with half the samples (-F 2000);
#  - a C program exec'd by a shell script (libc and ld.so mapped by both
#    images: perf looks their CFI up at the lowest map) calling through a
#    lazy PLT (samples in the stub): every frame against perf script,
#    with and without inline frames;
#  - the C program and its library with .text moved away from its file
#    offset (segments at different distances from their offsets, as lld
#    and BOLT make them): every frame, with and without inline frames;
#  - code in a section linked a page above its file offsets while .text is
#    at them (BOLT's layout): perf asks addr2line a page below it, and
#    shows the function there as inlined in its place; every frame, with
#    and without inline frames, built with and without DWARF;
#  - a static program deleted after its recording: no file of the
#    process is readable but the vdso, and perf shows the sampled ip;
#  - the C++ program without .debug_aranges (as clang builds): its inline
#    frames found by the CUs' own ranges, as addr2line finds them; every
#    frame with and without inline frames, and the folded stacks;
#  - a non-PIE C program running code from a second map of its own file
#    (as node runs V8's builtins): every frame against perf's;
#  - the C program's library built without unwind tables (no .eh_frame_hdr):
#    perf's stack ends at the library's first frame, where a frame of a
#    file with the index but no FDE for it is guessed from rbp; every
#    frame, counted with the others;
#  - setjmp and longjmp in a loop: in __longjmp the row puts rsp in r8,
#    and libunwind takes the CFA instead; every frame, with and without
#    inline frames, counted with the others;
#  - a handler on an alternate stack interrupting code without CFI: perf
#    guesses from an rbp outside the copy and reads 0; every frame, with
#    and without inline frames, counted with the others;
#  - perf record --threads (a directory, a data.N file per CPU, merged by
#    time): every frame, with and without inline frames, counted with the
#    others;
#  - node's JIT through a jitdump and perf inject --jit: every frame,
#    with and without inline frames, counted with the others;
#  - a Go program (CFI in .debug_frame alone, which perf never reads: its
#    stack ends at the first frame): perf's stacks must be the start of
#    ours, and ours reach the goroutine's function (skipped without go);
#  - functions with several names and no debug information, in a stripped
#    shared library and in a static-pie program (glibc's free): perf
#    expands their frames into the name addr2line reads from the symbol
#    table, "(inlined)" where it is another alias; every frame with and
#    without inline frames (a build that cannot be made is a counted SKIP);
#  - a Rust program (where rustc is installed): legacy and v0 mangled
#    names demangled as perf's libiberty does, inline frames nested
#    deeper than sixteen levels; every frame, with and without inline
#    frames, and the folded stacks against perf's;
#  - i386: the C program built with -m32, against perf where perf can
#    unwind a 32-bit process, else against gdb on a core of each sample
#    (tests/symbolize/unwind/i386cores.py, gdbstacks.py); a part that cannot run
#    here (no gcc-multilib, gdb or python3) is a counted SKIP.
# Prints the agreement rates; fails below UNWIND_MIN_RATE (percent,
# default 99.9: a sample taken while the kernel is half-way through a
# rt_sigreturn has user registers perf unwinds into a garbage frame and we
# through the signal frame; such a sample is rare and comes at random).  Skips (exit 0) with a message when
# perf, gcc or g++ is missing or perf cannot record dwarf call graphs.
#
# Environment: O = build directory (default bin), KEEP=1 keeps the
# temporary directory.
set -u
O=${O:-bin}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case $O in /*) ;; *) O=$ROOT/$O ;; esac
PERFSYM=$O/perfsym
PERFCONV=$O/perfconv
SRC=$ROOT/tests/symbolize/unwind
MIN_RATE=${UNWIND_MIN_RATE:-99.9}
INLINE_MIN_RATE=${UNWIND_INLINE_MIN_RATE:-99.5}

TEST=unwind.sh
. "$ROOT/tests/harness.sh"
fail() {
	echo "unwind.sh: FAIL: $*" >&2
	exit 1
}

. "$ROOT/tests/find-perf.sh"
. "$ROOT/tests/fold-stacks.sh"
[ -n "$PERF" ] || skip_test "$PERF_MISSING"
command -v gcc > /dev/null 2>&1 || skip_test "gcc not found"
command -v g++ > /dev/null 2>&1 || skip_test "g++ not found"
[ -x "$PERFSYM" ] && [ -x "$PERFCONV" ] || fail "$PERFSYM or $PERFCONV missing: run make"
case $(uname -m) in
x86_64) ;;
*) skip_test "the comparison runs on x86_64 only (this is $(uname -m))" ;;
esac

test_tmpdir pd-unwind

# ------------------------------------------------------------ build
CF="-O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls"
(
	set -e
	cd "$T"
	gcc $CF -shared -fPIC -o libuwlib.so "$SRC/uwlib.c"
	gcc $CF -o uwprog "$SRC/uwprog.c" -L. -luwlib -Wl,-rpath,"$T"
	g++ $CF -o uwcpp "$SRC/uwcpp.cc"
	gcc $CF -o uwexec "$SRC/uwexec.c" -L. -luwlib -Wl,-rpath,"$T" -Wl,-z,lazy
	# sh, env and uwexec: three images, libc lowest in an older one 2 runs in 3
	printf '#!/bin/sh\nexec env "$(dirname "$0")/uwexec" "$@"\n' > uwexec.sh
	chmod +x uwexec.sh
) || fail "building the test programs failed"

# ------------------------------------------------------------ record
cd "$T"
record() {	# name args...
	name=$1
	shift
	"$PERF" record -q --call-graph dwarf -o "$name.data" "$@" > "$name.out" 2> "$name.err"
}
record probe true || skip_test "perf record --call-graph dwarf does not work here: $(tail -1 probe.err)"
rm -f probe.*
RUNS="uwprog uwcpp"
record uwprog ./uwprog || fail "perf record of uwprog failed: $(tail -1 uwprog.err)"
record uwcpp ./uwcpp || fail "perf record of uwcpp failed: $(tail -1 uwcpp.err)"

# ------------------------------------------------------------ compare
# One line per frame (frame_lines of fold-stacks.sh).
total=0
bad=0
compare() {	# label perf-file mine-file
	n=$(wc -l < "$2")
	d=$(diff "$2" "$3" | grep -c '^[<>]')
	total=$((total + n))
	bad=$((bad + d))
	echo "unwind.sh: $1: $n frames, $d differ"
	[ "$d" -eq 0 ] || diff "$2" "$3" | head -20 | sed 's/^/    /'
}

have_py=0
command -v python3 > /dev/null 2>&1 && have_py=1
ftotal=0
fbad=0
itotal=0
ibad=0
igarbled=0

# "TOTAL DIFFERENT": samples of folded file $1 (perf) not folded the same in $2
fold_agree() {
	awk 'NR == FNR { c = $NF; $NF = ""; a[$0] = c; t += c; next }
	     { c = $NF; $NF = ""; if ($0 in a) s += (a[$0] < c ? a[$0] : c) }
	     END { print t + 0, t - s }' "$1" "$2"
}

# "STACK COUNT" lines, as fold_agree compares them
count_stacks() {
	sort | uniq -c | awk '{ c = $1; sub(/^ *[0-9]+ /, ""); print $0 " " c }'
}

count_inline() {	# label total different
	itotal=$((itotal + $2))
	ibad=$((ibad + $3))
	echo "unwind.sh: $1: $2, $3 differ"
}

# frames with inline frames, counted on their own: label perf-file mine-file
compare_inline() {
	n=$(wc -l < "$2")
	d=$(diff "$2" "$3" | grep -c '^<')
	itotal=$((itotal + n))
	ibad=$((ibad + d))
	echo "unwind.sh: $1 with inline frames: $n frames, $d differ"
	[ "$d" -eq 0 ] || diff "$2" "$3" | head -6 | sed 's/^/    /'
}

# every frame of NAME.data, perf script's (NAME.perf) against perfsym's
# (NAME.mine), without inline frames: name label
compare_file() {
	"$PERF" script -i "$1.data" -F comm,tid,ip,sym,dso --no-inline 2> /dev/null | frame_lines > "$1.perf"
	"$PERFSYM" --no-inline "$1.data" 2> /dev/null | frame_lines > "$1.mine"
	compare "$2" "$1.perf" "$1.mine"
}

# perf script's stacks with inline frames ($2) and perfsym's ($3) as frame
# lines in NAME.iperf and NAME.imine, less the samples whose inline frames
# perf garbled: name perf-script-file perfsym-file.
#
# perf 6.1 reads inline frames from an addr2line it talks to through a
# pipe; now and then (seen on a jitted file of perf inject --jit, once in
# several runs of the same test) it reads them out of step and prints
# "??:0 (inlined)" or a name of stray bytes where the next run prints
# none.  A jitted file has no debug information, so any inline frame perf
# prints at a jitted frame's address is such a one too.  A sample with
# any of them says nothing about ours: it is left out of both
# sides, counted in igarbled and noted, where the two outputs hold the
# same number of samples (otherwise nothing is left out).
inline_frames() {
	LC_ALL=C awk -v po="$1.iperf.kept" -v mo="$1.imine.kept" -v no="$1.igarbled" '
	BEGIN { RS = ""; ORS = "\n\n" }
	FNR == 1 { f++ }
	f == 1 { p[FNR] = $0; np = FNR; next }
	{ m[FNR] = $0; nm = FNR }
	END {
		for (i = 1; i <= np; i++) {
			bad = 0
			n = split(p[i], l, "\n")
			split("", jit)
			for (j = 2; j <= n; j++)
				if (l[j] !~ / \(inlined\)$/ && l[j] ~ /\/jitted-[0-9]+-[0-9]+\.so\)$/) {
					split(l[j], w, " ")
					jit[w[1]] = 1
				}
			for (j = 2; j <= n && np == nm; j++) {
				if (l[j] !~ / \(inlined\)$/)
					continue
				split(l[j], w, " ")
				if (l[j] ~ /[ \t]\?\?:0 \(inlined\)$/ ||
				    l[j] ~ /[\001-\010\016-\037\177-\377]/ || (w[1] in jit))
					bad = 1
			}
			if (bad) {
				dropped++
				continue
			}
			print p[i] > po
			if (i <= nm)
				print m[i] > mo
		}
		for (i = np + 1; i <= nm; i++)
			print m[i] > mo
		printf "%d\n", dropped > no
	}' "$2" "$3"
	: >> "$1.iperf.kept"
	: >> "$1.imine.kept"
	frame_lines < "$1.iperf.kept" > "$1.iperf"
	frame_lines < "$1.imine.kept" > "$1.imine"
	g=$(cat "$1.igarbled")
	if [ "$g" -gt 0 ]; then
		igarbled=$((igarbled + g))
		echo "unwind.sh: note: $1: $g sample(s) left out of the comparison with inline frames: perf printed garbled inline frames in them"
	fi
}

# the same with inline frames (NAME.iperf, NAME.imine), counted on their own: name
compare_file_inline() {
	"$PERF" script -i "$1.data" -F comm,tid,ip,sym,dso 2> /dev/null > "$1.iscript"
	"$PERFSYM" "$1.data" 2> /dev/null > "$1.isym"
	inline_frames "$1" "$1.iscript" "$1.isym"
	compare_inline "$1" "$1.iperf" "$1.imine"
}

# NAME.c of the programs' directory built with $CF (and FLAGS) and
# recorded, every frame compared with perf's with and without inline
# frames, counted with the others: name label [flags].  False after a
# counted SKIP when it cannot be built or recorded.
c_program() {
	if ! gcc $CF ${3:-} -o "$1" "$SRC/$1.c" > "$1.err" 2>&1; then
		sk "gcc cannot build $1.c: $(tail -1 "$1.err")"
		return 1
	fi
	if ! record "$1" "./$1"; then
		sk "perf record of $1 failed: $(tail -1 "$1.err")"
		return 1
	fi
	compare_file "$1" "$2"
	compare_file_inline "$1"
}

# As many lines matching PATTERN in NAME.mine as in NAME.perf (left in
# p0, m0): name pattern what
same_count() {
	p0=$(grep -c "$2" "$1.perf")
	m0=$(grep -c "$2" "$1.mine")
	[ "$p0" -eq "$m0" ] || fail "$1: $m0 $3 where perf has $p0"
}

# perf script's stacks of NAME.data and perfsym's, without inline frames,
# in NAME.script and NAME.sym: name
script_and_sym() {
	"$PERF" script -i "$1.data" -F comm,tid,ip,sym,dso --no-inline 2> /dev/null > "$1.script"
	"$PERFSYM" --no-inline "$1.data" 2> "$1.notes" > "$1.sym" ||
		fail "perfsym failed on $1.data: $(cat "$1.notes")"
}

# awk, samples read as paragraphs (RS = ""): is stack b perf's stack a,
# or a with more frames after it?
AWK_STARTS='function starts(a, b) {
	return substr(b, 1, length(a)) == a &&
	       (length(b) == length(a) || substr(b, length(a) + 1, 1) == "\n")
}'

# N, the samples perfsym printed, must be as many as perf script's: name n
same_samples() {
	[ "$2" -eq "$(awk 'BEGIN { RS = "" } END { print NR }' "$1.script")" ] ||
		fail "$1: perfsym printed another number of samples than perf script"
}

for r in $RUNS; do
	script_and_sym "$r"
	frame_lines < "$r.script" > "$r.perf"
	frame_lines < "$r.sym" > "$r.mine"
	compare "$r" "$r.perf" "$r.mine"

	# with inline frames: counted on their own
	compare_file_inline "$r"

	# the user frames must be there: a stack of the program's own functions
	grep -q " main ($T/$r)" "$r.mine" || fail "$r: no unwound frame reaches main"

	"$PERF" script -i "$r.data" -F comm,tid,ip,sym,dso --no-inline --max-stack 6 2> /dev/null |
		frame_lines > "$r.perf6"
	"$PERFSYM" --no-inline --max-stack 6 "$r.data" 2> /dev/null | frame_lines > "$r.mine6"
	compare "$r --max-stack 6" "$r.perf6" "$r.mine6"

	# folded stacks
	fold_script < "$r.script" | sort > "$r.pfold"
	"$PERFCONV" to-csv --no-inline --table folded "$r.data" 2> "$r.cerr" | sort > "$r.cfold" ||
		fail "to-csv failed on $r.data: $(cat "$r.cerr")"
	set -- $(fold_agree "$r.pfold" "$r.cfold")
	ftotal=$((ftotal + $1))
	fbad=$((fbad + $2))
	echo "unwind.sh: $r folded: $1 samples, $2 folded differently"
	[ "$2" -eq 0 ] || diff "$r.pfold" "$r.cfold" | head -10 | sed 's/^/    /'

	# the same with inline frames, as perf script shows them by default
	"$PERF" script -i "$r.data" -F comm,tid,ip,sym,dso 2> /dev/null > "$r.iscript"
	fold_script < "$r.iscript" | sort > "$r.ipfold"
	"$PERFCONV" to-csv -o "$r.csv" --table folded,samples,functions "$r.data" 2> "$r.cerr" ||
		fail "to-csv failed on $r.data: $(cat "$r.cerr")"
	sort "$r.csv/folded.csv" > "$r.icfold"
	set -- $(fold_agree "$r.ipfold" "$r.icfold")
	count_inline "$r folded with inline frames" "$1" "$2"
	[ "$2" -eq 0 ] || diff "$r.ipfold" "$r.icfold" | head -6 | sed 's/^/    /'

	if [ "$have_py" = 1 ]; then
		# samples.callchain: perf script's stacks, outermost first
		chain_script < "$r.iscript" | sort > "$r.ipchain"
		python3 -c 'import csv, sys
for row in csv.DictReader(open(sys.argv[1], newline="")):
    print(row["callchain"])' "$r.csv/samples.csv" | count_stacks > "$r.icchain"
		set -- $(fold_agree "$r.ipchain" "$r.icchain")
		count_inline "$r samples.callchain with inline frames" "$1" "$2"
		[ "$2" -eq 0 ] || diff "$r.ipchain" "$r.icchain" | head -6 | sed 's/^/    /'

		# functions: the total of every function, inline ones included, as
		# perf report's Children percentage (of the period)
		"$PERF" report -i "$r.data" --stdio --children --sort dso,sym -g none -t '	' \
			2> /dev/null | awk -F'\t' '!/^#/ && NF >= 4 {
				p = $1; gsub(/[ %]/, "", p); d = $3; gsub(/^ +| +$/, "", d)
				s = $4; sub(/^ *\[.\] /, "", s); sub(/ +$/, "", s)
				print d "\t" s "\t" p }' | sort > "$r.ichildren"
		python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
total = sum(int(r["self_period"]) for r in rows)
for r in rows:
    if total and r["dso"] != "[unknown]" and not r["dso"].startswith("[kernel"):
        print("%s\t%s\t%.2f" % (r["dso"].rsplit("/", 1)[-1], r["sym"],
                                100.0 * int(r["total_period"]) / total))' \
		"$r.csv/functions.csv" | sort > "$r.mchildren"
		# perf report prints an inlined function once per address range
		# it was met in (added up here on both sides, each rounded), an
		# address without symbol as itself (our "[unknown]": a sample
		# with two such addresses of a DSO counts once in ours and in
		# both of perf's, so ours lies between their largest and their
		# sum), and cuts long names (compared cut)
		set -- $(awk -F'\t' '
			function key(d, s) { return d "\t" substr(s, 1, 80) }
			NR == FNR { if ($1 ~ /^\[/) next
				    s = $2; if (s ~ /^0x/) s = "[unknown]"
				    k = key($1, s); p[k] += $3; m[k]++; if ($3 > mx[k]) mx[k] = $3; next }
			{ q[key($1, $2)] += $3 }
			END { for (k in p) { t++; e = 0.006 * m[k] + 0.0001
					     if (k ~ /\t\[unknown\]$/ && m[k] > 1) {
						     if (!(k in q) || q[k] < mx[k] - e || q[k] > p[k] + e) { b++; print k > "/dev/stderr" }
						     continue }
					     d = p[k] - q[k]; if (d < 0) d = -d
					     if (!(k in q) || d > e) { b++; print k > "/dev/stderr" } }
			      print t + 0, b + 0 }' "$r.ichildren" "$r.mchildren" 2> "$r.childdiff")
		count_inline "$r functions totals (user functions) with inline frames" "$1" "$2"
		[ "$2" -eq 0 ] || head -4 "$r.childdiff" | sed 's/^/    /'
	else
		sk "python3 missing: samples and functions tables not compared"
	fi

	# --no-unwind: the recorded callchain only, no user frame of the program
	"$PERFSYM" --no-unwind "$r.data" > "$r.nounwind" 2> /dev/null ||
		fail "perfsym --no-unwind failed on $r.data"
	if grep -q "($T/$r)" "$r.nounwind"; then
		fail "$r: perfsym --no-unwind still shows unwound frames"
	fi
	"$PERFCONV" to-csv --no-unwind --table folded "$r.data" 2> /dev/null |
		grep -q ';main;' && fail "$r: to-csv --no-unwind still shows unwound frames"
done

# a stack copy too short for the stacks (512 bytes): the unwind stops where
# the copy ends, with the frame perf makes of the return address it could
# not read (ffffffffffffffff)
if record short --call-graph dwarf,512 ./uwprog; then
	compare_file short "short stack copies"
	grep -q ' ffffffffffffffff ' short.perf ||
		echo "unwind.sh: note: no stack ran past its 512-byte copy"
	# the signal handler interrupting the PLT stub of uwlib_tiny: past the
	# signal frame the stub's return address is beyond the copy
	awk '/ (_init|uwlib_tiny@plt) \(/ && prev ~ / \[unknown\] \(.*libc/ { getline; if (/ ffffffffffffffff /) n++ }
	     { prev = $0 } END { exit !n }' short.mine ||
		echo "unwind.sh: note: no sample of the signal handler that interrupted a PLT stub"
else
	sk "perf record --call-graph dwarf,512 failed: short stack copies not compared"
fi

# a program exec'd by a shell script, calling through a lazy PLT: perf
# looks libc's and ld.so's CFI up at their lowest maps, those of the shell
# when it had them lower (perf keeps the maps from before an exec), finds
# no FDE there and guesses from rbp; a sample in the PLT stub has its
# callers (the stub's CFA is an expression on rip).  Every frame, with
# and without inline frames, counted with the others.
if record uwexec ./uwexec.sh 100000000; then
	compare_file uwexec "uwexec (exec'd by a shell script)"
	compare_file_inline uwexec
	# perf 6.1 names the stubs of .plt after the symbol before them (_init)
	grep -q -E '^uwexec [0-9 ]*\| [0-9a-f]+ (_init|uwlib_tiny@plt) \(' uwexec.mine ||
		echo "unwind.sh: note: no sample in uwexec's PLT stub"
	grep -q "^uwexec .*__libc_start_call_main (" uwexec.mine ||
		fail "uwexec: no unwound frame reaches __libc_start_call_main"
else
	sk "perf record of a program exec'd by a shell script failed: $(tail -1 uwexec.err)"
fi

# a non-PIE program running code from a second map of part of its own
# file (as node does with V8's builtins): perf finds no FDE there and
# guesses from rbp, then goes on with the CFI of the program's module
# (which must stay where it is).  Every frame, counted with the others.
if ! gcc -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls \
	-no-pie -fno-pie -o uwremap "$SRC/uwremap.c" > uwremap.err 2>&1; then
	sk "gcc cannot build uwremap.c without PIE: $(tail -1 uwremap.err)"
elif ! record uwremap ./uwremap 2000; then
	sk "perf record of uwremap failed: $(tail -1 uwremap.err)"
else
	compare_file uwremap "uwremap (code in a second map of its file)"
	grep -q " remapped (.*) *$" uwremap.mine && grep -A1 " remapped (" uwremap.mine | grep -q " run (\| main (" ||
		echo "unwind.sh: note: uwremap: no sample in the remapped copy with its caller"
fi

# A library built without unwind tables, called and calling back: its
# .eh_frame is a terminator alone and ld makes no .eh_frame_hdr, so
# perf's find_proc_info fails for its frames and the stack ends at the
# first (the sampled leaf, or the caller the callback returns to), where
# a file with the index but no FDE for the frame is guessed from rbp (the
# leaf keeps its frame pointer: guessing would go on).  Every frame,
# counted with the others.
mkdir -p nocfi
if ! gcc -O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-asynchronous-unwind-tables \
	-fno-unwind-tables -shared -fPIC -o nocfi/libuwlib.so "$SRC/uwlib.c" > uwnocfi.err 2>&1 ||
	! gcc $CF -o uwnocfi "$SRC/uwnocfi.c" -Lnocfi -luwlib -Wl,-rpath,"$T/nocfi" >> uwnocfi.err 2>&1; then
	sk "gcc cannot build a library without unwind tables: $(tail -1 uwnocfi.err)"
elif ! record uwnocfi ./uwnocfi 8000; then
	sk "perf record of uwnocfi failed: $(tail -1 uwnocfi.err)"
else
	compare_file uwnocfi "uwnocfi (a library without unwind tables)"
	grep -q " uwlib_work ($T/nocfi/libuwlib.so)" uwnocfi.mine ||
		echo "unwind.sh: note: uwnocfi: no sample in the library"
fi

# setjmp and longjmp in a loop: in __longjmp, once it has restored the
# registers of setjmp's caller, the row's CFA is the jmp_buf (rdi), and
# rsp, rbp and the return address are in r8, r9 and rdx.  libunwind takes
# the caller's rsp from the CFA whatever the row says, so perf unwinds
# setjmp's caller from the jmp_buf and ends at a garbage return address
# read there; so must we.  Every frame, with and without inline frames,
# counted with the others.
if c_program uwjmp "uwjmp (longjmp's restored registers)"; then
	# the garbage return address read from the jmp_buf: as many as perf's
	same_count uwjmp " \[unknown\] (\[unknown\])$" "frames outside any map"
	grep -q " __longjmp (" uwjmp.mine ||
		echo "unwind.sh: note: uwjmp: no sample in __longjmp"
fi

# A signal handler on an alternate stack (sigaltstack) interrupting a
# loop that keeps a frame pointer but has no CFI, in a file with an
# .eh_frame_hdr: the walk goes through the signal frame into the loop,
# where perf's libunwind finds no FDE and guesses from rbp, which points
# into the main stack, outside the copy of the handler's stack: perf's
# accessor reads 0 there, and the stack ends with ffffffffffffffff.
# Every frame, with and without inline frames, counted with the others.
if c_program uwalt "uwalt (a handler on an alternate stack)"; then
	# the guessed 0: as many ffffffffffffffff frames as perf's
	same_count uwalt " ffffffffffffffff \[unknown\]" "frames ffffffffffffffff"
	[ "$p0" -gt 0 ] || echo "unwind.sh: note: uwalt: no sample in the handler over the loop"
fi

# A frame that keeps its CFA in rbx (ld.so's lazy binding trampolines
# do) calling a loop whose CFI says nothing of rbx (_dl_fixup before it
# saves rbx): the caller's rbx is the sampled one, which libunwind takes
# as unchanged, where libdw's x86_64 rules have rbx undefined.  Every
# frame, with and without inline frames, counted with the others.
if c_program uwrbx "uwrbx (a CFA in rbx over a frame that keeps rbx)"; then
	# the frames past the trampoline-like frame: as many as perf's
	same_count uwrbx " rounds_of (" "frames in rounds_of"
	[ "$p0" -gt 0 ] || echo "unwind.sh: note: uwrbx: no sample in spin_leaf"
fi

# Code in a deleted memfd mapped twice, writable below and executable
# above, as a JIT maps its code (Erlang's): the executable map is a
# second map of a file, but one perf cannot read an .eh_frame_hdr from,
# so its lookup fails with an error and the stack ends at the JIT frame
# (a second map of an ELF file with the index is guessed past: node).
# Every frame, with and without inline frames, counted with the others.
if c_program uwjit "uwjit (code in a memfd mapped twice)"; then
	same_count uwjit " (/memfd:uwjit (deleted))$" "frames in the memfd"
	[ "$p0" -gt 0 ] || echo "unwind.sh: note: uwjit: no sample in the memfd's code"
fi

# A 300 KB frame built with -fstack-clash-protection: in its probe loop
# the CFA is r11 plus the frame's size, and the return address lies far
# past the 8 KiB copy, in [stack]: perf's accessor reads 0 there, and
# the stack ends with ffffffffffffffff, as where the CFA is on rsp.
# Every frame, with and without inline frames, counted with the others.
if c_program uwclash "uwclash (a stack-clash probe loop)" -fstack-clash-protection; then
	same_count uwclash " ffffffffffffffff \[unknown\]" "frames ffffffffffffffff"
	[ "$p0" -gt 0 ] || echo "unwind.sh: note: uwclash: no sample past the copy"
fi

# A program whose C has its CFI in .debug_frame only, linked without an
# .eh_frame_hdr, calling a loop that no FDE covers, in .eh_frame or
# .debug_frame, with a frame pointer: perf's lookup fails at the loop
# and the stack ends there, where libdw would guess from rbp (Free
# Pascal's programs, musl's static ones).  Every sample in the loop must
# be perf's; in the program's C, which only .debug_frame describes, our
# stacks go on where perf's end (the .debug_frame case of the README), so
# every other stack of perf's must be the start of ours.  Not counted in
# the agreement.
if ! gcc $CF -fno-asynchronous-unwind-tables -Wl,--no-eh-frame-hdr -o uwdbgf \
	"$SRC/uwdbgf.c" > uwdbgf.err 2>&1; then
	sk "gcc cannot build uwdbgf.c: $(tail -1 uwdbgf.err)"
elif ! record uwdbgf ./uwdbgf; then
	sk "perf record of uwdbgf failed: $(tail -1 uwdbgf.err)"
else
	script_and_sym uwdbgf
	# "SAMPLES IN-THE-LOOP DIFFERENT-THERE NOT-A-START"
	set -- $(awk "$AWK_STARTS"'
		BEGIN { RS = "" }
		NR == FNR { p[FNR] = $0; next }
		{	n++
			split($0, line, "\n")
			if (index(line[2], " spin_nocfi (")) {
				loop++
				if ($0 != p[FNR])
					differ++
			} else if (!starts(p[FNR], $0)) {
				bad++
			}
		}
		END { print n + 0, loop + 0, differ + 0, bad + 0 }' uwdbgf.script uwdbgf.sym)
	echo "unwind.sh: uwdbgf (no FDE for a frame, .debug_frame, no .eh_frame_hdr): $1 samples," \
		"$3 of $2 in the loop differ, $4 other stacks of perf's not the start of ours"
	same_samples uwdbgf "$1"
	[ "$2" -gt 0 ] || fail "uwdbgf: no sample in the loop"
	[ "$3" -eq 0 ] || fail "uwdbgf: $3 samples in the loop differ from perf's"
	[ "$4" -eq 0 ] || fail "uwdbgf: a perf stack is not the start of ours"
fi

# A GNU C nested function, its code apart from its parent's, with a
# function inlined into it: addr2line finds every function of a unit by
# its own ranges, so perf's inline frames name it and what it inlines
# (Ada's and Fortran's inner subprograms are nested so too).  Every frame,
# with and without inline frames, counted with the others.
if c_program uwnest "uwnest (a nested function)"; then
	p0=$(grep -c " inner (inlined)$" uwnest.iperf)
	m0=$(grep -c " inner (inlined)$" uwnest.imine)
	[ "$p0" -eq "$m0" ] ||
		fail "uwnest: $m0 inline frames of the nested function where perf has $p0"
	[ "$p0" -gt 0 ] || echo "unwind.sh: note: uwnest: no sample in the nested function"
fi

# The test's library linked at a base of its own (its first PT_LOAD at
# 0x7000000, as -Ttext-segment or lld's --image-base make it) and the C
# program calling it: the module must be where the maps put the file,
# its load bias added to that address.  Every frame, with and without
# inline frames, counted with the others.
mkdir -p based
if ! gcc $CF -shared -fPIC -Wl,-Ttext-segment=0x7000000 -o based/libuwlib.so \
	"$SRC/uwlib.c" > uwbase.err 2>&1 ||
   ! gcc $CF -o uwbase "$SRC/uwprog.c" -Lbased -luwlib -Wl,-rpath,"$T/based" >> uwbase.err 2>&1; then
	sk "gcc cannot link a library at a base of its own: $(tail -1 uwbase.err)"
elif ! record uwbase ./uwbase; then
	sk "perf record of uwbase failed: $(tail -1 uwbase.err)"
else
	compare_file uwbase "uwbase (a library linked at 0x7000000)"
	compare_file_inline uwbase
	grep -q " main ($T/uwbase)" uwbase.mine || fail "uwbase: no unwound frame reaches main"
fi

# perf record --threads: a directory, each CPU's records in a data.N file
# of its own and no FINISHED_ROUND.  uwcpp twice at once, three times,
# so that each CPU's file holds more than the reader's time-order queue
# (20 MiB) of samples of every process: the streams must be merged by
# time as perf merges them (read one after the other, most samples met
# their process's maps out of order: 46,501 of 46,708 frames differed).
# Every frame, with and without inline frames, counted with the others.
# (uwprog is left out: in a --threads recording perf stops at the signal
# frame of its handler's samples, where it goes on in a recording of the
# same program without --threads, and we go on in both.)
if ! "$PERF" record -q --threads --call-graph dwarf -o uwthreads.data \
	-- sh -c 'for i in 1 2 3; do ./uwcpp & ./uwcpp; wait; done' > uwthreads.out 2> uwthreads.err; then
	sk "perf record --threads failed: $(tail -1 uwthreads.err)"
else
	[ -d uwthreads.data ] || fail "perf record --threads wrote no directory"
	compare_file uwthreads "uwthreads (perf record --threads: $(ls uwthreads.data | grep -c '^data\.') data.N files)"
	compare_file_inline uwthreads
	grep -q " main ($T/uwcpp)" uwthreads.mine || fail "uwthreads: no unwound frame of uwcpp reaches main"
fi

# node --perf-prof writes a jitdump, and perf inject --jit an ELF file
# per compiled function, each mapped where its code was (-k 1: the
# jitdump's clock).  Optimised code comes with an .eh_frame, the rest
# with an empty one and an index: perf looks up a DSO's index at the
# lowest of its maps' starts less their offsets (these files' code is at
# offset 0x80, not on a page), guesses from rbp where the index has no
# FDE, and takes the files over node's own text (its embedded builtins)
# for what they are mapped as.  Every frame, with and without inline
# frames, counted with the others (before: 817 of 4,207 samples of such
# a recording differed).
if ! command -v node > /dev/null 2>&1; then
	sk "uwnode: node not found"
elif ! "$PERF" record -q -k 1 --call-graph dwarf -F 2000 -o uwnode-raw.data -- \
	node --perf-prof --interpreted-frames-native-stack "$SRC/uwnode.js" 1000 \
	> uwnode.out 2> uwnode.err; then
	sk "perf record of node --perf-prof failed: $(tail -1 uwnode.err)"
elif ! "$PERF" inject --jit -i uwnode-raw.data -o uwnode.data > uwnode.out 2> uwnode.err ||
     ! ls jitted-*.so > /dev/null 2>&1; then
	sk "perf inject --jit made no jitted files: $(tail -1 uwnode.err)"
else
	compare_file uwnode "uwnode (node's JIT through perf inject --jit)"
	compare_file_inline uwnode
	# V8 names it JS:*fib (node 20), LazyCompile:*fib (Debian's node 18)
	grep -Eq " [A-Za-z]+:[^ ]*fib .*\(.*/jitted-[0-9]+-[0-9]+\.so\)$" uwnode.mine ||
		fail "uwnode: no frame of fib in a jitted file"
fi

# A Go program: Go's linker writes no .eh_frame, its CFI is in a
# compressed .debug_frame, which perf 6.1 as Debian builds it never reads
# (its libunwind has no dwarf_find_debug_frame): with no .eh_frame_hdr
# its stack ends at the first frame.  We unwind with .debug_frame (the
# README's dwarf agreement section): every stack of perf's must be the
# start of ours, and ours must reach fibloop, the goroutine's function,
# from every sample in fib.  Not counted in the agreement.
if ! command -v go > /dev/null 2>&1; then
	sk "uwgo: go not found"
elif ! GO111MODULE=off go build -o uwgo "$SRC/uwgo.go" > uwgo.err 2>&1; then
	sk "uwgo: go build failed: $(tail -1 uwgo.err)"
elif ! record uwgo ./uwgo; then
	sk "perf record of uwgo failed: $(tail -1 uwgo.err)"
else
	script_and_sym uwgo
	# "SAMPLES NOT-A-START FIB REACHED"
	set -- $(awk -v prog=" ($T/uwgo)" "$AWK_STARTS"'
		BEGIN { RS = "" }
		NR == FNR { p[FNR] = $0; next }
		{	n++
			if (!starts(p[FNR], $0))
				bad++
			if (index($0, " main.fib" prog)) {
				fib++
				if (index($0, " main.fibloop" prog))
					reached++
			}
		}
		END { print n + 0, bad + 0, fib + 0, reached + 0 }' uwgo.script uwgo.sym)
	echo "unwind.sh: uwgo (Go, .debug_frame only): $1 samples, $2 whose perf stack is not the start of ours;" \
		"$4 of $3 in fib reach fibloop"
	same_samples uwgo "$1"
	[ "$2" -eq 0 ] || fail "uwgo: a perf stack is not the start of ours"
	[ "$3" -gt 0 ] || fail "uwgo: no sample in fib"
	[ "$4" -eq "$3" ] || fail "uwgo: a stack in fib does not reach fibloop (.debug_frame not read?)"
fi

# Code whose link address is not its file offset (modulo the page) in one
# segment and is in another: lld's output, BOLT's (rustc's
# librustc_driver), here ld.bfd's with .text moved up.  Each map of the
# file has its own start - offset; the module's load bias is one, and a
# frame in either segment (main in .text, the PLT stubs below it) must
# find the module where it was put.  Every frame, with and without inline
# frames, counted with the others.
if ! gcc $CF -shared -fPIC -Wl,--section-start=.text=0x40000 -o libuwgap.so "$SRC/uwlib.c" \
	> uwgap.err 2>&1 ||
	! gcc $CF -Wl,--section-start=.text=0x40000 -o uwgap "$SRC/uwprog.c" -L. -luwgap \
	-Wl,-rpath,"$T" >> uwgap.err 2>&1; then
	sk "gcc cannot move .text (--section-start): $(tail -1 uwgap.err)"
elif ! record uwgap ./uwgap; then
	sk "perf record of uwgap failed: $(tail -1 uwgap.err)"
else
	compare_file uwgap "uwgap (segments at other distances from their file offsets)"
	compare_file_inline uwgap
	grep -q " main ($T/uwgap)" uwgap.mine || fail "uwgap: no unwound frame reaches main"
fi

# Code in a section of its own whose addresses are a page above its file
# offsets, where .text's are at them: the layout of BOLT's output (rustc's
# librustc_driver, its original code moved a page up, its new .text not).
# perf 6.1 asks addr2line about a frame's file offset plus .text's
# distance from its own (dso->text_offset), a page below such code, where
# uwsect_padding is: with DWARF its lines and inline chain, without the
# ELF symbol there, shown as inlined in place of the frame's function.
# The first link gives uwcode's file offset, the second puts uwcode a
# page above it; built with and without DWARF.  Every frame with and
# without inline frames, counted with the others; and uwsect_padding as
# often inlined as in perf's stacks (before: named nowhere, 2,944 and
# 3,024 frames of perf's).
for g in g g0; do
	u=uwsect$g
	if ! gcc -O2 -$g -fno-inline -Wl,--section-start=uwcode=0x1000000 -o $u "$SRC/uwsect.c" \
		> $u.err 2>&1 ||
	   ! off=$(readelf -SW $u | awk '{ for (i = 1; i < NF; i++) if ($i == "uwcode") print $(i + 3) }') ||
	   [ -z "$off" ] ||
	   ! gcc -O2 -$g -fno-inline -Wl,--section-start=uwcode=$(printf '0x%x' $((0x$off + 0x1000))) \
		-o $u "$SRC/uwsect.c" >> $u.err 2>&1; then
		sk "gcc cannot place a section of its own (--section-start): $(tail -1 $u.err)"
	elif ! record $u ./$u 3000; then
		sk "perf record of $u failed: $(tail -1 $u.err)"
	else
		compare_file $u "$u (code a page above its file offsets, -$g)"
		compare_file_inline $u
		p0=$(grep -c " uwsect_padding (inlined)$" $u.iperf)
		m0=$(grep -c " uwsect_padding (inlined)$" $u.imine)
		[ "$p0" -eq "$m0" ] || fail "$u: $m0 frames of uwsect_padding (inlined) where perf has $p0"
		[ "$p0" -gt 0 ] || echo "unwind.sh: note: $u: perf names no frame uwsect_padding (inlined)"
	fi
done

# A process none of whose files can be read when the recording is read
# (a static program deleted after the recording, not copied to the
# build-id cache: as a program run from a sealed memfd): perf unwinds it
# all the same, the vdso being readable, and shows the sampled ip alone.
if ! gcc -O2 -static -o uwgone "$SRC/uwalloc.c" "$SRC/uwalias.c" > uwgone.err 2>&1; then
	sk "gcc cannot build a static program: $(tail -1 uwgone.err)"
elif ! record uwgone -N ./uwgone; then
	sk "perf record -N of uwgone failed: $(tail -1 uwgone.err)"
else
	rm -f uwgone
	compare_file uwgone "uwgone (no readable file but the vdso)"
	grep -q "^uwgone [0-9 ]*| [0-9a-f]* \[unknown\] ($T/uwgone)" uwgone.mine ||
		fail "uwgone: no frame of the deleted program"
fi

# A program without .debug_aranges (clang and LLVM's linkers make none
# unless asked): addr2line finds the CU of an address by the ranges of
# the CUs' own DIEs, and so must the inline frames.  The C++ program with
# the section removed; every frame with and without inline frames, and
# the folded stacks with inline frames, counted with the others.
if ! objcopy --remove-section=.debug_aranges uwcpp uwnoar > uwnoar.err 2>&1; then
	sk "objcopy cannot remove .debug_aranges: $(tail -1 uwnoar.err)"
elif ! record uwnoar ./uwnoar; then
	sk "perf record of uwnoar failed: $(tail -1 uwnoar.err)"
else
	compare_file uwnoar "uwnoar (no .debug_aranges)"
	compare_file_inline uwnoar
	fold_script < uwnoar.iscript | sort > uwnoar.ipfold
	"$PERFCONV" to-csv --table folded uwnoar.data 2> /dev/null | sort > uwnoar.icfold
	set -- $(fold_agree uwnoar.ipfold uwnoar.icfold)
	count_inline "uwnoar folded with inline frames" "$1" "$2"
	[ "$2" -eq 0 ] || diff uwnoar.ipfold uwnoar.icfold | head -6 | sed 's/^/    /'
	grep -q " (inlined)$" uwnoar.imine ||
		fail "uwnoar: no inline frame without .debug_aranges"
fi

# A function with several names and no debug information (glibc's free,
# __free and __libc_free in a static-pie program; aliases in a stripped
# shared library, whose names are in .dynsym only): perf names the frame
# after the alias it prefers and expands it into the one addr2line takes
# from the symbol table (of aliases the first in table order), printed
# "(inlined)" in its place where the two differ.  Every frame, with and
# without inline frames, counted with the others; with inline frames
# they must all agree.
alias_compare() {	# name
	compare_file "$1" "$1"
	[ -s "$1.perf" ] || fail "$1: perf script shows no frame"
	compare_file_inline "$1"
	diff "$1.iperf" "$1.imine" > /dev/null ||
		fail "$1: frames named from the symbol table differ from perf's"
	grep -q " (inlined)$" "$1.iperf" ||
		echo "unwind.sh: note: $1: perf named no frame after another alias"
}
if ! gcc -O2 -fomit-frame-pointer -shared -fPIC -o libuwalias.so "$SRC/uwalias.c" > uwalias.err 2>&1 ||
	! strip libuwalias.so >> uwalias.err 2>&1 ||
	! gcc -O2 -fomit-frame-pointer -o uwalloc "$SRC/uwalloc.c" -L. -luwalias -Wl,-rpath,"$T" >> uwalias.err 2>&1; then
	sk "cannot build uwalloc.c with a stripped libuwalias.so: $(tail -1 uwalias.err)"
elif ! record uwalloc ./uwalloc; then
	sk "perf record of uwalloc failed: $(tail -1 uwalloc.err)"
else
	alias_compare uwalloc
fi
if ! gcc -O2 -fomit-frame-pointer -static-pie -o uwstatic "$SRC/uwalloc.c" "$SRC/uwalias.c" \
	> uwstatic.err 2>&1; then
	sk "gcc cannot build a static-pie program: $(tail -1 uwstatic.err)"
elif ! record uwstatic ./uwstatic; then
	sk "perf record of the static-pie program failed: $(tail -1 uwstatic.err)"
else
	alias_compare uwstatic
	grep -q " __libc_free (inlined)$\| malloc (inlined)$" uwstatic.iperf ||
		echo "unwind.sh: note: uwstatic: perf named no frame after another alias of free or malloc"
fi

# Rust (when rustc is installed): legacy and v0 mangled names as perf's
# libiberty demangles them, and inline frames nested deeper than sixteen
# levels (the standard library's).  Every frame with and without inline
# frames and the folded stacks, counted with the others.
if ! command -v rustc > /dev/null 2>&1; then
	sk "rustc not found: the Rust program is not compared"
elif ! rustc -O -g -C force-frame-pointers=no -o uwrust "$SRC/uwrust.rs" > rustc.err 2>&1; then
	sk "rustc cannot build uwrust.rs: $(tail -1 rustc.err)"
elif ! record uwrust ./uwrust 4; then
	sk "perf record of uwrust failed: $(tail -1 uwrust.err)"
else
	script_and_sym uwrust
	frame_lines < uwrust.script > uwrust.perf
	frame_lines < uwrust.sym > uwrust.mine
	compare "uwrust (Rust)" uwrust.perf uwrust.mine
	compare_file_inline uwrust
	fold_script < uwrust.script | sort > uwrust.pfold
	"$PERFCONV" to-csv --no-inline --table folded uwrust.data 2> /dev/null | sort > uwrust.cfold
	set -- $(fold_agree uwrust.pfold uwrust.cfold)
	ftotal=$((ftotal + $1))
	fbad=$((fbad + $2))
	echo "unwind.sh: uwrust folded: $1 samples, $2 folded differently"
	grep -q "^uwrust .* uwrust::fill (" uwrust.mine ||
		fail "uwrust: no demangled frame of uwrust::fill"
	deepest=$(awk '/ \(inlined\)$/ { n++; if (n > m) m = n; next } { n = 0 } END { print m + 0 }' uwrust.isym)
	[ "$deepest" -gt 16 ] ||
		echo "unwind.sh: note: uwrust: no frame with more than 16 inline frames ($deepest)"
fi

# memory does not grow with the samples: uwprog recorded with 32 KiB stack
# copies (165 MB here), and again at half the frequency (half the samples,
# the same stacks, half the file).  Both files are larger than what the
# reader keeps of a file mapped behind it (16 MiB) and queued: below that,
# the file's mapped pages, which the peak counts, grow with the file.
# perfsym's peak RSS (--bench) on the whole must stay within a quarter and
# 16 MiB of that on the half, and under 128 MiB (the bounds bench.sh checks
# on its 100 MB recordings).  16 MiB: how much of a file is queued and
# mapped at once follows its rounds (how much perf record drained at a
# time), which differ from one recording to the next by up to what the
# reader keeps mapped; the half recording's peak ranged from 14.6 to 28.5
# MiB here, the whole one's from 28.1 to 29.1.
if record uwbig --call-graph dwarf,32768 ./uwprog && record uwhalf --call-graph dwarf,32768 -F 2000 ./uwprog; then
	full_kib=$("$PERFSYM" --bench uwbig.data | awk '$1 == "peak_rss_kib" { print $2 }')
	half_kib=$("$PERFSYM" --bench uwhalf.data | awk '$1 == "peak_rss_kib" { print $2 }')
	echo "unwind.sh: perfsym peak RSS $full_kib KiB on uwbig.data ($(wc -c < uwbig.data) bytes), $half_kib KiB on uwhalf.data ($(wc -c < uwhalf.data) bytes)"
	[ -n "$full_kib" ] && [ -n "$half_kib" ] || fail "perfsym --bench printed no peak_rss_kib"
	[ "$full_kib" -le $((half_kib * 5 / 4 + 16384)) ] && [ "$full_kib" -lt 131072 ] ||
		fail "perfsym's peak RSS grows with the samples: $full_kib KiB against $half_kib KiB on half of them"
	rm -f uwbig.data uwhalf.data
else
	fail "perf record of uwprog with 32 KiB stack copies failed: $(cat uwbig.err uwhalf.err 2> /dev/null | tail -1)"
fi

# the deep recursion ends where perf ends it (127 frames), the signal
# handler's frames lead through the signal trampoline to the interrupted code
grep -c ' recurse (' uwprog.mine > /dev/null || fail "uwprog: no recursion frames"
grep -q ' on_alarm (' uwprog.mine || echo "unwind.sh: note: no sample in the signal handler"

# to-json --full --symbols: the frames of perf script with inline frames
# (counted with them), and exactly perfsym's, in time order (--ordered)
# and in file order (the frames resolved ahead), with and without
# --no-inline.  stack_syms: the symbol names of each stack, innermost
# first, from perf script or perfsym.
stack_syms() {
	awk '/^$/ { if (h) print s; h = 0; s = ""; next }
	     /^[^ \t]/ { h = 1; s = ""; next }
	     { sub(/^[ \t]+[0-9a-f]+ /, ""); sub(/ \([^(]*\)$/, ""); s = s (s == "" ? "" : "|") $0 }
	     END { if (h) print s }'
}
json_syms() {	# JSON-FILE
	python3 - "$1" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for rec in doc.get("records", []):
    fr = rec.get("frames")
    if rec.get("type") != "SAMPLE" or fr is None:
        continue
    print("|".join(f.get("symbol") or "[unknown]" for f in fr))
EOF
}
if [ "$have_py" = 1 ]; then
	for r in $RUNS; do
		for mode in --ordered "" "--ordered --no-inline"; do
			"$PERFCONV" to-json --full --symbols $mode --no-progress -o "$r.json" "$r.data" \
				2> json.err || fail "to-json --full --symbols $mode failed: $(cat json.err)"
			json_syms "$r.json" > "$r.jsyms" || fail "reading the to-json output failed"
			case $mode in
			*--no-inline) "$PERFSYM" --no-inline "$r.data" 2> /dev/null | stack_syms > "$r.psyms" ;;
			*) "$PERFSYM" "$r.data" 2> /dev/null | stack_syms > "$r.psyms" ;;
			esac
			if [ "$mode" = "" ]; then
				sort "$r.psyms" > "$r.psyms.s"
				sort "$r.jsyms" > "$r.jsyms.s"
				mv "$r.psyms.s" "$r.psyms"
				mv "$r.jsyms.s" "$r.jsyms"
			fi
			n=$(wc -l < "$r.psyms")
			d=$(diff "$r.psyms" "$r.jsyms" | grep -c '^[<>]')
			echo "unwind.sh: $r to-json --full --symbols ${mode:-(file order)}: $n stacks, $d differ from perfsym"
			[ "$d" -eq 0 ] || { diff "$r.psyms" "$r.jsyms" | head -10; fail "to-json --symbols differs"; }
			[ "$mode" = --ordered ] || continue
			"$PERF" script -i "$r.data" -F comm,tid,ip,sym,dso 2> /dev/null | stack_syms |
				count_stacks > "$r.isyms"
			count_stacks < "$r.jsyms" > "$r.jsyms.n"
			set -- $(fold_agree "$r.isyms" "$r.jsyms.n")
			count_inline "$r to-json --full --symbols stacks with inline frames" "$1" "$2"
		done
	done
else
	sk "python3 missing: to-json frames not compared"
fi

# to-pprof: pprof -traces as folded stacks, each location's lines
# innermost first
GO=${GO:-go}
if command -v "$GO" > /dev/null 2>&1 &&
	HOME=$T GOTOOLCHAIN=local "$GO" tool pprof -h > /dev/null 2>&1; then
	pprof_traces_folded() {	# PROFILE
		HOME=$T GOTOOLCHAIN=local "$GO" tool pprof -symbolize=none -traces \
			-sample_index=samples "$1" 2> /dev/null | pprof_traces_fold | sort
	}
	for r in $RUNS; do
		"$PERFCONV" to-pprof -o "$r.pb.gz" "$r.data" 2> pprof.err ||
			fail "to-pprof failed on $r.data: $(cat pprof.err)"
		pprof_traces_folded "$r.pb.gz" > "$r.ppfold"
		set -- $(fold_agree "$r.ipfold" "$r.ppfold")
		count_inline "$r to-pprof stacks (pprof -traces) with inline frames" "$1" "$2"
		[ "$2" -eq 0 ] || diff "$r.ipfold" "$r.ppfold" | head -6 | sed 's/^/    /'
		cmp -s "$r.icfold" "$r.ppfold" ||
			{ diff "$r.icfold" "$r.ppfold" | head -6; fail "$r: pprof -traces differ from to-csv's folded table"; }
		HOME=$T GOTOOLCHAIN=local "$GO" tool pprof -symbolize=none -raw "$r.pb.gz" \
			2> /dev/null > "$r.raw" || fail "$r: go tool pprof -raw cannot read the profile"
		awk '/^Locations/ { on = 1; next } /^Mappings/ { on = 0 }
		     on && /^ +[0-9]+: / { l = 1; next } on && /^             / && l { print; exit }' \
			"$r.raw" | grep -q . || fail "$r: no location of several lines (inline frames) in pprof -raw"
	done
else
	sk "go tool pprof missing: to-pprof stacks not compared"
fi

# i386: the same C program built with -m32, recorded and unwound through
# the 32-bit register set.  A perf built with libunwind for x86_64 only
# (Debian's) cannot unwind it ("unwind: target platform=x86 is not
# supported") and prints no user frame: then gdb is the reference.  Each
# sample becomes a core of its user registers (as perf script -F uregs
# prints them) and stack copy; gdb's stack of it must equal ours frame by
# frame, with 8 KiB and with 512-byte stack copies.  A perf that does
# unwind it is compared with as above.
i386_total=0
i386_bad=0
i386() {	# name record-args...
	name=$1
	shift
	record "$name" "$@" ./uw32prog || { sk "i386: perf record of uw32prog failed: $(tail -1 "$name.err")"; return; }
	"$PERF" script -i "$name.data" -F comm,tid,ip,sym,dso --no-inline 2> "$name.perr" | frame_lines > "$name.perf"
	"$PERFSYM" --no-inline "$name.data" 2> /dev/null | frame_lines > "$name.mine"
	grep -q " main ($T/uw32prog)" "$name.mine" || fail "$name: no unwound frame reaches main"
	if grep -q " main ($T/uw32prog)" "$name.perf"; then
		compare "$name (perf)" "$name.perf" "$name.mine"
	else
		echo "unwind.sh: note: $name: perf shows no user frame of the 32-bit process" \
			"($(grep -m1 -i unwind "$name.perr" || echo "no message")): compared with gdb"
	fi
	[ "$have_py" = 1 ] || { sk "i386: python3 missing, not compared with gdb"; return; }
	vdso=$("$PERF" buildid-list -i "$name.data" 2> /dev/null | awk '$2 == "[vdso32]" { print $1 }')
	vdso_file=
	[ -z "$vdso" ] || vdso_file=$(ls -d "$HOME"/.debug/.build-id/"$(echo "$vdso" | cut -c1-2)"/"$(echo "$vdso" | cut -c3-)"/vdso 2> /dev/null)
	[ -n "$vdso_file" ] || { sk "i386: perf recorded no [vdso32] image, not compared with gdb"; return; }
	"$PERFCONV" to-json --full --symbols --no-inline --no-progress -o "$name.json" "$name.data" 2> /dev/null ||
		fail "to-json --full --symbols failed on $name.data"
	"$PERF" script -i "$name.data" -F tid,time,uregs --ns 2> /dev/null > "$name.uregs"
	rm -rf "$name.cores"
	mkdir "$name.cores"
	python3 "$SRC/i386cores.py" "$name.json" "$name.uregs" "$name.cores" "$vdso_file" > "$name.ncores" ||
		fail "$name: the registers of to-json differ from perf script -F uregs"
	CORES=$T/$name.cores OUT=$T/$name.gdb gdb -nx -batch -x "$SRC/gdbstacks.py" \
		> "$name.gdbout" 2>&1 && [ -s "$name.gdb" ] ||
		fail "$name: gdb could not unwind the cores: $(grep -v '^warning' "$name.gdbout" | tail -2)"
	# "FRAMES DIFFERENT PAST": gdb's frames, those from the first frame
	# of a stack that differs on, and ours past where gdb stopped at the
	# end of the copy
	set -- $(awk '
		NR == FNR { if ($2 == "end") end[$1] = 1; else g[$1] = g[$1] " " $2; next }
		{ o[$1] = o[$1] " " $2 }
		END {
			for (k in g) n += split(g[k], x, " ")
			for (k in o) if (!(k in g)) g[k] = ""
			for (k in g) {
				a = split(g[k], ga, " "); b = split(o[k], oa, " ")
				for (i = 1; i <= a || i <= b; i++) {
					if (i > a && (k in end)) { past++; continue }
					if (ga[i] != oa[i]) { bad += (a > b ? a : b) - i + 1; print "    sample " k ": gdb" g[k] " ours" o[k] > "/dev/stderr"; break }
				}
			}
			print n + 0, bad + 0, past + 0
		}' "$name.gdb" "$name.cores/ours" 2> "$name.gdbdiff")
	i386_total=$((i386_total + $1))
	i386_bad=$((i386_bad + $2))
	echo "unwind.sh: $name against gdb: $(cat "$name.ncores") samples, $1 frames, $2 differ;" \
		"$(grep -o '[0-9]* stacks end at a function without CFI' "$name.gdbout");" \
		"$3 frames of ours past where gdb stops at the end of the copy"
	[ "$2" -eq 0 ] || head -5 "$name.gdbdiff" | cut -c1-300
	# to-json's frames, compared with gdb, are perfsym's
	"$PERFSYM" --no-inline "$name.data" 2> /dev/null | stack_syms | sort > "$name.psyms"
	json_syms "$name.json" | sort > "$name.jsyms"
	cmp -s "$name.psyms" "$name.jsyms" || fail "$name: to-json --full --symbols differs from perfsym"
}
if ! gcc -m32 $CF -shared -fPIC -o libuw32lib.so "$SRC/uwlib.c" > i386.err 2>&1 ||
	! gcc -m32 $CF -o uw32prog "$SRC/uwprog.c" -L. -luw32lib -Wl,-rpath,"$T" >> i386.err 2>&1; then
	sk "i386: gcc -m32 cannot build ($(tail -1 i386.err); gcc-multilib: sh scripts/install-deps.sh)"
elif ! command -v gdb > /dev/null 2>&1 || ! command -v readelf > /dev/null 2>&1; then
	sk "i386: gdb or readelf not found (sh scripts/install-deps.sh)"
else
	i386 uw32 --call-graph dwarf
	i386 uw32short --call-graph dwarf,512
	if [ "$i386_total" -gt 0 ]; then
		rate32=$(awk -v t="$i386_total" -v b="$i386_bad" 'BEGIN { printf "%.3f", 100 * (t - b) / t }')
		echo "unwind.sh: i386 agreement with gdb $rate32% of $i386_total frames"
		awk -v r="$rate32" -v m="$MIN_RATE" 'BEGIN { exit !(r >= m) }' ||
			fail "i386 agreement with gdb below $MIN_RATE%"
	fi
fi

[ "$total" -gt 0 ] || fail "no frames recorded"
rate=$(awk -v t="$total" -v b="$bad" 'BEGIN { printf "%.3f", 100 * (t - b) / t }')
frate=$(awk -v t="$ftotal" -v b="$fbad" 'BEGIN { printf "%.3f", t ? 100 * (t - b) / t : 100 }')
irate=$(awk -v t="$itotal" -v b="$ibad" 'BEGIN { printf "%.3f", t ? 100 * (t - b) / t : 100 }')
echo "unwind.sh: agreement $rate% of $total frames, folded $frate% of $ftotal samples"
echo "unwind.sh: with inline frames $irate% of $itotal frames, samples and functions ($igarbled samples left out: perf garbled their inline frames)"
awk -v r="$rate" -v f="$frate" -v m="$MIN_RATE" 'BEGIN { exit !(r >= m && f >= m) }' ||
	fail "agreement below $MIN_RATE%"
awk -v r="$irate" -v m="$INLINE_MIN_RATE" 'BEGIN { exit !(r >= m) }' ||
	fail "agreement with inline frames below $INLINE_MIN_RATE%"
echo "unwind.sh: PASS ($skip parts skipped)"
