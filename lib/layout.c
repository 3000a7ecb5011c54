// SPDX-License-Identifier: MIT
/*
 * layout.c - the fixed fields of every record type (layout.h): the
 * tables of layout_tables.h, given to their users by type, and the
 * header every record starts with, decoded from bytes (pd_record.h).
 */
#include "decode.h"
#include "layout_tables.h"

const struct pd_layout *pd_record_layout(uint32_t type)
{
	return pd_layout_of(type);
}

struct pd_record_header pd_record_header_decode(const void *bytes, bool swapped)
{
	return pd_rec_header(bytes, swapped);
}
