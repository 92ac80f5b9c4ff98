#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: nothing lost to an output path.  A --json or --fio-job path
# that cannot be written (no such directory, a directory, a device node) is
# refused with exit 2 before the first I/O: no test file is created.  When
# writing the JSON still fails at the end (its directory went away during
# the run), the report goes to a new file in the current directory, which
# stderr names, and the exit status is 1.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"

new=$t_dir/new.dat
for bad in "--json $t_dir/missing/r.json" "--json $t_dir" \
    "--json /dev/null" "--fio-job $t_dir/missing/r.fio"; do
	# shellcheck disable=SC2086
	"$TIERPROBE" scan "$new" --max-ws 16M --points 2 --quiet $bad \
	    >"$t_dir/out" 2>"$t_dir/err"
	t_one_line $? 2 "$t_dir/err" "${bad#* }"
	[ ! -e "$new" ] || fail "$bad: the test file was created first"
	[ ! -s "$t_dir/out" ] || fail "$bad: a report on stdout"
done
[ -c /dev/null ] || fail "/dev/null is no longer a device"

# The directory of --json goes away while the scan runs: held right after
# its first point's progress line, the directory removed, then let go.
mkdir "$t_dir/sub" "$t_dir/cwd" || fail mkdir
cd "$t_dir/cwd" || fail "cd"
t_hold 2 "scan 1/" -- "$TIERPROBE" scan sim:classic-three-level \
    --seed 3 --json "$t_dir/sub/r.json" >"$t_dir/out" 2>"$t_dir/err"
cd - >/dev/null || fail "cd -"
t_held "the scan's first point"
rm -rf "$t_dir/sub"
t_release
wait $t_pid
rc=$?
[ $rc = 1 ] || fail "exit $rc, want 1: $(cat "$t_dir/err")"
saved=$(ls "$t_dir/cwd")
[ "$(printf '%s\n' "$saved" | grep -c .)" = 1 ] ||
    fail "want one file in the current directory: $saved"
grep -q "the JSON report is in $saved instead" "$t_dir/err" ||
    fail "stderr does not name $saved: $(cat "$t_dir/err")"
t_json_ok "$t_dir/cwd/$saved" || fail "$saved is not complete JSON"
grep -q '"ws_bytes"' "$t_dir/cwd/$saved" || fail "$saved has no points"
[ -s "$t_dir/out" ] || fail "no text report on stdout"
echo "ok"
