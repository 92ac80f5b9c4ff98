#!/bin/sh
# SPDX-License-Identifier: ISC
# Build every libFuzzer harness and run each for DURATION seconds from its
# seed corpus.  Exits non-zero on any crash, leak, hang, or out-of-memory;
# the failing input is kept in BUILDDIR/tests/fuzz/artifacts.
# usage: tests/fuzz/run.sh DURATION [BUILDDIR]
# FUZZ_JOBS=N runs N harnesses at once (default 1); FUZZ_HARNESSES picks some.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
dur=${1:-}
case $dur in
''|*[!0-9]*)
	echo "usage: tests/fuzz/run.sh DURATION [BUILDDIR]" >&2
	exit 2 ;;
esac
builddir=$(cd "${2:-.}" && pwd)
jobs=${FUZZ_JOBS:-1}

"$top/tests/fuzz/build.sh" "$builddir" || exit $?

bin=$builddir/tests/fuzz/bin
art=$builddir/tests/fuzz/artifacts
work=$(mktemp -d "${TMPDIR:-/tmp}/tierprobe-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
mkdir -p "$art"

# One harness: new inputs go to a scratch corpus, the seeds stay as they are.
run_one() {
	h=$1
	name=${h#fuzz_}
	mkdir -p "$work/$name"
	dict=
	[ -f "$top/tests/fuzz/$name.dict" ] &&
	    dict="-dict=$top/tests/fuzz/$name.dict"
	# shellcheck disable=SC2086
	"$bin/$h" -max_total_time="$dur" -rss_limit_mb=2048 -timeout=10 \
	    -max_len=65536 -print_final_stats=1 $dict \
	    -artifact_prefix="$art/$name-" \
	    "$work/$name" "$top/tests/fuzz/corpus/$name" \
	    >"$work/$name.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
	    "$work/$name.log")
	if [ "$rc" = 0 ]; then
		echo "fuzz: $name: ok, ${runs:-?} inputs in ${dur}s"
	else
		echo "fuzz: $name: FAILED (exit $rc); input kept in $art:"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' \
		    "$work/$name.log" | head -5
		cp "$work/$name.log" "$art/$name.log"
	fi
	return "$rc"
}

status=0
running=0
pids=
for h in ${FUZZ_HARNESSES:-fuzz_cli fuzz_units fuzz_report_load fuzz_profile fuzz_voltype fuzz_ebsstats}; do
	run_one "$h" &
	pids="$pids $!"
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		for p in $pids; do
			wait "$p" || status=1
		done
		pids=
		running=0
	fi
done
for p in $pids; do
	wait "$p" || status=1
done
exit "$status"
