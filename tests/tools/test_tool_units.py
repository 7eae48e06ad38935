"""The tools' unit tests, each a C program built under ASan and UBSan in
build/asan/bin (`make unit`) that prints "<name>: ok" when every check holds:

- test_sim_latency: ssdsim's latency store (tools/ssdsim/sim_latency.c):
  every percentile, the mean and the maximum against the sort of every value
  it replaced (repeated values, distinct ones, >= 2^32 and >= 2^40 ns).
- test_stats_fields: the tools' view of the table of counters
  (tools/report/stats_fields.c) and `ssdctl stats`'s groups: every u64 of
  struct ssdemu_stats a counter of the table, in its order, at its offset;
  every group titled, holding counters and shown."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ASAN_BIN = ROOT / "build" / "asan" / "bin"


@pytest.mark.parametrize("program, name", [
    ("test_sim_latency", "sim_latency"),
    ("test_stats_fields", "stats_fields"),
])
def test_tool_unit(program: str, name: str) -> None:
    test_bin = ASAN_BIN / program
    if not test_bin.exists():
        pytest.fail(f"{test_bin} missing: run 'make unit'")
    proc = subprocess.run([str(test_bin)], capture_output=True, text=True,
                          timeout=600,
                          env={"ASAN_OPTIONS": "detect_leaks=1",
                               "UBSAN_OPTIONS": "print_stacktrace=1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{name}: ok" in proc.stdout
    print(proc.stdout)
