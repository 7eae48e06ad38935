"""ssdsim's latency store (tools/ssdsim/sim_latency.c), built under ASan and
UBSan as build/asan/bin/test_sim_latency (`make unit`): every percentile,
the mean and the maximum against the sort of every value it replaced."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEST_BIN = ROOT / "build" / "asan" / "bin" / "test_sim_latency"


def test_sim_latency_store_is_exact() -> None:
    """A value -> count map, else 4-5 B per value, gives every percentile,
    the mean and the maximum the old sort of every u64 gave: repeated
    values, distinct ones, >= 2^32 and >= 2^40 ns."""
    if not TEST_BIN.exists():
        pytest.fail(f"{TEST_BIN} missing: run 'make unit'")
    proc = subprocess.run([str(TEST_BIN)], capture_output=True, text=True,
                          timeout=600,
                          env={"ASAN_OPTIONS": "detect_leaks=1",
                               "UBSAN_OPTIONS": "print_stacktrace=1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "sim_latency: ok" in proc.stdout
    print(proc.stdout)
