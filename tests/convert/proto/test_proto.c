// SPDX-License-Identifier: MIT
/*
 * test_proto.c - the to-proto writer: wire encoder against protobuf-c's
 * decoder, quipper's computed values, and a lossless check of every
 * record of every corpus file (project corpus/ and, when present,
 * ../shared/corpus): each record is encoded as the default mode does,
 * decoded with the protobuf-c code generated from schema/perf_data.proto,
 * and compared field by field with what the reader (and so `perfconv
 * dump`) shows for it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <CUnit/CUnit.h>

#include "perf_data.pb-c.h"
#include "perfdata/perfdata.h"
#include "proto/proto_event.h"
#include "proto_wire.h"
#include "test_suites.h"

typedef Quipper__PerfDataProto__PerfEvent PEvent;

/* protobuf-c generates unpack functions for top-level messages only */
static PEvent *unpack_event(size_t len, const uint8_t *p)
{
	return (PEvent *)protobuf_c_message_unpack(&quipper__perf_data_proto__perf_event__descriptor,
						   NULL, len, p);
}

static void free_msg(void *m)
{
	protobuf_c_message_free_unpacked(m, NULL);
}

static void test_md5_prefix(void)
{
	/* values printed by quipper for "" and "[kernel.kallsyms]" */
	CU_ASSERT_EQUAL(pw_md5_prefix_str(""), 15284527576400310788ULL);
	CU_ASSERT_EQUAL(pw_md5_prefix_str("[kernel.kallsyms]"), 280564236321828871ULL);
}

static void check_root(const char *in, const char *want)
{
	char buf[256];

	CU_ASSERT_STRING_EQUAL(pw_root_path(in, buf, sizeof(buf)), want);
}

static void test_root_path(void)
{
	check_root("/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib");
	check_root("/aa/bb", "/aa");
	check_root("/a", "/");
	check_root("/", "/");
	check_root("//anon", "//");
	check_root("///usr//lib//x", "///usr//lib");
	check_root("/lib/modules/3.8.11/kernel/x.ko", "/lib/modules");
	check_root("[anon:dalvik]", "[anon:");
	check_root("/memfd:jit (deleted)", "/memfd:");
	check_root("/tmp/perf-1.map", "/tmp");
	check_root("[vdso]", "");
	check_root("", "");
}

/* Long nested messages widen their length in place: decode must agree. */
static void test_wire_nesting(void)
{
	struct pw_buf b;
	PEvent *ev;
	size_t m, s, i;

	CU_ASSERT_EQUAL_FATAL(pw_buf_init(&b), 0);
	m = pw_open(&b, 3);	/* sample_event */
	for (i = 0; i < 300; i++)
		pw_u64(&b, 11, 0xffffffff81000000ULL + i);
	pw_u64(&b, 1, 42);
	s = pw_open(&b, 18);	/* read_info */
	pw_u64(&b, 1, 7);
	pw_close(&b, s);
	pw_close(&b, m);
	pw_u64(&b, 10, 123456789);
	ev = unpack_event(b.ob.len, pw_data(&b));
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	CU_ASSERT_EQUAL(ev->event_type_case, QUIPPER__PERF_DATA_PROTO__PERF_EVENT__EVENT_TYPE_SAMPLE_EVENT);
	CU_ASSERT_EQUAL(ev->sample_event->n_callchain, 300);
	CU_ASSERT_EQUAL(ev->sample_event->callchain[299], 0xffffffff81000000ULL + 299);
	CU_ASSERT_EQUAL(ev->sample_event->ip, 42);
	CU_ASSERT_EQUAL(ev->sample_event->read_info->time_enabled, 7);
	CU_ASSERT_EQUAL(ev->timestamp, 123456789);
	free_msg(ev);

	/* negative int32 and double */
	b.ob.len = 0;
	pw_i32(&b, 1002, -1);
	{
		Quipper__PerfDataProto__PerfEventAttr *a = (Quipper__PerfDataProto__PerfEventAttr *)
			protobuf_c_message_unpack(&quipper__perf_data_proto__perf_event_attr__descriptor,
						  NULL, b.ob.len, pw_data(&b));

		CU_ASSERT_PTR_NOT_NULL_FATAL(a);
		CU_ASSERT(a->has_clockid && a->clockid == -1);
		free_msg(a);
	}
	pw_buf_free(&b);
}

/*
 * Out of memory (the buffer may not grow past its first storage): the
 * latch holds, and encoding goes on without writing past the storage,
 * a message open before the failure closed after it included.
 */
