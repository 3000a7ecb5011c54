// SPDX-License-Identifier: MIT
/*
 * symtab.c - symbol tables with perf's insertion, fixup and lookup rules.
 *
 * The tree is a textbook red-black tree (insert fixup, successor-based
 * delete).  perf's lookup descends its tree and stops at the first node
 * that covers the address, so with overlapping symbols only the same
 * sequence of inserts and deletes into the same kind of tree gives the
 * same answers (see docs/symbolization.md §6.8).  A table whose symbols do
 * not overlap gives one answer whatever the shape: once loaded, it is
 * sealed into sorted arrays and searched by bisection (sym_internal.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sym_internal.h"

#define NIL 0u

void pd_symtab_init(struct pd_symtab *t)
{
	memset(t, 0, sizeof(*t));
}

void pd_symtab_free(struct pd_symtab *t)
{
	free(t->seal);
	free(t->n);
	free(t->str);
	memset(t, 0, sizeof(*t));
}

static uint32_t node_add(struct pd_symtab *t, uint64_t start, uint64_t end, uint8_t bind,
			 uint8_t type, uint32_t name);
static void link_flat(struct pd_symtab *t);

/*
 * True when no two symbols cover one address (a zero-size symbol covers
 * its start) and each fits the sealed arrays: then the tree's descent and
 * a bisection give the same answers.  *names: the bytes of their names
 * (a table made a tree again shares names, so its pool can be smaller).
 */
static bool sealable(const struct pd_symtab *t, size_t *names)
{
	uint32_t x, prev = NIL;

	*names = 0;
	for (x = pd_symtab_first(t); x != NIL; prev = x, x = pd_symtab_next(t, x)) {
		const struct pd_symn *c = &t->n[x];

		if (c->end - c->start > UINT32_MAX || c->end < c->start || c->bind > 15 ||
		    c->type > 15)
			return false;
		if (prev != NIL && (c->start <= t->n[prev].start || c->start < t->n[prev].end))
			return false;
		*names += strlen(t->str + c->name) + 1;
	}
	return *names <= UINT32_MAX;
}

bool pd_symseal_begin(struct pd_symseal_build *b, uint32_t cnt, size_t names)
{
	memset(b, 0, sizeof(*b));
	b->s = malloc(sizeof(*b->s) + (size_t)cnt * (8 + 4 + 4 + 1));
	if (!b->s)
		return false;
	b->str = malloc(names ? names : 1);
	if (!b->str) {
		free(b->s);
		b->s = NULL;
		return false;
	}
	/* both written whole, in order (kallsyms: 2 and 3 MiB) */
	pd_sym_prefault(b->s, sizeof(*b->s) + (size_t)cnt * (8 + 4 + 4 + 1));
	pd_sym_prefault(b->str, names);
	b->cnt = cnt;
	b->s->start = (uint64_t *)(b->s + 1);
	b->s->len = (uint32_t *)(b->s->start + cnt);
	b->s->name = b->s->len + cnt;
	b->s->info = (uint8_t *)(b->s->name + cnt);
	return true;
}

/*
 * The next symbol, in address order; a name that ends the one before it
 * (kernels put "__pfx_NAME" before every NAME) shares its bytes.
 */
void pd_symseal_add(struct pd_symseal_build *b, uint64_t start, uint32_t len, uint8_t info,
		    const char *name, size_t n)
{
	struct pd_symseal *s = b->s;
	uint32_t i = b->i++;

	s->start[i] = start;
	s->len[i] = len;
	s->info[i] = info;
	if (i && b->prev_len >= n && !memcmp(b->str + b->prev_off + b->prev_len - n, name, n)) {
		b->prev_off += (uint32_t)(b->prev_len - n);
	} else {
		memcpy(b->str + b->len, name, n);
		b->str[b->len + n] = '\0';
		b->prev_off = (uint32_t)b->len;
		b->len += n + 1;
	}
	b->prev_len = n;
	s->name[i] = b->prev_off;
}

void pd_symseal_finish(struct pd_symseal_build *b, struct pd_symtab *t)
{
	free(t->n);
	free(t->str);
	t->n = NULL;
	t->cap = 0;
	t->nr = b->cnt + 1;
	t->root = 1;
	t->last = b->cnt;
	t->live = b->cnt;
	t->str = realloc(b->str, b->len ? b->len : 1);
	if (!t->str)
		t->str = b->str;
	t->str_len = t->str_cap = b->len;
	t->seal = b->s;
}

