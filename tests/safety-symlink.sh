#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: tierprobe never writes through a symlink.  A link named as
# a write target (even with --force) is refused with one line naming where
# it points, and the file behind it keeps its checksum; a dangling link is
# never created through; reading through a link is allowed; a file
# tierprobe creates in a symlinked directory lands in the real one.  Before
# it writes to a file it did not create (--force), one line names the real
# file, its size and what will be overwritten, whatever --quiet.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
need sha256sum

lquick="--ws 16M --max-iodepth 2 --sustain 0.5 --max-time 0.1 --quiet"
quick="--min-ws 16M --max-ws 32M --points 2 --max-time 0.1 --quiet"

# A "system" file and a link to it.
sys=$t_dir/system.conf
dd if=/dev/urandom of="$sys" bs=4096 count=1 status=none || fail "dd"
sum=$(sha256sum <"$sys")
ln -s "$sys" "$t_dir/link"
unchanged() {
	[ "$(sha256sum <"$sys")" = "$sum" ] ||
	    fail "$1 wrote through the link to the system file"
	[ "$(t_size "$sys")" = 4096 ] || fail "$1 changed its size"
}
# shellcheck disable=SC2086
"$TIERPROBE" limits "$t_dir/link" --rw write --force $lquick >/dev/null \
    2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$sys"
grep -q "symbolic link" "$t_dir/err" || fail "does not say why: $(cat "$t_dir/err")"
unchanged "limits --rw write --force"
"$TIERPROBE" prep "$t_dir/link" --size 32M --force --quiet 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$sys"
unchanged "prep --force"
"$TIERPROBE" sync "$t_dir/link" --force --methods fdatasync --writers 1 \
    --max-time 0.1 --quiet >/dev/null 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$sys"
unchanged "sync --force"
# A read that would have to grow it: refused, not grown.
# shellcheck disable=SC2086
"$TIERPROBE" scan "$t_dir/link" --force $quick >/dev/null 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$sys"
unchanged "scan --force past its end"
# Several targets: the link among them stops the run before any write.
m=$t_dir/mine.dat
"$TIERPROBE" prep "$m" --size 16M --quiet || fail "prep of a new file"
msum=$(sha256sum <"$m")
# shellcheck disable=SC2086
"$TIERPROBE" limits "$m" "$t_dir/link" --rw write --force $lquick \
    >/dev/null 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$sys"
unchanged "limits of two targets"

# A link to a test file of tierprobe's: read through it, never written.
ln -s "$m" "$t_dir/mylink"
# shellcheck disable=SC2086
"$TIERPROBE" limits "$t_dir/mylink" --rw write $lquick >/dev/null \
    2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$m"
# shellcheck disable=SC2086
"$TIERPROBE" scan "$t_dir/mylink" --min-ws 4M --max-ws 16M --points 2 \
    --max-time 0.1 --quiet >/dev/null 2>"$t_dir/err" ||
    fail "a read through a link: $(cat "$t_dir/err")"
[ "$(sha256sum <"$m")" = "$msum" ] || fail "writes through a link to a test file"

# A dangling link: nothing is created where it points.
ln -s "$t_dir/nowhere" "$t_dir/dangling"
# shellcheck disable=SC2086
"$TIERPROBE" scan "$t_dir/dangling" $quick >/dev/null 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$t_dir/nowhere"
"$TIERPROBE" prep "$t_dir/dangling" --size 16M --quiet 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$t_dir/nowhere"
[ ! -e "$t_dir/nowhere" ] || fail "created a file through a dangling link"

# A symlinked directory is followed: the test file is made in the real one.
mkdir "$t_dir/real"
ln -s "$t_dir/real" "$t_dir/dirlink"
"$TIERPROBE" prep "$t_dir/dirlink/t.dat" --size 16M --quiet 2>"$t_dir/err" ||
    fail "prep in a symlinked directory: $(cat "$t_dir/err")"
[ -f "$t_dir/real/t.dat" ] && [ ! -L "$t_dir/real/t.dat" ] ||
    fail "the test file is not in the real directory"

# --force on a foreign file: one line first names the real file (the
# directory link resolved), its size and what is overwritten.
dd if=/dev/urandom of="$t_dir/real/foreign.dat" bs=1M count=16 \
    status=none || fail "dd"
# shellcheck disable=SC2086
"$TIERPROBE" limits "$t_dir/dirlink/foreign.dat" --rw write --force $lquick \
    >/dev/null 2>"$t_dir/err" ||
    fail "limits --rw write --force on a foreign file: $(cat "$t_dir/err")"
t_one_line 0 0 "$t_dir/err" "$(realpath "$t_dir/real/foreign.dat"), a file of 16 MiB"
grep -q "overwritten" "$t_dir/err" || fail "does not say what is overwritten"
# Writes to its own files say nothing of the kind.
# shellcheck disable=SC2086
"$TIERPROBE" limits "$m" --rw write $lquick >/dev/null 2>"$t_dir/err" ||
    fail "limits --rw write on its own file: $(cat "$t_dir/err")"
grep -q -- "--force:" "$t_dir/err" && fail "a notice for its own file"
# A missing device name is a typo, never a test file in /dev (devtmpfs
# is RAM): refused in one line, nothing created there.
dev_typo=/dev/tierprobe-no-such-disk-$$
"$TIERPROBE" run "$dev_typo" --force >/dev/null 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$dev_typo"
[ ! -e "$dev_typo" ] || { rm -f "$dev_typo"; fail "created $dev_typo"; }
# A filesystem mounted below /dev (/dev/shm) is a place like any other.
if [ -d /dev/shm ] && [ "$(stat -c %d /dev/shm)" != "$(stat -c %d /dev)" ]; then
	shm=$(mktemp -d /dev/shm/tp-symlink.XXXXXX) || fail "mktemp in /dev/shm"
	t_atexit "rm -rf $shm"
	"$TIERPROBE" scan "$shm/f" --points 2 --max-time 0.1 --quiet \
	    >/dev/null 2>"$t_dir/err" ||
	    fail "a test file in /dev/shm refused: $(cat "$t_dir/err")"
fi
echo "ok"
