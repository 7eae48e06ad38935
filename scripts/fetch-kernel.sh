#!/bin/sh
# Owns build/kernels/KVER/: unpacks Debian's linux-image-KVER package for the
# qemu test bed (tests/vm/).  Leaves there
#   vmlinuz, config               the kernel and its configuration
#   modules/*.ko                  the guest's modules, decompressed, flat
#   modules/load-order            what the guest's /init insmods, deps first
#   modules/load-order-base       the same without the filesystems (for runs
#                                 that let the kernel load them on demand)
#   modules/modules.dep|.alias    flat-layout files for busybox modprobe
# Idempotent: a stamp records what was built; a matching stamp means done.
# Usage: scripts/fetch-kernel.sh KVER   (e.g. 6.1.0-56-amd64)
set -eu

# Loaded at boot by /init (with their dependency closure, softdeps included).
BOOT="configfs"
# Also loaded at boot unless the run asks for on-demand loading (the kernel
# then calls busybox modprobe through modules.alias when a test mounts).
FS="ext4 xfs"
# Shipped but left for tests to load with their own parameters
# (insmod /lib/modules/$(uname -r)/brd.ko rd_nr=1 ..., or modprobe brd ...).
EXTRA="brd null_blk loop virtio_pci 9p 9pnet_virtio"
STAMP_VERSION="fetch-kernel v4: $BOOT / $FS / $EXTRA"

die() {
	echo "fetch-kernel: $*" >&2
	exit 1
}

[ $# -eq 1 ] && [ -n "$1" ] || die "usage: $0 KVER"
KVER=$1
for tool in apt-get dpkg-deb depmod modprobe xz; do
	command -v "$tool" >/dev/null 2>&1 ||
		die "$tool missing (run scripts/install-deps.sh)"
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/kernels/$KVER
STAMP=$OUT/.stamp

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_VERSION" ] &&
	[ -f "$OUT/vmlinuz" ] && [ -f "$OUT/modules/load-order" ]; then
	exit 0
fi

TMP=$ROOT/build/kernels/.tmp-$KVER
rm -rf "$TMP" "$OUT"
mkdir -p "$TMP/deb" "$TMP/root" "$OUT/modules"
trap 'rm -rf "$TMP"' EXIT INT TERM

# apt-get download drops privileges to _apt when it can write the directory.
if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then
	chown _apt "$TMP/deb"
fi
echo "fetch-kernel: downloading linux-image-$KVER"
(cd "$TMP/deb" && apt-get download -q "linux-image-$KVER" >/dev/null) ||
	die "apt-get download linux-image-$KVER failed (apt-get update?)"
deb=$(ls "$TMP"/deb/*.deb)
dpkg-deb -x "$deb" "$TMP/root"

for f in vmlinuz config; do
	cp "$TMP/root/boot/$f-$KVER" "$OUT/$f"
done

MODROOT=$TMP/root/lib/modules/$KVER
[ -d "$MODROOT" ] || die "no lib/modules/$KVER in the package"
depmod -b "$TMP/root" "$KVER"

# Dependency closure, dependencies first, as kmod itself would load it.
closure() {	# $@: module names -> unique module paths in load order
	for m in "$@"; do
		modprobe -d "$TMP/root" -S "$KVER" --show-depends "$m" ||
			die "module $m not found"
	done | sed -n 's/^insmod \([^ ]*\).*$/\1/p' | awk '!seen[$0]++'
}

# Plain .ko name for a module file (crc32c-intel.ko.xz -> crc32c-intel.ko).
ko_name() {
	basename "$1" | sed 's/\.ko\.[a-z]*$/.ko/'
}

install_module() {	# $1: module path in the unpacked tree
	dst=$OUT/modules/$(ko_name "$1")
	[ -f "$dst" ] && return 0
	case $1 in
	*.ko.xz) xz -dc "$1" > "$dst" ;;
	*.ko.zst) zstd -qdc "$1" > "$dst" ;;
	*.ko.gz) gzip -dc "$1" > "$dst" ;;
	*.ko) cp "$1" "$dst" ;;
	*) die "unexpected module file $1" ;;
	esac
}

# shellcheck disable=SC2086
closure $BOOT > "$TMP/boot"
# shellcheck disable=SC2086
closure $BOOT $FS > "$TMP/boot-fs"
# shellcheck disable=SC2086
closure $BOOT $FS $EXTRA > "$TMP/all"
while read -r path; do
	install_module "$path"
done < "$TMP/all"
while read -r path; do
	ko_name "$path"
done < "$TMP/boot-fs" > "$OUT/modules/load-order"
while read -r path; do
	ko_name "$path"
done < "$TMP/boot" > "$OUT/modules/load-order-base"

# Flat modules.dep / modules.alias restricted to the shipped modules, so
# busybox modprobe (and the kernel's request_module) work in the guest.
(cd "$OUT/modules" && ls -- *.ko) > "$TMP/files"
sed 's/\.ko$//; s/-/_/g' "$TMP/files" > "$TMP/names"
sed -e 's#[^ :]*/##g' -e 's/\.ko\.[a-z]*\([: ]\)/.ko\1/g' \
	-e 's/\.ko\.[a-z]*$/.ko/' "$MODROOT/modules.dep" |
	awk 'NR == FNR { want[$1] = 1; next }
		{ f = $1; sub(/:$/, "", f); if (f in want) print }' \
		"$TMP/files" - > "$OUT/modules/modules.dep"
awk 'NR == FNR { want[$1] = 1; next }
	$1 == "alias" && ($3 in want)' "$TMP/names" "$MODROOT/modules.alias" \
	> "$OUT/modules/modules.alias"

echo "$STAMP_VERSION" > "$STAMP"
echo "fetch-kernel: $OUT ready ($(wc -l < "$OUT/modules/load-order") boot" \
	"modules, $(ls "$OUT"/modules/*.ko | wc -l) shipped)"
