#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: SIGINT and SIGTERM in each phase of a run: while the test
# file is filled (writes slowed by a blkio cgroup), during the scan, during
# the limit sweeps, during the commits of sync.  Each ends with exit 130, a complete --json report that
# says "interrupted": true, and the test file this run created removed,
# and one line on stderr saying where the report went and what was removed.
# A second SIGINT exits at once, still removing the file.
. "${TOP_SRCDIR:-.}/tests/cgroup-lib.sh"

j=$t_dir/r.json
f=$t_dir/t.dat

# Signal $1 to the run in t_pid, then check the contract (and that the
# report holds what jq expression $3 says was measured before, if given).
interrupt_and_check() {
	kill "-$1" "$t_pid"
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

# During the scan: a small file (filled quickly), a long scan.
t_bg "$TIERPROBE" scan "$f" --min-ws 16M --max-ws 64M --points 8 \
    --max-time 1 --precision 0.1 --quiet --json "$j" >/dev/null \
    2>"$t_dir/err"
t_until '[ "$(t_size "$f")" -ge 67108864 ]' ||
    fail "the test file never reached its size"
sleep 1
interrupt_and_check INT scan

# During the limit sweeps, with SIGTERM.
t_bg "$TIERPROBE" limits "$f" --ws 32M --max-time 3 --sustain 60 --quiet \
    --json "$j" >/dev/null 2>"$t_dir/err"
sleep 2
interrupt_and_check TERM limits

# During the commits, writers' files open beside the test file: the
# one-writer commits measured before stay in the report.
t_bg "$TIERPROBE" sync "$f" --methods fdatasync --bs 8K --writers 16 \
    --max-time 1 --precision 0.1 --quiet --json "$j" >/dev/null \
    2>"$t_dir/err"
t_until '[ -e "$f.w15" ]' || fail "sync: no writers' files"
interrupt_and_check INT sync \
    '[.sync.methods[] | select(.writers == 1 and .bs == 8192)] | length == 1'

# A second SIGINT: out at once, the test file still removed.
t_bg "$TIERPROBE" scan "$f" --min-ws 16M --max-ws 64M --points 8 \
    --max-time 3 --precision 0.1 --quiet >/dev/null 2>"$t_dir/err"
sleep 2
kill -INT "$t_pid"
kill -INT "$t_pid"
t_wait "$t_pid" 30 || fail "two SIGINTs: still running after 30 s"
[ "$t_rc" = 130 ] || fail "two SIGINTs: exit $t_rc, expected 130"
[ ! -e "$f" ] || fail "two SIGINTs: the test file was left behind"

# While filling: only where a cgroup can slow the writes down (32 MiB/s).
if cg_have io && d=$(cg_disk "$t_dir"); then
	cg_new signal
	cg_io "$cg" "$d" wbps=33554432 || fail "cannot cap the writes"
	for sig in INT TERM; do
		t_bg cg_exec "$cg" "$TIERPROBE" scan "$f" --min-ws 16M \
		    --max-ws 256M --points 2 --max-time 1 --json "$j" \
		    >/dev/null 2>"$t_dir/err"
		t_until '[ "$(t_size "$f")" -gt 0 ]' ||
		    fail "fill never started"
		interrupt_and_check "$sig" "fill ($sig)"
	done
	t_bg cg_exec "$cg" "$TIERPROBE" prep "$f" --size 256M 2>"$t_dir/err"
	t_until '[ "$(t_size "$f")" -gt 0 ]' ||
	    fail "prep: fill never started"
	kill -INT "$t_pid"
	t_wait "$t_pid" 30 || fail "prep: still running 30 s after SIGINT"
	[ "$t_rc" = 130 ] || fail "prep: SIGINT gave exit $t_rc"
	[ ! -e "$f" ] || fail "prep: the partial test file was left behind"
else
	echo "note: fill phase skipped (needs root and blk-throttle)"
fi
echo "ok"
