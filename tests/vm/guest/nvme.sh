# nvme.sh - Debian's nvme-cli on /dev/ssdemuN (emulator/ssdemu_nvme.c):
# id-ctrl, id-ns (4 KiB and 512-byte logical blocks), smart-log (text and
# JSON), the vendor log page 0xC0
# after a known write workload that wears a small device, a bogus opcode,
# a wrong namespace, an unknown log page and a transfer too short for its
# data, each an NVMe status; the error log afterwards.  The NVMe commands
# change nothing: the counters before and after them are the same.  The
# host test (test_nvme_vm.py) checks the values against `ssdctl stats`.
. /lib.sh
load_module

# A small device (12 MiB of flash) so that a few passes wear it, and a P/E
# limit of 2 cycles so that the wear shows as percentage used.
dev=$(ssdctl create n --config /configs/small-test.conf timing=0 chips=2 channels=1 \
	blocks_per_chip=24 pages_per_block=64 op_percent=25 pe_cycle_limit=2) ||
	fail "create n"
[ "$(cat $CFS/n/pe_cycle_limit)" = 2 ] ||
	fail "pe_cycle_limit not set"
bytes=$(blockdev --getsize64 "$dev") || fail "blockdev"
echo "NVME capacity_bytes=$bytes"

# Known writes: three passes over the device in 60 KiB pieces (not a
# multiple of NVMe's 512,000-byte data unit), then 300 4 KiB reads.
pieces=$((bytes / 61440))
for pass in 1 2 3; do
	dd if=/dev/urandom of="$dev" bs=61440 count=$pieces oflag=direct 2>/dev/null ||
		fail "write pass $pass"
done
echo "NVME written_bytes=$((3 * pieces * 61440))"
dd if="$dev" of=/dev/null bs=4096 count=300 iflag=direct 2>/dev/null || fail "read"

print_stats "$dev" before

echo "NVME-OUT-BEGIN id-ctrl"
nvme id-ctrl "$dev" -o json || fail "nvme id-ctrl"
echo "NVME-OUT-END id-ctrl"
nvme id-ctrl "$dev" > /tmp/id-ctrl.txt || fail "nvme id-ctrl (text)"
grep -E '^(sn|mn|fr|nn|elpe|mdts) ' /tmp/id-ctrl.txt
echo "NVME-OUT-BEGIN id-ns"
nvme id-ns "$dev" -o json || fail "nvme id-ns"
echo "NVME-OUT-END id-ns"
echo "NVME-OUT-BEGIN smart-log-text"
nvme smart-log "$dev" || fail "nvme smart-log"
echo "NVME-OUT-END smart-log-text"
echo "NVME-OUT-BEGIN smart-log"
nvme smart-log "$dev" -o json || fail "nvme smart-log -o json"
echo "NVME-OUT-END smart-log"
nvme get-log "$dev" --log-id=0xc0 --log-len=512 -b > /tmp/c0.bin || fail "nvme get-log 0xc0"
echo "NVME-OUT-BEGIN vendor"
od -An -v -tx1 /tmp/c0.bin
echo "NVME-OUT-END vendor"
# The same page at an offset, as libnvme reads pages in pieces.
nvme get-log "$dev" --log-id=0xc0 --log-len=256 --lpo=256 -b > /tmp/c0-hi.bin ||
	fail "nvme get-log 0xc0 at offset 256"
tail -c 256 /tmp/c0.bin | cmp - /tmp/c0-hi.bin || fail "get-log at an offset differs"

# Bad commands: an NVMe status each, never a kernel error.
expect_status() {
	what=$1
	shift
	if "$@" > /tmp/status.out 2>&1; then
		fail "$what: accepted"
	fi
	echo "NVME-STATUS $what: $(tr '\n' ' ' < /tmp/status.out)"
}
expect_status opcode nvme admin-passthru "$dev" --opcode=0xff
expect_status nsid nvme id-ns "$dev" --namespace-id=2
expect_status log-id nvme get-log "$dev" --log-id=0x05 --log-len=512
expect_status short nvme admin-passthru "$dev" --opcode=0x06 --cdw10=1 --data-len=512 -r
echo "NVME-OUT-BEGIN error-log"
nvme error-log "$dev" -o json || fail "nvme error-log"
echo "NVME-OUT-END error-log"
echo "NVME-OUT-BEGIN smart-log-after"
nvme smart-log "$dev" -o json || fail "nvme smart-log after the errors"
echo "NVME-OUT-END smart-log-after"
echo "NVME-OUT-BEGIN list"
nvme list 2>&1
echo "NVME-OUT-END list"

print_stats "$dev" after
ssdctl check "$dev" || fail "check"
ssdctl destroy n || fail "destroy"

# 512-byte logical blocks: the namespace's LBA format and granularity follow.
dev=$(ssdctl create m --config /configs/small-test.conf timing=0 logical_block_bytes=512) ||
	fail "create m"
echo "NVME capacity512_bytes=$(blockdev --getsize64 "$dev")"
echo "NVME-OUT-BEGIN id-ns-512"
nvme id-ns "$dev" -o json || fail "nvme id-ns (512)"
echo "NVME-OUT-END id-ns-512"
ssdctl destroy m || fail "destroy m"
rmmod ssdemu || fail "rmmod"
echo "nvme ok"
