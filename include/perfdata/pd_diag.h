/* SPDX-License-Identifier: MIT */
/*
 * pd_diag.h - diagnostics reported by the perf.data parsing core.
 *
 * The library never prints and never exits.  Every problem it meets in its
 * input becomes a struct pd_diag handed to a caller-supplied callback; so
 * does what the symbolizer (pd_symbols.h) cannot use, with codes of its
 * own (PD801-PD899).  Each
 * diagnostic has a stable code ("PD301"), a default severity, the absolute
 * file offset of the offending bytes, the record index and type when it
 * concerns a record, and a short key=value detail string.
 *
 * The code table below is ABI: entries are appended, never renumbered,
 * never removed.
 */
#ifndef PERFDATA_PD_DIAG_H
#define PERFDATA_PD_DIAG_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pd_severity {
	PD_SEV_NOTE = 0,	/* a fact worth knowing */
	PD_SEV_WARNING = 1,	/* legal but suspicious */
	PD_SEV_ERROR = 2,	/* malformed input */
};

/*
 * _PD(num, NAME, severity, text)
 * The numeric value is the stable id: it is printed as "PD%03d".
 */
#define PD_CODES								\
	/* container and file header: 1..99 */					\
	_PD(1, NOT_PERF, ERROR, "not a perf.data file: bad magic")		\
	_PD(2, LEGACY_PERFFILE, ERROR, "legacy PERFFILE (version 1) format is not supported") \
	_PD(3, BAD_HEADER_SIZE, ERROR, "file header size is neither 104, 72 nor 16") \
	_PD(4, TRUNCATED_HEADER, ERROR, "file ends inside the file header")	\
	_PD(5, SECTION_OUT_OF_FILE, ERROR, "section lies outside the file")	\
	_PD(6, SECTION_OVERLAP, ERROR, "sections overlap")			\
	_PD(7, BAD_ATTR_SIZE, ERROR, "header attr_size is zero or too small")	\
	_PD(8, DATA_SIZE_ZERO, WARNING, "data size is zero: the recording was not terminated properly") \
	_PD(9, BYTE_SWAPPED, NOTE, "file was written on a host of the opposite byte order") \
	_PD(10, EVENT_TYPES_NONZERO, NOTE, "obsolete event_types section is not empty") \
	_PD(11, FEATURE_TABLE_OUT_OF_FILE, ERROR, "feature section table lies outside the file") \
	_PD(12, RESERVED_FEATURE_BIT, ERROR, "reserved feature bit 0 is set")	\
	_PD(13, UNKNOWN_FEATURE_BIT, WARNING, "feature bit not defined by any known producer") \
	_PD(14, BITMAP_HEURISTIC, NOTE, "feature bitmap of a byte-swapped file needed the 32-bit heuristic") \
	_PD(15, ATTRS_SIZE_REMAINDER, WARNING, "attrs section size is not a multiple of attr_size") \
	_PD(16, DIR_NO_DATA, ERROR, "directory has no data file")		\
	_PD(17, DIR_STREAM, WARNING, "directory stream could not be read")	\
	_PD(18, HEADER_DATA_BEFORE_HEADER, ERROR, "section starts inside the file header") \
	_PD(19, EMPTY_FILE, ERROR, "input is empty")				\
	_PD(20, DATA_SIZE_WRONG, ERROR, "data size does not end where the records do: the feature table follows them elsewhere") \
	_PD(21, ATTR_SIZE_WRONG, ERROR, "header attr_size disagrees with the attrs' own size: they are read with theirs") \
	_PD(22, FEATURE_BIT_NO_SECTION, ERROR, "feature bit set without a section: the table has one entry less") \
	/* attrs: 100..199 */							\
	_PD(101, ATTR_SIZE_MISMATCH, WARNING, "attr size does not match header attr_size") \
	_PD(102, ATTR_SIZE_UNKNOWN, WARNING, "attr size is not a published perf_event_attr size") \
	_PD(103, ATTR_UNKNOWN_SAMPLE_BITS, ERROR, "attr sample_type has unknown bits") \
	_PD(104, ATTR_UNKNOWN_READ_FORMAT, ERROR, "attr read_format has unknown bits") \
	_PD(105, ATTR_RESERVED_BITS, ERROR, "attr reserved bits are set")	\
	_PD(106, ATTR_IDS_OUT_OF_FILE, ERROR, "attr id array lies outside the file") \
	_PD(107, DUPLICATE_ID, ERROR, "sample id is used by more than one attr") \
	_PD(108, ATTR_ID_POS_MISMATCH, ERROR, "attrs disagree on the position of the sample id") \
	_PD(109, ATTR_SAMPLE_ID_ALL_MISMATCH, ERROR, "attrs disagree on sample_id_all") \
	_PD(110, ATTR_READ_WITHOUT_ID, ERROR, "attr samples READ without PERF_FORMAT_ID") \
	_PD(111, NO_ATTRS, ERROR, "file has no event attributes")		\
	_PD(112, ATTR_WEIGHT_BOTH, ERROR, "attr has both WEIGHT and WEIGHT_STRUCT") \
	_PD(113, ATTR_UNKNOWN_BRANCH_BITS, ERROR, "attr branch_sample_type has unknown bits") \
	_PD(114, ATTR_TAIL_NONZERO, WARNING, "attr is larger than known and its unknown tail is not zero") \
	_PD(115, ATTR_TOO_MANY_IDS, ERROR, "attr id count exceeds the reader's limit") \
	_PD(116, ATTR_TOO_SMALL, ERROR, "attr is smaller than PERF_ATTR_SIZE_VER0") \
	_PD(117, ATTR_IDS_SIZE, WARNING, "attr id array size is not a multiple of 8") \
	_PD(118, TOO_MANY_ATTRS, ERROR, "attr count exceeds the reader's limit") \
	/* header features: 200..299 */						\
	_PD(201, FEAT_TRUNCATED, ERROR, "feature payload ends inside a field")	\
	_PD(202, FEAT_TRAILING_BYTES, WARNING, "feature payload has bytes after its last field") \
	_PD(203, FEAT_BAD_STRING, ERROR, "feature string is not NUL-terminated or overruns its section") \
	_PD(204, FEAT_BAD_COUNT, ERROR, "feature count does not fit its section") \
	_PD(205, FEAT_BAD_VERSION, WARNING, "feature version is not supported")	\
	_PD(206, FEAT_TOO_LARGE, ERROR, "feature section exceeds the reader's limit") \
	_PD(207, FEAT_INCONSISTENT, WARNING, "feature values are inconsistent")	\
	_PD(208, FEAT_UNKNOWN_ID, WARNING, "HEADER_FEATURE record carries an unknown feature id") \
	_PD(209, FEAT_BUILDID_PADDING, WARNING, "build-id entry padding written by a known perf bug") \
	_PD(210, FEAT_BAD_BUILD_ID, ERROR, "malformed build-id entry")		\
	_PD(211, FEAT_NO_END_MARKER, WARNING, "pipe stream has no end-of-features marker") \
	_PD(212, FEAT_DUPLICATE, WARNING, "feature delivered more than once")	\
	_PD(213, FEAT_SECTION_OUT_OF_FILE, ERROR, "feature section lies outside the file") \
	_PD(214, FEAT_SECTION_OVERLAP, ERROR, "feature section overlaps another section") \
	_PD(215, FEAT_SKIPPED_SWAPPED, NOTE, "feature kept as bytes: host-order only payload in a byte-swapped file") \
	_PD(216, FEAT_EMPTY, WARNING, "feature section is empty: its writer failed") \
	_PD(217, FEAT_NOT_CONVERTIBLE, WARNING, "feature payload cannot be converted to host byte order: dropped") \
	_PD(218, FEAT_WRITER_BYTE_ORDER, WARNING, "feature sections are in the writer's byte order, not the file's: written by perf inject on a host of the other byte order (a known bug)") \
	/* records: 300..399 */							\
	_PD(301, REC_SIZE_TOO_SMALL, ERROR, "record size is smaller than its header") \
	_PD(302, REC_CROSSES_END, ERROR, "record crosses the end of the data section") \
	_PD(303, REC_TRUNCATED, ERROR, "input ends inside a record")		\
	_PD(304, REC_BELOW_MIN, ERROR, "record is smaller than its type requires") \
	_PD(305, REC_UNKNOWN_TYPE, WARNING, "unknown record type")		\
	_PD(306, REC_UNALIGNED, WARNING, "record size is not a multiple of 8")	\
	_PD(307, REC_BAD_STRING, ERROR, "record string is not NUL-terminated")	\
	_PD(308, REC_BAD_COUNT, ERROR, "record count field does not fit the record") \
	_PD(309, REC_TRAILING_BYTES, WARNING, "record has bytes after its last field") \
	_PD(310, REC_TRAILER_DOES_NOT_FIT, ERROR, "sample_id trailer does not fit the record") \
	_PD(311, REC_UNKNOWN_ID, ERROR, "record id matches no attr")		\
	_PD(312, REC_NO_ATTR, ERROR, "record arrives before any event attribute") \
	_PD(313, REC_AFTER_DATA_END, WARNING, "bytes follow the end of the data section") \
	_PD(314, REC_DATA_TAIL, ERROR, "data section ends with a partial record header") \
	_PD(315, REC_SPLIT_BAD, ERROR, "simpleperf SPLIT records do not reassemble into one record") \
	_PD(316, REC_PAYLOAD_OUT_OF_DATA, ERROR, "payload after the record lies outside the data section") \
	_PD(317, REC_ZERO_SIZE, ERROR, "record size is zero")		\
	_PD(318, REC_BAD_FIELD, ERROR, "record field has an invalid value")	\
	_PD(319, REC_SPLIT_TOO_LARGE, ERROR, "reassembled SPLIT record exceeds the reader's limit") \
	_PD(320, REC_TRACING_DATA_MAGIC, WARNING, "tracing data does not start with the tracing magic") \
	_PD(321, REC_NOT_CONVERTIBLE, WARNING, "record layout unknown: only its header was converted to host byte order") \
	/* samples: 400..499 */							\
	_PD(401, SAMPLE_TRUNCATED, ERROR, "sample fields run past the end of the record") \
	_PD(402, SAMPLE_TRAILING_BYTES, WARNING, "sample has bytes after its last field") \
	_PD(403, SAMPLE_CALLCHAIN_TOO_LONG, ERROR, "callchain length does not fit the record") \
	_PD(404, SAMPLE_BRANCH_TOO_LONG, ERROR, "branch stack length does not fit the record") \
	_PD(405, SAMPLE_STACK_DYN_SIZE, ERROR, "user stack dyn_size exceeds the stack copy") \
	_PD(406, SAMPLE_RAW_SIZE, ERROR, "raw data size does not fit the record") \
	_PD(407, SAMPLE_BAD_REGS_ABI, ERROR, "register ABI value is unknown")	\
	_PD(408, SAMPLE_READ_GROUP_NR, ERROR, "group read count does not fit the record") \
	_PD(409, SAMPLE_AUX_SIZE, ERROR, "aux sample size does not fit the record") \
	_PD(410, SAMPLE_STACK_SIZE, ERROR, "user stack size does not fit the record") \
	/* compression: 500..599 */						\
	_PD(501, ZSTD_ERROR, ERROR, "compressed record fails to decompress")	\
	_PD(502, DECOMPRESS_LIMIT, ERROR, "decompressed data exceeds the reader's limit") \
	_PD(503, COMPRESSED_TAIL, ERROR, "compressed stream ends with a partial record") \
	_PD(504, COMPRESSED_BAD_SIZE, ERROR, "COMPRESSED2 data_size does not fit the record") \
	_PD(505, NESTED_COMPRESSED, ERROR, "compressed record inside compressed data") \
	_PD(506, ZSTD_UNAVAILABLE, ERROR, "compressed records need zstd support") \
	/* ordering: 600..699 */						\
	_PD(601, OUT_OF_ORDER, WARNING, "record is older than records already delivered in time order") \
	_PD(602, ORDER_QUEUE_FULL, NOTE, "time-order queue reached its memory limit and was flushed early") \
	/* cross-record and cross-section checks of perfcheck: 603..699 */	\
	_PD(603, ROUND_ORDER, ERROR, "record is older than the round before the last FINISHED_ROUND") \
	_PD(604, EXIT_BEFORE_FORK, ERROR, "thread exits before it is forked") \
	_PD(605, MMAP_ZERO_LEN, WARNING, "mapping has zero length")		\
	_PD(606, MMAP_WRAPS, ERROR, "mapping wraps around the end of the address space") \
	_PD(607, LOST_EVENTS, NOTE, "events were lost: the ring buffer overflowed") \
	_PD(608, LOST_SAMPLES, NOTE, "samples were lost or dropped")		\
	_PD(609, THROTTLED, NOTE, "the kernel throttled sampling")		\
	_PD(610, THREAD_NOT_ANNOUNCED, NOTE, "samples of threads never announced by COMM or FORK") \
	_PD(611, SAMPLE_CPU_RANGE, ERROR, "record cpu is not below NRCPUS available") \
	_PD(612, SAMPLE_OUTSIDE_TIME_RANGE, WARNING, "sample time lies outside the SAMPLE_TIME range") \
	_PD(613, SAMPLE_TIME_MISMATCH, WARNING, "SAMPLE_TIME does not cover the first and last sample times") \
	_PD(614, EVENT_DESC_MISMATCH, ERROR, "EVENT_DESC disagrees with the attrs or their ids") \
	_PD(615, GROUP_DESC_MISMATCH, ERROR, "GROUP_DESC names attrs that do not exist") \
	_PD(616, COMPRESSED_NO_FEATURE, WARNING, "compressed records without a zstd COMPRESSED feature") \
	_PD(617, COMPRESSED_NO_RECORDS, NOTE, "COMPRESSED feature without compressed records") \
	_PD(618, AUXTRACE_INDEX_MISMATCH, ERROR, "AUXTRACE index entry does not locate an AUXTRACE record") \
	_PD(619, ID_INDEX_UNKNOWN_ID, ERROR, "ID_INDEX lists an id that no attr owns") \
	_PD(620, STREAM_STOPPED, NOTE, "record stream cannot be resynchronised: the rest is not checked") \
	_PD(621, MAX_ERRORS, NOTE, "error limit reached: the rest of the file is not checked") \
	_PD(622, BUILDID_MISMATCH, WARNING, "build id differs from the binary found on this machine") \
	_PD(623, BUILDID_NO_BINARY, NOTE, "binary of a recorded build id was not found") \
	_PD(624, ATTR_NO_SAMPLE_FITS, ERROR, "no sample of this attr fits its sample layout: the attr field is wrong") \
	_PD(625, SAMPLES_OF_WRONG_ATTR, NOTE, "samples that do not fit their attr, reported once at the attr") \
	_PD(626, PIPE_NOT_FINISHED, WARNING, "pipe stream ends with samples after its last FINISHED_ROUND: the recording was not terminated properly") \
	_PD(627, SAMPLE_STACK_OVER_ATTR, ERROR, "user stack copy is larger than the attr's sample_stack_user") \
	_PD(628, OVERLAP_SYMPTOMS, NOTE, "findings inside an overlapping feature section, reported once at the overlap") \
	_PD(629, SAMPLE_CPU_NOT_EVENT_CPU, ERROR, "sample cpu is not the cpu its event was opened on (ID_INDEX)") \
	_PD(630, ATTR_STACK_USER_INVALID, ERROR, "attr sample_stack_user is not a size the kernel accepts") \
	_PD(631, UNKNOWN_ID_REPEATED, NOTE, "more records with an id already reported as matching no attr, counted once") \
	/* writer: 700..799 */							\
	_PD(701, WRITE_FAILED, ERROR, "output cannot be written")		\
	_PD(702, OUTPUT_NOT_SEEKABLE, ERROR, "output is not a seekable regular file") \
	_PD(703, TOO_LARGE_FOR_PIPE, WARNING, "item exceeds the 64 KiB record limit of pipe mode: dropped") \
	_PD(704, RECOMPRESS_FAILED, ERROR, "compressed data cannot be recompressed") \
	_PD(705, EXTRA_NOT_HELD, ERROR, "payload after a record was not kept by the reader: cannot copy it") \
	/* symbolization (pd_symbols.h): 801..849; DWARF unwinding: 851..899 */	\
	_PD(801, SYM_NO_FILE, NOTE, "no readable ELF file for a DSO: its frames have no symbols") \
	_PD(802, SYM_BAD_PATH, NOTE, "DSO name is not an absolute plain path: its frames have no symbols") \
	_PD(803, SYM_BUILDID_MISMATCH, NOTE, "file's build id differs from the recording's: not used for symbols") \
	_PD(804, SYM_OUTSIDE_SYMFS, NOTE, "file leads out of the --symfs root: not used") \
	_PD(805, SYM_NO_KALLSYMS, NOTE, "no kallsyms for the recording's kernel: kernel frames have no symbols") \
	_PD(806, SYM_KALLSYMS_EMPTY, NOTE, "kallsyms file holds no usable symbols") \
	_PD(807, SYM_NO_VDSO, NOTE, "no copy of the recorded vdso: its frames have no symbols") \
	_PD(808, SYM_NO_PERF_MAP, NOTE, "JIT perf map cannot be read: JIT frames have no symbols") \
	_PD(809, SYM_NO_DWARF_LINES, NOTE, "no usable DWARF line information: no source lines") \
	_PD(851, UNWIND_DYN_SIZE, NOTE, "user stack dyn_size exceeds its stack copy: user stack not unwound") \
	_PD(852, UNWIND_REGS, NOTE, "user registers do not match sample_regs_user: user stack not unwound") \
	_PD(853, UNWIND_NO_SP, NOTE, "no stack pointer or pc among the user registers: user stack not unwound") \
	_PD(854, UNWIND_LOOP, NOTE, "call frame information does not move the stack: the unwind ends there") \
	_PD(855, UNWIND_ARCH, NOTE, "user stacks of this architecture are not unwound") \
	_PD(856, UNWIND_UNTESTED, NOTE, "aarch64 user stacks are unwound by a register mapping no test compares: frames may be wrong") \
	/* input/output and resources: 900..999 */				\
	_PD(901, IO_ERROR, ERROR, "read error")				\
	_PD(902, NO_MEMORY, ERROR, "out of memory")

