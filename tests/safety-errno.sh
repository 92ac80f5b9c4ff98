#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: the errors a real volume throws at open time, each one line
# naming the file and what to do, exit 1, nothing created: EROFS (a
# read-only bind mount; a read-only scan there still works), EACCES (as
# user nobody), and EINVAL from a filesystem that refuses O_DIRECT (ramfs;
# --buffered then works; sync skips its O_DIRECT methods with a note).
# sync on a read-only mount, of its own file or a new one, says so.  Root
# only (mounts, setpriv).
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
need_root
need mount

quick="--min-ws 16M --max-ws 32M --points 2 --max-time 0.2 --quiet"
chmod 755 "$t_dir"
mkdir "$t_dir/rw"
"$TIERPROBE" prep "$t_dir/rw/ours.dat" --size 32M --quiet || fail "prep"

# EROFS: the same directory, bind-mounted read-only.
t_mount --bind "$t_dir/rw" || skip "cannot bind-mount"
ro=$t_mnt
mount -o remount,bind,ro "$ro" || skip "cannot remount read-only"
"$TIERPROBE" prep "$ro/new.dat" --size 16M --quiet 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$ro/new.dat"
grep -qi 'read-only' "$t_dir/err" || fail "EROFS not named: $(cat "$t_dir/err")"
[ ! -e "$t_dir/rw/new.dat" ] || fail "prep created a file"
"$TIERPROBE" limits "$ro/ours.dat" --rw write --ws 16M --max-iodepth 2 \
    --sustain 1 --max-time 0.2 --quiet >/dev/null 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$ro/ours.dat"
grep -qi 'read-only' "$t_dir/err" || fail "EROFS not named: $(cat "$t_dir/err")"
for f in ours new; do
	"$TIERPROBE" sync "$ro/$f.dat" --writers 1 --max-time 0.2 --quiet \
	    >/dev/null 2>"$t_dir/err"
	t_one_line $? 1 "$t_dir/err" "$ro/$f.dat"
	grep -qi 'read-only' "$t_dir/err" ||
		fail "sync: EROFS not named: $(cat "$t_dir/err")"
done
[ ! -e "$t_dir/rw/new.dat" ] || fail "sync created a file"
# shellcheck disable=SC2086
"$TIERPROBE" scan "$ro/ours.dat" $quick >/dev/null 2>"$t_dir/err" ||
    fail "read-only scan on a read-only mount: $(cat "$t_dir/err")"

# EACCES: user nobody, a root file with mode 0600, a directory it cannot
# write.
if command -v setpriv >/dev/null && setpriv --reuid=nobody --regid=nogroup \
    --clear-groups "$TIERPROBE" --version >/dev/null 2>&1; then
	as_nobody() {
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
	}
	chmod 600 "$t_dir/rw/ours.dat"
	# shellcheck disable=SC2086
	as_nobody "$TIERPROBE" scan "$t_dir/rw/ours.dat" $quick \
	    >/dev/null 2>"$t_dir/err"
	t_one_line $? 1 "$t_dir/err" "$t_dir/rw/ours.dat"
	grep -qi 'permission' "$t_dir/err" ||
	    fail "EACCES not named: $(cat "$t_dir/err")"
	as_nobody "$TIERPROBE" prep "$t_dir/rw/nobody.dat" --size 16M \
	    --quiet 2>"$t_dir/err"
	t_one_line $? 1 "$t_dir/err" "$t_dir/rw/nobody.dat"
	[ ! -e "$t_dir/rw/nobody.dat" ] || fail "prep as nobody created a file"
else
	echo "note: EACCES part skipped (setpriv cannot run $TIERPROBE as nobody)"
fi

# EINVAL: ramfs has no O_DIRECT (tmpfs accepts it on recent kernels).
t_mount -t ramfs ramfs || skip "cannot mount ramfs"
ram=$t_mnt
dd if=/dev/urandom of="$ram/f.dat" bs=1M count=32 status=none || fail "dd"
# shellcheck disable=SC2086
"$TIERPROBE" scan "$ram/f.dat" $quick >/dev/null 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$ram/f.dat"
grep -q -- '--buffered' "$t_dir/err" ||
    fail "O_DIRECT refusal does not suggest --buffered: $(cat "$t_dir/err")"
# shellcheck disable=SC2086
"$TIERPROBE" scan "$ram/f.dat" --buffered $quick >/dev/null 2>"$t_dir/err" ||
    fail "--buffered scan on ramfs: $(cat "$t_dir/err")"
# Commits there (on our own file: ramfs says it has no room for a new
# one): the O_DIRECT methods skipped with a note, the rest run.
"$TIERPROBE" sync "$ram/f.dat" --force --bs 8K --writers 1 --max-time 0.2 \
    --quiet --output-format json >"$t_dir/sync.json" 2>"$t_dir/err" ||
    fail "sync on ramfs: $(cat "$t_dir/err")"
grep -q '"note": "[^"]*direct-dsync' "$t_dir/sync.json" ||
    fail "sync on ramfs: no note on the O_DIRECT method"
grep -q '"method": "fdatasync"' "$t_dir/sync.json" ||
    fail "sync on ramfs: no fdatasync commits"
echo "ok"
