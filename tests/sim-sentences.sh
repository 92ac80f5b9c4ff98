#!/bin/sh
# Description: sentences that must follow their own figures (issue 24), on
# simulated volumes against the truth `tierprobe profiles --show` prints.
# 1. Accounting: IOPS counted in units of A and a bandwidth cap of the
#    IOPS cap times A give the same rates at every size the sweep
#    measures.  On ebs-io1-4000@m5.large (4,000 x 128 KiB is its 500 MiB/s
#    cap; it counts 256 KiB) the probe at 192 KiB shows the cap: no unit in
#    the JSON (io_accounting_why "hidden") or the text, where the release
#    before said "units of 128 KiB" on seeds 1, 2, 3 and 5.  Where a unit
#    shows (tests/data/limits-acct.ini; gp2-100g's writes once its bucket
#    is empty) it is the profile's, the probe at 1.5 units running at half
#    the IOPS of the sizes below.
# 2. A bucket nearly empty at the start (ebs-gp2-100g with credits = 2000,
#    written here; seeds 1 to 3, run and limits): it runs dry during the
#    sweeps, before any depth reached the ceiling.  A burst rate stated
#    as measured is within 10% of the profile's; else it is said to be a
#    lower bound that holds ("at least", burst_iops_at_least; the release
#    before: "burst 1,723 IOPS for 2.7 s", truth 3,000), its duration an
#    upper bound that holds, and the bucket within 15% of the profile's
#    (the scan's paced reads, which let it refill, are counted: 3.85k
#    before, in run).  First reads that ran before the drop and second
#    reads after it compare the bucket's states: first_touch.changed
#    "bucket", no verdict on first reads ("cost what second reads do
#    (mean 577 us against 3.34 ms)" before).  No count of points is "0"
#    ("ceilings from the 0 depths and 0 sizes" before).
# 3. A scan of the whole volume (ebs-gp2-100g, --max-ws 1T) does not say
#    both that no larger cache can hide and that one could go unseen past
#    the volume's end, nor advise a scan past it; it says which caches
#    could still go unseen (a 90 GiB cache on a 100 GiB volume, written
#    here, is one of them: said, not denied), and more --points narrow
#    that.
# 4. A bucket that runs dry among the commits (ebs-gp2-100g with 5,000
#    and 20,000 credits: a sync runs it dry in its methods or writers
#    sweep).  The point measured again after the writers runs at the
#    profile's baseline; rows marked empty at no more than about it, rows
#    marked full well above it; sentences and verdict compare writers with
#    one writer of their own state only (the release before: "More writers
#    did not commit more: their flushes are served one after another",
#    "group commit 300/s (2 writers, 0.3x one)" beside 873 a second of one
#    writer while the bucket held).  The stock profile's bucket outlasts a
#    sync: no change, one state.
# 5. Several volumes on an instance that bursts (ebs-io1-4000@m5.large and
#    ebs-gp3@m5.large, --sustain-together 9000): the run together sees the
#    instance's bucket run dry.  Each target's long-run IOPS, in the
#    verdict and the side-by-side table, is a bound ("at most") that holds
#    against the profile's sustained IOPS and is no looser than the
#    instance's long run (3,600; before: "at most 4,000" for io1 beside
#    "then fell to 3,600 IOPS for good"); the sum's is measured, within 5%
#    of it; the bandwidth together, from a 10 s run, is "at most" and holds
#    against the instance's sustained bandwidth; no "each sets its own
#    pace" beside the drop.
# Seconds of real time.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
command -v jq >/dev/null || { echo "SKIP: needs jq"; exit 77; }
export TIERPROBE_DATADIR="${TIERPROBE_DATADIR:-$TOP_SRCDIR}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-sentences.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
flat() { tr -s ' \n' ' ' < "$1"; }

