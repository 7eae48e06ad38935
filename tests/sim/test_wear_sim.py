"""ssdsim with bad blocks and wear-out (docs/faults.md): a tiny device with
a low pe_cycle_limit reaches its end of life on a real trace, says so
(summary line, JSON counters), keeps replaying with writes refused and
counted, and passes its consistency check; factory bad blocks from
--bad-blocks; the keys at 0 change nothing."""
from __future__ import annotations

import json

from asan_ssdsim import SMALL, TRACES, ssdsim

TINY = ["pages_per_block=16", "blocks_per_chip=16", "chips=4", "channels=2",
        "op_percent=40"]
TRACE = str(TRACES / "mqsim-tpcc-small.trace")
WEAR = ["pe_cycle_limit=3", "grown_bad_ppm=100000"]


def run_json(*args: str) -> dict[str, float]:
    proc = ssdsim("--json", "--check", "--config", str(SMALL), *TINY, *args)
    stats: dict[str, float] = json.loads(proc.stdout)
    stats.pop("config")     # the keys given differ; the counters must not
    return stats


def test_wears_out_to_read_only_and_says_so() -> None:
    first = run_json(*WEAR, TRACE)
    assert first == run_json(*WEAR, TRACE)      # deterministic
    assert first["read_only"] == 1
    assert first["spare_blocks"] == 0 and first["spare_blocks_initial"] > 0
    assert first["bad_blocks_grown"] > first["spare_blocks_initial"] - 1
    assert first["bad_blocks_grown"] == (first["flash_program_failures"]
                                         + first["flash_erase_failures"])
    assert first["bad_blocks_factory"] == 0
    assert first["host_write_refused_pages"] > 0
    # Reads go on after the end of life: the replay ran to the end.
    assert first["host_read_pages"] > 0
    proc = ssdsim("--config", str(SMALL), *TINY, *WEAR, TRACE)
    assert "READ-ONLY (end of life)" in proc.stdout
    assert "host pages written or trimmed after the end of life" in proc.stdout
    assert "turned read-only" in proc.stderr


def test_faults_off_changes_no_counter() -> None:
    plain = run_json(TRACE)
    zero = run_json("fault_seed=9", "bad_block_ppm=0", "grown_bad_ppm=0",
                    TRACE)
    never = run_json("grown_bad_ppm=500000", TRACE)  # limit 3000
    assert plain == zero == never
    assert plain["read_only"] == 0 and plain["spare_blocks"] > 0


def test_bad_blocks_list_and_rate() -> None:
    listed = run_json("--bad-blocks", "20-23 40", TRACE)
    assert listed["bad_blocks_factory"] == 5
    assert listed["bad_blocks_grown"] == 0
    assert listed["spare_blocks"] == listed["spare_blocks_initial"]
    rate = run_json("bad_block_ppm=50000", "fault_seed=4", TRACE)
    assert rate["bad_blocks_factory"] > 0
    assert rate == run_json("bad_block_ppm=50000", "fault_seed=4", TRACE)
    for bad in ("5-2", "x", "64", "1-"):
        proc = ssdsim("--config", str(SMALL), *TINY, "--bad-blocks", bad,
                      TRACE, check=False)
        assert proc.returncode == 1, proc.stderr
        assert "bad_blocks refused" in proc.stderr
        assert "Sanitizer" not in proc.stderr
    proc = ssdsim("--config", str(SMALL), *TINY, "ftl_type=bast",
                  "grown_bad_ppm=10", TRACE, check=False)
    assert proc.returncode == 1
    assert "grown_bad_ppm=10 refused with ftl_type=bast" in proc.stderr
