#!/bin/sh
# srcline.sh - source lines and inline frames compared with perf and
# addr2line, run here on the same recordings.
#
# Builds tests/symbolize/srcline/ (a program spending its time in libc, in its
# own inlined code and in a library whose debug info is separate: stripped,
# with .gnu_debuglink naming a .debug file beside it, and a copy under a symfs
# root whose .debug file is in /usr/lib/debug), records it with perf -g, and
# checks:
#  1. perfsym --srcline against `perf script -F ip,sym,srcline`, frame by
#     frame: the innermost file (perf prints its base name) and line;
#     (also for tests/workloads/tmpl.cc, C++ templates built with g++);
#  2. every distinct address of libc, the library and the C++ program against
#     `addr2line -f -i -e DEBUGFILE`: the whole inline chain (positions
#     and inlined function names), libc through the libc6-dbg build-id
#     file;
#  3. to-csv --srcline --table lines: the samples add up to the samples of
#     the recording, two runs are identical, and the counts per line agree
#     with `perf report --sort srcline`;
#  4. to-csv's functions table: the source file of each function of libc
#     and of the library is the one addr2line gives for its start;
#  5. the same under --symfs, where the library's .debug file is found in
#     the root's /usr/lib/debug;
#  6. a program built without -g (tests/symbolize/srcline/nogprog.c): where no
#     DWARF line covers an address, addr2line (so perf) names the file of the
#     ELF symbol around it, line 0 ("nogprog.c:0"; ":0" for an unnamed
#     STT_FILE symbol): perfsym --srcline against perf script and addr2line,
#     the lines and functions tables against perf report and addr2line;
#  7. the library's .debug file with zlib-compressed sections (objcopy
#     --compress-debug-sections) under another symfs root: the same frames
#     and lines as the uncompressed one and as perf script there; then with
#     the Adler-32 of its .debug_info damaged: the file's debug info is
#     refused (no line, no inline frame in the library, a PD809 note naming
#     the file), every other frame is unchanged and perfsym exits 0.
# libc checks are skipped (and counted) when libc6-dbg is not installed;
# the whole test is skipped where perf, gcc or binutils are missing or perf
# may not record.
#
# Environment: O = build directory (default bin), KEEP=1 keeps the
# temporary directory.
set -u
O=${O:-bin}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case $O in /*) ;; *) O=$ROOT/$O ;; esac
PERFSYM=$O/perfsym
PERFCONV=$O/perfconv
SRC=$ROOT/tests/symbolize/srcline

TEST=srcline.sh
. "$ROOT/tests/harness.sh"
# the whole test cannot run here: one skipped check, and the summary
skip_all() {
	sk "$*"
	test_summary
	exit
}

[ -x "$PERFSYM" ] && [ -x "$PERFCONV" ] || { echo "srcline.sh: $O/perfsym or perfconv missing: run make" >&2; exit 1; }
for tool in gcc objcopy strip addr2line readelf; do
	command -v $tool > /dev/null 2>&1 || skip_all "$tool not found (scripts/install-deps.sh installs it)"
done
. "$ROOT/tests/find-perf.sh"
[ -n "$PERF" ] || skip_all "$PERF_MISSING"

test_tmpdir pd-srcline

# ------------------------------------------------------------ build
CF="-O2 -g -fno-omit-frame-pointer"
(
	set -e
	cd "$T"
	mkdir lib
	gcc $CF -shared -fPIC -o lib/libsrcdbg.so "$SRC/srclib.c"
	objcopy --only-keep-debug lib/libsrcdbg.so lib/libsrcdbg.so.debug
	strip --strip-all lib/libsrcdbg.so
	objcopy --add-gnu-debuglink=lib/libsrcdbg.so.debug lib/libsrcdbg.so
	gcc $CF -o srcprog "$SRC/srcprog.c" -Llib -lsrcdbg -Wl,-rpath,"$T/lib"
	gcc -O2 -fno-omit-frame-pointer -o nogprog "$SRC/nogprog.c"
	# the same files under a symfs root, the .debug file in /usr/lib/debug
	mkdir -p "root$T/lib" "root/usr/lib/debug$T/lib"
	cp srcprog "root$T/"
	cp lib/libsrcdbg.so "root$T/lib/"
	cp lib/libsrcdbg.so.debug "root/usr/lib/debug$T/lib/"
	# and under zroot with its debug sections compressed (part 7)
	mkdir -p "zroot$T/lib" "zroot/usr/lib/debug$T/lib"
	cp srcprog "zroot$T/"
	cp lib/libsrcdbg.so "zroot$T/lib/"
	objcopy --compress-debug-sections=zlib lib/libsrcdbg.so.debug \
		"zroot/usr/lib/debug$T/lib/libsrcdbg.so.debug"
) || { echo "srcline.sh: building the test programs failed" >&2; exit 1; }
cd "$T"

perf_can_record "$T" || skip_all "perf record does not work here: $PERF_MISSING"
"$PERF" record -N -q -g -F 2999 -o rec.data ./srcprog 20 > /dev/null 2> rec.err ||
	{ echo "srcline.sh: perf record failed: $(tail -1 rec.err)" >&2; exit 1; }

# libc as the recording names it
LIBC=$("$PERFSYM" rec.data 2> /dev/null | awk '$NF ~ /\/libc\.so\.6\)$/ { print substr($NF, 2, length($NF) - 2); exit }')
LIBC_DEBUG=
if [ -n "$LIBC" ]; then
	bid=$(readelf -n "$LIBC" | awk '/Build ID/ { print $3 }')
	f=/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug
	[ -n "$bid" ] && [ -f "$f" ] && LIBC_DEBUG=$f
else
	ko "no libc frame recorded"
fi
LIB=$T/lib/libsrcdbg.so
LIB_DEBUG=$T/lib/libsrcdbg.so.debug

# ------------------------------------------------------------ helpers
# "$PERF" script -F ip,sym,srcline: "ADDR KEY" per frame; KEY is the base name
# and line perf prints (":0" for the empty file name of an unnamed STT_FILE
# symbol), "-" when it prints none
norm_perf() {
	awk '/^\t/ { if (have) print a, k; a = $1; k = "-"; have = 1; next }
	     /^  [^ ]/ { if (have && k == "-") { s = $1
			 if (s ~ /^[^ :]*:[0-9]+$/ && s !~ /^\?\?:/) { n = split(s, p, "/"); k = p[n] } }
			 next }
	     END { if (have) print a, k }' "$1"
}
# perfsym --srcline: "ADDR KEY DSO" per frame, KEY from the first position
norm_ours() {
	awk '/^\t\t/ { if (have && k == "-") { n = split($1, p, "/"); k = p[n] } next }
	     /^\t/ { if (have) print a, k, d; a = $1; d = $NF; k = "-"; have = 1; next }
	     END { if (have) print a, k, d }' "$1"
}

# compare_perf NAME PERF_SCRIPT_OUT PERFSYM_OUT [DSO]: frame by frame, only
# the frames of DSO when given
compare_perf() {
	norm_perf "$2" > "$1.perf.keys"
	norm_ours "$3" > "$1.ours.keys"
	if [ "$(wc -l < "$1.perf.keys")" -ne "$(wc -l < "$1.ours.keys")" ] ||
	   [ ! -s "$1.perf.keys" ]; then
		ko "$1: perf script and perfsym list different frames ($(wc -l < "$1.perf.keys") vs $(wc -l < "$1.ours.keys"))"
		return
	fi
	paste -d' ' "$1.perf.keys" "$1.ours.keys" > "$1.pairs"
	awk -v name="$1" -v libc="${LIBC:-none}" -v lib="$LIB" -v only="${4:-}" '
		{ dso = substr($5, 2, length($5) - 2)
		  if (only != "" && dso != only) next
		  total++
		  if ($1 != $3) { addr++; next }
		  if ($2 != "-") withline++
		  if (dso == lib && $2 != "-") inlib++
		  if (dso == libc && $2 != "-") inlibc++
		  if ($2 != $4) { bad++; if (bad <= 5) printf "  %s: %s perf %s, perfsym %s (%s)\n", name, $1, $2, $4, dso } }
		END { printf "srcline.sh: %s: %d frames, %d with a line (%d in libc, %d in the library), %d differ\n",
			     name, total, withline, inlibc, inlib, bad + addr
		      exit (bad + addr) ? 1 : 0 }' "$1.pairs"
}

# offset -> link-time address through FILE's PT_LOADs (shell arithmetic:
# awk may only have doubles and 32-bit %x)
to_vaddr() {	# FILE < hex offsets > "offset vaddr"
	segs=$(readelf -lW "$1" | awk '$1 == "LOAD" { print $2, $3, $5 }')
	while read -r x; do
		o=$((0x$x))
		v=$o
		while read -r so sv sz; do
			[ -n "$so" ] || continue
			if [ "$o" -ge $((so)) ] && [ "$o" -lt $((so + sz)) ]; then
				v=$((o - so + sv))
				break
			fi
		done <<EOS
$segs
EOS
		printf '%s %x\n' "$x" "$v"
	done
}

# chains NAME DSO RUNTIME DEBUGFILE PERFSYM_OUT [positions]: inline chains
# of every distinct address of DSO against addr2line -f -i on the debug
# file; with "positions", without the inlined functions' names (addr2line
# names some C++ template instances after their caller)
chains() {
	name=$1 dso=$2 rt=$3 dbg=$4 out=$5 only=${6:-}
	# ours: "ADDR|loc;func|loc;func|...": positions innermost first
	awk -v dso="($dso)" '
		/^\t\t/ { if (on) { n = split($1, p, "/"); f = ""; i = index($0, " inlined ")
				     if (i) f = substr($0, i + 9)
				     s = s "|" p[n] ";" f } next }
		/^\t/ { if (on && !(a in seen)) { seen[a] = 1; print a s } on = ($NF == dso); a = $1; s = ""; next }
		{ if (on && !(a in seen)) { seen[a] = 1; print a s } on = 0 }
		END { if (on && !(a in seen)) print a s }' "$out" | sort -u > "$name.ours.chains"
	cut -d'|' -f1 "$name.ours.chains" | to_vaddr "$rt" > "$name.addrs"
	if [ ! -s "$name.addrs" ]; then
		ko "$name: no frame of $dso"
		return
	fi
	awk '{ print "0x" $2 }' "$name.addrs" | addr2line -a -f -i -e "$dbg" > "$name.a2l"
	# addr2line: "0xADDR" then (function, file:line) pairs, innermost
	# first; the last function is the frame's own (not an inline)
	awk 'NR == FNR { v2o["0x" $2] = $1; next }
		/^0x/ { if (a != "") print a s; x = $1; sub(/^0x0*/, "0x", x); a = v2o[x]; s = ""; np = 0; next }
		{ if (np % 2 == 0) fn = $1
		  else { loc = $1; n = split(loc, p, "/"); loc = p[n]
			 # "??:0", "??:?": nothing known; "FILE:?" (also an
			 # empty FILE): no line row, the file of the ELF
			 # symbol around it, which perf reads as line 0
			 if (loc ~ /^\?\?/) loc = "??:0"
			 else sub(/:\?$/, ":0", loc)
			 f[np] = fn; l[np] = loc }
		  np++
		  if (np % 2 == 0) s = s "|" loc ";" fn }
		END { if (a != "") print a s }' \
		"$name.addrs" "$name.a2l" |
	awk -F'|' '{ # the outermost entry names the frame function, not an inline
		out = $1; for (i = 2; i <= NF; i++) { e = $i; if (i == NF) sub(/;.*/, ";", e); out = out "|" e }
		print out }' |
	sed 's/^0x0*\([0-9a-f]\)/\1/' | sort -u > "$name.a2l.chains"
	# a frame without any line has no positions in either
	# at most 65 positions (PD_SYM_MAX_INLINE + 1), the innermost ones
	sed -e 's/|??:0;$//' -e 's/|??:0;[^|]*$//' "$name.a2l.chains" |
		awk -F'|' -v OFS='|' 'NF > 66 { NF = 66 } { print }' > "$name.a2l.chains2"
	if [ "$only" = positions ]; then
		sed -i 's/;[^|]*//g' "$name.a2l.chains2" "$name.ours.chains"
	fi
	n=$(wc -l < "$name.ours.chains")
	inl=$(awk -F'|' 'NF > 2' "$name.ours.chains" | wc -l)
	if cmp -s "$name.ours.chains" "$name.a2l.chains2"; then
		echo "srcline.sh: $name: $n addresses ($inl with inline frames) agree with addr2line -i"
		ok
	else
		ko "$name: inline chains differ from addr2line -f -i -e $dbg"
		diff "$name.a2l.chains2" "$name.ours.chains" | head -10
	fi
}

