/* SPDX-License-Identifier: MIT */
/*
 * diag_json.h - a diagnostic (pd_diag.h) as one JSON object: the one form
 * of an element of perfconv info --json's "diagnostics" and of perfcheck
 * --format json's "findings", so that a consumer of both reads them with
 * one parser.  One line, keys in this order, every key always present:
 *
 *   {"offset":N|null,"stream":"data.1"|null,"record_index":N|null,
 *    "record_type":"SAMPLE"|null,"code":"PD401","name":"SAMPLE_TRUNCATED",
 *    "severity":"error","message":"...","fatal":false,
 *    "detail":"key=value ...","details":{"key":value,...}}
 *
 * null says the diagnostic has no such place (no offset, not a directory's
 * stream, not about one record); "detail" is the text as printed on the
 * diagnostic line ("" when none), "details" the same pairs as an object.
 */
#ifndef PD_COMMON_DIAG_JSON_H
#define PD_COMMON_DIAG_JSON_H

#include "perfdata/pd_diag.h"
#include "out_buf.h"

void diag_json_put(struct out_buf *b, const struct pd_diag *d);

#endif /* PD_COMMON_DIAG_JSON_H */
