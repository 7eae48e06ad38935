"""The ProCache paper's section 5 figures on the VM workload's requests.

Owns the measurements claims/procache.py puts against the
paper's section 5 ("Experimental results using real workload",
procache-plos-one-2017.txt:360-548), all from the replay of one recorded
VM run (workload/replay.py: the run's requests, in its order, through
ssdsim):

- the workload figure "24.6% of the total requests were issued by only
  1.5% of the small write volume" (:488-489), measured on the log
  (hot_share());
- Figs 8 and 9 (:469-499): ProCache's write hit ratio over the requests
  it may admit and over all, for c, p and the cache size, after six
  warm-ups (fig89_grid());
- Figs 10 and 11 (:528-548): modeled write time per step of Algorithm 2,
  flash programs and erases, of ProCache (p = 0.1, c = 8 KB), REFCNT and
  BASE against the no-cache baselines, the capacity-equivalent one first
  (figs_10_11()).

Usage: through claims/procache.py.
"""
from __future__ import annotations

import bisect
import math
import tempfile
from pathlib import Path
from typing import Any, Iterable

from ssdtools.procache_device import (DEVICE_KEYS, EQUAL_FLASH_BLOCKS,
                                      SETTINGS, device_keys, merged_keys)
from ssdtools.procache_hits import too_large
from workload import prepare, replay

# The 24.6% figure: the small write volume's hottest 1.5% (:488-489), on
# the file system's 1 KiB blocks (the paper's ext4 block size, :417).
HOT_VOLUME_SHARE = 0.015
PAPER_REQUEST_SHARE = 0.246
BLOCK_BYTES = 1024
# Figs 10/11's settings: (name, keys beyond the scale's device keys).
ROUNDS_SETTINGS = ("nocache-equal", "nocache-equal+1", "nocache", "base",
                   "refcnt", "procache", "procache-exclusive",
                   "refcnt-count-first", "procache-per-page")
# The other readings of issue 32 (docs/papers.md P4, P13): the setting
# beside the one it varies, and its key.
READING_KEYS = {"procache-exclusive": ("procache", "procache_c_inclusive=0"),
                "refcnt-count-first": ("refcnt", "refcnt_count_first=1"),
                "procache-per-page": ("procache", "procache_hit_per_page=1")}


def log_requests(lines: Iterable[str]) -> list[tuple[str, int, int]]:
    """(op, offset, length) of a request log's reads and writes."""
    out = []
    for line in lines:
        f = line.split()
        if len(f) >= 4 and f[1] in ("R", "W"):
            out.append((f[1], int(f[2]), int(f[3])))
    return out


