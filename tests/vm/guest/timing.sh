# timing.sh - I/O completes at the time the model says.
#  1. timing=1: a QD1 4 KiB write takes at least the modeled program time;
#     timing=0: the same write is faster than that (delays really off).
#  2. A mixed fio workload with the request log on, GC included: the host
#     replays the log through ssdsim and compares counters and times.
#  3. A workload traced with blktrace: the host replays blkparse's text
#     through ssdsim and compares it with the device's own request log.
. /lib.sh
load_module
common="--direct=1 --ioengine=libaio --output-format=terse --terse-version=3"

# Field 81 of terse v3 is the mean total write latency in microseconds.
qd1_write_us() {
	fio --name=qd1 --filename="$1" $common --rw=randwrite --bs=4k \
		--iodepth=1 --number_ios=400 --size=64M > /tmp/qd1.terse ||
		fail "fio qd1 on $1"
	cut -d';' -f81 /tmp/qd1.terse
}

slow=$(ssdctl create slow --config /configs/small-test.conf timing=1) || fail "create slow"
fast=$(ssdctl create fast --config /configs/small-test.conf timing=0) || fail "create fast"
echo "qd1_write_us timing=1 $(qd1_write_us "$slow")"
echo "qd1_write_us timing=0 $(qd1_write_us "$fast")"
print_stats "$slow" qd1
ssdctl destroy slow && ssdctl destroy fast || fail "destroy"

# 102 MiB logical on 128 MiB of flash: 150 MiB of random writes make GC run.
cmp_keys="blocks_per_chip=16 op_percent=20 request_log_entries=400000"
echo "CMP-CONFIG $cmp_keys"
dev=$(ssdctl create cmp --config /configs/small-test.conf $cmp_keys) || fail "create cmp"
fio --name=mix --filename="$dev" $common --rw=randrw --rwmixread=30 \
	--bs=4k --iodepth=8 --numjobs=2 --io_size=75M --size=100% \
	--random_generator=lfsr > /dev/null || fail "fio mix"
fio --name=trim --filename="$dev" $common --rw=randtrim --bs=64k \
	--iodepth=4 --io_size=8M > /dev/null || fail "fio trim"
fio --name=seq --filename="$dev" $common --rw=write --bs=128k \
	--iodepth=4 --size=16M > /dev/null || fail "fio seq"
print_stats "$dev" cmp
echo "LOG-BEGIN"
ssdctl log "$dev" || fail "ssdctl log"
echo "LOG-END"
ssdctl destroy cmp || fail "destroy cmp"

# 32 MiB of flash, 40 MiB of random writes from one submitter (so the
# order blktrace sees is the order the device served), then trims, reads.
# blktrace's times differ from the device's by a microsecond or two; slow
# programs keep every chip busy, so where a page goes (the chip free
# soonest) never hangs on that difference.
bt_keys="pages_per_block=64 blocks_per_chip=16 op_percent=20 timing=0"
bt_keys="$bt_keys program_ns=2000000 request_log_entries=100000"
echo "BT-CONFIG $bt_keys"
# blktrace's setup (its trace files appear) comes before its start, and no
# file says when it started: an attempt that began its workload before
# blktrace traced is seen afterwards (blkparse issued fewer requests than
# the device logged) and made again on a fresh device, waiting longer
# first.  Only a complete trace goes to the host.
attempt=1
wait_s=1
while :; do
	dev=$(ssdctl create bt --config /configs/small-test.conf $bt_keys) ||
		fail "create bt"
	blktrace -d "$dev" -b 1024 -n 16 -o - 2>/tmp/blktrace.err |
		blkparse -q -a issue -i - > /tmp/bt.txt 2>/tmp/blkparse.err &
	tries=0
	until [ -e "/sys/kernel/debug/block/${dev#/dev/}/trace0" ]; do
		tries=$((tries + 1))
		[ $tries -le 100 ] || fail "blktrace did not start: $(cat /tmp/blktrace.err)"
		sleep 0.1
	done
	# What the device saw before (the kernel's partition scan) leaves the
	# log and the counters.
	sleep $wait_s
	ssdctl log "$dev" > /dev/null && ssdctl reset "$dev" || fail "clear bt"
	fio --name=bt --filename="$dev" $common --rw=randwrite --bs=4k --iodepth=4 \
		--io_size=40M --size=100% --norandommap --randseed=7 > /dev/null ||
		fail "fio bt"
	fio --name=bttrim --filename="$dev" $common --rw=randtrim --bs=64k \
		--iodepth=2 --io_size=2M --randseed=8 > /dev/null || fail "fio bt trim"
	fio --name=btread --filename="$dev" $common --rw=randread --bs=16k \
		--iodepth=4 --io_size=4M --randseed=9 > /dev/null || fail "fio bt read"
	kill -INT "$(pidof blktrace)" || fail "stop blktrace"
	wait
	grep -q "dropped" /tmp/blktrace.err && fail "blktrace dropped events"
	ssdctl log "$dev" > /tmp/btlog.txt || fail "ssdctl log bt"
	# blkparse's default format: field 6 is the action (D: issued), field
	# 8 the sector; the log's field 3 is the offset in bytes.  The same
	# number of requests, the same first and last one.
	traced=$(awk '$6 == "D" { n++; if (n == 1) f = $8 * 512; l = $8 * 512 }
		END { printf "%d %d %d", n, f, l }' /tmp/bt.txt)
	logged=$(awk '{ n++; if (n == 1) f = $3; l = $3 }
		END { printf "%d %d %d", n, f, l }' /tmp/btlog.txt)
	[ "$traced" = "$logged" ] && break
	echo "bt attempt $attempt: blktrace saw (requests first last) $traced, the device $logged"
	[ $attempt -lt 5 ] || fail "blktrace missed requests in 5 attempts"
	ssdctl destroy bt || fail "destroy bt"
	attempt=$((attempt + 1))
	wait_s=$((wait_s * 2))
done
print_stats "$dev" bt
echo "BLKPARSE-BEGIN"
cat /tmp/bt.txt
echo "BLKPARSE-END"
echo "BTLOG-BEGIN"
cat /tmp/btlog.txt
echo "BTLOG-END"
ssdctl destroy bt || fail "destroy bt"
echo "timing ok"
