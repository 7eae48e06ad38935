# timing.sh - I/O completes at the time the model says.
#  1. timing=1: a QD1 4 KiB write takes at least the modeled program time;
#     timing=0: the same write is faster than that (delays really off).
#  2. A mixed fio workload with the request log on, GC included: the host
#     replays the log through ssdsim and compares counters and times.
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
echo "timing ok"
