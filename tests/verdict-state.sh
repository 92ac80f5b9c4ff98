#!/bin/sh
# Description: the bucket state a figure was measured in, where reports
# meet pipelines, on simulated volumes: compare has commits and writes
# (two sync reports compare), marks each figure's state and never calls
# equal figures a bucket may have lifted; check and --expect exit 3 on an
# expectation met while a bucket may still be full, 0 with --accept-burst
# and on a baseline figure; sync says its commits ran while a bucket may
# have been full; --repeat has commits and does not pass a cv of 0% off
# as a steady rate; two volumes on an instance that bursts follow the
# long run once the shared bucket ran dry, and their long-run IOPS side by
# side are bounds.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-state.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
tp() {	# command, then its arguments; JSON of the last in $dir/last.json
	"$TIERPROBE" "$@" --seed 2 --quiet > "$dir/out" 2> "$dir/err"
}

tp run sim:ebs-gp2-100g --json "$dir/gp2.json" || fail "gp2 run exited $?"
tp run sim:ebs-gp3 --json "$dir/gp3.json" || fail "gp3 run exited $?"
tp run sim:ebs-gp2-100g --sustain 3000 --json "$dir/gp2s.json" ||
    fail "gp2 --sustain 3000 exited $?"

# compare: states shown; equal within noise only as "~" while a bucket
# may be full; a burst figure against a baseline one is marked "!".
"$TIERPROBE" compare "$dir/gp2.json" "$dir/gp3.json" "$dir/gp2s.json" \
    > "$dir/cmp" || fail "compare exited $?"
row() { grep "^$1 " "$dir/cmp"; }
row "IOPS ceiling" | grep -q "3,0[0-9][0-9] full?.*1.00x ~" ||
    fail "compare: gp2 and gp3's IOPS ceilings: $(row "IOPS ceiling")"
row "IOPS ceiling" | grep -q " =" && fail "compare called them equal"
row "commits/s, one writer" | grep -q "300 empty .*!" ||
    fail "compare: commits of the drained gp2: $(row "commits/s, one")"
for r in "write IOPS ceiling" "70/30 IOPS" "commits/s, group" \
    "sequential writes"; do
	row "$r" > /dev/null || fail "compare has no row $r"
done
grep -q "^States: full" "$dir/cmp" || fail "compare: states not explained"
tp sync sim:ebs-gp3 --json "$dir/s1.json" || fail "sync exited $?"
tp sync sim:ebs-gp2-100g --json "$dir/s2.json" || fail "sync exited $?"
"$TIERPROBE" compare "$dir/s1.json" "$dir/s2.json" > "$dir/cmp" ||
    fail "compare of two sync reports exited $?"
grep -q "No headline figures" "$dir/cmp" &&
    fail "compare of two sync reports compares nothing"
row "commits/s, one writer" | grep -q "full?" ||
    fail "compare: sync commits without their state"

# sync alone cannot see a bucket: it says so, and so does its verdict.
"$TIERPROBE" report "$dir/s2.json" > "$dir/s2.txt"
tr -s ' \n' ' ' < "$dir/s2.txt" | grep -q "These commits ran while a \
burst bucket may have been full (a sync alone cannot see one run dry)" ||
    fail "sync does not say its commits may have run on a full bucket"
[ "$(jq -r '.verdict.items[] | select(.name == "commit.rate") | .state' \
    "$dir/s2.json")" = may_be_full ] || fail "sync verdict: commit state"

# check: met while a bucket may be full is not met; accepted, it is.
"$TIERPROBE" check "$dir/gp2.json" --expect 'commit.rate>=800' \
    > "$dir/out"
rc=$?
[ $rc = 3 ] || fail "commit.rate>=800 on a bucket that may be full: exit $rc"
grep -q "met while a bucket may still be full" "$dir/out" ||
    fail "check does not say why: $(cat "$dir/out")"
"$TIERPROBE" check "$dir/gp2.json" --expect 'commit.rate>=800' \
    --accept-burst > "$dir/out" || fail "--accept-burst: exit $?"
grep -q "(accepted)" "$dir/out" || fail "--accept-burst not said"
"$TIERPROBE" check "$dir/gp2.json" --expect 'commit.rate>=800' \
    --output-format json > "$dir/out.json"
