#!/bin/bash
# bench/vs-fio.sh: tierprobe against fio on the same file, same I/O:
# io_uring, O_DIRECT, 4 KiB random reads over 2 GiB, at iodepth 1, 8, 32
# (or DEPTHS), the two tools alternating, each for SECONDS.  Prints IOPS and
# CPU time per I/O side by side, with tierprobe/fio ratios; then, with the
# default depths, the peak memory of a scan with a 16 GiB working set.
#
# usage: bench/vs-fio.sh [DIR] [SECONDS] [ROUNDS] [DEPTHS]
#        (needs fio, jq, GNU time; DEPTHS such as "64 128 256")
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tp=${TIERPROBE:-$top/src/tierprobe}
dir=${1:-.}
secs=${2:-10}
rounds=${3:-2}
depths=${4:-1 8 32}
file=$dir/tierprobe-bench.dat
big=$dir/tierprobe-bench16g.dat
for c in fio jq /usr/bin/time; do
	command -v "$c" >/dev/null || { echo "bench: needs $c (apt-get install fio jq time)" >&2; exit 1; }
done
cleanup() { rm -f "$file" "$big" "$dir"/bench-*.json; }
trap cleanup EXIT

"$tp" prep "$file" --size 2G --quiet

tp_point() {	# depth -> "iops cpu_us_per_io"
	"$tp" scan "$file" --min-ws 2G --max-ws 2G --iodepth "$1" \
	    --precision 0.1 --max-time "$secs" --seed "$RANDOM" --quiet \
	    --output-format json > "$dir/bench-tp.json"
	jq -r '.scan.points[0] | "\(.iops) \(.cpu_util * .seconds / .ios * 1e6)"' \
	    "$dir/bench-tp.json"
}
fio_point() {
	fio --name=bench --filename="$file" --ioengine=io_uring --direct=1 \
	    --rw=randread --bs=4k --size=2g --norandommap=1 --randrepeat=0 \
	    --iodepth="$1" --time_based --runtime="$secs" --ramp_time=1 \
	    --fixedbufs=1 --registerfiles=1 \
	    --output-format=json > "$dir/bench-fio.json"
	jq -r '.jobs[0] | "\(.read.iops) \((.usr_cpu + .sys_cpu) / 100 * .job_runtime / 1000 / .read.total_ios * 1e6)"' \
	    "$dir/bench-fio.json"
}

printf '%-8s %12s %12s %8s %14s %14s %8s\n' iodepth tp_iops fio_iops ratio \
    tp_cpu_us/io fio_cpu_us/io ratio
for depth in $depths; do
	ti=0; tc=0; fi=0; fc=0
	for r in $(seq "$rounds"); do
		read -r a b < <(tp_point "$depth")
		read -r c d < <(fio_point "$depth")
		ti=$(echo "$ti + $a" | bc -l); tc=$(echo "$tc + $b" | bc -l)
		fi=$(echo "$fi + $c" | bc -l); fc=$(echo "$fc + $d" | bc -l)
	done
	printf '%-8s %12.0f %12.0f %8.3f %14.2f %14.2f %8.3f\n' "$depth" \
	    "$(echo "$ti / $rounds" | bc -l)" "$(echo "$fi / $rounds" | bc -l)" \
	    "$(echo "$ti / $fi" | bc -l)" "$(echo "$tc / $rounds" | bc -l)" \
	    "$(echo "$fc / $rounds" | bc -l)" "$(echo "$tc / $fc" | bc -l)"
done

# Peak memory of a scan whose working set reaches 16 GiB.
[ "$depths" = "1 8 32" ] || exit 0
"$tp" prep "$big" --size 16G --quiet
/usr/bin/time -f '%M' -o "$dir/bench-rss" "$tp" scan "$big" --min-ws 1G \
    --max-ws 16G --points 5 --max-time 1 --quiet --output-format json \
    > /dev/null
echo "peak RSS of a scan up to a 16 GiB working set: $(cat "$dir/bench-rss") KiB"
rm -f "$dir/bench-rss"
