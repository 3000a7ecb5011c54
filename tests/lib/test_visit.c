// SPDX-License-Identifier: MIT
/*
 * test_visit.c - pd_record_visit(), pd_sample_id_visit(),
 * pd_feature_visit() and pd_attr_visit(): the exact sequence of callbacks,
 * names, values and flags for records, features and attrs built by hand
 * (and one feature and one attr decoded from their bytes).
 *
 * A recording sink writes one line per callback:
 *	u NAME=VALUE/FLAGS   i, x, s, f (flag), y (sym), r (real), b (bytes)
 *	[ NAME/FLAGS   ]   { NAME FLAT   }   and one line per composite
 * so that each test compares the whole walk with one string.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "perfdata/perfdata.h"
#include "test_suites.h"

static char trace[8192];
static size_t trace_len;

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void emit(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(trace + trace_len, sizeof(trace) - trace_len, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof(trace) - trace_len)
		trace_len += (size_t)n;
	else
		trace_len = sizeof(trace) - 1;
}

static const char *nm(const char *name)
{
	return name ? name : "-";
}

static void rec_u64(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	emit("u %s=%" PRIu64 "/%x\n", nm(name), v, flags);
}

static void rec_i64(void *ctx, const char *name, int64_t v, unsigned int flags)
{
	emit("i %s=%" PRId64 "/%x\n", nm(name), v, flags);
}

static void rec_hex(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	emit("x %s=%" PRIx64 "/%x\n", nm(name), v, flags);
}

static void rec_str(void *ctx, const char *name, const char *s, size_t max, unsigned int flags)
{
	emit("s %s=%.*s/%x\n", nm(name), s ? (int)strnlen(s, max) : 6, s ? s : "(null)", flags);
}

static void rec_flag(void *ctx, const char *name, bool set, unsigned int flags)
{
	emit("f %s=%d/%x\n", nm(name), set, flags);
}

static void rec_sym(void *ctx, const char *name, const char *sym, uint64_t v, unsigned int flags)
{
	emit("y %s=%s,%" PRIu64 "/%x\n", nm(name), sym ? sym : "-", v, flags);
}

static void rec_real(void *ctx, const char *name, double v, unsigned int flags)
{
	emit("r %s=%g/%x\n", nm(name), v, flags);
}

static void rec_bytes(void *ctx, const char *name, const uint8_t *p, size_t n, unsigned int flags)
{
	size_t i;

	emit("b %s=", nm(name));
	if (!p)
		emit("NULL");
	for (i = 0; p && i < n; i++)
		emit("%02x", p[i]);
	emit(",%zu/%x\n", n, flags);
}

static void rec_list_begin(void *ctx, const char *name, unsigned int flags)
{
	emit("[ %s/%x\n", nm(name), flags);
}

static void rec_list_end(void *ctx)
{
	emit("]\n");
}

static void rec_obj_begin(void *ctx, const char *name, const char *flat, unsigned int flags)
{
	emit("{ %s %s\n", nm(name), flat ? flat : "-");
}

static void rec_obj_end(void *ctx)
{
	emit("}\n");
}

static void rec_read(void *ctx, const char *name, const struct pd_read *rd)
{
	emit("read %s nr=%" PRIu64 "\n", name, rd->nr);
}

static void rec_regs(void *ctx, const char *name, const struct pd_regs *r)
{
	emit("regs %s abi=%" PRIu64 "\n", name, r->abi);
}

static void rec_branch_stack(void *ctx, const struct pd_sample *s)
{
	emit("branch_stack nr=%" PRIu64 "\n", s->branch_nr);
}

static void rec_attr(void *ctx, const struct pd_attr *attr, unsigned int flags)
{
	emit("attr type=%u/%x\n", attr->type, flags);
}

static void rec_feature(void *ctx, const struct pd_rec_header_feature *hf)
{
	emit("feature %" PRIu64 "\n", hf->feat_id);
}

static void rec_raw_fields(void *ctx, const struct pd_record *rec)
{
	emit("raw_fields\n");
}

static const struct pd_visit_ops rec_ops = {
	.u64 = rec_u64,
	.i64 = rec_i64,
	.hex = rec_hex,
	.str = rec_str,
	.flag = rec_flag,
	.sym = rec_sym,
	.real = rec_real,
	.bytes = rec_bytes,
	.list_begin = rec_list_begin,
	.list_end = rec_list_end,
	.obj_begin = rec_obj_begin,
	.obj_end = rec_obj_end,
	.read = rec_read,
	.regs = rec_regs,
	.branch_stack = rec_branch_stack,
	.attr = rec_attr,
	.feature = rec_feature,
	.raw_fields = rec_raw_fields,
};

static const char *walk(const struct pd_record *rec, const struct pd_visit_ops *ops)
{
	trace_len = 0;
	trace[0] = '\0';
	pd_record_visit(rec, ops, NULL);
	return trace;
}

static void test_mmap2(void)
{
	struct pd_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = PD_REC_MMAP2;
	rec.misc = PD_MISC_MMAP_BUILD_ID;
	rec.decoded = true;
	rec.u.mmap.pid = 10;
	rec.u.mmap.tid = (uint32_t)-1;
	rec.u.mmap.start = 0x400000;
	rec.u.mmap.len = 0x1000;
	rec.u.mmap.has_build_id = true;
	rec.u.mmap.build_id_size = 24;		/* more than the 20 bytes held */
	memset(rec.u.mmap.build_id, 0xab, sizeof(rec.u.mmap.build_id));
	rec.u.mmap.prot = 5;
	rec.u.mmap.filename = "/bin/ls";
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops),
		"i pid=10/0\n"
		"i tid=-1/0\n"
		"x start=400000/0\n"
		"x len=1000/0\n"
		"x pgoff=0/0\n"
		"b build_id=abababababababababababababababababababab,20/0\n"
		"x prot=5/0\n"
		"x flags=0/0\n"
		"f data=0/0\n"
		"s filename=/bin/ls/0\n");

	/* MMAP: no MMAP2 fields; the data flag from misc */
	rec.type = PD_REC_MMAP;
	rec.misc = PD_MISC_MMAP_DATA;
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops),
		"i pid=10/0\n"
		"i tid=-1/0\n"
		"x start=400000/0\n"
		"x len=1000/0\n"
		"x pgoff=0/0\n"
		"f data=1/0\n"
		"s filename=/bin/ls/0\n");

	/* a record that was not decoded shows nothing */
	rec.decoded = false;
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops), "");
}

