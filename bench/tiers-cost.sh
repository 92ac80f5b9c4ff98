#!/bin/sh
# bench/tiers-cost.sh: device time to find the cache tiers of the simulated
# classic three-level volume, the classic way against tierprobe's adaptive
# scan, side by side.  The classic study measured 23 working sets from
# 256 MiB to 5.75 GiB in 256 MiB steps for 60 s each (23 min of I/O, its dd
# pass not counted); here that grid runs on the simulator with 60 s points.
# tierprobe's default scan (log grid, adaptive) must reach the answer in a
# tenth of those 23 minutes: <= 138 s of simulated device time, warm-up
# included.  Both are checked against the profile's truth.
#
# usage: bench/tiers-cost.sh [-n SEEDS]     (default 5 seeds; needs jq)
. "$(dirname "$0")/common.sh"
seeds=5
[ "${1:-}" = -n ] && seeds=$2
prof=classic-three-level
goal=138

# Truth: "C0 P0 C1 P1 B" (bytes, us) from tierprobe profiles --show.
"$tp" profiles --show "$prof" | awk "$bench_units"'
$1 == "tier" && $3 == "capacity" {
	printf "%.0f %g ", size($4, $5), lat($7, $8)
}
$1 == "scan.backing" { printf "%g\n", lat($3, $4) }' > "$dir/truth"
read -r c0 p0 c1 p1 b < "$dir/truth"

# One row: method, seed, points, measuring s, warm-up s, device s, the
# answer, and whether it meets the goals (2 tiers, capacity +-5%, p50 +-10%).
row() {
	jq -r --arg m "$1" --arg seed "$2" '.scan as $s |
	    [$m, $seed, ($s.points | length),
	     ([$s.points[].seconds] | add),
	     ($s.device_time_s - ([$s.points[].seconds] | add)),
	     $s.device_time_s, ($s.tiers | length),
	     ($s.tiers[0].capacity_bytes // 0), ($s.tiers[0].lat_us_p50 // 0),
	     ($s.tiers[1].capacity_bytes // 0), ($s.tiers[1].lat_us_p50 // 0),
	     ($s.backing.lat_us_p50 // 0)] | @tsv' "$3" |
	awk -F '\t' -v c0="$c0" -v p0="$p0" -v c1="$c1" -v p1="$p1" '
	function abs(x) { return x < 0 ? -x : x }
	{
		ok = $7 == 2 && abs($8 / c0 - 1) <= 0.05 &&
		    abs($10 / c1 - 1) <= 0.05 && abs($9 / p0 - 1) <= 0.10 &&
		    abs($11 / p1 - 1) <= 0.10
		printf "%-9s %4s %4d %8.1f %7.1f %8.1f", $1, $2, $3, $4, $5, $6
		printf "   %5.2f GiB %5.0f us  %5.2f GiB %5.0f us  %5.2f ms  %s\n",
		    $8 / 1073741824, $9, $10 / 1073741824, $11, $12 / 1000,
		    ok ? "ok" : "MISSED"
	}'
}

printf 'truth: tiers %.2f GiB at %.0f us, %.2f GiB at %.0f us, %s %.2f ms\n\n' \
    "$(echo "$c0" | awk '{ print $1 / 1073741824 }')" "$p0" \
    "$(echo "$c1" | awk '{ print $1 / 1073741824 }')" "$p1" backing \
    "$(echo "$b" | awk '{ print $1 / 1000 }')"
printf '%-9s %4s %4s %8s %7s %8s   %-9s %-8s  %-9s %-8s  %-8s\n' method seed \
    pts measure warm device tier1 p50 tier2 p50 backing

"$tp" scan "sim:$prof" --seed 1 --min-ws 256M --max-ws 5.75G --step 256M \
    --max-time 60 --precision 0.1 --quiet --json "$dir/classic.json" \
    > /dev/null || exit 1
row classic 1 "$dir/classic.json"
classic=$(jq '[.scan.points[].seconds] | add' "$dir/classic.json")

status=0
s=1
while [ "$s" -le "$seeds" ]; do
	"$tp" scan "sim:$prof" --seed "$s" --quiet --json "$dir/tp.json" \
	    > /dev/null || exit 1
	row tierprobe "$s" "$dir/tp.json" | tee "$dir/row"
	grep -q ok "$dir/row" || status=1
	jq .scan.device_time_s "$dir/tp.json" >> "$dir/dev"
	s=$((s + 1))
done
awk -v c="$classic" -v g="$goal" '
{ n++; t += $1; if ($1 > m) m = $1 }
END {
	printf "\nclassic: 23 points x 60 s = %.0f s of reads (%.1f min)\n",
	    c, c / 60
	printf "tierprobe: %.1f s of device time on average, %.1f s at most,",
	    t / n, m
	printf " warm-up included: 1/%.1f of the classic reads (goal <= %d s)\n",
	    c / m, g
	exit m > g
}' "$dir/dev" || status=1
exit $status
