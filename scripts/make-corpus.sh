#!/bin/bash
# make-corpus.sh - record the corpus of small, REAL perf.data files in corpus/.
#
# Usage (as root, with perf and gcc installed):
#     scripts/make-corpus.sh
#
# Written for and run with perf 6.1 on Debian 12 (a VM with no hardware PMU:
# only software events, tracepoints, uprobes and hw breakpoints; no branch
# stacks, no AUX area tracing). Every scenario is recorded from tiny
# workloads under tests/workloads/ (compiled here into a temp dir), then
# checked with the machine's own perf; files perf cannot read are dropped.
#
# Outputs (everything except corpus/bad/ and corpus/README.md is replaced):
#     corpus/<scenario>.data        file mode      (perf record -o FILE)
#     corpus/<scenario>.pipe.data   pipe mode      (perf record -o - > FILE)
#     corpus/<scenario>.dir/        directory mode (perf record --threads)
#     corpus/MANIFEST               one line per output:
#         <path> | <mode> | <command> | <what it covers>
#
# Re-running produces different bytes (timestamps, pids, addresses, hostname,
# temp paths embedded in the cmdline feature); that is expected.
#
# Options tried here that this machine (perf 6.1, no HW PMU) cannot do; they
# are attempted as "optional" scenarios so another machine may keep them, and
# anything that fails is only logged (see the summary at the end):
#   -b / -j (branch stack), --call-graph lbr: "PMU Hardware or event type
#       doesn't support branch stack sampling".
#   --aux-sample: "No AUX area event to sample" (no intel_pt / arm_spe / cs_etm).
#   --off-cpu: accepted but ignored ("no BUILD_BPF_SKEL=1" in Debian's perf),
#       so it would only duplicate the basic scenario; not recorded.
#   --kcore: works, but copies kernel text into the output directory (tens of
#       MB); far over the corpus size budget, not recorded.
#   perf lock record: records nothing here (no lock tracepoints without
#       lockdep / contention samples), not recorded.
#   -e cycles etc.: perf silently falls back to cpu-clock; nothing new.
#   PERF_SAMPLE_TRANSACTION (--transaction): accepted, but perf 6.1 only sets
#       it for events that support it, so it is absent from sample_type.

set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/corpus
SRC=$ROOT/tests/workloads

if [ "$(id -u)" != 0 ]; then
	echo "make-corpus.sh: must run as root" >&2
	exit 1
fi
command -v perf >/dev/null || { echo "perf not found" >&2; exit 1; }
command -v gcc >/dev/null || { echo "gcc not found" >&2; exit 1; }

TMP=$(mktemp -d /tmp/make-corpus.XXXXXX)
W=$TMP/bin          # compiled workloads
STAGE=$TMP/out      # outputs are recorded here, verified, then copied
LOG=$TMP/log
mkdir -p "$W" "$STAGE" "$LOG" "$TMP/buildid"

# Keep perf's build-id cache out of ~/.debug, and run perf from the temp dir
# so nothing (perf.data, perf.data.old, ...) can land in the project.
export PERF_BUILDID_DIR=$TMP/buildid
cd "$TMP" || exit 1

