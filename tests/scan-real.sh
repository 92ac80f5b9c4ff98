#!/bin/sh
# Description: a short scan of a real 256 MiB file on this machine's disk
# through io_uring and O_DIRECT: the JSON report has the keys that
# man/tierprobe-report.5 documents, the figures are sane (percentiles in
# order, latencies between 1 us and 1 s), the file tierprobe created is
# kept only when asked, and the psync engine runs too.  Nothing here
# depends on how fast the disk or the machine is: the timing checks
# (Little's law, psync against io_uring) are tests/scan-timing.sh's, in
# the slow suite.
set -u
: "${TIERPROBE:?}"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/tp-real.XXXXXX") || exit 1
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
[ -s "$dir/out.txt" ] || fail "no text report on stdout"
r=$dir/r.json
jq -e . "$r" >/dev/null || fail "report is not JSON"
for k in .schema_version .tool.name .tool.version .interrupted .target.path \
    .target.type .target.direct .target.engine .target.bs .scan.points \
    .scan.device_time_s; do
	[ "$(jq "$k | type" "$r")" != '"null"' ] || fail "missing $k"
done
[ "$(jq -r .target.type "$r")" = file ] || fail "target.type"
[ "$(jq -r .target.direct "$r")" = true ] || fail "target.direct"
[ "$(jq -r .interrupted "$r")" = false ] || fail "interrupted"
# The five points of the grid asked for, and any the scan added between
# them where a point's reads differed from those below it.
jq -e '[.scan.points[].ws_bytes / 1048576] as $w
    | [16, 32, 64, 128, 256] | all(. as $g | $w | index($g) != null)' "$r" \
    >/dev/null || fail "the grid's 5 points expected: $(jq -c \
    '[.scan.points[].ws_bytes]' "$r")"
# Every point: ios > 0, p50 <= p90 <= p99 (<= p999 if there are reads
# enough for one), latencies between 1 us and 1 s.
jq -e '.scan.points | all(.ios > 0 and .iops > 0
    and .lat_us.p50 <= .lat_us.p90 and .lat_us.p90 <= .lat_us.p99
    and .lat_us.p50 > 1 and .lat_us.p99 < 1000000
    and (.lat_us.p999 == null or .lat_us.p99 <= .lat_us.p999))' "$r" \
    >/dev/null || fail "implausible point: $(jq -c '.scan.points[]' "$r")"
jq -e '[.scan.points[].ws_bytes] | . == sort and .[0] == 16777216
    and .[-1] == 268435456' "$r" >/dev/null || fail "working-set grid"
jq -e '.scan.device_time_s > 0 and .scan.device_time_s < 60' "$r" \
    >/dev/null || fail "device_time_s"
[ -f "$f" ] || fail "a named test file is kept"
head -c 20 "$f" | grep -q TIERPROBE-TESTFILE || fail "test file header"

# psync reads the same file.
"$TIERPROBE" scan "$f" --engine psync --min-ws 64M --max-ws 64M --points 2 \
    --quiet --output-format json > "$dir/p.json" || fail "psync scan"
[ "$(jq -r .target.engine "$dir/p.json")" = psync ] || fail "engine psync"
jq -e '.scan.points | length > 0 and all(.ios > 0)' "$dir/p.json" \
    >/dev/null || fail "psync scan without reads"
echo "ok"
