#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: tierprobe never writes to a file it did not create.  Write
# modes, prep, sync and a scan past its end refuse a foreign file (its
# checksum does not change) and say how to get a test file, never to
# --force it; a read-only scan of it is fine; files tierprobe created under
# a name the user gave are kept, the default ./tierprobe.dat is removed
# after run unless --keep.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
need sha256sum

quick="--min-ws 16M --max-ws 32M --points 2 --max-time 0.1 --quiet"
lquick="--ws 16M --max-iodepth 2 --sustain 0.5 --max-time 0.1 --quiet"
f=$t_dir/foreign.dat
dd if=/dev/urandom of="$f" bs=1M count=32 status=none || fail "dd"
sum=$(sha256sum <"$f")
unchanged() {
	[ "$(sha256sum <"$f")" = "$sum" ] || fail "$1 changed the foreign file"
}

# Each refusal says how to get a test file, and never to force it.
advice() {
	grep -q -- --force "$t_dir/err" &&
	    fail "$1: suggests --force for a foreign file: $(cat "$t_dir/err")"
	grep -q "tierprobe prep" "$t_dir/err" ||
	    fail "$1: refusal does not say what to do: $(cat "$t_dir/err")"
}
# shellcheck disable=SC2086
"$TIERPROBE" limits "$f" --rw write $lquick >/dev/null 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$f"
advice "limits --rw write"
unchanged "limits --rw write"

"$TIERPROBE" prep "$f" --size 32M --quiet 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$f"
advice "prep"
unchanged "prep"
"$TIERPROBE" prep "$f" --size 48M --quiet 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$f"
advice "prep (grow)"
unchanged "prep (grow)"
# shellcheck disable=SC2086
"$TIERPROBE" scan "$f" $quick --max-ws 64M >/dev/null 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$f"
advice "scan past its end"
unchanged "scan past its end"
[ "$(stat -c %s "$f")" = 33554432 ] || fail "prep changed the size"
"$TIERPROBE" sync "$f" --methods fdatasync --writers 1,2 --max-time 0.1 \
    --quiet >/dev/null 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$f"
advice "sync"
unchanged "sync"
[ ! -e "$f.w1" ] || fail "sync made a writer's file beside a foreign file"

# Reading is allowed, and reads only.
# shellcheck disable=SC2086
"$TIERPROBE" scan "$f" $quick >/dev/null 2>"$t_dir/err" ||
    fail "read-only scan of a foreign file: $(cat "$t_dir/err")"
unchanged "scan"

# A file prep created is ours: writes are allowed, and it stays.
m=$t_dir/mine.dat
"$TIERPROBE" prep "$m" --size 32M --quiet || fail "prep of a new file"
head -c 20 "$m" | grep -q TIERPROBE-TESTFILE-1 || fail "no header block"
# shellcheck disable=SC2086
"$TIERPROBE" limits "$m" --rw write $lquick >/dev/null 2>"$t_dir/err" ||
    fail "write limits on our own file: $(cat "$t_dir/err")"
[ -f "$m" ] || fail "limits removed a file the user named"
head -c 20 "$m" | grep -q TIERPROBE-TESTFILE-1 || fail "header overwritten"

# A file scan creates under the user's name stays after the run.
n=$t_dir/named.dat
# shellcheck disable=SC2086
"$TIERPROBE" scan "$n" $quick >/dev/null 2>"$t_dir/err" ||
    fail "scan of a new named file: $(cat "$t_dir/err")"
[ -f "$n" ] || fail "scan removed the test file the user named"

# run without TARGET: ./tierprobe.dat goes away, unless --keep.
mkdir "$t_dir/cwd"
# shellcheck disable=SC2086
(cd "$t_dir/cwd" && "$TIERPROBE" run $quick $lquick >/dev/null 2>"$t_dir/err") ||
    fail "run without TARGET: $(cat "$t_dir/err")"
[ ! -e "$t_dir/cwd/tierprobe.dat" ] || fail "./tierprobe.dat left behind"
# shellcheck disable=SC2086
(cd "$t_dir/cwd" && "$TIERPROBE" run --keep $quick $lquick >/dev/null 2>&1) ||
    fail "run --keep"
[ -f "$t_dir/cwd/tierprobe.dat" ] || fail "--keep did not keep tierprobe.dat"
echo "ok"
