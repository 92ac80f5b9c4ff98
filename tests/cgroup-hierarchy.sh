#!/bin/sh
# Description: real ground truth for `tierprobe scan` on a two-cache
# hierarchy built from kernel parts and stock Debian software: the kernel
# page cache of a FUSE mount, charged to the reader's memory cgroup, in
# front of the page cache of bindfs (a FUSE passthrough daemon) in its own
# memory cgroup, in front of this machine's disk under a blk-throttle read
# IOPS cap for the daemon, set to 80-100% of the rate at which it reads the
# disk at the largest working set without one (reads then wait for the cap
# now and then: a heavy tail).  Both limits and the cap's share are drawn
# at random on every run (HIER_SEED repeats one; the draw is printed;
# HIER_KEEP=DIR keeps the reports there).  The truth comes from fio
# reading with replacement (norandommap) from the reader's cgroup after a
# sequential pass: at the largest working set its reads are classed by the
# valleys of their log-latency histogram.  The first cache's capacity is
# the fraction of reads in its class times a working set between the two
# caches (at the largest it serves 7-8% of the reads, and one point of
# that fraction moves its capacity by an eighth), corrected by what the
# two programs charge to the reader's cgroup besides the file's pages (a
# program's own memory is taken from the cache).  The second's is the
# page cache the daemon's cgroup holds after the scan: the daemon reads
# nothing but the file.  fio does not give it: between the caches, where
# the disk serves almost nothing, 5-22% of the second cache's hits took
# over 45 us (past the valley at the largest working set) under CPU load,
# and the daemon's disk reads over fio's 12 s there (blk-throttle's count,
# printed) found the caches partly exclusive by its end (a hit in the
# first does not keep a page in the second; 678 MiB in one run for 618
# held).  A cache hit is slower while most reads miss, so each cache's
# latency is fio's where it serves the reads (within it), before and after
# the scan.  The scan is run as a user would, with --buffered and no
# --engine: it must read by pread (a buffered read through io_uring that
# misses the page cache may wait for a worker thread, and its latency is
# then not the cache's), and report two tiers, capacities within 10%, p50s
# within 20% (a microsecond-fast one within 0.5 us: the two programs' own
# time per read differs by that much).  Needs root, FUSE, bindfs, fio, jq
# and cgroup memory and blk-throttle controllers (v1 memory and blkio, or
# v2 memory and io); skips with 77 otherwise, or when the disk is too busy
# to cap.
# 66-77 seconds here beside other engineers' work (load 1-3), 70-74
# beside a busy loop on one of 2 cores.
set -u
: "${TIERPROBE:?}"
. "$(dirname "$0")/timing-lock.sh"
builddir=$(cd "$(dirname "$TIERPROBE")/.." && pwd)
MiB=1048576

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || skip "needs root"
for c in fio jq bindfs awk; do
	command -v "$c" >/dev/null || skip "needs $c"
done
[ -c /dev/fuse ] || skip "no /dev/fuse"
"$TIERPROBE" scan --help >/dev/null 2>&1 ||
	skip "this tierprobe has no scan command"

# cgroup v1 (memory and blkio hierarchies) or v2 (memory and io).
v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -e /sys/fs/cgroup/memory/memory.limit_in_bytes ] &&
    [ -e /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ]; then
	cgver=1
elif [ -n "$v2" ] && grep -qw memory "$v2/cgroup.controllers" 2>/dev/null &&
    grep -qw io "$v2/cgroup.controllers" 2>/dev/null; then
	cgver=2
else
	skip "no cgroup memory and blk-throttle controllers (v1 or v2)"
fi

