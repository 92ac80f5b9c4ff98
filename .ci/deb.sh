#!/bin/sh
# Build the Debian package from the release tarball (make dist, as the
# orig tarball) and debian/, check it with lintian, and when running as
# root on a machine without tierprobe installed, install it, run tierprobe
# from it and purge it again.  usage: .ci/deb.sh [BUILDDIR] (default: .,
# which must be configured).  The packages land in BUILDDIR/deb/.
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
(cd "$out/tierprobe-$version" && dpkg-buildpackage -us -uc) \
    > "$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; exit 1; }
deb=$(ls "$out"/tierprobe_"$version"-*_*.deb)
echo "deb: built $deb"

# Errors and warnings fail; informational tags are listed.
lintian --info --fail-on error,warning "$out"/tierprobe_"$version"-*.changes

if [ "$(id -u)" = 0 ] && ! dpkg -s tierprobe >/dev/null 2>&1; then
	tmp=$(mktemp -d /var/tmp/tp-deb.XXXXXX)
	trap 'rm -rf "$tmp"; dpkg -s tierprobe >/dev/null 2>&1 &&
	    apt-get purge -y -qq tierprobe >/dev/null' EXIT
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >/dev/null
	[ "$(command -v tierprobe)" = /usr/bin/tierprobe ]
	man -w tierprobe >/dev/null && man -w 5 tierprobe-report >/dev/null
	[ -f /usr/share/bash-completion/completions/tierprobe ]
	[ -f /usr/share/doc/tierprobe/examples/ansible/tierprobe.yml ]
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
