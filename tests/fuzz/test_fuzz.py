"""The libFuzzer harnesses in `make test`: a short run of each.

Builds them (`make fuzzers`, clang from scripts/install-deps.sh), replays
every kept regression input and the seed corpus, then fuzzes each harness
for a few seconds under ASan/UBSan.  A crash fails the test and is kept in
tests/fuzz/regressions/.  The long run is `make fuzz` (tests/fuzz/fuzzrun.py).
"""
from __future__ import annotations

import shutil
import subprocess

import pytest

import fuzzrun

SHORT_RUN_S = 4


@pytest.fixture(scope="module")
def fuzzers() -> None:
    if shutil.which("clang") is None:
        pytest.fail("clang is not installed: run scripts/install-deps.sh")
    proc = subprocess.run(["make", "-s", "fuzzers"], cwd=fuzzrun.ROOT,
                          capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("name", fuzzrun.HARNESSES)
def test_fuzz_short_run(fuzzers: None, name: str) -> None:
    result = fuzzrun.fuzz(name, SHORT_RUN_S)
    assert result.crash is None, f"{result.crash}; log: {result.log}"
    assert result.replayed >= 5, "the seed corpus went missing"
    # The harness ran and reached code: libFuzzer counted edges.
    assert result.executions > 0 and result.cov_edges > 50, result
    print(f"fuzz_{name}: {result.executions} runs in {SHORT_RUN_S} s, "
          f"{result.exec_per_s} exec/s, cov {result.cov_edges} edges, "
          f"ft {result.features}, corpus {result.corpus}")
