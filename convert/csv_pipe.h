/* SPDX-License-Identifier: MIT */
/*
 * csv_pipe.h - hand fixed-size batches of bytes to a second thread.
 *
 * The samples table is the one output of to-csv that is bigger than its
 * input; turning its rows into text takes a quarter of the run.  The
 * thread that reads and resolves writes each row as a small binary record
 * into a batch, and a consumer thread formats and writes finished batches
 * while the next ones fill.  CSV_PIPE_NR batches of CSV_PIPE_BATCH bytes
 * bound the memory; a producer that gets ahead waits.
 *
 * Records never straddle batches.  When no thread can be started the
 * consumer runs on the producer's thread as each batch fills: same output,
 * one core.
 */
#ifndef PERFCONV_CSV_PIPE_H
#define PERFCONV_CSV_PIPE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define CSV_PIPE_BATCH	(256u << 10)
#define CSV_PIPE_NR	4

/* Called with one full batch: `len` bytes of whole records. */
typedef void (*csv_pipe_fn)(void *arg, const unsigned char *data, size_t len);

struct csv_pipe {
	csv_pipe_fn fn;
	void *arg;
	unsigned char *buf[CSV_PIPE_NR];
	size_t len[CSV_PIPE_NR];
	unsigned int fill;	/* batch the producer writes into */
	unsigned int next;	/* batch the consumer takes next */
	unsigned int ready;	/* handed over and not consumed yet */
	bool started;		/* csv_pipe_start() succeeded, csv_pipe_finish() not called */
	bool threaded;		/* a consumer thread runs */
	bool stop;		/* no more batches will come */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* ready changed (either way) or stop */
};

/* Returns 0, or -1 when out of memory. */
int csv_pipe_start(struct csv_pipe *p, csv_pipe_fn fn, void *arg);

/*
 * Room for a record of n bytes (n <= CSV_PIPE_BATCH, multiple of 8 for
 * aligned records), handing the current batch over first when it cannot
 * take it.  The record counts once csv_pipe_commit(p, n) is called.
 */
void *csv_pipe_reserve(struct csv_pipe *p, size_t n);

static inline void csv_pipe_commit(struct csv_pipe *p, size_t n)
{
	p->len[p->fill] += n;
}

/*
 * Hand over what is left, wait until everything is consumed and stop the
 * thread.  Safe to call more than once, and on a pipe never started.
 */
void csv_pipe_finish(struct csv_pipe *p);

#endif /* PERFCONV_CSV_PIPE_H */