# acct_truth PROFILE: the profile's io_accounting line, after the key.
acct_truth() {
	"$TIERPROBE" profiles --show "$1" | sed -n 's/^  io_accounting  *//p'
}
# bytes N UNIT
bytes() {
	awk -v v="$1" -v u="$2" 'BEGIN { m = 1
		if (u == "KiB") m = 1024; else if (u == "MiB") m = 1048576
		printf "%.0f\n", v * m }'
}

# 1. Accounting.
io1=ebs-io1-4000@m5.large
case $(acct_truth $io1) in
"not observable"*) ;;
*) fail "$io1: the profile's truth changed: $(acct_truth $io1)" ;;
esac
for s in 1 2 3 5; do
	"$TIERPROBE" limits "sim:$io1" --seed $s --json "$dir/io1.json" \
	    > "$dir/io1.txt" 2>/dev/null || fail "limits $io1 --seed $s"
	jq -e '.limits | .io_accounting_bytes == null and
	    .io_accounting_why == "hidden" and .bandwidth_limit == "cap" and
	    .io_accounting_probe.bs == 196608' "$dir/io1.json" > /dev/null ||
		fail "$io1 --seed $s: $(jq -c '.limits | [.io_accounting_bytes,
		    .io_accounting_why, .bandwidth_limit,
		    .io_accounting_probe.bs]' "$dir/io1.json")"
	flat "$dir/io1.txt" | grep -q "counts I/O in units" &&
		fail "$io1 --seed $s: a unit stated: $(grep -i units \
		    "$dir/io1.txt")"
	grep -q "accounting size *not observable" "$dir/io1.txt" ||
		fail "$io1 --seed $s: no 'not observable'"
done
echo "ok: $io1, seeds 1 2 3 5: no unit, the probe saw the bandwidth cap"

acct=$TOP_SRCDIR/tests/data/limits-acct.ini
set -- $(acct_truth "$acct")
want=$(bytes "$1" "$2")
"$TIERPROBE" limits "sim:$acct" --seed 2 --json "$dir/acct.json" \
    > "$dir/acct.txt" 2>/dev/null || fail "limits limits-acct"
jq -e --argjson a "$want" '.limits | .io_accounting_bytes == $a and
    .bandwidth_limit == "accounting" and .io_accounting_why == null and
    (.io_accounting_probe.iops / .iops_ceiling - 0.5 | fabs) < 0.05' \
    "$dir/acct.json" > /dev/null || fail "limits-acct: $(jq -c '.limits |
    [.io_accounting_bytes, .io_accounting_why, .io_accounting_probe.iops,
    .iops_ceiling]' "$dir/acct.json")"
flat "$dir/acct.txt" | grep -q "counts I/O in units of $1 $2" ||
	fail "limits-acct: the unit is not said"
echo "ok: limits-acct: $want bytes, as the profile says"

gp2=ebs-gp2-100g
truth=$(acct_truth $gp2)
case $truth in
*"once the bucket is empty"*) ;;
*) fail "$gp2: the profile's truth changed: $truth" ;;
esac
set -- $truth
want=$(bytes "$1" "$2")
"$TIERPROBE" run "sim:$gp2" --sustain 3000 --seed 11 --quiet \
    --output-format json > "$dir/gp2.json" || fail "run $gp2"
jq -e --argjson a "$want" '.writes.limits.io_accounting_bytes == $a and
    .limits.io_accounting_bytes == null' "$dir/gp2.json" > /dev/null ||
	fail "$gp2: accounting $(jq -c '[.limits.io_accounting_bytes,
	    .writes.limits.io_accounting_bytes]' "$dir/gp2.json")"
echo "ok: $gp2: $want bytes once the bucket is empty, none before"

# 2. A bucket nearly empty at the start.
ini=$("$TIERPROBE" profiles --show $gp2 | sed -n 's/^  file  *//p')
sed 's/^credits *=.*/credits = 2000/' "$ini" > "$dir/gp2low.ini"
n='\([0-9]*\)'
set -- $("$TIERPROBE" profiles --show "$dir/gp2low.ini" | sed -n \
    "s/^  burst  *$n IOPS then $n IOPS.* $n credits.*/\\1 \\2 \\3/p")
