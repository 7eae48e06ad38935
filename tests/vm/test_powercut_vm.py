"""Power cuts of a device with a volatile write cache, on every target
kernel (guest/powercut.sh).

ext4 and xfs, each on a device with volatile_write_cache=1 and on one
with dedup=1 below the cache too: a loop of creates, writes, renames,
deletes and appends with some files fsync'ed, a writer in the background,
and the power cut (configfs power_cut) at an op that varies by round;
then umount, power=1 (the durable state comes back), mount (journal or
log replay), every fsync'ed file reads back its checksum, umount and
e2fsck -fn / xfs_repair -n are clean, the device's own check passes.
That holds for any moment of the cut, by construction (FLUSH and FUA are
honoured), so no timing is assumed.  The kernel logs no WARN, oops or BUG
(vm.run checks the log).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ssdtools.guest import stats_blocks

HERE = Path(__file__).resolve().parent
FILES = {"/lib.sh": str(HERE / "guest" / "lib.sh")}
ROUNDS = 5      # cuts per file system per device: 20 per kernel


def test_power_cuts_keep_file_systems_consistent(vm: Any, kver: str) -> None:
    script = (f"ROUNDS={ROUNDS}\n"
              + (HERE / "guest" / "powercut.sh").read_text())
    res = vm.run(script, kver, files=FILES, timeout_s=1800)
    assert "powercut ok" in res.output
    stats = stats_blocks(res.output)
    assert set(stats) == {"vwc-ext4", "vwc-xfs", "vwc-dedup-ext4",
                          "vwc-dedup-xfs", "raw-before", "raw-after"}
    # The raw device: 8 pages in the cache at the cut, exactly those lost;
    # the flushed and the FUA pages read back (the script compares).
    assert "RAW flushed=ok fua=ok unflushed=lost" in res.output
    before, after = stats.pop("raw-before"), stats.pop("raw-after")
    assert before["write_cache_dirty_pages"] == 8
    assert before["fua_writes"] >= 1
    assert after["power_cuts"] == 1
    assert after["power_cut_lost_pages"] == 8
    assert after["write_cache_dirty_pages"] == 0
    # The file systems: a cut in every round, fsck clean after each.
    cuts = re.findall(r"^CUT (\S+) (\S+) (\d+) files=(\d+) lost=(\d+) "
                      r"fsck=clean$", res.output, re.M)
    assert len(cuts) == 4 * ROUNDS
    assert f"CUTS {4 * ROUNDS}" in res.output
    for tag, st in stats.items():
        assert st["power_cuts"] == ROUNDS, tag
        # Each cut's kernel message and the counter agree.
        label, fs = tag.rsplit("-", 1)
        assert st["power_cut_lost_pages"] == sum(
            int(c[4]) for c in cuts if c[0] == label and c[1] == fs), tag
        # The file systems flush: FLUSH commands drained the cache.
        assert st["write_cache_flushes"] > 0, tag
        assert st["host_flush_count"] > 0, tag
    print("\n".join(" ".join(c) for c in cuts))
    print(f"\n{kver}: {len(cuts)} power cuts, fsck clean after each; "
          + ", ".join(f"{tag}: lost {st['power_cut_lost_pages']} pages, "
                      f"{st['fua_writes']} FUA writes"
                      for tag, st in sorted(stats.items())))
    vm.record_timing(kver, "power cut test", res.wall_s)
