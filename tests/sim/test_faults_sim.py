"""ssdsim with read errors and error injection (issue 24, docs/faults.md).

A trace of passes over a small device (write 2 MiB, read it back) wears
the flash; with pe_cycle_limit low the erase counts cross the limit within
a few dozen passes.  Checked: the fault counters appear in --json and are
deterministic from fault_seed; the uncorrectable rate grows with wear;
faults off leave every counter as without the keys; --inject fails
exactly the reads and writes of the injected sectors, and bad --inject
commands are refused.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from asan_ssdsim import TINY, ssdsim, write_then_read

PAGES = 512
RBER = ["rber_base_ppb=100000", "rber_wear_ppb=4000000", "pe_cycle_limit=10",
        "read_retry_max=1"]


def _stats(*args: str) -> dict[str, Any]:
    return json.loads(ssdsim("--json", "--check", "--format", "ssdemu",
                             *TINY, *args).stdout)


def test_read_errors_grow_with_wear_and_are_deterministic(
        tmp_path: Path) -> None:
    rates = []
    for passes in (10, 20, 30, 40):
        trace = str(write_then_read(tmp_path / f"p{passes}.trace", PAGES,
                                    passes))
        st = _stats(*RBER, trace)
        assert st == _stats(*RBER, trace)
        reads = passes * PAGES
        assert st["read_corrected_codewords"] > 0
        assert st["host_read_error_pages"] == st[
            "read_uncorrectable_host_pages"]
        assert st["host_read_pages"] + st["host_read_error_pages"] == reads
        rate = st["read_uncorrectable_host_pages"] / reads
        rates.append(rate)
        print(f"passes {passes}: erase count mean "
              f"{st['erase_count_mean_milli'] / 1000:.1f} max "
              f"{st['erase_count_max']} (pe_cycle_limit 10): "
              f"{st['flash_read_retry_pages']} retries, "
              f"{st['read_uncorrectable_host_pages']} of {reads} host "
              f"reads uncorrectable ({100 * rate:.2f} %)")
    assert rates == sorted(rates) and rates[0] < rates[-1]
    other = _stats(*RBER, "fault_seed=2", str(tmp_path / "p10.trace"))
    first = _stats(*RBER, str(tmp_path / "p10.trace"))
    pick = ("read_corrected_codewords", "flash_read_retry_pages")
    assert [other[k] for k in pick] != [first[k] for k in pick]


def test_faults_off_change_nothing(tmp_path: Path) -> None:
    trace = str(write_then_read(tmp_path / "t.trace", PAGES, 3))
    plain = _stats(trace)
    keys = _stats("fault_seed=9", "ecc_soft_bits=3", "read_retry_max=9", trace)
    # The configuration differs in those keys; nothing else does.
    assert {k: v for k, v in keys.pop("config").items()
            if k not in ("fault_seed", "ecc_soft_bits", "read_retry_max")} == \
        {k: v for k, v in plain.pop("config").items()
         if k not in ("fault_seed", "ecc_soft_bits", "read_retry_max")}
    assert plain == keys
    for name in ("flash_read_retry_pages", "read_corrected_codewords",
                 "read_uncorrectable_pages", "host_read_error_pages",
                 "host_write_error_pages", "injected_error_ranges"):
        assert plain[name] == 0


def test_inject(tmp_path: Path) -> None:
    trace = str(write_then_read(tmp_path / "t.trace", PAGES, 3))
    # Sectors 8-15 are page 1, 100 is in page 12; page 40 fails writes.
    st = _stats("--inject", "+r 8-15", "--inject", "+r 100",
                "--inject", "+w 320-327", trace)
    assert st["injected_error_ranges"] == 3
    assert st["host_read_error_pages"] == 3 * 2
    assert st["host_write_error_pages"] == 3
    assert st["host_read_pages"] == 3 * (PAGES - 2)
    assert st["host_write_pages"] == 3 * (PAGES - 1)
    removed = _stats("--inject", "+rw 8-15", "--inject", "-rw 8-15", trace)
    assert removed == _stats(trace) | {"injected_error_ranges": 0}
    for bad in ("+r 5-2", "+q 1", "+r 999999999", "-r 1", "+r 1 2"):
        proc = ssdsim("--format", "ssdemu", *TINY, "--inject", bad, trace,
                      check=False)
        assert proc.returncode == 1, (bad, proc.stderr)
        assert "--inject" in proc.stderr and "refused" in proc.stderr