OLD_MAX_RATE=
PROBES_ADDED=
cleanup() {
	if [ -n "$OLD_MAX_RATE" ]; then
		echo "$OLD_MAX_RATE" > /proc/sys/kernel/perf_event_max_sample_rate
	fi
	if [ -n "$PROBES_ADDED" ]; then
		perf probe -q -d 'probe_spin:*' >/dev/null 2>&1
	fi
	# keep the logs if asked to
	if [ -z "${KEEP_TMP:-}" ]; then
		rm -rf "$TMP"
	else
		echo "temp dir kept: $TMP"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# ---------------------------------------------------------------- workloads
CFLAGS="-O1 -g -fno-omit-frame-pointer -Wall"
gcc $CFLAGS -o "$W/spin" "$SRC/spin.c" || exit 1
gcc $CFLAGS -no-pie -o "$W/spin-nopie" "$SRC/spin.c" || exit 1
gcc $CFLAGS -pthread -o "$W/forkexec" "$SRC/forkexec.c" || exit 1
gcc $CFLAGS -o "$W/bpfload" "$SRC/bpfload.c" || exit 1

# tracepoints need tracefs
if [ ! -e /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
fi

# ---------------------------------------------------------------- helpers
: > "$LOG/manifest"
: > "$LOG/failed"
: > "$LOG/notes"

# verify MODE PATH -> 0 if this machine's perf reads it
verify() {
	local mode=$1 path=$2 name
	name=$(basename "$path")
	case $mode in
	pipe) perf report --stats -i - < "$path" > "$LOG/$name.stats" 2> "$LOG/$name.stats.err" ;;
	*)    perf report --stats -i "$path" > "$LOG/$name.stats" 2> "$LOG/$name.stats.err" ;;
	esac
	local rc=$?
	if [ $rc = 0 ] && grep -q 'TOTAL events' "$LOG/$name.stats" &&
	   ! grep -qiE 'error|failed|corrupt|invalid|decompress|unexpected' "$LOG/$name.stats.err"; then
		return 0
	fi
	# perf 6.1 `perf report --stats` misreads two kinds of valid pipe files
	# that `perf script` and `perf report -D` read fine:
	#  - PERF_RECORD_COMPRESSED in pipe mode: "Couldn't decompress data"
	#    (stats mode does not process the FEATURE records that carry the
	#    compression parameters);
	#  - PERF_RECORD_HEADER_TRACING_DATA in pipe mode: "unexpected end of
	#    event stream" (stats mode does not consume the tracing data payload
	#    that follows the record, so the stream gets out of sync).
	# Accept such a file if both perf script and perf report -D read it.
	if [ "$mode" = pipe ]; then
		perf script -i - < "$path" > /dev/null 2> "$LOG/$name.script.err"
		local rc2=$?
		perf report -D -i - < "$path" > "$LOG/$name.dump" 2> "$LOG/$name.dump.err"
		local rc3=$?
		if [ $rc2 = 0 ] && [ $rc3 = 0 ] &&
		   ! grep -qiE 'error|failed|corrupt|invalid|decompress|unexpected' "$LOG/$name.script.err" "$LOG/$name.dump.err" &&
		   grep -q 'TOTAL events' "$LOG/$name.dump"; then
			sed -n '/Aggregated stats:/,$p' "$LOG/$name.dump" > "$LOG/$name.stats"
			echo "$name: 'perf report --stats -i - <' fails (perf 6.1 stats-mode pipe bug: $(grep -iE 'decompress|unexpected|failed' "$LOG/$name.stats.err" | head -1)); 'perf script' and 'perf report -D' read it" >> "$LOG/notes"
			return 0
		fi
	fi
	return 1
}

# record types seen in a file, from its stats output
record_types() {
	sed -n '/Aggregated stats:/,/stats:$/p' "$1" | grep -E '^ +[A-Z0-9_]+ events:' |
		grep -v 'TOTAL events' | awk '$3 != 0 {print $1}' | paste -sd, -
}

# rec MODE NAME 'DESCRIPTION' 'COMMAND'
#   COMMAND is eval'ed; @OUT@ is replaced by the output path. It is written
#   to MANIFEST with @OUT@ replaced by the corpus-relative name, and $W left
#   unexpanded (the temp dir holding the compiled workloads).
# Optional scenarios (expected to fail on some machines): OPTIONAL=1 rec ...
rec() {
	local mode=$1 name=$2 desc=$3 cmd=$4 rel out
	case $mode in
	file) rel=$name.data ;;
	pipe) rel=$name.pipe.data ;;
	dir)  rel=$name.dir ;;
	esac
	out=$STAGE/$rel
	rm -rf "$out"
	local full=${cmd//@OUT@/$out}
	echo ">>> $rel"
	if ! eval "$full" > "$LOG/$rel.out" 2> "$LOG/$rel.err"; then
		echo "$rel | $mode | ${cmd//@OUT@/$rel} | FAILED to record: $(grep -v '^$' "$LOG/$rel.err" | tail -2 | tr '\n' ' ')" >> "$LOG/failed"
		rm -rf "$out"
		return 1
	fi
	if [ ! -e "$out" ] || { [ -f "$out" ] && [ ! -s "$out" ]; }; then
		echo "$rel | $mode | ${cmd//@OUT@/$rel} | FAILED: no output" >> "$LOG/failed"
		rm -rf "$out"
		return 1
	fi
	if ! verify "$mode" "$out"; then
		echo "$rel | $mode | ${cmd//@OUT@/$rel} | DROPPED: perf cannot read it: $(head -2 "$LOG/$rel.stats.err" | tr '\n' ' ')" >> "$LOG/failed"
		rm -rf "$out"
		return 1
	fi
	echo "$rel | $mode | ${cmd//@OUT@/$rel} | $desc; records: $(record_types "$LOG/$rel.stats")" >> "$LOG/manifest"
	return 0
}

