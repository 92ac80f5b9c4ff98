#!/bin/sh
# Description: what the analysis finds reaches the user: a scan that finds
# no cache says a larger one could hide past its largest working set; on a
# simulated volume
# restored from a snapshot the first-read penalty is in the JSON and the
# text (and not on a fresh volume), and run looks for it unasked and
# says it in the summary; the burst of a gp2 bucket and the kind
# of limit are in the JSON, and a saved report re-renders to the same JSON;
# a gp2 bucket a 120 s run cannot see is not reported as none, nor an st1
# bucket of bandwidth credits the 4 KiB sustained run cannot drain, and runs
# repeated on a volume whose bucket runs dry are reported apart, and one
# that runs dry in the iodepth sweep is said to fall there;
# a --max-ws past the volume's end is said and not advised; caches the
# sweeps cannot outgrow give the store's ceiling, corrected and said, and
# the share of reads past them at sizes the volume holds.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/tp-lim.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
lim() { "$TIERPROBE" limits "sim:$1" --seed 5 --first-touch --quiet \
    --sustain 60 --json "$dir/$1.json" > "$dir/$1.txt" ||
    fail "limits $1 exited $?"; }

lim ebs-gp3-restored
r=$dir/ebs-gp3-restored.json
jq -e '.limits.first_touch.detected == true and .limits.first_touch.ratio > 3' \
    "$r" >/dev/null || fail "no first-read penalty: $(jq -c .limits.first_touch "$r")"
grep -q "first-read cost.*slower" "$dir/ebs-gp3-restored.txt" ||
    fail "text report lacks the first-read cost"
jq -e '.limits.iops_limit == "cap"' "$r" >/dev/null ||
    fail "iops_limit $(jq .limits.iops_limit "$r")"

lim ebs-gp3
jq -e '.limits.first_touch.detected == false' "$dir/ebs-gp3.json" \
    >/dev/null || fail "penalty invented on a fresh volume"

# Re-rendering a saved report gives the same JSON.
"$TIERPROBE" report "$r" --output-format json > "$dir/a.json" || fail "report"
"$TIERPROBE" report "$dir/a.json" --output-format json > "$dir/b.json"
cmp -s "$dir/a.json" "$dir/b.json" || fail "report round trip differs"
jq -e --argjson ft "$(jq .limits.first_touch "$r")" \
    '.limits.first_touch == $ft' "$dir/a.json" >/dev/null ||
    fail "first_touch lost in re-rendering"
# No tier: the text says what the scan could not see.
"$TIERPROBE" scan sim:ebs-gp3 --seed 5 --max-ws 1G --quiet > "$dir/s.txt" ||
    fail "scan exited $?"
grep -q "No cache tier was found" "$dir/s.txt" || fail "no-tier sentence"
tr -s ' \n' ' ' < "$dir/s.txt" | grep -q "largest working set scanned (1 GiB)" ||
    fail "no word on caches beyond the scan"

# A gp2 volume in 120 s: its bucket cannot run dry, and the report must
# not pass the rate held off as the long-run rate: it says what the run
# rules out (fewer I/Os than a gp2 bucket holds) and that the rest is
# unknown.
"$TIERPROBE" run sim:ebs-gp2-100g --seed 5 --quiet --sustain 120 \
    --json "$dir/gp2.json" > "$dir/gp2.txt" || fail "run gp2 exited $?"
jq -e '.limits.burst.detected == false and .limits.long_run_iops == null
    and .limits.burst.held_iops > 2900
    and .limits.burst.ruled_out_below_ios > 360000
    and .limits.burst.ruled_out_below_ios < 5400000' "$dir/gp2.json" \
    >/dev/null || fail "unseen bucket: $(jq -c .limits.burst "$dir/gp2.json")"
tr -s ' \n' ' ' < "$dir/gp2.txt" | grep -q "so the long-run rate is unknown" ||
    fail "the text does not say the long-run rate is unknown"
grep -q "No burst bucket showed" "$dir/gp2.txt" &&
    fail "an unseen bucket reported as no bucket"

# st1's bucket holds bandwidth credits that 4 KiB reads never draw on: the
# text speaks of I/O-credit buckets alone as ruled out, says that the
# large-read rate may be a full bucket's, and borrows no gp2 figure (the
# Volume type section names gp2 as a type ruled out: not read here).
lim ebs-st1
t=$(sed '/^Volume type/,/^$/d' "$dir/ebs-st1.txt" | tr -s ' \n' ' ')
case $t in
*gp2*) fail "st1's report speaks of gp2: $t" ;;
esac
echo "$t" | grep -q "Any bucket of I/O credits smaller than" ||
    fail "st1: the I/O-credit buckets ruled out are not said"
