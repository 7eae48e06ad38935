"""Run a shell script inside a qemu (TCG) VM booting a Debian kernel.

Owns the qemu invocation of the ssdemu test bed and the parsing of what the
guest reports: the script's output and exit status (second serial port,
ttyS1), the kernel console (ttyS0), the guest's dmesg, and kernel error
lines (WARNING, BUG, Oops, ...) found in either.

Library: run_in_vm(script, kver=None, files=None, ...) -> VmResult.
CLI:     python3 -m ssdtools.vmrun [--kver K] [--file SRC:DST ...] script.sh
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Union

from ssdtools import initramfs

QEMU = "qemu-system-x86_64"
# Measured under TCG on the 2-core build machines: q35 boots no faster than
# pc; microvm hangs calibrating the TSC (no PIT/HPET reference by default)
# and has a single serial port.  SSDEMU_VM_MACHINE overrides, for trials.
MACHINE = os.environ.get("SSDEMU_VM_MACHINE", "pc")
# loglevel=5: the console shows emerg..warning (0-4), which covers every
# WARNING/BUG/Oops splat (WARN() prints at KERN_WARNING), but not the
# notice/info boot chatter; the full log is still read through dmesg.
CMDLINE = [
    "console=ttyS0", "loglevel=5", "panic=-1", "8250.nr_uarts=2",
    "mitigations=off", "tsc=reliable", "no_timer_check",
    "i8042.noaux", "i8042.nomux", "i8042.nopnp", "i8042.dumbkbd",
    "random.trust_cpu=on", "nokaslr", "cryptomgr.notests=1",
]

KERNEL_ERROR_RE = re.compile(
    r"WARNING:|BUG:|Oops|general protection fault|Kernel panic"
    r"|lockdep|possible circular locking|INFO: task .* blocked"
    r"|UBSAN|KASAN|refcount_t:|list_add corruption|list_del corruption"
    r"|ssdemu-init: .* failed")  # the bed itself is broken: say so


@dataclass(frozen=True)
class Share:
    """A host directory the guest can mount over virtio-9p."""
    host_path: Path
    readonly: bool = True


# The host's / read only: gcc, make, tar and the rest of a Debian userland
# for workloads (workload/), with no root filesystem to build.
HOST_ROOT_SHARE = {"hostroot": Share(Path("/"), True)}

# ELF note of type XEN_ELFNOTE_PHYS32_ENTRY (18) named "Xen": boots via PVH.
_PVH_NOTE = b"\x12\x00\x00\x00Xen\x00"
_CONSOLE_EXIT_RE = re.compile(r"ssdemu-init: test script exited with status "
                              r"(\d+)")
_START_RE = re.compile(re.escape(initramfs.MARK_START) + r" ([0-9.]+)@@")
_EXIT_RE = re.compile(
    r"\n?" + re.escape(initramfs.MARK_EXIT) + r" (\d+) ([0-9.]+)@@")


@dataclass
class VmResult:
    """What one VM run reported."""

    kver: str
    exit_code: int | None  # None: timeout, panic, or the guest died
    output: str  # the script's stdout+stderr (ttyS1), markers stripped
    console: str  # kernel console (ttyS0)
    dmesg: str  # the guest's dmesg after the script ran ('' if it died)
    boot_s: float | None  # host seconds from qemu start to script start
    wall_s: float  # host seconds for the whole run
    kernel_errors: list[str] = field(default_factory=list)
    timed_out: bool = False
    guest_boot_s: float | None = None  # guest uptime when the script started
    script_s: float | None = None  # guest seconds the script ran
    qemu_stderr: str = ""

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.kernel_errors

    def summary(self, tail_lines: int = 40) -> str:
        """Readable report for failure messages."""
        if self.timed_out:
            status = "timed out"
        elif self.exit_code is None:
            status = "died (panic or qemu exit before the script finished)"
        else:
            status = f"exit status {self.exit_code}"
        boot = f"{self.boot_s:.2f}s" if self.boot_s is not None else "n/a"
        lines = [f"VM run on {self.kver}: {status}, boot {boot}, "
                 f"wall {self.wall_s:.2f}s"]
        if self.kernel_errors:
            lines.append("kernel errors:")
            lines += [f"  {e}" for e in self.kernel_errors]
        tail = self.output.splitlines()[-tail_lines:]
        lines.append(f"script output (last {len(tail)} lines):")
        lines += [f"  | {t}" for t in tail]
        if self.exit_code is None:
            ctail = self.console.splitlines()[-tail_lines:]
            lines.append(f"console (last {len(ctail)} lines):")
            lines += [f"  | {t}" for t in ctail]
        if self.qemu_stderr.strip():
            lines.append("qemu stderr: " + self.qemu_stderr.strip())
        return "\n".join(lines)


# Not the kernel's nor ssdemu's: qemu's TCG now and then leaks a single-step
# #DB into the guest kernel, and x86's exc_debug_kernel() warns once and
# clears TF ("A known way to trigger this is through QEMU's GDB stub, which
# leaks #DB into the guest", arch/x86/kernel/traps.c).  Seen once in a
# 6.12 guest during boot, before any test ran.  Only this exact splat
# header is passed over; every other WARNING still fails the run.
QEMU_ARTEFACT_RE = re.compile(
    r"WARNING: CPU: \d+ PID: \d+ at arch/x86/kernel/traps\.c:\d+ "
    r"exc_debug_kernel\b")


def find_kernel_errors(*logs: str) -> list[str]:
    """Kernel error lines in the given logs, deduplicated, in order
    (qemu's known #DB artefact, QEMU_ARTEFACT_RE, left out)."""
    seen: dict[str, None] = {}
    for log in logs:
        for line in log.splitlines():
            if (KERNEL_ERROR_RE.search(line)
                    and not QEMU_ARTEFACT_RE.search(line)):
                seen.setdefault(line.strip(), None)
    return list(seen)


# A guest clock running at the wrong rate (a TSC calibrated against the PIT
# on a loaded host, see /init) makes every sleep, bound and modeled time of
# the run wrong: such a run proves nothing either way.  Judged only on
# scripts long enough for the host's share (the dmesg dump, power-off) to
# be small; guest seconds against host seconds between the start and exit
# markers (both clocks count real time when right, whatever the load).
CLOCK_MIN_HOST_S = 10.0
CLOCK_MAX_RATIO = 2.0


def clock_error(script_s: float | None, host_s: float | None) -> str | None:
    """The bed's error line when the guest's clock ran too fast or too slow
    against the host's (None: fine, or too short to judge)."""
    if script_s is None or host_s is None or host_s < CLOCK_MIN_HOST_S:
        return None
    ratio = script_s / host_s
    if 1 / CLOCK_MAX_RATIO <= ratio <= CLOCK_MAX_RATIO:
        return None
    return (f"ssdemu-init: guest clock ran {ratio:.2f} times as fast as the "
            f"host's ({script_s:.1f} guest s in {host_s:.1f} host s): its "
            "times are not the run's")


# The guest's TSC frequency as its kernel measured it against qemu's HPET
# (host time) a second after boot ("Refined TSC clocksource calibration"),
# kept for the next boots and given as tsc_early_khz: the quick calibration
# at boot, against the PIT, which a loaded host made 5x wrong (and with it
# sched_clock, so the soft-lockup detector fired on a 4 s stall), is then
# skipped.  Under TCG the guest's TSC counts the host's ticks: the value
# belongs to the host, whatever the kernel.
_REFINED_RE = re.compile(
    r"tsc: Refined TSC clocksource calibration: (\d+)\.(\d{3}) MHz")


def tsc_khz_file() -> Path:
    return initramfs.VM_DIR / "tsc-khz"


def known_tsc_khz() -> int | None:
    """The TSC frequency remembered from an earlier boot, if any."""
    try:
        khz = int(tsc_khz_file().read_text())
    except (OSError, ValueError):
        return None
    return khz if khz > 0 else None


def remember_tsc_khz(*logs: str) -> int | None:
    """Keep the refined TSC frequency found in a guest's kernel log."""
    for log in logs:
        found = _REFINED_RE.search(log)
        if found:
            khz = int(found.group(1)) * 1000 + int(found.group(2))
            path = tsc_khz_file()
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
            tmp.write_text(f"{khz}\n")
            os.replace(tmp, path)
            return khz
    return None


def _read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", "replace").replace("\r", "")
    except FileNotFoundError:
        return ""


def _parse_serial(text: str) -> tuple[str, int | None, float | None,
                                      float | None, str]:
    """Split the ttyS1 log into (output, exit code, guest start uptime,
    guest end uptime, dmesg)."""
    start = _START_RE.search(text)
    if not start:
        return "", None, None, None, ""
    body = text[start.end():]
    body = body[1:] if body.startswith("\n") else body
    end = _EXIT_RE.search(body)
    if not end:
        return body, None, float(start.group(1)), None, ""
    output = body[:end.start()]
    dmesg = ""
    rest = body[end.end():]
    begin = rest.find(initramfs.MARK_DMESG_BEGIN)
    if begin >= 0:
        dmesg = rest[begin + len(initramfs.MARK_DMESG_BEGIN):]
        dmesg = dmesg.split(initramfs.MARK_DMESG_END)[0].strip("\n")
    return (output, int(end.group(1)), float(start.group(1)),
            float(end.group(2)), dmesg)


def kernel_image(kver: str) -> Path:
    """The kernel qemu boots: the uncompressed vmlinux (PVH entry, no
    firmware-driven decompression, which costs ~6 s under TCG), unpacked
    once from Debian's vmlinuz; vmlinuz itself if that fails."""
    kdir = initramfs.ensure_kernel(kver)
    vmlinuz, vmlinux = kdir / "vmlinuz", kdir / "vmlinux"
    if vmlinux.exists() and vmlinux.stat().st_mtime >= vmlinuz.stat().st_mtime:
        return vmlinux
    data = vmlinuz.read_bytes()
    image = b""
    for magic, tool in ((b"\xfd7zXZ\x00", ["xz", "-dcq"]),
                        (b"\x28\xb5\x2f\xfd", ["zstd", "-dcq"]),
                        (b"\x1f\x8b\x08", ["gzip", "-dcq"])):
        at = data.find(magic)
        while at >= 0 and not image.startswith(b"\x7fELF"):
            # Trailing garbage after the stream makes the tools complain,
            # so judge by the output, not the exit status.
            image = subprocess.run(tool, input=data[at:], check=False,
                                   capture_output=True).stdout
            at = data.find(magic, at + 1)
        if image.startswith(b"\x7fELF"):
            break
    if not image.startswith(b"\x7fELF") or _PVH_NOTE not in image:
        return vmlinuz
    tmp = vmlinux.with_suffix(f".tmp{os.getpid()}")
    tmp.write_bytes(image)
    os.replace(tmp, vmlinux)
    return vmlinux


def qemu_command(kver: str, initrd: Path, console: Path, serial: Path,
                 memory_mb: int, cpus: int, extra_cmdline: str = "",
                 machine: str = MACHINE,
                 shares: Mapping[str, Share] | None = None) -> list[str]:
    cmdline = CMDLINE + ([extra_cmdline] if extra_cmdline else [])
    khz = known_tsc_khz()
    if khz and "tsc_early_khz=" not in extra_cmdline:
        cmdline.append(f"tsc_early_khz={khz}")
    append = " ".join(cmdline)
    virtfs: list[str] = []
    for tag, share in (shares or {}).items():
        virtfs += ["-virtfs", f"local,path={share.host_path},mount_tag={tag},"
                   "security_model=none,multidevs=remap"
                   + (",readonly=on" if share.readonly else "")]
    return [
        QEMU, "-machine", machine, "-accel", "tcg,thread=multi",
        "-cpu", "max", "-smp", str(cpus), "-m", str(memory_mb),
        "-nodefaults", "-display", "none", "-no-reboot",
        "-kernel", str(kernel_image(kver)), "-initrd", str(initrd),
        "-append", append,
        "-serial", f"file:{console}", "-serial", f"file:{serial}",
    ] + virtfs


def run_in_vm(script: str, kver: str | None = None,
              files: Mapping[str, Union[str, bytes, Path]] | None = None,
              timeout_s: float = 600, memory_mb: int = 3072,
              cpus: int = 2, extra_cmdline: str = "",
              preload_fs: bool = False,
              keep_dir: Path | None = None,
              shares: Mapping[str, Share] | None = None,
              on_line: Callable[[str], None] | None = None) -> VmResult:
    """Boot kver (default: first line of build/kernel-versions), run script
    with `sh /test.sh`, power off, and report.

    files maps guest path -> host path (file or directory) or inline bytes.
    By default ext4/xfs are not loaded at boot (that costs ~2-3 s under
    TCG): the kernel loads them through modprobe when a script mounts one;
    preload_fs=True loads them at boot.
    keep_dir, if given, receives the initrd and the serial logs.
    shares maps a virtio-9p mount tag to a host directory the guest mounts
    with `mount -t 9p -o trans=virtio,version=9p2000.L TAG DIR` (after
    `modprobe virtio_pci 9pnet_virtio 9p`, those not built in: 6.12 has
    virtio_pci built in); HOST_ROOT_SHARE is the host's / read only, a full
    userland (gcc, make, tar) for workloads.
    on_line, if given, is called with each line of the guest's output
    (ttyS1) as it arrives, for progress while a long script runs."""
    kver = kver or initramfs.default_kernels()[0]
    initramfs.ensure_kernel(kver)
    workdir = Path(tempfile.mkdtemp(prefix="run-", dir=_vm_dir()))
    try:
        initrd = initramfs.build_initrd(kver, script, workdir / "initrd",
                                        files, preload_fs=preload_fs)
        console, serial = workdir / "console.log", workdir / "ttyS1.log"
        cmd = qemu_command(kver, initrd, console, serial, memory_mb, cpus,
                           extra_cmdline, shares=shares)
        result = _run_qemu(kver, cmd, console, serial, timeout_s, on_line)
        if "tsc_early_khz=" not in extra_cmdline and not any(
                "guest clock ran" in e for e in result.kernel_errors):
            remember_tsc_khz(result.dmesg, result.console)
        if keep_dir is not None:
            keep_dir.mkdir(parents=True, exist_ok=True)
            for f in workdir.iterdir():
                shutil.copy2(f, keep_dir / f.name)
        return result
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _vm_dir() -> Path:
    initramfs.VM_DIR.mkdir(parents=True, exist_ok=True)
    return initramfs.VM_DIR


def _run_qemu(kver: str, cmd: list[str], console: Path, serial: Path,
              timeout_s: float,
              on_line: Callable[[str], None] | None = None) -> VmResult:
    t0 = time.monotonic()
    boot_s: float | None = None
    exit_s: float | None = None  # host seconds when the exit marker came
    exit_mark = initramfs.MARK_EXIT.encode()
    scanned = 0
    timed_out = False
    follower = _LineFollower(serial, on_line) if on_line else None
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                stdout=err, stderr=err)
        try:
            while proc.poll() is None:
                now = time.monotonic() - t0
                if boot_s is None and serial.exists():
                    with open(serial, "rb") as f:
                        if initramfs.MARK_START.encode() in f.read(4096):
                            boot_s = now
                elif boot_s is not None and exit_s is None:
                    # Only what came since the last look (and a marker's
                    # length before it, in case one was cut in two).
                    start = max(0, scanned - len(exit_mark))
                    with open(serial, "rb") as f:
                        f.seek(start)
                        chunk = f.read()
                    scanned = start + len(chunk)
                    if exit_mark in chunk:
                        exit_s = now
                if now > timeout_s:
                    timed_out = True
                    proc.kill()
                    break
                if follower:
                    follower.poll()
                time.sleep(0.02)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        if follower:
            follower.poll()
        err.seek(0)
        qemu_stderr = err.read().decode("utf-8", "replace")
    wall_s = time.monotonic() - t0
    console_text = _read_text(console)
    output, code, g_start, g_end, dmesg = _parse_serial(_read_text(serial))
    if code is None and g_start is not None:
        # ttyS1 lost its tail (should not happen); the console still says.
        found = _CONSOLE_EXIT_RE.search(console_text)
        code = int(found.group(1)) if found else None
    if timed_out:
        code = None
    script_s = (g_end - g_start) if g_start and g_end else None
    errors = find_kernel_errors(console_text, dmesg)
    clock = clock_error(script_s, exit_s - boot_s
                        if boot_s is not None and exit_s is not None
                        else None)
    if clock:
        errors.append(clock)
    return VmResult(
        kver=kver, exit_code=code, output=output, console=console_text,
        dmesg=dmesg, boot_s=boot_s, wall_s=wall_s,
        kernel_errors=errors,
        timed_out=timed_out, guest_boot_s=g_start,
        script_s=script_s,
        qemu_stderr=qemu_stderr)


