"""`make demo`: boot the VM, make an ext4 SSD, fill it, print its stats.

Runs tests/vm/guest/demo.sh on the first kernel of build/kernel-versions
and prints what the guest printed.  Exits non-zero if the guest script
failed or the guest kernel logged a warning, BUG or oops.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import vmrun  # noqa: E402


def main() -> int:
    print("booting a qemu VM (TCG, no KVM here: about two minutes)...",
          flush=True)
    script = (HERE / "guest" / "demo.sh").read_text()
    result = vmrun.run_in_vm(
        script, files={"/lib.sh": str(HERE / "guest" / "lib.sh")},
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
