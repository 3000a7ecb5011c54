// SPDX-License-Identifier: MIT
/*
 * selwork.c - workload recorded by tests/lib/select.sh: several processes and
 * threads with their own command names, spread over the CPUs.
 *
 *	selwork [MS]		the parent: forks three children and spins
 *	selwork child I MS	what each child runs (child 2 through exec)
 *
 * Child I pins itself to CPU I % ncpu, names itself "selwork-I" (prctl)
 * and starts a thread pinned to the next CPU that names itself
 * "selthr-I".  Child 2 first execs ./selexec (a copy of this program made
 * by the test), so its command is the exec name and its thread inherits
 * that name through the fork instead of choosing one.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static int ncpu = 1;
static double spin_ms = 60;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void spin(double ms)
{
	double end = now_ms() + ms;
	int i;

	while (now_ms() < end)
		for (i = 0; i < 10000; i++)
			sink = sink * 31 + (unsigned long)i;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % ncpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

struct targ {
	int idx;
	int rename;
};

static void *thread_main(void *p)
{
	const struct targ *a = p;
	char name[16];

	pin(a->idx + 1);
	if (a->rename) {
		snprintf(name, sizeof(name), "selthr-%d", a->idx);
		prctl(PR_SET_NAME, name, 0, 0, 0);
	}
	spin(spin_ms);
	return NULL;
}

static int child(int idx, int rename)
{
	struct targ a = { idx, rename };
	pthread_t t;
	char name[16];

	pin(idx);
	if (rename) {
		snprintf(name, sizeof(name), "selwork-%d", idx);
		prctl(PR_SET_NAME, name, 0, 0, 0);
	}
	if (pthread_create(&t, NULL, thread_main, &a))
		return 1;
	spin(spin_ms);
	pthread_join(t, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	char ms[32];
	int i;

	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	if (argc > 3 && !strcmp(argv[1], "child")) {
		spin_ms = atof(argv[3]);
		return child(atoi(argv[2]), 0);
	}
	if (argc > 1)
		spin_ms = atof(argv[1]);
	snprintf(ms, sizeof(ms), "%g", spin_ms);
	for (i = 0; i < 3; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid)
			continue;
		if (i == 2) {
			execl("./selexec", "selexec", "child", "2", ms, (char *)NULL);
			_exit(127);
		}
		_exit(child(i, 1));
	}
	pin(0);
	spin(spin_ms / 2);
	for (i = 0; i < 3; i++)
		wait(NULL);
	return 0;
}
