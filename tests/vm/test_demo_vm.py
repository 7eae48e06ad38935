"""`make demo` in a VM (ssdtools/demo.py, tests/vm/guest/demo.sh).

Runs the demo's VM script as the demo does and checks what its table
rests on, only what holds by construction of the two devices: BASE admits
every page write into the SLC cache, ProCache sends every request of c = 8
KiB or more and nine in ten of the smaller ones past it, so ProCache's SLC
programs stay below BASE's; dedup is on ProCache's device alone, and the
workload copies the same tree twice, so it finds duplicates there; each
region's figures add up to the device's.
"""
from __future__ import annotations

from typing import Any

from ssdtools import demo


def test_demo_table(vm: Any, kver: str, tmp_path: Any) -> None:
    kw = demo.vm_args()
    res = vm.run(kw.pop("script"), kver, **kw)
    stats = demo.parse(res.output)
    base, pro = stats["base"], stats["procache"]
    text = demo.table(stats)
    print(text)
    for st in (base, pro):
        assert st["host_write_bytes"] > 0
        # Regions add up to the device's programs and erases.
        assert (st["flash_program_slc_pages"] + st["flash_program_tlc_pages"]
                == st["flash_program_pages"])
        assert (st["flash_erase_slc_blocks"] + st["flash_erase_tlc_blocks"]
                == st["flash_erase_blocks"])
        assert abs(st["waf"] - st["flash_program_pages"]
                   * st["page_size_bytes"] / st["host_write_bytes"]) < 1e-6
    # BASE: no write passes the cache; every host page write is an SLC
    # program (dedup is off there, so none is avoided).
    assert demo.cache_page_writes(base) == (base["cache_write_hit_pages"]
                                            + base["cache_admit_pages"])
    assert base["flash_program_slc_pages"] >= base["flash_program_host_pages"]
    # ProCache bypasses (size and dice) and programs SLC less.
    assert pro["cache_bypass_size_pages"] > 0
    assert pro["cache_bypass_dice_pages"] > 0
    assert pro["flash_program_slc_pages"] < base["flash_program_slc_pages"]
    # Dedup: on ProCache's device alone; the second copy holds duplicates.
    assert base["dedup_store_capacity_entries"] == 0
    assert pro["dedup_duplicate_chunks"] > 0
    assert pro["dedup_programs_avoided"] >= pro["dedup_duplicate_chunks"]
    rows = {line.split(" | ")[0].strip("| "): line
            for line in text.splitlines()}
    assert "| off |" in rows["dedup: duplicates found (chunks)"]
    # The plot is written.
    png = tmp_path / "demo.png"
    demo.plot(stats, png)
    assert png.stat().st_size > 0
    vm.record_timing(kver, "demo", res.wall_s)
