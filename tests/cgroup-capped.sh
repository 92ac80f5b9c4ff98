#!/bin/sh
# Description: real ground truth for a rate cap that hides a store's own
# latency: the page cache of a memory cgroup (64 MiB) in front of this
# machine's disk, with a blk-throttle read IOPS cap of 1,000 on the disk
# (the page cache is not throttled).  blk-throttle lets each 100 ms slice's
# reads through at once and then stalls, so at iodepth 1 the disk's median
# stays its own and its mean is the cap's slot.  Without the cap, an
# O_DIRECT scan measures the disk's own latency, and
# neither it nor a --buffered scan may report a cap; under the cap a
# --buffered scan must find the page cache and the backing store capped:
# capped_lat_us_p50 set, capped_lat_us_mean near the slot (1 / cap,
# within 30%), lat_us_p50 within 35% of the disk's own and below a third
# of the slot; no cache may be reported capped.  Needs root, a cgroup
# memory controller and blk-throttle (v1 memory and blkio, or v2 memory
# and io) and jq (skips with 77 otherwise).  35-61 s here.  Not in TESTS
# yet: it passed 2 of its last 5 runs here (README, "Known gaps").
set -u
: "${TIERPROBE:?}"
. "$(dirname "$0")/timing-lock.sh"
builddir=$(cd "$(dirname "$TIERPROBE")/.." && pwd)
MiB=1048576
limit=$((64 * MiB))
riops=1000

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || skip "needs root"
command -v jq >/dev/null || skip "needs jq"

# v1: a memory and a blkio cgroup; v2: one cgroup with memory and io.
v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -e /sys/fs/cgroup/memory/memory.limit_in_bytes ] &&
    [ -e /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ]; then
	cgver=1
	roots="/sys/fs/cgroup/memory /sys/fs/cgroup/blkio"
elif [ -n "$v2" ] && grep -qw memory "$v2/cgroup.controllers" 2>/dev/null &&
    grep -qw io "$v2/cgroup.controllers" 2>/dev/null; then
	cgver=2
	roots=$v2
else
	skip "no cgroup memory controller with blk-throttle (v1 or v2)"
fi
name=tierprobe-caplat-$$

cgs=""
work=""
cleanup() {
	trap - EXIT INT TERM HUP
	wait 2>/dev/null
	for cg in $cgs; do
		[ -d "$cg" ] || continue
		for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do
			echo "$p" > "$(dirname "$cg")/cgroup.procs" 2>/dev/null
		done
		[ -e "$cg/memory.force_empty" ] &&
		    echo 0 > "$cg/memory.force_empty" 2>/dev/null
		i=0
		while ! rmdir "$cg" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		[ -d "$cg" ] && echo "warning: could not remove $cg"
	done
	[ -n "$work" ] && rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# A file on a real disk, written around the page cache, and the disk's
# MAJ:MIN (the kernel takes limits on disks, not partitions).
work=$(mktemp -d "$builddir/cgroup-capped.XXXXXX") || fail "mktemp"
case $(stat -f -c %T "$work") in
tmpfs|ramfs) skip "$work is in memory" ;;
esac
majmin=$(stat -c '%Hd:%Ld' "$work") || fail "stat"
sys=/sys/dev/block/$majmin
[ -e "$sys" ] || skip "$work is not on a block device ($majmin)"
[ -e "$sys/partition" ] &&
    majmin=$(cat "$(dirname "$(readlink -f "$sys")")/dev")
file=$work/data
dd if=/dev/urandom of="$file" bs=1M count=256 oflag=direct status=none \
    2>/dev/null || dd if=/dev/urandom of="$file" bs=1M count=256 \
    conv=fsync status=none || fail "cannot write the test file"
uncache() { dd if="$file" iflag=nocache count=0 status=none; }

for root in $roots; do
	mkdir "$root/$name" || fail "mkdir $root/$name"
	cgs="$cgs $root/$name"
