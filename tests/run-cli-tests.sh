#!/bin/sh
# SPDX-License-Identifier: MIT
#
# run-cli-tests.sh - exit codes and diagnostics of the perfconv commands.
#
# Usage: PERFCONV=bin/perfconv sh tests/run-cli-tests.sh
# Run from the project root (make test does).  Exit codes of perfconv:
# 0 valid input, 1 malformed input, 2 usage error, 3 I/O error or missing
# file.  Any other code, in particular > 128 (killed by a signal, i.e. a
# crash), fails the test.  JSON validity of `info --json` is checked by the
# corpus suites of unit-tests (jansson); here only that stdout is non-empty.
set -u

PERFCONV=${PERFCONV:-bin/perfconv}
if [ ! -x "$PERFCONV" ]; then
	echo "run-cli-tests: $PERFCONV is not executable" >&2
	exit 1
fi

TEST=run-cli-tests
. tests/harness.sh
test_tmpdir cli-tests
tmp=$T

# expect CODE [STDERR_PATTERN] -- perfconv ARGS...
# Runs perfconv with ARGS (stdin from /dev/null unless redirected by the
# caller through run_stdin), checks the exit code and, when given, that
# stderr contains STDERR_PATTERN (fixed string).
expect() {
	want=$1
	pat=$2
	shift 3
	"$PERFCONV" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	check_result "$want" "$pat" "perfconv $*"
}

# expect_stdin CODE PATTERN FILE -- perfconv ARGS...: input from FILE on stdin
expect_stdin() {
	want=$1
	pat=$2
	in=$3
	shift 4
	"$PERFCONV" "$@" >"$tmp/out" 2>"$tmp/err" <"$in"
	check_result "$want" "$pat" "perfconv $* < $in"
}

check_result() {
	got=$?
	if [ "$got" -gt 128 ]; then
		ko "$3: killed by signal $((got - 128)) (crash)"
		sed 's/^/    /' "$tmp/err" | head -20
		return
	fi
	if [ "$got" -ne "$1" ]; then
		ko "$3: exit code $got, expected $1"
		sed 's/^/    /' "$tmp/err" | head -5
		return
	fi
	if [ -n "$2" ] && ! grep -qF -- "$2" "$tmp/err"; then
		ko "$3: stderr lacks '$2'"
		sed 's/^/    /' "$tmp/err" | head -5
		return
	fi
	ok
}

# stdout of the last command must not be empty
expect_stdout() {
	if [ -s "$tmp/out" ]; then
		ok
	else
		ko "$1: empty stdout"
	fi
}

# --- valid inputs: every command succeeds ---------------------------
for f in corpus/basic.data corpus/basic.pipe.data corpus/compressed.data \
	 corpus/callchain-fp.data corpus/stat.data corpus/threads.dir; do
	[ -e "$f" ] || { sk_count 6 "$f missing: info, info --json, dump not run"; continue; }
	expect 0 "" -- info "$f"
	expect_stdout "info $f"
	expect 0 "" -- info --json "$f"
	expect_stdout "info --json $f"
	expect 0 "" -- dump "$f"
	expect_stdout "dump $f"
done
if [ -e corpus/basic.pipe.data ]; then
	expect_stdin 0 "" corpus/basic.pipe.data -- info -
	expect_stdin 0 "" corpus/basic.pipe.data -- info --json -
	expect_stdout "info --json - < corpus/basic.pipe.data"
	expect_stdin 0 "" corpus/basic.data -- dump -
fi

# --- malformed inputs: exit 1 and the PD code on stderr ---------------
manifest=corpus/bad/MANIFEST
if [ -f "$manifest" ]; then
	grep -v '^#' "$manifest" | while IFS='|' read -r name code off what; do
		name=$(echo "$name" | tr -d ' ')
		code=$(echo "$code" | tr -d ' ')
		[ -n "$name" ] || continue
		# check-*.data: problems only perfcheck's cross-record pass
		# finds (tests/validate/perfcheck.sh); perfconv reads them
		# like valid files.
		case $name in check-*) continue ;; esac
		printf '%s %s\n' "$name" "$code"
	done >"$tmp/bad.list"
	while read -r name code; do
		f=corpus/bad/$name
		pd=$(printf 'PD%03d' "$code")
		# Warnings alone do not make an input malformed.
		case $code in
		8|13|218|305) want=0 ;;
		*) want=1 ;;
		esac
		expect "$want" "$pd" -- info "$f"
		expect "$want" "$pd" -- info --json "$f"
		expect "$want" "$pd" -- dump "$f"
	done <"$tmp/bad.list"
