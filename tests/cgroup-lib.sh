# SPDX-License-Identifier: ISC
# Sourced by the tests that put tierprobe in cgroups, after TIERPROBE is
# set (it sources tests/safety-common.sh for t_atexit, fail and skip).
# One API over cgroup v1 (blkio and memory hierarchies) and v2 (io.max,
# memory.max); not a test of its own.
#
#   cg_need io memory	the controllers the test needs (io: blk-throttle):
#			skips (77) without root or without them; sets cg_ver
#   cg_new NAME		a cgroup tierprobe-NAME-PID with those controllers,
#			in $cg; at exit its processes are moved out, its
#			pages dropped and it is removed
#   cg_run CG CMD...	CMD inside cgroup CG (a name from cg_new)
#   cg_io CG MAJ:MIN riops=N rbps=N wiops=N wbps=N
#			blk-throttle caps (0: none; keys left out stay)
#   cg_mem CG BYTES	the memory limit, swap off
#   cg_disk PATH	the MAJ:MIN of the whole disk under PATH (the kernel
#			throttles disks, not partitions); fails when PATH
#			is not on a block device
#
# To convert a test: source this file instead of defining skip, fail and a
# cleanup trap; replace the v1/v2 detection by cg_need, mkdir and its
# rmdir loop by cg_new, "echo $$ > cgroup.procs" by cg_run, the writes to
# blkio.throttle.* or io.max by cg_io, to memory.limit_in_bytes or
# memory.max by cg_mem.  Register other cleanups with t_atexit.

. "$(dirname "$0")/safety-common.sh"

cg_v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cg_ver=""
cg_ctls=""

# The directory of cgroup $1 that holds controller $2's files.
cg_dir() {
	if [ "$cg_ver" = 2 ]; then
		echo "$cg_v2/$1"
	elif [ "$2" = io ]; then
		echo "/sys/fs/cgroup/blkio/$1"
	else
		echo "/sys/fs/cgroup/$2/$1"
	fi
}

# Every directory of cgroup $1 (one per v1 hierarchy, one in v2).
cg_dirs() {
	if [ "$cg_ver" = 2 ]; then
		echo "$cg_v2/$1"
		return
	fi
	for c in $cg_ctls; do
		cg_dir "$1" "$c"
	done
}

cg_need() {
	need_root "cgroups"
	cg_ctls=$*
	cg_ver=1
	for c in $cg_ctls; do
		case $c in
		io) f=blkio.throttle.read_iops_device ;;
		memory) f=memory.limit_in_bytes ;;
		*) fail "cg_need: no controller $c" ;;
		esac
		[ -e "$(cg_dir "" "$c")/$f" ] || cg_ver=""
	done
	[ -n "$cg_ver" ] && return
	cg_ver=2
	for c in $cg_ctls; do
		[ -n "$cg_v2" ] &&
		    grep -qw "$c" "$cg_v2/cgroup.controllers" 2>/dev/null ||
		    skip "no cgroup controller $c (v1 or v2) for: $cg_ctls"
	done
}

# Remove directory $1 of a cgroup: its processes moved to the parent, its
# page cache dropped (v1), retried while exiting processes leave it.
cg_remove() {
	[ -d "$1" ] || return 0
	for p in $(cat "$1/cgroup.procs" 2>/dev/null); do
		echo "$p" > "$(dirname "$1")/cgroup.procs" 2>/dev/null
	done
	[ -e "$1/memory.force_empty" ] &&
	    echo 0 > "$1/memory.force_empty" 2>/dev/null
	i=0
	while ! rmdir "$1" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ ! -d "$1" ] || echo "warning: could not remove $1"
}

cg_new() {
	[ -n "$cg_ver" ] || fail "cg_new before cg_need"
	cg=tierprobe-$1-$$
	if [ "$cg_ver" = 2 ]; then
		for c in $cg_ctls; do
			echo "+$c" > "$cg_v2/cgroup.subtree_control" 2>/dev/null
		done
	fi
	for d in $(cg_dirs "$cg"); do
		mkdir "$d" || fail "mkdir $d"
		t_atexit "cg_remove $d"
	done
	if [ "$cg_ver" = 2 ]; then
		for c in $cg_ctls; do
			grep -qw "$c" "$cg_v2/$cg/cgroup.controllers" ||
			    skip "cannot enable the $c controller"
		done
	fi
}

cg_run() {
	d=$(cg_dirs "$1")
	shift
	sh -c 'for d in $0; do echo $$ > "$d/cgroup.procs" || exit 1; done
	    exec "$@"' "$d" "$@"
}

cg_io() {
	d=$(cg_dir "$1" io)
	dev=$2
	shift 2
	if [ "$cg_ver" = 2 ]; then
		v=""
		for kv in "$@"; do
			[ "${kv#*=}" = 0 ] && kv=${kv%=*}=max
			v="$v $kv"
		done
		echo "$dev$v" > "$d/io.max"
		return
	fi
	for kv in "$@"; do
		case ${kv%=*} in
		riops) f=read_iops ;;
		rbps) f=read_bps ;;
		wiops) f=write_iops ;;
		wbps) f=write_bps ;;
		*) fail "cg_io: no cap ${kv%=*}" ;;
		esac
		echo "$dev ${kv#*=}" > "$d/blkio.throttle.${f}_device" ||
		    return 1
	done
}

cg_mem() {
	d=$(cg_dir "$1" memory)
	if [ "$cg_ver" = 2 ]; then
		echo "$2" > "$d/memory.max" || return 1
		echo 0 > "$d/memory.swap.max" 2>/dev/null
	else
		echo "$2" > "$d/memory.limit_in_bytes" || return 1
		echo 0 > "$d/memory.swappiness" 2>/dev/null
	fi
	return 0
}

cg_disk() {
	d=$(stat -c '%Hd:%Ld' "$1") || return 1
	[ -e "/sys/dev/block/$d" ] || return 1
	[ -e "/sys/dev/block/$d/partition" ] &&
	    d=$(cat "/sys/dev/block/$d/../dev")
	echo "$d"
}