# ------------------------------------------------------------ 1. "$PERF" script
"$PERF" script -i rec.data -F ip,sym,srcline > perf.script 2> /dev/null
"$PERFSYM" --srcline rec.data > perfsym.out 2> perfsym.err
if compare_perf frames perf.script perfsym.out; then ok; else ko "perfsym --srcline differs from perf script -F ip,sym,srcline"; fi
grep -q "$LIB)" perfsym.out || ko "no frame in $LIB"
if [ -n "$LIBC_DEBUG" ]; then
	awk -v libc="($LIBC)" '$NF == libc { n++ } END { exit !(n > 0) }' perfsym.out ||
		ko "no libc frame recorded"
	# libc frames with a line: perf and perfsym both found the build-id file
	awk '$5 == "('"$LIBC"')" && $4 != "-"' frames.pairs | grep -q . ||
		ko "no libc frame has a source line (libc6-dbg is installed)"
else
	sk "libc6-dbg not installed: libc lines not compared"
fi

# ------------------------------------------------------------ 2. addr2line
chains lib "$LIB" "$LIB" "$LIB_DEBUG" perfsym.out
if [ -n "$LIBC_DEBUG" ]; then
	chains libc "$LIBC" "$LIBC" "$LIBC_DEBUG" perfsym.out
