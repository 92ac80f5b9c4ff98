#!/bin/sh
# Description: make install into a DESTDIR with prefix /usr puts the
# binary, both man pages, every profile, every plot script and the bash
# completion where Debian expects them; the installed tierprobe reads its
# profiles there; make uninstall leaves no file behind.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
builddir=$(cd "$(dirname "$TIERPROBE")/.." && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-install.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mk() { env -u MAKEFLAGS -u MFLAGS ${MAKE:-make} -s -C "$builddir" \
    prefix=/usr DESTDIR="$dir/root" "$@" > "$dir/make.log" 2>&1 ||
    { cat "$dir/make.log"; fail "make $*"; }; }

mk install
r=$dir/root/usr
for f in bin/tierprobe share/man/man1/tierprobe.1 \
    share/man/man5/tierprobe-report.5 \
    share/bash-completion/completions/tierprobe; do
	[ -f "$r/$f" ] || fail "make install: no /usr/$f"
done
[ -x "$r/bin/tierprobe" ] || fail "/usr/bin/tierprobe is not executable"
for kind in profiles:ini plots:gp; do
	sub=${kind%:*} ext=${kind#*:}
	(cd "$TOP_SRCDIR/$sub" && ls ./*."$ext") > "$dir/want"
	(cd "$r/share/tierprobe/$sub" && ls ./*."$ext") > "$dir/got"
	cmp -s "$dir/want" "$dir/got" ||
	    fail "/usr/share/tierprobe/$sub differs from $sub/:" \
	    "$(diff "$dir/want" "$dir/got")"
done
TIERPROBE_DATADIR=$r/share/tierprobe "$r/bin/tierprobe" profiles \
    --show ebs-gp3 > "$dir/show" ||
    fail "the installed tierprobe cannot show ebs-gp3"
grep -q "file  *$r/share/tierprobe/profiles/ebs-gp3.ini" "$dir/show" ||
    fail "the installed tierprobe read ebs-gp3 elsewhere:" \
    "$(grep file "$dir/show")"

mk uninstall
left=$(find "$dir/root" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
exit 0
