#!/bin/sh
# Description: the modules' dependencies point one way, read from the
# built library's symbols (nm), not from the sources.  Every module of
# src/libtierprobe.a belongs to a layer below; a module may use modules of
# its own layer or of lower ones, never higher; no two modules use each
# other, even through others; and only the simulated engine, the target
# that opens a simulated volume and the page that prints a profile use the
# simulator at all (sim.o), so measuring and analysis code cannot ask it
# for its truth.  A module's layer is the mk/LAYER.am that builds it.
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
lib=$(dirname "$TIERPROBE")/libtierprobe.a
command -v nm >/dev/null || { echo "skip: nm missing"; exit 77; }
command -v tsort >/dev/null || { echo "skip: tsort missing"; exit 77; }
[ -f "$lib" ] || { echo "FAIL: no $lib"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-layers.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT

# The layers are the fragments mk/LAYER.am that add to the library, in
# the order Makefile.am includes them, lowest first; a layer's modules are
# the src/*.c its fragment adds (the build is the one list).
for am in $(sed -n 's|^include \(mk/[a-z]*\.am\)$|\1|p' \
    "$TOP_SRCDIR/Makefile.am"); do
	awk -v layer="$(basename "$am" .am)" '
	    /^src_libtierprobe_a_SOURCES[ \t]*\+?=/ { on = 1 }
	    on { for (i = 1; i <= NF; i++)
		if ($i ~ /^src\/.*\.c$/) {
			m = $i; sub(/^src\//, "", m); sub(/\.c$/, "", m)
			mods = mods " " m
		}
		if ($NF != "\\") on = 0 }
	    END { if (mods != "") print layer mods }' "$TOP_SRCDIR/$am"
done > "$dir/layers"
[ "$(wc -l < "$dir/layers")" -ge 2 ] ||
    { echo "FAIL: no layers read from Makefile.am and mk/*.am"; exit 1; }
# Who may use the simulator's symbols (sim.o).
sim_users="engine-sim target report-profile"

nm -A -g --defined-only "$lib" | awk '{ n = split($1, a, ":");
    m = a[n - 1]; sub(/\.o$/, "", m); print $NF, m }' | sort > "$dir/def"
nm -A -u "$lib" | awk '{ n = split($1, a, ":"); m = a[n - 1];
    sub(/\.o$/, "", m); print m, $NF }' | sort -u > "$dir/undef"
[ -s "$dir/def" ] || { echo "FAIL: no symbols in $lib"; exit 1; }

# "user used symbol" for every use of another module's symbol.
awk 'NR == FNR { def[$1] = $2; next }
    ($2 in def) && def[$2] != $1 { print $1, def[$2], $2 }' \
    "$dir/def" "$dir/undef" > "$dir/uses"

awk -v sim_users="$sim_users" '
FILENAME == ARGV[1] {
	for (i = 2; i <= NF; i++) {
		if ($1 != last)
			rank++
		last = $1
		layer[$i] = $1
		level[$i] = rank
	}
	next
}
FILENAME == ARGV[2] {
	if (!($2 in level)) {
		print "FAIL: module " $2 " is built by no mk/LAYER.am"
		bad = 1
		level[$2] = -1
	}
	next
}
{
	if (level[$2] > level[$1]) {
		print "FAIL: " $1 " (" layer[$1] ") uses " $3 " of " $2 \
		    " (" layer[$2] "): a lower layer uses a higher one"
		bad = 1
	}
	if ($2 == "sim" && index(" " sim_users " ", " " $1 " ") == 0) {
		print "FAIL: " $1 " uses " $3 " of the simulator: only " \
		    sim_users " may"
		bad = 1
	}
}
END { exit bad }' "$dir/layers" "$dir/def" "$dir/uses" || exit 1

awk '{ print $1, $2 }' "$dir/uses" | sort -u > "$dir/edges"
if ! tsort "$dir/edges" > /dev/null 2> "$dir/loop"; then
	echo "FAIL: modules use each other: $(tr '\n' ' ' < "$dir/loop")"
	exit 1
fi
echo "ok: $(awk '{ print $2 }' "$dir/def" | sort -u | wc -l) modules," \
    "$(wc -l < "$dir/edges") dependencies"
