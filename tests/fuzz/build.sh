#!/bin/sh
# SPDX-License-Identifier: ISC
# Build the libFuzzer harnesses with clang, apart from the automake build
# (gcc): the library sources are compiled here with coverage, ASan and UBSan.
# usage: tests/fuzz/build.sh [BUILDDIR]   (BUILDDIR holds config.h; default .)
# Output in BUILDDIR/tests/fuzz/bin; FUZZ_CC overrides clang.  Arrays of
# 64 bytes or more are read in pieces (report-lazy.c; 4 KiB otherwise), so
# that inputs of the fuzzer's size reach that path.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
builddir=$(cd "${1:-.}" && pwd)
cc=${FUZZ_CC:-clang}
out=$builddir/tests/fuzz/bin
harnesses=${FUZZ_HARNESSES:-"fuzz_cli fuzz_units fuzz_report_load fuzz_profile fuzz_voltype fuzz_ebsstats"}

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "fuzz: $cc not found: install clang (apt-get install clang)" >&2
	exit 77
fi
if [ ! -f "$builddir/config.h" ]; then
	echo "fuzz: no config.h in $builddir: run ./configure first" >&2
	exit 1
fi
pc=$(pkg-config --cflags liburing gsl jansson inih)
libs=$(pkg-config --libs liburing gsl jansson inih)
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cflags="-g -O1 -fno-omit-frame-pointer $san -D_GNU_SOURCE -I$builddir
-iquote $top/src -DTP_PKGDATADIR=\"/nonexistent\" -DTP_SRCDIR=\"$top\" $pc
-DREPORT_LAZY_MIN=64"

mkdir -p "$out/obj"
# The library: every module but main(), rebuilt when any source changed;
# an archive, so each harness links only the modules it reaches.
stamp=$out/obj/.stamp
if [ ! -f "$stamp" ] ||
    [ -n "$(find "$top/src" "$builddir/config.h" -newer "$stamp" \
    -name '*.[ch]' -print | head -1)" ]; then
	rm -f "$out"/obj/*.o
	for src in "$top"/src/*.c; do
		name=$(basename "$src" .c)
		[ "$name" = tierprobe ] && continue
		echo "  CC(fuzz) src/$name.c"
		# shellcheck disable=SC2086
		$cc $cflags -fsanitize=fuzzer-no-link -c "$src" \
		    -o "$out/obj/$name.o"
	done
	rm -f "$out/libfuzz.a"
	ar rcs "$out/libfuzz.a" "$out"/obj/*.o
	touch "$stamp"
fi
for h in $harnesses; do
	if [ "$out/$h" -nt "$stamp" ] && [ "$out/$h" -nt "$top/tests/fuzz/$h.c" ] &&
	    [ "$out/$h" -nt "$top/tests/fuzz/fuzz.h" ]; then
		continue
	fi
	echo "  CCLD(fuzz) tests/fuzz/$h"
	# shellcheck disable=SC2086
	$cc $cflags -fsanitize=fuzzer "$top/tests/fuzz/$h.c" "$out/libfuzz.a" \
	    $libs -lm -o "$out/$h"
done
