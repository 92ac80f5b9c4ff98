#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: nothing hangs, and the first SIGINT stops any phase.
# Profiles that are devices (an endless /dev/zero), FIFOs (no writer) or
# larger than a profile can be (1 MiB) are refused at once with one line,
# exit 2.  A SIGINT in each long phase of a simulated run (made long in
# virtual time: --max-time 100000 --precision 0.1, or a long --sustain),
# sent once the phase's first progress line is out, ends it with exit 130
# and a complete report that says "interrupted": true and keeps what was
# measured.  Timeouts here only guard against a hang.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
need jq timeout

# Refused profiles: the command must end by itself (timeout: a hang).
mkfifo "$t_dir/fifo.ini"
truncate -s 2M "$t_dir/huge.ini"
for spec in /dev/zero "$t_dir/fifo.ini" "$t_dir/huge.ini" /dev/null; do
	timeout 30 "$TIERPROBE" scan "sim:$spec" --quiet >/dev/null \
	    2>"$t_dir/err"
	t_one_line $? 2 "$t_dir/err" "$spec"
	grep -q "at most 1 MiB" "$t_dir/err" ||
	    fail "sim:$spec: does not say what is accepted: $(cat "$t_dir/err")"
	timeout 30 "$TIERPROBE" profiles --show "$spec" >/dev/null \
	    2>"$t_dir/err"
	[ $? = 2 ] || fail "profiles --show $spec: exit $?"
	timeout 30 "$TIERPROBE" scan "sim:gp2:100G@$spec" --quiet >/dev/null \
	    2>"$t_dir/err"
	t_one_line $? 2 "$t_dir/err" "$spec"
done
# One within the limit still loads (a stream read past it is cut off
# there: test_sim).
printf '[device]\nname = tiny\nsize = 1G\n[backing]\nlatency_us = 100\n' \
    >"$t_dir/ok.ini"
"$TIERPROBE" profiles --show "$t_dir/ok.ini" >/dev/null 2>"$t_dir/err" ||
    fail "a small profile: $(cat "$t_dir/err")"

j=$t_dir/r.json
# interrupt NAME PATTERN JQ CMD...: run CMD, SIGINT it once PATTERN is on
# its stderr, then check exit 130 and a partial report for which jq
# expression JQ holds.
interrupt() {
	name=$1 pat=$2 what=$3
	shift 3
	rm -f "$j"
	"$@" --json "$j" >/dev/null 2>"$t_dir/err" &
	pid=$!
	t_atexit "kill -9 $pid"
	i=0
	until grep -q "$pat" "$t_dir/err"; do
		kill -0 "$pid" 2>/dev/null ||
		    fail "$name: ended before '$pat': $(cat "$t_dir/err")"
		i=$((i + 1))
		[ "$i" -gt 2400 ] && fail "$name: no '$pat' in 120 s"
		sleep 0.05
	done
	kill -INT "$pid"
	t_wait "$pid" 60 || fail "$name: still running 60 s after SIGINT"
	[ "$t_rc" = 130 ] ||
	    fail "$name: exit $t_rc after SIGINT, expected 130: $(cat "$t_dir/err")"
	t_json_ok "$j" || fail "$name: the report is not complete JSON"
	jq -e '.interrupted == true' "$j" >/dev/null ||
	    fail "$name: the report does not say interrupted"
	jq -e "$what" "$j" >/dev/null ||
	    fail "$name: the partial report lacks what was measured ($what)"
	echo "$name: exit 130 after SIGINT, partial report kept"
}
long="--max-time 100000 --precision 0.1"
# shellcheck disable=SC2086
interrupt scan "^scan 1/" '.scan.points | length >= 1' \
    "$TIERPROBE" scan sim:gp2:100G $long
# shellcheck disable=SC2086
interrupt "iodepth sweep" "^iodepth 1/" '.limits.qd_points | length >= 1' \
    "$TIERPROBE" limits sim:gp2:100G $long
interrupt "sustained" "^block size 9/9" '.limits.bs_points | length == 9' \
    "$TIERPROBE" limits sim:gp2:100G --sustain 100000
# shellcheck disable=SC2086
interrupt "writes" "^write iodepth 1/" '.scan.points | length >= 1' \
    "$TIERPROBE" run sim:gp2:100G --quick $long
# shellcheck disable=SC2086
interrupt "commits" "^fdatasync 1/" '.sync.methods | length >= 1' \
    "$TIERPROBE" sync sim:gp2:100G $long
interrupt "together" "^tierprobe: together:" '.targets | length == 2' \
    "$TIERPROBE" limits sim:gp2:100G sim:gp3:100G --sustain 2 \
    --sustain-together 100000
echo "ok"