echo "$t" | grep -q "may leave a bucket of bandwidth credits full" ||
    fail "st1: the size sweep's bandwidth is given as lasting"

# Three runs on one gp2 volume: the bucket runs dry in the first (its
# write sweeps) or the second, so the runs after it measure the baseline
# (or, where the few credits the paced probes let it earn run out inside
# a sweep, no ceiling); the runs are given apart, with the reason.
"$TIERPROBE" run sim:ebs-gp2-100g --seed 5 --quiet --sustain 1000 \
    --repeat 3 --json "$dir/rep.json" > "$dir/rep.txt" ||
    fail "repeat exited $?"
jq -e '.repeat.reason != null and ([.repeat.figures[] |
    select(.name == "limits.iops_ceiling")][0] | .runs[0] > 2900
    and (.runs[2] == null or .runs[2] < 330)) and ([.repeat.figures[] |
    select(.name == "limits.long_run_iops")][0] | .runs[2] < 330)' \
    "$dir/rep.json" >/dev/null ||
    fail "repeat: $(jq -c .repeat "$dir/rep.json")"
rep=$(tr -s ' \n' ' ' < "$dir/rep.txt")
echo "$rep" | grep -q "The runs differ [a-z ,]*: a burst bucket ran dry in run [12]" ||
    fail "the repeat text does not give the reason"
# What the reason says holds in the figures: a trend only where one is,
# a lost ceiling named, and credits the later runs found said to be
# earned back rather than left by the runs before.
if jq -e '[.repeat.figures[] | select(.trend != "none")] | length == 0' \
    "$dir/rep.json" >/dev/null; then
	case $rep in *"in a trend"*) fail "repeat: a trend said where none is" ;; esac
fi
if jq -e '[.repeat.figures[] | select(.name == "limits.iops_ceiling")][0] |
    .runs[0] != null and (.runs[1:] | any(. == null))' "$dir/rep.json" \
    >/dev/null; then
	echo "$rep" | grep -Eq "runs? [0-9, and]+ gave no IOPS ceiling" ||
	    fail "repeat: the lost IOPS ceiling is not said"
fi
if jq -e '[.repeat.figures[] | select(.name == "limits.burst.credits_ios")][0] |
    .runs[2] != null' "$dir/rep.json" >/dev/null; then
	echo "$rep" | grep -q "credits it earned back in between" ||
	    fail "repeat: run 3's bucket not said to be credits earned back"
fi
# run checks a (simulated) device for a restore without being asked, and
# says what it means in the summary.
"$TIERPROBE" run sim:ebs-gp3-restored --seed 5 --points 4 --sustain 20 \
    --quiet > "$dir/rr.txt" || fail "run ebs-gp3-restored exited $?"
sed -n '/^What it means/,/^$/p' "$dir/rr.txt" | tr -s ' \n' ' ' |
    grep -q "still being restored from a snapshot" ||
    fail "a restored volume without a word in What it means"
"$TIERPROBE" run sim:ebs-gp3 --seed 5 --points 4 --sustain 20 \
    --quiet > "$dir/rf.txt" || fail "run ebs-gp3 exited $?"
sed -n '/^What it means/,/^$/p' "$dir/rf.txt" | tr -s ' \n' ' ' |
    grep -q "no sign of a volume still being restored" ||
    fail "a fresh volume: the check is not said"

# Caches the sweeps' working set cannot outgrow (the volume is 7 times the
# last one): the IOPS ceiling is the store's, corrected for the hits and
# said so.  Behind a cap that counts the hits too, they wait like misses:
# no correction.
truth=$("$TIERPROBE" profiles --show classic-three-level |
    awk '$1 == "iops_ceiling" { print $2 }')
"$TIERPROBE" run sim:classic-three-level --seed 5 --points 10 --sustain 10 \
    --quiet --json "$dir/c3.json" > "$dir/c3.txt" || fail "run classic"
jq -e --argjson t "$truth" '.limits | .iops_ceiling_corrected and
    .cache_hit_share > 0.05 and (.iops_ceiling / $t - 1 | fabs) < 0.05' \
    "$dir/c3.json" > /dev/null || fail "classic: not the store's $truth" \
    "IOPS: $(jq -c '.limits | [.iops_ceiling, .cache_hit_share]' \
    "$dir/c3.json")"
