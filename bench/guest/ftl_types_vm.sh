# ftl_types_vm.sh - every FTL type on the device (timing=1), fio in fixed
# sizes (never time-based), the device's statistics after each phase.
#
# Run with RUNS ("TAG:key=value,key=value ..."), DEVICE (key=value ...
# over /configs/small-test.conf), FILL_MB, RAND_MB, SEQ_MB and VERIFY_MB
# set before this text.  Per run, on a fresh device:
#   fill    sequential 128 KiB writes over the first FILL_MB (QD1)
#   rand    RAND_MB of 4 KiB random writes over that range (QD1, seeded)
#   seq     SEQ_MB of sequential 128 KiB writes from offset 0 (QD1)
#   verify  VERIFY_MB of 4 KiB random writes with crc32c, read back and
#           checked by fio (verify_fatal: a bad block fails the run)
# Prints fio's JSON (FIO TAG-PHASE), the stats after every phase
# (STATS TAG-PHASE) and "VERIFY TAG ok".
. /lib.sh
load_module

# phase TAG PHASE DEV FIO-ARGS...: one fio job, its JSON, then the stats.
phase() {
	tag=$1 what=$2 dev=$3
	shift 3
	fio --output-format=json --filename="$dev" --direct=1 --ioengine=psync \
		--name="$what" --randseed=1 --randrepeat=1 "$@" > /tmp/fio.json ||
		fail "$tag $what: fio $* $(cat /tmp/fio.json)"
	echo "FIO-BEGIN $tag-$what"
	cat /tmp/fio.json
	echo "FIO-END $tag-$what"
	print_stats "$dev" "$tag-$what"
}

for run in $RUNS; do
	tag=${run%%:*}
	keys=$(echo "${run#*:}" | tr ',' ' ')
	# shellcheck disable=SC2086 # DEVICE and keys are key=value words
	dev=$(ssdctl create "f_$tag" --config /configs/small-test.conf $DEVICE $keys) ||
		fail "$tag: create ($DEVICE $keys)"
	phase "$tag" fill "$dev" --rw=write --bs=128k --size="${FILL_MB}M"
	phase "$tag" rand "$dev" --rw=randwrite --bs=4k --size="${FILL_MB}M" \
		--io_size="${RAND_MB}M"
	phase "$tag" seq "$dev" --rw=write --bs=128k --size="${SEQ_MB}M"
	phase "$tag" verify "$dev" --rw=randwrite --bs=4k --size="${VERIFY_MB}M" \
		--verify=crc32c --do_verify=1 --verify_fatal=1
	echo "VERIFY $tag ok"
	ssdctl check "$dev" > /dev/null || fail "$tag: ssdctl check"
	ssdctl destroy "f_$tag" || fail "$tag: destroy"
done
echo "ftl_types_vm ok"