/*
 * The list of a sample's fields: in record order, every sample_type bit
 * bringing one at least, every member inside struct pd_sample.
 */
static void test_sample_field_table(void)
{
	char names[1024] = "";
	uint64_t bits = 0;
	size_t i, n = 0;

	for (i = 0; i < PD_SFI_NR; i++) {
		const struct pd_sample_field *f = &pd_sample_field_table[i];

		CU_ASSERT_PTR_NOT_NULL_FATAL(f->name);
		CU_ASSERT(f->member < sizeof(struct pd_sample) && f->count < sizeof(struct pd_sample));
		bits |= f->bit;
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? " " : "", f->name);
	}
	CU_ASSERT_EQUAL(bits, PD_SAMPLE_MAX - 1);
	CU_ASSERT_STRING_EQUAL(names, "sample_type identifier ip pid tid time addr id stream_id cpu "
			       "cpu_res period read callchain_nr callchain raw_size raw "
			       "branch_stack regs_user stack_user weight weight_struct data_src "
			       "transaction regs_intr phys_addr cgroup data_page_size "
			       "code_page_size aux_size aux");
	CU_ASSERT_EQUAL(pd_sample_field_table[PD_SFI_CALLCHAIN].count,
			offsetof(struct pd_sample, callchain_nr));
}