else
	sk "libc6-dbg not installed: libc inline chains not compared"
fi
chains prog "$T/srcprog" "$T/srcprog" "$T/srcprog" perfsym.out

# C++ templates: deep inline chains, sequences that start in headers
if command -v g++ > /dev/null 2>&1 &&
   g++ -O2 -g -fno-omit-frame-pointer -o tmpl "$ROOT/tests/workloads/tmpl.cc" 2> /dev/null; then
	if "$PERF" record -N -q -g -F 2999 -o tmpl.data ./tmpl 30 > /dev/null 2> tmpl.err; then
		"$PERF" script -i tmpl.data -F ip,sym,srcline > perf.tmpl 2> /dev/null
		"$PERFSYM" --srcline tmpl.data > perfsym.tmpl 2> /dev/null
		if compare_perf tmpl perf.tmpl perfsym.tmpl; then ok; else ko "C++: perfsym --srcline differs from perf script"; fi
		chains tmpl "$T/tmpl" "$T/tmpl" "$T/tmpl" perfsym.tmpl positions
	else
		ko "perf record of tests/workloads/tmpl.cc failed: $(tail -1 tmpl.err)"
	fi
else
	sk_count 2 "g++ missing or failed: C++ lines and inline chains not compared"
fi

# ------------------------------------------------------------ 3. lines table
"$PERFCONV" to-csv --srcline --table lines rec.data > lines1.csv 2> lines.err
rc1=$?
"$PERFCONV" to-csv --srcline --table lines rec.data > lines2.csv 2>> lines.err
rc2=$?
if [ $rc1 -ne 0 ] || [ $rc2 -ne 0 ]; then
	ko "to-csv --srcline --table lines: exit $rc1/$rc2: $(head -1 lines.err)"
