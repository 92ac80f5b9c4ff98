#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: a small filesystem (64 MiB ext4 on a loop device).  prep and
# scan of a file that cannot fit are refused before anything is written;
# a fill that runs out of space half-way (statvfs made to lie, so the
# check passes) ends in ENOSPC.  Each: one line naming the file, exit 1,
# no partial file left.  sync whose writers' files fill the disk stops
# there (exit 1, the commits measured before reported) and removes every
# file this run created.  Root only.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
need_root
need mkfs.ext4 losetup jq "${CC:-cc}"

t_loop 64M || skip "no loop device"
dev=$t_dev
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" ||
    fail "mkfs.ext4"
t_mount "$dev" || skip "cannot mount ext4"
mnt=$t_mnt
left() { ls -A "$mnt" | grep -v '^lost+found$'; }

"$TIERPROBE" prep "$mnt/big.dat" --size 128M --quiet 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$mnt/big.dat"
[ -z "$(left)" ] || fail "prep left $(left)"

"$TIERPROBE" scan "$mnt/big.dat" --min-ws 16M --max-ws 128M --points 2 \
    --max-time 0.2 --quiet >"$t_dir/out" 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$mnt/big.dat"
[ -z "$(left)" ] || fail "scan left $(left)"

# statvfs that reports a hundred times the real free space.
cat >"$t_dir/lie.c" <<'EOC'
#define _GNU_SOURCE
#include <sys/statvfs.h>
#include <dlfcn.h>
static void
grow(struct statvfs *s)
{
	s->f_bavail *= 100;
	s->f_bfree *= 100;
	s->f_blocks *= 100;
}
int
statvfs(const char *p, struct statvfs *s)
{
	int (*real)(const char *, struct statvfs *) =
	    (int (*)(const char *, struct statvfs *))dlsym(RTLD_NEXT, "statvfs");
	int r = real(p, s);
	if (r == 0)
		grow(s);
	return (r);
}
int
fstatvfs(int fd, struct statvfs *s)
{
	int (*real)(int, struct statvfs *) =
	    (int (*)(int, struct statvfs *))dlsym(RTLD_NEXT, "fstatvfs");
	int r = real(fd, s);
	if (r == 0)
		grow(s);
	return (r);
}
EOC
"${CC:-cc}" -shared -fPIC -o "$t_dir/lie.so" "$t_dir/lie.c" -ldl ||
    skip "cannot build the statvfs shim"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
LD_PRELOAD="$t_dir/lie.so" \
    "$TIERPROBE" prep "$mnt/fill.dat" --size 100M --quiet 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$mnt/fill.dat"
grep -qiE 'full|space|room' "$t_dir/err" ||
    fail "ENOSPC not explained: $(cat "$t_dir/err")"
[ -z "$(left)" ] || fail "the failed fill left $(left)"

# sync whose writers' files run out of room half-way stops there: one
# line naming the file, exit 1, a complete report with the commits
# measured before (one writer) and none from after (8 writers, shared or
# not), every file this run created removed; a file prep made is kept.
# A command under the statvfs shim (ASan need not be loaded first).
lying() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	LD_PRELOAD="$t_dir/lie.so" "$@"
}
for made in sync prep; do
	if [ "$made" = prep ]; then
		lying "$TIERPROBE" prep "$mnt/wal.dat" --size 17M --quiet ||
		    fail "prep of the commits' file"
	fi
	lying "$TIERPROBE" sync "$mnt/wal.dat" --methods fdatasync --bs 8K \
	    --writers 1,2,4,8 --max-time 0.2 --quiet --json "$t_dir/r.json" \
	    >"$t_dir/out" 2>"$t_dir/err"
	t_one_line $? 1 "$t_dir/err" "$mnt/wal.dat"
	grep -q 'filled up' "$t_dir/err" ||
	    fail "sync: the full filesystem not said: $(cat "$t_dir/err")"
	t_json_ok "$t_dir/r.json" || fail "sync: no complete report"
	jq -e '.interrupted == false and
	    ([.sync.methods[] | select(.writers == 1 and .bs == 8192)] |
	    length == 1) and
	    ([.sync.methods[] | select(.writers == 8)] | length == 0)' \
	    "$t_dir/r.json" >/dev/null ||
	    fail "sync ($made): not the commits measured before the stop"
	grep -q '"note": "[^"]*no room[^"]*full' "$t_dir/r.json" ||
	    fail "sync ($made): the full filesystem is not noted"
	if [ "$made" = prep ]; then
		[ "$(left)" = wal.dat ] || fail "sync left $(left)"
	else
		[ -z "$(left)" ] || fail "sync left $(left)"
	fi
done
rm -f "$mnt/wal.dat"
echo "ok"
