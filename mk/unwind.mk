# unwind.mk - DWARF unwinding of --call-graph dwarf recordings
# (symbolize/unwind.c, built into libperfdata-sym.a by symbolize.mk).
#
# tests/symbolize/unwind.sh records its programs in tests/symbolize/unwind/
# with the machine's perf and compares every frame with perf script.

EXTRA_TESTS += tests/symbolize/unwind.sh
