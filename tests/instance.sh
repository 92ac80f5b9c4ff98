#!/bin/sh
# Description: the instance a run assumes, through the binary: a fake
# DMI directory (TIERPROBE_DMI_DIR) naming an EC2 type of the table, one
# of another vendor, none; --instance TYPE and --instance FILE; a sim:
# target's @INSTANCE; a sim: target on no instance (never the machine's
# DMI); an unknown type refused (exit 2, one line, no report).  Each is
# in the JSON report (instance) and in the verdict, with where it came
# from; a report read back says the same.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-instance.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$dir/ec2" "$dir/kvm"
printf 'Amazon EC2\n' > "$dir/ec2/sys_vendor"
printf 'r5.large\n' > "$dir/ec2/product_name"
printf 'QEMU\n' > "$dir/kvm/sys_vendor"
printf 'Standard PC (Q35 + ICH9, 2009)\n' > "$dir/kvm/product_name"

# A file target: a short scan is enough to carry the instance.
scan() {
	"$TIERPROBE" scan "$dir/f.dat" --size 16M --min-ws 4M --max-ws 8M \
	    --points 2 --max-time 0.2 --quiet "$@"
}
TIERPROBE_DMI_DIR=$dir/ec2 scan --json "$dir/dmi.json" > "$dir/dmi.txt" ||
    fail "scan with an EC2 DMI: exit $?"
[ "$(jq -c '.instance | [.name, .from, .iops, .bandwidth_bytes_per_s,
    .burst_iops, .burst_duration_s]' "$dir/dmi.json")" = \
    '["r5.large","dmi",3600,81250000,18750,1800]' ] ||
    fail "DMI r5.large: $(jq -c .instance "$dir/dmi.json")"
sed -n '/^Verdict/{n;p;}' "$dir/dmi.txt" | grep -q \
    '^ *instance *r5.large, from DMI: 3,600 IOPS' ||
    fail "verdict: $(sed -n '/^Verdict/,+3p' "$dir/dmi.txt")"
"$TIERPROBE" report "$dir/dmi.json" | grep -q 'r5.large, from DMI' ||
    fail "a report read back lost the instance"

TIERPROBE_DMI_DIR=$dir/kvm scan --json "$dir/kvm.json" > "$dir/kvm.txt" ||
    fail "scan with a QEMU DMI: exit $?"
[ "$(jq -c '.instance | [.name, .from, .iops]' "$dir/kvm.json")" = \
    '[null,null,null]' ] && jq -r .instance.why "$dir/kvm.json" |
    grep -q 'not an EC2 instance (DMI sys_vendor "QEMU")' &&
    grep -q 'instance *none known: not an EC2 instance' "$dir/kvm.txt" ||
    fail "QEMU: $(jq -c .instance "$dir/kvm.json")"

TIERPROBE_DMI_DIR=$dir/none scan --json "$dir/none.json" > /dev/null ||
    fail "scan without DMI: exit $?"
jq -r .instance.why "$dir/none.json" | grep -q '^no DMI identity' ||
    fail "no DMI: $(jq -c .instance "$dir/none.json")"

# --instance wins over DMI; a file is an [instance] profile.
TIERPROBE_DMI_DIR=$dir/ec2 scan --instance t3.micro \
    --json "$dir/opt.json" > /dev/null || fail "--instance t3.micro: $?"
[ "$(jq -c '.instance | [.name, .from, .iops, .burst_iops]' \
    "$dir/opt.json")" = '["t3.micro","option",500,11800]' ] ||
    fail "--instance t3.micro: $(jq -c .instance "$dir/opt.json")"
printf '[instance]\nname = mine\niops = 1234\nbandwidth = 100M\n' \
    > "$dir/mine.ini"
scan --instance "$dir/mine.ini" --json "$dir/file.json" > /dev/null ||
    fail "--instance FILE: exit $?"
[ "$(jq -c '.instance | [.name, .from, .iops, .burst_iops]' \
    "$dir/file.json")" = '["mine","file",1234,null]' ] ||
    fail "--instance FILE: $(jq -c .instance "$dir/file.json")"

# Simulated volumes: their @INSTANCE, or none (not this machine's DMI).
TIERPROBE_DMI_DIR=$dir/ec2 "$TIERPROBE" limits 'sim:gp3:500G@m5.large' \
    --quiet --json "$dir/sim.json" > /dev/null || fail "sim@m5.large: $?"
[ "$(jq -c '.instance | [.name, .from, .iops]' "$dir/sim.json")" = \
    '["m5.large","sim",3600]' ] ||
    fail "sim@m5.large: $(jq -c .instance "$dir/sim.json")"
TIERPROBE_DMI_DIR=$dir/ec2 "$TIERPROBE" limits sim:gp3:500G --quiet \
    --json "$dir/sim0.json" > /dev/null || fail "sim: exit $?"
[ "$(jq -r .instance.from "$dir/sim0.json")" = null ] &&
    jq -r .instance.why "$dir/sim0.json" | grep -q 'on no instance' ||
    fail "sim on no instance: $(jq -c .instance "$dir/sim0.json")"

# An unknown type: a usage error, one line, no report.
"$TIERPROBE" limits sim:gp3:500G --instance x9.huge \
    --json "$dir/bad.json" > "$dir/out" 2> "$dir/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l < "$dir/err")" = 1 ] && [ ! -s "$dir/out" ] &&
    grep -q 'x9.huge' "$dir/err" && [ ! -e "$dir/bad.json" ] ||
    fail "--instance x9.huge: exit $rc, $(cat "$dir/err")"
exit 0
