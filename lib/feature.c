// SPDX-License-Identifier: MIT
/*
 * feature.c - decoding of header features (perf.data feature sections and
 * pipe-mode HEADER_FEATURE payloads), Linux ids 1..34 and simpleperf ids
 * 128..134.
 *
 * Every decoder reads through a bounds-checked cursor whose base is the
 * absolute stream offset of the payload, so a diagnostic's offset is the
 * offset of the field that is wrong.  Counts read from the file are checked
 * against the bytes left before anything is allocated from them.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/pd_feature.h"
#include "internal.h"

/* Decoding state of one payload. */
struct fctx {
	struct pd_features *f;
	struct pd_diag_sink *sink;
	int64_t rec_idx;
	uint32_t rec_type;
	unsigned int id;
	bool swap;
	bool bad;	/* an error was reported; keep going where possible */
	bool stop;	/* cannot read further: skip the trailing-bytes check */
	bool nomem;
};

static void fdiag(struct fctx *c, enum pd_code code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void fdiag(struct fctx *c, enum pd_code code, uint64_t off, const char *fmt, ...)
{
	const char *name = pd_feature_name(c->id);
	char buf[256];
	va_list ap;

	buf[0] = '\0';
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
	}
	if (name)
		pd_diag_emit(c->sink, code, off, c->rec_idx, c->rec_type, false, "feat=%s%s%s",
			     name, buf[0] ? " " : "", buf);
	else
		pd_diag_emit(c->sink, code, off, c->rec_idx, c->rec_type, false, "feat=%u%s%s",
			     c->id, buf[0] ? " " : "", buf);
}

static void *fcalloc(struct fctx *c, uint64_t off, size_t n, size_t size)
{
	void *p;

	if (n == 0)
		return NULL;
	p = calloc(n, size);
	if (!p) {
		c->nomem = true;
		c->stop = true;
		fdiag(c, PD_NO_MEMORY, off, "bytes=%zu", n * size);
	}
	return p;
}

/* Grow an array to hold at least `need` elements (amortised doubling). */
static bool fgrow(struct fctx *c, uint64_t off, void **arr, uint32_t *cap, uint32_t need,
		  size_t size)
{
	uint32_t ncap;
	void *p;

	if (need <= *cap)
		return true;
	ncap = *cap ? *cap * 2 : 8;
	if (ncap < need)
		ncap = need;
	p = realloc(*arr, (size_t)ncap * size);
	if (!p) {
		c->nomem = true;
		c->stop = true;
		fdiag(c, PD_NO_MEMORY, off, "bytes=%zu", (size_t)ncap * size);
		return false;
	}
	memset((uint8_t *)p + (size_t)*cap * size, 0, (size_t)(ncap - *cap) * size);
	*arr = p;
	*cap = ncap;
	return true;
}

static char *fstrndup(struct fctx *c, uint64_t off, const uint8_t *s, size_t n)
{
	char *p = fcalloc(c, off, n + 1, 1);

	if (p && n)
		memcpy(p, s, n);
	return p;
}

/* ---- field readers: report truncation at the field's own offset ---- */

static bool rd_u32(struct fctx *c, struct pd_cur *cur, uint32_t *v, const char *what)
{
	if (pd_cur_u32(cur, v))
		return true;
	fdiag(c, PD_FEAT_TRUNCATED, pd_cur_off(cur), "field=%s need=4 left=%zu", what,
	      pd_cur_left(cur));
	c->bad = c->stop = true;
	return false;
}

static bool rd_u64(struct fctx *c, struct pd_cur *cur, uint64_t *v, const char *what)
{
	if (pd_cur_u64(cur, v))
		return true;
	fdiag(c, PD_FEAT_TRUNCATED, pd_cur_off(cur), "field=%s need=8 left=%zu", what,
	      pd_cur_left(cur));
	c->bad = c->stop = true;
	return false;
}

/*
 * A count of elements each at least `min_each` bytes long: reject it before
 * allocating when the payload cannot possibly hold that many.
 */
static bool count_fits(struct fctx *c, struct pd_cur *cur, uint64_t nr, size_t min_each,
		       uint64_t count_off, const char *what)
{
	if (min_each == 0 || nr <= pd_cur_left(cur) / min_each)
		return true;
	fdiag(c, PD_FEAT_BAD_COUNT, count_off, "field=%s nr=%" PRIu64 " min_bytes=%zu left=%zu",
	      what, nr, min_each, pd_cur_left(cur));
	c->bad = c->stop = true;
	return false;
}

static bool rd_count32(struct fctx *c, struct pd_cur *cur, uint32_t *nr, size_t min_each,
		       const char *what)
{
	uint64_t off = pd_cur_off(cur);

	if (!rd_u32(c, cur, nr, what))
		return false;
	return count_fits(c, cur, *nr, min_each, off, what);
}

/*
 * perf_header_string: u32 len, then len bytes holding a NUL-terminated,
 * zero-padded text.  A missing NUL is reported and the bytes are still
 * copied (with a terminator added) so that decoding can go on.
 */
static bool rd_str(struct fctx *c, struct pd_cur *cur, char **out, const char *what)
{
	uint64_t off = pd_cur_off(cur);
	const uint8_t *s;
	const void *nul;
	uint32_t len;

	*out = NULL;
	if (!rd_u32(c, cur, &len, what))
		return false;
	if (!pd_cur_bytes(cur, len, &s)) {
		fdiag(c, PD_FEAT_BAD_STRING, off, "field=%s len=%u left=%zu", what, len,
		      pd_cur_left(cur));
		c->bad = c->stop = true;
		return false;
	}
	nul = memchr(s, '\0', len);
	if (!nul) {
		fdiag(c, PD_FEAT_BAD_STRING, off + 4, "field=%s len=%u no_nul", what, len);
		c->bad = true;
	}
	*out = fcalloc(c, off, (nul ? (size_t)((const uint8_t *)nul - s) : len) + 1, 1);
	if (!*out)
		return false;
	memcpy(*out, s, nul ? (size_t)((const uint8_t *)nul - s) : len);
	return true;
}

static bool rd_str_list(struct fctx *c, struct pd_cur *cur, struct pd_str_list *l,
			const char *what)
{
	uint32_t nr, i;

	if (!rd_count32(c, cur, &nr, 4, what))
		return false;
	l->s = fcalloc(c, pd_cur_off(cur), nr, sizeof(*l->s));
	if (nr && !l->s)
		return false;
	for (i = 0; i < nr; i++) {
		if (!rd_str(c, cur, &l->s[i], what))
			return false;
		l->nr = i + 1;
	}
	return true;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void finish(struct fctx *c, struct pd_cur *cur)
{
	size_t left = pd_cur_left(cur);

	if (c->stop || !left)
		return;
	/*
	 * Since v6.12 perf pads HEADER_FEATURE records (16-byte header +
	 * payload) with zeros to a multiple of 8; the padding is not ours.
	 */
	if (c->rec_idx >= 0 && left < 8 && (cur->len + 16) % 8 == 0 &&
	    all_zero(cur->p + cur->pos, left))
		return;
	fdiag(c, PD_FEAT_TRAILING_BYTES, pd_cur_off(cur), "bytes=%zu", pd_cur_left(cur));
}

/* ---- freeing ---- */

static void free_str_list(struct pd_str_list *l)
{
	uint32_t i;

	for (i = 0; i < l->nr; i++)
		free(l->s[i]);
	free(l->s);
	l->s = NULL;
	l->nr = 0;
}

static void free_kv_list(struct pd_kv_list *l)
{
	uint32_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->kv[i].key);
		free(l->kv[i].value);
	}
	free(l->kv);
	l->kv = NULL;
	l->nr = 0;
}

static void free_sp_files(struct pd_feat_sp_files *fl)
{
	uint32_t i, j;

	for (i = 0; i < fl->nr; i++) {
		struct pd_feat_sp_file *e = &fl->files[i];

		free(e->path);
		for (j = 0; j < e->nr_symbols; j++)
			free(e->symbols[j].name);
		free(e->symbols);
		free(e->dex_offsets);
	}
	free(fl->files);
	memset(fl, 0, sizeof(*fl));
}

