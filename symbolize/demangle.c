// SPDX-License-Identifier: MIT
/*
 * demangle.c - C++ symbol names the way perf 6.1 prints them.
 *
 * perf 6.1 (Debian build) demangles with libiberty and no options, which
 * prints the qualified name without parameter list or return type:
 * _ZN2ns4overEl -> ns::over.  Rust names are tried first, as libiberty
 * does (demangle_rust.c).  libiberty is not a shared library on Debian,
 * so the demangler of libstdc++ (__cxa_demangle, looked up at run time so
 * that nothing is linked when no C++ runtime is installed) produces the
 * full signature and the parameters and return type are cut off here.
 * OCaml names, which perf tries when C++ demangling fails, are decoded
 * here too.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "sym_internal.h"

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn cxa(void)
{
	static cxa_demangle_fn fn;
	static bool tried;

	if (!tried) {
		void *h;

		tried = true;
		h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
		if (h)
			*(void **)&fn = dlsym(h, "__cxa_demangle");
	}
	return fn;
}

/* index of the opening `open` matching the closing `close_ch` at `close`, or -1 */
static long matching_open(const char *s, long close, char open, char close_ch)
{
	int depth = 0;
	long i;

	for (i = close; i >= 0; i--) {
		if (s[i] == close_ch)
			depth++;
		else if (s[i] == open && --depth == 0)
			return i;
	}
	return -1;
}

static long open_paren(const char *s, long close)
{
	return matching_open(s, close, '(', ')');
}

/* a character that continues an identifier */
static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* the keyword "operator" starts at s[i], as a word of its own */
static bool is_operator(const char *s, long i)
{
	if (strncmp(s + i, "operator", 8) || (i > 0 && s[i - 1] != ':' && s[i - 1] != ' '))
		return false;
	return !ident_char(s[i + 8]);
}

/* s starts with a cv or ref qualifier: "const", "volatile", "&", "&&" */
static bool qualifier_at(const char *s)
{
	size_t n;

	if (*s == '&')
		return true;
	if (!strncmp(s, "const", 5))
		n = 5;
	else if (!strncmp(s, "volatile", 8))
		n = 8;
	else
		return false;
	return !ident_char(s[n]);
}

static long open_bracket(const char *s, long close)
{
	return matching_open(s, close, '[', ']');
}

/*
 * Where the declarator in s[from, to) names what it points to: past a
 * leading "*", "&" or "Class::*" (at the top level, before the name's
 * parameters), or -1 when it starts with none (the "()" of "operator()",
 * the empty "(*)" group of a conversion operator's type).
 */
static long declarator_name(const char *s, long from, long to)
{
	int angle = 0, paren = 0;
	long i;

	if (s[from] == '*' || s[from] == '&') {
		while (from < to && (s[from] == '*' || s[from] == '&' || s[from] == ' '))
			from++;
		return from;
	}
	for (i = from; i + 2 < to; i++) {
		if (s[i] == '<')
			angle++;
		else if (s[i] == '>' && angle > 0)
			angle--;
		else if (s[i] == '(' && !angle)
			paren++;
		else if (s[i] == ')' && !angle && paren > 0)
			paren--;
		else if (!angle && !paren && !strncmp(s + i, "::*", 3))
			return i + 3;
		if (paren && !angle)
			return -1;	/* the name's parameters: no member pointer before */
	}
	return -1;
}

/*
 * A function returning a pointer to a function, an array or a member is
 * demangled with its name inside the declarator of the return type:
 * "int (*foo<int>())()", "int (*bar<long>(long)) [3]",
 * "int (A::*baz<int>(int))(int)".  libiberty, without parameters, prints
 * the name alone, as it does for any other return type.  Leaves in s
 * what the declarator holds ("foo<int>()"), the way a function returning
 * a plain type is written; unwraps nested declarators (a pointer to a
 * function returning a pointer to a function) one after the other.
 */