/*
 * The tree as sorted arrays, its names copied in address order into a new
 * pool without those of deleted symbols.  false when out of memory: the
 * tree stays.
 */
static bool seal(struct pd_symtab *t, size_t names)
{
	struct pd_symseal_build b;
	uint32_t cnt = t->live, i = 0, x;

	if (!pd_symseal_begin(&b, cnt, names))
		return false;
	for (x = pd_symtab_first(t); x != NIL && i < cnt; x = pd_symtab_next(t, x), i++) {
		const struct pd_symn *c = &t->n[x];
		const char *name = t->str + c->name;

		pd_symseal_add(&b, c->start, (uint32_t)(c->end - c->start),
			       (uint8_t)(c->bind << 4 | c->type), name, strlen(name));
	}
	pd_symseal_finish(&b, t);
	return true;
}

/*
 * A sealed table made a tree again, its symbols inserted in address
 * order (symbol x keeps its index x).  -1 when out of memory: it stays
 * sealed.
 */
static int unseal(struct pd_symtab *t)
{
	struct pd_symseal *s = t->seal;
	uint32_t cnt = t->nr - 1, i;
	struct pd_symn *n = malloc(((size_t)cnt + 2) * sizeof(*n));

	if (!n)
		return -1;
	memset(&n[0], 0, sizeof(n[0]));
	t->seal = NULL;
	t->n = n;
	t->cap = cnt + 2;
	t->nr = 1;
	t->root = t->last = NIL;
	t->live = 0;
	t->linked = true;
	t->erased_first = t->erased_last = NIL;
	for (i = 0; i < cnt; i++)
		node_add(t, s->start[i], s->start[i] + s->len[i], s->info[i] >> 4, s->info[i] & 15,
			 s->name[i]);
	free(s);
	return 0;
}

/*
 * Loading is done: a table without overlapping symbols is sealed (the
 * kernel's 122,000 symbols take 2 MiB instead of 4.7 MiB, and their names
 * 1.7 instead of 3 MiB), any other gives back what doubling its arrays
 * left unused.  Later inserts grow the arrays again as usual.
 */
void pd_symtab_shrink(struct pd_symtab *t)
{
	size_t names;

	if (t->seal || (t->live && sealable(t, &names) && seal(t, names)))
		return;
	link_flat(t);
	if (t->nr && t->nr < t->cap) {
		struct pd_symn *p = realloc(t->n, (size_t)t->nr * sizeof(*p));

		if (p) {
			t->n = p;
			t->cap = t->nr;
		}
	}
	if (t->str_len && t->str_len < t->str_cap) {
		char *p = realloc(t->str, t->str_len);

		if (p) {
			t->str = p;
			t->str_cap = t->str_len;
		}
	}
}

bool pd_symtab_reserve(struct pd_symtab *t, size_t nodes, size_t names)
{
	if (t->seal)
		return true;
	/* the sentinel, and node_add() grows at cap - 1 */
	if (nodes > UINT32_MAX - 2 || names > UINT32_MAX)
		return false;
	if (nodes + 2 > t->cap) {
		struct pd_symn *p = realloc(t->n, (nodes + 2) * sizeof(*p));

		if (!p)
			return false;
		t->n = p;
		t->cap = (uint32_t)(nodes + 2);
		if (t->nr == 0) {
			/* slot 0 is the black sentinel */
			memset(&t->n[0], 0, sizeof(t->n[0]));
			t->nr = 1;
		}
	}
	if (names > t->str_cap) {
		char *p = realloc(t->str, names);

		if (!p)
			return false;
		t->str = p;
		t->str_cap = names;
	}
	return true;
}

static uint32_t str_add(struct pd_symtab *t, const char *s, size_t len)
{
	size_t need = t->str_len + len + 1;
	uint32_t off;

	if (need > UINT32_MAX)
		return UINT32_MAX;
	if (need > t->str_cap) {
		size_t cap = t->str_cap ? t->str_cap * 2 : 4096;
		char *p;

		while (cap < need)
			cap *= 2;
		p = realloc(t->str, cap);
		if (!p)
			return UINT32_MAX;
		t->str = p;
		t->str_cap = cap;
	}
	off = (uint32_t)t->str_len;
	memcpy(t->str + off, s, len);
	t->str[off + len] = '\0';
	t->str_len = need;
	return off;
}

