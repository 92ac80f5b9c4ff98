#!/bin/sh
# Description: the fio job file that report --fio-job writes for a fixture
# report has one job per measured point with the point's rw, bs, iodepth
# and working set, the engine each part read by (a buffered scan's psync,
# --engine psync's sweeps as one psync job per I/O in flight); the write
# side too: the sequential run, the write sweeps and the 70/30 point, none
# writing the first 4 KiB (a test file's header), and one job per commit
# with its method's fio options and writers; a report with nothing to
# export is refused in one line (exit 2, no file), sync --fio-job writes
# its commits; fio itself accepts every file (fio --parse-only) and runs
# one commit job for a second on a temp file (skipped without fio or jq).
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


# The write side and the commits of a run: one job per point and row.
"$TIERPROBE" report "$data/report-sync.json" --fio-job "$dir/sync.fio" \
    > /dev/null || fail "report --fio-job (sync)"
rows=$(jq '.sync.methods | length' "$data/report-sync.json")
wq=$(jq '.writes.limits.qd_points | length' "$data/report-sync.json")
wb=$(jq '.writes.limits.bs_points | length' "$data/report-sync.json")
[ "$(grep -c '^\[commit-' "$dir/sync.fio")" = "$rows" ] ||
	fail "not one job per commit row ($rows)"
[ "$(grep -c '^\[writes-' "$dir/sync.fio")" = $((wq + wb + 2)) ] ||
	fail "not one job per write point, the sequential run and 70/30"
[ "$(grep -c '^rw=randwrite$' "$dir/sync.fio")" = $((wq + wb)) ] ||
	fail "write sweeps not randwrite"
grep -q '^rwmixread=70$' "$dir/sync.fio" || fail "70/30 not rwmixread=70"
# Each job as "name opt opt ...": the checks below read them so.
awk '/^\[/ { if (j != "") print j; j = $0; next }
    /^[a-z_]+=/ { j = j " " $0 } END { print j }' "$dir/sync.fio" \
    > "$dir/jobs"
awk '/ rw=(randwrite|write|randrw) / { o = -1
    if (match($0, / offset=[0-9]+/)) o = substr($0, RSTART + 8, RLENGTH - 8)
    if (o + 0 < 4096) { print; bad = 1 } } END { exit bad }' "$dir/jobs" ||
	fail "a write job starts in the first 4 KiB"
# Each method's options, and its writers as jobs.
awk '/^\[commit-/ {
	ok = 1
	if ($1 ~ /-fdatasync-/) ok = / ioengine=psync/ && / fdatasync=1/ && / direct=0/
	else if ($1 ~ /-fsync-/) ok = / ioengine=psync/ && / fsync=1/ && / direct=0/
	else if ($1 ~ /-direct-dsync-/) ok = / sync=dsync/ && / direct=1/
	else if ($1 ~ /-dsync-/) ok = / sync=dsync/ && / direct=0/
	else if ($1 ~ /-uring-datasync-/) ok = / ioengine=io_uring/ && / fdatasync=1/ && / direct=0/
	else ok = 0
	match($1, /-bs-[0-9]+-/); bs = substr($1, RSTART + 4, RLENGTH - 5)
	match($1, /-writers-[0-9]+/); w = substr($1, RSTART + 9, RLENGTH - 9)
	ok = ok && index($0, " bs=" bs " ") && / rw=write /
	ok = ok && (w == 1 ? !/ numjobs=/ : index($0, " numjobs=" w " "))
	if (!ok) { print; bad = 1 } } END { exit bad }' "$dir/jobs" ||
	fail "a commit job lacks its method's options, size or writers"
# Commits alone (a sync report): only commit jobs.
jq 'del(.scan, .limits, .writes)' "$data/report-sync.json" \
    > "$dir/commits.json" || fail "jq"
"$TIERPROBE" report "$dir/commits.json" --fio-job "$dir/commits.fio" \
    > /dev/null || fail "report --fio-job (commits alone)"
[ "$(grep -c '^\[' "$dir/commits.fio")" = $((rows + 1)) ] ||
	fail "a sync report: not [global] and its $rows commits"
# Nothing measured: refused in one line, exit 2, no file left.
jq 'del(.scan, .limits, .writes) | .sync.methods = []' \
    "$data/report-sync.json" > "$dir/none.json" || fail "jq"
"$TIERPROBE" report "$dir/none.json" --fio-job "$dir/none.fio" \
    > /dev/null 2> "$dir/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l < "$dir/err")" = 1 ] &&
    grep -q 'no measured point' "$dir/err" || {
	cat "$dir/err"; fail "nothing to export: exit $rc, not refused"; }
[ ! -e "$dir/none.fio" ] || fail "nothing to export: a file was written"
# sync --fio-job on a simulated volume: its commits, each writer a job.
"$TIERPROBE" sync sim:ebs-gp3 --seed 1 --methods fdatasync,direct-dsync \
    --bs 8K --writers 1,2 --quiet --fio-job "$dir/simsync.fio" \
    > /dev/null || fail "sync --fio-job exited $?"
grep -q '^\[commit-01-fdatasync-bs-8192-writers-1\]$' "$dir/simsync.fio" &&
    grep -q '^numjobs=2$' "$dir/simsync.fio" ||
	fail "sync --fio-job: the commits or their writers are missing"

command -v fio >/dev/null || { echo "skip: fio missing"; exit 77; }
for f in limits scan psync sweeps mixed sync commits simsync; do
	fio --parse-only "$dir/$f.fio" > "$dir/fio.out" 2>&1 ||
	    { cat "$dir/fio.out"; fail "fio rejects $f.fio"; }
done
# fio runs a commit job as written (the first, fdatasync at one writer),
# for a second on a temp file, under the real-disk timing lock.
awk -v f="$dir/commit.dat" '/^\[/ { g = $0 == "[global]"
	if (c) exit; c = $0 ~ /^\[commit-01-/ }
    g && /^filename=/ { print "filename=" f; next }
    g || c { print }' "$dir/sync.fio" > "$dir/one.fio"
grep -q '^fdatasync=1$' "$dir/one.fio" || fail "no fdatasync job to run"
# A simulated report's sizes are commented out: give this file one.
sed -i 's/^runtime=.*/runtime=1/; s/^\(; \)\{0,1\}size=.*/size=1M/' \
    "$dir/one.fio"
flock "${TIERPROBE_TIMING_LOCK:-/tmp/tierprobe-timing.lock}" \
    fio --output-format=json "$dir/one.fio" > "$dir/one.json" \
    2> "$dir/fio.err" || { cat "$dir/fio.err"; fail "fio cannot run it"; }
jq -e '.jobs[0].write.total_ios > 0 and .jobs[0].sync.lat_ns.N > 0' \
    "$dir/one.json" > /dev/null || fail "the commit job wrote or synced nothing"
echo "fio job files parse; a commit job runs"
