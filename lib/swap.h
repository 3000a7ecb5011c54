/* SPDX-License-Identifier: MIT */
/*
 * swap.h - convert records and feature payloads written on a host of the
 * opposite byte order to host order (not installed; the writer uses it).
 *
 * Conversion works on a copy: the input bytes are copied to the caller's
 * buffer and every multi-byte field is reversed in place at the position
 * the layout gives it.  Strings, byte arrays, raw tracepoint data, user
 * stack copies, AUX data and the tracing-data blob stay as they are (they
 * are bytes, or carry their own byte order).  Bit-fields follow perf's
 * rules (§11.3): the attr flags word through pd_attr_decode(), branch
 * entry flags by moving each sub-field to its little-endian position.
 */
#ifndef PD_LIB_SWAP_H
#define PD_LIB_SWAP_H

#include "internal.h"
#include "perfdata/pd_feature.h"
#include "perfdata/pd_record.h"

/*
 * Convert one record (rec->raw, rec->raw_len bytes, rec->swapped set)
 * into `out`, which holds rec->raw_len bytes.  Sample layouts and
 * sample_id trailers come from rec->event.  Returns 0 when every field
 * was converted, 1 when the type or layout is unknown or does not fit
 * (header converted, the rest as far as it was understood;
 * PD_REC_NOT_CONVERTIBLE reported through `sink`).
 */
int pd_swap_record(const struct pd_record *rec, uint8_t *out, struct pd_diag_sink *sink);

/*
 * Convert one feature payload of `len` bytes into `out` (len bytes).
 * `f` (may be NULL) gives NRCPUS-dependent counts and the build-id table
 * layout.  Returns 0, or 1 when the payload cannot be converted (unknown
 * id, host-order-only BPF payloads, malformed payload), with
 * PD_FEAT_NOT_CONVERTIBLE reported.
 */
int pd_swap_feature(unsigned int id, const uint8_t *in, size_t len, uint8_t *out,
		    const struct pd_features *f, struct pd_diag_sink *sink);

/*
 * Branch entry flags between the bit-field allocations of the two byte
 * orders, for a u64 already loaded in host order (§11.3).
 */
uint64_t pd_br_flags_be_to_le(uint64_t v);
uint64_t pd_br_flags_le_to_be(uint64_t v);

#endif /* PD_LIB_SWAP_H */
