// SPDX-License-Identifier: MIT
/*
 * proto_event.c - encode one decoded record as the body of a quipper
 * PerfEvent message (schema/perf_data.proto).
 *
 * The numbers in the pw_*() calls are the schema's field numbers; each
 * message's encoder lists its fields in field-number order so that the
 * code reads side by side with the schema.
 */
#include <stdlib.h>
#include <string.h>

#include "proto_event.h"

/* PerfEvent */
enum {
	EV_HEADER = 1,
	EV_MMAP = 2,
	EV_SAMPLE = 3,
	EV_COMM = 4,
	EV_FORK = 5,
	EV_LOST = 6,
	EV_THROTTLE = 7,
	EV_READ = 8,
	EV_EXIT = 9,
	EV_TIMESTAMP = 10,
	EV_AUX = 11,
	EV_AUXTRACE = 12,
	EV_ITRACE_START = 13,
	EV_LOST_SAMPLES = 14,
	EV_CONTEXT_SWITCH = 15,
	EV_NAMESPACES = 16,
	EV_TIME_CONV = 17,
	EV_AUXTRACE_INFO = 18,
	EV_AUXTRACE_ERROR = 19,
	EV_THREAD_MAP = 20,
	EV_STAT_CONFIG = 21,
	EV_STAT = 22,
	EV_STAT_ROUND = 23,
	EV_CGROUP = 24,
	EV_KSYMBOL = 25,
	EV_ID_INDEX = 26,
	EV_BPF_METADATA = 27,
	EV_OFFSET = 1000,
	EV_FROM_COMPRESSED = 1001,
	EV_BPF_EVENT = 1002,
	EV_TEXT_POKE = 1003,
	EV_AUX_OUTPUT_HW_ID = 1004,
	EV_CALLCHAIN_DEFERRED = 1005,
	EV_CPU_MAP = 1006,
	EV_EVENT_UPDATE = 1007,
	EV_SCHEDSTAT = 1008,
	EV_SIMPLEPERF = 1009,
	EV_RAW = 1020,
};

#define SID_BITS (PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID | \
		  PD_SAMPLE_CPU | PD_SAMPLE_IDENTIFIER)

bool pe_quipper_keeps(uint32_t type)
{
	switch (type) {
	case PD_REC_MMAP: case PD_REC_LOST: case PD_REC_COMM: case PD_REC_EXIT:
	case PD_REC_THROTTLE: case PD_REC_UNTHROTTLE: case PD_REC_FORK:
	case PD_REC_SAMPLE: case PD_REC_MMAP2: case PD_REC_AUX:
	case PD_REC_ITRACE_START: case PD_REC_LOST_SAMPLES: case PD_REC_SWITCH:
	case PD_REC_SWITCH_CPU_WIDE: case PD_REC_NAMESPACES: case PD_REC_KSYMBOL:
	case PD_REC_CGROUP:
	case PD_REC_FINISHED_ROUND: case PD_REC_ID_INDEX: case PD_REC_AUXTRACE_INFO:
	case PD_REC_AUXTRACE: case PD_REC_AUXTRACE_ERROR: case PD_REC_THREAD_MAP:
	case PD_REC_STAT_CONFIG: case PD_REC_STAT: case PD_REC_STAT_ROUND:
	case PD_REC_TIME_CONV: case PD_REC_BPF_METADATA:
		return true;
	default:
		return false;
	}
}

/* Record types whose message has a sample_info (filled from the sample_id trailer). */
static bool carries_sample_info(uint32_t type)
{
	switch (type) {
	case PD_REC_MMAP: case PD_REC_LOST: case PD_REC_COMM: case PD_REC_EXIT:
	case PD_REC_THROTTLE: case PD_REC_UNTHROTTLE: case PD_REC_FORK: case PD_REC_READ:
	case PD_REC_MMAP2: case PD_REC_AUX: case PD_REC_ITRACE_START:
	case PD_REC_LOST_SAMPLES: case PD_REC_SWITCH: case PD_REC_SWITCH_CPU_WIDE:
	case PD_REC_NAMESPACES: case PD_REC_KSYMBOL: case PD_REC_BPF_EVENT:
	case PD_REC_CGROUP: case PD_REC_TEXT_POKE: case PD_REC_AUX_OUTPUT_HW_ID:
	case PD_REC_CALLCHAIN_DEFERRED: case PD_REC_BPF_METADATA:
		return true;
	default:
		return false;
	}
}

uint64_t pe_timestamp(const struct pd_record *rec)
{
	if (!rec->decoded)
		return 0;
	if (rec->type == PD_REC_SAMPLE)
		return rec->u.sample.sample_type & PD_SAMPLE_TIME ? rec->u.sample.time : 0;
	if (carries_sample_info(rec->type) && rec->has_trailer &&
	    (rec->sid.present & PD_SAMPLE_TIME))
		return rec->sid.time;
	return 0;
}