else
	ko "$manifest missing"
fi
if [ -f corpus/bad/pipe-truncated.pipe.data ]; then
	expect_stdin 1 PD303 corpus/bad/pipe-truncated.pipe.data -- info -
fi

# --- usage errors: exit 2 ---------------------------------------------
expect 2 "" --
expect 2 "" -- frobnicate
expect 2 "" -- --bogus
expect 2 "" -- info
expect 2 "" -- info --bogus corpus/basic.data
expect 2 "" -- info --json
expect 2 "" -- dump
expect 2 "" -- dump --bogus corpus/basic.data
expect 2 "" -- info corpus/basic.data corpus/basic.data

# --- help and version: exit 0 -----------------------------------------
expect 0 "" -- --help
expect_stdout "--help"
expect 0 "" -- --version
expect_stdout "--version"
expect 0 "" -- info --help
expect 0 "" -- dump --help

# --- the shared options each command takes (its groups in tool_args.c) ---
# An option a command takes is scanned and --help after it answers (exit
# 0); one it does not take is a usage error before --help is reached.
shared_opts="-o --output -v --verbose --strict -i --input --pid --tid --comm --cpu --time
	--reltime --event --symfs --kallsyms --no-unwind --no-inline --max-stack --buildid-dir
	--srcline"
opt_arg() {
	case $1 in
	-o|--output) echo "$tmp/unused" ;;
	-i|--input) echo corpus/basic.data ;;
	--pid|--tid|--cpu|--max-stack) echo 1 ;;
	--comm|--event) echo x ;;
	--time) echo 1,2 ;;
	--symfs|--buildid-dir) echo / ;;
	--kallsyms) echo /dev/null ;;
	esac
}
takes() {
	for opt in $shared_opts; do
		case " $2 " in
		*" $opt "*) expect 0 "" -- "$1" $opt $(opt_arg $opt) --help ;;
		*) expect 2 "perfconv: $1: unknown option '$opt'" -- "$1" $opt $(opt_arg $opt) --help ;;
		esac
	done
}
sel="-i --input --pid --tid --comm --cpu --time --reltime --event"
sym="--symfs --kallsyms --no-unwind --no-inline --max-stack"
takes info "-v --verbose -i --input"
takes dump "-v --verbose $sel"
takes to-json "-o --output -v --verbose --strict $sel $sym --buildid-dir"
takes to-csv "-o --output -v --verbose --strict $sel $sym --srcline"
takes to-proto "-o --output -v --verbose --strict $sel"
takes to-pprof "-o --output -v --verbose --strict $sel $sym"
takes pipe-to-file "-o --output -v --verbose --strict -i --input"
takes file-to-pipe "-o --output -v --verbose -i --input"
# a wrong value of a stack option names the program and the command
expect 2 "perfconv: to-csv: --max-stack wants a number from 1 to 127, not '0'" -- \
	to-csv --max-stack 0 --table stats corpus/basic.data
if [ -f corpus/basic.data ]; then
	expect 2 "perfconv: file-to-pipe: empty output name" -- file-to-pipe -o "" corpus/basic.data
	expect 2 "perfconv: pipe-to-file: empty output name" -- \
		pipe-to-file -o "" corpus/basic.pipe.data
fi

