#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: a run that stopped on a fault says so in its report, and
# nothing reads it as a healthy volume.  A target that shrinks mid-run
# (the run held with SIGSTOP once its first progress line is out, the
# file truncated, SIGCONT) and a filesystem that fills up (a 100 MiB
# tmpfs: sync's writers' files; root only) each give exit 1 and a report
# with "interrupted": false and fault {reason, errno, phase, message};
# the text report leads with the fault and offers no longer run; check
# exits 3 with a FAULT line (never passed or skipped), compare marks it
# FAILED, fleet lists it as FAILED (text, CSV, JSON), keeps it out of the
# medians and exits 1.  A report without the key still loads.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
need jq truncate

f=$t_dir/t.dat
j=$t_dir/eio.json
"$TIERPROBE" prep "$f" --size 64M --quiet || fail "prep"
"$TIERPROBE" limits "$f" --ws 64M --sustain 30 --max-time 0.5 --json "$j" \
    >/dev/null 2>"$t_dir/err" &
pid=$!
t_atexit "kill -9 $pid"
i=0
until grep -q "^iodepth 1/" "$t_dir/err"; do
	kill -0 "$pid" 2>/dev/null || fail "ended before its first point"
	i=$((i + 1))
	[ "$i" -gt 2400 ] && fail "no progress line in 120 s"
	sleep 0.05
done
kill -STOP "$pid"
truncate -s 1M "$f"
kill -CONT "$pid"
t_wait "$pid" 60 || fail "still running 60 s after the target shrank"
[ "$t_rc" = 1 ] || fail "shrunk target: exit $t_rc, expected 1"
jq -e '.interrupted == false and .fault.reason == "io-error" and
    .fault.errno == 5 and .fault.phase == "limits" and
    (.fault.message | test("I/O error"))' "$j" >/dev/null ||
    fail "shrunk target: no io-error fault: $(jq -c '[.interrupted, .fault]' "$j")"

"$TIERPROBE" report "$j" >"$t_dir/text" || fail "report"
head -3 "$t_dir/text" | grep -q "STOPPED ON A FAULT in its limits phase" ||
    fail "the text report does not lead with the fault: $(head -3 "$t_dir/text")"
grep -q -- "--sustain" "$t_dir/text" &&
    fail "the text report of a fault advises a longer run"

# check: not met (3), never passed or skipped.
"$TIERPROBE" check "$j" --expect 'iops>=1' >"$t_dir/out" 2>&1
rc=$?
[ "$rc" = 3 ] || fail "check of a faulted report: exit $rc, expected 3"
grep -q "STOPPED ON A FAULT" "$t_dir/out" || fail "check does not say so"
"$TIERPROBE" check "$j" --expect 'iops>=1' --quiet >"$t_dir/out" 2>&1
grep -q "^FAULT " "$t_dir/out" || fail "check --quiet: no FAULT line"
grep -q "0 passed" "$t_dir/out" || fail "check counted it as passed"
grep -q " 0 skipped" "$t_dir/out" || fail "check counted it as skipped"

# A healthy volume beside it, of the same kind three times over.
mkdir "$t_dir/fleet"
jq '.labels.kind = "k"' "$j" >"$t_dir/fleet/bad.json"
for n in 1 2 3; do
	"$TIERPROBE" limits sim:gp2:100G --kind k --sustain 2 --max-time 0.3 \
	    --quiet --json "$t_dir/fleet/ok$n.json" >/dev/null ||
	    fail "a simulated run"
done
"$TIERPROBE" compare "$j" "$t_dir/fleet/ok1.json" >"$t_dir/out" 2>&1 ||
    fail "compare: $(cat "$t_dir/out")"
grep -q "^   A FAILED: its run stopped on a fault (io-error" "$t_dir/out" ||
    fail "compare does not mark it: $(head -3 "$t_dir/out")"
"$TIERPROBE" fleet "$t_dir/fleet" >"$t_dir/out" 2>"$t_dir/err"
rc=$?
[ "$rc" = 1 ] || fail "fleet with a faulted volume: exit $rc, expected 1"
grep "bad.json" "$t_dir/out" | grep -q FAILED ||
    fail "fleet does not list it as FAILED: $(cat "$t_dir/out")"
grep -q "bad.json: FAILED" "$t_dir/err" || fail "fleet says nothing on stderr"
"$TIERPROBE" fleet "$t_dir/fleet" --output-format json 2>/dev/null |
    jq -e '([.fleet.volumes[] | select(.fault == "io-error")] | length == 1)
    and all(.fleet.volumes[] | select(.fault != null); .outlier == null)' \
    >/dev/null || fail "fleet JSON: no fault, or judged against its kind"
"$TIERPROBE" fleet "$t_dir/fleet" --output-format csv 2>/dev/null |
    grep "bad.json" | grep -q ",io-error$" || fail "fleet CSV: no fault"

# A report without the key (older) still loads, and reads as no fault.
jq 'del(.fault)' "$j" >"$t_dir/old.json"
"$TIERPROBE" report "$t_dir/old.json" >"$t_dir/text" ||
    fail "a report without fault does not load"
grep -q "STOPPED ON A FAULT" "$t_dir/text" && fail "a fault out of nowhere"

# The filesystem fills up: sync's writers' files on a 100 MiB tmpfs.
if [ "$(id -u)" = 0 ] && t_mount -t tmpfs -o size=100M tmpfs 2>/dev/null; then
	"$TIERPROBE" prep "$t_mnt/t.dat" --size 16M --quiet 2>/dev/null ||
	    fail "prep"
	"$TIERPROBE" sync "$t_mnt/t.dat" --writers 1,4 --methods fdatasync \
	    --max-time 0.2 --json "$t_dir/full.json" >/dev/null 2>"$t_dir/err"
	rc=$?
	[ "$rc" = 1 ] || fail "a full filesystem: exit $rc, expected 1"
	jq -e '.interrupted == false and .fault.reason == "no-space" and
	    .fault.errno == 28 and .fault.phase == "sync"' "$t_dir/full.json" \
	    >/dev/null || fail "a full filesystem: no no-space fault: $(jq -c \
	    '[.interrupted, .fault]' "$t_dir/full.json")"
	"$TIERPROBE" check "$t_dir/full.json" --expect 'commit.p99<=1s' \
	    >/dev/null 2>&1
	rc=$?
	[ "$rc" = 3 ] || fail "check of a full filesystem's report: exit $rc"
else
	echo "no root or no tmpfs: the full filesystem part skipped"
fi
echo "ok"
