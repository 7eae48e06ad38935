# teardown.sh - power-off under load must not wait for modeled time.
# The hung-task detector is set to 10 s, so a teardown that blocks reports
# "INFO: task ... blocked" (the VM bed fails the test on it).
#  1. The slowest preset (kim-dedup-openssd with dedup=0: its write buffer
#     would absorb the writes; 1.3 ms programs), 4096 tags on
#     one queue, no scheduler, fio randwrite at iodepth 4096: once the queue
#     is full, `ssdctl destroy` is refused (the disk is open, -EBUSY) at
#     once and the device keeps serving; then rmdir tears it down.
#  2. The same preset with one chip and 100 ms programs (minutes of modeled
#     backlog with a full queue), fio randrw: rmdir.
#  3. Mounted ext4 with buffered fio on the slow device: rmdir.
#  4. rmmod with a device present is refused; after destroy it unloads.
# Prints "TEARDOWN name=... seconds=... inflight=... backlog_ms=...
# fio_exit_s=..." lines; the host test checks them.
. /lib.sh
echo 10 > /proc/sys/kernel/hung_task_timeout_secs ||
	fail "no hung-task detector in this kernel"
load_module
PRESET=/configs/kim-dedup-openssd.conf

uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

since() {	# T0: seconds since uptime T0
	awk -v t0="$1" -v t1="$(uptime_s)" 'BEGIN { printf "%.2f", t1 - t0 }'
}

inflight() {	# DEV: requests the driver holds (reads + writes)
	awk '{ print $1 + $2 }' "/sys/block/${1#/dev/}/inflight"
}

# wait_full DEV MIN: until at least MIN requests are in flight (60 s at most)
wait_full() {
	i=0
	while [ "$(inflight "$1")" -lt "$2" ]; do
		i=$((i + 1))
		[ $i -le 600 ] || fail "$1: only $(inflight "$1") requests in flight"
		sleep 0.1
	done
}

# fio_start NAME DEV_OR_FILE ARGS...: fio in the background; FIO_PID set
fio_start() {
	name=$1
	target=$2
	shift 2
	fio --name="$name" --filename="$target" --ioengine=libaio \
		--time_based --runtime=600 "$@" > "/tmp/$name.fio" 2>&1 &
	FIO_PID=$!
}

# fio_wait NAME T0: wait for the background fio; prints seconds since T0
fio_wait() {
	wait "$FIO_PID"
	since "$2"
}

# backlog_ms DISK: the kernel's "completed at once" message for a disk
# ("ssdemu: ITEM: DISK: power off: ...")
backlog_ms() {
	dmesg | tail -n +$((DMESG_LINES + 1)) | sed -n "s/.*ssdemu: [^ ]*: $1: power off: \([0-9]*\) requests completed at once, up to \([0-9]*\) ms.*/\2/p" |
		tail -n 1
}

# teardown NAME DEV: rmdir under load; prints the TEARDOWN line
teardown() {
	n=$(inflight "$2")
	DMESG_LINES=$(dmesg | wc -l)
	t0=$(uptime_s)
	rmdir "$CFS/$1" || fail "rmdir $1"
	secs=$(since "$t0")
	fio_s=$(fio_wait "$1" "$t0")
	[ ! -e "$2" ] || fail "$2 still exists"
	echo "TEARDOWN name=$1 seconds=$secs inflight=$n backlog_ms=$(backlog_ms "${2#/dev/}") fio_exit_s=$fio_s"
}

make_dev() {	# NAME KEY=VALUE...: prints the device path
	name=$1
	shift
	ssdctl create "$name" --config $PRESET dedup=0 hw_queues=1 queue_depth=4096 "$@" ||
		fail "create $name"
}

no_scheduler() {
	echo none > "/sys/block/${1#/dev/}/queue/scheduler" || fail "scheduler none"
}

# 1. The preset as it ships, a full queue of 64 KiB random writes.
dev=$(make_dev preset)
no_scheduler "$dev"
fio_start preset "$dev" --direct=1 --rw=randwrite --bs=64k --iodepth=4096 \
	--size=1G --norandommap
wait_full "$dev" 4000
t0=$(uptime_s)
if ssdctl destroy preset 2>/tmp/destroy.err; then
	fail "destroy accepted while fio has the disk open"
fi
grep -q "Device or resource busy" /tmp/destroy.err ||
	fail "destroy: $(cat /tmp/destroy.err)"
dmesg | tail -n 3 | grep -q "is open, power=0 refused" || fail "no refusal message"
echo "REFUSED destroy seconds=$(since "$t0")"
# Refused means untouched: the device still completes at modeled times.
before=$(ssdctl stats "$dev" --raw | awk '$1 == "timed_completions" { print $2 }')
sleep 1
after=$(ssdctl stats "$dev" --raw | awk '$1 == "timed_completions" { print $2 }')
[ "$after" -gt "$before" ] || fail "no timed completions after the refusal"
wait_full "$dev" 4000
teardown preset "$dev"

# 2. One chip, 100 ms programs: minutes of backlog.
dev=$(make_dev slow chips=1 channels=1 blocks_per_chip=64 program_ns=100000000)
no_scheduler "$dev"
fio_start slow "$dev" --direct=1 --rw=randrw --bs=4k --iodepth=4096 --size=16M \
	--norandommap
wait_full "$dev" 4000
teardown slow "$dev"

# 3. Mounted ext4, buffered writes with fsyncs in flight (10 ms programs,
# so that mkfs takes a moment only).
dev=$(make_dev mounted chips=1 channels=1 blocks_per_chip=64 program_ns=10000000)
mkfs.ext4 -q -E nodiscard "$dev" || fail "mkfs"
mkdir -p /mnt/t && mount "$dev" /mnt/t || fail "mount"
fio_start mounted /mnt/t/f --rw=randwrite --bs=4k --iodepth=64 --size=8M \
	--fsync=32
wait_full "$dev" 8
teardown mounted "$dev"
umount /mnt/t 2>/dev/null || umount -l /mnt/t || fail "umount after rmdir"
echo "umounted the dead file system"

# 4. rmmod: configfs pins the module while a device exists.
dev=$(make_dev last)
if rmmod ssdemu 2>/tmp/rmmod.err; then
	fail "rmmod with a device present"
fi
echo "REFUSED rmmod with device: $(cat /tmp/rmmod.err)"
ssdctl destroy last || fail "destroy last"
rmmod ssdemu || fail "rmmod after destroy"
echo "teardown ok"