static void unwrap_declarator(char *s)
{
	for (;;) {
		long end = (long)strlen(s) - 1, close, open, name;

		while (end >= 0 && s[end] == ' ')
			end--;
		if (end >= 0 && s[end] == ']') {
			/* the returned array's bounds: " [3]", "[3][4]" */
			while (end >= 0 && s[end] == ']') {
				end = open_bracket(s, end) - 1;
				while (end >= 0 && s[end] == ' ')
					end--;
			}
		} else {
			/* the returned function's parameters and qualifiers */
			while (end >= 0 && s[end] != ')') {
				if (s[end] == '>' || s[end] == ']' || s[end] == ':' || s[end] == '}')
					return;
				end--;
			}
			if (end < 0)
				return;
			end = open_paren(s, end) - 1;
		}
		if (end < 1 || s[end] != ')')
			return;
		close = end;
		open = open_paren(s, close);
		if (open < 0 || (open > 0 && s[open - 1] != ' '))
			return;
		name = declarator_name(s, open + 1, close);
		if (name < 0 || name >= close)
			return;
		memmove(s, s + name, (size_t)(close - name));
		s[close - name] = '\0';
	}
}

/*
 * libiberty without parameters reads no clone suffix (.isra.0, .part.0,
 * .cold), which libstdc++ prints as " [clone .isra.0]": cut it
 */
static void cut_clone_suffix(char *s)
{
	char *clone = strstr(s, " [clone ");

	if (clone)
		*clone = '\0';
}

/* drop "(params) const" and a leading return type, keep the name */
static void strip_signature(char *s)
{
	long len, end, op, i;
	int angle = 0, paren = 0;
	long last_space = -1;

	cut_clone_suffix(s);
	unwrap_declarator(s);
	len = (long)strlen(s);
	end = len - 1;

	/* trailing qualifiers after the parameter list */
	while (end >= 0 && s[end] != ')') {
		/* not a function signature: a local static is "f(int)::x" */
		if (s[end] == '>' || s[end] == ']' || s[end] == ':')
			return;
		end--;
	}
	if (end < 0)
		return;
	op = open_paren(s, end);
	if (op <= 0)
		return;
	s[op] = '\0';
	/*
	 * A return type (of a template function) comes first, separated by
	 * the last space outside <>, () and {} ("(anonymous namespace)", a
	 * "{lambda(int, int)#1}").  Spaces further on belong to the name:
	 * those of an operator's name ("operator new", a conversion operator
	 * "operator unsigned long", "operator char const*"), so the search
	 * ends at "operator", and those before the qualifiers of the function
	 * a local entity is in ("A::f() const::{lambda()#1}::operator()").
	 */
	for (i = 0; i < op; i++) {
		if (s[i] == '(' || s[i] == '{') {
			paren++;
		} else if ((s[i] == ')' || s[i] == '}') && paren > 0) {
			paren--;
		} else if (paren) {
			continue;
		} else if (s[i] == '<') {
			angle++;
		} else if (s[i] == '>' && angle > 0) {
			angle--;
		} else if (angle) {
			continue;
		} else if (is_operator(s, i)) {
			break;
		} else if (s[i] == ' ' && !qualifier_at(s + i + 1)) {
			last_space = i;
		}
	}
	if (last_space >= 0)
		memmove(s, s + last_space + 1, strlen(s + last_space + 1) + 1);
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * perf classifies bytes with the kernel's ctype table, which is Latin-1:
 * besides A-Z, 0xc0-0xde but 0xd7 are capitals and 0xdf-0xff but 0xf7
 * small letters, so that a UTF-8 lead byte counts as a letter.
 */
static bool latin1_upper(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0xde && c != 0xd7);
}

static bool latin1_alpha(unsigned char c)
{
	return latin1_upper(c) || (c >= 'a' && c <= 'z') || (c >= 0xdf && c != 0xf7);
}

