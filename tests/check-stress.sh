#!/bin/sh
# SPDX-License-Identifier: ISC
# Run make check again and again, on an idle machine and beside a busy
# loop on every core (normal priority), and the sanitizer build the same
# way: a test that bets on how fast the machine is fails here.  Prints one
# line per run (passed or failed, wall time) and a summary per mode; exits
# 1 if any run failed.  The suite logs of failed runs are kept.
#
# usage: tests/check-stress.sh [-c] [-s] [-m MODES] [N]
#   N      runs per mode (default 10)
#   -c     in a fresh clone of this tree's HEAD (bootstrapped there), not
#          in the build tree this is run from
#   -s     the sanitizer build too (tests/sanitize.sh, once per mode)
#   -m     modes, comma-separated: idle, busy (default idle,busy)
# Environment: STRESS_JOBS, make's -j (default: the number of cores);
# STRESS_OUT, where the kept logs go (default a new directory, said);
# STRESS_TESTS, a part of the suite instead of all of it (make's TESTS).
# make check-stress STRESS_RUNS=N STRESS_FLAGS="-c -s" runs it.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
clone=0 san=0 modes=idle,busy
while getopts csm: o; do
	case $o in
	c) clone=1 ;;
	s) san=1 ;;
	m) modes=$OPTARG ;;
	*) echo "usage: $0 [-c] [-s] [-m idle,busy] [N]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
runs=${1:-10}
case $runs in
''|*[!0-9]*|0) echo "check-stress: N must be a positive number: $runs" >&2
	exit 2 ;;
esac
for m in $(echo "$modes" | tr , ' '); do
	case $m in
	idle|busy) ;;
	*) echo "check-stress: unknown mode $m (idle, busy)" >&2; exit 2 ;;
	esac
done
cores=$(nproc)
jobs=${STRESS_JOBS:-$cores}
out=${STRESS_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tp-stress.XXXXXX")} || exit 1
mkdir -p "$out"
busy=""

stop_busy() {
	for p in $busy; do
		kill "$p" 2>/dev/null
	done
	for p in $busy; do
		wait "$p" 2>/dev/null
	done
	busy=""
}
trap 'stop_busy' EXIT
trap 'exit 130' INT TERM

start_busy() {
	i=0
	while [ "$i" -lt "$cores" ]; do
		sh -c 'while :; do :; done' &
		busy="$busy $!"
		i=$((i + 1))
	done
}

now() {
	date +%s.%N
}

if [ $clone = 1 ]; then
	dir=$out/clone
	git clone -q "$top" "$dir" || exit 1
	(cd "$dir" && ./bootstrap) > "$out/bootstrap.log" 2>&1 || {
		echo "check-stress: ./bootstrap failed in $dir:"
		tail -n 20 "$out/bootstrap.log"
		exit 1
	}
	echo "check-stress: fresh clone of $(git -C "$top" rev-parse --short \
	    HEAD) in $dir"
else
	dir=$top
fi
cd "$dir" || exit 1
make -s -j"$jobs" >/dev/null || { echo "check-stress: make failed"; exit 1; }

failed=0
summary=""
# run MODE WHAT COMMAND...: N runs of COMMAND, one line each.
run() {
	mode=$1 what=$2
	shift 2
	pass=0 times=""
	k=1
	while [ "$k" -le "$runs" ]; do
		[ "$mode" = busy ] && start_busy
		t0=$(now)
		"$@" > "$out/last.out" 2>&1
		rc=$?
		t1=$(now)
		[ "$mode" = busy ] && stop_busy
		s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
		times="$times $s"
		if [ $rc = 0 ]; then
			pass=$((pass + 1))
			echo "$what, $mode $k/$runs: passed, ${s} s"
		else
			failed=$((failed + 1))
			keep=$out/$what-$mode-$k
			mkdir -p "$keep"
			cp "$out/last.out" "$keep/out" 2>/dev/null
			for l in $(grep -lE '^(FAIL|ERROR)' tests/*.log \
			    2>/dev/null); do
				cp "$l" "$keep/"
			done
			echo "$what, $mode $k/$runs: FAILED (exit $rc), ${s} s:" \
			    "$(grep -hE '^(FAIL|ERROR):' "$out/last.out" |
			    tr '\n' ' ')logs in $keep"
		fi
		k=$((k + 1))
	done
	summary="$summary
$what, $mode: $pass of $runs passed, wall s min/median/max $(echo $times |
	    tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END {
	    printf "%s/%s/%s", v[1], v[int((NR + 1) / 2)], v[NR] }')"
}

echo "check-stress: $runs runs per mode ($modes), make check -j$jobs," \
    "$cores cores, busy = one loop per core; failures kept in $out"
for m in $(echo "$modes" | tr , ' '); do
	if [ -n "${STRESS_TESTS:-}" ]; then
		run "$m" "check" make -s -j"$jobs" check \
		    TESTS="$STRESS_TESTS"
	else
		run "$m" "check" make -s -j"$jobs" check
	fi
	if [ $san = 1 ]; then
		runs_saved=$runs
		runs=1
		run "$m" "sanitize" "$dir/tests/sanitize.sh"
		runs=$runs_saved
	fi
done
echo "check-stress: summary$summary"
if [ "$failed" = 0 ] && [ -z "${STRESS_OUT:-}" ]; then
	cd / && rm -rf "$out"
fi
[ "$failed" = 0 ]
