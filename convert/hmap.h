/* SPDX-License-Identifier: MIT */
/*
 * hmap.h - the writers' hash table, arena and string pool.
 *
 * What the writers aggregate (to-csv's functions, lines, processes and
 * folded tables, to-pprof's profile tables, to-proto's quipper pid tables)
 * must grow with the number of distinct keys and never with the number of
 * samples.
 * Everything they keep is therefore allocated once per key: entries come
 * from an arena that is only freed as a whole, and strings are interned so
 * that a key can hold and compare a pointer instead of text.
 *
 * struct hmap is an open-addressing hash table of (hash, item) pairs.
 * It knows nothing about the items: the caller computes the hash and
 * passes an equality function, which keeps one implementation for keys of
 * every shape (pointer pairs, strings, arrays of frame names).
 */
#ifndef PERFCONV_HMAP_H
#define PERFCONV_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena {
	struct arena_chunk *head;
	size_t used, cap;	/* in the head chunk */
	uint64_t total;		/* bytes handed out, for statistics */
};

/* Zeroed memory, 16-byte aligned, valid until arena_free(); NULL when out of memory. */
void *arena_alloc(struct arena *a, size_t size);
void arena_free(struct arena *a);

struct hmap_slot {
	uint64_t hash;
	void *item;		/* NULL: free slot */
};

struct hmap {
	struct hmap_slot *slots;
	size_t cap;		/* power of two, 0 before the first insert */
	size_t nr;
};

typedef bool (*hmap_eq_fn)(const void *item, const void *key);

/*
 * The item equal to `key` (same hash and eq() true), or NULL.  Inline: the
 * writers look up once or more per sample, and their eq() then inlines.
 */
static inline void *hmap_find(const struct hmap *m, uint64_t hash, hmap_eq_fn eq,
			      const void *key)
{
	size_t mask, i;

	if (!m->cap)
		return NULL;
	mask = m->cap - 1;
	for (i = hash & mask; m->slots[i].item; i = (i + 1) & mask)
		if (m->slots[i].hash == hash && eq(m->slots[i].item, key))
			return m->slots[i].item;
	return NULL;
}
/* Add an item known to be absent.  Returns 0, or -1 when out of memory. */
int hmap_add(struct hmap *m, uint64_t hash, void *item);
void hmap_free(struct hmap *m);

/*
 * Items in slot order, for sorting before output: a malloc'ed array of
 * m->nr pointers (NULL when empty or out of memory; check nr).
 */
void **hmap_items(const struct hmap *m);

/* Hashes: 64-bit mixes, good enough for an open-addressing table. */
uint64_t hash_bytes(const void *p, size_t n, uint64_t seed);

static inline uint64_t hash_u64(uint64_t x, uint64_t seed)
{
	x ^= seed + 0x9e3779b97f4a7c15ULL + (x << 6) + (x >> 2);
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static inline uint64_t hash_ptr(const void *p, uint64_t seed)
{
	return hash_u64((uint64_t)(uintptr_t)p, seed);
}

/*
 * String interning: one copy of every distinct string, so that equal
 * strings have equal pointers for as long as the interner lives.
 */
struct str_pool {
	struct hmap map;
	struct arena arena;
};

/* The interned copy of s[0..n) (NUL-terminated), NULL when out of memory. */
const char *str_pool_intern(struct str_pool *st, const char *s, size_t n);
void str_pool_free(struct str_pool *st);

#endif /* PERFCONV_HMAP_H */
