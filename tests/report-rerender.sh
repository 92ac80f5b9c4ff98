#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: a saved report re-renders to the text the live run printed.
# Each kind of run on simulated targets (virtual time, seconds of real
# time): scan, limits, a run whose sustained run drains a gp2 bucket, a run
# with commits, several targets at once, sync.  Each prints text and then
# markdown on stdout and saves its JSON; `tierprobe report FILE` of that
# JSON must print the same bytes, in both formats, and write the same JSON.
# Any difference fails, with the diff: nothing in these reports is
# live-only (progress and notices go to stderr, which is not compared).
. "${TOP_SRCDIR:?}/tests/safety-common.sh"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
dir=$t_dir
n=0

# same NAME ARGS...: run tierprobe ARGS live in text and in markdown, each
# saving its JSON; the report of each JSON must print what the run did.
same() {
	name=$1
	shift
	for fmt in text markdown; do
		n=$((n + 1))
		live=$dir/$name.$fmt.live
		"$TIERPROBE" "$@" --quiet --output-format "$fmt" \
		    --json "$dir/$name.$fmt.json" > "$live" ||
			fail "$name ($fmt): $* exited $?"
		[ -s "$live" ] || fail "$name ($fmt): printed nothing"
		"$TIERPROBE" report "$dir/$name.$fmt.json" \
		    --output-format "$fmt" > "$dir/$name.$fmt.again" ||
			fail "$name ($fmt): report exited $?"
		if ! cmp -s "$live" "$dir/$name.$fmt.again"; then
			diff -u "$live" "$dir/$name.$fmt.again"
			fail "$name ($fmt): the saved report re-renders" \
			    "otherwise than the run printed it"
		fi
	done
	# And the JSON again, key for key and digit for digit.
	"$TIERPROBE" report "$dir/$name.text.json" --output-format json |
	    cmp -s - "$dir/$name.text.json" ||
		fail "$name: report --output-format json differs from the file"
}

same scan scan sim:ebs-gp3 --seed 3
same limits limits sim:ebs-gp3 --sustain 20 --seed 4
same run-quick run sim:ebs-gp3 --quick --sustain 120 --seed 5
# 100 GiB of gp2: 300 IOPS baseline, a 5.4M I/O bucket that runs dry
# some 2,000 s into a sustained run at its 3,000 IOPS burst.
same run-drain run sim:gp2:100G --quick --sustain 3000 --seed 11
same run-full run sim:ebs-gp3 --seed 6 --sustain 30
same sync sync sim:ebs-gp3 --seed 7 --writers 1,4
same multi-limits limits sim:ebs-gp3 sim:ebs-gp3 --sustain 20 --seed 8
same multi-scan scan sim:ebs-gp3 sim:ebs-gp3 --seed 9
same multi-run run sim:ebs-gp3 sim:ebs-gp3 --quick --sustain 30 --seed 10
echo "ok: $n renderings the same"
