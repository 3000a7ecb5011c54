# Makefile - perfconv / perfcheck and the libperfdata parsing core.
#
#   make                 build bin/perfconv and bin/libperfdata.a (and, from
#                        mk/, perfcheck, perfsym and libperfdata-sym.a)
#   make test            build and run the whole test suite
#   make asan            sanitizer build (address, undefined) in build-asan/
#   make fuzz            libFuzzer target (clang) in build-fuzz/
#   make fuzz-run        run it for FUZZ_SECONDS (default 25, as scripts/test.sh)
#   make install PREFIX=/usr/local DESTDIR=
#   V=1 shows commands; WERROR=1 turns warnings into errors.

V ?= 0
Q := $(if $(filter 1,$(V)),,@)
PKG_CONFIG ?= pkg-config
CC ?= cc
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# The one place the version is set: pd_version(), --version, the pkg-config
# file, the installed man pages' footer and the generator field of the JSON
# outputs all come from it.
VERSION := 0.1.0

# Output directory: bin/ for the normal build, build-asan/ etc. for variants.
O ?= bin
OBJ := $(O)/obj

CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wvla -Wpointer-arith -Wundef -Wwrite-strings \
	-Wcast-qual -Wnull-dereference -Wno-unused-parameter
# -MMD -MP: every object records the headers it includes (OBJ/.../x.d), so a
# changed header rebuilds exactly what depends on it.
override CFLAGS += -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Iinclude $(WARN) -MMD -MP
ifeq ($(WERROR),1)
override CFLAGS += -Werror
endif

# Dependencies come from pkg-config.  A missing one stops the build with
# the command that installs it (the README's commands run it first); the
# Makefile itself never installs anything.  Goals that build nothing do not
# need the dependencies.
DEPS_PC := libzstd jansson cunit libprotobuf-c libelf libdw libtraceevent zlib libdeflate
# protoc-c generates the protobuf-c code of schema/ (mk/proto.mk, mk/pprof.mk)
PROTOC_C ?= protoc-c
NODEPS_GOALS := clean
ifneq ($(filter-out $(NODEPS_GOALS),$(or $(MAKECMDGOALS),all)),)
ifneq ($(shell $(PKG_CONFIG) --exists $(DEPS_PC) 2>/dev/null && echo yes),yes)
$(error missing build dependencies (pkg-config: $(DEPS_PC)); install them with: sh scripts/install-deps.sh)
endif
ifeq ($(shell command -v $(PROTOC_C) 2>/dev/null),)
$(error missing build dependency: $(PROTOC_C) (protobuf-c-compiler); install it with: sh scripts/install-deps.sh)
endif
else
# nothing is built: the flags of the dependencies are not asked for
override PKG_CONFIG := true
endif

ZSTD_CFLAGS := $(shell $(PKG_CONFIG) --cflags libzstd)
ZSTD_LIBS := $(shell $(PKG_CONFIG) --libs libzstd)
# the library's writer copies large ranges on a second thread (lib/writer.c)
override LDFLAGS += -pthread
JANSSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags jansson)
JANSSON_LIBS := $(shell $(PKG_CONFIG) --libs jansson)
CUNIT_CFLAGS := $(shell $(PKG_CONFIG) --cflags cunit)
CUNIT_LIBS := $(shell $(PKG_CONFIG) --libs cunit)

LIB_SRCS := $(wildcard lib/*.c)
LIB_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(LIB_SRCS))
LIB := $(O)/libperfdata.a
LIB_INTERNAL := $(OBJ)/libperfdata-internal.a

# common/: what the commands share on their command line (message shape,
# path checks); linked into perfconv, perfcheck and perfsym.
COMMON_SRCS := $(wildcard common/*.c)
COMMON_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(COMMON_SRCS))

CONVERT_SRCS := $(wildcard convert/*.c convert/*/*.c)
CONVERT_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(CONVERT_SRCS))

# The unit tests sit beside the layer they test (tests/lib/, tests/common/,
# tests/convert/ and its writer folders, tests/symbolize/, tests/validate/);
# the programs the shell tests build and record (tests/workloads/,
# tests/lib/select/, tests/symbolize/{symbols,srcline,unwind}/) are not
# part of them.
TEST_SRCS := $(wildcard tests/*.c tests/lib/*.c tests/common/*.c tests/convert/*.c \
	tests/convert/*/*.c tests/symbolize/*.c tests/validate/*.c)
TEST_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(TEST_SRCS))

# Feature fragments (mk/*.mk) add to these: extra perfconv objects and
# libraries, extra programs, test objects and their libraries, and extra
# test commands.
PERFCONV_EXTRA_OBJS :=
PERFCONV_EXTRA_LIBS :=
EXTRA_PROGS :=
EXTRA_LIBS_INSTALL :=
# the unit tests check common/'s text rules (tests/common/test_utf8.c,
# tests/common/test_json_str.c, with the output buffer the escaper writes into,
# itself checked by tests/common/test_out_buf.c, tests/common/test_diag_json.c);
# the writers they link grow their arrays through common/grow.c
TEST_COMMON_OBJS := $(addprefix $(OBJ)/common/,utf8.o grow.o json_str.o diag_json.o out_buf.o \
	out_sink.o tool_msg.o)
TEST_EXTRA_LIBS := $(TEST_COMMON_OBJS)
EXTRA_TESTS :=
EXTRA_CFLAGS_CONVERT :=
-include $(sort $(wildcard mk/*.mk))

all: $(O)/perfconv $(LIB) $(EXTRA_PROGS)

$(OBJ)/lib/%.o: lib/%.c $(wildcard include/perfdata/*.h) $(wildcard lib/*.h)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(ZSTD_CFLAGS) -DPD_VERSION_STRING='"$(VERSION)"' -c -o $@ $<

$(OBJ)/common/%.o: common/%.c $(wildcard include/perfdata/*.h) $(wildcard common/*.h)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

$(OBJ)/convert/%.o: convert/%.c $(wildcard include/perfdata/*.h) $(wildcard convert/*.h convert/*/*.h)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -Iconvert $(JANSSON_CFLAGS) $(EXTRA_CFLAGS_CONVERT) -c -o $@ $<

