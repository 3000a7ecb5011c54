# harness.sh - sourced by the shell tests: their temporary directory and
# the counting of their checks, written once.
#
#   TEST=select.sh              the name the test's lines start with
#   . "$ROOT/tests/harness.sh"
#   test_tmpdir pd-select       T = a new temporary directory
#   ok [MESSAGE]                a check passed; MESSAGE, when given, is printed
#   ko MESSAGE                  a check failed: "TEST: FAIL: MESSAGE"
#   sk MESSAGE                  a check that cannot run here, counted as
#                               skipped: "TEST: SKIP: MESSAGE"
#   sk_count N MESSAGE          N such checks (a loop's, for want of one
#                               tool), one line "TEST: SKIP: N checks: MESSAGE";
#                               nothing when N is 0
#   skip_test REASON            the whole test cannot run here: exit 0
#   test_summary [NOTE]         "TEST: P passed, F failed, S skipped[ NOTE]",
#                               with the test's status (0: nothing failed)
#
# A check that cannot run is counted as skipped, never as passed.  T is
# removed at exit, also after an interrupt; KEEP=1 keeps it and says where.
# A test with more to undo at exit (files outside T) defines
# test_cleanup_more after sourcing this file.

pass=0
fail=0
skip=0

ok() {
	pass=$((pass + 1))
	[ $# -eq 0 ] || echo "$TEST: ok: $*"
}

ko() {
	fail=$((fail + 1))
	echo "$TEST: FAIL: $*"
}

sk() {
	skip=$((skip + 1))
	echo "$TEST: SKIP: $*"
}

sk_count() {
	[ "$1" -gt 0 ] || return 0
	skip=$((skip + $1))
	echo "$TEST: SKIP: $1 checks: $2"
}

skip_test() {
	echo "$TEST: SKIP: $*"
	exit 0
}

test_summary() {
	echo "$TEST: $pass passed, $fail failed, $skip skipped${1:+ $1}"
	[ "$fail" -eq 0 ]
}

test_cleanup_more() {
	:
}

test_cleanup() {
	test_cleanup_more
	[ -n "${T:-}" ] || return 0
	if [ "${KEEP:-0}" = 1 ]; then
		echo "$TEST: kept $T"
	else
		rm -rf "$T"
	fi
}

test_tmpdir() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
	trap test_cleanup EXIT
	# the EXIT trap runs on the way out of an interrupted test too
	trap 'exit 130' INT
	trap 'exit 143' TERM
}