static void test_sample(void)
{
	static const uint64_t chain[] = { PD_CONTEXT_USER, 0x401000 };
	static const uint8_t raw[] = { 1, 2, 3, 4 };
	struct pd_event ev;
	struct pd_record rec;
	struct pd_sample *s = &rec.u.sample;
	char expect[2048];

	memset(&rec, 0, sizeof(rec));
	memset(&ev, 0, sizeof(ev));
	ev.name = "cycles";
	rec.type = PD_REC_SAMPLE;
	rec.misc = 2 | PD_MISC_EXACT_IP;	/* USER */
	rec.decoded = true;
	rec.event = &ev;
	s->sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_CPU | PD_SAMPLE_CALLCHAIN |
			 PD_SAMPLE_RAW | PD_SAMPLE_STACK_USER | PD_SAMPLE_WEIGHT_STRUCT |
			 PD_SAMPLE_REGS_USER;
	s->ip = 0x401000;
	s->pid = 7;
	s->tid = 8;
	s->cpu = 3;
	s->cpu_res = 0;
	s->period = 4000;			/* the attr's: no PERIOD bit */
	s->callchain_nr = 2;
	s->callchain = chain;
	s->raw_size = sizeof(raw);
	s->raw_data = raw;
	s->regs_user.abi = 2;
	s->stack_size = 0;
	s->weight = ((uint64_t)3 << 48) | ((uint64_t)2 << 32) | 1;
	snprintf(expect, sizeof(expect),
		 "s event_name=cycles/%x\n"
		 "s event=cycles/%x\n"
		 "y cpumode=USER,2/0\n"
		 "f exact_ip=1/0\n"
		 "x sample_type=%" PRIx64 "/%x\n"
		 "x ip=401000/0\n"
		 "i pid=7/0\n"
		 "i tid=8/0\n"
		 "i cpu=3/0\n"
		 "u cpu_res=0/%x\n"
		 "u period=4000/%x\n"
		 "u callchain_nr=2/%x\n"
		 "[ callchain/%x\n"
		 "x -=%" PRIx64 "/0\n"
		 "x -=401000/0\n"
		 "]\n"
		 "u raw_size=4/0\n"
		 "b raw=01020304,4/%x\n"
		 "raw_fields\n"
		 "regs regs_user abi=2\n"
		 "{ stack_user stack_\n"
		 "u size=0/0\n"
		 "b data=NULL,0/%x\n"
		 "}\n"
		 "u weight=%" PRIu64 "/0\n"
		 "{ weight_struct weight.\n"
		 "u var1=1/0\n"
		 "u var2=2/0\n"
		 "u var3=3/0\n"
		 "}\n",
		 PD_VF_DETAIL, PD_VF_SUMMARY, s->sample_type, PD_VF_DETAIL, PD_VF_DETAIL,
		 PD_VF_DETAIL, PD_VF_SUMMARY, PD_VF_CALLCHAIN, PD_CONTEXT_USER,
		 PD_VF_PAYLOAD | PD_VF_BULK, PD_VF_PAYLOAD | PD_VF_DETAIL, s->weight);
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops), expect);

	/* raw_fields is optional: the walk goes on without it */
	{
		struct pd_visit_ops ops = rec_ops;

		ops.raw_fields = NULL;
		s->sample_type = PD_SAMPLE_RAW | PD_SAMPLE_PERIOD;
		rec.misc = 7;			/* a cpumode without a name */
		rec.event = NULL;
		snprintf(expect, sizeof(expect),
			 "y cpumode=-,7/0\n"
			 "f exact_ip=0/0\n"
			 "x sample_type=%" PRIx64 "/%x\n"
			 "u period=4000/0\n"
			 "u raw_size=4/0\n"
			 "b raw=01020304,4/%x\n",
			 s->sample_type, PD_VF_DETAIL, PD_VF_PAYLOAD | PD_VF_BULK);
		CU_ASSERT_STRING_EQUAL(walk(&rec, &ops), expect);
	}
}

