/* SPDX-License-Identifier: MIT */
/*
 * csv_tables.h - the tables of perfconv to-csv.
 *
 * One pass over the records in time order fills every selected table:
 * the streaming ones (records, samples, mmaps, comms, lost, switches) are
 * written row by row as records arrive, the aggregated ones (stats,
 * processes, functions, lines, folded) are kept in hash tables keyed by
 * interned strings and machine pointers, and written at the end.  The
 * samples table, the largest, is formatted on a second thread from binary
 * rows (csv_samples_start(), batch_pipe.h).  Column lists are in
 * csv_table_cols[] and documented in perfconv(1): they are an interface,
 * change them only by appending.
 */
#ifndef PERFCONV_CSV_TABLES_H
#define PERFCONV_CSV_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "perfdata/pd_symbols.h"

#include "hmap.h"
#include "csv/csv_out.h"
#include "batch_pipe.h"
#include "type_counts.h"

enum csv_table {
	CSV_STATS,
	CSV_RECORDS,
	CSV_SAMPLES,
	CSV_PROCESSES,
	CSV_FUNCTIONS,
	CSV_LINES,
	CSV_MMAPS,
	CSV_COMMS,
	CSV_LOST,
	CSV_SWITCHES,
	CSV_FOLDED,
	CSV_NR_TABLES
};

extern const char *const csv_table_names[CSV_NR_TABLES];
extern const char *const csv_table_cols[CSV_NR_TABLES];

/* Per event sums, indexed by pd_record.event_index. */
struct csv_evsum {
	uint64_t samples, period, bytes;
};

struct csv_evvec {
	struct csv_evsum *v;
	size_t nr;
};

/*
 * Frame names of one (DSO, symbol), or of one function inlined in a DSO
 * (inlined: sym is its name): computed once, interned.
 */
struct csv_fname {
	const void *dso;
	const char *sym;
	bool has_map;
	bool inlined;
	const char *chain;	/* in the samples callchain field */
	uint32_t chain_len;
	const char *folded;	/* in the folded table (stackcollapse-perf's tidy rules) */
	/* the sym and dso columns of the samples table, and whether they need quoting */
	const char *sym_col, *dso_col;
	uint32_t sym_len, dso_len;
	bool chain_plain, sym_plain, dso_plain;
};

/*
 * What follows from a frame's (DSO, address) alone, kept once per pair for
 * every table, each part looked up the first time a table asks for it:
 * its source position (the lines table) and, for an unwound frame, the
 * frames perf shows in its place (pd_machine_inline_frames()).  32 bytes:
 * the inline frames' names are a run in one array of the context
 * (csv_ctx.inl_names) rather than a pointer more, so that a site costs
 * no more than the source position alone did.
 */
struct csv_site {
	const void *dso;	/* NULL: the address is in no mapped DSO */
	uint64_t addr;
	const char *file;	/* innermost source file, interned, "" when unknown;
				 * NULL: not looked up yet */
	uint32_t line;
	/*
	 * 1 + where the names of its inline frames and its own start in
	 * csv_ctx.inl_names, innermost first, up to a NULL (none: the frame
	 * stands as it is); 0: not looked up yet
	 */
	uint32_t inl;
};

/*
 * A resolved frame as the tables use it (pointers into the cache).  In a
 * stack with inline frames expanded, `depth` is the entry's place in its
 * frame's expansion (0 innermost).
 */
struct csv_frame {
	const struct csv_fname *name;
	const struct pd_sym_frame *f;
	struct csv_site *site;	/* an unwound frame's (inline frames looked up), else NULL */
	uint32_t depth;
};

/*
 * Frames of a sample with its inline frames: every stack entry expanded
 * into at most PD_SYM_MAX_INLINE + 1 frames.
 */
#define CSV_MAX_XSTACK	(PD_SYM_MAX_STACK * (PD_SYM_MAX_INLINE + 1))

struct csv_ctx {
	struct pd_reader *r;
	struct pd_machine *m;
	struct pd_members *members;	/* the samples each record stands for */
	struct csv_out out[CSV_NR_TABLES];
	bool want[CSV_NR_TABLES];
	bool open[CSV_NR_TABLES];
	bool srcline;		/* pd_machine_srcline() is available */
	bool folded_period;	/* folded counts period instead of samples */
	int folded_ev;		/* its index, -1 until known */
	bool folded_other;	/* samples of other events were left out of it */
	bool nomem;

	struct str_pool str;
	struct arena arena;

	/* stats: the records by type, as the driver counted them */
	const struct type_counts *types;
	struct csv_evvec ev;

	/* functions, lines, folded (processes: the machine's, pd_machine_processes()) */
	uint64_t sample_no;
	struct hmap names;
	struct hmap funcs;
	struct hmap lines;
	struct hmap folded;

	/* resolved frames, with their names and inline frames */
	struct pd_frame_cache *fc;
	struct pd_frame_ref refs[PD_SYM_MAX_STACK];
	struct hmap sites;	/* struct csv_site by (DSO, address) */
	/* the sites' runs of inline frame names; [0] is NULL, the empty run */
	const struct csv_fname **inl_names;
	size_t nr_inl_names, inl_names_cap;
	struct csv_frame xfr[CSV_MAX_XSTACK];	/* the sample's frames, inline ones expanded */
	const char *fkey[CSV_MAX_XSTACK + 2];
	char *scratch;
	size_t scratch_cap;

	/* the samples table, formatted on its own thread */
	struct batch_pipe samples_pipe;
	struct sfmt *samples_fmt;	/* set while that thread owns out[CSV_SAMPLES] */
	_Atomic int samples_err;	/* its first write error */
};

int csv_ctx_init(struct csv_ctx *c);
void csv_ctx_free(struct csv_ctx *c);

/*
 * Whether a wanted table needs the symbolizer's machine (samples,
 * processes, functions, lines, folded); without one, c->m stays NULL.
 */
bool csv_wants_symbols(const struct csv_ctx *c);

/* A record, after pd_machine_process(): updates every aggregate and streaming table. */
void csv_record(struct csv_ctx *c, const struct pd_record *rec);

/*
 * After the tables are open: start the thread that formats the samples
 * table.  Returns 0, or -1 when out of memory.
 */
int csv_samples_start(struct csv_ctx *c);

/* Wait until every sample row is formatted; the table is ours again. */
void csv_samples_stop(struct csv_ctx *c);

/* errno of the first failed write to any open table, 0 if none. */
int csv_write_error(const struct csv_ctx *c);

/* Write the aggregated tables (the streaming ones are complete already). */
void csv_finish(struct csv_ctx *c);

#endif /* PERFCONV_CSV_TABLES_H */
