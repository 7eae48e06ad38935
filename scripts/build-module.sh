#!/bin/sh
# Builds ssdemu.ko for one kernel: copies the given sources flat into
# build/kmod/KVER/ (only files that changed, so kbuild stays incremental)
# and runs kbuild there against Debian's headers for KVER.
# Usage: build-module.sh KVER FILE...
set -eu
kver=$1
shift
kdir=/usr/src/linux-headers-$kver
out=build/kmod/$kver
[ -d "$kdir" ] || { echo "build-module: no headers in $kdir (run make deps)" >&2; exit 1; }
dups=$(for f in "$@"; do basename "$f"; done | sort | uniq -d)
[ -z "$dups" ] || { echo "build-module: file names must be unique: $dups" >&2; exit 1; }
mkdir -p "$out"
for f in "$@"; do
	dst=$out/$(basename "$f")
	cmp -s "$f" "$dst" || cp -p "$f" "$dst"
done
make -s -C "$kdir" M="$(pwd)/$out" modules
