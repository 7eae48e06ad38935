# ioctl_fuzz.sh - tests/vm/ioctl_fuzz.c on a device holding data and a
# request log, then on an fd whose disk was removed.  Afterwards the device
# still answers and its FTL check passes.  The host test reads the IOCTL
# lines.
. /lib.sh
load_module
dev=$(ssdctl create i --config /configs/small-test.conf timing=0 \
	request_log_entries=4096) || fail "create i"
dd if=/dev/urandom of=/tmp/i.data bs=64k count=16 2>/dev/null
dd if=/tmp/i.data of="$dev" bs=64k oflag=direct 2>/dev/null || fail "write i"
ioctl_fuzz "$dev" 10000 1 || fail "ioctl_fuzz answered outside EFAULT/ENOTTY/EINVAL"
ssdctl check "$dev" || fail "FTL check after the fuzz"
ssdctl stats "$dev" > /dev/null || fail "stats after the fuzz"
dd if="$dev" bs=64k count=16 iflag=direct 2>/dev/null | cmp - /tmp/i.data ||
	fail "data changed under the fuzz"
exec 3< "$dev"
rmdir $CFS/i || fail "rmdir i"
ioctl_fuzz fd:3 2000 2 || fail "ioctl_fuzz on a removed disk"
exec 3<&-
rmmod ssdemu || fail "rmmod"
echo "ioctl_fuzz ok"
