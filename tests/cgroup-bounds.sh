#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: every time limit bounds every I/O size on a slow target: a
# file read through a blk-throttle cap (8 MiB/s, 200 IOPS) in a cgroup,
# where a 4 MiB read takes half a second and warming a 32 MiB working set
# takes four.  Each point of a scan stays within --max-time and the scan
# within --budget, warm-ups included, by the report's own seconds and
# device time (give or take the I/O in flight at the limit); a timeout
# of 300 s only guards against a hang.  Needs root and blk-throttle
# (skips with 77 otherwise); about a minute.
set -u

. "$(dirname "$0")/cgroup-lib.sh"
. "$(dirname "$0")/timing-lock.sh"
builddir=$(cd "$(dirname "$TIERPROBE")/.." && pwd)
need jq timeout
cg_need io

work=$(mktemp -d "$builddir/cgroup-bounds.XXXXXX") || fail "mktemp"
t_atexit "rm -rf $work"
file=$work/t.dat
majmin=$(cg_disk "$work") || skip "$work is not on a block device"
"$TIERPROBE" prep "$file" --size 32M --quiet || fail "prep"
cg_new bounds
cg_io "$cg" "$majmin" riops=200 rbps=8388608 || skip "cannot cap reads"

# bounds NAME JSON MAXTIME BUDGET: as tests/scan-bounds.sh, with 0.25 s
# for a stall of the machine.
bounds() {
	jq -e --argjson m "$3" --argjson b "$4" '
	    def io: ((.lat_us.p999 // .lat_us.p99) - .lat_us.mean) / 1e6;
	    .scan as $s | ($s.points | map(.ws_bytes) | max) as $top |
	    ($s.points | map(.lat_us.p999 // .lat_us.p99) | max / 1e6) as $io |
	    ($s.points | length) > 0 and
	    all($s.points[]; .seconds <= (if .ws_bytes == $top then 3 * $m
	        else $m end) + io + 0.25) and
	    ($b == 0 or $s.device_time_s <= $b + $io + 0.25)' "$2" >/dev/null ||
	    fail "$1: past its limits: $(jq -c '[.scan.device_time_s,
	        [.scan.points[] | [.ws_bytes, .ios, .seconds, .warm_seconds,
	        .lat_us.p99]]]' "$2")"
	echo "$1: $(jq -c '[.scan.device_time_s, ([.scan.points[].seconds] |
	    max)]' "$2")"
}

for bs in 4K 1M 4M; do
	cg_run "$cg" timeout 300 "$TIERPROBE" scan "$file" --bs "$bs" \
	    --min-ws 8M --max-ws 32M --points 3 --max-time 1 --budget 5 \
	    --quiet --json "$work/r.json" >/dev/null 2>"$work/err" ||
	    fail "bs $bs: exit $?: $(cat "$work/err")"
	bounds "throttled, bs $bs, --max-time 1 --budget 5" "$work/r.json" 1 5
done
echo "ok"