/*
 * SampleInfo.  quipper writes the message for every record type that can
 * carry a trailer, empty when the recording has no sample_id_all.
 */
static void enc_sample_info(struct pw_buf *b, unsigned int field, bool has_trailer,
			    const struct pd_sample_id *sid)
{
	size_t m = pw_open(b, field);

	if (has_trailer) {
		uint64_t p = sid->present;

		if (p & PD_SAMPLE_TID) {
			pw_u64(b, 1, sid->pid);
			pw_u64(b, 2, sid->tid);
		}
		if (p & PD_SAMPLE_TIME)
			pw_u64(b, 3, sid->time);
		if (p & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER))
			pw_u64(b, 4, sid->id);
		if (p & PD_SAMPLE_CPU)
			pw_u64(b, 5, sid->cpu);
		if (p & PD_SAMPLE_STREAM_ID)
			pw_u64(b, 6, sid->stream_id);
	}
	pw_close(b, m);
}

static void enc_si(struct pw_buf *b, unsigned int field, const struct pd_record *rec)
{
	enc_sample_info(b, field, rec->has_trailer, &rec->sid);
}

static void hex20(char *out, const uint8_t *id, unsigned int n)
{
	static const char hx[] = "0123456789abcdef";
	unsigned int i;

	for (i = 0; i < n; i++) {
		out[2 * i] = hx[id[i] >> 4];
		out[2 * i + 1] = hx[id[i] & 15];
	}
	out[2 * n] = '\0';
}

void pe_mmap_from_record(struct pe_mmap *m, const struct pd_record *rec, char *rootbuf,
			 size_t rootsize)
{
	const struct pd_rec_mmap *r = &rec->u.mmap;

	memset(m, 0, sizeof(*m));
	m->type = rec->type;
	m->misc = rec->misc;
	m->size = rec->size;
	m->pid = r->pid;
	m->tid = r->tid;
	m->start = r->start;
	m->len = r->len;
	m->pgoff = r->pgoff;
	if (rec->type == PD_REC_MMAP2) {
		m->has_prot = true;
		m->prot = r->prot;
		m->flags = r->flags;
		if (r->has_build_id) {
			unsigned int n = r->build_id_size <= 20 ? r->build_id_size : 20;

			m->has_build_id = true;
			hex20(m->build_id, r->build_id, n);
		} else {
			m->has_inode = true;
			m->maj = r->maj;
			m->min = r->min;
			m->ino = r->ino;
			m->ino_generation = r->ino_generation;
		}
	}
	m->filename = r->filename;
	m->filename_md5 = pw_md5_prefix_str(r->filename);
	m->root_path = pw_root_path(r->filename, rootbuf, rootsize);
	m->root_md5 = pw_md5_prefix_str(m->root_path);
	m->has_trailer = rec->has_trailer;
	m->sid = rec->sid;
	m->timestamp = pe_timestamp(rec);
	m->offset = rec->offset;
	m->from_compressed = rec->from_compressed;
}

static void enc_header(struct pw_buf *b, uint32_t type, uint32_t misc, uint32_t size)
{
	size_t m = pw_open(b, EV_HEADER);

	pw_u64(b, 1, type);
	pw_u64(b, 2, misc);
	pw_u64(b, 3, size);
	pw_close(b, m);
}

static void enc_tail(struct pw_buf *b, uint64_t ts, uint64_t offset, bool from_compressed,
		     bool ext)
{
	pw_u64(b, EV_TIMESTAMP, ts);
	if (ext) {
		pw_u64(b, EV_OFFSET, offset);
		if (from_compressed)
			pw_bool(b, EV_FROM_COMPRESSED, true);
	}
}

void pe_encode_mmap(struct pw_buf *b, const struct pe_mmap *mm, bool ext)
{
	size_t m;

	enc_header(b, mm->type, mm->misc, mm->size);
	m = pw_open(b, EV_MMAP);
	pw_u64(b, 1, mm->pid);
	pw_u64(b, 2, mm->tid);
	pw_u64(b, 3, mm->start);
	pw_u64(b, 4, mm->len);
	pw_u64(b, 5, mm->pgoff);
	pw_str(b, 6, mm->filename);
	pw_u64(b, 7, mm->filename_md5);
	enc_sample_info(b, 8, mm->has_trailer, &mm->sid);
	if (mm->has_inode) {
		pw_u64(b, 9, mm->maj);
		pw_u64(b, 10, mm->min);
		pw_u64(b, 11, mm->ino);
		pw_u64(b, 12, mm->ino_generation);
	}
	if (mm->has_prot) {
		pw_u64(b, 13, mm->prot);
		pw_u64(b, 14, mm->flags);
	}
	if (mm->root_path[0])
		pw_str(b, 15, mm->root_path);
	pw_u64(b, 16, mm->root_md5);
	if (mm->has_build_id)
		pw_str(b, 17, mm->build_id);
	pw_close(b, m);
	enc_tail(b, mm->timestamp, mm->offset, mm->from_compressed, ext);
}