/*
 * An OCaml native-code name, "caml" and a capital letter (camlStdlib__List__map_123),
 * as perf 6.1 prints it when C++ demangling fails: the prefix dropped,
 * each "__" a ".", each "$" and two hex digits the byte they spell
 * (Stdlib.List.map_123); NULL for any other name.
 */
static char *demangle_ocaml(const char *name)
{
	size_t len, i, j = 0;
	char *out;

	if (strncmp(name, "caml", 4) || !latin1_upper((unsigned char)name[4]))
		return NULL;
	len = strlen(name);
	out = malloc(len + 1);
	if (!out)
		return NULL;
	for (i = 4; i < len; i++) {
		if (name[i] == '_' && name[i + 1] == '_') {
			out[j++] = '.';
			i++;
		} else if (name[i] == '$' && hex_value(name[i + 1]) >= 0 &&
			   hex_value(name[i + 2]) >= 0) {
			out[j++] = (char)(hex_value(name[i + 1]) << 4 | hex_value(name[i + 2]));
			i += 2;
		} else {
			out[j++] = name[i];
		}
	}
	out[j] = '\0';
	return out;
}

/* a Java signature's state while it is read (java_signature()) */
enum java_part {
	JAVA_PREFIX,	/* before the class: copied until its 'L' */
	JAVA_CLASS,	/* the class, '/' between packages */
	JAVA_METHOD,	/* after the class's ';', up to '(' */
	JAVA_ARG,	/* the parameter types */
	JAVA_ARG_CLASS,	/* a class among them */
};

/* the name of a one-letter Java type, or NULL */
static const char *java_base_type(char c)
{
	switch (c) {
	case 'B': return "byte";
	case 'C': return "char";
	case 'D': return "double";
	case 'F': return "float";
	case 'I': return "int";
	case 'J': return "long";
	case 'S': return "short";
	case 'Z': return "boolean";
	}
	return NULL;
}

/* appends to a buffer of cap bytes that perf's fixed-size one cuts */
struct java_out {
	char *buf;
	size_t len, cap;	/* len < cap: room for the final NUL */
};

static void java_put(struct java_out *o, const char *s)
{
	while (*s && o->len < o->cap - 1)
		o->buf[o->len++] = *s++;
}

/*
 * A Java method signature as the name of an ELF symbol
 * (Ljava/lang/String;indexOf(I)I), as perf 6.1 prints it when C++ and
 * OCaml demangling fail: java.lang.String.indexOf(int), without the
 * return type.  perf's rules are kept as they are: its output is cut at
 * three times the name's length; a class parameter takes no brackets
 * and the brackets of an array of classes go to the next base type
 * ([[Ljava/lang/String;S is "java.lang.String, short[][]"); a '.' joins
 * class and method only where the method starts with a letter
 * (Lp/C;<init>()V is p.C<init>()).  NULL when the name breaks the form.
 */
static char *demangle_java(const char *name)
{
	const char *close = strrchr(name, ')'), *q;
	enum java_part part = JAVA_PREFIX;
	struct java_out o;
	int array = 0, nargs = 0;

	if (!close)
		return NULL;
	o.cap = strlen(name) * 3 + 1;
	o.len = 0;
	o.buf = malloc(o.cap);
	if (!o.buf)
		return NULL;
	for (q = name; q <= close && o.len < o.cap - 1; q++) {
		const char *base = java_base_type(*q);
		char c[2] = { *q, '\0' };

		if (*q == 'L' && (part == JAVA_PREFIX || part == JAVA_ARG)) {
			if (part == JAVA_ARG && nargs++)
				java_put(&o, ", ");
			part = part == JAVA_PREFIX ? JAVA_CLASS : JAVA_ARG_CLASS;
		} else if ((base || *q == 'V') && part == JAVA_ARG) {
			if (base && nargs++)
				java_put(&o, ", ");
			java_put(&o, base ? base : "void");
			for (; array > 0; array--)
				java_put(&o, "[]");
			array = 0;
		} else if (*q == '[') {
			if (part != JAVA_ARG)
				goto fail;
			array++;
		} else if (*q == '(') {
			if (part != JAVA_METHOD)
				goto fail;
			java_put(&o, c);
			part = JAVA_ARG;
		} else if (*q == ')') {
			if (part != JAVA_ARG)
				goto fail;
			java_put(&o, c);
			nargs = 0;
		} else if (*q == ';') {
			if (part != JAVA_CLASS && part != JAVA_ARG_CLASS)
				goto fail;
			if (part == JAVA_CLASS && latin1_alpha((unsigned char)q[1]))
				java_put(&o, ".");
			part = part == JAVA_CLASS ? JAVA_METHOD : JAVA_ARG;
		} else if (*q == '/') {
			if (part != JAVA_CLASS && part != JAVA_ARG_CLASS)
				goto fail;
			java_put(&o, ".");
		} else {
			java_put(&o, c);
		}
	}
	o.buf[o.len] = '\0';
	return o.buf;
fail:
	free(o.buf);
	return NULL;
}

