#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: SIGINT while several targets run together: every target's
# I/O is drained, the partial report is written with "interrupted": true
# at the top and in together (whose figures cover what was measured), the
# test files this run created are removed, exit 130.  About 25 seconds.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"

j=$t_dir/r.json
a=$t_dir/a.dat
b=$t_dir/b.dat

t_bg "$TIERPROBE" limits "$a" "$b" --ws 32M --max-time 0.3 \
    --max-iodepth 4 --sustain 2 --sustain-together 120 --json "$j" \
    >/dev/null 2>"$t_dir/err"
# Each alone at the bandwidth run's size, then the bandwidth run together
# are done: the IOPS run has begun.
t_until 'grep -q "^together 3/4" "$t_dir/err"' ||
    t_until 'grep -q "^together 3/4" "$t_dir/err"' ||
    fail "the run together never started: $(cat "$t_dir/err")"
sleep 1
kill -INT "$t_pid"
t_wait "$t_pid" 30 || fail "still running 30 s after SIGINT"
[ "$t_rc" = 130 ] || fail "SIGINT gave exit $t_rc, expected 130: $(cat "$t_dir/err")"
t_json_ok "$j" || fail "the report is not complete JSON"
command -v jq >/dev/null 2>&1 || { echo "ok (jq missing: report not read)"; exit 0; }
[ "$(jq .interrupted "$j")" = true ] || fail "the report is not interrupted"
[ "$(jq .together.interrupted "$j")" = true ] ||
    fail "together is not interrupted"
[ "$(jq '.together.timeline | length' "$j")" -gt 0 ] ||
    fail "the run together kept no interval"
[ "$(jq '[.together.per_target[].iops] | all(. > 0)' "$j")" = true ] ||
    fail "a target has no IOPS together: $(jq -c .together.per_target "$j")"
[ ! -e "$a" ] && [ ! -e "$b" ] || fail "a test file was left behind"
left=$(ls -A "$t_dir" | grep -v -e '^r.json$' -e '^err$')
[ -z "$left" ] || fail "left behind: $left"
echo "ok"
