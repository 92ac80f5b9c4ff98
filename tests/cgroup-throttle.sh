#!/bin/sh
# Real ground truth for `tierprobe limits`: the kernel's blk-throttle is a
# rate cap of known size on the disk holding a test file.  Inside a cgroup
# with read IOPS and bandwidth limits (v1 blkio.throttle.*, or v2 io.max)
# the IOPS and bandwidth ceilings must come out within 5% (and with a
# bandwidth cap of the IOPS cap times 128 KiB, no accounting unit); with
# the IOPS limit driven by a credit-bucket controller
# (tests/burst_controller) the burst must be found with both rates within
# 10% and the bucket within 15%, both when the sustained run sees it run
# dry and when the sweeps empty it before that run begins.  Needs root and
# blk-throttle (skips with 77 otherwise); about two and a half minutes.
set -u

. "$(dirname "$0")/cgroup-lib.sh"
. "$(dirname "$0")/timing-lock.sh"
builddir=$(cd "$(dirname "$TIERPROBE")/.." && pwd)
controller=$builddir/tests/burst_controller
MiB=1048576

"$TIERPROBE" limits --help >/dev/null 2>&1 ||
	skip "this tierprobe has no limits command"
[ -x "$controller" ] || skip "no $controller (make check builds it)"
cg_need io

# A file on a real disk, and that disk's MAJ:MIN.
work=$(mktemp -d "$builddir/cgroup-throttle.XXXXXX") || fail "mktemp"
t_atexit "rm -rf $work"
file=$work/data
majmin=$(cg_disk "$work") || skip "$work is not on a block device"
echo "disk $majmin ($(basename "$(readlink -f /sys/dev/block/$majmin)"))," \
    "cgroup v$cg_ver"
dd if=/dev/urandom of="$file" bs=1M count=512 conv=fsync status=none ||
	fail "cannot write the test file"
cg_new throttle

# set_limits RIOPS RBPS (0: none)
set_limits() {
	cg_io "$cg" "$majmin" riops="$1" rbps="$2"
}

# limits_in_cgroup JSON ARGS...: tierprobe limits on the file, in the cgroup.
limits_in_cgroup() {
	json=$1
	shift
	cg_run "$cg" timeout 600 "$TIERPROBE" limits "$file" --ws 512M \
	    --quiet --json "$json" "$@" || fail "tierprobe limits exited $?"
	[ -s "$json" ] || fail "no report in $json"
}