# --- every option --help prints is in the man page --------------------
# (man/perfconv.1 for perfconv's commands, perfcheck.1, perfsym.1), with
# its short name where it has one: --help and the man pages are written
# from different sources and must not drift apart.
# help_opts: the options of one --help, "-x,--long" or "--long", one a line
help_opts() {
	sed -n 's/^  \(-[A-Za-z]\), \(--[a-z-]*\).*/\1,\2/p; s/^      \(--[a-z-]*\).*/\1/p; s/^  \(-[A-Za-z]\)  .*/\1/p'
}
# man_has PAGE OPT: the page names OPT (a long one, or "-x, --long")
man_has() {
	groff -man -Tascii -P-cbou -rLL=250n "$1" 2> /dev/null | tr -s '\n ' '  ' > "$tmp/man.txt"
	case $2 in
	*,*) grep -qE -- "${2%%,*}( [A-Z]+)?, ${2#*,}" "$tmp/man.txt" ;;
	*) grep -qF -- "$2" "$tmp/man.txt" ;;
	esac
}
bindir=$(dirname "$PERFCONV")
command -v groff > /dev/null || sk "no groff to read the man pages: options not compared"
command -v groff > /dev/null &&
for cmd in info dump to-json to-csv to-proto to-pprof pipe-to-file file-to-pipe \
	perfcheck perfsym; do
	case $cmd in
	perfcheck|perfsym) [ -x "$bindir/$cmd" ] || continue
		"$bindir/$cmd" --help > "$tmp/help" 2>&1; page=man/$cmd.1 ;;
	*) "$PERFCONV" "$cmd" --help > "$tmp/help" 2>&1; page=man/perfconv.1 ;;
	esac
	missing=
	for opt in $(help_opts < "$tmp/help"); do
		man_has "$page" "$opt" || missing="$missing $opt"
	done
	[ -z "$missing" ] && ok || ko "$cmd --help prints options $page lacks:$missing"
done

# --- missing input: exit 3 --------------------------------------------
# One shape for every command: the path, what was attempted, strerror.
missing=$tmp/does-not-exist.data
msg="perfconv: cannot open '$missing': No such file or directory"
expect 3 "$msg" -- info "$missing"
expect 3 "$msg" -- info --json "$missing"
expect 3 "$msg" -- dump "$missing"
expect 3 "$msg" -- to-json -o "$tmp/x.json" "$missing"
expect 3 "$msg" -- to-json --full -o "$tmp/x.json" "$missing"
expect 3 "$msg" -- to-proto -o "$tmp/x.pb" "$missing"
expect 3 "$msg" -- to-pprof -o "$tmp/x.pb" "$missing"
expect 3 "$msg" -- to-csv --table stats "$missing"
expect 3 "$msg" -- file-to-pipe -o "$tmp/x.pipe" "$missing"
expect 3 "$msg" -- pipe-to-file -o "$tmp/x.data" "$missing"
bindir=$(dirname "$PERFCONV")
for prog in perfcheck perfsym; do
	[ -x "$bindir/$prog" ] || continue
	"$bindir/$prog" "$missing" > /dev/null 2> "$tmp/err" < /dev/null
	check_result 3 "$prog: cannot open '$missing': No such file or directory" "$prog MISSING"
done
# an output that cannot be created
nodir=$tmp/no-such-dir
if [ -f corpus/basic.data ]; then
	for cmd in to-json to-proto to-pprof file-to-pipe; do
		expect 3 "perfconv: cannot create '$nodir/out': No such file or directory" -- \
			"$cmd" -o "$nodir/out" corpus/basic.data
	done
	expect 3 "perfconv: cannot create directory '$nodir/out': No such file or directory" -- \
		to-csv -o "$nodir/out" corpus/basic.data
	expect 3 "perfconv: cannot create '$nodir/out': No such file or directory" -- \
		pipe-to-file -o "$nodir/out" corpus/basic.pipe.data
fi

# an output that is a directory: refused before anything is written
if [ -f corpus/basic.data ]; then
	mkdir -p "$tmp/outdir"
	for cmd in to-json to-proto to-pprof file-to-pipe; do
		expect 3 "perfconv: cannot open '$tmp/outdir': Is a directory" -- \
			"$cmd" -o "$tmp/outdir" corpus/basic.data
		ls "$tmp" | grep -q '\.tmp' && ko "perfconv $cmd -o DIR: left a temporary file"
	done
	rmdir "$tmp/outdir" || ko "perfconv -o DIR: wrote into the directory"
fi