[ $# -eq 3 ] && [ "$3" = 2000 ] || fail "gp2low: the truth reads '$*'"
burst=$1 base=$2 credits=$3
for cmd in run limits; do
	for s in 1 2 3; do
		"$TIERPROBE" $cmd "sim:$dir/gp2low.ini" --seed $s \
		    --first-touch --json "$dir/low.json" > "$dir/low.txt" \
		    2>/dev/null || fail "$cmd gp2low --seed $s"
		jq -e --argjson b "$burst" --argjson base "$base" \
		    --argjson c "$credits" '.limits.burst | .detected and
		    (if .burst_iops_at_least then .burst_iops <= $b * 1.05 and
		    .duration_s >= $c / ($b - $base) else
		    (.burst_iops / $b - 1 | fabs) < 0.10 end) and
		    (.credits_ios / $c - 1 | fabs) < 0.15' "$dir/low.json" \
		    > /dev/null || fail "$cmd gp2low --seed $s: burst $(jq -c \
		    '.limits.burst | [.burst_iops, .burst_iops_at_least,
		    .duration_s, .credits_ios]' "$dir/low.json"), truth $burst,
		    $credits"
		if jq -e '.limits.burst.burst_iops_at_least' "$dir/low.json" \
		    > /dev/null; then
			grep -q "^  burst  *at least .* for at most " \
			    "$dir/low.txt" || fail "$cmd gp2low --seed $s:" \
			    "$(grep '^  burst ' "$dir/low.txt")"
			flat "$dir/low.txt" |
			    grep -q "after at most .* IOPS or more" ||
				fail "$cmd gp2low --seed $s: the sentence"
		fi
		jq -e '.limits.first_touch | .changed == "bucket" and
		    .detected == false' "$dir/low.json" > /dev/null ||
			fail "$cmd gp2low --seed $s: first touch $(jq -c \
			    .limits.first_touch "$dir/low.json")"
		flat "$dir/low.txt" | grep -q "cost what second reads do" &&
			fail "$cmd gp2low --seed $s: first reads judged"
		flat "$dir/low.txt" | grep -q "Whether first reads of blocks" ||
			fail "$cmd gp2low --seed $s: no word on first reads"
		flat "$dir/low.txt" | grep -Eq "[^0-9.,]0 (depths|sizes)" &&
			fail "$cmd gp2low --seed $s: $(grep -E \
			    '0 (depths|sizes)' "$dir/low.txt")"
	done
done
echo "ok: a bucket nearly empty: the burst rate bounded, first reads not judged"

# 3. A scan of the whole volume.
"$TIERPROBE" scan "sim:$gp2" --max-ws 1T --seed 1 --json "$dir/whole.json" \
    > "$dir/whole.txt" 2>/dev/null || fail "scan $gp2 --max-ws 1T"
flat "$dir/whole.txt" | grep -q "covered the whole volume (100 GiB)" ||
	fail "whole: the scan's reach is not said"
flat "$dir/whole.txt" | grep -q "scan past 100 GiB" &&
	fail "whole: a scan past the volume's end advised"
if flat "$dir/whole.txt" | grep -q "could still go unseen"; then
	flat "$dir/whole.txt" | grep -q "no larger cache can hide" &&
		fail "whole: both no larger cache and one unseen"
fi
u1=$(jq .scan.unseen_from_bytes "$dir/whole.json")
"$TIERPROBE" scan "sim:$gp2" --max-ws 1T --points 40 --seed 1 \
    --output-format json > "$dir/whole40.json" 2>/dev/null ||
	fail "scan --points 40"
u2=$(jq .scan.unseen_from_bytes "$dir/whole40.json")
awk -v a="$u1" -v b="$u2" 'BEGIN { exit !(a > 0 && b > a) }' ||
	fail "whole: more --points do not narrow it ($u1, then $u2)"
sed -e '/^\[device\]/,$!d' -e 's/^name = .*/name = big-cache/' \
    -e 's/^description = .*/description = a 90 GiB cache, 100 GiB (test)/' \
    "$ini" | awk '/^\[backing\]/ { print "[tier.0]\ncapacity = 90G\n" \
    "latency_us = 100\nsigma = 0.25\n" } { print }' > "$dir/bigcache.ini"
"$TIERPROBE" profiles --show "$dir/bigcache.ini" |
    grep -q "capacity  *90 GiB" || fail "bigcache: no 90 GiB tier"
"$TIERPROBE" scan "sim:$dir/bigcache.ini" --max-ws 1T --seed 1 \
    --json "$dir/big.json" > "$dir/big.txt" 2>/dev/null || fail "scan bigcache"
if jq -e '.scan.analysed and (.scan.tiers | length) == 0' "$dir/big.json" \
    > /dev/null; then
	u=$(jq .scan.unseen_from_bytes "$dir/big.json")
	awk -v u="$u" 'BEGIN { exit !(u > 0 && u < 90 * 2^30) }' ||
		fail "bigcache: unseen from $u, past the cache"
	flat "$dir/big.txt" | grep -q "could still go unseen" ||
		fail "bigcache: the 90 GiB cache's blind spot is not said"
	flat "$dir/big.txt" | grep -q "no larger cache can hide" &&
		fail "bigcache: no larger cache said to hide"
fi
echo "ok: a whole-volume scan says what it could not see, and how to see it"

# 4. A bucket that runs dry among the commits.
for c in 5000 20000; do
	sed "s/^credits *=.*/credits = $c/" "$ini" > "$dir/gp2c.ini"
	"$TIERPROBE" sync "sim:$dir/gp2c.ini" --seed 1 --json "$dir/c.json" \
	    > "$dir/c.txt" 2>/dev/null || fail "sync gp2 credits $c"
	jq -e --argjson base "$base" '.sync | .state == "draining" and
	    .again.state == "empty" and
	    (.again.ops_per_s / $base - 1 | fabs) < 0.05 and
	    ([.methods[] | select(.state == "empty") | .ops_per_s <=
	    $base * 1.15] | all) and ([.methods[] | select(.state == "full") |
	    .ops_per_s >= $base * 2] | all) and
	    ([.methods[] | select(.state == "full")] | length) > 0' \
	    "$dir/c.json" > /dev/null || fail "credits $c: states $(jq -c \
	    '.sync | [.again.ops_per_s, [.methods[] | [.ops_per_s, .state]]]' \
	    "$dir/c.json")"
	# The verdict's commits: the long run's, writers against one writer
	# of that state; PostgreSQL's wal_sync_method too (a third rate).
	jq -e --argjson base "$base" '[.verdict.items[] |
	    select(.name | startswith("commit.")) |
	    select(.unit == "commits/s")] | length == 3 and all(.state ==
	    "empty" and (.value / $base - 1 | fabs) < 0.05)' "$dir/c.json" \
	    > /dev/null || fail "credits $c: verdict $(jq -c '[.verdict.items[]
	    | select(.name | startswith("commit.")) | [.value, .state,
	    .detail]]' "$dir/c.json")"
	flat "$dir/c.txt" | grep -q "group commit .*0\.[0-9]x one" &&
		fail "credits $c: writers against one writer of another state"
	flat "$dir/c.txt" | grep -q "served one after another" &&
		fail "credits $c: a rate cap taken for flushes in turn"
	flat "$dir/c.txt" | grep -q "burst bucket *ran dry among the commits" ||
		fail "credits $c: the verdict does not say the bucket ran dry"
	flat "$dir/c.txt" | grep -q "Group commit helps:" &&
		fail "credits $c: group commit without its state"
