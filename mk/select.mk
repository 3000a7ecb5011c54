# select.mk - the sample selections (--pid, --tid, --comm, --cpu, --time,
# --event) of every command that writes samples, compared with perf script.
EXTRA_TESTS += tests/lib/select.sh
