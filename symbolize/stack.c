// SPDX-License-Identifier: MIT
/*
 * stack.c - the stack of a sample as every symbolized output shows it.
 *
 * One walk for all writers (perfsym, to-csv's samples, functions and
 * folded tables, to-pprof, both forms of to-json), so that their stacks
 * cannot disagree.  Where the perf tools an output is compared with
 * differ (an unknown context marker, a sample without a chain), the
 * caller names the rule (enum pd_stack_rule).  Writers that resolve
 * the same frames over and over keep their own cache of resolved frames;
 * perfsym and to-json --full --symbols resolve each stack as it comes
 * (pd_machine_resolve_sample()).
 */
#include "perfdata/pd_symbols.h"
#include "perfdata/pd_consts.h"
#include "sym_internal.h"

/*
 * The walk, inline in its two callers so that pd_machine_resolve_sample()
 * has its rule as a constant; *nrec: how many entries come from the
 * recorded chain (the unwound ones follow them).
 */
static inline __attribute__((always_inline)) size_t
sample_stack(struct pd_machine *m, const struct pd_record *rec, enum pd_stack_rule rule,
	     struct pd_sym_ip *out, size_t max, size_t *nrec)
{
	const uint64_t unwind_need = PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;
	const struct pd_sample *s = &rec->u.sample;
	uint8_t mode = PD_CPUMODE_USER;
	size_t n = 0, chain_max;
	uint64_t i;

	*nrec = 0;
	if (rec->type != PD_REC_SAMPLE || !rec->decoded || max == 0)
		return 0;
	/* the sample whose stack loads files and is unwound: diagnostics name it */
	if (m)
		pd_sym_at_record(pd_machine_env(m), rec);
	if (!(s->sample_type & PD_SAMPLE_CALLCHAIN) && rule != PD_STACK_REPORT) {
		/* perf script and perf's JSON print the sample ip alone */
		out[0].ip = s->ip;
		out[0].cpumode = rec->misc & PD_MISC_CPUMODE_MASK;
		out[0].unwound = false;
		*nrec = 1;
		return 1;
	}
	/* perf data convert has no --max-stack */
	chain_max = max;
	if (rule != PD_STACK_CONVERT) {
		chain_max = PD_SYM_MAX_FRAMES;
		if (m && pd_machine_opts(m)->max_stack)
			chain_max = pd_machine_opts(m)->max_stack;
	}
	if ((s->sample_type & PD_SAMPLE_CALLCHAIN) && s->callchain) {
		/*
		 * Every entry kept counts against both limits (a dropped
		 * chain ends the walk), so one bound does; the chain in
		 * locals, as stores to out[] might otherwise be its length.
		 */
		const uint64_t *chain = s->callchain;
		uint64_t nr = s->callchain_nr;
		size_t lim = max < chain_max ? max : chain_max;

		for (i = 0; i < nr && n < lim; i++) {
			uint64_t ip = chain[i];

			if (ip >= PD_CONTEXT_MAX) {
				if (ip == PD_CONTEXT_HV) {
					mode = PD_CPUMODE_HYPERVISOR;
				} else if (ip == PD_CONTEXT_KERNEL) {
					mode = PD_CPUMODE_KERNEL;
				} else if (ip == PD_CONTEXT_USER) {
					mode = PD_CPUMODE_USER;
				} else if (rule != PD_STACK_CONVERT) {
					/* corrupted or guest chain: perf drops it */
					n = 0;
					break;
				}
				/* perf's JSON skips other markers, the mode as it was */
				continue;
			}
			out[n].ip = ip;
			out[n].cpumode = mode;
			out[n].unwound = false;
			n++;
		}
	}
	*nrec = n;
	if (rule == PD_STACK_CONVERT || !m)
		return n;
	/*
	 * perf joins the user frames unwound from a dwarf sample after the
	 * recorded chain (which then holds the kernel part only: perf record
	 * sets exclude_callchain_user), also after a chain it dropped.  A
	 * sample without the registers and the stack copy has none.
	 */
	if (n < max && (s->sample_type & unwind_need) == unwind_need) {
		size_t nu = pd_unwind_sample(m, rec, out + n, max - n);

		for (i = 0; i < nu; i++)
			out[n + i].unwound = true;
		n += nu;
	}
	if (!n && rule == PD_STACK_REPORT) {
		/* no usable chain: the sample's own ip, as perf report charges it */
		out[0].ip = s->ip;
		out[0].cpumode = rec->misc & PD_MISC_CPUMODE_MASK;
		out[0].unwound = false;
		*nrec = n = 1;
	}
	return n;
}

size_t pd_machine_sample_stack(struct pd_machine *m, const struct pd_record *rec,
			       enum pd_stack_rule rule, struct pd_sym_ip *out, size_t max)
{
	size_t nrec;

	return sample_stack(m, rec, rule, out, max, &nrec);
}

size_t pd_machine_resolve_sample(struct pd_machine *m, const struct pd_record *rec,
				 struct pd_sym_frame *frames, size_t max)
{
	const struct pd_sample *s = &rec->u.sample;
	struct pd_sym_ip st[PD_SYM_MAX_STACK];
	int32_t pid = -1, tid = -1;
	size_t n, nrec;

	n = sample_stack(m, rec, PD_STACK_SCRIPT, st,
			 max < PD_SYM_MAX_STACK ? max : PD_SYM_MAX_STACK, &nrec);
	if (!n)
		return 0;
	if (s->sample_type & PD_SAMPLE_TID) {
		pid = (int32_t)s->pid;
		tid = (int32_t)s->tid;
	}
	pd_machine_resolve_ips(m, pid, tid, st, nrec, frames);
	/* those are the unwinder's thread's: the sample's, whatever sample_type says */
	if (nrec < n)
		pd_machine_resolve_ips(m, (int32_t)s->pid, (int32_t)s->tid, st + nrec, n - nrec,
				       frames + nrec);
	return n;
}
