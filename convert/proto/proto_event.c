// SPDX-License-Identifier: MIT
/*
 * proto_event.c - encode one decoded record as the body of a quipper
 * PerfEvent message (schema/perf_data.proto).
 *
 * Most messages are written from the record walk (pd_visit.h) through a
 * table of the walked fields each keeps (messages[] below).  SAMPLE is
 * written without the walk, for speed, from the library's list of a
 * sample's fields (pd_sample_fields.h) through a table alike of the fields
 * its message keeps (f_sample[]), over which the compiler unrolls the loop
 * (enc_sample()); every record's SampleInfo alike, from the fields of the
 * sample_id trailer (f_sample_info[]).  Three are encoded here field by
 * field: MMAP and MMAP2, whose message --quipper-compat also writes from
 * mappings it has edited (struct pe_mmap, proto_compat.c), which no record
 * holds: both modes write them with the one encoder of struct pe_mmap;
 * BPF_METADATA, whose entries quipper keeps in a map (sorted by key, the
 * first of equal keys) before the sample_info, and the extension's in record order after
 * it; and simpleperf's UNWINDING_RESULT, whose registers and stack are
 * messages of their own built from fields the walk gives apart, and whose
 * callchain precedes fields the walk gives first.  The walk alone, into
 * callbacks that do nothing, costs about 240 instructions a sample and
 * 450 a mapping: 10 % and 1 % more instructions for to-proto on a
 * recording of callchains, before a sink has encoded anything.
 * The numbers in the tables and in the pw_*() calls are the schema's field
 * numbers, listed in field-number order so that the code reads side by
 * side with the schema.
 */
#include <stdlib.h>
#include <string.h>

#include "proto/proto_event.h"
#include "../common/fmt_num.h"

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

/*
 * The message of every record type with a decoded form: a PK_MSG entry
 * each.  The messages written from the record walk (pd_visit.h) follow
 * their PK_MSG entry (a run of them when types share a message) with the
 * walked fields they keep, in the order of the walk.  That is the order of
 * their numbers, but for PF_LATE fields, which are written when their
 * message closes (after sample_info).  A walked name may feed several
 * fields; names not listed are left out.
 */
enum pe_kind {
	PK_END,
	PK_MSG,		/* type: a record type; field: in PerfEvent */
	PK_U64,
	PK_U32,		/* a 32-bit field, walked sign-extended */
	PK_BOOL,
	PK_BIT0,	/* PK_BIT0 + n: bit n of the value, as a bool */
	PK_BIT1,
	PK_BIT2,
	PK_STR,
	PK_STR_MD5,	/* the string, then its md5 prefix at the next field */
	PK_IS_OUT,	/* a string: whether it is "out", as a bool */
	PK_VERSION,	/* not written: the record's format version, for PF_V1 */
	PK_READ_FIRST,	/* read values: the first one's value, the times, its id */
	PK_READ_INFO,	/* read values: a ReadInfo message */
	PK_BYTES,
	PK_DOUBLE,
	PK_PACKED,	/* a list of values, packed */
	PK_REPEATED,	/* a list of values, one tag each */
	PK_ENTRIES,	/* a list of objects: a message of sub's fields each */
	PK_MESSAGE,	/* an object: a message of sub's fields */
	PK_INLINE,	/* an object whose members are sub's fields of this message */
	PK_NAMED,	/* an object of named values: a {name, value} message each */
	/*
	 * A list of objects of varints: one packed field per member (sub's
	 * fields, listed in the order of the walk), nothing when empty.
	 */
	PK_COLUMNS,
	/*
	 * Walked and left out: listed where the walk meets it, so that the
	 * search for a name it does not keep ends at once.
	 */
	PK_SKIP,
	/* a sample's fields only (f_sample) */
	PK_REGS,		/* a RegsInfo-like message: abi, mask, packed values */
	PK_STACK,		/* a message of the size, the bytes and the dynamic size */
	PK_BRANCHES,		/* a BranchEntry message per entry */
	PK_BRANCH_NO_HW_IDX,	/* whether the branch stack has no hw_idx, as a bool */
	PK_BRANCH_HW_IDX,	/* the hw_idx, 0 when none */
	PK_BRANCH_COUNTERS,	/* the counters, packed, when there are */
	PK_WEIGHT_PARTS,	/* a message of var1, var2 and var3 */
};

enum {
	PF_EXT = 1,	/* an extension, not in quipper's schema */
	PF_IF_SET = 2,	/* only a nonzero value or a string */
	PF_LATE = 4,	/* written when its message closes */
	PF_QUIPPER = 8,	/* PK_MSG: a type quipper keeps (it drops the others) */
	PF_DIRECT = 16,	/* PK_MSG: written without the walk, in pe_encode_event() */
	PF_V1 = 32,	/* only when the record's format version (PK_VERSION) is 1 or more */
	/* a sample's: without its sample_type bit too, as 0, but for an extension */
	PF_ALWAYS = 64,
	/* a sample's: only when the field before it, of the same number, is not there */
	PF_ELSE = 128,
};

