#!/bin/sh
# Description: real ground truth for `tierprobe scan`: the page cache of a
# memory cgroup limited to 256 MiB is a cache of known behaviour in front
# of this machine's disk.  Its effective capacity is measured independently
# with fio (random 4 KiB buffered reads drawn with replacement over 768 MiB,
# after a 30 s ramp: the fraction of reads under 20 us, from fio's latency
# bins, times the working set).  A --buffered scan inside the cgroup must
# report exactly one tier within 10% of that capacity, and a backing store
# at least five times slower than the tier.  Needs root, a cgroup memory
# controller (v1 memory.limit_in_bytes or v2 memory.max), fio and jq (skips
# with 77 otherwise); about two minutes.
set -u
: "${TIERPROBE:?}"
. "$(dirname "$0")/timing-lock.sh"
builddir=$(cd "$(dirname "$TIERPROBE")/.." && pwd)
MiB=1048576
limit=$((256 * MiB))
fiows=$((768 * MiB))
filesize=$((1024 * MiB))

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || skip "needs root"
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
"$TIERPROBE" scan --help >/dev/null 2>&1 ||
	skip "this tierprobe has no scan command"

# The cgroup flavour: v1 memory, or v2 with the memory controller.
v1=/sys/fs/cgroup/memory
v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -e "$v1/memory.limit_in_bytes" ]; then
	cgver=1
	cgroot=$v1
elif [ -n "$v2" ] && grep -qw memory "$v2/cgroup.controllers" 2>/dev/null
then
	cgver=2
	cgroot=$v2
else
	skip "no cgroup memory controller (v1 or v2)"
fi

cg=""
work=""
cleanup() {
	trap - EXIT INT TERM HUP
	wait 2>/dev/null
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		# Move stragglers out, drop the charged pages, then remove.
		for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do
			echo "$p" > "$cgroot/cgroup.procs" 2>/dev/null
		done
		[ $cgver = 1 ] && echo 0 > "$cg/memory.force_empty" 2>/dev/null
		i=0
		while ! rmdir "$cg" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		[ -d "$cg" ] && echo "warning: could not remove $cg"
	fi
	[ -n "$work" ] && rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# A file on a real disk (not tmpfs: its pages would never leave memory),
# written around the page cache so that no page starts out cached.
work=$(mktemp -d "$builddir/cgroup-cache.XXXXXX") || fail "mktemp"
case $(stat -f -c %T "$work") in
tmpfs|ramfs) skip "$work is in memory" ;;
esac
file=$work/data
dd if=/dev/urandom of="$file" bs=1M count=$((filesize / MiB)) \
    oflag=direct status=none 2>/dev/null ||
	dd if=/dev/urandom of="$file" bs=1M count=$((filesize / MiB)) \
	    conv=fsync status=none || fail "cannot write the test file"
uncache() { dd if="$file" iflag=nocache count=0 status=none; }

cg=$cgroot/tierprobe-cache-$$
mkdir "$cg" || fail "mkdir $cg"
if [ $cgver = 1 ]; then
	echo $limit > "$cg/memory.limit_in_bytes" || fail "set the limit"
	echo 0 > "$cg/memory.swappiness" 2>/dev/null
else
	echo "+memory" > "$cgroot/cgroup.subtree_control" 2>/dev/null
	[ -e "$cg/memory.max" ] || skip "cannot enable the memory controller"
	echo $limit > "$cg/memory.max" || fail "set the limit"
	echo 0 > "$cg/memory.swap.max" 2>/dev/null
fi
echo "cgroup v$cgver, limit $((limit / MiB)) MiB, file on" \
    "$(df -P "$work" | awk 'NR == 2 { print $1 }')"

# Run a command inside the cgroup.
incg() {
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$@"
}

# 1. The cache's effective capacity, by fio: reads with replacement
# (norandommap), buffered, over 768 MiB; the fraction under 20 us.
uncache
incg fio --name=capacity --filename="$file" --rw=randread --bs=4k \
    --size=$fiows --norandommap=1 --randrepeat=0 --ioengine=psync \
    --direct=0 --invalidate=1 --ramp_time=30 --runtime=20 --time_based=1 \
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
incg "$TIERPROBE" scan "$file" --buffered --min-ws 32M --max-ws 1G \
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
