#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: volume types judged by real runs (limits, in virtual time)
# on simulated volumes whose truth is known: every built-in profile of a
# documented type and volumes made from the rules at sizes no profile has
# leave their type consistent and rule out the types the figures can;
# gp2 of 100 GiB and gp3 cannot be told apart by a default run, which says
# so with the run that would, and that run tells them apart; a simulated
# volume's context gives its model and size as a real device's does;
# --type makes the type's figures the expectations (documented, not
# measured) and its judgement travels in the JSON, which report reads back
# to the same text; bad sim: specs and --type values are usage errors on
# one line; a bad user type file and one of the user's own types.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-types.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }

# The standing of type $2 in report $1: true, false or null.
standing() {
	jq -r --arg t "$2" '.volume_types.types[] | select(.name == $t) |
	    .consistent' "$1"
}

# limits on sim:$1 (seed 3); then $2 must be consistent and every other
# argument ruled out, with the figure that does it.
judged() {
	spec=$1 truth=$2
	shift 2
	j=$dir/$(echo "$spec" | tr -c 'a-z0-9.\n-' '_').json
	"$TIERPROBE" limits "sim:$spec" --seed 3 --quiet --json "$j" \
	    > /dev/null || fail "limits sim:$spec exited $?"
	[ "$(standing "$j" "$truth")" = true ] || fail "sim:$spec: its type" \
	    "$truth is not consistent: $(jq -c --arg t "$truth" \
	    '.volume_types.types[] | select(.name == $t)' "$j")"
	for t in "$@"; do
		[ "$(standing "$j" "$t")" = false ] ||
		    fail "sim:$spec: $t is not ruled out"
		jq -e --arg t "$t" '.volume_types.types[] | select(.name ==
		    $t) | .ruled_out_by | length > 10' "$j" > /dev/null ||
		    fail "sim:$spec: $t ruled out without a reason"
	done
}

judged ebs-gp2-100g gp2 io1 io2 io2-bx st1 sc1 instance-store
judged ebs-gp2-1t gp2 st1 sc1 instance-store io2-bx
judged ebs-gp3 gp3 io1 io2 io2-bx st1 sc1 instance-store
judged ebs-io1-4000 io1 gp2 st1 sc1 instance-store
judged ebs-io1-50k-m5 io1 gp2 gp3 st1 sc1 instance-store
judged ebs-st1 st1 gp2 gp3 io1 io2 sc1 instance-store
judged nvme-instance-store instance-store gp2 gp3 io1 io2 st1 sc1
judged gp2:250G gp2 io1 io2 st1 sc1 instance-store
judged gp2:33G gp2 io1 st1 sc1 instance-store
judged gp3:500G,iops=6000,throughput=250M gp3 gp2 io1 io2 st1 sc1 \
    instance-store
judged io1:400G,iops=4000 io1 gp2 st1 sc1 instance-store

# Latency separates types too: store reads of ~3 ms (st1's) rule out io2
# Block Express, sub-millisecond (issue 29.4); its own ~0.5 ms do not.
for v in io2-bx:500G,iops=8000 st1:500G; do
	"$TIERPROBE" run "sim:$v" --seed 3 --quiet --json "$dir/lat.json" \
	    > /dev/null || fail "run sim:$v exited $?"
	want=false
	[ "$v" = st1:500G ] || want=true
	[ "$(standing "$dir/lat.json" io2-bx)" = $want ] ||
	    fail "sim:$v: io2-bx is not $want: $(jq -c '.volume_types.types[] |
	    select(.name == "io2-bx")' "$dir/lat.json")"
done
jq -r '.volume_types.types[] | select(.name == "io2-bx") | .ruled_out_by' \
    "$dir/lat.json" | grep -q '^store reads p50 [0-9]* us: io2-bx reads take under 1000 us$' ||
    fail "st1: io2-bx not ruled out by its latency"
judged st1:500G st1 gp2 gp3 sc1 instance-store
judged sc1:2T sc1 gp2 gp3 io1 st1 instance-store

# The model and size as a real device's context gives them.
j=$dir/ebs-gp2-100g.json
[ "$(jq -r .context.device_model "$j")" = "Amazon Elastic Block Store" ] ||
    fail "sim:ebs-gp2-100g: context.device_model $(jq .context "$j")"
[ "$(jq -r .context.device_size_bytes "$j")" = 107374182400 ] ||
    fail "sim:ebs-gp2-100g: context.device_size_bytes"
[ "$(jq -r .context.device_model "$dir/nvme-instance-store.json")" = \
    "Amazon EC2 NVMe Instance Storage" ] || fail "instance store's model"

