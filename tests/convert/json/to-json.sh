#!/bin/sh
# to-json.sh - perfconv to-json against `perf data convert --to-json`.
#
# For every corpus/ input the machine's perf converts, the default document
# of perfconv is compared with perf's: the part before "samples" must be
# byte-identical, samples are compared one by one and field by field.
# Differences that are documented (perfconv(1), to-json) are normalised
# first:
#  - perf writes bytes >= 0x80 as \uffffffXX (invalid JSON); perfconv writes
#    UTF-8, or \u00XX for a byte that is not UTF-8: both become the byte;
#  - perf 6.1 prints no tracepoint fields: perfconv runs with
#    --no-trace-fields here.
# Prints the agreement rate and fails below 99.5 % of samples identical or
# below 100 % for timestamp, pid, tid, cpu, comm and ip.
# Skips (exit 0) with a message when perf is not installed; a file perf
# cannot convert is counted as skipped.
#
# Env: O = build directory (default bin), PERF = perf binary to try first
# (tests/find-perf.sh).

set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
O=${O:-bin}
case $O in /*) ;; *) O=$ROOT/$O ;; esac
PERFCONV=${PERFCONV:-$O/perfconv}
TIMEOUT=${TIMEOUT:-120}

TEST=to-json.sh
. "$ROOT/tests/harness.sh"
. "$ROOT/tests/find-perf.sh"
[ -n "$PERF" ] || skip_test "$PERF_MISSING (the comparison needs perf data convert)"
[ -x "$PERFCONV" ] || { echo "to-json.sh: $PERFCONV not built"; exit 1; }

test_tmpdir to-json-test
TMP=$T

# one line per sample: its lines without indentation and trailing comma,
# separated by \037; perf's and perfconv's escapes of high bytes undone.
# With $2 = 1 (the recording's kernel is not the running one), the symbol
# and dso of kernel frames are dropped: perf would resolve them with the
# running kernel's kallsyms (wrong names), perfconv rightly leaves them
# unresolved; such frames are compared by address only.
flatten() {
	perl -pe 's/\\uffffff([89a-f][0-9a-f])/chr(hex($1))/ge; s/\\u00([89a-f][0-9a-f])/chr(hex($1))/ge' "$1" |
	awk -v kaddr="${2:-0}" 'BEGIN { ins = 0; kframe = 0 }
	     /^\t"samples": \[/ { ins = 1; next }
	     ins && /^\t+[{}]/ { kframe = 0 }
	     ins && kaddr && /^\t+"ip": "0xffff[89a-f]/ { kframe = 1 }
	     ins && kframe && /^\t+"(symbol|dso)": / { next }
	     ins && /^\t\t\{$/ { cur = ""; next }
	     ins && /^\t\t\}/ { print cur; next }
	     ins && /^\t\]$/ { ins = 0; next }
	     ins { sub(/^\t+/, ""); sub(/,$/, ""); cur = cur "\037" $0 }'
}

head_part() {
	perl -pe 's/\\uffffff([89a-f][0-9a-f])/chr(hex($1))/ge; s/\\u00([89a-f][0-9a-f])/chr(hex($1))/ge' "$1" |
	sed -n '1,/^\t"samples": \[/p'
}

# Is the kernel that recorded FILE the running one (perf_same_kernel of
# find-perf.sh)?  A file that names neither its kernel's build id nor its
# release is taken for this kernel's.
running_kernel() {
	perf_same_kernel "$1" || [ $? -eq 2 ]
}

# A directory whose header file (data) is older than the directory (its
# data.N written later): perf's captured-on is the header file's time
dir=$(ls -d "$ROOT"/corpus/*.dir 2> /dev/null | head -1)
if [ -z "$dir" ]; then
	sk "no directory-mode input in corpus/"
else
	rm -rf "$TMP/aged.dir"
	cp -r "$dir" "$TMP/aged.dir"
	touch -d '2020-01-01 00:00:01' "$TMP/aged.dir/data"
	touch -d '2022-03-03 00:00:03' "$TMP/aged.dir"
	if ! timeout "$TIMEOUT" "$PERF" data convert -f --to-json "$TMP/aged.json" \
		-i "$TMP/aged.dir" > /dev/null 2>&1; then
		sk "aged.dir: perf data convert cannot convert it"
	else
		"$PERFCONV" to-json --no-progress "$TMP/aged.dir" 2> /dev/null > "$TMP/aged.mine"
		want=$(grep '"captured-on"' "$TMP/aged.json")
		got=$(grep '"captured-on"' "$TMP/aged.mine")
		if [ -n "$want" ] && [ "$want" = "$got" ]; then
			ok
		else
			ko "aged.dir: captured-on $got where perf has $want"
		fi
	fi
fi

files=0 kernel_by_addr=0
: > "$TMP/stats"
for f in "$ROOT"/corpus/*.data "$ROOT"/corpus/*.dir; do
	[ -e "$f" ] || continue
	name=$(basename "$f")
	ref=$TMP/ref.json
	mine=$TMP/mine.json
	rm -f "$ref"
	case $name in
	*.pipe.data)
		# perf 6.1 stops (or crashes) on pipe input; counted when it works
		timeout "$TIMEOUT" "$PERF" data convert -f --to-json "$ref" -i - < "$f" \
			> /dev/null 2>&1 || rm -f "$ref"
		"$PERFCONV" to-json --no-trace-fields --no-progress - < "$f" > "$mine" 2> /dev/null
		;;
	*)
		timeout "$TIMEOUT" "$PERF" data convert -f --to-json "$ref" -i "$f" \
			> /dev/null 2>&1 || rm -f "$ref"
		"$PERFCONV" to-json --no-trace-fields --no-progress "$f" > "$mine" 2> /dev/null
		;;
	esac
	rc=$?
	if [ ! -s "$ref" ]; then
		sk "$name: perf data convert cannot convert it"
		continue
	fi
	# perf's pipe conversion stops after the features: nothing to compare
	if ! grep -q '^		{$' "$ref" && grep -q '^		{$' "$mine" && case $name in *.pipe.data) true ;; *) false ;; esac; then
		sk "$name: perf wrote no sample for the pipe input (perf bug)"
		continue
	fi
	files=$((files + 1))
	if [ $rc -ne 0 ]; then
		ko "$name: perfconv exit $rc"
		continue
	fi
	ok
	# header part: the pipe header values differ by design (perf prints none)
	case $name in
	*.pipe.data) ;;
	*)
		if ! cmp -s "$(head_part "$ref" > "$TMP/h1"; echo "$TMP/h1")" \
			    "$(head_part "$mine" > "$TMP/h2"; echo "$TMP/h2")"; then
			ko "$name: headers differ"
			diff "$TMP/h1" "$TMP/h2" | head -10
		else
			ok
		fi
		;;
	esac
	kaddr=0
	case $name in
	*.pipe.data) running_kernel - < "$f" || kaddr=1 ;;
	*) running_kernel "$f" || kaddr=1 ;;
	esac
	kernel_by_addr=$((kernel_by_addr + kaddr))
	flatten "$ref" $kaddr > "$TMP/a"
	flatten "$mine" $kaddr > "$TMP/b"
	# samples side by side; a missing one counts as different everywhere
	awk -v name="$name" 'BEGIN { FS = "\036" }
	     NR == FNR { a[FNR] = $0; na = FNR; next }
	     { b[FNR] = $0; nb = FNR }
	     function keyed(s, k,    n, i, f, out) {
		n = split(s, f, "\037"); out = ""
		for (i = 1; i <= n; i++)
			if (index(f[i], "\"" k "\": ") == 1)
				out = out "|" f[i]
		return out
	     }
	     END {
		n = na > nb ? na : nb
		split("timestamp pid tid cpu comm ip", keys, " ")
		for (i = 1; i <= n; i++) {
			total++
			if (a[i] == b[i]) { same++ }
			else if (bad < 3) { bad++; printf "  %s sample %d differs:\n    perf:     %s\n    perfconv: %s\n", name, i, a[i], b[i] > "/dev/stderr" }
			nf = split(a[i], fa, "\037"); nfb = split(b[i], fb, "\037")
			m = nf > nfb ? nf : nfb
			for (k = 1; k <= m; k++) { ftotal++; if (fa[k] == fb[k]) fsame++ }
			for (k = 1; k <= 6; k++) {
				kt[k]++
				if (keyed(a[i], keys[k]) == keyed(b[i], keys[k])) ks[k]++
			}
		}
		printf "%s %d %d %d %d", name, total, same, ftotal, fsame
		for (k = 1; k <= 6; k++) printf " %d %d", kt[k], ks[k]
		printf "\n"
	     }' "$TMP/a" "$TMP/b" >> "$TMP/stats"
	tail -n 1 "$TMP/stats" | awk '{ if ($2 != $3) printf "  %s: %d of %d samples identical\n", $1, $3, $2 }'
done

[ $kernel_by_addr -eq 0 ] ||
	echo "  $kernel_by_addr files recorded on another kernel: their kernel frames compared by address"
# the agreement over all files: one check
if awk -v files="$files" -v skipped="$skip" '
	{ t += $2; s += $3; ft += $4; fs += $5
	  for (k = 0; k < 6; k++) { kt[k] += $(6 + 2 * k); ks[k] += $(7 + 2 * k) } }
	END {
		split("timestamp pid tid cpu comm ip", keys, " ")
		pct = t ? 100 * s / t : 100
		printf "to-json vs perf data convert --to-json: %d files compared, %d skipped\n", files, skipped
		printf "  samples identical: %d of %d (%.3f %%)\n", s, t, pct
		printf "  fields identical:  %d of %d (%.3f %%)\n", fs, ft, ft ? 100 * fs / ft : 100
		ok = pct >= 99.5
		for (k = 0; k < 6; k++) {
			kp = kt[k] ? 100 * ks[k] / kt[k] : 100
			printf "  %-9s identical in %.3f %% of samples\n", keys[k + 1], kp
			if (ks[k] != kt[k]) ok = 0
		}
		exit !ok
	}' "$TMP/stats"; then
	ok
else
	ko "target: >= 99.5 % samples, 100 % for the key fields"
fi
test_summary
