# perfcheck.mk - the perf.data validator (validate/), its tests and fuzz target.
#
#   make                      also builds $(O)/perfcheck and $(O)/perfcheck-mutate
#   make test / asan-test     also run tests/validate/perfcheck.sh and
#                             tests/validate/perfcheck-mutate.sh
#   make fuzz-perfcheck       libFuzzer target build-fuzz/fuzz-perfcheck (clang)
#   make fuzz-perfcheck-run   run it for FUZZ_SECONDS (default 60)

# This fragment is read before the top-level Makefile names its first
# target: keep `all` the default goal.
.DEFAULT_GOAL := all

# mutate.c is a test driver with its own main(); perfcheck.c holds the
# command's main() and stays out of the fuzz target.
PERFCHECK_SRCS := $(filter-out validate/mutate.c,$(wildcard validate/*.c))
PERFCHECK_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(PERFCHECK_SRCS))
PERFCHECK_FUZZ_SRCS := $(filter-out validate/perfcheck.c,$(PERFCHECK_SRCS))

EXTRA_PROGS += $(O)/perfcheck
EXTRA_TESTS += tests/validate/perfcheck.sh tests/validate/perfcheck-mutate.sh

all: $(O)/perfcheck-mutate

$(OBJ)/validate/%.o: validate/%.c $(wildcard include/perfdata/*.h) $(wildcard validate/*.h)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

# --check-buildids reads ELF notes with the symbolization library's note
# reader (symbolize/elf_note.c), which needs no libelf: perfcheck links the
# library's archive of separate objects, so that only that one comes in
# (literal path: symbolize.mk is read after this fragment).
PERFCHECK_SYM_LIB := $(OBJ)/libperfdata-sym-internal.a

$(O)/perfcheck: $(PERFCHECK_OBJS) $(COMMON_OBJS) $(PERFCHECK_SYM_LIB) $(LIB)
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $(PERFCHECK_OBJS) $(COMMON_OBJS) $(PERFCHECK_SYM_LIB) $(LIB) \
		$(ZSTD_LIBS) $(LDFLAGS)

# mutate.c finds the records and the feature area through the reader, and
# parses its command line as perfcheck does
$(O)/perfcheck-mutate: $(OBJ)/validate/mutate.o $(COMMON_OBJS) $(PERFCHECK_SYM_LIB) $(LIB)
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(COMMON_OBJS) $(PERFCHECK_SYM_LIB) $(LIB) $(ZSTD_LIBS) $(LDFLAGS)

fuzz-perfcheck:
	$(Q)$(MAKE) --no-print-directory O=build-fuzz CC=$(FUZZ_CC) \
		CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" \
		build-fuzz/libperfdata.a
	$(Q)$(FUZZ_CC) -O1 -g -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Iinclude -Ivalidate \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o build-fuzz/fuzz-perfcheck fuzz/fuzz_perfcheck.c $(PERFCHECK_FUZZ_SRCS) $(COMMON_SRCS) \
		symbolize/elf_note.c \
		build-fuzz/libperfdata.a $(ZSTD_LIBS)

fuzz-perfcheck-run: fuzz-perfcheck
	$(Q)sh scripts/fuzz-run.sh build-fuzz/fuzz-perfcheck $(or $(FUZZ_SECONDS),60)

.PHONY: fuzz-perfcheck fuzz-perfcheck-run