static void enc_read_info(struct pw_buf *b, unsigned int field, const struct pd_read *rd)
{
	size_t m = pw_open(b, field);
	uint64_t i;

	if (rd->format & PD_FORMAT_TOTAL_TIME_ENABLED)
		pw_u64(b, 1, rd->time_enabled);
	if (rd->format & PD_FORMAT_TOTAL_TIME_RUNNING)
		pw_u64(b, 2, rd->time_running);
	for (i = 0; i < rd->nr; i++) {
		size_t v = pw_open(b, 3);

		pw_u64(b, 1, rd->values[i].value);
		if (rd->format & PD_FORMAT_ID)
			pw_u64(b, 2, rd->values[i].id);
		if (rd->format & PD_FORMAT_LOST)
			pw_u64(b, 3, rd->values[i].lost);
		pw_close(b, v);
	}
	pw_close(b, m);
}

static void enc_regs(struct pw_buf *b, unsigned int field, const struct pd_regs *r)
{
	size_t m = pw_open(b, field);

	pw_u64(b, 1, r->abi);
	pw_u64(b, 2, r->mask);
	pw_packed_u64(b, 3, r->regs, r->nr);
	pw_close(b, m);
}

static void enc_stack(struct pw_buf *b, unsigned int field, uint64_t size, const uint8_t *data,
		      uint64_t dyn_size)
{
	size_t m = pw_open(b, field);

	pw_u64(b, 1, size);
	if (size) {
		pw_bytes(b, 2, data, size);
		pw_u64(b, 3, dyn_size);
	}
	pw_close(b, m);
}

static void enc_branch(struct pw_buf *b, const struct pd_branch_entry *e, bool ext)
{
	size_t m = pw_open(b, 12);
	uint64_t f = e->flags;

	pw_u64(b, 1, e->from);
	pw_u64(b, 2, e->to);
	pw_bool(b, 3, PD_BR_MISPRED(f));
	pw_bool(b, 4, PD_BR_PREDICTED(f));
	pw_bool(b, 5, PD_BR_IN_TX(f));
	pw_bool(b, 6, PD_BR_ABORT(f));
	pw_u64(b, 7, PD_BR_CYCLES(f));
	pw_u64(b, 8, PD_BR_TYPE(f));
	pw_u64(b, 9, PD_BR_SPEC(f));
	if (ext)
		pw_u64(b, 1000, f);
	pw_close(b, m);
}

