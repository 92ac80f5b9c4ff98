#!/bin/sh
# Description: the ceilings of a real file on this machine's disk (io_uring,
# O_DIRECT), checked for what holds on any disk, slow or fast: no ceiling
# below a point of its sweep by more than twice that point's 95% error, an
# interval that holds every point; where no cap showed (still rising, or
# tierprobe's CPU or queue the limit), the most seen as a lower bound
# ("at least" in the text, the reason said); and each sweep says in words
# why it stopped.
set -u
: "${TIERPROBE:?}"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/tp-limreal.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$TIERPROBE" limits "$dir/t.dat" --ws 256M --max-iodepth 64 --max-time 1 \
    --sustain 2 --seed 3 --quiet --json "$dir/r.json" > "$dir/out.txt" \
    2> "$dir/err"
rc=$?
if [ $rc != 0 ] && grep -q "O_DIRECT" "$dir/err"; then
	echo "skip: no O_DIRECT here"; exit 77
fi
[ $rc = 0 ] || fail "limits exited $rc: $(cat "$dir/err")"

# ceiling key, its _at_least, _low, _high keys, the points' rate, sweep.
check() {
	jq -e --arg c "$1" --arg al "$2" --arg lo "$3" --arg hi "$4" \
	    --arg y "$5" --arg pts "$6" '.limits as $l | $l[$pts] as $p |
	    ($p | length) > 0 and
	    ([$p[][$y]] | max) as $top |
	    if $l[$al] then
		$l[$c] == $top and $l[$hi] == null and $l[$lo] <= $l[$c]
	    else
		$l[$lo] <= $l[$c] and $l[$c] <= $l[$hi] and
		all($p[]; $l[$c] >= .[$y] * (1 - 2 * (.ci95_rel // 0)) and
		    $l[$hi] >= .[$y])
	    end' "$dir/r.json" > /dev/null ||
	    fail "$1 against its points: $(jq -c --arg c "$1" --arg lo "$3" \
	    --arg hi "$4" --arg y "$5" --arg pts "$6" '.limits |
	    [.[$c], .[$lo], .[$hi], [.[$pts][] | [.[$y], .ci95_rel]]]' \
	    "$dir/r.json")"
}
check iops_ceiling iops_ceiling_at_least iops_ceiling_low iops_ceiling_high \
    iops qd_points
check bandwidth_ceiling_bytes_per_s bandwidth_ceiling_at_least \
    bandwidth_ceiling_low_bytes_per_s bandwidth_ceiling_high_bytes_per_s \
    bytes_per_s bs_points

jq -e '.limits | (.iodepth_sweep_stop | IN("flat", "edge", "engine")) and
    (.bs_sweep_stop | IN("flat", "edge", "target"))' "$dir/r.json" \
    > /dev/null || fail "sweeps stopped for no said reason: $(jq -c \
    '.limits | [.iodepth_sweep_stop, .bs_sweep_stop]' "$dir/r.json")"
grep -q "^  depth sweep  .*, stopped: " "$dir/out.txt" ||
    fail "the text does not say why the depth sweep stopped"
grep -q "^  size sweep  .*, stopped: " "$dir/out.txt" ||
    fail "the text does not say why the size sweep stopped"
if jq -e .limits.iops_ceiling_at_least "$dir/r.json" > /dev/null; then
	grep -q "^  IOPS ceiling  *at least .*: " "$dir/out.txt" ||
	    fail "a lower bound without \"at least\" and why"
else
	grep -q "^  IOPS ceiling  .* IOPS (95%: .*), reached at iodepth" \
	    "$dir/out.txt" || fail "a ceiling without its interval"
fi
echo "ok: $(grep '^  IOPS ceiling' "$dir/out.txt" | tr -s ' ')"
