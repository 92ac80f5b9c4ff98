#!/bin/sh
# Description: what the databases read, on simulated volumes.
# io_properties.yaml (--io-properties): a gp2 of 100 GiB on an m5.large
# whose bucket ran dry (--sustain 2100) gets a file whose four figures
# are the report's long-run figures read here with jq (the verdict's
# long_run items for the reads, the write sweeps' for the writes), near
# the profile's 300 IOPS baseline, with the state, instance and mount
# point in it, the same from run and from report; the same gp2 run by
# default (no drain: burst figures only) is refused with one line and no
# file unless --accept-burst, which marks them; a gp3 follows its
# verdict; a run without writes is refused for write_iops, never given
# the reads'; several targets are refused.  etcd's bar: met or missed as the p99 of fdatasync, 1
# writer, 2300 B in the rows says, on volumes on either side of 10 ms;
# PostgreSQL's wal_sync_method: the fastest of dsync/fdatasync/fsync at
# 8 KiB and 1 writer in the rows, mapped.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-exports.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# yaml FILE KEY: a key's value in io_properties.yaml.
yaml() {
	sed -n "s/^    $2: //p" "$1"
}
# item JSON NAME KEY: a key of a verdict item.
item() {
	jq -r --arg i "$2" ".verdict.items[] | select(.name == \$i) | .$3" "$1"
}
# floor X: the whole part, as the file writes it.
floor() {
	jq -n --argjson v "$1" '$v | floor'
}

# 1. A gp2 whose bucket ran dry: the four long-run figures.
"$TIERPROBE" run sim:gp2:100G@m5.large --sustain 2100 --seed 1 -q \
    --json "$dir/d.json" --io-properties "$dir/d.yaml" \
    --mountpoint /srv/scylla > "$dir/d.txt" 2> "$dir/d.err" ||
    fail "drained run exited $?: $(head -3 "$dir/d.err")"
[ -s "$dir/d.yaml" ] || fail "no io_properties.yaml after a drained run"
grep -q '^disks:$' "$dir/d.yaml" || fail "no disks: section"
grep -q '^  - mountpoint: "/srv/scylla"$' "$dir/d.yaml" ||
    fail "mount point not written: $(cat "$dir/d.yaml")"
for it in long_run.iops long_run.bandwidth; do
	[ "$(item "$dir/d.json" $it standing)" = measured ] &&
	    [ "$(item "$dir/d.json" $it state)" = empty ] ||
	    fail "$it not measured after a drop in the drained run"
done
want_ri=$(floor "$(item "$dir/d.json" long_run.iops value)")
want_rb=$(floor "$(item "$dir/d.json" long_run.bandwidth value)")
want_wi=$(floor "$(jq '.writes.limits | .long_run_iops // .iops_ceiling' \
    "$dir/d.json")")
want_wb=$(floor "$(jq '.writes.limits |
    .baseline_bandwidth_bytes_per_s // .bandwidth_ceiling_bytes_per_s' \
    "$dir/d.json")")
[ "$(jq -r '.writes.limits.iops_ceiling_state' "$dir/d.json")" = empty ] ||
    fail "the write sweeps did not run after the drop"
[ "$(yaml "$dir/d.yaml" read_iops)" = "$want_ri" ] ||
    fail "read_iops $(yaml "$dir/d.yaml" read_iops), report $want_ri"
[ "$(yaml "$dir/d.yaml" read_bandwidth)" = "$want_rb" ] ||
    fail "read_bandwidth $(yaml "$dir/d.yaml" read_bandwidth), report $want_rb"
[ "$(yaml "$dir/d.yaml" write_iops)" = "$want_wi" ] ||
    fail "write_iops $(yaml "$dir/d.yaml" write_iops), report $want_wi"
[ "$(yaml "$dir/d.yaml" write_bandwidth)" = "$want_wb" ] ||
    fail "write_bandwidth $(yaml "$dir/d.yaml" write_bandwidth), report $want_wb"
# The truth of the profile: 3 IOPS a GiB, 300 for 100 GiB (not the 3,000
# of its burst), reads and writes alike.
for k in read_iops write_iops; do
	v=$(yaml "$dir/d.yaml" $k)
	[ "$v" -ge 285 ] && [ "$v" -le 315 ] ||
	    fail "$k = $v, the gp2's baseline is 300"
