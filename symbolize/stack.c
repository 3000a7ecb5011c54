// SPDX-License-Identifier: MIT
/*
 * stack.c - the stack of a sample as every symbolized output shows it.
 *
 * One walk for all writers (to-csv's samples, functions and folded
 * tables, to-pprof), so that their stacks cannot disagree.  Resolution is
 * left to the caller: each writer keeps its own cache of resolved frames.
 */
#include "perfdata/pd_symbols.h"
#include "perfdata/pd_consts.h"
#include "sym_internal.h"

size_t pd_machine_sample_stack(struct pd_machine *m, const struct pd_record *rec,
			       struct pd_sym_ip *out, size_t max)
{
	const struct pd_sample *s = &rec->u.sample;
	uint8_t mode = PD_CPUMODE_USER;
	size_t n = 0, chain_max, ncall = 0;
	uint64_t i;

	if (rec->type != PD_REC_SAMPLE || !rec->decoded || max == 0)
		return 0;
	chain_max = pd_machine_opts(m)->max_stack ? pd_machine_opts(m)->max_stack : PD_SYM_MAX_FRAMES;
	if (s->sample_type & PD_SAMPLE_CALLCHAIN) {
		for (i = 0; i < s->callchain_nr && n < max && ncall < chain_max; i++) {
			uint64_t ip = s->callchain[i];

			if (ip >= PD_CONTEXT_MAX) {
				if (ip == PD_CONTEXT_HV) {
					mode = PD_CPUMODE_HYPERVISOR;
				} else if (ip == PD_CONTEXT_KERNEL) {
					mode = PD_CPUMODE_KERNEL;
				} else if (ip == PD_CONTEXT_USER) {
					mode = PD_CPUMODE_USER;
				} else {
					/* corrupted or guest chain: perf drops it */
					n = 0;
					break;
				}
				continue;
			}
			out[n].ip = ip;
			out[n].cpumode = mode;
			out[n].unwound = false;
			n++;
			ncall++;
		}
	}
	/*
	 * perf joins the user frames unwound from a dwarf sample after the
	 * recorded chain (which then holds the kernel part only: perf record
	 * sets exclude_callchain_user), also after a chain it dropped.
	 */
	if (n < max) {
		size_t nu = pd_unwind_sample(m, rec, out + n, max - n), j;

		for (j = n; j < n + nu; j++)
			out[j].unwound = true;
		n += nu;
	}
	if (!n) {
		/* no usable chain: the sample's own ip, as perf report charges it */
		out[0].ip = s->ip;
		out[0].cpumode = rec->misc & PD_MISC_CPUMODE_MASK;
		out[0].unwound = false;
		n = 1;
	}
	return n;
}
