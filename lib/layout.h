/* SPDX-License-Identifier: MIT */
/*
 * layout.h - the fixed fields of every record type (not installed).
 *
 * One description per record type (layout_tables.h, by type through
 * pd_record_layout()) says where each fixed field lies in
 * the record (offset, header included, and width), what kind of value it
 * is and where the decoder keeps it in struct pd_record.  The decoder
 * (record.c) reads the fields from it, the byte-order conversion
 * (swap.c) reverses them by their widths, pd_record_min_size() (names.c)
 * is the end of the last one, and the field walk (visit.c) shows them
 * under their names.
 *
 * What follows the fixed fields is either nothing, one NUL-terminated
 * string, or a part whose layout depends on the data (counts, misc bits,
 * the event's sample_type and read_format, versions, sizes).  That part
 * is code in each of the four files, switched on the type: the table
 * only says that it is there (PD_REST_SPECIAL).
 */
#ifndef PD_LIB_LAYOUT_H
#define PD_LIB_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

/* numbers first: pd_field_is_number() */
enum pd_field_kind {
	PD_FK_U,	/* unsigned number, shown in decimal */
	PD_FK_X,	/* unsigned number shown in hex: addresses, masks, flags */
	PD_FK_PID,	/* 32-bit pid, tid or cpu where -1 means "any": shown signed */
	PD_FK_RESERVED,	/* a number nobody shows: converted and decoded all the same */
	PD_FK_BYTES,	/* bytes (a tag, a build id): never converted */
	PD_FK_STR,	/* a string in a fixed array, NUL inside: never converted */
	PD_FK_PAD,	/* padding: neither converted, decoded nor shown */
};

struct pd_field {
	const char *name;	/* the walker's name; NULL for RESERVED and PAD */
	uint16_t off;		/* in the record, header included */
	uint16_t size;		/* bytes in the file: 1, 2, 4 or 8 for numbers */
	uint8_t kind;		/* enum pd_field_kind */
	uint8_t member_size;	/* bytes of the decoded member, 0: not decoded */
	uint16_t member;	/* offset of the decoded member in struct pd_record */
};

enum pd_layout_rest {
	/* the fields are the whole payload: bytes after them are extra */
	PD_REST_NONE,
	/* a NUL-terminated string padded to 8 bytes ends the payload */
	PD_REST_STRING,
	/* the rest depends on the data: code in each user, by type */
	PD_REST_SPECIAL,
};

struct pd_layout {
	const struct pd_field *fields;
	uint8_t nr_fields;
	uint8_t rest;		/* enum pd_layout_rest */
	/*
	 * Smallest valid record, header included, when it is more than the
	 * end of the fields (a part of the rest that is always there); 0
	 * otherwise.  Never less than the end of the fields, so that a
	 * record of the minimum size holds every fixed field.
	 */
	uint16_t min;
	/*
	 * Bytes of the union member the type decodes to, all that the decoder
	 * clears; 0: the whole union (types whose rest fills more than one).
	 */
	uint16_t u_size;
	/* PD_REST_STRING (and strings of special layouts): the walker's name */
	const char *str_name;
	uint16_t str_member;	/* offset of the const char * in struct pd_record */
	/* a bit of header.misc the walker shows as a flag after the fields */
	uint16_t misc_bit;
	const char *misc_name;
};

/* A number of 1, 2, 4 or 8 bytes, in the file's byte order. */
static inline bool pd_field_is_number(const struct pd_field *f)
{
	return f->kind <= PD_FK_RESERVED;
}

/* The layout of a record type, NULL for types the format does not define. */
const struct pd_layout *pd_record_layout(uint32_t type);

/*
 * One past the last field, for loops over l->fields: a layout without
 * fields has no array (NULL), and NULL + 0 is undefined in C.
 */
static inline const struct pd_field *pd_layout_fields_stop(const struct pd_layout *l)
{
	return l->nr_fields ? l->fields + l->nr_fields : l->fields;
}

/* Where the fixed fields end: the payload offset of what follows them. */
static inline uint16_t pd_layout_fields_end(const struct pd_layout *l)
{
	const struct pd_field *last;

	if (!l->nr_fields)
		return 8;
	last = &l->fields[l->nr_fields - 1];
	return (uint16_t)(last->off + last->size);
}

/*
 * With PD_MISC_MMAP_BUILD_ID, MMAP2's bytes [START, END), maj..ino_generation
 * in mmap2_f, hold instead a u8 build id size, three reserved bytes and the
 * build id: the one part of a fixed layout that depends on the data.
 */
#define PD_MMAP2_BUILD_ID_START	40
#define PD_MMAP2_BUILD_ID_END	64

/*
 * HEADER_BUILD_ID's byte after the build id, padding in the table: with
 * PD_MISC_BUILD_ID_SIZE, the build id's size.
 */
#define PD_BUILD_ID_SIZE_AT	32

/* The smallest valid record of the layout's type, header included. */
static inline uint16_t pd_layout_min_size(const struct pd_layout *l)
{
	return l->min ? l->min : pd_layout_fields_end(l);
}

#endif /* PD_LIB_LAYOUT_H */