done
[ "$(grep -c '^# .*: a long-run figure, measured after a bucket ran dry$' \
    "$dir/d.yaml")" = 4 ] || fail "state lines: $(grep '^#' "$dir/d.yaml")"
grep -q '^# instance: m5.large$' "$dir/d.yaml" || fail "no instance line"
grep -q '^# bucket: ran dry' "$dir/d.yaml" || fail "no bucket line"
# The same from the saved report.
"$TIERPROBE" report "$dir/d.json" --io-properties "$dir/r.yaml" \
    --mountpoint /srv/scylla > /dev/null 2>&1 || fail "report exited $?"
[ "$(grep -v '^#' "$dir/r.yaml")" = "$(grep -v '^#' "$dir/d.yaml")" ] ||
    fail "report wrote other figures than run"

# 2. The same gp2 by default: no drain, burst figures only.
"$TIERPROBE" run sim:gp2:100G --seed 1 -q --json "$dir/b.json" \
    --io-properties "$dir/b.yaml" > /dev/null 2> "$dir/b.err"
rc=$?
[ $rc = 1 ] || fail "burst-only run exited $rc, want 1"
[ ! -e "$dir/b.yaml" ] || fail "a file was written from burst figures"
[ -s "$dir/b.json" ] || fail "the refusal lost the JSON report"
[ "$(wc -l < "$dir/b.err")" = 1 ] && grep -q 'read_iops is a burst figure' \
    "$dir/b.err" || fail "refusal: $(cat "$dir/b.err")"
grep -q 'to settle it: tierprobe run sim:gp2:100G --sustain' "$dir/b.err" ||
    fail "refusal names no run to settle it: $(cat "$dir/b.err")"
"$TIERPROBE" report "$dir/b.json" --io-properties "$dir/b.yaml" \
    > /dev/null 2> "$dir/b2.err"
rc=$?
[ $rc = 2 ] && [ ! -e "$dir/b.yaml" ] ||
    fail "report of burst figures exited $rc (want 2, no file)"
# With --accept-burst: written, every figure marked, the held rate.
"$TIERPROBE" report "$dir/b.json" --io-properties "$dir/b.yaml" \
    --accept-burst > /dev/null 2>&1 || fail "--accept-burst exited $?"
[ "$(grep -c '^# .*: a BURST figure' "$dir/b.yaml")" = 4 ] &&
    grep -q '^# WARNING: burst figures' "$dir/b.yaml" ||
    fail "burst figures not marked: $(cat "$dir/b.yaml")"
[ "$(yaml "$dir/b.yaml" read_iops)" = \
    "$(floor "$(item "$dir/b.json" long_run.iops value)")" ] ||
    fail "accepted read_iops is not the verdict's bound"

# 3. A gp3: no bucket ever runs dry, so the verdict only bounds its
# figures; the file follows the verdict, whatever it decides.
"$TIERPROBE" run sim:gp3:500G --seed 1 -q --json "$dir/g.json" \
    --io-properties "$dir/g.yaml" > /dev/null 2> "$dir/g.err"
rc=$?
if [ "$(item "$dir/g.json" long_run.iops standing)" = measured ]; then
	[ $rc = 0 ] && [ "$(yaml "$dir/g.yaml" read_iops)" = \
	    "$(floor "$(item "$dir/g.json" long_run.iops value)")" ] ||
	    fail "gp3 measured, but the file disagrees"
else
	[ $rc = 1 ] && [ ! -e "$dir/g.yaml" ] ||
	    fail "gp3 bounded, yet exit $rc and a file: $(cat "$dir/g.err")"
fi

# 4. Reads only (limits, --rw read): write_iops was not measured, and is
# never the reads' figure.
"$TIERPROBE" limits sim:gp2:100G --sustain 2100 --seed 1 -q \
    --json "$dir/l.json" > /dev/null 2>&1 || fail "limits exited $?"
"$TIERPROBE" report "$dir/l.json" --io-properties "$dir/l.yaml" \
    --accept-burst > /dev/null 2> "$dir/l.err"
rc=$?
[ $rc = 2 ] && [ ! -e "$dir/l.yaml" ] &&
    grep -q 'write_iops was not measured' "$dir/l.err" ||
    fail "reads-only report: exit $rc, $(cat "$dir/l.err")"

# Several targets: one file describes one volume, refused both ways.
"$TIERPROBE" run sim:gp3:100G sim:gp3:200G --io-properties "$dir/m.yaml" \
    > /dev/null 2> "$dir/m.err"
