# writers-fuzz.mk - every command and writer on damaged inputs: the
# damaged-input test and one libFuzzer target per writer.
#
#   make test / asan-test    also run tests/damaged-inputs.sh: the files of
#                            corpus/bad/ and fuzz/regress/ through every
#                            command and writer (no crash, no hang, only
#                            the documented exit statuses)
#   make fuzz-writers        the writer targets in build-fuzz/ (clang):
#                            fuzz-to-json, fuzz-to-json-full, fuzz-to-csv,
#                            fuzz-to-proto, fuzz-to-proto-compat, fuzz-to-pprof,
#                            fuzz-pipe-to-file, fuzz-file-to-pipe,
#                            fuzz-symbolize and fuzz-unwind
#   make fuzz-writers-run    run each for FUZZ_SECONDS (default 30), seeded
#                            with both corpora (external files under 256 KiB)
#
# This fragment is read after symbolize.mk (alphabetical order): SYM_LIB
# and SYM_LIBS are known here.

EXTRA_TESTS += tests/damaged-inputs.sh

FUZZ_WRITERS := to-json to-json-full to-csv to-proto to-proto-compat to-pprof pipe-to-file \
	file-to-pipe symbolize unwind
# every perfconv object but its main()
FUZZ_CONVERT_OBJS := $(filter-out $(OBJ)/convert/perfconv.o,$(CONVERT_OBJS)) $(COMMON_OBJS)

# the command targets: perfconv's objects without main(), and fuzz_cmd.h
define fuzz_cmd_target
$(O)/fuzz-$(1): fuzz/fuzz_$(subst -,_,$(1)).c fuzz/fuzz_cmd.h $(FUZZ_CONVERT_OBJS) $(LIB) \
		$(SYM_LIB) $(PERFCONV_EXTRA_OBJS)
	$$(if $$(Q),@echo "  LINK    $$@")
	$$(Q)$$(CC) $$(CFLAGS) -fsanitize=fuzzer -Iconvert -o $$@ $$< $$(FUZZ_CONVERT_OBJS) \
		$$(PERFCONV_EXTRA_OBJS) $$(PERFCONV_EXTRA_LIBS) $$(LIB) $$(JANSSON_LIBS) $$(ZSTD_LIBS) $$(LDFLAGS)
endef
$(foreach w,$(filter-out symbolize unwind,$(FUZZ_WRITERS)),$(eval $(call fuzz_cmd_target,$(w))))

# (fuzz_cmd.h's private directory: common/tool_tmpdir.c)
$(O)/fuzz-symbolize: fuzz/fuzz_symbolize.c fuzz/fuzz_cmd.h $(OBJ)/common/tool_tmpdir.o $(LIB) $(SYM_LIB)
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -fsanitize=fuzzer -Iconvert -o $@ $< $(OBJ)/common/tool_tmpdir.o \
		$(SYM_LIB) $(LIB) $(SYM_LIBS) $(ZSTD_LIBS) $(LDFLAGS)

# the DWARF unwinder on hostile registers and stack copies (no input file)
$(O)/fuzz-unwind: fuzz/fuzz_unwind.c $(LIB) $(SYM_LIB)
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(SYM_LIB) $(LIB) $(SYM_LIBS) \
		$(ZSTD_LIBS) $(LDFLAGS)

fuzz-writers:
	$(Q)$(MAKE) --no-print-directory O=build-fuzz CC=$(FUZZ_CC) \
		CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" \
		$(patsubst %,build-fuzz/fuzz-%,$(FUZZ_WRITERS))

fuzz-writers-run: fuzz-writers
	$(Q)for w in $(FUZZ_WRITERS); do \
		FUZZ_SEED_MAX_KB=256 sh scripts/fuzz-run.sh build-fuzz/fuzz-$$w \
			$(or $(FUZZ_SECONDS),30) || exit 1; \
	done

.PHONY: fuzz-writers fuzz-writers-run
