/* SPDX-License-Identifier: MIT */
/*
 * json_value.h - a jansson value written through the emitter, so that the
 * parts of a document built as values (header, attrs, features, the file
 * description and summary of --jsonl, info --json) have their strings
 * escaped by the one rule of common/json_str.h like every other string
 * of perfconv's outputs.  The layout is jansson's own (json_dumps() with
 * the same flags gives the same bytes for a value whose strings need no
 * escape): key order as inserted, numbers as jansson prints them.
 */
#ifndef PERFCONV_JSON_VALUE_H
#define PERFCONV_JSON_VALUE_H

#include <jansson.h>

#include "json/json_emit.h"

/*
 * The text of v at j's current position, without the emitter's comma
 * placement (call je_sep() first where it applies).  indent 0: compact
 * (JSON_COMPACT); else one item a line, `indent` spaces a level, ": "
 * after keys (JSON_INDENT(indent)).  NULL writes null.
 */
void je_value(struct je *j, json_t *v, unsigned int indent);
/*
 * The same for a value that is `depth` levels deep in a document whose
 * outer levels the caller writes: its items indented as they would be
 * there.
 */
void je_value_nested(struct je *j, json_t *v, unsigned int indent, unsigned int depth);

#endif /* PERFCONV_JSON_VALUE_H */
