#!/bin/sh
# Description: checks judge the long run, on a simulated gp2 of 33 GiB
# (baseline 100 IOPS) whose bucket runs dry during the writes of a run
# with --sustain 1200 (virtual time): iops and bandwidth are then the
# rates after the drop, missed with --accept-burst or not (exit 3), and
# the ceilings measured before it are their own figures (burst_iops,
# burst_bandwidth); --expect-profile ebs-gp3 fails on the long-run
# figures; a --type the run rules out fails check, --accept-burst or not;
# a run's --expect outcome is the verdict's first line, naming the figure
# that missed; fleet gives the drained volume's long-run IOPS and does not
# call it an outlier beside volumes whose figures a bucket may have lifted;
# of two volumes sharing an instance's bucket that ran dry only together,
# each one's IOPS is bounded by what the bucket left them.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-longrun.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$TIERPROBE" run sim:gp2:33G --seed 1 --sustain 1200 --quiet \
    --json "$dir/gp2.json" > /dev/null || fail "gp2 run exited $?"
# The run saw the drop in the writes, not in the reads' sustained run.
[ "$(jq -r '.limits.burst.detected' "$dir/gp2.json")" = false ] &&
[ "$(jq -r '.writes.limits.burst.detected' "$dir/gp2.json")" = true ] ||
    fail "the fixture no longer drains in the writes only"

for a in "" --accept-burst; do
	"$TIERPROBE" check "$dir/gp2.json" $a --expect 'iops>=2500' \
	    > "$dir/out"
	rc=$?
	[ $rc = 3 ] && grep -Eq 'iops>=2500 +long-run IOPS +100 .*MISSED' \
	    "$dir/out" || fail "iops>=2500 after a drain ($a): exit $rc, \
$(cat "$dir/out")"
	"$TIERPROBE" check "$dir/gp2.json" $a \
	    --expect 'bandwidth>=100M' > "$dir/out"
	rc=$?
	[ $rc = 3 ] && grep -Eq 'long-run bandwidth +25 MiB/s .*MISSED' \
	    "$dir/out" || fail "bandwidth>=100M after a drain ($a): exit \
$rc, $(cat "$dir/out")"
done
"$TIERPROBE" check "$dir/gp2.json" --output-format json \
    --expect 'iops>=2500' > "$dir/out.json"
