#!/bin/sh
# Description: when the kernel refuses io_uring (io_uring_setup fails with
# EPERM, as under seccomp), a scan falls back to psync with a one-line
# notice and still measures.  A buffered scan through io_uring warns on
# stderr and carries scan.caveat in its report (text and JSON); one that
# falls back to psync does not.  The refusal: kernel.io_uring_disabled=1,
# which refuses io_uring to processes without CAP_SYS_ADMIN outside
# kernel.io_uring_group, and the scans run as nobody; not 2, which would
# refuse it to every test running beside this one, root's too.  Needs
# root, setpriv and a kernel with that sysctl; it is restored on every
# exit.
set -u
: "${TIERPROBE:?}"
knob=/proc/sys/kernel/io_uring_disabled
[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 77; }
[ -w "$knob" ] || { echo "skip: no $knob"; exit 77; }
command -v setpriv >/dev/null || { echo "skip: setpriv missing"; exit 77; }
[ "$(cat /proc/sys/kernel/io_uring_group 2>/dev/null)" != 65534 ] ||
    { echo "skip: nogroup may use io_uring (kernel.io_uring_group)"; exit 77; }
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/tp-fb.XXXXXX") || exit 1
old=$(cat "$knob")
trap 'echo "$old" > "$knob"; rm -rf "$dir"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

"$TIERPROBE" prep "$dir/t.dat" --size 16M --quiet || fail "prep"
buffered="--buffered --engine io_uring --min-ws 4M --max-ws 4M --max-time 0.5"
"$TIERPROBE" scan "$dir/t.dat" $buffered -q --json "$dir/b.json" \
    > "$dir/b.txt" 2> "$dir/err" || fail "buffered io_uring scan"
grep -q "warning:.*io_uring.*worker thread" "$dir/err" ||
    fail "no warning on stderr: $(cat "$dir/err")"
[ "$(jq -r .target.engine "$dir/b.json")" = io_uring ] ||
    fail "the buffered scan did not read by io_uring"
jq -e '.scan.caveat | test("io_uring")' "$dir/b.json" >/dev/null ||
    fail "no scan.caveat in the JSON report"
grep -q "caveat.*io_uring" "$dir/b.txt" || fail "no caveat in the text report"

chmod 777 "$dir" || fail "chmod"
nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
echo 1 > "$knob"
nobody "$TIERPROBE" scan "$dir/t.dat" --min-ws 16M --max-ws 16M \
    --max-time 1 -q --output-format json > "$dir/r.json" 2> "$dir/err"
rc=$?
nobody "$TIERPROBE" scan "$dir/t.dat" $buffered -q --json "$dir/f.json" \
    > /dev/null 2> "$dir/ferr"
frc=$?
echo "$old" > "$knob"
[ $rc = 0 ] || fail "scan exited $rc: $(cat "$dir/err")"
grep -q "io_uring unavailable.*psync" "$dir/err" ||
    fail "no notice: $(cat "$dir/err")"
[ "$(grep -c . "$dir/err")" = 1 ] || fail "more than one line: $(cat "$dir/err")"
[ "$(jq -r .target.engine "$dir/r.json")" = psync ] || fail "engine not psync"
jq -e '.scan.points[0].ios > 0' "$dir/r.json" >/dev/null || fail "no I/O"
[ $frc = 0 ] || fail "buffered scan exited $frc: $(cat "$dir/ferr")"
[ "$(jq -r .target.engine "$dir/f.json")" = psync ] ||
    fail "buffered scan: engine not psync"
jq -e '.scan.caveat == null' "$dir/f.json" >/dev/null ||
    fail "a scan read by pread carries the io_uring caveat"
echo ok
