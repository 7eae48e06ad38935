# cache.sh - the same fio verify job on a device with the SLC write cache
# under cache_policy=always, refcnt, procache, plc (PLC-Cache on GCLOCK,
# over dedup, a read cache too) and rce (RCE over LRU, over dedup): a
# hot, skewed 4 KiB random write (zipf) plus a sequential 1 MiB stream,
# data verified with crc32c; under dedup also 64 copies of one page and
# 64 of another, read back; the FTL, cache and dedup consistency checked;
# stats per setting.  The procache device logs its requests: the host
# replays the log through ssdsim with the same keys and seed and must get
# the same decisions.
. /lib.sh
load_module
job="--direct=1 --ioengine=libaio --output-format=terse --terse-version=3"
# 64 copies of a page of @1, at every other 4 KiB of the 1 MiB at @2 MiB.
copies() {
	i=0
	while [ $i -lt 64 ]; do
		dd if=/tmp/page.$1 of="$dev" bs=4k seek=$(($2 * 256 + 2 * i)) \
			oflag=direct conv=notrunc 2>/dev/null || fail "copy $1 $i"
		i=$((i + 1))
	done
}

head -c 4096 /dev/urandom > /tmp/page.a
head -c 4096 /dev/urandom > /tmp/page.b
for setting in always refcnt procache plc rce; do
	policy=$setting
	extra=
	case $setting in
	plc) extra="cache_replacement=gclock dedup=1 cache_read_allocate=1"
		extra="$extra plc_access_threshold=1" ;;
	rce) policy=always extra="cache_rce=1 dedup=1" ;;
	esac
	# timing=0: this test is about data and decisions, not latency.
	keys="timing=0 slc_blocks_per_chip=8 cache_policy=$policy $extra"
	keys="$keys procache_c_bytes=65536 seed=7"
	[ $policy = procache ] && keys="$keys request_log_entries=200000"
	dev=$(ssdctl create c_$setting --config /configs/small-test.conf $keys) ||
		fail "create $setting"
	fio --name=hot --filename="$dev" $job --rw=randwrite --bs=4k --iodepth=8 \
		--size=64M --io_size=96M --random_distribution=zipf:1.1 \
		--randrepeat=1 --verify=crc32c --verify_fatal=1 \
		> /tmp/hot.terse || fail "fio hot randwrite+verify ($policy)"
	fio --name=seq --filename="$dev" $job --rw=write --bs=1M --iodepth=4 \
		--offset=128M --size=32M --verify=crc32c --verify_fatal=1 \
		> /tmp/seq.terse || fail "fio sequential write+verify ($setting)"
	case $extra in
	*dedup=1*)
		copies a 200
		copies b 201
		copies a 202
		# A FLUSH: the dedup write buffer decides what it holds.
		dd if=/dev/null of="$dev" conv=fsync,notrunc 2>/dev/null ||
			fail "flush ($setting)"
		for part in 200:a 201:b 202:a; do
			i=0
			while [ $i -lt 64 ]; do
				dd if="$dev" of=/tmp/back bs=4k count=1 iflag=direct \
					skip=$((${part%:*} * 256 + 2 * i)) 2>/dev/null ||
					fail "read back $part $i"
				cmp -s /tmp/back /tmp/page.${part#*:} ||
					fail "copy $part $i reads wrong ($setting)"
				i=$((i + 1))
			done
		done ;;
	esac
	ssdctl check "$dev" || fail "consistency check ($setting)"
	print_stats "$dev" "$setting"
	if [ $policy = procache ]; then
		echo "CMP-CONFIG $keys"
		echo LOG-BEGIN
		ssdctl log "$dev" || fail "ssdctl log"
		echo LOG-END
	fi
	ssdctl destroy c_$setting || fail "destroy $setting"
done
echo "cache ok"
