#!/bin/sh
# Description: the man pages are mandoc -Tlint clean at warning level (only
# host-dependent "not found" notes allowed), and every long option that
# tierprobe --help lists is documented in man/tierprobe.1.
set -u
: "${TOP_SRCDIR:?}" "${TIERPROBE:?}"
command -v mandoc >/dev/null || { echo "skip: mandoc missing"; exit 77; }
fails=0
out=$(mandoc -Tlint -W warning "$TOP_SRCDIR"/man/* 2>&1 | grep -v 'not found')
if [ -n "$out" ]; then
	echo "FAIL: mandoc -Tlint:"; echo "$out"; fails=1
fi

help=$(mktemp "${TMPDIR:-/tmp}/tp-help.XXXXXX") || exit 1
trap 'rm -f "$help"' EXIT
if ! "$TIERPROBE" --help > "$help" 2>&1; then
	echo "FAIL: tierprobe --help exited non-zero:"; cat "$help"; exit 1
fi
grep -q -- '--[a-z]' "$help" || { echo "FAIL: tierprobe --help lists no" \
    "option:"; cat "$help"; exit 1; }
for opt in $(grep -o -- '--[a-z][a-z0-9-]*' "$help" | sort -u); do
	name=${opt#--}
	grep -Eq "Fl Fl $name( |\$)" "$TOP_SRCDIR/man/tierprobe.1" ||
	    { echo "FAIL: $opt is in --help but not in tierprobe.1"; fails=1; }
done
[ $fails = 0 ] || exit 1
echo "man pages lint clean and in sync with --help"
