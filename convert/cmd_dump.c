// SPDX-License-Identifier: MIT
/*
 * cmd_dump.c - perfconv dump: one line per record with every decoded field.
 *
 *	0xOFFSET [SIZE] TYPE key=value key=value ...
 *
 * dump runs over files of hundreds of megabytes, so the record loop does no
 * allocation and no printf(): lines are assembled in a static buffer by the
 * out_*() helpers below and handed to a 1 MiB stdio buffer in large chunks.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_select.h"

/* ---- output buffer ---- */

#define OUT_SIZE (64 * 1024)
#define STDOUT_BUF_SIZE (1024 * 1024)

static char out_buf[OUT_SIZE];
static size_t out_len;
static char stdout_buf[STDOUT_BUF_SIZE];

static const char hex_digits[] = "0123456789abcdef";

static void out_flush(void)
{
	if (out_len)
		fwrite_unlocked(out_buf, 1, out_len, stdout);
	out_len = 0;
}

/* Make room for n bytes (n <= OUT_SIZE). */
static inline void out_room(size_t n)
{
	if (OUT_SIZE - out_len < n)
		out_flush();
}

static inline void out_c(char c)
{
	out_room(1);
	out_buf[out_len++] = c;
}

static void out_mem(const char *s, size_t n)
{
	while (n) {
		size_t chunk;

		out_room(1);
		chunk = OUT_SIZE - out_len;
		if (chunk > n)
			chunk = n;
		memcpy(out_buf + out_len, s, chunk);
		out_len += chunk;
		s += chunk;
		n -= chunk;
	}
}

static inline void out_s(const char *s)
{
	out_mem(s, strlen(s));
}

static inline void out_u64(uint64_t v)
{
	char tmp[20];
	int n = 0;

	out_room(20);
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		out_buf[out_len++] = tmp[--n];
}

static inline void out_i64(int64_t v)
{
	if (v < 0) {
		out_c('-');
		out_u64(-(uint64_t)v);
	} else {
		out_u64((uint64_t)v);
	}
}

static inline void out_hex(uint64_t v)
{
	char tmp[16];
	int n = 0;

	out_room(18);
	out_buf[out_len++] = '0';
	out_buf[out_len++] = 'x';
	do {
		tmp[n++] = hex_digits[v & 0xf];
		v >>= 4;
	} while (v);
	while (n)
		out_buf[out_len++] = tmp[--n];
}

/* Bytes as contiguous hex digits: build ids, tags, raw payloads. */
static void out_hexbytes(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		out_room(2);
		out_buf[out_len++] = hex_digits[p[i] >> 4];
		out_buf[out_len++] = hex_digits[p[i] & 0xf];
	}
}

/*
 * A string from the file, bounded by `max` bytes: control characters and
 * backslashes are escaped as \xNN so that every record stays on one line.
 */
static void out_str_n(const char *s, size_t max)
{
	size_t i;

	if (!s) {
		out_s("(null)");
		return;
	}
	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		out_room(4);
		if (c < 0x20 || c == 0x7f || c == '\\') {
			out_buf[out_len++] = '\\';
			out_buf[out_len++] = 'x';
			out_buf[out_len++] = hex_digits[c >> 4];
			out_buf[out_len++] = hex_digits[c & 0xf];
		} else {
			out_buf[out_len++] = (char)c;
		}
	}
}

static inline void out_key(const char *k)
{
	out_c(' ');
	out_s(k);
	out_c('=');
}

static inline void out_kv_u(const char *k, uint64_t v)
{
	out_key(k);
	out_u64(v);
}

static inline void out_kv_i(const char *k, int64_t v)
{
	out_key(k);
	out_i64(v);
}

static inline void out_kv_x(const char *k, uint64_t v)
{
	out_key(k);
	out_hex(v);
}

static inline void out_kv_s(const char *k, const char *s)
{
	out_key(k);
	out_str_n(s, SIZE_MAX);
}

static void out_kv_bytes(const char *k, const uint8_t *p, size_t n)
{
	out_key(k);
	out_hexbytes(p, n);
}

static void out_u64_list(const char *k, const uint64_t *v, uint64_t nr, bool hex)
{
	uint64_t i;

	out_key(k);
	out_c('[');
	for (i = 0; v && i < nr; i++) {
		if (i)
			out_c(',');
		if (hex)
			out_hex(v[i]);
		else
			out_u64(v[i]);
	}
	out_c(']');
}

/* ---- names ---- */

static const char *const br_type_names[16] = {
	NULL, "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
	"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "EXTEND_ABI",
};

static const char *const br_spec_names[4] = {
	NULL, "WRONG_PATH", "NON_SPEC_CORRECT_PATH", "SPEC_CORRECT_PATH",
};

static const char *const br_new_type_names[16] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5",
};

static const char *const br_priv_names[8] = {
	NULL, "USER", "KERNEL", "HV",
};

static void out_name_or_num(const char *const *names, size_t nr, unsigned int v)
{
	if (v < nr && names[v])
		out_s(names[v]);
	else
		out_u64(v);
}

/* ---- state ---- */

struct dump_ctx {
	bool hex;
	const char *name;
	/* last COMPRESSED/COMPRESSED2 container, to name the one inner records came from */
	uint64_t container_offset;
	uint32_t container_type;
};

/* ---- record fields ---- */

