# ftl_types.sh - every FTL type the module offers (ftl_type) on a small
# device (timing=0: this is about data and the FTL's state, not time):
#   fill    sequential 128 KiB writes over the first 24 MiB
#   rand    4 KiB random writes over them with crc32c, read back and
#           checked by fio (verify_fatal), then `ssdctl check`
#   saved   the device saved, destroyed, made again from the file: fio
#           verifies the same blocks again (verify_only), `ssdctl check`
# Run with TYPES (ftl_type's values, as ssdsim lists them: the same core)
# set before this text.  The stats after each phase (STATS TYPE-PHASE).
. /lib.sh
load_module

geometry="chips=4 channels=2 blocks_per_chip=40 pages_per_block=64 op_percent=15"
fio_args="--direct=1 --ioengine=psync --randseed=7 --randrepeat=1 --bs=4k"
fio_args="$fio_args --rw=randwrite --size=24M --io_size=6M --verify=crc32c"
fio_args="$fio_args --verify_fatal=1"

echo "TYPES $TYPES"
for t in $TYPES; do
	extra=""
	[ "$t" = dftl ] && extra="dftl_cmt_entries=256"
	# shellcheck disable=SC2086 # geometry and extra are key=value words
	dev=$(ssdctl create "f_$t" --config /configs/small-test.conf timing=0 $geometry \
		ftl_type=$t $extra) || fail "$t: create"
	[ "$(cat "$CFS/f_$t/ftl_type")" = "$t" ] || fail "$t: ftl_type reads $(cat "$CFS/f_$t/ftl_type")"
	fio --name=fill --filename="$dev" --direct=1 --ioengine=psync --rw=write --bs=128k \
		--size=24M > /tmp/fio.out || fail "$t: fill $(cat /tmp/fio.out)"
	print_stats "$dev" "$t-fill"
	# shellcheck disable=SC2086 # fio_args are words
	fio --name=rand --filename="$dev" $fio_args > /tmp/fio.out ||
		fail "$t: random writes with verify $(cat /tmp/fio.out)"
	ssdctl check "$dev" > /dev/null || fail "$t: ssdctl check after the random writes"
	print_stats "$dev" "$t-rand"
	ssdctl snapshot save "$dev" /tmp/f.snap || fail "$t: snapshot save"
	ssdctl destroy "f_$t" || fail "$t: destroy"
	dev=$(ssdctl create "f_$t" --from /tmp/f.snap) || fail "$t: create --from"
	# shellcheck disable=SC2086 # fio_args are words
	fio --name=rand --filename="$dev" $fio_args --verify_only > /tmp/fio.out ||
		fail "$t: the data after the load $(cat /tmp/fio.out)"
	ssdctl check "$dev" > /dev/null || fail "$t: ssdctl check after the load"
	print_stats "$dev" "$t-saved"
	ssdctl destroy "f_$t" || fail "$t: destroy after the load"
	rm -f /tmp/f.snap
	echo "type $t ok"
done
echo "ftl_types ok"
