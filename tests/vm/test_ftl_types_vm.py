"""Every FTL type (ftl_type) in the kernel module, on every target kernel.

test_every_ftl_type_keeps_data (guest/ftl_types.sh), one boot: for each
type ssdsim lists (the module compiles the same core), a small device is
filled sequentially, then takes random 4 KiB writes that fio verifies; the
FTL's full check holds; the device is saved, destroyed and made again from
the file, and fio verifies the same blocks again.  The statistics say what
each type is: the block-mapped ones merged (and random updates made full
merges), dftl read and wrote translation pages, page neither.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import ssdsim
from ssdtools.guest import stats_blocks

HERE = Path(__file__).resolve().parent
FILES = {"/lib.sh": str(HERE / "guest" / "lib.sh")}
BLOCK_MAPPED = {"block", "bast", "fast"}


def ftl_types() -> list[str]:
    return ssdsim.choices(ssdsim.list_keys()["ftl_type"])


def test_every_ftl_type_keeps_data(vm: Any, kver: str) -> None:
    types = ftl_types()
    assert {"page", "dftl"} | BLOCK_MAPPED <= set(types), types
    script = (f'TYPES="{" ".join(types)}"\n'
              + (HERE / "guest" / "ftl_types.sh").read_text())
    res = vm.run(script, kver, files=FILES, timeout_s=1500)
    assert "ftl_types ok" in res.output, res.summary()
    stats = stats_blocks(res.output)
    for t in types:
        rand, saved = stats[f"{t}-rand"], stats[f"{t}-saved"]
        merges = (rand["ftl_switch_merges"] + rand["ftl_partial_merges"]
                  + rand["ftl_full_merges"])
        if t in BLOCK_MAPPED:
            # Random updates of filled logical blocks: full merges.
            assert rand["ftl_full_merges"] > 0, t
            assert rand["flash_program_merge_pages"] > 0, t
            # A block map is smaller than a page map.
            assert (rand["ftl_map_ram_bytes"]
                    < stats["page-rand"]["ftl_map_ram_bytes"]), t
        else:
            assert merges == 0 and rand["flash_program_merge_pages"] == 0, t
        if t == "dftl":
            assert rand["dftl_translation_writes"] > 0, t
            assert rand["flash_program_map_pages"] > 0, t
        else:
            assert rand["flash_program_map_pages"] == 0, t
        # Every program is counted under one cause.
        assert rand["flash_program_pages"] == (
            rand["flash_program_host_pages"] + rand["flash_program_gc_pages"]
            + rand["flash_program_merge_pages"]
            + rand["flash_program_map_pages"]), t
        if t != "page":  # merges or translation pages cost programs
            assert rand["waf"] > 1.0, t
        # The loaded device holds what was saved, and reading it back
        # programs nothing (dftl: a read miss may write back a dirty
        # translation page, nothing else).
        assert saved["valid_pages"] == rand["valid_pages"], t
        assert (saved["flash_program_host_pages"]
                == rand["flash_program_host_pages"]), t
        if t != "dftl":
            assert (saved["flash_program_pages"]
                    == rand["flash_program_pages"]), t
        print(f"{kver} {t}: WAF {rand['waf']:.2f}, erases "
              f"{rand['flash_erase_blocks']}, merges {merges}, map RAM "
              f"{rand['ftl_map_ram_bytes']} B")
    vm.record_timing(kver, "FTL types test", res.wall_s)
