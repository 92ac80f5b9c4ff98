#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: several simulated targets on simulated instances, against
# their truth.  Two sim:ebs-io1-50k@m5.8xlarge: 30,000 IOPS (the instance
# binds alone too) and 819.2 MB/s (the volume's own) alone each, together
# "shared" at 30,000 IOPS and 850 MB/s.  Three sim:ebs-gp3 on no instance:
# "volumes", the sum within 3% of 9,000 IOPS and 375 MiB/s.  Four
# sim:ebs-io1-4000@m5.large: their own caps together (16,000 IOPS) until
# the instance's 30-minute bucket runs dry, then its 3,600 IOPS baseline:
# a bucket on the aggregate that no target showed alone.  scan of a gp3
# and a slower one with a cache: tiers side by side, the spread of each
# figure, the slowest named.  The same seed gives the same report; report,
# compare, plot and --fio-job read it; an instance named twice with other
# ceilings and an unknown one are usage errors.
. "${TOP_SRCDIR:?}/tests/safety-common.sh"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
need jq
dir=$t_dir
says() {	# TEXT-FILE PHRASE: the text, its lines joined, holds the phrase
	tr '\n' ' ' < "$1" | tr -s ' ' | grep -qF -- "$2"
}
is() {	# JSON EXPR WANT
	got=$(jq -r "$2" "$1")
	[ "$got" = "$3" ] || fail "$2 is $got, want $3"
}

# 1. Two volumes of 50,000 IOPS on an m5.8xlarge.
"$TIERPROBE" limits sim:ebs-io1-50k@m5.8xlarge sim:ebs-io1-50k@m5.8xlarge \
    --sustain 20 --seed 5 --quiet --json "$dir/m5.json" > "$dir/m5.txt" ||
    fail "limits on m5.8xlarge exited $?"
j=$dir/m5.json
for i in 0 1; do
	t_within "alone IOPS $i" "$(jq ".together.per_target[$i].alone_iops" \
	    "$j")" 30000 2
done
is "$j" .together.iops_bound shared
is "$j" .together.bandwidth_bound shared
t_within "together IOPS" "$(jq .together.iops_ceiling "$j")" 30000 2
t_within "shared IOPS limit" "$(jq .together.shared_iops_limit "$j")" 30000 2
t_within "sum alone" "$(jq .together.sum_alone_iops "$j")" 60000 3
t_within "shared bandwidth" \
    "$(jq .together.shared_bandwidth_limit_bytes_per_s "$j")" 850000000 2
[ "$(jq '.targets | length' "$j")" = 2 ] || fail "targets[] is not 2 long"
[ "$(jq 'has("target")' "$j")" = false ] ||
    fail "a report of several has a top-level target"
says "$dir/m5.txt" "a shared limit of about 30,000 IOPS" ||
    fail "no verdict sentence: $(head -12 "$dir/m5.txt")"

# 2. Three gp3 volumes on no instance: their own caps.
"$TIERPROBE" limits sim:ebs-gp3 sim:ebs-gp3 sim:ebs-gp3 --sustain 20 \
    --seed 6 --quiet --json "$dir/gp3.json" > /dev/null ||
    fail "limits of three gp3 exited $?"
j=$dir/gp3.json
is "$j" .together.iops_bound volumes
is "$j" .together.bandwidth_bound volumes
is "$j" .together.shared_iops_limit null
is "$j" .together.burst_shared null
t_within "together IOPS" "$(jq .together.iops_ceiling "$j")" 9000 3
t_within "together IOPS / sum alone" "$(jq .together.iops_ratio "$j")" 1 3
t_within "together bandwidth" \
    "$(jq .together.bandwidth_ceiling_bytes_per_s "$j")" \
    $((375 * 1048576)) 3

# 3. Four io1 volumes of 4,000 IOPS on an m5.large: the instance's bucket
# (27.27M I/O credits, earning at 3,600 IOPS) drains at 12,400 IOPS while
# they run together at 16,000; alone, each at 4,000 drains it too slowly
# to show in 20 s.
"$TIERPROBE" limits sim:ebs-io1-4000@m5.large sim:ebs-io1-4000@m5.large \
    sim:ebs-io1-4000@m5.large sim:ebs-io1-4000@m5.large --sustain 20 \
    --sustain-together 2600 --seed 7 --quiet --json "$dir/burst.json" \
    > "$dir/burst.txt" || fail "limits on m5.large exited $?"
j=$dir/burst.json
is "$j" '[.targets[].limits.burst.detected] | any' false
is "$j" .together.burst.detected true
is "$j" .together.burst_shared true
is "$j" .together.iops_bound volumes
t_within "burst IOPS together" "$(jq .together.burst.burst_iops "$j")" \
    16000 5
t_within "baseline together" "$(jq .together.burst.baseline_iops "$j")" \
    3600 5
t_within "shared bucket" "$(jq .together.burst.credits_ios "$j")" \
    27270000 15
says "$dir/burst.txt" "no target showed it alone" ||
    fail "the shared bucket is not said in the text"

# 4. scan of two: a gp3 and a slower one (backing 1 ms, not 0.5) with a
# 128 MiB cache in front (and 20,000 IOPS, so no cap hides the cache):
# their tiers side by side, the spread of the backing latency (2x), the
# slower one named.
tier='[tier.0]\ncapacity = 128M\nlatency_us = 100\nsigma = 0.2\n\n'
sed -e 's/^name = .*/name = slow/' -e 's/^latency_us = 500/latency_us = 1000/' \
    -e 's/^iops = 3000/iops = 20000/' -e "s/^\\[backing\\]/$tier&/" \
    "$TOP_SRCDIR/profiles/ebs-gp3.ini" > "$dir/slow.ini"
