#!/bin/bash
# bench.sh - throughput and peak memory of perfconv on LARGE perf.data files,
# next to `cat` (the I/O ceiling) and `perf report -D` (the reference parser).
#
# Usage (as root, with perf installed, after `make`):
#     scripts/bench.sh [--keep] [--dir DIR] [--size MB] [--small-size MB]
#                      [--runs N] [--perf-runs N] [--freq HZ] [--srcline]
#                      [--srcline-seconds S] [--dwarf-size MB] [--dwarf-only]
#                      [--help]
#     BENCH_DIR=DIR scripts/bench.sh        # same as --dir DIR
#
# --srcline runs only the source-line rows (next paragraph) instead of the
# rest: perfsym --srcline and perfconv to-csv --srcline next to
# `perf script -F ip,sym,srcline` in the same run, on
#     big.data             the large benchmark file (below; perf itself
#                          would take hours on it: its rate comes from
#                          srcline-sys.data, recorded the same way)
#     srcline-sys.data     --srcline-seconds S (default 0.15, a few MB) of
#                          the same load, recorded like big.data
#     srcline-debug.data   perf record -g of tests/workloads/tmpl.cc (C++
#                          templates, -O2 -g, deep inlining) calling into
#                          libc, whose lines come from libc6-dbg
# perf script's rows run --perf-runs times (default 1 here).  Target:
# >= 10x perf script's MB/s on srcline-debug.data and on the system-wide
# recordings.  perf script is run with SIGPIPE ignored: perf 6.1 dies of
# it when its addr2line child cannot read a file (a memfd, a deleted
# binary) and stops printing.
#
# Not part of the test suite: it records ~1 GB of fresh data and takes a
# few minutes.  Written for and run on a Debian 12 VM with perf 6.1, two
# CPUs and only software events (cpu-clock).
#
# Inputs (recorded on the fly, then reused when they are already there):
#     big.data         file mode, >= --size MB (default 400)
#     big.pipe.data    pipe mode twin (perf record -o - > FILE), same size class
#     small.data       file mode, ~--small-size MB (default 40), for perf's rate
#     small.pipe.data  pipe mode twin of small.data
#     dwarf.data       >= --dwarf-size MB (default 100) of `perf record
#                      --call-graph dwarf` (8 KiB stack copies) of programs
#                      built without frame pointers (gzip and xz of random
#                      data); dwarf-half.data, half that size, shows that
#                      peak memory does not grow with the number of samples
#     dwarf-py.data    the same size and way, of Debian's python3 (built
#                      without frame pointers) running a small pure-Python
#                      program: everyday deep stacks through the
#                      interpreter, where gzip's and xz's are shallow
# All recorded with `perf record -a -g -F HZ -m PAGES -B` while a niced,
# multi-threaded kernel-heavy load runs (perf bench sched messaging -t);
# recording stops when the output reaches the wanted size.  perf report -D
# only manages ~10 MB/s, so its rate is measured on the small files.
#
# Files live in a fresh temporary directory that is removed at the end,
# unless --keep is given (the directory is then printed; pass it back with
# BENCH_DIR=... or --dir to skip recording next time).  A directory given
# with --dir / BENCH_DIR is never cleaned up; missing or too small inputs
# in it are (re)recorded.
#
# Measurements: every input is read once first (warm page cache), then each
# command runs --runs times (default 3; the slow perf report rows
# --perf-runs times, default --runs); the best (shortest) wall time is
# kept, and the largest peak RSS over the runs.  Wall time comes from bash's
# EPOCHREALTIME around the command; "CPU s" is its user + system time
# (bash's time keyword, best over the runs: on a shared machine wall time
# also counts waiting for a CPU); peak RSS from GNU time's %M (the
# kernel's ru_maxrss, in KiB: the maximum over the command's process tree,
# so for a pipeline it is its largest process).  MB = 10^6 bytes, RSS in
# MiB.  "vs cat" is the row's MB/s over `cat` of the same input, "vs perf"
# over `perf report -D` of an input of the same mode (file/pipe).
#
# --dwarf-only records and measures only the dwarf rows: perfsym and
# to-csv --table folded unwinding every sample, next to perf script on the
# same file, for each of the two workloads (targets: >= 10x its MB/s, peak
# RSS < 128 MiB; the ratio of CPU times is printed beside the wall-time
# one).
#
# Output: progress on stderr; on stdout a markdown report (context, table,
# target check), ready for notes:  scripts/bench.sh --keep | tee notes.md
# Exit status: 0, 1 when a perfconv target is missed, 2 on usage or setup
# errors, 3 when a measured command failed.
#
# Adding a row: call bench_cmd NAME FILE CMD... in main() below.  CMD is
# shell text run by `bash -o pipefail -c`; $IN is the input file, $PERFCONV
# and $PERF the tools, e.g.
#     bench_cmd "perfconv dump" "$BIG" '"$PERFCONV" dump "$IN" > /dev/null'