def hot_share(reqs: list[tuple[str, int, int]], c_bytes: int,
              inclusive: bool, volume: str = "written",
              hot_volume: float = HOT_VOLUME_SHARE) -> dict[str, Any]:
    """The 24.6% figure: the small writes (those Algorithm 1 may admit:
    no larger than c, or smaller with @inclusive False), the 1 KiB blocks
    they write ranked by how many small writes touch them, the hottest
    blocks that add up to @hot_volume of the small write volume (@volume
    "written": the bytes the small writes carry, as the paper's Table 2
    counts "write volume"; "footprint": the distinct blocks they touch),
    and the share of the total requests (reads and writes) that are small
    writes touching them; beside it the shares of the writes and of the
    small writes, and the hottest share of the volume that issues
    PAPER_REQUEST_SHARE of the total requests (None if all the small
    writes together issue less)."""
    small = [(o, n) for op, o, n in reqs
             if op == "W" and not too_large(n, c_bytes, inclusive)]

    def blocks(o: int, n: int) -> range:
        return range(o // BLOCK_BYTES, (o + n - 1) // BLOCK_BYTES + 1)

    touches: dict[int, int] = {}
    for o, n in small:
        for b in blocks(o, n):
            touches[b] = touches.get(b, 0) + 1
    rank = {b: i for i, b in enumerate(sorted(
        touches, key=lambda b: (-touches[b], b)))}
    # A request is issued by the hottest k blocks once one of its blocks
    # is among them: k > the best rank of its blocks.
    first = sorted(min(rank[b] for b in blocks(o, n)) for o, n in small)
    total_volume = (sum(n for _, n in small) if volume == "written"
                    else len(touches) * BLOCK_BYTES)
    hot = max(1, round(hot_volume * total_volume / BLOCK_BYTES)) \
        if touches else 0
    issued = bisect.bisect_left(first, hot)
    writes = sum(1 for op, _, _ in reqs if op == "W")
    need = math.ceil(PAPER_REQUEST_SHARE * len(reqs))
    inverse = ((first[need - 1] + 1) * BLOCK_BYTES / total_volume
               if 0 < need <= len(first) else None)
    return {"volume": volume, "requests": len(reqs), "writes": writes,
            "small_writes": len(small), "volume_bytes": total_volume,
            "hot_blocks": hot, "hot_requests": issued,
            "share_of_total": issued / len(reqs) if reqs else 0.0,
            "share_of_writes": issued / writes if writes else 0.0,
            "share_of_small": issued / len(small) if small else 0.0,
            "volume_for_paper_share": inverse}


def rounds_keys(scale: str, name: str) -> list[str]:
    """The device keys of one Figs 10/11 replay."""
    if name == "nocache-equal+1":
        return merged_keys(device_keys(scale, "nocache-equal"), [
            f"blocks_per_chip={EQUAL_FLASH_BLOCKS[scale] + 1}"])
    if name in READING_KEYS:
        base, key = READING_KEYS[name]
        return merged_keys(rounds_keys(scale, base), [key])
    keys = device_keys(scale, name)
    if name == "procache":
        keys = merged_keys(keys, ["procache_c_inclusive=1"])
    return keys


def step_write_ns(completions: Path, steps: list[tuple[str, int, int]]
                  ) -> dict[str, int]:
    """The summed modeled latency of each step's writes (completion less
    arrival, ssdsim --completions), by step name over the rounds."""
    bounds = sorted((first, last, tag.split("-", 1)[1])
                    for tag, first, last in steps)
    out = {name: 0 for _, _, name in bounds}
    i = 0
    with open(completions) as f:
        for line in f:
            g = line.split()
            if len(g) < 5 or g[1] != "W":
                continue
            arrival, done = int(g[0]), int(g[4])
            while i < len(bounds) and arrival > bounds[i][1]:
                i += 1
            if i == len(bounds) or arrival < bounds[i][0]:
                raise SystemExit(f"{completions}: a write at {arrival} ns"
                                 " lies in no step")
            out[bounds[i][2]] += done - arrival
    return out


def figs_10_11(scale: prepare.Scale, source: str) -> dict[str, Any]:
    """Each setting of ROUNDS_SETTINGS replayed once over the rounds
    (after the cold data set): its totals and its modeled write time per
    step."""
    steps: list[tuple[str, int, int]] = []
    trace, pre, _ = replay.joined(scale, source, steps)
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(dir=trace.parent) as tmp:
        for name in ROUNDS_SETTINGS:
            done = Path(tmp) / f"{name}.log"
            st = replay.replay(trace, rounds_keys(scale.name, name), pre,
                               ("--completions", str(done)))
            conf = st["config"]
            out[name] = {
                "keys": rounds_keys(scale.name, name),
                "blocks_per_chip": conf["blocks_per_chip"],
                "slc_blocks_per_chip": conf["slc_blocks_per_chip"],
                "flash_mib": (conf["chips"] * conf["blocks_per_chip"]
                              * conf["pages_per_block"]
                              * conf["page_size_bytes"] / 2**20),
                "cache_pages": st["cache_capacity_pages"],
                "write_hit_ratio": st.get("cache_write_hit_ratio", 0.0),
                "tlc_programs": st["flash_program_tlc_pages"],
                "slc_programs": st["flash_program_slc_pages"],
                "tlc_erases": st["flash_erase_tlc_blocks"],
                "slc_erases": st["flash_erase_slc_blocks"],
                "gc_relocated": st["gc_relocated_pages"],
                "step_write_ns": step_write_ns(done, steps)}
            out[name]["write_ns"] = sum(out[name]["step_write_ns"].values())
    return out


def fig89_grid(scale: prepare.Scale, source: str, c_kib: Iterable[int],
               p_ppm: Iterable[int], times: Iterable[int], warmup: int,
               inclusive: bool, per_page: bool = False
               ) -> list[dict[str, Any]]:
    """ProCache (and BASE per cache size) at every (c, p, cache size)
    after @warmup passes: workload/replay.py's fig89_row()s (@per_page:
    ProCache's hits per page, procache_hit_per_page=1)."""
    trace, pre, _ = replay.joined(scale, source)
    with open(trace) as f:
        pieces = replay.log_write_pieces(f)
    replay.check_fig89_classes(scale, trace, pre, pieces, inclusive)
    rows = [replay.fig89_row(scale, trace, pre, pieces, "procache",
                             c * 1024, p, n, warmup, inclusive, per_page)
            for c in c_kib for p in p_ppm for n in times]
    rows += [replay.fig89_row(scale, trace, pre, pieces, "base", 0, 0, n,
                              warmup, inclusive) for n in times]
    return rows


def check_settings() -> None:
    """The settings the figures name exist (a rename fails here first)."""
    for name in ("nocache-equal", "nocache", "base", "refcnt", "procache"):
        if name not in SETTINGS:
            raise SystemExit(f"procache replays: no setting {name}")
    if set(EQUAL_FLASH_BLOCKS) != set(DEVICE_KEYS):
        raise SystemExit("procache replays: EQUAL_FLASH_BLOCKS and"
                         " DEVICE_KEYS name other scales")