static void rotate_left(struct pd_symtab *t, uint32_t x)
{
	struct pd_symn *n = t->n;
	uint32_t y = n[x].right;

	n[x].right = n[y].left;
	if (n[y].left != NIL)
		n[n[y].left].parent = x;
	n[y].parent = n[x].parent;
	if (n[x].parent == NIL)
		t->root = y;
	else if (x == n[n[x].parent].left)
		n[n[x].parent].left = y;
	else
		n[n[x].parent].right = y;
	n[y].left = x;
	n[x].parent = y;
}

static void rotate_right(struct pd_symtab *t, uint32_t x)
{
	struct pd_symn *n = t->n;
	uint32_t y = n[x].left;

	n[x].left = n[y].right;
	if (n[y].right != NIL)
		n[n[y].right].parent = x;
	n[y].parent = n[x].parent;
	if (n[x].parent == NIL)
		t->root = y;
	else if (x == n[n[x].parent].right)
		n[n[x].parent].right = y;
	else
		n[n[x].parent].left = y;
	n[y].right = x;
	n[x].parent = y;
}

static void insert_fixup(struct pd_symtab *t, uint32_t z)
{
	struct pd_symn *n = t->n;

	while (n[n[z].parent].red) {
		uint32_t p = n[z].parent, g = n[p].parent, y;

		if (p == n[g].left) {
			y = n[g].right;
			if (n[y].red) {
				n[p].red = 0;
				n[y].red = 0;
				n[g].red = 1;
				z = g;
			} else {
				if (z == n[p].right) {
					z = p;
					rotate_left(t, z);
					p = n[z].parent;
					g = n[p].parent;
				}
				n[p].red = 0;
				n[g].red = 1;
				rotate_right(t, g);
			}
		} else {
			y = n[g].left;
			if (n[y].red) {
				n[p].red = 0;
				n[y].red = 0;
				n[g].red = 1;
				z = g;
			} else {
				if (z == n[p].left) {
					z = p;
					rotate_right(t, z);
					p = n[z].parent;
					g = n[p].parent;
				}
				n[p].red = 0;
				n[g].red = 1;
				rotate_left(t, g);
			}
		}
	}
	n[t->root].red = 0;
}

uint32_t pd_symtab_insert(struct pd_symtab *t, uint64_t start, uint64_t end, uint8_t bind,
			  uint8_t type, const char *name, size_t name_len)
{
	uint32_t off;

	if (t->seal && unseal(t))
		return 0;
	off = str_add(t, name, name_len);
	if (off == UINT32_MAX)
		return 0;
	return node_add(t, start, end, bind, type, off);
}

/* Node z, filled in, linked into the tree as an insert of its start. */
static void link_node(struct pd_symtab *t, uint32_t z)
{
	struct pd_symn *n = t->n;
	uint64_t start = n[z].start;
	uint32_t x = t->root, y = NIL;

	n[z].left = n[z].right = NIL;
	n[z].red = 1;
	n[z].erased = 0;
	if (t->last == NIL && x != NIL)
		t->last = pd_symtab_last(t);
	if (x != NIL && start >= n[t->last].start) {
		/*
		 * Not below the largest start: the descent would go right at
		 * every node down to the rightmost one.  Symbol files come
		 * mostly in address order, so this skips most descents.
		 */
		y = t->last;
		x = NIL;
	}
	while (x != NIL) {
		y = x;
		x = start < n[x].start ? n[x].left : n[x].right;
	}
	n[z].parent = y;
	if (y == NIL) {
		t->root = z;
		t->last = z;
	} else if (start < n[y].start) {
		n[y].left = z;
	} else {
		n[y].right = z;
		if (y == t->last)
			t->last = z;
	}
	insert_fixup(t, z);
}

static void tree_erase(struct pd_symtab *t, uint32_t z);

/*
 * A flat table made the tree its inserts and erases would have built:
 * every node inserted in index order (each one at the rightmost place),
 * then the erased ones erased in the order they were.
 */
static void link_flat(struct pd_symtab *t)
{
	uint32_t i, z;

	if (t->linked)
		return;
	t->linked = true;
	t->root = t->last = NIL;
	for (i = 1; i < t->nr; i++)
		link_node(t, i);
	for (z = t->erased_first; z != NIL; z = t->n[z].erased_next)
		tree_erase(t, z);
	t->erased_first = t->erased_last = NIL;
}