static void test_wire_nomem(void)
{
	static char big[2 * OUT_BUF_MIN];
	struct pw_buf b;
	size_t m, k, cap;

	CU_ASSERT_EQUAL_FATAL(pw_buf_init(&b), 0);
	b.ob.mem_max = OUT_BUF_MIN;
	cap = b.ob.cap;
	m = pw_open(&b, 3);
	for (k = 0; k < 1000; k++)
		pw_u64(&b, 11, k);
	CU_ASSERT_FALSE(pw_nomem(&b));
	pw_bytes(&b, 2, big, sizeof(big));
	CU_ASSERT_TRUE(pw_nomem(&b));
	pw_close(&b, m);
	for (k = 0; k < 10000; k++) {
		size_t n = pw_open(&b, 4);

		pw_str(&b, 1, "after the failure");
		pw_bytes(&b, 2, big, sizeof(big));
		pw_close(&b, n);
		CU_ASSERT_FATAL(b.ob.len <= cap);
	}
	CU_ASSERT_TRUE(pw_nomem(&b));
	CU_ASSERT_EQUAL(b.ob.cap, cap);
	pw_buf_free(&b);
}

/* ---- lossless check over the corpora ---- */

struct lossless {
	unsigned long files, records, bad;
};

static void check_sample_id(const struct pd_record *rec,
			    const Quipper__PerfDataProto__SampleInfo *si, int *err)
{
	uint64_t p = rec->sid.present;

	if (!si) {
		(*err)++;
		return;
	}
	if (!rec->has_trailer)
		return;
	if ((p & PD_SAMPLE_TID) && (!si->has_pid || si->pid != rec->sid.pid || si->tid != rec->sid.tid))
		(*err)++;
	if ((p & PD_SAMPLE_TIME) && (!si->has_sample_time_ns || si->sample_time_ns != rec->sid.time))
		(*err)++;
	if ((p & PD_SAMPLE_CPU) && (!si->has_cpu || si->cpu != rec->sid.cpu))
		(*err)++;
}

