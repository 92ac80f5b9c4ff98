#!/bin/sh
# Description: the man pages are mandoc -Tlint clean at warning level (only
# host-dependent "not found" notes allowed), their rendered text has no
# artefact of a macro misused (swallowed words, nested quotes), every long
# option that
# tierprobe --help lists is documented in man/tierprobe.1, and the size
# suffixes named there, in --help and in its messages are those accepted.
set -u
: "${TOP_SRCDIR:?}" "${TIERPROBE:?}"
command -v mandoc >/dev/null || { echo "skip: mandoc missing"; exit 77; }
fails=0
out=$(mandoc -Tlint -W warning "$TOP_SRCDIR"/man/* 2>&1 | grep -v 'not found')
if [ -n "$out" ]; then
	echo "FAIL: mandoc -Tlint:"; echo "$out"; fails=1
fi

# The rendered text, which lint does not see: a flag macro that swallows
# the words after it ("-the -share -of"), quotes nested or left open
# ("(‘4k, ‘1.5G, ‘64KiB’’’)", "("A, "B""), a macro's name printed as a
# word.
for page in "$TOP_SRCDIR"/man/*; do
	text=$(mandoc -Tutf8 "$page" 2>/dev/null | sed "s/.\x08//g") || {
		echo "FAIL: mandoc -Tutf8 $page"; fails=1; continue; }
	bad=$(printf '%s\n' "$text" | grep -n -E -- \
	    '(^|[ (])-[a-z]{2,}[,;.)]? +-[a-z]{2,}|‘[^’]*‘|’’|‘‘|""|"[A-Za-z_.]+, "|(^|[^[:alnum:]$.-])(Fl|Ql|Pq|Dq|Ns|Ar|Cm|Xr|Sx|Po|Pc|Op)([^[:alnum:]]|$)')
	if [ -n "$bad" ]; then
		echo "FAIL: ${page##*/} renders with artefacts:"
		printf '%s\n' "$bad"
		fails=1
	fi
done

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

# Each default --help shows (from the option table, its one source) is
# the one tierprobe.1 gives: "VALUE by default", "VALUE (the default)" or
# "VALUE is the default" in the option's entries or in the lines after it
# is named.  And no help text names a default of its own beside it.
for cmd in run scan limits sync report compare plot prep profiles check \
    fleet; do
	"$TIERPROBE" "$cmd" --help
done > "$help" 2>&1
twice=$(grep 'default.*default' "$help")
[ -z "$twice" ] || { echo "FAIL: a help line names a default twice" \
    "(the table's .def is the one source):"; echo "$twice"; fails=1; }
pairs=$(sed -n 's/^ *\(-., \)\{0,1\}--\([a-z-]*\) .*(default \([^:;) ][^;) ]*\)[;)].*$/\2 \3/p' \
    "$help" | sort -u)
[ -n "$pairs" ] || { echo "FAIL: no default found in --help"; fails=1; }
printf '%s\n' "$pairs" | while read -r name value; do
	[ -n "$name" ] || continue
	text=$(awk -v n="$name" '
	    /^\.It / { on = 0 }
	    $0 ~ "^\\.It .*Fl Fl " n "( |$)" { on = 1; next }
	    $0 ~ "^\\.Fl Fl " n "( |,|$)" { after = 2; next }
	    on || after > 0 { sub(/^\.[A-Z][a-z] /, ""); print; after-- }
	    ' "$TOP_SRCDIR/man/tierprobe.1" | tr '\n' ' ')
	v=$(printf '%s' "$value" | sed 's/[.[\*^$]/\\&/g')
	printf '%s\n' "$text" | grep -Eiq "(^|[ (])$v( by default| \(the default\)| is the default)" ||
	    echo "FAIL: --$name defaults to $value in --help, not so in tierprobe.1"
done > "$help.bad"
if [ -s "$help.bad" ]; then cat "$help.bad"; fails=1; fi
rm -f "$help.bad"

# The size suffixes the parser accepts are the ones --help, its messages
# and every sentence of tierprobe.1 on sizes name.
took=""
for l in K M G T P E Z; do
	"$TIERPROBE" scan --max-ws "4$l" --help > /dev/null 2>&1 &&
	    took="$took$l
"
done
took=$(printf '%s' "$took" | sort -u | tr -d '\n')
"$TIERPROBE" scan --max-ws 1Q > /dev/null 2>> "$help"
bad=$(grep -ih 'sizes take\|not a size' "$help" "$TOP_SRCDIR/man/tierprobe.1" |
    while IFS= read -r line; do
	l=$(printf '%s\n' "$line" | grep -o '\<[KMGTPEZ]\>' | sort -u |
	    tr -d '\n')
	[ "$l" = "$took" ] || echo "FAIL: \"$line\" names suffixes $l," \
	    "the parser takes $took"
done)
[ -n "$bad" ] && { echo "$bad"; fails=1; }
[ $fails = 0 ] || exit 1
echo "man pages lint clean and in sync with --help"