# rec_both NAME 'DESC' 'PERF-ARGS' 'WORKLOAD'
#   file mode:  perf record PERF-ARGS -o NAME.data -- WORKLOAD
#   pipe mode:  perf record PERF-ARGS -o - -- WORKLOAD > NAME.pipe.data
rec_both() {
	local name=$1 desc=$2 args=$3 wl=$4
	rec file "$name" "$desc" "perf record $args -o @OUT@ -- $wl"
	rec pipe "$name" "$desc" "perf record $args -o - -- $wl > @OUT@"
}

# ---------------------------------------------------------------- scenarios
FE='$W/forkexec $W/spin 30'     # fork + exec + thread workload
SP='$W/spin'                    # CPU spin workload: spin [ms] [pages]

rec_both basic "default event (cpu-clock), fork/exec/thread workload: COMM(exec), FORK, EXIT, MMAP2, build-ids" \
	"-F 999" "$FE"
rec_both callchain-fp "frame-pointer callchains (PERF_SAMPLE_CALLCHAIN)" \
	"-F 999 -g" "$SP 50"
rec_both callchain-dwarf "DWARF unwinding data: PERF_SAMPLE_REGS_USER + STACK_USER (2048 bytes)" \
	"-F 999 --call-graph dwarf,2048" "$SP 30"
rec file callchain-dwarf-z "DWARF callchain data, zstd-compressed (COMPRESSED records, COMPRESSED feature)" \
	"perf record -F 999 --call-graph dwarf,2048 -z -o @OUT@ -- $SP 50"
rec_both multi-event "three events in one file (cpu-clock, task-clock, page-faults): several attrs, PERF_SAMPLE_ID" \
	"-F 999 -e cpu-clock,task-clock,page-faults" "$SP 50"
rec_both group-read "event group with leader sampling: PERF_SAMPLE_READ with PERF_FORMAT_GROUP|ID|TOTAL_TIME_ENABLED|RUNNING, GROUP_DESC feature" \
	"-F 999 -e '{cpu-clock,task-clock}:S' --running-time" "$SP 50"
rec_both group-nosample "event group without leader sampling (two sampling members), GROUP_DESC feature" \
	"-F 999 -e '{cpu-clock,page-faults}'" "$SP 30"
rec_both inherit-stat "per-thread counts (-s, inherit_stat): PERF_RECORD_READ at thread exit" \
	"-F 999 -s" "$FE"
rec_both switch "context-switch records (PERF_RECORD_SWITCH, per-task)" \
	"-F 999 --switch-events" "$FE"
rec_both switch-cpu-wide "system-wide context switches (PERF_RECORD_SWITCH_CPU_WIDE), compressed" \
	"-F 999 -a --switch-events -z" "sleep 0.03"
rec_both namespaces "PERF_RECORD_NAMESPACES" \
	"-F 999 --namespaces" "$FE"
rec_both all-cgroups "PERF_RECORD_CGROUP and PERF_SAMPLE_CGROUP (--all-cgroups)" \
	"-F 999 --all-cgroups" "$FE"
rec_both cgroup-filter "system-wide recording restricted to cgroup / (-G), CPU/ID sample fields, per-cpu attrs" \
	"-a -e cpu-clock -G / -F 999 -z" "sleep 0.03"
rec_both tracepoints "sched tracepoints with raw data (PERF_SAMPLE_RAW), TRACING_DATA feature / record" \
	"-e sched:sched_switch -e sched:sched_process_exec -e sched:sched_process_fork -e sched:sched_process_exit -e sched:sched_wakeup_new -R" "$FE"
rec_both compressed "zstd compression (-z): PERF_RECORD_COMPRESSED, COMPRESSED feature" \
	"-F 999 -z" "$FE"
rec_both system-wide "system-wide (-a) with kernel+user callchains, kernel modules, per-cpu events, compressed" \
	"-F 999 -a -g -z" "sleep 0.05"