class _LineFollower:
    """Hands each complete line appended to a file to a callback."""

    def __init__(self, path: Path, on_line: Callable[[str], None]) -> None:
        self.path, self.on_line = path, on_line
        self.offset, self.partial = 0, b""

    def poll(self) -> None:
        if not self.path.exists():
            return
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            chunk = f.read()
        self.offset += len(chunk)
        *lines, self.partial = (self.partial + chunk).split(b"\n")
        for line in lines:
            self.on_line(line.decode("utf-8", "replace").rstrip("\r"))


def _main() -> int:
    ap = argparse.ArgumentParser(
        description="Run a shell script inside the ssdemu test VM.")
    ap.add_argument("script", help="script file, or - for stdin")
    ap.add_argument("--kver", help="kernel ABI (default: first line of "
                    "build/kernel-versions)")
    ap.add_argument("--file", action="append", default=[],
                    metavar="SRC:DST", help="copy host SRC to guest DST")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--memory", type=int, default=3072, help="MiB")
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("--append", default="", help="extra kernel cmdline")
    ap.add_argument("--keep", type=Path, help="keep initrd and logs here")
    ap.add_argument("--preload-fs", action="store_true",
                    help="load ext4 and xfs at boot, not on first mount")
    ap.add_argument("--console", action="store_true",
                    help="print the whole kernel console")
    ap.add_argument("--share", action="append", default=[],
                    metavar="TAG:DIR[:ro]",
                    help="share host DIR over virtio-9p as TAG")
    args = ap.parse_args()
    script = (sys.stdin.read() if args.script == "-"
              else Path(args.script).read_text())
    files: dict[str, Union[str, bytes, Path]] = {}
    for spec in args.file:
        src, sep, dst = spec.rpartition(":")
        if not sep or not src or not dst.startswith("/"):
            ap.error(f"--file wants SRC:/guest/path, got {spec!r}")
        files[dst] = src
    shares: dict[str, Share] = {}
    for spec in args.share:
        tag, _, rest = spec.partition(":")
        path, _, mode = rest.partition(":")
        if not tag or not path or mode not in ("", "ro"):
            ap.error(f"--share wants TAG:DIR[:ro], got {spec!r}")
        shares[tag] = Share(Path(path), mode == "ro")
    res = run_in_vm(script, kver=args.kver, files=files,
                    timeout_s=args.timeout, memory_mb=args.memory,
                    cpus=args.cpus, extra_cmdline=args.append,
                    preload_fs=args.preload_fs, keep_dir=args.keep,
                    shares=shares)
    sys.stdout.write(res.output)
    if args.console:
        sys.stderr.write(res.console)
    for line in res.kernel_errors:
        print(f"vmrun: kernel error: {line}", file=sys.stderr)
    boot = f"{res.boot_s:.2f}" if res.boot_s is not None else "n/a"
    print(f"vmrun: {res.kver}: exit {res.exit_code}, boot {boot} s, "
          f"wall {res.wall_s:.2f} s", file=sys.stderr)
    if res.exit_code is None:
        if not args.console:
            sys.stderr.write("".join(res.console.splitlines(True)[-30:]))
        if res.qemu_stderr:
            sys.stderr.write(res.qemu_stderr)
        return 124 if res.timed_out else 125
    if res.exit_code == 0 and res.kernel_errors:
        return 1
    return res.exit_code


if __name__ == "__main__":
    sys.exit(_main())
