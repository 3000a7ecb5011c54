/* SPDX-License-Identifier: MIT */
/*
 * perfcheck.h - the perf.data validator: report formats, the check pass
 * and the build-id comparison, shared by the command, the fuzz target and
 * the mutation driver.
 *
 * Findings are struct pd_diag, whether they come from the parsing core or
 * from the checks here, so that one catalogue (PD_CODES) describes them
 * all and one callback counts and prints them.
 */
#ifndef PERFCHECK_H
#define PERFCHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "../common/out_buf.h"
#include "../common/tool.h"

/* Exit codes, documented in perfcheck.1 and the README: those of every command (common/tool.h). */
enum pc_exit {
	PC_EXIT_OK = TOOL_EXIT_OK,
	PC_EXIT_FINDINGS = TOOL_EXIT_FAILED,
	PC_EXIT_USAGE = TOOL_EXIT_USAGE,
	PC_EXIT_IO = TOOL_EXIT_IO,
};

enum pc_format {
	PC_FMT_TEXT,
	PC_FMT_JSON,
	PC_FMT_JUNIT,
	PC_FMT_NONE,		/* count only: fuzzing and mutation runs */
};

struct pc_opts {
	enum pc_format format;
	bool strict;		/* warnings fail the run too */
	bool quiet;		/* text: print only what fails the run */
	bool check_buildids;
	const char *symfs;	/* root for --check-buildids, NULL: / */
	uint64_t max_errors;	/* stop a file after this many errors, 0: never */
	uint64_t max_per_code;	/* findings printed per code and file, 0: all */
	/* reader limits, 0: the reader's defaults */
	size_t window_size;
	uint64_t max_decompressed;
};

/* One output document (several files). */
struct pc_report {
	const struct pc_opts *opts;
	/*
	 * Where the document goes: standard output for the command (flushed
	 * before each line of its own on stderr, so that both keep their
	 * order), memory for the fuzz target.
	 */
	struct out_buf *out;
	bool flush_lines;	/* a terminal: each line shows as it is written */
	unsigned int nr_files;
	uint64_t counts[3];	/* over all files, by severity */
	int worst;		/* worst exit code so far */
};

#define PC_MAX_CODE 1000

/* The findings of one file, as the diagnostic callback sees them. */
struct pc_check;

struct pc_file {
	struct pc_report *rep;
	struct pc_check *check;	/* the check pass, while it runs */
	/*
	 * Findings of the header, attrs and feature sections, held until
	 * the layout check has run so that they go out in file-offset
	 * order with each section overlap before its symptoms (checks.c).
	 */
	struct pc_early *early;
	const char *name;
	uint64_t counts[3];
	uint32_t by_code[PC_MAX_CODE];	/* saturating */
	uint64_t records;
	bool stop;		/* --max-errors reached */
	bool fatal;		/* the reader could not go on */
	uint64_t fatal_offset;
	unsigned int nr_json;	/* findings written to the JSON array */
	/*
	 * JUnit: findings are written after the file is done, one test
	 * case per code that fired (in the order they first fired); each
	 * kept line starts with its code number and a space.  They are
	 * kept in an output buffer held in memory (made on first use).
	 */
	struct out_buf junit;
	uint16_t junit_codes[PC_MAX_CODE];
	unsigned int junit_nr_codes;
	bool junit_truncated;
};

void pc_report_begin(struct pc_report *rep, const struct pc_opts *opts, struct out_buf *out);
int pc_report_end(struct pc_report *rep);
void pc_file_begin(struct pc_report *rep, struct pc_file *pf, const char *name);
/* status: a negative enum pd_status when the reader failed, else 0. */
int pc_file_end(struct pc_file *pf, int status);
/* The diagnostic callback: arg is the struct pc_file. */
void pc_diag(const struct pd_diag *d, void *arg);
/*
 * A finding of the validator's own as a diagnostic (severity from the
 * catalogue, not fatal), its detail formatted into detail[size]: what
 * pc_emit() emits, for a caller that may hold it back first.
 */
#define PC_DETAIL_MAX	512
void pc_vfinding(struct pd_diag *d, char *detail, size_t size, enum pd_code code,
		 uint64_t offset, int64_t rec_idx, uint32_t rec_type, const char *stream,
		 const char *fmt, va_list ap) __attribute__((format(printf, 9, 0)));
/* Emit a finding of the validator's own (severity from the catalogue). */
void pc_emit(struct pc_file *pf, enum pd_code code, uint64_t offset, int64_t rec_idx,
	     uint32_t rec_type, const char *stream, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void pc_list_checks(struct out_buf *out, enum pc_format format);

/*
 * Check one input: path, or "-" for standard input.  Runs the reader and
 * the cross-record checks; returns the file's exit code.
 */
int pc_check_path(struct pc_report *rep, const char *path);
/* Same for an open descriptor (fuzzing); layout checks use pread on it. */
int pc_check_fd(struct pc_report *rep, int fd, const char *name);

/* --check-buildids */
struct pc_buildids;
struct pc_buildids *pc_buildids_new(const char *symfs);
void pc_buildids_free(struct pc_buildids *b);
void pc_buildids_check(struct pc_buildids *b, struct pc_file *pf, const char *filename,
		       const uint8_t *id, unsigned int size, uint64_t offset, int64_t rec_idx,
		       uint32_t rec_type);

#endif /* PERFCHECK_H */
