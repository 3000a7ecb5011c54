// SPDX-License-Identifier: MIT
/*
 * symprog.c - workload recorded by tests/symbolize/symbols.sh.
 *
 * Built as PIE with -g and as non-PIE without -g.  It spends its time in
 * a few named functions, a deep recursion, PLT calls into libc and into
 * libsymtest.so, in a second thread and in the main one, then forks: the child renames itself (prctl) and execs a
 * copy of the program under another name (an exec comm), which runs a
 * short phase of its own.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

unsigned long symlib_mix(const char *s, unsigned long n);

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf_work(unsigned long x)
{
	unsigned long i;

	for (i = 0; i < 400; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

__attribute__((noinline)) unsigned long recurse(int depth, unsigned long x)
{
	if (depth == 0)
		return leaf_work(x);
	return recurse(depth - 1, x + (unsigned long)depth) ^ (unsigned long)depth;
}

__attribute__((noinline)) static unsigned long string_work(unsigned long x)
{
	char buf[256];
	int i;

	for (i = 0; i < 64; i++) {
		snprintf(buf, sizeof(buf), "item-%lu-%d", x, i);
		x += strlen(buf) + symlib_mix(buf, x);
	}
	return x;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void phase(const char *what, double seconds)
{
	double end = now() + seconds;
	unsigned long x = 1, n = 0;

	while (now() < end) {
		x = recurse(100, x);
		x = string_work(x);
		n++;
	}
	sink = x + n;
	(void)what;
}

static void *thread_main(void *arg)
{
	phase("thread", 0.3);
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t th;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "child")) {
		phase("child", 0.3);
		return 0;
	}
	if (pthread_create(&th, NULL, thread_main, NULL) == 0)
		pthread_join(th, NULL);
	phase("parent", 0.3);
	pid = fork();
	if (pid == 0) {
		char self[4096];
		ssize_t n;

		prctl(PR_SET_NAME, "symprog-renamed");
		phase("renamed", 0.3);
		n = readlink("/proc/self/exe", self, sizeof(self) - 16);
		if (n < 0)
			_exit(1);
		self[n] = '\0';
		strcat(self, "-exec");
		execl(self, "symprog-exec", "child", (char *)NULL);
		_exit(1);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return 0;
}
