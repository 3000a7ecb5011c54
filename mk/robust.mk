# robust.mk - every command on damaged inputs.
#
#   make test / asan-test    also run tests/damaged-inputs.sh: the files of
#                            corpus/bad/ and fuzz/regress/ through every
#                            command and writer (no crash, no hang, only
#                            the documented exit statuses)

EXTRA_TESTS += tests/damaged-inputs.sh
