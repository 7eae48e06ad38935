# powercut.sh - power cuts in the middle of ext4 and xfs workloads on a
# device with a volatile write cache (volatile_write_cache=1), with and
# without dedup below it.  Each round: mount, run a loop of file creates,
# writes, renames, deletes and appends, fsync some files (their checksums go
# to a manifest in the guest's RAM), with a writer running in the
# background, and cut the power at an op that varies from round to round;
# then umount, power=1 (the device comes back with its durable state),
# mount (the journal/log replays), every fsync'ed file reads back its
# checksum, umount, and e2fsck -fn / xfs_repair -n must be clean.  What the
# test asserts holds for any moment of the cut (flushes and FUA are
# honoured): nothing waits for the background writer but its end.
# ROUNDS (set by the host) cuts per file system per device.
. /lib.sh
load_module
mkdir -p /mnt/t
: "${ROUNDS:=6}"
# The flusher writes dirty pages back at once, without a FLUSH: the
# device's cache holds acknowledged, unflushed writes when the power goes.
echo 1 > /proc/sys/vm/dirty_expire_centisecs
echo 5 > /proc/sys/vm/dirty_writeback_centisecs
cuts=0

dev_of() {
	echo "/dev/$(cat $CFS/$1/disk_name)"
}

# workload ROUND STOP: file operations, fsync'ing every third new file;
# the power is cut before op STOP.
workload() {
	r=$1
	stop=$2
	i=0
	while [ $i -lt 40 ]; do
		if [ $i -eq "$stop" ]; then
			echo 1 > $CFS/pc/power_cut || fail "power_cut"
			return 0
		fi
		case $((i % 6)) in
		0 | 3)
			f=/mnt/t/keep/k$r.$i
			dd if=/dev/urandom of=$f bs=4k count=$((1 + i % 9)) conv=fsync \
				2>/dev/null || fail "write $f"
			sync /mnt/t/keep || fail "fsync keep/"
			echo "$(md5sum < $f | cut -d' ' -f1)  $f" >> /tmp/manifest
			;;
		1)
			dd if=/dev/urandom of=/mnt/t/s/a$i bs=16k count=$((1 + i % 5)) 2>/dev/null ||
				fail "write scratch"
			;;
		2)
			[ -e /mnt/t/s/a$((i - 1)) ] && mv /mnt/t/s/a$((i - 1)) /mnt/t/s/b$r.$i
			mkdir -p /mnt/t/s/d$r.$i
			;;
		4)
			cat /mnt/t/s/b* > /mnt/t/s/cat$r 2>/dev/null
			rm -f /mnt/t/s/b*
			;;
		5)
			dd if=/dev/zero of=/mnt/t/s/big bs=64k count=8 oflag=append conv=notrunc \
				2>/dev/null || fail "append"
			;;
		esac
		i=$((i + 1))
	done
	fail "the workload ended without a cut"
}

# round FS ROUND: one cut in the middle of the workload and the checks.
round() {
	fs=$1
	r=$2
	mount -t "$fs" "$(dev_of pc)" /mnt/t || fail "mount $fs round $r"
	mkdir -p /mnt/t/keep /mnt/t/s
	# A writer in the background, never synced: whatever it left is fine.
	(dd if=/dev/urandom of=/mnt/t/s/bg$r bs=64k count=64 2>/dev/null; true) &
	bg=$!
	workload "$r" $((4 + (r * 7) % 23))
	wait $bg
	lost=$(dmesg | grep 'power cut:' | tail -n 1 | sed 's/.*power cut: \([0-9]*\) .*/\1/')
	[ "$(cat $CFS/pc/power)" = 0 ] || fail "power reads 1 after a cut"
	umount /mnt/t || fail "umount after the cut"
	echo 1 > $CFS/pc/power || fail "power=1 after the cut"
	dev=$(dev_of pc)
	# Mounting replays the journal (xfs_repair -n refuses a dirty log).
	mount -t "$fs" "$dev" /mnt/t || fail "mount after the cut ($fs round $r)"
	md5sum -c -s /tmp/manifest || {
		md5sum -c /tmp/manifest | grep -v ': OK$'
		fail "fsync'ed files lost after the cut ($fs round $r)"
	}
	umount /mnt/t || fail "umount"
	case $fs in
	ext4) e2fsck -fn "$dev" > /tmp/fsck.out 2>&1 ;;
	xfs) xfs_repair -n "$dev" > /tmp/fsck.out 2>&1 ;;
	esac || {
		cat /tmp/fsck.out
		fail "$fs not clean after cut $r"
	}
	ssdctl check "$dev" > /dev/null || fail "device check after the cut"
	cuts=$((cuts + 1))
	echo "CUT $label $fs $r files=$(wc -l < /tmp/manifest) lost=$lost fsck=clean"
}

