# SPDX-License-Identifier: ISC
# Sourced by the tests that put tierprobe in cgroups, after TIERPROBE is
# set (it sources tests/safety-common.sh for t_atexit, fail and skip).
# One API over cgroup v1 (blkio and memory hierarchies) and v2 (io.max,
# memory.max); not a test of its own.
#
#   cg_need io memory	the controllers the test needs (io: blk-throttle):
#			skips (77) without root or without them; sets cg_ver
#   cg_have io memory	the same for a test that can go on without them:
#			returns 1 instead
#   cg_new NAME		a cgroup tierprobe-NAME-PID with them, in $cg;
#			at exit its processes are moved out, its
#			pages dropped and it is removed
#   cg_run CG CMD...	CMD inside cgroup CG (a name from cg_new)
#   cg_exec CG CMD...	the same in place of the shell that calls it (for
#			t_bg, or a subshell: the job's pid is CMD's)
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
	for cg_c in $cg_ctls; do
		cg_dir "$1" "$cg_c"
	done
}

cg_have() {
	[ "$(id -u)" = 0 ] || return 1
	cg_ctls=$*
	cg_ver=1
	for cg_c in $cg_ctls; do
		case $cg_c in
		io) cg_f=blkio.throttle.read_iops_device ;;
		memory) cg_f=memory.limit_in_bytes ;;
		*) fail "cg_have: no controller $cg_c" ;;
		esac
		[ -e "$(cg_dir "" "$cg_c")/$cg_f" ] || cg_ver=""
	done
	[ -n "$cg_ver" ] && return 0
	cg_ver=2
	for cg_c in $cg_ctls; do
		[ -n "$cg_v2" ] &&
		    grep -qw "$cg_c" "$cg_v2/cgroup.controllers" 2>/dev/null ||
		    { cg_ver=""; return 1; }
	done
}

cg_need() {
	need_root "cgroups"
	cg_have "$@" || skip "no cgroup controller (v1 or v2) for: $*"
}

# Remove directory $1 of a cgroup: its processes moved to the parent, its
# page cache dropped (v1), retried while exiting processes leave it.
cg_remove() {
	[ -d "$1" ] || return 0
	for cg_p in $(cat "$1/cgroup.procs" 2>/dev/null); do
		echo "$cg_p" > "$(dirname "$1")/cgroup.procs" 2>/dev/null
	done
	[ -e "$1/memory.force_empty" ] &&
	    echo 0 > "$1/memory.force_empty" 2>/dev/null
	cg_i=0
	while ! rmdir "$1" 2>/dev/null && [ $cg_i -lt 50 ]; do
		sleep 0.1
		cg_i=$((cg_i + 1))
	done
	[ ! -d "$1" ] || echo "warning: could not remove $1"
}

cg_new() {
	[ -n "$cg_ver" ] || fail "cg_new before cg_need or cg_have"
	cg=tierprobe-$1-$$
	if [ "$cg_ver" = 2 ]; then
		for cg_c in $cg_ctls; do
			echo "+$cg_c" 2>/dev/null \
			    > "$cg_v2/cgroup.subtree_control"
		done
	fi
	for cg_d in $(cg_dirs "$cg"); do
		mkdir "$cg_d" || fail "mkdir $cg_d"
		t_atexit "cg_remove $cg_d"
	done
	if [ "$cg_ver" = 2 ]; then
		for cg_c in $cg_ctls; do
			grep -qw "$cg_c" "$cg_v2/$cg/cgroup.controllers" ||
			    skip "cannot enable the $cg_c controller"
		done
	fi
}

cg_run() {
	(cg_exec "$@")
}

cg_exec() {
	cg_d=$(cg_dirs "$1")
	shift
	exec sh -c 'for d in $0; do echo $$ > "$d/cgroup.procs" || exit 1; done
	    exec "$@"' "$cg_d" "$@"
}

cg_io() {
	cg_d=$(cg_dir "$1" io)
	cg_dev=$2
	shift 2
	if [ "$cg_ver" = 2 ]; then
		cg_v=""
		for cg_kv in "$@"; do
			[ "${cg_kv#*=}" = 0 ] && cg_kv=${cg_kv%=*}=max
			cg_v="$cg_v $cg_kv"
		done
		echo "$cg_dev$cg_v" > "$cg_d/io.max"
		return
	fi
	for cg_kv in "$@"; do
		case ${cg_kv%=*} in
		riops) cg_f=read_iops ;;
		rbps) cg_f=read_bps ;;
		wiops) cg_f=write_iops ;;
		wbps) cg_f=write_bps ;;
		*) fail "cg_io: no cap ${cg_kv%=*}" ;;
		esac
		echo "$cg_dev ${cg_kv#*=}" \
		    > "$cg_d/blkio.throttle.${cg_f}_device" || return 1
	done
}

cg_mem() {
	cg_d=$(cg_dir "$1" memory)
	if [ "$cg_ver" = 2 ]; then
		echo "$2" > "$cg_d/memory.max" || return 1
		echo 0 > "$cg_d/memory.swap.max" 2>/dev/null
	else
		echo "$2" > "$cg_d/memory.limit_in_bytes" || return 1
		echo 0 > "$cg_d/memory.swappiness" 2>/dev/null
	fi
	return 0
}

cg_disk() {
	cg_d=$(stat -c '%Hd:%Ld' "$1") || return 1
	[ -e "/sys/dev/block/$cg_d" ] || return 1
	[ -e "/sys/dev/block/$cg_d/partition" ] &&
	    cg_d=$(cat "/sys/dev/block/$cg_d/../dev")
	echo "$cg_d"
}
