/* SPDX-License-Identifier: MIT */
/*
 * pd_visit.h - one walk over the fields of a decoded record, header
 * feature or event attr.
 *
 * The field list of every record type, every feature and the attr (names,
 * order, kinds, the conditions under which a field is present) is written
 * once, in pd_record_visit(), pd_feature_visit() and pd_attr_visit() (a
 * sample's in pd_sample_fields.h, which pd_record_visit() follows); every
 * output that shows them field by field is a sink of typed callbacks:
 *
 *	static void my_u64(void *ctx, const char *name, uint64_t v, unsigned int flags)
 *	{ ... }
 *	static const struct pd_visit_ops my_ops = { .u64 = my_u64, ... };
 *
 *	if (rec->decoded) {
 *		pd_record_visit(rec, &my_ops, &my_state);
 *		if (rec->has_trailer)
 *			pd_sample_id_visit(&rec->sid, &my_ops, &my_state);
 *	}
 *
 * Two shapes of output are foreseen: a detailed, structured one (nested
 * objects and lists, every field) and a summary (one line per record; a
 * brief description of a feature).  The flags say where the two part:
 * PD_VF_DETAIL fields (and lists and attrs) are left out of summaries,
 * PD_VF_SUMMARY fields only appear there (the detailed form holds the
 * same fact in another place), and the PD_VF_* layout hints say how a
 * flat text form shows a nested value.
 *
 * Values inside a list have a NULL name.  Objects inside a list have a
 * NULL name and a NULL flat prefix.
 */
#ifndef PERFDATA_PD_VISIT_H
#define PERFDATA_PD_VISIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/pd_attr.h"
#include "perfdata/pd_feature.h"
#include "perfdata/pd_record.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pd_visit_flags {
	/* left out of one-line summaries */
	PD_VF_DETAIL		= 1u << 0,
	/* only in summaries: the detailed form has the fact elsewhere */
	PD_VF_SUMMARY		= 1u << 1,
	/* bytes of a payload (not an identifier such as a build id) */
	PD_VF_PAYLOAD		= 1u << 2,
	/* a payload of any size, which summaries show on request only */
	PD_VF_BULK		= 1u << 3,
	/* payload bytes that are text, NULs included */
	PD_VF_TEXT		= 1u << 4,
	/* the name comes from the file: quote it as data */
	PD_VF_INPUT_NAME	= 1u << 5,
	/* a list of ips in which values >= PD_CONTEXT_MAX are context markers */
	PD_VF_CALLCHAIN		= 1u << 6,
	/* the main value of a flattened object: named by the prefix alone */
	PD_VF_MAIN		= 1u << 7,
	/*
	 * How a summary shows the objects of a list: by default each member
	 * as name:value, members separated by "/"; UNNAMED drops the names;
	 * PAIR shows two members as a:b; AS_FIELDS shows each two-member
	 * entry as one more field of the record, a=b.
	 */
	PD_VF_UNNAMED		= 1u << 8,
	PD_VF_PAIR		= 1u << 9,
	PD_VF_AS_FIELDS		= 1u << 10,
	/*
	 * A list: the names of the bits set in a mask, as syms, each with
	 * the list's flags; a flat form shows them as A|B, or 0 when none.
	 * A hex value: a mask whose names a list follows, which a form that
	 * shows the names can leave out.
	 */
	PD_VF_BITS		= 1u << 11,
};

struct pd_visit_ops {
	/* scalars */
	void (*u64)(void *ctx, const char *name, uint64_t v, unsigned int flags);
	void (*i64)(void *ctx, const char *name, int64_t v, unsigned int flags);
	/* addresses, masks, flags and bit fields */
	void (*hex)(void *ctx, const char *name, uint64_t v, unsigned int flags);
	/* at most max bytes of s, up to its NUL; s may be NULL */
	void (*str)(void *ctx, const char *name, const char *s, size_t max, unsigned int flags);
	/* a boolean: summaries show it only when set */
	void (*flag)(void *ctx, const char *name, bool set, unsigned int flags);
	/*
	 * A value with a symbolic name (sym, NULL when it has none): one of
	 * the library's own names, letters, digits and '_' only.
	 */
	void (*sym)(void *ctx, const char *name, const char *sym, uint64_t v, unsigned int flags);
	void (*real)(void *ctx, const char *name, double v, unsigned int flags);
	/* n bytes at p; p may be NULL when a payload is not held */
	void (*bytes)(void *ctx, const char *name, const uint8_t *p, size_t n, unsigned int flags);

