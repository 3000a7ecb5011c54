#!/bin/sh
# check-layers.sh - enforce the include rules between the project's layers:
#   lib/       never includes jansson, protobuf-c, libelf/libdw or CUnit headers,
#              nor anything from convert/, validate/, common/ or symbolize/;
#   convert/   and validate/ never include each other, and use the core and
#              the symbolizer only through include/perfdata/ (never lib/ or
#              symbolize/ headers);
#   convert/'s writer folders (json/, csv/, proto/, pprof/) use their own
#              folder and convert/'s top level (the driver and what more
#              than one writer shares), never another writer's folder or
#              the command front ends of cmd/;
#   common/    what every command shares (message shape, path checks): used
#              by convert/, validate/ and symbolize/perfsym.c, it includes
#              none of them, no lib/ header and no output or symbol library;
#   symbolize/ the symbolization library uses the core only through
#              include/perfdata/ and its own headers, never convert/,
#              validate/ or common/; perfsym.c, its command, may use common/
#              (the selection options among it), never convert/, validate/
#              or lib/.
#   tests/lib/swap_twin.c, the writer of the byte-swapped twins the reader
#              is checked against, is an implementation of the layouts of
#              its own: it includes no header of lib/ and calls no
#              function of the core;
# that no two .c files depend on each other, directly or through
# others: a file depends on another when it uses a function the other
# defines and declares in a header; and that no file of lib/, common/,
# convert/, symbolize/, validate/, fuzz/ or include/ includes itself
# through the headers it includes.
set -eu
cd "$(dirname "$0")/.."
fail=0

bad() {
	echo "check-layers: $1" >&2
	fail=1
}

for f in lib/*.c lib/*.h; do
	[ -e "$f" ] || continue
	if grep -nE '#include *[<"](jansson|protobuf-c|libelf|gelf|elfutils|dwarf|CUnit)' "$f"; then
		bad "$f: the core must not depend on output or symbol libraries"
	fi
	if grep -nE '#include *"(\.\./)*(convert|validate|common|symbolize)/|#include *"sym_internal\.h"' "$f"; then
		bad "$f: the core must not include command or symbolizer code"
	fi
done
for dir in convert validate; do
	other=convert
	[ "$dir" = convert ] && other=validate
	for f in $(find "$dir" -name '*.[ch]' | sort); do
		[ -e "$f" ] || continue
		if grep -nE "#include *\"(\.\./)*$other/" "$f"; then
			bad "$f: $dir/ must not include $other/"
		fi
		if grep -nE '#include *"(\.\./)*lib/|#include *"(internal|decode)\.h"' "$f"; then
			bad "$f: use the core only through include/perfdata/"
		fi
		if grep -nE '#include *"(\.\./)*symbolize/|#include *"sym_internal\.h"' "$f"; then
			bad "$f: use the symbolizer only through include/perfdata/pd_symbols.h"
		fi
	done
done
for f in $(find convert -mindepth 2 -name '*.[ch]' | sort); do
	own=$(basename "$(dirname "$f")")
	[ "$own" = cmd ] && continue
	for other in $(cd convert && ls -d */ | tr -d /); do
		[ "$other" = "$own" ] && continue
		if grep -nE "#include *\"(\.\./)*$other/" "$f"; then
			bad "$f: a writer uses convert/'s top level, not $other/"
		fi
	done
