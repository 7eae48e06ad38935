"""How the sim tests run ssdsim: the ASan/UBSan build (make unit), through
the binding's runner (ssdsim.call), so memory errors on real traces fail
the test.

A missing build fails the test (never a skip), and so does a non-zero
exit where a run must succeed.
"""
from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

import ssdsim as sim
from ssdtools.paths import CONFIGS, TRACES

SSDSIM = sim.SSDSIM_ASAN
SMALL = CONFIGS / "small-test.conf"

__all__ = ["SSDSIM", "SMALL", "TRACES", "ssdsim", "checked_stats"]


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
