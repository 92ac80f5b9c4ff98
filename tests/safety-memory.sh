#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: memory stays flat under load.  The same simulated scan at
# iodepth 256 (virtual time, past the caches of classic-three-level) for
# one minute and for fifty: the long one does ~50 times the I/O and its
# peak RSS is no larger than the short one's (plus 2 MiB or 5% of slack).
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
[ -z "${TIERPROBE_SANITIZED:-}" ] || skip "RSS means nothing under ASan"
[ -x /usr/bin/time ] || skip "GNU time missing (apt-get install time)"
need jq

# Peak RSS (KiB) of a scan of $1 virtual seconds per point; the total I/O
# count goes to $t_dir/ios.$1.
peak() {
	/usr/bin/time -o "$t_dir/time.$1" -f %M "$TIERPROBE" scan \
	    sim:classic-three-level --iodepth 256 --min-ws 3G --max-ws 4G \
	    --points 2 --max-time "$1" --precision 0.1 --seed 1 --quiet \
	    --output-format json >"$t_dir/r.$1.json" 2>"$t_dir/err" ||
	    fail "scan --max-time $1: $(cat "$t_dir/err")"
	jq '[.scan.points[].ios] | add' "$t_dir/r.$1.json" >"$t_dir/ios.$1"
	tail -n 1 "$t_dir/time.$1"
}

short=$(peak 60)
long=$(peak 3000)
ios_short=$(cat "$t_dir/ios.60")
ios_long=$(cat "$t_dir/ios.3000")
[ "$ios_long" -ge $((20 * ios_short)) ] ||
    fail "the long run did $ios_long I/Os, the short one $ios_short"
slack=$((short / 20))
[ "$slack" -ge 2048 ] || slack=2048
echo "peak RSS: $short KiB for $ios_short I/Os, $long KiB for $ios_long"
[ "$long" -le $((short + slack)) ] ||
    fail "memory grows with I/O: $short KiB -> $long KiB"
echo "ok"
