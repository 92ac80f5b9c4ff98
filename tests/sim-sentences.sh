#!/bin/sh
# Description: sentences that must follow their own figures (issue 24), on
# simulated volumes against the truth `tierprobe profiles --show` prints.
# 1. A scan of the whole volume (ebs-gp2-100g, --max-ws 1T) does not say
#    both that no larger cache can hide and that one could go unseen past
#    the volume's end, nor advise a scan past it; it says which caches
#    could still go unseen (a 90 GiB cache on a 100 GiB volume, written
#    here, is one of them: said, not denied), and more --points narrow
#    that.
# Seconds of real time.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
command -v jq >/dev/null || { echo "SKIP: needs jq"; exit 77; }
export TIERPROBE_DATADIR="${TIERPROBE_DATADIR:-$TOP_SRCDIR}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-sentences.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
flat() { tr -s ' \n' ' ' < "$1"; }

# 1. A scan of the whole volume.
gp2=ebs-gp2-100g
ini=$("$TIERPROBE" profiles --show $gp2 | sed -n 's/^  file  *//p')
"$TIERPROBE" scan "sim:$gp2" --max-ws 1T --seed 1 --json "$dir/whole.json" \
    > "$dir/whole.txt" 2>/dev/null || fail "scan $gp2 --max-ws 1T"
flat "$dir/whole.txt" | grep -q "covered the whole volume (100 GiB)" ||
	fail "whole: the scan's reach is not said"
flat "$dir/whole.txt" | grep -q "scan past 100 GiB" &&
	fail "whole: a scan past the volume's end advised"
if flat "$dir/whole.txt" | grep -q "could still go unseen"; then
	flat "$dir/whole.txt" | grep -q "no larger cache can hide" &&
		fail "whole: both no larger cache and one unseen"
fi
u1=$(jq .scan.unseen_from_bytes "$dir/whole.json")
"$TIERPROBE" scan "sim:$gp2" --max-ws 1T --points 40 --seed 1 \
    --output-format json > "$dir/whole40.json" 2>/dev/null ||
	fail "scan --points 40"
u2=$(jq .scan.unseen_from_bytes "$dir/whole40.json")
awk -v a="$u1" -v b="$u2" 'BEGIN { exit !(a > 0 && b > a) }' ||
	fail "whole: more --points do not narrow it ($u1, then $u2)"
sed -e '/^\[device\]/,$!d' -e 's/^name = .*/name = big-cache/' \
    -e 's/^description = .*/description = a 90 GiB cache, 100 GiB (test)/' \
    "$ini" | awk '/^\[backing\]/ { print "[tier.0]\ncapacity = 90G\n" \
    "latency_us = 100\nsigma = 0.25\n" } { print }' > "$dir/bigcache.ini"
"$TIERPROBE" profiles --show "$dir/bigcache.ini" |
    grep -q "capacity  *90 GiB" || fail "bigcache: no 90 GiB tier"
"$TIERPROBE" scan "sim:$dir/bigcache.ini" --max-ws 1T --seed 1 \
    --json "$dir/big.json" > "$dir/big.txt" 2>/dev/null || fail "scan bigcache"
if jq -e '.scan.analysed and (.scan.tiers | length) == 0' "$dir/big.json" \
    > /dev/null; then
	u=$(jq .scan.unseen_from_bytes "$dir/big.json")
	awk -v u="$u" 'BEGIN { exit !(u > 0 && u < 90 * 2^30) }' ||
		fail "bigcache: unseen from $u, past the cache"
	flat "$dir/big.txt" | grep -q "could still go unseen" ||
		fail "bigcache: the 90 GiB cache's blind spot is not said"
	flat "$dir/big.txt" | grep -q "no larger cache can hide" &&
		fail "bigcache: no larger cache said to hide"
fi
echo "ok: a whole-volume scan says what it could not see, and how to see it"
echo PASS