set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PERFCONV=${PERFCONV:-$ROOT/bin/perfconv}
export PERFCHECK=${PERFCHECK:-$ROOT/bin/perfcheck}
export PERF=${PERF:-perf}
export PERFSYM=${PERFSYM:-$ROOT/bin/perfsym}
TIME_BIN=${TIME_BIN:-/usr/bin/time}

SIZE_MB=400		# big inputs: at least this many MB
SMALL_MB=40		# small inputs for perf report -D
RUNS=3
PERF_RUNS=		# runs of the (slow) perf report rows; default: RUNS
FREQ=50000
MMAP_PAGES=${MMAP_PAGES:-4096}	# per-CPU ring buffer (16 MiB): fewer LOST records
MAX_RECORD_SECONDS=${MAX_RECORD_SECONDS:-300}
KEEP=0
SRCLINE_ONLY=0
SRCLINE_SECONDS=0.15
DIR=${BENCH_DIR:-}
DWARF_MB=100
DWARF_ONLY=0

# perfconv targets (warm cache, big inputs)
TARGET_MBS=1000
TARGET_RSS_MIB=64
TARGET_VS_PERF=10	# to-csv, to-json, pipe-to-file next to perf script, data convert, inject
TARGET_DWARF_RSS_MIB=128	# unwinding dwarf recordings
TARGET_PPROF_MBS=300	# to-pprof with symbols (pprof's own converter needs quipper's ~30)

usage() {
	sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
}

die() {
	echo "bench.sh: $*" >&2
	exit 2
}

log() {
	echo "bench.sh: $*" >&2
}

while [ $# -gt 0 ]; do
	case $1 in
	--keep) KEEP=1 ;;
	--dir) DIR=${2:?--dir needs a directory}; shift ;;
	--size) SIZE_MB=${2:?}; shift ;;
	--small-size) SMALL_MB=${2:?}; shift ;;
	--runs) RUNS=${2:?}; shift ;;
	--perf-runs) PERF_RUNS=${2:?}; shift ;;
	--freq) FREQ=${2:?}; shift ;;
	--srcline) SRCLINE_ONLY=1 ;;
	--srcline-seconds) SRCLINE_SECONDS=${2:?}; shift ;;
	--dwarf-size) DWARF_MB=${2:?}; shift ;;
	--dwarf-only) DWARF_ONLY=1 ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done

# ---------------------------------------------------------------- setup

[ -x "$PERFCONV" ] || die "$PERFCONV not found: run make first (or set PERFCONV=)"
command -v "$PERF" > /dev/null || die "perf not found"
if [ ! -x "$TIME_BIN" ]; then
	log "GNU time missing, installing Debian package 'time'"
	apt-get install -y time > /dev/null 2>&1 || die "GNU time needed: apt-get install time"
fi
[ -n "${EPOCHREALTIME:-}" ] || die "bash >= 5 needed (EPOCHREALTIME)"

max_rate=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null || echo "$FREQ")
if [ "$FREQ" -gt "$max_rate" ]; then
	log "lowering -F $FREQ to kernel.perf_event_max_sample_rate=$max_rate"
	FREQ=$max_rate
fi

if [ -n "$DIR" ]; then
	mkdir -p "$DIR" || die "cannot create $DIR"
	DIR=$(cd "$DIR" && pwd)
	KEEP=1
else
	DIR=$(mktemp -d "${TMPDIR:-/tmp}/perfconv-bench.XXXXXX") || die "mktemp failed"
