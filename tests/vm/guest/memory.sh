# memory.sh - the memory limit, in a VM with little RAM (1 GiB):
#  1. power=1 refuses geometries whose metadata would not fit, or would
#     need one table larger than kvmalloc() gives, with -EINVAL and a
#     message (and no WARNING: the host test checks the kernel log).
#  2. A device twice its memory_limit_mb, filled with dd: ENOSPC once the
#     data store is full, the guest stays responsive; after blkdiscard,
#     writes work again, as often as the space allows.
#  3. A device larger than the VM's RAM with the default limit (half of the
#     RAM), filled with dd: ENOSPC instead of an OOM; then a discard of the
#     whole device (4.6 GiB) completes while stats keep being answered.
# Prints "FULL ..." and "BIG ..." lines the host test reads.
. /lib.sh
load_module
MIB=1048576

# counter DEV NAME: one counter from `ssdctl stats`.
counter() {
	ssdctl stats "$1" --raw | awk -v k="$2" '$1 == k { print $2 }'
}

uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

since() {	# T0: seconds since uptime T0
	awk -v t0="$1" -v t1="$(uptime_s)" 'BEGIN { printf "%.2f", t1 - t0 }'
}

# fill DEV: dd zeros until the device refuses; prints the bytes written
# (busybox dd counts records only: whole MiB with O_DIRECT).
fill() {
	if dd if=/dev/zero of="$1" bs=1M oflag=direct 2>/tmp/dd.err; then
		fail "dd filled $1 without ENOSPC: $(cat /tmp/dd.err)"
	fi
	grep -q "No space left on device" /tmp/dd.err ||
		fail "dd on $1 failed otherwise: $(cat /tmp/dd.err)"
	grep -q '^[0-9]*+0 records out' /tmp/dd.err ||
		fail "dd on $1 wrote a partial record: $(cat /tmp/dd.err)"
	echo $(($(sed -n 's/^\([0-9]*\)+0 records out/\1/p' /tmp/dd.err) * MIB))
}

no_oom() {
	if dmesg | grep -i -E "out of memory|oom-kill|invoked oom|page allocation failure"; then
		fail "memory trouble in the kernel log ($1)"
	fi
}

# 1. Refusals at power=1, before anything is allocated.
refuse_geometry() {	# NAME MESSAGE KEY=VALUE...
	name=$1
	msg=$2
	shift 2
	mkdir $CFS/$name || fail "mkdir $name"
	for kv in "$@"; do
		echo "${kv#*=}" > "$CFS/$name/${kv%%=*}" || fail "$name: $kv refused"
	done
	expect_refused $CFS/$name/power 1 "Invalid argument" "$msg"
	[ "$(cat $CFS/$name/power)" = 0 ] || fail "$name powered"
	rmdir $CFS/$name
}
refuse_geometry huge "exceed the 2^32-1 limit" chips=1024 channels=256 \
	blocks_per_chip=1048576 pages_per_block=16384
refuse_geometry wide "a table of the flash would be over 2047 MiB" chips=1024 \
	channels=256 blocks_per_chip=4096 pages_per_block=1023
refuse_geometry blocks "a table of the ftl would be over 2047 MiB" chips=63 \
	channels=63 blocks_per_chip=1048576 pages_per_block=4 memory_limit_mb=16777216
refuse_geometry half "memory_limit_mb=0 (half of the RAM): metadata needs" \
	chips=32 channels=4 blocks_per_chip=65536 pages_per_block=64
refuse_geometry small "memory_limit_mb=2: metadata needs" memory_limit_mb=2
mkdir $CFS/k
expect_refused $CFS/k/memory_limit_mb 16777217 "Invalid argument" \
	"memory_limit_mb=16777217 refused: accepted range is 0..16777216"
rmdir $CFS/k
no_oom refusals

# 2. 128 MiB logical, 64 MiB of memory.
dev=$(ssdctl create full --config /configs/small-test.conf blocks_per_chip=20 \
	op_percent=20 memory_limit_mb=64) || fail "create full"
size=$(blockdev --getsize64 "$dev")
limit=$(counter "$dev" data_limit_bytes)
[ "$limit" -gt $((48 * MIB)) ] && [ "$limit" -lt $((64 * MIB)) ] ||
	fail "data_limit_bytes $limit for a 64 MiB limit"
