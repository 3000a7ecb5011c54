// SPDX-License-Identifier: MIT
/*
 * cmd_to_proto.c - perfconv to-proto: perf.data to a quipper.PerfDataProto
 * protobuf message (schema/perf_data.proto).
 *
 * Default mode streams: every record becomes one `events` entry, encoded
 * and written as soon as it is read, so memory does not grow with the
 * input; the attrs, build ids and header features follow the last event
 * (protobuf readers do not care about field order).  --quipper-compat
 * reproduces quipper's own conversion, which needs the whole event list
 * before it can write the first one (see proto_compat.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_select.h"
#include "../common/out_sink.h"
#include "proto_compat.h"
#include "proto_event.h"
#include "proto_meta.h"
#include "proto_wire.h"

#define FLUSH_AT (1u << 20)

/* the encoder's buffer handed to the output file */
static void out_write(struct pw_buf *b, void *arg)
{
	out_sink_write(arg, b->p, b->len);
	b->len = 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s to-proto [--quipper-compat] [--strict] [-v] [-o OUT] [SELECTION]\n"
		"                         [FILE|DIR|-]\n\n"
		"Write the recording as a quipper.PerfDataProto protobuf message\n"
		"(schema/perf_data.proto), readable by programs built on quipper's schema.\n\n"
		"  -o, --output OUT     write to OUT (replaced only when complete); default stdout\n"
		"      --quipper-compat produce what quipper's perf_converter writes: events sorted\n"
		"                       by time, huge-page and split mappings merged, stats added,\n"
		"                       no extension fields, the records quipper drops left out\n"
		"      --strict         stop at the first warning or error in the input\n"
		"  -v, --verbose        also print diagnostics of severity note\n"
		"  -h, --help           show this help\n"
		CLI_SELECT_HELP "\n"
		"Default mode keeps every record in file order and adds extension fields\n"
		"(numbers >= 1000) for what quipper's schema cannot hold.\n"
		"Decode with: protoc --decode=quipper.PerfDataProto schema/perf_data.proto < OUT\n"
		CLI_INPUT_HELP_TAIL,
		cli_progname);
}

static bool stop_now(const struct cli_diag *cd, bool strict)
{
	return strict && (cd->count[PD_SEV_WARNING] || cd->count[PD_SEV_ERROR]);
}

int cmd_to_proto(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "quipper-compat", no_argument, NULL, 'q' },
		{ "strict", no_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		CLI_SELECT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	struct pd_reader *r = NULL;
	struct cli_select cs;
	const char *input;
	int taken;
	const struct pd_record *rec;
	struct pm_state meta;
	struct pq_state *q = NULL;
	struct pw_buf buf = { 0 };
	struct cli_diag cd;
	struct out_sink out;
	const char *output = NULL;
	bool compat = false, strict = false, verbose = false, failed = false;
	int c, status = 0, code;

	cli_select_init(&cs, cli_progname, "to-proto");
	cli_getopt_reset();
	while ((c = getopt_long(argc, argv, ":o:vh" CLI_SELECT_SHORTOPTS, longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'q':
			compat = true;
			break;
		case 's':
			strict = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			cli_select_free(&cs);
			usage(stdout);
			return tool_finish_output(cli_progname, CLI_EXIT_OK);
		default:
			taken = cli_select_option(&cs, c, optarg);
			if (taken <= 0) {
				cli_select_free(&cs);
				return taken ? CLI_EXIT_USAGE : tool_bad_option(cli_progname, "to-proto", argc, argv, c);
			}
		}
	}
	input = cli_select_input(&cs, argc, argv, optind, NULL);
	if (!input) {
		cli_select_free(&cs);
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (cli_check_output("to-proto", input, output ? output : "-")) {
		cli_select_free(&cs);
		return CLI_EXIT_USAGE;
	}
	if (!output && isatty(STDOUT_FILENO)) {
		cli_error("to-proto: refusing to write binary protobuf to a terminal");
		fprintf(stderr, "Use -o OUT, or redirect: %s to-proto %s > out.pb\n", cli_progname,
			input);
		cli_select_free(&cs);
		return CLI_EXIT_USAGE;
	}
	cli_select_reader_opts(&cs, &o);

	cli_diag_init(&cd, input, verbose);
	o.diag_fn = cli_diag_cb;
	o.diag_arg = &cd;
	/* the records inside COMPRESSED ones are delivered in their place */
	o.skip_compressed = true;
	status = pd_reader_open(input, &o, &r);
	if (status < 0) {
		cli_select_free(&cs);
		return cli_exit_code(status, &cd);
	}
	code = stop_now(&cd, strict) ? cli_exit_code(PD_STATUS_MALFORMED, &cd)
				     : cli_select_check(&cs, r, false);
	if (!code && out_sink_open(&out, cli_progname, "to-proto", output, NULL))
		code = CLI_EXIT_IO;
	if (code) {
		pd_reader_close(r);
		cli_select_free(&cs);
		return code;
	}
	if (pm_init(&meta, r, input, !compat))
		goto nomem;
	if (compat) {
		q = pq_new();
		if (!q)
			goto nomem;
	}

	while ((status = pd_reader_next(r, &rec)) > 0) {
		pm_record(&meta, r, rec);
		if (compat) {
			if (pq_record(q, rec, &meta))
				goto nomem;
		} else {
			size_t m = pw_open(&buf, PF_EVENTS);

			pe_encode_event(&buf, rec, true);
			pw_close(&buf, m);
			if (buf.len >= FLUSH_AT)
				out_write(&buf, &out);
		}
		if (buf.nomem || meta.nomem)
			goto nomem;
		if (stop_now(&cd, strict)) {
			status = PD_STATUS_MALFORMED;
			failed = true;
			break;
		}
		if (out.err)
			break;
	}
	/* a problem found at the end of the input counts as much as one before it */
	if ((status < 0 && strict) || stop_now(&cd, strict)) {
		failed = true;
		if (status >= 0)
			status = PD_STATUS_MALFORMED;
	}
	if (!failed && compat && pq_finish(q, &meta, &buf, out_write, &out))
		goto nomem;
	if (!failed)
		pm_encode(&meta, r, &buf);
	if (buf.nomem || meta.nomem)
		goto nomem;
	if (!failed)
		out_write(&buf, &out);
	code = cli_exit_code(status < 0 ? status : 0, &cd);
	if (code == CLI_EXIT_OK)
		code = cli_select_check(&cs, r, true);
	/* a usage error found at the end (pipe mode's --event) leaves no file either */
	if (out_sink_close(&out, !failed && code != CLI_EXIT_USAGE) && code == CLI_EXIT_OK)
		code = CLI_EXIT_IO;
	if (!output && out.err && code == CLI_EXIT_OK) {
		tool_io_error(cli_progname, "write", NULL, out.err);
		code = CLI_EXIT_IO;
	}
	goto done;

nomem:
	cli_error("to-proto: out of memory");
	out_sink_close(&out, false);
	code = CLI_EXIT_IO;
done:
	pq_free(q);
	pm_free(&meta);
	pw_buf_free(&buf);
	pd_reader_close(r);
	cli_select_free(&cs);
	return code;
}
