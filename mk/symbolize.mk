# symbolize.mk - process model and symbolization (libperfdata-sym.a).
#
# A library of its own on top of the core: it needs libelf, libdw and libdeflate,
# which the core must never link.  perfsym prints resolved frames the way
# `perf script -F comm,tid,ip,sym,dso` does; the tests and bench.sh use it.

SYM_CFLAGS := $(shell $(PKG_CONFIG) --cflags libelf libdw libdeflate)
SYM_LIBS := $(shell $(PKG_CONFIG) --libs libelf libdw libdeflate)

SYM_SRCS := $(filter-out symbolize/perfsym.c,$(wildcard symbolize/*.c))
SYM_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(SYM_SRCS))
SYM_LIB := $(O)/libperfdata-sym.a

$(OBJ)/symbolize/%.o: symbolize/%.c $(wildcard include/perfdata/*.h) $(wildcard symbolize/*.h) $(wildcard common/*.h)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(SYM_CFLAGS) -c -o $@ $<

# as the core (Makefile): the installed archive exports only the functions
# of include/perfdata/, the unit tests link the internal one
SYM_LIB_INTERNAL := $(OBJ)/libperfdata-sym-internal.a

$(SYM_LIB): $(SYM_LIB_INTERNAL)
	$(if $(Q),@echo "  AR      $@")
	$(Q)sh scripts/public-symbols.sh $@ $(SYM_OBJS)

$(SYM_LIB_INTERNAL): $(SYM_OBJS)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

# perfsym shares perfconv's input and selection options (common/tool_select.c)
$(O)/perfsym: $(OBJ)/symbolize/perfsym.o $(COMMON_OBJS) $(SYM_LIB) $(LIB)
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $(OBJ)/symbolize/perfsym.o $(COMMON_OBJS) $(SYM_LIB) $(LIB) $(SYM_LIBS) $(ZSTD_LIBS) $(LDFLAGS)

EXTRA_PROGS += $(O)/perfsym
EXTRA_LIBS_INSTALL += $(SYM_LIB)

all: $(SYM_LIB)
$(O)/perfconv: $(SYM_LIB)
TEST_EXTRA_LIBS += $(SYM_LIB_INTERNAL) $(SYM_LIBS)
PERFCONV_EXTRA_LIBS += $(SYM_LIB) $(SYM_LIBS)
EXTRA_TESTS += tests/symbolize/symbols.sh tests/symbolize/srcline.sh

# the unit-test binary links the sym library
$(O)/unit-tests: $(SYM_LIB_INTERNAL)
