# snapshot_vm.sh - snapshot save and load in the kernel against dd of the
# same bytes, on the guest's tmpfs (/tmp).
#
# Run with STATES (tags, e.g. "s0 s1") and ROUNDS set before this text;
# /aged-TAG.snap is a snapshot the host aged with `ssdsim --age`.  For each
# state: device a_TAG is made from it (timing=0, so every command moves
# bytes as fast as the device can), its statistics printed (STATS TAG), the
# host's file removed; then ROUNDS times, interleaved:
#   save    ssdctl snapshot save a_TAG /tmp/s.snap
#   ddread  dd of the snapshot's size (rounded up to MiB) from a_TAG to /tmp
#   load    ssdctl create b_TAG --from /tmp/s.snap (then destroyed)
#   create  ssdctl create c_TAG, an empty device of the same configuration
#   ddwrite dd of those bytes from /tmp to c_TAG (then destroyed)
# Prints "TIME TAG ROUND WHAT SECONDS" (guest uptime, 1/100 s) and
# "BYTES TAG ROUND SNAPSHOT_BYTES DD_BYTES".
. /lib.sh
load_module

uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

# timed TAG ROUND WHAT CMD...: run CMD (its stdout dropped), print its time.
timed() {
	tag=$1 round=$2 what=$3
	shift 3
	t0=$(uptime_s)
	"$@" > /dev/null 2>/tmp/timed.err || fail "$tag $what: $* $(cat /tmp/timed.err)"
	t1=$(uptime_s)
	echo "TIME $tag $round $what $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
}

for tag in $STATES; do
	a=$(ssdctl create "a_$tag" --from "/aged-$tag.snap" timing=0) ||
		fail "$tag: create from the ssdsim-aged snapshot"
	rm "/aged-$tag.snap"
	print_stats "$a" "$tag"
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		timed "$tag" "$r" save ssdctl snapshot save "a_$tag" /tmp/s.snap
		bytes=$(stat -c %s /tmp/s.snap)
		mib=$(((bytes + 1048575) / 1048576))
		timed "$tag" "$r" ddread dd if="$a" of=/tmp/d.bin bs=1M count="$mib" iflag=direct
		echo "BYTES $tag $r $bytes $(stat -c %s /tmp/d.bin)"
		timed "$tag" "$r" load ssdctl create "b_$tag" --from /tmp/s.snap
		ssdctl destroy "b_$tag" || fail "$tag: destroy b"
		t0=$(uptime_s)
		c=$(ssdctl create "c_$tag" --config /configs/small-test.conf timing=0) ||
			fail "$tag: create c"
		echo "TIME $tag $r create $(awk -v a="$t0" -v b="$(uptime_s)" \
			'BEGIN { printf "%.2f", b - a }')"
		timed "$tag" "$r" ddwrite dd if=/tmp/d.bin of="$c" bs=1M oflag=direct
		ssdctl destroy "c_$tag" || fail "$tag: destroy c"
		rm /tmp/s.snap /tmp/d.bin
		r=$((r + 1))
	done
	ssdctl destroy "a_$tag" || fail "$tag: destroy a"
done
echo "snapshot_vm ok"
