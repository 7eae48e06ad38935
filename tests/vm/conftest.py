"""pytest glue for the qemu test bed (tests/vm/).

Owns the session-scoped `vm` fixture (a VmBed: builds the kernels and base
initramfs images once, then runs scripts in fresh VMs), the `kver`
parametrization over build/kernel-versions, the `vm` marker on every test
that uses the fixture, and a terminal summary of measured boot times.
"""

from __future__ import annotations

import shutil
import sys
import time
from typing import Any

import pytest

from ssdtools import initramfs, vmrun

# (kver, what, seconds) reported at the end of the session.
TIMINGS: list[tuple[str, str, float]] = []


class VmFailure(AssertionError):
    """A VM run that did not finish cleanly."""


class VmBed:
    """Runs shell scripts in fresh VMs; see tests/vm/README.md."""

    def __init__(self) -> None:
        self.kernels: list[str] = initramfs.default_kernels()
        self.prepare_s: dict[str, float] = {}
        for kver in self.kernels:
            t0 = time.monotonic()
            initramfs.ensure_kernel(kver)
            vmrun.kernel_image(kver)
            initramfs.base_image(kver)
            self.prepare_s[kver] = time.monotonic() - t0

    @staticmethod
    def record_timing(kver: str, what: str, seconds: float) -> None:
        """Report a figure in the session's "VM timings" summary."""
        TIMINGS.append((kver, what, seconds))

    def run_raw(self, script: str, kver: str | None = None,
                **kw: Any) -> vmrun.VmResult:
        """Run without asserting anything (kw: see vmrun.run_in_vm)."""
        return vmrun.run_in_vm(script, kver=kver or self.kernels[0], **kw)

    def run(self, script: str, kver: str | None = None,
            expect_exit: int | None = 0, **kw: Any) -> vmrun.VmResult:
        """Run and assert the VM finished, the script exited with
        expect_exit (None: any status) and the kernel logged no errors."""
        res = self.run_raw(script, kver, **kw)
        if res.exit_code is None and res.guest_boot_s is None:
            # The guest died while booting, before /test.sh (and so before
            # ssdemu.ko) ran: under TCG, Debian's kernel now and then oopses
            # on an int3 while patching its own text at boot.  That is the
            # platform's, not the module's; boot once more, and say so.
            print(f"\nVM boot died before the script ({kver}); booting "
                  f"again:\n{res.summary()}", file=sys.stderr)
            self.record_timing(kver or self.kernels[0],
                               "boot crash before the script, retried",
                               res.wall_s)
            res = self.run_raw(script, kver, **kw)
        problems = []
        if res.exit_code is None:
            problems.append("the VM did not finish the script")
        elif expect_exit is not None and res.exit_code != expect_exit:
            problems.append(f"script exit status {res.exit_code}, "
                            f"expected {expect_exit}")
        if res.kernel_errors:
            problems.append(f"{len(res.kernel_errors)} kernel error line(s)")
        if problems:
            raise VmFailure("; ".join(problems) + "\n" + res.summary())
        return res


def _missing_prerequisite() -> str | None:
    if shutil.which(vmrun.QEMU) is None:
        return f"{vmrun.QEMU} not installed (run scripts/install-deps.sh)"
    if not (initramfs.BUILD / "kernel-versions").exists():
        return "build/kernel-versions missing (run scripts/install-deps.sh)"
    return None


@pytest.fixture(scope="session")
def vm() -> VmBed:
    # `make test` installs everything first: a missing piece is a failure,
    # never a reason to skip the VM tests.
    reason = _missing_prerequisite()
    if reason:
        pytest.fail(reason)
    return VmBed()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test taking a `kver` argument runs once per target kernel."""
    if "kver" in metafunc.fixturenames:
        try:
            kernels = initramfs.default_kernels()
        except FileNotFoundError:
            kernels = []
        metafunc.parametrize("kver", kernels or [pytest.param(
            None, marks=pytest.mark.skip(reason="no build/kernel-versions"))])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "vm" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.vm)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if TIMINGS:
        terminalreporter.section("VM timings")
        for kver, what, seconds in TIMINGS:
            terminalreporter.write_line(f"{kver:24s} {what:34s} "
                                        f"{seconds:6.2f} s")
