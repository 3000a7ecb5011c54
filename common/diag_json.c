// SPDX-License-Identifier: MIT
/*
 * diag_json.c - a diagnostic as one JSON object (see diag_json.h).
 */
#include <stdbool.h>
#include <string.h>

#include "diag_json.h"
#include "fmt_num.h"
#include "json_str.h"
#include "tool.h"

#define put_lit(b, s) out_buf_put((b), (s), sizeof(s) - 1)

static void put_str(struct out_buf *b, const char *s)
{
	json_str_put(b, s, strlen(s));
}

static void put_u64(struct out_buf *b, uint64_t v)
{
	char *p = out_buf_room(b, 20);

	b->len += fmt_u64(p, v);
}

static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* Where the next " key=" starts in s, or the end of s. */
static const char *next_pair(const char *s)
{
	const char *p;

	for (p = s; *p; p++) {
		const char *k;

		if (*p != ' ')
			continue;
		for (k = p + 1; is_key_char(*k); k++)
			;
		if (k > p + 1 && *k == '=')
			return p;
	}
	return p;
}

/* A decimal that a JSON reader holds exactly: at most 15 digits. */
static bool plain_number(const char *s, size_t n)
{
	size_t i = 0;

	if (n && s[0] == '-')
		i++;
	if (i == n || n - i > 15 || (s[i] == '0' && n - i > 1))
		return false;
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/*
 * "key=value key=value" as an object; a value with spaces stays whole up
 * to the next " key=", text before any key is under "text".
 */
static void put_details(struct out_buf *b, const char *detail)
{
	const char *p = detail;
	bool first = true;

	out_buf_c(b, '{');
	while (*p) {
		const char *eq, *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		end = next_pair(p);
		eq = memchr(p, '=', (size_t)(end - p));
		if (!first)
			out_buf_c(b, ',');
		first = false;
		if (!eq) {
			put_lit(b, "\"text\":");
			json_str_put(b, p, (size_t)(end - p));
		} else {
			json_str_put(b, p, (size_t)(eq - p));
			out_buf_c(b, ':');
			if (plain_number(eq + 1, (size_t)(end - eq - 1)))
				out_buf_put(b, eq + 1, (size_t)(end - eq - 1));
			else
				json_str_put(b, eq + 1, (size_t)(end - eq - 1));
		}
		p = end;
	}
	out_buf_c(b, '}');
}

void diag_json_put(struct out_buf *b, const struct pd_diag *d)
{
	const char *detail = d->detail ? d->detail : "";
	char tbuf[24];

	put_lit(b, "{\"offset\":");
	if (d->offset != PD_NO_OFFSET)
		put_u64(b, d->offset);
	else
		put_lit(b, "null");
	put_lit(b, ",\"stream\":");
	if (d->stream)
		put_str(b, d->stream);
	else
		put_lit(b, "null");
	put_lit(b, ",\"record_index\":");
	if (d->record_index >= 0) {
		put_u64(b, (uint64_t)d->record_index);
		put_lit(b, ",\"record_type\":");
		put_str(b, tool_type_name(d->record_type, tbuf, sizeof(tbuf)));
	} else {
		put_lit(b, "null,\"record_type\":null");
	}
	put_lit(b, ",\"code\":");
	put_str(b, pd_code_id(d->code));
	put_lit(b, ",\"name\":");
	put_str(b, pd_code_name(d->code));
	put_lit(b, ",\"severity\":");
	put_str(b, pd_severity_name(d->severity));
	put_lit(b, ",\"message\":");
	put_str(b, pd_code_text(d->code));
	if (d->fatal)
		put_lit(b, ",\"fatal\":true,\"detail\":");
	else
		put_lit(b, ",\"fatal\":false,\"detail\":");
	put_str(b, detail);
	put_lit(b, ",\"details\":");
	put_details(b, detail);
	out_buf_c(b, '}');
}
