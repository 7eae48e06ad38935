# snapshot.sh - snapshots in the kernel: save a device, make one from the
# file, refuse bad files.  One boot:
#  1. round trip: a small device filled, overwritten at random (GC ran) and
#     saved with `ssdctl snapshot save` (a relative path); saved again (the
#     same bytes); written after the save; destroyed; made again with
#     `ssdctl create --from`: every byte is what it was at the save (not
#     the later writes), the FTL check passes, the request log holds what
#     the kernel read since the load (the partition scan); saved again:
#     the sections are printed for the host test; power=0/1 on the same
#     item makes the device from the file again.
#  2. saves while fio writes and verifies at queue depth 16 (timing=1):
#     fio verifies, each snapshot loads, passes the FTL check, holds a
#     region written before fio started, and a count of host writes
#     between the start's and the end's.
#  3. bad files, paths and overrides: each refused (errno, kernel line),
#     no disk left, memory back after 20 refused loads; a failed save
#     leaves the file it would have replaced as it was.
# Prints STATS blocks, "LOG", "SECTION", "REFUSED", "UNDERIO", "MEM" lines.
. /lib.sh
load_module
small=/configs/small-test.conf
# 128 MiB of flash, 96 MiB logical: quick to fill and to age under TCG.
geo="blocks_per_chip=16 op_percent=25 request_log_entries=4096"

md5_dev() {	# DEV [MiB]: md5 of the device (or its first MiB)
	if [ -n "$2" ]; then
		dd if="$1" bs=1M count="$2" iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1
	else
		dd if="$1" bs=1M iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1
	fi
}

# sections FILE LABEL: "SECTION LABEL tag offset bytes md5" per section
# (common/ssd_snap.h: a 4-byte tag, an 8-byte length, the payload, a CRC).
sections() {
	off=0
	size=$(stat -c %s "$1")
	while [ $off -lt "$size" ]; do
		tag=$(dd if="$1" bs=1 skip=$off count=4 2>/dev/null | tr ' ' _)
		len=$(od -An -tu8 -j $((off + 4)) -N8 "$1" | tr -d ' ')
		sum=$(tail -c +$((off + 13)) "$1" | head -c "$len" | md5sum | cut -d' ' -f1)
		echo "SECTION $2 $tag $off $len $sum"
		off=$((off + 16 + len))
	done
}

disks() {
	ls /sys/block | grep -c ssdemu
}

# 1. Round trip.
a=$(ssdctl create a --config $small $geo) || fail "create a"
dd if=/dev/urandom of="$a" bs=512k oflag=direct 2>/dev/null
fio --name=age --filename="$a" --direct=1 --ioengine=libaio --iodepth=8 --rw=randwrite \
	--bs=4k --io_size=64M --randseed=3 > /tmp/age.fio 2>&1 || fail "age: $(cat /tmp/age.fio)"
sum_saved=$(md5_dev "$a")
print_stats "$a" saved
cd /tmp || fail "cd /tmp"
ssdctl snapshot save "$a" s1.snap || fail "save s1 (relative path)"
ssdctl snapshot save a /tmp/s1b.snap || fail "save s1b (by name)"
cd / || fail "cd /"
ls /tmp | grep -q 'tmp-' && fail "a temporary file is left: $(ls /tmp)"
cmp /tmp/s1.snap /tmp/s1b.snap || fail "two saves of an idle device differ"
rm /tmp/s1b.snap
print_stats "$a" after-save
echo "SNAPSHOT bytes=$(stat -c %s /tmp/s1.snap)"
# The device goes on; the snapshot does not see what comes after it.
dd if=/dev/urandom of="$a" bs=1M count=8 seek=16 oflag=direct 2>/dev/null || fail "write after save"
[ "$(md5_dev "$a")" != "$sum_saved" ] || fail "the write after the save changed nothing"
ssdctl check "$a" > /dev/null || fail "check a after the save"
ssdctl destroy a || fail "destroy a"
b=$(cd /tmp && ssdctl create b --from s1.snap) || fail "create b --from (relative path)"
print_stats "$b" loaded
ssdctl log "$b" | sed 's/^/LOG /'
[ "$(md5_dev "$b")" = "$sum_saved" ] || fail "b does not read back what a held at the save"
ssdctl check "$b" > /dev/null || fail "check b"
echo /tmp/s2.snap > $CFS/b/snapshot_save || fail "save b"
sections /tmp/s1.snap s1
sections /tmp/s2.snap s2
rm /tmp/s2.snap
# power=0/1 makes it from the file again: the later writes are gone again.
dd if=/dev/urandom of="$b" bs=1M count=4 oflag=direct 2>/dev/null || fail "write b"
echo 0 > $CFS/b/power || fail "power=0 b"
echo 1 > $CFS/b/power || fail "power=1 b from the file again"
b=/dev/$(cat $CFS/b/disk_name)
[ "$(md5_dev "$b")" = "$sum_saved" ] || fail "b powered again is not the snapshot"
[ "$(cat $CFS/b/snapshot_from)" = /tmp/s1.snap ] || fail "snapshot_from shows $(cat $CFS/b/snapshot_from)"
[ "$(cat $CFS/b/blocks_per_chip)" = 16 ] || fail "b's blocks_per_chip is not the file's"
ssdctl destroy b || fail "destroy b"
echo "roundtrip ok"

