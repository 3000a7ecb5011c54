// SPDX-License-Identifier: MIT
/*
 * fuzz_unwind.c - libFuzzer target for the DWARF unwinder
 * (symbolize/unwind.c): samples with hostile user registers and stack
 * copies, unwound with the real call frame information of this very
 * program.
 *
 * One machine lives across inputs (so the per-process Dwfl and the result
 * cache are exercised as in a long recording): process 1 has this
 * program's executable mapping at a fixed address, so that return
 * addresses the fuzzer finds stay valid from one run to the next.  An
 * input is:
 *	byte 0		flags: ABI (bits 0-1), register mask kind (bit 2),
 *			ip and sp placed inside the mapping and the copy
 *			(bit 3), a dyn_size larger than the copy (bit 4), a
 *			register count that does not match the mask (bit 5)
 *	24 x 8 bytes	register values (missing bytes are zero)
 *	the rest	the stack copy
 * Every sample goes through pd_machine_sample_stack(),
 * pd_machine_resolve_sample() and the inline expansion; the number of
 * frames must stay within the bounds, nothing may crash or hang.
 *
 * Build and run: make fuzz-writers-run FUZZ_SECONDS=N (target fuzz-unwind)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata/pd_consts.h"
#include "perfdata/pd_symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAP_BASE	0x400000000ULL	/* where the program's text is mapped */
#define STACK_BASE	0x7ff000000000ULL
#define NREGS		24		/* x86_64: sample_regs_user 0xff0fff */

static struct pd_machine *m;
static uint64_t text_len, text_pgoff;
static char exe[4096];
static uint64_t sink;

static void touch(const char *s)
{
	if (s)
		while (*s)
			sink += (unsigned char)*s++;
}

/* This program's executable mapping: file offset and size. */
static int find_text(void)
{
	char line[4096 + 128];
	FILE *f = fopen("/proc/self/maps", "re");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (!f || n <= 0)
		return -1;
	exe[n] = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perm[8], path[4096];

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e, perm, &off, path) != 5)
			continue;
		if (perm[2] == 'x' && !strcmp(path, exe)) {
			text_len = e - s;
			text_pgoff = off;
			break;
		}
	}
	fclose(f);
	return text_len ? 0 : -1;
}

static void setup(void)
{
	struct pd_sym_opts so = PD_SYM_OPTS_INIT;
	struct pd_record r;

	so.no_kernel = true;
	if (find_text() < 0 || pd_machine_new(&so, &m) < 0)
		abort();
	memset(&r, 0, sizeof(r));
	r.type = PD_REC_COMM;
	r.decoded = true;
	r.u.comm.pid = 1;
	r.u.comm.tid = 1;
	r.u.comm.comm = "fuzz";
	pd_machine_process(m, &r);
	memset(&r, 0, sizeof(r));
	r.type = PD_REC_MMAP2;
	r.misc = PD_CPUMODE_USER;
	r.decoded = true;
	r.u.mmap.pid = 1;
	r.u.mmap.tid = 1;
	r.u.mmap.start = MAP_BASE;
	r.u.mmap.len = text_len;
	r.u.mmap.pgoff = text_pgoff;
	r.u.mmap.prot = 5;
	r.u.mmap.filename = exe;
	if (pd_machine_process(m, &r) < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pd_sym_frame frames[PD_SYM_MAX_STACK];
	static struct pd_sym_ip st[PD_SYM_MAX_STACK];
	static uint64_t regs[NREGS];
	static uint8_t stack[64 << 10];
	struct pd_sym_inline in[PD_SYM_MAX_INLINE + 1];
	struct pd_record r;
	uint8_t flags;
	size_t n, i, k, left;

	if (!m)
		setup();
	if (size < 1)
		return 0;
	flags = data[0];
	data++;
	size--;
	memset(regs, 0, sizeof(regs));
	k = size < sizeof(regs) ? size : sizeof(regs);
	memcpy(regs, data, k);
	data += k;
	size -= k;
	if (flags & 8) {
		/* ip in the program's text, sp inside the copy */
		regs[8] = MAP_BASE + regs[8] % text_len;
		regs[7] = STACK_BASE + (regs[7] % 64) * 8;
	}
	left = size < sizeof(stack) ? size : sizeof(stack);
	memcpy(stack, data, left);

	memset(&r, 0, sizeof(r));
	r.type = PD_REC_SAMPLE;
	r.misc = PD_CPUMODE_USER;
	r.decoded = true;
	r.u.sample.sample_type = PD_SAMPLE_TID | PD_SAMPLE_IP | PD_SAMPLE_CALLCHAIN |
				 PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;
	r.u.sample.pid = 1;
	r.u.sample.tid = 1;
	r.u.sample.ip = regs[8];
	r.u.sample.regs_user.abi = flags & 3;
	r.u.sample.regs_user.mask = (flags & 4) ? 0x1ffULL : 0xff0fffULL;
	r.u.sample.regs_user.nr = (uint32_t)__builtin_popcountll(r.u.sample.regs_user.mask);
	if (flags & 32)
		r.u.sample.regs_user.nr--;
	r.u.sample.regs_user.regs = regs;
	r.u.sample.stack_size = left;
	r.u.sample.stack_data = stack;
	r.u.sample.stack_dyn_size = (flags & 16) ? left + 8 : left;

	n = pd_machine_sample_stack(m, &r, PD_STACK_REPORT, st, PD_SYM_MAX_STACK);
	if (n > PD_SYM_MAX_STACK)
		abort();
	for (i = 0; i < n; i++)
		sink += st[i].ip;
	n = pd_machine_resolve_sample(m, &r, frames, PD_SYM_MAX_STACK);
	if (n > PD_SYM_MAX_STACK)
		abort();
	for (i = 0; i < n; i++) {
		size_t ni = pd_machine_inline_frames(m, &frames[i], in, PD_SYM_MAX_INLINE + 1), j;

		touch(frames[i].sym);
		for (j = 0; j < ni; j++)
			touch(in[j].name);
	}
	return 0;
}
