# bench.sh - every measurement of `make bench`, in one VM boot.  Prints fio
# JSON between "FIO-BEGIN name" / "FIO-END name" markers, ssdemu statistics
# between "STATS-BEGIN name" / "STATS-END name", and the GC curve samples
# as "GC-SAMPLE seconds host_pages gc_pages" lines; bench/run.py does the
# arithmetic.  Runtimes are scaled to TCG's speed.  SECTIONS (a space-separated
# subset of "overhead fidelity gc readlat") picks what runs.
. /lib.sh
load_module
RUNTIME=${RUNTIME:-6}
SECTIONS=${SECTIONS:-overhead fidelity gc readlat}
MODDIR=/lib/modules/$(uname -r)

# fio_json NAME DEV ARGS...: one job, its JSON between markers.
fio_json() {
	local name=$1 file=$2
	shift 2
	echo "FIO-BEGIN $name"
	fio --name="$name" --filename="$file" --direct=1 --ioengine=libaio \
		--output-format=json "$@" || fail "fio $name"
	echo "FIO-END $name"
}

prefill() {	# DEV SIZE
	fio --name=prefill --filename="$1" --direct=1 --ioengine=libaio \
		--rw=write --bs=1M --iodepth=8 --size="$2" \
		--output-format=terse > /dev/null || fail "prefill $1"
}

# fresh_dev KIND: a new, empty device of KIND on stdout: brd (bio-based RAM
# disk), nullb (null_blk on blk-mq, memory-backed, completing inline: what
# blk-mq itself costs) or ssdemu.
fresh_dev() {
	case $1 in
	brd)
		insmod $MODDIR/brd.ko rd_nr=1 rd_size=$((300 * 1024)) || fail "insmod brd"
		echo /dev/ram0
		;;
	nullb)
		insmod $MODDIR/null_blk.ko nr_devices=1 queue_mode=2 irqmode=0 \
			memory_backed=1 bs=4096 gb=1 hw_queue_depth=64 \
			submit_queues=$(nproc) || fail "insmod null_blk"
		echo /dev/nullb0
		;;
	*)
		ssdctl create ovh --config /configs/small-test.conf timing=0 ||
			fail "create ovh"
		;;
	esac
}

drop_dev() {	# KIND DEV TAG: the last ssdemu's stats are kept for printing
	case $1 in
	brd) rmmod brd ;;
	nullb) rmmod null_blk ;;
	*)
		print_stats "$2" "overhead-$3" > /tmp/last-stats
		ssdctl destroy ovh
		;;
	esac
}

# overhead_job JOB FIO-ARGS...: ROUNDS rounds of back-to-back runs on each
# kind, each on a fresh device (prefilled first for reads), named
# KIND-JOB-ROUND.  Odd rounds run brd first, even rounds ssdemu first, so a
# drift of the host's speed within a round favours neither.
overhead_job() {
	job=$1
	shift
	round=1
	while [ $round -le "$ROUNDS" ]; do
		order="brd nullb ssdemu"
		[ $((round % 2)) = 0 ] && order="ssdemu nullb brd"
		for kind in $order; do
			dev=$(fresh_dev $kind)
			case $job in *read*) prefill "$dev" 256M ;; esac
			fio_json "$kind-$job-$round" "$dev" --size=256M \
				--runtime="$RUNTIME" --time_based "$@"
			drop_dev $kind "$dev" "$job"
		done
		round=$((round + 1))
	done
	cat /tmp/last-stats
}

section_overhead() {
	echo "== 1. overhead: brd, null_blk vs ssdemu timing=0, fresh devices, $ROUNDS rounds"
	overhead_job randwrite-qd1 --rw=randwrite --bs=4k --iodepth=1
	overhead_job randwrite-qd32 --rw=randwrite --bs=4k --iodepth=32
	overhead_job randread-qd1 --rw=randread --bs=4k --iodepth=1
	overhead_job randread-qd32 --rw=randread --bs=4k --iodepth=32
	overhead_job seqwrite-1m --rw=write --bs=1M --iodepth=4
}

# 2a. QD1 latency with $LAT_PRESET (every page type alike, so the model's
# latency is one number per operation), one flash page per I/O, against
# null_blk completing each I/O by hrtimer after exactly that latency: the
# platform's cost of a timer-completed I/O.  LAT_ROUNDS rounds, the two
# devices back to back in each (order alternating), since one run of either
# swings by 10% on this platform.  The device's counters are printed and
# reset after each of its runs.
lat_job() {	# NAME DEV RW
	fio_json "$1" "$2" --rw="$3" --bs="$LAT_PAGE_BYTES" --iodepth=1 \
		--size=64M --runtime="$RUNTIME" --time_based
}
# timer_nullb NAME NS: a null_blk device completing by hrtimer after NS.
timer_nullb() {
	d=/sys/kernel/config/nullb/$1
	mkdir $d || fail "mkdir $d"
	echo 2 > $d/queue_mode && echo 2 > $d/irqmode &&
		echo "$2" > $d/completion_nsec && echo 512 > $d/blocksize &&
		echo 4096 > $d/size && echo 1 > $d/power || fail "null_blk $1"
	# The disk is named after the configfs item (or nullbN on kernels
	# before 5.17); devtmpfs makes the node a moment later, and fio would
	# create a plain file in its place.
	tries=0
	while :; do
		for node in /dev/$1 /dev/nullb$(cat $d/index); do
			[ -b $node ] && echo $node && return
		done
		tries=$((tries + 1))
		[ $tries -le 50 ] || fail "no block device for null_blk $1"
		sleep 0.1
	done
}

