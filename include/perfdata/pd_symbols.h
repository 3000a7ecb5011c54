/* SPDX-License-Identifier: MIT */
/*
 * pd_symbols.h - process model and symbolization on top of libperfdata.
 *
 * A struct pd_machine holds what perf calls the machine state: threads
 * (pid/tid, parent, exit time, command names over time), per-process
 * address spaces built from MMAP/MMAP2 records, the kernel, module and
 * KSYMBOL maps, the DSOs behind them with their symbol tables, and on
 * request every process of the recording (pd_machine_processes()).  It is
 * fed the records of one perf.data file in time order and answers
 * "address + thread + cpumode -> map, DSO, symbol" the way perf 6.1 does,
 * so that its output can be compared with `perf script` frame for frame.
 *
 * This module lives in its own library (libperfdata-sym.a) because it uses
 * libelf and libdw; the parsing core never links them.
 *
 * Usage:
 *	struct pd_sym_opts so = PD_SYM_OPTS_INIT;
 *	struct pd_machine *m;
 *	struct pd_sym_frame fr[PD_SYM_MAX_FRAMES];
 *
 *	pd_machine_new(&so, &m);
 *	pd_machine_add_features(m, pd_reader_features(r));
 *	while (pd_reader_next(r, &rec) > 0) {	// opened with time_order
 *		pd_machine_process(m, rec);
 *		if (rec->type == PD_RECORD_SAMPLE)
 *			n = pd_machine_resolve_sample(m, rec, fr, PD_SYM_MAX_FRAMES);
 *	}
 *	pd_machine_free(m);
 *
 * Strings in results point into the machine and stay valid until
 * pd_machine_free().  A function that can fail returns, as the core's do,
 * 0 or a negative enum pd_status (pd_consts.h): PD_STATUS_NOMEM when
 * memory runs out, PD_STATUS_IO when a system call fails; answers that
 * are not failures (no symbol, no such thread, no build id) are stated
 * with each function.  Files named inside perf.data are treated as input:
 * only regular files are opened, read-only; with a symfs root no path may
 * leave that root; a missing, unreadable or mismatching file becomes one
 * diagnostic for its DSO (below) and leaves that DSO without symbols.
 */
#ifndef PERFDATA_PD_SYMBOLS_H
#define PERFDATA_PD_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/pd_diag.h"
#include "perfdata/pd_feature.h"
#include "perfdata/pd_record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cpumode values (header.misc & 7) */
#define PD_CPUMODE_UNKNOWN	0
#define PD_CPUMODE_KERNEL	1
#define PD_CPUMODE_USER		2
#define PD_CPUMODE_HYPERVISOR	3
#define PD_CPUMODE_GUEST_KERNEL	4
#define PD_CPUMODE_GUEST_USER	5

/* perf script's default --max-stack */
#define PD_SYM_MAX_FRAMES	127
/*
 * A sample's whole stack as perf script shows it: up to max-stack entries
 * of the recorded callchain, then up to max-stack user frames unwound from
 * a --call-graph dwarf sample.  Size buffers for whole stacks with this.
 */
#define PD_SYM_MAX_STACK	(2 * PD_SYM_MAX_FRAMES)

/*
 * What the symbolizer could not use is a diagnostic (pd_diag.h), of
 * severity note: the recording is not malformed for it, its output only
 * has fewer symbols.  PD801-PD849 concern a DSO (a missing file, PD801; a
 * build-id mismatch, PD803; ...) and come once per DSO, their detail
 * starting with dso=NAME (the name it was mapped with) and naming the
 * file= concerned; PD851-PD899 end the DWARF unwinding of a sample and
 * come once per machine, for the first such sample, the others only
 * counted (pd_machine_diag_count()).  A diagnostic carries the offset,
 * index and type of the record last given to pd_machine_process() or
 * pd_machine_sample_stack() (the sample being resolved), or PD_NO_OFFSET
 * and record_index -1 when it concerns no record (PD809: a source line
 * asked of a frame).  A value holding a space or a quote is in quotes.
 */