# --- -o naming a FIFO or device: written to, never replaced -----------
# (a rename over /dev/null would replace the device with a regular file)
for cmd in to-json to-proto to-pprof; do
	rm -f "$tmp/fifo" "$tmp/got" "$tmp/want"
	mkfifo "$tmp/fifo" || { ko "mkfifo"; continue; }
	# bounded: a FIFO replaced by the output would leave cat waiting
	timeout 30 cat "$tmp/fifo" > "$tmp/got" &
	reader=$!
	"$PERFCONV" "$cmd" -o "$tmp/fifo" corpus/basic.data 2> "$tmp/err"
	rc=$?
	wait "$reader"
	"$PERFCONV" "$cmd" corpus/basic.data > "$tmp/want" 2> /dev/null
	if [ "$rc" -ne 0 ]; then
		ko "perfconv $cmd -o FIFO: exit $rc, want 0: $(head -1 "$tmp/err")"
	elif [ ! -p "$tmp/fifo" ]; then
		ko "perfconv $cmd -o FIFO: the FIFO was replaced"
	elif [ ! -s "$tmp/want" ] || ! cmp -s "$tmp/got" "$tmp/want"; then
		ko "perfconv $cmd -o FIFO: output differs from stdout's"
	else
		ok
	fi
	ls "$tmp" | grep -q '\.tmp' && ko "perfconv $cmd -o FIFO: left a temporary file"
done