static int compare(const struct pd_record *rec, const PEvent *ev)
{
	const Quipper__PerfDataProto__EventHeader *h = ev->header;
	int err = 0;
	uint64_t i;

	if (!h || h->type != rec->type || h->misc != rec->misc || h->size != rec->size)
		return 1;
	if (!ev->has_offset || ev->offset != rec->offset)
		err++;
	if (ev->from_compressed != rec->from_compressed)
		err++;
	if (ev->has_raw) {
		if (ev->raw.len != rec->raw_len || memcmp(ev->raw.data, rec->raw, rec->raw_len))
			err++;
		return err;
	}
	if (!rec->decoded)
		return err + 1;
	switch (rec->type) {
	case PD_REC_SAMPLE: {
		const struct pd_sample *s = &rec->u.sample;
		const Quipper__PerfDataProto__SampleEvent *e = ev->sample_event;
		uint64_t t = s->sample_type;

		if (!e)
			return err + 1;
		if ((t & PD_SAMPLE_IP) && e->ip != s->ip)
			err++;
		if ((t & PD_SAMPLE_TID) && (e->pid != s->pid || e->tid != s->tid))
			err++;
		if ((t & PD_SAMPLE_TIME) && (e->sample_time_ns != s->time || ev->timestamp != s->time))
			err++;
		if ((t & PD_SAMPLE_ADDR) && e->addr != s->addr)
			err++;
		if ((t & PD_SAMPLE_PERIOD) && e->period != s->period)
			err++;
		if ((t & PD_SAMPLE_CPU) && e->cpu != s->cpu)
			err++;
		if (t & PD_SAMPLE_CALLCHAIN) {
			if (e->n_callchain != s->callchain_nr)
				err++;
			else
				for (i = 0; i < s->callchain_nr; i++)
					err += e->callchain[i] != s->callchain[i];
		}
		if (t & PD_SAMPLE_BRANCH_STACK) {
			if (e->n_branch_stack != s->branch_nr)
				err++;
			else
				for (i = 0; i < s->branch_nr; i++)
					err += e->branch_stack[i]->from_ip != s->branches[i].from ||
					       e->branch_stack[i]->to_ip != s->branches[i].to ||
					       e->branch_stack[i]->flags != s->branches[i].flags;
		}
		if ((t & PD_SAMPLE_RAW) && (e->raw.len != s->raw_size ||
					    memcmp(e->raw.data, s->raw_data, s->raw_size)))
			err++;
		if (t & PD_SAMPLE_REGS_USER) {
			if (!e->regs_user || e->regs_user->n_regs != s->regs_user.nr)
				err++;
			else
				for (i = 0; i < s->regs_user.nr; i++)
					err += e->regs_user->regs[i] != s->regs_user.regs[i];
		}
		if ((t & PD_SAMPLE_REGS_INTR) &&
		    (!e->regs_intr || e->regs_intr->n_regs != s->regs_intr.nr))
			err++;
		if (t & PD_SAMPLE_STACK_USER) {
			if (!e->stack_user || e->stack_user->size != s->stack_size ||
			    (s->stack_size && (e->stack_user->data.len != s->stack_size ||
					       memcmp(e->stack_user->data.data, s->stack_data,
						      s->stack_size))))
				err++;
		}
		if ((t & PD_SAMPLE_WEIGHT) && e->weight != s->weight)
			err++;
		if ((t & PD_SAMPLE_READ) && (!e->read_info || e->read_info->n_read_value != s->read.nr))
			err++;
		break;
	}
	case PD_REC_MMAP:
	case PD_REC_MMAP2: {
		const struct pd_rec_mmap *m = &rec->u.mmap;
		const Quipper__PerfDataProto__MMapEvent *e = ev->mmap_event;

		if (!e || e->pid != m->pid || e->tid != m->tid || e->start != m->start ||
		    e->len != m->len || e->pgoff != m->pgoff || strcmp(e->filename, m->filename) ||
		    e->filename_md5_prefix != pw_md5_prefix_str(m->filename))
			return err + 1;
		if (rec->type == PD_REC_MMAP2 && (e->prot != m->prot || e->flags != m->flags))
			err++;
		check_sample_id(rec, e->sample_info, &err);
		break;
	}
	case PD_REC_COMM:
		if (!ev->comm_event || strcmp(ev->comm_event->comm, rec->u.comm.comm) ||
		    ev->comm_event->pid != rec->u.comm.pid)
			return err + 1;
		check_sample_id(rec, ev->comm_event->sample_info, &err);
		break;
	case PD_REC_FORK:
	case PD_REC_EXIT: {
		const Quipper__PerfDataProto__ForkEvent *e =
			rec->type == PD_REC_FORK ? ev->fork_event : ev->exit_event;

		if (!e || e->pid != rec->u.fork.pid || e->ppid != rec->u.fork.ppid ||
		    e->tid != rec->u.fork.tid || e->ptid != rec->u.fork.ptid ||
		    e->fork_time_ns != rec->u.fork.time)
			return err + 1;
		break;
	}
	case PD_REC_LOST:
		if (!ev->lost_event || ev->lost_event->id != rec->u.lost.id ||
		    ev->lost_event->lost != rec->u.lost.lost)
			err++;
		break;
	case PD_REC_AUXTRACE:
		if (!ev->auxtrace_event || ev->auxtrace_event->size != rec->u.auxtrace.size ||
		    (rec->extra && ev->auxtrace_event->trace_data.len != rec->extra_len))
			err++;
		break;
	case PD_REC_FINISHED_ROUND:
	case PD_REC_FINISHED_INIT:
		if (ev->event_type_case != QUIPPER__PERF_DATA_PROTO__PERF_EVENT__EVENT_TYPE__NOT_SET)
			err++;
		break;
	default:
		/* every other known type has its own message */
		if (ev->event_type_case == QUIPPER__PERF_DATA_PROTO__PERF_EVENT__EVENT_TYPE__NOT_SET)
			err++;
		break;
	}
	return err;
}

static void lossless_file(struct lossless *L, const char *path)
{
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	const struct pd_record *rec;
	struct pd_reader *r;
	struct pw_buf b;
	unsigned long bad = 0;

	o.skip_compressed = true;
	if (pd_reader_open(path, &o, &r) < 0)
		return;	/* files the reader rejects have no output either */
	CU_ASSERT_EQUAL_FATAL(pw_buf_init(&b), 0);
	L->files++;
	while (pd_reader_next(r, &rec) > 0) {
		PEvent *ev;

		b.ob.len = 0;
		pe_encode_event(&b, rec, true);
		ev = unpack_event(b.ob.len, pw_data(&b));
		L->records++;
		if (!ev || compare(rec, ev)) {
			if (!bad)
				fprintf(stderr, "\n  %s: record %llu (type %u at 0x%llx) differs",
					path, (unsigned long long)rec->index, rec->type,
					(unsigned long long)rec->offset);
			bad++;
		}
		if (ev)
			free_msg(ev);
	}
	pd_reader_close(r);
	pw_buf_free(&b);
	L->bad += bad;
}

