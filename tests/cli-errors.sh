#!/bin/sh
# Description: bad input through the real binary: each case exits with the
# documented status, prints exactly one line on stderr and nothing on
# stdout, and leaves no file behind.
set -u
: "${TIERPROBE:?}"
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/tp-cli.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
failed=0

# expect STATUS WORDS -- ARGS...: exit STATUS, one stderr line with WORDS.
expect() {
	want=$1 words=$2
	shift 3
	before=$(ls)
	"$TIERPROBE" "$@" > out 2> err
	got=$?
	lines=$(wc -l < err)
	if [ "$got" != "$want" ] || [ "$lines" != 1 ] || [ -s out ] ||
	    ! grep -q -- "$words" err; then
		echo "FAIL: tierprobe $*: exit $got (want $want), $lines stderr lines:"
		cat err out
		failed=1
	fi
	rm -f out err
	if [ "$(ls)" != "$before" ]; then
		echo "FAIL: tierprobe $* left files: $(ls)"
		failed=1
	fi
}

expect 2 "unknown command"	-- frobnicate
expect 2 "no command"		--
expect 2 "is not a size"	-- scan t.dat --max-ws 12Q
expect 2 "is not a size"	-- scan t.dat --bs 4kk
expect 2 "min-ws is larger"	-- scan t.dat --min-ws 2G --max-ws 1G
expect 2 "multiple of 512"	-- scan t.dat --bs 1000
expect 2 "iodepth"		-- scan t.dat --iodepth 0
expect 2 "iodepth"		-- scan t.dat --iodepth 4097
expect 2 "unknown option"	-- scan t.dat --frobnicate
expect 2 "did you mean --precision?" -- scan t.dat --presicion 3
expect 2 "abbreviates --max-ws, --max-time" -- scan t.dat --max 3
expect 2 "needs an argument"	-- scan t.dat --bs
expect 2 "not an option of scan" -- scan t.dat --outdir x
expect 2 "scan needs TARGET"	-- scan
expect 2 "precision"		-- scan t.dat --precision 200
expect 2 "read|write"		-- limits t.dat --rw trim
expect 2 "sim"			-- scan sim:no-such-volume
expect 2 "No such file"		-- report missing.json
expect 1 "does not exist"	-- scan nodir/t.dat --max-ws 16M --min-ws 16M
expect 1 "is a directory"	-- scan . --max-ws 16M
mkdir sub
expect 1 "is a directory"	-- scan sub
rmdir sub
# A file tierprobe did not create is never written or grown.
printf 'precious' > foreign.dat
expect 1 "did not create"	-- limits foreign.dat --rw write --ws 4k
expect 1 "tierprobe prep FILE"	-- prep foreign.dat --size 1M
[ "$(cat foreign.dat)" = precious ] || { echo "FAIL: foreign file changed"; failed=1; }
rm -f foreign.dat

# Several targets: refused before anything is created or read.
printf 'precious' > one.dat
ln -s one.dat link.dat
expect 2 "same file"		-- limits one.dat link.dat
expect 2 "same file"		-- limits n.dat ./n.dat
expect 2 "at most 64 targets"	-- limits $(seq -f "t%g.dat" 1 65)
expect 2 "lower --max-iodepth to 2048" -- limits a.dat b.dat --max-iodepth 4096
expect 2 "cannot run with a real" -- limits sim:ebs-gp3 a.dat
expect 2 "psync"		-- run a.dat b.dat --engine psync
expect 2 "--repeat"		-- scan a.dat b.dat --repeat 2
expect 2 "--fio-job"		-- limits a.dat b.dat --fio-job x.fio
# One that cannot be opened stops the run, named, before a file is made.
expect 1 "is a directory"	-- limits a.dat . --ws 16M
[ "$(cat one.dat)" = precious ] || { echo "FAIL: one.dat changed"; failed=1; }
rm -f one.dat link.dat
exit $failed
