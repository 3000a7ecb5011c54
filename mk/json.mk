# json.mk - perfconv to-json: perf's JSON document and the lossless --full
# JSON (schema/perf-data-full.schema.json).
#
# Tracepoint fields are printed with libtraceevent, the library perf uses;
# frames come from the symbolization library (libperfdata-sym.a, added to
# the perfconv link by symbolize.mk).

TRACEEVENT_CFLAGS := $(shell $(PKG_CONFIG) --cflags libtraceevent)
TRACEEVENT_LIBS := $(shell $(PKG_CONFIG) --libs libtraceevent)

EXTRA_CFLAGS_CONVERT += $(TRACEEVENT_CFLAGS)
PERFCONV_EXTRA_LIBS += $(TRACEEVENT_LIBS)
EXTRA_TESTS += tests/convert/json/to-json.sh

# the unit tests check that a jansson value written through the emitter
# has the bytes of jansson's own dump (tests/convert/json/test_json_value.c)
JSON_VALUE_OBJS := $(OBJ)/convert/json/json_value.o $(OBJ)/convert/json/json_emit.o
TEST_EXTRA_LIBS += $(JSON_VALUE_OBJS)
$(O)/unit-tests: $(JSON_VALUE_OBJS)
$(OBJ)/tests/convert/json/test_json_value.o: override CFLAGS += -Iconvert
