# pipe-to-file.mk - shell tests of perfconv pipe-to-file and file-to-pipe.
EXTRA_TESTS += tests/convert/pipe-to-file.sh
