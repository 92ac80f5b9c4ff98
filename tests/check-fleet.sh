#!/bin/sh
# Description: acceptance checks and fleets through the binary, on
# simulated volumes: --expect exits 0 when met and 3 when missed or unknown
# (the report still written, recording the verdicts), 2 with one line for a
# malformed expression (no report left); check judges a saved report by
# what it records or by new expectations; --expect-profile passes a volume
# of that profile and fails a slower one.  A fleet of three gp3 volumes
# and a slow one names the slow one (text, JSON, CSV, chart), and bad input
# (truncated report, newer schema, duplicate host and target, empty
# directory) is skipped with the reason, the rest reported, exit 1.
# commit.p99 is the p99 of the report's fastest commit method, with an
# interval.  Near a threshold, the figure shows the digits that tell it
# from it; MB/s and MiB/s are read as written; --expect-profile on
# sim:VOL@INSTANCE expects what the profile promises on that instance, and
# what a run cannot settle is said before measuring and in the report.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-fleet.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# A gp3 delivering half its IOPS: the slow volume.
sed -e 's/^iops = 3000/iops = 1500/' -e 's/^name = ebs-gp3/name = gp3-slow/' \
    "$TOP_SRCDIR/profiles/ebs-gp3.ini" > "$dir/gp3-slow.ini"

probe() {	# host, target, seed, then more options
	host=$1 target=$2 seed=$3
	shift 3
	"$TIERPROBE" run "$target" --seed "$seed" --quiet --host "$host" \
	    --kind gp3 --max-ws 256M --points 4 --sustain 10 \
	    --json "$dir/fleet/$host.json" "$@" > "$dir/$host.out"
}
mkdir "$dir/fleet"
# A 10 s run sees no bucket run dry: what it meets, it meets while one
# may still be full, which passes only when accepted.
probe h1 sim:ebs-gp3 1 --expect 'iops>=2700' --expect 'p99<=2ms' \
    --accept-burst || fail "h1: met expectations exited $?"
probe h2 sim:ebs-gp3 2 --expect-profile ebs-gp3 --accept-burst ||
    fail "h2: --expect-profile ebs-gp3 on its own profile exited $?"
probe h3 sim:ebs-gp3 3 || fail "h3 exited $?"
probe h4 "sim:$dir/gp3-slow.ini" 4 --expect-profile ebs-gp3
rc=$?
[ $rc = 3 ] || fail "slow volume against the gp3 promise: exit $rc, want 3"
[ "$(jq -r '.expectations.items[] | select(.figure ==
    "limits.iops_ceiling") | .verdict' "$dir/fleet/h4.json")" = missed ] ||
    fail "h4.json does not record the missed IOPS expectation"
grep -q "MISSED" "$dir/h4.out" || fail "h4: the table does not say MISSED"
grep -q "of the time" "$dir/h4.out" || fail "h4: no tolerance printed"

# A figure the run did not establish: unknown, exit 3.
"$TIERPROBE" check "$dir/fleet/h3.json" --expect 'burst.baseline_iops>=100' \
    > "$dir/out" 2>&1
rc=$?
[ $rc = 3 ] || fail "unknown figure: exit $rc, want 3"
grep -q "unknown: no burst bucket" "$dir/out" || fail "unknown without why"

# check: the recorded expectations, then new ones replacing them.
"$TIERPROBE" check "$dir/fleet/h1.json" > /dev/null ||
    fail "check of h1's recorded expectations exited $?"
"$TIERPROBE" check "$dir/fleet/h1.json" --expect 'iops>=4000' > /dev/null
[ $? = 3 ] || fail "check h1 --expect iops>=4000 did not exit 3"
"$TIERPROBE" check "$dir/fleet/h3.json" > /dev/null 2> "$dir/err"
[ $? = 2 ] && grep -q "records no expectations" "$dir/err" ||
    fail "check of a report without expectations: want exit 2"
"$TIERPROBE" check "$dir/fleet/h1.json" "$dir/fleet/h4.json" \
    --output-format json > "$dir/check.json"
[ $? = 3 ] || fail "check of h1 and h4 did not exit 3"
[ "$(jq '.checks | length' "$dir/check.json")" = 2 ] &&
[ "$(jq '.checks[1].expectations.missed' "$dir/check.json")" -ge 1 ] &&
[ "$(jq '.checks[0].expectations.missed' "$dir/check.json")" = 0 ] ||
    fail "check --output-format json: wrong verdicts"