fi
LOAD_PID=
REC_PID=
SNAP=
cleanup() {
	[ -n "$SNAP" ] && rm -f "$SNAP"
	[ -n "$REC_PID" ] && kill "$REC_PID" 2>/dev/null
	[ -n "$LOAD_PID" ] && kill "$LOAD_PID" 2>/dev/null
	if [ "$KEEP" = 1 ]; then
		log "inputs kept in $DIR (reuse: BENCH_DIR=$DIR $0)"
	else
		rm -rf "$DIR"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

file_bytes() {
	stat -c %s "$1" 2>/dev/null || echo 0
}

# "pipe" when the perf.data header is the 16-byte pipe header, else "file"
data_mode() {
	local hs
	hs=$(od -An -t u8 -j 8 -N 8 "$1" 2>/dev/null | tr -d ' ')
	if [ "$hs" = 16 ]; then echo pipe; else echo file; fi
}

# record OUT MODE MB: record until OUT holds at least MB megabytes
record() {
	local out=$1 mode=$2 mb=$3 want t0 size
	want=$((mb * 1000000))
	size=$(file_bytes "$out")
	if [ "$size" -ge "$want" ]; then
		log "reusing $out ($((size / 1000000)) MB)"
		return 0
	fi
	rm -f "$out"
	log "recording $out ($mode mode, >= $mb MB, -F $FREQ -g -a)"
	# kernel-heavy, multi-threaded load with deep call chains; niced so that
	# perf record keeps up with its ring buffers
	nice -n 19 "$PERF" bench sched messaging -t -g 2 -l 1000000000 > /dev/null 2>&1 &
	LOAD_PID=$!
	local opts=(-a -g -F "$FREQ" -m "$MMAP_PAGES" -B)
	if [ "$mode" = pipe ]; then
		"$PERF" record "${opts[@]}" -o - -- sleep "$MAX_RECORD_SECONDS" > "$out" 2> "$out.log" &
	else
		"$PERF" record "${opts[@]}" -o "$out" -- sleep "$MAX_RECORD_SECONDS" > "$out.log" 2>&1 &
	fi
	REC_PID=$!
	t0=$SECONDS
	while kill -0 "$REC_PID" 2>/dev/null; do
		if [ "$(file_bytes "$out")" -ge "$want" ]; then
			kill -TERM "$REC_PID"	# perf record stops cleanly and fixes the header
			break
		fi
		sleep 0.2
	done
	wait "$REC_PID"
	REC_PID=
	kill "$LOAD_PID" 2>/dev/null
	wait "$LOAD_PID" 2>/dev/null
	LOAD_PID=
	size=$(file_bytes "$out")
	log "  $((size / 1000000)) MB in $((SECONDS - t0)) s: $(grep -h -o 'lost [0-9.]*%' "$out.log" | tail -1)"
	rm -f "$out.log"
	[ "$size" -ge "$want" ] || die "$out: only $size bytes recorded"
}

# the pure-Python program of dwarf-py.data: recursion, JSON, sorting with
# a key function, regular expressions (interpreter frames over C helpers)
PY_WORKLOAD='
import json, re
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
while True:
    fib(18)
    d = [{"k": i, "v": str(i) * 3} for i in range(2000)]
    json.loads(json.dumps(d))
    sorted(d, key=lambda x: x["v"])
    re.findall(r"[0-9]+", " ".join(x["v"] for x in d))
'

# the workloads of record_dwarf: Debian's gzip and xz of random data, or
# Debian's python3 (not a pyenv or venv one first in PATH)
DWARF_GZIP='while :; do head -c 100000000 /dev/urandom | gzip -6 > /dev/null &
	head -c 30000000 /dev/urandom | xz -3 -T1 > /dev/null; wait; done'
DWARF_PY='exec /usr/bin/python3 -c "$PY_WORKLOAD"'
export PY_WORKLOAD

# record_dwarf OUT MB [WORKLOAD]: --call-graph dwarf of frame-pointer-less
# programs (WORKLOAD, shell text; default $DWARF_GZIP) until OUT holds at
# least MB megabytes
record_dwarf() {
	local out=$1 mb=$2 workload=${3:-$DWARF_GZIP} want t0 size
	want=$((mb * 1000000))
	size=$(file_bytes "$out")
	if [ "$size" -ge "$want" ]; then
		log "reusing $out ($((size / 1000000)) MB)"
		return 0
	fi
	rm -f "$out"
	log "recording $out (--call-graph dwarf, >= $mb MB)"
	"$PERF" record --call-graph dwarf -F 4000 -m "$MMAP_PAGES" -o "$out" -- \
		sh -c "$workload" > "$out.log" 2>&1 &
	REC_PID=$!
	t0=$SECONDS
	while kill -0 "$REC_PID" 2>/dev/null; do
		if [ "$(file_bytes "$out")" -ge "$want" ]; then
			kill -INT "$REC_PID"
			break
		fi
		[ $((SECONDS - t0)) -lt "$MAX_RECORD_SECONDS" ] || { kill -INT "$REC_PID"; break; }
		sleep 0.2
	done
	wait "$REC_PID"
	REC_PID=
	size=$(file_bytes "$out")
	log "  $((size / 1000000)) MB in $((SECONDS - t0)) s"
	rm -f "$out.log"
	[ "$size" -ge "$want" ] || die "$out: only $size bytes recorded"
}

# ---------------------------------------------------------------- measuring

S=$'\x1f'		# separates name and file in row keys
ROWS=()			# "name${S}file" keys, in order
declare -A R_SECS R_RSS R_BYTES R_RC R_CPU

# bench_cmd NAME FILE CMD...: measure CMD (shell text, $IN = FILE) RUNS times
bench_cmd() {
	local name=$1 file=$2 cmd key i t0 t1 secs rss rc best='' maxrss=0 worst_rc=0 cpu bestcpu=''
	shift 2
	cmd="$*"
	key="$name$S$file"
	local rssf="$DIR/.rss.$$" cpuf="$DIR/.cpu.$$" TIMEFORMAT='%3U %3S'
	log "measuring: $name  $(basename "$file")"
	for ((i = 0; i < RUNS; i++)); do
		t0=$EPOCHREALTIME
		# bash's time: user + system CPU seconds of the command (ms resolution)
		{ time IN=$file "$TIME_BIN" -f '%M' -o "$rssf" bash -o pipefail -c "$cmd" < /dev/null 2>&3; } 3>&2 2> "$cpuf"
		rc=$?
		t1=$EPOCHREALTIME
		secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
		cpu=$(tail -n 1 "$cpuf" | awk '{ printf "%.3f", $1 + $2 }')
		rss=$(tail -n 1 "$rssf")
		[ "$rc" -ne 0 ] && worst_rc=$rc
		if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$secs
		fi
		if [ -z "$bestcpu" ] || awk -v a="$cpu" -v b="$bestcpu" 'BEGIN { exit !(a < b) }'; then
			bestcpu=$cpu
		fi
		[ "$rss" -gt "$maxrss" ] 2>/dev/null && maxrss=$rss
	done
	rm -f "$rssf" "$cpuf"
	ROWS+=("$key")
	R_SECS[$key]=$best
	R_CPU[$key]=$bestcpu
	R_RSS[$key]=$maxrss
	R_BYTES[$key]=$(file_bytes "$file")
	R_RC[$key]=$worst_rc
}

overhead() {	# best wall time of the measuring harness itself, in seconds
	local i t0 t1 best=9
	for ((i = 0; i < 5; i++)); do
		t0=$EPOCHREALTIME
		"$TIME_BIN" -f '%M' -o /dev/null bash -o pipefail -c true < /dev/null
		t1=$EPOCHREALTIME
		best=$(awk -v a="$t0" -v b="$t1" -v c="$best" 'BEGIN { d = b - a; printf "%.4f", (d < c ? d : c) }')
	done
	echo "$best"
}

mbs_of() {	# key -> MB/s
	awk -v b="${R_BYTES[$1]}" -v s="${R_SECS[$1]}" 'BEGIN { printf "%.1f", (s > 0 ? b / 1e6 / s : 0) }'
}

# reference row for ratios: cat of the same input / perf report of the same mode
ref_key() {	# key kind: cat or perf
	local file=${1#*$S} k
	for k in "${ROWS[@]}"; do
		case $2 in
		cat) [ "${k%%$S*}" = cat ] && [ "${k#*$S}" = "$file" ] && { echo "$k"; return; } ;;
		perf) case ${k%%$S*} in "perf report"*)
			[ "$(data_mode "${k#*$S}")" = "$(data_mode "$file")" ] && { echo "$k"; return; } ;;
		      esac ;;
		esac
	done
}

ratio() {	# key refkey
	[ -n "$2" ] || { echo "-"; return; }
	awk -v a="$(mbs_of "$1")" -v b="$(mbs_of "$2")" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}

print_report() {
	local k name file status=0 ck pk
	echo "## perfconv benchmark"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), host: $(nproc) CPUs, $(uname -r), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- perfconv: $PERFCONV (sha256 $PERFCONV_ID; tree $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?'))"
	echo "- $($PERF --version); inputs: perf record -a -g -F $FREQ -m $MMAP_PAGES -B under perf bench sched messaging -t -g 2 (niced)"
	echo "- best of $RUNS runs (perf report: ${PERF_RUNS:-$RUNS}), warm page cache; MB = 10^6 bytes; RSS = max ru_maxrss over runs (for a pipeline: its largest process)"
	echo "- fixed cost per measurement (time + bash + exec of \`true\`, included in every row): $OVERHEAD s"
	echo
	echo "| tool | input | size MB | seconds | CPU s | MB/s | peak RSS MiB | vs cat | vs perf |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
	for k in "${ROWS[@]}"; do
		name=${k%%$S*}
		file=${k#*$S}
		ck='' pk=''
		case $name in
		cat|"perf report"*) ;;
		*) ck=$(ref_key "$k" cat); pk=$(ref_key "$k" perf) ;;
		esac
		local secs=${R_SECS[$k]}
		[ "${R_RC[$k]}" -ne 0 ] && { secs="FAIL(rc ${R_RC[$k]})"; status=3; }
		printf '| %s | %s | %.1f | %s | %s | %s | %.1f | %s | %s |\n' "${name//|/\\|}" "$(basename "$file")" \
			"$(awk -v b="${R_BYTES[$k]}" 'BEGIN { print b / 1e6 }')" "$secs" "${R_CPU[$k]}" "$(mbs_of "$k")" \
			"$(awk -v r="${R_RSS[$k]}" 'BEGIN { print r / 1024 }')" \
			"$(ratio "$k" "$ck")" "$(ratio "$k" "$pk")"
	done
	echo
	echo "Targets for perfconv info on the big inputs: >= $TARGET_MBS MB/s, peak RSS < $TARGET_RSS_MIB MiB"
	echo
	for k in "${ROWS[@]}"; do
		case ${k%%$S*} in *"perfconv info"*|perfcheck*) ;; *) continue ;; esac
		case ${k#*$S} in */big.*) ;; *) continue ;; esac
		local m r verdict=PASS
		m=$(mbs_of "$k")
		r=$(awk -v r="${R_RSS[$k]}" 'BEGIN { printf "%.1f", r / 1024 }')
		awk -v m="$m" -v r="$r" -v tm="$TARGET_MBS" -v tr="$TARGET_RSS_MIB" \
			'BEGIN { exit !(m >= tm && r < tr) }' || verdict=FAIL
		[ "$verdict" = FAIL ] && [ "$status" = 0 ] && status=1
		echo "- $verdict: ${k%%$S*} $(basename "${k#*$S}"): $m MB/s, $r MiB"
	done
	echo
	echo "Targets for perfconv to-pprof on the big input: >= $TARGET_PPROF_MBS MB/s, peak RSS < $TARGET_RSS_MIB MiB"
	echo
	for k in "${ROWS[@]}"; do
		case ${k%%$S*} in "perfconv to-pprof"*) ;; *) continue ;; esac
		local m r verdict=PASS
		m=$(mbs_of "$k")
		r=$(awk -v r="${R_RSS[$k]}" 'BEGIN { printf "%.1f", r / 1024 }')
		awk -v m="$m" -v r="$r" -v tm="$TARGET_PPROF_MBS" -v tr="$TARGET_RSS_MIB" \
			'BEGIN { exit !(m >= tm && r < tr) }' || verdict=FAIL
		[ "$verdict" = FAIL ] && [ "$status" = 0 ] && status=1
		echo "- $verdict: ${k%%$S*} $(basename "${k#*$S}"): $m MB/s, $r MiB"
	done
	echo
	echo "Targets next to the perf command doing the same job (same run): >= $TARGET_VS_PERF x its MB/s, peak RSS < $TARGET_RSS_MIB MiB"
	echo
	local pair mine ref rk mk x
	for pair in "perfconv to-csv --table samples FILE=perf script -i FILE" \
		    "perfconv to-json FILE=perf data convert --to-json FILE" \
		    "perfconv pipe-to-file -o OUT PIPEFILE=perf inject -i - -o OUT < PIPEFILE"; do
		mine=${pair%%=*}
		ref=${pair#*=}
		mk='' rk=''
		for k in "${ROWS[@]}"; do
			[ "${k%%$S*}" = "$mine" ] && mk=$k
			[ "${k%%$S*}" = "$ref" ] && rk=$k
		done
		[ -n "$mk" ] && [ -n "$rk" ] || continue
		local verdict=PASS
		x=$(ratio "$mk" "$rk")
		r=$(awk -v r="${R_RSS[$mk]}" 'BEGIN { printf "%.1f", r / 1024 }')
		awk -v x="$x" -v r="$r" -v tx="$TARGET_VS_PERF" -v tr="$TARGET_RSS_MIB" \
			'BEGIN { exit !(x >= tx && r < tr) }' || verdict=FAIL
		[ "$verdict" = FAIL ] && [ "$status" = 0 ] && status=1
		echo "- $verdict: $mine: ${x}x $ref, $r MiB"
	done
	dwarf_targets || { [ "$status" = 0 ] && status=1; }
	return $status
}

# unwinding: perfsym and to-csv folded next to perf script on the same
# dwarf recording, and their peak RSS on half the samples
dwarf_targets() {
	local k ref mk hk x cx r rh verdict st=0 mine input
	for k in "${ROWS[@]}"; do
		[ "${k%%$S*}" = "perf script -F comm,tid,ip,sym,dso FILE" ] && break
		k=''
	done
	[ -n "$k" ] || return 0
	echo
	echo "Targets on --call-graph dwarf recordings (user stacks unwound), next to perf script on the same file: >= $TARGET_VS_PERF x its MB/s, peak RSS < $TARGET_DWARF_RSS_MIB MiB and not growing with the samples"
	echo
	for input in dwarf.data dwarf-py.data; do
	ref=''
	for k in "${ROWS[@]}"; do
		[ "${k%%$S*}" = "perf script -F comm,tid,ip,sym,dso FILE" ] &&
			[ "${k#*$S}" = "$DIR/$input" ] && ref=$k
	done
	[ -n "$ref" ] || continue
	for mine in "perfsym FILE" "perfconv to-csv --table folded FILE"; do
		mk='' hk=''
		for k in "${ROWS[@]}"; do
			[ "${k%%$S*}" = "$mine" ] || continue
			case ${k#*$S} in
			"$DIR/$input") mk=$k ;;
			*/dwarf-half.data) [ "$input" = dwarf.data ] && hk=$k ;;
			esac
		done
		[ -n "$mk" ] || continue
		verdict=PASS
		x=$(ratio "$mk" "$ref")
		# the same file: the ratio of CPU times is the ratio of CPU throughputs
		cx=$(awk -v a="${R_CPU[$mk]}" -v b="${R_CPU[$ref]}" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }')
		r=$(awk -v r="${R_RSS[$mk]}" 'BEGIN { printf "%.1f", r / 1024 }')
		rh=0
		[ -n "$hk" ] && rh=$(awk -v r="${R_RSS[$hk]}" 'BEGIN { printf "%.1f", r / 1024 }')
		# twice the samples may cost a few MiB of cache more, not twice the memory
		awk -v x="$x" -v r="$r" -v h="$rh" -v hk="$hk" -v tx="$TARGET_VS_PERF" \
			-v tr="$TARGET_DWARF_RSS_MIB" \
			'BEGIN { exit !(x >= tx && r < tr && (hk == "" || r <= h * 1.25 + 8)) }' ||
			verdict=FAIL
		[ "$verdict" = FAIL ] && st=1
		if [ -n "$hk" ]; then
			echo "- $verdict: $mine on $input: ${x}x perf script (in CPU time ${cx}x), $r MiB (half the samples: $rh MiB)"
		else
			echo "- $verdict: $mine on $input: ${x}x perf script (in CPU time ${cx}x), $r MiB"
		fi
	done
	done
	return $st
}

