#!/bin/sh
# bench/fill-vs-dd.sh: how long tierprobe takes to create and fill a test
# file against dd writing as many bytes of zeros through the page cache
# and syncing them (conv=fdatasync), the two alternating on the same
# filesystem for ROUNDS rounds.  Prints each round and the medians, with
# the tierprobe/dd ratio (1 or less: at least as fast as dd).  Run it
# under the disk lock on a quiet machine: a busy disk moves both.
#
# usage: bench/fill-vs-dd.sh [DIR] [SIZE_MIB] [ROUNDS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tp=${TIERPROBE:-$top/src/tierprobe}
dir=${1:-.}
mib=${2:-1024}
rounds=${3:-5}
file=$dir/tierprobe-fill-bench.dat
times=$(mktemp "${TMPDIR:-/tmp}/tp-fill-vs-dd.XXXXXX")
trap 'rm -f "$file" "$times"' EXIT INT TERM

# Seconds of wall time a command takes.
took() {
	t0=$(date +%s.%N)
	"$@" > /dev/null
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

printf '%-6s %10s %10s %8s\n' round tierprobe dd ratio
for r in $(seq "$rounds"); do
	rm -f "$file"
	a=$(took "$tp" prep "$file" --size "${mib}M" --quiet)
	rm -f "$file"
	b=$(took dd if=/dev/zero of="$file" bs=1M count="$mib" conv=fdatasync \
	    status=none)
	rm -f "$file"
	echo "$a $b" >> "$times"
	printf '%-6s %10.2f %10.2f %8.3f\n' "$r" "$a" "$b" \
	    "$(echo "$a / $b" | bc -l)"
done
sort -n -k1,1 "$times" | awk -v n="$rounds" \
    'NR == int((n + 1) / 2) { printf "%-6s %10.2f", "median", $1 }'
sort -n -k2,2 "$times" | awk -v n="$rounds" \
    'NR == int((n + 1) / 2) { printf " %10.2f\n", $2 }'
awk '{ print $1 / $2 }' "$times" | sort -n | awk -v n="$rounds" \
    'NR == int((n + 1) / 2) { printf "median ratio tierprobe/dd: %.3f\n", $1 }'