rec_both system-wide-plain "system-wide (-a), uncompressed, short" \
	"-F 499 -a" "sleep 0.03"
rec_both data-addr "page-fault samples with data addresses (-d: PERF_SAMPLE_ADDR, DATA_SRC, mmap_data MMAP2 of data)" \
	"-e page-faults -c 1 -d" "$SP 10 32"
rec file phys-data "PERF_SAMPLE_PHYS_ADDR (--phys-data)" \
	"perf record -e page-faults -c 1 -d --phys-data -o @OUT@ -- $SP 10 16"
rec file data-page-size "PERF_SAMPLE_DATA_PAGE_SIZE (--data-page-size)" \
	"perf record -e page-faults -c 1 -d --data-page-size -o @OUT@ -- $SP 10 16"
rec file code-page-size "PERF_SAMPLE_CODE_PAGE_SIZE (--code-page-size)" \
	"perf record -F 999 --code-page-size -o @OUT@ -- $SP 20"
rec file weight "PERF_SAMPLE_WEIGHT_STRUCT (-W; always 0 for software events)" \
	"perf record -F 999 -W -o @OUT@ -- $SP 20"
rec file cpu-timestamp "--sample-cpu -T: PERF_SAMPLE_CPU + TIME" \
	"perf record -F 999 --sample-cpu -T -o @OUT@ -- $SP 20"
rec_both sample-fields "many sample fields at once: IP|TID|TIME|ADDR|CPU|PERIOD|IDENTIFIER|DATA_SRC|PHYS_ADDR|DATA_PAGE_SIZE|CODE_PAGE_SIZE|WEIGHT_STRUCT (--transaction accepted but not set by perf 6.1)" \
	"-e page-faults -c 1 -d --phys-data --data-page-size --code-page-size -W --transaction --sample-cpu -T -P --sample-identifier" "$SP 10 16"
rec_both user-regs "PERF_SAMPLE_REGS_USER (--user-regs=ip,sp,bp) without stack" \
	"-F 999 --user-regs=ip,sp,bp" "$SP 20"
rec_both intr-regs "PERF_SAMPLE_REGS_INTR (-I, all default x86 regs)" \
	"-F 999 -I" "$SP 20"
rec_both clockid "-k CLOCK_MONOTONIC: use_clockid attr, CLOCKID and CLOCK_DATA features" \
	"-F 999 -k CLOCK_MONOTONIC" "$SP 20"
rec file clockid-raw "-k CLOCK_MONOTONIC_RAW: CLOCKID and CLOCK_DATA features" \
	"perf record -F 999 -k CLOCK_MONOTONIC_RAW -o @OUT@ -- $SP 20"
rec_both buildid-mmap "--buildid-mmap: MMAP2 records carrying build ids (PERF_RECORD_MISC_MMAP_BUILD_ID), no BUILD_ID feature" \
	"-F 999 --buildid-mmap" "$FE"
rec_both dummy "side-band only: -e dummy (COMM/MMAP/FORK/EXIT, no samples)" \
	"-e dummy" "$FE"
rec_both no-samples "-n: no samples, side-band only on cpu-clock" \
	"-n" "$FE"
rec file mmap-pages "small ring buffer (--mmap-pages 4)" \
	"perf record -F 999 --mmap-pages 4 -o @OUT@ -- $SP 20"
rec_both lost "lost events: 1-page ring buffer flooded with page-fault samples with 2 KB dwarf stacks: SAMPLE + PERF_RECORD_LOST + LOST_SAMPLES, compressed" \
	"-e page-faults -c 1 --call-graph dwarf,2048 --mmap-pages 1 -z" "$SP 5 128"
rec file lost-all "every sample lost (8 KB dwarf samples never fit a 1-page buffer): PERF_RECORD_LOST + LOST_SAMPLES, no SAMPLE" \
	"perf record -F 999 --call-graph dwarf,8192 --mmap-pages 1 -o @OUT@ -- $SP 20"
rec file misc-attrs "-P --sample-identifier --running-time --no-inherit: PERF_SAMPLE_IDENTIFIER, no inherit" \
	"perf record -F 999 -P --sample-identifier --running-time --no-inherit -o @OUT@ -- $SP 20"
rec file per-thread "--per-thread mmaps (no per-cpu buffers)" \
	"perf record -F 999 --per-thread -o @OUT@ -- $SP 20"