done
"$TIERPROBE" sync "sim:$gp2" --seed 1 --json "$dir/c.json" > /dev/null \
    2>&1 || fail "sync $gp2"
jq -e '.sync | .state == "may_be_full" and .again.state == "may_be_full" and
    ([.methods[].state] | unique) == ["may_be_full"]' "$dir/c.json" \
    > /dev/null || fail "$gp2: a change among the commits $(jq -c \
    '.sync | [.state, .again.ops_per_s]' "$dir/c.json")"
echo "ok: a bucket that ran dry among the commits: each figure its state"

# 5. Several volumes on an instance that bursts.
# sustained NAME WHAT: the truth's sustained figure (WHAT IOPS or
# bandwidth), else its ceiling; in IOPS or bytes/s.
sustained() {
	"$TIERPROBE" profiles --show "$1" | awk -v w="$2" '
	    w == "IOPS" && /^  sustained IOPS / { s = $3 }
	    w == "IOPS" && /^  iops_ceiling / { c = $2 }
	    w == "bandwidth" && /^  sustained bandwidth / { s = $3 * 2^20 }
	    END { print (s != "" ? s : c) }'
}
v1=ebs-io1-4000@m5.large v2=ebs-gp3@m5.large
t1=$(sustained $v1 IOPS) t2=$(sustained $v2 IOPS) bw=$(sustained $v1 bandwidth)
[ "$t1" = 3600 ] && [ "$t2" = 3000 ] ||
	fail "instance: the truth changed: $t1, $t2"
