"""Tests of the qemu test bed itself (not of ssdemu).

Owns: boot-and-shutdown per kernel (with timings), the guest tools working
on a brd RAM disk (ext4, xfs, fio verify), per-run files landing where
documented, on-demand filesystem loading, and the kernel error detector
firing on a fake WARNING.  The first tests need no VM: they check the
cpio writer and the log parsing on the host.
"""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest

from ssdtools import initramfs, vmrun

# ---------------------------------------------------------------- host only


def test_cpio_writer_round_trip(tmp_path: Path) -> None:
    host_file = tmp_path / "data.bin"
    host_file.write_bytes(b"x" * 1001)
    tree = initramfs.Tree()
    tree.add_link("/bin", "usr/bin")
    tree.add_file("/bin/tool", b"#!/bin/sh\n", 0o755)  # lands in /usr/bin
    tree.add_file("/a/b/data.bin", host_file)
    tree.add_device("/dev/console", 5, 1)
    buf = io.BytesIO()
    tree.write(buf)
    assert len(buf.getvalue()) % 512 == 0
    names = subprocess.run(["cpio", "-it"], input=buf.getvalue(),
                           capture_output=True, check=True).stdout.split()
    assert [n.decode() for n in names] == [
        "a", "a/b", "dev", "usr", "usr/bin", "dev/console", "bin",
        "a/b/data.bin", "usr/bin/tool"]
    out = tmp_path / "out"
    out.mkdir()
    subprocess.run(["cpio", "-id", "--quiet", "a/b/data.bin"],
                   input=buf.getvalue(), cwd=out, check=True)
    assert (out / "a/b/data.bin").read_bytes() == b"x" * 1001


def test_parse_serial_and_errors() -> None:
    log = ("noise\n@@SSDEMU-VM-START 3.14@@\nline 1\nline 2"
           "\n@@SSDEMU-VM-EXIT 3 4.50@@\n@@SSDEMU-VM-DMESG-BEGIN@@\n"
           "[ 1.0] ok\n[ 2.0] WARNING: CPU: 0 PID: 1 at x.c:1\n"
           "@@SSDEMU-VM-DMESG-END@@\n")
    output, code, start, end, dmesg = vmrun._parse_serial(log)
    assert (output, code, start, end) == ("line 1\nline 2", 3, 3.14, 4.5)
    assert dmesg.splitlines()[0] == "[ 1.0] ok"
    console = ("[ 2.0] WARNING: CPU: 0 PID: 1 at x.c:1\n"
               "[ 3.0] INFO: task fio:77 blocked for more than 120 seconds.\n"
               "[ 4.0] BUG: kernel NULL pointer dereference, address: 0\n")
    assert vmrun.find_kernel_errors(console, dmesg) == [
        line.strip() for line in console.splitlines()]
    assert vmrun.find_kernel_errors("[ 1.0] all fine\n") == []


def test_qemu_debug_artefact_is_not_a_kernel_error() -> None:
    """qemu's leaked #DB warning is passed over; a WARNING elsewhere in
    traps.c, or in any other function, is not."""
    artefact = ("[    4.901] WARNING: CPU: 0 PID: 156 at "
                "arch/x86/kernel/traps.c:1120 exc_debug_kernel+0x4b/0x60\n")
    others = ("[    5.0] WARNING: CPU: 1 PID: 9 at "
              "arch/x86/kernel/traps.c:700 do_int3+0x1/0x2\n"
              "[    6.0] WARNING: CPU: 0 PID: 3 at "
              "drivers/block/ssdemu/x.c:1 exc_debug_kernel_like+0x1\n")
    assert vmrun.find_kernel_errors(artefact) == []
    assert vmrun.find_kernel_errors(artefact + others) == [
        line.strip() for line in others.splitlines()]


# ---------------------------------------------------------------- in a VM


def test_boot_and_shutdown(vm, kver: str) -> None:
    res = vm.run("", kver=kver)
    assert res.exit_code == 0
    assert res.boot_s is not None
    vm.record_timing(kver, "boot to script (host)", res.boot_s)
    vm.record_timing(kver, "boot+shutdown wall", res.wall_s)
    vm.record_timing(kver, "base image prepare (session)",
                     vm.prepare_s[kver])
    print(f"{kver}: boot {res.boot_s:.2f} s (guest uptime "
          f"{res.guest_boot_s} s), wall {res.wall_s:.2f} s")
    assert res.wall_s < 30, res.summary()  # sanity bound only


