#!/bin/sh
# Description: the write side end to end on simulated volumes, against the
# truth `tierprobe profiles --show` prints.  On ebs-gp3 every method's
# commits/s at one writer is within 5% of the write-and-flush truth, the
# flush cost within 15% of the profile's, the flush not suspect, the shared
# IOPS cap binds 8 and 16 writers (within 5%), and the etcd size is there.
# On a volume whose cache acknowledges flushes at once the flush is suspect
# and `run` finds its write-back buffer within 5% (the truth inside the
# interval), both rates and the drain within 5%, and its 70/30 point is
# randrw; a "write through" claim makes the evidence null.  Under a
# binding IOPS cap (ebs-gp2-100g once its bucket ran dry) the flush,
# hidden in the wait of writes back to back, is measured paced, within 15%
# of the profile's, and raises no alarm (before: "a flush adds only 2.7 us
# to a write of 3.32 ms", suspect); flushes acknowledged at once under
# such a cap stay suspect.  The quick
# preset's sequential writes end once they held, not where a buffer drops
# them; the cost lines count writes and commits.  The progress lines say
# commits/s, sizes as given (2300 B), writers as writers, the flush points
# numbered in turn, the write sweeps as writes.  sync --repeat gives the
# commits' spread over runs.  Seconds of real time.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
command -v jq >/dev/null || { echo "SKIP: needs jq"; exit 77; }
export TIERPROBE_DATADIR="${TIERPROBE_DATADIR:-$TOP_SRCDIR}"

fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tierprobe-sim-sync.XXXXXX") || fail mktemp
trap 'rm -rf "$dir"' EXIT

# within NAME GOT WANT PCT
within() {
	awk -v g="$2" -v w="$3" -v p="$4" 'BEGIN {
		d = g / w - 1; if (d < 0) d = -d; exit !(g != "" && d <= p / 100) }' ||
		fail "$1: $2, want $3 within $4%"
	echo "ok: $1 $2 (truth $3)"
}

# truth PROFILE KEY: the first number after KEY in profiles --show.
truth() {
	"$TIERPROBE" profiles --show "$1" |
	    sed -n "s/^ *$2 *\([0-9.]*\).*/\1/p" | head -1
}
# truth_unit PROFILE KEY: the same with its unit scaled to bytes or us.
truth_size() {
	"$TIERPROBE" profiles --show "$1" | sed -n "s/^ *$2 *//p" | head -1 |
	    awk '{ v = $1; u = $2
		if (u ~ /^GiB/) v *= 1073741824; else if (u ~ /^MiB/) v *= 1048576
		else if (u == "ms") v *= 1000; else if (u == "ns") v /= 1000
		print v }'
}

gp3=ebs-gp3
"$TIERPROBE" sync "sim:$gp3" --seed 7 --quiet --output-format json \
    > "$dir/gp3.json" || fail "sync sim:$gp3 exited $?"
commits=$(truth $gp3 commits)
cap=$(truth $gp3 iops_ceiling)
flush=$(truth_size $gp3 sync.flush_us)
for m in fdatasync fsync dsync direct-dsync uring-datasync; do
	got=$(jq -r --arg m $m '.sync.methods[] |
	    select(.method == $m and .writers == 1 and .bs == 8192) |
	    .ops_per_s' "$dir/gp3.json")
	within "$m 8K commits/s" "$got" "$commits" 5
done
for w in 8 16; do
	got=$(jq -r --argjson w $w '[.sync.methods[] |
	    select(.writers == $w) | .ops_per_s] | max' "$dir/gp3.json")
	within "$w writers commits/s (the IOPS cap)" "$got" "$cap" 5
done
within "flush cost" "$(jq -r .sync.flush_us "$dir/gp3.json")" "$flush" 15
[ "$(jq -r .sync.flush_suspect "$dir/gp3.json")" = false ] ||
	fail "$gp3: an honest flush called suspect"
[ "$(jq -r .sync.write_cache "$dir/gp3.json")" = "write back" ] ||
	fail "$gp3: write_cache not as the profile says"
jq -e '[.sync.methods[] | select(.bs == 2300 and .method == "fdatasync"
    and .writers == 1 and .lat_us.p99 > 0)] | length == 1' \
    "$dir/gp3.json" >/dev/null || fail "no 2300-byte fdatasync row"
jq -e '.sync.best_method != null' "$dir/gp3.json" >/dev/null ||
	fail "no best method"

lying=$TOP_SRCDIR/tests/data/lying-buffer.ini
"$TIERPROBE" run "sim:$lying" --seed 5 --quiet --output-format json \
    > "$dir/lying.json" || fail "run sim:lying-buffer exited $?"
