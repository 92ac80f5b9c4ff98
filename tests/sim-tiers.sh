#!/bin/sh
# Description: cache tiers end to end on simulated volumes: `tierprobe scan
# sim:NAME` with its default (adaptive) options finds the two caches of the
# classic three-level profile on three seeds (count exact, capacity within
# 5%, p50 within 10% of the truth) and no cache on single-store profiles,
# one of them with a slow first read of every block; and on volumes whose
# places are not lognormal (tests/data/tiers-*.ini: narrow spikes with
# tails, outliers 100-1000x the median, a store throttled window by window
# as blk-throttle does) the same goals, every scan analysed: issue 15's
# two caches over a throttled disk, one cache over one, and a throttled
# store with no cache.  A subset of bench/tiers-accuracy.sh, which sweeps
# every built-in profile over 20 seeds.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
command -v jq >/dev/null || { echo "SKIP: needs jq"; exit 77; }
export TIERPROBE TIERPROBE_DATADIR="${TIERPROBE_DATADIR:-$TOP_SRCDIR}"
acc=$TOP_SRCDIR/bench/tiers-accuracy.sh
"$acc" -n 3 classic-three-level || exit 1
"$acc" -n 1 ebs-gp3-restored nvme-instance-store ebs-io1-50k-m5 || exit 1
d=$TOP_SRCDIR/tests/data
"$acc" -n 3 "$d/tiers-hier-shapes.ini" "$d/tiers-throttled.ini" \
    "$d/tiers-throttled-store.ini" || exit 1
