/* SPDX-License-Identifier: MIT */
/*
 * csv_agg.h - the memory behind the aggregated to-csv tables.
 *
 * The aggregated tables (functions, lines, processes, folded) must grow
 * with the number of distinct keys and never with the number of samples.
 * Everything they keep is therefore allocated once per key: entries come
 * from an arena that is only freed as a whole, and strings are interned so
 * that a key can hold and compare a pointer instead of text.
 *
 * struct csv_map is an open-addressing hash table of (hash, item) pairs.
 * It knows nothing about the items: the caller computes the hash and
 * passes an equality function, which keeps one implementation for keys of
 * every shape (pointer pairs, strings, arrays of frame names).  It is
 * the writers' one hash table: to-pprof's tables and the pid tables of
 * to-proto's quipper rules (proto_compat.c) are kept in it too.
 */
#ifndef PERFCONV_CSV_AGG_H
#define PERFCONV_CSV_AGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct csv_arena {
	struct csv_chunk *head;
	size_t used, cap;	/* in the head chunk */
	uint64_t total;		/* bytes handed out, for statistics */
};

/* Zeroed memory, 16-byte aligned, valid until csv_arena_free(); NULL when out of memory. */
void *csv_arena_alloc(struct csv_arena *a, size_t size);
void csv_arena_free(struct csv_arena *a);

struct csv_slot {
	uint64_t hash;
	void *item;		/* NULL: free slot */
};

struct csv_map {
	struct csv_slot *slots;
	size_t cap;		/* power of two, 0 before the first insert */
	size_t nr;
};

typedef bool (*csv_eq_fn)(const void *item, const void *key);

/* The item equal to `key` (same hash and eq() true), or NULL. */
void *csv_map_find(const struct csv_map *m, uint64_t hash, csv_eq_fn eq, const void *key);
/* Add an item known to be absent.  Returns 0, or -1 when out of memory. */
int csv_map_add(struct csv_map *m, uint64_t hash, void *item);
void csv_map_free(struct csv_map *m);

/*
 * Items in slot order, for sorting before output: a malloc'ed array of
 * m->nr pointers (NULL when empty or out of memory; check nr).
 */
void **csv_map_items(const struct csv_map *m);

/* Hashes: 64-bit mixes, good enough for an open-addressing table. */
uint64_t csv_hash_bytes(const void *p, size_t n, uint64_t seed);

static inline uint64_t csv_hash_u64(uint64_t x, uint64_t seed)
{
	x ^= seed + 0x9e3779b97f4a7c15ULL + (x << 6) + (x >> 2);
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static inline uint64_t csv_hash_ptr(const void *p, uint64_t seed)
{
	return csv_hash_u64((uint64_t)(uintptr_t)p, seed);
}

/*
 * String interning: one copy of every distinct string, so that equal
 * strings have equal pointers for as long as the interner lives.
 */
struct csv_strings {
	struct csv_map map;
	struct csv_arena arena;
};

/* The interned copy of s[0..n) (NUL-terminated), NULL when out of memory. */
const char *csv_intern(struct csv_strings *st, const char *s, size_t n);
void csv_strings_free(struct csv_strings *st);

#endif /* PERFCONV_CSV_AGG_H */
