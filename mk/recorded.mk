# recorded.mk - comparisons with perf on recordings the test makes itself
# on the running kernel (tests/recorded.sh).
EXTRA_TESTS += tests/recorded.sh
