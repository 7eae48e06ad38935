#!/bin/sh
# Builds the DKMS package of ssdemu for the given kernels in a private DKMS
# tree (dkms --dkmstree/--sourcetree/--installtree under DIR), so neither
# /var/lib/dkms nor /usr/src is touched and no root is needed: dkms add
# and build only need the trees writable.  Module signing is left out
# (sign_file names no program), or dkms would create its signing key in
# /var/lib/dkms.  Prints each kernel's ssdemu.ko; fails if one is missing.
# Usage: dkms-build.sh DIR SOURCE_TREE(ssdemu-VERSION) KVER...
set -eu
[ $# -ge 3 ] || { echo "usage: dkms-build.sh DIR SOURCE_TREE KVER..." >&2; exit 2; }
command -v dkms >/dev/null || { echo "dkms-build: dkms is not installed (make deps)" >&2; exit 1; }
dir=$(realpath -m "$1")
src=$(realpath "$2")
shift 2
name=$(basename "$src")
version=${name#ssdemu-}
rm -rf "$dir"
mkdir -p "$dir/tree" "$dir/source" "$dir/install"
cp -a "$src" "$dir/source/$name"
trees="--dkmstree $dir/tree --sourcetree $dir/source --installtree $dir/install"
export sign_file=/nonexistent/sign-file
# shellcheck disable=SC2086
dkms add -m ssdemu -v "$version" $trees
for kver in "$@"; do
	# shellcheck disable=SC2086
	dkms build -m ssdemu -v "$version" -k "$kver" $trees
	ko=$(find "$dir/tree/ssdemu/$version/$kver" -name 'ssdemu.ko*' | head -n 1)
	[ -n "$ko" ] || { echo "dkms-build: no ssdemu.ko for $kver" >&2; exit 1; }
	echo "dkms-build: $kver: ${ko#"$dir"/}"
done
# shellcheck disable=SC2086
dkms status -m ssdemu $trees