static void out_sid(const struct pd_sample_id *sid)
{
	if (sid->present & PD_SAMPLE_TID) {
		out_kv_i("sid.pid", (int32_t)sid->pid);
		out_kv_i("sid.tid", (int32_t)sid->tid);
	}
	if (sid->present & PD_SAMPLE_TIME)
		out_kv_u("sid.time", sid->time);
	if (sid->present & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER))
		out_kv_u("sid.id", sid->id);
	if (sid->present & PD_SAMPLE_STREAM_ID)
		out_kv_u("sid.stream_id", sid->stream_id);
	if (sid->present & PD_SAMPLE_CPU)
		out_kv_i("sid.cpu", (int32_t)sid->cpu);
}

/*
 * read_format values: "read=[VALUE(id=ID,lost=N),...]", preceded by the
 * time_enabled/running totals when the format has them.
 */
static void out_read(const char *prefix, const struct pd_read *rd)
{
	char key[32];
	uint64_t i;

	if (rd->format & PD_FORMAT_TOTAL_TIME_ENABLED) {
		snprintf(key, sizeof(key), "%s_time_enabled", prefix);
		out_kv_u(key, rd->time_enabled);
	}
	if (rd->format & PD_FORMAT_TOTAL_TIME_RUNNING) {
		snprintf(key, sizeof(key), "%s_time_running", prefix);
		out_kv_u(key, rd->time_running);
	}
	if (rd->format & PD_FORMAT_GROUP) {
		snprintf(key, sizeof(key), "%s_nr", prefix);
		out_kv_u(key, rd->nr);
	}
	out_key(prefix);
	out_c('[');
	for (i = 0; rd->values && i < rd->nr; i++) {
		const struct pd_read_value *v = &rd->values[i];

		if (i)
			out_c(',');
		out_u64(v->value);
		if (rd->format & (PD_FORMAT_ID | PD_FORMAT_LOST)) {
			out_c('(');
			if (rd->format & PD_FORMAT_ID) {
				out_s("id=");
				out_u64(v->id);
			}
			if (rd->format & PD_FORMAT_LOST) {
				if (rd->format & PD_FORMAT_ID)
					out_c(',');
				out_s("lost=");
				out_u64(v->lost);
			}
			out_c(')');
		}
	}
	out_c(']');
}

/* Callchain entries with the context markers by name: [KERNEL,0x..,USER,0x..]. */
static void out_callchain(const char *k, const uint64_t *ips, uint64_t nr)
{
	uint64_t i;

	out_key(k);
	out_c('[');
	for (i = 0; ips && i < nr; i++) {
		const char *ctx = ips[i] >= PD_CONTEXT_MAX ? pd_context_name(ips[i]) : NULL;

		if (i)
			out_c(',');
		if (ctx)
			out_s(ctx);
		else
			out_hex(ips[i]);
	}
	out_c(']');
}

/* One branch: FROM->TO, then "/"-separated flags that are set. */
static void out_branch(const struct pd_branch_entry *b)
{
	uint64_t f = b->flags;

	out_hex(b->from);
	out_s("->");
	out_hex(b->to);
	if (PD_BR_MISPRED(f))
		out_s("/M");
	if (PD_BR_PREDICTED(f))
		out_s("/P");
	if (PD_BR_IN_TX(f))
		out_s("/X");
	if (PD_BR_ABORT(f))
		out_s("/A");
	if (PD_BR_CYCLES(f)) {
		out_s("/cyc=");
		out_u64(PD_BR_CYCLES(f));
	}
	if (PD_BR_TYPE(f)) {
		out_s("/type=");
		out_name_or_num(br_type_names, 16, PD_BR_TYPE(f));
	}
	if (PD_BR_SPEC(f)) {
		out_s("/spec=");
		out_name_or_num(br_spec_names, 4, PD_BR_SPEC(f));
	}
	/* new_type only means something for the EXTEND_ABI branch type */
	if (PD_BR_TYPE(f) == 15) {
		out_s("/new_type=");
		out_name_or_num(br_new_type_names, 16, PD_BR_NEW_TYPE(f));
	}
	if (PD_BR_PRIV(f)) {
		out_s("/priv=");
		out_name_or_num(br_priv_names, 8, PD_BR_PRIV(f));
	}
}

static void out_regs(const char *prefix, const struct pd_regs *r)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_abi", prefix);
	out_kv_u(key, r->abi);
	snprintf(key, sizeof(key), "%s_mask", prefix);
	out_kv_x(key, r->mask);
	if (r->abi)
		out_u64_list(prefix, r->regs, r->nr, true);
}