# json_get FILE KEY [OBJECT]: a number or literal of the report, from
# OBJECT's braces if given (the JSON is flattened to one line first).
json_get() {
	tr -d '\n' < "$1" | {
		if [ $# -ge 3 ]; then
			sed -n "s/.*\"$3\": *{\\([^}]*\\)}.*/\\1/p"
		else
			cat
		fi
	} | grep -o "\"$2\": *[^,}]*" | head -1 | sed 's/^[^:]*: *//'
}


# 1. Caps: 1,000 read IOPS and 40 MiB/s.  4 KiB reads hit the IOPS cap
# (from depth 1: the disk does ~20k); bandwidth caps reads above 40 KiB.
set_limits 1000 $((40 * MiB)) || fail "cannot set limits"
limits_in_cgroup "$work/caps.json" --max-iodepth 16 --sustain 6 \
    --max-time 2
t_within iops_ceiling "$(json_get "$work/caps.json" iops_ceiling)" 1000 5
t_within bandwidth_ceiling_bytes_per_s \
    "$(json_get "$work/caps.json" bandwidth_ceiling_bytes_per_s)" \
    $((40 * MiB)) 5
[ "$(json_get "$work/caps.json" detected burst)" = false ] ||
	fail "a burst reported under fixed limits"

# 1b. Caps of 1,000 read IOPS and 1,000 x 128 KiB a second: IOPS flat to
# 128 KiB and halving with each doubling after, as 128 KiB accounting
# units would give.  blk-throttle counts none: the probe at 192 KiB must
# run at the bandwidth cap's 683 IOPS, not at units' 500, and no unit be
# reported (when the sweep's noise lets the signature show, the release
# before reported 128 KiB units).
set_limits 1000 $((1000 * 131072)) || fail "cannot set limits"
limits_in_cgroup "$work/units.json" --max-iodepth 16 --sustain 2 \
    --max-time 1
[ "$(json_get "$work/units.json" io_accounting_bytes)" = null ] ||
	fail "accounting units reported under blk-throttle:" \
	    "$(json_get "$work/units.json" io_accounting_bytes)"
t_within "bandwidth_ceiling, 1,000 x 128 KiB" \
    "$(json_get "$work/units.json" bandwidth_ceiling_bytes_per_s)" \
    $((1000 * 131072)) 5
probe=$(json_get "$work/units.json" iops io_accounting_probe)
[ -z "$probe" ] ||
	t_within "the 192 KiB probe's IOPS" "$probe" 683 10
set_limits 0 0

# bucket_in_cgroup JSON CREDITS ARGS...: tierprobe limits in the cgroup
# with a 2,000 IOPS burst from CREDITS that refill at 400/s; both rates
# within 10% and the bucket within 15%.
burst=2000
base=400
bucket_in_cgroup() {
	json=$1
	credits=$2
	shift 2
	"$controller" "$(cg_dir "$cg" io)" "$majmin" $burst $base \
	    $credits > "$work/ctl.log" &
	ctl_pid=$!
	t_atexit "kill $ctl_pid"
	# Started when it has set the burst limit: its first line.
	t_until '[ -s "$work/ctl.log" ] || ! kill -0 $ctl_pid 2>/dev/null' &&
	    [ -s "$work/ctl.log" ] || fail "controller did not start"
	limits_in_cgroup "$json" --max-iodepth 8 --max-time 1 "$@"
	kill "$ctl_pid"
	wait "$ctl_pid"
	echo "controller (t credits limit):" $(cat "$work/ctl.log")
	[ "$(json_get "$json" detected burst)" = true ] ||
		fail "burst not detected"
	t_within burst_iops "$(json_get "$json" burst_iops burst)" $burst 10
	t_within baseline_iops "$(json_get "$json" baseline_iops burst)" \
	    $base 10
	t_within credits_ios "$(json_get "$json" credits_ios burst)" \
	    $credits 15
}

# 2. 64,000 credits: the sweeps spend about half of them; the sustained
# run sees the rest drain (about 24 s) and 15 s of the baseline after it.
bucket_in_cgroup "$work/burst.json" 64000 --sustain 40

# 3. 19,200 credits, 12 s of burst: the iodepth sweep and the first block
# sizes empty the bucket, the sustained run sees only the baseline.  The
# drop is found in the sweeps' timeline (a falling sweep is no knee), and
# the bandwidth at the baseline is measured after it.
bucket_in_cgroup "$work/sweeps.json" 19200 --sustain 12
[ "$(json_get "$work/sweeps.json" exhausted burst)" = true ] ||
	fail "the drop was not placed before the sustained run"
drop=$(json_get "$work/sweeps.json" drop_sweep_t_s burst)
case $drop in ''|null) fail "no drop time in the sweeps" ;; esac
# The sweep that fell with the bucket is no knee: the ceiling is the
# burst's, or unknown if no depth reached it before the drop.
ceil=$(json_get "$work/sweeps.json" iops_ceiling)
[ "$ceil" = null ] || t_within iops_ceiling "$ceil" $burst 10
echo "drop during the sweeps at $drop s;" \
    "iops_ceiling $(json_get "$work/sweeps.json" iops_ceiling)," \
    "baseline bandwidth" \
    "$(json_get "$work/sweeps.json" baseline_bandwidth_bytes_per_s)"
echo "PASS"
exit 0
