"""ssdsim --power-cut-at N (docs/faults.md): the power is cut before
request N of the measured pass and comes back at once with the durable
state.  With volatile_write_cache=1 the pages in the write cache are lost
and counted (the cut says how many on stderr, the same number as
power_cut_lost_pages); with the default (power-loss protected) nothing is
lost, and the counters of the run are those of a run without the cut.
"""
from __future__ import annotations

import json
import re
from typing import Any

from asan_ssdsim import TRACES, ssdsim
from ssdtools.paths import CONFIGS

SMALL = CONFIGS / "small-test.conf"
TPCC = TRACES / "mqsim-tpcc-small.trace"


def run(*args: str) -> tuple[dict[str, Any], str]:
    proc = ssdsim("--json", "--check", "--config", str(SMALL), *args,
                  str(TPCC))
    return json.loads(proc.stdout), proc.stderr


def test_power_cut_loses_the_volatile_cache() -> None:
    st, err = run("volatile_write_cache=1", "write_cache_pages=64",
                  "--power-cut-at", "300")
    said = re.search(r"power cut before request 300: (\d+) acknowledged "
                     r"pages lost", err)
    assert said, err
    assert st["power_cuts"] == 1
    assert st["power_cut_lost_pages"] == int(said.group(1))
    assert 0 < st["power_cut_lost_pages"] <= 64
    assert st["write_cache_hit_pages"] > 0


def test_protected_power_cut_loses_nothing() -> None:
    plain, _ = run()
    cut, err = run("--power-cut-at", "300")
    assert "300: 0 acknowledged pages lost" in err
    assert cut["power_cuts"] == 1 and cut["power_cut_lost_pages"] == 0
    # No dedup buffer: the drain moved nothing, every other counter agrees.
    cut.pop("power_cuts")
    plain.pop("power_cuts")
    assert cut == plain


def test_power_cut_at_refuses_zero() -> None:
    proc = ssdsim("--power-cut-at", "0", str(TPCC), check=False)
    assert proc.returncode != 0
    assert "--power-cut-at 0 refused" in proc.stderr