static void enc_sample(struct pw_buf *b, const struct pd_sample *s, bool ext)
{
	uint64_t t = s->sample_type;
	size_t m = pw_open(b, EV_SAMPLE);
	uint64_t i;

	/* quipper's parse pass writes ip back into every sample */
	if ((t & PD_SAMPLE_IP) || !ext)
		pw_u64(b, 1, t & PD_SAMPLE_IP ? s->ip : 0);
	if (t & PD_SAMPLE_TID) {
		pw_u64(b, 2, s->pid);
		pw_u64(b, 3, s->tid);
	}
	if (t & PD_SAMPLE_TIME)
		pw_u64(b, 4, s->time);
	if (t & PD_SAMPLE_ADDR)
		pw_u64(b, 5, s->addr);
	if (t & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER))
		pw_u64(b, 6, t & PD_SAMPLE_IDENTIFIER ? s->identifier : s->id);
	if (t & PD_SAMPLE_STREAM_ID)
		pw_u64(b, 7, s->stream_id);
	if (t & PD_SAMPLE_PERIOD)
		pw_u64(b, 8, s->period);
	if (t & PD_SAMPLE_CPU)
		pw_u64(b, 9, s->cpu);
	if (t & PD_SAMPLE_RAW)
		pw_u64(b, 10, s->raw_size);
	if (t & PD_SAMPLE_CALLCHAIN) {
		/* not packed in quipper's schema: one tag (one byte) per entry */
		pw_need(b, s->callchain_nr * 11);
		if (!b->nomem) {
			for (i = 0; i < s->callchain_nr; i++) {
				b->p[b->len++] = 11 << 3 | PW_VARINT;
				pw_varint_nocheck(b, s->callchain[i]);
			}
		}
	}
	if (t & PD_SAMPLE_BRANCH_STACK) {
		for (i = 0; i < s->branch_nr; i++)
			enc_branch(b, &s->branches[i], ext);
	}
	if (t & PD_SAMPLE_WEIGHT)
		pw_u64(b, 15, s->weight);
	if (t & PD_SAMPLE_DATA_SRC)
		pw_u64(b, 16, s->data_src);
	if (t & PD_SAMPLE_TRANSACTION)
		pw_u64(b, 17, s->transaction);
	if (t & PD_SAMPLE_READ)
		enc_read_info(b, 18, &s->read);
	if (t & PD_SAMPLE_PHYS_ADDR)
		pw_u64(b, 19, s->phys_addr);
	if (t & PD_SAMPLE_CGROUP)
		pw_u64(b, 20, s->cgroup);
	if (t & PD_SAMPLE_RAW)
		pw_bytes(b, 21, s->raw_data, s->raw_size);
	if (t & PD_SAMPLE_DATA_PAGE_SIZE)
		pw_u64(b, 22, s->data_page_size);
	if (t & PD_SAMPLE_CODE_PAGE_SIZE)
		pw_u64(b, 23, s->code_page_size);
	if (t & PD_SAMPLE_BRANCH_STACK) {
		pw_bool(b, 24, !s->branch_has_hw_idx);
		pw_u64(b, 25, s->branch_has_hw_idx ? s->branch_hw_idx : 0);
	}
	if (t & PD_SAMPLE_WEIGHT_STRUCT) {
		size_t w = pw_open(b, 26);

		pw_u64(b, 1, PD_WEIGHT_VAR1(s->weight));
		pw_u64(b, 2, PD_WEIGHT_VAR2(s->weight));
		pw_u64(b, 3, PD_WEIGHT_VAR3(s->weight));
		pw_close(b, w);
	}
	if (ext) {
		if (t & PD_SAMPLE_REGS_USER)
			enc_regs(b, 1000, &s->regs_user);
		if (t & PD_SAMPLE_STACK_USER)
			enc_stack(b, 1001, s->stack_size, s->stack_data, s->stack_dyn_size);
		if (t & PD_SAMPLE_REGS_INTR)
			enc_regs(b, 1002, &s->regs_intr);
		if (t & PD_SAMPLE_AUX)
			pw_bytes(b, 1003, s->aux_data, s->aux_size);
		if ((t & PD_SAMPLE_BRANCH_STACK) && s->branch_counters)
			pw_packed_u64(b, 1004, s->branch_counters, s->branch_nr);
		pw_u64(b, 1005, t);
	}
	pw_close(b, m);
}

static int cmp_kv_key(const void *a, const void *b)
{
	const struct pd_bpf_metadata_entry *x = *(const struct pd_bpf_metadata_entry * const *)a;
	const struct pd_bpf_metadata_entry *y = *(const struct pd_bpf_metadata_entry * const *)b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	/* equal keys: keep record order, so that the first one wins */
	return x < y ? -1 : x > y;
}

/*
 * quipper stores the entries in a map: printed sorted by key, and the
 * first of equal keys kept.
 */
static void enc_bpf_metadata(struct pw_buf *b, const struct pd_record *rec, bool ext)
{
	const struct pd_rec_bpf_metadata *r = &rec->u.bpf_metadata;
	const struct pd_bpf_metadata_entry **v = NULL;
	size_t m = pw_open(b, EV_BPF_METADATA), i, e;

	pw_str(b, 1, r->prog_name);
	if (r->nr)
		v = malloc(r->nr * sizeof(*v));
	if (v) {
		for (i = 0; i < r->nr; i++)
			v[i] = &r->entries[i];
		qsort(v, r->nr, sizeof(*v), cmp_kv_key);
		for (i = 0; i < r->nr; i++) {
			if (i && !strcmp(v[i]->key, v[i - 1]->key))
				continue;
			e = pw_open(b, 2);
			pw_str(b, 1, v[i]->key);
			pw_str(b, 2, v[i]->value);
			pw_close(b, e);
		}
		free(v);
	} else if (r->nr) {
		b->nomem = true;
	}
	enc_si(b, 3, rec);
	if (ext) {
		for (i = 0; i < r->nr; i++) {
			e = pw_open(b, 1000);
			pw_str(b, 1, r->entries[i].key);
			pw_str(b, 2, r->entries[i].value);
			pw_close(b, e);
		}
	}
	pw_close(b, m);
}

static void enc_cpu_map(struct pw_buf *b, unsigned int field, const struct pd_cpu_map *c)
{
	size_t m = pw_open(b, field);

	pw_u64(b, 1, c->encoding);
	pw_packed_u32(b, 2, c->cpus, c->nr);
	if (c->any_cpu)
		pw_bool(b, 3, true);
	pw_close(b, m);
}