struct pe_field {
	const char *name;
	uint16_t field;
	uint8_t kind, flags;
	/* PK_MSG: sample_info's field in the message, 0 when none (PF_DIRECT: for pe_timestamp) */
	uint16_t sample_info;
	uint32_t type;		/* PK_MSG */
	const struct pe_field *sub;
};

#define MSG(t, ev, si, flags)		{ NULL, ev, PK_MSG, flags, si, PD_REC_##t, NULL }
#define Q				PF_QUIPPER
#define D				PF_DIRECT
#define F(name, field, kind)		{ name, field, kind, 0, 0, 0, NULL }
#define FF(name, field, kind, flags)	{ name, field, kind, flags, 0, 0, NULL }
#define SUB(name, field, kind, sub)	{ name, field, kind, 0, 0, 0, sub }
#define U(name, field)			F(name, field, PK_U64)
#define U32(name, field)		F(name, field, PK_U32)
#define END				{ NULL, 0, PK_END, 0, 0, 0, NULL }

static const struct pe_field f_ns_link[] = { U("dev", 1), U("ino", 2), END };
static const struct pe_field f_thread[] = { U("pid", 1), F("comm", 2, PK_STR_MD5), END };
static const struct pe_field f_stat_config[] = { U("tag", 1), U("val", 2), END };
static const struct pe_field f_id_index[] = {
	U("id", 1), U("idx", 2), U("cpu", 3), U("tid", 4),
	FF("machine_pid", 1000, PK_U64, PF_EXT), FF("vcpu", 1001, PK_U64, PF_EXT), END
};
static const struct pe_field f_sp_event_id[] = { U("attr_index", 8), U("event_id", 9), END };
static const struct pe_field f_cpu_map[] = {
	U("encoding", 1), FF("any_cpu", 3, PK_BOOL, PF_IF_SET | PF_LATE), F("cpus", 2, PK_PACKED),
	END
};

