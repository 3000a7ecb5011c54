// SPDX-License-Identifier: MIT
/*
 * cmd_dump.c - perfconv dump: one line per record with every decoded field.
 *
 *	0xOFFSET [SIZE] TYPE key=value key=value ...
 *
 * The key=value fields are the text form of the record walk that the CSV
 * records table shares (rec_text.h).  dump runs over files of hundreds of
 * megabytes, so the record loop does no allocation and no printf(): lines
 * are assembled in place in the 1 MiB output buffer (common/out_buf.h),
 * which is written to standard output whenever it is full.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../common/out_buf.h"
#include "../common/tool_select.h"
#include "driver.h"
#include "rec_text.h"

/* ---- output buffer ---- */

#define OUT_SIZE (1024 * 1024)

/*
 * The one output buffer (common/out_buf.h), on standard output, over
 * static storage: the hex dump below indexes out_store itself, a constant
 * address, rather than load out.buf for every byte.
 */
static char out_store[OUT_SIZE];
static struct out_buf out = { .buf = out_store, .cap = OUT_SIZE, .fd = STDOUT_FILENO };

static const char hex_digits[] = "0123456789abcdef";

/* Make room for n bytes (n <= OUT_BUF_MIN). */
static inline void out_room(size_t n)
{
	if (OUT_SIZE - out.len < n)
		out_buf_flush(&out);
}

/* ---- state ---- */

struct dump_ctx {
	bool hex;
	const char *name;
	/* last COMPRESSED/COMPRESSED2 container, to name the one inner records came from */
	uint64_t container_offset;
	uint32_t container_type;
};

/* --hex: the record bytes as stored, 16 per line with their ASCII. */
static void out_hexdump(const uint8_t *p, size_t len)
{
	size_t off, i;

	for (off = 0; off < len; off += 16) {
		size_t n = len - off < 16 ? len - off : 16;

		out_room(96);
		out_store[out.len++] = ' ';
		out_store[out.len++] = ' ';
		for (i = 0; i < 4; i++)
			out_store[out.len++] = hex_digits[(off >> (12 - 4 * i)) & 0xf];
		out_store[out.len++] = ':';
		for (i = 0; i < 16; i++) {
			out_store[out.len++] = ' ';
			if (i < n) {
				out_store[out.len++] = hex_digits[p[off + i] >> 4];
				out_store[out.len++] = hex_digits[p[off + i] & 0xf];
			} else {
				out_store[out.len++] = ' ';
				out_store[out.len++] = ' ';
			}
		}
		out_store[out.len++] = ' ';
		out_store[out.len++] = ' ';
		for (i = 0; i < n; i++) {
			uint8_t c = p[off + i];

			out_store[out.len++] = c >= 0x20 && c < 0x7f ? (char)c : '.';
		}
		out_store[out.len++] = '\n';
	}
}

static void dump_record(struct dump_ctx *dc, const struct pd_record *rec)
{
	char tbuf[24];

	if (rec->type == PD_REC_COMPRESSED || rec->type == PD_REC_COMPRESSED2) {
		dc->container_offset = rec->offset;
		dc->container_type = rec->type;
	}
	rec_text_hex(&out, rec->offset);
	rec_text_s(&out, " [");
	rec_text_u64(&out, rec->size);
	rec_text_s(&out, "] ");
	rec_text_s(&out, tool_type_name(rec->type, tbuf, sizeof(tbuf)));
	if (rec->from_compressed) {
		rec_text_s(&out, " [from ");
		rec_text_s(&out, dc->container_offset == rec->offset && dc->container_type ?
		      pd_record_type_name(dc->container_type) : "COMPRESSED");
		rec_text_s(&out, " @");
		rec_text_hex(&out, rec->offset);
		out_buf_c(&out, '+');
		rec_text_hex(&out, rec->inner_offset);
		out_buf_c(&out, ']');
	}
	/* the fields are the one text form of the record walk (rec_text.h) */
	rec_text_fields(&out, rec, (dc->hex ? REC_TEXT_BULK : 0) | REC_TEXT_CALLCHAIN);
	if (!rec->decoded)
		rec_text_s(&out, " (not decoded)");
	out_buf_c(&out, '\n');
	if (dc->hex && rec->raw)
		out_hexdump(rec->raw, rec->raw_len);
}