# -Itests: the helpers every suite shares (test_suites.h, diag_recorder.h);
# -I.: the command layers' headers by their folder ("common/utf8.h")
$(OBJ)/tests/%.o: tests/%.c $(wildcard include/perfdata/*.h) $(wildcard tests/*.h tests/*/*.h) lib/internal.h
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(CUNIT_CFLAGS) $(JANSSON_CFLAGS) -Ilib -Itests -I. -c -o $@ $<

# Two archives of the core: the installed one exports only the functions of
# include/perfdata/ (the objects are linked into one and every other global
# made local, scripts/public-symbols.sh), the internal one keeps every
# symbol for the unit tests, which test internal functions directly.
$(LIB): $(LIB_INTERNAL)
	$(if $(Q),@echo "  AR      $@")
	$(Q)sh scripts/public-symbols.sh $@ $(LIB_OBJS)

$(LIB_INTERNAL): $(LIB_OBJS)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(O)/perfconv: $(CONVERT_OBJS) $(COMMON_OBJS) $(PERFCONV_EXTRA_OBJS) $(LIB)
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $(CONVERT_OBJS) $(COMMON_OBJS) $(PERFCONV_EXTRA_OBJS) $(PERFCONV_EXTRA_LIBS) $(LIB) $(JANSSON_LIBS) $(ZSTD_LIBS) $(LDFLAGS)

$(O)/unit-tests: $(TEST_OBJS) $(LIB_INTERNAL) $(TEST_COMMON_OBJS)
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $(TEST_OBJS) $(TEST_EXTRA_LIBS) $(LIB_INTERNAL) $(CUNIT_LIBS) $(JANSSON_LIBS) $(ZSTD_LIBS) $(LDFLAGS)

# The whole suite: unit tests, corpus and CLI tests, layering check.
test: all $(O)/unit-tests
	$(Q)sh scripts/check-layers.sh
	$(Q)PERFCONV=$(O)/perfconv $(O)/unit-tests
	$(Q)PERFCONV=$(O)/perfconv UNIT_TESTS=$(O)/unit-tests sh tests/run-cli-tests.sh
	$(Q)for t in $(EXTRA_TESTS); do O=$(O) sh $$t || exit 1; done

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
asan:
	$(Q)$(MAKE) --no-print-directory O=build-asan CFLAGS="$(ASAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" all build-asan/unit-tests

asan-test: asan
	$(Q)ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/fuzz/lsan.supp PERFCONV=build-asan/perfconv build-asan/unit-tests
	$(Q)ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/fuzz/lsan.supp PERFCONV=build-asan/perfconv UNIT_TESTS=build-asan/unit-tests sh tests/run-cli-tests.sh
	$(Q)for t in $(EXTRA_TESTS); do O=build-asan ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/fuzz/lsan.supp sh $$t || exit 1; done

FUZZ_CC ?= clang
fuzz:
	$(Q)$(MAKE) --no-print-directory O=build-fuzz CC=$(FUZZ_CC) \
		CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" \
		build-fuzz/libperfdata.a
	$(Q)$(FUZZ_CC) -O1 -g -std=c11 -D_GNU_SOURCE -Iinclude -fsanitize=fuzzer,address,undefined \
		-o build-fuzz/fuzz-reader fuzz/fuzz_reader.c build-fuzz/libperfdata.a $(ZSTD_LIBS)

fuzz-run: fuzz
	$(Q)sh scripts/fuzz-run.sh build-fuzz/fuzz-reader $(or $(FUZZ_SECONDS),25)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/perfdata \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(PKGCONFIGDIR)
	install -m 755 $(O)/perfconv $(EXTRA_PROGS) $(DESTDIR)$(BINDIR)/
	install -m 644 $(LIB) $(EXTRA_LIBS_INSTALL) $(DESTDIR)$(LIBDIR)/
	install -m 644 include/perfdata/*.h $(DESTDIR)$(INCLUDEDIR)/perfdata/
	for m in man/*.1 man/*.5; do \
		d=$(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; \
		sed -e '/^\.TH /s/"\(perf[a-z]*\)"/"\1 $(VERSION)"/' $$m > $$d && \
		chmod 644 $$d || exit 1; \
	done
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		libperfdata.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/libperfdata.pc

clean:
	rm -rf bin build-asan build-fuzz

.PHONY: all test asan asan-test fuzz fuzz-run install clean

# header dependencies recorded by -MMD
-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)
