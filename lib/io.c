// SPDX-License-Identifier: MIT
/*
 * io.c - the core's loops around read(2), pread(2) and write(2).
 *
 * Every call may return early (a signal, a pipe's capacity, a short file):
 * these retry on EINTR and continue after a short count, so that the
 * reader and the writer each state only what they want done.  The write
 * loop is public (pd_write_all(), pd_writer.h): the commands' output layer
 * writes through it too, so that the toolkit has one such loop.
 */
#include <errno.h>
#include <unistd.h>

#include "internal.h"
#include "perfdata/pd_writer.h"

ssize_t pd_io_read(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int pd_io_pread(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;	/* the file ends before the range does */
			return -1;
		}
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int pd_write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