[ "$(jq -r .sync.flush_suspect "$dir/lying.json")" = true ] ||
	fail "a flush acknowledged at once not suspect"
buf=$(truth_size "$lying" writes.buffer)
fast=$("$TIERPROBE" profiles --show "$lying" |
    sed -n 's/.*writes.buffer.* at \([0-9.]*\) GiB\/s.*/\1/p' |
    awk '{ print $1 * 1073741824 }')
slow=$("$TIERPROBE" profiles --show "$lying" |
    sed -n 's/.*writes.buffer.* then \([0-9.]*\) MiB\/s.*/\1/p' |
    awk '{ print $1 * 1048576 }')
w() { jq -r ".writes.$1" "$dir/lying.json"; }
[ "$(w mixed.rw)" = randrw ] && [ "$(w mixed_read_fraction)" = 0.7 ] ||
	fail "the 70/30 point says $(w mixed.rw), $(w mixed_read_fraction)"
within "buffer bytes" "$(w buffer_bytes)" "$buf" 5
awk -v l="$(w buffer_low_bytes)" -v h="$(w buffer_high_bytes)" -v t="$buf" \
    'BEGIN { exit !(l <= t * 1.005 && h >= t * 0.995) }' ||
	fail "buffer truth $buf outside $(w buffer_low_bytes) - $(w buffer_high_bytes)"
within "fast rate" "$(w fast_bytes_per_s)" "$fast" 5
[ "$(w fast_at_least)" = false ] ||
	fail "a buffer that filled in the second interval: fast_at_least"
within "slow rate" "$(w slow_bytes_per_s)" "$slow" 5
within "drain rate" "$(w drain_bytes_per_s)" "$slow" 5

# The same volume claiming "write through": no flushes go out, no evidence.
sed 's/^cache = write back/cache = write through/' "$lying" > "$dir/wt.ini"
"$TIERPROBE" sync "sim:$dir/wt.ini" --seed 5 --quiet --writers 1 \
    --output-format json > "$dir/wt.json" || fail "sync write through"
[ "$(jq -r .sync.flush_suspect "$dir/wt.json")" = null ] ||
	fail "write through: flush_suspect not null"
# Under a binding IOPS cap (gp2 once its bucket is empty), writes back to
# back wait for their turn and an O_DSYNC one hides its flush in the wait:
# the flush is measured paced, within 15% of the profile's, and no alarm.
# The same cap over flushes acknowledged at once keeps the alarm.
gp2=ebs-gp2-100g
"$TIERPROBE" run "sim:$gp2" --sustain 3000 --seed 11 --quiet \
    --json "$dir/gp2.json" > "$dir/gp2.txt" || fail "run sim:$gp2 exited $?"
jq -e '.sync | .flush_queued == true and .flush_suspect == false and
    .write_us > 3 * .paced_write_us' "$dir/gp2.json" > /dev/null ||
	fail "$gp2, bucket empty: $(jq -c '.sync | [.write_us, .paced_write_us,
	    .flush_us, .flush_queued, .flush_suspect]' "$dir/gp2.json")"
within "$gp2 flush cost under its cap" "$(jq -r .sync.flush_us \
    "$dir/gp2.json")" "$(truth_size $gp2 sync.flush_us)" 15
tr -s ' \n' ' ' < "$dir/gp2.txt" | grep -q "rate cap, which hides a flush" ||
	fail "$gp2: the text does not say the cap hid the flush"
grep -q "flush adds only" "$dir/gp2.txt" &&
	fail "$gp2: a false durability alarm"
sed 's/^iops = 20000/iops = 300/' "$lying" > "$dir/lying300.ini"
"$TIERPROBE" sync "sim:$dir/lying300.ini" --seed 3 --quiet --writers 1 \
    --output-format json > "$dir/lying300.json" || fail "sync lying300"
jq -e '.sync | .flush_queued == true and .flush_suspect == true and
    .flush_us < 0.1 * .paced_write_us' "$dir/lying300.json" > /dev/null ||
	fail "flushes acknowledged at once under a cap: $(jq -c '.sync |
	    [.flush_us, .paced_write_us, .flush_queued, .flush_suspect]' \
	    "$dir/lying300.json")"
# The quick preset's sequential writes end once their rate is known (past
# 4 of their 6 s) on a volume without a buffer, saying so with an interval
# that holds the cap, and run the 6 s where a buffer drops the rate, which
# they still find within 5%.
"$TIERPROBE" run "sim:$lying" --quick --seed 5 --quiet --output-format json \
    > "$dir/lyingq.json" || fail "run --quick sim:lying-buffer exited $?"
[ "$(jq '.writes.timeline[-1].t_s | floor' "$dir/lyingq.json")" = 6 ] ||
	fail "quick: a buffer's drop did not keep the writes going 6 s"
