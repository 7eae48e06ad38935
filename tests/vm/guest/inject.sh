# inject.sh - targeted error injection (inject_errors, device/ssd_inject.c)
# under real I/O.  8 MiB written (by fio, with crc32c verify headers),
# saved as the reference; read ranges injected on three spots (one 4 KiB
# block, one sector, two blocks); then a dd of every 4 KiB block with
# O_DIRECT and noerror,sync (a failed block reads as zeros) shows exactly
# which blocks fail, and fio --verify_only reports its errors.  A write
# range fails writes there and changes nothing; a write beside it works.
# Cleared, everything verifies.  Refusals, the list as shown, a list set
# before power-on, the counters and SMART media errors.  Nothing runs in
# the background: every step is done when the next starts.
. /lib.sh
load_module
dev=$(ssdctl create inj --config /configs/small-test.conf timing=0) || fail "create inj"
item=$CFS/inj
blocks=2048
fio --name=w --filename="$dev" --rw=write --bs=4k --size=8M --direct=1 \
	--ioengine=psync --verify=crc32c --do_verify=0 > /dev/null || fail "fio write"
dd if="$dev" of=/tmp/data bs=4k count=$blocks iflag=direct 2>/dev/null || fail "reference"

for bad in "+r 5-2" "+x 1" "+r" "r 1" "+r 1-2 3" "+r 99999999999" "-r 7" "clearx"; do
	expect_refused "$item/inject_errors" "$bad" "Invalid argument" "inject_errors"
done
[ -z "$(cat "$item/inject_errors")" ] || fail "refusals changed the list"

# Blocks 125 (sectors 1000-1007), 512 (sector 4097 only), 1500-1501.
echo "+r 1000-1007" > "$item/inject_errors" || fail "inject 1"
echo "+r 4097" > "$item/inject_errors" || fail "inject 2"
echo "+r 12000-12015" > "$item/inject_errors" || fail "inject 3"
echo "+w 16000-16007" > "$item/inject_errors" || fail "inject 4"
echo "LIST-BEGIN"
cat "$item/inject_errors"
echo "LIST-END"

# noerror: dd's status says nothing of the errors; its messages and the data do.
dd if="$dev" of=/tmp/back bs=4k count=$blocks iflag=direct conv=noerror,sync 2>/tmp/dd.err
echo "DD-ERRORS $(grep -c 'Input/output error' /tmp/dd.err)"
echo "FAILED-BEGIN"
cmp -l /tmp/back /tmp/data | awk '{ print int(($1 - 1) / 4096) }' | uniq
echo "FAILED-END"

# continue_on_error: fio goes on past each failed read and reports it.
fio --name=v --filename="$dev" --rw=read --bs=4k --size=8M --direct=1 --ioengine=psync \
	--verify=crc32c --verify_only=1 --continue_on_error=all > /tmp/fio.out 2>&1
echo "FIO-BEGIN"
cat /tmp/fio.out
echo "FIO-END"

# Writes: block 2000 refuses them and keeps its data; 1999 takes one.
dd if=/dev/urandom of=/tmp/other bs=4k count=2 2>/dev/null || fail "urandom"
dd if=/tmp/other of="$dev" bs=4k seek=2000 count=1 oflag=direct 2>/dev/null &&
	fail "write to an injected block succeeded"
dd if=/tmp/data of="$dev" bs=4k skip=1999 seek=1999 count=1 oflag=direct 2>/dev/null ||
	fail "write beside the injected block"
dd if=/tmp/data of=/tmp/ref2000 bs=4k skip=2000 count=1 2>/dev/null || fail "ref 2000"
dd if="$dev" bs=4k skip=2000 count=1 iflag=direct 2>/dev/null |
	cmp - /tmp/ref2000 || fail "block 2000 changed"
print_stats "$dev" injected
echo "SMART-BEGIN"
nvme smart-log "$dev" -o json || fail "smart-log"
echo "SMART-END"

# Taking one range off, then clearing: everything reads back and verifies.
echo "-r 4097" > "$item/inject_errors" || fail "remove"
[ "$(grep -c . "$item/inject_errors")" = 3 ] || fail "list after remove: $(cat "$item/inject_errors")"
echo clear > "$item/inject_errors" || fail "clear"
[ -z "$(cat "$item/inject_errors")" ] || fail "list after clear"
dd if="$dev" bs=4k count=$blocks iflag=direct 2>/dev/null | cmp - /tmp/data ||
	fail "data after clear"
fio --name=v --filename="$dev" --rw=read --bs=4k --size=8M --direct=1 --ioengine=psync \
	--verify=crc32c --verify_only=1 > /tmp/fio.out 2>&1 || fail "verify after clear: $(tail -n 5 /tmp/fio.out)"
print_stats "$dev" cleared
ssdctl destroy inj || fail "destroy inj"

# Set before power-on: applied when the disk comes up.
mkdir "$CFS/pre" || fail "mkdir pre"
echo 0 > "$CFS/pre/timing" || fail "timing"
echo "+rw 0-7" > "$CFS/pre/inject_errors" || fail "inject before power-on"
echo 1 > "$CFS/pre/power" || fail "power pre"
pdev=/dev/$(cat "$CFS/pre/disk_name")
dd if="$pdev" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null &&
	fail "read of block 0 succeeded"
dd if="$pdev" of=/dev/null bs=4k skip=1 count=1 iflag=direct 2>/dev/null ||
	fail "read of block 1"
echo "PRE ok"
echo 0 > "$CFS/pre/power" || fail "power off pre"
rmdir "$CFS/pre" || fail "rmdir pre"
dmesg | grep -E 'WARNING|BUG|Oops' && fail "kernel warnings"
echo "inject ok"