static const struct pe_field messages[] = {
	/* looked up for every record: SAMPLE first */
	MSG(SAMPLE, EV_SAMPLE, 0, Q | D),
	MSG(MMAP, EV_MMAP, 8, Q | D), MSG(MMAP2, EV_MMAP, 8, Q | D),
	MSG(BPF_METADATA, EV_BPF_METADATA, 3, Q | D),
	MSG(SP_UNWINDING_RESULT, EV_SIMPLEPERF, 0, D),
	/* no message: the header and the timestamp only */
	MSG(FINISHED_ROUND, 0, 0, Q | D), MSG(FINISHED_INIT, 0, 0, D),
	MSG(COMM, EV_COMM, 6, Q), U32("pid", 1), U32("tid", 2), F("comm", 3, PK_STR_MD5),
	F("exec", 0, PK_SKIP),
	MSG(FORK, EV_FORK, 11, Q), MSG(EXIT, EV_EXIT, 11, Q),
	U32("pid", 1), U32("ppid", 2), U32("tid", 3), U32("ptid", 4), U("time", 5),
	MSG(LOST, EV_LOST, 3, Q), U("id", 1), U("lost", 2),
	MSG(THROTTLE, EV_THROTTLE, 4, Q), MSG(UNTHROTTLE, EV_THROTTLE, 4, Q),
	U("time", 1), U("id", 2), U("stream_id", 3),
	MSG(AUX, EV_AUX, 6, Q), U("aux_offset", 1), U("aux_size", 2), F("flags", 3, PK_BIT0),
	F("flags", 4, PK_BIT1), F("flags", 5, PK_BIT2), FF("flags", 1000, PK_U64, PF_EXT | PF_LATE),
	MSG(AUXTRACE, EV_AUXTRACE, 0, Q), U("aux_size", 1), U("aux_offset", 2), U("reference", 3),
	U("idx", 4), U32("tid", 5), U32("cpu", 6), F("data", 7, PK_BYTES),
	MSG(READ, EV_READ, 7, 0), U32("pid", 1), U32("tid", 2), F("values", 3, PK_READ_FIRST),
	FF("values", 1000, PK_READ_INFO, PF_LATE),
	MSG(SWITCH, EV_CONTEXT_SWITCH, 4, Q), MSG(SWITCH_CPU_WIDE, EV_CONTEXT_SWITCH, 4, Q),
	F("direction", 1, PK_IS_OUT), U32("next_prev_pid", 2), U32("next_prev_tid", 3),
	MSG(ITRACE_START, EV_ITRACE_START, 3, Q), U32("pid", 1), U32("tid", 2),
	MSG(LOST_SAMPLES, EV_LOST_SAMPLES, 2, Q), U("lost", 1),
	MSG(NAMESPACES, EV_NAMESPACES, 4, Q), U32("pid", 1), U32("tid", 2),
	SUB("links", 3, PK_ENTRIES, f_ns_link),
	MSG(TIME_CONV, EV_TIME_CONV, 0, Q), U("time_shift", 1), U("time_mult", 2),
	U("time_zero", 3), U("time_cycles", 4), U("time_mask", 5),
	F("cap_user_time_zero", 6, PK_BOOL), F("cap_user_time_short", 7, PK_BOOL),
	MSG(AUXTRACE_INFO, EV_AUXTRACE_INFO, 0, Q), U("auxtrace_type", 1),
	F("priv", 2, PK_REPEATED),
	MSG(THREAD_MAP, EV_THREAD_MAP, 0, Q), SUB("threads", 1, PK_ENTRIES, f_thread),
	MSG(STAT_CONFIG, EV_STAT_CONFIG, 0, Q), SUB("config", 1, PK_ENTRIES, f_stat_config),
	MSG(STAT, EV_STAT, 0, Q), U("id", 1), U32("cpu", 2), U32("thread", 3), U("val", 4),
	U("ena", 5), U("run", 6),
	MSG(STAT_ROUND, EV_STAT_ROUND, 0, Q), U("round_type", 1), U("time", 2),
	MSG(CGROUP, EV_CGROUP, 3, Q), U("id", 1), F("path", 2, PK_STR),
	MSG(KSYMBOL, EV_KSYMBOL, 6, Q), U("addr", 1), U("len", 2), U("ksym_type", 3), U("flags", 4),
	F("name", 5, PK_STR),
	/* fmt 0 has no time: the message starts where it would be */
	MSG(AUXTRACE_ERROR, EV_AUXTRACE_ERROR, 0, Q), U32("error_type", 1), U32("code", 2),
	U32("cpu", 3), U32("pid", 4), U32("tid", 5), F("fmt", 0, PK_VERSION),
	FF("fmt", 1000, PK_U64, PF_EXT | PF_LATE), U("ip", 6),
	FF("time", 1001, PK_U64, PF_EXT | PF_LATE | PF_V1),
	FF("machine_pid", 1002, PK_U32, PF_EXT | PF_LATE), FF("vcpu", 1003, PK_U32, PF_EXT | PF_LATE),
	F("msg", 7, PK_STR_MD5),
	MSG(ID_INDEX, EV_ID_INDEX, 0, Q), SUB("entries", 1, PK_ENTRIES, f_id_index),
	MSG(BPF_EVENT, EV_BPF_EVENT, 5, 0), U("bpf_type", 1), U("flags", 2), U("id", 3),
	F("tag", 4, PK_BYTES),
	MSG(TEXT_POKE, EV_TEXT_POKE, 4, 0), U("addr", 1), F("old", 2, PK_BYTES),
	F("new", 3, PK_BYTES),
	MSG(AUX_OUTPUT_HW_ID, EV_AUX_OUTPUT_HW_ID, 2, 0), U("hw_id", 1),
	MSG(CALLCHAIN_DEFERRED, EV_CALLCHAIN_DEFERRED, 3, 0), U("cookie", 1),
	F("ips", 2, PK_PACKED),
	MSG(CPU_MAP, EV_CPU_MAP, 0, 0), SUB("map", 0, PK_INLINE, f_cpu_map),
	MSG(EVENT_UPDATE, EV_EVENT_UPDATE, 0, 0), U("update_type", 1), U("id", 2),
	FF("unit", 3, PK_STR, PF_IF_SET), FF("name", 3, PK_STR, PF_IF_SET),
	F("scale", 4, PK_DOUBLE), SUB("cpus", 5, PK_MESSAGE, f_cpu_map),
	MSG(SCHEDSTAT_CPU, EV_SCHEDSTAT, 0, 0), MSG(SCHEDSTAT_DOMAIN, EV_SCHEDSTAT, 0, 0),
	U("timestamp", 1), U("cpu", 2), U("version", 3), U("domain", 4), F("counters", 5, PK_NAMED),
	F("counter_bytes", 6, PK_BYTES),
	/* simpleperf's records share one message */
	MSG(SP_KERNEL_SYMBOL, EV_SIMPLEPERF, 0, 0), F("kallsyms", 1, PK_BYTES),
	MSG(SP_EVENT_ID, EV_SIMPLEPERF, 0, 0), SUB("ids", 0, PK_COLUMNS, f_sp_event_id),
	MSG(SP_DSO, EV_SIMPLEPERF, 0, 0), U("dso_type", 2), U("dso_id", 3), U("min_vaddr", 4),
	F("name", 5, PK_STR),
	MSG(SP_SYMBOL, EV_SIMPLEPERF, 0, 0), FF("addr", 6, PK_U64, PF_LATE),
	FF("len", 7, PK_U64, PF_LATE), U("dso_id", 3), F("name", 5, PK_STR),
	MSG(SP_CALLCHAIN, EV_SIMPLEPERF, 0, 0), U32("pid", 10), U32("tid", 11), U("chain_type", 12),
	U("time", 13), F("ips", 14, PK_PACKED), F("sps", 15, PK_PACKED),
	MSG(SP_TRACING_DATA, EV_SIMPLEPERF, 0, 0), F("data", 23, PK_BYTES),
	MSG(SP_DEBUG, EV_SIMPLEPERF, 0, 0), U("time", 13), F("s", 23, PK_STR),
	END
};

