// SPDX-License-Identifier: MIT
/*
 * frame_cache.c - resolved frames of repeating addresses (pd_frame_cache,
 * see pd_symbols.h), the one cache under to-csv, to-pprof and to-json.
 *
 * Resolving a frame through the machine costs a thread lookup, a map
 * search and a symbol search, and the caller's own work on the frame (a
 * name to intern, a location to find, text to render); most frames of a
 * profile repeat.  Two direct-mapped tables answer repeats:
 *
 * Entries, keyed by (pd_machine_version(), cpumode, ip, unwound): the
 * version changes with every map change that matters, so entries never
 * need invalidating, and the threads of a process share theirs.  A hit
 * reads one half cache line: the key and the caller's two words.
 *
 * Sites, keyed by (DSO, address inside it, unwound, the DSO's symbol
 * generation), for the entries' misses: a new process (every fork gets
 * a version of its own) or a kernel DSO load (which moves every version)
 * misses all entries, but the symbol at an address of a DSO is the same in
 * every process, so after the map search the site gives the symbol and the
 * caller's words for it without a symbol search.  The generation moves
 * when the DSO's symbols change (a KSYMBOL record), which retires its
 * sites.
 *
 * The entries of one stack never evict each other: a bit per slot marks
 * the slots the stack being resolved points to, and an entry that lands
 * on a marked slot is resolved into spare room instead (not kept).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sym_internal.h"

#define ENT_BITS	16	/* 32 bytes each, and a frame with PD_FRAME_CACHE_FRAMES */
#define SITE_BITS	15	/* 64 bytes each */
#define NO_SITE		UINT32_MAX

/* in an entry's key: an unwound frame has inline frames, a recorded one none */
#define MODE_UNWOUND	0x80

struct ent {
	uint64_t ip;
	uint64_t key;		/* version << 16 | gen << 8 | mode; 0: empty */
	uint64_t value[2];
};

struct site {
	_Alignas(64) const struct pd_dso *dso;	/* NULL: empty */
	uint64_t addr;
	const char *sym;
	uint64_t sym_start;
	uint64_t value[2];
	uint32_t dso_gen;	/* the DSO's sym_gen when it was filled */
	uint8_t gen;		/* value is the caller's when equal to the cache's gen */
	bool unwound;
};

struct pd_frame_cache {
	struct pd_machine *m;
	struct ent *ents;
	struct pd_sym_frame *frames;	/* per entry, with PD_FRAME_CACHE_FRAMES */
	struct site *sites;
	uint64_t *ent_mark, *site_mark;	/* slots the current stack points to */
	unsigned int ent_shift;
	uint8_t gen;		/* pd_frame_cache_forget() count, never 0 */
	/* per stack entry, room for `cap` */
	size_t cap;
	uint64_t *key;
	uint32_t *idx, *sidx;
	uint64_t (*spare)[4];	/* an entry's and a site's words that are not kept */
	struct pd_sym_frame *spare_frames;
};

static inline bool marked(const uint64_t *bits, uint32_t i)
{
	return bits[i / 64] >> (i % 64) & 1;
}

static inline void mark(uint64_t *bits, uint32_t i)
{
	bits[i / 64] |= 1ULL << (i % 64);
}

static inline void unmark(uint64_t *bits, uint32_t i)
{
	bits[i / 64] &= ~(1ULL << (i % 64));
}

/*
 * A table of `size` bytes on huge pages where the kernel gives them:
 * lookups land anywhere in it, and with 4 KiB pages most of them would
 * miss the TLB as well as the processor cache, and each of its pages is
 * faulted in on its own.
 */
#define HUGE_PAGE	((size_t)2 << 20)

/*
 * Whole huge pages: the kernel backs only a fully covered, aligned 2 MiB
 * range with one, so a table's tail past its last boundary (or a table
 * smaller than one) would be faulted in 4 KiB at a time.
 */
