"""Bad blocks and wear-out to the end of life in the kernel (docs/faults.md).

One boot per kernel runs tests/vm/guest/wear.sh: the configfs bad_blocks
list (refusals, then three factory bad blocks), a tiny device with
pe_cycle_limit=3 and grown_bad_ppm written pass after pass until a write
fails; then the one "end of life: read-only" kernel message, the disk
read-only, writes and discards refused, the ioctl CHECK, and every page
read back as acknowledged.  Checked here: the counters of `ssdctl stats
--json` and `nvme smart-log` (available spare 0 below its 10% threshold,
critical warning bits 0 and 3).
"""
from __future__ import annotations

import json
import re
from typing import Any

from ssdtools.guest import blocks, stats_blocks
from test_ssdemu import FILES, guest


def test_wear_out_to_read_only(vm: Any, kver: str) -> None:
    res = vm.run(guest("wear.sh"), kver, files=FILES, timeout_s=900)
    out = res.output
    assert "wear ok" in out
    st = stats_blocks(out)
    fresh, worn, after = st["fresh"], st["worn"], st["after"]
    assert fresh["bad_blocks_factory"] == 3
    assert fresh["spare_blocks"] == fresh["spare_blocks_initial"] > 0
    assert fresh["read_only"] == 0 and fresh["bad_blocks_grown"] == 0
    assert worn["read_only"] == 1 and worn["spare_blocks"] == 0
    assert worn["bad_blocks_factory"] == 3
    assert worn["bad_blocks_grown"] > fresh["spare_blocks_initial"] - 1
    assert worn["bad_blocks_grown"] == (worn["flash_program_failures"]
                                        + worn["flash_erase_failures"])
    # The failed write's page and the refused ones after it.
    assert worn["host_write_refused_pages"] >= 1
    m = re.search(r"WEAR read_only_pass=(\d+) pages_in_pass=(\d+) "
                  r"written_pages=(\d+)", out)
    assert m, out
    written = int(m.group(3))
    assert worn["host_write_pages"] == written
    # Reading it all back moved no counter but the reads'.
    for key in ("bad_blocks_grown", "flash_program_pages",
                "flash_erase_blocks", "host_write_refused_pages"):
        assert after[key] == worn[key], key
    smart = json.loads(blocks(out, "NVME-OUT")["smart-log"])
    assert smart["avail_spare"] == 0 and smart["spare_thresh"] == 10
    assert smart["critical_warning"] & 0x1 and smart["critical_warning"] & 0x8
    print(f"{kver}: read-only in pass {m.group(1)} after {written} host "
          f"page writes, {worn['flash_erase_blocks']} erases (max "
          f"{worn['erase_count_max']}), {worn['bad_blocks_grown']} grown "
          f"bad ({worn['flash_program_failures']} program, "
          f"{worn['flash_erase_failures']} erase failures), "
          f"{worn['retire_relocated_pages']} pages moved out of retired "
          f"blocks, {fresh['spare_blocks_initial']} spares at first; "
          f"critical warning 0x{smart['critical_warning']:x}")
    vm.record_timing(kver, "wear test", res.wall_s)
