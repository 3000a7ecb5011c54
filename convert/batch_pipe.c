// SPDX-License-Identifier: MIT
/*
 * batch_pipe.c - batches handed to a consumer thread (see batch_pipe.h).
 *
 * The batches form a ring.  `ready` counts the batches handed over and
 * not yet consumed, the one being consumed included, so the producer's
 * batch is free exactly while ready < BATCH_PIPE_NR.  One mutex and one
 * condition variable: each side waits for the other to move `ready`.
 */
#include <stdlib.h>
#include <string.h>

#include "batch_pipe.h"

static void *consumer(void *arg)
{
	struct batch_pipe *p = arg;
	unsigned int i;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->ready && !p->stop)
			pthread_cond_wait(&p->cv, &p->mu);
		if (!p->ready)
			break;
		i = p->next;
		pthread_mutex_unlock(&p->mu);

		p->fn(p->arg, p->buf[i], p->len[i]);

		pthread_mutex_lock(&p->mu);
		p->len[i] = 0;
		p->next = (i + 1) % BATCH_PIPE_NR;
		p->ready--;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

int batch_pipe_start(struct batch_pipe *p, batch_pipe_fn fn, void *arg)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->fn = fn;
	p->arg = arg;
	for (i = 0; i < BATCH_PIPE_NR; i++) {
		p->buf[i] = malloc(BATCH_PIPE_BATCH);
		if (!p->buf[i])
			goto nomem;
	}
	if (pthread_mutex_init(&p->mu, NULL))
		goto nomem;
	if (pthread_cond_init(&p->cv, NULL)) {
		pthread_mutex_destroy(&p->mu);
		goto nomem;
	}
	/* no thread (a limit reached): consume in place, see handover() */
	p->threaded = !pthread_create(&p->thread, NULL, consumer, p);
	p->started = true;
	return 0;

nomem:
	for (i = 0; i < BATCH_PIPE_NR; i++)
		free(p->buf[i]);
	memset(p, 0, sizeof(*p));
	return -1;
}

/* Give the producer's batch to the consumer and move to a free one. */
static void handover(struct batch_pipe *p)
{
	if (!p->threaded) {
		p->fn(p->arg, p->buf[p->fill], p->len[p->fill]);
		p->len[p->fill] = 0;
		return;
	}
	pthread_mutex_lock(&p->mu);
	p->ready++;
	pthread_cond_broadcast(&p->cv);
	p->fill = (p->fill + 1) % BATCH_PIPE_NR;
	while (p->ready == BATCH_PIPE_NR)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

void *batch_pipe_reserve(struct batch_pipe *p, size_t n)
{
	if (BATCH_PIPE_BATCH - p->len[p->fill] < n)
		handover(p);
	return p->buf[p->fill] + p->len[p->fill];
}

void batch_pipe_sync(struct batch_pipe *p)
{
	if (!p->started)
		return;
	if (p->len[p->fill])
		handover(p);
	if (!p->threaded)
		return;
	pthread_mutex_lock(&p->mu);
	while (p->ready)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

void batch_pipe_finish(struct batch_pipe *p)
{
	unsigned int i;

	if (!p->started)
		return;
	if (p->len[p->fill])
		handover(p);
	if (p->threaded) {
		pthread_mutex_lock(&p->mu);
		p->stop = true;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->thread, NULL);
	}
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	for (i = 0; i < BATCH_PIPE_NR; i++)
		free(p->buf[i]);
	memset(p, 0, sizeof(*p));
}
