# wear.sh - bad blocks and wear-out to the end of life (docs/faults.md):
# a tiny device with factory bad blocks (the configfs bad_blocks list,
# whose bad values are refused first), a P/E limit of 3 and grown_bad_ppm,
# written with 4 KiB direct writes pass after pass until a write fails.
# Each pass's data is a fresh random image; /tmp/expect.img holds what
# every page must read back: the pages a pass wrote before its first
# failed write (dd stops there; a failed single-page write maps nothing)
# and the earlier passes' data elsewhere.  Then: the one kernel message,
# the disk read-only, writes refused, `ssdctl stats --json`, `nvme
# smart-log`, the ioctl CHECK and the whole device read back and compared.
# The host test (test_wear_vm.py) checks the figures.
. /lib.sh
load_module

dev=$(ssdctl create w --config /configs/small-test.conf timing=0 chips=2 channels=1 \
	blocks_per_chip=24 pages_per_block=64 op_percent=40 pe_cycle_limit=3 \
	grown_bad_ppm=200000 fault_seed=7) || fail "create w"
echo 0 > $CFS/w/power || fail "power off"
# 2 chips x 24 blocks: blocks 0..47.
expect_refused $CFS/w/bad_blocks "5-2" "Invalid argument" "bad_blocks refused"
expect_refused $CFS/w/bad_blocks "48" "Invalid argument" "bad_blocks refused"
expect_refused $CFS/w/bad_blocks "1x" "Invalid argument" "bad_blocks refused"
echo "30 40-41" > $CFS/w/bad_blocks || fail "bad_blocks"
[ "$(cat $CFS/w/bad_blocks)" = "30 40-41" ] || fail "bad_blocks reads $(cat $CFS/w/bad_blocks)"
echo 1 > $CFS/w/power || fail "power on"
expect_refused $CFS/w/bad_blocks "7" "Device or resource busy" "bad_blocks cannot change while powered"
dev=/dev/$(cat $CFS/w/disk_name)
bytes=$(blockdev --getsize64 "$dev") || fail "blockdev"
pages=$((bytes / 4096))
echo "WEAR capacity_bytes=$bytes"
print_stats "$dev" fresh

dd if=/dev/zero of=/tmp/expect.img bs=4096 count=$pages 2>/dev/null || fail "expect.img"
pass=0
written=0
while :; do
	pass=$((pass + 1))
	[ $pass -le 60 ] || fail "still writable after 59 passes"
	dd if=/dev/urandom of=/tmp/pass.img bs=4096 count=$pages 2>/dev/null || fail "pass.img"
	if dd if=/tmp/pass.img of="$dev" bs=4096 count=$pages oflag=direct 2>/tmp/dd.err; then
		cp /tmp/pass.img /tmp/expect.img
		written=$((written + pages))
		continue
	fi
	done_pages=$(sed -n 's/^\([0-9]*\)+[0-9]* records out.*/\1/p' /tmp/dd.err)
	[ -n "$done_pages" ] || fail "no record count from dd: $(cat /tmp/dd.err)"
	dd if=/tmp/pass.img of=/tmp/expect.img bs=4096 count=$done_pages conv=notrunc \
		2>/dev/null || fail "expect.img update"
	written=$((written + done_pages))
	echo "WEAR read_only_pass=$pass pages_in_pass=$done_pages written_pages=$written"
	echo "WEAR dd: $(tr '\n' ' ' < /tmp/dd.err)"
	break
done

n=$(dmesg | grep -c "end of life: read-only") || true
[ "$n" = 1 ] || fail "$n end-of-life messages"
echo "WEAR message: $(dmesg | grep "end of life: read-only" | sed 's/^\[[^]]*\] //')"
[ "$(blockdev --getro "$dev")" = 1 ] || fail "the disk is not read-only"
if dd if=/tmp/pass.img of="$dev" bs=4096 count=1 oflag=direct 2>/dev/null; then
	fail "a write after the end of life succeeded"
fi
if command -v blkdiscard > /dev/null && blkdiscard -o 0 -l 4096 "$dev" 2>/dev/null; then
	fail "a discard after the end of life succeeded"
fi
print_stats "$dev" worn
echo "NVME-OUT-BEGIN smart-log"
nvme smart-log "$dev" -o json || fail "nvme smart-log"
echo "NVME-OUT-END smart-log"
ssdctl check "$dev" || fail "ssdctl check"
# Every page reads back what was acknowledged.
dd if="$dev" of=/tmp/back.img bs=4096 count=$pages iflag=direct 2>/dev/null || fail "read back"
cmp /tmp/back.img /tmp/expect.img || fail "data read back differs"
echo "WEAR checksum $(md5sum < /tmp/back.img | cut -d' ' -f1)"
print_stats "$dev" after
echo "wear ok"
