# cfs_fuzz.sh - hostile writes to every configfs attribute.  Attributes are
# discovered (the group's and a fresh item's directory listing, checked
# against `features`), never listed here, so keys added later are covered.
# Categories, each attempt printed as one line for the host test:
#   values     every attribute x VALUES (0, -1, 2^32, 2^64-1, 2^64, words,
#              empty, blanks, very long, the value read back)
#   survivors  power=1 with one key at the largest value it accepted above
#              (and at the smallest, for keys of the geometry), the rest at
#              their defaults
#   geometry   geometries whose products overflow or whose tables do not
#              fit, and seeded random ones, then power=1
#   powered    every attribute written while the device is powered
#   rmdir      rmdir while powered, while mounted, under fio
# Output:
#   VALUE i hex                        the fuzz values, hex-encoded
#   ATTEMPT seq=S cat=C attr=A val=V mode=M result=R
#     V: a VALUE index, "cur" (the value read back), or a description;
#     M: rw or ro (the attribute's mode); R: ok or the errno's name.
# Before each attempt "cfs-fuzz mark S" goes to the kernel log, so the host
# test finds the kernel lines of every attempt in dmesg (the VM runs with a
# large log_buf_len).  The loops run shell builtins only: a fork costs tens
# of milliseconds under TCG.
. /lib.sh
load_module

# The values; the long ones are made here.
long_digits=$(awk 'BEGIN { for (i = 0; i < 5000; i++) printf "9" }')
long_word=$(awk 'BEGIN { for (i = 0; i < 100; i++) printf "a" }')
VALUES="0
-1
4294967296
18446744073709551615
18446744073709551616
99999999999999999999999
abc
12abc
0x10
1e3
+7
-0
 5
1
2
4096
greedy
$long_word
$long_digits
"
NVALUES=0
while IFS= read -r v; do
	eval "V_$NVALUES=\$v"
	echo "VALUE $NVALUES $(printf '%s' "$v" | od -An -v -tx1 | tr -d ' \n')"
	NVALUES=$((NVALUES + 1))
done <<EOF
$VALUES
EOF
# and blanks only
eval "V_$NVALUES='   '"
echo "VALUE $NVALUES 202020"
NVALUES=$((NVALUES + 1))

SEQ=0
# attempt CAT PATH LABEL VALUE: write VALUE (and a newline, as echo does);
# prints the ATTEMPT line, sets RESULT.
attempt() {
	SEQ=$((SEQ + 1))
	echo "cfs-fuzz mark $SEQ" > /dev/kmsg
	# echo, not printf: busybox's printf does not report write errors.
	if { echo "$4" > "$2"; } 2>/tmp/fz.err; then
		RESULT=ok
	else
		read -r err < /tmp/fz.err
		case "$err" in
		*"Invalid argument"*) RESULT=EINVAL ;;
		*"resource busy"*) RESULT=EBUSY ;;
		*"Permission denied"*) RESULT=EACCES ;;
		*"No such file"*) RESULT=ENOENT ;;
		*"Cannot allocate memory"*) RESULT=ENOMEM ;;
		*"out of range"*) RESULT=ERANGE ;;
		*) RESULT="OTHER:$err" ;;
		esac
	fi
	echo "ATTEMPT seq=$SEQ cat=$1 attr=${2##*/} val=$3 mode=$MODE result=$RESULT"
}

set_mode() {	# PATH: MODE=rw if any write bit is set, else ro
	case "$(stat -c %a "$1")" in
	*[2367]*) MODE=rw ;;
	*) MODE=ro ;;
	esac
}

# The attributes: the group's, and those of a fresh item.
mkdir $CFS/f || fail "mkdir f"
GROUP_ATTRS=$(ls $CFS | while read -r a; do [ -f "$CFS/$a" ] && echo "$a"; done)
# power last: it brings the device up and down.
ITEM_ATTRS="$(ls $CFS/f | grep -v '^power$') power"
for k in $(cut -f1 $CFS/features); do
	[ -f "$CFS/f/$k" ] || fail "features lists $k, the item has no such attribute"
done
echo "KEYS $(cut -f1 $CFS/features | tr '\n' ' ')"
echo "attributes: group $(echo $GROUP_ATTRS | wc -w), item $(echo $ITEM_ATTRS | wc -w)," \
	"keys in features $(wc -l < $CFS/features)"

# values: every attribute, every value, and the value read back.
fuzz_values() {	# PATH
	set_mode "$1"
	i=0
	while [ $i -lt $NVALUES ]; do
		eval "v=\$V_$i"
		attempt values "$1" $i "$v"
		[ "$RESULT" = ok ] && [ "$MODE" = rw ] && read -r shown < "$1" &&
			echo "$shown" >> "/tmp/accepted.${1##*/}"
		i=$((i + 1))
	done
}
for a in $GROUP_ATTRS; do
	fuzz_values "$CFS/$a"