# A malformed expression: exit 2, one line naming it, no report written.
"$TIERPROBE" run sim:ebs-gp3 --expect 'iopz>=3' --json "$dir/never.json" \
    > "$dir/out" 2> "$dir/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l < "$dir/err")" = 1 ] && [ ! -s "$dir/out" ] &&
    grep -q '"iopz"' "$dir/err" && [ ! -e "$dir/never.json" ] ||
    fail "malformed --expect: exit $rc, $(cat "$dir/err")"

# The fleet names the slow volume, and only it.
"$TIERPROBE" fleet "$dir/fleet" > "$dir/fleet.txt" ||
    fail "fleet of good reports exited $?"
[ "$(grep -c OUTLIER "$dir/fleet.txt")" = 1 ] &&
    grep OUTLIER "$dir/fleet.txt" | grep -q "^ *h4 " ||
    fail "fleet does not name h4 alone: $(cat "$dir/fleet.txt")"
"$TIERPROBE" fleet "$dir/fleet" --output-format json > "$dir/fleet.json"
[ "$(jq -r '[.fleet.volumes[] | select(.outlier) | .host] | join(" ")' \
    "$dir/fleet.json")" = h4 ] || fail "fleet JSON: outliers are not [h4]"
jq -e '.fleet.volumes[] | select(.host == "h4") | .ratio_to_median.iops
    < 0.6 and (.outlier_reason | test("IOPS ceiling"))' "$dir/fleet.json" \
    > /dev/null || fail "fleet JSON: h4's ratio or reason"
[ "$(jq '.fleet.kinds | length' "$dir/fleet.json")" = 1 ] ||
    fail "fleet JSON: not one kind"
# Each figure's bucket state travels into the fleet: the gp3 runs were
# too short to see a bucket run dry; a gp2 run that saw its own run dry
# gives the rate after it (a bucket's own figures carry no state).
jq -e '[.fleet.volumes[].states.iops] | unique == ["may_be_full"]' \
    "$dir/fleet.json" > /dev/null && grep -q '^ *h1 .* full? ' \
    "$dir/fleet.txt" && grep -q '^ *States: full? ' "$dir/fleet.txt" ||
    fail "fleet without the states: $(jq -c '[.fleet.volumes[].states]' \
    "$dir/fleet.json")"
mkdir "$dir/gp2"
"$TIERPROBE" limits sim:ebs-gp2-100g --seed 1 --sustain 2300 --quiet \
    --json "$dir/gp2/g.json" > /dev/null || fail "gp2 --sustain 2300"
# Once its bucket ran dry, its IOPS is the rate after the drop (the
# baseline, 300 for 100 GiB), measured empty, not the ceiling before it.
[ "$("$TIERPROBE" fleet "$dir/gp2" --output-format json | jq -c \
    '.fleet.volumes[0] | [.states.iops, .states."burst.baseline_iops",
    (.figures.iops | . > 280 and . < 320)]')" = \
    '["empty",null,true]' ] || fail "gp2's states in a fleet: $("$TIERPROBE" \
    fleet "$dir/gp2" --output-format json | jq -c '.fleet.volumes[0]')"
"$TIERPROBE" fleet "$dir/fleet" --output-format csv > "$dir/fleet.csv"
[ "$(grep -c ',true,' "$dir/fleet.csv")" = 1 ] &&
    grep ',true,' "$dir/fleet.csv" | grep -q '^[^,]*h4.json,h4,' ||
    fail "fleet CSV: h4 is not the one outlier"
if command -v gnuplot >/dev/null; then
	"$TIERPROBE" plot "$dir/fleet" --outdir "$dir/plots" --quiet ||
	    fail "plot of a fleet exited $?"
	[ -s "$dir/plots/fleet.png" ] || fail "no fleet.png"
	[ "$(ls -A "$dir/plots")" = fleet.png ] || fail "plot left files"
fi

# Bad input: each skipped with why, the rest reported, exit 1.
mkdir "$dir/bad" "$dir/empty"
cp "$dir/fleet/"*.json "$dir/bad/"
head -c 200 "$dir/fleet/h1.json" > "$dir/bad/truncated.json"
jq '.schema_version = 99' "$dir/fleet/h2.json" > "$dir/bad/future.json"
jq '.finished_utc = "2000-01-01T00:00:00Z"' "$dir/fleet/h3.json" \
    > "$dir/bad/h3-old.json"
"$TIERPROBE" fleet "$dir/bad" "$dir/empty" "$dir/missing.json" \
    > "$dir/out" 2> "$dir/err"
