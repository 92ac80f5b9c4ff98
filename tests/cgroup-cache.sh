#!/bin/sh
# Description: real ground truth for `tierprobe scan`: the page cache of a
# memory cgroup limited to 256 MiB is a cache of known behaviour in front
# of this machine's disk.  Its effective capacity is measured independently
# with fio (random 4 KiB buffered reads drawn with replacement over 768 MiB,
# after a sequential pass and a 5 s ramp: the fraction of reads under
# 20 us, from fio's latency bins, times the working set).  A --buffered
# scan inside the cgroup must report exactly one tier within 10% of that
# capacity, and a backing store at least five times slower than the tier.
# Needs root, a cgroup memory controller (v1 memory.limit_in_bytes or v2
# memory.max), fio and jq (skips with 77 otherwise); about 40 s.
. "$(dirname "$0")/cgroup-lib.sh"
. "$(dirname "$0")/timing-lock.sh"
builddir=$(cd "$(dirname "$TIERPROBE")/.." && pwd)
MiB=1048576
limit=$((256 * MiB))
fiows=$((768 * MiB))
filesize=$((1024 * MiB))

need fio jq
"$TIERPROBE" scan --help >/dev/null 2>&1 ||
	skip "this tierprobe has no scan command"
cg_need memory

# A file on a real disk (not tmpfs: its pages would never leave memory),
# written around the page cache so that no page starts out cached.
work=$(mktemp -d "$builddir/cgroup-cache.XXXXXX") || fail "mktemp"
t_atexit "rm -rf $work"
case $(stat -f -c %T "$work") in
tmpfs|ramfs) skip "$work is in memory" ;;
esac
file=$work/data
dd if=/dev/urandom of="$file" bs=1M count=$((filesize / MiB)) \
    oflag=direct status=none 2>/dev/null ||
	dd if=/dev/urandom of="$file" bs=1M count=$((filesize / MiB)) \
	    conv=fsync status=none || fail "cannot write the test file"
uncache() { dd if="$file" iflag=nocache count=0 status=none; }

cg_new cache
cg_mem "$cg" $limit || fail "set the limit"
echo "cgroup v$cg_ver, limit $((limit / MiB)) MiB, file on" \
    "$(df -P "$work" | awk 'NR == 2 { print $1 }')"

# 1. The cache's effective capacity, by fio: reads with replacement
# (norandommap), buffered, over 768 MiB; the fraction under 20 us.  A
# sequential pass first fills the cache with pages of the working set,
# as many as the reads with replacement keep there, so that a short ramp
# (for the read-ahead past its end to leave) reaches the steady state.
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
echo "fio: $(jq '.jobs[0].read.total_ios' "$work/fio.json") reads," \
    "hit fraction $hit: effective capacity $((truth / MiB)) MiB"
[ "$truth" -gt $((limit / 4)) ] && [ "$truth" -lt $((limit * 2)) ] ||
	fail "fio's capacity is implausible for a $((limit / MiB)) MiB limit"

# 2. tierprobe, in the same cgroup, knowing nothing of the limit.
uncache
cg_run "$cg" "$TIERPROBE" scan "$file" --buffered --min-ws 32M --max-ws 1G \
    --points 10 --max-time 10 --seed 1 --quiet --json "$work/tp.json" \
    > "$work/tp.txt" 2> "$work/tp.err" ||
	fail "scan: $(tail -n 1 "$work/tp.err")"
sed -n '/^Cache tiers/,/^$/p' "$work/tp.txt"
r=$work/tp.json
n=$(jq '.scan.tiers | length' "$r")
[ "$n" = 1 ] || fail "$n tiers, want 1 ($(jq -r '.scan.note' "$r"))"
cap=$(jq '.scan.tiers[0].capacity_bytes // 0' "$r")
awk -v c="$cap" -v t="$truth" 'BEGIN { e = c / t - 1; exit !(e <= 0.10 &&
    e >= -0.10) }' ||
	fail "capacity $((cap / MiB)) MiB, fio says $((truth / MiB)) MiB"
[ "$(jq '.scan.tiers[0].capacity_at_least' "$r")" = false ] ||
	fail "capacity reported as a lower bound"
jq -e '.scan.backing.lat_us_p50 >= 5 * .scan.tiers[0].lat_us_p50' "$r" \
    > /dev/null || fail "backing store not far slower than the tier"
echo "ok: tier of $((cap / MiB)) MiB (fio: $((truth / MiB)) MiB)," \
    "p50 $(jq '.scan.tiers[0].lat_us_p50' "$r") us," \
    "backing p50 $(jq '.scan.backing.lat_us_p50' "$r") us"
exit 0
