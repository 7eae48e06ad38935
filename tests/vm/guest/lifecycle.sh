# lifecycle.sh - devices made and unmade many times, and unload.
#  1. 50 create/write/read/destroy cycles; no disk, index or memory left
#     behind (MemAvailable after the first 10 cycles, which warm the
#     module's caches, and after the last 40, printed).
#  2. Two devices of different configurations (4 KiB pages with 4 KiB
#     sectors; 2 KiB pages with 512 B sectors, cost-benefit GC, SLC region)
#     under concurrent fio verify, timed; power=0 is refused on both five
#     times each (-EBUSY) while this script holds them open (fio may close
#     and reopen them between its phases, or finish: the refusal must not
#     depend on that), and fio still verifies.
#  3. rmdir of a mounted device, then rmmod: refused while the dead file
#     system still holds the disk (the open block device holds the module),
#     and after umount the module unloads.
# Prints "LOOP", "MEM", "VERIFY", "RMMOD" lines for the host test.
. /lib.sh
load_module
small=/configs/small-test.conf

mem_available_kib() {
	awk '/^MemAvailable:/ { print $2 }' /proc/meminfo
}

# 1. Create and destroy, 50 times: memory is measured from cycle 10 on.
dd if=/dev/urandom of=/tmp/l.data bs=4k count=16 2>/dev/null
t0=$(cut -d' ' -f1 /proc/uptime)
i=0
while [ $i -lt 50 ]; do
	if [ $i -eq 10 ]; then
		echo 3 > /proc/sys/vm/drop_caches
		mem0=$(mem_available_kib)
	fi
	dev=$(ssdctl create "l$i" --config $small \
		request_log_entries=$((i * 100))) || fail "create l$i"
	[ "$dev" = /dev/ssdemu0 ] || fail "cycle $i got $dev: an index leaked"
	dd if=/tmp/l.data of="$dev" bs=4k seek=$((i * 16)) oflag=direct 2>/dev/null ||
		fail "write l$i"
	dd if="$dev" bs=4k skip=$((i * 16)) count=16 iflag=direct 2>/dev/null |
		cmp - /tmp/l.data || fail "read l$i"
	ssdctl destroy "l$i" || fail "destroy l$i"
	i=$((i + 1))
done
t1=$(cut -d' ' -f1 /proc/uptime)
[ -z "$(ls $CFS | grep -v '^features$')" ] || fail "items left: $(ls $CFS)"
ls /sys/block | grep -q ssdemu && fail "disks left: $(ls /sys/block)"
echo 3 > /proc/sys/vm/drop_caches
mem1=$(mem_available_kib)
echo "LOOP cycles=$i seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
echo "MEM cycles=40 before_kib=$mem0 after_kib=$mem1"

# 2. Two different devices, concurrent fio verify, refused power-offs.
a=$(ssdctl create a --config $small blocks_per_chip=32) || fail "create a"
b=$(ssdctl create b --config /configs/kim-dedup-openssd.conf dedup=0 logical_block_bytes=512 \
	page_size_bytes=2048 pages_per_block=64 blocks_per_chip=32 chips=4 \
	channels=2 gc_policy=cost_benefit slc_blocks_per_chip=4 op_percent=20 program_ns=400000) ||
	fail "create b"
common="--direct=1 --ioengine=libaio --rw=randwrite --iodepth=16 --size=32M"
common="$common --verify=crc32c --verify_fatal=1 --do_verify=1"
# shellcheck disable=SC2086
fio --name=a --filename="$a" --bs=4k $common > /tmp/a.fio 2>&1 &
pa=$!
# shellcheck disable=SC2086
fio --name=b --filename="$b" --bs=2k --randrepeat=0 $common > /tmp/b.fio 2>&1 &
pb=$!
# fio_writing DEV PID LOG: fio has written to DEV; fails at once if fio
# ended without writing (its own error, not a slow start).
fio_writing() {
	disk_wrote "$1" && return 0
	kill -0 "$2" 2>/dev/null || fail "fio ended before writing to $1: $(tail -n 5 "$3")"
	return 1
}
# Wait until both have written (fio is at work): the refusals below do not
# depend on it (this script's own descriptors hold the disks), the bound is
# only for a fio that hangs.
wait_until 300 "fio to write to $a" fio_writing "$a" $pa /tmp/a.fio
wait_until 300 "fio to write to $b" fio_writing "$b" $pb /tmp/b.fio
# The disks open by this script's own descriptors: open, power=0 is refused.
exec 3<"$a" 4<"$b"
refusals=0
while [ $refusals -lt 10 ]; do
	for d in a b; do
		if echo 0 > "$CFS/$d/power" 2>/tmp/p.err; then
			fail "power=0 on $d accepted while open"
		fi
		grep -q "resource busy" /tmp/p.err || fail "power=0 on $d: $(cat /tmp/p.err)"
		refusals=$((refusals + 1))
	done
	sleep 0.2
done
exec 3<&- 4<&-
wait $pa || fail "fio verify on a: $(tail -n 5 /tmp/a.fio)"
wait $pb || fail "fio verify on b: $(tail -n 5 /tmp/b.fio)"
ssdctl check "$a" || fail "check a"
ssdctl check "$b" || fail "check b"
for d in a b; do
	waf=$(ssdctl stats "/dev/$(cat $CFS/$d/disk_name)" --raw | awk '$1 == "waf" { print $2 }')
	echo "VERIFY name=$d refusals=$refusals waf=$waf"
done
ssdctl destroy a || fail "destroy a"
ssdctl destroy b || fail "destroy b"

# 3. rmmod after rmdir of a mounted device.
dev=$(ssdctl create m --config $small timing=0) || fail "create m"
mkfs.ext4 -q "$dev" || fail "mkfs m"
mkdir -p /mnt/m && mount "$dev" /mnt/m || fail "mount m"
rmdir $CFS/m || fail "rmdir m"
if rmmod ssdemu 2>/tmp/rmmod.err; then
	fail "rmmod while the removed disk is still mounted"
fi
echo "RMMOD mounted=refused: $(cat /tmp/rmmod.err)"
umount /mnt/m || fail "umount m"
rmmod ssdemu || fail "rmmod after umount"
echo "RMMOD unmounted=ok"
load_module
rmmod ssdemu || fail "rmmod of a module with no devices"
echo "lifecycle ok"
