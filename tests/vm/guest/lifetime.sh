# lifetime.sh - per-device ioctl locking, the disk's lifetime, hw queues.
# The hung-task detector is set to 10 s: a power-off or an ioctl stuck
# behind another device's work reports "INFO: task ... blocked".
#  1. Hardware queues: one by default (every key at its default), as many
#     as asked, one per CPU with hw_queues=0 (/sys/block/DISK/mq/).
#  2. An fd open across a refused power=0 and across rmdir: the ioctls
#     work, then answer ENXIO; the removed disk keeps its number while the
#     fd is open (a new device gets another), and gives it back on close.
#  3. Two devices and a third: back-to-back consistency checks on a big
#     device (ioctl_probe isolation) while the second's ioctls and the
#     third's power cycles are timed.
#  4. rmdir of the big device while a process runs checks on it: rmdir
#     waits for the check in flight, the next one answers ENXIO.
# Prints "MQ", "STALE", "ISOLATION", "CHECKLOOP" lines for the host test.
. /lib.sh
echo 10 > /proc/sys/kernel/hung_task_timeout_secs ||
	fail "no hung-task detector in this kernel"
load_module
small=/configs/small-test.conf

# mq_count NAME: hardware queues of item NAME's disk
mq_count() {
	ls "/sys/block/$(cat "$CFS/$1/disk_name")/mq" | wc -l
}

# 1. Hardware queues.
mkdir $CFS/q || fail "mkdir q"
echo 0 > $CFS/q/timing || fail "timing=0"
echo 1 > $CFS/q/power || fail "power q with every default"
default=$(mq_count q)
echo 0 > $CFS/q/power || fail "power q off"
echo 0 > $CFS/q/hw_queues || fail "hw_queues=0"
echo 1 > $CFS/q/power || fail "power q with hw_queues=0"
zero=$(mq_count q)
echo 0 > $CFS/q/power || fail "power q off"
echo 3 > $CFS/q/hw_queues || fail "hw_queues=3"
echo 1 > $CFS/q/power || fail "power q with hw_queues=3"
three=$(mq_count q)
rmdir $CFS/q || fail "rmdir q"
echo "MQ default=$default zero=$zero three=$three cpus=$(nproc)"

# 2. An fd kept open across power=0 (refused) and rmdir.
old=$(ssdctl create s --config $small) || fail "create s"
exec 4< "$old"
if echo 0 > $CFS/s/power 2>/dev/null; then
	fail "power=0 accepted while open"
fi
ioctl_probe errors "$old" || fail "ioctls on $old after the refused power=0"
rmdir $CFS/s || fail "rmdir s while open"
ioctl_probe stale 4 || fail "ioctls on the removed disk's fd"
new=$(ssdctl create s --config $small) || fail "create s again"
[ "$new" != "$old" ] || fail "$new reused while the removed disk is open"
ssdctl stats "$new" > /dev/null || fail "stats on $new"
ioctl_probe stale 4 || fail "ioctls on the removed disk's fd, with $new up"
exec 4<&-
echo 0 > $CFS/s/power || fail "power s off"
echo 1 > $CFS/s/power || fail "power s on"
again=/dev/$(cat $CFS/s/disk_name)
[ "$again" = "$old" ] || fail "closed: $old not given back ($again)"
ssdctl destroy s || fail "destroy s"
echo "STALE old=$old new=$new again=$again"

# 3. Checks on a big device (about 1 GiB of maps) against another
# device's ioctls and a third's power cycles.
big=$(ssdctl create big --config $small timing=0 chips=64 channels=8 \
	blocks_per_chip=4096 pages_per_block=256) || fail "create big"
other=$(ssdctl create other --config $small request_log_entries=64) ||
	fail "create other"
ssdctl create third --config $small > /dev/null || fail "create third"
dd if=/dev/urandom of="$big" bs=64k count=64 oflag=direct 2>/dev/null || fail "write big"
dd if=/dev/urandom of="$other" bs=64k count=16 oflag=direct 2>/dev/null ||
	fail "write other"
ioctl_probe isolation "$big" "$other" $CFS/third/power || fail "isolation"
ssdctl destroy third || fail "destroy third"
ssdctl destroy other || fail "destroy other"

# 4. rmdir while checks run on the device.
mkfifo /tmp/checking
ioctl_probe check-loop "$big" /tmp/checking > /tmp/checkloop.out &
pid=$!
read -r _ < /tmp/checking
rmdir $CFS/big || fail "rmdir big under checks"
wait $pid || fail "check loop: $(cat /tmp/checkloop.out)"
cat /tmp/checkloop.out
rmmod ssdemu || fail "rmmod"
echo "lifetime ok"