static void free_typed(struct pd_features *f, unsigned int id)
{
	uint32_t i, j;

	switch (id) {
	case PD_FEAT_TRACING_DATA:
		free(f->tracing_data.version);
		memset(&f->tracing_data, 0, sizeof(f->tracing_data));
		break;
	case PD_FEAT_BUILD_ID:
		for (i = 0; i < f->build_ids.nr; i++)
			free(f->build_ids.ids[i].filename);
		free(f->build_ids.ids);
		memset(&f->build_ids, 0, sizeof(f->build_ids));
		break;
	case PD_FEAT_HOSTNAME:
		free(f->hostname);
		f->hostname = NULL;
		break;
	case PD_FEAT_OSRELEASE:
		free(f->osrelease);
		f->osrelease = NULL;
		break;
	case PD_FEAT_VERSION:
		free(f->version);
		f->version = NULL;
		break;
	case PD_FEAT_ARCH:
		free(f->arch);
		f->arch = NULL;
		break;
	case PD_FEAT_NRCPUS:
		memset(&f->nrcpus, 0, sizeof(f->nrcpus));
		break;
	case PD_FEAT_CPUDESC:
		free(f->cpudesc);
		f->cpudesc = NULL;
		break;
	case PD_FEAT_CPUID:
		free(f->cpuid);
		f->cpuid = NULL;
		break;
	case PD_FEAT_TOTAL_MEM:
		f->total_mem = 0;
		break;
	case PD_FEAT_CMDLINE:
		free_str_list(&f->cmdline);
		break;
	case PD_FEAT_EVENT_DESC:
		for (i = 0; i < f->event_desc.nr; i++) {
			free(f->event_desc.ev[i].name);
			free(f->event_desc.ev[i].ids);
		}
		free(f->event_desc.ev);
		memset(&f->event_desc, 0, sizeof(f->event_desc));
		break;
	case PD_FEAT_CPU_TOPOLOGY:
		free_str_list(&f->cpu_topology.core_siblings);
		free_str_list(&f->cpu_topology.thread_siblings);
		free_str_list(&f->cpu_topology.die_siblings);
		free(f->cpu_topology.core_id);
		free(f->cpu_topology.socket_id);
		free(f->cpu_topology.die_id);
		memset(&f->cpu_topology, 0, sizeof(f->cpu_topology));
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		for (i = 0; i < f->numa_topology.nr; i++)
			free(f->numa_topology.nodes[i].cpus);
		free(f->numa_topology.nodes);
		memset(&f->numa_topology, 0, sizeof(f->numa_topology));
		break;
	case PD_FEAT_BRANCH_STACK:
		f->branch_stack = false;
		break;
	case PD_FEAT_PMU_MAPPINGS:
		for (i = 0; i < f->pmu_mappings.nr; i++)
			free(f->pmu_mappings.pmus[i].name);
		free(f->pmu_mappings.pmus);
		memset(&f->pmu_mappings, 0, sizeof(f->pmu_mappings));
		break;
	case PD_FEAT_GROUP_DESC:
		for (i = 0; i < f->group_desc.nr; i++)
			free(f->group_desc.groups[i].name);
		free(f->group_desc.groups);
		memset(&f->group_desc, 0, sizeof(f->group_desc));
		break;
	case PD_FEAT_AUXTRACE:
		free(f->auxtrace.entries);
		memset(&f->auxtrace, 0, sizeof(f->auxtrace));
		break;
	case PD_FEAT_STAT:
		f->stat = false;
		break;
	case PD_FEAT_CACHE:
		for (i = 0; i < f->cache.nr; i++) {
			free(f->cache.levels[i].type);
			free(f->cache.levels[i].size);
			free(f->cache.levels[i].map);
		}
		free(f->cache.levels);
		memset(&f->cache, 0, sizeof(f->cache));
		break;
	case PD_FEAT_SAMPLE_TIME:
		memset(&f->sample_time, 0, sizeof(f->sample_time));
		break;
	case PD_FEAT_MEM_TOPOLOGY:
		for (i = 0; i < f->mem_topology.nr; i++)
			free(f->mem_topology.nodes[i].bitmap);
		free(f->mem_topology.nodes);
		memset(&f->mem_topology, 0, sizeof(f->mem_topology));
		break;
	case PD_FEAT_CLOCKID:
		f->clockid_res_ns = 0;
		break;
	case PD_FEAT_DIR_FORMAT:
		f->dir_format = 0;
		break;
	case PD_FEAT_BPF_PROG_INFO:
		free(f->bpf_prog_info.progs);
		memset(&f->bpf_prog_info, 0, sizeof(f->bpf_prog_info));
		break;
	case PD_FEAT_BPF_BTF:
		free(f->bpf_btf.btfs);
		memset(&f->bpf_btf, 0, sizeof(f->bpf_btf));
		break;
	case PD_FEAT_COMPRESSED:
		memset(&f->compressed, 0, sizeof(f->compressed));
		break;
	case PD_FEAT_CPU_PMU_CAPS:
		free_kv_list(&f->cpu_pmu_caps);
		break;
	case PD_FEAT_CLOCK_DATA:
		memset(&f->clock_data, 0, sizeof(f->clock_data));
		break;
	case PD_FEAT_HYBRID_TOPOLOGY:
		for (i = 0; i < f->hybrid_topology.nr; i++) {
			free(f->hybrid_topology.nodes[i].pmu_name);
			free(f->hybrid_topology.nodes[i].cpus);
		}
		free(f->hybrid_topology.nodes);
		memset(&f->hybrid_topology, 0, sizeof(f->hybrid_topology));
		break;
	case PD_FEAT_PMU_CAPS:
		for (i = 0; i < f->pmu_caps.nr; i++) {
			free(f->pmu_caps.pmus[i].pmu_name);
			free_kv_list(&f->pmu_caps.pmus[i].caps);
		}
		free(f->pmu_caps.pmus);
		memset(&f->pmu_caps, 0, sizeof(f->pmu_caps));
		break;
	case PD_FEAT_CPU_DOMAIN_INFO:
		for (i = 0; i < f->cpu_domain_info.nr; i++) {
			struct pd_feat_domain_cpu *dc = &f->cpu_domain_info.cpus[i];

			for (j = 0; j < dc->nr_domains; j++) {
				free(dc->domains[j].name);
				free(dc->domains[j].cpumask);
				free(dc->domains[j].cpulist);
			}
			free(dc->domains);
		}
		free(f->cpu_domain_info.cpus);
		memset(&f->cpu_domain_info, 0, sizeof(f->cpu_domain_info));
		break;
	case PD_FEAT_E_MACHINE:
		memset(&f->e_machine, 0, sizeof(f->e_machine));
		break;
	case PD_FEAT_CLN_SIZE:
		memset(&f->cln_size, 0, sizeof(f->cln_size));
		break;
	case PD_FEAT_SP_FILE:
		free_sp_files(&f->sp_file);
		break;
	case PD_FEAT_SP_META_INFO:
		free_kv_list(&f->sp_meta_info);
		break;
	case PD_FEAT_SP_DEBUG_UNWIND:
		for (i = 0; i < f->sp_debug_unwind.nr; i++)
			free(f->sp_debug_unwind.paths[i]);
		free(f->sp_debug_unwind.paths);
		free(f->sp_debug_unwind.sizes);
		memset(&f->sp_debug_unwind, 0, sizeof(f->sp_debug_unwind));
		break;
	case PD_FEAT_SP_FILE2:
		free_sp_files(&f->sp_file2);
		break;
	default:
		break;
	}
}

void pd_features_init(struct pd_features *f)
{
	memset(f, 0, sizeof(*f));
}

void pd_feature_clear(struct pd_features *f, unsigned int id)
{
	if (id >= PD_FEAT_BITS)
		return;
	free_typed(f, id);
	free(f->raw[id].data);
	memset(&f->raw[id], 0, sizeof(f->raw[id]));
	f->present[id / 64] &= ~(1ULL << (id % 64));
}

void pd_features_free(struct pd_features *f)
{
	unsigned int id;

	for (id = 0; id < PD_FEAT_BITS; id++)
		pd_feature_clear(f, id);
	memset(f, 0, sizeof(*f));
}

bool pd_feature_is_known(unsigned int id)
{
	return (id >= PD_FEAT_TRACING_DATA && id < PD_FEAT_LINUX_MAX) ||
	       (id >= PD_FEAT_SP_FILE && id < PD_FEAT_SP_MAX);
}

/* ---- Linux features ---- */

static const uint8_t tracing_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