# the dwarf rows: inputs, then perf script and the unwinding commands
bench_dwarf() {
	DWARF=$DIR/dwarf.data
	DWARFH=$DIR/dwarf-half.data
	DWARFPY=$DIR/dwarf-py.data
	record_dwarf "$DWARF" "$DWARF_MB"
	record_dwarf "$DWARFH" $((DWARF_MB / 2))
	record_dwarf "$DWARFPY" "$DWARF_MB" "$DWARF_PY"
	cat "$DWARF" "$DWARFH" "$DWARFPY" > /dev/null
	RUNS=${PERF_RUNS:-$RUNS} bench_cmd "perf script -F comm,tid,ip,sym,dso FILE" "$DWARF" \
		'"$PERF" script -F comm,tid,ip,sym,dso -i "$IN" > /dev/null 2>&1'
	if [ -x "$PERFSYM" ]; then
		bench_cmd "perfsym FILE" "$DWARF" '"$PERFSYM" "$IN" > /dev/null'
		bench_cmd "perfsym FILE" "$DWARFH" '"$PERFSYM" "$IN" > /dev/null'
	fi
	bench_cmd "perfconv to-csv --table folded FILE" "$DWARF" \
		'"$PERFCONV" to-csv --table folded "$IN" > /dev/null'
	bench_cmd "perfconv to-csv --table folded FILE" "$DWARFH" \
		'"$PERFCONV" to-csv --table folded "$IN" > /dev/null'
	# deep stacks: the interpreter's frames, with libc's inline frames
	RUNS=${PERF_RUNS:-$RUNS} bench_cmd "perf script -F comm,tid,ip,sym,dso FILE" "$DWARFPY" \
		'"$PERF" script -F comm,tid,ip,sym,dso -i "$IN" > /dev/null 2>&1'
	if [ -x "$PERFSYM" ]; then
		bench_cmd "perfsym FILE" "$DWARFPY" '"$PERFSYM" "$IN" > /dev/null'
	fi
	bench_cmd "perfconv to-csv --table folded FILE" "$DWARFPY" \
		'"$PERFCONV" to-csv --table folded "$IN" > /dev/null'
}

