#!/bin/sh
# Description: stores a rate cap holds, end to end on simulated volumes,
# against `tierprobe profiles --show`: a 180 us cache under a 4,000 IOPS
# cap at iodepth 1 (tests/data/capped-tier.ini) and a 400 us store under a
# 1,000 IOPS cap (tests/data/capped-backing.ini).  The capped store's
# lat_us_p50 is its own (within 10% of the truth, p99 within 20%), not the
# cap's slot; its capped_lat_us_p50 is the slot, iodepth / cap (within
# 10%); the stores slower than the cap keep capped_lat_us_p50 null, and so
# does every store of a volume no cap holds at iodepth 1.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
command -v jq >/dev/null || { echo "SKIP: needs jq"; exit 77; }
export TIERPROBE_DATADIR="${TIERPROBE_DATADIR:-$TOP_SRCDIR}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-capped.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM
status=0

# "NAME P50_US P99_US" for every store of a profile's truth, then
# "cap IOPS" when it has a volume IOPS cap.
truth() {
	"$TIERPROBE" profiles --show "$1" | awk '
	function lat(v, u) {
		sub(/,$/, "", u)
		if (u == "ms") return v * 1000
		if (u == "s") return v * 1e6
		return v
	}
	$1 == "tier" && $3 == "capacity" {
		print "tier", lat($7, $8), lat($10, $11)
	}
	$1 == "scan.backing" { print "backing", lat($3, $4), lat($6, $7) }
	$1 == "volume" && $2 == "IOPS" { print "cap", $3 }'
}

# Within: |got / want - 1| <= tol, or say what was wrong.
within() {
	awk -v g="$2" -v w="$3" -v t="$4" 'BEGIN {
	    exit !(g != "null" && w > 0 && (g / w - 1 <= t) && (1 - g / w <= t)) }' ||
	{ echo "FAIL: $1 = $2, want $3 +- $4"; status=1; }
}

# check PROFILE 'CAPPED...': scan it; the stores named (tier0, tier1, ...,
# backing) must be capped, the others not.
check() {
	p=$1
	capped=$2
	truth "$p" > "$dir/truth" || { echo "FAIL: no truth for $p"; exit 1; }
	if ! "$TIERPROBE" scan "sim:$p" --seed 2 --max-ws 2G --quiet \
	    --json "$dir/r.json" > /dev/null 2> "$dir/err"; then
		echo "FAIL: scan of $p: $(tail -n 1 "$dir/err")"
		exit 1
	fi
	cap=$(awk '$1 == "cap" { print $2 }' "$dir/truth")
	n=$(grep -c '^tier' "$dir/truth")
	[ "$(jq '.scan.tiers | length' "$dir/r.json")" = "$n" ] ||
	    { echo "FAIL: $p: tiers found differ from $n"; status=1; return; }
	i=0
	while read -r what p50 p99; do
		case $what in
		tier)	key=".scan.tiers[$i]" name=tier$i i=$((i + 1)) ;;
		backing) key=.scan.backing name=backing ;;
		*)	continue ;;
		esac
		got=$(jq -r "$key | [.lat_us_p50, .lat_us_p99,
		    .capped_lat_us_p50] | map(. // \"null\") | @tsv" \
		    "$dir/r.json")
		set -- $got
		case " $capped " in
		*" $name "*)
			within "$p $name p50" "$1" "$p50" 0.10
			within "$p $name p99" "$2" "$p99" 0.20
			within "$p $name capped p50" "$3" \
			    "$(awk -v c="$cap" 'BEGIN { print 1e6 / c }')" 0.10
			;;
		*)
			[ "$3" = null ] || { echo "FAIL: $p $name:" \
			    "capped_lat_us_p50 $3 where no cap holds it"
			    status=1; }
			;;
		esac
	done < "$dir/truth"
}

check "$TOP_SRCDIR/tests/data/capped-tier.ini" tier0
check "$TOP_SRCDIR/tests/data/capped-backing.ini" backing
check ebs-gp3 ""
exit $status