section_fidelity() {
	echo "== 2. fidelity: timing=1"
	lat_dev=$(ssdctl create lat --config /configs/$LAT_PRESET) ||
		fail "create $LAT_PRESET"
	prefill "$lat_dev" 64M
	ssdctl reset "$lat_dev"
	insmod $MODDIR/null_blk.ko nr_devices=0 || fail "insmod null_blk"
	nullb_read=$(timer_nullb tread "$MODEL_READ_NS")
	nullb_write=$(timer_nullb twrite "$MODEL_WRITE_NS")
	round=1
	while [ $round -le "$LAT_ROUNDS" ]; do
		order="ssdemu nullb"
		[ $((round % 2)) = 0 ] && order="nullb ssdemu"
		for op in read write; do
			for kind in $order; do
				if [ $kind = ssdemu ]; then
					lat_job ssdemu-qd1-$op-$round "$lat_dev" rand$op
					print_stats "$lat_dev" qd1-$op-$round
					ssdctl reset "$lat_dev"
				else
					eval nb=\$nullb_$op
					lat_job nullb-qd1-$op-$round "$nb" rand$op
				fi
			done
		done
		round=$((round + 1))
	done
	ssdctl destroy lat
	rmdir /sys/kernel/config/nullb/tread /sys/kernel/config/nullb/twrite
	rmmod null_blk

	# 2b. Sequential writes with $PRESET, deep enough to keep every chip
	# busy.
	dev=$(ssdctl create model --config /configs/$PRESET) ||
		fail "create $PRESET"
	fio_json ssdemu-seq-write "$dev" --rw=write --bs=128k --iodepth=$SEQ_QD \
		--offset=128M --size=512M --runtime="$RUNTIME" --time_based
	print_stats "$dev" seq-write
	ssdctl destroy model
}

# uptime: the guest's seconds since boot (1/100 s resolution).
uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

# 3. 4 KiB random writes at QD32 over 90% of small-test.conf, GC_RUNTIME s.
# fio logs its IOPS per second; a sampler reads the device's host and GC
# program counters about once a second, stamped with the seconds since the
# sampler started (so run.py divides by the real interval).
section_gc() {
	echo "== 3. GC under load: 4 KiB random writes at 90% utilisation"
	dev=$(ssdctl create gc --config /configs/small-test.conf) ||
		fail "create gc"
	prefill "$dev" 90%
	ssdctl reset "$dev"
	touch /tmp/gc-sampling
	(
		t0=$(uptime_s)
		while [ -e /tmp/gc-sampling ]; do
			now=$(uptime_s)
			ssdctl stats "$dev" --raw | awk -v t=$now -v t0=$t0 '
				$1 == "flash_program_host_pages" { h = $2 }
				$1 == "flash_program_gc_pages" { g = $2 }
				END { printf "GC-SAMPLE %.2f %d %d\n", t - t0, h, g }'
			sleep 1
		done
	) &
	fio --name=gc --filename="$dev" --direct=1 --ioengine=libaio \
		--rw=randwrite --norandommap --randrepeat=0 \
		--bs=4k --iodepth=32 --size=90% --runtime=$GC_RUNTIME --time_based \
		--write_iops_log=/tmp/gc --log_avg_msec=1000 --output-format=terse \
		> /dev/null || fail "fio gc"
	rm /tmp/gc-sampling
	wait
	print_stats "$dev" gc
	echo "IOPSLOG-BEGIN gc"
	cat /tmp/gc_iops.1.log
	echo "IOPSLOG-END gc"
	ssdctl destroy gc
}

# 4. Read latency under writes: small-test.conf (with the key=value
# overrides given) written sequentially over RL_FILL of its space in 128 KiB
# direct writes, counters reset, then RL_RUNTIME s of two fio jobs over that
# range: a writer of 4 KiB random writes at QD1 limited to RL_WRITE_IOPS,
# and a reader of 4 KiB random reads at QD1.  Stats are printed before and
# after the mixed jobs (virtual time is not reset, so run.py takes the
# difference).
readlat_run() {	# TAG [key=value ...]
	tag=$1
	shift
	dev=$(ssdctl create rl --config /configs/small-test.conf "$@") ||
		fail "create rl $*"
	fio --name=fill --filename="$dev" --direct=1 --ioengine=libaio \
		--rw=write --bs=128k --iodepth=8 --size="$RL_FILL" \
		--output-format=terse > /dev/null || fail "fill $tag"
	ssdctl reset "$dev"
	print_stats "$dev" "readlat-$tag-pre"
	echo "FIO-BEGIN readlat-$tag"
	fio --filename="$dev" --direct=1 --ioengine=libaio --bs=4k \
		--size="$RL_FILL" --norandommap --randrepeat=0 \
		--runtime="$RL_RUNTIME" --time_based --output-format=json \
		--name=writer --rw=randwrite --iodepth=1 \
		--rate_iops="$RL_WRITE_IOPS" \
		--name=reader --rw=randread --iodepth=1 ||
		fail "fio readlat-$tag"
	echo "FIO-END readlat-$tag"
	print_stats "$dev" "readlat-$tag"
	ssdctl destroy rl
}

section_readlat() {
	echo "== 4. read latency under writes: $RL_FILL full, writer at $RL_WRITE_IOPS IOPS, reader at QD1"
	readlat_run base
	if cut -f1 $CFS/features | grep -qx read_priority; then
		readlat_run read_priority read_priority=1
	else
		echo "no read_priority key: skipped read_priority=1"
	fi
}

for section in overhead fidelity gc readlat; do
	case " $SECTIONS " in
	*" $section "*) section_$section ;;
	esac
done
echo "bench ok"
