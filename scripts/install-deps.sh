#!/bin/sh
# Installs everything ssdemu needs on a Debian bookworm machine, idempotently:
# the build tools, the test-bed programs, and the kernel headers for both
# target kernels (bookworm's 6.1 and bookworm-backports' 6.12).  Kernel
# *images* are not installed here; scripts/fetch-kernel.sh unpacks them
# into build/ so the host's own boot setup is never touched.
set -eu

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

BACKPORTS_LIST=/etc/apt/sources.list.d/ssdemu-bookworm-backports.list

# clang and libclang-rt-14-dev: the libFuzzer harnesses (tests/fuzz);
# zlib1g-dev: CRC-32 of snapshots in userspace (platform/ssd_platform_user.c);
# libzstd-dev: zstd-compressed traces (tools/trace/trace_input.c).
# python3-pip: the reference cache simulator below, and `make python`'s
# install.  python3-tqdm, python3-pandas, python3-matplotlib: the sweeps
# (ssdtools/sweep/: progress bar, DataFrames and Parquet, plots).
# libssl-dev: SHA-1 of dedup fingerprints in userspace (OpenSSL's libcrypto,
# platform/ssd_sha1_user.c); dkms: `make dkms` and tests/build/test_dkms.py.
PACKAGES="build-essential bc kmod cpio xz-utils zstd gzip python3 python3-pytest
	python3-pip python3-tqdm python3-pandas python3-matplotlib qemu-system-x86
	busybox-static fio e2fsprogs xfsprogs nvme-cli blktrace flake8 linux-source-6.1 clang
	libclang-rt-14-dev zlib1g-dev libzstd-dev libssl-dev dkms"
# Only `make bench` and `make demo` plot; `make workload` also configures a kernel tree
# (flex, bison, libelf-dev) on the host.
case "${1:-}" in
--bench|--demo) PACKAGES="$PACKAGES python3-matplotlib" ;;
--workload) PACKAGES="$PACKAGES python3-matplotlib flex bison libelf-dev" ;;
esac

have_backports() {
	grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/
}

missing_packages() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

updated=0
apt_update() {
	[ "$updated" -eq 1 ] && return 0
	$SUDO apt-get update -qq
	updated=1
}

if ! have_backports; then
	echo 'deb http://deb.debian.org/debian bookworm-backports main' |
		$SUDO tee "$BACKPORTS_LIST" >/dev/null
	apt_update
fi

# Kernel ABI names come from the meta packages, so a fresh machine always
# builds against what Debian ships today.
kernel_abi() {	# $1: suite ("" for the default candidate)
	spec=linux-headers-amd64
	[ -n "$1" ] && spec="$spec/$1"
	apt-cache depends "$spec" 2>/dev/null |
		sed -n 's/^ *Depends: linux-headers-\([^ ]*\)$/\1/p' | head -n 1
}

abi_61=$(kernel_abi "")
abi_612=$(kernel_abi bookworm-backports)
if [ -z "$abi_61" ] || [ -z "$abi_612" ]; then
	apt_update
	abi_61=$(kernel_abi "")
	abi_612=$(kernel_abi bookworm-backports)
fi
[ -n "$abi_61" ] && [ -n "$abi_612" ] || {
	echo "install-deps: cannot resolve Debian kernel versions" >&2
	exit 1
}

# shellcheck disable=SC2086
missing=$(missing_packages $PACKAGES "linux-headers-$abi_61" "linux-headers-$abi_612")
if [ -n "$missing" ]; then
	apt_update
	# shellcheck disable=SC2086
	echo "install-deps: installing $(echo $missing | tr '\n' ' ')"
	mkdir -p build
	if ! $SUDO apt-get install -y -q --no-install-recommends $missing \
			> build/apt-install.log 2>&1; then
		tail -n 30 build/apt-install.log >&2
		exit 1
	fi
fi

# The reference the write cache's replacement policies are held to
# (tests/sim/test_cache_reference.py): libCacheSim's Python bindings, from
# PyPI, into build/pydeps (the tests and `make test` put it on the path).
# --no-deps: importing it needs none of its declared dependencies, and
# their numpy 2 would shadow Debian's numpy, which matplotlib is built for.
LIBCACHESIM_VERSION=0.3.5
if ! PYTHONPATH=build/pydeps /usr/bin/python3 -c \
	"import libcachesim, sys; sys.exit(libcachesim.__version__ != '$LIBCACHESIM_VERSION')" \
	2>/dev/null; then
	echo "install-deps: installing libcachesim $LIBCACHESIM_VERSION into build/pydeps"
	mkdir -p build
	rm -rf build/pydeps
	/usr/bin/python3 -m pip install -q --disable-pip-version-check \
		--root-user-action=ignore --no-deps --target build/pydeps \
		"libcachesim==$LIBCACHESIM_VERSION"
fi

# Parquet output of the sweeps (ssdtools/sweep/table.py): pandas writes it
# through pyarrow, which Debian bookworm does not package; from PyPI into
# build/pydeps as above.  18.1.0 runs on Debian's numpy 1.24 (pyarrow 26
# refuses it: it needs numpy 2).
PYARROW_VERSION=18.1.0
if ! PYTHONPATH=build/pydeps /usr/bin/python3 -c \
	"import pyarrow, sys; sys.exit(pyarrow.__version__ != '$PYARROW_VERSION')" \
	2>/dev/null; then
	echo "install-deps: installing pyarrow $PYARROW_VERSION into build/pydeps"
	mkdir -p build/pydeps
	rm -rf build/pydeps/pyarrow build/pydeps/pyarrow-*.dist-info
	/usr/bin/python3 -m pip install -q --disable-pip-version-check \
		--root-user-action=ignore --no-deps --target build/pydeps \
		"pyarrow==$PYARROW_VERSION"
fi

mkdir -p build
printf '%s\n%s\n' "$abi_61" "$abi_612" > build/kernel-versions.new
mv build/kernel-versions.new build/kernel-versions
