#!/bin/sh
# Description: simulated volumes from the command line: `profiles` lists
# every built-in profile and `--show` prints its truth, tiers numbered
# from 1 as in reports; a simulated scan is
# deterministic for a seed (the JSON byte for byte) and another seed gives
# other noise; an unknown name, a missing file and a bad profile are usage
# errors (exit 2) reported in one line naming the file, line and key; the
# device time a run may take is said before it, and what it took after; a
# simulated run's report names its volume, size and instance, the host it
# ran on and its device time (what stderr said it spent).
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-sim.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$TIERPROBE" profiles > "$dir/list" 2> "$dir/err" || {
	cat "$dir/err"
	fail "profiles exited $?"
}
n=0
for f in "$TOP_SRCDIR"/profiles/*.ini; do
	name=$(basename "$f" .ini)
	grep -q "^$name " "$dir/list" || fail "profiles does not list $name"
	"$TIERPROBE" profiles --show "$name" > "$dir/show" ||
	    fail "profiles --show $name"
	grep -q "iops_ceiling" "$dir/show" || fail "--show $name: no truth"
	n=$((n + 1))
done
[ $n -ge 8 ] || fail "only $n built-in profiles"
"$TIERPROBE" profiles --show ebs-gp2-100g | grep -q "lasts 2000 s" ||
    fail "gp2 100 GiB: burst of 5.4M / (3000 - 300) is not 2000 s"
# Tiers are numbered from 1, as the reports number them.
"$TIERPROBE" profiles --show classic-three-level > "$dir/show"
[ "$(grep -c '^  tier [12] ' "$dir/show")" = 4 ] ||
    fail "--show numbers its two tiers other than 1 and 2: $(cat "$dir/show")"
! grep -q '^  tier 0' "$dir/show" || fail "--show has a tier 0"

# Usage errors: exit 2, one line on stderr.
usage_error() {	# want-in-message, then the command's arguments
	want=$1
	shift
	"$TIERPROBE" "$@" > /dev/null 2> "$dir/err"
	rc=$?
	[ $rc = 2 ] || fail "$*: exit $rc, want 2"
	[ "$(wc -l < "$dir/err")" = 1 ] || fail "$*: not one line: $(cat "$dir/err")"
	grep -qF -- "$want" "$dir/err" || fail "$*: \"$(cat "$dir/err")\" lacks \"$want\""
}
usage_error "ebs-gp2-100g" scan sim:no-such-volume
usage_error "$dir/missing.ini" scan "sim:$dir/missing.ini"
printf '[device]\nsize = 1G\n[backing]\nlatency_us = fast\n' > "$dir/bad.ini"
usage_error "$dir/bad.ini:4: [backing] latency_us" scan "sim:$dir/bad.ini"
printf '[device]\nsize = 1G\n[tier.0]\ncapacity = 64M\nlatency_us = 1\n[tier.1]\ncapacity = 32M\nlatency_us = 2\n[backing]\nlatency_us = 3\n' > "$dir/big.ini"
usage_error "big.ini:4: [tier.0] capacity" scan "sim:$dir/big.ini"
printf '[device]\nsize = 1G\n[backing]\nlatency_us = 3\n[bursts]\n' > "$dir/bad2.ini"
usage_error "bad2.ini:5: unknown section [bursts]" profiles --show "$dir/bad2.ini"

# Same seed, same measurements byte for byte (the report's clock times
# aside); another seed, other noise.
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
scan() {	# seed, output
	"$TIERPROBE" scan sim:classic-three-level --min-ws 64M --max-ws 3G \
	    --points 4 --seed "$1" --quiet --output-format json > "$2.full" ||
	    fail "simulated scan exited $?"
	[ "$(jq -r .target.type "$2.full")" = sim ] || fail "target.type"
	jq -S .scan "$2.full" > "$2"
}
scan 7 "$dir/a.json"
scan 7 "$dir/b.json"
scan 8 "$dir/c.json"
[ "$(jq '.points | length' "$dir/a.json")" = 4 ] || fail "not 4 points"
cmp -s "$dir/a.json" "$dir/b.json" || fail "seed 7 twice: scans differ"
cmp -s "$dir/a.json" "$dir/c.json" && fail "seeds 7 and 8: same scan"

# Before a run, the device time it may take; after, what it took.  A
# linear grid adds no points: 4 points of at most 1 s, and a quarter of
# that settling, are 5 s, and the warm-ups read the 64 MiB once on top.
"$TIERPROBE" scan sim:ebs-gp3 --min-ws 16M --max-ws 64M --step 16M \
    --max-time 1 --seed 3 --output-format json > "$dir/t.json" \
    2> "$dir/t.err" || fail "scan exited $?"
grep -q "^tierprobe: up to 5.0 s of device time if every point runs to its time limit (scan 5.0 s.*) and a sequential read of 64 MiB to warm the working sets, reading within 64 MiB$" \
    "$dir/t.err" || fail "no cost said before: $(cat "$dir/t.err")"
spent=$(jq .scan.device_time_s "$dir/t.json" | awk '{ printf "%.1f", $1 }')
grep -q "^tierprobe: spent $spent s of device time, " "$dir/t.err" ||
    fail "spent $spent s, not said after: $(cat "$dir/t.err")"
[ "$(head -1 "$dir/t.err" | cut -c1-11)" = "tierprobe: " ] ||
    fail "the cost is not said first"

# A simulated volume's report says what it is: its name, size and the
# instance it is on, in the text and in JSON (target.instance); the host
# it ran on (what a fleet shows); the device time it took, as said on
# stderr, not its clock times; the Machine section names no device.
"$TIERPROBE" limits sim:ebs-io1-50k@m5.8xlarge --max-iodepth 8 \
    --sustain 2 --max-time 0.5 --seed 3 --json "$dir/i.json" \
    > "$dir/i.txt" 2> "$dir/i.err" || fail "limits on an instance exited $?"
grep -q '^tierprobe [0-9.]*: limits of sim:ebs-io1-50k@m5.8xlarge$' \
    "$dir/i.txt" || fail "title: $(head -1 "$dir/i.txt")"
grep -q '^  target  *simulated ebs-io1-50k, 1000 GiB, on a simulated m5.8xlarge, O_DIRECT, in$' \
    "$dir/i.txt" || fail "target line: $(grep -A1 '^  target' "$dir/i.txt")"
[ "$(jq -r .target.instance "$dir/i.json")" = m5.8xlarge ] ||
	fail "target.instance: $(jq .target.instance "$dir/i.json")"
[ "$(jq -r .context.hostname "$dir/i.json")" = "$(uname -n)" ] ||
	fail "a simulated run's host: $(jq .context.hostname "$dir/i.json")"
spent=$(sed -n 's/^tierprobe: spent \([0-9.]*\) s of device time.*/\1/p' \
    "$dir/i.err")
grep -q "^  device time  *$spent s, simulated (virtual time)$" "$dir/i.txt" ||
	fail "device time: $(grep 'device time' "$dir/i.txt"), spent $spent s"
grep -q '^  device  *none: a simulated volume' "$dir/i.txt" ||
	fail "Machine: $(grep '^  device ' "$dir/i.txt")"
"$TIERPROBE" limits sim:ebs-gp3 --max-iodepth 8 --sustain 2 \
    --max-time 0.5 --seed 3 --quiet --output-format json > "$dir/n.json" ||
	fail "limits sim:ebs-gp3 exited $?"
[ "$(jq .target.instance "$dir/n.json")" = null ] ||
	fail "an instance for a volume on none"
exit 0