static void enc_simpleperf(struct pw_buf *b, const struct pd_record *rec)
{
	size_t m = pw_open(b, EV_SIMPLEPERF), i;

	switch (rec->type) {
	case PD_REC_SP_KERNEL_SYMBOL:
		pw_bytes(b, 1, rec->u.sp_kernel_symbol.kallsyms, rec->u.sp_kernel_symbol.kallsyms_size);
		break;
	case PD_REC_SP_DSO:
		pw_u64(b, 2, rec->u.sp_dso.dso_type);
		pw_u64(b, 3, rec->u.sp_dso.dso_id);
		pw_u64(b, 4, rec->u.sp_dso.min_vaddr);
		pw_str(b, 5, rec->u.sp_dso.name);
		break;
	case PD_REC_SP_SYMBOL:
		pw_u64(b, 3, rec->u.sp_symbol.dso_id);
		pw_str(b, 5, rec->u.sp_symbol.name);
		pw_u64(b, 6, rec->u.sp_symbol.addr);
		pw_u64(b, 7, rec->u.sp_symbol.len);
		break;
	case PD_REC_SP_EVENT_ID: {
		const struct pd_rec_sp_event_id *e = &rec->u.sp_event_id;
		size_t p;

		if (!e->nr)
			break;
		p = pw_open(b, 8);
		for (i = 0; i < e->nr; i++)
			pw_varint(b, e->entries[i].attr_index);
		pw_close(b, p);
		p = pw_open(b, 9);
		for (i = 0; i < e->nr; i++)
			pw_varint(b, e->entries[i].event_id);
		pw_close(b, p);
		break;
	}
	case PD_REC_SP_CALLCHAIN: {
		const struct pd_rec_sp_callchain *c = &rec->u.sp_callchain;

		pw_u64(b, 10, c->pid);
		pw_u64(b, 11, c->tid);
		pw_u64(b, 12, c->chain_type);
		pw_u64(b, 13, c->time);
		pw_packed_u64(b, 14, c->ips, c->nr);
		pw_packed_u64(b, 15, c->sps, c->nr);
		break;
	}
	case PD_REC_SP_UNWINDING_RESULT: {
		const struct pd_rec_sp_unwinding_result *u = &rec->u.sp_unwinding_result;
		struct pd_regs regs = { u->regs_abi, u->reg_mask, u->nr_regs, u->regs };

		pw_u64(b, 13, u->time);
		if (u->has_callchain) {
			pw_packed_u64(b, 14, u->ips, u->callchain_nr);
			pw_packed_u64(b, 15, u->sps, u->callchain_nr);
		}
		pw_u64(b, 16, u->used_time);
		pw_u64(b, 17, u->error_code);
		pw_u64(b, 18, u->error_addr);
		pw_u64(b, 19, u->stack_start);
		pw_u64(b, 20, u->stack_end);
		enc_regs(b, 21, &regs);
		enc_stack(b, 22, u->stack_size, u->stack, u->dyn_size);
		break;
	}
	case PD_REC_SP_TRACING_DATA:
		if (rec->u.sp_tracing_data.data)
			pw_bytes(b, 23, rec->u.sp_tracing_data.data, rec->u.sp_tracing_data.size);
		break;
	case PD_REC_SP_DEBUG:
		pw_u64(b, 13, rec->u.sp_debug.time);
		pw_str(b, 23, rec->u.sp_debug.s);
		break;
	default:
		break;
	}
	pw_close(b, m);
}

/* Records with no decoded form: the bytes as stored. */
static bool raw_only(const struct pd_record *rec)
{
	if (!rec->decoded)
		return true;
	switch (rec->type) {
	case PD_REC_HEADER_ATTR: case PD_REC_HEADER_EVENT_TYPE:
	case PD_REC_HEADER_TRACING_DATA: case PD_REC_HEADER_BUILD_ID:
	case PD_REC_HEADER_FEATURE: case PD_REC_COMPRESSED: case PD_REC_COMPRESSED2:
	case PD_REC_SP_SPLIT: case PD_REC_SP_SPLIT_END:
		return true;
	default:
		return !pd_record_type_known(rec->type);
	}
}