/*
 * SampleEvent: the fields of pd_sample_field_table[] the message keeps,
 * in the order of their numbers, the order they are written in.
 */
struct pe_sample_field {
	uint8_t id;		/* enum pd_sample_field_id */
	uint8_t kind;		/* enum pe_kind */
	uint8_t flags;
	uint16_t field;
};

#define S(id, field, kind, flags)	{ PD_SFI_##id, kind, flags, field }
#define SU(id, field)			S(id, field, PK_U64, 0)

static const struct pe_sample_field f_sample[] = {
	/* quipper's parse pass writes ip back into every sample */
	S(IP, 1, PK_U64, PF_ALWAYS), SU(PID, 2), SU(TID, 3), SU(TIME, 4), SU(ADDR, 5),
	SU(IDENTIFIER, 6), S(ID, 6, PK_U64, PF_ELSE), SU(STREAM_ID, 7), SU(PERIOD, 8), SU(CPU, 9),
	/* quipper's schema has no packed callchain: one tag per entry */
	SU(RAW_SIZE, 10), S(CALLCHAIN, 11, PK_REPEATED, 0), S(BRANCH_STACK, 12, PK_BRANCHES, 0),
	SU(WEIGHT, 15), SU(DATA_SRC, 16), SU(TRANSACTION, 17), S(READ, 18, PK_READ_INFO, 0),
	SU(PHYS_ADDR, 19), SU(CGROUP, 20), S(RAW, 21, PK_BYTES, 0), SU(DATA_PAGE_SIZE, 22),
	SU(CODE_PAGE_SIZE, 23), S(BRANCH_STACK, 24, PK_BRANCH_NO_HW_IDX, 0),
	S(BRANCH_STACK, 25, PK_BRANCH_HW_IDX, 0), S(WEIGHT_STRUCT, 26, PK_WEIGHT_PARTS, 0),
	S(REGS_USER, 1000, PK_REGS, PF_EXT), S(STACK_USER, 1001, PK_STACK, PF_EXT),
	S(REGS_INTR, 1002, PK_REGS, PF_EXT), S(AUX, 1003, PK_BYTES, PF_EXT),
	S(BRANCH_STACK, 1004, PK_BRANCH_COUNTERS, PF_EXT), S(SAMPLE_TYPE, 1005, PK_U64, PF_EXT),
};

/* The PK_MSG entry of a record type, NULL for a type with no decoded form */
static const struct pe_field *search_message(uint32_t type)
{
	const struct pe_field *m;

	for (m = messages; m->kind != PK_END; m++)
		if (m->kind == PK_MSG && m->type == type)
			return m;
	return NULL;
}

/* the types the format defines: the kernel's and perf's, then simpleperf's */
#define NR_INDEXED (PD_REC_USER_MAX + PD_REC_SP_MAX - PD_REC_SP_START)

/*
 * The message of a type, searched in the table once per type: every
 * record asks for its own several times (its event, its time, and
 * --quipper-compat's sorting and filtering).
 */
static const struct pe_field *message_by_type(uint32_t type)
{
	static const struct pe_field *by_type[NR_INDEXED];
	static bool indexed;
	size_t i;

	if (!indexed) {
		for (i = 0; i < NR_INDEXED; i++)
			by_type[i] = search_message(i < PD_REC_USER_MAX ? (uint32_t)i :
						    (uint32_t)(i - PD_REC_USER_MAX + PD_REC_SP_START));
		indexed = true;
	}
	if (type < PD_REC_USER_MAX)
		return by_type[type];
	if (type >= PD_REC_SP_START && type < PD_REC_SP_MAX)
		return by_type[type - PD_REC_SP_START + PD_REC_USER_MAX];
	return search_message(type);
}

/* A sample's is the table's first entry, found without the call: nearly every record's */
static inline const struct pe_field *message_of(uint32_t type)
{
	return type == PD_REC_SAMPLE ? messages : message_by_type(type);
}

bool pe_quipper_keeps(uint32_t type)
{
	const struct pe_field *m = message_of(type);

	return m && (m->flags & PF_QUIPPER);
}

uint64_t pe_timestamp(const struct pd_record *rec)
{
	const struct pe_field *m;

	if (!rec->decoded)
		return 0;
	if (rec->type == PD_REC_SAMPLE)
		return rec->u.sample.sample_type & PD_SAMPLE_TIME ? rec->u.sample.time : 0;
	/* the records whose message has a sample_info, filled from the trailer */
	m = message_of(rec->type);
	if (m && m->sample_info && rec->has_trailer && (rec->sid.present & PD_SAMPLE_TIME))
		return rec->sid.time;
	return 0;
}

struct pe_level {
	const struct pe_field *fields;	/* of the members, NULL when they are left out */
	const struct pe_field *list;	/* the field of a list or of a named object */
	size_t mark;			/* of an open message or packed list, else SIZE_MAX */
	const struct pe_field *cursor;	/* where find_field() starts, NULL: at fields */
};

struct pe_late {
	const struct pe_field *f;
	uint64_t v;
	unsigned int depth;
};

