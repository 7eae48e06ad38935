"""The kernel module in a VM, on every target kernel (build/kernel-versions).

Each test boots once and runs one guest script from tests/vm/guest/, which
fails fast with "FAIL: ..." on any broken expectation; here the script's
exit status, its printed statistics and the kernel log are checked.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GUEST = HERE / "guest"
FILES = {
    "/lib.sh": str(GUEST / "lib.sh"),
    "/usr/bin/ioctl_probe": str(ROOT / "build" / "bin" / "ioctl_probe"),
}


def guest(name: str) -> str:
    return (GUEST / name).read_text()


def stats_blocks(output: str) -> dict[str, dict[str, Any]]:
    """The JSON between 'STATS-BEGIN tag' and 'STATS-END tag' lines."""
    found = re.findall(r"STATS-BEGIN (\S+)\n(.*?)\nSTATS-END \1", output, re.S)
    return {tag: json.loads(body) for tag, body in found}


def test_filesystems_survive_fsck_and_remount(vm: Any, kver: str) -> None:
    res = vm.run(guest("filesystems.sh"), kver, files=FILES, timeout_s=900)
    assert "filesystems ok" in res.output
    stats = stats_blocks(res.output)
    assert set(stats) == {"ext4", "xfs"}
    for st in stats.values():
        assert st["host_write_bytes"] > 0
        # fstrim reached the FTL as discards that unmapped pages.
        assert st["host_trim_pages"] > 0
        assert st["flash_program_pages"] >= st["host_write_pages"]
    vm.record_timing(kver, "filesystems test", res.wall_s)


def test_fio_verify_under_gc(vm: Any, kver: str) -> None:
    res = vm.run(guest("fio_gc.sh"), kver, files=FILES, timeout_s=1800)
    assert "fio_gc ok" in res.output
    stats = stats_blocks(res.output)
    fill, rand, par = stats["fill"], stats["rand"], stats["par"]
    # Sequential fill of an empty device: nothing for GC to do.
    assert fill["flash_program_gc_pages"] == 0
    assert fill["waf"] == 1.0
    # Random overwrites at 95% utilisation: GC relocates valid data.
    assert rand["flash_erase_blocks"] > 0
    assert rand["gc_relocated_pages"] > 0
    assert rand["waf"] > 1.0
    assert rand["flash_program_pages"] == (rand["flash_program_host_pages"]
                                           + rand["flash_program_gc_pages"])
    # Four jobs at once kept counting (and fio verified their data).
    assert par["host_write_bytes"] > rand["host_write_bytes"]
    print(f"{kver}: randwrite at 95%: WAF {rand['waf']:.3f}, "
          f"erases {rand['flash_erase_blocks']}, "
          f"GC moved {rand['gc_relocated_pages']} pages; "
          f"with 4 jobs: WAF {par['waf']:.3f}")
    vm.record_timing(kver, "fio GC test", res.wall_s)


def test_configfs_lifecycle_and_bad_input(vm: Any, kver: str) -> None:
    res = vm.run(guest("configfs.sh"), kver, files=FILES, timeout_s=600)
    out = res.output
    assert "configfs ok" in out
    for refused in ("chips=0", "page_size_bytes=3000", "op_percent=100",
                    "gc_policy=lru", "power=1", "chips=16", "power=0"):
        assert f"refused {refused}:" in out
    assert "fd_stats=No such device or address" in out
    vm.record_timing(kver, "configfs test", res.wall_s)