[ $? = 3 ] && [ "$(jq -r '.checks[0].expectations.items[0] |
    "\(.verdict) \(.lifted) \(.state)"' "$dir/out.json")" = \
    "met true may_be_full" ] && [ "$(jq .lifted "$dir/out.json")" = 1 ] ||
    fail "check JSON: $(cat "$dir/out.json")"
# After the bucket ran dry the commits are baseline figures: met is met;
# iops is the rate after the drop (300), missed with --accept-burst or
# not; the ceiling measured before it is its own figure, burst_iops.
"$TIERPROBE" check "$dir/gp2s.json" --expect 'commit.rate>=250' \
    > /dev/null || fail "a baseline figure met: exit $?"
for a in "" --accept-burst; do
	"$TIERPROBE" check "$dir/gp2s.json" --expect 'iops>=2900' $a \
	    > "$dir/out"
	[ $? = 3 ] && grep -q "long-run IOPS *300 .*MISSED" "$dir/out" ||
	    fail "a burst figure met before the drop passed ($a): \
$(cat "$dir/out")"
done
"$TIERPROBE" check "$dir/gp2s.json" --expect 'burst_iops>=2900' \
    > "$dir/out" || fail "burst_iops>=2900 on a gp2 that burst: \
$(cat "$dir/out")"
# --expect on the run itself, and the acceptance it records.
tp run sim:ebs-gp2-100g --quick --expect 'iops>=2500' --json "$dir/e.json"
[ $? = 3 ] || fail "run --expect on a full bucket did not exit 3"
tp run sim:ebs-gp2-100g --quick --expect 'iops>=2500' --accept-burst \
    --json "$dir/e2.json" || fail "run --expect --accept-burst exited $?"
"$TIERPROBE" check "$dir/e2.json" > /dev/null ||
    fail "check of a report that recorded --accept-burst exited $?"

# --repeat: commits in the table, and the cv of lifted figures explained.
tp run sim:ebs-gp3 --quick --repeat 3 --json "$dir/rep.json" ||
    fail "--repeat exited $?"
grep -Eq "^  IOPS ceiling .* 3  full\?$" "$dir/out" ||
    fail "repeat: the IOPS ceiling's state: $(grep 'IOPS ceiling' "$dir/out")"
grep -q "commits/s, one writer" "$dir/out" || fail "repeat: no commits"
tr -s ' \n' ' ' < "$dir/out" | grep -q "a small cv then says the runs \
agree while the bucket lasts, not that the volume keeps the rate" ||
    fail "repeat: a cv of a lifted figure is not explained"
[ "$(jq -r '.repeat.figures[] | select(.name == "commit.rate") | .state' \
    "$dir/rep.json")" = may_be_full ] || fail "repeat JSON: commit state"

# Two volumes on an m5.large, whose allowance runs dry after ~2.2 h.
tp limits sim:ebs-io1-4000@m5.large sim:ebs-gp3@m5.large \
    --sustain-together 9000 --json "$dir/multi.json" ||
    fail "limits of two targets exited $?"
tr -s ' \n' ' ' < "$dir/out" > "$dir/flat"
grep -q "nothing above them binds at this load" "$dir/flat" &&
    fail "several: the sentence ignores the long run"
grep -q "Until a bucket they share ran dry after" "$dir/flat" ||
    fail "several: the IOPS together are not said to last until the drop"
grep -q "In the long run that shared limit of 3,600 IOPS binds" \
    "$dir/flat" || fail "several: the long run's shared limit not said"
# Bounds, io1's no looser than the 3,600 the shared allowance leaves it.
grep -Eq "^  long-run IOPS +<= 3,600 +<= 3,000" "$dir/out" ||
    fail "several: side-by-side long-run IOPS are not bounds"
[ "$(jq -r '.verdict.together.items[] | select(.name ==
    "together.long_run.iops") | "\(.standing) \(.state) \(.value)"' \
    "$dir/multi.json")" = "measured empty 3600" ] ||
    fail "several: the verdict together: $(jq -c .verdict.together \
    "$dir/multi.json")"
# io1's long run is the bound the shared drop left it, measured after it
# (its 4,000 alone was a burst figure, before the drop); gp3's 3,000
# alone is the tighter bound, held before the drop.
[ "$(jq -r '.verdict.targets[0].items[] | select(.name ==
    "long_run.iops") | "\(.bound) \(.state) \(.value)"' "$dir/multi.json")" = \
    "at_most empty 3600" ] ||
    fail "several: io1's long run is not the shared drop's bound"
[ "$(jq -r '.verdict.targets[1].items[] | select(.name ==
    "long_run.iops") | .state' "$dir/multi.json")" = full ] ||
    fail "several: a target alone is not a burst figure before the drop"
exit 0
