// SPDX-License-Identifier: MIT
/*
 * demangle_rust.c - Rust symbol names the way perf 6.1 prints them.
 *
 * perf demangles with libiberty's cplus_demangle() without options,
 * which tries Rust before C++ (legacy Rust names are valid C++ names):
 * so a Rust name is printed in the short form, without the hash of a
 * legacy name, the crate disambiguators of a v0 name or the types of
 * constants.
 *
 * Legacy names:  _ZN 3std 2io 5Write 9write_fmt 17h0123456789abcdef E
 * are the C++ nested-name form whose last segment is the hash
 * ("h" + 16 lower hex digits, of at least 5 different digits), with
 * "$LT$"-style escapes and ".." for "::" inside segments; anything after
 * an "E." (".llvm.1234") is not part of it.
 *
 * v0 names (RFC 2603):  _R <path> [<instantiating crate>], a grammar of
 * paths, types, generic arguments and constants with back references to
 * earlier offsets; anything after a '.' is not part of it.  A name that
 * does not parse is left alone (perf then tries C++ and prints it raw).
 * Identifiers in punycode (non-ASCII) are not decoded: such a name is
 * left raw.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym_internal.h"

/* nesting of paths and types a name may have before it is refused */
#define RUST_MAX_DEPTH	300
#define RUST_MAX_OUT	(64u << 10)

struct rust_dm {
	const char *sym;	/* after "_R" (v0) or "_ZN" (legacy) */
	size_t len;		/* of the name proper, suffix excluded */
	size_t next;
	char *out;
	size_t olen, ocap;
	unsigned int depth;
	unsigned int skipping;	/* parsing without printing */
	uint64_t bound_lifetimes;
	bool failed;
};

static void put(struct rust_dm *r, const char *s, size_t n)
{
	if (r->failed || r->skipping)
		return;
	if (r->olen + n + 1 > r->ocap) {
		size_t cap = r->ocap ? r->ocap : 128;
		char *p;

		while (cap < r->olen + n + 1)
			cap *= 2;
		if (cap > RUST_MAX_OUT) {
			r->failed = true;
			return;
		}
		p = realloc(r->out, cap);
		if (!p) {
			r->failed = true;
			return;
		}
		r->out = p;
		r->ocap = cap;
	}
	memcpy(r->out + r->olen, s, n);
	r->olen += n;
	r->out[r->olen] = '\0';
}

static void puts_(struct rust_dm *r, const char *s)
{
	put(r, s, strlen(s));
}

static void put_u64(struct rust_dm *r, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	puts_(r, buf);
}

static char peek(const struct rust_dm *r)
{
	return r->next < r->len ? r->sym[r->next] : '\0';
}

static bool eat(struct rust_dm *r, char c)
{
	if (peek(r) != c)
		return false;
	r->next++;
	return true;
}