"$TIERPROBE" scan sim:ebs-gp3 "sim:$dir/slow.ini" --max-ws 512M --seed 4 \
    --quiet --json "$dir/scan.json" > "$dir/scan.txt" ||
    fail "scan of two exited $?"
j=$dir/scan.json
is "$j" '[.targets[].target.path] | join(" ")' "ebs-gp3 $dir/slow.ini"
is "$j" '.targets[0].scan.tiers | length' 0
is "$j" '.targets[1].scan.tiers | length' 1
t_within "tier of target 2" "$(jq '.targets[1].scan.tiers[0].capacity_bytes' \
    "$j")" 134217728 10
t_within "backing p50 of target 2 / target 1" "$(jq '.targets |
    .[1].scan.backing.lat_us_p50 / .[0].scan.backing.lat_us_p50' "$j")" 2 10
"$TIERPROBE" report "$j" > "$dir/scan2.txt" || fail "report exited $?"
for t in "$dir/scan.txt" "$dir/scan2.txt"; do
	row=$(grep '^  backing p50 ' "$t") || fail "no backing p50 row in $t"
	[ "${row##* }" = 2 ] || fail "slowest is not target 2: $row"
	t_within "backing p50 spread" "$(echo "$row" |
	    awk '{ sub(/x$/, "", $(NF - 1)); print $(NF - 1) }')" 2 10
	grep -q '^  tier 1 capacity .*n/a .*MiB' "$t" ||
	    fail "the tiers are not side by side: $(sed -n 6,14p "$t")"
	says "$t" "slowest member sets the pace: target 2 ($dir/slow.ini)" ||
	    fail "the slowest member is not named in $t"
done

# The same seed, the same measurements.
"$TIERPROBE" limits sim:ebs-gp3 sim:ebs-gp3 sim:ebs-gp3 --sustain 20 \
    --seed 6 --quiet --output-format json > "$dir/gp3b.json" ||
    fail "second run exited $?"
[ "$(jq -S '[.targets, .together]' "$dir/gp3.json")" = \
    "$(jq -S '[.targets, .together]' "$dir/gp3b.json")" ] ||
    fail "the same seed gave other figures"

# report, compare and plot read it.
"$TIERPROBE" report "$dir/m5.json" --output-format json > "$dir/back.json" ||
    fail "report exited $?"
cmp -s "$dir/m5.json" "$dir/back.json" || fail "report changed the JSON"
"$TIERPROBE" report "$dir/m5.json" --output-format markdown |
    grep -q "shared limit" || fail "markdown has no verdict"
"$TIERPROBE" compare "$dir/m5.json" "$dir/gp3.json" > "$dir/cmp.txt" ||
    fail "compare exited $?"
grep -q "^IOPS together .*30,000 .*9,000" "$dir/cmp.txt" ||
    fail "compare lacks the sums together: $(cat "$dir/cmp.txt")"
# The fio jobs: each target's points, then one job per target at once.
"$TIERPROBE" report "$dir/gp3.json" --fio-job "$dir/gp3.fio" > /dev/null ||
    fail "report --fio-job exited $?"
n=$(jq '[.targets[].limits | (.qd_points + .bs_points) | length] | add' \
    "$dir/gp3.json")
[ "$(grep -c '^\[t[123]-' "$dir/gp3.fio")" = "$n" ] ||
    fail "not one job per point alone ($n)"
[ "$(grep -c '^\[together-' "$dir/gp3.fio")" = 6 ] ||
    fail "not one job per target and run together"
[ "$(grep -c '^new_group$' "$dir/gp3.fio")" = 2 ] ||
    fail "the runs together are not groups of their own"
if command -v fio >/dev/null; then
	fio --parse-only "$dir/gp3.fio" > "$dir/fio.out" 2>&1 ||
	    fail "fio rejects the jobs: $(cat "$dir/fio.out")"
fi
if command -v gnuplot >/dev/null; then
	"$TIERPROBE" plot "$dir/burst.json" --outdir "$dir/plots" --quiet ||
	    fail "plot exited $?"
	for p in together-timeline together-bars target4-timeline; do
		[ -s "$dir/plots/$p.png" ] || fail "plot wrote no $p.png"
	done
fi

# Usage errors: one line, exit 2.
usage_error() {	# want-in-message, then the command's arguments
	want=$1
	shift
	"$TIERPROBE" "$@" > /dev/null 2> "$dir/err"
	rc=$?
	[ $rc = 2 ] || fail "$*: exit $rc, want 2"
	[ "$(wc -l < "$dir/err")" = 1 ] ||
	    fail "$*: not one line: $(cat "$dir/err")"
	grep -qF -- "$want" "$dir/err" ||
	    fail "$*: \"$(cat "$dir/err")\" lacks \"$want\""
}
sed 's/^iops = 3600/iops = 3000/' \
    "$TOP_SRCDIR/profiles/instances/m5.large.ini" > "$dir/other.ini"
usage_error "instance m5.large is given twice" limits sim:ebs-gp3@m5.large \
    "sim:ebs-gp3@$dir/other.ini" --sustain 5
usage_error 'no instance "m5.huge"' limits sim:ebs-gp3@m5.huge --sustain 5
usage_error "is an instance, not a volume" limits sim:m5.large
echo "ok"
