#!/bin/sh
# Description: the Ansible role end to end on three hosts of this machine
# (ansible_connection=local, a work directory each): each builds tierprobe
# from the release tarball (at -O0, to keep the test short), measures a
# simulated gp3 volume (h3's delivers half the IOPS) and a small test
# file, and the controller merges the
# fleet and checks expectations.  The fleet names h3's volume alone as the
# outlier, the play fails for h3 alone, every report is fetched and no test
# file is left behind, even on h3.  A second run changes nothing and fails
# the same host; so does a run in check mode.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
command -v ansible-playbook >/dev/null ||
    { echo "skip: no ansible-playbook (apt-get install ansible-core)";
      exit 77; }
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
builddir=$(cd "$(dirname "$TIERPROBE")/.." && pwd)
version=$("$TIERPROBE" --version | sed 's/^tierprobe //')
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/tp-ansible-fleet.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# The release tarball, as make dist makes it.
env -u MAKEFLAGS -u MFLAGS ${MAKE:-make} -s -C "$builddir" \
    distdir="$dir/tierprobe-$version" distdir > "$dir/dist.log" 2>&1 ||
    { cat "$dir/dist.log"; fail "make distdir"; }
tar -C "$dir" -czf "$dir/tierprobe-$version.tar.gz" "tierprobe-$version" &&
    rm -rf "$dir/tierprobe-$version" || fail "tar"

# Three hosts: a simulated gp3 volume each (h3's at half the IOPS) with
# the same expectation, accepted while a burst bucket may be full (a 5 s
# run cannot see one run dry), and a small test file each.
mkdir "$dir/h1" "$dir/h2" "$dir/h3"
sed -e 's/^iops = 3000/iops = 1500/' -e 's/^name = ebs-gp3/name = gp3-slow/' \
    "$TOP_SRCDIR/profiles/ebs-gp3.ini" > "$dir/h3/gp3-slow.ini"
{
	echo "all:"
	echo "  vars:"
	echo "    ansible_connection: local"
	echo "    ansible_python_interpreter: /usr/bin/python3"
	echo "    tierprobe_tarball: $dir/tierprobe-$version.tar.gz"
	echo "    tierprobe_build_deps: false"
	echo "    tierprobe_configure_options: [CFLAGS=-O0]"
	echo "    tierprobe_become: false"
	echo "    tierprobe_fetch_dir: $dir/reports"
	echo "    tierprobe_fleet_dir: $dir/fleet"
	echo "    tierprobe_controller_bin: $TIERPROBE"
	echo "    tierprobe_preset: test"
	echo "    tierprobe_presets:"
	echo "      test:"
	echo "        run: [--max-ws=256M, --points=4, --sustain=5]"
	echo "        scan: [--min-ws=8M, --max-ws=8M, --max-time=0.2]"
	echo "  hosts:"
	for h in h1 h2 h3; do
		target=sim:ebs-gp3
		[ $h = h3 ] && target=sim:$dir/h3/gp3-slow.ini
		echo "    $h:"
		echo "      tierprobe_workdir: $dir/$h"
		echo "      tierprobe_volumes:"
		echo "        - {name: gp3, target: \"$target\", kind: gp3,"
		echo "           expect: [\"iops>=2700\"],"
		echo "           options: [--seed=7, --accept-burst]}"
		echo "        - {name: scratch, target: $dir/$h/tierprobe.dat,"
		echo "           command: scan, kind: scratch-$h}"
	done
} > "$dir/inventory.yml"
: > "$dir/ansible.cfg"

play() {	# log file, then more ansible-playbook options
	log=$1
	shift
	echo "$(date +%T) ansible-playbook $*" >&2
	ANSIBLE_CONFIG=$dir/ansible.cfg ANSIBLE_HOME=$dir/.ansible \
	ANSIBLE_LOCAL_TEMP=$dir/.ansible/tmp \
	ANSIBLE_REMOTE_TEMP=$dir/.ansible/tmp \
	ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_NOCOLOR=1 ANSIBLE_FORKS=3 \
	ANSIBLE_STDOUT_CALLBACK=default \
	    ansible-playbook -i "$dir/inventory.yml" \
	    "$TOP_SRCDIR/contrib/ansible/tierprobe.yml" "$@" > "$log" 2>&1
}
recap() {	# log, host, field: the PLAY RECAP count
	sed -n "s/^$2 *: .*$3=\([0-9]*\).*/\1/p" "$1"
}
judge() {	# log, what: h3 alone failed, the others ok
	[ "$(recap "$1" h3 failed)" = 1 ] &&
	[ "$(recap "$1" h1 failed)" = 0 ] &&
	[ "$(recap "$1" h2 failed)" = 0 ] ||
	    { tail -n 60 "$1"; fail "$2: the play did not fail for h3 alone"; }
	grep -q "volumes of h3 miss their expectations" "$1" &&
	    grep -q "MISSED" "$1" || fail "$2: no verdict table for h3"
	for h in h1 h2 h3; do
		[ ! -e "$dir/$h/tierprobe.dat" ] ||
		    fail "$2: $h's test file was left behind"
	done
}

play "$dir/play1.log"
rc=$?
[ $rc = 2 ] || { tail -n 60 "$dir/play1.log";
    fail "first play exited $rc, want 2 (a host failed)"; }
judge "$dir/play1.log" "first play"
for h in h1 h2 h3; do
	[ -x "$dir/$h/tierprobe-$version/bin/tierprobe" ] ||
	    fail "$h: tierprobe not built from the tarball"
	for v in gp3 scratch; do
		jq -e ".labels.host == \"$h\"" "$dir/reports/$h/$v.json" \
		    > /dev/null || fail "report $h/$v.json not fetched"
	done
done
jq -r '.fleet.volumes[] | select(.kind == "gp3") |
    "\(.host) \(.outlier)"' "$dir/fleet/fleet.json" | sort > "$dir/outliers"
printf 'h1 false\nh2 false\nh3 true\n' | cmp -s - "$dir/outliers" ||
    fail "fleet.json: gp3 outliers are $(cat "$dir/outliers")"
grep -q "h3 .*gp3 .*OUTLIER" "$dir/play1.log" ||
    fail "the fleet table in the play's output does not name h3"

# Again: nothing to change, the same verdict.
play "$dir/play2.log"
[ $? = 2 ] || fail "second play: exit status"
judge "$dir/play2.log" "second play"
for h in h1 h2 h3; do
	[ "$(recap "$dir/play2.log" $h changed)" = 0 ] ||
	    { grep -B2 "^changed" "$dir/play2.log" | head -40;
	      fail "second play changed $h"; }
done

# Check mode: the same verdict from what is there, nothing changed.
play "$dir/play3.log" --check
[ $? = 2 ] || fail "check mode: exit status"
judge "$dir/play3.log" "check mode"
exit 0
