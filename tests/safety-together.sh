#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: SIGINT while several targets run together: every target's
# I/O is drained, the partial report is written with "interrupted": true
# at the top and in together, the test files this run created are
# removed, exit 130.  The run is held (tests/t_hold.c) right after the
# bandwidth run together and the signal sent there, as the IOPS run
# together begins: the bandwidth run's figures are kept, the IOPS run's
# are null with the reason, never a guess.  About 25 seconds.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"

j=$t_dir/r.json
a=$t_dir/a.dat
b=$t_dir/b.dat

t_hold 2 "together 3/4" -- "$TIERPROBE" limits "$a" "$b" --ws 32M \
    --max-time 0.3 --max-iodepth 4 --sustain 2 --sustain-together 120 \
    --json "$j" >/dev/null 2>"$t_dir/err"
t_held "the end of the bandwidth run together"
t_release INT
t_wait "$t_pid" 30 || fail "still running 30 s after SIGINT"
[ "$t_rc" = 130 ] || fail "SIGINT gave exit $t_rc, expected 130: $(cat "$t_dir/err")"
t_json_ok "$j" || fail "the report is not complete JSON"
command -v jq >/dev/null 2>&1 || { echo "ok (jq missing: report not read)"; exit 0; }
[ "$(jq .interrupted "$j")" = true ] || fail "the report is not interrupted"
[ "$(jq .together.interrupted "$j")" = true ] ||
    fail "together is not interrupted"
[ "$(jq '.together.bandwidth_timeline | length' "$j")" -gt 0 ] ||
    fail "the bandwidth run together kept no interval"
[ "$(jq '[.together.per_target[].bandwidth_bytes_per_s] | all(. > 0)' \
    "$j")" = true ] || fail "a target has no bandwidth together: \
$(jq -c '[.together.per_target[].bandwidth_bytes_per_s]' "$j")"
jq -e '.together.iops_ceiling == null and
    ([.together.per_target[].iops] | all(. == null)) and
    (.together.iops_why | test("too short"))' "$j" >/dev/null ||
    fail "IOPS together not null with its reason: \
$(jq -c '.together | {iops_ceiling, iops_why}' "$j")"
[ ! -e "$a" ] && [ ! -e "$b" ] || fail "a test file was left behind"
left=$(ls -A "$t_dir" | grep -v -e '^r.json$' -e '^err$')
[ -z "$left" ] || fail "left behind: $left"
echo "ok"
