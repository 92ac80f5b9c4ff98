#!/bin/bash
# bench/sim-cost.sh: what a simulated scan costs.  Runs `tierprobe scan
# sim:NAME` on built-in profiles and prints, per profile, the CPU seconds
# (user + sys), peak memory, I/Os simulated, the virtual device time the
# scan covered, and simulated seconds per CPU second.  The target: a scan
# of any built-in profile in well under 2 s of CPU.
#
# usage: bench/sim-cost.sh [PROFILE ...]        (needs jq and GNU time)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tp=${TIERPROBE:-$top/src/tierprobe}
export TIERPROBE_DATADIR=${TIERPROBE_DATADIR:-$top}
for c in jq /usr/bin/time; do
	command -v "$c" >/dev/null || { echo "bench: needs $c (apt-get install jq time)" >&2; exit 1; }
done
if [ $# -eq 0 ]; then
	for f in "$top"/profiles/*.ini; do
		set -- "$@" "$(basename "$f" .ini)"
	done
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

printf '%-22s %7s %8s %11s %10s %12s\n' profile cpu_s max_mib ios device_s sim_s/cpu_s
for p in "$@"; do
	if ! /usr/bin/time -f '%U %S %M' -o "$out/time" "$tp" scan "sim:$p" \
	    --seed 1 --quiet --output-format json >"$out/scan.json" \
	    2>"$out/err"; then
		printf '%-22s failed: %s\n' "$p" "$(tail -n 1 "$out/err")"
		continue
	fi
	read -r usr sys kib <"$out/time"
	ios=$(jq '[.scan.points[].ios] | add' "$out/scan.json")
	dev=$(jq '.scan.device_time_s' "$out/scan.json")
	awk -v p="$p" -v u="$usr" -v s="$sys" -v k="$kib" -v n="$ios" \
	    -v d="$dev" 'BEGIN { c = u + s; r = 0; if (c > 0) r = d / c;
		printf "%-22s %7.2f %8.1f %11d %10.1f %12.0f\n", p, c,
		    k / 1024, n, d, r }'
done