elif ! cmp -s lines1.csv lines2.csv; then
	ko "to-csv --table lines: two runs differ (uninitialised counts?)"
	diff lines1.csv lines2.csv | head -5
else
	ok
fi
nsamples=$("$PERF" script -i rec.data -F period 2> /dev/null | awk '{ n++; p += $1 } END { printf "%.0f %.0f\n", n, p }')
sums=$(awk -F, '{ sub(/\r$/, "") } NR > 1 { n += $(NF - 1); p += $NF } END { printf "%.0f %.0f\n", n, p }' lines1.csv)
if [ "$nsamples" = "$sums" ]; then
	ok
else
	ko "lines table: samples and period add up to $sums, the recording has $nsamples"
fi
# report_lines NAME DATA LINES_CSV: samples per file:line against perf
# report --sort srcline (a line without a file name, ":0", is left out of
# both: the lines table has no file for it)
report_lines() {
	"$PERF" report -i "$2" --stdio --no-children -g none --sort srcline -F sample,srcline 2> /dev/null |
		awk '!/^#/ && NF == 2 && $2 ~ /^[^ :]+:[0-9]+$/ && $2 !~ /^\?\?:/ { n = split($2, p, "/"); c[p[n]] += $1 }
		     END { for (k in c) print k, c[k] }' | sort > "$1.report.lines"
	awk -F, '{ sub(/\r$/, "") } NR > 1 && $2 != "" { n = split($2, p, "/"); c[p[n] ":" $3] += $4 }
		 END { for (k in c) print k, c[k] }' "$3" | sort > "$1.ours.lines"
	if [ -s "$1.report.lines" ] && cmp -s "$1.report.lines" "$1.ours.lines"; then
		echo "srcline.sh: $1 lines table: $(wc -l < "$1.ours.lines") lines agree with perf report --sort srcline"
		ok
	else
		ko "$1 lines table differs from perf report --sort srcline"
		diff "$1.report.lines" "$1.ours.lines" | head -10
	fi
}
report_lines rec rec.data lines1.csv