"$TIERPROBE" limits "sim:$v1" "sim:$v2" --sustain-together 9000 --seed 1 \
    --json "$dir/m.json" > "$dir/m.txt" 2>/dev/null || fail "limits $v1 $v2"
jq -e --argjson t1 "$t1" --argjson t2 "$t2" '.together.burst.detected and
    ([.verdict.targets[0].items[], .verdict.targets[1].items[]] |
    map(select(.name == "long_run.iops")) | length == 2 and
    all(.standing == "bounded" and .bound == "at_most") and
    .[0].value >= $t1 * 0.98 and .[0].value <= $t1 * 1.05 and
    .[1].value >= $t2 * 0.98)' "$dir/m.json" > /dev/null ||
	fail "instance: targets' long run $(jq -c '[.verdict.targets[].items[]
	    | select(.name == "long_run.iops") | [.value, .standing]]' \
	    "$dir/m.json")"
jq -e --argjson t1 "$t1" --argjson bw "$bw" '.verdict.together.items |
    (map(select(.name == "together.long_run.iops"))[0] |
    .standing == "measured" and (.value / $t1 - 1 | fabs) < 0.05) and
    (map(select(.name == "together.bandwidth"))[0] | .standing ==
    "bounded" and .bound == "at_most" and .value >= $bw * 0.98)' \
    "$dir/m.json" > /dev/null || fail "instance: together $(jq -c \
    '[.verdict.together.items[] | [.name, .value, .standing]]' \
    "$dir/m.json")"
grep -q "^  long-run IOPS  *<= [0-9,]*  *<= [0-9,]* " "$dir/m.txt" ||
	fail "instance: side by side $(grep '^  long-run IOPS' "$dir/m.txt")"
l=$(sed -n 's/^  long-run IOPS  *<= \([0-9,]*\) .*/\1/p' "$dir/m.txt" | tr -d ,)
awk -v l="$l" -v t="$t1" 'BEGIN { exit !(l >= t * 0.98 && l <= t * 1.05) }' ||
	fail "instance: side by side, target 1 at most $l (truth $t1)"
flat "$dir/m.txt" | grep -q "each sets its own pace" &&
	fail "instance: 'each sets its own pace' beside the drop"
echo "ok: several volumes on an instance that bursts: bounds that hold"
echo PASS
