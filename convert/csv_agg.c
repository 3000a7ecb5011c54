// SPDX-License-Identifier: MIT
/*
 * csv_agg.c - arena, hash table and string interning for the aggregated
 * to-csv tables (see csv_agg.h).
 */
#include <stdlib.h>
#include <string.h>

#include "csv_agg.h"

#define CHUNK_MIN	(64u << 10)

struct csv_chunk {
	struct csv_chunk *next;
	size_t size;
	/* 16 bytes of header keep the data 16-byte aligned */
	unsigned char data[];
};

void *csv_arena_alloc(struct csv_arena *a, size_t size)
{
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (!a->head || a->cap - a->used < size) {
		size_t csize = size > CHUNK_MIN ? size : CHUNK_MIN;
		struct csv_chunk *c = calloc(1, sizeof(*c) + csize);

		if (!c)
			return NULL;
		c->next = a->head;
		c->size = csize;
		a->head = c;
		a->used = 0;
		a->cap = csize;
	}
	p = a->head->data + a->used;
	a->used += size;
	a->total += size;
	return p;
}

void csv_arena_free(struct csv_arena *a)
{
	struct csv_chunk *c = a->head;

	while (c) {
		struct csv_chunk *next = c->next;

		free(c);
		c = next;
	}
	memset(a, 0, sizeof(*a));
}

void *csv_map_find(const struct csv_map *m, uint64_t hash, csv_eq_fn eq, const void *key)
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

static void place(struct csv_slot *slots, size_t cap, uint64_t hash, void *item)
{
	size_t mask = cap - 1, i;

	for (i = hash & mask; slots[i].item; i = (i + 1) & mask)
		;
	slots[i].hash = hash;
	slots[i].item = item;
}

int csv_map_add(struct csv_map *m, uint64_t hash, void *item)
{
	/* at most half full: probe sequences stay short */
	if ((m->nr + 1) * 2 > m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 64, i;
		struct csv_slot *ns = calloc(ncap, sizeof(*ns));

		if (!ns)
			return -1;
		for (i = 0; i < m->cap; i++)
			if (m->slots[i].item)
				place(ns, ncap, m->slots[i].hash, m->slots[i].item);
		free(m->slots);
		m->slots = ns;
		m->cap = ncap;
	}
	place(m->slots, m->cap, hash, item);
	m->nr++;
	return 0;
}

void csv_map_free(struct csv_map *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

void **csv_map_items(const struct csv_map *m)
{
	void **v;
	size_t i, n = 0;

	if (!m->nr)
		return NULL;
	v = malloc(m->nr * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < m->cap; i++)
		if (m->slots[i].item)
			v[n++] = m->slots[i].item;
	return v;
}

uint64_t csv_hash_bytes(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t h = seed ^ (n * 0x9e3779b97f4a7c15ULL);

	/* eight bytes per step: stacks and file names are long */
	while (n >= 8) {
		uint64_t w;

		memcpy(&w, s, 8);
		h = csv_hash_u64(h ^ w, 0);
		s += 8;
		n -= 8;
	}
	if (n) {
		uint64_t w = 0;

		memcpy(&w, s, n);
		h = csv_hash_u64(h ^ w, 1);
	}
	return h;
}

struct istr {
	size_t len;
	char s[];
};

struct strkey {
	const char *s;
	size_t len;
};

static bool str_eq(const void *item, const void *key)
{
	const struct istr *a = item;
	const struct strkey *k = key;

	return a->len == k->len && !memcmp(a->s, k->s, k->len);
}

const char *csv_intern(struct csv_strings *st, const char *s, size_t n)
{
	struct strkey k = { s, n };
	uint64_t h = csv_hash_bytes(s, n, 0x5bd1e995);
	struct istr *e = csv_map_find(&st->map, h, str_eq, &k);

	if (e)
		return e->s;
	e = csv_arena_alloc(&st->arena, sizeof(*e) + n + 1);
	if (!e)
		return NULL;
	e->len = n;
	memcpy(e->s, s, n);
	e->s[n] = '\0';
	if (csv_map_add(&st->map, h, e))
		return NULL;
	return e->s;
}

void csv_strings_free(struct csv_strings *st)
{
	csv_map_free(&st->map);
	csv_arena_free(&st->arena);
}