# 2. Saves while fio writes and verifies.
u=$(ssdctl create u --config $small $geo) || fail "create u"
dd if=/dev/urandom of=/tmp/marker bs=1M count=8 2>/dev/null
dd if=/tmp/marker of="$u" bs=1M seek=64 oflag=direct 2>/dev/null || fail "marker"
writes() {	# DEV: host_write_bytes
	ssdctl stats "$1" --raw | awk '$1 == "host_write_bytes" { print $2 }'
}
w0=$(writes "$u")
fio --name=io --filename="$u" --direct=1 --ioengine=libaio --iodepth=16 --rw=randwrite \
	--bs=4k --size=48M --loops=3 --verify=crc32c --verify_fatal=1 --do_verify=1 \
	--randseed=5 > /tmp/io.fio 2>&1 &
fio_pid=$!
# Each save once fio has written 4 MiB more, while it still runs.
under_fio() {	# DEV
	want=$(($(writes "$1") + 4194304))
	while [ "$(writes "$1")" -lt $want ]; do
		kill -0 $fio_pid 2>/dev/null || fail "fio ended before the save"
		sleep 0.2
	done
	echo "UNDERIO inflight_before_save=$(cat /sys/block/${1#/dev/}/inflight | tr -s ' ' ,)"
}
under_fio "$u"
ssdctl snapshot save "$u" /tmp/u1.snap || fail "save u1 under fio"
kill -0 $fio_pid 2>/dev/null || fail "fio ended during the save"
under_fio "$u"
echo /tmp/u2.snap > $CFS/u/snapshot_save || fail "save u2 under fio"
kill -0 $fio_pid 2>/dev/null || fail "fio ended during the save"
wait $fio_pid || fail "fio with saves: $(cat /tmp/io.fio)"
w1=$(writes "$u")
ssdctl destroy u || fail "destroy u"
for n in 1 2; do
	v=$(ssdctl create "v$n" --from /tmp/u$n.snap) || fail "create v$n --from u$n"
	ssdctl check "$v" > /dev/null || fail "check v$n"
	[ "$(dd if="$v" bs=1M skip=64 count=8 iflag=direct 2>/dev/null | md5sum)" = \
		"$(md5sum < /tmp/marker)" ] || fail "v$n lost what was written before fio"
	wn=$(writes "$v")
	echo "UNDERIO snap=$n before=$w0 snap_writes=$wn after=$w1"
	ssdctl destroy "v$n" || fail "destroy v$n"
	rm /tmp/u$n.snap
done
echo "underio ok"