static void dec_tracing_data(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_tracing_data *t = &c->f->tracing_data;
	const uint8_t *v, *nul;
	size_t vmax;

	t->size = cur->len;
	if (cur->len < sizeof(tracing_magic) ||
	    memcmp(cur->p, tracing_magic, sizeof(tracing_magic))) {
		/* the blob is opaque to us: only its first bytes can be wrong */
		pd_diag_emit(c->sink, PD_REC_TRACING_DATA_MAGIC, cur->base, c->rec_idx,
			     c->rec_type, false, "feat=TRACING_DATA size=%zu", cur->len);
		return;
	}
	t->magic_ok = true;
	v = cur->p + sizeof(tracing_magic);
	vmax = cur->len - sizeof(tracing_magic);
	if (vmax > 16)
		vmax = 16;
	nul = memchr(v, '\0', vmax);
	if (nul)
		t->version = fstrndup(c, cur->base + sizeof(tracing_magic), v, (size_t)(nul - v));
	cur->pos = cur->len;	/* the rest is parsed elsewhere */
}

/* Size of the fixed part of a build-id entry: pid exists only in the modern layout. */
#define BID_HDR		36
#define BID_HDR_LEGACY	32

/*
 * Decode one entry of `size` bytes at c->p[0].  `legacy` is the pre-2010
 * layout: no pid, build_id[24] at 8, filename at 32.
 */
static int bid_entry(struct fctx *c, struct pd_cur *e, bool legacy, struct pd_feat_build_id *out)
{
	const uint8_t *p = e->p;
	size_t hdr = legacy ? BID_HDR_LEGACY : BID_HDR;
	size_t fn_len = e->len - hdr;
	const uint8_t *fn = p + hdr;
	const uint8_t *nul = memchr(fn, '\0', fn_len);
	int ret = 0;

	out->offset = e->base;
	out->misc = pd_ld16(p + 4, e->swap);
	if (legacy) {
		unsigned int cpumode = out->misc & PD_MISC_CPUMODE_MASK;

		/* perf's rule: guest entries belong to the default guest (pid 0) */
		out->pid = (cpumode == 4 || cpumode == 5) ? 0 : -1;
		memcpy(out->id, p + 8, 20);
		out->size = 20;
	} else {
		out->pid = (int32_t)pd_ld32(p + 8, e->swap);
		memcpy(out->id, p + 12, 20);
		out->size = 20;
		if (out->misc & PD_MISC_BUILD_ID_SIZE) {
			out->size = p[32];
			if (out->size > 20) {
				fdiag(c, PD_FEAT_BAD_BUILD_ID, e->base + 32, "build_id_size=%u",
				      out->size);
				out->size = 20;
				c->bad = true;
				ret = PD_STATUS_MALFORMED;
			}
		}
	}
	if (!nul) {
		fdiag(c, PD_FEAT_BAD_BUILD_ID, e->base + hdr, "filename_no_nul len=%zu", fn_len);
		c->bad = true;
		ret = PD_STATUS_MALFORMED;
	}
	out->filename = fcalloc(c, e->base, (nul ? (size_t)(nul - fn) : fn_len) + 1, 1);
	if (!out->filename)
		return PD_STATUS_NOMEM;
	memcpy(out->filename, fn, nul ? (size_t)(nul - fn) : fn_len);
	return ret;
}

static void dec_build_id(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_build_ids *b = &c->f->build_ids;
	uint32_t cap = 0;
	bool legacy = false;

restart:
	while (pd_cur_left(cur)) {
		uint64_t eoff = pd_cur_off(cur);
		size_t hdr = legacy ? BID_HDR_LEGACY : BID_HDR;
		const uint8_t *hp = cur->p + cur->pos;
		struct pd_cur e;
		uint16_t size;

		if (pd_cur_left(cur) < 8) {
			fdiag(c, PD_FEAT_BAD_BUILD_ID, eoff, "header_crosses_section left=%zu",
			      pd_cur_left(cur));
			c->bad = c->stop = true;
			return;
		}
		size = pd_ld16(hp + 6, cur->swap);
		if (size < hdr) {
			fdiag(c, PD_FEAT_BAD_BUILD_ID, eoff + 6, "size=%u min=%zu", size, hdr);
			c->bad = c->stop = true;
			return;
		}
		if (!pd_cur_sub(cur, size, &e)) {
			fdiag(c, PD_FEAT_BAD_BUILD_ID, eoff + 6, "size=%u crosses_section left=%zu",
			      size, pd_cur_left(cur));
			c->bad = c->stop = true;
			return;
		}
		/*
		 * Pre-2010 entries had no pid, so the modern layout reads the
		 * first filename 4 bytes late: "[kernel.kallsyms]" shows up as
		 * "nel.kallsyms]".  perf then re-reads the table; do the same.
		 */
		if (!legacy && size >= BID_HDR + 13 &&
		    !memcmp(e.p + BID_HDR, "nel.kallsyms]", 13)) {
			uint32_t i;

			for (i = 0; i < b->nr; i++)
				free(b->ids[i].filename);
			b->nr = 0;
			legacy = b->legacy = true;
			cur->pos = 0;
			c->bad = false;
			goto restart;
		}
		if (!fgrow(c, eoff, (void **)&b->ids, &cap, b->nr + 1, sizeof(*b->ids)))
			return;
		if (bid_entry(c, &e, legacy, &b->ids[b->nr]) == PD_STATUS_NOMEM)
			return;
		b->nr++;
		/*
		 * perf 6.12 (ae39ba16554e, fixed by "perf tools: Fix build-id
		 * event recording") set header.size to ALIGN(36 + strlen + 1, 8)
		 * but still wrote 36 + header.size bytes: each entry is followed
		 * by 36 zero bytes no header accounts for.  Correct sizes are
		 * 36 + ALIGN(n, 8) or 36 + ALIGN(n, 64), i.e. 4 mod 8.
		 */
		if (!legacy && size % 8 == 0 && pd_cur_left(cur) >= BID_HDR &&
		    all_zero(cur->p + cur->pos, BID_HDR)) {
			fdiag(c, PD_FEAT_BUILDID_PADDING, eoff + 6,
			      "size=%u stray_zero_bytes=%d perf=6.12", size, BID_HDR);
			b->perf612_padding = true;
			pd_cur_skip(cur, BID_HDR);
		}
	}
}

int pd_build_id_entry_decode(const uint8_t *p, size_t len, bool swap, uint64_t offset,
			     int64_t rec_idx, uint32_t rec_type, struct pd_diag_sink *sink,
			     struct pd_feat_build_id *out)
{
	struct fctx c = { .sink = sink, .rec_idx = rec_idx, .rec_type = rec_type,
			  .id = PD_FEAT_BUILD_ID, .swap = swap };
	struct pd_cur e;
	int ret;

	memset(out, 0, sizeof(*out));
	if (len < BID_HDR) {
		fdiag(&c, PD_FEAT_BAD_BUILD_ID, offset, "size=%zu min=%d", len, BID_HDR);
		return PD_STATUS_MALFORMED;
	}
	pd_cur_init(&e, p, len, offset, swap);
	ret = bid_entry(&c, &e, false, out);
	if (ret == PD_STATUS_NOMEM) {
		free(out->filename);
		out->filename = NULL;
	}
	return ret;
}

static void dec_string(struct fctx *c, struct pd_cur *cur, char **dst)
{
	if (rd_str(c, cur, dst, "text"))
		finish(c, cur);
}

static void dec_nrcpus(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_nrcpus *n = &c->f->nrcpus;

	if (!rd_u32(c, cur, &n->avail, "nr_cpus_avail") ||
	    !rd_u32(c, cur, &n->online, "nr_cpus_online"))
		return;
	if (n->online > n->avail)
		fdiag(c, PD_FEAT_INCONSISTENT, cur->base + 4, "online=%u avail=%u", n->online,
		      n->avail);
	finish(c, cur);
}

