"""Background destage of the write cache on a real trace with idle gaps
(the FIU homes sample, 2 KiB pages of the ProCache preset, a 64-page
cache): with it on, the foreground destage count and the modeled write
time fall against the same run with it off; the counters add up; and the
same trace gives the same counters and completion times again (it
depends on the requests, the configuration and the model only)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from asan_ssdsim import TRACES, ssdsim
import ssdsim as sim
from ssdtools.paths import CONFIGS

KEYS = ["blocks_per_chip=160", "slc_blocks_per_chip=16",
        "cache_policy=always", "cache_pages=64"]
ON = ["cache_destage_high_percent=75", "cache_destage_low_percent=25"]
TRACE = TRACES / "fiu-homes-sample.blkparse"


def replay(keys: list[str], completions: Path) -> dict[str, Any]:
    proc = ssdsim(*sim.command_line(
        TRACE, config=CONFIGS / "procache-tlc.conf", keys=KEYS + keys,
        flags=["--check"], completions=completions))
    stats: dict[str, Any] = json.loads(proc.stdout)
    return stats


def test_background_destage_on_idle_gaps(tmp_path: Path) -> None:
    off = replay([], tmp_path / "off")
    on = replay(ON, tmp_path / "on")
    again = replay(ON, tmp_path / "again")
    for st in (off, on):
        assert (st["cache_destage_foreground_pages"]
                + st["cache_destage_background_pages"]
                == st["cache_evict_pages"]
                == st["flash_program_destage_pages"])
    assert off["cache_destage_background_pages"] == 0
    assert off["cache_destage_foreground_pages"] > 0
    assert on["cache_destage_background_pages"] > 0
    assert (on["cache_destage_foreground_pages"]
            < off["cache_destage_foreground_pages"])
    assert on["write_latency_ns_total"] < off["write_latency_ns_total"]
    assert again == on
    assert (tmp_path / "again").read_text() == (tmp_path / "on").read_text()
