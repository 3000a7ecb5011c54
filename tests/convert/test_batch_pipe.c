// SPDX-License-Identifier: MIT
/*
 * test_batch_pipe.c - the batch hand-over behind the samples table of
 * perfconv to-csv (convert/batch_pipe.c): every record arrives once, whole,
 * in order, batches never exceed their size, a producer far ahead of a
 * slow consumer waits instead of overwriting, and finishing flushes the
 * last partial batch and may be repeated.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <CUnit/CUnit.h>

#include "convert/batch_pipe.h"
#include "test_suites.h"

struct sink {
	uint64_t next;		/* sequence number expected next */
	uint64_t bytes;
	uint64_t batches;
	uint64_t bad;		/* records out of order or damaged */
	size_t largest;
	bool slow;
};

/* A record: its size, a sequence number, then bytes derived from both. */
static size_t rec_size(uint64_t seq)
{
	return 16 + 8 * (size_t)(seq * 7919 % 97);
}

static void consume(void *arg, const unsigned char *data, size_t len)
{
	struct sink *sk = arg;
	size_t at = 0, i;

	sk->batches++;
	if (len > sk->largest)
		sk->largest = len;
	if (sk->slow) {
		struct timespec ts = { 0, 200000 };

		nanosleep(&ts, NULL);
	}
	while (at < len) {
		uint64_t size, seq;

		memcpy(&size, data + at, 8);
		memcpy(&seq, data + at + 8, 8);
		if (seq != sk->next || size != rec_size(seq) || size > len - at) {
			sk->bad++;
			return;
		}
		for (i = 16; i < size; i++)
			if (data[at + i] != (unsigned char)(seq + i))
				sk->bad++;
		sk->next++;
		sk->bytes += size;
		at += size;
	}
}

static void produce(struct batch_pipe *p, uint64_t from, uint64_t to)
{
	uint64_t seq, size;
	size_t i;

	for (seq = from; seq < to; seq++) {
		unsigned char *r;

		size = rec_size(seq);
		r = batch_pipe_reserve(p, size);
		memcpy(r, &size, 8);
		memcpy(r + 8, &seq, 8);
		for (i = 16; i < size; i++)
			r[i] = (unsigned char)(seq + i);
		batch_pipe_commit(p, size);
	}
}

static void run(bool slow, uint64_t n)
{
	struct batch_pipe p;
	struct sink sk;
	uint64_t want = 0, seq;

	memset(&sk, 0, sizeof(sk));
	sk.slow = slow;
	CU_ASSERT_EQUAL_FATAL(batch_pipe_start(&p, consume, &sk), 0);
	produce(&p, 0, n);
	batch_pipe_finish(&p);
	for (seq = 0; seq < n; seq++)
		want += rec_size(seq);
	CU_ASSERT_EQUAL(sk.bad, 0);
	CU_ASSERT_EQUAL(sk.next, n);
	CU_ASSERT_EQUAL(sk.bytes, want);
	CU_ASSERT(sk.largest <= BATCH_PIPE_BATCH);
	/* whole batches only, but full ones: no more than one per batch size, plus one */
	CU_ASSERT(sk.batches <= want / (BATCH_PIPE_BATCH - 16 - 8 * 96) + 1);
	/* finishing again (the error paths do) is harmless */
	batch_pipe_finish(&p);
	CU_ASSERT_EQUAL(sk.next, n);
}

static void test_many(void)
{
	/* ~100 MB: hundreds of hand-overs around the ring */
	run(false, 2000000);
}

static void test_slow_consumer(void)
{
	/* the producer laps the ring and must wait for each batch */
	run(true, 200000);
}

static void test_empty_and_tiny(void)
{
	struct batch_pipe p;
	struct sink sk;

	memset(&sk, 0, sizeof(sk));
	CU_ASSERT_EQUAL_FATAL(batch_pipe_start(&p, consume, &sk), 0);
	batch_pipe_finish(&p);
	CU_ASSERT_EQUAL(sk.batches, 0);

	run(false, 1);
	/* never started: finishing does nothing */
	memset(&p, 0, sizeof(p));
	batch_pipe_finish(&p);
}

int pd_test_register_batch_pipe(void)
{
	CU_pSuite s = CU_add_suite("batch_pipe", NULL, NULL);

	if (!s)
		return -1;
	if (!CU_add_test(s, "two million records in order", test_many) ||
	    !CU_add_test(s, "slow consumer, producer waits", test_slow_consumer) ||
	    !CU_add_test(s, "empty pipe, one record, finish twice", test_empty_and_tiny))
		return -1;
	return 0;
}
