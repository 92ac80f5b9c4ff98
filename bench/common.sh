# SPDX-License-Identifier: ISC
# Sourced by the bench/*.sh that run tierprobe over simulated profiles:
# sets top (the source tree), tp (the binary: $TIERPROBE, else the built
# one), TIERPROBE_DATADIR and dir (a scratch directory removed at exit);
# skips (77) without jq.  Not a benchmark of its own.
#
#   bench_args SEEDS OPTS WHAT "$@"
#	-n SEEDS and -o 'WHAT OPTIONS' into seeds and opts (defaults
#	SEEDS and OPTS); the profiles named after them, else every
#	built-in one, into profiles
#   $bench_units
#	awk functions for what `tierprobe profiles --show` prints:
#	num("1,250") (thousands separators), size(v, "MiB"), rate(v,
#	"MiB/s") in bytes, lat(v, "ms") in microseconds
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tp=${TIERPROBE:-$top/src/tierprobe}
export TIERPROBE_DATADIR="${TIERPROBE_DATADIR:-$top}"
command -v jq >/dev/null || { echo "bench: needs jq" >&2; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-$(basename "$0" .sh).XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM

bench_args() {
	seeds=$1
	opts=$2
	bench_what=$3
	shift 3
	OPTIND=1
	while getopts n:o: c; do
		case $c in
		n) seeds=$OPTARG ;;
		o) opts=$OPTARG ;;
		*) echo "usage: $0 [-n SEEDS] [-o '$bench_what OPTIONS']" \
		       "[PROFILE ...]" >&2
		   exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	profiles=$*
	[ -n "$profiles" ] ||
	    profiles=$("$tp" profiles | awk '/^$/ { exit } { print $1 }')
}

bench_units='
function num(v) { gsub(/,/, "", v); return v + 0 }
function size(v, u) {
	sub(/,$/, "", u)
	if (u == "KiB") return v * 1024
	if (u == "MiB") return v * 1048576
	if (u == "GiB") return v * 1073741824
	if (u == "TiB") return v * 1099511627776
	return v
}
function rate(v, u) { sub(/\/s,?$/, "", u); return size(v, u) }
function lat(v, u) {
	sub(/,$/, "", u)
	if (u == "ms") return v * 1000
	if (u == "s") return v * 1e6
	if (u == "ns") return v / 1000
	return v
}
'
