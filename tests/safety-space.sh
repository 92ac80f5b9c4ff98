#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: a small filesystem (64 MiB ext4 on a loop device).  prep and
# scan of a file that cannot fit are refused before anything is written;
# a fill that runs out of space half-way (statvfs made to lie, so the
# check passes) ends in ENOSPC.  Each: one line naming the file, exit 1,
# no partial file left.  sync whose writers' files fill the disk skips
# those points with a note and leaves none of them.  Root only.
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

# sync whose writers' files run out of room half-way: the writer counts
# that needed them are skipped with a note saying so, the shared-file
# points still measured, every writer's file removed (the named test file
# is kept, as a named target always is).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
LD_PRELOAD="$t_dir/lie.so" \
    "$TIERPROBE" sync "$mnt/wal.dat" --methods fdatasync --bs 8K \
    --writers 1,2,4,8 --max-time 0.2 --quiet --json "$t_dir/r.json" \
    >"$t_dir/out" 2>"$t_dir/err" ||
    fail "sync with too little room for its writers: $(cat "$t_dir/err")"
grep -q '"note": "[^"]*no room[^"]*full' "$t_dir/r.json" ||
    fail "sync: the full filesystem is not noted"
jq -e '[.sync.methods[] | select(.shared and .writers == 8)] | length == 1' \
    "$t_dir/r.json" >/dev/null || fail "sync: no shared-file point at 8"
[ "$(left)" = wal.dat ] || fail "sync left $(left)"
rm -f "$mnt/wal.dat"
echo "ok"