# The raw device first, where what is durable is known exactly: pages
# flushed (fsync of the device: FLUSH) and written with FUA (O_DIRECT|O_SYNC)
# survive a cut; the 8 pages written after them, never flushed, are lost.
raw=$(ssdctl create raw --config /configs/small-test.conf volatile_write_cache=1 \
	write_cache_pages=256 timing=0) || fail "create raw"
for p in a b; do
	dd if=/dev/urandom of=/tmp/$p bs=4k count=8 2>/dev/null
done
dd if=/tmp/a of="$raw" bs=4k count=8 oflag=direct 2>/dev/null || fail "write a"
sync "$raw" || fail "flush"
fio --name=fua --filename="$raw" --rw=write --bs=4k --size=32k --offset=64k \
	--direct=1 --sync=1 --output=/dev/null || fail "fio fua"
dd if="$raw" of=/tmp/c bs=4k skip=16 count=8 iflag=direct 2>/dev/null || fail "read c"
dd if=/tmp/b of="$raw" bs=4k seek=8 count=8 oflag=direct 2>/dev/null || fail "write b"
print_stats "$raw" raw-before
echo 1 > $CFS/raw/power_cut || fail "power_cut raw"
[ "$(cat $CFS/raw/power)" = 0 ] || fail "power reads 1 after a cut"
expect_refused $CFS/raw/timing 1 "Device or resource busy" "cannot change after a power cut"
ssdctl power-on raw || fail "power-on raw"
raw=$(dev_of raw)
dd if="$raw" of=/tmp/a2 bs=4k count=8 iflag=direct 2>/dev/null
dd if="$raw" of=/tmp/b2 bs=4k skip=8 count=8 iflag=direct 2>/dev/null
dd if="$raw" of=/tmp/c2 bs=4k skip=16 count=8 iflag=direct 2>/dev/null
cmp -s /tmp/a /tmp/a2 || fail "flushed pages lost"
cmp -s /tmp/c /tmp/c2 || fail "FUA pages lost"
dd if=/dev/zero of=/tmp/z bs=4k count=8 2>/dev/null
cmp -s /tmp/z /tmp/b2 || fail "unflushed pages survived a cut of a volatile cache"
print_stats "$raw" raw-after
ssdctl destroy raw || fail "destroy raw"
echo "RAW flushed=ok fua=ok unflushed=lost"

for label in vwc vwc-dedup; do
	extra=""
	[ $label = vwc-dedup ] && extra="dedup=1"
	for fs in ext4 xfs; do
		# shellcheck disable=SC2086
		dev=$(ssdctl create pc --config /configs/small-test.conf \
			volatile_write_cache=1 write_cache_pages=256 $extra) || fail "create"
		case $fs in
		ext4) mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4" ;;
		xfs) mkfs.xfs -q -f "$dev" || fail "mkfs.xfs" ;;
		esac
		: > /tmp/manifest
		r=1
		while [ "$r" -le "$ROUNDS" ]; do
			round $fs $r
			r=$((r + 1))
		done
		print_stats "$(dev_of pc)" "$label-$fs"
		ssdctl destroy pc || fail "destroy"
	done
done
# Bad input: power_cut takes 1 alone, and only while powered.
mkdir $CFS/bad || fail "mkdir bad"
expect_refused $CFS/bad/power_cut 1 "Invalid argument" "power_cut refused: not powered"
expect_refused $CFS/bad/power_cut 2 "Invalid argument" "power_cut refused: write 1"
rmdir $CFS/bad
rmmod ssdemu || fail "rmmod"
echo "CUTS $cuts"
echo "powercut ok"
