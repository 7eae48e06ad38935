# snapshot_sim.sh - snapshots between ssdsim and the kernel, both ways.
#  A. /aged.snap, aged by ssdsim on the host, made into a device here
#     (timing=1 and a request log written over the file's keys); a
#     workload; its request log (LOG-BEGIN a) and statistics (STATS a).
#  B. the same device: the log drained, saved by the kernel (SNAP-BEGIN b:
#     gzip, base64), then more workload: its log (LOG-BEGIN b) and
#     statistics (STATS b).
# The host replays each log through ssdsim --from the snapshot it started
# from: the same counters and completion times as the kernel.
. /lib.sh
load_module

workload() {	# DEV SEED: random reads and writes at queue depth 4, trims
	fio --name=rw --filename="$1" --direct=1 --ioengine=libaio --iodepth=4 --rw=randrw \
		--rwmixread=40 --bs=4k --io_size=6M --randseed="$2" --zero_buffers > /tmp/rw.fio 2>&1 ||
		fail "workload rw: $(cat /tmp/rw.fio)"
	fio --name=trim --filename="$1" --direct=1 --ioengine=psync --rw=randtrim --bs=16k \
		--io_size=256k --randseed="$2" > /tmp/trim.fio 2>&1 ||
		fail "workload trim: $(cat /tmp/trim.fio)"
}

print_log() {	# DEV TAG: the request log, emptied; nothing may be dropped
	echo "LOG-BEGIN $2"
	ssdctl log "$1" 2>/tmp/log.err || fail "ssdctl log"
	echo "LOG-END $2"
	[ -s /tmp/log.err ] && fail "log: $(cat /tmp/log.err)"
}

g=$(ssdctl create g --from /aged.snap timing=1 request_log_entries=65536) ||
	fail "create g --from the ssdsim-aged snapshot"
workload "$g" 11
print_stats "$g" a
print_log "$g" a

ssdctl snapshot save g /tmp/b.snap || fail "save b"
workload "$g" 12
print_stats "$g" b
print_log "$g" b
ssdctl check "$g" > /dev/null || fail "check g"
echo "SNAP-BEGIN b"
gzip -c /tmp/b.snap | base64
echo "SNAP-END b"
ssdctl destroy g || fail "destroy g"
echo "snapshot_sim ok"
