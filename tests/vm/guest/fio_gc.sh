# fio_gc.sh - fill 95% of the device, then random 4 KiB writes over it with
# crc32c verification, so GC relocates valid data under load; then four
# verifying jobs at once from both CPUs over several hardware queues.
. /lib.sh
load_module
# timing=0: this test is about data and GC under load; timing.sh times.
dev=$(ssdctl create gc --config /configs/small-test.conf timing=0) || fail "create"
echo "device=$dev queues=$(ls /sys/block/${dev#/dev/}/mq | wc -l)"
common="--filename=$dev --direct=1 --ioengine=libaio --group_reporting"
common="$common --output-format=terse --terse-version=3"

fio --name=fill $common --rw=write --bs=1M --iodepth=8 --size=95% \
	> /tmp/fill.terse || fail "fio fill"
print_stats "$dev" fill
ssdctl reset "$dev" || fail "reset"

fio --name=rand $common --rw=randwrite --bs=4k --iodepth=16 --size=95% \
	--verify=crc32c --verify_fatal=1 --randrepeat=1 \
	> /tmp/rand.terse || fail "fio randwrite+verify"
echo "rand_write_iops=$(cut -d';' -f49 /tmp/rand.terse)"
ssdctl check "$dev" || fail "FTL check after randwrite"
print_stats "$dev" rand

fio --name=par $common --rw=randwrite --bs=4k --iodepth=8 --numjobs=4 \
	--size=20% --offset_increment=24% --cpus_allowed=0-1 \
	--cpus_allowed_policy=split --verify=crc32c --verify_fatal=1 \
	> /tmp/par.terse || fail "fio 4 jobs"
ssdctl check "$dev" || fail "FTL check after 4 jobs"
print_stats "$dev" par
ssdctl destroy gc || fail "destroy"
echo "fio_gc ok"