# gp2 100 GiB against gp3: a default run cannot tell them apart, and says
# which run would; that run does.
jq -e '.volume_types.apart == true and
    .volume_types.settle_sustain_s == 2100 and
    .volume_types.settle_options == "--sustain 2100" and
    ([.volume_types.types[] | select(.consistent == true) | .name] ==
    ["gp2", "gp3"]) and
    ([.volume_types.types[] | select(.name == "gp3")][0].settings ==
    "iops=3000,throughput=128") and
    ([.volume_types.types[] | select(.name == "gp2")][0] |
    .long_run_iops == 300 and .bucket == "iops")' "$j" > /dev/null ||
    fail "gp2 100 GiB: $(jq -c .volume_types "$j")"
"$TIERPROBE" limits sim:ebs-gp2-100g --seed 3 --quiet > "$dir/gp2.txt" ||
    fail "limits gp2 text exited $?"
# The command whole on a line of its own, to be copied (issue 29.6).
{ tr -s ' \n' ' ' < "$dir/gp2.txt" | grep -qF -- "gp2, gp3 fit what was \
measured and differ in the long run: the run below tells them apart" &&
    grep -qx '      tierprobe limits sim:ebs-gp2-100g --sustain 2100' \
    "$dir/gp2.txt"; } || fail "the text does not name the run \
that tells gp2 from gp3: $(sed -n '/^Volume type/,/^What/p' "$dir/gp2.txt")"
"$TIERPROBE" limits sim:ebs-gp2-100g --seed 3 --sustain 2100 --quiet \
    --json "$dir/long.json" > /dev/null || fail "the settling run exited $?"
[ "$(standing "$dir/long.json" gp2)" = true ] ||
    fail "after the bucket ran dry, gp2 is not consistent"
[ "$(standing "$dir/long.json" gp3)" = false ] ||
    fail "after the bucket ran dry, gp3 is not ruled out"
jq -e '.limits.burst.detected and .volume_types.apart == false and
    .volume_types.consistent_types == 1' "$dir/long.json" > /dev/null ||
    fail "the settling run: $(jq -c .volume_types "$dir/long.json")"
# The same on a gp3, whose run never drops: then gp2 is out.
"$TIERPROBE" limits sim:ebs-gp3 --seed 3 --sustain 2100 --quiet \
    --json "$dir/long3.json" > /dev/null || fail "gp3 settling run exited $?"
[ "$(standing "$dir/long3.json" gp2)" = false ] &&
    [ "$(standing "$dir/long3.json" gp3)" = true ] ||
    fail "2,100 s on a gp3 did not rule gp2 out"

# --type: the type's figures become the expectations, documented.  The
# run sees no bucket run dry, so they are met only while one may still be
# full: exit 3, unless --accept-burst accepts that.
"$TIERPROBE" limits sim:ebs-gp3 --type gp3 --seed 3 --quiet \
    --json "$dir/t0.json" > "$dir/t0.txt"
[ $? = 3 ] || fail "--type gp3 without --accept-burst: exit not 3"
grep -q "met while a bucket may still be full" "$dir/t0.txt" ||
    fail "--type gp3: its expectations not said met while a bucket may be full"
"$TIERPROBE" limits sim:ebs-gp3 --type gp3 --accept-burst --seed 3 --quiet \
    --json "$dir/t.json" > "$dir/t.txt" || fail "--type gp3 exited $?"
jq -e '.config.type == "gp3" and .volume_types.given_spec == "gp3" and
    .volume_types.given.consistent == true and
    .volume_types.given.settings == "iops=3000,throughput=125" and
    (.expectations.profile | startswith("gp3 at 100 GiB")) and
    ([.expectations.items[].expression] ==
    ["iops>=2700", "bandwidth>=112.5M"]) and
    (.expectations.promise | contains("documented, not measured"))' \
    "$dir/t.json" > /dev/null || fail "--type gp3: $(jq -c \
    '[.config.type, .volume_types.given, .expectations]' "$dir/t.json")"
grep -q -- "--type gp3 (documented, not measured)" "$dir/t.txt" ||
    fail "the text does not give --type's figures as documented"
# A type the run rules out: said, and its expectations missed (exit 3).
"$TIERPROBE" limits sim:ebs-gp3 --type io1,iops=3000 --seed 3 --quiet \
    --json "$dir/t2.json" > /dev/null
[ $? = 3 ] || fail "--type io1 on a gp3: exit not 3"
jq -e '.volume_types.given.consistent == false and
    (.volume_types.given.ruled_out_by | startswith("bandwidth 125 MiB/s"))' \
    "$dir/t2.json" > /dev/null ||
    fail "--type io1 on a gp3: $(jq -c .volume_types.given "$dir/t2.json")"
