/* SPDX-License-Identifier: MIT */
/*
 * json_feat.h - the file part of to-json --full, built with jansson:
 * header, attrs, features; plus register names for samples.
 */
#ifndef PERFCONV_JSON_FEAT_H
#define PERFCONV_JSON_FEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "perfdata/perfdata.h"

/*
 * A string from the file as a JSON string: bytes that are not UTF-8 become
 * U+FFFD (common/utf8.h); NULL gives null.
 */
json_t *json_text(const char *s);

/* An unsigned number: an integer up to 2^53 (exact in every JSON reader), else a string. */
json_t *json_u64(uint64_t v);

/* Set o[k] to v (stolen), null when v is NULL (a failed allocation). */
void json_put(json_t *o, const char *k, json_t *v);

/* Every field of an attr (pd_attr_visit()), masks by name as well as the raw words. */
json_t *json_attr(const struct pd_attr *a);

/*
 * The typed value of decoded feature `id`, the one JSON form of a feature
 * (to-json --full and info --json): pd_feature_visit() into jansson
 * values; NULL for a feature kept as bytes only.  brief: the walk's
 * summary form (info's text): symbol tables counted, not listed, and
 * EVENT_DESC without the attrs the file's attr list shows.
 */
json_t *json_feature_value(const struct pd_features *f, unsigned int id, bool brief);

/*
 * One feature: id, name, offset, size, decoded, the typed "value" when the
 * decoder produced one, and the payload as base64 when it did not (or when
 * the id is unknown).  `payload`/`len` override the stored bytes (pipe-mode
 * HEADER_FEATURE records); pass NULL to use f->raw[id].  `known_id` false
 * means the id is out of range: only the bytes are shown.
 */
json_t *json_feature(const struct pd_features *f, unsigned int id, const uint8_t *payload,
		     size_t len, bool known_id);

/* Where the input came from: path, mode, byte order, size. */
json_t *json_source(const struct pd_header *h, const char *input);

/* The file header: magic, sizes, sections, feature bitmap words. */
json_t *json_header(const struct pd_header *h);

/* One event: index, name, where its attr was read, the attr and its ids. */
json_t *json_event(const struct pd_event *ev, size_t idx);

/* {"source":..,"header":..,"attrs":[..],"features":[..]} */
json_t *json_file_description(struct pd_reader *r, const char *input);

/* Register name of bit `bit` of a sample_regs mask ("AX", "x0"), else "r<bit>". */
const char *json_reg_name(const char *arch, uint64_t abi, unsigned int bit, char *buf,
			  size_t size);

/* base64 text of n bytes (malloc'd), NULL on allocation failure. */
char *json_base64(const uint8_t *p, size_t n);

#endif /* PERFCONV_JSON_FEAT_H */