static void test_lists(void)
{
	static const struct pd_id_index_entry idx[] = {
		{ .id = 100, .idx = 0, .cpu = 1, .tid = (uint64_t)-1, .machine_pid = 9, .vcpu = 2 },
	};
	static const uint32_t cpus[] = { 0, 2 };
	static const struct pd_bpf_metadata_entry md[] = { { "k", "v" } };
	struct pd_record rec;
	char expect[1024];

	memset(&rec, 0, sizeof(rec));
	rec.decoded = true;
	rec.type = PD_REC_ID_INDEX;
	rec.u.id_index.nr = 1;
	rec.u.id_index.has_vcpu = true;
	rec.u.id_index.entries = idx;
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops),
		"u nr=1/0\n"
		"[ entries/0\n"
		"{ - -\n"
		"u id=100/0\n"
		"u idx=0/0\n"
		"i cpu=1/0\n"
		"i tid=-1/0\n"
		"u machine_pid=9/0\n"
		"u vcpu=2/0\n"
		"}\n"
		"]\n");

	/* the list is empty, not absent, when the entries were not kept */
	rec.u.id_index.entries = NULL;
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops), "u nr=1/0\n[ entries/0\n]\n");

	memset(&rec.u, 0, sizeof(rec.u));
	rec.type = PD_REC_CPU_MAP;
	rec.u.cpu_map.map.encoding = 1;
	rec.u.cpu_map.map.long_size = 8;
	rec.u.cpu_map.map.nr = 2;
	rec.u.cpu_map.map.cpus = cpus;
	snprintf(expect, sizeof(expect),
		 "u nr=2/0\n"
		 "{ map cpus_\n"
		 "u encoding=1/0\n"
		 "u long_size=8/0\n"
		 "f any_cpu=0/0\n"
		 "[ cpus/%x\n"
		 "u -=0/0\n"
		 "u -=2/0\n"
		 "]\n"
		 "}\n", PD_VF_MAIN);
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops), expect);

	memset(&rec.u, 0, sizeof(rec.u));
	rec.type = PD_REC_BPF_METADATA;
	rec.u.bpf_metadata.prog_name = "prog";
	rec.u.bpf_metadata.nr = 1;
	rec.u.bpf_metadata.entries = md;
	snprintf(expect, sizeof(expect),
		 "s prog_name=prog/0\n"
		 "u nr=1/0\n"
		 "[ entries/%x\n"
		 "{ - -\n"
		 "s key=k/0\n"
		 "s value=v/0\n"
		 "}\n"
		 "]\n", PD_VF_AS_FIELDS);
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops), expect);
}

static void test_other_types(void)
{
	static const struct pd_schedstat_counter ctr[] = { { "yld_count", 5 } };
	static const uint8_t area[] = { 0xee };
	struct pd_record rec;
	char expect[1024];

	memset(&rec, 0, sizeof(rec));
	rec.decoded = true;
	rec.type = PD_REC_SWITCH_CPU_WIDE;
	rec.misc = PD_MISC_SWITCH_OUT | PD_MISC_SWITCH_OUT_PREEMPT;
	rec.u.sw.next_prev_pid = 4;
	rec.u.sw.next_prev_tid = 5;
	snprintf(expect, sizeof(expect),
		 "s direction=out/%x\n"
		 "s dir=out/%x\n"
		 "f preempt=1/0\n"
		 "i next_prev_pid=4/0\n"
		 "i next_prev_tid=5/0\n", PD_VF_DETAIL, PD_VF_SUMMARY);
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops), expect);

	/* an end marker has no payload to show */
	memset(&rec.u, 0, sizeof(rec.u));
	rec.misc = 0;
	rec.type = PD_REC_HEADER_FEATURE;
	rec.u.header_feature.end_marker = true;
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops), "f end_marker=1/0\n");
	rec.u.header_feature.end_marker = false;
	rec.u.header_feature.feat_id = PD_FEAT_HOSTNAME;
	rec.u.header_feature.len = 12;
	snprintf(expect, sizeof(expect),
		 "f end_marker=0/0\n"
		 "u feat_id=%u/0\n"
		 "feature %u\n"
		 "u len=12/%x\n", PD_FEAT_HOSTNAME, PD_FEAT_HOSTNAME, PD_VF_SUMMARY);
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops), expect);

	/* counter names come from the file; the raw area is always offered */
	memset(&rec.u, 0, sizeof(rec.u));
	rec.type = PD_REC_SCHEDSTAT_DOMAIN;
	rec.u.schedstat.cpu = 1;
	rec.u.schedstat.version = 17;
	rec.u.schedstat.domain = 2;
	rec.u.schedstat.nr = 1;
	rec.u.schedstat.counters = ctr;
	rec.u.schedstat.counter_bytes = area;
	rec.u.schedstat.counter_len = sizeof(area);
	snprintf(expect, sizeof(expect),
		 "u timestamp=0/0\n"
		 "u cpu=1/0\n"
		 "u version=17/0\n"
		 "u domain=2/0\n"
		 "u nr=1/0\n"
		 "{ counters \n"
		 "u yld_count=5/%x\n"
		 "}\n"
		 "b counter_bytes=ee,1/%x\n", PD_VF_INPUT_NAME, PD_VF_PAYLOAD | PD_VF_DETAIL);
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops), expect);

	memset(&rec.u, 0, sizeof(rec.u));
	rec.type = PD_REC_EVENT_UPDATE;
	rec.u.event_update.type = 1;
	rec.u.event_update.id = 77;
	rec.u.event_update.scale = 0.5;
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops),
		"u update_type=1/0\n"
		"u id=77/0\n"
		"r scale=0.5/0\n");

	/* types without a body */
	rec.type = PD_REC_FINISHED_ROUND;
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops), "");
	rec.type = 1000;
	CU_ASSERT_STRING_EQUAL(walk(&rec, &rec_ops), "");
}

