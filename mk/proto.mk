# proto.mk - perfconv to-proto: the PerfDataProto writer.
#
# perfconv encodes the wire format itself (convert/proto_wire.h, shared
# with to-pprof) and needs only libmd for MD5.  The C code protoc-c
# (Debian protobuf-c-compiler) generates from schema/perf_data.proto goes
# to $(O)/gen, one copy per build directory (bin/, build-asan/, ...): the
# unit tests decode perfconv's output with it, and building it with `make`
# checks the schema.

PROTO_GEN_DIR := $(O)/gen
PROTO_GEN_C := $(PROTO_GEN_DIR)/perf_data.pb-c.c
PROTO_GEN_H := $(PROTO_GEN_DIR)/perf_data.pb-c.h
PROTO_GEN_OBJ := $(OBJ)/gen/perf_data.pb-c.o
PROTOC_C ?= protoc-c

PROTOBUF_C_CFLAGS := $(shell $(PKG_CONFIG) --cflags libprotobuf-c)
PROTOBUF_C_LIBS := $(shell $(PKG_CONFIG) --libs libprotobuf-c)
LIBMD_LIBS := $(shell $(PKG_CONFIG) --libs libmd 2>/dev/null || echo -lmd)

# Writer objects that the unit tests link too (everything but the command).
PROTO_SRCS := $(wildcard convert/proto/*.c)
PROTO_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(PROTO_SRCS))

# the quipper rules keep their pid tables in the writers' hash table (hmap.c)
PROTO_DEP_OBJS := $(OBJ)/convert/hmap.o $(OBJ)/convert/proto_wire.o

PERFCONV_EXTRA_LIBS += $(LIBMD_LIBS)
TEST_EXTRA_LIBS += $(PROTO_OBJS) $(PROTO_DEP_OBJS) $(PROTO_GEN_OBJ) $(PROTOBUF_C_LIBS) $(LIBMD_LIBS)
EXTRA_TESTS += tests/convert/proto/to-proto.sh

$(PROTO_GEN_C) $(PROTO_GEN_H) &: schema/perf_data.proto
	@mkdir -p $(PROTO_GEN_DIR)
	$(if $(Q),@echo "  PROTOC  $<")
	$(Q)$(PROTOC_C) --c_out=$(PROTO_GEN_DIR) --proto_path=schema $<

# Generated code is not ours to lint: build it without warnings.
$(PROTO_GEN_OBJ): $(PROTO_GEN_C) $(PROTO_GEN_H)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -w $(PROTOBUF_C_CFLAGS) -I$(PROTO_GEN_DIR) -c -o $@ $<

all: $(PROTO_GEN_OBJ)

$(OBJ)/tests/convert/proto/test_proto.o: $(PROTO_GEN_H)
$(OBJ)/tests/convert/proto/test_proto.o: override CFLAGS += -I$(PROTO_GEN_DIR) -Iconvert $(PROTOBUF_C_CFLAGS)

$(O)/unit-tests: $(PROTO_OBJS) $(PROTO_DEP_OBJS) $(PROTO_GEN_OBJ)