within "quick: buffer bytes" "$(jq .writes.buffer_bytes "$dir/lyingq.json")" \
    "$buf" 5
"$TIERPROBE" run "sim:$gp3" --quick --seed 5 --output-format json \
    > "$dir/gp3q.json" 2> "$dir/gp3q.err" || fail "run --quick sim:$gp3 exited $?"
jq -e '.writes.timeline[-1].t_s >= 4 and .writes.timeline[-1].t_s < 6 and
    .writes.seq_early' "$dir/gp3q.json" > /dev/null ||
	fail "quick: writes that held ran $(jq '.writes.timeline[-1].t_s' "$dir/gp3q.json") s"
jq -e '.writes.buffer_detected == false' "$dir/gp3q.json" > /dev/null ||
	fail "quick: a buffer on $gp3"
cap=$(jq '.limits.bandwidth_ceiling_bytes_per_s' "$dir/gp3q.json")
jq -e --argjson cap "$cap" '.writes.seq_low_bytes_per_s <= $cap * 1.01 and
    .writes.seq_high_bytes_per_s >= $cap * 0.99' "$dir/gp3q.json" > /dev/null ||
	fail "quick: sequential interval $(jq -c '[.writes.seq_low_bytes_per_s,
	    .writes.seq_high_bytes_per_s]' "$dir/gp3q.json") misses $cap"
# What the preset left out is listed, in JSON and in the text; no sustained
# run of writes, no 70/30 point, commits at 8 KiB with fdatasync and fsync.
jq -e '.config.quick_cuts | index("write_sustain") and index("mixed") and
    index("commit_methods") and length == 9' "$dir/gp3q.json" > /dev/null ||
	fail "quick: cuts $(jq -c .config.quick_cuts "$dir/gp3q.json")"
jq -e '.writes.limits.timeline == [] and ([.sync.methods[] |
    select(.writers == 1) | "\(.method) \(.bs)"] | sort ==
    ["fdatasync 8192", "fsync 8192"])' "$dir/gp3q.json" > /dev/null ||
	fail "quick: write sustained run or commits beyond the preset"
"$TIERPROBE" report "$dir/gp3q.json" |
    grep -q "^  quick preset  *not measured: " ||
	fail "quick: the text does not say what the preset left out"
"$TIERPROBE" run "sim:$gp3" --seed 5 --quiet --sustain 10 --max-time 0.5 \
    --output-format json > "$dir/gp3full.json" || fail "run sim:$gp3 exited $?"
jq -e '.config.quick_cuts == [] and (.writes.limits.timeline | length) > 0' \
    "$dir/gp3full.json" > /dev/null || fail "full run: something cut"

# The cost said before a run names its writes and commits, and the one said
# after counts them: at least the scan's, the sequential writes', the mixed
# point's and every commit row's device time.
grep -q "^tierprobe: up to .*, writes [0-9.]* s, commits [0-9.]* s)" \
    "$dir/gp3q.err" || fail "quick: no writes and commits in the cost before"
least=$(jq '.scan.device_time_s + .writes.timeline[-1].t_s +
    .writes.mixed.seconds + ([.sync.methods[].seconds] | add)' "$dir/gp3q.json")
said=$(tr '\r' '\n' < "$dir/gp3q.err" |
    sed -n 's/^tierprobe: spent \([0-9.]*\) s of device time.*/\1/p')
awk -v s="$said" -v l="$least" 'BEGIN { exit !(s != "" && s >= l) }' ||
	fail "quick: spent $said s said, the parts alone took $least s"
# The preset's device time: about a minute, within what it said before
# (the 120 s default sustained run alone would pass it).
bound=$(tr '\r' '\n' < "$dir/gp3q.err" |
    sed -n 's/^tierprobe: up to \([0-9.]*\) s of device time.*/\1/p')
awk -v s="$said" -v b="$bound" 'BEGIN { exit !(s <= 70 && s <= b) }' ||
	fail "quick: spent $said s of device time (said: up to $bound s)"
# sync alone: 1 method at 1 size, the flush evidence (4 points, and a paced
# pair allowed twice the time), 4 writers in files of their own and in
# one (2) and the first point again: 12 points' time of 0.5 s and a
# quarter of that settling, 7.5 s at most; what it spent is not 0.
"$TIERPROBE" sync "sim:$gp3" --methods fdatasync --bs 4K --writers 1,4 \
    --max-time 0.5 --seed 2 --output-format json > "$dir/s.json" \
    2> "$dir/s.err" || fail "sync exited $?"
grep -q "^tierprobe: up to 7.5 s of device time .*(commits 7.5 s)" \
    "$dir/s.err" || fail "sync: cost before: $(cat "$dir/s.err")"
least=$(jq '[.sync.methods[].seconds] | add' "$dir/s.json")
said=$(sed -n 's/^tierprobe: spent \([0-9.]*\) s of device time.*/\1/p' \
    "$dir/s.err")
awk -v s="$said" -v l="$least" 'BEGIN { exit !(s != "" && s >= l && s <= 7.5) }' ||
	fail "sync: spent $said s said, its rows took $least s"

# Progress lines (one per point off a terminal) say what each point is:
# commits per second, never IOPS; the flush points numbered 1 to n in
# turn (those the methods measured are not redone); writers as writers.
grep -Eq '^fdatasync 1/1: size 4 KiB, [0-9,]+ commits/s, ' "$dir/s.err" ||
	fail "sync progress: $(grep '^fdatasync' "$dir/s.err")"
! grep -E '^(fdatasync|flush|writers) ' "$dir/s.err" | grep -q 'IOPS' ||
	fail "sync progress: commits said as IOPS"
awk '/^flush [0-9]+\/[0-9]+:/ { split($2, k, "/"); n++
    if (k[1] + 0 != n || k[2] + 0 != 3) bad = 1 }
    END { exit bad || n != 3 }' "$dir/s.err" ||
	fail "sync progress: flush points $(grep -c '^flush ' "$dir/s.err")"
