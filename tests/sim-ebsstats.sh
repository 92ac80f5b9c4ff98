#!/bin/sh
# Description: EBS's own counters from run to report, through the file
# seam (TIERPROBE_EBS_LOG_PAGE) on a simulated gp3 whose pages say, in the
# sustained phase only: the instance's EBS IOPS limit was exceeded for
# 41 s (and the volume's for 2 s); the volume's IOPS limit for 90 s; the
# volume's throughput for 80 s; nothing.  Each report names the phases in
# the order they ran (a phase per working set of the scan), the limit that held the sustained run in its JSON,
# its text ("... was exceeded for 41.0 s of the 120 s sustained run") and
# the verdict's reason of the long-run figure it sets (IOPS or
# bandwidth), shows the device's read p50 beside tierprobe's, and renders
# again the same from the saved JSON.  A page with a bad magic, or
# counters that go back mid-run, change nothing else in the report (the
# JSON without ebs_stats equals a run without counters).  A file on this
# machine's disk (virtio, not NVMe) gets one line saying why there are no
# counters.  ebs-stats prints one page, text and JSON, and refuses a bad
# page, a file here, no argument.  The ioctl itself needs an EBS volume:
# not exercised here.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
command -v jq >/dev/null || { echo "SKIP: needs jq"; exit 77; }
export TIERPROBE_DATADIR="${TIERPROBE_DATADIR:-$TOP_SRCDIR}"
page=$(cd "$(dirname "$TIERPROBE")/.." && pwd)/tests/t_ebspage
[ -x "$page" ] || { echo "FAIL: no $page"; exit 1; }
unset TIERPROBE_EBS_LOG_PAGE

fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tierprobe-sim-ebs.XXXXXX") || fail mktemp
trap 'rm -rf "$dir"' EXIT

# The page before: counters since the volume was attached.
base="read_ops=1000 read_bytes=4096000 write_ops=10 write_bytes=40960"
bins="read_bin=0:100:10 read_bin=100:200:10 read_bin=200:500:5"
bins="$bins read_bin=500:1000:0 write_bin=0:1000:10"
# After a sustained run of 360,000 reads, most in [100, 200) us.
after="read_ops=361000 read_bytes=1478656000 write_ops=10"
after="$after write_bytes=40960 read_time=300000000 queue=4"
after="$after read_bin=0:100:10 read_bin=100:200:200010"
after="$after read_bin=200:500:150005 read_bin=500:1000:10000"
after="$after write_bin=0:1000:10"

# pages NAME ARGS...: a directory whose sustained phase ends with ARGS.
pages() {
	name=$1
	shift
	mkdir "$dir/$name" || fail mkdir
	# shellcheck disable=SC2086
	"$page" "$dir/$name/default" $base $bins || fail "t_ebspage default"
	# shellcheck disable=SC2086
	"$page" "$dir/$name/sustained-after" $after "$@" ||
	    fail "t_ebspage $name"
}