static void lossless_dir(struct lossless *L, const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char path[4096];

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		struct stat st;

		if (de->d_name[0] == '.' || (n > 8 && !strcmp(de->d_name + n - 8, ".pb_text")) ||
		    (n > 9 && !strcmp(de->d_name + n - 9, ".buildids")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		lossless_file(L, path);
	}
	closedir(d);
}

static void test_lossless(void)
{
	struct lossless L = { 0 };
	struct stat st;

	lossless_dir(&L, "corpus");
	if (!stat("../shared/corpus", &st)) {
		lossless_dir(&L, "../shared/corpus/quipper");
		lossless_dir(&L, "../shared/corpus/simpleperf");
	} else {
		fprintf(stderr, "\n  ../shared/corpus absent: external corpus skipped");
	}
	CU_ASSERT(L.files > 0);
	CU_ASSERT(L.records > 0);
	CU_ASSERT_EQUAL(L.bad, 0);
}

/*
 * Types no corpus file has, written from the record walk: the values
 * decoded by protobuf-c with quipper's schema, and quipper's mode (no
 * extension) without the extension fields.
 */
static PEvent *encode_decode(struct pw_buf *b, const struct pd_record *rec, bool ext)
{
	b->ob.len = 0;
	CU_ASSERT_TRUE(pe_encode_event(b, rec, ext));
	return unpack_event(b->ob.len, pw_data(b));
}

static void test_walked_rare(void)
{
	static const struct pd_sp_event_id_entry ids[] = { { 1, 100 }, { 2, 200000 }, { 0, 3 } };
	struct pd_record rec = { .decoded = true, .size = 120 };
	const Quipper__PerfDataProto__AuxtraceErrorEvent *a;
	const Quipper__PerfDataProto__SimpleperfEvent *sp;
	struct pw_buf b;
	unsigned int fmt;
	PEvent *ev;

	CU_ASSERT_EQUAL_FATAL(pw_buf_init(&b), 0);
	rec.type = PD_REC_AUXTRACE_ERROR;
	for (fmt = 0; fmt <= 2; fmt += 2) {
		rec.u.auxtrace_error = (struct pd_rec_auxtrace_error){
			.type = 1, .code = 2, .cpu = 0xffffffff, .pid = 44, .tid = 45, .fmt = fmt,
			.ip = 0xffff800012345678ull, .time = fmt ? 123456 : 0, .msg = "lost sync",
			.machine_pid = fmt ? 9 : 0, .vcpu = fmt ? 3 : 0,
		};
		ev = encode_decode(&b, &rec, true);
		a = ev ? ev->auxtrace_error_event : NULL;
		CU_ASSERT_PTR_NOT_NULL(a);
		if (!a)
			goto out;
		CU_ASSERT(a->type == 1 && a->code == 2 && a->cpu == 0xffffffff && a->pid == 44 &&
			  a->tid == 45 && a->ip == 0xffff800012345678ull);
		CU_ASSERT_STRING_EQUAL(a->msg, "lost sync");
		CU_ASSERT_EQUAL(a->msg_md5_prefix, pw_md5_prefix("lost sync", 9));
		CU_ASSERT(a->has_fmt && a->fmt == fmt);
		/* format 0 has no time: its message starts there */
		CU_ASSERT_EQUAL(a->has_time, fmt >= 1);
		CU_ASSERT_EQUAL(a->has_machine_pid, fmt >= 2);
		CU_ASSERT(!fmt || (a->time == 123456 && a->machine_pid == 9 && a->vcpu == 3));
		free_msg(ev);
		ev = NULL;
	}
	ev = encode_decode(&b, &rec, false);
	a = ev ? ev->auxtrace_error_event : NULL;
	CU_ASSERT_PTR_NOT_NULL(a);
	if (!a)
		goto out;
	CU_ASSERT(a->pid == 44 && !a->has_fmt && !a->has_time && !a->has_vcpu);
	free_msg(ev);
	ev = NULL;

	rec.type = PD_REC_SP_EVENT_ID;
	rec.u.sp_event_id = (struct pd_rec_sp_event_id){ .nr = 3, .entries = ids };
	ev = encode_decode(&b, &rec, true);
	sp = ev ? ev->simpleperf_event : NULL;
	CU_ASSERT(sp && sp->n_attr_index == 3 && sp->n_event_id == 3);
	if (!sp || sp->n_attr_index != 3 || sp->n_event_id != 3)
		goto out;
	CU_ASSERT(sp->attr_index[0] == 1 && sp->attr_index[1] == 2 && sp->attr_index[2] == 0);
	CU_ASSERT(sp->event_id[0] == 100 && sp->event_id[1] == 200000 && sp->event_id[2] == 3);
	free_msg(ev);
	ev = NULL;
	/* quipper drops simpleperf's records */
	b.ob.len = 0;
	CU_ASSERT_FALSE(pe_encode_event(&b, &rec, false));
	CU_ASSERT_EQUAL(b.ob.len, 0);
out:
	if (ev)
		free_msg(ev);
	pw_buf_free(&b);
}

/*
 * quipper's rules for a sample no corpus file shows: ip written in its
 * mode without the IP bit, IDENTIFIER's value in id when a sample has ID
 * too, WEIGHT_STRUCT in its own message and not in weight, and the
 * extension's aux bytes, branch counters and sample_type.
 */
static void test_sample_rules(void)
{
	static const uint64_t counters[] = { 5, 6 };
	static const struct pd_branch_entry br[2] = { { 1, 2, 0 }, { 3, 4, 0 } };
	static const uint8_t aux[] = { 9, 8, 7 };
	struct pd_record rec = { .type = PD_REC_SAMPLE, .decoded = true, .size = 200 };
	struct pd_sample *s = &rec.u.sample;
	const Quipper__PerfDataProto__SampleEvent *e;
	struct pw_buf b;
	PEvent *ev;

	CU_ASSERT_EQUAL_FATAL(pw_buf_init(&b), 0);
	s->sample_type = PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER | PD_SAMPLE_WEIGHT_STRUCT |
			 PD_SAMPLE_AUX | PD_SAMPLE_BRANCH_STACK;
	s->id = 11;
	s->identifier = 12;
	s->weight = (uint64_t)3 << 48 | (uint64_t)2 << 32 | 1;
	s->aux_size = sizeof(aux);
	s->aux_data = aux;
	s->branch_nr = 2;
	s->branches = br;
	s->branch_counters = counters;
	ev = encode_decode(&b, &rec, false);
	e = ev ? ev->sample_event : NULL;
	CU_ASSERT_PTR_NOT_NULL(e);
	if (!e)
		goto out;
	CU_ASSERT(e->has_ip && e->ip == 0);
	CU_ASSERT(e->has_id && e->id == 12);
	CU_ASSERT(!e->has_weight && e->weight_struct && e->weight_struct->var1_dw == 1 &&
		  e->weight_struct->var2_w == 2 && e->weight_struct->var3_w == 3);
	CU_ASSERT(e->n_branch_stack == 2 && e->has_no_hw_idx && e->no_hw_idx);
	CU_ASSERT(!e->has_aux_data && !e->n_branch_counters && !e->has_sample_type);
	free_msg(ev);

	s->sample_type &= ~PD_SAMPLE_IDENTIFIER;
	ev = encode_decode(&b, &rec, true);
	e = ev ? ev->sample_event : NULL;
	CU_ASSERT_PTR_NOT_NULL(e);
	if (!e)
		goto out;
	CU_ASSERT(!e->has_ip && e->has_id && e->id == 11);
	CU_ASSERT(e->has_aux_data && e->aux_data.len == sizeof(aux) &&
		  !memcmp(e->aux_data.data, aux, sizeof(aux)));
	CU_ASSERT(e->n_branch_counters == 2 && e->branch_counters[1] == 6);
	CU_ASSERT(e->has_sample_type && e->sample_type == s->sample_type);
out:
	if (ev)
		free_msg(ev);
	pw_buf_free(&b);
}

int pd_test_register_proto(void)
{
	CU_pSuite s = CU_add_suite("proto", NULL, NULL);

	if (!s || !CU_add_test(s, "md5 prefix", test_md5_prefix) ||
	    !CU_add_test(s, "root_path", test_root_path) ||
	    !CU_add_test(s, "wire nesting", test_wire_nesting) ||
	    !CU_add_test(s, "out of memory: the latch holds", test_wire_nomem) ||
	    !CU_add_test(s, "walked types no corpus file has", test_walked_rare) ||
	    !CU_add_test(s, "sample rules no corpus file shows", test_sample_rules) ||
	    !CU_add_test(s, "lossless over the corpora", test_lossless))
		return CU_get_error();
	return CUE_SUCCESS;
}
