#!/bin/sh
# Description: the man pages are mandoc -Tlint clean at warning level (only
# host-dependent "not found" notes allowed), and every long option that
# tierprobe --help lists is documented in man/tierprobe.1.
set -u
: "${TOP_SRCDIR:?}"
command -v mandoc >/dev/null || { echo "skip: mandoc missing"; exit 77; }
fails=0
out=$(mandoc -Tlint -W warning "$TOP_SRCDIR"/man/* 2>&1 | grep -v 'not found')
if [ -n "$out" ]; then
	echo "FAIL: mandoc -Tlint:"; echo "$out"; fails=1
fi

if [ ! -f "$TOP_SRCDIR/man/tierprobe.1" ] || [ -z "${TIERPROBE:-}" ] ||
    ! "$TIERPROBE" --help > /tmp/tp-help.$$ 2>&1 ||
    ! grep -q -- '--' /tmp/tp-help.$$; then
	rm -f /tmp/tp-help.$$
	echo "note: tierprobe --help or man/tierprobe.1 not there yet:" \
	    "option check skipped"
	[ $fails = 0 ] && exit 0
	exit 1
fi
for opt in $(grep -o -- '--[a-z][a-z0-9-]*' /tmp/tp-help.$$ | sort -u); do
	name=${opt#--}
	grep -Eq "Fl Fl $name( |\$)" "$TOP_SRCDIR/man/tierprobe.1" ||
	    { echo "FAIL: $opt is in --help but not in tierprobe.1"; fails=1; }
done
rm -f /tmp/tp-help.$$
[ $fails = 0 ] || exit 1
echo "man pages lint clean and in sync with --help"
