#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: tierprobe's CPU as the limit of a run together, on a real
# kernel.  Two test files in the page cache (tmpfs, --buffered) cost only
# CPU; tierprobe shares one CPU with a busy loop, so it gets about half of
# it.  Alone and together it is held to the same rate, so the sum together
# is about half the sum alone: not a shared limit above the files but the
# CPU, counted as busy or waiting for it.  The report must say so (IOPS
# bound null, cpu_bound true, cpu_util at least 0.9 cores) and seek no
# bucket on the sum.  Needs taskset and a writable /dev/shm; skips with
# 77 otherwise.  About 30 seconds, one CPU busy.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
. "$(dirname "$0")/timing-lock.sh"

need taskset jq
[ -r /proc/thread-self/schedstat ] || skip "no schedstat"
cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
taskset -c "$cpu" true 2>/dev/null || skip "cannot pin to CPU $cpu"
shm=$(mktemp -d /dev/shm/tp-cpu-together.XXXXXX 2>/dev/null) ||
    skip "no writable /dev/shm"
t_atexit "rm -rf $shm"

t_bg taskset -c "$cpu" sh -c 'while :; do :; done'
taskset -c "$cpu" "$TIERPROBE" limits "$shm/a" "$shm/b" --buffered \
    --ws 32M --max-iodepth 4 --max-time 0.5 --sustain 3 \
    --sustain-together 4 --json "$t_dir/r.json" > "$t_dir/out" \
    2> "$t_dir/err" || fail "limits exited $?: $(cat "$t_dir/err")"
kill "$t_pid"

j=$t_dir/r.json
jq -c '.together | {iops_ceiling, sum_alone_iops, iops_bound, iops_why,
    cpu_util, bandwidth_cpu_util, cpu_bound}' "$j"
[ "$(jq .together.cpu_bound "$j")" = true ] || fail "cpu_bound is not true"
[ "$(jq .together.iops_bound "$j")" = null ] ||
    fail "an IOPS verdict while the CPU was the limit"
jq -e '.together.cpu_util >= 0.9' "$j" > /dev/null ||
    fail "cpu_util under 0.9 cores"
jq -e '.together.iops_why | test("CPU")' "$j" > /dev/null ||
    fail "the reason does not name the CPU"
[ "$(jq .together.burst.detected "$j")" = false ] ||
    fail "a bucket on the sum of a CPU-bound run"
tr '\n' ' ' < "$t_dir/out" | tr -s ' ' | grep -q "CPU was the limit" ||
    fail "the text does not say the CPU was the limit"
echo "ok"