struct pe_sink {
	struct pw_buf *b;
	bool ext;
	uint64_t version;		/* PK_VERSION's value */
	unsigned int depth, nlate;
	struct pe_level lv[4];		/* the walk nests two levels deep at most */
	struct pe_late late[4];
};

static inline bool same_name(const char *a, const char *b)
{
	/*
	 * The walk's names are string literals like ours, which the linker
	 * merges: the same pointer, most of the time.  Else the first byte
	 * before strcmp(), as most of a message's names differ there.
	 */
	return a == b || (a[0] == b[0] && !strcmp(a, b));
}

/*
 * The first field of the current level fed by name, NULL when none.  A
 * message lists its fields in the order of the walk, those fed by one
 * name next to each other, so the search starts after the last name found
 * (where the walk's next field nearly always is) and wraps around.
 */
static const struct pe_field *find_field(struct pe_sink *s, const char *name)
{
	struct pe_level *lv = &s->lv[s->depth];
	const struct pe_field *f, *start = lv->cursor ? lv->cursor : lv->fields;

	if (!start)
		return NULL;
	for (f = start; f->name; f++)
		if (same_name(f->name, name))
			goto found;
	for (f = lv->fields; f < start; f++)
		if (same_name(f->name, name))
			goto found;
	return NULL;
found:
	for (lv->cursor = f + 1; lv->cursor->name && same_name(lv->cursor->name, name);)
		lv->cursor++;
	return f;
}

static inline bool field_wanted(const struct pe_sink *s, const struct pe_field *f, bool set)
{
	return (s->ext || !(f->flags & PF_EXT)) && (set || !(f->flags & PF_IF_SET));
}

/* Each field of the current level fed by name (the run find_field() starts) */
#define EACH_FIELD(s, f, name, set) \
	for (f = find_field(s, name); f && f->name && same_name(f->name, name); f++) \
		if (field_wanted(s, f, set))

static const struct pe_field *first_field(struct pe_sink *s, const char *name)
{
	const struct pe_field *f;

	EACH_FIELD(s, f, name, true)
		return f;
	return NULL;
}

static void enc_read_info(struct pw_buf *b, unsigned int field, const struct pd_read *rd);

/* v: PK_READ_INFO's struct pd_read pointer */
static void put_value(struct pw_buf *b, const struct pe_field *f, uint64_t v)
{
	if (f->kind == PK_READ_INFO) {
		enc_read_info(b, f->field, (const struct pd_read *)(uintptr_t)v);
		return;
	}
	if (f->kind == PK_U32)
		v = (uint32_t)v;
	else if (f->kind == PK_BOOL)
		v = v != 0;
	else if (f->kind >= PK_BIT0)
		v = v >> (f->kind - PK_BIT0) & 1;
	pw_u64(b, f->field, v);
}

static void sink_u64(void *ctx, const char *name, uint64_t v, unsigned int flags)
{
	struct pe_sink *s = ctx;
	struct pe_level *lv = &s->lv[s->depth];
	const struct pe_field *f;
	size_t m;

	if (flags & PD_VF_SUMMARY)
		return;
	if (lv->list && lv->list->kind == PK_PACKED) {
		if (lv->mark == SIZE_MAX)
			lv->mark = pw_open(s->b, lv->list->field);
		pw_varint(s->b, v);
	} else if (lv->list && lv->list->kind == PK_COLUMNS) {
		/* the members of the entries one after the other, sorted at the end */
		pw_varint(s->b, v);
	} else if (lv->list && lv->list->kind == PK_NAMED) {
		m = pw_open(s->b, lv->list->field);
		pw_str(s->b, 1, name);
		pw_u64(s->b, 2, v);
		pw_close(s->b, m);
	}
	EACH_FIELD(s, f, name, v) {
		if (f->kind == PK_VERSION)
			s->version = v;
		if (f->kind > PK_BIT2 || ((f->flags & PF_V1) && s->version < 1))
			continue;
		if (!(f->flags & PF_LATE))
			put_value(s->b, f, v);
		else if (s->nlate < sizeof(s->late) / sizeof(s->late[0]))
			s->late[s->nlate++] = (struct pe_late){ f, v, s->depth };
	}
}

static void sink_i64(void *ctx, const char *name, int64_t v, unsigned int flags)
{
	sink_u64(ctx, name, (uint64_t)v, flags);
}

static void sink_flag(void *ctx, const char *name, bool set, unsigned int flags)
{
	sink_u64(ctx, name, set, flags);
}

static void sink_sym(void *ctx, const char *name, const char *sym, uint64_t v, unsigned int flags)
{
	sink_u64(ctx, name, v, flags);
}

static void sink_real(void *ctx, const char *name, double v, unsigned int flags)
{
	struct pe_sink *s = ctx;
	const struct pe_field *f;

	EACH_FIELD(s, f, name, true)
		pw_double(s->b, f->field, v);
}

