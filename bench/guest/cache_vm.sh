# cache_vm.sh - one workload on the device under the ProCache paper's three
# policies (BASE = always, REFCNT, ProCache), timed (timing=1): a hot
# Zipf-skewed 4 KiB random writer beside a 1 MiB sequential writer, as one
# fio run; fio's JSON and the device's stats per policy.
. /lib.sh
load_module
for policy in always refcnt procache; do
	dev=$(ssdctl create b_$policy --config /configs/small-test.conf \
		slc_blocks_per_chip=8 cache_policy=$policy procache_c_bytes=65536 \
		seed=7) || fail "create $policy"
	fio --output-format=json --filename="$dev" --direct=1 --ioengine=libaio \
		--name=hot --rw=randwrite --bs=4k --iodepth=8 --size=64M \
		--io_size=64M --random_distribution=zipf:1.1 --randrepeat=1 \
		--name=seq --rw=write --bs=1M --iodepth=2 --offset=128M --size=64M \
		> /tmp/fio.json || fail "fio $policy"
	echo "FIO-BEGIN $policy"
	cat /tmp/fio.json
	echo "FIO-END $policy"
	print_stats "$dev" "$policy"
	ssdctl destroy b_$policy || fail "destroy $policy"
done
echo "cache_vm ok"