TOOLS_SCRIPT = r"""
set -eu
echo "kernel $(uname -r)"
[ "$(uname -r)" = "$KVER" ]
# Per-run files.
cmp /extra/inline.txt /extra/host.txt
[ "$(cat /extra/inline.txt)" = "inline content" ]
[ -d /configs ]
ls /lib/ssdemu /usr/bin >/dev/null
# Tool versions (each must start: libraries and loader are complete).
fio --version
nvme version
blktrace -V
blkparse -V
xfs_db -V
dumpe2fs -V 2>&1 | head -n 1
debugfs -V 2>&1 | head -n 1
# The filesystems were preloaded, brd was not.
grep -qw ext4 /proc/filesystems
grep -qw xfs /proc/filesystems
if grep -q '^brd ' /proc/modules; then exit 1; fi
insmod "$MODDIR/brd.ko" rd_nr=2 rd_size=327680
mkdir -p /mnt/ext4 /mnt/xfs
# ext4: mkfs, mount, write, umount, fsck, read back.
mkfs.ext4 -q -F /dev/ram0
mount -t ext4 /dev/ram0 /mnt/ext4
echo "persisted" > /mnt/ext4/file
umount /mnt/ext4
e2fsck -fn /dev/ram0
mount /dev/ram0 /mnt/ext4
[ "$(cat /mnt/ext4/file)" = persisted ]
umount /mnt/ext4
# xfs (needs >= 300 MiB): mkfs, repair -n, mount, write, umount.
mkfs.xfs -q -f /dev/ram1
xfs_repair -n /dev/ram1
mount -t xfs /dev/ram1 /mnt/xfs
dd if=/dev/zero of=/mnt/xfs/zeros bs=1M count=8 2>/dev/null
umount /mnt/xfs
# fio with data verification on the raw RAM disk, 2 seconds; time_based
# needs verify_backlog to verify while writing.
fio --name=verify --filename=/dev/ram0 --rw=randwrite --bs=4k --direct=1 \
    --ioengine=libaio --iodepth=8 --size=64m --time_based --runtime=2 \
    --verify=crc32c --verify_backlog=256 --verify_fatal=1 \
    --output-format=terse --terse-version=3 >/tmp/fio.out
cut -d';' -f1-7 /tmp/fio.out
# terse fields: 5 = error code, 6 = KiB read (the verify reads)
[ "$(cut -d';' -f5 /tmp/fio.out)" = 0 ]
[ "$(cut -d';' -f6 /tmp/fio.out)" -gt 0 ]
rmmod brd
echo ALL-TOOLS-OK
"""


def test_tools_on_brd(vm, kver: str, tmp_path: Path) -> None:
    host = tmp_path / "host.txt"
    host.write_text("inline content")
    res = vm.run(TOOLS_SCRIPT, kver=kver, timeout_s=300, preload_fs=True,
                 files={
                     "/extra/inline.txt": b"inline content",
                     "/extra/host.txt": str(host),
                 })
    assert "ALL-TOOLS-OK" in res.output, res.summary()
    vm.record_timing(kver, "tools script (guest)", res.script_s or -1)


def test_filesystems_load_on_demand(vm) -> None:
    script = r"""
set -eu
if grep -qw ext4 /proc/filesystems; then exit 1; fi
insmod "$MODDIR/brd.ko" rd_nr=2 rd_size=327680
mkfs.ext4 -q -F /dev/ram0
mkfs.xfs -q -f /dev/ram1
mkdir -p /mnt/a /mnt/b
mount /dev/ram0 /mnt/a    # no -t: busybox tries /etc/filesystems
mount /dev/ram1 /mnt/b
grep ' /mnt/a ext4 ' /proc/mounts
grep ' /mnt/b xfs ' /proc/mounts
umount /mnt/a /mnt/b
"""
    res = vm.run(script, timeout_s=300)
    assert res.boot_s is not None
    vm.record_timing(vm.kernels[0], "boot to script, fs on demand",
                     res.boot_s)


def test_kernel_error_detection(vm) -> None:
    res = vm.run_raw('echo "WARNING: fake warning from the test bed" '
                     '>/dev/kmsg\necho done\n')
    assert res.exit_code == 0, res.summary()
    assert res.output.strip() == "done"
    assert any("WARNING: fake warning" in e for e in res.kernel_errors), \
        res.summary()
    with pytest.raises(AssertionError, match="kernel error"):
        vm.run('echo "BUG: fake bug" >/dev/kmsg')


