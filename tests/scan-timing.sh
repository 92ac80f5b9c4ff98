#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: timing on this machine's disk (the slow suite, under the
# timing lock): a short O_DIRECT scan of a 256 MiB file through io_uring
# obeys Little's law at iodepth 1 (IOPS x mean latency within 0.8 .. 1.25),
# and the psync engine's median read at 64 MiB is within a factor of two
# of io_uring's.  Both are figures of the disk and of how busy the CPU is,
# so they are not in make check (tests/scan-real.sh checks the rest).
set -u
: "${TIERPROBE:?}"
. "$(dirname "$0")/timing-lock.sh"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/tp-timing.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
f=$dir/t.dat
fail() { echo "FAIL: $*"; exit 1; }

"$TIERPROBE" scan "$f" --min-ws 16M --max-ws 256M --points 5 --max-time 2 \
    --seed 7 --quiet --json "$dir/r.json" > "$dir/out.txt"
rc=$?
if [ $rc != 0 ] && grep -q "O_DIRECT" "$dir/out.txt" 2>/dev/null; then
	echo "skip: no O_DIRECT here"; exit 77
fi
[ $rc = 0 ] || fail "scan exited $rc"
r=$dir/r.json
jq -e '.scan.points | length > 0 and
    all((.iops * .lat_us.mean / 1e6) | . > 0.8 and . < 1.25)' "$r" \
    >/dev/null || fail "IOPS x mean latency not ~1: $(jq -c \
    '[.scan.points[] | {ws_bytes, iops, mean: .lat_us.mean}]' "$r")"

# psync measures the same disk: medians within a factor of two.
"$TIERPROBE" scan "$f" --engine psync --min-ws 64M --max-ws 64M --points 2 \
    --quiet --output-format json > "$dir/p.json" || fail "psync scan"
a=$(jq '.scan.points[0].lat_us.p50' "$dir/p.json")
b=$(jq '.scan.points[] | select(.ws_bytes == 67108864) | .lat_us.p50' "$r")
[ -n "$b" ] || b=$(jq '.scan.points[1].lat_us.p50' "$r")
echo "p50 at 64 MiB: psync $a us, io_uring $b us"
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a < 2 * b && b < 2 * a) }' ||
    fail "psync p50 $a vs io_uring $b"
echo "ok"