/* Insert a node whose name is at off in the pool: its index, 0 on ENOMEM. */
static uint32_t node_add(struct pd_symtab *t, uint64_t start, uint64_t end, uint8_t bind,
			 uint8_t type, uint32_t off)
{
	uint32_t z;
	struct pd_symn *n;

	/* the tree is needed when the order breaks or after an erase */
	if (!t->linked && t->nr > 1 &&
	    (t->erased_first != NIL || start < t->n[t->nr - 1].start))
		link_flat(t);
	/* doubling: room for cap - 2 nodes besides the sentinel */
	if (t->nr + 1 >= t->cap &&
	    !pd_symtab_reserve(t, (t->cap ? (size_t)t->cap * 2 : 256) - 2, 0))
		return 0;
	n = t->n;
	z = t->nr++;
	n[z].start = start;
	n[z].end = end;
	n[z].name = off;
	n[z].bind = bind;
	n[z].type = type;
	n[z].left = n[z].right = n[z].parent = NIL;
	n[z].red = 1;
	n[z].erased = 0;
	n[z].erased_next = NIL;
	if (t->linked)
		link_node(t, z);
	else
		t->last = z;
	t->live++;
	return z;
}

static uint32_t tree_min(const struct pd_symtab *t, uint32_t x)
{
	while (t->n[x].left != NIL)
		x = t->n[x].left;
	return x;
}

static void transplant(struct pd_symtab *t, uint32_t u, uint32_t v)
{
	struct pd_symn *n = t->n;

	if (n[u].parent == NIL)
		t->root = v;
	else if (u == n[n[u].parent].left)
		n[n[u].parent].left = v;
	else
		n[n[u].parent].right = v;
	n[v].parent = n[u].parent;
}

static void delete_fixup(struct pd_symtab *t, uint32_t x)
{
	struct pd_symn *n = t->n;

	while (x != t->root && !n[x].red) {
		uint32_t p = n[x].parent, w;

		if (x == n[p].left) {
			w = n[p].right;
			if (n[w].red) {
				n[w].red = 0;
				n[p].red = 1;
				rotate_left(t, p);
				w = n[p].right;
			}
			if (!n[n[w].left].red && !n[n[w].right].red) {
				n[w].red = 1;
				x = p;
			} else {
				if (!n[n[w].right].red) {
					n[n[w].left].red = 0;
					n[w].red = 1;
					rotate_right(t, w);
					w = n[p].right;
				}
				n[w].red = n[p].red;
				n[p].red = 0;
				n[n[w].right].red = 0;
				rotate_left(t, p);
				x = t->root;
			}
		} else {
			w = n[p].left;
			if (n[w].red) {
				n[w].red = 0;
				n[p].red = 1;
				rotate_right(t, p);
				w = n[p].left;
			}
			if (!n[n[w].right].red && !n[n[w].left].red) {
				n[w].red = 1;
				x = p;
			} else {
				if (!n[n[w].left].red) {
					n[n[w].right].red = 0;
					n[w].red = 1;
					rotate_left(t, w);
					w = n[p].left;
				}
				n[w].red = n[p].red;
				n[p].red = 0;
				n[n[w].left].red = 0;
				rotate_right(t, p);
				x = t->root;
			}
		}
	}
	n[x].red = 0;
}

static void tree_erase(struct pd_symtab *t, uint32_t z)
{
	struct pd_symn *n = t->n;
	uint32_t y = z, x;
	uint8_t y_red = n[y].red;

	if (n[z].left == NIL) {
		x = n[z].right;
		transplant(t, z, n[z].right);
	} else if (n[z].right == NIL) {
		x = n[z].left;
		transplant(t, z, n[z].left);
	} else {
		y = tree_min(t, n[z].right);
		y_red = n[y].red;
		x = n[y].right;
		if (n[y].parent == z) {
			n[x].parent = y;
		} else {
			transplant(t, y, n[y].right);
			n[y].right = n[z].right;
			n[n[y].right].parent = y;
		}
		transplant(t, z, y);
		n[y].left = n[z].left;
		n[n[y].left].parent = y;
		n[y].red = n[z].red;
	}
	if (t->last == z)
		t->last = NIL;
	if (!y_red)
		delete_fixup(t, x);
	/* the sentinel's parent is scratch space for the fixup */
	n[NIL].parent = NIL;
	n[NIL].red = 0;
	n[z].left = n[z].right = n[z].parent = NIL;
}