static void test_sample_id(void)
{
	struct pd_sample_id sid;
	char expect[256];

	memset(&sid, 0, sizeof(sid));
	sid.present = PD_SAMPLE_TID | PD_SAMPLE_IDENTIFIER | PD_SAMPLE_CPU;
	sid.pid = (uint32_t)-1;
	sid.tid = 2;
	sid.id = 55;
	sid.cpu = 6;
	trace_len = 0;
	trace[0] = '\0';
	pd_sample_id_visit(&sid, &rec_ops, NULL);
	snprintf(expect, sizeof(expect),
		 "{ sample_id sid.\n"
		 "i pid=-1/0\n"
		 "i tid=2/0\n"
		 "u id=55/0\n"
		 "i cpu=6/0\n"
		 "u cpu_res=0/%x\n"
		 "}\n", PD_VF_DETAIL);
	CU_ASSERT_STRING_EQUAL(trace, expect);
}

/* ---- features ---- */

static bool feature_ret;

static const char *walk_feature(const struct pd_features *f, unsigned int id)
{
	trace_len = 0;
	trace[0] = '\0';
	feature_ret = pd_feature_visit(f, id, &rec_ops, NULL);
	return trace;
}

static void test_feature_scalars(void)
{
	char host[] = "box";
	struct pd_features f;

	pd_features_init(&f);
	f.hostname = host;
	f.total_mem = 16318404;
	f.branch_stack = true;
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_HOSTNAME), "s HOSTNAME=box/0\n");
	CU_ASSERT_TRUE(feature_ret);
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_TOTAL_MEM), "u TOTAL_MEM=16318404/0\n");
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_BRANCH_STACK), "f BRANCH_STACK=1/0\n");
	/* a string the decoder could not read is NULL */
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_OSRELEASE), "s OSRELEASE=(null)/0\n");

	/* CLN_SIZE has a typed form, but a value only for a 4- or 8-byte payload */
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_CLN_SIZE), "");
	CU_ASSERT_TRUE(feature_ret);
	f.cln_size.has_value = true;
	f.cln_size.value = 64;
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_CLN_SIZE), "u CLN_SIZE=64/0\n");

	/* ids kept as bytes only: nothing, and false */
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_SP_DEBUG_UNWIND_FILE), "");
	CU_ASSERT_FALSE(feature_ret);
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, 0), "");
	CU_ASSERT_FALSE(feature_ret);
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, 200), "");
	CU_ASSERT_FALSE(feature_ret);
}

/* From its bytes: a PMU type of 2^31 or more stays an unsigned 32-bit value. */
static void test_feature_decoded(void)
{
	static const uint8_t pmus[] = {
		2, 0, 0, 0,				/* nr */
		0x01, 0x00, 0xff, 0xff,			/* type 0xffff0001 */
		8, 0, 0, 0, 'h', 'w', 'm', 'o', 'n', 0, 0, 0,
		4, 0, 0, 0,				/* type */
		4, 0, 0, 0, 'c', 'p', 'u', 0,
	};
	struct pd_features f;

	pd_features_init(&f);
	CU_ASSERT_EQUAL_FATAL(pd_feature_decode(&f, PD_FEAT_PMU_MAPPINGS, pmus, sizeof(pmus),
						false, 4096, -1, 0, NULL), 0);
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_PMU_MAPPINGS),
		"[ PMU_MAPPINGS/0\n"
		"{ - -\n"
		"u type=4294901761/0\n"
		"s name=hwmon/0\n"
		"}\n"
		"{ - -\n"
		"u type=4/0\n"
		"s name=cpu/0\n"
		"}\n"
		"]\n");
	CU_ASSERT_TRUE(feature_ret);
	pd_features_free(&f);
}