# ------------------------------------------------------------ 4. functions
# functions table: srcfile of each function of DSO = addr2line's outermost
# file at the function's start
functions() {	# name dso debugfile [functions.csv]
	awk -F, -v dso="$2" '{ sub(/\r$/, "") } $2 == dso && $4 != "" { print substr($4, 3) "," $9 }' "${4:-functions.csv}" | sort -u > "$1.fn"
	if [ ! -s "$1.fn" ]; then
		ko "functions table: no function of $2"
		return
	fi
	cut -d, -f1 "$1.fn" | to_vaddr "$2" > "$1.fn.addrs"
	awk '{ print "0x" $2 }' "$1.fn.addrs" | addr2line -a -i -e "$3" |
		awk 'NR == FNR { v2o["0x" $2] = $1; next }
		     /^0x/ { if (a != "") print a "," f; x = $1; sub(/^0x0*/, "0x", x); a = v2o[x]; f = ""; next }
		     { s = $1; sub(/:[0-9?]+$/, "", s); n = split(s, p, "/"); f = (s == "??") ? "" : p[n] }
		     END { if (a != "") print a "," f }' "$1.fn.addrs" - | sort -u > "$1.fn.a2l"
	awk -F, '{ n = split($2, p, "/"); print $1 "," (n ? p[n] : "") }' "$1.fn" | sort -u > "$1.fn.ours"
	if cmp -s "$1.fn.ours" "$1.fn.a2l"; then
		echo "srcline.sh: functions table: $(wc -l < "$1.fn.ours") functions of $(basename "$2") have addr2line's file"
		ok
	else
		ko "functions table: srcfile of $(basename "$2") differs from addr2line"
		diff "$1.fn.a2l" "$1.fn.ours" | head -6
	fi
}
"$PERFCONV" to-csv --table functions rec.data > functions.csv 2> functions.err ||
	ko "to-csv --table functions: exit $?: $(head -1 functions.err)"
functions fnlib "$LIB" "$LIB_DEBUG"
if [ -n "$LIBC_DEBUG" ]; then
	functions fnlibc "$LIBC" "$LIBC_DEBUG"
else
	sk "libc6-dbg not installed: libc functions not compared"
fi

# ------------------------------------------------------------ 5. symfs
"$PERF" script -i rec.data --symfs "$T/root" -F ip,sym,srcline > perf.symfs 2> /dev/null
"$PERFSYM" --srcline --symfs "$T/root" rec.data > perfsym.symfs 2> /dev/null
# (perf may still find libc in its build-id cache, which --symfs does not
# cover: only the library's frames are compared)
if compare_perf symfs perf.symfs perfsym.symfs "$LIB"; then ok; else ko "under --symfs, perfsym --srcline differs from perf script"; fi
awk '$5 == "('"$LIB"')" && $4 != "-"' symfs.pairs | grep -q . ||
	ko "under --symfs: no line for the library (its .debug is in the root's /usr/lib/debug)"
chains symfslib "$LIB" "$LIB" "$T/root/usr/lib/debug$T/lib/libsrcdbg.so.debug" perfsym.symfs

# ------------------------------------------------------------ 6. no DWARF
NOG=$T/nogprog
if "$PERF" record -N -q -g -F 2999 -o nog.data ./nogprog 20 > /dev/null 2> nog.err; then
	"$PERF" script -i nog.data -F ip,sym,srcline > perf.nog 2> /dev/null
	"$PERFSYM" --srcline nog.data > perfsym.nog 2> /dev/null
	if compare_perf nog perf.nog perfsym.nog; then ok; else ko "without DWARF: perfsym --srcline differs from perf script"; fi
	# the static function has the file of its STT_FILE symbol, line 0; the
	# global one none (as perf printed them: compare_perf checked that)
	awk -v d="($NOG)" '$5 == d && $2 == "nogprog.c:0" { s++ } $5 == d && $2 == "-" { g++ }
		END { exit !(s > 0 && g > 0) }' nog.pairs ||
		ko "without DWARF: no frame of $NOG with nogprog.c:0 and none without a line"
	chains nog "$NOG" "$NOG" "$NOG" perfsym.nog
	if "$PERFCONV" to-csv --srcline --table lines nog.data > nog.lines.csv 2> nog.csv.err; then
		report_lines nog nog.data nog.lines.csv
	else
		ko "to-csv --srcline --table lines nog.data: exit $?: $(head -1 nog.csv.err)"
	fi
	if "$PERFCONV" to-csv --table functions nog.data > nog.functions.csv 2> nog.csv.err; then
		functions fnnog "$NOG" "$NOG" nog.functions.csv
	else
		ko "to-csv --table functions nog.data: exit $?: $(head -1 nog.csv.err)"
	fi
