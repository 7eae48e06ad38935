# snapshot_repeat.sh - aged once, repeated five times (issue 20's "done
# means").  A small device is aged at timing=0 (filled, overwritten at
# random: GC ran) and saved; then five times: a device made from the
# snapshot with timing=1 (a key written over the file's), the same
# workload, statistics, destroy.  The workload's request sequence is fixed
# by construction: one fio thread with the synchronous engine and direct
# I/O (each request is issued once the previous one completed), fixed
# seeds, requests no larger than the queue's max_hw_sectors (never split);
# background GC is off (gc_background_free_blocks=0 in small-test.conf).
# Prints STATS blocks "restoredN" (just made: the snapshot and the
# partition scan) and "runN" (after the workload).
. /lib.sh
load_module
small=/configs/small-test.conf
geo="blocks_per_chip=16 op_percent=25"

a=$(ssdctl create a --config $small $geo timing=0) || fail "create a"
dd if=/dev/urandom of="$a" bs=512k oflag=direct 2>/dev/null
fio --name=age --filename="$a" --direct=1 --ioengine=libaio --iodepth=8 --rw=randwrite \
	--bs=4k --io_size=96M --randseed=3 > /tmp/age.fio 2>&1 || fail "age: $(cat /tmp/age.fio)"
print_stats "$a" aged
ssdctl snapshot save "$a" /tmp/aged.snap || fail "save aged"
ssdctl destroy a || fail "destroy a"

job="--direct=1 --ioengine=psync --randrepeat=1"
i=1
while [ $i -le 5 ]; do
	r=$(ssdctl create r --from /tmp/aged.snap timing=1) || fail "create r --from, run $i"
	[ "$(cat $CFS/r/timing)" = 1 ] || fail "timing=1 not taken"
	print_stats "$r" "restored$i"
	# shellcheck disable=SC2086
	fio --name=mix --filename="$r" $job --rw=randrw --rwmixread=30 --bs=16k \
		--io_size=12M --randseed=1234 > /tmp/mix.fio 2>&1 || fail "mix: $(cat /tmp/mix.fio)"
	# shellcheck disable=SC2086
	fio --name=trim --filename="$r" $job --rw=randtrim --bs=64k --io_size=4M \
		--randseed=99 > /tmp/trim.fio 2>&1 || fail "trim: $(cat /tmp/trim.fio)"
	# shellcheck disable=SC2086
	fio --name=seq --filename="$r" $job --rw=write --bs=128k --offset=32M --io_size=8M \
		> /tmp/seq.fio 2>&1 || fail "seq: $(cat /tmp/seq.fio)"
	print_stats "$r" "run$i"
	ssdctl check "$r" > /dev/null || fail "check, run $i"
	ssdctl destroy r || fail "destroy r, run $i"
	i=$((i + 1))
done
echo "repeat ok"
