#!/bin/sh
# Builds ssdemu.ko for one kernel: copies the given files into
# build/kmod/KVER/ with their folders (only files that changed, so kbuild
# stays incremental; copies of files no longer given are removed), with
# emulator/Kbuild at the copy's root, the list of objects (objs.mk) and
# the include views of layers.mk (views/), and runs kbuild there against
# Debian's headers for KVER (or $KDIR: DKMS passes the kernel's build
# directory).
# Usage: [KDIR=DIR] build-module.sh KVER FILE...
set -eu
kver=$1
shift
kdir=${KDIR:-/usr/src/linux-headers-$kver}
out=build/kmod/$kver
[ -d "$kdir" ] || { echo "build-module: no headers in $kdir (run make deps)" >&2; exit 1; }
mkdir -p "$out"
# One build per kernel at a time: `make -j2 all unit module` runs this twice
# at once (all makes module too), and two kbuilds in one directory delete
# each other's objects ("fixdep: error opening file: .../.controller.o.d").
exec 9> "$out/.build.lock"
flock 9
objs=
for f in "$@"; do
	case $f in
	emulator/Kbuild) dst=$out/Kbuild ;;
	*) dst=$out/$f ;;
	esac
	case $f in
	*.c) objs="$objs ${f%.c}.o" ;;
	esac
	mkdir -p "$(dirname "$dst")"
	# A changed copy gets the time of the copy, not the source's: a source
	# edited during an earlier build may be older than objects built from
	# its previous contents, and kbuild would keep them.
	cmp -s "$f" "$dst" || cp "$f" "$dst"
done
# A source removed from the tree leaves no copy behind.
find "$out" -path "$out/views" -prune -o -type f \( -name '*.[ch]' \) -print |
while read -r copy; do
	rel=${copy#"$out"/}
	case " $* " in
	*" $rel "*) ;;
	*) rm -f "$copy" ;;
	esac
done
printf 'SSDEMU_OBJS :=%s\n' "$objs" > "$out/objs.mk.new"
cmp -s "$out/objs.mk.new" "$out/objs.mk" && rm "$out/objs.mk.new" ||
	mv "$out/objs.mk.new" "$out/objs.mk"
[ "$out/views/.made" -nt "$out/layers.mk" ] || {
	./scripts/include-views.sh "$out" "$out/views"
	touch "$out/views/.made"
}
make -s -C "$kdir" M="$(pwd)/$out" modules
