#!/bin/sh
# public-symbols.sh ARCHIVE OBJECT... - build an installable static library
# that exports only the public API.
#
# The objects are linked into one relocatable object (so the library's own
# calls between its files still resolve), then every global symbol that is
# not named in a public header (include/perfdata/*.h) is made local: a
# program linking the archive cannot call, or collide with, an internal
# helper.
set -eu
cd "$(dirname "$0")/.."
out=$1
shift
tmp=$out.tmp.o
keep=$out.keep

${LD:-ld} -r -o "$tmp" "$@"
nm -g --defined-only "$tmp" | awk '{ print $3 }' | sort -u |
while read -r sym; do
	if grep -qw -- "$sym" include/perfdata/*.h; then
		echo "$sym"
	fi
done > "$keep"
${OBJCOPY:-objcopy} --keep-global-symbols="$keep" "$tmp"
rm -f "$out"
ar rcs "$out" "$tmp"
rm -f "$tmp" "$keep"
