# algorithm2.sh - the ProCache paper's Algorithm 2 on /dev/ssdemu0, scaled
# (workload/README.md).  Runs in the test VM (busybox sh) with the host's /
# shared read-only over virtio-9p (a full userland: gcc, make, cp, tar) and
# a read-write share for the block traces.  /etc/workload.conf sets
#   CONFIG    the device preset (/configs/...)   KEYS   key=value overrides
#   INPUTS    the inputs (a host path: steps run chrooted in the host userland)
#   ROUNDS    repetitions
#   MOUNT_OPTS  the file system's mount options (nodiscard, or discard: it
#             sends TRIMs for the blocks it frees)
#   COPIES    copies of the images               LABEL  the run's name
#   COLD      the cold data set's file (a host path), or empty: copied to
#             /mnt before round 1 as step "cold-fill" of round 0 and kept
#             through every round (outside the rounds' directory)
#   CAPTURE   1: after each step, record what its writes left on the device
#             (CAPTURE_PY, workload/capture.py: an MD5 per sector, for the
#             replay)
# For every step it prints "workload: ..." progress lines, "WORKLOAD-STEP
# round step wall_s" and the device's stats before and after (print_stats),
# and leaves the step's block trace (blkparse text) in
# /out/LABEL/rR-STEP.blkparse (and its content in rR-STEP.md5).
. /lib.sh
. /etc/workload.conf

# Modules, unless built in (6.12 builds virtio_pci in: /sys/module has it).
mount_host_root
mkdir -p /out
mount -t 9p -o trans=virtio,version=9p2000.L results /out ||
	fail "mount the results share (9p)"
# The results share inside the chroot too (the capture writes there).
mkdir -p /host/run/out && mount -o bind /out /host/run/out ||
	fail "bind the results share into the chroot"

load_module
# shellcheck disable=SC2086
ssdctl create ssd0 --config "$CONFIG" $KEYS > /dev/null || fail "ssdctl create"
mkfs.ext4 -q -b 1024 -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 /dev/ssdemu0 2>/dev/null || fail "mkfs.ext4 -b 1024"
mount -o "$MOUNT_OPTS" /dev/ssdemu0 /host/mnt || fail "mount -o $MOUNT_OPTS"
mkdir -p "/out/$LABEL"

# The programs' scratch space is a tmpfs on the host's /run: not /tmp, which
# may hold the checkout (and so the inputs) itself.
in_host() {
	chroot /host env TMPDIR=/run sh -c "$1" || fail "step $STEP: $1"
}

uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

# step NAME COMMAND: run COMMAND in the host userland on the device,
# tracing the device; stats before and after.
step() {
	STEP=$1
	tag="r$ROUND-$STEP"
	sync
	print_stats /dev/ssdemu0 "$tag-before"
	blktrace_start /dev/ssdemu0 /tmp/bt
	# Set up; it records from BLKTRACESTART, issued a moment later with
	# no sign of it that needs no I/O: the second stands in for that.
	sleep 1
	echo "workload: round $ROUND of $ROUNDS: $STEP" >&2
	t0=$(uptime_s)
	in_host "$2"
	sync
	t1=$(uptime_s)
	blktrace_stop
	blkparse -q -i /tmp/bt/trace -o "/out/$LABEL/$tag.blkparse" > /dev/null ||
		fail "blkparse $tag"
	print_stats /dev/ssdemu0 "$tag-after"
	echo "WORKLOAD-STEP $ROUND $STEP $(echo "$t1 $t0" | awk '{ print $1 - $2 }')"
	# After the stats: the capture's reads are outside every step's figures
	# (reads change no cache or FTL state, only read counters).
	if [ "$CAPTURE" = 1 ]; then
		in_host "python3 $CAPTURE_PY /dev/ssdemu0 /run/out/$LABEL/$tag.blkparse \
			/run/out/$LABEL/$tag.md5"
	fi
}

W=/mnt/work
if [ -n "$COLD" ]; then
	ROUND=0
	step cold-fill "cp $COLD /mnt/cold.bin"
fi
ROUND=1
while [ "$ROUND" -le "$ROUNDS" ]; do
	echo "workload: round $ROUND of $ROUNDS" >&2
	step kernel-copy "mkdir -p $W && cp -a $INPUTS/linux $W/linux"
	step kernel-compile "cd $W/linux && make -s -j16 -f $INPUTS/compile.mk"
	step kernel-clean "cd $W/linux && make -s -f $INPUTS/compile.mk clean"
	step image-copy "i=1; while [ \$i -le $COPIES ]; do mkdir -p $W/img\$i &&
		cp $INPUTS/images/*.iso $W/img\$i/ || exit 1; i=\$((i + 1)); done"
	step web-download "mkdir -p $W/web && for d in $INPUTS/web/site*; do
		cp -r \$d $W/web/ || exit 1; done"
	step remove "rm -rf $W"
	ROUND=$((ROUND + 1))
done
umount /host/mnt
print_stats /dev/ssdemu0 final
echo "WORKLOAD-DONE"