	/* structure */
	void (*list_begin)(void *ctx, const char *name, unsigned int flags);
	void (*list_end)(void *ctx);
	/*
	 * flat: the prefix a flat form puts before the names of the members
	 * ("sid." for pid gives "sid.pid"), NULL for an object in a list.
	 */
	void (*obj_begin)(void *ctx, const char *name, const char *flat, unsigned int flags);
	void (*obj_end)(void *ctx);

	/* values each output lays out in its own way */
	void (*read)(void *ctx, const char *name, const struct pd_read *rd);
	void (*regs)(void *ctx, const char *name, const struct pd_regs *r);
	void (*branch_stack)(void *ctx, const struct pd_sample *s);
	/*
	 * An event's attr, named "attr"; flags PD_VF_DETAIL where a summary
	 * can do without.  pd_attr_visit() walks its fields.
	 */
	void (*attr)(void *ctx, const struct pd_attr *attr, unsigned int flags);
	/* a HEADER_FEATURE payload (end markers never reach it) */
	void (*feature)(void *ctx, const struct pd_rec_header_feature *hf);

	/* optional: called after a sample's raw data (tracepoint fields) */
	void (*raw_fields)(void *ctx, const struct pd_record *rec);

	/*
	 * Optional: a whole list of hex values (callchains, registers) in
	 * one call, in place of list_begin, hex for each value (named NULL,
	 * flags 0) and list_end; flags are the list's.  v is NULL when
	 * nr is 0.  Long callchains make it the hottest path of a walk.
	 */
	void (*hex_list)(void *ctx, const char *name, const uint64_t *v, uint64_t nr,
			 unsigned int flags);
};

/*
 * The fields of rec's body, in record order, into ops.  Does nothing for
 * a record that was not decoded (rec->decoded false) or whose type has no
 * body.  The sample_id trailer is not part of the body.
 */
void pd_record_visit(const struct pd_record *rec, const struct pd_visit_ops *ops, void *ctx);

/* The fields of a sample_id trailer, as the object "sample_id" (flat "sid."). */
void pd_sample_id_visit(const struct pd_sample_id *sid, const struct pd_visit_ops *ops, void *ctx);

/*
 * The fields of a perf_event_attr, in the order of the struct: the
 * detailed form has every field, each mask as hex with the names of its
 * bits beside it ("sample_type" and the list "sample_type_names"); the
 * summary has attr_type, config, the period or frequency, the names of
 * the sample_type, read_format and (when set) branch_sample_type bits
 * under those names, and flags as hex.  Calls u64, i64, hex, str, sym,
 * list_begin and list_end only.
 */
void pd_attr_visit(const struct pd_attr *a, const struct pd_visit_ops *ops, void *ctx);

/*
 * The typed value of feature `id` of f, into ops: one value named by
 * pd_feature_name(id), a scalar ("HOSTNAME" as a str), a list or an
 * object.  Objects of a feature have no flat prefix (NULL).  The walk
 * calls the scalars, the structure callbacks, hex_list when set, and
 * attr; never read, regs, branch_stack, feature or raw_fields.
 *
 * Meant for a decoded feature (f->raw[id].decoded); a partial one (see
 * pd_feature_decode()) walks what it holds, its missing strings NULL.
 * Returns false, having called nothing, for an id whose feature has no
 * typed form (kept as bytes only: raw[id]).  A CLN_SIZE without a value
 * calls nothing and returns true.
 */
bool pd_feature_visit(const struct pd_features *f, unsigned int id,
		      const struct pd_visit_ops *ops, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* PERFDATA_PD_VISIT_H */