done
for a in $ITEM_ATTRS; do
	path=$CFS/f/$a
	read -r initial < "$path"
	set_mode "$path"
	attempt values "$path" cur "$initial"
	: > "/tmp/accepted.$a"
	fuzz_values "$path"
	[ "$a" = power ] && echo 0 > "$path"
	# Back to the initial value, so that each key is fuzzed alone.
	{ echo "$initial" > "$path"; } 2>/dev/null
done
rmdir $CFS/f

# power_on CAT LABEL: power=1 on item g, checks the disk, power=0
MODE=rw
power_on() {
	attempt "$1" $CFS/g/power "$2" 1
	if [ "$RESULT" = ok ]; then
		read -r disk < $CFS/g/disk_name
		[ -b "/dev/$disk" ] || fail "$2: powered without a disk"
		read -r sectors < "/sys/block/$disk/size"
		read -r bytes < $CFS/g/capacity_bytes
		[ $((sectors * 512)) = "$bytes" ] || fail "$2: disk size is not capacity_bytes"
		echo 0 > $CFS/g/power || fail "$2: power off"
	fi
}

echo "PHASE $(cut -d' ' -f1 /proc/uptime) survivors"
# Powered on at timing=0: add_disk() reads the partition table through the
# model, and with latencies of seconds power=1 would take that long (all
# latencies at 10 s: about a minute), as the device is meant to.
# survivors: each key at the extremes of what it accepted.
GEOMETRY_KEYS=" page_size_bytes pages_per_block blocks_per_chip chips channels op_percent "
for a in $ITEM_ATTRS; do
	[ -s "/tmp/accepted.$a" ] || continue
	[ "$a" = power ] && continue
	case "$GEOMETRY_KEYS" in
	*" $a "*) extremes='1p;$p' ;;
	*) extremes='$p' ;;
	esac
	for v in $(sort -n "/tmp/accepted.$a" | sed -n "$extremes" | uniq); do
		mkdir $CFS/g || fail "mkdir g"
		echo 0 > $CFS/g/timing || fail "timing=0"
		echo "$v" > "$CFS/g/$a" || fail "$a=$v accepted before, refused now"
		power_on survivors "$a=$v"
		rmdir $CFS/g || fail "rmdir g"
	done
done

echo "PHASE $(cut -d' ' -f1 /proc/uptime) geometry"
# geometry LABEL KEY=VALUE...: a fresh item with these keys, then power=1
geometry() {
	label=$1
	shift
	mkdir $CFS/g || fail "mkdir g"
	echo 0 > $CFS/g/timing || fail "timing=0"
	for kv in "$@"; do
		echo "${kv#*=}" > "$CFS/g/${kv%%=*}" || fail "$label: $kv refused"
	done
	power_on geometry "$label"
	rmdir $CFS/g || fail "rmdir g"
}
geometry pages-2^44 chips=1024 channels=256 blocks_per_chip=1048576 pages_per_block=16384
geometry pages-2^44-limit-max chips=1024 channels=256 blocks_per_chip=1048576 \
	pages_per_block=16384 memory_limit_mb=16777216
geometry pages-2^32 chips=1024 channels=256 blocks_per_chip=1048576 pages_per_block=4
geometry pages-under-2^32 chips=1023 channels=1 blocks_per_chip=1048575 pages_per_block=4 \
	memory_limit_mb=16777216
geometry bytes-2^60 chips=1024 channels=256 blocks_per_chip=1048576 \
	pages_per_block=16384 page_size_bytes=65536 memory_limit_mb=16777216
geometry tables-over-2g chips=1024 channels=256 blocks_per_chip=4096 pages_per_block=1023 \
	memory_limit_mb=16777216
geometry slc-all blocks_per_chip=64 slc_blocks_per_chip=64
geometry slc-all-but-one blocks_per_chip=64 slc_blocks_per_chip=63
geometry sector-over-page page_size_bytes=512 logical_block_bytes=4096
geometry smallest chips=1 channels=1 blocks_per_chip=4 pages_per_block=4 page_size_bytes=512 \
	logical_block_bytes=512
geometry smallest-op90 chips=1 channels=1 blocks_per_chip=4 pages_per_block=4 op_percent=90
geometry gc-low-max gc_low_free_blocks=1048576
geometry gc-background-max gc_background_free_blocks=1048576 gc_low_free_blocks=20
geometry gc-background-below-low gc_background_free_blocks=5 gc_low_free_blocks=20
geometry log-max request_log_entries=4194304
geometry queues-max hw_queues=64 queue_depth=4096 cmd_queue_depth=65536
geometry latencies-max controller_ns=10000000000 read_ns=10000000000 \
	program_ns=10000000000 erase_ns=10000000000
