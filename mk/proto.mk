# proto.mk - perfconv to-proto: the PerfDataProto writer.
#
# The C code for schema/perf_data.proto is generated at build time with
# protoc-c (Debian protobuf-c-compiler) into $(O)/gen, so every build
# directory (bin/, build-asan/, ...) has its own copy built with its own
# flags.  MD5 comes from libmd.

PROTO_GEN_DIR := $(O)/gen
PROTO_GEN_C := $(PROTO_GEN_DIR)/perf_data.pb-c.c
PROTO_GEN_H := $(PROTO_GEN_DIR)/perf_data.pb-c.h
PROTO_GEN_OBJ := $(OBJ)/gen/perf_data.pb-c.o
PROTOC_C ?= protoc-c

PROTOBUF_C_CFLAGS := $(shell $(PKG_CONFIG) --cflags libprotobuf-c)
PROTOBUF_C_LIBS := $(shell $(PKG_CONFIG) --libs libprotobuf-c)
LIBMD_LIBS := $(shell $(PKG_CONFIG) --libs libmd 2>/dev/null || echo -lmd)

# Writer objects that the unit tests link too (everything but the command).
PROTO_SRCS := $(wildcard convert/proto_*.c)
PROTO_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(PROTO_SRCS))

PERFCONV_EXTRA_OBJS += $(PROTO_GEN_OBJ)
PERFCONV_EXTRA_LIBS += $(PROTOBUF_C_LIBS) $(LIBMD_LIBS)
EXTRA_CFLAGS_CONVERT += -I$(PROTO_GEN_DIR) $(PROTOBUF_C_CFLAGS)
TEST_EXTRA_LIBS += $(PROTO_OBJS) $(PROTO_GEN_OBJ) $(PROTOBUF_C_LIBS) $(LIBMD_LIBS)
EXTRA_TESTS += tests/to-proto.sh

$(PROTO_GEN_C) $(PROTO_GEN_H) &: schema/perf_data.proto
	@mkdir -p $(PROTO_GEN_DIR)
	$(if $(Q),@echo "  PROTOC  $<")
	$(Q)$(PROTOC_C) --c_out=$(PROTO_GEN_DIR) --proto_path=schema $<

# Generated code is not ours to lint: build it without warnings.
$(PROTO_GEN_OBJ): $(PROTO_GEN_C) $(PROTO_GEN_H)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -w $(PROTOBUF_C_CFLAGS) -I$(PROTO_GEN_DIR) -c -o $@ $<

$(patsubst %.c,$(OBJ)/%.o,$(PROTO_SRCS) convert/cmd_to_proto.c): $(PROTO_GEN_H)

$(OBJ)/tests/test_proto.o: $(PROTO_GEN_H)
$(OBJ)/tests/test_proto.o: override CFLAGS += -I$(PROTO_GEN_DIR) -Iconvert $(PROTOBUF_C_CFLAGS)

$(O)/unit-tests: $(PROTO_OBJS) $(PROTO_GEN_OBJ)
