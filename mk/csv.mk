# csv.mk - perfconv to-csv: tables for spreadsheets, SQL and flame graphs.
#
# The command symbolizes with libperfdata-sym.a; symbolize.mk adds that
# library and libelf/libdw to PERFCONV_EXTRA_LIBS.  It is named here as a
# prerequisite of perfconv as well, so that a parallel build never links
# perfconv before the library exists (this fragment is read before
# symbolize.mk, hence the literal path).
#
#   make test / asan-test    also run tests/convert/csv/to-csv.sh (sqlite3
#                            checks, and comparisons with perf report / perf
#                            script when perf can record here)
#
# Links with -pthread: the samples table is formatted on a second thread.

$(O)/perfconv: $(O)/libperfdata-sym.a
EXTRA_TESTS += tests/convert/csv/to-csv.sh

# the samples table is formatted on a thread of its own (convert/batch_pipe.c)
PERFCONV_EXTRA_LIBS += -pthread

# the unit tests check the batch hand-over itself
# (tests/convert/test_batch_pipe.c) and the number formatting of the text
# outputs (tests/common/test_fmt_num.c)
TEST_EXTRA_LIBS += $(OBJ)/convert/batch_pipe.o $(OBJ)/common/fmt_num.o -pthread
$(O)/unit-tests: $(OBJ)/convert/batch_pipe.o $(OBJ)/common/fmt_num.o
