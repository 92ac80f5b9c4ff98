#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: a real write-back buffer of known size, found by `run`.  The
# page cache of a small ext4 on a loop device, written buffered, drains
# through a root-level blk-throttle write_bps_device cap on that loop
# device only (writeback is issued by the flusher threads of the root
# cgroup), and the loop device's bdi gets a strict dirty limit of its own
# (strict_limit, min = max ratio), so that nothing machine-wide changes.
#
# Expected size, from the kernel's thresholds (mm/page-writeback.c): with
# min_ratio = max_ratio the bdi's dirty threshold is wb_thresh = max_bytes
# as sysfs reads it back; its background threshold wb_bg = wb_thresh x
# bg_thresh / thresh (nr_dirty_background_threshold / nr_dirty_threshold).
# A strict-limit writer runs free until the bdi's dirty and writeback
# pages reach (wb_thresh + wb_bg) / 2, the control line's setpoint, and is
# stopped at wb_thresh: the bytes taken above the drain rate lie in
# [(wb_thresh + wb_bg) / 2, wb_thresh], the setpoint when it settles.
# The control line settles there only once the bdi's dirty rate limit has
# found the drain rate, and a loop device's bdi keeps the one of its last
# user (a new one starts at 100 MiB/s): a warm-up write through the same
# limit and cap sets it first.  Tolerance: tierprobe's own 95% interval on
# top of that range (the slow rate's error times the fill time), widened
# by 300 ms of the cap: a throttled writer checks the dirty pages at most
# every 200 ms (MAX_PAUSE) and blk-throttle grants 100 ms of the cap at
# once, so the dirty pages ripple by that much around the setpoint.  Root,
# jq, losetup, mkfs.ext4 and a 6.2+ kernel (per-bdi max_bytes and
# strict_limit); skips (77) otherwise.  About 80 s.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
. "${TOP_SRCDIR:-.}/tests/timing-lock.sh"
need_root
need jq losetup mkfs.ext4 awk

MiB=1048576
cap=$((8 * MiB))
want=$((32 * MiB))
root=/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device
[ -w "$root" ] || skip "no root-level blkio write_bps_device (cgroup v1)"

t_loop 600M || skip "no loop device"
dev=$t_dev
losetup --direct-io=on "$dev" 2>/dev/null || :
mm=$(cat "/sys/block/${dev#/dev/}/dev")
bdi=/sys/class/bdi/$mm
[ -w "$bdi/max_bytes" ] && [ -w "$bdi/strict_limit" ] ||
    skip "no per-bdi max_bytes/strict_limit (kernel before 6.2)"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" ||
    fail "mkfs.ext4"
t_mount "$dev" || skip "cannot mount ext4"
f=$t_mnt/buf.dat
# Filled before the cap (O_DIRECT, at the disk's speed).
"$TIERPROBE" prep "$f" --size 256M --quiet || fail "prep"

# The bdi's limits and the cap, undone at exit (the bdi outlives the
# loop device).
t_atexit "echo $(cat "$bdi/min_ratio_fine") > $bdi/min_ratio_fine"
t_atexit "echo $(cat "$bdi/max_ratio_fine") > $bdi/max_ratio_fine"
t_atexit "echo $(cat "$bdi/strict_limit") > $bdi/strict_limit"
echo "$want" > "$bdi/max_bytes" || fail "max_bytes"
cat "$bdi/max_ratio_fine" > "$bdi/min_ratio_fine" || fail "min_ratio_fine"
echo 1 > "$bdi/strict_limit" || fail "strict_limit"
t_atexit "echo '$mm 0' > $root"
echo "$mm $cap" > "$root" || fail "write_bps_device"
dd if=/dev/zero of="$t_mnt/warm" bs=1M count=40 conv=fdatasync status=none ||
    fail "warm-up write"
rm -f "$t_mnt/warm"

wb_before=$(cat "$bdi/max_bytes")
"$TIERPROBE" run "$f" --buffered --min-ws 16M --max-ws 16M --points 1 \
    --max-time 0.2 --ws 240M --max-iodepth 2 --sustain 10 \
    --methods fdatasync --bs 4K --writers 1 --quiet --json "$t_dir/r.json" \
    >/dev/null 2>"$t_dir/err" || fail "run: $(cat "$t_dir/err")"
wb_after=$(cat "$bdi/max_bytes")
bg=$(awk '$1 == "nr_dirty_background_threshold" { b = $2 }
    $1 == "nr_dirty_threshold" { t = $2 } END { print b / t }' /proc/vmstat)

w() { jq -r ".writes.$1" "$t_dir/r.json"; }
[ "$(w buffer_detected)" = true ] || fail "no write-back buffer found"
awk -v b="$(w buffer_bytes)" -v lo="$(w buffer_low_bytes)" \
    -v hi="$(w buffer_high_bytes)" -v w1="$wb_before" -v w2="$wb_after" \
    -v bg="$bg" -v cap="$cap" 'BEGIN {
	wmin = w1 < w2 ? w1 : w2; wmax = w1 < w2 ? w2 : w1
	half = (hi - lo) / 2 + cap * 0.3
	low = wmin * (1 + bg) / 2 - half; high = wmax + half
	printf "buffer %.1f MiB (95%%: %.1f-%.1f), expected %.1f-%.1f MiB\n",
	    b / 1048576, lo / 1048576, hi / 1048576, low / 1048576,
	    high / 1048576
	exit !(b >= low && b <= high)
}' || fail "the buffer is not the kernel's"
awk -v s="$(w slow_bytes_per_s)" -v cap="$cap" 'BEGIN {
	printf "drain %.2f MiB/s, cap %.2f MiB/s\n", s / 1048576, cap / 1048576
	exit !(s >= 0.9 * cap && s <= 1.05 * cap)
}' || fail "the slow rate is not the cap's"
echo "ok"