# --- -o -: standard output for every command that writes one stream ---
# the bytes on stdout are those of the file, and no file named '-' is made
if [ -f corpus/basic.data ]; then
	case $PERFCONV in
	/*) perfconv_abs=$PERFCONV ;;
	*) perfconv_abs=$PWD/$PERFCONV ;;
	esac
	for cmd in to-json to-proto to-pprof file-to-pipe "to-csv --table stats"; do
		rm -f "$tmp/dash.file"
		# shellcheck disable=SC2086 # the table option is two words
		(cd "$tmp" && "$perfconv_abs" $cmd -o - "$OLDPWD/corpus/basic.data" \
			> "$tmp/dash.out" 2> "$tmp/err" < /dev/null)
		check_result 0 "" "perfconv $cmd -o -"
		[ -e "$tmp/-" ] && ko "perfconv $cmd -o -: made a file named '-'"
		rm -rf "$tmp/-"
		if [ "$cmd" = "to-csv --table stats" ]; then
			"$PERFCONV" to-csv -o "$tmp/dash.dir" corpus/basic.data 2> /dev/null
			cp "$tmp/dash.dir/stats.csv" "$tmp/dash.file" 2> /dev/null
		else
			# shellcheck disable=SC2086
			"$PERFCONV" $cmd -o "$tmp/dash.file" corpus/basic.data 2> /dev/null
		fi
		if [ -s "$tmp/dash.file" ] && cmp -s "$tmp/dash.out" "$tmp/dash.file"; then
			ok
		else
			ko "perfconv $cmd -o -: stdout differs from the -o FILE output"
		fi
	done
	"$PERFCONV" pipe-to-file -o - corpus/basic.pipe.data > "$tmp/dash.data" 2> "$tmp/err"
	check_result 0 "" "perfconv pipe-to-file -o - > FILE"
	"$PERFCONV" pipe-to-file -o "$tmp/dash.file" corpus/basic.pipe.data 2> /dev/null
	cmp -s "$tmp/dash.data" "$tmp/dash.file" && ok ||
		ko "perfconv pipe-to-file -o -: stdout differs from the -o FILE output"
	# to-csv writes a directory of tables: -o - takes exactly one --table
	expect 2 "perfconv: to-csv: give -o DIR for all tables, or --table NAME for one on stdout" -- \
		to-csv -o - corpus/basic.data
	expect 2 "perfconv: to-csv: standard output takes one table: use -o DIR for more" -- \
		to-csv -o - --table stats,comms corpus/basic.data
	[ -e ./- ] && ko "perfconv to-csv -o -: made a directory named '-'"
fi

# --- standard output that cannot be written: exit 3, one message -------
if [ -f corpus/basic.data ] && [ -w /dev/full ]; then
	for cmd in to-json to-proto to-pprof file-to-pipe "to-csv --table stats"; do
		# shellcheck disable=SC2086 # the table option is two words
		"$PERFCONV" $cmd corpus/basic.data > /dev/full 2> "$tmp/err" < /dev/null
		check_result 3 "perfconv: cannot write standard output: No space left on device" \
			"perfconv $cmd > /dev/full"
	done
fi

# --- exit statuses and summaries that agree with the documentation -----
# --jsonl and --full: "complete" only when every record is in the output
if [ -f corpus/bad/truncated-mid-record.data ]; then
	for f in corpus/bad/truncated-mid-record.data corpus/bad/pipe-truncated.pipe.data \
		 corpus/basic.data; do
		case $f in
		*bad*) code=1 summary='"complete":false' ;;
		*) code=0 summary='"complete":true' ;;
		esac
		expect "$code" "" -- to-json --jsonl "$f"
		if tail -n 1 "$tmp/out" | grep -qF "$summary" && tail -n 1 "$tmp/out" | grep -qF '"kind":"summary"'; then
			ok
		else
			ko "to-json --jsonl $f: summary lacks $summary: $(tail -n 1 "$tmp/out" | cut -c1-200)"
		fi
		expect "$code" "" -- to-json --full "$f"
		grep -qF "$summary" "$tmp/out" && ok || ko "to-json --full $f: summary lacks $summary"
	done
fi

# pipe-to-file on a cut stream: converted with a warning, exit 0 (README,
# perfconv(1)); --strict makes it an error: exit 1, no output
if [ -f corpus/bad/pipe-truncated.pipe.data ]; then
	cut=corpus/bad/pipe-truncated.pipe.data
	# the reader's finding, shown as a warning in the shape of every diagnostic
	expect 0 "$cut:0x2054: warning PD303 [rec#122 EXIT]: input ends inside a record size=56 available=16 (the stream ends early: the records before it are converted)" -- \
		pipe-to-file -o "$tmp/cut.data" "$cut"
	grep -q "error" "$tmp/err" && ko "pipe-to-file $cut: an error diagnostic with exit 0"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || ko "pipe-to-file $cut: more than the one warning"
	expect 0 "" -- info "$tmp/cut.data"
	expect 1 "PD303" -- pipe-to-file --strict -o "$tmp/cut-strict.data" "$cut"
	[ -e "$tmp/cut-strict.data" ] && ko "pipe-to-file --strict $cut: left an output"
fi

# binary outputs refuse a terminal (run under script(1) for a pseudo-terminal)
if command -v script > /dev/null 2>&1 && script -qec true /dev/null > /dev/null 2>&1; then
	for cmd in to-proto file-to-pipe "to-proto -o -" "to-pprof -o -" "file-to-pipe -o -"; do
		script -qec "\"$PERFCONV\" $cmd corpus/basic.data; echo rc=\$?" /dev/null \
			> "$tmp/tty" 2>&1 < /dev/null
		if grep -q "^rc=2" "$tmp/tty" && grep -qF "perfconv: ${cmd%% *}: refusing to write" "$tmp/tty" &&
		   ! grep -q "PERFILE2" "$tmp/tty"; then
			ok
		else
			ko "perfconv $cmd to a terminal: $(tr -cd '[:print:]\n' < "$tmp/tty" | head -c 200)"
		fi
	done
else
	sk_count 5 "binary output to a terminal: script(1) cannot make a pseudo-terminal here"
fi

# --- --event matching no event: exit 2 and the recording's events -------
# Every command that takes --event, file and pipe mode; each name of a
# list must match; names as info prints them, and without modifiers.
# expect_events CODE WHAT LIST_LINE -- ARGS...: stderr holds both lines
expect_events() {
	code=$1
	what=$2
	list=$3
	shift 4
	expect "$code" "$what" -- "$@"
	grep -qxF -- "$list" "$tmp/err" || ko "perfconv $*: no line '$list'"
}
bindir=$(dirname "$PERFCONV")
for f in corpus/multi-event.data corpus/multi-event.pipe.data corpus/basic.data; do
	[ -f "$f" ] || continue
	case $f in
	*basic*) list="perfconv: the recording's events: cpu-clock:ppp (cpu-clock)" ;;
	*) list="perfconv: the recording's events: cpu-clock task-clock page-faults" ;;
	esac
	for cmd in dump to-json "to-json --full" "to-csv --table samples" "to-proto -o $tmp/ev.pb" \
		   "to-csv -o $tmp/ev.csv" "to-pprof -o $tmp/ev.pb"; do
		name=${cmd%% *}
		for sel in nosuch cpu-clock,nosuch; do
			# shellcheck disable=SC2086
			expect_events 2 "perfconv: $name: --event 'nosuch': no event of the recording has this name" \
				"$list" -- $cmd --event "$sel" "$f"
		done
		# shellcheck disable=SC2086
		expect 0 "" -- $cmd --event cpu-clock "$f"
		rm -rf "$tmp/ev.pb" "$tmp/ev.csv"
		# shellcheck disable=SC2086
		expect 2 "" -- $cmd --event nosuch "$f"
		[ -e "$tmp/ev.pb" ] && ko "perfconv $cmd --event nosuch $f: left its output"
		[ -e "$tmp/ev.csv/samples.csv" ] && ko "perfconv $cmd --event nosuch $f: left its tables"
	done
	if [ -x "$bindir/perfsym" ]; then
		"$bindir/perfsym" --event cpu-clock,nosuch "$f" > /dev/null 2> "$tmp/err"
		check_result 2 "perfsym: --event 'nosuch': no event of the recording has this name" \
			"perfsym --event cpu-clock,nosuch $f"
		grep -qxF "perfsym${list#perfconv}" "$tmp/err" || ko "perfsym --event nosuch $f: no event list"
	fi
done
expect 0 "" -- to-json --event cpu-clock:ppp,cpu-clock corpus/basic.data

# --- a path in an option that cannot be used: exit 2, path and reason --
if [ -f corpus/basic.data ]; then
	nx=$tmp/nonexistent
	enoent="No such file or directory"
	for args in "to-json" "to-json --full --symbols" "to-csv --table stats" "to-pprof -o /dev/null"; do
		# shellcheck disable=SC2086
		expect 2 "perfconv: cannot use --symfs '$nx': $enoent" -- \
			$args --symfs "$nx" corpus/basic.data
		# shellcheck disable=SC2086
		expect 2 "perfconv: cannot use --kallsyms '$nx': $enoent" -- \
			$args --kallsyms "$nx" corpus/basic.data
		# shellcheck disable=SC2086
		expect 2 "perfconv: cannot use --symfs 'corpus/basic.data': Not a directory" -- \
			$args --symfs corpus/basic.data corpus/basic.data
		# shellcheck disable=SC2086
		expect 2 "perfconv: cannot use --kallsyms 'corpus': Is a directory" -- \
			$args --kallsyms corpus corpus/basic.data
	done
	expect 2 "perfconv: cannot use --buildid-dir '$nx': $enoent" -- \
		to-json --buildid-dir "$nx" corpus/basic.data
	grep -q "out of memory" "$tmp/err" && ko "to-json --buildid-dir: says out of memory"
	bindir=$(dirname "$PERFCONV")
	if [ -x "$bindir/perfsym" ]; then
		for opt in --symfs --kallsyms --buildid-dir; do
			"$bindir/perfsym" "$opt" "$nx" corpus/basic.data > /dev/null 2> "$tmp/err"
			check_result 2 "perfsym: cannot use $opt '$nx': $enoent" "perfsym $opt MISSING"
			grep -q "out of memory" "$tmp/err" && ko "perfsym $opt MISSING: says out of memory"
		done
	fi
	if [ -x "$bindir/perfcheck" ]; then
		"$bindir/perfcheck" --check-buildids --symfs "$nx" corpus/basic.data \
			> /dev/null 2> "$tmp/err"
		check_result 2 "perfcheck: cannot use --symfs '$nx': $enoent" "perfcheck --symfs MISSING"
	fi
fi

# --- -o naming the input: exit 2, the input untouched ------------------
# The same file under its own name, a hard link, a symbolic link; to-csv
# tables into the input's directory; a stream of a directory-mode input.
# expect_untouched CODE PATTERN INPUT ORIGINAL -- perfconv ARGS...
expect_untouched() {
	want_code=$1
	want_msg=$2
	want_in=$3
	orig=$4
	shift 5
	expect "$want_code" "$want_msg" -- "$@"
	cmp -s "$want_in" "$orig" || ko "perfconv $*: the input was changed"
	ls -a "$(dirname "$want_in")" | grep -q '\.tmp' && ko "perfconv $*: left a temporary file"
}
if [ -f corpus/basic.data ] && [ -f corpus/basic.pipe.data ]; then
	mkdir -p "$tmp/same"
	cp corpus/basic.data "$tmp/same/in.data"
	cp corpus/basic.pipe.data "$tmp/same/in.pipe.data"
	ln "$tmp/same/in.data" "$tmp/same/hard.data"
	ln -s in.data "$tmp/same/sym.data"
	ln "$tmp/same/in.pipe.data" "$tmp/same/hard.pipe.data"
	for out in in.data hard.data sym.data; do
		msg="output '$tmp/same/$out' is the input: refusing to overwrite it"
		for cmd in "to-json" "to-json --full" "to-json --jsonl" "to-proto" \
			   "to-proto --quipper-compat" "to-pprof" "file-to-pipe"; do
			# shellcheck disable=SC2086
			expect_untouched 2 "${cmd%% *}: $msg" "$tmp/same/in.data" corpus/basic.data -- \
				$cmd -o "$tmp/same/$out" "$tmp/same/in.data"
		done
	done
	expect_untouched 2 "pipe-to-file: output '$tmp/same/hard.pipe.data' is the input" \
		"$tmp/same/in.pipe.data" corpus/basic.pipe.data -- \
		pipe-to-file -o "$tmp/same/hard.pipe.data" "$tmp/same/in.pipe.data"
	# to-csv -o DIR: a table whose file is the input
	ln "$tmp/same/in.data" "$tmp/same/samples.csv"
	msg="to-csv: output '$tmp/same/samples.csv' is the input: refusing to overwrite it"
	expect_untouched 2 "$msg" "$tmp/same/in.data" corpus/basic.data -- \
		to-csv -o "$tmp/same" "$tmp/same/samples.csv"
	expect_untouched 2 "$msg" "$tmp/same/in.data" corpus/basic.data -- \
		to-csv -o "$tmp/same" --table samples,stats "$tmp/same/in.data"
	[ -e "$tmp/same/stats.csv" ] && ko "to-csv: refused run wrote stats.csv"
	# standard output opened on the input (>>): refused too
	"$PERFCONV" to-json "$tmp/same/in.data" >> "$tmp/same/in.data" 2> "$tmp/err" < /dev/null
	check_result 2 "to-json: standard output is the input: refusing to overwrite it" \
		"perfconv to-json IN >> IN"
	cmp -s "$tmp/same/in.data" corpus/basic.data || ko "to-json >> IN: the input was changed"
fi
if [ -d corpus/threads.dir ]; then
	mkdir -p "$tmp/same" && cp -r corpus/threads.dir "$tmp/same/rec.dir"
	msg="to-proto: output '$tmp/same/rec.dir/data' is the input: refusing to overwrite it"
	expect_untouched 2 "$msg" "$tmp/same/rec.dir/data" corpus/threads.dir/data -- \
		to-proto -o "$tmp/same/rec.dir/data" "$tmp/same/rec.dir"
	msg="to-csv: output '$tmp/same/rec.dir' is the input: refusing to overwrite it"
	expect_untouched 2 "$msg" "$tmp/same/rec.dir/data" corpus/threads.dir/data -- \
		to-csv -o "$tmp/same/rec.dir" "$tmp/same/rec.dir"
	# a directory of its own inside the recording's is no stream of it
	expect 0 "" -- to-csv -o "$tmp/same/rec.dir/csv" "$tmp/same/rec.dir"
fi

# --- bytes that are not UTF-8: U+FFFD in every output ------------------
# basic.data with 0xe9 in its host name and in the comm of its first COMM
# record: info --json, to-json, to-json --full and to-csv write each as
# U+FFFD (common/utf8.c), never as "?" or a \u00e9 of the byte's value.
if [ -f corpus/basic.data ]; then
	f=$tmp/not-utf8.data
	cp corpus/basic.data "$f"
	host=$("$PERFCONV" to-json --full --jsonl corpus/basic.data 2>/dev/null | head -n 1 |
		sed -n 's/.*"name":"HOSTNAME","offset":\([0-9]*\).*/\1/p')
	comm=$("$PERFCONV" dump corpus/basic.data 2>/dev/null | sed -n 's/^0x\([0-9a-f]*\) .* COMM .*/\1/p' | head -n 1)
	if [ -n "$host" ] && [ -n "$comm" ]; then
		# a perf string: u32 length, then the bytes; COMM: header, pid, tid, comm
		printf '\351' | dd of="$f" bs=1 seek=$((host + 5)) conv=notrunc 2>/dev/null
		printf '\351' | dd of="$f" bs=1 seek=$((0x$comm + 17)) conv=notrunc 2>/dev/null
		fffd=$(printf '\357\277\275')
		for cmd in "info --json" "to-json" "to-json --full" "to-csv --table comms"; do
			# shellcheck disable=SC2086
			"$PERFCONV" $cmd "$f" > "$tmp/out" 2> "$tmp/err"
			n=$(LC_ALL=C grep -c "$fffd" "$tmp/out")
			case $cmd in
			"info --json") want=1 ;;	# the host name
			"to-json --full") want=2 ;;	# the file line (host name), the COMM record
			*) want=1 ;;			# the comm
			esac
			if [ "$n" -ge "$want" ] && ! LC_ALL=C grep -qiF '\u00e9' "$tmp/out" &&
			   ! LC_ALL=C grep -q "$(printf 'v?')" "$tmp/out"; then
				ok
			else
				ko "$cmd with bytes that are not UTF-8: $n lines with U+FFFD (want $want)"
			fi
		done
	else
		ko "not-utf8: no HOSTNAME offset or COMM record found in corpus/basic.data"
	fi