static void out_sample(const struct dump_ctx *dc, const struct pd_record *rec)
{
	const struct pd_sample *s = &rec->u.sample;
	uint64_t t = s->sample_type, i;
	const char *cm = pd_cpumode_name(rec->misc & PD_MISC_CPUMODE_MASK);

	if (rec->event) {
		out_key("event");
		out_str_n(rec->event->name, SIZE_MAX);
	}
	out_key("cpumode");
	if (cm)
		out_s(cm);
	else
		out_u64(rec->misc & PD_MISC_CPUMODE_MASK);
	if (rec->misc & PD_MISC_EXACT_IP)
		out_s(" exact_ip=1");

	/* the order of the fields in the record */
	if (t & PD_SAMPLE_IDENTIFIER)
		out_kv_u("identifier", s->identifier);
	if (t & PD_SAMPLE_IP)
		out_kv_x("ip", s->ip);
	if (t & PD_SAMPLE_TID) {
		out_kv_i("pid", (int32_t)s->pid);
		out_kv_i("tid", (int32_t)s->tid);
	}
	if (t & PD_SAMPLE_TIME)
		out_kv_u("time", s->time);
	if (t & PD_SAMPLE_ADDR)
		out_kv_x("addr", s->addr);
	if (t & PD_SAMPLE_ID)
		out_kv_u("id", s->id);
	if (t & PD_SAMPLE_STREAM_ID)
		out_kv_u("stream_id", s->stream_id);
	if (t & PD_SAMPLE_CPU)
		out_kv_i("cpu", (int32_t)s->cpu);
	if (t & PD_SAMPLE_PERIOD)
		out_kv_u("period", s->period);
	if (t & PD_SAMPLE_READ)
		out_read("read", &s->read);
	if (t & PD_SAMPLE_CALLCHAIN) {
		out_kv_u("callchain_nr", s->callchain_nr);
		out_callchain("callchain", s->callchain, s->callchain_nr);
	}
	if (t & PD_SAMPLE_RAW) {
		out_kv_u("raw_size", s->raw_size);
		if (dc->hex && s->raw_data)
			out_kv_bytes("raw", s->raw_data, s->raw_size);
	}
	if (t & PD_SAMPLE_BRANCH_STACK) {
		out_kv_u("branch_nr", s->branch_nr);
		if (s->branch_has_hw_idx)
			out_kv_i("branch_hw_idx", (int64_t)s->branch_hw_idx);
		out_key("branches");
		out_c('[');
		for (i = 0; s->branches && i < s->branch_nr; i++) {
			if (i)
				out_c(',');
			out_branch(&s->branches[i]);
		}
		out_c(']');
		if (s->branch_counters)
			out_u64_list("branch_counters", s->branch_counters, s->branch_nr, true);
	}
	if (t & PD_SAMPLE_REGS_USER)
		out_regs("regs_user", &s->regs_user);
	if (t & PD_SAMPLE_STACK_USER) {
		out_kv_u("stack_size", s->stack_size);
		if (s->stack_size)
			out_kv_u("stack_dyn_size", s->stack_dyn_size);
	}
	if (t & PD_SAMPLE_WEIGHT)
		out_kv_u("weight", s->weight);
	if (t & PD_SAMPLE_WEIGHT_STRUCT) {
		out_kv_u("weight", s->weight);
		out_kv_u("weight.var1", PD_WEIGHT_VAR1(s->weight));
		out_kv_u("weight.var2", PD_WEIGHT_VAR2(s->weight));
		out_kv_u("weight.var3", PD_WEIGHT_VAR3(s->weight));
	}
	if (t & PD_SAMPLE_DATA_SRC)
		out_kv_x("data_src", s->data_src);
	if (t & PD_SAMPLE_TRANSACTION)
		out_kv_x("transaction", s->transaction);
	if (t & PD_SAMPLE_REGS_INTR)
		out_regs("regs_intr", &s->regs_intr);
	if (t & PD_SAMPLE_PHYS_ADDR)
		out_kv_x("phys_addr", s->phys_addr);
	if (t & PD_SAMPLE_CGROUP)
		out_kv_u("cgroup", s->cgroup);
	if (t & PD_SAMPLE_DATA_PAGE_SIZE)
		out_kv_u("data_page_size", s->data_page_size);
	if (t & PD_SAMPLE_CODE_PAGE_SIZE)
		out_kv_u("code_page_size", s->code_page_size);
	if (t & PD_SAMPLE_AUX) {
		out_kv_u("aux_size", s->aux_size);
		if (dc->hex && s->aux_data)
			out_kv_bytes("aux", s->aux_data, s->aux_size);
	}
}

static void out_cpu_map(const char *prefix, const struct pd_cpu_map *m)
{
	char key[32];
	uint32_t i;

	snprintf(key, sizeof(key), "%s_encoding", prefix);
	out_kv_u(key, m->encoding);
	if (m->encoding == 1) {
		snprintf(key, sizeof(key), "%s_long_size", prefix);
		out_kv_u(key, m->long_size);
	}
	if (m->any_cpu) {
		snprintf(key, sizeof(key), "%s_any_cpu", prefix);
		out_kv_u(key, 1);
	}
	out_key(prefix);
	out_c('[');
	for (i = 0; m->cpus && i < m->nr; i++) {
		if (i)
			out_c(',');
		out_u64(m->cpus[i]);
	}
	out_c(']');
}

static void out_attr_fields(const struct pd_attr *a)
{
	const char *tn = pd_attr_type_name(a->type);
	char buf[512];

	out_key("attr_type");
	if (tn)
		out_s(tn);
	else
		out_u64(a->type);
	out_kv_x("config", a->config);
	out_kv_u(a->flags & PD_ATTR_FREQ ? "sample_freq" : "sample_period", a->sample_period);
	out_key("sample_type");
	out_s(cli_format_bits(buf, sizeof(buf), a->sample_type, pd_sample_bit_name, "|"));
	out_key("read_format");
	out_s(cli_format_bits(buf, sizeof(buf), a->read_format, pd_read_format_bit_name, "|"));
	out_kv_x("flags", a->flags);
	if (a->branch_sample_type) {
		out_key("branch_sample_type");
		out_s(cli_format_bits(buf, sizeof(buf), a->branch_sample_type,
				      pd_branch_sample_bit_name, "|"));
	}
}