#define _PD(num, name, sev, text) PD_##name = num,
enum pd_code {
	PD_OK = 0,
	PD_CODES
};
#undef _PD

/* One finding.  Strings are valid only during the callback. */
struct pd_diag {
	enum pd_code code;
	enum pd_severity severity;
	uint64_t offset;	/* absolute offset in the stream; PD_NO_OFFSET if none */
	int64_t record_index;	/* ordinal of the record in the stream, -1 if none */
	uint32_t record_type;	/* PERF_RECORD_* of that record, valid if record_index >= 0 */
	bool fatal;		/* the stream cannot be read any further */
	const char *stream;	/* "data" or "data.N" in directory mode, else NULL */
	const char *detail;	/* "key=value key=value", may be empty, never NULL */
};

#define PD_NO_OFFSET UINT64_MAX

typedef void (*pd_diag_fn)(const struct pd_diag *diag, void *arg);

/* "PD301" for PD_REC_SIZE_TOO_SMALL; "PD???" for an unknown code. */
const char *pd_code_id(enum pd_code code);
/* Symbolic name without prefix: "REC_SIZE_TOO_SMALL". */
const char *pd_code_name(enum pd_code code);
/* One-line description. */
const char *pd_code_text(enum pd_code code);
enum pd_severity pd_code_severity(enum pd_code code);
/* "note", "warning", "error". */
const char *pd_severity_name(enum pd_severity sev);
/* Iterate the table: returns the i-th defined code, PD_OK past the end. */
enum pd_code pd_code_at(unsigned int i);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_PD_DIAG_H */
