// SPDX-License-Identifier: MIT
/*
 * layout.c - the fixed fields of every record type (layout.h): the
 * tables of layout_tables.h, given to their users by type, and the
 * header every record starts with, decoded from bytes (pd_record.h).
 */
#include "internal.h"
#include "layout_tables.h"

const struct pd_layout *pd_record_layout(uint32_t type)
{
	return pd_layout_of(type);
}

/* simpleperf's own types keep a 32-bit size in misc and size, as the reader frames them. */
struct pd_record_header pd_record_header_decode(const void *bytes, bool swapped)
{
	const uint8_t *p = bytes;
	struct pd_record_header h;

	h.type = pd_ld32(p, swapped);
	if (h.type >= PD_REC_SP_START) {
		h.misc = 0;
		h.size = ((uint32_t)pd_ld16(p + 4, swapped) << 16) | pd_ld16(p + 6, swapped);
	} else {
		h.misc = pd_ld16(p + 4, swapped);
		h.size = pd_ld16(p + 6, swapped);
	}
	return h;
}