struct pd_sym_opts {
	const char *symfs;	/* resolve every file under this root (NULL: none) */
	const char *buildid_dir;	/* NULL: $PERF_BUILDID_DIR, else $HOME/.debug */
	const char *kallsyms;	/* kernel symbols from this file instead of the search */
	bool srcline;		/* allow pd_machine_srcline() (loads DWARF with libdw) */
	bool no_kernel;		/* never load kernel symbols */
	pd_diag_fn diag_fn;	/* NULL: diagnostics are only counted */
	void *diag_arg;
	/*
	 * Samples with user registers and a user stack copy (perf record
	 * --call-graph dwarf) get their user frames by DWARF unwinding, as
	 * perf script shows them; no_unwind keeps the recorded callchain only.
	 */
	bool no_unwind;
	/* pd_machine_inline_frames() expands nothing (perf script --no-inline) */
	bool no_inline;
	/* perf's --max-stack: callchain entries and unwound frames, each (0: 127, at most 127) */
	unsigned int max_stack;
	/*
	 * Keep every process of the recording, not only the threads alive
	 * now (pd_machine_processes()): the one process table of a writer.
	 */
	bool processes;
};

#define PD_SYM_OPTS_INIT { 0 }

enum pd_dso_kind {
	PD_DSO_USER = 0,	/* a file mapped by a process */
	PD_DSO_KERNEL,		/* [kernel.kallsyms] */
	PD_DSO_MODULE,		/* [ext4] */
	PD_DSO_VDSO,		/* [vdso] */
	PD_DSO_JIT,		/* /tmp/perf-PID.map: executable anonymous memory */
	PD_DSO_ANON,		/* //anon, [heap], [stack]: never symbols */
	PD_DSO_KSYMBOL,		/* BPF program or other KSYMBOL text */
};

struct pd_dso;			/* opaque, owned by the machine */

/* One resolved address. */
struct pd_sym_frame {
	uint64_t ip;		/* as recorded */
	uint8_t cpumode;	/* the cpumode it was resolved with */
	bool has_map;
	bool user_map;		/* map in a process address space (perf script prints addr) */
	uint64_t addr;		/* address inside the DSO (map_ip); ip without a map */
	uint64_t map_start, map_end, map_pgoff;
	const struct pd_dso *dso;	/* NULL without a map */
	const char *dso_name;	/* perf script's dso: the name it was mapped with */
	const char *dso_short;	/* perf's short name: libc.so.6, [kernel.kallsyms], [JIT] tid 7 */
	const char *dso_path;	/* long name: the file it stands for */
	enum pd_dso_kind dso_kind;
	const char *sym;	/* NULL when no symbol covers addr */
	uint64_t sym_start;	/* in the DSO's address space (like addr) */
	uint64_t sym_off;	/* addr - sym_start */
	bool unwound;		/* a user frame found by DWARF unwinding */
};

/* What a thread looks like at a given moment. */
struct pd_sym_thread {
	int32_t pid, tid, ppid;
	const char *comm;	/* ":<tid>" when no COMM named it */
	bool comm_set;
	bool exited;
	uint64_t exit_time;
	size_t nr_maps;		/* maps of its address space */
};

/* A source position; inline frames first (innermost), then the function. */
struct pd_sym_srcpos {
	const char *func;	/* NULL for the outermost entry (use the frame's symbol) */
	const char *file;
	unsigned int line;
};

#define PD_SYM_MAX_INLINE 64

struct pd_sym_srcline {
	unsigned int nr;	/* 0: no line information */
	/*
	 * No debug information covers the address: pos[0] alone, line 0, names
	 * the file that the ELF symbol table gives the function around it (as
	 * addr2line, so perf, does); "" for an unnamed STT_FILE symbol.
	 */
	bool from_symtab;
	struct pd_sym_srcpos pos[PD_SYM_MAX_INLINE + 1];
};

/* Counters for reports and benchmarks. */
struct pd_sym_stats {
	uint64_t threads, dsos, maps_inserted, dsos_loaded, symbols;
	uint64_t notes;		/* diagnostics given (each code counted in pd_machine_diag_count()) */
	uint64_t cache_hits, cache_misses;
	/* DWARF unwinding */
	uint64_t unwound_samples;	/* samples whose user stack was unwound */
	uint64_t unwound_frames;	/* user frames they gave */
	uint64_t unwind_cache_hits;	/* samples answered by the result cache */
	uint64_t unwind_errors;		/* samples whose unwind ended on bad input */
};

struct pd_machine;

/*
 * Returns 0 and sets *out; PD_STATUS_IO when the symfs root cannot be
 * opened (errno says why), PD_STATUS_NOMEM when memory runs out.
 */
