#!/bin/sh
# Description: a real page cache over a disk whose latency drifts during
# the scan is one cache, stated (issue 24, item 11).  The page cache of a
# memory cgroup limited to 256 MiB, its effective capacity measured by fio
# as tests/cgroup-cache.sh does; then a --buffered scan to 1.5 GiB in the
# cgroup while competing readers outside it (random O_DIRECT reads of
# another file, a reader more every 1.5 s, five at most) make the disk's
# latency climb with the clock, not with the working set.  The disk must
# have drifted: the p50 of the scan's reads slower than 20 us (the disk's)
# at the last point 1.3 times that at the first point past the cache at
# least, else the test skips (the load did not move it).  Then the scan
# must be analysed with exactly one tier, within 10% of fio's capacity,
# and no class of reads left unexplained; a working set the scan measured
# again must carry the note's word on the drift.  Before the analysis told
# a drift from a cache (a class that keeps its share when its working set
# is measured again), two of three runs of this set-up were "not
# analysed: a class of reads at ~124-130 us grows ... another cache?",
# scan.tiers empty.  On 17ed5f1 one run in six that drifted failed here
# (the disk slowed before the working set measured again was first
# measured; tests/data/tiers-real-drift-ramp.txt), and one of two in the
# helper's before it (a climb from the page cache's slow hits just past
# its capacity); since 44a6ff2, 12 of 12 that drifted passed (4 skipped).
# Needs root, a cgroup memory controller, fio and jq
# (skips with 77 otherwise); about a minute.  DRIFT_KEEP=DIR keeps the
# report there.
. "$(dirname "$0")/cgroup-lib.sh"
. "$(dirname "$0")/timing-lock.sh"
builddir=$(cd "$(dirname "$TIERPROBE")/.." && pwd)
MiB=1048576
limit=$((256 * MiB))
fiows=$((768 * MiB))

need fio jq awk
cg_need memory

work=$(mktemp -d "$builddir/cgroup-drift.XXXXXX") || fail "mktemp"
t_atexit "rm -rf $work"
[ -n "${DRIFT_KEEP:-}" ] &&
	t_atexit "cp $work/tp.json $DRIFT_KEEP/drift-\$\$.json 2>/dev/null"
case $(stat -f -c %T "$work") in
tmpfs|ramfs) skip "$work is in memory" ;;
esac
file=$work/data
other=$work/other
for f in "$file" "$other"; do
	dd if=/dev/urandom of="$f" bs=1M count=1600 oflag=direct \
	    status=none 2>/dev/null ||
		dd if=/dev/urandom of="$f" bs=1M count=1600 conv=fsync \
		    status=none || fail "cannot write $f"
done
uncache() { dd if="$file" iflag=nocache count=0 status=none; }

cg_new drift
cg_mem "$cg" $limit || fail "set the limit"

# 1. The cache's effective capacity, by fio, as tests/cgroup-cache.sh.
uncache
cg_run "$cg" dd if="$file" of=/dev/null bs=1M count=$((fiows / MiB)) \
    status=none || fail "cannot read $file"
cg_run "$cg" fio --name=capacity --filename="$file" --rw=randread --bs=4k \
    --size=$fiows --norandommap=1 --randrepeat=0 --ioengine=psync \
    --direct=0 --invalidate=0 --ramp_time=5 --runtime=10 --time_based=1 \
    --output-format=json+ > "$work/fio.json" 2> "$work/fio.err" ||
	fail "fio: $(tail -n 1 "$work/fio.err")"
hit=$(jq '.jobs[0].read.clat_ns.bins | to_entries |
    ([.[] | select((.key | tonumber) < 20000) | .value] | add // 0) /
    ([.[].value] | add)' "$work/fio.json") || fail "fio's latency bins"
truth=$(awk -v h="$hit" -v ws=$fiows 'BEGIN { printf "%.0f", h * ws }')
echo "fio: effective capacity $((truth / MiB)) MiB (hit fraction $hit)"
[ "$truth" -gt $((limit / 4)) ] && [ "$truth" -lt $((limit * 2)) ] ||
	fail "fio's capacity is implausible for a $((limit / MiB)) MiB limit"

# 2. The scan, and the readers that make the disk drift while it runs.
uncache
cg_run "$cg" "$TIERPROBE" scan "$file" --buffered --min-ws 32M \
    --max-ws 1536M --seed "${DRIFT_SEED:-$$}" --quiet --json "$work/tp.json" \
    > "$work/tp.txt" 2> "$work/tp.err" &
scan=$!
t_atexit "kill $scan"
n=0
while [ $n -lt 5 ] && kill -0 $scan 2>/dev/null; do
	# --thread: one process, so that the kill at exit ends its job too
	# (a forked job outlived its parent's kill -9).
	t_bg fio --name=load$n --filename="$other" --rw=randread --bs=4k \
	    --direct=1 --ioengine=psync --randrepeat=0 --time_based=1 \
	    --runtime=300 --thread --output=/dev/null
	n=$((n + 1))
	sleep 1.5
done
wait $scan || fail "scan: $(tail -n 1 "$work/tp.err")"
r=$work/tp.json

# The disk's p50 (reads slower than 20 us) at a point, by its histogram.
disk_p50() {
	jq -r --argjson i "$1" '.scan.points[$i].hist[] |
	    select(.[0] >= 20000) | "\(.[0]) \(.[1])"' "$r" |
	awk '{ v[NR] = $1; c[NR] = $2; n += $2 }
	    END { for (i = 1; i <= NR; i++) if ((a += c[i]) >= n / 2) {
		printf "%.1f\n", v[i] / 1000; exit } }'
}
np=$(jq '.scan.points | length' "$r")
first=$(jq --argjson c "$truth" '[.scan.points[].ws_bytes] |
    map(select(. > 1.2 * $c)) | length' "$r")
first=$((np - first))
p0=$(disk_p50 "$first")
p1=$(disk_p50 $((np - 1)))
echo "disk p50 $p0 us at the first point past the cache, $p1 us at the" \
    "last; $n readers"
awk -v a="$p0" -v b="$p1" 'BEGIN { exit !(a > 0 && b >= 1.3 * a) }' ||
	skip "the disk's latency did not drift ($p0 -> $p1 us)"
echo "scan: $(jq -c '.scan | {analysed, tiers: [.tiers[].capacity_bytes],
    note}' "$r")"

jq -e '.scan.analysed' "$r" > /dev/null ||
	fail "not analysed: $(jq -r '.scan.note' "$r")"
n=$(jq '.scan.tiers | length' "$r")
[ "$n" = 1 ] || fail "$n tiers, want 1 ($(jq -r '.scan.note' "$r"))"
[ "$(jq '.scan.unexplained | length' "$r")" = 0 ] ||
	fail "classes left unexplained"
cap=$(jq '.scan.tiers[0].capacity_bytes' "$r")
awk -v c="$cap" -v t="$truth" 'BEGIN { e = c / t - 1; exit !(e <= 0.10 &&
    e >= -0.10) }' ||
	fail "capacity $((cap / MiB)) MiB, fio says $((truth / MiB)) MiB"
again=$(jq '[.scan.points[].ws_bytes] | length - (unique | length)' "$r")
if [ "$again" -gt 0 ]; then
	jq -e '.scan.note // "" | test("drift")' "$r" > /dev/null ||
		fail "a working set measured again, and no word of a drift"
fi
echo "ok: one tier of $((cap / MiB)) MiB (fio: $((truth / MiB)) MiB)," \
    "$again working set(s) measured again"
exit 0
