// SPDX-License-Identifier: MIT
/*
 * fuzz_reader.c - libFuzzer target for the streaming reader.
 *
 * The input goes to a memfd (the reader wants a descriptor: it seeks, so
 * file mode, pipe mode and the header checks are all reachable) and is
 * read to the end twice: in file order and in time order.  Small caps keep
 * the fuzzer fast and make the limit paths reachable.
 *
 * Build and run: make fuzz-run FUZZ_SECONDS=60
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfdata/perfdata.h"
#include "perfdata/pd_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore_diag(const struct pd_diag *d, void *arg)
{
	uint64_t *n = arg;

	/* Touch every field the callback may see: strings must be valid. */
	*n += d->code + (d->detail[0] != '\0') + (d->stream ? d->stream[0] : 0);
}

static void read_once(int fd, bool time_order)
{
	struct pd_reader_opts o = PD_READER_OPTS_INIT;
	const struct pd_record *rec;
	struct pd_reader *r;
	uint64_t n = 0;

	o.diag_fn = ignore_diag;
	o.diag_arg = &n;
	o.time_order = time_order;
	o.window_size = 256 << 10;
	o.max_decompressed = 16 << 20;
	o.order_queue_max = 4 << 20;
	o.max_ids = 1 << 16;
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	if (pd_reader_open_fd(fd, "fuzz", &o, &r) < 0)
		return;
	while (pd_reader_next(r, &rec) > 0) {
		/* The record must be readable as a whole. */
		if (rec->raw_len)
			n += rec->raw[rec->raw_len - 1];
	}
	pd_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd;

	fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	if (fd < 0 || pd_write_all(fd, data, size))
		abort();
	read_once(fd, false);
	read_once(fd, true);
	close(fd);
	return 0;
}