# run NAME [ENV]: the simulated gp3 run, TIERPROBE_EBS_LOG_PAGE=ENV.
run() {
	name=$1
	if [ $# -gt 1 ]; then
		TIERPROBE_EBS_LOG_PAGE=$2 "$TIERPROBE" run sim:ebs-gp3 --quick \
		    --sustain 120 --seed 1 --quiet --json "$dir/$name.json" \
		    > "$dir/$name.txt" 2> "$dir/$name.err" ||
		    fail "$name: exit $?: $(head -3 "$dir/$name.err")"
	else
		"$TIERPROBE" run sim:ebs-gp3 --quick --sustain 120 --seed 1 \
		    --quiet --json "$dir/$name.json" > "$dir/$name.txt" \
		    2> "$dir/$name.err" ||
		    fail "$name: exit $?: $(head -3 "$dir/$name.err")"
	fi
}

# phase NAME PHASE KEY: a key of a phase of the counters.
phase() {
	jq -r --arg p "$2" ".ebs_stats.phases[] | select(.phase == \$p) | .$3" \
	    "$dir/$1.json"
}
# reason NAME ITEM: the reason of a verdict item.
reason() {
	jq -r --arg i "$2" '.verdict.items[] | select(.name == $i) | .reason' \
	    "$dir/$1.json"
}
# has NAME TEXT: the text report (words joined across its wrapping) says it.
has() {
	tr -s ' \n' '  ' < "$dir/$1.txt" | grep -qF -- "$2" ||
	    fail "$1: the report does not say \"$2\""
}
# same NAME: the saved JSON renders again into the same text and JSON.
same() {
	"$TIERPROBE" report "$dir/$1.json" > "$dir/$1.again.txt" ||
	    fail "$1: report exited $?"
	cmp -s "$dir/$1.txt" "$dir/$1.again.txt" ||
	    fail "$1: re-rendered text differs: $(diff "$dir/$1.txt" \
	    "$dir/$1.again.txt" | head -5)"
	"$TIERPROBE" report "$dir/$1.json" --output-format json |
	    cmp -s - "$dir/$1.json" || fail "$1: re-rendered JSON differs"
}

# The instance's limit: 41 s in the sustained run, the volume's 2 s.
pages instance instance_iops=41000000 volume_iops=2000000
run instance "$dir/instance"
# One phase per working set the scan measured, in the order measured
# (the grid's), then the sweeps, the sustained run, the writes, the commits.
[ "$(jq -r '[.ebs_stats.phases[].phase | sub("^scan .*"; "scan")] |
    join(",") | sub("^(scan,)+"; "scans,")' "$dir/instance.json")" = \
    "scans,sweeps,sustained,writes,commits" ] ||
    fail "instance: phases $(jq -c '[.ebs_stats.phases[].phase]' \
    "$dir/instance.json")"
nscan=$(jq '[.ebs_stats.phases[] | select(.phase | startswith("scan "))] |
    length' "$dir/instance.json")
npts=$(jq '.scan.points | length' "$dir/instance.json")
[ "$nscan" -ge 2 ] && [ "$nscan" -le "$npts" ] ||
    fail "instance: $nscan scan phases for $npts points"
# Each with tierprobe's own p50 of that working set: the 16 MiB point's.
first=$(jq -r '.ebs_stats.phases[0].phase' "$dir/instance.json")
[ "$first" = "scan 16 MiB" ] || fail "instance: first phase $first"
[ "$(jq '.ebs_stats.phases[0].own_read_p50_us' "$dir/instance.json")" = \
    "$(jq '.scan.points[] | select(.ws_bytes == 16777216) | .lat_us.p50' \
    "$dir/instance.json")" ] || fail "instance: the 16 MiB phase's own p50"

[ "$(jq -r .ebs_stats.kind "$dir/instance.json")" = ebs ] ||
    fail "instance: kind"
[ "$(phase instance sustained limit)" = instance_iops ] ||
    fail "instance: sustained limit $(phase instance sustained limit)"
[ "$(phase instance sustained instance_iops_exceeded_us)" = 41000000 ] ||
    fail "instance: exceeded $(phase instance sustained \
    instance_iops_exceeded_us)"
[ "$(phase instance sustained read_ops)" = 360000 ] ||
    fail "instance: read_ops $(phase instance sustained read_ops)"
for p in "scan 16 MiB" sweeps writes commits; do
	[ "$(phase instance "$p" limit)" = none ] ||
	    fail "instance: $p limit $(phase instance "$p" limit)"
	[ "$(phase instance "$p" read_ops)" = 0 ] ||
	    fail "instance: $p read_ops $(phase instance "$p" read_ops)"
done
# The device's read p50: 180,000 of 360,000 reads fall in [100, 200).
[ "$(phase instance sustained read_p50_us)" = 190 ] ||
    fail "instance: device p50 $(phase instance sustained read_p50_us)"
# tierprobe's own: the sustained run's reads (its timeline's mean latency,
# under a cap at depth, lies within 10% of its median).
own=$(phase instance sustained own_read_p50_us)
mean=$(jq '[.limits.timeline[].lat_us_mean] | add / length' \
    "$dir/instance.json")
jq -n --argjson o "${own:-null}" --argjson m "$mean" -e \
    '$o != null and ($o - $m | fabs) <= 0.1 * $m' > /dev/null ||
    fail "instance: tierprobe's p50 $own, its sustained run's mean $mean"
secs=$(jq -r '.limits.timeline[-1].t_s' "$dir/instance.json")
[ "$(phase instance sustained seconds)" = "$secs" ] ||
    fail "instance: sustained seconds $(phase instance sustained seconds)"
has instance "The instance's EBS IOPS limit was exceeded for 41.0 s of the"
has instance "sustained run: it held the phase."
has instance "The volume's IOPS limit was exceeded for 2.0 s of the"
has instance "the device at 190 us"
reason instance long_run.iops | grep -qF "EBS's counters: the instance's \
EBS IOPS limit held it: demand exceeded it for 41.0 s" ||
    fail "instance: verdict $(reason instance long_run.iops)"
reason instance long_run.bandwidth | grep -q "EBS" &&
    fail "instance: bandwidth names the counters"
same instance

# The volume's IOPS: the longest exceeded is the lowest limit, the one held.
pages volume volume_iops=90000000 instance_iops=41000000
run volume "$dir/volume"
[ "$(phase volume sustained limit)" = volume_iops ] ||
    fail "volume: sustained limit $(phase volume sustained limit)"
reason volume long_run.iops | grep -qF "EBS's counters: the volume's IOPS \
limit held it: demand exceeded it for 90.0 s" ||
    fail "volume: verdict $(reason volume long_run.iops)"
has volume "The volume's IOPS limit was exceeded for 90.0 s of the"
same volume

# The volume's throughput: named in the long-run bandwidth.
pages throughput volume_tp=80000000
run throughput "$dir/throughput"
[ "$(phase throughput sustained limit)" = volume_throughput ] ||
    fail "throughput: limit $(phase throughput sustained limit)"
reason throughput long_run.bandwidth | grep -qF "EBS's counters: the \
volume's throughput limit held it" ||
    fail "throughput: verdict $(reason throughput long_run.bandwidth)"
reason throughput long_run.iops | grep -q "EBS" &&
    fail "throughput: IOPS names the counters"

# Under 5% of the phase (5 s of 120 s): exceeded, but no limit held it.
pages brief instance_tp=5000000
run brief "$dir/brief"
[ "$(phase brief sustained limit)" = none ] ||
    fail "brief: limit $(phase brief sustained limit)"
has brief "The instance's EBS throughput limit was exceeded for 5.0 s of"
reason brief long_run.iops | grep -qF "EBS's counters: no EBS limit was \
exceeded for 5% of it" || fail "brief: verdict $(reason brief long_run.iops)"

# Without counters, and with pages that cannot be used: nothing else changes.
run none
[ "$(jq 'has("ebs_stats")' "$dir/none.json")" = false ] ||
    fail "none: a simulated volume without pages has ebs_stats"
grep -q "EBS" "$dir/none.txt" && fail "none: the text speaks of EBS"
"$page" "$dir/bad" $base magic=0x3C23B511 || fail t_ebspage
run bad "$dir/bad"
jq -r .ebs_stats.why "$dir/bad.json" | grep -q "magic 0x3C23B511" ||
    fail "bad: why $(jq -r .ebs_stats.why "$dir/bad.json")"
[ "$(jq -r .ebs_stats.source "$dir/bad.json")" = null ] ||
    fail "bad: a source"
strip='del(.ebs_stats, .started_utc, .finished_utc)'
[ "$(jq -S "$strip" "$dir/bad.json")" = "$(jq -S "$strip" \
    "$dir/none.json")" ] || fail "bad: the rest of the report changed"
[ "$(grep -c "EBS" "$dir/bad.txt")" = 1 ] ||
    fail "bad: not one line: $(grep "EBS" "$dir/bad.txt")"
mkdir "$dir/reset" || fail mkdir
"$page" "$dir/reset/default" $base || fail t_ebspage
"$page" "$dir/reset/sustained-after" read_ops=5 read_bytes=20480 ||
    fail t_ebspage
run reset "$dir/reset"
jq -r .ebs_stats.note "$dir/reset.json" | grep -q \
    "sustained: total_read_ops went back" ||
    fail "reset: note $(jq -r .ebs_stats.note "$dir/reset.json")"
[ "$(phase reset sustained phase)" = "" ] ||
    fail "reset: the sustained phase kept"
[ "$(jq -S "$strip" "$dir/reset.json")" = "$(jq -S "$strip" \
    "$dir/none.json")" ] || fail "reset: the rest of the report changed"
short="$dir/short"
"$page" "$short" $base bytes=4000 || fail t_ebspage
run short "$short"
jq -r .ebs_stats.why "$dir/short.json" | grep -q "short page: 4000 bytes" ||
    fail "short: why $(jq -r .ebs_stats.why "$dir/short.json")"

# A file here: on this machine's disk, which is no EBS volume.
"$TIERPROBE" scan "$dir/file" --min-ws 1M --max-ws 2M --points 2 \
    --max-time 0.2 --quiet --json "$dir/file.json" > "$dir/file.txt" \
    2> "$dir/file.err" || fail "file: scan exited $?: $(cat "$dir/file.err")"
why=$(jq -r .ebs_stats.why "$dir/file.json")
case $why in
*"not an NVMe device"*|*"on no block device"*) ;;
*"Amazon"*|*"no permission"*)
	echo "SKIP: $dir is on an NVMe device: $why"; exit 77 ;;
*)	fail "file: why $why" ;;
esac
[ "$(grep -c "EBS counters" "$dir/file.txt")" = 1 ] ||
    fail "file: the text does not say it in one line"
