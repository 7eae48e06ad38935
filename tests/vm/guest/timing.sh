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

# 10 ms programs: timing=0's write goes through the guest's whole I/O stack
# under TCG, which a loaded host made slower than small-test's 0.6 ms
# program (787 us seen); 10 ms stays far above it (tests/vm/FLAKES.md).
qd1_program_ns=10000000
echo "QD1-PROGRAM-NS $qd1_program_ns"
slow=$(ssdctl create slow --config /configs/small-test.conf timing=1 \
	program_ns=$qd1_program_ns) || fail "create slow"
fast=$(ssdctl create fast --config /configs/small-test.conf timing=0 \
	program_ns=$qd1_program_ns) || fail "create fast"
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
# blktrace_start (lib.sh) returns once blktrace has set up, with no I/O
# run before; it records from its start, a moment later, and nothing says
# when: so read the device until blktrace's own output holds events (it
# traces), then clear the device's log and counters of those reads;
# blkparse's list starts at the workload's first write (the reads before it
# are the probes).  The trace is then complete by construction: no attempt
# made again, no wait guessed.  blktrace reads a relay sub-buffer only once
# it is full, so the probes read the whole device (about 1200 events each)
# into 256 KiB sub-buffers (64 of them: the same 16 MiB per CPU as 16 of
# 1 MiB).  Its summary ("Total: N events (dropped M)") goes to stdout when it
# writes files.
dev=$(ssdctl create bt --config /configs/small-test.conf $bt_keys) || fail "create bt"
blktrace_start "$dev" /tmp/bt -b 256 -n 64
probes=0
tracing() {	# a probe read of the device, then: has blktrace written events?
	kill -0 "$BT_PID" 2>/dev/null || fail "blktrace ended: $(cat /tmp/bt.err)"
	probes=$((probes + 1))
	dd if="$dev" of=/dev/null bs=1M iflag=direct 2>/dev/null || fail "probe read"
	for f in /tmp/bt/trace.blktrace.*; do
		[ -s "$f" ] && return 0
	done
	return 1
}
wait_until 300 "blktrace to trace $dev" tracing
echo "bt tracing after $probes probe reads of the device"
ssdctl log "$dev" > /dev/null && ssdctl reset "$dev" || fail "clear bt"
fio --name=bt --filename="$dev" $common --rw=randwrite --bs=4k --iodepth=4 \
	--io_size=40M --size=100% --norandommap --randseed=7 > /dev/null ||
	fail "fio bt"
fio --name=bttrim --filename="$dev" $common --rw=randtrim --bs=64k \
	--iodepth=2 --io_size=2M --randseed=8 > /dev/null || fail "fio bt trim"
fio --name=btread --filename="$dev" $common --rw=randread --bs=16k \
	--iodepth=4 --io_size=4M --randseed=9 > /dev/null || fail "fio bt read"
blktrace_stop
grep -q "dropped" /tmp/bt.err && fail "blktrace dropped events"
grep -q "You have" /tmp/bt.out && fail "blktrace: $(cat /tmp/bt.out)"
grep "Total:" /tmp/bt.out
blkparse -q -a issue -i trace -D /tmp/bt > /tmp/bt.all 2>/tmp/blkparse.err ||
	fail "blkparse: $(cat /tmp/blkparse.err)"
# blkparse's default format: field 6 is the action (D: issued), field 7
# the kind (R, W, D...), field 8 the sector.  The probes end at the first
# write.
awk 'w || ($6 == "D" && $7 ~ /W/) { w = 1; print }' /tmp/bt.all > /tmp/bt.txt
ssdctl log "$dev" > /tmp/btlog.txt || fail "ssdctl log bt"
# The log's field 3 is the offset in bytes.  The same number of requests,
# the same first and last one.
traced=$(awk '$6 == "D" { n++; if (n == 1) f = $8 * 512; l = $8 * 512 }
	END { printf "%d %d %d", n, f, l }' /tmp/bt.txt)
logged=$(awk '{ n++; if (n == 1) f = $3; l = $3 }
	END { printf "%d %d %d", n, f, l }' /tmp/btlog.txt)
[ "$traced" = "$logged" ] ||
	fail "blktrace saw (requests first last) $traced, the device logged $logged"
print_stats "$dev" bt
echo "BLKPARSE-BEGIN"
cat /tmp/bt.txt
echo "BLKPARSE-END"
echo "BTLOG-BEGIN"
cat /tmp/btlog.txt
echo "BTLOG-END"
ssdctl destroy bt || fail "destroy bt"
echo "timing ok"