static void dec_event_desc(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_event_desc *d = &c->f->event_desc;
	uint32_t nr, attr_sz, i;

	if (!rd_u32(c, cur, &nr, "nr_events") || !rd_u32(c, cur, &attr_sz, "attr_size"))
		return;
	if (nr && attr_sz < PD_ATTR_SIZE_VER0) {
		fdiag(c, PD_ATTR_TOO_SMALL, cur->base + 4, "attr_size=%u", attr_sz);
		c->bad = c->stop = true;
		return;
	}
	/* each event: attr, u32 nr_ids, and at least a u32 string length */
	if (!count_fits(c, cur, nr, (size_t)attr_sz + 8, cur->base, "nr_events"))
		return;
	d->attr_size = attr_sz;
	d->ev = fcalloc(c, cur->base, nr, sizeof(*d->ev));
	if (nr && !d->ev)
		return;
	for (i = 0; i < nr; i++) {
		struct pd_feat_event *ev = &d->ev[i];
		const uint8_t *a;
		uint64_t nr_off;
		uint32_t j, nr_ids;

		d->nr = i + 1;
		if (!pd_cur_bytes(cur, attr_sz, &a)) {
			fdiag(c, PD_FEAT_TRUNCATED, pd_cur_off(cur), "field=attr event=%u", i);
			c->bad = c->stop = true;
			return;
		}
		pd_attr_decode(a, attr_sz, cur->swap, &ev->attr);
		nr_off = pd_cur_off(cur);
		/* nr_ids is set only once the ids are there (see pd_feature.h) */
		if (!rd_u32(c, cur, &nr_ids, "nr_ids") || !rd_str(c, cur, &ev->name, "name"))
			return;
		if (!count_fits(c, cur, nr_ids, 8, nr_off, "nr_ids"))
			return;
		ev->ids = fcalloc(c, nr_off, nr_ids, sizeof(*ev->ids));
		if (nr_ids && !ev->ids)
			return;
		for (j = 0; j < nr_ids; j++)
			pd_cur_u64(cur, &ev->ids[j]);
		ev->nr_ids = nr_ids;
	}
	finish(c, cur);
}

/* Walk a string list without storing it: true if it parses cleanly. */
static bool str_list_ok(const uint8_t *p, size_t len, bool swap, size_t *used)
{
	struct pd_cur cur;
	uint32_t nr, i, sl;
	const uint8_t *s;

	pd_cur_init(&cur, p, len, 0, swap);
	if (!pd_cur_u32(&cur, &nr) || nr > pd_cur_left(&cur) / 4)
		return false;
	for (i = 0; i < nr; i++) {
		if (!pd_cur_u32(&cur, &sl) || !pd_cur_bytes(&cur, sl, &s) || !memchr(s, 0, sl))
			return false;
	}
	*used = cur.pos;
	return true;
}

/*
 * CPU_TOPOLOGY without NRCPUS: find n such that the tail is either n
 * {core_id, socket_id} pairs, or those plus a die list and n die ids.
 */
static uint32_t guess_topology_cpus(const struct pd_cur *cur)
{
	size_t left = pd_cur_left(cur);
	const uint8_t *p = cur->p + cur->pos;
	size_t n, used;

	for (n = 1; n <= left / 8 && n <= 65536; n++) {
		if (8 * n == left)
			return (uint32_t)n;
		if (str_list_ok(p + 8 * n, left - 8 * n, cur->swap, &used) &&
		    left - 8 * n - used == 4 * n)
			return (uint32_t)n;
	}
	return 0;
}

/* Report where an array of n elements of `each` bytes stops fitting. */
static void trunc_array(struct fctx *c, struct pd_cur *cur, uint64_t n, size_t each,
			size_t field, const char *what)
{
	size_t left = pd_cur_left(cur);
	size_t k = left / each;
	size_t in = left % each;

	fdiag(c, PD_FEAT_TRUNCATED, pd_cur_off(cur) + k * each + (in / field) * field,
	      "field=%s index=%zu nr=%" PRIu64, what, k, n);
	c->bad = c->stop = true;
}

static void dec_cpu_topology(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_cpu_topology *t = &c->f->cpu_topology;
	const struct pd_features *f = c->f;
	uint32_t n, i;

	if (!rd_str_list(c, cur, &t->core_siblings, "core_siblings") ||
	    !rd_str_list(c, cur, &t->thread_siblings, "thread_siblings"))
		return;
	if (!pd_cur_left(cur))
		return;
	if (f->raw[PD_FEAT_NRCPUS].decoded) {
		n = f->nrcpus.avail;
	} else {
		n = guess_topology_cpus(cur);
		t->nr_cpus_guessed = true;
		if (!n) {
			finish(c, cur);
			return;
		}
	}
	if ((uint64_t)n * 8 > pd_cur_left(cur)) {
		trunc_array(c, cur, n, 8, 4, "core_id/socket_id");
		return;
	}
	t->core_id = fcalloc(c, pd_cur_off(cur), n, sizeof(uint32_t));
	t->socket_id = fcalloc(c, pd_cur_off(cur), n, sizeof(uint32_t));
	if (n && (!t->core_id || !t->socket_id))
		return;
	for (i = 0; i < n; i++) {
		pd_cur_u32(cur, &t->core_id[i]);
		pd_cur_u32(cur, &t->socket_id[i]);
	}
	t->nr_cpus = n;
	t->has_cpu_ids = true;
	if (!pd_cur_left(cur))
		return;
	if (!rd_str_list(c, cur, &t->die_siblings, "die_siblings"))
		return;
	t->has_dies = true;
	if ((uint64_t)n * 4 > pd_cur_left(cur)) {
		trunc_array(c, cur, n, 4, 4, "die_id");
		return;
	}
	t->die_id = fcalloc(c, pd_cur_off(cur), n, sizeof(uint32_t));
	if (n && !t->die_id)
		return;
	for (i = 0; i < n; i++)
		pd_cur_u32(cur, &t->die_id[i]);
	finish(c, cur);
}

static void dec_numa_topology(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_numa_topology *t = &c->f->numa_topology;
	uint32_t nr, i;

	if (!rd_count32(c, cur, &nr, 24, "nr_nodes"))
		return;
	t->nodes = fcalloc(c, cur->base, nr, sizeof(*t->nodes));
	if (nr && !t->nodes)
		return;
	for (i = 0; i < nr; i++) {
		struct pd_feat_numa_node *n = &t->nodes[i];

		t->nr = i + 1;
		if (!rd_u32(c, cur, &n->node, "node") ||
		    !rd_u64(c, cur, &n->mem_total, "mem_total") ||
		    !rd_u64(c, cur, &n->mem_free, "mem_free") ||
		    !rd_str(c, cur, &n->cpus, "cpus"))
			return;
	}
	finish(c, cur);
}

static void dec_empty(struct fctx *c, struct pd_cur *cur, bool *flag)
{
	*flag = true;
	finish(c, cur);
}

static void dec_pmu_mappings(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_pmu_mappings *m = &c->f->pmu_mappings;
	uint32_t nr, i;

	if (!rd_count32(c, cur, &nr, 8, "nr_pmus"))
		return;
	m->pmus = fcalloc(c, cur->base, nr, sizeof(*m->pmus));
	if (nr && !m->pmus)
		return;
	for (i = 0; i < nr; i++) {
		m->nr = i + 1;
		if (!rd_u32(c, cur, &m->pmus[i].type, "type") ||
		    !rd_str(c, cur, &m->pmus[i].name, "name"))
			return;
	}
	finish(c, cur);
}

static void dec_group_desc(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_group_desc *g = &c->f->group_desc;
	uint32_t nr, i;

	if (!rd_count32(c, cur, &nr, 12, "nr_groups"))
		return;
	g->groups = fcalloc(c, cur->base, nr, sizeof(*g->groups));
	if (nr && !g->groups)
		return;
	for (i = 0; i < nr; i++) {
		struct pd_feat_group *e = &g->groups[i];

		g->nr = i + 1;
		if (!rd_str(c, cur, &e->name, "name") ||
		    !rd_u32(c, cur, &e->leader_idx, "leader_idx") ||
		    !rd_u32(c, cur, &e->nr_members, "nr_members"))
			return;
	}
	finish(c, cur);
}

/*
 * Linux writes u64 nr then nr {offset, size} pairs (8 mod 16 bytes);
 * simpleperf writes the pairs alone (0 mod 16).  simpleperf's own reader
 * tells them apart by the parity of the word count; so do we.
 */
static void dec_auxtrace(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_auxtrace *a = &c->f->auxtrace;
	uint64_t nr, i;

	if (pd_cur_left(cur) % 16 == 0) {
		a->simpleperf = true;
		nr = pd_cur_left(cur) / 16;
	} else {
		if (!rd_u64(c, cur, &nr, "nr"))
			return;
		if (!count_fits(c, cur, nr, 16, cur->base, "nr"))
			return;
	}
	a->entries = fcalloc(c, pd_cur_off(cur), (size_t)nr, sizeof(*a->entries));
	if (nr && !a->entries)
		return;
	for (i = 0; i < nr; i++) {
		pd_cur_u64(cur, &a->entries[i].file_offset);
		pd_cur_u64(cur, &a->entries[i].size);
	}
	a->nr = nr;
	finish(c, cur);
}

