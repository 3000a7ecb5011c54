// SPDX-License-Identifier: MIT
/*
 * uwprog.c - workload of tests/symbolize/unwind.sh, built with -O2 and
 * without frame pointers: a call chain in the program, calls through a shared
 * library and back, a shallow and a deep recursion (deeper than the 8 KiB
 * stack copy), and a signal handler that burns time, interrupting a loop
 * that calls the library through the PLT (with a short stack copy, the
 * stub's return address lies past its end: perf's frame of 0 - 1).
 */
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

void uwlib_work(int n);
void uwlib_call(void (*cb)(int), int n);
unsigned long uwlib_tiny(unsigned long x);

volatile unsigned long sink;
static volatile int handled;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void leaf(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i * 7u;
}

__attribute__((noinline)) void mid(int n)
{
	leaf(n);
	sink++;
}

__attribute__((noinline)) void top(int n)
{
	mid(n);
	sink++;
}

__attribute__((noinline)) void callback(int n)
{
	leaf(n);
	sink++;
}

__attribute__((noinline)) unsigned long recurse(int depth, int n)
{
	unsigned long r;

	if (depth == 0) {
		leaf(n);
		return sink;
	}
	r = recurse(depth - 1, n) + (unsigned long)depth;
	sink += r;
	return r;
}

__attribute__((noinline)) static void in_handler(int n)
{
	leaf(n);
}

static void on_alarm(int sig)
{
	(void)sig;
	in_handler(200000);
	handled++;
}

int main(void)
{
	struct itimerval it;
	struct sigaction sa;
	double end;
	unsigned long x = 1;

	end = now() + 0.25;
	while (now() < end)
		top(20000);
	end = now() + 0.25;
	while (now() < end) {
		uwlib_work(20000);
		uwlib_call(callback, 20000);
	}
	end = now() + 0.25;
	while (now() < end)
		recurse(20, 20000);
	end = now() + 0.25;
	while (now() < end)
		recurse(600, 20000);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 2000;
	it.it_value.tv_usec = 2000;
	setitimer(ITIMER_REAL, &it, NULL);
	end = now() + 0.25;
	while (now() < end)
		for (int i = 0; i < 1000; i++)
			x = uwlib_tiny(x);
	sink += x;
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	return handled > 0 ? 0 : 1;
}
