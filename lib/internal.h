/* SPDX-License-Identifier: MIT */
/*
 * internal.h - helpers shared by the files of the parsing core.
 * Not installed; consumers use include/perfdata/ only.
 */
#ifndef PD_LIB_INTERNAL_H
#define PD_LIB_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "perfdata/pd_diag.h"

/* ---- byte loads (memcpy: never an unaligned pointer cast) ---- */

static inline uint16_t pd_ld16(const uint8_t *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t pd_ld32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t pd_ld64(const uint8_t *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

static inline void pd_st16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline void pd_st32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline void pd_st64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

/* ---- bounds-checked cursor over a window of bytes ---- */

struct pd_cur {
	const uint8_t *p;	/* window start */
	size_t len;		/* bytes in the window */
	size_t pos;		/* invariant: pos <= len */
	uint64_t base;		/* stream offset of p[0], for diagnostics */
	bool swap;		/* file byte order differs from the host's */
};

static inline void pd_cur_init(struct pd_cur *c, const uint8_t *p, size_t len,
			       uint64_t base, bool swap)
{
	c->p = p;
	c->len = len;
	c->pos = 0;
	c->base = base;
	c->swap = swap;
}

static inline size_t pd_cur_left(const struct pd_cur *c)
{
	return c->len - c->pos;
}

/* Subtraction form: cannot overflow. */
static inline bool pd_cur_has(const struct pd_cur *c, size_t n)
{
	return c->len - c->pos >= n;
}

static inline uint64_t pd_cur_off(const struct pd_cur *c)
{
	return c->base + c->pos;
}

static inline bool pd_cur_u8(struct pd_cur *c, uint8_t *out)
{
	if (!pd_cur_has(c, 1))
		return false;
	*out = c->p[c->pos++];
	return true;
}

static inline bool pd_cur_u16(struct pd_cur *c, uint16_t *out)
{
	if (!pd_cur_has(c, 2))
		return false;
	*out = pd_ld16(c->p + c->pos, c->swap);
	c->pos += 2;
	return true;
}

static inline bool pd_cur_u32(struct pd_cur *c, uint32_t *out)
{
	if (!pd_cur_has(c, 4))
		return false;
	*out = pd_ld32(c->p + c->pos, c->swap);
	c->pos += 4;
	return true;
}

static inline bool pd_cur_u64(struct pd_cur *c, uint64_t *out)
{
	if (!pd_cur_has(c, 8))
		return false;
	*out = pd_ld64(c->p + c->pos, c->swap);
	c->pos += 8;
	return true;
}

/* Borrow n raw bytes and step past them. */
static inline bool pd_cur_bytes(struct pd_cur *c, size_t n, const uint8_t **out)
{
	if (!pd_cur_has(c, n))
		return false;
	*out = c->p + c->pos;
	c->pos += n;
	return true;
}

static inline bool pd_cur_skip(struct pd_cur *c, size_t n)
{
	if (!pd_cur_has(c, n))
		return false;
	c->pos += n;
	return true;
}

/* Carve a sub-window of n bytes and step past it. */
static inline bool pd_cur_sub(struct pd_cur *c, size_t n, struct pd_cur *sub)
{
	if (!pd_cur_has(c, n))
		return false;
	pd_cur_init(sub, c->p + c->pos, n, c->base + c->pos, c->swap);
	c->pos += n;
	return true;
}

/* ---- diagnostics ---- */

/*
 * Where diagnostics go.  Counts per severity are kept so that callers can
 * tell whether anything went wrong without installing a callback.
 */
struct pd_diag_sink {
	pd_diag_fn fn;
	void *arg;
	const char *stream;		/* current stream name (directory mode) */
	uint64_t counts[3];		/* per enum pd_severity */
	uint64_t by_code[1000];		/* per code number */
};

/*
 * Report one finding.  `rec_idx` is -1 when the finding is not about a
 * record.  The detail is printf-formatted "key=value" text.
 */
/*
 * io.c: read up to len bytes (fewer only at the end of the input; -1 on
 * error), read exactly len bytes at off (0 or -1 with errno, EIO for a
 * file that ends early).  Its write loop is public: pd_write_all().
 */
ssize_t pd_io_read(int fd, void *buf, size_t len);
int pd_io_pread(int fd, void *buf, size_t len, uint64_t off);

void pd_diag_emit(struct pd_diag_sink *s, enum pd_code code, uint64_t offset,
		  int64_t rec_idx, uint32_t rec_type, bool fatal,
		  const char *fmt, ...) __attribute__((format(printf, 7, 8)));

#define PD_ALIGN(x, a) (((x) + ((a) - 1)) & ~((uint64_t)(a) - 1))

/* Byte-reverse each byte's bits: the attr bit-field conversion (perf's rule). */
static inline uint64_t pd_bitrev_bytes(uint64_t v)
{
	uint64_t out = 0;
	unsigned int i, b;

	for (i = 0; i < 8; i++) {
		uint8_t x = (uint8_t)(v >> (8 * i)), y = 0;

		for (b = 0; b < 8; b++)
			if (x & (1u << b))
				y |= (uint8_t)(0x80u >> b);
		out |= (uint64_t)y << (8 * i);
	}
	return out;
}

#endif /* PD_LIB_INTERNAL_H */
