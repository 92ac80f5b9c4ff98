#!/bin/sh
# bench/ceilings-accuracy.sh: how well `tierprobe run sim:NAME` finds the
# IOPS and bandwidth ceilings of simulated volumes after its scan, against
# each profile's truth (tierprobe profiles --show, full buckets).  Shown
# per profile: the largest error of the IOPS ceiling and of the bandwidth
# ceiling over the seeds, how many runs reported the bandwidth as a lower
# bound (and whether that bound held: at most the truth), how many found
# no ceiling at all, and the limits the runs named.
#
# usage: bench/ceilings-accuracy.sh [-n SEEDS] [-o 'RUN OPTIONS'] [PROFILE ...]
# (default: 5 seeds, every built-in profile, a 30 s sustained run).
# Needs jq.
. "$(dirname "$0")/common.sh"
bench_args 5 '--sustain 30' RUN "$@"
# shellcheck disable=SC2086
set -- $profiles

# The truth: "IOPS BYTES_PER_S".
truth() {
	"$tp" profiles --show "$1" | awk "$bench_units"'
	$1 == "iops_ceiling" { iops = num($2) }
	$1 == "bandwidth_ceiling" { bw = rate(num($2), $3) }
	END { printf "%.6g %.6g\n", iops, bw }'
}

printf '%-22s %5s %8s %8s %6s %6s  %s\n' profile runs iops_err bw_err \
    bw_low none limits
for p in "$@"; do
	truth "$p" > "$dir/truth"
	read -r ti tb < "$dir/truth"
	s=1
	: > "$dir/rows"
	while [ "$s" -le "$seeds" ]; do
		# shellcheck disable=SC2086
		"$tp" run "sim:$p" --seed "$s" --quiet --output-format json \
		    $opts > "$dir/r.json" 2>/dev/null ||
		    echo "bench: $p seed $s exited $?" >&2
		jq -r '.limits | [(.iops_ceiling // -1),
		    (.bandwidth_ceiling_bytes_per_s // -1),
		    (.bandwidth_ceiling_at_least // false),
		    .iops_limit, .bandwidth_limit] | @tsv' "$dir/r.json" \
		    >> "$dir/rows"
		s=$((s + 1))
	done
	awk -v ti="$ti" -v tb="$tb" -v p="$p" '
	function abs(x) { return x < 0 ? -x : x }
	{
		n++
		if ($1 < 0) none++
		else if (abs($1 / ti - 1) > ie) ie = abs($1 / ti - 1)
		if ($2 < 0) bnone++
		else if ($3 == "true") { low++; if ($2 > tb * 1.005) bad++ }
		else if (abs($2 / tb - 1) > be) be = abs($2 / tb - 1)
		lim[$4 "/" $5]++
	}
	END {
		for (k in lim) l = l (l ? " " : "") k "x" lim[k]
		printf "%-22s %5d %7.1f%% %7.1f%% %3d%-3s %6d  %s\n", p, n,
		    100 * ie, 100 * be, low, bad ? "!" : "", none + bnone, l
	}' "$dir/rows"
done
