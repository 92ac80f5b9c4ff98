#!/bin/sh
# Real ground truth for the write side: blk-throttle caps of random size on
# a loop device over a file of this test, inside a cgroup (v1
# blkio.throttle.*, or v2 io.max).  `limits --rw write` must find a write
# IOPS cap and a write bandwidth cap within 5%.  The device says "write
# through", so the kernel completes empty flushes and drops FUA before
# blk-throttle sees them: each commit is exactly one throttled write, and
# `sync` under a write IOPS cap far below the device's own commit rate must
# commit at the cap at one writer (within 5%) with every method, and 4
# writers must not get past it.  (On a "write back" disk a flush is a
# throttled write too, and a filesystem adds its journal: there a commit
# costs k I/Os, k its business.)  Commits are 4 KiB, one page: one write
# through the page cache as well.  Then the device says "write back", and
# its flushes reach the file under it on a real disk: they cost time, so
# the flush is not suspect; and under a write bandwidth cap that lets one
# 4 KiB write through per 100 ms slice, writes back to back each wait for
# it and a flush (no bytes, not charged) fits in the wait, so an O_DSYNC
# write takes what a plain one does: the flush must be found paced
# (sync.flush_queued), not hidden (no alarm: flush_suspect false, where
# the release before said true), and not the wait either (under a quarter
# of a write back to back).  Needs root, jq, losetup and blk-throttle
# (skips with 77 otherwise); about two minutes.
set -u

. "$(dirname "$0")/cgroup-lib.sh"
. "$(dirname "$0")/timing-lock.sh"
builddir=$(cd "$(dirname "$TIERPROBE")/.." && pwd)
MiB=1048576

need jq losetup
cg_need io
work=$(mktemp -d "$builddir/cgroup-sync-commit.XXXXXX") || fail "mktemp"
t_atexit "rm -rf $work"
truncate -s 512M "$work/backing" || fail "truncate"
t_atexit "losetup -n -O NAME -j $work/backing | xargs -r -n1 losetup -d"
loop=$(losetup -f --show "$work/backing") || skip "no loop device"
dev=$(basename "$loop")
echo "write through" > "/sys/block/$dev/queue/write_cache" ||
	skip "cannot set $dev's write cache to write through"
majmin=$(cat "/sys/block/$dev/dev")
cg_new commit
echo "$loop ($majmin), cgroup $cg (v$cg_ver), $(date +%T)"

# set_caps WIOPS WBPS (0: none)
set_caps() {
	cg_io "$cg" "$majmin" wiops="$1" wbps="$2"
}

# in_cgroup JSON COMMAND ARGS...: tierprobe in the cgroup, its report in JSON.
in_cgroup() {
	json=$1
	shift
	cg_run "$cg" timeout 300 "$TIERPROBE" "$@" --quiet \
	    --output-format json > "$json" || fail "tierprobe $1 exited $?"
}

# Random caps, so no constant can be tuned to them.  blk-throttle grants
# floor(cap x slice) I/Os per slice (100 ms on a loop device, which says
# it is rotational): the commit cap is a multiple of 10, so that is it.
set -- $(awk -v s=$$ 'BEGIN { srand(s); printf "%d %d %d\n",
    600 + int(rand() * 400), 16 + int(rand() * 16),
    10 * (6 + int(rand() * 7)) }')
wiops=$1 wbps=$(($2 * MiB)) ciops=$3

# 1. Write ceilings: 4 KiB writes hit the IOPS cap, large ones the bytes.
set_caps "$wiops" "$wbps" || fail "cannot set the caps"
in_cgroup "$work/limits.json" limits "$loop" --force --rw write \
    --ws 256M --max-iodepth 8 --sustain 4 --max-time 2
t_within "write iops_ceiling" \
    "$(jq -r .limits.iops_ceiling "$work/limits.json")" "$wiops" 5
t_within "write bandwidth_ceiling" \
    "$(jq -r .limits.bandwidth_ceiling_bytes_per_s "$work/limits.json")" \
    "$wbps" 5

echo "$(date +%T)"

# 2. Commits under a write IOPS cap well below what the disk commits.
set_caps "$ciops" 0 || fail "cannot set the caps"
in_cgroup "$work/sync.json" sync "$loop" --force --bs 4K --writers 1,4 \
    --max-time 4
for m in fdatasync fsync dsync direct-dsync uring-datasync; do
	t_within "$m commits/s, one writer" "$(jq -r --arg m $m \
	    '.sync.methods[] | select(.method == $m and .writers == 1) |
	    .ops_per_s' "$work/sync.json")" "$ciops" 5
done
got=$(jq -r '[.sync.methods[] | select(.writers == 4) | .ops_per_s] | max' \
    "$work/sync.json")
awk -v g="$got" -v c="$ciops" 'BEGIN { exit !(g > 0 && g <= 1.05 * c) }' ||
	fail "4 writers commit $got times a second past a cap of $ciops"
echo "4 writers: $got commits/s under a cap of $ciops"

# 3. A write-back device, alone and under a write bandwidth cap of 42 to 56
# KiB/s: 4.2 to 5.6 KiB per slice, one 4 KiB write (a write that comes
# alone gets through at once; below 4 KiB per slice even that one waits,
# and paced writes cannot escape the cap).
echo "write back" > "/sys/block/$dev/queue/write_cache" ||
	skip "cannot set $dev's write cache to write back"
slow=$(awk -v s=$$ 'BEGIN { srand(s + 1)
    print 1024 * (42 + int(rand() * 15)) }')
flush_of() {
	jq -c '.sync | [.write_us, .dsync_write_us, .paced_write_us,
	    .paced_dsync_write_us, .flush_us, .flush_queued, .flush_suspect]' "$1"
}
for caps in "0 0" "0 $slow"; do
	set_caps $caps || fail "cannot set the caps"
	in_cgroup "$work/wb.json" sync "$loop" --force --bs 4K --writers 1 \
	    --methods direct-dsync --max-time 2
	echo "write back, caps $caps (write, dsync, paced: write, dsync," \
	    "flush, queued, suspect): $(flush_of "$work/wb.json")"
	[ "$(jq -r .sync.flush_suspect "$work/wb.json")" = false ] ||
		fail "write back, caps $caps: flush_suspect" \
		    "$(jq -r .sync.flush_suspect "$work/wb.json")"
done
jq -e '.sync | .flush_queued == true and .flush_us > 0 and
    .flush_us < .write_us / 4' "$work/wb.json" > /dev/null ||
	fail "under $slow bytes/s the flush was not measured paced"
"$TIERPROBE" report "$work/wb.json" | grep -q "flush adds only" &&
	fail "under $slow bytes/s: a false durability alarm"
echo "PASS $(date +%T)"