static void out_fields(const struct dump_ctx *dc, const struct pd_record *rec)
{
	const char *name;
	char buf[24];
	uint64_t i;

	switch (rec->type) {
	case PD_REC_SAMPLE:
		out_sample(dc, rec);
		break;
	case PD_REC_MMAP:
	case PD_REC_MMAP2: {
		const struct pd_rec_mmap *m = &rec->u.mmap;

		out_kv_i("pid", (int32_t)m->pid);
		out_kv_i("tid", (int32_t)m->tid);
		out_kv_x("start", m->start);
		out_kv_x("len", m->len);
		out_kv_x("pgoff", m->pgoff);
		if (rec->type == PD_REC_MMAP2) {
			if (m->has_build_id) {
				out_kv_bytes("build_id", m->build_id,
					     m->build_id_size <= 20 ? m->build_id_size : 20);
			} else {
				out_kv_u("maj", m->maj);
				out_kv_u("min", m->min);
				out_kv_u("ino", m->ino);
				out_kv_u("ino_generation", m->ino_generation);
			}
			out_kv_x("prot", m->prot);
			out_kv_x("flags", m->flags);
		}
		if (rec->misc & PD_MISC_MMAP_DATA)
			out_s(" data=1");
		out_kv_s("filename", m->filename);
		break;
	}
	case PD_REC_LOST:
		out_kv_u("id", rec->u.lost.id);
		out_kv_u("lost", rec->u.lost.lost);
		break;
	case PD_REC_COMM:
		out_kv_i("pid", (int32_t)rec->u.comm.pid);
		out_kv_i("tid", (int32_t)rec->u.comm.tid);
		if (rec->misc & PD_MISC_COMM_EXEC)
			out_s(" exec=1");
		out_kv_s("comm", rec->u.comm.comm);
		break;
	case PD_REC_FORK:
	case PD_REC_EXIT:
		out_kv_i("pid", (int32_t)rec->u.fork.pid);
		out_kv_i("ppid", (int32_t)rec->u.fork.ppid);
		out_kv_i("tid", (int32_t)rec->u.fork.tid);
		out_kv_i("ptid", (int32_t)rec->u.fork.ptid);
		out_kv_u("time", rec->u.fork.time);
		break;
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:
		out_kv_u("time", rec->u.throttle.time);
		out_kv_u("id", rec->u.throttle.id);
		out_kv_u("stream_id", rec->u.throttle.stream_id);
		break;
	case PD_REC_READ:
		out_kv_i("pid", (int32_t)rec->u.read.pid);
		out_kv_i("tid", (int32_t)rec->u.read.tid);
		out_read("values", &rec->u.read.values);
		break;
	case PD_REC_AUX:
		out_kv_x("aux_offset", rec->u.aux.aux_offset);
		out_kv_u("aux_size", rec->u.aux.aux_size);
		out_kv_x("flags", rec->u.aux.flags);
		break;
	case PD_REC_ITRACE_START:
		out_kv_i("pid", (int32_t)rec->u.itrace_start.pid);
		out_kv_i("tid", (int32_t)rec->u.itrace_start.tid);
		break;
	case PD_REC_LOST_SAMPLES:
		out_kv_u("lost", rec->u.lost_samples.lost);
		if (rec->misc & PD_MISC_LOST_SAMPLES_BPF)
			out_s(" bpf=1");
		break;
	case PD_REC_SWITCH:
	case PD_REC_SWITCH_CPU_WIDE:
		out_s(rec->misc & PD_MISC_SWITCH_OUT ? " dir=out" : " dir=in");
		if (rec->misc & PD_MISC_SWITCH_OUT_PREEMPT)
			out_s(" preempt=1");
		if (rec->type == PD_REC_SWITCH_CPU_WIDE) {
			out_kv_i("next_prev_pid", (int32_t)rec->u.sw.next_prev_pid);
			out_kv_i("next_prev_tid", (int32_t)rec->u.sw.next_prev_tid);
		}
		break;
	case PD_REC_NAMESPACES:
		out_kv_i("pid", (int32_t)rec->u.namespaces.pid);
		out_kv_i("tid", (int32_t)rec->u.namespaces.tid);
		out_kv_u("nr", rec->u.namespaces.nr);
		out_key("links");
		out_c('[');
		for (i = 0; rec->u.namespaces.links && i < rec->u.namespaces.nr; i++) {
			if (i)
				out_c(',');
			out_hex(rec->u.namespaces.links[i].dev);
			out_c('/');
			out_u64(rec->u.namespaces.links[i].ino);
		}
		out_c(']');
		break;
	case PD_REC_KSYMBOL:
		out_kv_x("addr", rec->u.ksymbol.addr);
		out_kv_u("len", rec->u.ksymbol.len);
		out_kv_u("ksym_type", rec->u.ksymbol.ksym_type);
		out_kv_x("flags", rec->u.ksymbol.flags);
		out_kv_s("name", rec->u.ksymbol.name);
		break;
	case PD_REC_BPF_EVENT:
		out_kv_u("bpf_type", rec->u.bpf_event.type);
		out_kv_x("flags", rec->u.bpf_event.flags);
		out_kv_u("id", rec->u.bpf_event.id);
		out_kv_bytes("tag", rec->u.bpf_event.tag, sizeof(rec->u.bpf_event.tag));
		break;
	case PD_REC_CGROUP:
		out_kv_u("id", rec->u.cgroup.id);
		out_kv_s("path", rec->u.cgroup.path);
		break;
	case PD_REC_TEXT_POKE:
		out_kv_x("addr", rec->u.text_poke.addr);
		out_kv_u("old_len", rec->u.text_poke.old_len);
		out_kv_u("new_len", rec->u.text_poke.new_len);
		if (rec->u.text_poke.old_bytes)
			out_kv_bytes("old", rec->u.text_poke.old_bytes, rec->u.text_poke.old_len);
		if (rec->u.text_poke.new_bytes)
			out_kv_bytes("new", rec->u.text_poke.new_bytes, rec->u.text_poke.new_len);
		break;
	case PD_REC_AUX_OUTPUT_HW_ID:
		out_kv_u("hw_id", rec->u.aux_output_hw_id.hw_id);
		break;
	case PD_REC_CALLCHAIN_DEFERRED:
		out_kv_u("cookie", rec->u.callchain_deferred.cookie);
		out_kv_u("nr", rec->u.callchain_deferred.nr);
		out_callchain("ips", rec->u.callchain_deferred.ips, rec->u.callchain_deferred.nr);
		break;
	case PD_REC_HEADER_ATTR:
		out_attr_fields(&rec->u.header_attr.attr);
		out_kv_u("attr_size", rec->u.header_attr.attr_size);
		out_kv_u("nr_ids", rec->u.header_attr.nr_ids);
		out_u64_list("ids", rec->u.header_attr.ids, rec->u.header_attr.nr_ids, false);
		break;
	case PD_REC_HEADER_EVENT_TYPE:
		out_kv_u("event_id", rec->u.event_type.event_id);
		out_kv_s("name", rec->u.event_type.name);
		break;
	case PD_REC_HEADER_TRACING_DATA:
	case PD_REC_SP_TRACING_DATA:
		out_kv_u("data_size", rec->u.tracing_data.size);
		if (rec->u.tracing_data.inline_data)
			out_s(" inline=1");
		break;
	case PD_REC_HEADER_BUILD_ID: {
		const struct pd_rec_build_id *b = &rec->u.build_id;

		name = pd_cpumode_name(b->cpumode);
		out_key("cpumode");
		if (name)
			out_s(name);
		else
			out_u64(b->cpumode);
		out_kv_i("pid", b->pid);
		out_kv_bytes("build_id", b->build_id,
			     b->build_id_size <= 20 ? b->build_id_size : 20);
		out_kv_s("filename", b->filename);
		break;
	}
	case PD_REC_FINISHED_ROUND:
	case PD_REC_FINISHED_INIT:
	case PD_REC_SP_SPLIT:
	case PD_REC_SP_SPLIT_END:
		break;
	case PD_REC_ID_INDEX:
		out_kv_u("nr", rec->u.id_index.nr);
		out_key("entries");
		out_c('[');
		for (i = 0; rec->u.id_index.entries && i < rec->u.id_index.nr; i++) {
			const struct pd_id_index_entry *e = &rec->u.id_index.entries[i];

			if (i)
				out_c(',');
			out_s("id:");
			out_u64(e->id);
			out_s("/idx:");
			out_u64(e->idx);
			out_s("/cpu:");
			out_i64((int64_t)e->cpu);
			out_s("/tid:");
			out_i64((int64_t)e->tid);
			if (rec->u.id_index.has_vcpu) {
				out_s("/machine_pid:");
				out_u64(e->machine_pid);
				out_s("/vcpu:");
				out_u64(e->vcpu);
			}
		}
		out_c(']');
		break;
	case PD_REC_AUXTRACE_INFO:
		out_kv_u("auxtrace_type", rec->u.auxtrace_info.type);
		out_kv_u("nr_priv", rec->u.auxtrace_info.nr_priv);
		out_u64_list("priv", rec->u.auxtrace_info.priv, rec->u.auxtrace_info.nr_priv, true);
		break;
	case PD_REC_AUXTRACE: {
		const struct pd_rec_auxtrace *a = &rec->u.auxtrace;

		out_kv_u("aux_size", a->size);
		out_kv_x("aux_offset", a->offset);
		out_kv_x("reference", a->reference);
		out_kv_u("idx", a->idx);
		out_kv_i("tid", (int32_t)a->tid);
		out_kv_i("cpu", (int32_t)a->cpu);
		break;
	}
	case PD_REC_AUXTRACE_ERROR: {
		const struct pd_rec_auxtrace_error *e = &rec->u.auxtrace_error;

		out_kv_u("error_type", e->type);
		out_kv_u("code", e->code);
		out_kv_i("cpu", (int32_t)e->cpu);
		out_kv_i("pid", (int32_t)e->pid);
		out_kv_i("tid", (int32_t)e->tid);
		out_kv_u("fmt", e->fmt);
		out_kv_x("ip", e->ip);
		out_kv_u("time", e->time);
		if (e->fmt >= 2) {
			out_kv_i("machine_pid", (int32_t)e->machine_pid);
			out_kv_i("vcpu", (int32_t)e->vcpu);
		}
		out_kv_s("msg", e->msg);
		break;
	}
	case PD_REC_THREAD_MAP:
		out_kv_u("nr", rec->u.thread_map.nr);
		out_key("threads");
		out_c('[');
		for (i = 0; rec->u.thread_map.entries && i < rec->u.thread_map.nr; i++) {
			if (i)
				out_c(',');
			out_i64((int64_t)rec->u.thread_map.entries[i].pid);
			out_c(':');
			out_str_n(rec->u.thread_map.entries[i].comm,
				  sizeof(rec->u.thread_map.entries[i].comm));
		}
		out_c(']');
		break;
	case PD_REC_CPU_MAP:
		out_kv_u("nr", rec->u.cpu_map.map.nr);
		out_cpu_map("cpus", &rec->u.cpu_map.map);
		break;
	case PD_REC_STAT_CONFIG:
		out_kv_u("nr", rec->u.stat_config.nr);
		out_key("config");
		out_c('[');
		for (i = 0; rec->u.stat_config.entries && i < rec->u.stat_config.nr; i++) {
			if (i)
				out_c(',');
			out_u64(rec->u.stat_config.entries[i].tag);
			out_c(':');
			out_u64(rec->u.stat_config.entries[i].val);
		}
		out_c(']');
		break;
	case PD_REC_STAT:
		out_kv_u("id", rec->u.stat.id);
		out_kv_i("cpu", (int32_t)rec->u.stat.cpu);
		out_kv_i("thread", (int32_t)rec->u.stat.thread);
		out_kv_u("val", rec->u.stat.val);
		out_kv_u("ena", rec->u.stat.ena);
		out_kv_u("run", rec->u.stat.run);
		break;
	case PD_REC_STAT_ROUND:
		out_kv_u("round_type", rec->u.stat_round.type);
		out_kv_u("time", rec->u.stat_round.time);
		break;
	case PD_REC_EVENT_UPDATE: {
		const struct pd_rec_event_update *e = &rec->u.event_update;

		out_kv_u("update_type", e->type);
		out_kv_u("id", e->id);
		if (e->type == 0 || e->type == 2) {
			out_kv_s(e->type ? "name" : "unit", e->str);
		} else if (e->type == 1) {
			/* the shortest text that reads back as the same double; rare, so printf */
			char d[40];

			snprintf(d, sizeof(d), "%.15g", e->scale);
			if (strtod(d, NULL) != e->scale)
				snprintf(d, sizeof(d), "%.17g", e->scale);
			out_kv_s("scale", d);
		} else if (e->type == 3) {
			out_cpu_map("cpus", &e->cpus);
		}
		break;
	}
	case PD_REC_TIME_CONV: {
		const struct pd_rec_time_conv *t = &rec->u.time_conv;

		out_kv_u("time_shift", t->time_shift);
		out_kv_u("time_mult", t->time_mult);
		out_kv_u("time_zero", t->time_zero);
		if (t->extended) {
			out_kv_u("time_cycles", t->time_cycles);
			out_kv_x("time_mask", t->time_mask);
			out_kv_u("cap_user_time_zero", t->cap_user_time_zero);
			out_kv_u("cap_user_time_short", t->cap_user_time_short);
		}
		break;
	}
	case PD_REC_HEADER_FEATURE:
		if (rec->u.header_feature.end_marker) {
			out_s(" end_marker=1");
			break;
		}
		out_kv_u("feat_id", rec->u.header_feature.feat_id);
		out_kv_s("feature", rec->u.header_feature.feat_id < PD_FEAT_BITS ?
			 cli_feature_name((unsigned int)rec->u.header_feature.feat_id, buf,
					  sizeof(buf)) : "?");
		out_kv_u("len", rec->u.header_feature.len);
		break;
	case PD_REC_COMPRESSED:
	case PD_REC_COMPRESSED2:
		out_kv_u("data_size", rec->u.compressed.data_size);
		break;
	case PD_REC_BPF_METADATA:
		out_kv_s("prog_name", rec->u.bpf_metadata.prog_name);
		out_kv_u("nr", rec->u.bpf_metadata.nr);
		for (i = 0; rec->u.bpf_metadata.entries && i < rec->u.bpf_metadata.nr; i++) {
			out_c(' ');
			out_str_n(rec->u.bpf_metadata.entries[i].key, SIZE_MAX);
			out_c('=');
			out_str_n(rec->u.bpf_metadata.entries[i].value, SIZE_MAX);
		}
		break;
	case PD_REC_SCHEDSTAT_CPU:
	case PD_REC_SCHEDSTAT_DOMAIN: {
		const struct pd_rec_schedstat *s = &rec->u.schedstat;

		out_kv_u("timestamp", s->timestamp);
		out_kv_u("cpu", s->cpu);
		out_kv_u("version", s->version);
		if (rec->type == PD_REC_SCHEDSTAT_DOMAIN)
			out_kv_u("domain", s->domain);
		out_kv_u("nr", s->nr);
		for (i = 0; s->counters && i < s->nr; i++)
			out_kv_u(s->counters[i].name, s->counters[i].value);
		if (!s->nr)
			out_kv_u("counter_bytes", s->counter_len);
		break;
	}
	case PD_REC_SP_KERNEL_SYMBOL:
		out_kv_u("kallsyms_size", rec->u.sp_kernel_symbol.kallsyms_size);
		break;
	case PD_REC_SP_DSO:
		out_kv_u("dso_type", rec->u.sp_dso.dso_type);
		out_kv_u("dso_id", rec->u.sp_dso.dso_id);
		out_kv_x("min_vaddr", rec->u.sp_dso.min_vaddr);
		out_kv_s("name", rec->u.sp_dso.name);
		break;
	case PD_REC_SP_SYMBOL:
		out_kv_x("addr", rec->u.sp_symbol.addr);
		out_kv_u("len", rec->u.sp_symbol.len);
		out_kv_u("dso_id", rec->u.sp_symbol.dso_id);
		out_kv_s("name", rec->u.sp_symbol.name);
		break;
	case PD_REC_SP_EVENT_ID:
		out_kv_u("nr", rec->u.sp_event_id.nr);
		out_key("ids");
		out_c('[');
		for (i = 0; rec->u.sp_event_id.entries && i < rec->u.sp_event_id.nr; i++) {
			if (i)
				out_c(',');
			out_u64(rec->u.sp_event_id.entries[i].attr_index);
			out_c(':');
			out_u64(rec->u.sp_event_id.entries[i].event_id);
		}
		out_c(']');
		break;
	case PD_REC_SP_CALLCHAIN: {
		const struct pd_rec_sp_callchain *c = &rec->u.sp_callchain;

		out_kv_i("pid", (int32_t)c->pid);
		out_kv_i("tid", (int32_t)c->tid);
		out_kv_u("chain_type", c->chain_type);
		out_kv_u("time", c->time);
		out_kv_u("nr", c->nr);
		out_u64_list("ips", c->ips, c->nr, true);
		out_u64_list("sps", c->sps, c->nr, true);
		break;
	}
	case PD_REC_SP_UNWINDING_RESULT: {
		const struct pd_rec_sp_unwinding_result *u = &rec->u.sp_unwinding_result;

		out_kv_u("time", u->time);
		out_kv_u("used_time", u->used_time);
		out_kv_u("error_code", u->error_code);
		out_kv_x("error_addr", u->error_addr);
		out_kv_x("stack_start", u->stack_start);
		out_kv_x("stack_end", u->stack_end);
		out_kv_u("regs_abi", u->regs_abi);
		out_kv_x("reg_mask", u->reg_mask);
		out_u64_list("regs", u->regs, u->nr_regs, true);
		out_kv_u("stack_size", u->stack_size);
		out_kv_u("dyn_size", u->dyn_size);
		if (u->has_callchain) {
			out_kv_u("callchain_nr", u->callchain_nr);
			out_u64_list("ips", u->ips, u->callchain_nr, true);
			out_u64_list("sps", u->sps, u->callchain_nr, true);
		}
		break;
	}
	case PD_REC_SP_DEBUG:
		out_kv_u("time", rec->u.sp_debug.time);
		out_kv_s("s", rec->u.sp_debug.s);
		break;
	default:
		/* unknown type: the header says all we know */
		break;
	}
	if (rec->has_trailer)
		out_sid(&rec->sid);
	if (rec->extra_len) {
		out_kv_u("extra_len", rec->extra_len);
		out_kv_x("extra_offset", rec->extra_offset);
	}
}

