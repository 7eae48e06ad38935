"""The tools' view of the table of counters (tools/report/stats_fields.c)
and `ssdctl stats`'s groups, built under ASan and UBSan as
build/asan/bin/test_stats_fields (`make unit`): every u64 of struct
ssdemu_stats a counter of the table, in its order, at its offset; every
group titled, holding counters and shown."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEST_BIN = ROOT / "build" / "asan" / "bin" / "test_stats_fields"


def test_stats_fields_are_the_abi_struct() -> None:
    if not TEST_BIN.exists():
        pytest.fail(f"{TEST_BIN} missing: run 'make unit'")
    proc = subprocess.run([str(TEST_BIN)], capture_output=True, text=True,
                          timeout=600,
                          env={"ASAN_OPTIONS": "detect_leaks=1",
                               "UBSAN_OPTIONS": "print_stacktrace=1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "stats_fields: ok" in proc.stdout
    print(proc.stdout)
