#!/bin/sh
# Description: check and fleet as a pipeline runs them, over a directory of
# reports made by real runs on simulated volumes: good ones, one that
# misses its expectations, one interrupted by SIGINT, a truncated file, a
# JSON file that is no report, one without expectations, a byte-identical
# copy.  check judges every file and exits with the worst status (3 over 2
# over 0), one line per file skipped and per expectation missed or
# unknown, naming host and file, and a summary; --quiet prints only those;
# an interrupted report never passes on a phase it did not finish.  fleet
# takes copies for duplicates, a simulated volume's kind from its
# profile's name, says what it could not compare, fails on an outlier with
# --fail-on-outlier, names CSV columns with their units, and prints paths
# without doubled slashes.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
command -v timeout >/dev/null || { echo "skip: timeout missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-pipeline.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Copies of the gp3 profile under host names, [device] name kept: one
# kind.  db04 delivers half the IOPS.
mkdir "$dir/profiles" "$dir/good" "$dir/all"
for h in db01 db02 db03 db04; do
	cp "$TOP_SRCDIR/profiles/ebs-gp3.ini" "$dir/profiles/$h.ini"
done
sed -i 's/^iops = 3000/iops = 1500/' "$dir/profiles/db04.ini"
probe() {	# host, seed, then more options
	h=$1 s=$2
	shift 2
	"$TIERPROBE" run "sim:$dir/profiles/$h.ini" --seed "$s" --quiet \
	    --host "$h" --max-ws 256M --points 4 --sustain 10 \
	    --expect 'iops>=2700' --expect 'p99<=2ms' --accept-burst "$@"
}
for h in db01 db02 db03; do
	probe $h ${h#db0} --json "$dir/good/$h.json" > /dev/null ||
	    fail "$h exited $?"
done
probe db04 4 --json "$dir/all/db04.json" > /dev/null
[ $? = 3 ] || fail "db04 (half the IOPS) did not exit 3"
cp "$dir/good/"*.json "$dir/all/"

# check of the good ones, the directory named with a trailing slash.
"$TIERPROBE" check "$dir/good/" > "$dir/out" 2> "$dir/err" ||
    fail "check of good reports exited $?: $(cat "$dir/err")"
[ "$(grep -c ': .* on db0' "$dir/out")" = 3 ] ||
    fail "check of a directory did not judge its 3 reports"
grep -q '//' "$dir/out" && fail "doubled slashes: $(grep // "$dir/out")"
"$TIERPROBE" check --quiet "$dir/good" > "$dir/out" ||
    fail "check --quiet of good reports exited $?"
[ "$(wc -l < "$dir/out")" = 1 ] &&
    grep -q '^3 reports: 3 passed, 0 missed, 0 unknown, 0 skipped; 6 ' \
    "$dir/out" || fail "check --quiet when all met: $(cat "$dir/out")"

# A report interrupted during its sustained run (limits), before commits.
# --foreground: the signal goes to tierprobe once (without it, timeout
# also signals its process group, and a second SIGINT exits at once).
timeout --foreground -s INT 2 "$TIERPROBE" run \
    "sim:$dir/profiles/db01.ini" --seed 5 --quiet --host db05 \
    --max-ws 256M --points 4 --sustain 100000 \
    --expect 'iops>=2700' --expect 'p99<=2ms' --expect 'commit.p99<=1s' \
    --json "$dir/all/db05.json" > /dev/null 2>&1
[ -s "$dir/all/db05.json" ] &&
    jq -e '.interrupted and .limits.interrupted and .sync == null and
    (.scan.interrupted | not)' "$dir/all/db05.json" > /dev/null ||
    fail "db05.json is not a run interrupted in its limits phase"

# Bad files among them.
head -c 300 "$dir/good/db01.json" > "$dir/all/truncated.json"
echo '{"hello": 1}' > "$dir/all/other.json"
"$TIERPROBE" run "sim:$dir/profiles/db01.ini" --seed 6 --quiet --host db06 \
    --max-ws 256M --points 4 --sustain 10 --json "$dir/all/noexp.json" \
    > /dev/null || fail "db06 exited $?"
cp "$dir/good/db02.json" "$dir/all/db02-copy.json"

# check of them all: every file judged, the worst status, a line each.
"$TIERPROBE" check "$dir/all" > "$dir/out" 2> "$dir/err"
rc=$?
[ $rc = 3 ] || fail "check of good, missed, interrupted and bad: exit $rc"
d5="$dir/all/db05.json"
for want in "^  MISSED db04 $dir/all/db04.json: iops>=2700: IOPS ceiling" \
    "^  INTERRUPTED db05 $d5: a partial report" \
    "^  UNKNOWN db05 $d5: iops>=2700: the run was interrupted during its" \
    "^  UNKNOWN db05 $d5: commit.p99<=1s: the run was interrupted before its" \
    "^  SKIPPED - $dir/all/truncated.json: line " \
    "^  SKIPPED - $dir/all/other.json: schema_version: missing" \
    "^  SKIPPED - $dir/all/noexp.json: records no expectations" \
    "^  9 reports: 4 passed, 1 missed, 1 unknown, 3 skipped; 1 of the 6 judged interrupted (a partial report); "; do
	grep -q -- "$want" "$dir/out" || fail "check lacks \"$want\""
done
for f in db01 db02 db02-copy db03 db04 db05; do
	grep -q "^$dir/all/$f.json: " "$dir/out" ||
	    fail "check did not judge $f.json"
done
grep -q "INTERRUPTED during its limits phase" "$dir/out" ||
    fail "the interrupted report's heading does not say so"
grep -q "no sync section" "$dir/out" &&
    fail "an interrupted run's commits blamed on a missing sync section"
[ "$(grep -c '^tierprobe: skipped ' "$dir/err")" = 3 ] ||
    fail "stderr does not name the 3 skipped files: $(cat "$dir/err")"
grep -q '//' "$dir/out" && fail "doubled slashes in check"
"$TIERPROBE" check --quiet "$dir/all" > "$dir/quiet" 2> /dev/null
[ $? = 3 ] || fail "check --quiet: not exit 3"
sed -n '/^Summary$/,$p' "$dir/out" | sed -e 1d -e 's/^  //' > "$dir/want"
diff "$dir/want" "$dir/quiet" > /dev/null ||
    fail "check --quiet is not the summary: $(diff "$dir/want" "$dir/quiet")"

# The worst status: skipped files alone give 2, with a miss 3.
"$TIERPROBE" check "$dir/good" "$dir/all/truncated.json" \
    > /dev/null 2>&1
[ $? = 2 ] || fail "good reports and a truncated one: not exit 2"
"$TIERPROBE" check "$dir/all/truncated.json" "$dir/all/db04.json" \
    "$dir/good" > "$dir/out" 2>&1
[ $? = 3 ] || fail "a miss and a truncated file: not exit 3"
grep -q "^$dir/good/db03.json: " "$dir/out" ||
    fail "a bad file stopped check before the others"
"$TIERPROBE" check "$dir/all" --output-format json > "$dir/check.json" \
    2> /dev/null
[ -s "$dir/check.json" ] &&
    jq -e '(.skipped | length) == 3 and (.checks | length) == 6 and
    ([.checks[] | select(.interrupted) | .host] == ["db05"]) and
    .missed == 1 and .unknown == 2' "$dir/check.json" > /dev/null ||
    fail "check JSON: $(jq -c '{skipped, missed, unknown}' \
    "$dir/check.json")"
"$TIERPROBE" check --expect 'iopz>=1' "$dir/good" > /dev/null 2> "$dir/err"
[ $? = 2 ] && [ "$(wc -l < "$dir/err")" = 1 ] ||
    fail "a malformed --expect: not one line and exit 2"

# fleet: the copy is a duplicate, the slow volume an outlier of its kind
# (the profile's name), --fail-on-outlier fails on it.
rm "$dir/all/truncated.json" "$dir/all/other.json"
"$TIERPROBE" fleet "$dir/all/" > "$dir/out" 2> "$dir/err"
[ $? = 1 ] || fail "fleet with a duplicate: not exit 1"
grep -q "db02.json: a duplicate of $dir/all/db02-copy.json: the same run" \
    "$dir/out" || fail "the copy is not called a duplicate"
grep -q "older than" "$dir/out" && fail "a copy called older than another"
grep OUTLIER "$dir/out" | grep -q "^ *db04 " ||
    fail "fleet does not flag db04: $(cat "$dir/out")"
grep -q '//' "$dir/out" "$dir/err" && fail "doubled slashes in fleet"
"$TIERPROBE" fleet --fail-on-outlier "$dir/all" > /dev/null 2>&1
[ $? = 3 ] || fail "--fail-on-outlier with an outlier: not exit 3"
"$TIERPROBE" fleet --fail-on-outlier "$dir/good" > /dev/null 2>&1 ||
    fail "--fail-on-outlier without one exited $?"
"$TIERPROBE" fleet "$dir/good" --output-format json > "$dir/fleet.json"
[ -s "$dir/fleet.json" ] &&
    jq -e '[.fleet.volumes[].kind] == ["ebs-gp3", "ebs-gp3", "ebs-gp3"] and
    .fleet.volumes[0].kind_source == "sim profile"' "$dir/fleet.json" \
    > /dev/null || fail "kinds are not the profile's name"
"$TIERPROBE" fleet "$dir/good" --output-format csv | head -1 |
    grep -q ',p50_us,p99_us,iops,bandwidth_bytes_per_s,' ||
    fail "CSV header without units"

# Kinds too small to compare, and nothing compared at all: said.
mkdir "$dir/kinds"
for h in db01 db02 db03; do
	jq ".labels.kind = \"k-$h\"" "$dir/good/$h.json" > "$dir/kinds/$h.json"
done
"$TIERPROBE" fleet "$dir/kinds" > "$dir/out" 2> "$dir/err" ||
    fail "fleet of 3 kinds exited $?"
grep -q "nothing compared" "$dir/out" && grep -q "nothing compared" \
    "$dir/err" || fail "a fleet comparing nothing does not say so"
grep -q "^  - none" "$dir/out" && fail "\"none\" where nothing was compared"
jq '.labels.kind = "k-db01"' "$dir/good/db02.json" > "$dir/kinds/db02.json"
jq '.labels.kind = "k-db01"' "$dir/all/db04.json" > "$dir/kinds/db04.json"
"$TIERPROBE" fleet "$dir/kinds" > "$dir/out" 2> "$dir/err"
grep -q "kind k-db03: 1 volume, too few to compare (3 needed)" \
    "$dir/err" || fail "no warning of a kind too small: $(cat "$dir/err")"
grep -q "k-db01: .* too few" "$dir/err" &&
    fail "a kind of 3 called too small"
exit 0
