#!/bin/sh
# Description: reading a report takes memory a small multiple of its size
# (issue 33: a 200 MB report took 4.6 GB to print).  Two large reports
# made from simulated runs: a sustained run's timeline of 200,000 seconds
# (~25 MB) and a scan of 3,000 points with their histograms (~30 MB).
# report (text), fleet and check each read them within 3 times the file's
# size above what they take for a small report: peak RSS as the kernel
# counts it (GNU time), not speed.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
[ -z "${TIERPROBE_SANITIZED:-}" ] && [ -x /usr/bin/time ] ||
    { echo "skip: no GNU time, or under ASan"; exit 77; }
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-rmem.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$TIERPROBE" limits sim:gp2:100G --seed 1 --sustain 10 --quiet \
    --json "$dir/small.json" > /dev/null || fail "limits exited $?"
"$TIERPROBE" scan sim:gp2:100G --seed 1 --points 4 --max-ws 1G --quiet \
    --json "$dir/scan.json" > /dev/null || fail "scan exited $?"
jq '.limits.timeline as $t | .limits.timeline = [range(200000) as $i |
    $t[$i % ($t | length)] | .t_s = $i]' "$dir/small.json" \
    > "$dir/timeline.json" || fail "jq timeline"
jq '.scan.points as $p | .scan.points = [range(3000) as $i |
    $p[$i % ($p | length)]]' "$dir/scan.json" > "$dir/points.json" ||
    fail "jq points"

# Peak RSS in KiB of tierprobe with these arguments.
rss() {
	/usr/bin/time -o "$dir/time" -f %M "$TIERPROBE" "$@" > /dev/null \
	    2> "$dir/err"
	rc=$?
	[ $rc -le 3 ] || fail "$* exited $rc: $(cat "$dir/err")"
	tail -n 1 "$dir/time"
}

for f in timeline points; do
	size=$(($(wc -c < "$dir/$f.json") / 1024))
	[ "$size" -ge 20000 ] || fail "$f.json is only $size KiB"
	for cmd in report fleet check; do
		set -- --expect 'iops>=1'
		[ $cmd = report ] && set --
		base=$(rss $cmd "$dir/small.json" "$@")
		peak=$(rss $cmd "$dir/$f.json" "$@")
		echo "$cmd $f.json ($size KiB): peak $peak KiB, $base KiB" \
		    "for a small report"
		[ $((peak - base)) -le $((3 * size)) ] ||
		    fail "$cmd $f.json: $((peak - base)) KiB above the small" \
		    "report's for $size KiB of report (more than 3 times)"
	done
done
exit 0
