#!/bin/sh
# Description: the fio job file that report --fio-job writes for a fixture
# report has one job per measured point with the point's rw, bs, iodepth
# and working set (and the scan's engine, psync for a buffered one), and
# fio itself accepts it (fio --parse-only; skipped without fio or jq).
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
data=$TOP_SRCDIR/tests/data
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-fio.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$TIERPROBE" report "$data/report-limits.json" --fio-job "$dir/limits.fio" \
    > /dev/null || fail "report --fio-job"
# 7 iodepth points and 5 block sizes, plus [global].
[ "$(grep -c '^\[' "$dir/limits.fio")" = 13 ] || fail "job count"
grep -q '^\[global\]' "$dir/limits.fio" || fail "no [global]"
for k in ioengine=io_uring direct=1 norandommap=1 randrepeat=0 \
    time_based=1 group_reporting=1 stonewall; do
	grep -qx "$k" "$dir/limits.fio" || fail "missing $k"
done
grep -qx 'iodepth=64' "$dir/limits.fio" || fail "iodepth 64 missing"
grep -qx 'bs=1048576' "$dir/limits.fio" || fail "bs 1 MiB missing"
grep -qx 'size=8589934592' "$dir/limits.fio" || fail "ws 8 GiB missing"
[ "$(grep -c '^rw=randread$' "$dir/limits.fio")" = 12 ] || fail "rw lines"
"$TIERPROBE" report "$data/report-scan.json" --fio-job "$dir/scan.fio" \
    > /dev/null || fail "report --fio-job"
[ "$(grep -c '^size=' "$dir/scan.fio")" = 10 ] || fail "scan job count"
[ "$(grep -c '^ioengine=' "$dir/scan.fio")" = 1 ] || fail "scan engine"
# A scan read by pread (a --buffered one): its jobs too.
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
jq '.target.engine = "psync" | .target.direct = false' \
    "$data/report-scan.json" > "$dir/psync.json" || fail "jq"
"$TIERPROBE" report "$dir/psync.json" --fio-job "$dir/psync.fio" \
    > /dev/null || fail "report --fio-job (psync)"
[ "$(grep -c '^ioengine=psync$' "$dir/psync.fio")" = 10 ] ||
	fail "a scan by pread: its jobs not ioengine=psync"
grep -qx direct=0 "$dir/psync.fio" || fail "a buffered scan: not direct=0"

command -v fio >/dev/null || { echo "skip: fio missing"; exit 77; }
for f in limits scan psync; do
	fio --parse-only "$dir/$f.fio" > "$dir/fio.out" 2>&1 ||
	    { cat "$dir/fio.out"; fail "fio rejects $f.fio"; }
done
echo "fio job files parse"
