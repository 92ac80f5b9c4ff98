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
# through the page cache as well.  Needs root, jq, losetup and blk-throttle
# (skips with 77 otherwise); about a minute.
set -u

: "${TIERPROBE:?}"
builddir=$(cd "$(dirname "$TIERPROBE")/.." && pwd)
MiB=1048576

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || skip "needs root"
command -v jq >/dev/null || skip "needs jq"

v1=/sys/fs/cgroup/blkio
v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -e "$v1/blkio.throttle.write_iops_device" ]; then
	cgroot=$v1
elif [ -n "$v2" ] && grep -qw io "$v2/cgroup.controllers" 2>/dev/null; then
	cgroot=$v2
else
	skip "no blk-throttle: neither cgroup v1 blkio nor v2 io"
fi

cg=""
work=""
loop=""
cleanup() {
	trap - EXIT INT TERM HUP
	[ -n "$loop" ] && losetup -d "$loop"
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		i=0
		while ! rmdir "$cg" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	fi
	[ -n "$work" ] && rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

command -v losetup >/dev/null || skip "needs losetup"
work=$(mktemp -d "$builddir/cgroup-sync-commit.XXXXXX") || fail "mktemp"
truncate -s 512M "$work/backing" || fail "truncate"
loop=$(losetup -f --show "$work/backing") || skip "no loop device"
dev=$(basename "$loop")
echo "write through" > "/sys/block/$dev/queue/write_cache" ||
	skip "cannot set $dev's write cache to write through"
majmin=$(cat "/sys/block/$dev/dev")

cg=$cgroot/tierprobe-commit-$$
mkdir "$cg" || fail "mkdir $cg"
if [ "$cgroot" = "$v2" ]; then
	echo "+io" > "$cgroot/cgroup.subtree_control" 2>/dev/null
	[ -e "$cg/io.max" ] || skip "cannot enable the io controller"
fi
echo "$loop ($majmin), cgroup $cg, $(date +%T)"

# set_caps WIOPS WBPS (0: none)
set_caps() {
	if [ "$cgroot" = "$v1" ]; then
		echo "$majmin $1" > "$cg/blkio.throttle.write_iops_device" &&
		echo "$majmin $2" > "$cg/blkio.throttle.write_bps_device"
	else
		i=$1; b=$2
		[ "$i" = 0 ] && i=max
		[ "$b" = 0 ] && b=max
		echo "$majmin wiops=$i wbps=$b" > "$cg/io.max"
	fi
}

# in_cgroup JSON COMMAND ARGS...: tierprobe in the cgroup, its report in JSON.
in_cgroup() {
	json=$1
	shift
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" \
	    timeout 300 "$TIERPROBE" "$@" --quiet --output-format json \
	    > "$json" || fail "tierprobe $1 exited $?"
}

# within NAME GOT WANT PCT
within() {
	awk -v n="$1" -v g="$2" -v w="$3" -v p="$4" 'BEGIN {
		d = g == "" || g == "null" ? 1e9 : 100 * (g / w - 1)
		printf "%s: %s, want %g (%+.1f%%, limit %g%%)\n", n, g, w, d, p
		exit (d > p || d < -p) }' || fail "$1 out of range"
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
within "write iops_ceiling" \
    "$(jq -r .limits.iops_ceiling "$work/limits.json")" "$wiops" 5
within "write bandwidth_ceiling" \
    "$(jq -r .limits.bandwidth_ceiling_bytes_per_s "$work/limits.json")" \
    "$wbps" 5

echo "$(date +%T)"

# 2. Commits under a write IOPS cap well below what the disk commits.
set_caps "$ciops" 0 || fail "cannot set the caps"
in_cgroup "$work/sync.json" sync "$loop" --force --bs 4K --writers 1,4 \
    --max-time 4
for m in fdatasync fsync dsync direct-dsync uring-datasync; do
	within "$m commits/s, one writer" "$(jq -r --arg m $m \
	    '.sync.methods[] | select(.method == $m and .writers == 1) |
	    .ops_per_s' "$work/sync.json")" "$ciops" 5
done
got=$(jq -r '[.sync.methods[] | select(.writers == 4) | .ops_per_s] | max' \
    "$work/sync.json")
awk -v g="$got" -v c="$ciops" 'BEGIN { exit !(g > 0 && g <= 1.05 * c) }' ||
	fail "4 writers commit $got times a second past a cap of $ciops"
echo "4 writers: $got commits/s under a cap of $ciops"
echo "PASS $(date +%T)"