[ "$(jq -r '.checks[0].expectations.items[0] | "\(.figure) \(.value)
    \(.verdict) \(.state)"' "$dir/out.json")" = \
    "writes.limits.long_run_iops 100
    missed empty" ] || fail "check JSON: $(cat "$dir/out.json")"

# The burst rates are their own figures: met.
"$TIERPROBE" check "$dir/gp2.json" --expect 'burst_iops>=2500' \
    --expect 'burst_bandwidth>=100M' > "$dir/out" ||
    fail "burst figures: exit $?, $(cat "$dir/out")"

# A gp3's promise on a gp2 that drained: missed on the long run.
"$TIERPROBE" check "$dir/gp2.json" --accept-burst \
    --expect-profile ebs-gp3 > "$dir/out"
rc=$?
[ $rc = 3 ] && grep -q 'long-run IOPS .*MISSED' "$dir/out" ||
    fail "--expect-profile ebs-gp3 on gp2: exit $rc, $(cat "$dir/out")"

# A --type the run rules out fails check, --accept-burst or not.
"$TIERPROBE" run sim:gp2:33G --seed 1 --sustain 1200 --quiet --type gp3 \
    --json "$dir/t.json" > /dev/null
[ "$(jq -r '.volume_types.given.consistent' "$dir/t.json")" = false ] ||
    fail "gp3 not ruled out on a gp2: $(jq -c .volume_types.given \
"$dir/t.json")"
for a in "" --accept-burst; do
	"$TIERPROBE" check "$dir/t.json" $a --expect 'burst_iops>=2500' \
	    > "$dir/out"
	rc=$?
	[ $rc = 3 ] && grep -q 'MISSED --type gp3: ruled out by' "$dir/out" ||
	    fail "--type gp3 ruled out ($a): exit $rc, $(cat "$dir/out")"
done
"$TIERPROBE" run sim:gp2:33G --seed 1 --sustain 1200 --quiet --type gp2 \
    --json "$dir/t2.json" > /dev/null
"$TIERPROBE" check "$dir/t2.json" --expect 'burst_iops>=2500' \
    > "$dir/out" || fail "--type gp2 on a gp2: exit $?, $(cat "$dir/out")"

# A run's --expect: its outcome heads the verdict, with the figure.
"$TIERPROBE" run sim:gp2:33G --seed 1 --sustain 1200 --accept-burst \
    --expect 'iops>=2500' --expect 'p50<=2ms' > "$dir/run.txt" 2> /dev/null
rc=$?
[ $rc = 3 ] || fail "run --expect iops>=2500: exit $rc"
sed -n '/^Verdict/{n;p;q;}' "$dir/run.txt" | grep -Eq \
    '^ *expectations +MISSED 1 of 2: iops>=2500 \(long-run IOPS 100\)' ||
    fail "the verdict does not lead with the outcome: $(sed -n \
'/^Verdict/,/^$/p' "$dir/run.txt")"
[ "$(grep -n '^Verdict' "$dir/run.txt" | cut -d: -f1)" -lt 20 ] ||
    fail "the verdict is not near the top"

# fleet: the drained volume's IOPS is its long run, measured empty.
mkdir "$dir/fleet"
cp "$dir/gp2.json" "$dir/fleet/"
"$TIERPROBE" fleet "$dir/fleet" --output-format json > "$dir/fleet.json"
[ "$(jq -c '.fleet.volumes[0] | [.figures.iops, .states.iops]' \
    "$dir/fleet.json")" = '[100,"empty"]' ] ||
    fail "fleet: $(jq -c '.fleet.volumes[0]' "$dir/fleet.json")"

# A fleet of one kind: three short runs (no drain seen: burst figures)
# and the drained one.  Its long-run 100 IOPS is not compared with the
# burst figures' median (3,000): shown, not judged (outlier null).
for h in 1 2 3; do
	"$TIERPROBE" run sim:gp2:33G --seed $h --quiet --host h$h --kind gp2 \
	    --json "$dir/fleet/h$h.json" > /dev/null || fail "h$h: exit $?"
done
rm "$dir/fleet/gp2.json"
"$TIERPROBE" run sim:gp2:33G --seed 1 --sustain 1200 --quiet --host h4 \
    --kind gp2 --json "$dir/fleet/h4.json" > /dev/null || fail "h4: exit $?"
"$TIERPROBE" fleet "$dir/fleet" --output-format json > "$dir/fleet.json"
[ "$(jq -c '[.fleet.volumes[] | [.host, .states.iops, .outlier]]' \
    "$dir/fleet.json")" = '[["h1","may_be_full",false],'\
'["h2","may_be_full",false],["h3","may_be_full",false],'\
'["h4","empty",null]]' ] || fail "fleet of burst and long-run figures: \
$(jq -c '[.fleet.volumes[] | [.host, .figures.iops, .states.iops,
    .outlier, .outlier_reason]]' "$dir/fleet.json")"

# Two volumes on an instance whose bucket they share: it runs dry only
# together.  Alone each does 1,000 IOPS (its own limit).  Shared baseline
# 1,500: the drop together does not lower 1,000, which stands (met while
# a bucket of its own may be full).  Shared baseline 800: each is at most
# 800 for good, so iops>=900 is missed, --accept-burst or not.
printf '[device]\nname = v\nsize = 1G\n[backing]\nlatency_us = 500\n' \
    > "$dir/vol.ini"
printf 'concurrency = 8\n[limit]\niops = 1000\nbandwidth = 32M\n' \
    >> "$dir/vol.ini"
for b in 1500 800; do
	printf '[instance]\nname = i%s\niops = %s\nbandwidth = 40M\n' $b $b \
	    > "$dir/i$b.ini"
	printf 'burst_iops = 3000\nburst_duration_s = 30\n' >> "$dir/i$b.ini"
	"$TIERPROBE" limits "sim:$dir/vol.ini@$dir/i$b.ini" \
	    "sim:$dir/vol.ini@$dir/i$b.ini" --max-iodepth 8 --sustain 5 \
	    --sustain-together 150 --seed 7 --quiet \
	    --json "$dir/two$b.json" > /dev/null || fail "two on i$b: $?"
	[ "$(jq -c --argjson b $b '.together | [.burst_shared,
	    (.burst.baseline_iops | . > $b * 0.98 and . < $b * 1.02)]' \
	    "$dir/two$b.json")" = "[true,true]" ] ||
	    fail "i$b: $(jq -c .together.burst "$dir/two$b.json")"
done
"$TIERPROBE" check "$dir/two1500.json" --accept-burst \
    --expect 'iops>=900' > "$dir/out" || fail "shared 1500: exit $?, \
$(cat "$dir/out")"
grep -q 'met while a bucket may still be full (accepted)' "$dir/out" ||
    fail "shared 1500: $(cat "$dir/out")"
"$TIERPROBE" check "$dir/two800.json" --accept-burst \
    --expect 'iops>=900' > "$dir/out"
rc=$?
[ $rc = 3 ] && grep -Eq 'long-run IOPS, shared +800 .*MISSED' "$dir/out" ||
    fail "shared 800: exit $rc, $(cat "$dir/out")"
exit 0
