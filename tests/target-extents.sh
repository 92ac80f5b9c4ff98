#!/bin/sh
# Description: test files hold real data.  Holes and unwritten (fallocated)
# extents read as zeros without touching the disk and would fake a cache
# tier: a foreign file with them is refused, one tierprobe created is
# refilled, and a file tierprobe creates has none (FIEMAP via filefrag).
set -u
: "${TIERPROBE:?}"
for c in fallocate filefrag; do
	command -v $c >/dev/null || { echo "skip: $c missing"; exit 77; }
done
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/tp-ext.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
scan() { "$TIERPROBE" scan "$1" --min-ws 8M --max-ws 16M --points 2 \
    --max-time 1 --quiet --output-format json > /dev/null 2> err; }
# Extents that are holes or unwritten within [0, 16 MiB), from filefrag -v.
gaps() {
	filefrag -v "$1" | awk -v end=$((16 << 20)) '
	    /blocks of/ { for (i = 1; i < NF; i++) if ($i == "of") b = $(i + 1) }
	    $1 ~ /^[0-9]+:$/ { s = ($2 + 0) * b
		if (s > pos) gap = 1; if ($0 ~ /unwritten/) gap = 1
		pos = ($3 + 1) * b }
	    END { if (pos < end) gap = 1; print gap + 0 }'
}

# 1. sparse foreign file: refused, untouched.
truncate -s 16M sparse.dat
scan sparse.dat && fail "a sparse foreign file was scanned"
grep -q "unwritten" err || fail "no clear message: $(cat err)"
[ "$(gaps sparse.dat)" = 1 ] || fail "sparse file was written to"

# 2. fallocated (unwritten extents) foreign file: refused.
fallocate -l 16M falloc.dat || { echo "skip: no fallocate here"; exit 77; }
scan falloc.dat && fail "an unwritten foreign file was scanned"
grep -q "unwritten" err || fail "no clear message: $(cat err)"

# 3. tierprobe's own file: created without gaps.
scan own.dat || fail "scan of a new file: $(cat err)"
[ "$(gaps own.dat)" = 0 ] || fail "new test file has holes or unwritten extents"

# 4. a hole punched into tierprobe's file is refilled before measuring.
fallocate --punch-hole -o $((4 << 20)) -l $((1 << 20)) own.dat
[ "$(gaps own.dat)" = 1 ] || { echo "skip: punch-hole not supported"; exit 77; }
scan own.dat || fail "scan after punching a hole: $(cat err)"
[ "$(gaps own.dat)" = 0 ] || fail "the hole was not refilled"
head -c 20 own.dat | grep -q TIERPROBE-TESTFILE || fail "header lost"
echo ok
