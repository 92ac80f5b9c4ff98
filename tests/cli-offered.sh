#!/bin/sh
# Description: what --help and the man page offer works, and nothing else
# is offered (issue 33 item 7), on simulated reports: compare
# --output-format json; a directory given to compare named as one;
# --fio-job to a device node refused before anything runs; a file named
# twice read once by fleet; kinds of fewer than 3 volumes not shown as
# compared (n/a, null, empty); the fio export of a simulated volume sizes
# no job (fio sizes it to the file named); "did you mean" for a misspelt
# command, profile, instance or type; and, as root where a tmpfs can be
# mounted, a run of a test file on a read-only mount measures its reads.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-offered.XXXXXX") || exit 1
mnt=""
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir "$dir/r"
for h in a b; do
	"$TIERPROBE" limits sim:gp2:100G --seed 1 --sustain 10 --host "$h" \
	    --kind gp2 --quiet --json "$dir/r/$h.json" > /dev/null ||
	    fail "limits $h exited $?"
done

# compare --output-format json: one document, a value and ratio per report.
"$TIERPROBE" compare "$dir/r/a.json" "$dir/r/b.json" --output-format json \
    > "$dir/cmp.json" 2> "$dir/err" || fail "compare json: $(cat "$dir/err")"
jq -e '.command == "compare" and (.compare.reports | length) == 2 and
    .compare.reports[1].file == $f and
    (.compare.figures | map(select(.figure == "limits.iops_ceiling")) |
    length) == 1 and (.compare.figures[] |
    select(.figure == "limits.iops_ceiling") | .values[0].value > 2000 and
    .values[0].ratio_to_first == null and
    (.values[1].ratio_to_first | . > 0.9 and . < 1.1) and
    (.values[1].mark | type) == "string")' --arg f "$dir/r/b.json" \
    "$dir/cmp.json" > /dev/null || fail "compare json: $(head -c 600 "$dir/cmp.json")"

# A directory given to compare is named as one.
"$TIERPROBE" compare "$dir/r/a.json" "$dir/r/" > /dev/null 2> "$dir/err"
rc=$?
[ $rc = 2 ] && grep -q "is a directory; accepted: a JSON report" "$dir/err" &&
    ! grep -q "not a JSON report" "$dir/err" ||
    fail "compare DIR: exit $rc, $(cat "$dir/err")"

# --fio-job to a device node: refused (doc/safety.md), nothing written.
for cmd in "report $dir/r/a.json" "limits sim:gp2:100G --sustain 1"; do
	# shellcheck disable=SC2086
	"$TIERPROBE" $cmd --fio-job /dev/null > /dev/null 2> "$dir/err"
	rc=$?
	[ $rc = 2 ] && grep -q -- "--fio-job /dev/null: is a device node" \
	    "$dir/err" || fail "$cmd --fio-job /dev/null: exit $rc, $(cat "$dir/err")"
done

# One file named twice (and once more through its directory): read once.
"$TIERPROBE" fleet "$dir/r/a.json" "$dir/r/a.json" "$dir/r" \
    --output-format json > "$dir/fleet.json" 2> "$dir/err"
rc=$?
[ $rc = 0 ] && [ "$(jq '.fleet.volumes | length' "$dir/fleet.json")" = 2 ] &&
    grep -q "the same file as $dir/r/a.json: read once" "$dir/err" ||
    fail "fleet of a file named twice: exit $rc, $(cat "$dir/err")"

# A kind of 2 volumes is not compared: no ratio, no outlier verdict.
jq -e '[.fleet.volumes[] | .outlier == null and
    (.ratio_to_median | to_entries | all(.value == null))] | all' \
    "$dir/fleet.json" > /dev/null ||
    fail "fleet JSON of 2 volumes: $(jq -c '.fleet.volumes[] |
    [.outlier, .ratio_to_median]' "$dir/fleet.json")"
"$TIERPROBE" fleet "$dir/r" > "$dir/fleet.txt" 2> /dev/null
grep -q "1\.00" "$dir/fleet.txt" &&
    fail "fleet text of 2 volumes shows a ratio: $(cat "$dir/fleet.txt")"
"$TIERPROBE" fleet "$dir/r" --output-format csv > "$dir/fleet.csv" 2> /dev/null
col=$(head -1 "$dir/fleet.csv" | tr ',' '\n' | grep -n '^outlier$' | cut -d: -f1)
[ -n "$col" ] && [ "$(tail -n +2 "$dir/fleet.csv" | cut -d, -f"$col" |
    sort -u)" = "" ] || fail "fleet CSV of 2 volumes: outlier column not empty"

# The fio export of a simulated volume: no job sized (100 GiB before).
"$TIERPROBE" report "$dir/r/a.json" --fio-job "$dir/a.fio" > /dev/null ||
    fail "report --fio-job of a sim report"
grep -q '^size=' "$dir/a.fio" && fail "sim fio export sizes a job: $(grep \
    '^size=' "$dir/a.fio" | head -2)"
grep -q '^; size=' "$dir/a.fio" || fail "sim fio export: sizes not said"
if command -v fio >/dev/null; then
	fio --parse-only "$dir/a.fio" > /dev/null 2>&1 ||
	    fail "fio refuses the sim export"
fi

# Did you mean: commands, profiles, instances, types; one line each.
for c in "scna x|did you mean scan?" \
    "scan sim:ebs-gp33|did you mean ebs-gp3?" \
    "scan sim:ebs-gp3@m5.larg|did you mean m5.large?" \
    "scan sim:gp33:100G|did you mean gp3?" \
    "check $dir/r/a.json --expect-profile ebs-gp2-10g|did you mean ebs-gp2-100g?"; do
	args=${c%%|*} want=${c#*|}
	# shellcheck disable=SC2086
	"$TIERPROBE" $args > /dev/null 2> "$dir/err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l < "$dir/err")" = 1 ] &&
	    grep -q -- "$want" "$dir/err" ||
	    fail "$args: exit $rc, $(cat "$dir/err") (wanted $want)"
done

# A test file on a read-only mount: run reads it (doc/safety.md).
if [ "$(id -u)" = 0 ] && mkdir "$dir/ro" &&
    mount -t tmpfs -o size=128m tmpfs "$dir/ro" 2>/dev/null; then
	mnt=$dir/ro
	"$TIERPROBE" prep "$mnt/t.dat" --size 32M --quiet || fail "prep"
	mount -o remount,ro "$mnt" || fail "remount ro"
	"$TIERPROBE" run "$mnt/t.dat" --min-ws 16M --max-ws 16M --points 1 \
	    --sustain 1 --max-time 0.2 --max-iodepth 2 --quiet \
	    --json "$dir/ro.json" > /dev/null 2> "$dir/err"
	rc=$?
	[ $rc = 0 ] && jq -e '.scan != null and .limits != null and
	    .sync == null and .writes == null' "$dir/ro.json" > /dev/null ||
	    fail "run on a read-only mount: exit $rc, $(cat "$dir/err")"
else
	echo "note: not root or no tmpfs mount: read-only run not tried"
fi
exit 0
