#!/bin/sh
# check-layers.sh - enforce the include rules between the project's layers:
#   lib/       never includes jansson, protobuf-c, libelf/libdw or CUnit headers,
#              nor anything from convert/ or validate/;
#   convert/   and validate/ never include each other, and use the core only
#              through include/perfdata/ (never lib/ headers);
#   common/    what every command shares (message shape, path checks): used
#              by convert/, validate/ and symbolize/perfsym.c, it includes
#              none of them, no lib/ header and no output or symbol library.
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
	if grep -nE '#include *"(\.\./)?(convert|validate)/' "$f"; then
		bad "$f: the core must not include command code"
	fi
done
for dir in convert validate; do
	other=convert
	[ "$dir" = convert ] && other=validate
	for f in "$dir"/*.c "$dir"/*.h; do
		[ -e "$f" ] || continue
		if grep -nE "#include *\"(\.\./)?$other/" "$f"; then
			bad "$f: $dir/ must not include $other/"
		fi
		if grep -nE '#include *"(\.\./)?lib/|#include *"(internal|decode)\.h"' "$f"; then
			bad "$f: use the core only through include/perfdata/"
		fi
	done
done
for f in common/*.c common/*.h; do
	[ -e "$f" ] || continue
	if grep -nE '#include *"(\.\./)?(convert|validate|symbolize|lib)/|#include *"(internal|decode)\.h"' "$f"; then
		bad "$f: common/ is below the commands and uses the core only through include/perfdata/"
	fi
	if grep -nE '#include *[<"](jansson|protobuf-c|libelf|gelf|elfutils|dwarf|CUnit)' "$f"; then
		bad "$f: common/ must not depend on output or symbol libraries"
	fi
done
exit $fail
