#!/bin/sh
# golden.sh - the output of every command, byte for byte, against the
# golden outputs committed in corpus/golden/.
#
#   sh tests/golden.sh             compare (make test runs it)
#   sh tests/golden.sh --update    rewrite the goldens that differ (make golden)
#   sh tests/golden.sh [--update] NAME...   only these inputs (basic.data, bad/empty.data)
#
# For every file of corpus/ and corpus/bad/, the outputs of
#   perfconv dump, perfconv info --json,
#   perfconv to-json (perf's document) and to-json --full,
#   perfconv to-csv -o DIR (every table written by default),
#   perfconv to-proto and to-proto --quipper-compat, decoded with
#     `protoc --decode_raw` (field numbers, no schema: a renumbered field
#     shows up, and the goldens need nothing outside the repository),
#   perfconv to-pprof, decompressed and decoded the same way,
#   perfcheck --format text, json and junit
# are kept with each command's exit status and standard error in
# corpus/golden/NAME.tar.zst (NAME with "/" as "_").  One comparison per
# input and command; a comparison that cannot run (no protoc) is counted
# as skipped, never as passed.
#
# Nothing may depend on the machine, so the commands run:
#  - on copies of the inputs whose modification time is fixed (to-json's
#    "captured-on" is the input's mtime), under their corpus/ paths
#    (diagnostics name them);
#  - with an empty --symfs: no binary, build-id cache, kallsyms or vdso of
#    this machine is read, every user and kernel frame stays an address;
#  - with LC_ALL=C and TZ=UTC, HOME in the temporary directory.
# Symbol resolution itself is compared with perf in tests/symbolize/symbols.sh,
# tests/convert/json/to-json.sh and tests/convert/csv/to-csv.sh.
#
# Env: O = build directory (default bin), KEEP=1 keeps the temporary
# directory.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-bin}
case $O in /*) ;; *) O=$ROOT/$O ;; esac
PERFCONV=$O/perfconv
PERFCHECK=$O/perfcheck
GOLDEN=$ROOT/corpus/golden

update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi

for p in "$PERFCONV" "$PERFCHECK"; do
	[ -x "$p" ] || { echo "golden.sh: $p not built: run make" >&2; exit 1; }
done
command -v zstd > /dev/null 2>&1 ||
	{ echo "golden.sh: zstd missing (Debian package zstd, see scripts/install-deps.sh)" >&2; exit 1; }
have_protoc=1
if ! command -v protoc > /dev/null 2>&1; then
	have_protoc=0
	if [ $update = 1 ]; then
		echo "golden.sh: --update needs protoc (Debian package protobuf-compiler)" >&2
		exit 1
	fi
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/golden-test.XXXXXX") || exit 1
cleanup() {
	if [ "${KEEP:-0}" = 1 ]; then echo "golden.sh: kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

export LC_ALL=C TZ=UTC HOME="$T/home"
unset PERF_BUILDID_DIR LANGUAGE 2> /dev/null || true
mkdir -p "$T/home" "$T/run/symfs" "$T/run/corpus/bad"

# the inputs, by name relative to corpus/
if [ $# -gt 0 ]; then
	names="$*"
else
	names=$(cd "$ROOT/corpus" && ls -d *.data *.dir bad/*.data 2> /dev/null)
fi
for n in $names; do
	[ -e "$ROOT/corpus/$n" ] || { echo "golden.sh: no corpus/$n" >&2; exit 1; }
	cp -R "$ROOT/corpus/$n" "$T/run/corpus/$n" || exit 1
done
find "$T/run/corpus" -exec touch -h -d '2000-01-01 00:00:00 UTC' {} + || exit 1

pass=0 fail=0 skip=0

# run OUTDIR TAG CMD...: stdout to OUTDIR/TAG.out, exit status and stderr
# to OUTDIR/TAG.status
run() {
	d=$1 tag=$2
	shift 2
	"$@" > "$d/$tag.out" 2> "$T/stderr" < /dev/null
	rc=$?
	{ echo "exit $rc"; cat "$T/stderr"; } > "$d/$tag.status"
}

# the outputs of every command for input corpus/$1, into directory $2
generate() {
	in=corpus/$1 d=$2
	mkdir -p "$d"
	run "$d" dump "$PERFCONV" dump "$in"
	run "$d" info "$PERFCONV" info --json "$in"
	run "$d" to-json "$PERFCONV" to-json --no-progress --symfs symfs "$in"
	run "$d" to-json-full "$PERFCONV" to-json --full --no-progress "$in"
	run "$d" to-csv "$PERFCONV" to-csv --symfs symfs -o "$d/to-csv.tables" "$in"
	[ -s "$d/to-csv.out" ] || rm -f "$d/to-csv.out"
	for mode in to-proto to-proto-quipper; do
		case $mode in
		to-proto) opt= ;;
		*) opt=--quipper-compat ;;
		esac
		# shellcheck disable=SC2086
		run "$d" $mode "$PERFCONV" to-proto $opt -o out.pb "$in"
		rm -f "$d/$mode.out"
		if [ -f out.pb ] && [ $have_protoc = 1 ]; then
			protoc --decode_raw < out.pb > "$d/$mode.txt" 2> "$d/$mode.protoc" ||
				echo "protoc exit $?" >> "$d/$mode.protoc"
			[ -s "$d/$mode.protoc" ] || rm -f "$d/$mode.protoc"
		elif [ -f out.pb ]; then
			echo "not decoded: protoc missing" > "$d/$mode.txt"
		fi
		rm -f out.pb
	done
	run "$d" to-pprof "$PERFCONV" to-pprof --symfs symfs -o out.pb.gz "$in"
	rm -f "$d/to-pprof.out"
	if [ -f out.pb.gz ] && [ $have_protoc = 1 ]; then
		gzip -dc out.pb.gz | protoc --decode_raw > "$d/to-pprof.txt" 2> "$d/to-pprof.protoc" ||
			echo "protoc exit $?" >> "$d/to-pprof.protoc"
		[ -s "$d/to-pprof.protoc" ] || rm -f "$d/to-pprof.protoc"
	elif [ -f out.pb.gz ]; then
		echo "not decoded: protoc missing" > "$d/to-pprof.txt"
	fi
	rm -f out.pb.gz
	for fmt in text json junit; do
		run "$d" perfcheck-$fmt "$PERFCHECK" --format $fmt "$in"
	done
}

# the files of one command's comparison in directory $1
files_of() {
	(cd "$1" && ls -d "$2".* 2> /dev/null; [ -d "$2.tables" ] && ls -d "$2".tables/* 2> /dev/null) |
		sort -u
}

# compare NAME TAG: new outputs against the golden ones
compare() {
	n=$1 tag=$2
	case $tag in
	to-proto*|to-pprof)
		if [ $have_protoc = 0 ]; then
			skip=$((skip + 1))
			return
		fi
		;;
	esac
	a=$(files_of old "$tag")
	b=$(files_of new "$tag")
	if [ "$a" != "$b" ]; then
		fail=$((fail + 1))
		echo "  FAIL $n $tag: files differ: golden [$(echo $a)], now [$(echo $b)]"
		return
	fi
	for f in $a; do
		[ -d "old/$f" ] && continue
		if ! cmp -s "old/$f" "new/$f"; then
			fail=$((fail + 1))
			echo "  FAIL $n $tag: $f differs from the golden output:"
			diff -u "old/$f" "new/$f" | sed -n '3,30p' | cut -c1-200 | sed 's/^/    /'
			return
		fi
	done
	pass=$((pass + 1))
}

tags="dump info to-json to-json-full to-csv to-proto to-proto-quipper to-pprof perfcheck-text
	perfcheck-json perfcheck-junit"
mkdir -p "$GOLDEN"
updated=0 ninputs=0
cd "$T/run" || exit 1
for n in $names; do
	ninputs=$((ninputs + 1))
	g=$GOLDEN/$(echo "$n" | tr / _).tar.zst
	rm -rf new old
	mkdir -p old
	generate "$n" new
	if [ -f "$g" ]; then
		zstd -dc "$g" | tar -xf - -C old || { echo "golden.sh: cannot read $g" >&2; exit 1; }
	elif [ $update = 0 ]; then
		echo "  FAIL $n: no golden output $g (make golden writes it)"
		fail=$((fail + 1))
		continue
	fi
	if [ $update = 1 ]; then
		if [ -f "$g" ] && diff -r old new > /dev/null 2>&1; then
			continue
		fi
		(cd new && find . -mindepth 1 | LC_ALL=C sort |
			sed 's|^\./||' > "$T/list" &&
			tar --no-recursion --mtime=@0 --owner=0 --group=0 --numeric-owner \
				--format=gnu -cf - -T "$T/list") |
			zstd -q -9 > "$g.tmp" && mv "$g.tmp" "$g" ||
			{ echo "golden.sh: cannot write $g" >&2; rm -f "$g.tmp"; exit 1; }
		echo "  updated corpus/golden/$(basename "$g")"
		updated=$((updated + 1))
		continue
	fi
	for tag in $tags; do
		compare "$n" "$tag"
	done
done

if [ $update = 1 ]; then
	# goldens of inputs that are gone
	if [ $# -eq 0 ]; then
		for g in "$GOLDEN"/*.tar.zst; do
			[ -e "$g" ] || continue
			n=$(basename "$g" .tar.zst)
			found=0
			for m in $names; do
				[ "$(echo "$m" | tr / _)" = "$n" ] && found=1 && break
			done
			[ $found = 1 ] || { rm -f "$g"; echo "  removed corpus/golden/$n.tar.zst"; }
		done
	fi
	echo "golden.sh: $updated of $ninputs golden outputs rewritten"
	exit 0
fi
[ $have_protoc = 1 ] || echo "golden.sh: SKIP: protoc missing (Debian package protobuf-compiler): to-proto outputs not compared"
echo "golden.sh: $pass passed, $fail failed, $skip skipped ($ninputs inputs)"
if [ $fail -ne 0 ]; then
	echo "golden.sh: FAIL; after an intended change of output: make golden, then review and commit corpus/golden/"
	exit 1
fi
