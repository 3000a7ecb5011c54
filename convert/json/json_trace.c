// SPDX-License-Identifier: MIT
/*
 * json_trace.c - the tracepoint formats both to-json writers decode RAW
 * sample data with: from the file's TRACING_DATA feature, or from the
 * last HEADER_TRACING_DATA record of a pipe, parsed on first need.
 */
#include <stdlib.h>
#include <string.h>

#include "json/json_conv.h"

struct jtep *jconv_tep(struct jconv *c)
{
	const struct pd_features *f;
	const uint8_t *blob = NULL;
	size_t len = 0;
	const char *why;

	if (c->tep_tried)
		return c->tep;
	c->tep_tried = true;
	f = pd_reader_features(c->r);
	if (c->pipe_tracing) {
		blob = c->pipe_tracing;
		len = c->pipe_tracing_len;
	} else if (pd_features_has(f, PD_FEAT_TRACING_DATA)) {
		blob = f->raw[PD_FEAT_TRACING_DATA].data;
		len = f->raw[PD_FEAT_TRACING_DATA].len;
	}
	if (!blob)
		return NULL;
	c->tep = jtep_new(blob, len, &why);
	if (why)
		cli_error("to-json: %s: tracepoint fields %s", why,
			  c->tep ? "may be incomplete" : "are left out");
	return c->tep;
}

void jconv_take_tracing(struct jconv *c, const struct pd_record *rec)
{
	const struct pd_rec_tracing_data *td = &rec->u.tracing_data;
	const uint8_t *p = td->inline_data ? td->data : rec->extra;
	size_t len = td->size;

	if (!rec->decoded || !p || (!td->inline_data && len > rec->extra_len))
		return;
	free(c->pipe_tracing);
	c->pipe_tracing = malloc(len ? len : 1);
	if (!c->pipe_tracing) {
		c->pipe_tracing_len = 0;
		return;
	}
	memcpy(c->pipe_tracing, p, len);
	c->pipe_tracing_len = len;
	/* formats seen before (if any) are replaced by the new ones */
	jtep_free(c->tep);
	c->tep = NULL;
	c->tep_tried = false;
}

void jconv_trace_free(struct jconv *c)
{
	jtep_free(c->tep);
	c->tep = NULL;
	c->tep_tried = false;
	free(c->pipe_tracing);
	c->pipe_tracing = NULL;
	c->pipe_tracing_len = 0;
}
