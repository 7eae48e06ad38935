# dedup.sh - the dedup layer in the kernel: the SHA-1 self-test at load;
# the same files copied twice to ext4 (the second copy should reach the
# flash as almost nothing); fio writing 50% duplicate blocks, its data
# compared with the same fio job written to a file.
. /lib.sh
load_module
dmesg | grep -q "SHA-1 self-test passed" || fail "no SHA-1 self-test message"
echo "sha1: $(dmesg | grep 'SHA-1 self-test' | tail -n 1 | sed 's/^\[[^]]*\] //')"

# The second copy comes after a sync: only the filter over the live chunks
# (dedup_filter_live_chunks=1) finds it; fio below runs Kim's, the default.
dev=$(ssdctl create dd --config /configs/small-test.conf dedup=1 dedup_filter_live_chunks=1 \
	timing=0) || fail "create"
mkdir -p /tmp/set /mnt/d
for i in 1 2 3 4; do
	dd if=/dev/urandom of=/tmp/set/f$i bs=1M count=4 2>/dev/null || fail "dd urandom"
done
mkfs.ext4 -q "$dev" || fail "mkfs.ext4"
mount "$dev" /mnt/d || fail "mount"
mkdir /mnt/d/a /mnt/d/b
cp /tmp/set/* /mnt/d/a/ || fail "first copy"
sync
print_stats "$dev" first
cp /tmp/set/* /mnt/d/b/ || fail "second copy"
sync
print_stats "$dev" second
echo 3 > /proc/sys/vm/drop_caches
for i in 1 2 3 4; do
	cmp /tmp/set/f$i /mnt/d/a/f$i || fail "first copy of f$i differs"
	cmp /tmp/set/f$i /mnt/d/b/f$i || fail "second copy of f$i differs"
done
umount /mnt/d || fail "umount"
ssdctl check "$dev" || fail "check after the copies"
ssdctl destroy dd || fail "destroy"
rm -rf /tmp/set

# fio's dedupe_percentage=50: half of the blocks repeat earlier ones.  The
# same job written to a file gives the bytes the device must hold.
dev=$(ssdctl create fd --config /configs/small-test.conf dedup=1 timing=0) || fail "create fd"
job="--name=dedup50 --rw=write --bs=4k --size=64M --dedupe_percentage=50"
job="$job --randrepeat=1 --ioengine=psync --output-format=terse --terse-version=3"
fio $job --filename=/tmp/ref > /tmp/ref.terse || fail "fio to a file"
fio $job --filename="$dev" --direct=1 --end_fsync=1 > /tmp/dev.terse || fail "fio to the device"
ref=$(sha1sum /tmp/ref | cut -d' ' -f1)
got=$(dd if="$dev" bs=1M count=64 2>/dev/null | sha1sum | cut -d' ' -f1)
echo "fio data sha1: file $ref device $got"
[ "$ref" = "$got" ] || fail "the device holds other data than fio wrote"
ssdctl check "$dev" || fail "check after fio"
print_stats "$dev" fio
ssdctl destroy fd || fail "destroy fd"
echo "dedup ok"
