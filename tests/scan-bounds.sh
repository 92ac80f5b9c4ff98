#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: every time limit bounds every I/O size.  On a small file
# and on a simulated volume, for I/O sizes up to the largest scan takes,
# each point of the scan stays within --max-time (the largest within the
# 3 times its finishing may take) and the scan within --budget, warm-ups
# included, by the run's own accounting (the report's seconds and device
# time, virtual for a simulated volume), give or take the one I/O in
# flight at the limit.  A --bs limits and run cannot sweep is refused up
# front.  (Once, --bs 2M on a 16 MiB file read 41.6 GiB in 28 s.)
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
need jq timeout

f=$t_dir/t.dat
"$TIERPROBE" prep "$f" --size 16M --quiet || fail "prep"

# bounds NAME JSON MAXTIME BUDGET SLACK: the report's points and device
# time within the limits, give or take the I/O in flight when the limit
# came (no I/O starts that would end past the limit at the point's mean
# latency: an I/O's p99.9 less that mean, p99 where there are too few
# reads for a p99.9; for the budget, the longest I/O, as the warm-ups
# and the points each end with one) and SLACK seconds (a real file's
# stall on a loaded machine, 0.25 s; 5 ms of virtual time for a
# simulated volume).
bounds() {
	jq -e --argjson m "$3" --argjson b "$4" --argjson k "$5" '
	    def io: ((.lat_us.p999 // .lat_us.p99) - .lat_us.mean) / 1e6;
	    .scan as $s | ($s.points | map(.ws_bytes) | max) as $top |
	    ($s.points | map(.lat_us.p999 // .lat_us.p99) | max / 1e6) as $io |
	    ($s.points | length) > 0 and
	    all($s.points[]; .seconds <= (if .ws_bytes == $top then 3 * $m
	        else $m end) + io + $k) and
	    ($b == 0 or $s.device_time_s <= $b + $io + $k)' "$2" >/dev/null ||
	    fail "$1: past its limits: $(jq -c '[.scan.device_time_s,
	        [.scan.points[] | [.ws_bytes, .ios, .seconds, .warm_seconds,
	        .lat_us.p99]]]' "$2")"
	echo "$1: $(jq -c '[.scan.device_time_s, ([.scan.points[].seconds] |
	    max)]' "$2")"
}

# A 16 MiB file, I/O sizes to 16M: --max-time, then --budget.  The
# timeout only guards against a hang (it ran 28 s before): 120 s.
for bs in 4K 1M 2M 4M 16M; do
	timeout 120 "$TIERPROBE" scan "$f" --bs "$bs" --max-time 0.3 --quiet \
	    --json "$t_dir/r.json" >/dev/null 2>"$t_dir/err" ||
	    fail "file, bs $bs: exit $?: $(cat "$t_dir/err")"
	bounds "file, bs $bs" "$t_dir/r.json" 0.3 0 0.25
	timeout 120 "$TIERPROBE" scan "$f" --bs "$bs" --budget 0.5 --quiet \
	    --json "$t_dir/r.json" >/dev/null 2>"$t_dir/err" ||
	    fail "file, bs $bs, budget: exit $?: $(cat "$t_dir/err")"
	bounds "file, bs $bs, --budget 0.5" "$t_dir/r.json" 10 0.5 0.25
done

# A simulated volume in virtual time, to the largest --bs (64M), where an
# I/O takes about 0.5 s of the volume's time.
for bs in 4K 1M 4M 64M; do
	timeout 120 "$TIERPROBE" scan sim:gp2:100G --bs "$bs" --max-time 1 \
	    --budget 8 --quiet --json "$t_dir/r.json" >/dev/null \
	    2>"$t_dir/err" || fail "sim, bs $bs: exit $?: $(cat "$t_dir/err")"
	bounds "sim, bs $bs" "$t_dir/r.json" 1 8 0.005
done

# Sizes the limit sweeps cannot take: one line, exit 2, before any I/O.
for cmd in limits run; do
	"$TIERPROBE" $cmd sim:gp2:100G --bs 2M --quiet >/dev/null \
	    2>"$t_dir/err"
	t_one_line $? 2 "$t_dir/err" "at most 1M"
done
"$TIERPROBE" scan sim:gp2:100G --bs 128M --quiet >/dev/null 2>"$t_dir/err"
t_one_line $? 2 "$t_dir/err" "--bs"
echo "ok"
