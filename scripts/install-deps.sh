#!/bin/sh
# install-deps.sh - install the Debian packages this project builds and tests with.
#
# Idempotent: only packages that are missing are installed.  As root it runs
# apt-get itself; otherwise it prints the exact command to run and fails.
# linux-perf is for the tests that compare with perf: tests/find-perf.sh
# finds a perf of it that runs on this kernel (Debian's wrapper refuses
# kernels it has no perf_X.Y for), and a comparison no perf can make is
# reported as skipped.  g++ builds the C++ programs that the unwinding and
# source-line tests record; libc6-dbg gives them separate debug info to find.
# rustc builds the Rust program tests/symbolize/unwind.sh records (its
# mangled names and frames are compared with perf's); nodejs runs the
# JavaScript it records under node --perf-prof and perf inject --jit.
# On amd64, gcc-multilib builds the 32-bit program tests/symbolize/unwind.sh
# records, and gdb unwinds its samples for the comparison (perf cannot).
# groff-base renders the man pages for run-cli-tests.sh's check that every
# option a command's --help prints is documented in its man page.
#
# Usage: sh scripts/install-deps.sh [--with-fuzz]
#   --with-fuzz  also install clang and its runtime (libFuzzer, sanitizers)
set -eu

PKGS="gcc make pkg-config libc6-dev libzstd-dev libjansson-dev libcunit1-dev \
libprotobuf-c-dev protobuf-c-compiler protobuf-compiler libmd-dev libelf-dev libdw-dev libtraceevent-dev \
zstd sqlite3 zlib1g-dev libdeflate-dev golang-go rustc nodejs libc6-dbg linux-perf g++ groff-base"

if [ "$(dpkg --print-architecture 2> /dev/null)" = amd64 ]; then
	PKGS="$PKGS gcc-multilib gdb"
fi

for arg in "$@"; do
	case "$arg" in
	--with-fuzz) PKGS="$PKGS clang libclang-rt-14-dev" ;;
	*) echo "install-deps.sh: unknown option: $arg" >&2; exit 2 ;;
	esac
done

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: missing packages:$missing" >&2
	echo "run as root:  apt-get update && apt-get install -y$missing" >&2
	exit 1
fi

echo "install-deps.sh: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine starts with empty package lists.
if ! apt-get install -y --no-install-recommends $missing >/dev/null 2>&1; then
	apt-get update -qq
	apt-get install -y --no-install-recommends $missing
fi
