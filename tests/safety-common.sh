# SPDX-License-Identifier: ISC
# Sourced by tests/safety-*.sh and the other test scripts that want it: a
# scratch directory, a cleanup list run on every exit (loop devices, mounts,
# background processes, files), the checks every fault test makes, and a
# figure within a tolerance of its truth.  Not a test of its own.
set -u
: "${TIERPROBE:?TIERPROBE: path of the built binary}"

t_name=$(basename "$0" .sh)
t_dir=$(mktemp -d "${TMPDIR:-/var/tmp}/tp-$t_name.XXXXXX") || exit 1
t_undo=""	# shell commands, run last-added first

# Run cmd at exit (before the ones added earlier).
t_atexit() {
	t_undo="$1
$t_undo"
}

t_cleanup() {
	st=$?
	trap - EXIT INT TERM
	printf '%s\n' "$t_undo" | while IFS= read -r c; do
		[ -n "$c" ] && eval "$c" >/dev/null 2>&1
	done
	rm -rf "$t_dir"
	exit "$st"
}
trap t_cleanup EXIT
trap 'exit 130' INT TERM
trap 'exit 129' HUP
trap 'exit 141' PIPE

fail() {
	echo "FAIL: $*"
	exit 1
}
skip() {
	echo "skip: $*"
	exit 77
}
need_root() {
	[ "$(id -u)" = 0 ] || skip "${1:-this test} needs root"
}
need() {
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "$c missing"
	done
}

# A loop device over a fresh sparse image of size $1: sets t_dev and t_img
# (call it directly, not in $(...), so the cleanup is registered here).
# Detached at exit by image, never by name: a device that was auto-cleared
# may belong to someone else by then.
t_loop() {
	t_img=$(mktemp "$t_dir/loop.XXXXXX") || return 1
	truncate -s "$1" "$t_img" || return 1
	t_atexit "losetup -n -O NAME -j $t_img | xargs -r -n1 losetup -d"
	t_dev=$(losetup -f --show "$t_img" 2>/dev/null)
}

# Mount (mount's arguments) at a new directory: sets t_mnt; unmounted at
# exit.  Call it directly, as t_loop.
t_mount() {
	t_mnt=$(mktemp -d "$t_dir/mnt.XXXXXX") || return 1
	mount "$@" "$t_mnt" || return 1
	t_atexit "umount -l $t_mnt"
}

# Start a command in the background, killed at exit if still running.
# Sets t_pid.
t_bg() {
	"$@" &
	t_pid=$!
	t_atexit "kill -9 $t_pid"
}

# t_hold FD PREFIX [FD PREFIX ...] -- COMMAND [ARG ...]: start COMMAND in
# the background, to be held (tests/t_hold.c) right after it writes
# something beginning with PREFIX to its file descriptor FD: a phase's own
# progress line such as "scan 1/" ("" for any write).  Sets t_pid (t_hold's:
# its exit status is the command's).  For each FD PREFIX in turn, t_held
# waits until the command is held there, the test acts, and t_release
# lets it go on (t_release INT: with SIGINT delivered as it goes; a signal
# sent with kill while it is held could stay unnoticed).
t_hold() {
	t_hst=$(mktemp -u "${TMPDIR:-/var/tmp}/tp-hold.XXXXXX") || exit 1
	t_atexit "rm -f $t_hst $t_hst.sig"
	"${T_HOLD:-$(dirname "$TIERPROBE")/../tests/t_hold}" "$t_hst" "$@" &
	t_pid=$!
	t_atexit "kill $t_pid"
	t_hk=0
}

# Wait until the command started by t_hold is held at its next FD PREFIX;
# sets t_child to its pid.  Fails, saying so, when it ended first (skips
# when the kernel refuses the tracing).  $1 names the phase for messages.
t_held() {
	t_hk=$((t_hk + 1))
	i=0
	t_hn=0
	until { [ -s "$t_hst" ] && read -r t_hw t_hn t_child <"$t_hst"; } &&
	    [ "$t_hn" = "$t_hk" ]; do
		if ! kill -0 "$t_pid" 2>/dev/null; then
			read -r t_hw t_hn t_child <"$t_hst" 2>/dev/null &&
			    [ "$t_hn" = "$t_hk" ] && break
			wait "$t_pid"
			[ $? = 77 ] && skip "cannot hold a command (ptrace refused)"
			fail "$1: t_hold ended without a word"
		fi
		i=$((i + 1))
		[ "$i" -lt 6000 ] || fail "$1: not reached in 10 minutes"
		sleep 0.1
	done
	case $t_hw in
	held)
		t_atexit "kill -9 $t_child" ;;
	*)
		wait "$t_pid"
		[ $? = 77 ] && skip "cannot hold a command (ptrace refused)"
		fail "$1: the run ended (exit $t_child) before it got there" ;;
	esac
}