geometry limit-1mb memory_limit_mb=1
# Random geometries, the same every run (awk's srand(seed)).
awk 'BEGIN {
	srand(12);
	split("1 2 3 4 7 8 16 64 255 1024", chips);
	split("1 2 4 8 16 256", channels);
	split("4 5 64 1000 4096 65536 1048576", blocks);
	split("4 7 64 256 1023 16384", pages);
	split("512 4096 65536", psize);
	split("0 1 3 64 1000", slc);
	split("0 1 64 4096", limit);
	for (i = 0; i < 24; i++)
		printf "chips=%s channels=%s blocks_per_chip=%s pages_per_block=%s page_size_bytes=%s slc_blocks_per_chip=%s memory_limit_mb=%s\n",
			chips[int(rand() * 10) + 1], channels[int(rand() * 6) + 1],
			blocks[int(rand() * 7) + 1], pages[int(rand() * 6) + 1],
			psize[int(rand() * 3) + 1], slc[int(rand() * 5) + 1],
			limit[int(rand() * 4) + 1]
}' > /tmp/geometries
n=0
while read -r line; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	geometry "random-$n:$(echo $line | tr ' ' ',')" $line
done < /tmp/geometries

echo "PHASE $(cut -d' ' -f1 /proc/uptime) powered"
# powered: every attribute written while the device is up.
dev=$(ssdctl create p --config /configs/small-test.conf) || fail "create p"
for a in $ITEM_ATTRS; do
	[ "$a" = power ] && continue
	set_mode "$CFS/p/$a"
	read -r cur < "$CFS/p/$a"
	attempt powered "$CFS/p/$a" cur "$cur"
	attempt powered "$CFS/p/$a" 0 "$V_0"
done
MODE=rw
attempt powered $CFS/p/power cur 1
attempt powered $CFS/p/power 14 "$V_14"
exec 3< "$dev"
attempt powered $CFS/p/power 0 0
exec 3<&-
# The device still works after all that.
dd if=/dev/urandom of=/tmp/p.data bs=64k count=4 2>/dev/null
dd if=/tmp/p.data of="$dev" bs=64k oflag=direct 2>/dev/null || fail "write p"
dd if="$dev" bs=64k count=4 iflag=direct 2>/dev/null | cmp - /tmp/p.data || fail "read p"

echo "PHASE $(cut -d' ' -f1 /proc/uptime) rmdir"
# rmdir: powered and idle; mounted; under fio.  Success is the design
# (null_blk's): the disk dies under its openers, whose I/O fails.
rmdir_attempt() {	# LABEL NAME
	SEQ=$((SEQ + 1))
	echo "cfs-fuzz mark $SEQ" > /dev/kmsg
	if rmdir "$CFS/$2" 2>/tmp/fz.err; then RESULT=ok; else RESULT="OTHER:$(cat /tmp/fz.err)"; fi
	echo "ATTEMPT seq=$SEQ cat=rmdir attr=$2 val=$1 mode=rw result=$RESULT"
}
rmdir_attempt powered p
dev=$(ssdctl create m --config /configs/small-test.conf timing=0) || fail "create m"
mkfs.ext4 -q "$dev" || fail "mkfs m"
mkdir -p /mnt/m && mount "$dev" /mnt/m || fail "mount m"
echo data > /mnt/m/file && sync
rmdir_attempt mounted m
# The dead file system fails its I/O and unmounts.
echo more > /mnt/m/file2
sync
umount /mnt/m || fail "umount m"
dev=$(ssdctl create u --config /configs/small-test.conf) || fail "create u"
fio --name=u --filename="$dev" --direct=1 --ioengine=libaio --rw=randrw --bs=4k \
	--iodepth=32 --time_based --runtime=600 > /tmp/u.fio 2>&1 &
fio_pid=$!
# Under fio: once it has written, it holds the disk open with I/O in flight
# until its 600 s are up (a sleep here left "under fio" to the scheduler).
fio_writing() {
	disk_wrote "$dev" && return 0
	kill -0 $fio_pid 2>/dev/null || fail "fio ended before writing: $(tail -n 5 /tmp/u.fio)"
	return 1
}
wait_until 300 "fio to write to $dev" fio_writing
rmdir_attempt fio u
wait $fio_pid
echo "PHASE $(cut -d' ' -f1 /proc/uptime) end"
rmmod ssdemu || fail "rmmod at the end"
echo "cfs_fuzz ok"