static void dec_cache(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_cache *k = &c->f->cache;
	uint32_t nr, i;

	if (!rd_u32(c, cur, &k->version, "version"))
		return;
	if (k->version != 1) {
		fdiag(c, PD_FEAT_BAD_VERSION, cur->base, "version=%u", k->version);
		c->bad = c->stop = true;
		return;
	}
	if (!rd_count32(c, cur, &nr, 28, "nr"))
		return;
	k->levels = fcalloc(c, cur->base + 4, nr, sizeof(*k->levels));
	if (nr && !k->levels)
		return;
	for (i = 0; i < nr; i++) {
		struct pd_feat_cache_level *l = &k->levels[i];

		k->nr = i + 1;
		if (!rd_u32(c, cur, &l->level, "level") ||
		    !rd_u32(c, cur, &l->line_size, "line_size") ||
		    !rd_u32(c, cur, &l->sets, "sets") || !rd_u32(c, cur, &l->ways, "ways") ||
		    !rd_str(c, cur, &l->type, "type") || !rd_str(c, cur, &l->size, "size") ||
		    !rd_str(c, cur, &l->map, "map"))
			return;
	}
	finish(c, cur);
}

static void dec_sample_time(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_sample_time *t = &c->f->sample_time;

	if (!rd_u64(c, cur, &t->first, "first") || !rd_u64(c, cur, &t->last, "last"))
		return;
	if (t->last < t->first)
		fdiag(c, PD_FEAT_INCONSISTENT, cur->base + 8,
		      "first=%" PRIu64 " last=%" PRIu64, t->first, t->last);
	finish(c, cur);
}

static void dec_mem_topology(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_mem_topology *m = &c->f->mem_topology;
	uint64_t nr, i, j;

	if (!rd_u64(c, cur, &m->version, "version"))
		return;
	if (m->version != 1) {
		fdiag(c, PD_FEAT_BAD_VERSION, cur->base, "version=%" PRIu64, m->version);
		c->bad = c->stop = true;
		return;
	}
	if (!rd_u64(c, cur, &m->block_size, "block_size") || !rd_u64(c, cur, &nr, "nr_nodes"))
		return;
	if (!count_fits(c, cur, nr, 24, cur->base + 16, "nr_nodes"))
		return;
	m->nodes = fcalloc(c, cur->base + 16, (size_t)nr, sizeof(*m->nodes));
	if (nr && !m->nodes)
		return;
	for (i = 0; i < nr; i++) {
		struct pd_feat_mem_node *n = &m->nodes[i];
		uint64_t size, words, nbits_off;

		m->nr = i + 1;
		if (!rd_u64(c, cur, &n->node_id, "node_id") || !rd_u64(c, cur, &size, "size"))
			return;
		nbits_off = pd_cur_off(cur);
		if (!rd_u64(c, cur, &n->nbits, "nbits"))
			return;
		if (n->nbits != size)
			fdiag(c, PD_FEAT_INCONSISTENT, nbits_off,
			      "node=%" PRIu64 " size=%" PRIu64 " nbits=%" PRIu64, n->node_id, size,
			      n->nbits);
		words = n->nbits / 64 + (n->nbits % 64 != 0);
		if (count_fits(c, cur, words, 8, nbits_off, "nbits") && words)
			n->bitmap = fcalloc(c, nbits_off, (size_t)words, sizeof(uint64_t));
		if (c->stop) {
			/* never leave nbits describing a bitmap that is not there */
			n->nbits = 0;
			return;
		}
		for (j = 0; j < words; j++)
			pd_cur_u64(cur, &n->bitmap[j]);
	}
	finish(c, cur);
}

static void dec_u64(struct fctx *c, struct pd_cur *cur, uint64_t *v, const char *what)
{
	if (rd_u64(c, cur, v, what))
		finish(c, cur);
}

static bool skip_swapped(struct fctx *c, struct pd_cur *cur, bool *flag)
{
	if (!cur->swap)
		return false;
	/* the blobs are host-order kernel structs that nobody knows how to swap */
	fdiag(c, PD_FEAT_SKIPPED_SWAPPED, cur->base, "size=%zu", cur->len);
	*flag = true;
	cur->pos = cur->len;
	return true;
}

static void dec_bpf_prog_info(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_bpf_prog_info *b = &c->f->bpf_prog_info;
	uint32_t nr, i;

	if (skip_swapped(c, cur, &b->skipped_swapped))
		return;
	if (!rd_count32(c, cur, &nr, 16, "count"))
		return;
	b->progs = fcalloc(c, cur->base, nr, sizeof(*b->progs));
	if (nr && !b->progs)
		return;
	for (i = 0; i < nr; i++) {
		struct pd_feat_bpf_prog *e = &b->progs[i];
		uint64_t len_off = pd_cur_off(cur);

		if (!rd_u32(c, cur, &e->info_len, "info_len") ||
		    !rd_u32(c, cur, &e->data_len, "data_len") ||
		    !rd_u64(c, cur, &e->arrays, "arrays"))
			return;
		if ((uint64_t)e->info_len + e->data_len > pd_cur_left(cur)) {
			fdiag(c, PD_FEAT_BAD_COUNT, len_off, "info_len=%u data_len=%u left=%zu",
			      e->info_len, e->data_len, pd_cur_left(cur));
			c->bad = c->stop = true;
			return;
		}
		e->offset = cur->pos;
		pd_cur_skip(cur, (size_t)e->info_len + e->data_len);
		b->nr = i + 1;
	}
	finish(c, cur);
}

static void dec_bpf_btf(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_bpf_btf *b = &c->f->bpf_btf;
	uint32_t nr, i;

	if (skip_swapped(c, cur, &b->skipped_swapped))
		return;
	if (!rd_count32(c, cur, &nr, 8, "count"))
		return;
	b->btfs = fcalloc(c, cur->base, nr, sizeof(*b->btfs));
	if (nr && !b->btfs)
		return;
	for (i = 0; i < nr; i++) {
		struct pd_feat_btf *e = &b->btfs[i];
		uint64_t size_off;

		if (!rd_u32(c, cur, &e->id, "id"))
			return;
		size_off = pd_cur_off(cur);
		if (!rd_u32(c, cur, &e->data_size, "data_size"))
			return;
		if (!count_fits(c, cur, e->data_size, 1, size_off, "data_size"))
			return;
		e->offset = cur->pos;
		pd_cur_skip(cur, e->data_size);
		b->nr = i + 1;
	}
	finish(c, cur);
}

static void dec_compressed(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_compressed *z = &c->f->compressed;

	if (rd_u32(c, cur, &z->version, "version") && rd_u32(c, cur, &z->type, "type") &&
	    rd_u32(c, cur, &z->level, "level") && rd_u32(c, cur, &z->ratio, "ratio") &&
	    rd_u32(c, cur, &z->mmap_len, "mmap_len"))
		finish(c, cur);
}

/* nr pairs of strings (CPU_PMU_CAPS, and each PMU of PMU_CAPS) */
static bool rd_caps(struct fctx *c, struct pd_cur *cur, struct pd_kv_list *l)
{
	uint32_t nr, i;

	if (!rd_count32(c, cur, &nr, 8, "nr_caps"))
		return false;
	l->kv = fcalloc(c, pd_cur_off(cur), nr, sizeof(*l->kv));
	if (nr && !l->kv)
		return false;
	for (i = 0; i < nr; i++) {
		l->nr = i + 1;
		if (!rd_str(c, cur, &l->kv[i].key, "name") ||
		    !rd_str(c, cur, &l->kv[i].value, "value"))
			return false;
	}
	return true;
}

static void dec_cpu_pmu_caps(struct fctx *c, struct pd_cur *cur)
{
	if (rd_caps(c, cur, &c->f->cpu_pmu_caps))
		finish(c, cur);
}

static void dec_clock_data(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_clock_data *k = &c->f->clock_data;

	if (!rd_u32(c, cur, &k->version, "version"))
		return;
	if (k->version != 1) {
		fdiag(c, PD_FEAT_BAD_VERSION, cur->base, "version=%u", k->version);
		c->bad = c->stop = true;
		return;
	}
	if (rd_u32(c, cur, &k->clockid, "clockid") && rd_u64(c, cur, &k->tod_ns, "tod_ns") &&
	    rd_u64(c, cur, &k->clockid_ns, "clockid_ns"))
		finish(c, cur);
}