# The draw: reader's cache, daemon's cache, and the disk's read IOPS cap
# as a share of what the daemon reads from it at the largest working set
# without one (the cap binds there, and stalls reads now and then).
seed=${HIER_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
set -- $(awk -v s="$seed" 'BEGIN { srand(s);
	c1 = 64 + int(rand() * 97); c2 = 4 * c1 + int(rand() * (640 - 4 * c1));
	printf "%d %d %d\n", c1, c2, 80 + int(rand() * 21) }')
lim1=$1 lim2=$2 capshare=$3
maxws=$((lim2 * 5 / 2))
echo "seed $seed: reader's cgroup $lim1 MiB, daemon's $lim2 MiB, disk" \
    "reads capped at $capshare% of their rate uncapped; scan to $maxws MiB"

tstart=$(date +%s)
cgs=""
work=""
mnt=""
daemon=""
cleanup() {
	trap - EXIT INT TERM HUP
	[ -n "$mnt" ] && grep -q " $mnt " /proc/mounts &&
		{ fusermount3 -u "$mnt" 2>/dev/null || umount "$mnt"; }
	[ -n "$daemon" ] && kill "$daemon" 2>/dev/null
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
	[ -n "${HIER_KEEP:-}" ] && [ -n "$work" ] &&
		cp "$work"/*.json "$work"/*.other "$HIER_KEEP" 2>/dev/null
	[ -n "$work" ] && rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# The data, on a real disk, written around the page cache.
work=$(mktemp -d "$builddir/cgroup-hierarchy.XXXXXX") || fail "mktemp"
case $(stat -f -c %T "$work") in
tmpfs|ramfs) skip "$work is in memory" ;;
esac
mkdir "$work/src" "$work/mnt"
file=$work/src/data
dd if=/dev/urandom of="$file" bs=1M count=$maxws oflag=direct \
    status=none 2>/dev/null ||
	dd if=/dev/urandom of="$file" bs=1M count=$maxws conv=fsync \
	    status=none || fail "cannot write the test file"
majmin=$(stat -c '%Hd:%Ld' "$work") || fail "stat"
sys=/sys/dev/block/$majmin
[ -e "$sys" ] || skip "$work is not on a block device ($majmin)"
[ -e "$sys/partition" ] &&
	majmin=$(cat "$(dirname "$(readlink -f "$sys")")/dev")

# The cgroups: the daemon's (memory and disk cap), the reader's (memory).
if [ $cgver = 1 ]; then
	dmem=/sys/fs/cgroup/memory/tierprobe-hier-d-$$
	dio=/sys/fs/cgroup/blkio/tierprobe-hier-d-$$
	rmem=/sys/fs/cgroup/memory/tierprobe-hier-r-$$
	cgs="$dmem $dio $rmem"
	mkdir "$dmem" "$dio" "$rmem" || fail "mkdir cgroups"
	echo $((lim2 * MiB)) > "$dmem/memory.limit_in_bytes" &&
	echo $((lim1 * MiB)) > "$rmem/memory.limit_in_bytes" ||
		fail "cannot set the limits"
	echo 0 > "$dmem/memory.swappiness" 2>/dev/null
	echo 0 > "$rmem/memory.swappiness" 2>/dev/null
else
	echo "+memory +io" > "$v2/cgroup.subtree_control" 2>/dev/null
	dmem=$v2/tierprobe-hier-d-$$
	dio=$dmem
	rmem=$v2/tierprobe-hier-r-$$
	cgs="$dmem $rmem"
	mkdir "$dmem" "$rmem" || fail "mkdir cgroups"
	[ -e "$dmem/io.max" ] || skip "cannot enable the io controller"
	echo $((lim2 * MiB)) > "$dmem/memory.max" &&
	echo $((lim1 * MiB)) > "$rmem/memory.max" ||
		fail "cannot set the limits"
	echo 0 > "$dmem/memory.swap.max" 2>/dev/null
	echo 0 > "$rmem/memory.swap.max" 2>/dev/null
fi

# Programs' text pages come into the page cache here, outside the cgroups,
# so that none is charged to a cache under test.
bindfs --version >/dev/null 2>&1
fio --version >/dev/null
"$TIERPROBE" --version >/dev/null

# The daemon, in its cgroups; the kernel keeps its page cache for the
# mount (no direct_io), so the reader's pages are cache 1.
sh -c 'for cg in "$0" "$1"; do echo $$ > "$cg/cgroup.procs"; done
    exec bindfs -f --no-allow-other "$2" "$3"' "$dmem" "$dio" "$work/src" \
    "$work/mnt" &
daemon=$!
mnt=$work/mnt
i=0
until grep -q " $mnt " /proc/mounts; do
	i=$((i + 1))
	[ $i -lt 600 ] && kill -0 "$daemon" 2>/dev/null ||
		fail "bindfs did not mount $mnt (in 60 s, or it ended)"
	sleep 0.1
done
data=$mnt/data

# Run a command in the reader's cgroup.
inreader() {
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$rmem" "$@"
}
# Drop both caches of the file: the mount's and the daemon's.
uncache() {
	dd if="$data" iflag=nocache count=0 status=none
	dd if="$file" iflag=nocache count=0 status=none
}
# Sample, every half second until the file $1 exists, what the reader's
# cgroup holds besides file pages (KiB), to $2.
sample_other() {
	: > "$2"
	while [ ! -e "$1" ]; do
		if [ $cgver = 1 ]; then
			u=$(cat "$rmem/memory.usage_in_bytes")
			awk -v u="$u" '$1 == "cache" { c = $2 }
			    $1 == "shmem" { s = $2 }
			    END { print int((u - c + s) / 1024) }' \
			    "$rmem/memory.stat"
		else
			awk '$1 == "file" { f = $2 } $1 == "shmem" { s = $2 }
			    END { getline u < "'"$rmem"'/memory.current"
			    print int((u - f + s) / 1024) }' "$rmem/memory.stat"
		fi >> "$2"
		sleep 0.5
	done
}
# The page cache a memory cgroup $1 holds, in MiB.
cached_mib() {
	awk '$1 == "cache" || $1 == "file" { print int($2 / 1048576); exit }' \
	    "$1/memory.stat"
}
# The median of the numbers in a file.
median() {
	sort -n "$1" | awk '{ v[NR] = $1 }
	    END { print v[int((NR + 1) / 2)] + 0 }'
}

# fio_at WS SECONDS NAME [RAMP]: fio in the reader's cgroup after a
# sequential pass over the working set (both caches then hold its end),
# reading with replacement for SECONDS after a ramp of RAMP seconds (2);
# what the cgroup holds besides the file is sampled meanwhile into
# NAME.other, the daemon's disk reads meanwhile counted into NAME.disk.
fio_at() {
	uncache
	inreader dd if="$data" of=/dev/null bs=1M count="$1" status=none ||
		fail "cannot read $data"
	sample_other "$work/$3.done" "$work/$3.other" &
	d0=$(disk_reads)
	inreader fio --name=truth --filename="$data" --rw=randread --bs=4k \
	    --size="$1"M --norandommap=1 --randrepeat=0 --ioengine=psync \
	    --direct=0 --invalidate=0 --ramp_time="${4:-2}" --runtime="$2" \
	    --time_based=1 --output-format=json+ > "$work/$3.json" \
	    2> "$work/$3.err" || fail "fio: $(tail -n 1 "$work/$3.err")"
	echo $(($(disk_reads) - d0)) > "$work/$3.disk"
	touch "$work/$3.done"
	wait $!
}

# classes NAME [EDGE1 EDGE2]: fio's reads in three classes, parted at the
# edges (ns) given or else at the two deepest valleys of the log-latency
# histogram (20 bins a decade; a bin's depth is its count over the lower of
# the highest counts on either side, with at least 1% of the reads on
# either side; the second half a decade from the first).  Prints the
# fraction of reads in class 1, in classes 1 and 2, each class's median
# (us, from fio's own bins), the reads and the edges.
classes_awk='
{
	v[NR] = $1; c[NR] = $2; n += $2
	b = int(log($1) / log(10) * 20); h[b] += $2
	if (NR == 1) lo = b
	hi = b
}
function valleys(	b, L, R, NL, NR, k, best, at, m, r, t) {
	for (b = lo; b <= hi; b++) h[b] += 0
	L[lo] = NL[lo] = h[lo]
	for (b = lo + 1; b <= hi; b++) {
		L[b] = L[b - 1] > h[b] ? L[b - 1] : h[b]
		NL[b] = NL[b - 1] + h[b]
	}
	R[hi] = NR[hi] = h[hi]
	for (b = hi - 1; b >= lo; b--) {
		R[b] = R[b + 1] > h[b] ? R[b + 1] : h[b]
		NR[b] = NR[b + 1] + h[b]
	}
	for (k = 0; k < 2; k++) {
		best = 2
		for (b = lo + 1; b < hi; b++) {
			if (k == 1 && b - vv[0] < 10 && vv[0] - b < 10) continue
			m = L[b] < R[b] ? L[b] : R[b]
			if (NL[b - 1] > n / 100 && NR[b + 1] > n / 100 &&
			    h[b] / m < best) {
				best = h[b] / m
				at = b
			}
		}
		vv[k] = at
	}
	if (vv[1] < vv[0]) { t = vv[0]; vv[0] = vv[1]; vv[1] = t }
	for (k = 0; k < 2; k++) edge[k] = 10 ^ (vv[k] / 20)
}
END {
	if (e1 == "") valleys()
	else { edge[0] = e1; edge[1] = e2 }
	edge[2] = 1e300
	for (i = 1; i <= NR; i++) {
		for (k = 0; v[i] >= edge[k]; k++) ;
		tot[k] += c[i]
	}
	for (i = 1; i <= NR; i++) {
		for (k = 0; v[i] >= edge[k]; k++) ;
		acc[k] += c[i]
		if (med[k] == "" && acc[k] >= tot[k] / 2) med[k] = v[i] / 1000
	}
	printf "%.6f %.6f %s %s %s %d %.0f %.0f\n", tot[0] / n,
	    (tot[0] + tot[1]) / n, med[0] + 0, med[1] + 0, med[2] + 0, n,
	    edge[0], edge[1]
}'
classes() {
	jq -r '.jobs[0].read.clat_ns.bins | to_entries[] |
	    "\(.key) \(.value)"' "$work/$1.json" | sort -n |
	    awk -v e1="${2:-}" -v e2="${3:-}" "$classes_awk"
}

# The daemon's reads from the disk so far.
disk_reads() {
	if [ $cgver = 1 ]; then
		awk -v d="$majmin" '$1 == d && $2 == "Read" { print $3 }' \
		    "$dio/blkio.throttle.io_serviced"
	else
		awk -v d="$majmin" '$1 == d { for (i = 2; i <= NF; i++)
		    if ($i ~ /^rios=/) print substr($i, 6) }' "$dio/io.stat"
	fi
}

# 0. The cap: a share of the disk reads fio makes at the largest working
# set without one, counted over 3 s once the caches hold what they will.
t0=$(date +%s)
fio_at $maxws 1 uncapped
a=$(disk_reads)
inreader fio --name=rate --filename="$data" --rw=randread --bs=4k \
    --size=${maxws}M --norandommap=1 --randrepeat=0 --ioengine=psync \
    --direct=0 --invalidate=0 --runtime=3 --time_based=1 \
    --output-format=terse > /dev/null 2>&1 || fail "fio: cannot read"
b=$(disk_reads)
iops=$(awk -v a="${a:-0}" -v b="${b:-0}" -v s=$capshare 'BEGIN {
    printf "%d", (b - a) / 3 * s / 100 }')
[ "${b:-0}" != "${a:-0}" ] || skip "the daemon's disk reads are not counted"
[ "$iops" -ge 100 ] || skip "the disk read $(((b - a) / 3))/s: too busy to" \
    "cap below that"
if [ $cgver = 1 ]; then
	echo "$majmin $iops" > "$dio/blkio.throttle.read_iops_device"
else
	echo "$majmin riops=$iops" > "$dio/io.max"
fi || fail "cannot cap the disk"
echo "disk reads capped at $iops IOPS"

# 1. fio at the largest working set: the classes, the second cache's
# capacity, the disk's latency; then within cache 1 and between the two
# caches, for their own latencies where they serve the reads (a cache hit
# is slower while most reads miss: the truth of a tier's latency is taken
# where it serves), and between them the first cache's capacity.
fio_at $maxws 12 beyond 0
read -r f1 f12 x x p3 nfio e1 e2 <<EOF
$(classes beyond)
EOF
missed=$(cat "$work/beyond.disk")
held2=$(cached_mib "$dmem")
fio_at $((lim1 / 2)) 3 within1
read -r x x p1 x x x x x <<EOF
$(classes within1 "$e1" "$e2")
EOF
ws2=$(((lim1 + lim2) / 2))
fio_at $ws2 3 within2
read -r g1 x x p2 x x x x <<EOF
$(classes within2 "$e1" "$e2")
EOF
other_fio=$(median "$work/within2.other")
echo "fio over $maxws MiB: $nfio reads, $(awk -v f="$f1" 'BEGIN {
    printf "%.1f", f * 100 }')% faster than $(awk -v e="$e1" 'BEGIN {
    printf "%.1f", e / 1000 }') us, $(awk -v f="$f1" -v g="$f12" 'BEGIN {
    printf "%.1f", (g - f) * 100 }')% up to $(awk -v e="$e2" 'BEGIN {
    printf "%.1f", e / 1000 }') us, the rest at ~$p3 us, $missed from" \
    "the disk ($(awk -v m="$missed" -v n="$nfio" 'BEGIN {
    printf "%.1f", m / n * 100 }')%); over $ws2 MiB" \
    "$(awk -v f="$g1" 'BEGIN { printf "%.1f", f * 100 }')% in the first" \
    "class, the reader's cgroup holding $((other_fio / 1024)) MiB besides" \
    "the file; cache hits at ~$p1 us within $((lim1 / 2)) MiB, ~$p2 us" \
    "within $ws2 MiB; the daemon's cgroup held $held2 MiB of page cache" \
    "($(($(date +%s) - t0)) s)"

# scan NAME: tierprobe in the reader's cgroup, caches dropped, knowing
# nothing; what the cgroup holds besides the file into NAME.other.
# A point gets 3 s at most (--max-time), which bounds the test's time
# under load: reads preempted for milliseconds now and then hold a mean
# back (doc/measurements.md, "Known gaps").
scan() {
	t0=$(date +%s)
	uncache
	sample_other "$work/$1.done" "$work/$1.other" &
	inreader "$TIERPROBE" scan "$data" --buffered \
	    --min-ws 32M --max-ws ${maxws}M --max-time 3 --seed 1 --quiet \
	    --json "$work/$1.json" > "$work/$1.txt" 2> "$work/$1.err" ||
		fail "scan: $(tail -n 1 "$work/$1.err")"
	touch "$work/$1.done"
	wait $!
	sed -n '/^Cache tiers/,/^$/p' "$work/$1.txt"
	echo "tierprobe ($(jq -r .target.engine "$work/$1.json")):" \
	    "$(jq '.scan.points | length' \
	    "$work/$1.json") points, $(jq .scan.device_time_s \
	    "$work/$1.json") s of device time ($(($(date +%s) - t0)) s)"
}

# within NAME GOT WANT PCT [SLACK]: GOT is within PCT percent of WANT, or
# within SLACK of it; else the test fails at the end.
st=0
within() {
	awk -v n="$1" -v g="$2" -v w="$3" -v p="$4" -v a="${5:-0}" 'BEGIN {
		d = 100 * (g / w - 1)
		printf "%s: %.4g, truth %.4g (%+.1f%%, limit %g%%", n, g, w,
		    d, p
		if (a > 0) printf " or %g", a
		printf ")\n"
		exit ((d > p || d < -p) && (g - w > a || w - g > a))
	}' || st=1
}

# 2. The scan, as a user runs it.
scan tp
r=$work/tp.json
held2=$(cached_mib "$dmem")
[ "$(jq -r .target.engine "$r")" = psync ] ||
	fail "a --buffered scan read by $(jq -r .target.engine "$r"), not pread"
other_tp=$(median "$work/tp.other")
echo "the reader's cgroup held $((other_tp / 1024)) MiB besides the file," \
    "the daemon's $held2 MiB of page cache"
# Cache hits again, after the scan, as they drift with the machine's load.
fio_at $((lim1 / 2)) 3 after1
read -r x x q1 x x x x x <<EOF
$(classes after1 "$e1" "$e2")
EOF
fio_at $ws2 3 after2
read -r x x x q2 x x x x <<EOF
$(classes after2 "$e1" "$e2")
EOF
echo "fio after the scan: cache hits at ~$q1 us and ~$q2 us"

# 3. The verdict.  Cache 1's truth gains what fio held more than tierprobe.
# A tier's p50 is compared with the nearer of fio's two measurements, and a
# microsecond-fast one within 0.5 us too (the two programs' own time per
# read differs by a few hundred nanoseconds).  The disk's p50 moves by a
# quarter between runs here (a shared virtual disk, and the cap's stalls):
# within 35%, which still tells it from a cache's.
truth1=$(awk -v f="$g1" -v ws=$ws2 -v a="$other_fio" -v b="$other_tp" \
    'BEGIN { printf "%.0f", f * ws * 1048576 + (a - b) * 1024 }')
truth2=$((held2 * 1048576))
[ "$(jq -r '.scan.analysed' "$r")" = true ] ||
	fail "not analysed: $(jq -r '.scan.note' "$r")"
n=$(jq '.scan.tiers | length' "$r")
[ "$n" = 2 ] || fail "$n tiers, want 2 ($(jq -r '.scan.note' "$r"))"
near() { awk -v g="$1" -v a="$2" -v b="$3" 'BEGIN {
    print (g - a) * (g - a) < (g - b) * (g - b) ? a : b }'; }
t1=$(jq '.scan.tiers[0].lat_us_p50' "$r")
t2=$(jq '.scan.tiers[1].lat_us_p50' "$r")
within "cache 1 MiB" "$(jq '.scan.tiers[0].capacity_bytes / 1048576' "$r")" \
    "$(awk -v t="$truth1" 'BEGIN { print t / 1048576 }')" 10
within "cache 2 MiB" "$(jq '.scan.tiers[1].capacity_bytes / 1048576' "$r")" \
    "$(awk -v t="$truth2" 'BEGIN { print t / 1048576 }')" 10
within "cache 1 p50 us" "$t1" "$(near "$t1" "$p1" "$q1")" 20 0.5
within "cache 2 p50 us" "$t2" "$(near "$t2" "$p2" "$q2")" 20
within "disk p50 us" "$(jq '.scan.backing.lat_us_p50' "$r")" "$p3" 35

[ $st = 0 ] || fail "seed $seed: a figure is off (HIER_SEED=$seed repeats it)"
echo "PASS ($(($(date +%s) - tstart)) s)"
exit 0
