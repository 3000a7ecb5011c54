/* SPDX-License-Identifier: MIT */
/*
 * swap_twin.h - produce the byte-swapped twin of a perf.data file: the file
 * a writer of the opposite byte order would have written for the same
 * recording.
 *
 * The twin is an independent implementation of the layouts of
 * docs/perf-data-format.md (§3 header and attrs, §5 features, §6 records, §7
 * samples and trailers, §11 bit-fields), written for the tests: reading a
 * file and its twin must give identical decoded results.
 *
 * What is swapped: every multi-byte integer of the header, the attrs (the
 * flags word as a big-endian compiler allocates its bit-fields, §11.3), the
 * id arrays, the feature table, every feature payload and every record
 * (sample fields per the attr's sample_type, sample_id trailers,
 * read_format values, branch entries with the flags bit-field remapped,
 * register values, stack and raw sizes).  Never swapped: strings, raw and
 * stack bytes, AUX data, tracing data, the BPF_PROG_INFO and BPF_BTF
 * feature payloads (host-order-only for perf: they stay byte-identical),
 * SCHEDSTAT counters and simpleperf records (not supported: the twin fails
 * for simpleperf files).
 *
 * COMPRESSED / COMPRESSED2 records are decompressed (one zstd stream per
 * file), their inner records swapped, and recompressed into one new zstd
 * stream per file, one container per original container
 * (ZSTD_compressStream + ZSTD_flushStream, as perf does).  Container sizes
 * and the offsets of everything after the first container change; the
 * data size and all offsets that point past the data section are moved
 * accordingly.  Compare containers by type only, inner records fully.
 *
 * Host byte order must be little-endian (the input is a native file).
 */
#ifndef PD_TESTS_SWAP_TWIN_H
#define PD_TESTS_SWAP_TWIN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Write the twin of `in` (file or pipe mode; a directory `in` gives a
 * directory `out` with `data` and every `data.N` twinned) to `out`.
 * Returns 0, or -1 with a message in err.
 */
int swap_twin(const char *in, const char *out, char *err, size_t errlen);

/*
 * When set, file-mode feature payloads stay as they are (the feature
 * table is still swapped): the file perf inject writes on a host of the
 * other byte order.
 */
extern bool swap_twin_keep_features;

#endif /* PD_TESTS_SWAP_TWIN_H */