static void sink_str(void *ctx, const char *name, const char *str, size_t max, unsigned int flags)
{
	struct pe_sink *s = ctx;
	const struct pe_field *f;
	size_t n = str ? strnlen(str, max) : 0;

	if (flags & PD_VF_SUMMARY)
		return;
	EACH_FIELD(s, f, name, str) {
		if (f->kind == PK_IS_OUT) {
			pw_bool(s->b, f->field, n == 3 && !memcmp(str, "out", 3));
			continue;
		}
		pw_bytes(s->b, f->field, str, n);
		if (f->kind == PK_STR_MD5)
			pw_u64(s->b, f->field + 1, pw_md5_prefix(str ? str : "", n));
	}
}

static void sink_bytes(void *ctx, const char *name, const uint8_t *p, size_t n, unsigned int flags)
{
	struct pe_sink *s = ctx;
	const struct pe_field *f;

	EACH_FIELD(s, f, name, true)
		pw_bytes(s->b, f->field, p, n);
}

static void sink_hex_list(void *ctx, const char *name, const uint64_t *v, uint64_t nr,
			  unsigned int flags)
{
	struct pe_sink *s = ctx;
	const struct pe_field *f;
	uint64_t i;

	EACH_FIELD(s, f, name, true) {
		if (f->kind == PK_PACKED)
			pw_packed_u64(s->b, f->field, v, nr);
		for (i = 0; f->kind == PK_REPEATED && i < nr; i++)
			pw_u64(s->b, f->field, v[i]);
	}
}

static void sink_read(void *ctx, const char *name, const struct pd_read *rd)
{
	struct pe_sink *s = ctx;
	const struct pe_field *f;

	EACH_FIELD(s, f, name, true) {
		if (f->kind == PK_READ_INFO && s->nlate < sizeof(s->late) / sizeof(s->late[0])) {
			s->late[s->nlate++] = (struct pe_late){ f, (uintptr_t)rd, s->depth };
		} else if (f->kind == PK_READ_FIRST) {
			if (rd->nr)
				pw_u64(s->b, f->field, rd->values[0].value);
			if (rd->format & PD_FORMAT_TOTAL_TIME_ENABLED)
				pw_u64(s->b, f->field + 1, rd->time_enabled);
			if (rd->format & PD_FORMAT_TOTAL_TIME_RUNNING)
				pw_u64(s->b, f->field + 2, rd->time_running);
			if (rd->nr && (rd->format & PD_FORMAT_ID))
				pw_u64(s->b, f->field + 3, rd->values[0].id);
		}
	}
}

static void push(struct pe_sink *s, const struct pe_field *fields, const struct pe_field *list,
		 size_t mark)
{
	s->lv[++s->depth] = (struct pe_level){ fields, list, mark, NULL };
}

static void sink_list_begin(void *ctx, const char *name, unsigned int flags)
{
	struct pe_sink *s = ctx;
	const struct pe_field *f;

	f = first_field(s, name);
	/* PK_COLUMNS: the mark is where the entries' varints start */
	push(s, NULL, f, f && f->kind == PK_COLUMNS ? s->b->ob.len : SIZE_MAX);
}

static size_t varint_len(const uint8_t *p)
{
	size_t n = 1;

	while (*p++ & 0x80)
		n++;
	return n;
}

/*
 * The varints of a PK_COLUMNS list from `start` on, the members of each
 * entry in turn: rewritten as one packed field per member.  The fields
 * are assembled after them, then moved in their place.
 */
static void write_columns(struct pw_buf *b, const struct pe_field *list, size_t start)
{
	size_t end = b->ob.len, k, j, i, pos, n, m;
	const struct pe_field *col;

	for (k = 0; list->sub[k].name; k++)
		;
	if (end == start || !k)
		return;
	for (j = 0, col = list->sub; j < k; j++, col++) {
		m = pw_open(b, col->field);
		/* the varints read below are whole only while nothing was lost */
		if (pw_nomem(b))
			return;
		for (i = 0, pos = start; pos < end; i++, pos += n) {
			n = varint_len(pw_data(b) + pos);
			if (i % k != j)
				continue;
			if (!pw_room(b, n))
				return;
			memcpy(pw_data(b) + b->ob.len, pw_data(b) + pos, n);
			b->ob.len += n;
		}
		pw_close(b, m);
	}
	memmove(pw_data(b) + start, pw_data(b) + end, b->ob.len - end);
	b->ob.len -= end - start;
}

static void sink_obj_begin(void *ctx, const char *name, const char *flat, unsigned int flags)
{
	struct pe_sink *s = ctx;
	const struct pe_field *f = s->lv[s->depth].list;

	if (name)
		f = first_field(s, name);
	/* an entry of a list (no name) or an object of the record */
	if (f && (f->kind == PK_ENTRIES || f->kind == PK_MESSAGE))
		push(s, f->sub, NULL, pw_open(s->b, f->field));
	else if (f && f->kind == PK_INLINE)
		push(s, f->sub, NULL, SIZE_MAX);
	else
		push(s, NULL, f, SIZE_MAX);
}