rec file overwrite "--overwrite: backward ring buffer (write_backward attr)" \
	"perf record -F 999 --overwrite -o @OUT@ -- $SP 20"
rec file tail-synthesize "--tail-synthesize: side-band synthesized at the end of the file" \
	"perf record -F 999 --tail-synthesize -o @OUT@ -- $FE"
rec file no-buildid "-B: no BUILD_ID feature section" \
	"perf record -F 999 -B -o @OUT@ -- $SP 20"

# hw breakpoint (breakpoint PMU) on the global 'sink' of a non-PIE build
SINK=$(nm "$W/spin-nopie" | awk '$3 == "sink" {print $1}')
if [ -n "$SINK" ]; then
	rec_both breakpoint "hardware breakpoint event (type PERF_TYPE_BREAKPOINT, mem:ADDR:w) with -d" \
		"-e mem:0x$SINK:w -d" "\$W/spin-nopie 20"
fi

# throttling: lower the sample-rate limit so the kernel throttles
OLD_MAX_RATE=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
if echo 1000 > /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null; then
	rec_both throttle "PERF_RECORD_THROTTLE / UNTHROTTLE (recorded with kernel.perf_event_max_sample_rate=1000)" \
		"-c 100000" "$SP 30"
	echo "$OLD_MAX_RATE" > /proc/sys/kernel/perf_event_max_sample_rate
fi
OLD_MAX_RATE=

# BPF: one program already loaded when perf starts (synthesized KSYMBOL /
# BPF_EVENT) plus one loaded and unloaded while recording (kernel-emitted).
"$W/bpfload" 600 >/dev/null 2>&1 &
BGPID=$!
sleep 0.1
rec_both bpf "PERF_RECORD_KSYMBOL + PERF_RECORD_BPF_EVENT (synthesized and live load/unload), BPF_PROG_INFO feature" \
	"-F 999" "\$W/bpfload 20"
wait "$BGPID" 2>/dev/null

# uprobes (dynamic tracepoints) with raw data
if perf probe -q -x "$W/spin" -a outer >/dev/null 2>&1 &&
   perf probe -q -x "$W/spin" -a touch_pages >/dev/null 2>&1; then
	PROBES_ADDED=1
	rec_both uprobe "uprobe tracepoints (probe_spin:outer, probe_spin:touch_pages) with raw data" \
		"-e probe_spin:outer -e probe_spin:touch_pages -R" "$SP 3"
	perf probe -q -d 'probe_spin:*' >/dev/null 2>&1
	PROBES_ADDED=
fi

# perf stat record
rec file stat "perf stat record: STAT_CONFIG, STAT, STAT_ROUND, THREAD_MAP, CPU_MAP, EVENT_UPDATE, STAT feature" \
	"perf stat record -e cpu-clock,task-clock,page-faults,context-switches -o @OUT@ -- $SP 30"
rec pipe stat "perf stat record: STAT_CONFIG, STAT, STAT_ROUND, THREAD_MAP, CPU_MAP, EVENT_UPDATE" \
	"perf stat record -e cpu-clock,task-clock,page-faults,context-switches -o - -- $SP 30 > @OUT@"
rec file stat-interval "perf stat record -I 10: several interval STAT_ROUNDs" \
	"perf stat record -I 10 -e cpu-clock,page-faults -o @OUT@ -- $SP 50"
rec pipe stat-interval "perf stat record -I 10: several interval STAT_ROUNDs" \
	"perf stat record -I 10 -e cpu-clock,page-faults -o - -- $SP 50 > @OUT@"
rec file stat-system-wide "perf stat record -a -A: per-cpu counts (STAT per cpu)" \
	"perf stat record -a -A -e cpu-clock,context-switches -o @OUT@ -- sleep 0.03"

# directory mode (parallel streaming, --threads)
rec dir threads "directory mode: --threads (per-cpu data.N files, DIR_FORMAT feature)" \
	"perf record -F 999 --threads -o @OUT@ -- $FE"
rec dir threads-z "directory mode + zstd compression" \
	"perf record -F 999 --threads -z -g -o @OUT@ -- $FE"

# other perf tools that write perf.data
rec file sched "perf sched record: sched tracepoints with raw data + callchains" \
	"perf sched record -o @OUT@ -- $FE"
