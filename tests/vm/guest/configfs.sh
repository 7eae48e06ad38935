# configfs.sh - the configfs lifecycle: two devices with different
# geometry at once, refused values with -EINVAL and a message, -EBUSY while
# powered or open, removal under an open fd, ioctl error paths, unload.
. /lib.sh
load_module
grep -q '^page_size_bytes' $CFS/features || fail "features lacks page_size_bytes"
grep -q '^op_percent' $CFS/features || fail "features lacks op_percent"

a=$(ssdctl create a --config /configs/small-test.conf) || fail "create a"
b=$(ssdctl create b --config /configs/small-test.conf logical_block_bytes=512 \
	page_size_bytes=2048 pages_per_block=64 blocks_per_chip=64 chips=2 \
	channels=1 op_percent=20) || fail "create b"
[ "$a" != "$b" ] || fail "same device twice"
[ "$(blockdev --getss "$a")" = 4096 ] || fail "a sector size"
[ "$(blockdev --getss "$b")" = 512 ] || fail "b sector size"
[ "$(blockdev --getsize64 "$b")" = "$(cat $CFS/b/capacity_bytes)" ] || fail "b size"
[ "$(cat /sys/block/${a#/dev/}/queue/rotational)" = 0 ] || fail "rotational"
[ "$(cat /sys/block/${a#/dev/}/queue/write_cache)" = "write back" ] || fail "write cache"
[ "$(cat /sys/block/${a#/dev/}/queue/discard_max_bytes)" != 0 ] || fail "discard"
echo "a=$a b=$b b_bytes=$(blockdev --getsize64 "$b")"

dd if=/dev/urandom of=/tmp/da bs=64k count=32 2>/dev/null
dd if=/dev/urandom of=/tmp/db bs=64k count=32 2>/dev/null
dd if=/tmp/da of="$a" bs=64k conv=fsync 2>/dev/null || fail "write a"
dd if=/tmp/db of="$b" bs=64k seek=3 conv=fsync 2>/dev/null || fail "write b"
echo 3 > /proc/sys/vm/drop_caches
dd if="$a" bs=64k count=32 2>/dev/null | cmp - /tmp/da || fail "a data"
dd if="$b" bs=64k skip=3 count=32 2>/dev/null | cmp - /tmp/db || fail "b data"
echo "two devices hold their own data"

# Every refusal names the device: "ssdemu: ITEM: ...".
mkdir $CFS/x
expect_refused $CFS/x/chips 0 "Invalid argument" "ssdemu: x: chips=0 refused"
expect_refused $CFS/x/page_size_bytes 3000 "Invalid argument" "ssdemu: x: page_size_bytes=3000 refused"
expect_refused $CFS/x/op_percent 100 "Invalid argument" "ssdemu: x: op_percent=100 refused"
expect_refused $CFS/x/gc_policy lru "Invalid argument" "ssdemu: x: gc_policy=lru refused"
expect_refused $CFS/x/logical_block_bytes 1000 "Invalid argument" "ssdemu: x: logical_block_bytes=1000 refused"
expect_refused $CFS/x/queue_depth -1 "Invalid argument" "ssdemu: x: queue_depth=-1 refused"
expect_refused $CFS/x/power 2 "Invalid argument" "ssdemu: x: power refused"
echo 3 > $CFS/x/channels || fail "channels=3 alone is fine"
expect_refused $CFS/x/power 1 "Invalid argument" "ssdemu: x: channels=3 refused: must divide chips=8"
echo 4 > $CFS/x/channels || fail "channels=4"
echo 4 > $CFS/x/slc_blocks_per_chip || fail "slc_blocks_per_chip=4"
echo always > $CFS/x/cache_policy || fail "cache_policy=always"
echo 1000000 > $CFS/x/cache_pages || fail "cache_pages=1000000 alone is fine"
expect_refused $CFS/x/power 1 "Invalid argument" "ssdemu: x: cache_pages=1000000 refused"
[ "$(cat $CFS/x/power)" = 0 ] || fail "x powered after refusal"
rmdir $CFS/x

expect_refused $CFS/a/chips 16 "Device or resource busy" "ssdemu: a: chips cannot change while powered"
exec 3< "$a"
expect_refused $CFS/a/power 0 "Device or resource busy" "ssdemu: a: ${a#/dev/} is open, power=0 refused"
exec 3<&-
if rmmod ssdemu 2>/dev/null; then fail "rmmod with devices"; fi

ioctl_probe errors "$a" || fail "ioctl error paths"

# Remove b while a process holds it open: the disk dies, nothing crashes.
exec 3< "$b"
rmdir $CFS/b || fail "rmdir b while open"
ioctl_probe fd 3
# The dead disk has no capacity left: reads return no data.
n=$(dd bs=4096 count=1 <&3 2>/dev/null | wc -c)
[ "$n" = 0 ] || fail "read $n bytes from a removed disk"
exec 3<&-
[ ! -e "$b" ] || fail "$b still exists"

echo 0 > $CFS/a/power || fail "power off a"
echo 1 > $CFS/a/power || fail "power a on again"
ssdctl destroy a || fail "destroy a"
rmmod ssdemu || fail "rmmod"
load_module
rmmod ssdemu || fail "second rmmod"
echo "configfs ok"
