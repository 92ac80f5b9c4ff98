#!/bin/bash
# bench/vs-pg-fsync.sh: `tierprobe sync` against fio and PostgreSQL's
# pg_test_fsync on the same file: one writer, 8 KiB commits, per durability
# method, the three tools alternating for ROUNDS rounds of SECONDS per
# method each.  Prints each round's commits/s (their spread is the noise),
# then the means side by side with tierprobe/fio and
# tierprobe/pg_test_fsync ratios.
#
# The same I/O: fdatasync is fio --rw=write --bs=8k --fdatasync=1 (etcd's
# and the issue's recipe) and pg_test_fsync's fdatasync; fsync likewise;
# dsync is fio --sync=dsync; direct-dsync is fio --direct=1 --sync=dsync
# and pg_test_fsync's open_datasync (O_DSYNC|O_DIRECT); uring-datasync
# (buffered, as tierprobe's) is fio's io_uring engine with --fdatasync=1.
# tierprobe and fio alternate per method on one file, fio in its second
# half (the first holds tierprobe's header).  pg_test_fsync creates and
# removes a file of its own beside it and rewrites its first 8 KiB.
#
# usage: bench/vs-pg-fsync.sh [DIR] [SECONDS] [ROUNDS]  (needs fio, jq, bc;
# pg_test_fsync from Debian's postgresql package if installed)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tp=${TIERPROBE:-$top/src/tierprobe}
dir=${1:-.}
secs=${2:-5}
rounds=${3:-2}
file=$dir/tierprobe-bench-sync.dat
pgfile=$dir/tierprobe-bench-pg.dat
pg=$(ls /usr/lib/postgresql/*/bin/pg_test_fsync 2>/dev/null | tail -1) || :
for c in fio jq bc; do
	command -v "$c" >/dev/null ||
		{ echo "bench: needs $c (apt-get install fio jq bc)" >&2; exit 1; }
done
[ -n "$pg" ] || echo "bench: no pg_test_fsync (apt-get install postgresql)" >&2
cleanup() { rm -f "$file" "$pgfile" "$dir"/bench-sync-*; }
trap cleanup EXIT
methods="fdatasync fsync dsync direct-dsync uring-datasync"
declare -A tp_sum fio_sum pg_sum tp_r fio_r pg_r

fio_args() {	# method -> fio options
	case $1 in
	fdatasync)	echo --ioengine=sync --fdatasync=1 ;;
	fsync)		echo --ioengine=sync --fsync=1 ;;
	dsync)		echo --ioengine=sync --sync=dsync ;;
	direct-dsync)	echo --ioengine=sync --direct=1 --sync=dsync ;;
	uring-datasync)	echo --ioengine=io_uring --fdatasync=1 ;;
	esac
}

# One pg_test_fsync run: its first table, one 8kB write per commit.
pg_round() {
	"$pg" -f "$pgfile" -s "$secs" > "$dir/bench-sync-pg"
	awk '/one 8kB write/ { on = 1; next } on && /^$/ { exit }
	    on && $2 ~ /^[0-9.]+$/ { print $1, $2 }' "$dir/bench-sync-pg" \
	    > "$dir/bench-sync-pgops"
	while read -r name v; do
		case $name in
		open_datasync)	m=direct-dsync ;;
		fdatasync|fsync) m=$name ;;
		*)		continue ;;
		esac
		pg_r[$m]=$v
		pg_sum[$m]=$(echo "${pg_sum[$m]:-0} + $v" | bc -l)
	done < "$dir/bench-sync-pgops"
}

"$tp" prep "$file" --size 64M --quiet
for r in $(seq "$rounds"); do
	for m in $methods; do
		"$tp" sync "$file" --bs 8K --writers 1 --methods "$m" \
		    --max-time "$secs" --precision 0.1 --quiet \
		    --output-format json > "$dir/bench-sync-tp"
		v=$(jq -r --arg m "$m" '.sync.methods[] | select(.method == $m
		    and .writers == 1) | .ops_per_s' "$dir/bench-sync-tp")
		tp_r[$m]=${v:-0}
		tp_sum[$m]=$(echo "${tp_sum[$m]:-0} + ${v:-0}" | bc -l)
		# shellcheck disable=SC2046
		fio --name=commit --filename="$file" --rw=write --bs=8k \
		    --offset=32m --size=32m --time_based --runtime="$secs" \
		    $(fio_args "$m") --output-format=json \
		    > "$dir/bench-sync-fio"
		v=$(jq -r '.jobs[0].write.iops' "$dir/bench-sync-fio")
		fio_r[$m]=$v
		fio_sum[$m]=$(echo "${fio_sum[$m]:-0} + $v" | bc -l)
	done
	[ -z "$pg" ] || pg_round
	for m in $methods; do
		printf 'round %s %-15s tierprobe %6.0f fio %6.0f ratio %6.3f' \
		    "$r" "$m" "${tp_r[$m]}" "${fio_r[$m]}" \
		    "$(echo "${tp_r[$m]} / ${fio_r[$m]}" | bc -l)"
		[ -z "${pg_r[$m]:-}" ] ||
			printf ' pg_test_fsync %6.0f ratio %6.3f' "${pg_r[$m]}" \
			    "$(echo "${tp_r[$m]} / ${pg_r[$m]}" | bc -l)"
		echo
	done
done

printf '%-15s %12s %12s %8s %14s %8s\n' method tierprobe fio ratio \
    pg_test_fsync ratio
for m in $methods; do
	t=$(echo "${tp_sum[$m]} / $rounds" | bc -l)
	f=$(echo "${fio_sum[$m]} / $rounds" | bc -l)
	if [ -n "${pg_sum[$m]:-}" ]; then
		p=$(echo "${pg_sum[$m]} / $rounds" | bc -l)
		pr=$(printf '%8.3f' "$(echo "$t / $p" | bc -l)")
		p=$(printf '%14.0f' "$p")
	else
		p=$(printf '%14s' -)
		pr=$(printf '%8s' -)
	fi
	printf '%-15s %12.0f %12.0f %8.3f %s %s\n' "$m" "$t" "$f" \
	    "$(echo "$t / $f" | bc -l)" "$p" "$pr"
done