/* Close the current level: its PF_LATE fields, then its message or packed list. */
static void sink_end(void *ctx)
{
	struct pe_sink *s = ctx;
	const struct pe_level *lv = &s->lv[s->depth];
	unsigned int i, n = 0;

	for (i = 0; i < s->nlate; i++) {
		if (s->late[i].depth == s->depth)
			put_value(s->b, s->late[i].f, s->late[i].v);
		else
			s->late[n++] = s->late[i];
	}
	s->nlate = n;
	if (lv->list && lv->list->kind == PK_COLUMNS) {
		if (lv->mark != SIZE_MAX)
			write_columns(s->b, lv->list, lv->mark);
	} else if (lv->mark != SIZE_MAX) {
		pw_close(s->b, lv->mark);
	}
	if (s->depth)
		s->depth--;
}

/*
 * regs, branch_stack, attr and feature belong to records whose messages
 * are written without the walk (SAMPLE, HEADER_*).
 */
static const struct pd_visit_ops pe_sink_ops = {
	.u64 = sink_u64,
	.i64 = sink_i64,
	.hex = sink_u64,
	.str = sink_str,
	.flag = sink_flag,
	.sym = sink_sym,
	.real = sink_real,
	.bytes = sink_bytes,
	.list_begin = sink_list_begin,
	.list_end = sink_end,
	.obj_begin = sink_obj_begin,
	.obj_end = sink_end,
	.hex_list = sink_hex_list,
	.read = sink_read,
};

/* the member of the given type at offset off of struct s (pd_sample, pd_sample_id) */
#define MEMBER(s, off, type)	(*(type const *)((const uint8_t *)(s) + (off)))

/*
 * SampleInfo: the trailer's fields (pd_sample_fields.h) the message keeps,
 * in the order of their numbers, quipper's: stream_id (6) after cpu.  The
 * trailer's id, from ID or IDENTIFIER, is ID's.
 */
static const struct pe_sample_field f_sample_info[] = {
	SU(PID, 1), SU(TID, 2), SU(TIME, 3), SU(ID, 4), SU(CPU, 5), SU(STREAM_ID, 6),
};

/*
 * quipper writes the message for every record type that can carry a
 * trailer, empty when the recording has no sample_id_all.  Written from
 * f_sample_info[], not from pd_sample_id_visit(): nearly every record but
 * the samples has one.  A loop the compiler unrolls, as enc_sample()'s.
 */
static void enc_sample_info(struct pw_buf *b, unsigned int field, bool has_trailer,
			    const struct pd_sample_id *sid)
{
	size_t m = pw_open(b, field), i;
	uint64_t st = has_trailer ? sid->present : 0;
	const struct pd_sample_field *sf;

#pragma GCC unroll 8
	for (i = 0; i < sizeof(f_sample_info) / sizeof(f_sample_info[0]); i++) {
		sf = &pd_sample_field_table[f_sample_info[i].id];
		if (!(st & pd_sample_id_member_bits(sf)))
			continue;
		if (sf->kind == PD_SF_U32 || sf->kind == PD_SF_I32)
			pw_u64(b, f_sample_info[i].field, MEMBER(sid, sf->sid_member, uint32_t));
		else
			pw_u64(b, f_sample_info[i].field, MEMBER(sid, sf->sid_member, uint64_t));
	}
	pw_close(b, m);
}

