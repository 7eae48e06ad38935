"""The SLC write cache in the kernel module: the same fio verify job
(tests/vm/guest/cache.sh) under cache_policy=always, refcnt, procache,
plc (over dedup, with read allocation) and RCE (cache_rce=1 over dedup).
Data verifies under each, and the counters differ the way the policies
say: only a policy that bypasses bypasses, and only for its own reasons."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import ssdsim
from ssdtools.guest import stats_blocks
from ssdtools.paths import CONFIGS

HERE = Path(__file__).resolve().parent
FILES = {"/lib.sh": str(HERE / "guest" / "lib.sh")}
BYPASS = ("cache_bypass_size_pages", "cache_bypass_dice_pages",
          "cache_bypass_policy_pages", "cache_bypass_delay_pages",
          "cache_bypass_inout_pages")


def decisions(st: dict[str, Any]) -> int:
    return (st["cache_write_hit_pages"] + st["cache_admit_pages"]
            + sum(st[k] for k in BYPASS))


def writes_reaching_cache(st: dict[str, Any]) -> int:
    """Page writes the cache sees: dedup above keeps duplicates and
    buffered writes from it."""
    return (st["host_write_pages"] - st["dedup_programs_avoided"]
            - st["dedup_buffered_pages"])


def test_cache_policies_in_kernel(vm: Any, kver: str,
                                  tmp_path: Path) -> None:
    res = vm.run((HERE / "guest" / "cache.sh").read_text(), kver,
                 files=FILES, timeout_s=2400)
    assert "cache ok" in res.output
    stats = stats_blocks(res.output)
    assert set(stats) == {"always", "refcnt", "procache", "plc", "rce"}
    for policy, st in stats.items():
        assert st["cache_capacity_pages"] > 0, policy
        assert decisions(st) == writes_reaching_cache(st), policy
        assert st["cache_pages"] == st["slc_valid_pages"], policy
        assert st["flash_program_destage_pages"] == st["cache_evict_pages"]
        assert (st["flash_program_tlc_pages"] + st["flash_program_slc_pages"]
                == st["flash_program_pages"]), policy
        assert st["cache_write_hit_pages"] > 0, policy
    always, refcnt, pro = stats["always"], stats["refcnt"], stats["procache"]
    plc, rce = stats["plc"], stats["rce"]
    # BASE never bypasses; every write goes through the SLC region.
    assert all(always[k] == 0 for k in BYPASS)
    # Over dedup, the copies were found; the dedup-aware policies keep
    # two bytes of references per logical page.
    for st in (plc, rce):
        assert st["dedup_duplicate_chunks"] >= 3 * 64 - 2
        assert (st["cache_refcount_metadata_bytes"] == 2 *
                st["logical_capacity_bytes"] // st["page_size_bytes"])
    # PLC filters by popularity and fills read misses (fio's verify reads).
    assert plc["cache_bypass_policy_pages"] > 0
    assert plc["cache_fill_pages"] > 0
    assert plc["cache_fill_pages"] == plc["flash_program_fill_pages"]
    assert (plc["cache_written_fill_bytes"]
            == plc["cache_fill_pages"] * plc["page_size_bytes"])
    # RCE over BASE never bypasses either.
    assert all(rce[k] == 0 for k in BYPASS) and rce["cache_evict_pages"] > 0
    assert always["cache_evict_pages"] > 0
    # REFCNT bypasses for its counters only, and keeps a byte per page.
    assert refcnt["cache_bypass_policy_pages"] > 0
    assert refcnt["cache_bypass_size_pages"] == 0
    assert refcnt["cache_bypass_dice_pages"] == 0
    assert (refcnt["cache_policy_metadata_bytes"]
            == refcnt["logical_capacity_bytes"] // refcnt["page_size_bytes"])
    # ProCache: the 1 MiB stream (>= c = 64 KiB) by size, the rest by dice.
    assert pro["cache_bypass_size_pages"] >= 32 * 256
    assert pro["cache_bypass_dice_pages"] > 0
    assert pro["cache_bypass_policy_pages"] == 0
    assert pro["cache_policy_metadata_bytes"] == 0
    # The filters keep cold data out: fewer SLC programs than BASE.
    for st in (refcnt, pro):
        slc = st["flash_program_slc_pages"]
        assert slc < always["flash_program_slc_pages"]
    # The kernel's procache device, replayed through ssdsim with the same
    # keys and seed: the same dice, so the same counters.
    log = re.search(r"LOG-BEGIN\n(.*?)LOG-END", res.output, re.S).group(1)
    assert log.count("\n") == pro["commands"]
    config = re.search(r"CMP-CONFIG (.*)", res.output).group(1).split()
    (tmp_path / "kernel.log").write_text(log)
    proc = ssdsim.call(ssdsim.command_line(
        tmp_path / "kernel.log", config=CONFIGS / "small-test.conf",
        keys=config, format="ssdemu", flags=["--no-final-flush", "--data"]),
        timeout=300)
    assert proc.returncode == 0, proc.stderr
    sim = json.loads(proc.stdout)
    kernel_only = {"timed_completions", "late_completions", "late_ns_total",
                   "late_ns_max"}
    differ = {k: (pro[k], sim[k]) for k in pro
              if k not in kernel_only and pro[k] != sim[k]}
    assert not differ, f"kernel vs ssdsim: {differ}"
    for policy, st in stats.items():
        print(f"{kver} {policy}: hits {st['cache_write_hit_pages']}, "
              f"admitted {st['cache_admit_pages']}, bypassed "
              f"{[st[k] for k in BYPASS]}, evicted {st['cache_evict_pages']}, "
              f"TLC programs {st['flash_program_tlc_pages']}, SLC programs "
              f"{st['flash_program_slc_pages']}, erases "
              f"{st['flash_erase_blocks']}")
    vm.record_timing(kver, "cache policies test", res.wall_s)
