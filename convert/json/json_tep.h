/* SPDX-License-Identifier: MIT */
/*
 * json_tep.h - tracepoint fields of RAW sample data, decoded with
 * libtraceevent from the recording's tracing data (the same library and
 * the same field printer perf uses).
 */
#ifndef PERFCONV_JSON_TEP_H
#define PERFCONV_JSON_TEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct jtep;

/*
 * Parse a tracing-data blob (HEADER_TRACING_DATA feature or pipe record).
 * Returns NULL on allocation failure or when the blob has no usable event
 * format; *why then says what was wrong (static text).
 */
struct jtep *jtep_new(const uint8_t *blob, size_t len, const char **why);
void jtep_free(struct jtep *t);

typedef void (*jtep_field_fn)(void *arg, const char *name, const char *value);

/*
 * Call fn for every field (common_* fields left out, as perf does) of the
 * tracepoint with id `config`, formatted by libtraceevent.  Returns the
 * number of fields, 0 when the id has no known format.
 */
int jtep_fields(struct jtep *t, uint64_t config, const void *raw, uint32_t raw_size,
		jtep_field_fn fn, void *arg);

/* "system:name" of a tracepoint id, NULL if unknown. */
const char *jtep_event_name(struct jtep *t, uint64_t config, const char **system);

#endif /* PERFCONV_JSON_TEP_H */