static void dec_hybrid_topology(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_hybrid_topology *h = &c->f->hybrid_topology;
	uint32_t nr, i;

	if (!rd_count32(c, cur, &nr, 8, "nr"))
		return;
	h->nodes = fcalloc(c, cur->base, nr, sizeof(*h->nodes));
	if (nr && !h->nodes)
		return;
	for (i = 0; i < nr; i++) {
		h->nr = i + 1;
		if (!rd_str(c, cur, &h->nodes[i].pmu_name, "pmu_name") ||
		    !rd_str(c, cur, &h->nodes[i].cpus, "cpus"))
			return;
	}
	finish(c, cur);
}

static void dec_pmu_caps(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_pmu_caps *pc = &c->f->pmu_caps;
	uint32_t nr, i;

	if (!rd_count32(c, cur, &nr, 8, "nr_pmus"))
		return;
	pc->pmus = fcalloc(c, cur->base, nr, sizeof(*pc->pmus));
	if (nr && !pc->pmus)
		return;
	for (i = 0; i < nr; i++) {
		pc->nr = i + 1;
		if (!rd_caps(c, cur, &pc->pmus[i].caps) ||
		    !rd_str(c, cur, &pc->pmus[i].pmu_name, "pmu_name"))
			return;
	}
	finish(c, cur);
}

/*
 * perf reads nr_cpus_online blocks; without NRCPUS read blocks until the
 * payload ends.
 */
static void dec_cpu_domain_info(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_cpu_domain_info *d = &c->f->cpu_domain_info;
	bool have_nr = c->f->raw[PD_FEAT_NRCPUS].decoded;
	uint32_t avail = c->f->nrcpus.avail, online = c->f->nrcpus.online;
	size_t min_dom;
	uint32_t cap, i, j;

	if (!rd_u32(c, cur, &d->schedstat_version, "schedstat_version") ||
	    !rd_u32(c, cur, &d->max_sched_domains, "max_sched_domains"))
		return;
	min_dom = d->schedstat_version >= 17 ? 16 : 12;
	/* every block is at least 8 bytes, so this many can always be stored */
	cap = (uint32_t)(pd_cur_left(cur) / 8);
	if (have_nr && online < cap)
		cap = online;
	d->cpus = fcalloc(c, pd_cur_off(cur), cap, sizeof(*d->cpus));
	if (cap && !d->cpus)
		return;
	for (i = 0; have_nr ? i < online : pd_cur_left(cur) > 0; i++) {
		struct pd_feat_domain_cpu *dc;
		uint64_t cpu_off = pd_cur_off(cur), nr_off;
		uint32_t cpu, nd;

		if (!rd_u32(c, cur, &cpu, "cpu"))
			return;
		/* unreachable: i < cap whenever 4 more bytes were there */
		if (i >= cap)
			return;
		dc = &d->cpus[i];
		d->nr = i + 1;
		dc->cpu = cpu;
		if (have_nr && cpu >= avail)
			fdiag(c, PD_FEAT_INCONSISTENT, cpu_off, "cpu=%u nr_cpus_avail=%u", cpu,
			      avail);
		nr_off = pd_cur_off(cur);
		if (!rd_count32(c, cur, &nd, min_dom, "nr_domains"))
			return;
		dc->domains = fcalloc(c, nr_off, nd, sizeof(*dc->domains));
		if (nd && !dc->domains)
			return;
		dc->nr_domains = nd;
		for (j = 0; j < dc->nr_domains; j++) {
			struct pd_feat_sched_domain *sd = &dc->domains[j];
			uint64_t dom_off = pd_cur_off(cur);

			if (!rd_u32(c, cur, &sd->domain, "domain"))
				return;
			if (sd->domain >= d->max_sched_domains)
				fdiag(c, PD_FEAT_INCONSISTENT, dom_off,
				      "cpu=%u domain=%u max_sched_domains=%u", cpu, sd->domain,
				      d->max_sched_domains);
			if (d->schedstat_version >= 17 && !rd_str(c, cur, &sd->name, "domain_name"))
				return;
			if (!rd_str(c, cur, &sd->cpumask, "cpumask") ||
			    !rd_str(c, cur, &sd->cpulist, "cpulist"))
				return;
		}
	}
	finish(c, cur);
}

static void dec_e_machine(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_e_machine *e = &c->f->e_machine;

	if (rd_u32(c, cur, &e->e_machine, "e_machine") && rd_u32(c, cur, &e->e_flags, "e_flags"))
		finish(c, cur);
}

/* Layout unverified: the bytes stay in raw[]; read a value only if the size is unambiguous. */
static void dec_cln_size(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_cln_size *k = &c->f->cln_size;
	uint32_t v32;

	if (cur->len == 4 && pd_cur_u32(cur, &v32)) {
		k->has_value = true;
		k->value = v32;
	} else if (cur->len == 8 && pd_cur_u64(cur, &k->value)) {
		k->has_value = true;
	}
	cur->pos = cur->len;
}

/* ---- simpleperf features ---- */

/* A C string inside an entry (FILE v1, META_INFO): NUL must be within the window. */
static bool rd_cstr(struct fctx *c, struct pd_cur *cur, char **out, const char *what)
{
	const uint8_t *s = cur->p + cur->pos;
	size_t left = pd_cur_left(cur);
	const uint8_t *nul = memchr(s, '\0', left);
	uint64_t off = pd_cur_off(cur);

	*out = NULL;
	if (!nul) {
		fdiag(c, PD_FEAT_BAD_STRING, off, "field=%s no_nul left=%zu", what, left);
		c->bad = c->stop = true;
		*out = fstrndup(c, off, s, left);
		pd_cur_skip(cur, left);
		return false;
	}
	*out = fstrndup(c, off, s, (size_t)(nul - s));
	if (!*out)
		return false;
	pd_cur_skip(cur, (size_t)(nul - s) + 1);
	return true;
}

static void dec_sp_file(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_sp_files *fl = &c->f->sp_file;
	uint32_t cap = 0;

	while (pd_cur_left(cur)) {
		struct pd_feat_sp_file *e;
		uint64_t type_off, cnt_off;
		struct pd_cur ec;
		uint32_t size, i;

		if (!rd_u32(c, cur, &size, "entry_size"))
			return;
		if (!pd_cur_sub(cur, size, &ec)) {
			fdiag(c, PD_FEAT_TRUNCATED, pd_cur_off(cur), "field=entry size=%u left=%zu",
			      size, pd_cur_left(cur));
			c->bad = c->stop = true;
			return;
		}
		if (!fgrow(c, ec.base, (void **)&fl->files, &cap, fl->nr + 1, sizeof(*fl->files)))
			return;
		e = &fl->files[fl->nr++];
		e->msg_size = size;
		if (!rd_cstr(c, &ec, &e->path, "path"))
			return;
		type_off = pd_cur_off(&ec);
		if (!rd_u32(c, &ec, &e->type, "dso_type") ||
		    !rd_u64(c, &ec, &e->min_vaddr, "min_vaddr"))
			return;
		if (e->type > 5)
			fdiag(c, PD_FEAT_INCONSISTENT, type_off, "dso_type=%u", e->type);
		cnt_off = pd_cur_off(&ec);
		if (!rd_u32(c, &ec, &e->nr_symbols, "symbol_count"))
			return;
		if (!count_fits(c, &ec, e->nr_symbols, 13, cnt_off, "symbol_count")) {
			e->nr_symbols = 0;
			return;
		}
		e->symbols = fcalloc(c, cnt_off, e->nr_symbols, sizeof(*e->symbols));
		if (e->nr_symbols && !e->symbols) {
			e->nr_symbols = 0;
			return;
		}
		for (i = 0; i < e->nr_symbols; i++) {
			struct pd_feat_sp_symbol *s = &e->symbols[i];

			if (!rd_u64(c, &ec, &s->vaddr, "vaddr") ||
			    !rd_u32(c, &ec, &s->len, "len") ||
			    !rd_cstr(c, &ec, &s->name, "name"))
				return;
		}
		if (e->type == 3 && pd_cur_left(&ec)) {
			/* DEX: u32 n, u64 offsets[n] (2018-03 and later) */
			cnt_off = pd_cur_off(&ec);
			if (!rd_u32(c, &ec, &e->nr_dex_offsets, "dex_count"))
				return;
			if (!count_fits(c, &ec, e->nr_dex_offsets, 8, cnt_off, "dex_count")) {
				e->nr_dex_offsets = 0;
				return;
			}
			e->dex_offsets = fcalloc(c, cnt_off, e->nr_dex_offsets, sizeof(uint64_t));
			if (e->nr_dex_offsets && !e->dex_offsets) {
				e->nr_dex_offsets = 0;
				return;
			}
			for (i = 0; i < e->nr_dex_offsets; i++)
				pd_cur_u64(&ec, &e->dex_offsets[i]);
		} else if ((e->type == 1 || e->type == 2) && pd_cur_left(&ec) >= 8) {
			pd_cur_u64(&ec, &e->min_vaddr_offset);
			e->has_min_vaddr_offset = true;
		}
		if (pd_cur_left(&ec))
			fdiag(c, PD_FEAT_TRAILING_BYTES, pd_cur_off(&ec), "entry=%u bytes=%zu",
			      fl->nr - 1, pd_cur_left(&ec));
	}
}