def test_panic_ends_the_vm(vm) -> None:
    res = vm.run_raw("echo c >/proc/sysrq-trigger; echo survived",
                     timeout_s=120)
    assert res.exit_code is None and not res.timed_out, res.summary()
    assert "survived" not in res.output
    assert any("Kernel panic" in e for e in res.kernel_errors), res.summary()


def test_exit_status_and_timeout(vm) -> None:
    res = vm.run_raw("echo out; echo err >&2; exit 7")
    assert res.exit_code == 7, res.summary()
    assert res.output.splitlines() == ["out", "err"]
    hung = vm.run_raw("sleep 600", timeout_s=20)
    assert hung.timed_out and hung.exit_code is None


def test_tail_survives_a_process_left_behind(vm, kver: str) -> None:
    """A script that exits while a process it started still holds ttyS1
    (its stdout) and the kernel log is long: the exit status still comes
    from ttyS1 (not the console's fallback: script_s is set), and the whole
    dmesg, its last line included, arrives before power-off (FLAKES.md)."""
    res = vm.run_raw('sleep 600 &\n'
                     'i=0\n'
                     'while [ $i -lt 1500 ]; do\n'
                     '\techo "bed filler line $i" > /dev/kmsg\n'
                     '\ti=$((i + 1))\n'
                     'done\n'
                     'echo "bed last line" > /dev/kmsg\n'
                     'echo left\n', kver, timeout_s=300)
    assert res.exit_code == 0 and res.script_s is not None, res.summary()
    assert res.output.strip() == "left"
    lines = res.dmesg.splitlines()
    assert sum("bed filler line" in line for line in lines) == 1500
    # The last line written, a few hundred bytes from the end of ttyS1.
    assert any(line.endswith("bed last line") for line in lines), lines[-3:]


def test_clock_error() -> None:
    """A guest clock at the wrong rate is the bed's error; a right one, or
    a run too short to judge, is not."""
    assert vmrun.clock_error(30.4, 30.0) is None
    assert vmrun.clock_error(16.0, 30.0) is None
    assert vmrun.clock_error(None, 30.0) is None
    assert vmrun.clock_error(50.0, 5.0) is None  # too short to judge
    fast = vmrun.clock_error(300.0, 30.0)
    assert fast and "10.00 times as fast" in fast
    assert vmrun.find_kernel_errors(fast) == []  # a bed line, added apart
    assert vmrun.clock_error(5.0, 30.0)


def test_wrong_guest_clock_is_reported(vm) -> None:
    """A guest whose TSC was calibrated wrong (forced here: 500 MHz where
    the host's TSC runs several times faster) keeps a clock that runs too
    fast; the bed reports it as an error instead of passing the run."""
    res = vm.run_raw("sleep 80\necho slept\n", timeout_s=300,
                     extra_cmdline="tsc_early_khz=500000")
    assert res.exit_code == 0, res.summary()
    assert any("guest clock ran" in e for e in res.kernel_errors), \
        res.summary()


def test_tsc_khz_remembered(tmp_path: Path, monkeypatch) -> None:
    """The refined TSC frequency of a guest's log is kept and given to the
    next boots as tsc_early_khz; nothing is kept from a log without it."""
    monkeypatch.setattr(initramfs, "VM_DIR", tmp_path)
    monkeypatch.setattr(vmrun, "kernel_image", lambda kver: tmp_path / "k")
    assert vmrun.known_tsc_khz() is None
    assert vmrun.remember_tsc_khz("[ 1.0] tsc: Detected 490.097 MHz") is None
    assert vmrun.known_tsc_khz() is None
    log = "[ 2.7] tsc: Refined TSC clocksource calibration: 2596.135 MHz\n"
    assert vmrun.remember_tsc_khz("", log) == 2596135
    assert vmrun.known_tsc_khz() == 2596135
    cmd = vmrun.qemu_command("k", tmp_path / "i", tmp_path / "c",
                             tmp_path / "s", 512, 1)
    assert "tsc_early_khz=2596135" in cmd[cmd.index("-append") + 1]
    cmd = vmrun.qemu_command("k", tmp_path / "i", tmp_path / "c",
                             tmp_path / "s", 512, 1, "tsc_early_khz=5")
    assert "tsc_early_khz=2596135" not in cmd[cmd.index("-append") + 1]