# ---------------------------------------------------------------- main

# ---------------------------------------------------------------- source lines

# srcline_ratio KEY: our row's MB/s over perf script srcline's, on the same
# input, or for big.data on srcline-sys.data
srcline_ref() {
	local file=${1#*$S} k want
	want=$file
	case $file in */big.data) want=$DIR/srcline-sys.data ;; esac
	for k in "${ROWS[@]}"; do
		[ "${k%%$S*}" = "perf script -F ip,sym,srcline FILE" ] && [ "${k#*$S}" = "$want" ] && { echo "$k"; return; }
	done
}

print_srcline_targets() {
	local k rk x verdict status=0
	echo
	echo "Targets for source lines: >= $TARGET_VS_PERF x the MB/s of perf script -F ip,sym,srcline (same run; for big.data, perf's rate on srcline-sys.data)"
	echo
	for k in "${ROWS[@]}"; do
		case ${k%%$S*} in *"--srcline"*) ;; *) continue ;; esac
		rk=$(srcline_ref "$k")
		[ -n "$rk" ] || continue
		# from the raw figures: perf's MB/s rounds to 0.0 here
		x=$(awk -v b="${R_BYTES[$k]}" -v s="${R_SECS[$k]}" -v rb="${R_BYTES[$rk]}" -v rs="${R_SECS[$rk]}" \
			'BEGIN { if (s > 0 && rb > 0) printf "%.1f", (b / s) / (rb / rs); else print "-" }')
		verdict=PASS
		awk -v x="$x" -v t="$TARGET_VS_PERF" 'BEGIN { exit !(x >= t) }' || verdict=FAIL
		[ "$verdict" = FAIL ] && status=1
		echo "- $verdict: ${k%%$S*} $(basename "${k#*$S}"): ${x}x perf script -F ip,sym,srcline on $(basename "${rk#*$S}")" \
			"($(awk -v b="${R_BYTES[$k]}" -v s="${R_SECS[$k]}" 'BEGIN { printf "%.3f", b / 1e6 / s }') vs" \
			"$(awk -v b="${R_BYTES[$rk]}" -v s="${R_SECS[$rk]}" 'BEGIN { printf "%.3f", b / 1e6 / s }') MB/s)"
	done
	return $status
}

