/* forkexec.c - tiny process-lifecycle workload for the perf.data corpus
 * (see scripts/make-corpus.sh).
 *
 * usage: forkexec [spin-binary] [ms]
 *   Starts a thread that spins briefly, forks a child that exec()s
 *   <spin-binary> (default: /bin/true) with <ms> as argument, waits for it,
 *   and exits. This produces COMM (incl. exec), FORK, EXIT, MMAP/MMAP2,
 *   context switches and namespaces records.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static void spin_ms(double ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	double end = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 + ms;
	for (;;) {
		for (int i = 0; i < 10000; i++)
			sink = sink * 31 + i;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 >= end)
			break;
	}
}

static void *worker(void *arg)
{
	(void)arg;
	spin_ms(20);
	usleep(1000);
	spin_ms(10);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *prog = argc > 1 ? argv[1] : "/bin/true";
	const char *ms = argc > 2 ? argv[2] : "30";
	pthread_t t;

	pthread_create(&t, NULL, worker, NULL);
	spin_ms(10);

	pid_t pid = fork();
	if (pid == 0) {
		execl(prog, prog, ms, "16", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);

	pthread_join(t, NULL);
	usleep(1000);
	spin_ms(10);
	return 0;
}
