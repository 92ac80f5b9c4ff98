#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: compare and fleet name the limit EBS's own counters show
# held each phase.  Three runs of a simulated gp3 (virtual time) on three
# hosts: one whose pages (TIERPROBE_EBS_LOG_PAGE, made by tests/t_ebspage)
# say the instance's EBS IOPS limit was exceeded for 41 s of its sustained
# run (the volume's for 2 s), one whose volume IOPS limit was for 90 s,
# one without counters.  compare gives a row per phase, the sustained
# run's "instance IOPS" against "volume IOPS" marked "other", the other
# phases "none" and "same", the run without counters n/a; fleet marks
# each volume's burst cell with the limit that held its sustained run, in
# text, CSV and JSON.  compare and fleet of reports without counters print
# what they printed before (no row, no column, no key).
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
command -v jq >/dev/null || { echo "SKIP: needs jq"; exit 77; }
export TIERPROBE_DATADIR="${TIERPROBE_DATADIR:-$TOP_SRCDIR}"
page=$(cd "$(dirname "$TIERPROBE")/.." && pwd)/tests/t_ebspage
[ -x "$page" ] || { echo "FAIL: no $page"; exit 1; }
unset TIERPROBE_EBS_LOG_PAGE

fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tierprobe-ebs-compare.XXXXXX") ||
    fail mktemp
trap 'rm -rf "$dir"' EXIT