/* at most this many shorter forms of a name libstdc++ refuses are tried */
#define PREFIX_TRIES 8

/*
 * A name libstdc++'s demangler refuses that libiberty, asked for no
 * parameters, prints: that mode reads the top-level name and ignores what
 * follows it, where libstdc++ (always with parameters) must read
 * everything.  Two kinds occur in real binaries: parameter types whose
 * substitutions only resolve in the name's own scope (a few of V8's
 * templates), and the sequence number and '_' ending a reference
 * temporary (_ZGRN1A1xE_, "reference temporary #0 for A::x").  The
 * longest prefix ending after an 'E' or before a '_' that libstdc++
 * accepts is that name; NULL when none of the last PREFIX_TRIES does.
 */
static char *demangle_prefix(cxa_demangle_fn fn, const char *name)
{
	size_t len = strlen(name), i;
	int tries = 0;
	char *prefix, *out = NULL;

	prefix = malloc(len + 1);
	if (!prefix)
		return NULL;
	for (i = len - 1; i > 2 && tries < PREFIX_TRIES && !out; i--) {
		int status = 0;

		if (name[i - 1] != 'E' && name[i] != '_')
			continue;
		tries++;
		memcpy(prefix, name, i);
		prefix[i] = '\0';
		out = fn(prefix, NULL, NULL, &status);
		if (status != 0) {
			free(out);
			out = NULL;
		}
	}
	free(prefix);
	return out;
}

/*
 * A C++ or Rust name as perf prints it, or NULL when the name is neither
 * (or no demangler of C++ can be loaded).
 */
static char *demangle_cxx(const char *name)
{
	cxa_demangle_fn fn;
	char *out;
	int status = 0;

	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	/* libiberty tries Rust first: a legacy Rust name is C++ too */
	out = pd_demangle_rust(name);
	if (out || name[1] == 'R')
		return out;
	fn = cxa();
	if (!fn)
		return NULL;
	out = fn(name, NULL, NULL, &status);
	if (status != 0 || !out) {
		free(out);
		out = demangle_prefix(fn, name);
		if (!out)
			return NULL;
	}
	/*
	 * libiberty cuts the parameters of the top-level function only: a
	 * thunk (_ZTh, _ZTv, _ZTc) prints the function it calls with them,
	 * "non-virtual thunk to A::f(int)", and so do the other special
	 * names ("transaction clone for A::f() const", _ZGTt), but not
	 * their clone suffix (a thunk's ".cold").
	 */
	if (strncmp(name, "_ZT", 3) && strncmp(name, "_ZG", 3))
		strip_signature(out);
	else
		cut_clone_suffix(out);
	return out;
}

char *pd_sym_demangle(const char *name)
{
	return name ? pd_demangle(name) : NULL;
}

char *pd_demangle(const char *name)
{
	char *out = demangle_cxx(name);

	/* perf's order: C++ (and Rust), then OCaml, then Java */
	if (!out)
		out = demangle_ocaml(name);
	if (!out)
		out = demangle_java(name);
	return out;
}