rec file syscalls "perf trace record: raw_syscalls tracepoints with raw data" \
	"perf trace record -o @OUT@ -- $SP 5"
rec pipe syscalls "perf trace record: raw_syscalls tracepoints with raw data" \
	"perf trace record -o - -- $SP 5 > @OUT@"
rec file kwork "perf kwork record: irq/softirq/workqueue tracepoints (system-wide)" \
	"perf kwork record -o @OUT@ -- $SP 10"
rec file kmem "perf kmem record -z: kmem tracepoints, compressed" \
	"perf kmem record -z -o @OUT@ -- $SP 5"

# perf inject -b: build-id records (HEADER_BUILD_ID in pipe mode)
if [ -e "$STAGE/basic.pipe.data" ]; then
	rec pipe inject-buildid "perf inject -b on basic.pipe.data: PERF_RECORD_HEADER_BUILD_ID records" \
		"perf inject -b -i - < $STAGE/basic.pipe.data > @OUT@"
	rec pipe inject-buildid-all "perf inject --buildid-all on basic.pipe.data: HEADER_BUILD_ID for every DSO" \
		"perf inject --buildid-all -i - < $STAGE/basic.pipe.data > @OUT@"
fi
if [ -e "$STAGE/callchain-fp.data" ]; then
	rec file inject-buildid "perf inject -b on callchain-fp.data, file output (rewritten header, BUILD_ID feature)" \
		"perf inject -b -i $STAGE/callchain-fp.data -o @OUT@"
fi
if [ -e "$STAGE/basic.pipe.data" ]; then
	rec file inject-pipe-to-file "perf inject: pipe input converted to a file" \
		"perf inject -i - -o @OUT@ < $STAGE/basic.pipe.data"
fi

# optional scenarios: expected to fail on a VM without HW PMU / AUX tracing
rec file branch-stack "branch stack (-b): PERF_SAMPLE_BRANCH_STACK" \
	"perf record -F 999 -b -o @OUT@ -- $SP 20"
rec file callchain-lbr "LBR callchains" \
	"perf record -F 999 --call-graph lbr -o @OUT@ -- $SP 20"
rec file aux-sample "AUX area sampling" \
	"perf record -F 999 --aux-sample -o @OUT@ -- $SP 20"

# ---------------------------------------------------------------- install
mkdir -p "$OUT"
find "$OUT" -mindepth 1 -maxdepth 1 \
	\( -name '*.data' -o -name '*.dir' -o -name 'MANIFEST' -o -name '*.old' \) \
	-exec rm -rf {} +
cp -r "$STAGE"/. "$OUT"/
# perf inject reads from the staging dir; show corpus-relative names
sed -e "s#$STAGE/##g" "$LOG/manifest" > "$LOG/manifest.rel"
sed -e "s#$STAGE/##g" "$LOG/failed" > "$LOG/failed.rel"
{
	echo "# perf.data corpus recorded by scripts/make-corpus.sh with $(perf --version) on $(uname -sr)"
	echo "# <path relative to corpus/> | mode | command | covers"
	echo "# \$W is the temp dir where tests/workloads/*.c were compiled;"
	echo "# file/dir mode commands were run with -o pointing at the staging copy of the path."
	sort "$LOG/manifest.rel"
} > "$OUT/MANIFEST"

# ownership / permissions
for f in "$OUT"/*.data "$OUT"/*.dir "$OUT"/MANIFEST; do
	[ -e "$f" ] || continue
	chown -R root:root "$f"
	if [ -d "$f" ]; then
		chmod 755 "$f"; chmod 644 "$f"/*
	else
		chmod 644 "$f"
	fi
done
# nothing perf may have left in the project
find "$ROOT" -maxdepth 2 \( -name 'perf.data' -o -name 'perf.data.old' -o -name '*.data.old' \) -print -exec rm -rf {} +

# ---------------------------------------------------------------- summary
echo
echo "== recorded: $(grep -c . "$LOG/manifest.rel") outputs, total $(du -sh --exclude=bad "$OUT" | cut -f1)"
if [ -s "$LOG/failed.rel" ]; then
	echo "== not recorded / dropped:"
	cat "$LOG/failed.rel"
fi
if [ -s "$LOG/notes" ]; then
	echo "== notes:"
	cat "$LOG/notes"
fi
exit 0