static char take(struct rust_dm *r)
{
	if (r->next >= r->len) {
		r->failed = true;
		return '\0';
	}
	return r->sym[r->next++];
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static bool is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static int lower_hex(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* base-62 digits up to '_': "_" is 0, else the number + 1 */
static uint64_t base62(struct rust_dm *r)
{
	uint64_t x = 0;

	if (eat(r, '_'))
		return 0;
	while (!r->failed && !eat(r, '_')) {
		char c = take(r);
		uint64_t d;

		if (is_digit(c))
			d = (uint64_t)(c - '0');
		else if (is_lower(c))
			d = 10 + (uint64_t)(c - 'a');
		else if (is_upper(c))
			d = 36 + (uint64_t)(c - 'A');
		else {
			r->failed = true;
			return 0;
		}
		if (x > (UINT64_MAX - d) / 62) {
			r->failed = true;
			return 0;
		}
		x = x * 62 + d;
	}
	return r->failed ? 0 : x + 1;
}

static uint64_t disambiguator(struct rust_dm *r)
{
	return eat(r, 's') ? base62(r) + 1 : 0;
}

struct rust_ident {
	const char *s;
	size_t n;
	bool punycode;
};

/* [u] decimal-length [_] bytes (the '_' in v0 only) */
static struct rust_ident ident(struct rust_dm *r, bool v0)
{
	struct rust_ident id = { NULL, 0, false };
	size_t n;

	id.punycode = v0 && eat(r, 'u');
	if (!is_digit(peek(r))) {
		r->failed = true;
		return id;
	}
	n = (size_t)(take(r) - '0');
	if (n)
		while (is_digit(peek(r))) {
			if (n > r->len) {
				r->failed = true;
				return id;
			}
			n = n * 10 + (size_t)(take(r) - '0');
		}
	if (v0)
		eat(r, '_');
	if (n > r->len - r->next) {
		r->failed = true;
		return id;
	}
	id.s = r->sym + r->next;
	id.n = n;
	r->next += n;
	if (id.punycode)
		r->failed = true;	/* not decoded: the name stays raw */
	return id;
}

static void lifetime(struct rust_dm *r, uint64_t lt)
{
	uint64_t depth;
	char c;

	put(r, "'", 1);
	if (lt == 0) {
		put(r, "_", 1);
		return;
	}
	if (lt > r->bound_lifetimes) {
		r->failed = true;
		return;
	}
	depth = r->bound_lifetimes - lt;
	if (depth < 26) {
		c = (char)('a' + depth);
		put(r, &c, 1);
	} else {
		put(r, "_", 1);
		put_u64(r, depth);
	}
}

static void binder(struct rust_dm *r)
{
	uint64_t n, i;

	if (!eat(r, 'G'))
		return;
	n = base62(r) + 1;
	if (r->failed || n > r->len) {
		r->failed = true;
		return;
	}
	puts_(r, "for<");
	for (i = 0; i < n && !r->failed; i++) {
		if (i)
			puts_(r, ", ");
		r->bound_lifetimes++;
		lifetime(r, 1);
	}
	puts_(r, "> ");
}

static void path(struct rust_dm *r, bool in_value);
static void type(struct rust_dm *r);
static void konst(struct rust_dm *r);

static bool enter(struct rust_dm *r)
{
	if (r->failed || ++r->depth > RUST_MAX_DEPTH) {
		r->failed = true;
		return false;
	}
	return true;
}

/* B <base-62>: the element at that offset, which must lie before it */
static void backref(struct rust_dm *r, void (*fn)(struct rust_dm *, bool), bool in_value,
		    void (*fn0)(struct rust_dm *))
{
	size_t at = r->next - 1, old;
	uint64_t to = base62(r);

	if (r->failed || to >= at) {
		r->failed = true;
		return;
	}
	if (r->skipping)
		return;
	old = r->next;
	r->next = (size_t)to;
	if (fn)
		fn(r, in_value);
	else
		fn0(r);
	r->next = old;
}

static void generic_arg(struct rust_dm *r)
{
	if (eat(r, 'L'))
		lifetime(r, base62(r));
	else if (eat(r, 'K'))
		konst(r);
	else
		type(r);
}

static void generic_args(struct rust_dm *r)
{
	unsigned int i;

	for (i = 0; !r->failed && !eat(r, 'E'); i++) {
		if (i)
			puts_(r, ", ");
		generic_arg(r);
	}
}

static void path(struct rust_dm *r, bool in_value)
{
	struct rust_ident id;
	uint64_t dis;
	unsigned int skipping;
	char tag, ns;

	if (!enter(r))
		return;
	tag = take(r);
	switch (tag) {
	case 'C':		/* crate root */
		disambiguator(r);
		id = ident(r, true);
		put(r, id.s, id.n);
		break;
	case 'M':		/* <T>: inherent impl, its own path not printed */
	case 'X':		/* <T as Trait> */
		disambiguator(r);
		skipping = r->skipping;
		r->skipping = 1;
		path(r, in_value);
		r->skipping = skipping;
		/* fall through */
	case 'Y':		/* <T as Trait> */
		put(r, "<", 1);
		type(r);
		if (tag != 'M') {
			puts_(r, " as ");
			path(r, false);
		}
		put(r, ">", 1);
		break;
	case 'N':
		ns = take(r);
		if (!is_lower(ns) && !is_upper(ns)) {
			r->failed = true;
			break;
		}
		path(r, in_value);
		dis = disambiguator(r);
		id = ident(r, true);
		if (is_upper(ns)) {
			puts_(r, "::{");
			if (ns == 'C')
				puts_(r, "closure");
			else if (ns == 'S')
				puts_(r, "shim");
			else
				put(r, &ns, 1);
			if (id.n) {
				put(r, ":", 1);
				put(r, id.s, id.n);
			}
			put(r, "#", 1);
			put_u64(r, dis);
			put(r, "}", 1);
		} else if (id.n) {
			puts_(r, "::");
			put(r, id.s, id.n);
		}
		break;
	case 'I':
		path(r, in_value);
		if (in_value)
			puts_(r, "::");
		put(r, "<", 1);
		generic_args(r);
		put(r, ">", 1);
		break;
	case 'B':
		backref(r, path, in_value, NULL);
		break;
	default:
		r->failed = true;
	}
	r->depth--;
}

static const char *basic_type(char tag)
{
	switch (tag) {
	case 'a': return "i8";
	case 'b': return "bool";
	case 'c': return "char";
	case 'd': return "f64";
	case 'e': return "str";
	case 'f': return "f32";
	case 'h': return "u8";
	case 'i': return "isize";
	case 'j': return "usize";
	case 'l': return "i32";
	case 'm': return "u32";
	case 'n': return "i128";
	case 'o': return "u128";
	case 'p': return "_";
	case 's': return "i16";
	case 't': return "u16";
	case 'u': return "()";
	case 'v': return "...";
	case 'x': return "i64";
	case 'y': return "u64";
	case 'z': return "!";
	}
	return NULL;
}

/* a path that may leave its generic arguments open for a dyn binding */
static bool path_open_generics(struct rust_dm *r)
{
	bool open = false;

	if (!enter(r))
		return false;
	if (eat(r, 'B')) {
		size_t at = r->next - 1, old;
		uint64_t to = base62(r);

		if (r->failed || to >= at)
			r->failed = true;
		else if (!r->skipping) {
			old = r->next;
			r->next = (size_t)to;
			open = path_open_generics(r);
			r->next = old;
		}
	} else if (eat(r, 'I')) {
		path(r, false);
		put(r, "<", 1);
		open = true;
		generic_args(r);
	} else {
		path(r, false);
	}
	r->depth--;
	return open;
}

static void dyn_trait(struct rust_dm *r)
{
	bool open = path_open_generics(r);

	while (!r->failed && eat(r, 'p')) {
		struct rust_ident id;

		puts_(r, open ? ", " : "<");
		open = true;
		id = ident(r, true);
		put(r, id.s, id.n);
		puts_(r, " = ");
		type(r);
	}
	if (open)
		put(r, ">", 1);
}

static void fn_sig(struct rust_dm *r)
{
	uint64_t outer = r->bound_lifetimes;
	unsigned int i;

	binder(r);
	if (eat(r, 'U'))
		puts_(r, "unsafe ");
	if (eat(r, 'K')) {
		puts_(r, "extern \"");
		if (eat(r, 'C')) {
			put(r, "C", 1);
		} else {
			struct rust_ident abi = ident(r, true);
			size_t k;

			/* '-' in an ABI name is mangled as '_' */
			for (k = 0; k < abi.n; k++)
				put(r, abi.s[k] == '_' ? "-" : &abi.s[k], 1);
		}
		puts_(r, "\" ");
	}
	puts_(r, "fn(");
	for (i = 0; !r->failed && !eat(r, 'E'); i++) {
		if (i)
			puts_(r, ", ");
		type(r);
	}
	put(r, ")", 1);
	if (!eat(r, 'u')) {
		puts_(r, " -> ");
		type(r);
	}
	r->bound_lifetimes = outer;
}

static void type(struct rust_dm *r)
{
	const char *basic;
	unsigned int i;
	uint64_t outer, lt;
	char tag;

	if (!enter(r))
		return;
	tag = take(r);
	basic = basic_type(tag);
	if (basic) {
		puts_(r, basic);
		r->depth--;
		return;
	}
	switch (tag) {
	case 'R':
	case 'Q':
		put(r, "&", 1);
		if (eat(r, 'L')) {
			lt = base62(r);
			if (lt) {
				lifetime(r, lt);
				put(r, " ", 1);
			}
		}
		if (tag == 'Q')
			puts_(r, "mut ");
		type(r);
		break;
	case 'P':
		puts_(r, "*const ");
		type(r);
		break;
	case 'O':
		puts_(r, "*mut ");
		type(r);
		break;
	case 'A':
	case 'S':
		put(r, "[", 1);
		type(r);
		if (tag == 'A') {
			puts_(r, "; ");
			konst(r);
		}
		put(r, "]", 1);
		break;
	case 'T':
		put(r, "(", 1);
		for (i = 0; !r->failed && !eat(r, 'E'); i++) {
			if (i)
				puts_(r, ", ");
			type(r);
		}
		if (i == 1)
			put(r, ",", 1);
		put(r, ")", 1);
		break;
	case 'F':
		fn_sig(r);
		break;
	case 'D':
		puts_(r, "dyn ");
		outer = r->bound_lifetimes;
		binder(r);
		for (i = 0; !r->failed && !eat(r, 'E'); i++) {
			if (i)
				puts_(r, " + ");
			dyn_trait(r);
		}
		r->bound_lifetimes = outer;
		if (!eat(r, 'L')) {
			r->failed = true;
			break;
		}
		lt = base62(r);
		if (lt) {
			puts_(r, " + ");
			lifetime(r, lt);
		}
		break;
	case 'B':
		backref(r, NULL, false, type);
		break;
	default:
		r->next--;	/* a path: it reads the tag again */
		path(r, false);
	}
	r->depth--;
}

/* lower hex digits up to '_'; *v valid only for up to 16 of them */
static size_t hex_nibbles(struct rust_dm *r, uint64_t *v, size_t *start)
{
	size_t n = 0;

	*v = 0;
	*start = r->next;
	while (!r->failed && !eat(r, '_')) {
		int d = lower_hex(take(r));

		if (d < 0) {
			r->failed = true;
			return 0;
		}
		*v = (*v << 4) | (uint64_t)d;
		n++;
	}
	return n;
}

static void const_uint(struct rust_dm *r)
{
	uint64_t v;
	size_t start, n = hex_nibbles(r, &v, &start);

	if (r->failed)
		return;
	if (n > 16) {
		puts_(r, "0x");
		put(r, r->sym + start, n);
		return;
	}
	put_u64(r, v);
}

static void const_char(struct rust_dm *r)
{
	uint64_t v;
	size_t start, n = hex_nibbles(r, &v, &start);
	char buf[16];

	if (r->failed || n == 0 || n > 8) {
		r->failed = true;
		return;
	}
	put(r, "'", 1);
	switch (v) {
	case '\t': puts_(r, "\\t"); break;
	case '\r': puts_(r, "\\r"); break;
	case '\n': puts_(r, "\\n"); break;
	case '\\': puts_(r, "\\\\"); break;
	case '\'': puts_(r, "\\'"); break;
	default:
		if (v >= 0x20 && v < 0x7f) {
			buf[0] = (char)v;
			put(r, buf, 1);
		} else {
			snprintf(buf, sizeof(buf), "\\u{%llx}", (unsigned long long)v);
			puts_(r, buf);
		}
	}
	put(r, "'", 1);
}

static void konst(struct rust_dm *r)
{
	uint64_t v;
	size_t start;
	char tag;

	if (!enter(r))
		return;
	if (eat(r, 'B')) {
		backref(r, NULL, false, konst);
		r->depth--;
		return;
	}
	tag = take(r);
	switch (tag) {
	case 'p':
		put(r, "_", 1);
		break;
	case 'h': case 't': case 'm': case 'y': case 'o': case 'j':
		const_uint(r);
		break;
	case 'a': case 's': case 'l': case 'x': case 'n': case 'i':
		if (eat(r, 'n'))
			put(r, "-", 1);
		const_uint(r);
		break;
	case 'b':
		if (hex_nibbles(r, &v, &start) != 1 || v > 1)
			r->failed = true;
		else
			puts_(r, v ? "true" : "false");
		break;
	case 'c':
		const_char(r);
		break;
	default:
		r->failed = true;
	}
	r->depth--;
}

/* one "$..$" escape of a legacy segment: its character, or 0 */
static char legacy_escape(const char *e, size_t n, size_t *used)
{
	static const struct { char code[3]; char c; } two[] = {
		{ "SP", '@' }, { "BP", '*' }, { "RF", '&' }, { "LT", '<' },
		{ "GT", '>' }, { "LP", '(' }, { "RP", ')' },
	};
	size_t k, len = 0;
	char c = 0;

	if (n < 3 || e[0] != '$')
		return 0;
	if (e[1] == 'C') {
		c = ',';
		len = 1;
	} else if (n > 3) {
		len = 2;
		for (k = 0; k < sizeof(two) / sizeof(two[0]); k++)
			if (e[1] == two[k].code[0] && e[2] == two[k].code[1])
				c = two[k].c;
		if (!c && e[1] == 'u' && n > 4) {
			int hi = lower_hex(e[2]), lo = lower_hex(e[3]);

			len = 3;
			/* printable ASCII only */
			if (hi < 0 || lo < 0 || hi > 7 || (hi << 4 | lo) < 0x20 ||
			    (hi << 4 | lo) == 0x7f)
				return 0;
			c = (char)(hi << 4 | lo);
		}
	}
	if (!c || n - 1 <= len || e[1 + len] != '$')
		return 0;
	*used = len + 2;
	return c;
}

static void legacy_segment(struct rust_dm *r, const char *s, size_t n)
{
	/* a leading '_' only keeps an escape from starting the segment */
	if (n >= 2 && s[0] == '_' && s[1] == '$') {
		s++;
		n--;
	}
	while (n > 0 && !r->failed) {
		size_t used = 0;

		if (s[0] == '$') {
			char c = legacy_escape(s, n, &used);

			if (!c) {
				put(r, s, n);	/* not an escape: the rest as it is */
				return;
			}
			put(r, &c, 1);
		} else if (s[0] == '.') {
			if (n >= 2 && s[1] == '.') {
				puts_(r, "::");
				used = 2;
			} else {
				put(r, ".", 1);
				used = 1;
			}
		} else {
			while (used < n && s[used] != '$' && s[used] != '.')
				used++;
			put(r, s, used);
		}
		s += used;
		n -= used;
	}
}

static bool legacy_hash(const struct rust_ident *id)
{
	unsigned int seen = 0, count = 0;
	size_t i;

	if (id->n != 17 || id->s[0] != 'h')
		return false;
	for (i = 1; i < 17; i++) {
		int d = lower_hex(id->s[i]);

		if (d < 0)
			return false;
		seen |= 1u << d;
	}
	for (; seen; seen >>= 1)
		count += seen & 1;
	return count >= 5;
}

static char *legacy(struct rust_dm *r)
{
	struct rust_ident id = { NULL, 0, false };
	size_t len = r->len;
	bool after_dot = true;

	/* the name ends at an 'E' that ends the string or precedes a '.' */
	while (len > 0 && !(after_dot && r->sym[len - 1] == 'E')) {
		after_dot = r->sym[len - 1] == '.';
		len--;
	}
	if (len == 0)
		return NULL;
	r->len = len - 1;
	if (r->len <= 19 || memcmp(r->sym + r->len - 19, "17h", 3))
		return NULL;
	do {
		id = ident(r, false);
		if (r->failed || !id.n)
			return NULL;
	} while (r->next < r->len);
	if (!legacy_hash(&id))
		return NULL;
	/* print every segment but the hash */
	r->next = 0;
	r->len -= 19;
	do {
		if (r->next)
			puts_(r, "::");
		id = ident(r, false);
		legacy_segment(r, id.s, id.n);
	} while (!r->failed && r->next < r->len);
	return r->failed ? NULL : r->out;
}

char *pd_demangle_rust(const char *name)
{
	struct rust_dm r;
	bool v0;
	const char *p;

	/*
	 * A legacy name ends in its hash, "17h" and 16 hex digits: a C++
	 * name, nearly every _ZN name, goes back to the C++ demangler
	 * without the walk over its characters below.
	 */
	if (!strncmp(name, "_ZN", 3) && !strstr(name + 3, "17h"))
		return NULL;
	memset(&r, 0, sizeof(r));
	if (!strncmp(name, "_ZN", 3)) {
		r.sym = name + 3;
		v0 = false;
	} else if (!strncmp(name, "_R", 2)) {
		r.sym = name + 2;
		v0 = true;
		if (!is_upper(r.sym[0]))	/* a path; a version number is not known */
			return NULL;
	} else {
		return NULL;
	}
	for (p = r.sym; *p; p++) {
		if (v0 && *p == '.')
			break;		/* a suffix (".llvm.123") is not part of it */
		if (*p == '_' || is_digit(*p) || is_lower(*p) || is_upper(*p))
			continue;
		if (!v0 && (*p == '$' || *p == '.' || *p == ':' || *p == '@'))
			continue;
		return NULL;
	}
	r.len = (size_t)(p - r.sym);
	if (!v0) {
		if (!legacy(&r)) {
			free(r.out);
			return NULL;
		}
		return r.out;
	}
	path(&r, true);
	/* the instantiating crate, not printed */
	if (!r.failed && r.next < r.len) {
		r.skipping = 1;
		path(&r, false);
		r.skipping = 0;
	}
	if (r.failed || r.next != r.len || !r.out) {
		free(r.out);
		return NULL;
	}
	return r.out;
}
