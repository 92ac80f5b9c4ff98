#!/bin/sh
# Description: the verdict's long run on simulated EBS volumes of every
# type at the edges of their formulas, on instances with and without a
# burst, at 4 KiB, 16 KiB and 1 MiB reads, against the documented
# formulas computed here (not read from the program): the long run is the
# least of the type's rule, what it charges an I/O (256 KiB units on SSD
# types, 1 MiB per I/O on st1/sc1) and the instance's baseline, and the
# verdict names which; the run it asks for drains the path's last bucket
# (its length checked against the formula), measures the figure within
# 5% when run, and asks for nothing more; a run longer than a day is not
# asked for; commit rates never exceed the long run they are held to; a
# --type the run rules out is ruled out by the decisive figure; a --size
# that contradicts the volume is said.  Virtual time, but ~50 s of CPU:
# the slow suite (make check-real).
set -u
: "${TIERPROBE:?}" "${TOP_SRCDIR:?}"
TIERPROBE_DATADIR=$TOP_SRCDIR
export TIERPROBE_DATADIR
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-longrun.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# go NAME COMMAND TARGET options...: JSON in $dir/NAME.json.
go() {
	out=$dir/$1
	shift
	"$TIERPROBE" "$@" --seed 1 --quiet --json "$out.json" \
	    > "$out.txt" 2> "$out.err"
	rc=$?
	[ $rc = 0 ] || [ $rc = 3 ] ||
	    fail "$* exited $rc: $(head -3 "$out.err")"
}
# item NAME ITEM KEY: a key of a verdict item ("null" when absent).
item() {
	jq -r --arg n "$2" --arg k "$3" \
	    '[.verdict.items[] | select(.name == $n) | .[$k]][0] // "null"' \
	    "$dir/$1.json"
}
# near A B PCT: A within PCT% of B.
near() {
	awk -v a="$1" -v b="$2" -v p="$3" \
	    'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= p / 100 * b) }'
}

# The documented long run at I/O size BS (bytes), independently:
# formula B W A C II IB BS -> IOPS, where B is the type's baseline IOPS,
# W its MiB/s once its byte credits are spent, A its accounting unit
# (KiB), C the least it charges an I/O (KiB, 0: the I/O's size), II and IB
# the instance's baseline IOPS and bytes/s (0: none).
formula() {
	awk -v b="$1" -v w="$2" -v a="$3" -v c="$4" -v ii="$5" -v ib="$6" \
	    -v bs="$7" 'BEGIN {
		tok = bs / (a * 1024); tok = tok > 1 ? int(tok + 0.999999) : 1
		ch = c * 1024 > bs ? c * 1024 : bs
		x = b / tok; by = "volume"
		y = w * 1048576 / ch
		if (y < x) { x = y; by = c * 1024 > bs ? "charge" : "volume" }
		if (ii > 0 && ii / tok < x) { x = ii / tok; by = "instance" }
		if (ib > 0 && ib / bs < x) { x = ib / bs; by = "instance" }
		printf "%.4f %s\n", x, by }'
}

