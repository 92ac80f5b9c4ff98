#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: writes to a block device (a 64 MiB loop device).  Refused
# without --force; with --force still refused while it holds an ext4
# filesystem, swap, a DOS or GPT partition table, is mounted, or another
# writer holds it (O_EXCL), unless --force-device (never while mounted).
# The device's checksum does not change when refused; a read-only scan of
# a mounted device works.  Root only.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"
need_root
need losetup sha256sum

t_loop 64M || skip "no loop device"
dev=$t_dev
w="limits $dev --rw write --ws 16M --max-iodepth 2 --sustain 0.5 --max-time 0.1 --quiet"
sum() { sha256sum <"$dev"; }
# Refused: exit 1, one line naming the device (and $2), device unchanged
# (not checked while mounted: the filesystem itself writes then).
refused() {
	[ -n "${3:-}" ] || s=$(sum)
	# shellcheck disable=SC2086
	"$TIERPROBE" $w $1 >/dev/null 2>"$t_dir/err"
	t_one_line $? 1 "$t_dir/err" "$dev"
	grep -qi -- "$2" "$t_dir/err" || fail "'$1': no '$2' in: $(cat "$t_dir/err")"
	[ -n "${3:-}" ] || [ "$(sum)" = "$s" ] || fail "'$1' changed the device"
}
wipe() { dd if=/dev/zero of="$dev" bs=1M count=2 status=none; }
allowed() {
	# shellcheck disable=SC2086
	"$TIERPROBE" $w $1 >/dev/null 2>"$t_dir/err" ||
	    fail "'$1' on $2 refused: $(cat "$t_dir/err")"
}

refused "" "--force"

if command -v mkfs.ext4 >/dev/null; then
	mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4"
	refused "--force" "ext2/3/4"
	# Mounted: refused even with --force-device; reading is fine.
	if t_mount "$dev" 2>/dev/null; then
		refused "--force --force-device" "mounted" mounted
		"$TIERPROBE" scan "$dev" --min-ws 16M --max-ws 32M --points 2 \
		    --max-time 0.2 --quiet >/dev/null 2>"$t_dir/err" ||
		    fail "read-only scan of a mounted device: $(cat "$t_dir/err")"
		umount "$t_mnt" || fail "umount"
	fi
	allowed "--force --force-device" "an ext4 signature"
fi

if command -v mkswap >/dev/null; then
	wipe
	mkswap -f "$dev" >"$t_dir/mkswap.out" 2>&1 ||
	    fail "mkswap: $(cat "$t_dir/mkswap.out")"
	refused "--force" "swap"
fi

# A DOS partition table: 0x55AA and one Linux partition entry.
wipe
printf '\203' | dd of="$dev" bs=1 seek=450 conv=notrunc status=none
printf '\125\252' | dd of="$dev" bs=1 seek=510 conv=notrunc status=none
refused "--force" "partition"

# A GPT header in LBA 1.
wipe
printf 'EFI PART' | dd of="$dev" bs=1 seek=512 conv=notrunc status=none
refused "--force" "partition"

# Clean: allowed with --force; a second writer meanwhile is refused.
wipe
allowed "--force" "a clean device"
# The first writer held right after its first point (the device open,
# O_EXCL) while the second tries.
t_hold 2 "write iodepth 1/" -- "$TIERPROBE" limits "$dev" --rw write \
    --force --ws 16M --max-iodepth 2 --sustain 20 --max-time 0.5 \
    >/dev/null 2>"$t_dir/err1"
t_held "the first writer's first point"
# shellcheck disable=SC2086
"$TIERPROBE" $w --force --force-device >/dev/null 2>"$t_dir/err"
t_one_line $? 1 "$t_dir/err" "$dev"
grep -qi "in use" "$t_dir/err" || fail "busy device: $(cat "$t_dir/err")"
t_release INT
t_wait "$t_pid" 30 || fail "the first writer did not stop"
[ "$t_rc" = 130 ] || fail "the first writer: exit $t_rc after SIGINT, want 130"
echo "ok"