t0=$(uptime_s)
written=$(fill "$dev")
took=$(since "$t0")
data=$(counter "$dev" data_bytes)
echo "FULL device=$size limit=$limit written=$written data=$data fill_s=$took"
[ "$written" -le "$limit" ] && [ "$written" -gt $((limit - 2 * MIB)) ] ||
	fail "wrote $written bytes, limit $limit"
[ "$data" -le "$limit" ] && [ "$data" -ge "$written" ] || fail "data_bytes $data"
# Still alive and well: reads, writes over old data, other memory.
dd if="$dev" of=/dev/null bs=1M count=16 iflag=direct 2>/dev/null || fail "read when full"
dd if=/dev/urandom of=/tmp/rand bs=1M count=8 2>/dev/null
dd if=/tmp/rand of="$dev" bs=1M seek=4 oflag=direct conv=notrunc 2>/dev/null ||
	fail "overwrite when full"
dd if="$dev" bs=1M skip=4 count=8 iflag=direct 2>/dev/null | cmp - /tmp/rand ||
	fail "overwritten data"
ssdctl check "$dev" || fail "check when full"
no_oom full
# TRIM gives room back: 32 MiB of data discarded, 8 MiB of new pages fit.
blkdiscard -o 0 -l $((32 * MIB)) "$dev" || fail "blkdiscard 32 MiB"
dd if=/tmp/rand of="$dev" bs=1M seek=100 oflag=direct conv=notrunc 2>/dev/null ||
	fail "write after discard"
dd if="$dev" bs=1M skip=100 count=8 iflag=direct 2>/dev/null | cmp - /tmp/rand ||
	fail "data written after discard"
blkdiscard "$dev" || fail "blkdiscard all"
[ "$(counter "$dev" valid_pages)" = 0 ] || fail "pages left after blkdiscard"
again=$(fill "$dev")
echo "FULL again=$again"
[ "$again" = "$written" ] || fail "second fill wrote $again, first $written"
ssdctl destroy full || fail "destroy full"

# 3. 4.6 GiB logical in a 1 GiB VM, with the default limit.
dev=$(ssdctl create big --config /configs/small-test.conf blocks_per_chip=640) ||
	fail "create big"
size=$(blockdev --getsize64 "$dev")
limit=$(counter "$dev" data_limit_bytes)
ram=$(awk '/^MemTotal/ { print $2 * 1024 }' /proc/meminfo)
# A heartbeat while dd runs: the largest gap says how responsive the guest was.
(while :; do uptime_s; sleep 0.2; done) > /tmp/heartbeat &
beat=$!
t0=$(uptime_s)
written=$(fill "$dev")
took=$(since "$t0")
kill $beat
gap=$(awk 'NR > 1 && $1 - prev > max { max = $1 - prev } { prev = $1 }
	END { printf "%.2f", max }' /tmp/heartbeat)
echo "BIG device=$size ram=$ram limit=$limit written=$written fill_s=$took heartbeat_gap=$gap"
[ "$written" -le "$limit" ] && [ "$written" -gt $((limit - 2 * MIB)) ] ||
	fail "wrote $written bytes, limit $limit"
[ "$limit" -lt "$ram" ] || fail "limit $limit not under RAM $ram"
grep -E "^(MemFree|MemAvailable)" /proc/meminfo
no_oom big
# The whole device in one blkdiscard, with stats asked for meanwhile.
blkdiscard "$dev" &
pid=$!
t0=$(uptime_s)
polls=0
while kill -0 $pid 2>/dev/null; do
	ssdctl stats "$dev" > /dev/null || fail "stats during the discard"
	polls=$((polls + 1))
done
wait $pid || fail "blkdiscard of $size bytes"
echo "DISCARD bytes=$size seconds=$(since "$t0") stats_polls=$polls"
[ "$(counter "$dev" valid_pages)" = 0 ] || fail "pages left after the big discard"
[ "$(counter "$dev" data_bytes)" = 0 ] || fail "data left after the big discard"
dd if=/tmp/rand of="$dev" bs=1M seek=4000 oflag=direct conv=notrunc 2>/dev/null ||
	fail "write after the big discard"
ssdctl check "$dev" || fail "check big"
ssdctl destroy big || fail "destroy big"
no_oom end
rmmod ssdemu || fail "rmmod"
echo "memory ok"
