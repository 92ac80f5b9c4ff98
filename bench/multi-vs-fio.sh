#!/bin/bash
# bench/multi-vs-fio.sh: the run together of `tierprobe limits T1 T2`
# against fio with one job per target and --group_reporting, on the same
# two files, same I/O: io_uring, O_DIRECT, random 4 KiB reads over 2 GiB
# each, both files at once, at the depth tierprobe chose per target (asked
# for with --max-iodepth 8 and 32).  tierprobe drives each file from a
# thread and ring of its own, as fio's jobs do; fio is also run as one job
# over both files (at twice the depth) to show what one thread gets.  The
# tools alternate, each for SECONDS a round.  Prints the aggregate IOPS,
# the ratios, and the cores tierprobe used or waited for in all.
#
# usage: bench/multi-vs-fio.sh [DIR] [SECONDS] [ROUNDS]   (needs fio, jq)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tp=${TIERPROBE:-$top/src/tierprobe}
dir=${1:-.}
secs=${2:-10}
rounds=${3:-2}
a=$dir/tierprobe-bench-a.dat
b=$dir/tierprobe-bench-b.dat
for c in fio jq bc; do
	command -v "$c" >/dev/null || { echo "bench: needs $c (apt-get install fio jq bc)" >&2; exit 1; }
done
cleanup() { rm -f "$a" "$b" "$dir"/bench-multi-*.json; }
trap cleanup EXIT

"$tp" prep "$a" --size 2G --quiet
"$tp" prep "$b" --size 2G --quiet

tp_together() {	# max depth -> "depth iops cores"
	"$tp" limits "$a" "$b" --ws 2G --max-iodepth "$1" --max-time 1 \
	    --sustain 2 --sustain-together "$secs" --seed "$RANDOM" --quiet \
	    --output-format json > "$dir/bench-multi-tp.json"
	jq -r '.together | "\(.iodepth) \(.iops_ceiling) \(.cpu_util)"' \
	    "$dir/bench-multi-tp.json"
}
fio_together() {	# depth, then fio's job options -> iops
	d=$1
	shift
	fio --ioengine=io_uring --direct=1 --rw=randread --bs=4k --size=2g \
	    --norandommap=1 --randrepeat=0 --iodepth="$d" --time_based \
	    --runtime="$secs" --ramp_time=1 --fixedbufs=1 --registerfiles=1 \
	    --group_reporting --output-format=json "$@" \
	    > "$dir/bench-multi-fio.json"
	jq -r '.jobs[0].read.iops' "$dir/bench-multi-fio.json"
}

printf '%-16s %10s %10s %7s %12s %7s %9s\n' iodepth/target tp_iops \
    fio_iops ratio fio_1job_iops ratio tp_cores
for max in 8 32; do
	t_iops=0; f_iops=0; o_iops=0; cores=0
	for r in $(seq "$rounds"); do
		read -r d x y < <(tp_together "$max")
		u=$(fio_together "$d" --name=a --filename="$a" \
		    --name=b --filename="$b")
		v=$(fio_together $((2 * d)) --name=ab --filename="$a:$b" \
		    --file_service_type=roundrobin)
		t_iops=$(echo "$t_iops + $x" | bc -l)
		f_iops=$(echo "$f_iops + $u" | bc -l)
		o_iops=$(echo "$o_iops + $v" | bc -l)
		cores=$(echo "$cores + $y" | bc -l)
	done
	printf '%-16s %10.0f %10.0f %7.3f %12.0f %7.3f %9.2f\n' "$d" \
	    "$(echo "$t_iops / $rounds" | bc -l)" \
	    "$(echo "$f_iops / $rounds" | bc -l)" \
	    "$(echo "$t_iops / $f_iops" | bc -l)" \
	    "$(echo "$o_iops / $rounds" | bc -l)" \
	    "$(echo "$t_iops / $o_iops" | bc -l)" \
	    "$(echo "$cores / $rounds" | bc -l)"
done
