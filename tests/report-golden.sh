#!/bin/sh
# Description: the text and markdown renderings of the fixture reports in
# tests/data match their checked-in expected files exactly, no text line is
# over 100 columns, a report survives JSON write -> load -> write unchanged
# and re-renders the same, and compare of two pairs of fixtures matches its
# golden (the second: a bucket that ran dry against one that did not); a
# scan not analysed as a whole shows its tiers, marked, and no backing
# store.  Missing figures are n/a and intervals "LOW to HIGH" throughout;
# a commit row short of the 3,688 commits a p99.9 needs says so.
# Set TP_REGEN=1 to rewrite the expected files (then read them!).
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
data=$TOP_SRCDIR/tests/data
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-golden.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

check() {	# expected-file command...
	exp=$1; shift
	"$@" > "$dir/out" 2> "$dir/err" || { fail "$* exited $?"; cat "$dir/err"; return; }
	if [ "${TP_REGEN:-}" = 1 ]; then
		cp "$dir/out" "$exp"
	elif ! cmp -s "$dir/out" "$exp"; then
		fail "$* differs from $(basename "$exp"):"
		diff -u "$exp" "$dir/out" | head -40
	fi
	[ -s "$dir/err" ] && fail "$* wrote to stderr: $(head -1 "$dir/err")"
}

for f in scan limits held interrupted nulls restored sync unexplained; do
	check "$data/report-$f.txt" "$TIERPROBE" report "$data/report-$f.json"
	check "$data/report-$f.md" "$TIERPROBE" report "$data/report-$f.json" \
	    --output-format markdown
	long=$(awk 'length > 100 { print FILENAME ":" FNR ": " length }' \
	    "$data/report-$f.txt")
	[ -z "$long" ] || fail "lines over 100 columns: $long"
	grep -q '^|' "$data/report-$f.md" || fail "$f.md has no table"

	# Round trip: the rewritten JSON reloads to identical JSON.
	"$TIERPROBE" report "$data/report-$f.json" --output-format json \
	    > "$dir/a.json" || fail "json $f"
	"$TIERPROBE" report "$dir/a.json" --output-format json \
	    > "$dir/b.json" || fail "json a $f"
	cmp -s "$dir/a.json" "$dir/b.json" || {
		fail "$f: JSON changed on a round trip"
		diff -u "$dir/a.json" "$dir/b.json" | head -20
	}
	"$TIERPROBE" report "$dir/a.json" > "$dir/a.txt"
	cmp -s "$dir/a.txt" "$data/report-$f.txt" ||
	    fail "$f: re-rendered text differs after a round trip"
done
# One convention: a figure not known is n/a in a table, an interval is
# "LOW to HIGH" (never "LOW - HIGH" or "+-x%").
for f in "$data"/report-*.txt "$data"/report-*.md; do
	! grep -n '—' "$f" || fail "$(basename "$f"): a missing value as —"
	! grep -nE '95%: [^)]*[0-9A-Za-z] - [0-9]|  [0-9.]+ [KMGT]iB - ' \
	    "$f" || fail "$(basename "$f"): an interval as LOW - HIGH"
	! grep -nE '[0-9]+(\.[0-9]+)?[^ ]* to [^ ]+ .*\+-[0-9.]+%|within [0-9.]+%\)' \
	    "$f" || fail "$(basename "$f"): an interval as a percentage"
done
# A commit row short of the commits a p99.9 needs: n/a, and said why.
jq '.sync.methods[0].commits = 440 | .sync.methods[0].lat_us.p999 = null' \
    "$data/report-sync.json" > "$dir/p999.json" || fail "jq"
"$TIERPROBE" report "$dir/p999.json" > "$dir/p999.txt" || fail "p999 report"
grep -Eq '^  fdatasync +4 KiB .* n/a +[0-9.]+%$' "$dir/p999.txt" &&
    tr -s ' \n' ' ' < "$dir/p999.txt" | grep -q ' - p99.9 needs 3,688 commits at least, [^.]*; the rows with n/a made 440\. ' ||
	fail "a commit row without p99.9: $(grep -A1 'p99.9 needs' "$dir/p999.txt")"
grep -q 'INTERRUPTED' "$data/report-interrupted.txt" ||
    fail "interrupted report does not say so"
if grep -E '(^|[^0-9.,])0 (us|ms)' "$data/report-nulls.txt"; then
	fail "an unknown latency printed as 0"
fi
# Not analysed as a whole: the tier found is shown and marked, the
# backing store is not given; and so for a simulated scan left short of
# points past its second cache, whatever its analysis finds.
grep -Eq '^  1 +116 MiB .* holds$' "$data/report-unexplained.txt" ||
    fail "the unexplained report hides its tier or does not mark it"
grep -Eq '^  backing +not analysed$' "$data/report-unexplained.txt" ||
    fail "the unexplained report gives the backing store as analysed"
"$TIERPROBE" scan "sim:$data/tiers-hier-shapes.ini" --points 5 \
    --min-ws 32M --max-ws 1500M --budget 5 --seed 1 --quiet \
    --json "$dir/p.json" > "$dir/p.txt" || fail "provisional scan exited $?"
n=$(jq '.scan.provisional_tiers | length' "$dir/p.json")
if jq -e '.scan.analysed' "$dir/p.json" >/dev/null; then
	echo "note: the short scan was analysed; provisional case not run"
elif [ "$n" -gt 0 ]; then
	rows=$(grep -Ec '^  [1-4] .*(holds|in doubt)$' "$dir/p.txt")
	[ "$rows" = "$n" ] ||
	    fail "$n tiers in the JSON, $rows marked in the text"
	grep -q 'Found so far, provisional' "$dir/p.txt" ||
	    fail "a not-analysed scan's tiers are not said provisional"
fi
check "$data/compare-scan.txt" "$TIERPROBE" compare \
    "$data/report-scan.json" "$data/report-scan-b.json"
check "$data/compare-limits.txt" "$TIERPROBE" compare \
    "$data/report-limits.json" "$data/report-held.json"

[ $fails = 0 ] || exit 1
echo "golden renderings match"
