# fold-stacks.sh - sourced by the tests that compare stacks with perf and
# pprof: the one folding of their outputs into the shapes to-csv writes.
#
#   . "$ROOT/tests/fold-stacks.sh"
#   perf script -F comm,tid,ip,sym,dso | fold_script    # "comm;outer;...;inner COUNT"
#   perf script -F comm,tid,ip,sym,dso | chain_script   # "outer;...;inner COUNT"
#   pprof_traces_fold < (go tool pprof -traces output)  # as fold_script
#   perf script -F comm,tid,ip,sym,dso | frame_lines    # "HEADER | ADDR SYM (DSO)"
#
# Frames are named as stackcollapse-perf names them (FOLD_AWK below): the
# folded table of to-csv is compared with these in to-csv.sh, unwind.sh
# and to-pprof.sh.  Lines come out unsorted.  frame_lines keeps every
# sample and frame as printed, for a frame-by-frame comparison of perf
# script and perfsym (symbols.sh, unwind.sh).

# Awk functions shared by the folders:
#   tidy(f)         stackcollapse-perf's tidying of a frame name: ';'
#                   becomes ':', an argument list is cut (not "(anonymous
#                   namespace)" nor in a ".(...)." name), quotes go;
#   frame(line)     one frame line of perf script ("\tADDR SYM (DSO)"):
#                   sets SYM and DSO;
#   named(sym, dso) an unresolved address in a known DSO as "[basename]";
#   fold_add(s, sep, n)
#                   count a stack n times: s, then FR[N] .. FR[1]
#                   (outermost first) joined by ';', sep before the first;
#   fold_print()    every stack and its count.
FOLD_AWK='
function tidy(f,   i, j, rest) {
	gsub(/;/, ":", f)
	if (f !~ /\.\(.*\)\./) {
		rest = f
		i = 0
		while ((j = index(rest, "(")) > 0) {
			if (substr(rest, j, 21) != "(anonymous namespace)") {
				f = substr(f, 1, i + j - 1)
				break
			}
			i += j
			rest = substr(rest, j + 1)
		}
	}
	gsub(/["\047]/, "", f)
	return f
}
function frame(line,   i, p) {
	sub(/^[ \t]+[0-9a-f]+ /, "", line)
	p = 0
	for (i = length(line); i > 0; i--)
		if (substr(line, i, 2) == " (") { p = i; break }
	SYM = substr(line, 1, p - 1)
	DSO = substr(line, p + 2, length(line) - p - 2)
}
function named(sym, dso) {
	if (sym != "[unknown]" || dso == "[unknown]")
		return sym
	sub(/.*\//, "", dso)
	return "[" dso "]"
}
function fold_add(s, sep, n,   k) {
	for (k = N; k >= 1; k--) s = s (k == N ? sep : ";") FR[k]
	CNT[s] += n
	N = 0
}
function fold_print(   s) {
	for (s in CNT) print s, CNT[s]
}
'

# stackcollapse-perf's folding of `perf script -F comm,tid,ip,sym,dso`:
# "comm;outer;...;inner COUNT", spaces in comm as '_'
fold_script() {
	awk "$FOLD_AWK"'
	/^$/ { if (have) fold_add(comm, ";", 1); have = 0; N = 0; next }
	/^[^ \t]/ { line = $0; sub(/[ \t]+$/, "", line); sub(/[ \t]+-?[0-9]+$/, "", line)
		    sub(/^[ \t]+/, "", line); gsub(/ /, "_", line); comm = line; have = 1; next }
	{ frame($0); FR[++N] = tidy(named(SYM, DSO)) }
	END { if (have) fold_add(comm, ";", 1); fold_print() }'
}

# the stacks of `perf script -F comm,tid,ip,sym,dso` as to-csv's samples
# table writes callchains: "outer;...;inner COUNT", inline frames
# "NAME (inlined)", names untidied
chain_script() {
	awk "$FOLD_AWK"'
	/^$/ { if (have) fold_add("", "", 1); have = 0; next }
	/^[^ \t]/ { if (have) fold_add("", "", 1); have = 1; next }
	{ frame($0); FR[++N] = DSO == "inlined" ? SYM " (inlined)" : named(SYM, DSO) }
	END { if (have) fold_add("", "", 1); fold_print() }'
}

# `go tool pprof -traces` of a profile folded as fold_script folds perf
# script: the comm label first, "<unknown>" frames as "[unknown]", a line
# of a location that is not its last ("NAME (inline)") as NAME
pprof_traces_fold() {
	awk "$FOLD_AWK"'
	function add(f) { sub(/ \(inline\)$/, "", f); FR[++N] = tidy(f == "<unknown>" ? "[unknown]" : f) }
	/^-----------\+/ { if (N) fold_add(comm, ";", count); comm = ""; on = 1; next }
	!on { next }
	/^ *comm:  / { sub(/^ *comm:  /, ""); gsub(/ /, "_"); comm = $0; next }
	/^ *[a-z]+:  / { next }
	/^ +[0-9]+   / { count = $1; sub(/^ +[0-9]+   /, ""); add($0); next }
	/^             / { sub(/^ +/, ""); add($0); next }
	END { if (N) fold_add(comm, ";", count); fold_print() }'
}

# one line per frame: "<sample header> | <address symbol (dso)>"; a sample
# without callchain is one line of its own
frame_lines() {
	awk '
	function flush() { if (pending != "") print pending; pending = "" }
	/^$/ { flush(); hdr = ""; next }
	/^\t/ { sub(/^[ \t]+/, ""); print hdr " | " $0; pending = ""; next }
	{ flush(); hdr = $0; pending = $0 }
	END { flush() }'
}
