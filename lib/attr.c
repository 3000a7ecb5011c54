// SPDX-License-Identifier: MIT
/*
 * attr.c - struct perf_event_attr as stored in files <-> struct pd_attr.
 */
#include <string.h>

#include "perfdata/pd_attr.h"
#include "internal.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PD_HOST_BE 1
#else
#define PD_HOST_BE 0
#endif

/*
 * Field loaders: a field exists only if the attr is long enough to hold all
 * of it (a field cut in half by `len` is treated as absent, like perf).
 */
static uint16_t ld16(const uint8_t *p, size_t len, size_t off, bool swap)
{
	return len >= off + 2 ? pd_ld16(p + off, swap) : 0;
}

static uint32_t ld32(const uint8_t *p, size_t len, size_t off, bool swap)
{
	return len >= off + 4 ? pd_ld32(p + off, swap) : 0;
}

static uint64_t ld64(const uint8_t *p, size_t len, size_t off, bool swap)
{
	return len >= off + 8 ? pd_ld64(p + off, swap) : 0;
}

static uint32_t bitrev32(uint32_t v)
{
	uint32_t out = 0;
	unsigned int i;

	for (i = 0; i < 32; i++)
		if (v & (1u << i))
			out |= 1u << (31 - i);
	return out;
}

/*
 * The flags word is a set of C bit-fields in a u64.  A little-endian
 * compiler allocates them from bit 0 of byte 0 upwards, a big-endian one
 * from bit 7 of byte 0 downwards, so the byte order of the storage does not
 * matter and per-byte bit reversal maps one allocation onto the other
 * (perf's rule).  Multi-bit fields keep their value's MSB first on
 * big-endian, so the 2-bit precise_ip comes out with its bits exchanged;
 * swap bits 15 and 16 back so that 1 stays 1.
 */
static uint64_t flags_from_file(const uint8_t *p, bool file_be)
{
	uint64_t raw, v;

	/* a little-endian load of the raw bytes, whatever the host */
	raw = pd_ld64(p, PD_HOST_BE);
	if (!file_be)
		return raw;
	v = pd_bitrev_bytes(raw);
	if (((v >> 15) & 1) != ((v >> 16) & 1))
		v ^= PD_ATTR_PRECISE_IP_MASK;
	return v;
}

void pd_attr_decode(const uint8_t *p, size_t len, bool swap, struct pd_attr *out)
{
	bool file_be = PD_HOST_BE ? !swap : swap;

	memset(out, 0, sizeof(*out));
	out->type = ld32(p, len, 0, swap);
	out->size = ld32(p, len, 4, swap);
	out->config = ld64(p, len, 8, swap);
	out->sample_period = ld64(p, len, 16, swap);
	out->sample_type = ld64(p, len, 24, swap);
	out->read_format = ld64(p, len, 32, swap);
	if (len >= 48)
		out->flags = flags_from_file(p + 40, file_be);
	out->wakeup_events = ld32(p, len, 48, swap);
	out->bp_type = ld32(p, len, 52, swap);
	out->config1 = ld64(p, len, 56, swap);
	out->config2 = ld64(p, len, 64, swap);
	out->branch_sample_type = ld64(p, len, 72, swap);
	out->sample_regs_user = ld64(p, len, 80, swap);
	out->sample_stack_user = ld32(p, len, 88, swap);
	out->clockid = (int32_t)ld32(p, len, 92, swap);
	out->sample_regs_intr = ld64(p, len, 96, swap);
	out->aux_watermark = ld32(p, len, 104, swap);
	out->sample_max_stack = ld16(p, len, 108, swap);
	out->reserved_2 = ld16(p, len, 110, swap);
	out->aux_sample_size = ld32(p, len, 112, swap);
	/*
	 * aux_action is a u32 of bit-fields too: on a big-endian writer
	 * aux_start_paused is the value's bit 31.  Mirror the word so the
	 * result uses the UAPI (little-endian) bit numbers.
	 */
	out->aux_action = ld32(p, len, 116, swap);
	if (file_be)
		out->aux_action = bitrev32(out->aux_action);
	out->sig_data = ld64(p, len, 120, swap);
	out->config3 = ld64(p, len, 128, swap);
	out->config4 = ld64(p, len, 136, swap);
}

/* Store helpers that drop fields not wholly inside `size`. */
static void st16(uint8_t *p, size_t size, size_t off, uint16_t v)
{
	if (size >= off + 2)
		pd_st16(p + off, v);
}

static void st32(uint8_t *p, size_t size, size_t off, uint32_t v)
{
	if (size >= off + 4)
		pd_st32(p + off, v);
}

static void st64(uint8_t *p, size_t size, size_t off, uint64_t v)
{
	if (size >= off + 8)
		pd_st64(p + off, v);
}

void pd_attr_encode(const struct pd_attr *a, uint8_t *p, size_t size)
{
	memset(p, 0, size);
	st32(p, size, 0, a->type);
	st32(p, size, 4, a->size);
	st64(p, size, 8, a->config);
	st64(p, size, 16, a->sample_period);
	st64(p, size, 24, a->sample_type);
	st64(p, size, 32, a->read_format);
	/* host order: on a little-endian host this is the UAPI layout */
	st64(p, size, 40, a->flags);
	st32(p, size, 48, a->wakeup_events);
	st32(p, size, 52, a->bp_type);
	st64(p, size, 56, a->config1);
	st64(p, size, 64, a->config2);
	st64(p, size, 72, a->branch_sample_type);
	st64(p, size, 80, a->sample_regs_user);
	st32(p, size, 88, a->sample_stack_user);
	st32(p, size, 92, (uint32_t)a->clockid);
	st64(p, size, 96, a->sample_regs_intr);
	st32(p, size, 104, a->aux_watermark);
	st16(p, size, 108, a->sample_max_stack);
	st16(p, size, 110, a->reserved_2);
	st32(p, size, 112, a->aux_sample_size);
	st32(p, size, 116, a->aux_action);
	st64(p, size, 120, a->sig_data);
	st64(p, size, 128, a->config3);
	st64(p, size, 136, a->config4);
}