void pd_symtab_erase(struct pd_symtab *t, uint32_t z)
{
	if (t->seal && unseal(t))
		return;
	if (t->linked) {
		tree_erase(t, z);
	} else {
		t->n[z].erased = 1;
		if (t->erased_last != NIL)
			t->n[t->erased_last].erased_next = z;
		else
			t->erased_first = z;
		t->erased_last = z;
		if (t->last == z)
			t->last = NIL;
	}
	t->live--;
}

/* A flat table's first node not erased at or after x, or NIL. */
static uint32_t flat_from(const struct pd_symtab *t, uint32_t x)
{
	while (x < t->nr && t->n[x].erased)
		x++;
	return x < t->nr ? x : NIL;
}

uint32_t pd_symtab_first(const struct pd_symtab *t)
{
	if (t->seal)
		return t->nr > 1 ? 1 : NIL;
	if (!t->linked)
		return flat_from(t, 1);
	return t->root == NIL ? NIL : tree_min(t, t->root);
}

uint32_t pd_symtab_last(const struct pd_symtab *t)
{
	uint32_t x = t->root;

	if (t->seal)
		return t->nr - 1;
	if (!t->linked) {
		for (x = t->nr; x > 1; x--)
			if (!t->n[x - 1].erased)
				return x - 1;
		return NIL;
	}
	if (x == NIL)
		return NIL;
	while (t->n[x].right != NIL)
		x = t->n[x].right;
	return x;
}

uint32_t pd_symtab_next(const struct pd_symtab *t, uint32_t x)
{
	const struct pd_symn *n = t->n;
	uint32_t y;

	if (t->seal)
		return x + 1 < t->nr ? x + 1 : NIL;
	if (!t->linked)
		return flat_from(t, x + 1);
	if (n[x].right != NIL)
		return tree_min(t, n[x].right);
	y = n[x].parent;
	while (y != NIL && x == n[y].right) {
		x = y;
		y = n[y].parent;
	}
	return y;
}

/* The sealed table's symbol covering addr: the last start at or below it. */
static uint32_t seal_find(const struct pd_symtab *t, uint64_t addr)
{
	const struct pd_symseal *s = t->seal;
	uint32_t lo = 0, hi = t->nr - 1, i;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->start[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NIL;
	i = lo - 1;
	if (s->len[i] ? addr - s->start[i] < s->len[i] : addr == s->start[i])
		return i + 1;
	return NIL;
}

uint32_t pd_symtab_find(const struct pd_symtab *t, uint64_t addr)
{
	const struct pd_symn *n;
	uint32_t x;

	if (t->seal)
		return seal_find(t, addr);
	/*
	 * Loaded tables are sealed or linked (pd_symtab_shrink()); one looked
	 * up while flat gets its links now, which changes none of its symbols.
	 */
	if (!t->linked)
		link_flat((struct pd_symtab *)(uintptr_t)t);
	n = t->n;
	x = t->root;
	while (x != NIL) {
		/*
		 * The next node is a cache miss either way: ask for both at
		 * once (a leaf's NIL children are the sentinel, node 0, which
		 * is as good to prefetch as to test for).
		 */
		__builtin_prefetch(&n[n[x].left]);
		__builtin_prefetch(&n[n[x].right]);
		if (addr < n[x].start)
			x = n[x].left;
		else if (addr > n[x].end || (addr == n[x].end && n[x].start != n[x].end))
			x = n[x].right;
		else
			return x;
	}
	return NIL;
}

void pd_symtab_fixup_end(struct pd_symtab *t, bool kallsyms)
{
	uint32_t prev, curr, nd, bracket_of = NIL;
	bool bracket = false;

	if (t->seal && unseal(t))
		return;
	curr = pd_symtab_first(t);
	if (curr == NIL)
		return;
	for (nd = pd_symtab_next(t, curr); nd != NIL; nd = pd_symtab_next(t, nd)) {
		struct pd_symn *p, *c;
		bool p_bracket, c_bracket;

		prev = curr;
		curr = nd;
		p = &t->n[prev];
		c = &t->n[curr];
		if (p->end != p->start || !kallsyms) {
			if (p->end == p->start)
				p->end = c->start;
			continue;
		}
		/*
		 * A kernel symbol never stretches over the gap to modules.  A
		 * name is looked at once: as the next symbol, then as this one.
		 */
		p_bracket = bracket_of == prev ? bracket : strchr(t->str + p->name, '[') != NULL;
		c_bracket = strchr(t->str + c->name, '[') != NULL;
		bracket_of = curr;
		bracket = c_bracket;
		p->end = pd_kallsyms_end(p->start, p_bracket, c->start, c_bracket);
	}
	if (t->n[curr].end == t->n[curr].start)
		t->n[curr].end = pd_kallsyms_last_end(t->n[curr].start);
}

bool pd_symtab_move_flat(struct pd_symtab *t, const uint32_t *idx, size_t n,
			 struct pd_symtab *out)
{
	size_t i;

	if (t->linked || t->seal)
		return false;
	for (i = 0; i < n; i++)
		if (idx[i] == NIL || idx[i] >= t->nr || (i && idx[i] <= idx[i - 1]))
			return false;
	for (i = 0; i < n; i++) {
		const struct pd_symn *c = &t->n[idx[i]];
		const char *name = t->str + c->name;

		if (!c->erased && !pd_symtab_insert(out, c->start, c->end, c->bind, c->type, name,
						    strlen(name))) {
			pd_symtab_free(out);
			pd_symtab_init(out);
			return false;
		}
	}
	for (i = 0; i < n; i++)
		if (!t->n[idx[i]].erased)
			pd_symtab_erase(t, idx[i]);
	return true;
}

void pd_symtab_shift(struct pd_symtab *t, uint64_t delta)
{
	uint32_t x;

	if (!delta)
		return;
	if (t->seal) {
		for (x = 0; x + 1 < t->nr; x++)
			t->seal->start[x] -= delta;
		return;
	}
	for (x = 1; x < t->nr; x++) {
		t->n[x].start -= delta;
		t->n[x].end -= delta;
	}
}

static size_t underscores(const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && s[k] == '_')
		k++;
	return k;
}