rc=$?
[ $rc = 1 ] || fail "fleet with bad input: exit $rc, want 1"
for why in "truncated.json: line" "future.json: schema_version: 99" \
    "h3-old.json: older than $dir/bad/h3.json" "empty: no report" \
    "missing.json: No such file"; do
	grep -qF -- "$why" "$dir/out" || fail "fleet does not say \"$why\""
	grep -qF -- "$why" "$dir/err" || fail "stderr lacks \"$why\""
done
[ "$(grep -c '\.json$' "$dir/out")" -ge 4 ] &&
    grep OUTLIER "$dir/out" | grep -q "^ *h4 " ||
    fail "fleet with bad input did not report the good reports"

# Commits: commit.p99 is the p99 of the fastest method at one writer and
# sync.best_bs, as the JSON report has it; a run without commits has none.
"$TIERPROBE" sync sim:ebs-gp3 --seed 2 --quiet --json "$dir/sync.json" \
    > /dev/null || fail "sync exited $?"
p99=$(jq '.sync as $s | $s.methods[] | select(.method == $s.best_method
    and .bs == $s.best_bs and .writers == 1 and (.shared | not)) |
    .lat_us.p99' "$dir/sync.json")
[ -n "$p99" ] || fail "sync.json: no row of the best method"
above=$(echo "$p99 * 1.01" | bc -l) below=$(echo "$p99 * 0.99" | bc -l)
"$TIERPROBE" check "$dir/sync.json" --expect "commit.p99<=${above}us" \
    --accept-burst > /dev/null ||
    fail "commit.p99<=${above}us (p99 $p99 us) not met"
"$TIERPROBE" check "$dir/sync.json" --expect "commit.p99<=${below}us" \
    > /dev/null
[ $? = 3 ] || fail "commit.p99<=${below}us (p99 $p99 us) not missed"
# A fleet of commits: their chart's axis says commits/s, not IOPS.
if command -v gnuplot >/dev/null; then
	mkdir "$dir/commits"
	for s in 2 3; do
		"$TIERPROBE" sync sim:ebs-gp3 --seed $s --quiet --host h$s \
		    --json "$dir/commits/h$s.json" > /dev/null ||
		    fail "sync seed $s exited $?"
	done
	"$TIERPROBE" plot "$dir/commits" --format svg \
	    --outdir "$dir/commits-plot" --quiet || fail "commits fleet plot"
	grep -q '>commits/s<' "$dir/commits-plot/fleet.svg" &&
	    ! grep -q '>IOPS<' "$dir/commits-plot/fleet.svg" ||
	    fail "the commits fleet chart's axes: $(grep -o \
	    '>[a-zA-Z/]*<' "$dir/commits-plot/fleet.svg" | sort -u | tr '\n' ' ')"
fi
# Near the threshold: the measured figure printed with the digits that
# show why (the IOPS ceiling just under a whole number, against it), and
# a commit p99 with an interval, marked when the threshold lies inside.
v=$(jq '.limits.iops_ceiling' "$dir/fleet/h1.json")
t=$(awk -v v="$v" 'BEGIN { printf "%.2f", v + 0.01 }')
"$TIERPROBE" check "$dir/fleet/h1.json" --expect "iops>=$t" > "$dir/out"
[ $? = 3 ] || fail "iops>=$t on an IOPS ceiling of $v: not exit 3"
shown=$(awk -v e="iops>=$t" '$1 == e { print $4 }' "$dir/out" | tr -d ,)
awk -v s="$shown" -v t="$t" 'BEGIN { exit !(s != "" && s + 0 < t + 0) }' ||
    fail "iops>=$t missed on $v, shown as \"$shown\": $(cat "$dir/out")"
"$TIERPROBE" check "$dir/sync.json" --expect "commit.p99<=${above}us" \
    --accept-burst > "$dir/out" || fail "commit.p99<=${above}us not met"
grep "commit.p99<=" "$dir/out" | grep -q "n/a" &&
    fail "commit p99 without an interval: $(cat "$dir/out")"
grep "commit.p99<=" "$dir/out" | grep -q "met.* \*$" ||
    fail "a threshold 1% above the p99 not marked: $(cat "$dir/out")"
"$TIERPROBE" check "$dir/sync.json" --expect "commit.p99<=1s" \
    --accept-burst > "$dir/out" || fail "commit.p99<=1s not met"
grep "commit.p99<=" "$dir/out" | grep -q "met.* \*$" &&
    fail "a threshold far above the p99 marked: $(cat "$dir/out")"

