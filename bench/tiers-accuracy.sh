#!/bin/sh
# bench/tiers-accuracy.sh: how well `tierprobe scan sim:NAME` finds the
# cache tiers of simulated volumes, against each profile's truth (tierprobe
# profiles --show).  Goals (issue 4): tier count exact, every capacity
# within +-5% and every tier p50 within +-10% of the truth, no tier on a
# single-store profile, every scan analysed (no class of reads left
# unexplained), on every seed.  Also shown: how often the 95%
# interval holds the true capacity, the backing p50 error (the worst seed's
# and the root mean square over the seeds: the worst of 20 seeds moves
# from 3% to 6.5% between blocks of 20 seeds of the same code), device
# time.
#
# usage: bench/tiers-accuracy.sh [-n SEEDS] [-o 'SCAN OPTIONS'] [PROFILE ...]
# (default: 20 seeds, every built-in profile, the scan's default options).
# Exit status 1 when a goal is missed.  Needs jq.
. "$(dirname "$0")/common.sh"
bench_args 20 '' SCAN "$@"
# shellcheck disable=SC2086
set -- $profiles

# The truth of a profile, one line each: "tier CAPACITY_BYTES P50_US" for
# every cache, then "backing P50_US".
truth() {
	"$tp" profiles --show "$1" | awk "$bench_units"'
	$1 == "tier" && $3 == "capacity" {
		printf "tier %.0f %g\n", size($4, $5), lat($7, $8)
	}
	$1 == "scan.backing" { printf "backing %g\n", lat($3, $4) }'
}

# One scan's figures against the truth: prints "ok|FAIL count capacity-err
# p50-err backing-err covered device-s".
judge() {
	jq -r '.scan |
	    (["found", (.tiers | length), (.backing.lat_us_p50 // -1),
	      .device_time_s, (.analysed != false)] | @tsv),
	    (.tiers[] | ["tier", (.capacity_bytes // 0), (.lat_us_p50 // 0),
	      (.capacity_low_bytes // 0), (.capacity_high_bytes // 0),
	      .capacity_at_least] | @tsv)' "$2" |
	awk -v truthfile="$1" '
	BEGIN {
		while ((getline l < truthfile) > 0) {
			split(l, f, " ")
			if (f[1] == "tier") { tc[++nt] = f[2]; tp[nt] = f[3] }
			else bp = f[2]
		}
	}
	function abs(x) { return x < 0 ? -x : x }
	$1 == "found" { nf = $2; fb = $3; dev = $4; an = $5 == "true" }
	$1 == "tier" {
		k++; fc[k] = $2; fp[k] = $3; lo[k] = $4; hi[k] = $5; al[k] = $6
	}
	END {
		ok = nf == nt && an; ce = 0; pe = 0; cov = 0
		for (i = 1; i <= nt && i <= nf; i++) {
			e = abs(fc[i] / tc[i] - 1); if (e > ce) ce = e
			e = abs(fp[i] / tp[i] - 1); if (e > pe) pe = e
			cov += al[i] == "false" && lo[i] <= tc[i] && tc[i] <= hi[i]
			if (al[i] != "false") ok = 0
		}
		if (ce > 0.05 || pe > 0.10) ok = 0
		be = fb > 0 ? abs(fb / bp - 1) : 1
		printf "%s %d/%d %.4f %.4f %.4f %d %.1f\n", ok ? "ok" : "FAIL",
		    nf, nt, ce, pe, be, cov, dev
	}'
}

printf '%-22s %5s %7s %7s %7s %8s %8s %6s %6s\n' profile ok cap_err \
    p50_err back_err back_rms covered dev_s max_s
status=0
for p in "$@"; do
	truth "$p" > "$dir/truth" || { echo "$p: no truth"; status=1; continue; }
	nt=$(grep -c '^tier' "$dir/truth")
	: > "$dir/rows"
	s=1
	while [ "$s" -le "$seeds" ]; do
		# shellcheck disable=SC2086
		if ! "$tp" scan "sim:$p" --seed "$s" --quiet $opts \
		    --json "$dir/r.json" > /dev/null 2> "$dir/err"; then
			echo "$p seed $s: scan failed: $(tail -n 1 "$dir/err")"
			echo "FAIL 0/$nt 1 1 1 0 0" >> "$dir/rows"
		else
			row=$(judge "$dir/truth" "$dir/r.json")
			echo "$row" >> "$dir/rows"
			case $row in
			FAIL*) echo "$p seed $s: $row" ;;
			esac
		fi
		s=$((s + 1))
	done
	awk -v p="$p" -v n="$seeds" -v nt="$nt" '
	{ ok += $1 == "ok"; if ($3 > ce) ce = $3; if ($4 > pe) pe = $4
	  if ($5 > be) be = $5; b2 += $5 * $5; cov += $6; dev += $7
	  if ($7 > mx) mx = $7 }
	END {
		printf "%-22s %2d/%-2d %6.1f%% %6.1f%% %6.1f%% %7.2f%%", p,
		    ok, n, 100 * ce, 100 * pe, 100 * be, 100 * sqrt(b2 / n)
		printf " %4d/%-3d", cov, n * nt
		printf " %6.1f %6.1f\n", dev / n, mx
		exit ok != n
	}' "$dir/rows" || status=1
done
exit $status
