# find-perf.sh - sourced by the tests that compare with perf: sets PERF
# to a perf that runs on this machine, or to "" with the reason in
# PERF_MISSING.
#
# Debian's /usr/bin/perf (linux-perf) is a wrapper that runs perf_X.Y for
# the running kernel's version X.Y and refuses to run when that binary is
# not installed, which is the case on any kernel other than Debian's own.
# The perf_X.Y binaries themselves read every perf.data and record on
# other kernels, so the wrapper is used when it works, else the newest
# /usr/bin/perf_* that does.  A PERF set by the caller is tried first.
#
#   . "$ROOT/tests/find-perf.sh"
#   [ -n "$PERF" ] || skip_test "$PERF_MISSING"     # skip_test: harness.sh
#   perf_can_record DIR || skip_test "perf record does not work here: $PERF_MISSING"
#   perf_same_kernel FILE                           # recorded on this kernel?

perf_works() {
	[ -n "$1" ] && command -v "$1" > /dev/null 2>&1 && "$1" version > /dev/null 2>&1
}

find_perf() {
	for p in ${PERF:-} perf $(ls -d /usr/bin/perf_[0-9]* 2> /dev/null | sort -rV 2> /dev/null); do
		if perf_works "$p"; then
			PERF=$p
			return 0
		fi
	done
	PERF=
	if command -v perf > /dev/null 2>&1; then
		PERF_MISSING="perf does not run on this kernel ($(perf version 2>&1 | head -1)) and no /usr/bin/perf_* does"
	else
		PERF_MISSING="perf not found (install linux-perf: sh scripts/install-deps.sh)"
	fi
	return 1
}

# Can PERF record here (perf_event_paranoid, containers, no PMU)?  Uses
# DIR for a throw-away recording; on failure PERF_MISSING says why.
perf_can_record() {
	if "$PERF" record -N -q -o "$1/probe.data" true > "$1/probe.out" 2> "$1/probe.err"; then
		rm -f "$1/probe.data" "$1/probe.out" "$1/probe.err"
		return 0
	fi
	PERF_MISSING=$(tail -1 "$1/probe.err")
	rm -f "$1/probe.data" "$1/probe.out" "$1/probe.err"
	return 1
}

# Is the kernel that recorded FILE ("-": standard input) the running one?
# Decided with perf: the kernel build id when the file has one, else the
# release string.  Status 0 yes, 1 no, 2 when the file names neither (the
# caller says what that means for its comparison).
perf_same_kernel() {
	kid=$("$PERF" buildid-list -i "$1" 2> /dev/null | awk '$2 == "[kernel.kallsyms]" { print $1 }')
	if [ -n "$kid" ]; then
		[ "$kid" = "$("$PERF" buildid-list -k 2> /dev/null)" ]
		return
	fi
	rel=$("$PERF" report --header-only -i "$1" 2> /dev/null | sed -n 's/^# os release : //p')
	[ -n "$rel" ] || return 2
	[ "$rel" = "$(uname -r)" ]
}

PERF_MISSING=
find_perf || :