base="read_ops=1000 read_bytes=4096000 write_ops=10 write_bytes=40960"
bins="read_bin=0:100:10 read_bin=100:200:10 read_bin=200:500:5"
bins="$bins read_bin=500:1000:0 write_bin=0:1000:10"
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
# run NAME [PAGES]: a quick run of a simulated gp3 on host NAME.
run() {
	if [ $# -gt 1 ]; then
		TIERPROBE_EBS_LOG_PAGE=$2 "$TIERPROBE" run sim:ebs-gp3 --quick \
		    --sustain 120 --seed 1 --quiet --host "$1" \
		    --json "$dir/$1.json" > /dev/null 2> "$dir/$1.err" ||
		    fail "$1: exit $?: $(head -3 "$dir/$1.err")"
	else
		"$TIERPROBE" run sim:ebs-gp3 --quick --sustain 120 --seed 1 \
		    --quiet --host "$1" --json "$dir/$1.json" > /dev/null \
		    2> "$dir/$1.err" ||
		    fail "$1: exit $?: $(head -3 "$dir/$1.err")"
	fi
}
# row FILE LABEL: the cells of a table row, spaces squeezed.
row() {
	grep "^$2  " "$1" | tr -s ' '
}

pages instance instance_iops=41000000 volume_iops=2000000
pages volume volume_iops=90000000
run instance "$dir/instance"
run volume "$dir/volume"
run plain
run plain2
[ "$(jq -r .ebs_stats.phases[].limit "$dir/instance.json" | sort -u |
    tr '\n' ' ')" = "instance_iops none " ] ||
	fail "instance: limits $(jq -c '[.ebs_stats.phases[].limit]' \
	    "$dir/instance.json")"

# compare: the sustained run's row, and every other phase's.
"$TIERPROBE" compare "$dir/instance.json" "$dir/volume.json" \
    "$dir/plain.json" > "$dir/cmp.txt" || fail "compare exited $?"
r=$(row "$dir/cmp.txt" "EBS limit held: sustained")
[ "$r" = "EBS limit held: sustained instance IOPS volume IOPS other n/a n/a" ] ||
    fail "compare: sustained row \"$r\""
for p in sweeps writes commits "scan 16 MiB"; do
	r=$(row "$dir/cmp.txt" "EBS limit held: $p")
	[ "$r" = "EBS limit held: $p none none same n/a n/a" ] ||
	    fail "compare: $p row \"$r\""
done
nrows=$(grep -c "^EBS limit held: " "$dir/cmp.txt")
nph=$(jq '.ebs_stats.phases | length' "$dir/instance.json")
[ "$nrows" -ge "$nph" ] || fail "compare: $nrows rows for $nph phases"
grep -q "^EBS limit held: the limit EBS's own counters" "$dir/cmp.txt" ||
    fail "compare: no legend for the rows"
"$TIERPROBE" compare "$dir/instance.json" "$dir/volume.json" \
    --output-format markdown > "$dir/cmp.md" || fail "compare md $?"
grep -qF "| EBS limit held: sustained | instance IOPS | volume IOPS | other |" \
    "$dir/cmp.md" || fail "compare md: $(grep sustained "$dir/cmp.md")"
# Without counters: no row, no legend, as before.
"$TIERPROBE" compare "$dir/plain.json" "$dir/plain2.json" > "$dir/plain.txt" ||
    fail "compare plain exited $?"
! grep -q "EBS" "$dir/plain.txt" || fail "compare without counters: EBS"

# fleet: the burst cell of each volume, CSV and JSON.
"$TIERPROBE" fleet "$dir/instance.json" "$dir/volume.json" \
    "$dir/plain.json" > "$dir/fleet.txt" 2> /dev/null ||
	fail "fleet exited $?"
grep "^  instance " "$dir/fleet.txt" | grep -qF "; EBS held: instance IOPS" ||
    fail "fleet: instance row $(grep '^  instance ' "$dir/fleet.txt")"
grep "^  volume " "$dir/fleet.txt" | grep -qF "; EBS held: volume IOPS" ||
    fail "fleet: volume row $(grep '^  volume ' "$dir/fleet.txt")"
! grep "^  plain " "$dir/fleet.txt" | grep -q "EBS" ||
    fail "fleet: plain row names a limit"
grep -q "^  EBS held: the limit" "$dir/fleet.txt" || fail "fleet: no legend"
"$TIERPROBE" fleet "$dir/instance.json" "$dir/volume.json" \
    "$dir/plain.json" --output-format csv > "$dir/fleet.csv" 2> /dev/null ||
	fail "fleet csv exited $?"
head -1 "$dir/fleet.csv" | grep -q ',fault,ebs_sustained_limit$' ||
    fail "fleet csv: header $(head -1 "$dir/fleet.csv")"
grep -q '^[^,]*instance.json,instance,.*,instance_iops$' "$dir/fleet.csv" ||
    fail "fleet csv: instance row"
grep -q '^[^,]*volume.json,volume,.*,volume_iops$' "$dir/fleet.csv" ||
    fail "fleet csv: volume row"
grep -q '^[^,]*plain.json,plain,.*,$' "$dir/fleet.csv" ||
    fail "fleet csv: plain row"
"$TIERPROBE" fleet "$dir/instance.json" "$dir/volume.json" \
    "$dir/plain.json" --output-format json > "$dir/fleet.json" \
    2> /dev/null || fail "fleet json exited $?"
[ "$(jq -r '[.fleet.volumes[] | "\(.host)=\(.ebs_sustained_limit)"] |
    sort | join(" ")' "$dir/fleet.json")" = \
    "instance=instance_iops plain=null volume=volume_iops" ] ||
	fail "fleet json: $(jq -c '[.fleet.volumes[] | .ebs_sustained_limit]' \
	    "$dir/fleet.json")"
[ "$(jq '[.fleet.volumes[] | select(.host == "plain") |
    has("ebs_sustained_limit")] | .[0]' "$dir/fleet.json")" = false ] ||
	fail "fleet json: a volume without counters has the key"
# Without counters: no column, no mark, no legend.
"$TIERPROBE" fleet "$dir/plain.json" "$dir/plain2.json" \
    --output-format csv > "$dir/plain.csv" 2> /dev/null ||
	fail "fleet plain csv exited $?"
head -1 "$dir/plain.csv" | grep -q ',fault$' ||
    fail "fleet csv without counters: $(head -1 "$dir/plain.csv")"
"$TIERPROBE" fleet "$dir/plain.json" "$dir/plain2.json" > "$dir/plain.f" \
    2> /dev/null || fail "fleet plain exited $?"
! grep -q "EBS" "$dir/plain.f" || fail "fleet without counters: EBS"
echo "ok"