# ebs-stats: one page on its own, text and JSON; refusals with a reason.
TIERPROBE_EBS_LOG_PAGE=$dir/instance/sustained-after "$TIERPROBE" \
    ebs-stats /dev/null > "$dir/page.txt" || fail "ebs-stats exited $?"
has page "the instance's EBS IOPS limit: demand exceeded it for 41.0 s"
has page "100 to 200 us 200010 0"
TIERPROBE_EBS_LOG_PAGE=$dir/instance/sustained-after "$TIERPROBE" \
    ebs-stats /dev/null --output-format json > "$dir/page.json" ||
    fail "ebs-stats json exited $?"
[ "$(jq -r '[.instance_iops_exceeded_us, .volume_iops_exceeded_us,
    .read_ops, .queue_length, (.read_latency_histogram | length)] |
    join(",")' "$dir/page.json")" = "41000000,2000000,361000,4,4" ] ||
    fail "ebs-stats json: $(jq -c . "$dir/page.json")"
TIERPROBE_EBS_LOG_PAGE=$dir/bad "$TIERPROBE" ebs-stats /dev/null \
    > /dev/null 2> "$dir/page.err" && fail "ebs-stats of a bad page: exit 0"
grep -q "magic 0x3C23B511" "$dir/page.err" || fail "ebs-stats: $(cat \
    "$dir/page.err")"
"$TIERPROBE" ebs-stats "$dir/file" > "$dir/page.out" 2> "$dir/page.err"
[ $? = 1 ] && [ ! -s "$dir/page.out" ] &&
    [ "$(wc -l < "$dir/page.err")" = 1 ] ||
    fail "ebs-stats of a file on $(jq -r .context.device "$dir/file.json"):" \
    "$(cat "$dir/page.err")"
"$TIERPROBE" ebs-stats > /dev/null 2>&1
[ $? = 2 ] || fail "ebs-stats without a device: not a usage error"
"$TIERPROBE" ebs-stats "$dir/nothing" > /dev/null 2> "$dir/page.err"
[ $? = 2 ] && grep -q "takes a block device or a file" "$dir/page.err" ||
    fail "ebs-stats of nothing: $(cat "$dir/page.err")"

echo "ok: EBS counters end to end (instance, volume IOPS and throughput," \
    "none, bad pages, a reset, a short page, a file on $(jq -r \
    .context.device "$dir/file.json"))"