# SI units as written: MB/s is 10^6 bytes a second, MiB/s 2^20.
"$TIERPROBE" check "$dir/fleet/h1.json" --expect 'bandwidth>=100MB/s' \
    --expect 'bandwidth>=100MiB/s' --accept-burst --output-format json \
    > "$dir/out" ||
    fail "bandwidth>=100MB/s on a 125 MiB/s volume exited $?"
[ "$(jq -c '[.checks[0].expectations.items[].threshold]' "$dir/out")" = \
    "[100000000,104857600]" ] || fail "MB/s and MiB/s thresholds: \
    $(jq -c '[.checks[0].expectations.items[].threshold]' "$dir/out")"

# --expect-profile on an instance: what the profile promises on the one
# the volume is on (500 MiB/s of io1 on m5.large, not the 59.6 MiB/s of
# the profile's own m1.xlarge link); what the run cannot settle (the
# instance's bucket lasts ~19 h) said before measuring and in the report.
"$TIERPROBE" limits sim:ebs-io1-4000@m5.large --seed 1 --sustain 10 \
    --expect-profile ebs-io1-4000 --json "$dir/io1.json" > "$dir/out" \
    2> "$dir/err"
rc=$?
[ $rc = 3 ] || fail "io1 on m5.large: exit $rc, want 3 (an unknown)"
[ "$(jq '.expectations.items[] | select(.figure ==
    "limits.bandwidth_ceiling_bytes_per_s") | .threshold >= 400 * 1048576' \
    "$dir/io1.json")" = true ] ||
    fail "bandwidth expected of io1 on m5.large is not the volume's"
first=$(grep -n "burst.baseline_iops>=3240 cannot be settled" "$dir/err" |
    cut -d: -f1)
point=$(grep -n "^iodepth 1/" "$dir/err" | cut -d: -f1)
[ -n "$first" ] && [ -n "$point" ] && [ "$first" -lt "$point" ] ||
    fail "no word before measuring of what cannot be settled: \
    $(cat "$dir/err")"
grep -q "cannot be settled by this run: .*--sustain 21h" "$dir/out" ||
    fail "the Expectations block does not say what run would settle it"
jq -e '.expectations.items[] | select(.expression ==
    "burst.baseline_iops>=3240") | .sustain_needed_s > 18 * 3600' \
    "$dir/io1.json" > /dev/null || fail "sustain_needed_s not recorded"
"$TIERPROBE" check "$dir/io1.json" | grep -q "cannot be settled" ||
    fail "check of the saved report does not say it"
# A sustained run longer than the bucket settles it, and says nothing.
"$TIERPROBE" limits sim:ebs-gp2-100g --seed 1 --sustain 2300 \
    --expect-profile ebs-gp2-100g > "$dir/out" 2> "$dir/err" ||
    fail "gp2 with --sustain 2300 against its profile exited $?"
grep -q "cannot be settled" "$dir/out" "$dir/err" &&
    fail "a run long enough still said it cannot settle"
# Its bandwidth's interval (ends that print alike at the usual digits)
# in the one convention: LOW to HIGH, with the digits that tell them apart.
grep '^ *bandwidth>=' "$dir/out" | grep -q 'MiB/s to [0-9.]* MiB/s' &&
    ! grep '^ *[a-z._]*[<>]=' "$dir/out" | grep -q '+-' ||
    fail "intervals: $(grep '^ *[a-z.]*[<>]=' "$dir/out")"
# Its burst ceiling met while the bucket is full is what the profile
# promises (of_burst), but a short run does not pass: the baseline is
# unknown until the bucket runs dry.
"$TIERPROBE" limits sim:ebs-gp2-100g --seed 1 --sustain 10 \
    --expect-profile ebs-gp2-100g --json "$dir/gp2.json" > /dev/null 2>&1
[ $? = 3 ] || fail "gp2 with --sustain 10 against its profile passed"
[ "$(jq -c '[.expectations.items[] | [.of_burst, .lifted]]' \
    "$dir/gp2.json")" = '[[true,false],[true,false],[false,false]]' ] ||
    fail "gp2's profile expectations: $(jq -c '[.expectations.items[] |
    [.expression, .of_burst, .lifted, .verdict]]' "$dir/gp2.json")"

jq 'del(.sync)' "$dir/sync.json" > "$dir/nosync.json"
"$TIERPROBE" check "$dir/nosync.json" --expect 'commit.p99<=1s' \
    > "$dir/out"
[ $? = 3 ] && grep -q "unknown: the report has no sync section" \
    "$dir/out" || fail "commit.p99 on a report without commits"
exit 0
