#!/bin/sh
# Description: the fleet chart draws for any set of reports made by the
# simulator: a gp2 whose bucket ran dry beside one whose did not (issue
# 33: gnuplot crashed on the "nan" of the figures the other lacks), an
# interrupted run, one volume alone; a gnuplot that fails is named with
# its cause (killed by a signal, an exit and its first line, missing).
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
command -v gnuplot >/dev/null || { echo "skip: gnuplot missing"; exit 77; }
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-plotfleet.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# gp2 100G: 3,000 IOPS from 5.4 M credits earning 300 a second run dry
# after 2,000 s; 2,300 s of virtual time see it, 10 s do not.
mkdir "$dir/fleet" "$dir/one"
"$TIERPROBE" limits sim:gp2:100G --seed 1 --sustain 2300 --host drained \
    --kind gp2 --quiet --json "$dir/fleet/drained.json" > /dev/null ||
    fail "drained run exited $?"
jq -e '.limits.burst.detected' "$dir/fleet/drained.json" > /dev/null ||
    fail "the bucket did not run dry in 2300 s"
"$TIERPROBE" limits sim:gp2:100G --seed 2 --sustain 10 --host full \
    --kind gp2 --quiet --json "$dir/fleet/full.json" > /dev/null ||
    fail "short run exited $?"
jq '.interrupted = true | .context.hostname = "cut" | .labels.host = "cut"' \
    "$dir/fleet/full.json" > "$dir/fleet/cut.json" || fail "jq"
cp "$dir/fleet/drained.json" "$dir/one/"

plot() {	# name, then the reports
	name=$1
	shift
	mkdir "$dir/out-$name"
	"$TIERPROBE" plot "$@" --outdir "$dir/out-$name" > "$dir/$name.out" \
	    2> "$dir/$name.err"
	rc=$?
	[ $rc = 0 ] && [ -s "$dir/out-$name/fleet.png" ] ||
	    fail "plot $name: exit $rc, $(cat "$dir/$name.err")"
}
plot drained-and-full "$dir/fleet/drained.json" "$dir/fleet/full.json"
plot with-interrupted "$dir/fleet"
plot one "$dir/one"

# A gnuplot that fails: its cause in one line, exit 1, no image.
mkdir "$dir/bin"
printf '#!/bin/sh\nkill -SEGV $$\n' > "$dir/bin/gnuplot"
chmod +x "$dir/bin/gnuplot"
mkdir "$dir/out-segv"
PATH="$dir/bin:$PATH" "$TIERPROBE" plot "$dir/fleet" --outdir \
    "$dir/out-segv" > /dev/null 2> "$dir/segv.err"
rc=$?
[ $rc = 1 ] && grep -q "gnuplot was killed by signal 11" "$dir/segv.err" &&
    [ ! -e "$dir/out-segv/fleet.png" ] ||
    fail "crashing gnuplot: exit $rc, $(cat "$dir/segv.err")"
printf '#!/bin/sh\necho "line 3: undefined variable: x" >&2\necho more >&2\nexit 1\n' \
    > "$dir/bin/gnuplot"
PATH="$dir/bin:$PATH" "$TIERPROBE" plot "$dir/fleet" --outdir \
    "$dir/out-segv" > /dev/null 2> "$dir/exit.err"
rc=$?
[ $rc = 1 ] && grep -q "(exit 1): line 3: undefined variable: x$" \
    "$dir/exit.err" || fail "failing gnuplot: exit $rc, $(cat "$dir/exit.err")"
PATH=/nonexistent "$TIERPROBE" plot "$dir/fleet" --outdir "$dir/out-segv" \
    > /dev/null 2> "$dir/none.err"
rc=$?
[ $rc = 1 ] && grep -q "gnuplot not found" "$dir/none.err" ||
    fail "no gnuplot: exit $rc, $(cat "$dir/none.err")"
exit 0
