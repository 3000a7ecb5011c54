/* SPDX-License-Identifier: MIT */
/*
 * batch_pipe.h - hand fixed-size batches of bytes to a second thread.
 *
 * The text outputs of perfconv (the to-csv samples table, the to-json
 * document) are bigger than their input; turning samples into text takes
 * a third of the run.  The thread that reads and resolves writes each
 * sample as a small binary record into a batch, and a consumer thread
 * formats and writes finished batches while the next ones fill.
 * BATCH_PIPE_NR batches of BATCH_PIPE_BATCH bytes bound the memory; a
 * producer that gets ahead waits.
 *
 * Records never straddle batches.  When no thread can be started the
 * consumer runs on the producer's thread as each batch fills: same output,
 * one core.
 */
#ifndef PERFCONV_BATCH_PIPE_H
#define PERFCONV_BATCH_PIPE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define BATCH_PIPE_BATCH	(256u << 10)
#define BATCH_PIPE_NR	4

/* Called with one full batch: `len` bytes of whole records. */
typedef void (*batch_pipe_fn)(void *arg, const unsigned char *data, size_t len);

struct batch_pipe {
	batch_pipe_fn fn;
	void *arg;
	unsigned char *buf[BATCH_PIPE_NR];
	size_t len[BATCH_PIPE_NR];
	unsigned int fill;	/* batch the producer writes into */
	unsigned int next;	/* batch the consumer takes next */
	unsigned int ready;	/* handed over and not consumed yet */
	bool started;		/* batch_pipe_start() succeeded, batch_pipe_finish() not called */
	bool threaded;		/* a consumer thread runs */
	bool stop;		/* no more batches will come */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* ready changed (either way) or stop */
};

/* Returns 0, or -1 when out of memory. */
int batch_pipe_start(struct batch_pipe *p, batch_pipe_fn fn, void *arg);

/*
 * Room for a record of n bytes (n <= BATCH_PIPE_BATCH, multiple of 8 for
 * aligned records), handing the current batch over first when it cannot
 * take it.  The record counts once batch_pipe_commit(p, n) is called.
 */
void *batch_pipe_reserve(struct batch_pipe *p, size_t n);

static inline void batch_pipe_commit(struct batch_pipe *p, size_t n)
{
	p->len[p->fill] += n;
}

/*
 * Hand over what is left and wait until everything is consumed: the
 * consumer is idle, and what it wrote and the state it used are the
 * producer's again until the next record is handed over.
 */
void batch_pipe_sync(struct batch_pipe *p);

/*
 * Hand over what is left, wait until everything is consumed and stop the
 * thread.  Safe to call more than once, and on a pipe never started.
 */
void batch_pipe_finish(struct batch_pipe *p);

#endif /* PERFCONV_BATCH_PIPE_H */
