#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: the target disappears mid-run: a scan of a loop device whose
# device is detached and whose backing file is truncated to nothing while
# it reads.  tierprobe ends with one line naming the device (I/O error),
# exit 1, and the points measured before are kept in the --json report.
# Root only.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
need_root
need losetup

t_loop 256M || skip "no loop device"
dev=$t_dev
dd if=/dev/urandom of="$t_img" bs=1M count=256 conv=notrunc status=none ||
    fail "dd"
j=$t_dir/r.json
t_bg "$TIERPROBE" scan "$dev" --min-ws 16M --max-ws 256M --points 16 \
    --max-time 0.3 --quiet --json "$j" >/dev/null 2>"$t_dir/err"
sleep 2
kill -0 "$t_pid" 2>/dev/null || fail "scan ended before the detach: $(cat "$t_dir/err")"
losetup -d "$dev" || fail "losetup -d"
: >"$t_img"
t_wait "$t_pid" 60 || fail "tierprobe still running 60 s after the detach"
t_one_line "$t_rc" 1 "$t_dir/err" "$dev"
grep -qi 'I/O error' "$t_dir/err" || fail "not an I/O error: $(cat "$t_dir/err")"
[ -f "$j" ] || fail "no report written"
t_json_ok "$j" || fail "report is not complete JSON"
if command -v jq >/dev/null; then
	n=$(jq '.scan.points | length' "$j")
	[ "$n" -ge 1 ] || fail "partial results lost: $n points in the report"
	[ "$(jq .interrupted "$j")" = false ] || fail "marked interrupted"
fi
echo "ok"
