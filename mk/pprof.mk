# pprof.mk - perfconv to-pprof: a gzip-compressed pprof profile.
#
# The message is packed by libprotobuf-c from the C code protoc-c (Debian
# protobuf-c-compiler) generates from schema/profile.proto, one copy per
# build directory in $(O)/gen; zlib compresses it.
#
#   make test / asan-test    also run tests/convert/pprof/to-pprof.sh (go tool
#                            pprof and protoc read every output; perf report
#                            compared)

PPROF_GEN_DIR := $(O)/gen
PPROF_GEN_C := $(PPROF_GEN_DIR)/profile.pb-c.c
PPROF_GEN_H := $(PPROF_GEN_DIR)/profile.pb-c.h
PPROF_GEN_OBJ := $(OBJ)/gen/profile.pb-c.o

ZLIB_CFLAGS := $(shell $(PKG_CONFIG) --cflags zlib)
ZLIB_LIBS := $(shell $(PKG_CONFIG) --libs zlib)
PPROF_PROTOBUF_C_CFLAGS := $(shell $(PKG_CONFIG) --cflags libprotobuf-c)
PPROF_PROTOBUF_C_LIBS := $(shell $(PKG_CONFIG) --libs libprotobuf-c)

PERFCONV_EXTRA_OBJS += $(PPROF_GEN_OBJ)
PERFCONV_EXTRA_LIBS += $(PPROF_PROTOBUF_C_LIBS) $(ZLIB_LIBS)
EXTRA_TESTS += tests/convert/pprof/to-pprof.sh

$(PPROF_GEN_C) $(PPROF_GEN_H) &: schema/profile.proto
	@mkdir -p $(PPROF_GEN_DIR)
	$(if $(Q),@echo "  PROTOC  $<")
	$(Q)$(PROTOC_C) --c_out=$(PPROF_GEN_DIR) --proto_path=schema $<

# Generated code is not ours to lint: build it without warnings.
$(PPROF_GEN_OBJ): $(PPROF_GEN_C) $(PPROF_GEN_H)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -w $(PPROF_PROTOBUF_C_CFLAGS) -I$(PPROF_GEN_DIR) -c -o $@ $<

$(OBJ)/convert/pprof/pprof_prof.o: $(PPROF_GEN_H)
$(OBJ)/convert/pprof/pprof_prof.o: override CFLAGS += -I$(PPROF_GEN_DIR) $(PPROF_PROTOBUF_C_CFLAGS) \
	$(ZLIB_CFLAGS)