srcline_main() {
	local st=0 r=0
	[ -x "$PERFSYM" ] || die "$PERFSYM not found: run make first"
	command -v g++ > /dev/null || die "g++ needed for tests/workloads/tmpl.cc"
	BIG=$DIR/big.data
	SRCSYS=$DIR/srcline-sys.data
	DEBUGREC=$DIR/srcline-debug.data
	record "$BIG" file "$SIZE_MB"
	if [ ! -s "$SRCSYS" ]; then
		# perf script needs minutes per MB here: a short recording, made
		# like big.data
		log "recording $SRCSYS (-a -g -F $FREQ for $SRCLINE_SECONDS s)"
		nice -n 19 "$PERF" bench sched messaging -t -g 2 -l 1000000000 > /dev/null 2>&1 &
		LOAD_PID=$!
		sleep 0.5
		"$PERF" record -a -g -F "$FREQ" -m "$MMAP_PAGES" -B -o "$SRCSYS" -- sleep "$SRCLINE_SECONDS" > /dev/null 2>&1 ||
			die "perf record -a failed"
		kill "$LOAD_PID" 2> /dev/null
		wait "$LOAD_PID" 2> /dev/null
		LOAD_PID=
	fi
	if [ ! -s "$DEBUGREC" ]; then
		log "recording $DEBUGREC (tests/workloads/tmpl.cc)"
		g++ -O2 -g -fno-omit-frame-pointer -o "$DIR/tmpl" "$ROOT/tests/workloads/tmpl.cc" ||
			die "cannot build tests/workloads/tmpl.cc"
		"$PERF" record -N -q -g -F 20000 -o "$DEBUGREC" "$DIR/tmpl" 20 > /dev/null 2>&1 ||
			die "perf record of tmpl failed"
	fi
	PERFCONV_ID="$(sha256sum "$PERFCONV" | cut -c1-12), built $(date -u -r "$PERFCONV" '+%H:%M:%S UTC')"
	OVERHEAD=$(overhead)
	cat "$BIG" "$SRCSYS" "$DEBUGREC" > /dev/null
	export CSVDIR=$DIR/.csv.$$
	local f
	for f in "$BIG" "$SRCSYS" "$DEBUGREC"; do
		bench_cmd "perfsym --srcline FILE" "$f" '"$PERFSYM" --srcline "$IN" > /dev/null 2>&1'
		bench_cmd "perfconv to-csv --srcline -o DIR FILE" "$f" \
			'rm -rf "$CSVDIR" && "$PERFCONV" to-csv --srcline -o "$CSVDIR" "$IN" 2> /dev/null; r=$?; rm -rf "$CSVDIR"; exit $r'
		[ "$f" = "$BIG" ] && continue
		RUNS=${PERF_RUNS:-1} bench_cmd "perf script -F ip,sym,srcline FILE" "$f" \
			'trap "" PIPE; "$PERF" script -F ip,sym,srcline -i "$IN" > /dev/null 2>&1; true'
	done
	print_report || st=$?
	print_srcline_targets || r=$?
	[ "$st" = 0 ] && st=$r
	return $st
}