static size_t table_span(size_t size)
{
	return (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

void *pd_sym_table_alloc(size_t size)
{
	/*
	 * Mapped rather than allocated and cleared: the kernel hands out
	 * zeroed pages as they are first touched, so that a small input
	 * neither clears nor keeps the whole table.  Mapped with room for
	 * aligning it on a huge page, the excess unmapped.
	 */
	size_t span, head;
	uint8_t *p;

	if (size > SIZE_MAX - 2 * HUGE_PAGE)
		return NULL;
	size = table_span(size);
	span = size + HUGE_PAGE;
	p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
	if (head)
		munmap(p, head);
	munmap(p + head + size, span - head - size);
	p += head;
#ifdef MADV_HUGEPAGE
	madvise(p, size, MADV_HUGEPAGE);
#endif
	return p;
}

void pd_sym_table_free(void *p, size_t size)
{
	if (p)
		munmap(p, table_span(size));
}

static int grow(struct pd_frame_cache *c, size_t n)
{
	size_t cap = c->cap ? c->cap : PD_SYM_MAX_STACK;
	void *p;

	while (cap < n)
		cap *= 2;
#define GROW(field) \
	do { \
		p = realloc(c->field, cap * sizeof(*c->field)); \
		if (!p) \
			return -1; \
		c->field = p; \
	} while (0)
	GROW(key);
	GROW(idx);
	GROW(sidx);
	GROW(spare);
	GROW(spare_frames);
#undef GROW
	c->cap = cap;
	return 0;
}

int pd_frame_cache_new(struct pd_machine *m, unsigned int flags, struct pd_frame_cache **out)
{
	struct pd_frame_cache *c;
	size_t n = (size_t)1 << ENT_BITS;

	*out = NULL;
	if (flags & ~(unsigned int)PD_FRAME_CACHE_FRAMES)
		return PD_STATUS_MALFORMED;
	c = calloc(1, sizeof(*c));
	if (!c)
		return PD_STATUS_NOMEM;
	c->m = m;
	c->gen = 1;
	c->ent_shift = 64 - ENT_BITS;
	c->ents = pd_sym_table_alloc(n * sizeof(*c->ents));
	c->sites = pd_sym_table_alloc(((size_t)1 << SITE_BITS) * sizeof(*c->sites));
	c->ent_mark = calloc(n / 64, sizeof(*c->ent_mark));
	c->site_mark = calloc(((size_t)1 << SITE_BITS) / 64, sizeof(*c->site_mark));
	if (flags & PD_FRAME_CACHE_FRAMES)
		c->frames = pd_sym_table_alloc(n * sizeof(*c->frames));
	if (!c->ents || !c->sites || !c->ent_mark || !c->site_mark ||
	    (flags & PD_FRAME_CACHE_FRAMES && !c->frames) || grow(c, PD_SYM_MAX_STACK) < 0) {
		pd_frame_cache_free(c);
		return PD_STATUS_NOMEM;
	}
	*out = c;
	return 0;
}

void pd_frame_cache_free(struct pd_frame_cache *c)
{
	if (!c)
		return;
	pd_sym_table_free(c->ents, ((size_t)1 << (64 - c->ent_shift)) * sizeof(*c->ents));
	pd_sym_table_free(c->frames, ((size_t)1 << (64 - c->ent_shift)) * sizeof(*c->frames));
	pd_sym_table_free(c->sites, ((size_t)1 << SITE_BITS) * sizeof(*c->sites));
	free(c->ent_mark);
	free(c->site_mark);
	free(c->key);
	free(c->idx);
	free(c->sidx);
	free(c->spare);
	free(c->spare_frames);
	free(c);
}

void pd_frame_cache_forget(struct pd_frame_cache *c)
{
	/* entries are keyed with the generation, sites check it */
	if (++c->gen == 0) {
		/* generations wrapped: forget for real */
		memset(c->ents, 0, ((size_t)1 << (64 - c->ent_shift)) * sizeof(*c->ents));
		memset(c->sites, 0, ((size_t)1 << SITE_BITS) * sizeof(*c->sites));
		c->gen = 1;
	}
}

/* What the keys of a version share; 0 when the machine had no version. */
static inline uint64_t key_base(const struct pd_frame_cache *c, uint64_t version)
{
	/* versions come one by one from a counter: 2^48 of them is out of reach */
	if (!version || version >> 48)
		return 0;
	return version << 16 | (uint64_t)c->gen << 8;
}

/*
 * An entry's key from the key bases of the thread's user and kernel
 * versions; 0 (never kept) when the machine had no version for it.
 */
static inline uint64_t ent_key(const struct pd_sym_ip *e, uint64_t ubase, uint64_t kbase)
{
	uint64_t base = e->cpumode == PD_CPUMODE_USER ? ubase : kbase;

	return base ? base | e->cpumode | (e->unwound ? MODE_UNWOUND : 0) : 0;
}

#define KEY_MUL		0xff51afd7ed558ccdULL

/* An entry's slot from its ip and its key times KEY_MUL. */
static inline uint32_t ent_slot_km(uint64_t ip, uint64_t key_mul)
{
	uint64_t x = ip * 0x9e3779b97f4a7c15ULL ^ key_mul;

	x ^= x >> 32;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return (uint32_t)(x >> (64 - ENT_BITS));
}

static inline uint32_t ent_slot(uint64_t ip, uint64_t key)
{
	return ent_slot_km(ip, key * KEY_MUL);
}

static inline uint32_t site_slot(const struct pd_dso *d, uint64_t addr, bool unwound)
{
	uint64_t x = addr * 0x9e3779b97f4a7c15ULL ^ (uint64_t)d->seq * 0xff51afd7ed558ccdULL ^
		     unwound;

	x ^= x >> 32;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return (uint32_t)(x >> (64 - SITE_BITS));
}

/*
 * Resolve stack entry i into *f: the map through the machine, the symbol
 * through the sites.  Sets c->sidx[i] and returns the caller's words for
 * the site (NULL without a DSO).
 */
static uint64_t *resolve(struct pd_frame_cache *c, int32_t pid, int32_t tid,
			 const struct pd_sym_ip *e, size_t i, struct pd_sym_frame *f)
{
	const struct pd_dso *d;
	struct site *s;
	uint32_t si;

	c->sidx[i] = NO_SITE;
	if (!c->m) {
		memset(f, 0, sizeof(*f));
		f->ip = e->ip;
		f->unwound = e->unwound;
		return NULL;
	}
	d = pd_machine_resolve_map(c->m, pid, tid, e->cpumode, e->ip, f);
	f->unwound = e->unwound;
	if (!d)
		return NULL;
	si = site_slot(d, f->addr, e->unwound);
	s = &c->sites[si];
	if (s->dso == d && s->addr == f->addr && s->unwound == e->unwound &&
	    s->dso_gen == d->sym_gen) {
		f->sym = s->sym;
		if (s->sym) {
			f->sym_start = s->sym_start;
			f->sym_off = f->addr - s->sym_start;
		}
		if (s->gen != c->gen) {
			s->gen = c->gen;
			s->value[0] = s->value[1] = 0;
		}
	} else {
		pd_machine_resolve_sym(c->m, f);
		if (marked(c->site_mark, si)) {
			/* an entry of this stack points to it */
			c->spare[i][2] = c->spare[i][3] = 0;
			return &c->spare[i][2];
		}
		s->dso = d;
		s->addr = f->addr;
		s->sym = f->sym;
		s->sym_start = f->sym_start;
		s->value[0] = s->value[1] = 0;
		s->dso_gen = d->sym_gen;
		s->gen = c->gen;
		s->unwound = e->unwound;
	}
	mark(c->site_mark, si);
	c->sidx[i] = si;
	return s->value;
}

size_t pd_frame_cache_stack(struct pd_frame_cache *c, int32_t pid, int32_t tid,
			    const struct pd_sym_ip *st, size_t n, struct pd_frame_ref *out)
{
	struct pd_machine *m = c->m;
	uint64_t ubase, kbase, k0 = 0;
	size_t i, j;

	/* resolved as far as there is room */
	if (n > c->cap && grow(c, n) < 0)
		n = c->cap;
	/* version 0 (the machine out of memory): resolved, but not kept */
	ubase = key_base(c, m ? pd_machine_version(m, pid, tid, PD_CPUMODE_USER) : 1);
	kbase = key_base(c, m ? pd_machine_version(m, pid, tid, PD_CPUMODE_KERNEL) : 1);
	/*
	 * Two passes: the first finds every entry's slot and prefetches it,
	 * so that the cache misses of a deep stack overlap instead of coming
	 * one after the other.
	 */
	{
		/*
		 * The hot loops of every stack, on locals: a store to the
		 * key or index array could otherwise be a field of *c.
		 */
		uint64_t *key = c->key;
		uint32_t *idx = c->idx;
		struct ent *ents = c->ents;
		struct pd_sym_frame *frames = c->frames;
		/*
		 * The keys of recorded user and kernel frames, nearly every
		 * entry, and their products in the slot's hash, made once per
		 * stack: ent_key() and ent_slot() of them give the same.
		 */
		_Static_assert(PD_CPUMODE_USER == PD_CPUMODE_KERNEL + 1, "by cpumode - KERNEL");
		const uint64_t kmode[2] = {
			kbase ? kbase | PD_CPUMODE_KERNEL : 0,
			ubase ? ubase | PD_CPUMODE_USER : 0,
		};
		const uint64_t mmode[2] = { kmode[0] * KEY_MUL, kmode[1] * KEY_MUL };

		for (i = 0; i < n; i++) {
			unsigned int mi = (unsigned int)st[i].cpumode - PD_CPUMODE_KERNEL;
			uint64_t k, km;
			uint32_t slot;

			if (__builtin_expect(st[i].unwound || mi > 1, 0)) {
				k = ent_key(&st[i], ubase, kbase);
				km = k * KEY_MUL;
			} else {
				k = kmode[mi];
				km = mmode[mi];
			}
			slot = ent_slot_km(st[i].ip, km);
			key[i] = k;
			idx[i] = slot;
			__builtin_prefetch(&ents[slot]);
		}
		/*
		 * Most stacks: every entry known, nothing to resolve, nothing
		 * to protect.  A loop each with and without frames.
		 */
		if (frames) {
			for (i = 0; i < n; i++) {
				uint32_t slot = idx[i];
				struct ent *e = &ents[slot];

				if (e->key != key[i] || e->ip != st[i].ip || !key[i] || !e->value[0])
					break;
				out[i].value = e->value;
				out[i].site = NULL;
				out[i].frame = &frames[slot];
			}
		} else {
			for (i = 0; i < n; i++) {
				struct ent *e = &ents[idx[i]];

				if (e->key != key[i] || e->ip != st[i].ip || !key[i] || !e->value[0])
					break;
				out[i].value = e->value;
				out[i].site = NULL;
				out[i].frame = NULL;
			}
		}
	}
	if (i == n)
		return n;
	/* the entries found so far stay while the others are resolved */
	for (j = 0; j < i; j++) {
		mark(c->ent_mark, c->idx[j]);
		c->sidx[j] = NO_SITE;
	}
	for (; i < n; i++) {
		uint32_t slot = c->idx[i];
		struct ent *e = &c->ents[slot];
		struct pd_frame_ref *r = &out[i];
		uint64_t key = c->key[i];
		struct pd_sym_frame *f;
		bool own;

		/* an entry the caller kept nothing for is resolved again */
		if (e->key == key && e->ip == st[i].ip && key && e->value[0]) {
			mark(c->ent_mark, slot);
			c->sidx[i] = NO_SITE;
			r->value = e->value;
			r->site = NULL;
			r->frame = c->frames ? &c->frames[slot] : NULL;
			continue;
		}
		/* never evict an entry this very stack points to */
		own = key && !marked(c->ent_mark, slot);
		f = own && c->frames ? &c->frames[slot] : &c->spare_frames[i];
		if (m)
			k0 = pd_machine_version(m, pid, tid, PD_CPUMODE_KERNEL);
		r->site = resolve(c, pid, tid, &st[i], i, f);
		r->frame = f;
		if (own) {
			mark(c->ent_mark, slot);
			e->ip = st[i].ip;
			e->key = key;
			e->value[0] = e->value[1] = 0;
			r->value = e->value;
		} else {
			c->spare[i][0] = c->spare[i][1] = 0;
			r->value = c->spare[i];
		}
		/* a kernel DSO load moves the kernel version, and with it every other */
		if (m && pd_machine_version(m, pid, tid, PD_CPUMODE_KERNEL) != k0) {
			/* this key is stale already: no hits for it */
			if (own)
				e->key = 0;
			ubase = key_base(c, pd_machine_version(m, pid, tid, PD_CPUMODE_USER));
			kbase = key_base(c, pd_machine_version(m, pid, tid, PD_CPUMODE_KERNEL));
			for (j = i + 1; j < n; j++) {
				c->key[j] = ent_key(&st[j], ubase, kbase);
				c->idx[j] = ent_slot(st[j].ip, c->key[j]);
			}
		}
	}
	for (i = 0; i < n; i++) {
		unmark(c->ent_mark, c->idx[i]);
		if (c->sidx[i] != NO_SITE)
			unmark(c->site_mark, c->sidx[i]);
	}
	return n;
}