fi

# --- one JSON string rule in every document (common/json_str.h) ---------
# basic.data with a host name holding ESC, DEL, 0xff and TAB: info --json,
# to-json, to-json --full and --jsonl write the same bytes for it, perf's
# escapes (lowercase \u001b, DEL as it is, U+FFFD, \t), never jansson's
# \u001B; python3 reads the name back; perf's own document has the same
# escapes for the same name without the 0xff (perf writes that byte as
# \uffffffff, which is no JSON).
if [ -f corpus/basic.data ]; then
	host=$("$PERFCONV" to-json --full --jsonl corpus/basic.data 2>/dev/null | head -n 1 |
		sed -n 's/.*"name":"HOSTNAME","offset":\([0-9]*\).*/\1/p')
	if [ -n "$host" ]; then
		# the host name "vm" of a 64-byte field: room for these before its NUL
		f=$tmp/host-escapes.data
		cp corpus/basic.data "$f"
		printf 'v\033w\177x\377y\tz' | dd of="$f" bs=1 seek=$((host + 4)) conv=notrunc 2>/dev/null
		esc=$(printf '"v\\u001bw\177x\357\277\275y\\tz"')
		for cmd in "info --json" "to-json" "to-json --full" "to-json --full --jsonl"; do
			# shellcheck disable=SC2086
			expect 0 "" -- $cmd "$f"
			if LC_ALL=C grep -qF "$esc" "$tmp/out" && ! LC_ALL=C grep -qF '\u001B' "$tmp/out"; then
				ok
			else
				ko "$cmd: host name with ESC, DEL, 0xff, TAB not written as $esc"
			fi
			if command -v python3 > /dev/null; then
				python3 - "$tmp/out" "$cmd" <<'PY' && ok || ko "$cmd: the escaped host name does not parse back"
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
cmd = sys.argv[2]
want = "v\x1bw\x7fx\ufffdy\tz"
if cmd == "info --json":
    got = json.loads(text)["features"]["HOSTNAME"]