static void dec_sp_meta_info(struct fctx *c, struct pd_cur *cur)
{
	struct pd_kv_list *l = &c->f->sp_meta_info;
	uint32_t cap = 0;

	while (pd_cur_left(cur)) {
		uint64_t koff = pd_cur_off(cur), voff;
		struct pd_kv *kv;

		if (!fgrow(c, koff, (void **)&l->kv, &cap, l->nr + 1, sizeof(*l->kv)))
			return;
		kv = &l->kv[l->nr++];
		if (!rd_cstr(c, cur, &kv->key, "key"))
			return;
		voff = pd_cur_off(cur);
		if (!pd_cur_left(cur)) {
			fdiag(c, PD_FEAT_TRUNCATED, voff, "field=value key=%s", kv->key);
			c->bad = c->stop = true;
			return;
		}
		if (!rd_cstr(c, cur, &kv->value, "value"))
			return;
		/* simpleperf refuses empty keys and values */
		if (!kv->key[0] || !kv->value[0])
			fdiag(c, PD_FEAT_INCONSISTENT, kv->key[0] ? voff : koff,
			      "empty_%s", kv->key[0] ? "value" : "key");
	}
}

/* ---- a minimal protobuf wire reader (DEBUG_UNWIND, FILE2) ---- */

static bool pb_varint(struct pd_cur *cur, uint64_t *v)
{
	unsigned int shift;
	uint8_t b;

	*v = 0;
	for (shift = 0; shift < 64; shift += 7) {
		if (!pd_cur_u8(cur, &b))
			return false;
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

/*
 * Next field of a message: number, wire type, and for varints the value,
 * for length-delimited fields a sub-cursor.  Fixed32/64 are skipped over.
 * Returns 1 for a field, 0 at the end, -1 when malformed (diagnosed).
 */
static int pb_field(struct fctx *c, struct pd_cur *cur, uint32_t *num, unsigned int *wt,
		    uint64_t *val, struct pd_cur *sub)
{
	uint64_t key, off = pd_cur_off(cur), len;

	if (!pd_cur_left(cur))
		return 0;
	if (!pb_varint(cur, &key))
		goto trunc;
	*num = (uint32_t)(key >> 3);
	*wt = key & 7;
	off = pd_cur_off(cur);
	switch (*wt) {
	case 0:
		if (!pb_varint(cur, val))
			goto trunc;
		return 1;
	case 1:
		if (!pd_cur_skip(cur, 8))
			goto trunc;
		return 1;
	case 2:
		if (!pb_varint(cur, &len))
			goto trunc;
		off = pd_cur_off(cur);
		if (len > pd_cur_left(cur) || !pd_cur_sub(cur, (size_t)len, sub))
			goto trunc;
		return 1;
	case 5:
		if (!pd_cur_skip(cur, 4))
			goto trunc;
		return 1;
	default:
		fdiag(c, PD_FEAT_INCONSISTENT, off, "protobuf_wire_type=%u field=%u", *wt, *num);
		c->bad = c->stop = true;
		return -1;
	}
trunc:
	fdiag(c, PD_FEAT_TRUNCATED, off, "field=protobuf left=%zu", pd_cur_left(cur));
	c->bad = c->stop = true;
	return -1;
}

static char *pb_str(struct fctx *c, const struct pd_cur *sub)
{
	/* protobuf strings carry no NUL; keep the text up to an embedded one */
	const uint8_t *nul = memchr(sub->p, '\0', sub->len);

	return fstrndup(c, sub->base, sub->p, nul ? (size_t)(nul - sub->p) : sub->len);
}

static void dec_sp_debug_unwind(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_sp_debug_unwind *d = &c->f->sp_debug_unwind;
	struct pd_cur sub, fs;
	uint32_t cap = 0, num;
	uint64_t val, total = 0;
	unsigned int wt;
	int r;

	while ((r = pb_field(c, cur, &num, &wt, &val, &sub)) > 0) {
		uint32_t cap2;

		if (num != 1 || wt != 2)
			continue;
		cap2 = cap;
		if (!fgrow(c, sub.base, (void **)&d->paths, &cap, d->nr + 1, sizeof(*d->paths)) ||
		    !fgrow(c, sub.base, (void **)&d->sizes, &cap2, d->nr + 1, sizeof(*d->sizes)))
			return;
		d->nr++;
		while ((r = pb_field(c, &sub, &num, &wt, &val, &fs)) > 0) {
			if (num == 1 && wt == 2) {
				free(d->paths[d->nr - 1]);
				d->paths[d->nr - 1] = pb_str(c, &fs);
				if (c->nomem)
					return;
			} else if (num == 2 && wt == 0) {
				d->sizes[d->nr - 1] = val;
			}
		}
		if (r < 0)
			return;
		total += d->sizes[d->nr - 1];
	}
	if (r < 0)
		return;
	/* DEBUG_UNWIND_FILE (131) is the concatenation of exactly these files */
	if (c->f->raw[PD_FEAT_SP_DEBUG_UNWIND_FILE].present &&
	    total != c->f->raw[PD_FEAT_SP_DEBUG_UNWIND_FILE].len)
		fdiag(c, PD_FEAT_INCONSISTENT, cur->base,
		      "sum_sizes=%" PRIu64 " debug_unwind_file_size=%zu", total,
		      c->f->raw[PD_FEAT_SP_DEBUG_UNWIND_FILE].len);
}

static bool file2_symbol(struct fctx *c, struct pd_feat_sp_file *e, uint32_t *cap,
			 struct pd_cur *m)
{
	struct pd_feat_sp_symbol *s;
	struct pd_cur sub;
	uint64_t val;
	unsigned int wt;
	uint32_t num;
	int r;

	if (!fgrow(c, m->base, (void **)&e->symbols, cap, e->nr_symbols + 1, sizeof(*e->symbols)))
		return false;
	s = &e->symbols[e->nr_symbols++];
	while ((r = pb_field(c, m, &num, &wt, &val, &sub)) > 0) {
		if (num == 1 && wt == 0) {
			s->vaddr = val;
		} else if (num == 2 && wt == 0) {
			s->len = (uint32_t)val;
		} else if (num == 3 && wt == 2) {
			free(s->name);
			s->name = pb_str(c, &sub);
			if (c->nomem)
				return false;
		}
	}
	return r == 0;
}

static bool file2_dex(struct fctx *c, struct pd_feat_sp_file *e, struct pd_cur *m)
{
	uint32_t cap = 0, num;
	struct pd_cur sub;
	unsigned int wt;
	uint64_t val;
	int r;

	while ((r = pb_field(c, m, &num, &wt, &val, &sub)) > 0) {
		if (num != 1)
			continue;
		if (wt == 0) {
			if (!fgrow(c, m->base, (void **)&e->dex_offsets, &cap,
				   e->nr_dex_offsets + 1, sizeof(uint64_t)))
				return false;
			e->dex_offsets[e->nr_dex_offsets++] = val;
		} else if (wt == 2) {
			/* packed: varints back to back */
			while (pd_cur_left(&sub)) {
				uint64_t voff = pd_cur_off(&sub);

				if (!pb_varint(&sub, &val)) {
					fdiag(c, PD_FEAT_TRUNCATED, voff, "field=dex_file_offset");
					c->bad = c->stop = true;
					return false;
				}
				if (!fgrow(c, voff, (void **)&e->dex_offsets, &cap,
					   e->nr_dex_offsets + 1, sizeof(uint64_t)))
					return false;
				e->dex_offsets[e->nr_dex_offsets++] = val;
			}
		}
	}
	return r == 0;
}

/* ElfFile / KernelModule: field 1 is the offset */
static bool file2_offset(struct fctx *c, struct pd_feat_sp_file *e, struct pd_cur *m)
{
	struct pd_cur sub;
	unsigned int wt;
	uint64_t val;
	uint32_t num;
	int r;

	while ((r = pb_field(c, m, &num, &wt, &val, &sub)) > 0) {
		if (num == 1 && wt == 0) {
			e->min_vaddr_offset = val;
			e->has_min_vaddr_offset = true;
		}
	}
	return r == 0;
}

static void dec_sp_file2(struct fctx *c, struct pd_cur *cur)
{
	struct pd_feat_sp_files *fl = &c->f->sp_file2;
	uint32_t cap = 0;

	while (pd_cur_left(cur)) {
		struct pd_feat_sp_file *e;
		struct pd_cur m, sub;
		uint32_t size, num, scap = 0;
		bool has_oneof = false;
		unsigned int wt;
		uint64_t val;
		int r;

		if (!rd_u32(c, cur, &size, "msg_size"))
			return;
		if (!pd_cur_sub(cur, size, &m)) {
			fdiag(c, PD_FEAT_TRUNCATED, pd_cur_off(cur), "field=msg size=%u left=%zu",
			      size, pd_cur_left(cur));
			c->bad = c->stop = true;
			return;
		}
		if (!fgrow(c, m.base, (void **)&fl->files, &cap, fl->nr + 1, sizeof(*fl->files)))
			return;
		e = &fl->files[fl->nr++];
		e->msg_size = size;
		while ((r = pb_field(c, &m, &num, &wt, &val, &sub)) > 0) {
			bool ok = true;

			if (num == 1 && wt == 2) {
				free(e->path);
				e->path = pb_str(c, &sub);
				ok = !c->nomem;
			} else if (num == 2 && wt == 0) {
				e->type = (uint32_t)val;
			} else if (num == 3 && wt == 0) {
				e->min_vaddr = val;
			} else if (num == 4 && wt == 2) {
				ok = file2_symbol(c, e, &scap, &sub);
			} else if (num == 5 && wt == 2) {
				has_oneof = true;
				ok = file2_dex(c, e, &sub);
			} else if ((num == 6 || num == 7) && wt == 2) {
				has_oneof = true;
				ok = file2_offset(c, e, &sub);
			}
			if (!ok)
				return;
		}
		if (r < 0)
			return;
		/* simpleperf's reader insists on the oneof member for these types */
		if (!has_oneof && e->type >= 1 && e->type <= 3)
			fdiag(c, PD_FEAT_INCONSISTENT, m.base, "file=%u dso_type=%u missing_oneof",
			      fl->nr - 1, e->type);
		if (!e->path)
			e->path = fstrndup(c, m.base, (const uint8_t *)"", 0);
	}
}

/* ---- dispatch ---- */

static void dispatch(struct fctx *c, struct pd_cur *cur)
{
	struct pd_features *f = c->f;

	switch (c->id) {
	case PD_FEAT_TRACING_DATA:
		dec_tracing_data(c, cur);
		break;
	case PD_FEAT_BUILD_ID:
		dec_build_id(c, cur);
		break;
	case PD_FEAT_HOSTNAME:
		dec_string(c, cur, &f->hostname);
		break;
	case PD_FEAT_OSRELEASE:
		dec_string(c, cur, &f->osrelease);
		break;
	case PD_FEAT_VERSION:
		dec_string(c, cur, &f->version);
		break;
	case PD_FEAT_ARCH:
		dec_string(c, cur, &f->arch);
		break;
	case PD_FEAT_NRCPUS:
		dec_nrcpus(c, cur);
		break;
	case PD_FEAT_CPUDESC:
		dec_string(c, cur, &f->cpudesc);
		break;
	case PD_FEAT_CPUID:
		dec_string(c, cur, &f->cpuid);
		break;
	case PD_FEAT_TOTAL_MEM:
		dec_u64(c, cur, &f->total_mem, "total_mem");
		break;
	case PD_FEAT_CMDLINE:
		if (rd_str_list(c, cur, &f->cmdline, "argv"))
			finish(c, cur);
		break;
	case PD_FEAT_EVENT_DESC:
		dec_event_desc(c, cur);
		break;
	case PD_FEAT_CPU_TOPOLOGY:
		dec_cpu_topology(c, cur);
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		dec_numa_topology(c, cur);
		break;
	case PD_FEAT_BRANCH_STACK:
		dec_empty(c, cur, &f->branch_stack);
		break;
	case PD_FEAT_PMU_MAPPINGS:
		dec_pmu_mappings(c, cur);
		break;
	case PD_FEAT_GROUP_DESC:
		dec_group_desc(c, cur);
		break;
	case PD_FEAT_AUXTRACE:
		dec_auxtrace(c, cur);
		break;
	case PD_FEAT_STAT:
		dec_empty(c, cur, &f->stat);
		break;
	case PD_FEAT_CACHE:
		dec_cache(c, cur);
		break;
	case PD_FEAT_SAMPLE_TIME:
		dec_sample_time(c, cur);
		break;
	case PD_FEAT_MEM_TOPOLOGY:
		dec_mem_topology(c, cur);
		break;
	case PD_FEAT_CLOCKID:
		dec_u64(c, cur, &f->clockid_res_ns, "clockid_res_ns");
		break;
	case PD_FEAT_DIR_FORMAT:
		dec_u64(c, cur, &f->dir_format, "version");
		break;
	case PD_FEAT_BPF_PROG_INFO:
		dec_bpf_prog_info(c, cur);
		break;
	case PD_FEAT_BPF_BTF:
		dec_bpf_btf(c, cur);
		break;
	case PD_FEAT_COMPRESSED:
		dec_compressed(c, cur);
		break;
	case PD_FEAT_CPU_PMU_CAPS:
		dec_cpu_pmu_caps(c, cur);
		break;
	case PD_FEAT_CLOCK_DATA:
		dec_clock_data(c, cur);
		break;
	case PD_FEAT_HYBRID_TOPOLOGY:
		dec_hybrid_topology(c, cur);
		break;
	case PD_FEAT_PMU_CAPS:
		dec_pmu_caps(c, cur);
		break;
	case PD_FEAT_CPU_DOMAIN_INFO:
		dec_cpu_domain_info(c, cur);
		break;
	case PD_FEAT_E_MACHINE:
		dec_e_machine(c, cur);
		break;
	case PD_FEAT_CLN_SIZE:
		dec_cln_size(c, cur);
		break;
	case PD_FEAT_SP_FILE:
		dec_sp_file(c, cur);
		break;
	case PD_FEAT_SP_META_INFO:
		dec_sp_meta_info(c, cur);
		break;
	case PD_FEAT_SP_DEBUG_UNWIND:
		dec_sp_debug_unwind(c, cur);
		break;
	case PD_FEAT_SP_FILE2:
		dec_sp_file2(c, cur);
		break;
	case PD_FEAT_SP_DEBUG_UNWIND_FILE:
	case PD_FEAT_SP_ETM_BRANCH_LIST:
	case PD_FEAT_SP_INIT_MAP:
	default:
		/* kept as bytes only */
		cur->pos = cur->len;
		break;
	}
}

int pd_feature_decode(struct pd_features *f, unsigned int id, const uint8_t *p, size_t len,
		      bool swap, uint64_t offset, int64_t rec_idx, uint32_t rec_type,
		      struct pd_diag_sink *sink)
{
	struct fctx c = { .f = f, .sink = sink, .rec_idx = rec_idx, .rec_type = rec_type,
			  .id = id, .swap = swap };
	struct pd_feat_raw *raw;
	struct pd_cur cur;
	bool skipped;

	if (id >= PD_FEAT_BITS)
		return 1;
	pd_feature_clear(f, id);
	raw = &f->raw[id];
	if (len) {
		raw->data = malloc(len);
		if (!raw->data) {
			fdiag(&c, PD_NO_MEMORY, offset, "bytes=%zu", len);
			return PD_STATUS_NOMEM;
		}
		memcpy(raw->data, p, len);
	}
	raw->len = len;
	raw->offset = offset;
	raw->present = true;
	f->present[id / 64] |= 1ULL << (id % 64);
	if (!pd_feature_is_known(id))
		return 1;

	/* decode from our own copy: the caller's buffer may be transient */
	pd_cur_init(&cur, raw->data, len, offset, swap);
	dispatch(&c, &cur);
	if (c.nomem)
		return PD_STATUS_NOMEM;
	if (c.bad)
		return PD_STATUS_MALFORMED;
	skipped = (id == PD_FEAT_BPF_PROG_INFO && f->bpf_prog_info.skipped_swapped) ||
		  (id == PD_FEAT_BPF_BTF && f->bpf_btf.skipped_swapped);
	raw->decoded = !skipped;
	return 0;
}
