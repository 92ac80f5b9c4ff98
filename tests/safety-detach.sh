#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: the target goes away mid-run.  A test file truncated to
# 1 MiB while it is scanned (short reads), and, as root, a loop device
# detached with its backing file truncated to nothing while it is read.
# Each: one line naming the target (I/O error), exit 1, and the points
# measured before kept in the --json report.  The scan is held right after
# its first point's progress line (tests/t_hold.c) while the target goes.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"

j=$t_dir/r.json
# The report of the run that failed: complete, not interrupted, points kept.
partial_kept() {
	[ -f "$j" ] || fail "$1: no report written"
	t_json_ok "$j" || fail "$1: report is not complete JSON"
	if command -v jq >/dev/null; then
		n=$(jq '.scan.points | length' "$j")
		[ "$n" -ge 1 ] || fail "$1: partial results lost ($n points)"
		[ "$(jq .interrupted "$j")" = false ] ||
		    fail "$1: marked interrupted"
	fi
	rm -f "$j"
}

f=$t_dir/t.dat
"$TIERPROBE" prep "$f" --size 64M --quiet || fail "prep"
t_hold 2 "scan 1/" -- "$TIERPROBE" scan "$f" --min-ws 16M --max-ws 64M \
    --points 16 --max-time 0.3 --precision 0.1 --json "$j" >/dev/null \
    2>"$t_dir/err.all"
t_held "the scan's first point"
truncate -s 1M "$f"
t_release
t_wait "$t_pid" 60 || fail "tierprobe still running 60 s after the truncation"
t_no_progress "$t_dir/err.all" >"$t_dir/err"
t_one_line "$t_rc" 1 "$t_dir/err" "$f"
grep -qi 'short read' "$t_dir/err" || fail "not a short read: $(cat "$t_dir/err")"
partial_kept "shrunk file"

if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
	echo "note: loop-device part skipped (needs root and losetup)"
	echo "ok"
	exit 0
fi
t_loop 256M || { echo "note: no loop device"; echo "ok"; exit 0; }
dev=$t_dev
dd if=/dev/urandom of="$t_img" bs=1M count=256 conv=notrunc status=none ||
    fail "dd"
t_hold 2 "scan 1/" -- "$TIERPROBE" scan "$dev" --min-ws 16M \
    --max-ws 256M --points 16 --max-time 0.3 --precision 0.1 --json "$j" \
    >/dev/null 2>"$t_dir/err.all"
t_held "the scan's first point"
losetup -d "$dev" || fail "losetup -d"
: >"$t_img"
t_release
t_wait "$t_pid" 60 || fail "tierprobe still running 60 s after the detach"
t_no_progress "$t_dir/err.all" >"$t_dir/err"
t_one_line "$t_rc" 1 "$t_dir/err" "$dev"
grep -qi 'I/O error' "$t_dir/err" || fail "not an I/O error: $(cat "$t_dir/err")"
partial_kept "detached loop device"
echo "ok"
