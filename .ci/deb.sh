#!/bin/sh
# Build the Debian package from the release tarball (make dist, as the
# orig tarball) and debian/, check it with lintian, and when running as
# root on a machine without tierprobe installed, install it (with the
# Ansible role when ansible-playbook is there), run tierprobe from it and
# purge it again.  usage: .ci/deb.sh [BUILDDIR] (default: ., which must be
# configured).  The packages land in BUILDDIR/deb/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
builddir=$(cd "${1:-.}" && pwd)
for c in dpkg-buildpackage dh lintian; do
	command -v $c >/dev/null || {
		echo "deb: $c missing (apt-get install dpkg-dev" \
		    "debhelper lintian)" >&2
		exit 77
	}
done
[ -d "$top/debian" ] || { echo "deb: no debian/ in $top (a git checkout" \
    "has it, the release tarball does not)" >&2; exit 1; }
version=$(sed -n '1s/^tierprobe (\([^-]*\)-.*/\1/p' "$top/debian/changelog")
out=$builddir/deb
rm -rf "$out"
mkdir -p "$out"
make -s -C "$builddir" dist-gzip >/dev/null
release=$builddir/tierprobe-$version.tar.gz
[ -f "$release" ] || { echo "deb: debian/changelog says $version," \
    "but make dist made no $release" >&2; exit 1; }
cp "$release" "$out/tierprobe_$version.orig.tar.gz"
tar -C "$out" -xzf "$out/tierprobe_$version.orig.tar.gz"
cp -R "$top/debian" "$out/tierprobe-$version/"
(cd "$out/tierprobe-$version" && dpkg-buildpackage -us -uc -jauto) \
    > "$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; exit 1; }
deb=$(ls "$out"/tierprobe_"$version"-*_*.deb)
echo "deb: built $deb"

# Errors and warnings fail; informational tags are listed.
lintian --info --fail-on error,warning "$out"/tierprobe_"$version"-*.changes

# Install the package the way a fleet would: the Ansible role with
# tierprobe_install=package on this machine, measuring a simulated gp3
# volume that meets its expectation (--accept-burst: a 3 s run cannot
# see whether a bucket runs dry); the report must come back to the
# controller and the play must succeed.
deb_play() {	# work directory, package
	cat > "$1/inventory.yml" <<-EOF
	all:
	  hosts:
	    local:
	      ansible_connection: local
	      ansible_python_interpreter: /usr/bin/python3
	      tierprobe_install: package
	      tierprobe_package: $2
	      tierprobe_become: false
	      tierprobe_workdir: $1/host
	      tierprobe_fetch_dir: $1/reports
	      tierprobe_fleet_dir: $1/fleet
	      tierprobe_controller_bin: /usr/bin/tierprobe
	      tierprobe_preset: test
	      tierprobe_presets:
	        test: {run: [--max-ws=64M, --points=3, --sustain=3]}
	      tierprobe_volumes:
	        - {name: gp3, target: "sim:ebs-gp3", kind: gp3,
	           expect: ["iops>=2700"],
	           options: [--seed=1, --accept-burst]}
	EOF
	: > "$1/ansible.cfg"
	ANSIBLE_CONFIG=$1/ansible.cfg ANSIBLE_HOME=$1/.ansible \
	ANSIBLE_LOCAL_TEMP=$1/.ansible/tmp ANSIBLE_REMOTE_TEMP=$1/.ansible/tmp \
	ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_NOCOLOR=1 \
	    ansible-playbook -i "$1/inventory.yml" \
	    "$top/contrib/ansible/tierprobe.yml" > "$1/play.log" 2>&1 ||
	    { tail -n 40 "$1/play.log"; echo "deb: the play failed" >&2;
	      exit 1; }
	jq -e '.labels.host == "local" and .limits.iops_ceiling > 2700' \
	    "$1/reports/local/gp3.json" >/dev/null ||
	    { echo "deb: the play fetched no report of a gp3 volume" >&2;
	      exit 1; }
	echo "deb: installed with the Ansible role (tierprobe_install=package)"
}

if [ "$(id -u)" = 0 ] && ! dpkg -s tierprobe >/dev/null 2>&1; then
	tmp=$(mktemp -d /var/tmp/tp-deb.XXXXXX)
	trap 'rm -rf "$tmp"; dpkg -s tierprobe >/dev/null 2>&1 &&
	    apt-get purge -y -qq tierprobe >/dev/null' EXIT
	if command -v ansible-playbook >/dev/null && command -v jq >/dev/null
	then
		deb_play "$tmp" "$deb"
	else
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" \
		    >/dev/null
	fi
	[ "$(command -v tierprobe)" = /usr/bin/tierprobe ]
	for f in man/man1/tierprobe.1.gz man/man5/tierprobe-report.5.gz \
	    bash-completion/completions/tierprobe \
	    doc/tierprobe/examples/ansible/tierprobe.yml; do
		[ -f "/usr/share/$f" ] || { echo "deb: no /usr/share/$f" >&2;
		    exit 1; }
	done
	tierprobe profiles | grep -q '^ebs-gp3 '
	(cd "$tmp" && tierprobe run --quiet --max-ws 64M --points 4 \
	    --max-time 0.5 --sustain 2 --max-iodepth 8 --json run.json \
	    >/dev/null && [ ! -e tierprobe.dat ] &&
	    tierprobe plot run.json --outdir plots --quiet &&
	    [ -s plots/latency-ws.png ])
	# 0 or 3: met, or not established by so short a run.
	rc=0
	tierprobe check "$tmp/run.json" --expect 'iops>=1' >/dev/null || rc=$?
	[ $rc = 0 ] || [ $rc = 3 ]
	echo "deb: installed, tierprobe run works from it, purged"
fi