int pd_machine_new(const struct pd_sym_opts *opts, struct pd_machine **out);
void pd_machine_free(struct pd_machine *m);

/*
 * Take what the header knows: build ids (DSOs are created with them, as
 * perf does before reading any record) and the os release.  Call before the
 * first record; pipe mode may also feed HEADER_BUILD_ID records through
 * pd_machine_process().  Returns 0 or PD_STATUS_NOMEM.
 */
int pd_machine_add_features(struct pd_machine *m, const struct pd_features *f);

/*
 * Update the state from one record: COMM, FORK, EXIT, MMAP, MMAP2,
 * KSYMBOL, HEADER_BUILD_ID change it; SAMPLE creates its thread if needed
 * (as perf does).  Other records are ignored.  Returns 0, or
 * PD_STATUS_NOMEM.
 */
int pd_machine_process(struct pd_machine *m, const struct pd_record *rec);

/*
 * Resolve one address of thread `tid` (created if unknown) in `cpumode`.
 * Always fills *f; returns 1 when a symbol was found, 0 otherwise.
 */
int pd_machine_resolve(struct pd_machine *m, int32_t pid, int32_t tid, uint8_t cpumode,
		       uint64_t ip, struct pd_sym_frame *f);

/*
 * The version of everything resolving an address of (pid, tid) in
 * `cpumode` depends on: the thread's address space for user mode, the
 * kernel maps, the kernel's DSOs loaded so far (a user DSO's load changes
 * no frame resolved before it: none is in that DSO).  It changes whenever
 * one of them does, and no two address spaces share one, so
 * pd_machine_resolve() gives the same frame for equal (version, cpumode,
 * ip): callers can cache frames under that key, across threads of a
 * process.  Creates the thread like pd_machine_resolve(); never 0 (0: out
 * of memory).
 */
uint64_t pd_machine_version(struct pd_machine *m, int32_t pid, int32_t tid, uint8_t cpumode);

/* One entry of a sample's stack, before resolution. */
struct pd_sym_ip {
	uint64_t ip;
	uint8_t cpumode;
	/*
	 * A user frame found by DWARF unwinding: set it in the resolved frame
	 * (pd_sym_frame.unwound), it decides pd_machine_inline_frames().
	 */
	bool unwound;
};

/*
 * How a sample's callchain becomes its stack: each output follows the
 * perf tool it is compared with, and those differ on a chain they cannot
 * trust and on a sample without one.  Common to all: the mode starts as
 * user, the markers PERF_CONTEXT_HV/KERNEL/USER switch it and are skipped.
 */
enum pd_stack_rule {
	/*
	 * perf report (to-csv, to-pprof): a chain with an unknown context
	 * marker is dropped as corrupted, at most --max-stack entries are
	 * taken, the user frames unwound from a --call-graph dwarf sample
	 * follow; a sample left without any entry is its own ip in the
	 * sample's cpumode, where perf report charges it.
	 */
	PD_STACK_REPORT = 0,
	/*
	 * perf script (perfsym, to-json --full --symbols): as perf report,
	 * but a sample without a recorded callchain is its own ip (never
	 * unwound), and a dropped chain leaves the stack empty.
	 */
	PD_STACK_SCRIPT,
	/*
	 * perf data convert --to-json (to-json): an unknown marker is
	 * skipped and leaves the mode as it was; every entry up to `max`,
	 * no unwinding; a sample without a callchain is its own ip.  The
	 * machine may be NULL.
	 */
	PD_STACK_CONVERT,
};

/*
 * The stack of a sample, innermost first, as the output following `rule`
 * shows it: the one callchain walk every output uses.  Fills at most
 * `max` entries and returns how many; 0 when `rec` is no decoded sample
 * or `max` is 0.  Resolve each entry with pd_machine_resolve().
 */
size_t pd_machine_sample_stack(struct pd_machine *m, const struct pd_record *rec,
			       enum pd_stack_rule rule, struct pd_sym_ip *out, size_t max);

/*
 * The stack of a sample as perf script shows it (PD_STACK_SCRIPT), each
 * entry resolved: fills at most `max` frames (unwound ones marked) and
 * returns how many.
 */
size_t pd_machine_resolve_sample(struct pd_machine *m, const struct pd_record *rec,
				 struct pd_sym_frame *frames, size_t max);

