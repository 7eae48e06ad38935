#!/bin/sh
# Unpacks the kernel's scripts/checkpatch.pl (with the data files it reads)
# from Debian's linux-source-6.1 into build/checkpatch/, once.
set -eu
out=build/checkpatch
tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
[ -n "$tarball" ] || { echo "get-checkpatch: linux-source-6.1 missing (run make deps)" >&2; exit 1; }
[ -f "$out/checkpatch.pl" ] && [ "$out/.stamp" -nt "$tarball" ] && exit 0
rm -rf "$out" && mkdir -p "$out"
tar -xf "$tarball" -C "$out" --strip-components=2 \
	linux-source-6.1/scripts/checkpatch.pl \
	linux-source-6.1/scripts/spelling.txt \
	linux-source-6.1/scripts/const_structs.checkpatch
touch "$out/.stamp"