done
for f in $(ls convert/*.c convert/*.h); do
	if grep -nE '#include *"(\.\./)*[a-z]+/' "$f" | grep -vE '"(\.\./)*(common|perfdata)/'; then
		bad "$f: convert/'s top level is below the writers and front ends"
	fi
done
for f in common/*.c common/*.h; do
	[ -e "$f" ] || continue
	if grep -nE '#include *"(\.\./)*(convert|validate|symbolize|lib)/|#include *"(internal|decode)\.h"' "$f"; then
		bad "$f: common/ is below the commands and uses the core only through include/perfdata/"
	fi
	if grep -nE '#include *[<"](jansson|protobuf-c|libelf|gelf|elfutils|dwarf|CUnit)' "$f"; then
		bad "$f: common/ must not depend on output or symbol libraries"
	fi
done
for f in symbolize/*.c symbolize/*.h; do
	[ -e "$f" ] || continue
	if grep -nE '#include *"(\.\./)*(validate|lib)/|#include *"(internal|decode)\.h"' "$f"; then
		bad "$f: symbolize/ uses the core only through include/perfdata/"
	fi
	case $f in
	symbolize/perfsym.c)
		if grep -nE '#include *"(\.\./)*convert/' "$f"; then
			bad "$f: perfsym uses no convert/ code (shared options are in common/)"
		fi
		;;
	*)
		if grep -nE '#include *"(\.\./)*(convert|common)/' "$f"; then
			bad "$f: the symbolization library must not include command code"
		fi
		;;
	esac
done
for f in tests/lib/swap_twin.c tests/lib/swap_twin.h; do
	[ -e "$f" ] || continue
	for h in lib/*.h; do
		if grep -nE "#include *\"(\.\./)*(lib/)?${h#lib/}\"" "$f"; then
			bad "$f: the twin writer is independent of the core: no lib/ header"
		fi
	done
	if grep -nE '\bpd_[a-z0-9_]+ *\(' "$f"; then
		bad "$f: the twin writer calls no function of the core"
	fi
done

# ---- cycles between .c files ----
# Functions each file defines (kernel style: the name at the start of a
# line, not static) and declares in a header; a file depends on every
# other file whose functions it names.  A cycle is a file that depends on
# itself through others.
srcs=$(ls lib/*.c common/*.c convert/*.c convert/*/*.c symbolize/*.c validate/*.c 2>/dev/null)
hdrs=$(ls include/perfdata/*.h lib/*.h common/*.h convert/*.h convert/*/*.h symbolize/*.h validate/*.h 2>/dev/null)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-layers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
cat $hdrs | grep -ow '[A-Za-z_][A-Za-z0-9_]*' | sort -u > "$tmp/declared"
for f in $srcs; do
	awk -v f="$f" '
	/^[a-z_][a-z0-9_ \t*]*[ \t*][a-z_][a-z0-9_]*\(/ && !/^static/ && !/;[ \t]*$/ &&
	!/^(return|if|else|while|for|switch)[ \t(]/ {
		s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ \t*]+/)
		if (w[n] != "main") print w[n], f
	}' "$f"
done | sort > "$tmp/defs.all"
awk 'NR == FNR { d[$1] = 1; next } ($1 in d)' "$tmp/declared" "$tmp/defs.all" > "$tmp/defs"
for f in $srcs; do
	grep -ow '[A-Za-z_][A-Za-z0-9_]*' "$f" | sort -u |
	awk -v f="$f" 'NR == FNR { use[$1] = 1; next } ($1 in use) && $2 != f { print f, $2 }' - "$tmp/defs"
done | sort -u > "$tmp/edges"
# cycles_of EDGES: "a <-> b" for every two nodes that reach each other
cycles_of() {
	awk '
	{ if (!($1 in id)) { id[$1] = n; name[n++] = $1 }
	  if (!($2 in id)) { id[$2] = n; name[n++] = $2 }
	  r[id[$1], id[$2]] = 1 }
	END {
		for (m = 0; m < n; m++)
			for (i = 0; i < n; i++)
				if ((i, m) in r)
					for (j = 0; j < n; j++)
						if ((m, j) in r)
							r[i, j] = 1
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				if ((i, j) in r && (j, i) in r)
					print name[i] " <-> " name[j]
	}' "$1"
}
cycles=$(cycles_of "$tmp/edges")
if [ -n "$cycles" ]; then
	echo "$cycles" | while read -r c; do
		echo "check-layers: dependency cycle: $c" >&2
	done
	fail=1
fi

# ---- include cycles ----
# Each #include "..." resolved as the compiler does: beside the file, then
# the -I folders of the Makefile and mk/ (include/, convert/, validate/),
# then the folders of the layers.
incfiles=$(ls lib/*.[ch] common/*.[ch] convert/*.[ch] convert/*/*.[ch] symbolize/*.[ch] \
	validate/*.[ch] fuzz/*.[ch] include/perfdata/*.h 2>/dev/null)
for f in $incfiles; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	while read -r inc; do
		echo "$f $inc"
	done
done > "$tmp/includes"
# shellcheck disable=SC2086
printf '%s\n' $incfiles | awk '
	function norm(p,   a, o, i, k, n, s) {
		k = 0
		n = split(p, a, "/")
		for (i = 1; i <= n; i++) {
			if (a[i] == "" || a[i] == ".")
				continue
			if (a[i] != "..")
				o[++k] = a[i]
			else if (k-- == 0)
				return ""
		}
		s = o[1]
		for (i = 2; i <= k; i++)
			s = s "/" o[i]
		return s
	}
	NR == FNR { have[$1] = 1; next }
	{
		dir = $1
		if (!sub(/\/[^\/]*$/, "", dir))
			dir = "."
		split(dir " include convert validate lib common symbolize .", from, " ")
		for (i = 1; i in from; i++) {
			t = norm(from[i] "/" $2)
			if (t in have) {
				print $1, t
				break
			}
		}
	}' - "$tmp/includes" > "$tmp/incedges"
cycles=$(awk '$1 == $2 { print $1 " <-> " $2 }' "$tmp/incedges"; cycles_of "$tmp/incedges")
if [ -n "$cycles" ]; then
	echo "$cycles" | while read -r c; do
		echo "check-layers: include cycle: $c" >&2
	done
	fail=1
fi
exit $fail