/* --hex: the record bytes as stored, 16 per line with their ASCII. */
static void out_hexdump(const uint8_t *p, size_t len)
{
	size_t off, i;

	for (off = 0; off < len; off += 16) {
		size_t n = len - off < 16 ? len - off : 16;

		out_room(96);
		out_buf[out_len++] = ' ';
		out_buf[out_len++] = ' ';
		for (i = 0; i < 4; i++)
			out_buf[out_len++] = hex_digits[(off >> (12 - 4 * i)) & 0xf];
		out_buf[out_len++] = ':';
		for (i = 0; i < 16; i++) {
			out_buf[out_len++] = ' ';
			if (i < n) {
				out_buf[out_len++] = hex_digits[p[off + i] >> 4];
				out_buf[out_len++] = hex_digits[p[off + i] & 0xf];
			} else {
				out_buf[out_len++] = ' ';
				out_buf[out_len++] = ' ';
			}
		}
		out_buf[out_len++] = ' ';
		out_buf[out_len++] = ' ';
		for (i = 0; i < n; i++) {
			uint8_t c = p[off + i];

			out_buf[out_len++] = c >= 0x20 && c < 0x7f ? (char)c : '.';
		}
		out_buf[out_len++] = '\n';
	}
}

static void dump_record(struct dump_ctx *dc, const struct pd_record *rec)
{
	char tbuf[24];

	if (rec->type == PD_REC_COMPRESSED || rec->type == PD_REC_COMPRESSED2) {
		dc->container_offset = rec->offset;
		dc->container_type = rec->type;
	}
	out_hex(rec->offset);
	out_s(" [");
	out_u64(rec->size);
	out_s("] ");
	out_s(cli_type_name(rec->type, tbuf, sizeof(tbuf)));
	if (rec->from_compressed) {
		out_s(" [from ");
		out_s(dc->container_offset == rec->offset && dc->container_type ?
		      pd_record_type_name(dc->container_type) : "COMPRESSED");
		out_s(" @");
		out_hex(rec->offset);
		out_c('+');
		out_hex(rec->inner_offset);
		out_c(']');
	}
	if (rec->misc && rec->type != PD_REC_SAMPLE)
		out_kv_x("misc", rec->misc);
	if (rec->decoded)
		out_fields(dc, rec);
	else
		out_s(" (not decoded)");
	out_c('\n');
	if (dc->hex && rec->raw)
		out_hexdump(rec->raw, rec->raw_len);
}

