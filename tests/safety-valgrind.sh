#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: valgrind memcheck on short real runs: prep (the fill), a
# run (scan, tiers analysis, limits) through io_uring (valgrind 3.19
# follows its syscalls), a scan through psync, and re-rendering and
# comparing the report.  Any memcheck error or definite/indirect leak
# fails the test.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
[ -z "${TIERPROBE_SANITIZED:-}" ] || skip "valgrind cannot run an ASan binary"
need valgrind

f=$t_dir/t.dat
vg() {
	valgrind -q --error-exitcode=99 --leak-check=full \
	    --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
	    --log-file="$t_dir/vg.log" "$TIERPROBE" "$@" >"$t_dir/out" \
	    2>"$t_dir/err"
	rc=$?
	[ "$rc" != 99 ] || fail "memcheck on '$*': $(head -n 30 "$t_dir/vg.log")"
	[ "$rc" = 0 ] || fail "'$*' exited $rc under valgrind: $(cat "$t_dir/err")"
}

vg prep "$f" --size 32M --quiet
vg run "$f" --min-ws 8M --max-ws 32M --points 3 --max-time 0.2 --ws 16M \
    --max-iodepth 4 --sustain 0.5 --quiet --json "$t_dir/r.json"
vg scan "$f" --engine psync --min-ws 16M --max-ws 32M --points 2 \
    --max-time 0.2 --quiet
vg report "$t_dir/r.json" --output-format markdown
vg compare "$t_dir/r.json" "$t_dir/r.json"
echo "ok"
