/* SPDX-License-Identifier: MIT */
/*
 * pd_attr.h - a decoded struct perf_event_attr and its sample ids.
 */
#ifndef PERFDATA_PD_ATTR_H
#define PERFDATA_PD_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Every field of the newest (VER9, 144 byte) attr, in host byte order.
 * Fields beyond the attr's own size are zero.  `flags` is the bit-field
 * word at offset 40, normalised to the little-endian bit numbering of the
 * UAPI header whatever the file's byte order.
 */
struct pd_attr {
	uint32_t type;
	uint32_t size;		/* as stored (0 in very old files) */
	uint64_t config;
	uint64_t sample_period;	/* or sample_freq when PD_ATTR_FREQ is set */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags;
	uint32_t wakeup_events;	/* or wakeup_watermark */
	uint32_t bp_type;
	uint64_t config1;	/* bp_addr, kprobe_func, uprobe_path */
	uint64_t config2;	/* bp_len, kprobe_addr, probe_offset */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t reserved_2;
	uint32_t aux_sample_size;
	uint32_t aux_action;
	uint64_t sig_data;
	uint64_t config3;
	uint64_t config4;
};

/* Bits of pd_attr.flags */
#define PD_ATTR_DISABLED		(1ULL << 0)
#define PD_ATTR_INHERIT			(1ULL << 1)
#define PD_ATTR_PINNED			(1ULL << 2)
#define PD_ATTR_EXCLUSIVE		(1ULL << 3)
#define PD_ATTR_EXCLUDE_USER		(1ULL << 4)
#define PD_ATTR_EXCLUDE_KERNEL		(1ULL << 5)
#define PD_ATTR_EXCLUDE_HV		(1ULL << 6)
#define PD_ATTR_EXCLUDE_IDLE		(1ULL << 7)
#define PD_ATTR_MMAP			(1ULL << 8)
#define PD_ATTR_COMM			(1ULL << 9)
#define PD_ATTR_FREQ			(1ULL << 10)
#define PD_ATTR_INHERIT_STAT		(1ULL << 11)
#define PD_ATTR_ENABLE_ON_EXEC		(1ULL << 12)
#define PD_ATTR_TASK			(1ULL << 13)
#define PD_ATTR_WATERMARK		(1ULL << 14)
#define PD_ATTR_PRECISE_IP_SHIFT	15
#define PD_ATTR_PRECISE_IP_MASK		(3ULL << 15)
#define PD_ATTR_MMAP_DATA		(1ULL << 17)
#define PD_ATTR_SAMPLE_ID_ALL		(1ULL << 18)
#define PD_ATTR_EXCLUDE_HOST		(1ULL << 19)
#define PD_ATTR_EXCLUDE_GUEST		(1ULL << 20)
#define PD_ATTR_EXCLUDE_CALLCHAIN_KERNEL (1ULL << 21)
#define PD_ATTR_EXCLUDE_CALLCHAIN_USER	(1ULL << 22)
#define PD_ATTR_MMAP2			(1ULL << 23)
#define PD_ATTR_COMM_EXEC		(1ULL << 24)
#define PD_ATTR_USE_CLOCKID		(1ULL << 25)
#define PD_ATTR_CONTEXT_SWITCH		(1ULL << 26)
#define PD_ATTR_WRITE_BACKWARD		(1ULL << 27)
#define PD_ATTR_NAMESPACES		(1ULL << 28)
#define PD_ATTR_KSYMBOL			(1ULL << 29)
#define PD_ATTR_BPF_EVENT		(1ULL << 30)
#define PD_ATTR_AUX_OUTPUT		(1ULL << 31)
#define PD_ATTR_CGROUP			(1ULL << 32)
#define PD_ATTR_TEXT_POKE		(1ULL << 33)
#define PD_ATTR_BUILD_ID		(1ULL << 34)
#define PD_ATTR_INHERIT_THREAD		(1ULL << 35)
#define PD_ATTR_REMOVE_ON_EXEC		(1ULL << 36)
#define PD_ATTR_SIGTRAP			(1ULL << 37)
#define PD_ATTR_DEFER_CALLCHAIN		(1ULL << 38)
#define PD_ATTR_DEFER_OUTPUT		(1ULL << 39)
#define PD_ATTR_FLAGS_KNOWN		((1ULL << 40) - 1)

static inline unsigned int pd_attr_precise_ip(const struct pd_attr *a)
{
	return (unsigned int)((a->flags & PD_ATTR_PRECISE_IP_MASK) >> PD_ATTR_PRECISE_IP_SHIFT);
}

/*
 * An event of the recording: its attr, the sample ids that refer to it,
 * and what the reader derived from it.
 */
struct pd_event {
	struct pd_attr attr;
	uint32_t attr_size_on_disk;	/* bytes of attr in the file (attr.size, 0 => 64) */
	uint64_t file_offset;		/* where the attr was read (attrs section or HEADER_ATTR record) */
	uint64_t ids_offset;		/* file mode: the attr's id section as stored */
	uint64_t ids_size;
	const uint64_t *ids;
	size_t nr_ids;
	const char *name;		/* from EVENT_DESC / EVENT_UPDATE NAME / default name; never NULL */
	int id_pos;			/* u64 index of the id in a SAMPLE body, -1 if none */
	int is_pos;			/* u64 index from the end of a non-sample record, -1 if none */
	uint32_t id_hdr_size;		/* bytes of the sample_id trailer */
	uint32_t sample_fixed_size;	/* 8 * popcount(sample_type & fixed-slot bits) */
};

/* Decode `len` bytes of a perf_event_attr as stored in a file. */
void pd_attr_decode(const uint8_t *p, size_t len, bool swap, struct pd_attr *out);
/* Encode an attr in host byte order into `size` bytes (size <= 144 or zero-padded). */
void pd_attr_encode(const struct pd_attr *a, uint8_t *p, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_PD_ATTR_H */
