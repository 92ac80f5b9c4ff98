#!/bin/sh
# bench/tiers-grid.sh: whether `tierprobe scan sim:NAME --points N` on a
# coarse or fine grid ever reports a wrong tier count with confidence
# (issue 15: never a silent merge).  Each cell counts the seeds whose scan
# was right (tier count as the profile's truth, analysed), unsure (not
# analysed: the report says it cannot tell) and wrong (analysed, yet the
# count differs from the truth), as R/U/W.
#
# usage: bench/tiers-grid.sh [-n SEEDS] [-s FIRST] [-o 'SCAN OPTIONS']
#     [-p 'POINTS ...'] [PROFILE ...]
# (default: 10 seeds from 1, points 6 8 10 12 16 24, every built-in
# profile).
# Exit status 1 when any scan is wrong.  Needs jq.
. "$(dirname "$0")/common.sh"
grid='6 8 10 12 16 24' nseeds=10 o='' first=1
while getopts n:o:p:s: c; do
	case $c in
	n) nseeds=$OPTARG ;;
	o) o=$OPTARG ;;
	p) grid=$OPTARG ;;
	s) first=$OPTARG ;;
	*) echo "usage: $0 [-n SEEDS] [-s FIRST] [-o 'SCAN OPTIONS']" \
	       "[-p 'POINTS ...'] [PROFILE ...]" >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
bench_args "$nseeds" "$o" SCAN "$@"

printf '%-22s' profile
for n in $grid; do printf ' %8s' "$n pts"; done
printf '\n'
: > "$dir/log"
status=0
for p in $profiles; do
	nt=$("$tp" profiles --show "$p" |
	    awk '$1 == "tier" && $3 == "capacity" { n++ } END { print n + 0 }')
	printf '%-22s' "$p"
	for n in $grid; do
		right=0 unsure=0 wrong=0
		s=$first
		while [ "$s" -lt $((first + seeds)) ]; do
			# shellcheck disable=SC2086
			if ! "$tp" scan "sim:$p" --seed "$s" --points "$n" \
			    --quiet $opts --json "$dir/r.json" > /dev/null \
			    2> "$dir/err"; then
				echo "$p --points $n seed $s: scan failed:" \
				    "$(tail -n 1 "$dir/err")" >> "$dir/log"
				wrong=$((wrong + 1))
			else
				case $(jq -r '.scan | "\(.analysed != false)" +
				    " \(.tiers | length)"' "$dir/r.json") in
				false\ *) unsure=$((unsure + 1)) ;;
				"true $nt") right=$((right + 1)) ;;
				*) wrong=$((wrong + 1))
				   echo "$p --points $n seed $s: wrong," \
				       "$(jq -r '.scan.tiers | length' \
				       "$dir/r.json") tiers" >> "$dir/log" ;;
				esac
			fi
			s=$((s + 1))
		done
		printf ' %8s' "$right/$unsure/$wrong"
		[ "$wrong" -eq 0 ] || status=1
	done
	printf '\n'
done
cat "$dir/log"
exit $status
