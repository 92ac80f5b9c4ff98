#!/bin/sh
# Description: never a confident wrong tier count on a coarse grid (issue
# 15): `tierprobe scan sim:classic-three-level --points N` for N of 6, 8
# and 10 on four seeds each either finds the profile's two caches or says
# it cannot tell (scan.analysed false, with a note).  Before the scan
# added points where the reads change and the analysis said when its
# points were too few, --points 6 merged the second cache into the store
# on every seed and --points 8 and 10 reported one or three caches on some.
# Most runs must be right: a scan that always gave up would pass the rest.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
command -v jq >/dev/null || { echo "SKIP: needs jq"; exit 77; }
export TIERPROBE_DATADIR="${TIERPROBE_DATADIR:-$TOP_SRCDIR}"
out=$(mktemp "${TMPDIR:-/tmp}/tp-sim-grid.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT INT TERM
want=$("$TIERPROBE" profiles --show classic-three-level |
    awk '$1 == "tier" && $3 == "capacity" { n++ } END { print n + 0 }')
[ "$want" -eq 2 ] ||
    { echo "FAIL: the profile has $want caches, not 2"; exit 1; }
q='.scan | "\(.analysed) \(.tiers | length) \(.note // "")"'
right=0 runs=0 status=0
for n in 6 8 10; do
	for s in 6 7 8 9; do
		"$TIERPROBE" scan sim:classic-three-level --points "$n" \
		    --seed "$s" --quiet --json "$out" > /dev/null || {
			echo "FAIL: --points $n --seed $s: scan failed"
			exit 1
		}
		got=$(jq -r "$q" "$out")
		runs=$((runs + 1))
		case $got in
		"true $want "*) right=$((right + 1)) ;;
		"false "*" "?*) echo "--points $n --seed $s: unsure: $got" ;;
		*) echo "FAIL: --points $n --seed $s: $got"; status=1 ;;
		esac
	done
done
echo "$right of $runs right"
[ "$status" -ne 0 ] || [ $((2 * right)) -ge "$runs" ] ||
    { echo "FAIL: most runs gave up"; exit 1; }
exit $status