static void dump_header(const struct dump_ctx *dc, struct pd_reader *r)
{
	const struct pd_header *h = pd_reader_header(r);
	static const char *const modes[] = { "file", "pipe", "dir" };
	size_t i;

	out_s("# perfconv dump: ");
	out_str_n(dc->name, SIZE_MAX);
	out_s("\n# mode=");
	out_s((unsigned int)h->mode < 3 ? modes[h->mode] : "?");
	out_s(" byte_order=");
	out_s(h->big_endian ? "big" : "little");
	out_kv_u("header_size", h->header_size);
	if (h->mode != PD_MODE_PIPE) {
		out_kv_u("attr_size", h->attr_size);
		out_kv_x("data_offset", h->data.offset);
		out_kv_u("data_size", h->data.size);
	}
	if (h->mode == PD_MODE_DIR)
		out_kv_u("streams", h->nr_streams);
	out_c('\n');
	/* pipe mode: the attrs are HEADER_ATTR records below */
	for (i = 0; i < pd_reader_nr_events(r); i++) {
		const struct pd_event *ev = pd_reader_event(r, i);

		out_s("# attr ");
		out_u64(i);
		out_kv_s("name", ev->name);
		out_attr_fields(&ev->attr);
		out_kv_u("size", ev->attr_size_on_disk);
		out_kv_u("nr_ids", ev->nr_ids);
		out_c('\n');
	}
}

