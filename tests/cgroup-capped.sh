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
# within 30%), lat_us_p50 within 35% of the range of the disk's own
# through the page cache (a miss there costs more than an O_DIRECT read):
# from what the uncapped --buffered scan read to what fio, paced at a
# quarter of the cap, reads under it; and below a third of the slot; no
# cache may be reported capped.  Needs root, a cgroup memory controller
# and blk-throttle (v1 memory and blkio, or v2 memory and io), fio and jq
# (skips with 77 otherwise); cgroups through cgroup-lib.sh.  About 35 s
# here.
. "$(dirname "$0")/cgroup-lib.sh"
. "$(dirname "$0")/timing-lock.sh"
builddir=$(cd "$(dirname "$TIERPROBE")/.." && pwd)
MiB=1048576
limit=$((64 * MiB))
riops=1000

need fio jq
cg_need memory io

# A file on a real disk, written around the page cache, and the disk's
# MAJ:MIN (the kernel takes limits on disks, not partitions).
work=$(mktemp -d "$builddir/cgroup-capped.XXXXXX") || fail "mktemp"
t_atexit "rm -rf $work"
case $(stat -f -c %T "$work") in
tmpfs|ramfs) skip "$work is in memory" ;;
esac
majmin=$(cg_disk "$work") || skip "$work is not on a block device"
file=$work/data
dd if=/dev/urandom of="$file" bs=1M count=256 oflag=direct status=none \
    2>/dev/null || dd if=/dev/urandom of="$file" bs=1M count=256 \
    conv=fsync status=none || fail "cannot write the test file"
uncache() { dd if="$file" iflag=nocache count=0 status=none; }

cg_new capped
cg_mem "$cg" $limit || fail "set the limit"

# cap N: a read IOPS cap on the disk (0: none).
cap() { cg_io "$cg" "$majmin" riops="$1"; }

# scan JSON OPTION...: a scan of the file inside the cgroups.
scan() {
	out=$1
	shift
	uncache
	cg_run "$cg" "$TIERPROBE" scan "$file" "$@" --seed 1 \
	    --quiet --json "$out" > "$out.txt" 2> "$out.err" ||
		fail "scan: $(tail -n 1 "$out.err")"
	sed -n '/^Scan points/,/^$/p; /^Cache tiers/,/^$/p' "$out.txt"
	jq -e '[.scan.tiers[].capped_lat_us_p50] | all(. == null)' "$out" \
	    > /dev/null || fail "a cache reported as capped"
}
buffered="--buffered --min-ws 32M --max-ws 256M --points 8 --max-time 3"

# Without the cap: the disk alone (O_DIRECT, three working sets) gives its
# own latency; neither it nor the page cache in front is reported capped.
echo "cgroup v$cg_ver, disk $majmin, page cache limit $((limit / MiB)) MiB"
cap 0 || fail "cannot clear the cap"
scan "$work/disk.json" --min-ws 128M --max-ws 256M --points 3 --max-time 2
scan "$work/free.json" $buffered
own=$(jq '.scan.backing.lat_us_p50 // 0' "$work/disk.json")
paged=$(jq '.scan.backing.lat_us_p50 // 0' "$work/free.json")
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

# The disk's own latency is not one figure here.  A busy reader through
# the page cache sees 39 to 77 us (scans minutes apart); a reader paced at
# a quarter of the cap under it, as tierprobe's probes are, also wakes
# from idle between reads: fio, paced so, read its misses (slower than
# 15 us; hits take 1-5 us, the disk 35 us and more) at a median of 146 to
# 202 us in three runs, while tierprobe's p50 was 47 to 58 us, and 71 us
# in two fresh-clone CI runs whose uncapped scans read 43 and 46 us.  So
# the truth is the range from the one to the other, both measured here.
cg_run "$cg" fio --name=paced --filename="$file" --rw=randread --bs=4k \
    --ioengine=psync --direct=0 --invalidate=0 --norandommap=1 \
    --randrepeat=0 --rate_iops=$((riops / 4)) --runtime=4 --time_based=1 \
    --output-format=json+ > "$work/paced.json" 2> "$work/paced.err" ||
	fail "fio: $(tail -n 1 "$work/paced.err")"
paced=$(jq -r '.jobs[0].read.clat_ns.bins | to_entries[] |
    select((.key | tonumber) > 15000) | "\(.key) \(.value)"' \
    "$work/paced.json" | sort -n | awk '
    { ns[NR] = $1; c[NR] = $2; n += $2 }
    END { for (i = 1; i <= NR; i++) if ((s += c[i]) >= n / 2) break
          if (n >= 200) printf "%.1f\n", ns[i] / 1000 }')
[ -n "$paced" ] || fail "fio paced under the cap: fewer than 200 disk reads"
echo "disk p50 uncapped: $own us O_DIRECT, $paged us through the page cache;" \
    "under $riops IOPS: fio paced at $((riops / 4)) IOPS $paced us," \
    "tierprobe $got us, at iodepth 1 mean $mean us (slot $slot us)"
awk -v c="$mean" -v s="$slot" 'BEGIN { e = c / s - 1
    exit !(e <= 0.30 && e >= -0.30) }' ||
	fail "capped mean $mean us, want the slot, $slot us +- 30%"
awk -v o="$paged" -v s="$slot" 'BEGIN { exit !(o > 0 && o < s / 4) }' ||
	fail "no disk latency from the uncapped scan through the page cache"
awk -v g="$got" -v lo="$paged" -v hi="$paced" -v s="$slot" 'BEGIN {
    if (hi < lo) { t = lo; lo = hi; hi = t }
    exit !(g >= lo / 1.35 && g <= hi * 1.35 && g < s / 3) }' ||
	fail "disk p50 $got us under the cap, want $paged us (busy) to" \
	    "$paced us (paced) +- 35%, under a third of the slot"
echo "ok"
exit 0