static void dump_header(const struct dump_ctx *dc, struct pd_reader *r)
{
	const struct pd_header *h = pd_reader_header(r);
	size_t i;

	rec_text_s(&out, "# perfconv dump: ");
	rec_text_str_n(&out, dc->name, SIZE_MAX);
	rec_text_s(&out, "\n# mode=");
	rec_text_s(&out, cli_mode_name(h->mode));
	rec_text_s(&out, " byte_order=");
	rec_text_s(&out, h->big_endian ? "big" : "little");
	rec_text_kv_u(&out, "header_size", h->header_size);
	if (h->mode != PD_MODE_PIPE) {
		rec_text_kv_u(&out, "attr_size", h->attr_size);
		rec_text_kv_x(&out, "data_offset", h->data.offset);
		rec_text_kv_u(&out, "data_size", h->data.size);
	}
	if (h->mode == PD_MODE_DIR)
		rec_text_kv_u(&out, "streams", h->nr_streams);
	out_buf_c(&out, '\n');
	/* pipe mode: the attrs are HEADER_ATTR records below */
	for (i = 0; i < pd_reader_nr_events(r); i++) {
		const struct pd_event *ev = pd_reader_event(r, i);

		rec_text_s(&out, "# attr ");
		rec_text_u64(&out, i);
		rec_text_kv_s(&out, "name", ev->name);
		rec_text_attr(&out, &ev->attr);
		rec_text_kv_u(&out, "size", ev->attr_size_on_disk);
		rec_text_kv_u(&out, "nr_ids", ev->nr_ids);
		out_buf_c(&out, '\n');
	}
}

/*
 * Diagnostics go straight to stderr, and tool_diag_cb() flushes stdio first:
 * hand it the lines still in our own buffer so that a finding appears
 * right after the records that precede it.
 */
static void flush_before_diag(const struct pd_diag *d, void *arg)
{
	out_buf_flush(&out);
}

/* ---- the writer ops (driver.h) ---- */

struct dump_writer {
	struct dump_ctx dc;
	bool time_order;
	const struct cli_select *cs;
};

static int dump_begin(struct drv *d, void *w)
{
	struct dump_writer *dw = w;

	dw->dc.name = d->cd.name;
	dump_header(&dw->dc, d->r);
	if (cli_select_active(dw->cs)) {
		char desc[1024];

		rec_text_s(&out, "# selection ");
		rec_text_s(&out, cli_select_describe(dw->cs, desc, sizeof(desc)));
		out_buf_c(&out, '\n');
	}
	return 0;
}

static int dump_rec(struct drv *d, void *w, const struct pd_record *rec)
{
	struct dump_writer *dw = w;

	dump_record(&dw->dc, rec);
	return 0;
}

static int dump_end(struct drv *d, void *w)
{
	out_buf_flush(&out);
	return 0;
}

static const struct writer_ops dump_ops = {
	.begin = dump_begin,
	.record = dump_rec,
	.end = dump_end,
};

static const struct tool_flag dump_flags[] = {
	TOOL_FLAG("hex", 'x', struct dump_writer, dc.hex, true,
		  "add the raw bytes of each record (and raw/aux\nsample data)"),
	TOOL_FLAG("time-order", 't', struct dump_writer, time_order, true,
		  "deliver records in time order (FINISHED_ROUND rule)"),
	{ NULL, 0, 0, false, NULL },
};

static const struct tool_cmd dump_cmd = {
	.prog = CLI_PROGNAME,
	.name = "dump",
	.groups = TOOL_ARG_VERBOSE | TOOL_ARG_SELECT,
	.flags = dump_flags,
	.help_head = "usage: " CLI_PROGNAME " dump [--hex] [--time-order] [-v] [SELECTION] "
		     "[FILE|DIR|-]\n\n"
		     "Print one line per record, in file order, with every decoded field:\n"
		     "  0xOFFSET [SIZE] TYPE key=value ...\n\n",
	.help_tail = CLI_INPUT_HELP_TAIL,
};

static int dump_setup(struct drv_opts *o, struct tool_args *a, void *w)
{
	struct dump_writer *dw = w;

	o->ro.time_order = dw->time_order;
	dw->cs = &a->cs;
	out.len = 0;
	o->diag_hook = flush_before_diag;
	return CLI_EXIT_OK;
}

int cmd_dump(int argc, char **argv)
{
	struct dump_writer dw;
	int code;

	memset(&dw, 0, sizeof(dw));
	code = drv_main(&dump_cmd, argc, argv, &dw, dump_setup, &dump_ops, &dw);
	/* nothing is buffered when the command line did not run it */
	out_buf_flush(&out);
	if (out.err) {
		tool_io_error(cli_progname, "write", NULL, out.err);
		code = CLI_EXIT_IO;
	}
	return code;
}