/*
 * A cache of resolved frames, for outputs that resolve the same addresses
 * over and over, with two levels:
 *   entries  keyed by what pd_machine_version() says a frame depends on,
 *            (version, cpumode, ip, unwound): a map change makes old
 *            entries unreachable instead of wrong, and the threads of a
 *            process share theirs;
 *   sites    below them, keyed by (DSO, address inside it, unwound): the
 *            symbol found there is the same in every process that maps
 *            the DSO (a new process, or a forked copy, misses every entry
 *            but finds the sites its parent filled), so each site is
 *            looked up in the symbol table once.
 * Each entry and each site keeps two words of the caller's, what it made
 * of the frame (a name, a location, rendered text), so that a repeat
 * costs one lookup.  Direct-mapped and bounded; no allocation per stack.
 */
struct pd_frame_cache;

/* keep every entry's frame: pd_frame_ref.frame is set on hits too */
#define PD_FRAME_CACHE_FRAMES	0x1

/* What the cache gives for one stack entry. */
struct pd_frame_ref {
	/*
	 * The caller's two words for the entry: {0, 0} until it sets them.
	 * A nonzero first word says the entry is known; an entry whose
	 * first word is still 0 is resolved again (with its frame).
	 */
	uint64_t *value;
	/*
	 * The caller's two words for the site, {0, 0} until it sets them:
	 * they may only hold what follows from (DSO, address, unwound) and
	 * the symbol there, since other processes share them.  NULL on an
	 * entry hit, and for a frame without a DSO.
	 */
	uint64_t *site;
	/*
	 * The frame (its `unwound` set as the stack entry's): whenever
	 * value[0] is 0, else with PD_FRAME_CACHE_FRAMES only (else NULL).
	 */
	const struct pd_sym_frame *frame;
};

/*
 * A cache resolving through `m`; with m NULL every frame is its bare
 * address (ip only).  Returns 0, PD_STATUS_NOMEM, or PD_STATUS_MALFORMED
 * for flags this version does not know.
 */
int pd_frame_cache_new(struct pd_machine *m, unsigned int flags, struct pd_frame_cache **out);
void pd_frame_cache_free(struct pd_frame_cache *c);

/*
 * Resolve the n entries of a stack of thread (pid, tid): out[i] for st[i],
 * valid until the next call (an entry of the stack never evicts another
 * of the same stack).  Returns how many: n, fewer only when there was no
 * memory for a stack deeper than PD_SYM_MAX_STACK.  When the machine has
 * no memory for the thread the entries are resolved but not kept.
 */
size_t pd_frame_cache_stack(struct pd_frame_cache *c, int32_t pid, int32_t tid,
			    const struct pd_sym_ip *st, size_t n, struct pd_frame_ref *out);

/* Forget every value and site value of the caller's (what they stood for is gone). */
void pd_frame_cache_forget(struct pd_frame_cache *c);

/* perf's printed comm for a thread now (the newest COMM delivered). */
const char *pd_machine_comm(struct pd_machine *m, int32_t pid, int32_t tid);
/* The comm that was current at `time` (last COMM with time <= `time`). */
const char *pd_machine_comm_at(struct pd_machine *m, int32_t tid, uint64_t time);
/* 0 and *out filled, -1 when the tid is unknown. */
int pd_machine_thread(struct pd_machine *m, int32_t tid, struct pd_sym_thread *out);

/* Samples of one event charged to a process (pd_machine_count_sample()). */
struct pd_sym_count {
	uint64_t samples, period;
};

/*
 * A process over the whole recording (opts.processes), keyed by pid: the
 * threads the machine holds come and go with forks and reused tids, this
 * keeps what every record naming the pid said.  Kept are processes named
 * by a COMM, FORK or EXIT of their main thread (pid == tid), a user-mode
 * MMAP, a sample with an event (pid -1: samples without PERF_SAMPLE_TID),
 * or the first sighting of one of their threads.
 */