tr -s ' \n' ' ' < "$dir/c3.txt" |
    grep -q " caches served .* IOPS ceiling is the store's" ||
    fail "classic: the correction is not said"
grep -q "^  long-run IOPS .*([0-9]*% of it from the caches)$" "$dir/c3.txt" ||
    fail "classic: the rate held is not said to include the caches' hits"
# Past its last cache the store's share of the reads grows as 1 - C/S: said
# at the largest working set scanned and over the whole 16 GiB, never at a
# size the volume cannot hold.
tr -s ' \n' ' ' < "$dir/c3.txt" | grep -q "Above [0-9.]* GiB, a growing share \
.* at [0-9.]* GiB (the largest working set scanned, where p50 was [0-9.]* [mu]s)\
.*, [0-9]*% over the whole volume (16 GiB)\. " ||
    fail "classic: the store's share past the caches is not said right"
# The same volume at 400 GiB holds a working set 50 times its last cache:
# the caches serve under 2% of the sweeps' reads, and what they still add
# is taken out too.
sed 's/^size *=.*/size = 400G/' \
    "$TOP_SRCDIR/profiles/classic-three-level.ini" > "$dir/big.ini"
"$TIERPROBE" run "sim:$dir/big.ini" --seed 5 --points 10 --sustain 10 \
    --quiet --json "$dir/big.json" > /dev/null || fail "run big classic"
jq -e --argjson t "$truth" '.limits | .ws_bytes > 100 * 1073741824 and
    .cache_hit_share < 0.02 and .iops_ceiling_corrected and
    (.iops_ceiling / $t - 1 | fabs) < 0.05' "$dir/big.json" > /dev/null ||
    fail "classic at 400 GiB: $(jq -c '.limits | [.ws_bytes,
    .cache_hit_share, .iops_ceiling_corrected, .iops_ceiling]' \
    "$dir/big.json"), want $truth"
"$TIERPROBE" run "sim:$TOP_SRCDIR/tests/data/limits-cache-cap.ini" --seed 5 \
    --points 6 --sustain 10 --quiet --json "$dir/cc.json" > /dev/null ||
    fail "run limits-cache-cap"
jq -e '.limits | (.iops_ceiling_corrected | not) and
    .cache_hit_share > 0.05 and (.iops_ceiling / 4000 - 1 | fabs) < 0.02' \
    "$dir/cc.json" > /dev/null || fail "cache before a cap: $(jq -c \
    '.limits | [.iops_ceiling, .cache_hit_share, .iops_ceiling_corrected]' \
    "$dir/cc.json")"

# A size past the end of the volume is cut and said; the report advises
# nothing the volume cannot give.
"$TIERPROBE" scan sim:ebs-gp3 --seed 5 --max-ws 20T --points 4 \
    > "$dir/w.txt" 2> "$dir/w.err" || fail "scan --max-ws 20T exited $?"
grep -q -- "--max-ws 20 TiB is more than .* holds: 100 GiB used" \
    "$dir/w.err" || fail "the cut --max-ws is not said: $(cat "$dir/w.err")"
tr -s ' \n' ' ' < "$dir/w.txt" | grep -q "covered the whole volume (100 GiB)" ||
    fail "no word on the scan covering the volume"
! grep -q -- "--max-ws" "$dir/w.txt" || fail "advises --max-ws past the end"
# A bucket that runs dry in the iodepth sweep: the IOPS before the fall
# are a lower bound, and the text says the fall, not "still rising at the
# deepest queue" of a sweep that went on deeper.
"$TIERPROBE" limits "sim:$TOP_SRCDIR/tests/data/limits-burst-qd.ini" \
    --seed 3 --sustain 60 --quiet > "$dir/qd.txt" || fail "limits burst-qd"
tr -s ' \n' ' ' < "$dir/qd.txt" | grep -q "IOPS ceiling at least .* (at \
iodepth [0-9]*): still rising there; at iodepth [0-9]* IOPS fell, a change \
of state, not a cap" || fail "the fall is not said: $(grep -A1 'IOPS ceiling' \
    "$dir/qd.txt")"
grep -q "still rising at the deepest queue" "$dir/qd.txt" &&
    fail "a sweep that fell is said to rise at its deepest queue"
echo ok
