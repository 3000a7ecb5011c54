# golden.mk - golden outputs: every command on every corpus file, compared
# byte for byte with corpus/golden/ (tests/golden.sh).
#
#   make test / asan-test    also run tests/golden.sh
#   make golden              rewrite the goldens after an intended change of
#                            output (review `git diff --stat corpus/golden`
#                            and the test's diff before committing)

EXTRA_TESTS += tests/golden.sh

golden: all
	$(Q)O=$(O) sh tests/golden.sh --update

.PHONY: golden