done
if [ $cgver = 1 ]; then
	mem=/sys/fs/cgroup/memory/$name
	echo $limit > "$mem/memory.limit_in_bytes" || fail "set the limit"
	echo 0 > "$mem/memory.swappiness" 2>/dev/null
else
	echo "+memory +io" > "$v2/cgroup.subtree_control" 2>/dev/null
	[ -e "$v2/$name/memory.max" ] && [ -e "$v2/$name/io.max" ] ||
		skip "cannot enable the memory and io controllers"
	echo $limit > "$v2/$name/memory.max" || fail "set the limit"
	echo 0 > "$v2/$name/memory.swap.max" 2>/dev/null
fi

# cap N: a read IOPS cap on the disk (0: none).
cap() {
	if [ $cgver = 1 ]; then
		echo "$majmin $1" > \
		    "/sys/fs/cgroup/blkio/$name/blkio.throttle.read_iops_device"
	else
		r=$1
		[ "$r" = 0 ] && r=max
		echo "$majmin riops=$r" > "$v2/$name/io.max"
	fi
}

# scan JSON OPTION...: a scan of the file inside the cgroups.
scan() {
	out=$1
	shift
	uncache
	sh -c 'for cg in $0; do echo $$ > "$cg/cgroup.procs" || exit 1; done
	    exec "$@"' "$cgs" "$TIERPROBE" scan "$file" "$@" --seed 1 \
	    --quiet --json "$out" > "$out.txt" 2> "$out.err" ||
		fail "scan: $(tail -n 1 "$out.err")"
	sed -n '/^Scan points/,/^$/p; /^Cache tiers/,/^$/p' "$out.txt"
	jq -e '[.scan.tiers[].capped_lat_us_p50] | all(. == null)' "$out" \
	    > /dev/null || fail "a cache reported as capped"
}
buffered="--buffered --min-ws 32M --max-ws 256M --points 8 --max-time 3"

# Without the cap: the disk alone (O_DIRECT, three working sets) gives its
# own latency; neither it nor the page cache in front is reported capped.
echo "cgroup v$cgver, disk $majmin, page cache limit $((limit / MiB)) MiB"
cap 0 || fail "cannot clear the cap"
scan "$work/disk.json" --min-ws 128M --max-ws 256M --points 3 --max-time 2
scan "$work/free.json" $buffered
own=$(jq '.scan.backing.lat_us_p50 // 0' "$work/disk.json")
slot=$(awk -v c=$riops 'BEGIN { print 1e6 / c }')
awk -v o="$own" -v s="$slot" 'BEGIN { exit !(o > 0 && o < s / 4) }' ||
	skip "the disk reads in $own us: a cap of $riops IOPS would not hold it"
jq -s -e 'map(.scan.backing.capped_lat_us_p50) | all(. == null)' \
    "$work/disk.json" "$work/free.json" > /dev/null ||
	fail "the disk reported as capped where there is no cap"

cap $riops || fail "cannot set the cap"
scan "$work/capped.json" $buffered
r=$work/capped.json
[ "$(jq '.scan.tiers | length' "$r")" -ge 1 ] ||
	fail "no page cache found under the cap"
jq -e '.scan.backing.capped_lat_us_p50 != null' "$r" > /dev/null ||
	fail "the disk not reported as capped"
got=$(jq '.scan.backing.lat_us_p50 // 0' "$r")
mean=$(jq '.scan.backing.capped_lat_us_mean // 0' "$r")
echo "disk p50: $own us uncapped (O_DIRECT); under $riops IOPS: $got us, at" \
    "iodepth 1 mean $mean us (slot $slot us)"
awk -v c="$mean" -v s="$slot" 'BEGIN { e = c / s - 1
    exit !(e <= 0.30 && e >= -0.30) }' ||
	fail "capped mean $mean us, want the slot, $slot us +- 30%"
awk -v g="$got" -v o="$own" -v s="$slot" 'BEGIN { e = g / o - 1
    exit !(e <= 0.35 && e >= -0.35 && g < s / 3) }' ||
	fail "disk p50 $got us under the cap, want $own us +- 35%"
echo "ok"
exit 0