static void test_feature_objects(void)
{
	uint64_t ids[] = { 11, 12 };
	uint64_t dex[] = { 0x70 };
	uint64_t bitmap[] = { 0xff, 0x1 };
	uint32_t core[] = { 0, 1 }, socket[] = { 0, 0 };
	char file[] = "/usr/lib/libc.so.6", ev_name[] = "cycles", sym_name[] = "main";
	char sib0[] = "0-1", path[] = "/system/bin/app";
	char *siblings[] = { sib0 };
	struct pd_feat_build_id bid;
	struct pd_feat_event ev;
	struct pd_feat_sp_symbol sym = { .vaddr = 0x1000, .len = 32, .name = sym_name };
	struct pd_feat_sp_file spf;
	struct pd_feat_mem_node node = { .node_id = 0, .nbits = 65, .bitmap = bitmap };
	struct pd_features f;
	char expect[2048];

	pd_features_init(&f);
	memset(&bid, 0, sizeof(bid));
	bid.misc = 1 | PD_MISC_BUILD_ID_SIZE;		/* KERNEL, size field valid */
	bid.pid = -1;
	bid.size = 4;
	memset(bid.id, 0xcd, sizeof(bid.id));
	bid.filename = file;
	bid.offset = 0x2000;
	f.build_ids.perf612_padding = true;
	f.build_ids.nr = 1;
	f.build_ids.ids = &bid;
	snprintf(expect, sizeof(expect),
		 "{ BUILD_ID -\n"
		 "f legacy=0/0\n"
		 "f perf612_padding=1/0\n"
		 "[ entries/0\n"
		 "{ - -\n"
		 "x misc=%x/0\n"
		 "y cpumode=KERNEL,1/0\n"
		 "i pid=-1/0\n"
		 "u size=4/0\n"
		 "b build_id=cdcdcdcd,4/0\n"
		 "s filename=/usr/lib/libc.so.6/0\n"
		 "u offset=8192/0\n"
		 "}\n"
		 "]\n"
		 "}\n", bid.misc);
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_BUILD_ID), expect);

	/* the attr is a detail: the file's attr list shows it */
	memset(&ev, 0, sizeof(ev));
	ev.attr.type = 0;
	ev.name = ev_name;
	ev.nr_ids = 2;
	ev.ids = ids;
	f.event_desc.attr_size = 136;
	f.event_desc.nr = 1;
	f.event_desc.ev = &ev;
	snprintf(expect, sizeof(expect),
		 "{ EVENT_DESC -\n"
		 "u attr_size=136/0\n"
		 "[ events/0\n"
		 "{ - -\n"
		 "s name=cycles/0\n"
		 "attr type=0/%x\n"
		 "[ ids/0\n"
		 "u -=11/0\n"
		 "u -=12/0\n"
		 "]\n"
		 "}\n"
		 "]\n"
		 "}\n", PD_VF_DETAIL);
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_EVENT_DESC), expect);

	/* the id parts only when the file has them */
	f.cpu_topology.core_siblings.nr = 1;
	f.cpu_topology.core_siblings.s = siblings;
	f.cpu_topology.has_cpu_ids = true;
	f.cpu_topology.nr_cpus = 2;
	f.cpu_topology.core_id = core;
	f.cpu_topology.socket_id = socket;
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_CPU_TOPOLOGY),
		"{ CPU_TOPOLOGY -\n"
		"[ core_siblings/0\n"
		"s -=0-1/0\n"
		"]\n"
		"[ thread_siblings/0\n"
		"]\n"
		"f has_cpu_ids=1/0\n"
		"[ core_id/0\n"
		"u -=0/0\n"
		"u -=1/0\n"
		"]\n"
		"[ socket_id/0\n"
		"u -=0/0\n"
		"u -=0/0\n"
		"]\n"
		"f has_dies=0/0\n"
		"f nr_cpus_guessed=0/0\n"
		"}\n");

	/* 65 bits of blocks: two words */
	f.mem_topology.version = 1;
	f.mem_topology.block_size = 0x8000000;
	f.mem_topology.nr = 1;
	f.mem_topology.nodes = &node;
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_MEM_TOPOLOGY),
		"{ MEM_TOPOLOGY -\n"
		"u version=1/0\n"
		"u block_size=134217728/0\n"
		"[ nodes/0\n"
		"{ - -\n"
		"u node_id=0/0\n"
		"u nbits=65/0\n"
		"[ bitmap/0\n"
		"x -=ff/0\n"
		"x -=1/0\n"
		"]\n"
		"}\n"
		"]\n"
		"}\n");

	/* a symbol table is a detail; a summary has its count in its place */
	memset(&spf, 0, sizeof(spf));
	spf.path = path;
	spf.type = 1;
	spf.min_vaddr = 0x400;
	spf.nr_symbols = 1;
	spf.symbols = &sym;
	spf.nr_dex_offsets = 1;
	spf.dex_offsets = dex;
	spf.has_min_vaddr_offset = true;
	spf.min_vaddr_offset = 0x10;
	f.sp_file2.nr = 1;
	f.sp_file2.files = &spf;
	snprintf(expect, sizeof(expect),
		 "[ FILE2/0\n"
		 "{ - -\n"
		 "s path=/system/bin/app/0\n"
		 "u type=1/0\n"
		 "x min_vaddr=400/0\n"
		 "[ symbols/%x\n"
		 "{ - -\n"
		 "x vaddr=1000/0\n"
		 "u len=32/0\n"
		 "s name=main/0\n"
		 "}\n"
		 "]\n"
		 "u nr_symbols=1/%x\n"
		 "[ dex_offsets/0\n"
		 "x -=70/0\n"
		 "]\n"
		 "x min_vaddr_offset=10/0\n"
		 "}\n"
		 "]\n", PD_VF_DETAIL, PD_VF_SUMMARY);
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_SP_FILE2), expect);
	/* FILE (v1) is the same list, from its own member */
	CU_ASSERT_STRING_EQUAL(walk_feature(&f, PD_FEAT_SP_FILE), "[ FILE/0\n]\n");
}