bool pd_sym_keep_first(uint64_t la, uint8_t bind_a, const char *na, size_t sa,
		       uint64_t lb, uint8_t bind_b, const char *nb, size_t sb)
{
	size_t ua, ub;

	if (lb == 0 && la > 0)
		return true;
	if (la == 0 && lb > 0)
		return false;
	if ((bind_b == PD_STB_WEAK) && bind_a != PD_STB_WEAK)
		return true;
	if ((bind_a == PD_STB_WEAK) && bind_b != PD_STB_WEAK)
		return false;
	if (bind_a == PD_STB_GLOBAL && bind_b != PD_STB_GLOBAL)
		return true;
	if (bind_b == PD_STB_GLOBAL && bind_a != PD_STB_GLOBAL)
		return false;
	ua = underscores(na, sa);
	ub = underscores(nb, sb);
	if (ub > ua)
		return true;
	if (ua > ub)
		return false;
	if (sa > sb)
		return true;
	if (sa < sb)
		return false;
	/* syscall wrapper aliases lose */
	if ((sa >= 3 && !memcmp(na, "SyS", 3)) || (sa >= 10 && !memcmp(na, "compat_SyS", 10)))
		return false;
	return true;
}

/* true when a should stay and b go */
static bool choose_a(const struct pd_symtab *t, uint32_t ia, uint32_t ib)
{
	const struct pd_symn *a = &t->n[ia], *b = &t->n[ib];
	const char *na = t->str + a->name, *nb = t->str + b->name;

	return pd_sym_keep_first(a->end - a->start, a->bind, na, strlen(na),
				 b->end - b->start, b->bind, nb, strlen(nb));
}

void pd_symtab_fixup_duplicate(struct pd_symtab *t)
{
	uint32_t nd;

	if (t->seal && unseal(t))
		return;
	nd = pd_symtab_first(t);

	while (nd != NIL) {
		uint32_t curr = nd, next;
again:
		nd = pd_symtab_next(t, curr);
		if (nd == NIL)
			break;
		next = nd;
		if (t->n[curr].start != t->n[next].start)
			continue;
		if (choose_a(t, curr, next)) {
			pd_symtab_erase(t, next);
			goto again;
		} else {
			nd = pd_symtab_next(t, curr);
			pd_symtab_erase(t, curr);
		}
	}
}
