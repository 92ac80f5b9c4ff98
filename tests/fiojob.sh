#!/bin/sh
# Description: the fio job file that report --fio-job writes for a fixture
# report has one job per measured point with the point's rw, bs, iodepth
# and working set, the engine each part read by (a buffered scan's psync,
# --engine psync's sweeps as one psync job per I/O in flight), and
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
# A run with --engine psync: the sweeps too, a thread per I/O in flight.
jq '.config.engine = "psync" | .target.engine = "psync"' \
    "$data/report-limits.json" > "$dir/sweeps.json" || fail "jq"
"$TIERPROBE" report "$dir/sweeps.json" --fio-job "$dir/sweeps.fio" \
    > /dev/null || fail "report --fio-job (psync sweeps)"
[ "$(grep -c '^ioengine=' "$dir/sweeps.fio")" = 1 ] &&
    grep -qx ioengine=psync "$dir/sweeps.fio" ||
	fail "--engine psync: the sweeps' jobs not ioengine=psync"
grep -qx numjobs=64 "$dir/sweeps.fio" && ! grep -q '^iodepth=[^1]' \
    "$dir/sweeps.fio" || fail "psync at depth 64: not 64 jobs of depth 1"
# The same report's scan by pread and its sweeps by io_uring (--buffered).
jq '.target.engine = "psync"' "$data/report-limits.json" \
    > "$dir/mixed.json" || fail "jq"
"$TIERPROBE" report "$dir/mixed.json" --fio-job "$dir/mixed.fio" \
    > /dev/null || fail "report --fio-job (mixed)"
[ "$(grep -c '^ioengine=' "$dir/mixed.fio")" = 1 ] &&
    grep -qx ioengine=io_uring "$dir/mixed.fio" ||
	fail "sweeps by io_uring after a scan by pread: not io_uring"

command -v fio >/dev/null || { echo "skip: fio missing"; exit 77; }
for f in limits scan psync sweeps mixed; do
	fio --parse-only "$dir/$f.fio" > "$dir/fio.out" 2>&1 ||
	    { cat "$dir/fio.out"; fail "fio rejects $f.fio"; }
done
echo "fio job files parse"