struct pd_sym_process {
	int32_t pid;
	int32_t ppid;		/* the FORK's, else the main thread's parent */
	bool has_ppid;
	bool has_fork, has_exit;
	uint64_t fork_time, exit_time;	/* of the main thread */
	uint64_t mmaps;		/* user-mode MMAP and MMAP2 records */
	uint32_t threads;	/* tids first seen in this process */
	const char *comm;	/* the name perf reports it under */
	/*
	 * Every name of the main thread in time order (COMMs and the parent's
	 * name at FORK), a repeat of the previous one left out; a name that
	 * comes back is listed again.  At most PD_SYM_MAX_COMMS: then the
	 * first ones and the newest are kept and comms_elided is set.
	 */
	const char *const *comms;
	uint32_t nr_comms;
	bool comms_elided;
	const struct pd_sym_count *counts;	/* by event index */
	size_t nr_counts;
};

#define PD_SYM_MAX_COMMS 256

/*
 * Charge one sample of `rec` (a decoded sample with an event, already
 * given to pd_machine_process()) to its process: event `event_index`
 * with `period` (pd_members.h: a record may stand for several samples).
 * Returns 0, or PD_STATUS_NOMEM; 0 and nothing done without
 * opts.processes.
 */
int pd_machine_count_sample(struct pd_machine *m, const struct pd_record *rec, int event_index,
			    uint64_t period);

typedef void (*pd_sym_process_fn)(void *arg, const struct pd_sym_process *p);

/*
 * Call `fn` for every process kept (opts.processes), by increasing pid.
 * Returns 0, or PD_STATUS_NOMEM (no call made).
 */
int pd_machine_processes(struct pd_machine *m, pd_sym_process_fn fn, void *arg);

/*
 * Source file and line of a resolved frame, with inline frames where the
 * debug info has them.  Needs opts.srcline.  Returns 1 when found, 0 when
 * not, -1 when srcline is off.
 */
int pd_machine_srcline(struct pd_machine *m, const struct pd_sym_frame *f,
		       struct pd_sym_srcline *out);

/* One entry of perf's inline expansion of a frame. */
struct pd_sym_inline {
	const char *name;	/* demangled as perf prints it */
	bool inlined;		/* printed "name (inlined)", without dso; else the frame's symbol */
};

/*
 * The frames perf script shows in place of one user frame found by DWARF
 * unwinding (f->unwound; perf 6.1 expands no other frame, and perf script
 * --no-inline none): the functions inlined at
 * the address, innermost first, then the function around them, from the
 * DWARF of the file the DSO's symbols came from.  Returns 0 when the frame
 * stands as it is (no debug information, no symbol, no file), else the
 * number of entries (at most `max`) that take its place.  An entry named
 * like the frame's symbol is that frame.  Names stay valid until
 * pd_machine_free().
 */
size_t pd_machine_inline_frames(struct pd_machine *m, const struct pd_sym_frame *f,
				struct pd_sym_inline *out, size_t max);

void pd_machine_stats(const struct pd_machine *m, struct pd_sym_stats *out);

/*
 * How often a diagnostic of the symbolizer occurred, given or not: for
 * PD801-PD849 the DSOs concerned, for PD851-PD899 the samples whose
 * unwinding it ended.  0 for any other code.
 */
uint64_t pd_machine_diag_count(const struct pd_machine *m, enum pd_code code);

/*
 * A mangled C++ or Rust name as perf 6.1 prints it (demangled, without
 * the parameters), in memory the caller frees; NULL when the name is
 * neither (or out of memory).  The names of frames and inline frames come
 * demangled already; this is for the raw names of source positions
 * (pd_sym_srcpos.func, binutils' addr2line's names).
 */
char *pd_sym_demangle(const char *name);

/* perf's short name of a DSO path: basename, [mod] for kernel modules. */
const char *pd_dso_short_name(const struct pd_dso *d);
const char *pd_dso_name(const struct pd_dso *d);
enum pd_dso_kind pd_dso_kind(const struct pd_dso *d);
/* Build id (NULL, *size 0 when unknown). */
const uint8_t *pd_dso_build_id(const struct pd_dso *d, size_t *size);

/*
 * Build ids of the files on this machine, without libelf: the first GNU
 * build-id note of an ELF file's note sections, else of its note segments
 * (only a regular file is opened; every read is bounded), and the running
 * kernel's (/sys/kernel/notes).  Each returns the id's size, at most max,
 * or -1 when there is none.
 */
int pd_elf_file_build_id(const char *path, uint8_t *id, size_t max);
int pd_kernel_build_id(uint8_t *id, size_t max);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_PD_SYMBOLS_H */
