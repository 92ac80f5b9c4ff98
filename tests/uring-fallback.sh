#!/bin/sh
# Description: when the kernel refuses io_uring (kernel.io_uring_disabled=2
# makes io_uring_setup fail with EPERM, as seccomp does), a scan falls back
# to psync with a one-line notice and still measures.  Needs root and a
# kernel with that sysctl; the setting is restored on every exit.
set -u
: "${TIERPROBE:?}"
knob=/proc/sys/kernel/io_uring_disabled
[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 77; }
[ -w "$knob" ] || { echo "skip: no $knob"; exit 77; }
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/tp-fb.XXXXXX") || exit 1
old=$(cat "$knob")
trap 'echo "$old" > "$knob"; rm -rf "$dir"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

"$TIERPROBE" prep "$dir/t.dat" --size 16M --quiet || fail "prep"
echo 2 > "$knob"
"$TIERPROBE" scan "$dir/t.dat" --min-ws 16M --max-ws 16M --max-time 1 -q \
    --output-format json > "$dir/r.json" 2> "$dir/err"
rc=$?
echo "$old" > "$knob"
[ $rc = 0 ] || fail "scan exited $rc: $(cat "$dir/err")"
grep -q "io_uring unavailable.*psync" "$dir/err" ||
    fail "no notice: $(cat "$dir/err")"
[ "$(grep -c . "$dir/err")" = 1 ] || fail "more than one line: $(cat "$dir/err")"
[ "$(jq -r .target.engine "$dir/r.json")" = psync ] || fail "engine not psync"
jq -e '.scan.points[0].ios > 0' "$dir/r.json" >/dev/null || fail "no I/O"
echo ok
