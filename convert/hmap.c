// SPDX-License-Identifier: MIT
/*
 * hmap.c - arena, hash table and string pool of the writers (see hmap.h).
 */
#include <stdlib.h>
#include <string.h>

#include "hmap.h"

#define CHUNK_MIN	(64u << 10)

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	/* 16 bytes of header keep the data 16-byte aligned */
	unsigned char data[];
};

void *arena_alloc(struct arena *a, size_t size)
{
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (!a->head || a->cap - a->used < size) {
		size_t csize = size > CHUNK_MIN ? size : CHUNK_MIN;
		struct arena_chunk *c = calloc(1, sizeof(*c) + csize);

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

void arena_free(struct arena *a)
{
	struct arena_chunk *c = a->head;

	while (c) {
		struct arena_chunk *next = c->next;

		free(c);
		c = next;
	}
	memset(a, 0, sizeof(*a));
}

static void place(struct hmap_slot *slots, size_t cap, uint64_t hash, void *item)
{
	size_t mask = cap - 1, i;

	for (i = hash & mask; slots[i].item; i = (i + 1) & mask)
		;
	slots[i].hash = hash;
	slots[i].item = item;
}

int hmap_add(struct hmap *m, uint64_t hash, void *item)
{
	/* at most half full: probe sequences stay short */
	if ((m->nr + 1) * 2 > m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 64, i;
		struct hmap_slot *ns = calloc(ncap, sizeof(*ns));

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

void hmap_free(struct hmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

void **hmap_items(const struct hmap *m)
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

uint64_t hash_bytes(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t h = seed ^ (n * 0x9e3779b97f4a7c15ULL);

	/* eight bytes per step: stacks and file names are long */
	while (n >= 8) {
		uint64_t w;

		memcpy(&w, s, 8);
		h = hash_u64(h ^ w, 0);
		s += 8;
		n -= 8;
	}
	if (n) {
		uint64_t w = 0;

		memcpy(&w, s, n);
		h = hash_u64(h ^ w, 1);
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

const char *str_pool_intern(struct str_pool *st, const char *s, size_t n)
{
	struct strkey k = { s, n };
	uint64_t h = hash_bytes(s, n, 0x5bd1e995);
	struct istr *e = hmap_find(&st->map, h, str_eq, &k);

	if (e)
		return e->s;
	e = arena_alloc(&st->arena, sizeof(*e) + n + 1);
	if (!e)
		return NULL;
	e->len = n;
	memcpy(e->s, s, n);
	e->s[n] = '\0';
	if (hmap_add(&st->map, h, e))
		return NULL;
	return e->s;
}

void str_pool_free(struct str_pool *st)
{
	hmap_free(&st->map);
	arena_free(&st->arena);
}