# Let the command held by t_hold go on, given signal $1 (INT, TERM, HUP)
# if named.
t_release() {
	[ $# = 0 ] || echo "$1" >"$t_hst.sig" || fail "cannot write $t_hst.sig"
	kill -USR1 "$t_pid" || fail "t_hold is gone"
}

# Wait for pid $1 to end, at most $2 seconds; sets t_rc (124: still alive).
t_wait() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		i=$((i + 1))
		if [ "$i" -gt $(($2 * 10)) ]; then
			t_rc=124
			return 1
		fi
		sleep 0.1
	done
	wait "$1"
	t_rc=$?
}

# Wait until shell condition $1 holds (evaluated each time), at most 20 s.
t_until() {
	i=0
	while ! eval "$1"; do
		i=$((i + 1))
		[ "$i" -gt 400 ] && return 1
		sleep 0.05
	done
}

# Size of file $1 in bytes, 0 if missing.
t_size() {
	stat -c %s "$1" 2>/dev/null || echo 0
}

# t_within NAME GOT WANT PCT: GOT (a number from a report) within PCT
# percent of WANT, said either way; fails when it is not, or is missing or
# null.
t_within() {
	awk -v n="$1" -v g="$2" -v w="$3" -v p="$4" 'BEGIN {
		if (g == "" || g == "null") {
			printf "FAIL: %s is %s, want %g\n", n, g == "" ? \
			    "missing" : "null", w
			exit 1
		}
		d = 100 * (g / w - 1)
		printf "%s: %g, want %g (%+.2f%%, limit %g%%)\n", n, g, w, d, p
		exit (d > p || d < -p)
	}' || fail "$1 out of range"
}

# Stderr file $1 without the progress lines and the notices of what the
# run may cost and what it spent (a held run is not --quiet: its progress
# is what it is held at), nor the notice that io_uring was refused (a
# test of the fallback, tests/uring-fallback.sh, refuses it machine-wide
# for a while, whichever tests run beside it).
t_no_progress() {
	grep -v -E -e '^[a-z ,]+ [0-9]+/[0-9]+: ' \
	    -e '^[a-z ,]+: [0-9]+ (more points?|of [0-9]+ points), ' \
	    -e '^tierprobe: (each run: )?up to .* of device time ' \
	    -e '^tierprobe: spent .* of device time, .* of I/O$' \
	    -e '^tierprobe: io_uring unavailable \(.*\): using psync at ' \
	    "$1"
}

# The failure contract: exit status $1 == $2, and stderr file $3 holds one
# line (tierprobe: ...) that names $4 (a file) when given.
t_one_line() {
	[ "$1" = "$2" ] || fail "exit $1, expected $2; stderr: $(cat "$3")"
	# The notice that io_uring was refused is no part of it (see
	# t_no_progress).
	t_n=$(grep -v '^tierprobe: io_uring unavailable (.*): using psync at ' \
	    "$3" | grep -c .)
	[ "$t_n" = 1 ] || fail "stderr has $t_n lines, expected one: $(cat "$3")"
	grep -q '^tierprobe: ' "$3" || fail "stderr not prefixed: $(cat "$3")"
	if [ $# -ge 4 ]; then
		grep -qF -- "$4" "$3" || fail "stderr does not name $4: $(cat "$3")"
	fi
}

# Is $1 a complete JSON document (jq, or python3 as a fallback)?
t_json_ok() {
	if command -v jq >/dev/null 2>&1; then
		jq -e . "$1" >/dev/null 2>&1
	else
		python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" \
		    2>/dev/null
	fi
}
