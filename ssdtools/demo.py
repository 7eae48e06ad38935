"""`make demo`: boot the VM, make an ext4 SSD, fill it, print its stats.

Runs tests/vm/guest/demo.sh on the first kernel of build/kernel-versions
and prints what the guest printed.  Exits non-zero if the guest script
failed or the guest kernel logged a warning, BUG or oops.

usage: python3 -m ssdtools.demo
"""
from __future__ import annotations

import sys

from ssdtools import vmrun
from ssdtools.paths import GUEST_LIB, ROOT

SCRIPT = ROOT / "tests" / "vm" / "guest" / "demo.sh"


def main() -> int:
    print("booting a qemu VM (TCG, no KVM here: about two minutes)...",
          flush=True)
    result = vmrun.run_in_vm(SCRIPT.read_text(),
                             files={"/lib.sh": str(GUEST_LIB)},
                             timeout_s=900)
    print(result.output)
    if not result.ok:
        print(result.summary(), file=sys.stderr)
        return 1
    print(f"(kernel {result.kver}, VM boot {result.boot_s:.1f} s, "
          f"whole run {result.wall_s:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
