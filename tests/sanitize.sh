#!/bin/sh
# SPDX-License-Identifier: ISC
# Build tierprobe with ASan and UBSan in a copy of the source tree and run
# the unit suite (every cmocka program) and the quick shell tests there.
# usage: tests/sanitize.sh [WORKDIR]     (default: a temporary directory)
# SANITIZE_TESTS="tests/x tests/y.sh" replaces the list of tests run.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ge 1 ]; then
	work=$1
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/tierprobe-sanitize.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	trap 'exit 130' INT TERM
fi
work=$(cd "$work" && pwd)

# Shell tests left out: they measure memory or run valgrind (meaningless
# under ASan), take minutes, measure the real disk's timing, which ASan's
# CPU cost distorts, or test Ansible rather than tierprobe.
slow="tests/safety-memory.sh tests/safety-valgrind.sh \
tests/limits-real.sh \
tests/cgroup-cache.sh tests/cgroup-throttle.sh tests/cgroup-hierarchy.sh \
tests/fuse-hierarchy.sh \
tests/cgroup-multi.sh tests/cgroup-capped.sh tests/cgroup-sync.sh \
tests/writeback-buffer.sh \
tests/ansible-fleet.sh \
tests/ansible-lint.sh"

# A clean copy: the tracked and new files, none of the in-tree build.
cd "$top"
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z -co --exclude-standard | tar -c --null -T - -f - |
	    tar -x -C "$work" -f -
else
	tar -c --exclude=.git -f - . | tar -x -C "$work" -f -
	(cd "$work" && { [ ! -f Makefile ] || make -s distclean; })
fi
cd "$work"
autoreconf -fi >/dev/null 2>&1
./configure -q --enable-debug --enable-asan --enable-ubsan
make -s -j"$(nproc)" >/dev/null

list() {	# a variable of the generated Makefile
	printf 'show:\n\t@echo $(%s)\n' "$1" | make -s -f Makefile -f - show
}
if [ -n "${SANITIZE_TESTS:-}" ]; then
	tests=$SANITIZE_TESTS
else
	tests=
	for t in $(list TESTS); do
		case " $slow " in *" $t "*) continue ;; esac
		tests="$tests $t"
	done
fi
echo "sanitize: ASan + UBSan:$(echo "$tests" | wc -w) tests"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
TIERPROBE_SANITIZED=1
export ASAN_OPTIONS UBSAN_OPTIONS TIERPROBE_SANITIZED
# Two at a time; the real-disk timing tests (they source
# tests/timing-lock.sh) after the others, one at a time.
free= timed=
for t in $tests; do
	case $t in
	*.sh) grep -q timing-lock.sh "$t" && { timed="$timed $t"; continue; } ;;
	esac
	free="$free $t"
done
status=0
make -s -j2 check TESTS="$free" >make-check.out 2>&1 || status=$?
[ -z "$timed" ] || make -s check TESTS="$timed" >>make-check.out 2>&1 ||
    status=$?
grep -E '^(PASS|FAIL|SKIP|ERROR|XPASS):' make-check.out || true
if [ "$status" != 0 ]; then
	for log in $(grep -lE '^(FAIL|ERROR)' tests/*.log 2>/dev/null); do
		echo "--- $log"
		tail -n 40 "$log"
	done
fi
exit "$status"
