"""The dedup layer (dedup=1) in the kernel module.

One boot runs tests/vm/guest/dedup.sh: the module's SHA-1 self-test (the
FIPS 180 vectors the unit tests check in userspace, here against the
kernel's crypto API: a "sha1" crypto_shash, whose driver dmesg names),
the same files copied twice to ext4, and fio
writing 50% duplicate blocks whose data is compared with the same fio job
written to a file.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ssdtools.guest import stats_blocks
from test_ssdemu import FILES, guest

HERE = Path(__file__).resolve().parent

# The four files of the set: 16 MiB of 4 KiB pages.
SET_PAGES = 4 * 4 * 256


def test_dedup_in_the_kernel(vm: Any, kver: str) -> None:
    res = vm.run(guest("dedup.sh"), kver, files=FILES, timeout_s=1800)
    out = res.output
    assert "dedup ok" in out
    assert "SHA-1 self-test passed" in out
    assert re.search(r"crypto API driver sha1-\S+\)", out), out[-2000:]
    st = stats_blocks(out)
    first, second, fio = st["first"], st["second"], st["fio"]

    # The first copy programs its data; the second only metadata.
    first_programs = first["flash_program_host_pages"]
    second_programs = second["flash_program_host_pages"] - first_programs
    second_written = second["host_write_pages"] - first["host_write_pages"]
    second_dups = (second["dedup_duplicate_chunks"]
                   - first["dedup_duplicate_chunks"])
    assert first_programs >= SET_PAGES
    assert second_written >= SET_PAGES
    assert second_dups >= 0.98 * SET_PAGES
    assert second_programs < 0.05 * SET_PAGES, second_programs

    # fio's 50% duplicate blocks: measured near 50%.
    ratio = fio["dedup_duplicate_chunks"] / fio["dedup_chunks_written"]
    assert 0.40 < ratio < 0.60, ratio
    assert fio["dedup_buffered_pages"] == 0, "end_fsync drained the buffer"
    assert fio["flash_program_host_pages"] + fio["dedup_programs_avoided"] \
        == fio["host_write_pages"]
    print(f"{kver}: second copy of {SET_PAGES} pages: {second_written} "
          f"pages written, {second_dups} duplicates, {second_programs} "
          f"programs; fio dedupe_percentage=50: measured "
          f"{100 * ratio:.1f}% duplicates, dedup ratio "
          f"{fio['dedup_ratio']:.3f}")
    vm.record_timing(kver, "dedup test", res.wall_s)