# 3. Bad input.
c=$(ssdctl create c --config $small $geo) || fail "create c"
dd if=/dev/urandom of="$c" bs=1M count=4 oflag=direct 2>/dev/null || fail "write c"
ssdctl snapshot save "$c" /tmp/good.snap || fail "save c"
sections /tmp/good.snap good > /tmp/good.sections
cat /tmp/good.sections
size=$(stat -c %s /tmp/good.snap)
SEQ=0
# kernel_lines MARK ITEM: the item's kernel lines since the mark, on one line.
kernel_lines() {
	dmesg | sed -n "/snapshot-test mark $1\$/,\$p" | grep "ssdemu: $2: " |
		sed 's/^\[[^]]*\] //' | tr '\n' '|'
}
# refused LABEL FILE [key=value...]: making a device from FILE is refused.
refused() {
	label=$1
	file=$2
	shift 2
	SEQ=$((SEQ + 1))
	n0=$(disks)
	echo "snapshot-test mark $SEQ" > /dev/kmsg
	mkdir $CFS/t || fail "mkdir t"
	for kv in "$@"; do
		echo "${kv#*=}" > "$CFS/t/${kv%%=*}" || fail "$label: $kv refused"
	done
	if ! { echo "$file" > $CFS/t/snapshot_from; } 2>/tmp/r.err; then
		:
	elif { echo 1 > $CFS/t/power; } 2>/tmp/r.err; then
		fail "$label: power=1 made a device"
	fi
	err=$(sed 's/.*: //' /tmp/r.err)
	[ "$(cat $CFS/t/power)" = 0 ] || fail "$label: powered"
	[ -z "$(cat $CFS/t/disk_name)" ] || fail "$label: a disk_name"
	rmdir $CFS/t || fail "rmdir t"
	[ "$(disks)" = "$n0" ] || fail "$label: a disk is left"
	msg=$(kernel_lines "$SEQ" t)
	echo "REFUSED $label errno=$err | $msg"
}
flip() {	# FILE OFFSET: invert one byte
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	# shellcheck disable=SC2059
	printf "\\$(printf %03o $((b ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
section_at() {	# TAG: the offset of that section of good.snap
	awk -v t="$1" '$3 == t { print $4 }' /tmp/good.sections
}
: > /tmp/empty.snap
refused empty /tmp/empty.snap
for cut in 8 40 $(($(section_at CONF) + 100)) $(($(section_at DATA) + 5000)) $((size - 4)) \
	$((size - 1)); do
	head -c $cut /tmp/good.snap > /tmp/bad.snap
	refused "truncated-$cut" /tmp/bad.snap
done
for where in HEAD:0 HEAD:20 HEAD:32 CONF:200 DEVC:40 FLSH:100 DATA:30000 FTL_:5000 END_:0 \
	END_:12; do
	tag=${where%%:*}
	off=$(($(section_at "$tag") + ${where#*:}))
	cp /tmp/good.snap /tmp/bad.snap
	flip /tmp/bad.snap $off
	refused "flipped-$tag+${where#*:}" /tmp/bad.snap
done
cp /tmp/good.snap /tmp/bad.snap
echo x >> /tmp/bad.snap
refused trailing-bytes /tmp/bad.snap
dd if=/dev/urandom of=/tmp/bad.snap bs=64k count=16 2>/dev/null
refused garbage /tmp/bad.snap
head -c 16 /tmp/good.snap > /tmp/bad.snap
dd if=/dev/urandom bs=64k count=16 2>/dev/null >> /tmp/bad.snap
refused garbage-after-tag /tmp/bad.snap
refused missing /tmp/no/such.snap
refused directory /tmp
refused device /dev/null
refused relative tmp/good.snap
refused page-size /tmp/good.snap page_size_bytes=2048
refused chips /tmp/good.snap chips=4 channels=4
refused slc-region /tmp/good.snap slc_blocks_per_chip=2
refused geometry /tmp/good.snap blocks_per_chip=17
refused stack /tmp/good.snap cache_policy=always
refused memory-limit /tmp/good.snap memory_limit_mb=3
# An override of a key that shapes nothing is taken.
d=$(ssdctl create d --from /tmp/good.snap timing=0 read_ns=70000 request_log_entries=16 \
	memory_limit_mb=64 hw_queues=2 queue_depth=8) || fail "create d with overrides"
for kv in timing=0 read_ns=70000 request_log_entries=16 memory_limit_mb=64 hw_queues=2 \
	queue_depth=8; do
	[ "$(cat "$CFS/d/${kv%%=*}")" = "${kv#*=}" ] || fail "d: override $kv lost"
done
[ "$(ls /sys/block/${d#/dev/}/mq | wc -l)" = 2 ] || fail "d: not 2 hardware queues"
dd if="$d" of=/dev/null bs=4k count=4 iflag=direct 2>/dev/null || fail "d: read"
[ "$(ssdctl log "$d" | wc -l)" -ge 4 ] || fail "d: the request log holds less than 4 reads"
[ "$(cat $CFS/d/blocks_per_chip)" = 16 ] || fail "d: the file's keys lost"
dmesg | grep -q "d: snapshot_from: timing=0 written to the item, the file has 1" ||
	fail "d: the override is not logged"
ssdctl create e --config $small --from /tmp/good.snap 2>/tmp/e.err && fail "--config with --from"
echo "REFUSED ssdctl-config-and-from errno=usage | $(cat /tmp/e.err)"
[ -d $CFS/e ] && fail "e left behind"
ssdctl destroy d || fail "destroy d"

# Memory: 20 loads refused at the end of the file, after the whole device
# was built (the most there is to free).
head -c $((size - 1)) /tmp/good.snap > /tmp/bad.snap
echo 3 > /proc/sys/vm/drop_caches
mem0=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
i=0
while [ $i -lt 20 ]; do
	mkdir $CFS/m && echo /tmp/bad.snap > $CFS/m/snapshot_from || fail "mkdir m"
	echo 1 > $CFS/m/power 2>/dev/null && fail "m: powered"
	rmdir $CFS/m
	i=$((i + 1))
done
echo 3 > /proc/sys/vm/drop_caches
mem1=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
echo "MEM loads=20 before_kib=$mem0 after_kib=$mem1"

# Saves refused: the device is not touched, a file it would replace stays.
SEQ=$((SEQ + 1))
save_refused() {	# LABEL PATH
	echo "snapshot-test mark s$SEQ" > /dev/kmsg
	if { echo "$2" > $CFS/c/snapshot_save; } 2>/tmp/r.err; then
		fail "$1: saved"
	fi
	err=$(sed 's/.*: //' /tmp/r.err)
	msg=$(kernel_lines "s$SEQ" c)
	echo "REFUSED save-$1 errno=$err | $msg"
	SEQ=$((SEQ + 1))
}
save_refused missing-dir /tmp/no/such.snap
save_refused directory /tmp
save_refused device /dev/null
save_refused relative tmp/x.snap
save_refused empty ""
mkdir -p /mnt/full && mount -t tmpfs -o size=1m tmpfs /mnt/full || fail "mount full"
save_refused no-space /mnt/full/x.snap
[ -s /mnt/full/x.snap ] && fail "a failed save left a partial file"
echo keep > /mnt/full/old.snap
ssdctl snapshot save "$c" /mnt/full/old.snap 2>/tmp/e.err && fail "saved to a full fs"
[ "$(cat /mnt/full/old.snap)" = keep ] || fail "a failed save changed the file it would replace"
ls /mnt/full | grep -q tmp- && fail "a failed save left its temporary file"
echo "REFUSED ssdctl-save-no-space errno=ssdctl | $(cat /tmp/e.err)"
umount /mnt/full
mkfs.ext4 -q "$c" || fail "mkfs c"
mkdir -p /mnt/c && mount "$c" /mnt/c || fail "mount c"
save_refused on-itself /mnt/c/x.snap
umount /mnt/c
ssdctl snapshot save /dev/null /tmp/x.snap 2>/tmp/e.err && fail "saved /dev/null"
echo "REFUSED ssdctl-save-not-ssdemu errno=ssdctl | $(cat /tmp/e.err)"
ssdctl check "$c" > /dev/null || fail "check c after the refusals"
ssdctl destroy c || fail "destroy c"
mkdir $CFS/off
save_refused_off() {
	echo "snapshot-test mark s$SEQ" > /dev/kmsg
	{ echo /tmp/off.snap > $CFS/off/snapshot_save; } 2>/tmp/r.err && fail "saved while off"
	echo "REFUSED save-not-powered errno=$(sed 's/.*: //' /tmp/r.err) | $(kernel_lines "s$SEQ" off)"
}
save_refused_off
rmdir $CFS/off
[ -e /tmp/off.snap ] && fail "a save while off made a file"

# A device with dedup over a write cache (buffer, cache and store all
# holding something): saved, made again, every byte read back, checked.
k=$(ssdctl create k --config $small $geo blocks_per_chip=32 slc_blocks_per_chip=4 \
	cache_policy=always dedup=1 dedup_buffer_pages=8) || fail "create k"
dd if=/dev/urandom of=/tmp/k.data bs=1M count=2 2>/dev/null
dd if=/tmp/k.data of="$k" bs=1M oflag=direct 2>/dev/null || fail "write k"
dd if=/tmp/k.data of="$k" bs=1M seek=2 oflag=direct 2>/dev/null || fail "write k twice"
# Direct and no flush after: these stay in dedup's write buffer.
dd if=/tmp/k.data of="$k" bs=4k count=3 seek=1024 oflag=direct 2>/dev/null || fail "buffered k"
k_sum=$(md5_dev "$k" 8)
ssdctl snapshot save "$k" /tmp/k.snap || fail "a device with dedup and a cache not saved"
ssdctl destroy k || fail "destroy k before the load"
k=$(ssdctl create k --from /tmp/k.snap) || fail "a device with dedup and a cache not loaded"
[ "$(md5_dev "$k" 8)" = "$k_sum" ] || fail "dedup+cache device: data changed by save and load"
echo "CACHE saved and loaded, data equal"
ssdctl check "$k" > /dev/null || fail "check k"
ssdctl destroy k || fail "destroy k"
rmmod ssdemu || fail "rmmod"
echo "snapshot ok"