static const char *walk_attr(const struct pd_attr *a)
{
	trace_len = 0;
	trace[0] = '\0';
	pd_attr_visit(a, &rec_ops, NULL);
	return trace;
}

/*
 * Every field in the order of the struct; a mask as hex, its names as a
 * detail and as the summary's list, unnamed bits as bitN, precise_ip as a
 * number out of the flag names, an empty branch_sample_type out of the
 * summary.
 */
static void test_attr_fields(void)
{
	struct pd_attr a;
	char expect[4096];
	const unsigned int d = PD_VF_DETAIL, sm = PD_VF_SUMMARY;
	const unsigned int dm = PD_VF_DETAIL | PD_VF_BITS, sb = PD_VF_SUMMARY | PD_VF_BITS;

	memset(&a, 0, sizeof(a));
	a.type = 0;
	a.size = 136;
	a.config = 1;
	a.sample_period = 4000;
	a.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_PERIOD | 1ULL << 40;
	a.flags = PD_ATTR_DISABLED | PD_ATTR_FREQ | 2ULL << PD_ATTR_PRECISE_IP_SHIFT | 1ULL << 45;
	a.wakeup_events = 7;
	a.config1 = 0x11;
	a.config2 = 0x22;
	a.sample_regs_user = 0xff;
	a.sample_stack_user = 8192;
	a.clockid = -1;
	a.sample_max_stack = 127;
	a.aux_action = 3;
	a.sig_data = 0xdead;
	a.config3 = 0x33;
	a.config4 = 0x44;
	snprintf(expect, sizeof(expect),
		 "u type=0/%x\n"
		 "s type_name=HARDWARE/%x\n"
		 "y attr_type=HARDWARE,0/%x\n"
		 "u size=136/%x\n"
		 "x config=1/0\n"
		 "u sample_freq=4000/0\n"
		 "x sample_type=10000000103/%x\n"
		 "[ sample_type_names/%x\n"
		 "y -=IP,1/%x\n"
		 "y -=TID,2/%x\n"
		 "y -=PERIOD,256/%x\n"
		 "y -=bit40,1099511627776/%x\n"
		 "]\n"
		 "[ sample_type/%x\n"
		 "y -=IP,1/%x\n"
		 "y -=TID,2/%x\n"
		 "y -=PERIOD,256/%x\n"
		 "y -=bit40,1099511627776/%x\n"
		 "]\n"
		 "x read_format=0/%x\n"
		 "[ read_format_names/%x\n"
		 "]\n"
		 "[ read_format/%x\n"
		 "]\n"
		 "x flags=200000010401/%x\n"
		 "[ flag_names/%x\n"
		 "y -=disabled,1/%x\n"
		 "y -=freq,1024/%x\n"
		 "y -=bit45,35184372088832/%x\n"
		 "]\n"
		 "u precise_ip=2/%x\n"
		 "u wakeup=7/%x\n"
		 "u bp_type=0/%x\n"
		 "x config1=11/%x\n"
		 "x config2=22/%x\n"
		 "x branch_sample_type=0/%x\n"
		 "[ branch_sample_type_names/%x\n"
		 "]\n"
		 "x sample_regs_user=ff/%x\n"
		 "u sample_stack_user=8192/%x\n"
		 "i clockid=-1/%x\n"
		 "x sample_regs_intr=0/%x\n"
		 "u aux_watermark=0/%x\n"
		 "u sample_max_stack=127/%x\n"
		 "u reserved_2=0/%x\n"
		 "u aux_sample_size=0/%x\n"
		 "x aux_action=3/%x\n"
		 "x sig_data=dead/%x\n"
		 "x config3=33/%x\n"
		 "x config4=44/%x\n",
		 d, d, sm, d,
		 dm, dm, dm, dm, dm, dm, sb, sb, sb, sb, sb,
		 dm, dm, sb,
		 PD_VF_BITS, dm, dm, dm, dm,
		 d, d, d, d, d, dm, dm,
		 d, d, d, d, d, d, d, d, d, d, d, d);
	CU_ASSERT_STRING_EQUAL(walk_attr(&a), expect);
}