grep -q '^flush 1/3: plain O_DIRECT write, 4 KiB, [0-9,]* writes/s' \
    "$dir/s.err" && grep -q '^flush 3/3: fdatasync alone, ' "$dir/s.err" ||
	fail "sync progress: the flush points not named"
grep -q '^writers 1/2: 4 writers, a part each, ' "$dir/s.err" &&
    grep -q '^writers 2/2: 4 writers, one shared log, ' "$dir/s.err" ||
	fail "sync progress: $(grep '^writers' "$dir/s.err")"
"$TIERPROBE" sync "sim:$gp3" --methods fdatasync --bs 2300 --writers 1 \
    --max-time 0.5 --seed 2 --output-format json > /dev/null \
    2> "$dir/s2300.err" || fail "sync --bs 2300 exited $?"
grep -q '^fdatasync 1/1: size 2300 B, ' "$dir/s2300.err" ||
	fail "sync progress: 2300 bytes as $(grep '^fdatasync' "$dir/s2300.err")"
# The write sweeps of a run say they write; the read sweeps' lines are
# the read sweeps' points only.
for k in qd_points:iodepth bs_points:block; do
	got=$(grep -Ec "^write ${k#*:}[a-z ]* [0-9]+/" "$dir/gp3q.err")
	want=$(jq ".writes.limits.${k%:*} | length" "$dir/gp3q.json")
	[ "$got" = "$want" ] && [ "$want" -gt 0 ] ||
		fail "run progress: $got write ${k#*:} lines, $want points"
	got=$(grep -Ec "^${k#*:}[a-z ]* [0-9]+/" "$dir/gp3q.err")
	want=$(jq ".limits.${k%:*} | length" "$dir/gp3q.json")
	[ "$got" = "$want" ] ||
		fail "run progress: $got ${k#*:} lines, $want read points"
done

# sync --repeat: three runs (seeds 4, 5, 6), the repeatability table of
# the report's commit figures (commit.rate, commit.p50, commit.p99,
# commit.group_rate of report_headlines), each over the three runs, the
# rates within 10% of each other, all in the state a sync alone leaves
# them (a bucket may still be full).
"$TIERPROBE" sync "sim:$gp3" --repeat 3 --methods fdatasync,dsync --bs 8K \
    --writers 1,4 --max-time 0.5 --seed 4 --quiet --json "$dir/rep.json" \
    > "$dir/rep.txt" || fail "sync --repeat 3 exited $?"
grep -q '^Repeatability (3 runs)$' "$dir/rep.txt" ||
	fail "sync --repeat: no repeatability table"
jq -e '.repeat.runs == 3' "$dir/rep.json" > /dev/null ||
	fail "sync --repeat: $(jq -c .repeat "$dir/rep.json")"
jq -e '[.repeat.figures[] | select(.name | startswith("commit."))] |
    length == 4 and all(.n == 3 and (.mean | type) == "number" and
    .state == "may_be_full") and
    all(select(.name | endswith("rate")) | .cv < 0.1)' "$dir/rep.json" \
    > /dev/null ||
	fail "sync --repeat: not the 4 commit figures over 3 runs, commits/s within 10%: $(jq -c '[.repeat.figures[] | {name, n, cv, state}]' "$dir/rep.json")"

echo "PASS"