rc=$?
[ $rc = 2 ] && grep -q 'describes one volume' "$dir/m.err" ||
    fail "run of two targets with --io-properties: exit $rc"
"$TIERPROBE" limits sim:gp3:100G sim:gp3:200G --sustain 5 --max-iodepth 8 \
    --seed 1 -q --json "$dir/m.json" > /dev/null 2>&1 || fail "limits of two"
"$TIERPROBE" report "$dir/m.json" --io-properties "$dir/m.yaml" \
    --accept-burst > /dev/null 2> "$dir/m.err"
rc=$?
[ $rc = 2 ] && [ ! -e "$dir/m.yaml" ] &&
    grep -q 'holds several targets' "$dir/m.err" ||
    fail "report of two targets: exit $rc, $(cat "$dir/m.err")"

# 5. etcd and PostgreSQL, on volumes either side of etcd's 10 ms.
saw_met=0 saw_missed=0
for p in nvme-instance-store ebs-st1 d.json; do
	if [ "$p" = d.json ]; then
		f=$dir/d.json
	else
		f=$dir/s-$p.json
		"$TIERPROBE" sync "sim:$p" --seed 1 -q --json "$f" > /dev/null \
		    2>&1 || fail "sync sim:$p exited $?"
	fi
	p99=$(jq '[.sync.methods[] | select(.method == "fdatasync" and
	    .writers == 1 and .bs == 2300)][0].lat_us.p99' "$f")
	[ "$p99" != null ] || fail "$p: no fdatasync row at 2300 B"
	met=$(jq -n --argjson v "$p99" '$v < 10000')
	[ "$(jq '.sync.etcd_met' "$f")" = "$met" ] ||
	    fail "$p: etcd_met $(jq '.sync.etcd_met' "$f"), p99 $p99"
	[ "$(item "$f" commit.etcd.p99 value)" = "$p99" ] ||
	    fail "$p: the etcd line's p99 is not the row's ($p99)"
	if [ "$met" = true ]; then
		saw_met=1
		item "$f" commit.etcd.p99 reason | grep -q "meets etcd's" ||
		    fail "$p: p99 $p99 under 10 ms, the line says otherwise"
	else
		saw_missed=1
		item "$f" commit.etcd.p99 reason | grep -q "misses etcd's" ||
		    fail "$p: p99 $p99 over 10 ms, the line says otherwise"
	fi
	best=$(jq -r '[.sync.methods[] | select(.writers == 1 and
	    .bs == 8192 and (.method == "dsync" or .method == "fdatasync" or
	    .method == "fsync"))] | max_by(.ops_per_s) |
	    "\(.method) \(.ops_per_s)"' "$f")
	method=${best% *}
	rate=${best#* }
	case $method in
	dsync) pg=open_datasync ;;
	*) pg=$method ;;
	esac
	[ "$(jq -r '.sync.postgresql_wal_sync_method' "$f")" = "$pg" ] ||
	    fail "$p: postgresql $(jq -r '.sync.postgresql_wal_sync_method' \
	    "$f"), the fastest row is $method ($rate/s)"
	[ "$(item "$f" commit.postgresql value)" = "$rate" ] ||
	    fail "$p: the PostgreSQL line's rate is not the fastest row's"
	item "$f" commit.postgresql detail | grep -q "^$pg, " ||
	    fail "$p: detail $(item "$f" commit.postgresql detail)"
	grep -q "^  wal_sync_method  " "$dir/d.txt" || fail "no wal_sync_method line"
done
[ $saw_met = 1 ] && [ $saw_missed = 1 ] ||
    fail "etcd's bar not seen both met and missed"
# Read back, the derived keys are derived again, whatever the file says.
jq '.sync.etcd_met = (.sync.etcd_met | not) |
    .sync.postgresql_wal_sync_method = "open_sync"' "$dir/s-ebs-st1.json" \
    > "$dir/x.json"
"$TIERPROBE" report "$dir/x.json" --output-format json > "$dir/x2.json" ||
    fail "report of an edited file exited $?"
[ "$(jq '.sync.etcd_met, .sync.postgresql_wal_sync_method' "$dir/x2.json")" = \
    "$(jq '.sync.etcd_met, .sync.postgresql_wal_sync_method' \
    "$dir/s-ebs-st1.json")" ] || fail "derived keys taken from the file"
echo "io_properties, etcd's bar and PostgreSQL's method follow the report"