static void enc_si(struct pw_buf *b, unsigned int field, const struct pd_record *rec)
{
	enc_sample_info(b, field, rec->has_trailer, &rec->sid);
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
			m->build_id[fmt_hex_bytes(m->build_id, r->build_id, n)] = '\0';
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

static void enc_branch(struct pw_buf *b, unsigned int field, const struct pd_branch_entry *e,
		       bool ext)
{
	size_t m = pw_open(b, field);
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

/*
 * One field of f_sample[], inlined into the loop of enc_sample() over the
 * constant table, which the compiler unrolls: the sample field's bit,
 * kind and member and the message's field number and kind are known when
 * compiling, so that the loop is the code a list of the fields written by
 * hand would be.
 */
static inline __attribute__((always_inline)) void
enc_sample_field(struct pw_buf *b, const struct pd_sample *s, uint64_t t,
		 const struct pe_sample_field *f, bool ext)
{
	const struct pd_sample_field *sf = &pd_sample_field_table[f->id];
	const uint64_t tag = (uint64_t)f->field << 3 | PW_VARINT;
	const uint64_t *v;
	uint64_t i, n;
	uint8_t *q;
	size_t w;

	if (!ext && (f->flags & PF_EXT))
		return;
	if ((f->flags & PF_ELSE) && (t & pd_sample_field_table[f[-1].id].bit))
		return;
	/* expected there: its code in line, a jump over it when it is not */
	if (__builtin_expect(sf->bit && !(t & sf->bit), 0)) {
		if (!ext && (f->flags & PF_ALWAYS))
			pw_u64(b, f->field, 0);
		return;
	}
	switch (f->kind) {
	case PK_U64:
		if (sf->kind == PD_SF_U32 || sf->kind == PD_SF_I32)
			pw_u64(b, f->field, MEMBER(s, sf->member, uint32_t));
		else
			pw_u64(b, f->field, MEMBER(s, sf->member, uint64_t));
		break;
	case PK_REPEATED:
		n = MEMBER(s, sf->count, uint64_t);
		v = MEMBER(s, sf->member, const uint64_t *);
		if (!pw_room(b, n * (pw_varint_size(tag) + 10)))
			break;
		/* through a local pointer: after a byte stored, b->ob.len would be read again */
		for (q = pw_data(b) + b->ob.len, i = 0; i < n; i++)
			q = pw_put_varint(pw_put_varint(q, tag), v[i]);
		b->ob.len = (size_t)(q - pw_data(b));
		break;
	case PK_BYTES:
		if (sf->kind == PD_SF_RAW)
			n = MEMBER(s, sf->count, uint32_t);
		else
			n = MEMBER(s, sf->count, uint64_t);
		pw_bytes(b, f->field, MEMBER(s, sf->member, const uint8_t *), n);
		break;
	case PK_READ_INFO:
		enc_read_info(b, f->field, &MEMBER(s, sf->member, struct pd_read));
		break;
	case PK_REGS:
		enc_regs(b, f->field, &MEMBER(s, sf->member, struct pd_regs));
		break;
	case PK_STACK:
		enc_stack(b, f->field, s->stack_size, s->stack_data, s->stack_dyn_size);
		break;
	case PK_BRANCHES:
		for (i = 0; i < s->branch_nr; i++)
			enc_branch(b, f->field, &s->branches[i], ext);
		break;
	case PK_BRANCH_NO_HW_IDX:
		pw_bool(b, f->field, !s->branch_has_hw_idx);
		break;
	case PK_BRANCH_HW_IDX:
		pw_u64(b, f->field, s->branch_has_hw_idx ? s->branch_hw_idx : 0);
		break;
	case PK_BRANCH_COUNTERS:
		if (s->branch_counters)
			pw_packed_u64(b, f->field, s->branch_counters, s->branch_nr);
		break;
	case PK_WEIGHT_PARTS:
		n = MEMBER(s, sf->member, uint64_t);
		w = pw_open(b, f->field);
		pw_u64(b, 1, PD_WEIGHT_VAR1(n));
		pw_u64(b, 2, PD_WEIGHT_VAR2(n));
		pw_u64(b, 3, PD_WEIGHT_VAR3(n));
		pw_close(b, w);
		break;
	default:
		break;
	}
}

/*
 * From f_sample[] rather than from the walk: samples are nearly every
 * record of a recording, and the walk of one costs more than this
 * function does but for its callchain loop (see the top of the file).
 */
static void enc_sample(struct pw_buf *b, const struct pd_sample *s, bool ext)
{
	/* read once: the buffer's growth could change what the compiler cannot see */
	const uint64_t t = s->sample_type;
	size_t m = pw_open(b, EV_SAMPLE), i;

#pragma GCC unroll 64
	for (i = 0; i < sizeof(f_sample) / sizeof(f_sample[0]); i++)
		enc_sample_field(b, s, t, &f_sample[i], ext);
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
		pw_set_nomem(b);
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

/* simpleperf's UNWINDING_RESULT, whose registers and stack are messages of their own */
static void enc_sp_unwinding_result(struct pw_buf *b, const struct pd_rec_sp_unwinding_result *u)
{
	struct pd_regs regs = { u->regs_abi, u->reg_mask, u->nr_regs, u->regs };
	size_t m = pw_open(b, EV_SIMPLEPERF);

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
	pw_close(b, m);
}

/* The message m of rec, from the walk */
static void enc_walked(struct pw_buf *b, const struct pd_record *rec, const struct pe_field *m,
		       bool ext)
{
	const struct pe_field *f = m;
	struct pe_sink s = { .b = b, .ext = ext };

	while (f->kind == PK_MSG)
		f++;
	s.lv[0] = (struct pe_level){ f, NULL, pw_open(b, m->field), NULL };
	pd_record_visit(rec, &pe_sink_ops, &s);
	if (m->sample_info)
		enc_si(b, m->sample_info, rec);
	sink_end(&s);
}

bool pe_encode_event(struct pw_buf *b, const struct pd_record *rec, bool ext)
{
	const uint32_t type = rec->type;
	const struct pe_field *msg = rec->decoded ? message_of(type) : NULL;

	if (!ext && (!msg || !(msg->flags & PF_QUIPPER)))
		return false;
	/* a record with no decoded form: the bytes as stored */
	if (!msg) {
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
				pw_set_nomem(b);
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
	switch (msg->flags & PF_DIRECT ? type : 0) {
	case 0:
		enc_walked(b, rec, msg, ext);
		break;
	case PD_REC_SAMPLE:
		enc_sample(b, &rec->u.sample, ext);
		break;
	case PD_REC_BPF_METADATA:
		enc_bpf_metadata(b, rec, ext);
		break;
	case PD_REC_SP_UNWINDING_RESULT:
		enc_sp_unwinding_result(b, &rec->u.sp_unwinding_result);
		break;
	default:
		break;
	}
	enc_tail(b, pe_timestamp(rec), rec->offset, rec->from_compressed, ext);
	return true;
}
