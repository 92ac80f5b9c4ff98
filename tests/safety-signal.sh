#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: SIGINT and SIGTERM in each phase of a run: while the test
# file is filled (writes slowed by a blkio cgroup), during the scan, during
# the limit sweeps, during the commits of sync.  Each ends with exit 130, a complete --json report that
# says "interrupted": true, and the test file this run created removed,
# and one line on stderr saying where the report went and what was removed.
# A second SIGINT exits at once, still removing the file.  Each run is
# held (tests/t_hold.c) right after the progress line of the phase the
# signal is for, and signalled there.
. "${TOP_SRCDIR:-.}/tests/cgroup-lib.sh"

j=$t_dir/r.json
f=$t_dir/t.dat

# After signal $1 to the run in t_pid, check the contract (and that the
# report holds what jq expression $3 says was measured before, if given).
interrupt_and_check() {
	t_wait "$t_pid" 30 || fail "$2: still running 30 s after SIG$1"
	[ "$t_rc" = 130 ] || fail "$2: SIG$1 gave exit $t_rc, expected 130: $(cat "$t_dir/err")"
	[ -f "$j" ] || fail "$2: no report written"
	t_json_ok "$j" || fail "$2: report is not complete JSON"
	grep -q '"interrupted": *true' "$j" ||
	    fail "$2: report does not say interrupted"
	if [ -n "${3:-}" ] && command -v jq >/dev/null; then
		jq -e "$3" "$j" >/dev/null ||
		    fail "$2: the partial report lacks what was measured ($3)"
	fi
	[ ! -e "$f" ] || fail "$2: the test file was left behind"
	said="interrupted: the partial report is on standard output and in $j; removed $f (this run created it)"
	[ "$(grep -c '^tierprobe: interrupted: ' "$t_dir/err")" = 1 ] &&
	    grep -qxF "tierprobe: $said" "$t_dir/err" ||
	    fail "$2: not said where the report went: $(cat "$t_dir/err")"
	left=$(ls -A "$t_dir" | grep -v -e '^r.json$' -e '^err$')
	[ -z "$left" ] || fail "$2: left behind: $left"
	rm -f "$j"
}

# During the scan: held after its first point.
t_hold 2 "scan 1/" -- "$TIERPROBE" scan "$f" --min-ws 16M --max-ws 64M \
    --points 8 --max-time 1 --precision 0.1 --json "$j" >/dev/null \
    2>"$t_dir/err"
t_held "the scan's first point"
t_release INT
interrupt_and_check INT scan \
    '(.scan.points | length) >= 1 and .scan.interrupted and .limits == null'

# During the limit sweeps, with SIGTERM: held after their first point.
t_hold 2 "iodepth 1/" -- "$TIERPROBE" limits "$f" --ws 32M --max-time 3 \
    --sustain 60 --json "$j" >/dev/null 2>"$t_dir/err"
t_held "the limits' first point"
t_release TERM
interrupt_and_check TERM limits \
    '(.limits.qd_points | length) >= 1 and .limits.interrupted'

# During the commits, writers' files open beside the test file: held after
# the 16 writers with a file each; the one-writer commits measured before
# stay in the report.
t_hold 2 "writers 1/" -- "$TIERPROBE" sync "$f" --methods fdatasync \
    --bs 8K --writers 16 --max-time 1 --precision 0.1 --json "$j" \
    >/dev/null 2>"$t_dir/err"
t_held "the writers' commits"
t_release INT
interrupt_and_check INT sync \
    '[.sync.methods[] | select(.writers == 1 and .bs == 8192)] | length == 1'

# A second SIGINT: out at once, the test file still removed.  Held after
# the scan's first point for the first; then held at the partial
# report's first write to stdout (the first signal's way out) for the
# second.
t_hold 2 "scan 1/" 1 "" -- "$TIERPROBE" scan "$f" --min-ws 16M \
    --max-ws 64M --points 8 --max-time 3 --precision 0.1 \
    >/dev/null 2>"$t_dir/err"
t_held "the scan's first point"
t_release INT
t_held "the partial report's first write"
t_release INT
t_wait "$t_pid" 30 || fail "two SIGINTs: still running after 30 s"
[ "$t_rc" = 130 ] || fail "two SIGINTs: exit $t_rc, expected 130"
[ ! -e "$f" ] || fail "two SIGINTs: the test file was left behind"
grep -q '^tierprobe: interrupted: ' "$t_dir/err" &&
    fail "two SIGINTs: the first signal's way out went on to its end"

# While filling: only where a cgroup can slow the writes down (32 MiB/s).
if cg_have io && d=$(cg_disk "$t_dir"); then
	cg_new signal
	cg_io "$cg" "$d" wbps=33554432 || fail "cannot cap the writes"
	# cg_exec as a command, for t_hold to run.
	in_cg='for d in $0; do echo $$ > "$d/cgroup.procs" || exit 1; done
	    exec "$@"'
	for sig in INT TERM; do
		t_hold 2 "filling " -- sh -c "$in_cg" "$(cg_dirs "$cg")" \
		    "$TIERPROBE" scan "$f" \
		    --min-ws 16M --max-ws 256M --points 2 --max-time 1 \
		    --json "$j" >/dev/null 2>"$t_dir/err"
		t_held "the fill"
		t_release "$sig"
		interrupt_and_check "$sig" "fill ($sig)" '(.scan.points // []) | length == 0'
	done
	t_hold 2 "filling " -- sh -c "$in_cg" "$(cg_dirs "$cg")" \
	    "$TIERPROBE" prep "$f" --size 256M 2>"$t_dir/err"
	t_held "prep's fill"
		t_release INT
	t_wait "$t_pid" 30 || fail "prep: still running 30 s after SIGINT"
	[ "$t_rc" = 130 ] || fail "prep: SIGINT gave exit $t_rc"
	[ ! -e "$f" ] || fail "prep: the partial test file was left behind"
else
	echo "note: fill phase skipped (needs root and blk-throttle)"
fi
echo "ok"