# check --type judges a saved report at the size it gives.
"$TIERPROBE" check "$dir/ebs-gp3.json" --type gp3 --accept-burst \
    > "$dir/c.txt" ||
    fail "check --type gp3 exited $?"
grep -qF "gp3 at 100 GiB (iops=3000,throughput=125) (documented, not \
measured)" "$dir/c.txt" ||
    fail "check --type: $(cat "$dir/c.txt")"

# Read back: the same volume types and settings, and the same section.
# (The expectations are judged again from the figures read back, whose
# six digits move a derived interval's last digit: not compared here.)
"$TIERPROBE" report "$dir/t.json" --output-format json > "$dir/back.json" ||
    fail "report exited $?"
jq -S 'del(.expectations)' "$dir/t.json" > "$dir/a.json"
jq -S 'del(.expectations)' "$dir/back.json" > "$dir/b.json"
cmp -s "$dir/a.json" "$dir/b.json" || fail "report changed the JSON: \
$(diff "$dir/a.json" "$dir/b.json" | head -5)"
"$TIERPROBE" report "$dir/t.json" > "$dir/back.txt"
sed -n '/^Volume type/,/^What it means/p' "$dir/t.txt" > "$dir/a"
sed -n '/^Volume type/,/^What it means/p' "$dir/back.txt" > "$dir/b"
[ -s "$dir/a" ] && cmp -s "$dir/a" "$dir/b" ||
    fail "the Volume type section read back differs"

# A user's type, by path, and a broken one.
cat > "$dir/mine.ini" <<'EOF'
[type]
name = mine
source = a test, 2026
model = Test Disk
[figures]
iops = 100 * size
bandwidth = 64
[sim.backing]
latency_us = 200
concurrency = 8
EOF
"$TIERPROBE" limits "sim:$dir/mine.ini:10G" --seed 3 --quiet \
    --type "$dir/mine.ini" --accept-burst --json "$dir/mine.json" > /dev/null ||
    fail "a user's type exited $?"
jq -e '.context.device_model == "Test Disk" and
    .volume_types.given.consistent == true and
    .volume_types.given.long_run_iops == 1000' "$dir/mine.json" \
    > /dev/null || fail "a user's type: $(jq -c .volume_types.given \
    "$dir/mine.json")"
printf '[type]\nname = bad\nsource = s\n[figures]\niops = 3 * sise\n' \
    > "$dir/bad.ini"

# Usage errors: exit 2, one line naming what is accepted.
usage() {	# PHRASE ARGS...: exit 2, one line on stderr holding PHRASE
	phrase=$1
	shift
	"$TIERPROBE" "$@" > /dev/null 2> "$dir/err"
	rc=$?
	[ $rc = 2 ] || fail "$*: exit $rc, want 2"
	[ "$(wc -l < "$dir/err")" = 1 ] ||
	    fail "$*: not one line: $(cat "$dir/err")"
	grep -qF -- "$phrase" "$dir/err" ||
	    fail "$*: \"$(cat "$dir/err")\" does not say $phrase"
}
usage "gp2 is a volume type: give its size, as in sim:gp2:100G" \
    limits sim:gp2
usage "\"big\" is not a size" limits sim:gp2:big
usage "st1 volumes are 125 GiB to 16384 GiB, not 10 GiB" limits sim:st1:10G
usage "takes iops from 3000 to 16000, not 99999" \
    limits sim:gp3:100G,iops=99999
usage "no volume type \"gp9\"; built-in types: gp2, gp3" limits sim:gp9:1G
usage "io1 needs iops=VALUE" limits sim:io1:100G
usage "--type gp9: no volume type" limits sim:ebs-gp3 --type gp9
usage "gp3 iops=x: not a number" limits sim:ebs-gp3 --type gp3,iops=x
usage "is not SETTING=VALUE" limits sim:ebs-gp3 --type gp3,iops
usage "gp3 has no setting \"speed\"; it takes iops, throughput" \
    limits sim:ebs-gp3 --type gp3,speed=1
usage "io1 at 100 GiB takes iops from 100 to 5000, not 9000" \
    limits sim:ebs-gp3 --type io1,iops=9000
usage "--type names one volume: give one target" \
    limits sim:ebs-gp3 sim:ebs-gp3 --type gp3
usage "--type and --expect-profile" \
    limits sim:ebs-gp3 --type gp3 --expect-profile ebs-gp3
usage "bad.ini:5: [figures] iops: \"3 * sise\", column 5: unknown name" \
    limits "sim:$dir/bad.ini:1G"
exit 0