bool pe_encode_event(struct pw_buf *b, const struct pd_record *rec, bool ext)
{
	const uint32_t type = rec->type;
	size_t m, e;
	uint64_t i;

	if (!ext && (!pe_quipper_keeps(type) || !rec->decoded))
		return false;
	if (ext && raw_only(rec)) {
		enc_header(b, type, rec->misc, rec->size);
		pw_u64(b, EV_TIMESTAMP, 0);
		pw_u64(b, EV_OFFSET, rec->offset);
		if (rec->from_compressed)
			pw_bool(b, EV_FROM_COMPRESSED, true);
		pw_bytes(b, EV_RAW, rec->raw, rec->raw_len);
		return true;
	}
	if (type == PD_REC_MMAP || type == PD_REC_MMAP2) {
		struct pe_mmap mm;
		char small[256];
		char *root = small;
		size_t n = strlen(rec->u.mmap.filename) + 1;

		if (n > sizeof(small)) {
			root = malloc(n);
			if (!root) {
				b->nomem = true;
				return true;
			}
		}
		pe_mmap_from_record(&mm, rec, root, n);
		pe_encode_mmap(b, &mm, ext);
		if (root != small)
			free(root);
		return true;
	}

	enc_header(b, type, rec->misc, rec->size);
	switch (type) {
	case PD_REC_SAMPLE:
		enc_sample(b, &rec->u.sample, ext);
		break;
	case PD_REC_COMM:
		m = pw_open(b, EV_COMM);
		pw_u64(b, 1, rec->u.comm.pid);
		pw_u64(b, 2, rec->u.comm.tid);
		pw_str_md5(b, 3, 4, rec->u.comm.comm);
		enc_si(b, 6, rec);
		pw_close(b, m);
		break;
	case PD_REC_FORK:
	case PD_REC_EXIT:
		m = pw_open(b, type == PD_REC_FORK ? EV_FORK : EV_EXIT);
		pw_u64(b, 1, rec->u.fork.pid);
		pw_u64(b, 2, rec->u.fork.ppid);
		pw_u64(b, 3, rec->u.fork.tid);
		pw_u64(b, 4, rec->u.fork.ptid);
		pw_u64(b, 5, rec->u.fork.time);
		enc_si(b, 11, rec);
		pw_close(b, m);
		break;
	case PD_REC_LOST:
		m = pw_open(b, EV_LOST);
		pw_u64(b, 1, rec->u.lost.id);
		pw_u64(b, 2, rec->u.lost.lost);
		enc_si(b, 3, rec);
		pw_close(b, m);
		break;
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:
		m = pw_open(b, EV_THROTTLE);
		pw_u64(b, 1, rec->u.throttle.time);
		pw_u64(b, 2, rec->u.throttle.id);
		pw_u64(b, 3, rec->u.throttle.stream_id);
		enc_si(b, 4, rec);
		pw_close(b, m);
		break;
	case PD_REC_READ: {
		const struct pd_read *rd = &rec->u.read.values;

		m = pw_open(b, EV_READ);
		pw_u64(b, 1, rec->u.read.pid);
		pw_u64(b, 2, rec->u.read.tid);
		if (rd->nr)
			pw_u64(b, 3, rd->values[0].value);
		if (rd->format & PD_FORMAT_TOTAL_TIME_ENABLED)
			pw_u64(b, 4, rd->time_enabled);
		if (rd->format & PD_FORMAT_TOTAL_TIME_RUNNING)
			pw_u64(b, 5, rd->time_running);
		if (rd->nr && (rd->format & PD_FORMAT_ID))
			pw_u64(b, 6, rd->values[0].id);
		enc_si(b, 7, rec);
		enc_read_info(b, 1000, rd);
		pw_close(b, m);
		break;
	}
	case PD_REC_AUX:
		m = pw_open(b, EV_AUX);
		pw_u64(b, 1, rec->u.aux.aux_offset);
		pw_u64(b, 2, rec->u.aux.aux_size);
		pw_bool(b, 3, rec->u.aux.flags & 1);
		pw_bool(b, 4, rec->u.aux.flags & 2);
		pw_bool(b, 5, rec->u.aux.flags & 4);
		enc_si(b, 6, rec);
		if (ext)
			pw_u64(b, 1000, rec->u.aux.flags);
		pw_close(b, m);
		break;
	case PD_REC_AUXTRACE: {
		const struct pd_rec_auxtrace *a = &rec->u.auxtrace;

		m = pw_open(b, EV_AUXTRACE);
		pw_u64(b, 1, a->size);
		pw_u64(b, 2, a->offset);
		pw_u64(b, 3, a->reference);
		pw_u64(b, 4, a->idx);
		pw_u64(b, 5, a->tid);
		pw_u64(b, 6, a->cpu);
		if (a->size && rec->extra && rec->extra_len == a->size)
			pw_bytes(b, 7, rec->extra, rec->extra_len);
		pw_close(b, m);
		break;
	}
	case PD_REC_ITRACE_START:
		m = pw_open(b, EV_ITRACE_START);
		pw_u64(b, 1, rec->u.itrace_start.pid);
		pw_u64(b, 2, rec->u.itrace_start.tid);
		enc_si(b, 3, rec);
		pw_close(b, m);
		break;
	case PD_REC_LOST_SAMPLES:
		m = pw_open(b, EV_LOST_SAMPLES);
		pw_u64(b, 1, rec->u.lost_samples.lost);
		enc_si(b, 2, rec);
		pw_close(b, m);
		break;
	case PD_REC_SWITCH:
	case PD_REC_SWITCH_CPU_WIDE:
		m = pw_open(b, EV_CONTEXT_SWITCH);
		pw_bool(b, 1, rec->misc & PD_MISC_SWITCH_OUT);
		if (type == PD_REC_SWITCH_CPU_WIDE) {
			pw_u64(b, 2, rec->u.sw.next_prev_pid);
			pw_u64(b, 3, rec->u.sw.next_prev_tid);
		}
		enc_si(b, 4, rec);
		pw_close(b, m);
		break;
	case PD_REC_NAMESPACES:
		m = pw_open(b, EV_NAMESPACES);
		pw_u64(b, 1, rec->u.namespaces.pid);
		pw_u64(b, 2, rec->u.namespaces.tid);
		for (i = 0; i < rec->u.namespaces.nr; i++) {
			e = pw_open(b, 3);
			pw_u64(b, 1, rec->u.namespaces.links[i].dev);
			pw_u64(b, 2, rec->u.namespaces.links[i].ino);
			pw_close(b, e);
		}
		enc_si(b, 4, rec);
		pw_close(b, m);
		break;
	case PD_REC_TIME_CONV: {
		const struct pd_rec_time_conv *t = &rec->u.time_conv;

		m = pw_open(b, EV_TIME_CONV);
		pw_u64(b, 1, t->time_shift);
		pw_u64(b, 2, t->time_mult);
		pw_u64(b, 3, t->time_zero);
		if (t->extended) {
			pw_u64(b, 4, t->time_cycles);
			pw_u64(b, 5, t->time_mask);
			pw_bool(b, 6, t->cap_user_time_zero);
			pw_bool(b, 7, t->cap_user_time_short);
		}
		pw_close(b, m);
		break;
	}
	case PD_REC_AUXTRACE_INFO:
		m = pw_open(b, EV_AUXTRACE_INFO);
		pw_u64(b, 1, rec->u.auxtrace_info.type);
		for (i = 0; i < rec->u.auxtrace_info.nr_priv; i++)
			pw_u64(b, 2, rec->u.auxtrace_info.priv[i]);
		pw_close(b, m);
		break;
	case PD_REC_AUXTRACE_ERROR: {
		const struct pd_rec_auxtrace_error *a = &rec->u.auxtrace_error;

		m = pw_open(b, EV_AUXTRACE_ERROR);
		pw_u64(b, 1, a->type);
		pw_u64(b, 2, a->code);
		pw_u64(b, 3, a->cpu);
		pw_u64(b, 4, a->pid);
		pw_u64(b, 5, a->tid);
		pw_u64(b, 6, a->ip);
		pw_str_md5(b, 7, 8, a->msg);
		if (ext) {
			pw_u64(b, 1000, a->fmt);
			if (a->fmt >= 1)
				pw_u64(b, 1001, a->time);
			if (a->fmt >= 2) {
				pw_u64(b, 1002, a->machine_pid);
				pw_u64(b, 1003, a->vcpu);
			}
		}
		pw_close(b, m);
		break;
	}
	case PD_REC_THREAD_MAP:
		m = pw_open(b, EV_THREAD_MAP);
		for (i = 0; i < rec->u.thread_map.nr; i++) {
			e = pw_open(b, 1);
			pw_u64(b, 1, rec->u.thread_map.entries[i].pid);
			pw_str_md5(b, 2, 3, rec->u.thread_map.entries[i].comm);
			pw_close(b, e);
		}
		pw_close(b, m);
		break;
	case PD_REC_STAT_CONFIG:
		m = pw_open(b, EV_STAT_CONFIG);
		for (i = 0; i < rec->u.stat_config.nr; i++) {
			e = pw_open(b, 1);
			pw_u64(b, 1, rec->u.stat_config.entries[i].tag);
			pw_u64(b, 2, rec->u.stat_config.entries[i].val);
			pw_close(b, e);
		}
		pw_close(b, m);
		break;
	case PD_REC_STAT:
		m = pw_open(b, EV_STAT);
		pw_u64(b, 1, rec->u.stat.id);
		pw_u64(b, 2, rec->u.stat.cpu);
		pw_u64(b, 3, rec->u.stat.thread);
		pw_u64(b, 4, rec->u.stat.val);
		pw_u64(b, 5, rec->u.stat.ena);
		pw_u64(b, 6, rec->u.stat.run);
		pw_close(b, m);
		break;
	case PD_REC_STAT_ROUND:
		m = pw_open(b, EV_STAT_ROUND);
		pw_u64(b, 1, rec->u.stat_round.type);
		pw_u64(b, 2, rec->u.stat_round.time);
		pw_close(b, m);
		break;
	case PD_REC_CGROUP:
		m = pw_open(b, EV_CGROUP);
		pw_u64(b, 1, rec->u.cgroup.id);
		pw_str(b, 2, rec->u.cgroup.path);
		enc_si(b, 3, rec);
		pw_close(b, m);
		break;
	case PD_REC_KSYMBOL:
		m = pw_open(b, EV_KSYMBOL);
		pw_u64(b, 1, rec->u.ksymbol.addr);
		pw_u64(b, 2, rec->u.ksymbol.len);
		pw_u64(b, 3, rec->u.ksymbol.ksym_type);
		pw_u64(b, 4, rec->u.ksymbol.flags);
		pw_str(b, 5, rec->u.ksymbol.name);
		enc_si(b, 6, rec);
		pw_close(b, m);
		break;
	case PD_REC_ID_INDEX:
		m = pw_open(b, EV_ID_INDEX);
		for (i = 0; i < rec->u.id_index.nr; i++) {
			const struct pd_id_index_entry *x = &rec->u.id_index.entries[i];

			e = pw_open(b, 1);
			pw_u64(b, 1, x->id);
			pw_u64(b, 2, x->idx);
			pw_u64(b, 3, x->cpu);
			pw_u64(b, 4, x->tid);
			if (ext && rec->u.id_index.has_vcpu) {
				pw_u64(b, 1000, x->machine_pid);
				pw_u64(b, 1001, x->vcpu);
			}
			pw_close(b, e);
		}
		pw_close(b, m);
		break;
	case PD_REC_BPF_METADATA:
		enc_bpf_metadata(b, rec, ext);
		break;
	case PD_REC_BPF_EVENT:
		m = pw_open(b, EV_BPF_EVENT);
		pw_u64(b, 1, rec->u.bpf_event.type);
		pw_u64(b, 2, rec->u.bpf_event.flags);
		pw_u64(b, 3, rec->u.bpf_event.id);
		pw_bytes(b, 4, rec->u.bpf_event.tag, sizeof(rec->u.bpf_event.tag));
		enc_si(b, 5, rec);
		pw_close(b, m);
		break;
	case PD_REC_TEXT_POKE:
		m = pw_open(b, EV_TEXT_POKE);
		pw_u64(b, 1, rec->u.text_poke.addr);
		pw_bytes(b, 2, rec->u.text_poke.old_bytes, rec->u.text_poke.old_len);
		pw_bytes(b, 3, rec->u.text_poke.new_bytes, rec->u.text_poke.new_len);
		enc_si(b, 4, rec);
		pw_close(b, m);
		break;
	case PD_REC_AUX_OUTPUT_HW_ID:
		m = pw_open(b, EV_AUX_OUTPUT_HW_ID);
		pw_u64(b, 1, rec->u.aux_output_hw_id.hw_id);
		enc_si(b, 2, rec);
		pw_close(b, m);
		break;
	case PD_REC_CALLCHAIN_DEFERRED:
		m = pw_open(b, EV_CALLCHAIN_DEFERRED);
		pw_u64(b, 1, rec->u.callchain_deferred.cookie);
		pw_packed_u64(b, 2, rec->u.callchain_deferred.ips, rec->u.callchain_deferred.nr);
		enc_si(b, 3, rec);
		pw_close(b, m);
		break;
	case PD_REC_CPU_MAP:
		enc_cpu_map(b, EV_CPU_MAP, &rec->u.cpu_map.map);
		break;
	case PD_REC_EVENT_UPDATE: {
		const struct pd_rec_event_update *u = &rec->u.event_update;

		m = pw_open(b, EV_EVENT_UPDATE);
		pw_u64(b, 1, u->type);
		pw_u64(b, 2, u->id);
		if ((u->type == 0 || u->type == 2) && u->str)
			pw_str(b, 3, u->str);
		if (u->type == 1)
			pw_double(b, 4, u->scale);
		if (u->type == 3)
			enc_cpu_map(b, 5, &u->cpus);
		pw_close(b, m);
		break;
	}
	case PD_REC_SCHEDSTAT_CPU:
	case PD_REC_SCHEDSTAT_DOMAIN: {
		const struct pd_rec_schedstat *s = &rec->u.schedstat;

		m = pw_open(b, EV_SCHEDSTAT);
		pw_u64(b, 1, s->timestamp);
		pw_u64(b, 2, s->cpu);
		pw_u64(b, 3, s->version);
		if (type == PD_REC_SCHEDSTAT_DOMAIN)
			pw_u64(b, 4, s->domain);
		for (i = 0; i < s->nr; i++) {
			e = pw_open(b, 5);
			pw_str(b, 1, s->counters[i].name);
			pw_u64(b, 2, s->counters[i].value);
			pw_close(b, e);
		}
		pw_bytes(b, 6, s->counter_bytes, s->counter_len);
		pw_close(b, m);
		break;
	}
	case PD_REC_FINISHED_ROUND:
	case PD_REC_FINISHED_INIT:
		break;
	default:
		if (type >= PD_REC_SP_START && type < PD_REC_SP_MAX)
			enc_simpleperf(b, rec);
		break;
	}
	enc_tail(b, pe_timestamp(rec), rec->offset, rec->from_compressed, ext);
	return true;
}