rows=$dir/rows
: > "$rows"
# check NAME 'TARGET [OPTIONS]' BS B W A C II IB [DRAIN_S]: the verdict's
# long-run IOPS at BS against the formula; with DRAIN_S (the formula's
# time for the path's last bucket to run dry, "" for none), the run it
# asks for is at least that long and at most 5% and 200 s more, is
# practical, measures the formula, and asks for nothing more.
check() {
	name=$1 spec=$2 bs=$3
	shift 3
	drain=${7:-}
	f=$(formula "$1" "$2" "$3" "$4" "$5" "$6" "$bs")
	want=${f% *} by=${f#* }
	# shellcheck disable=SC2086
	go "$name" run $spec --bs "$bs"
	got=$(item "$name" long_run.iops value)
	lim=$(item "$name" long_run.iops limit)
	if [ "$lim" = null ] && [ -n "$drain" ]; then
		# Types that differ: an honest bound, never below the formula.
		if [ "$(item "$name" long_run.iops bound)" != at_most ] ||
		    ! awk -v g="$got" -v w="$want" \
		    'BEGIN { exit !(g >= w * .98) }'; then
			fail "$name ($spec, bs $bs): long-run IOPS $got," \
			    "$(item "$name" long_run.iops bound), formula $want"
		fi
	else
		near "$got" "$want" 2 ||
		    fail "$name ($spec, bs $bs): long-run IOPS $got, formula $want"
		[ "$lim" = "$by" ] ||
		    fail "$name: set by $lim, formula: $by"
	fi
	# Commits are held to the long run they are said to keep.
	for c in commit.rate commit.group_rate; do
		v=$(item "$name" $c value)
		[ "$v" = null ] && continue
		awk -v v="$v" -v l="$got" 'BEGIN { exit !(v <= l * 1.02) }' ||
		    fail "$name: $c $v above the long run $got"
	done
	settle=$(item "$name" long_run.iops settle)
	after=-
	if [ -n "$drain" ]; then
		s=${settle##*--sustain }
		if [ "$settle" = null ] || ! awk -v s="$s" -v d="$drain" \
		    'BEGIN { exit !(s >= d && s <= d * 1.05 + 200) }'; then
			fail "$name: asked '$settle' to see $drain s of drain"
		fi
		# shellcheck disable=SC2086
		go "$name.s" ${settle#tierprobe } --bs "$bs"
		after=$(item "$name.s" long_run.iops value)
		[ "$(item "$name.s" long_run.iops standing)" = measured ] ||
		    fail "$name: '$settle' did not measure the long run"
		near "$after" "$want" 5 ||
		    fail "$name: '$settle' measured $after, formula $want"
		[ "$(item "$name.s" long_run.iops settle)" = null ] ||
		    fail "$name: after '$settle' it asks $(item "$name.s" \
		    long_run.iops settle)"
	elif [ "$settle" != null ]; then
		fail "$name: nothing drains, yet it asks '$settle'"
	fi
	printf '%s | %s | %s %s | %s\n' "$spec bs=$bs" "$want ($by)" "$got" \
	    "$(item "$name" long_run.iops standing)" "$after" >> "$rows"
}

GIB=1073741824
# gp2: 3 IOPS/GiB (100 to 16,000), 5.4M credits at 3,000 below 1 TiB;
# 128 MiB/s to 170 GiB, 250 above; 256 KiB units.  Drain:
# 5.4M / (3,000 - baseline).
d() { awk -v b="$1" 'BEGIN { printf "%.0f\n", 5.4e6 / (3000 - b) }'; }
check gp2-33 sim:gp2:33G 4096 100 128 256 0 0 0 "$(d 100)"
check gp2-170 sim:gp2:170G 16384 510 128 256 0 0 0 "$(d 510)"
check gp2-250 sim:gp2:250G 4096 750 250 256 0 0 0 "$(d 750)"
check gp2-334 sim:gp2:334G 4096 1002 250 256 0 0 0 "$(d 1002)"
# 999 GiB: 2,997 after 5.4M / 3 = 21 days; gp2 and gp3 keep the same
# (within 10%): nothing asked, the run would change nothing a plan needs.
check gp2-999 sim:gp2:999G 4096 2997 250 256 0 0 0
check gp2-1000 sim:gp2:1000G 4096 3000 250 256 0 0 0
# 1 MiB on gp2 100 GiB: 4 units an I/O, 300 / 4 = 75 once the 5.4M
# credits run dry: at 128 I/Os a second, 512 units, 5.4M / 212.
check gp2-100-1m sim:gp2:100G 1048576 300 128 256 0 0 0 \
    "$(awk 'BEGIN { printf "%.0f\n", 5.4e6 / (128 * 4 - 300) }')"
# gp3: 3,000 IOPS and 125 MiB/s included, no bucket; 20 GiB also fits a
# gp2 (100 IOPS), whose bucket the run asked for drains: after it only
# gp3 fits, and its 3,000 stand.
go gp3-20 run sim:gp3:20G
s=$(item gp3-20 long_run.iops settle)
[ "${s##*--sustain }" -ge "$(d 100)" ] || fail "gp3 20G: asked '$s'"
# shellcheck disable=SC2086
go gp3-20s ${s#tierprobe }
near "$(item gp3-20s long_run.iops value)" 3000 2 ||
    fail "gp3 20G after '$s': $(item gp3-20s long_run.iops value)"
[ "$(item gp3-20s long_run.iops settle)" = null ] ||
    fail "gp3 20G: after '$s' it asks $(item gp3-20s long_run.iops settle)"
echo "sim:gp3:20G then '$s' | 3000 (volume) | $(item gp3-20 \
long_run.iops value) bounded | $(item gp3-20s long_run.iops value)" >> "$rows"
check gp3-6000 'sim:gp3:500G,iops=6000,throughput=250M' 16384 6000 250 256 \
    0 0 0
# The instance: m5.large, 3,600 IOPS and 81.25 MB/s after 30 minutes at
# 18,750 and 593.75 MB/s; its bucket (15,150 x 1,800 I/Os) runs dry at
# 6,000 I/Os a second in 27.27M / 2,400 s.  m5.8xlarge: 30,000 and
# 850 MB/s, no burst.
check m5l 'sim:gp3:500G,iops=6000,throughput=250M@m5.large' 4096 6000 250 \
    256 0 3600 81250000 "$(awk 'BEGIN { print 15150 * 1800 / 2400 }')"
# gp2 334 GiB at 1 MiB behind it: 250 MiB/s of its own (4 units an I/O
# is 1,000 a second, below its 1,002: its bucket is not drawn), the
# instance's 77.5 once its (593.75 - 81.25) MB/s x 1,800 s of bytes are
# spent at 250 MiB/s.
check m5l-1m 'sim:gp2:334G@m5.large' 1048576 1002 250 256 0 3600 81250000 \
    "$(awk 'BEGIN { printf "%.0f\n", 512.5e6 * 1800 / (250 * 1048576 - 81.25e6) }')"
check m5x 'sim:gp3:500G,iops=6000,throughput=250M@m5.8xlarge' 4096 6000 250 \
    256 0 30000 850000000
check gp2-100-m5l 'sim:gp2:100G@m5.large' 4096 300 128 256 0 3600 81250000 \
    "$(d 300)"
# io1/io2: provisioned IOPS, 256 KiB units, no bucket.
check io1 'sim:io1:400G,iops=4000' 16384 4000 500 256 0 0 0
check io2 'sim:io2:500G,iops=8000' 4096 8000 500 256 0 0 0
# st1 500 GiB: 40 MiB/s per TiB after a 250 per TiB burst, every I/O of
# up to 1 MiB charged 1 MiB: 19.5 reads a second; its 500 GiB of credits
# at 4 KiB reads run dry in 500 GiB / (122.1 - 19.5) MiB/s.
st1d=$(awk 'BEGIN { printf "%.0f\n", 500 * 1024 / (250 * 500 / 1024 - 40 * 500 / 1024) }')
check st1-4k sim:st1:500G 4096 500 "$(awk 'BEGIN { print 40 * 500 / 1024 }')" \
    1024 1024 0 0 "$st1d"
check st1-16k sim:st1:500G 16384 500 "$(awk 'BEGIN { print 40 * 500 / 1024 }')" \
    1024 1024 0 0 "$st1d"
check st1-1m sim:st1:500G 1048576 500 "$(awk 'BEGIN { print 40 * 500 / 1024 }')" \
    1024 1024 0 0 "$st1d"
# sc1 1 TiB: 12 MiB/s after an 80 MiB/s burst from 1 TiB of credits.
check sc1 sim:sc1:1T 4096 250 12 1024 1024 0 0 \
    "$(awk 'BEGIN { printf "%.0f\n", 1048576 / (80 - 12) }')"

# Wrong stories.  gp2 100 GiB whose bucket ran dry in the writes: gp3
# (3,000 IOPS) is ruled out by the 300 IOPS, said so, not "unknown".
go drained run sim:gp2:100G --sustain 1200
[ "$(item drained volume_type detail)" = "gp2 at 100 GiB" ] ||
    fail "a drain in the writes: type $(item drained volume_type detail)"
near "$(item drained long_run.iops value)" 300 3 ||
    fail "drained: long run $(item drained long_run.iops value)"
for t in gp3 gp3,throughput=128; do
	go "type-$t" run sim:gp2:100G --sustain 1200 --type "$t"
	[ "$(item "type-$t" volume_type standing)" = measured ] ||
	    fail "--type $t: $(item "type-$t" volume_type standing)"
	item "type-$t" volume_type reason |
	    grep -q '^ruled out by what was measured: long-run IOPS 300' ||
	    fail "--type $t: $(item "type-$t" volume_type reason)"
	jq -e '.volume_types.given.consistent == false' \
	    "$dir/type-$t.json" > /dev/null || fail "--type $t agrees"
done
# --size 1000G on a 250 GiB volume: judged at 250 GiB and said.
go size run sim:gp2:250G --size 1000G
[ "$(jq -r .volume_types.size_bytes "$dir/size.json")" = $((250 * GIB)) ] ||
    fail "--size: judged at $(jq -r .volume_types.size_bytes "$dir/size.json")"
item size volume_type reason | grep -q -- '--size 1000 GiB contradicts' ||
    fail "--size: $(item size volume_type reason)"
item size long_run.iops reason | grep -q '750 if gp2' ||
    fail "--size: $(item size long_run.iops reason)"

echo "case | formula | verdict (first run) | after the run it asked for"
cat "$rows"
