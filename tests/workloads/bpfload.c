/* bpfload.c - loads and unloads a trivial BPF program, for the perf.data
 * corpus (see scripts/make-corpus.sh).
 *
 * usage: bpfload [ms]
 *   Loads a 2-instruction socket-filter BPF program named "corpus_prog"
 *   via the raw bpf(2) syscall, keeps it loaded for <ms> milliseconds
 *   (default 20) while spinning, then closes it. When run under
 *   `perf record` (root), the kernel emits PERF_RECORD_KSYMBOL and
 *   PERF_RECORD_BPF_EVENT records (load and unload) and perf adds
 *   the BPF_PROG_INFO / BPF_BTF header features.
 */
#define _GNU_SOURCE
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static void spin_ms(double ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	double end = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 + ms;
	do {
		for (int i = 0; i < 10000; i++)
			sink = sink * 31 + i;
		clock_gettime(CLOCK_MONOTONIC, &ts);
	} while (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 < end);
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 20;
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (unsigned long)"GPL";
	strncpy(attr.prog_name, "corpus_prog", sizeof(attr.prog_name) - 1);

	int fd = syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0) {
		perror("bpf(BPF_PROG_LOAD)");
		return 1;
	}
	spin_ms(ms);
	close(fd);
	spin_ms(5);
	return 0;
}
