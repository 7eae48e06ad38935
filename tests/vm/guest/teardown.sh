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
#  3. Mounted ext4 with buffered fio on the slow device: rmdir with an
#     fsync's writeback in flight.
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

# full DEV MIN: at least MIN requests in flight; INFLIGHT holds how many
# (read by the shell itself: no fork between the look and what follows).
full() {
	read -r _r _w < "/sys/block/${1#/dev/}/inflight"
	INFLIGHT=$((_r + _w))
	[ "$INFLIGHT" -ge "$2" ] && return 0
	kill -0 "$FIO_PID" 2>/dev/null || fail "fio ended: $(tail -n 5 "/tmp/$name.fio")"
	return 1
}

# wait_full DEV MIN: until at least MIN requests are in flight; the bound
# (300 s of guest time) is for a fio that hangs, not for a slow start.
wait_full() {
	wait_until 300 "$2 requests in flight on $1 (last seen: ${INFLIGHT:-none})" full "$1" "$2"
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

# backlog_ms DISK: the kernel's "completed at once" message for a disk
# ("ssdemu: ITEM: DISK: power off: ...") since the last kmsg_mark
backlog_ms() {
	kmsg_since | sed -n "s/.*ssdemu: [^ ]*: $1: power off: \([0-9]*\) requests completed at once, up to \([0-9]*\) ms.*/\2/p" |
		tail -n 1
}

# teardown NAME DEV MIN: once MIN requests are in flight, rmdir at once (no
# fork in between: what was in flight cannot all complete first); prints the
# TEARDOWN line, with the number seen in flight just before the rmdir.
teardown() {
	kmsg_mark
	wait_full "$2" "$3"
	n=$INFLIGHT
	read -r t0 _ < /proc/uptime
	rmdir "$CFS/$1" || fail "rmdir $1"
	secs=$(since "$t0")
	# Here, not in a $(...) subshell: a subshell has no child to wait for
	# (its wait returned at once, and the figure measured nothing).
	wait "$FIO_PID"
	fio_s=$(since "$t0")
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
# The disk is open by this script's own descriptor too: the refusal does not
# depend on fio keeping it open.
exec 3< "$dev"
kmsg_mark
t0=$(uptime_s)
if ssdctl destroy preset 2>/tmp/destroy.err; then
	fail "destroy accepted while fio has the disk open"
fi
grep -q "Device or resource busy" /tmp/destroy.err ||
	fail "destroy: $(cat /tmp/destroy.err)"
kmsg_since | grep -q "is open, power=0 refused" || fail "no refusal message"
echo "REFUSED destroy seconds=$(since "$t0")"
exec 3<&-
# Refused means untouched: the device still completes at modeled times
# (thousands of requests in flight: the count moves as soon as time does).
timed() {
	ssdctl stats "$dev" --raw | awk '$1 == "timed_completions" { print $2 }'
}
before=$(timed)
more_timed() {
	[ "$(timed)" -gt "$before" ]
}
wait_until 300 "timed completions after the refusal" more_timed
teardown preset "$dev" 4000

# 2. One chip, 100 ms programs: minutes of backlog.
dev=$(make_dev slow chips=1 channels=1 blocks_per_chip=64 program_ns=100000000)
no_scheduler "$dev"
fio_start slow "$dev" --direct=1 --rw=randrw --bs=4k --iodepth=4096 --size=16M \
	--norandommap
teardown slow "$dev" 4000

# 3. Mounted ext4, buffered writes with fsyncs in flight (10 ms programs,
# so that mkfs takes a moment only).
dev=$(make_dev mounted chips=1 channels=1 blocks_per_chip=64 program_ns=10000000)
mkfs.ext4 -q -E nodiscard "$dev" || fail "mkfs"
mkdir -p /mnt/t && mount "$dev" /mnt/t || fail "mount"
# An fsync every 128 writes puts about 128 single-page writes in flight at
# once, one chip programming them one after another: seen with 96 in flight,
# the last is at least 0.96 s of modeled time away when rmdir starts.
fio_start mounted /mnt/t/f --rw=randwrite --bs=4k --iodepth=64 --size=8M \
	--fsync=128
teardown mounted "$dev" 96
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