else
	ko "perf record of tests/symbolize/srcline/nogprog.c failed: $(tail -1 nog.err)"
fi

# ------------------------------------------------------------ 7. compressed
ZDEBUG=$T/zroot/usr/lib/debug$T/lib/libsrcdbg.so.debug
# "OFFSET SIZE FLAGS" of .debug_info, found by its name: readelf -SW
# prints "[ 5]" as two fields and "[12]" as one
info_sh=$(readelf -SW "$ZDEBUG" | awk '{ for (i = 1; i <= NF; i++) if ($i == ".debug_info") { print $(i + 3), $(i + 4), $(i + 6); exit } }')
case ${info_sh##* } in *C*) zcompressed=1 ;; *) zcompressed=0 ;; esac
if [ "$zcompressed" = 1 ]; then
	"$PERF" script -i rec.data --symfs "$T/zroot" -F ip,sym,srcline > perf.zsymfs 2> /dev/null
	"$PERFSYM" --srcline --symfs "$T/zroot" rec.data > perfsym.zsymfs 2> /dev/null
	if cmp -s perfsym.symfs perfsym.zsymfs; then
		ok
	else
		ko "compressed .debug: perfsym --srcline differs from the uncompressed file's"
		diff perfsym.symfs perfsym.zsymfs | head -6
	fi
	if compare_perf zsymfs perf.zsymfs perfsym.zsymfs "$LIB"; then ok; else ko "compressed .debug: perfsym --srcline differs from perf script"; fi
	# the zlib stream of .debug_info ends with the Adler-32 of its output
	read -r zoff zsize _ <<-EOF
	$info_sh
	EOF
	mkdir -p "zbad$T/lib" "zbad/usr/lib/debug$T/lib"
	cp srcprog "zbad$T/"
	cp lib/libsrcdbg.so "zbad$T/lib/"
	cp "$ZDEBUG" "zbad/usr/lib/debug$T/lib/"
	printf '\377\377\377\377' | dd of="zbad/usr/lib/debug$T/lib/libsrcdbg.so.debug" bs=1 \
		seek=$((0x$zoff + 0x$zsize - 4)) conv=notrunc 2> /dev/null
	"$PERFSYM" -v --srcline --symfs "$T/zbad" rec.data > perfsym.zbad 2> zbad.err
	rc=$?
	if [ $rc -ne 0 ]; then
		ko "damaged .debug_info checksum: perfsym exit $rc: $(head -1 zbad.err)"
	else
		norm_ours perfsym.zbad > zbad.keys
		norm_ours perfsym.symfs > zgood.keys
		# same frames; the library's have no line; all others unchanged
		if [ "$(wc -l < zbad.keys)" -eq "$(wc -l < zgood.keys)" ] &&
		   paste -d' ' zgood.keys zbad.keys | awk -v d="($LIB)" '
			$1 != $4 || $3 != $6 { bad++; next }
			$3 == d { lib++; if ($5 != "-") bad++; next }
			$2 != $5 { bad++ }
			END { exit !(lib > 0 && !bad) }' &&
		   ! awk -v d="$LIB" '/^\t\t/ && index($0, d)' perfsym.zbad | grep -q .; then
			ok
		else
			ko "damaged .debug_info checksum: the library's lines were not refused, or other frames changed"
		fi
		grep -q "note PD809: .* file=/usr/lib/debug$T/lib/libsrcdbg.so.debug\$" zbad.err && ok ||
			ko "damaged .debug_info checksum: no PD809 note for the library's .debug file"
	fi
else
	sk "objcopy --compress-debug-sections=zlib did not compress .debug_info"
fi

test_summary
