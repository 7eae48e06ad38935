# cache.sh - the same fio verify job on a device with the SLC write cache
# under cache_policy=always, refcnt and procache: a hot, skewed 4 KiB
# random write (zipf) plus a sequential 1 MiB stream, data verified with
# crc32c, the FTL and cache consistency checked; stats per policy.  The
# procache device logs its requests: the host replays the log through
# ssdsim with the same keys and seed and must get the same decisions.
. /lib.sh
load_module
job="--direct=1 --ioengine=libaio --output-format=terse --terse-version=3"
for policy in always refcnt procache; do
	# timing=0: this test is about data and decisions, not latency.
	keys="timing=0 slc_blocks_per_chip=8 cache_policy=$policy"
	keys="$keys procache_c_bytes=65536 seed=7"
	[ $policy = procache ] && keys="$keys request_log_entries=200000"
	dev=$(ssdctl create c_$policy --config /configs/small-test.conf $keys) ||
		fail "create $policy"
	fio --name=hot --filename="$dev" $job --rw=randwrite --bs=4k --iodepth=8 \
		--size=64M --io_size=96M --random_distribution=zipf:1.1 \
		--randrepeat=1 --verify=crc32c --verify_fatal=1 \
		> /tmp/hot.terse || fail "fio hot randwrite+verify ($policy)"
	fio --name=seq --filename="$dev" $job --rw=write --bs=1M --iodepth=4 \
		--offset=128M --size=32M --verify=crc32c --verify_fatal=1 \
		> /tmp/seq.terse || fail "fio sequential write+verify ($policy)"
	ssdctl check "$dev" || fail "consistency check ($policy)"
	print_stats "$dev" "$policy"
	if [ $policy = procache ]; then
		echo "CMP-CONFIG $keys"
		echo LOG-BEGIN
		ssdctl log "$dev" || fail "ssdctl log"
		echo LOG-END
	fi
	ssdctl destroy c_$policy || fail "destroy $policy"
done
echo "cache ok"