main() {
	local need avail
	if [ "$DWARF_ONLY" = 1 ]; then
		PERFCONV_ID="$(sha256sum "$PERFCONV" | cut -c1-12), built $(date -u -r "$PERFCONV" '+%H:%M:%S UTC')"
		OVERHEAD=$(overhead)
		bench_dwarf
		print_report
		return
	fi
	need=$(( (2 * SIZE_MB + 2 * SMALL_MB + 5 * DWARF_MB / 2) * 12 / 10 ))
	avail=$(df -Pm "$DIR" | awk 'NR == 2 { print $4 }')
	local have=0 f
	for f in big.data big.pipe.data small.data small.pipe.data; do
		have=$((have + $(file_bytes "$DIR/$f") / 1000000))
	done
	[ $((avail + have)) -ge "$need" ] || die "$DIR: ~$need MB needed, $avail MB free"

	BIG=$DIR/big.data
	BIGP=$DIR/big.pipe.data
	SMALL=$DIR/small.data
	SMALLP=$DIR/small.pipe.data
	record "$BIG" file "$SIZE_MB"
	record "$BIGP" pipe "$SIZE_MB"
	record "$SMALL" file "$SMALL_MB"
	record "$SMALLP" pipe "$SMALL_MB"

	# others may rebuild bin/perfconv while this runs: measure a snapshot
	PERFCONV_ID="$(sha256sum "$PERFCONV" | cut -c1-12), built $(date -u -r "$PERFCONV" '+%H:%M:%S UTC')"
	cp "$PERFCONV" "$DIR/.perfconv.$$" || die "cannot copy $PERFCONV"
	SNAP=$DIR/.perfconv.$$
	local orig=$PERFCONV
	export PERFCONV=$SNAP
	OVERHEAD=$(overhead)
	log "warming the page cache"
	cat "$BIG" "$BIGP" "$SMALL" "$SMALLP" > /dev/null

	bench_cmd "cat" "$BIG" 'cat "$IN" > /dev/null'
	bench_cmd "cat" "$BIGP" 'cat "$IN" > /dev/null'
	bench_cmd "perfconv info FILE" "$BIG" '"$PERFCONV" info "$IN" > /dev/null'
	bench_cmd "perfconv info - < PIPEFILE" "$BIGP" '"$PERFCONV" info - < "$IN" > /dev/null'
	bench_cmd "cat PIPEFILE | perfconv info -" "$BIGP" 'cat "$IN" | "$PERFCONV" info - > /dev/null'
	bench_cmd "perfcheck FILE" "$BIG" '"$PERFCHECK" -q "$IN"'
	bench_cmd "perfcheck - < PIPEFILE" "$BIGP" '"$PERFCHECK" -q - < "$IN"'
	bench_cmd "perfconv to-proto FILE" "$BIG" '"$PERFCONV" to-proto "$IN" > /dev/null'
	bench_cmd "perfconv to-proto - < PIPEFILE" "$BIGP" '"$PERFCONV" to-proto - < "$IN" > /dev/null'
	bench_cmd "perfconv to-proto --quipper-compat FILE" "$BIG" '"$PERFCONV" to-proto --quipper-compat "$IN" > /dev/null'
	# pipe -> file conversion next to perf inject doing the same (target: >= 10x
	# its MB/s, RSS < 64 MiB); both outputs removed inside the timed command
	export CONVOUT=$DIR/.pipe-to-file.$$.data
	bench_cmd "perfconv pipe-to-file -o OUT PIPEFILE" "$BIGP" '"$PERFCONV" pipe-to-file -o "$CONVOUT" "$IN" && rm -f "$CONVOUT"'
	RUNS=${PERF_RUNS:-$RUNS} bench_cmd "perf inject -i - -o OUT < PIPEFILE" "$BIGP" '"$PERF" inject -i - -o "$CONVOUT" < "$IN" 2> /dev/null && rm -f "$CONVOUT"'
	rm -f "$CONVOUT"
	bench_cmd "cat" "$SMALL" 'cat "$IN" > /dev/null'
	bench_cmd "cat" "$SMALLP" 'cat "$IN" > /dev/null'
	bench_cmd "perfconv info FILE" "$SMALL" '"$PERFCONV" info "$IN" > /dev/null'
	bench_cmd "perfconv info - < PIPEFILE" "$SMALLP" '"$PERFCONV" info - < "$IN" > /dev/null'
	RUNS=${PERF_RUNS:-$RUNS} bench_cmd "perf report -D -i FILE" "$SMALL" '"$PERF" report -D -i "$IN" > /dev/null 2>&1'
	RUNS=${PERF_RUNS:-$RUNS} bench_cmd "perf report -D -i - < PIPEFILE" "$SMALLP" '"$PERF" report -D -i - < "$IN" > /dev/null 2>&1'
	# samples table with symbols next to perf script (target: >= 10x its MB/s;
	# perf script runs on the small input, it manages ~30 MB/s)
	bench_cmd "perfconv to-csv --table samples FILE" "$BIG" '"$PERFCONV" to-csv --table samples "$IN" > /dev/null'
	RUNS=${PERF_RUNS:-$RUNS} bench_cmd "perf script -i FILE" "$SMALL" '"$PERF" script -i "$IN" > /dev/null 2>&1'
	# pprof profile with symbols, source lines and inlined functions, and
	# without source lines (target: >= 300 MB/s, RSS < 64 MiB), next to
	# to-csv's folded table: the same stacks, aggregated the same way
	bench_cmd "perfconv to-pprof FILE" "$BIG" '"$PERFCONV" to-pprof "$IN" > /dev/null'
	bench_cmd "perfconv to-pprof --no-srcline FILE" "$BIG" '"$PERFCONV" to-pprof --no-srcline "$IN" > /dev/null'
	bench_cmd "perfconv to-csv --table folded FILE" "$BIG" '"$PERFCONV" to-csv --table folded "$IN" > /dev/null'
	# perf-compatible JSON with symbols next to perf data convert --to-json
	# (target: >= 10x its MB/s, RSS < 64 MiB; perf manages ~21 MB/s, so it
	# runs on the small input), and the lossless --jsonl form
	bench_cmd "perfconv to-json FILE" "$BIG" '"$PERFCONV" to-json --no-progress "$IN" > /dev/null'
	bench_cmd "perfconv to-json - < PIPEFILE" "$BIGP" '"$PERFCONV" to-json --no-progress - < "$IN" > /dev/null'
	bench_cmd "perfconv to-json --jsonl FILE" "$BIG" '"$PERFCONV" to-json --jsonl --no-progress "$IN" > /dev/null'
	RUNS=${PERF_RUNS:-$RUNS} bench_cmd "perf data convert --to-json FILE" "$SMALL" '"$PERF" data convert -f --to-json /dev/null -i "$IN" > /dev/null 2>&1'

	if [ -x "$PERFSYM" ]; then
		# symbolization: every callchain frame of every sample resolved
		export SYMOUT=$DIR/perfsym.bench
		bench_cmd "perfsym --bench (resolve all frames)" "$BIG" '"$PERFSYM" --bench "$IN" > "$SYMOUT"'
	fi
	bench_dwarf

	export PERFCONV=$orig
	rm -f "$SNAP"
	SNAP=
	local st=0
	print_report || st=$?
	if [ -s "${SYMOUT:-}" ]; then
		echo
		echo "Symbolization, perfsym --bench on $(basename "$BIG") (target: >= 10 M frames/s once tables are loaded):"
		echo
		awk '{ printf "- %s: %s\n", $1, $2 }' "$SYMOUT"
	fi
	return $st
}

if [ "$SRCLINE_ONLY" = 1 ]; then
	srcline_main
else
	main
fi
