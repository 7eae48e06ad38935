# demo.sh - what `make demo` shows: a TLC SSD you can mkfs.  Create a
# device from configs/small-test.conf, put ext4 on it, copy files onto it
# round after round (deleting the previous copy, no online discard), then
# overwrite a database-like file at random, check the filesystem, and print
# what the flash went through after each phase.
. /lib.sh
load_module
dev=$(ssdctl create demo --config /configs/small-test.conf) || fail "create"
echo "== created $dev from configs/small-test.conf ($(($(blockdev --getsize64 "$dev") >> 20)) MiB)"
mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4"
mkdir -p /mnt/demo
mount "$dev" /mnt/demo || fail "mount"
ssdctl reset "$dev"

size_mb=$(du -sm /usr | cut -f1)
rounds=$((800 / size_mb))
echo "== phase 1: copy /usr ($size_mb MiB) $rounds times, deleting the previous copy each round"
round=1
while [ $round -le $rounds ]; do
	cp -a /usr /mnt/demo/usr.$round || fail "copy"
	[ $round -gt 1 ] && rm -rf /mnt/demo/usr.$((round - 1))
	sync
	round=$((round + 1))
done
summary "$dev" "phase 1 (big files, rewritten whole)"
ssdctl reset "$dev"

echo "== phase 2: 4 KiB random overwrites of a 300 MiB file (fio, 800 MiB in all)"
fio --name=db --filename=/mnt/demo/db --size=300M --io_size=800M \
	--rw=randwrite --norandommap --randrepeat=0 --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=16 \
	--output-format=terse > /dev/null || fail "fio"
summary "$dev" "phase 2 (small random overwrites)"
df -h /mnt/demo | tail -n 1
umount /mnt/demo
e2fsck -fn "$dev" > /dev/null || fail "e2fsck"
echo "== e2fsck: clean"
echo "== ssdctl stats $dev (since phase 2 began)"
ssdctl stats "$dev"
ssdctl destroy demo
