"""How the sim tests run ssdsim: the ASan/UBSan build (make unit), through
the binding's runner (ssdsim.call), so memory errors on real traces fail
the test.

A missing build fails the test (never a skip), and so does a non-zero
exit where a run must succeed.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

import ssdsim as sim
from ssdtools.paths import CONFIGS, TRACES

SSDSIM = sim.SSDSIM_ASAN
SMALL = CONFIGS / "small-test.conf"

# A tiny device (4 chips of 16 blocks of 16 pages) for the fault tests.
TINY = ["pages_per_block=16", "blocks_per_chip=16", "chips=4", "channels=2",
        "op_percent=25"]

__all__ = ["SSDSIM", "SMALL", "TRACES", "TINY", "ssdsim", "checked_stats",
           "write_then_read"]


def write_then_read(path: Path, pages: int, passes: int = 1,
                    page_bytes: int = 4096) -> Path:
    """An ssdemu-format trace at @path: @passes times, @pages pages
    written in order, then read in order, one request every 100 us."""
    lines, t = [], 0
    for _ in range(passes):
        for op in ("W", "R"):
            for lpn in range(pages):
                t += 100000
                lines.append(f"{t} {op} {lpn * page_bytes} {page_bytes} 0")
    path.write_text("\n".join(lines) + "\n")
    return path


def ssdsim(*args: str, check: bool = True,
           timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the ASan ssdsim with args; with check, it must exit 0."""
    if not SSDSIM.exists():
        pytest.fail(f"{SSDSIM} missing: run 'make unit'")
    proc = sim.call(args, SSDSIM, timeout)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def checked_stats(*args: str, timeout: float = 300) -> dict[str, Any]:
    """--json statistics of a run with --check (the FTL's and the
    layers' consistency checks at the end) on small-test.conf, then
    args."""
    proc = ssdsim("--json", "--check", "--config", str(SMALL), *args,
                  timeout=timeout)
    stats: dict[str, Any] = json.loads(proc.stdout)
    return stats