elif cmd == "to-json":
    got = json.loads(text)["headers"]["hostname"]
else:
    doc = json.loads(text.splitlines()[0]) if "jsonl" in cmd else json.loads(text)["file"]
    got = [x["value"] for x in doc["features"] if x["name"] == "HOSTNAME"][0]
assert got == want, repr(got)
PY
			else
				sk "no python3 to parse the escaped host name ($cmd)"
			fi
		done
		. tests/find-perf.sh
		if [ -n "$PERF" ]; then
			cp corpus/basic.data "$f"
			printf 'v\033w\177x\ty' | dd of="$f" bs=1 seek=$((host + 4)) conv=notrunc 2>/dev/null
			"$PERF" data convert -f --to-json "$tmp/perf.json" -i "$f" > /dev/null 2>&1
			"$PERFCONV" to-json -o "$tmp/mine.json" "$f" 2> /dev/null
			line=$(printf '\t\t"hostname": "v\\u001bw\177x\\ty",')
			if LC_ALL=C grep -qxF "$line" "$tmp/perf.json" && LC_ALL=C grep -qxF "$line" "$tmp/mine.json"; then
				ok
			else
				ko "host name with ESC, DEL, TAB: perf's and to-json's documents differ: " \
				   "$(LC_ALL=C grep -a hostname "$tmp/perf.json" "$tmp/mine.json" | cat -v)"
			fi
		else
			sk "host name escapes against perf: $PERF_MISSING"
		fi
	else
		ko "json escapes: no HOSTNAME offset found in corpus/basic.data"
	fi
fi

test_summary