/*
 * From the 80 bytes of a VER2 attr: a type without a name (a PMU's) has
 * NULL for a name, the fields past the attr's size are zero, and a
 * branch_sample_type with bits set is in the summary.
 */
static void test_attr_decoded(void)
{
	uint8_t p[80];
	struct pd_attr a;
	char want[256];

	memset(p, 0, sizeof(p));
	p[0] = 9;			/* type */
	p[4] = sizeof(p);		/* size */
	p[16] = 0xe8;			/* sample_period 1000 */
	p[17] = 0x03;
	p[24] = 0x01;			/* sample_type IP */
	p[72] = 0x05;			/* branch_sample_type USER|HV */
	memset(&a, 0xa5, sizeof(a));
	pd_attr_decode(p, sizeof(p), false, &a);
	walk_attr(&a);
	snprintf(want, sizeof(want), "s type_name=(null)/%x\ny attr_type=-,9/%x\n",
		 PD_VF_DETAIL, PD_VF_SUMMARY);
	CU_ASSERT_PTR_NOT_NULL(strstr(trace, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(trace, "u sample_period=1000/0\n"));
	snprintf(want, sizeof(want), "[ branch_sample_type/%x\ny -=USER,1/%x\ny -=HV,4/%x\n]\n",
		 PD_VF_SUMMARY | PD_VF_BITS, PD_VF_SUMMARY | PD_VF_BITS,
		 PD_VF_SUMMARY | PD_VF_BITS);
	CU_ASSERT_PTR_NOT_NULL(strstr(trace, want));
	snprintf(want, sizeof(want), "x sample_regs_user=0/%x\n", PD_VF_DETAIL);
	CU_ASSERT_PTR_NOT_NULL(strstr(trace, want));
	snprintf(want, sizeof(want), "x config4=0/%x\n", PD_VF_DETAIL);
	CU_ASSERT_PTR_NOT_NULL(strstr(trace, want));
}

int pd_test_register_visit(void)
{
	CU_pSuite s = CU_add_suite("visit", NULL, NULL);

	if (!s ||
	    !CU_add_test(s, "MMAP and MMAP2 fields, undecoded record", test_mmap2) ||
	    !CU_add_test(s, "the list of a sample's fields", test_sample_field_table) ||
	    !CU_add_test(s, "sample fields by sample_type, hooks and flags", test_sample) ||
	    !CU_add_test(s, "lists of objects and values", test_lists) ||
	    !CU_add_test(s, "switch, feature, schedstat, event update, no body", test_other_types) ||
	    !CU_add_test(s, "sample_id trailer", test_sample_id) ||
	    !CU_add_test(s, "feature scalars, absent values, ids without a typed form",
			 test_feature_scalars) ||
	    !CU_add_test(s, "feature decoded from its bytes", test_feature_decoded) ||
	    !CU_add_test(s, "feature objects and lists, detail and summary flags",
			 test_feature_objects) ||
	    !CU_add_test(s, "attr fields, masks and their names, detail and summary",
			 test_attr_fields) ||
	    !CU_add_test(s, "attr decoded from its bytes: unnamed type, zero tail",
			 test_attr_decoded))
		return -1;
	return 0;
}