/*
 * Diagnostics go straight to stderr, and cli_diag_cb() flushes stdio first:
 * hand it the lines still in our own buffer so that a finding appears
 * right after the records that precede it.
 */
static void flush_before_diag(const struct pd_diag *d, void *arg)
{
	out_flush();
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s dump [--hex] [--time-order] [-v] [SELECTION] [FILE|DIR|-]\n\n"
		"Print one line per record, in file order, with every decoded field:\n"
		"  0xOFFSET [SIZE] TYPE key=value ...\n\n"
		"  -x, --hex         add the raw bytes of each record (and raw/aux sample data)\n"
		"  -t, --time-order  deliver records in time order (FINISHED_ROUND rule)\n"
		"  -v, --verbose     also print diagnostics of severity note\n"
		"  -h, --help        show this help\n"
		CLI_SELECT_HELP "\n"
		CLI_INPUT_HELP_TAIL, cli_progname);
}

int cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "hex", no_argument, NULL, 'x' },
		{ "time-order", no_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		CLI_SELECT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	struct pd_reader *r = NULL;
	const struct pd_record *rec;
	struct cli_select cs;
	struct dump_ctx dc;
	struct cli_diag cd;
	const char *input;
	bool verbose = false;
	int c, status, code, taken;

	memset(&dc, 0, sizeof(dc));
	cli_select_init(&cs, cli_progname, "dump");
	cli_getopt_reset();
	while ((c = getopt_long(argc, argv, ":xtvh" CLI_SELECT_SHORTOPTS, longopts, NULL)) != -1) {
		switch (c) {
		case 'x':
			dc.hex = true;
			break;
		case 't':
			o.time_order = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			cli_select_free(&cs);
			usage(stdout);
			return cli_finish_output(CLI_EXIT_OK);
		default:
			taken = cli_select_option(&cs, c, optarg);
			if (taken <= 0) {
				cli_select_free(&cs);
				return taken ? CLI_EXIT_USAGE : cli_bad_option("dump", argc, argv, c);
			}
		}
	}
	input = cli_select_input(&cs, argc, argv, optind, NULL);
	if (!input) {
		cli_select_free(&cs);
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	cli_select_reader_opts(&cs, &o);

	/* before the first output on stdout, as setvbuf() requires */
	setvbuf(stdout, stdout_buf, _IOFBF, sizeof(stdout_buf));
	out_len = 0;

	cli_diag_init(&cd, input, verbose);
	dc.name = cd.name;
	cd.hook = flush_before_diag;
	o.diag_fn = cli_diag_cb;
	o.diag_arg = &cd;

	status = pd_reader_open(input, &o, &r);
	if (status < 0) {
		cli_select_free(&cs);
		return cli_exit_code(status, &cd);
	}
	code = cli_select_check(&cs, r, false);
	if (code) {
		pd_reader_close(r);
		cli_select_free(&cs);
		return code;
	}

	dump_header(&dc, r);
	if (cli_select_active(&cs)) {
		char desc[1024];

		out_s("# selection ");
		out_s(cli_select_describe(&cs, desc, sizeof(desc)));
		out_c('\n');
	}
	while ((status = pd_reader_next(r, &rec)) > 0)
		dump_record(&dc, rec);
	out_flush();
	code = cli_exit_code(status, &cd);
	if (code == CLI_EXIT_OK)
		code = cli_select_check(&cs, r, true);
	pd_reader_close(r);
	cli_select_free(&cs);
	return cli_finish_output(code);
}
