#!/bin/sh
# SPDX-License-Identifier: ISC
# Description: hostile files through the real binary.  Every seed of the
# fuzz corpora: a valid report renders (report) and a valid profile shows
# (profiles --show) with exit 0; each bad-* one ends in exactly one line on
# stderr naming the file and exit 2, nothing on stdout; a bad profile as a
# scan target (sim:FILE) too.  Garbage and a directory are refused alike.
. "${TOP_SRCDIR:-.}/tests/safety-common.sh"

corpus=$TOP_SRCDIR/tests/fuzz/corpus
check() {	# name-of-file cmd...
	name=$1
	shift
	"$TIERPROBE" "$@" >"$t_dir/out" 2>"$t_dir/err"
	rc=$?
	case $(basename "$name") in
	bad-*)
		t_one_line "$rc" 2 "$t_dir/err" "$name"
		[ ! -s "$t_dir/out" ] || fail "$*: output on stdout"
		;;
	*)
		[ "$rc" = 0 ] || fail "$*: exit $rc: $(cat "$t_dir/err")"
		[ -s "$t_dir/out" ] || fail "$*: nothing on stdout"
		;;
	esac
}

nseed=0
for f in "$corpus"/report_load/*; do
	check "$f" report "$f"
	check "$f" report "$f" --output-format json
	nseed=$((nseed + 1))
done
for f in "$corpus"/profile/*; do
	check "$f" profiles --show "$f"
	nseed=$((nseed + 1))
	case $(basename "$f") in
	bad-*)	check "$f" scan "sim:$f" --points 2 --max-time 0.1 --quiet ;;
	esac
done
[ "$nseed" -ge 10 ] || fail "only $nseed seed files found under $corpus"

head -c 4096 /dev/urandom >"$t_dir/bad-random.json"
check "$t_dir/bad-random.json" report "$t_dir/bad-random.json"
check "$t_dir/bad-random.json" compare "$corpus/report_load/limits.json" \
    "$t_dir/bad-random.json"
mkdir "$t_dir/bad-dir.json"
check "$t_dir/bad-dir.json" report "$t_dir/bad-dir.json"
check "$t_dir/bad-missing.json" report "$t_dir/bad-missing.json"
echo "ok ($nseed seed files)"
