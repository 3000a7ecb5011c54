// SPDX-License-Identifier: MIT
/*
 * layout.c - the fixed fields of every record type (layout.h): the
 * tables of layout_tables.h, given to their users by type.
 */
#include "layout_tables.h"

const struct pd_layout *pd_record_layout(uint32_t type)
{
	return pd_layout_of(type);
}
