"""The ProCache paper's device as this project runs it.

Owns what the workload (workload/), the demo (ssdtools/demo.py) and the
bench's ProCache figures (bench/procache_figs.py) share of "Don't make
cache too complex" (PLOS ONE 2017): its preset, its page size, the
paper's ProCache parameters, the device scaled to the workload's sizes,
and the device settings compared, each with its keys and the file
system's mount options.

The device: the paper's (configs/procache-tlc.conf: 2 KiB pages, 32 chips,
its timings) shrunk, with the first blocks of each chip in SLC mode as the
write cache, about 3% of the logical space as in the paper (1 GB of 32 GB,
3.1%):
  small  160 blocks per chip, 16 SLC: 1.25 GiB of flash, 1.05 GiB logical,
         a 30 MiB cache (2.8%); a round writes ~0.6 GiB
  tiny   56 blocks per chip, 8 SLC: 448 MiB of flash, 357 MiB logical, an
         11.4 MiB cache (3.2%); a round writes ~0.14 GiB
The paper's comparison uses c = 8 KiB and p = 0.1.

Its baseline "used 33 GB of flash memory" against the cached devices' "1
GB" cache and "32 GB" main storage (procache-plos-one-2017.txt:526-527):
the main region's flash plus the cache's size, 3.1% more flash than the
main region.  `nocache-equal` is that baseline here: no cache, the cached
device's TLC blocks plus the cache's capacity in TLC blocks, rounded to
the nearest block per chip (EQUAL_FLASH_BLOCKS).  `nocache`, the baseline
of the earlier reports, gives the cache's SLC blocks to TLC at three bits
per cell: 16.7% more flash than the main region at both scales.
"""
from __future__ import annotations

from dataclasses import dataclass, field

PRESET = "procache-tlc.conf"
PAGE_BYTES = 2048  # the preset's page_size_bytes
P_PPM = 100_000  # the paper's p = 0.1
C_BYTES = 8192  # the paper's c = 8 KiB
DEVICE_KEYS: dict[str, list[str]] = {
    "tiny": ["blocks_per_chip=56", "slc_blocks_per_chip=8"],
    "small": ["blocks_per_chip=160", "slc_blocks_per_chip=16"],
}
# blocks_per_chip of the capacity-equivalent baseline: the cached device's
# TLC blocks per chip plus the cache's capacity (cache_capacity_pages x 2
# KiB) over a block per chip (32 chips x 128 pages x 2 KiB = 8 MiB),
# rounded: tiny 48 + 11.4 MiB / 8 MiB = 49.43 -> 49 (+2.1% flash over the
# main region; 50 would be +4.2%, the paper's +3.1% lies between); small
# 144 + 29.8 MiB / 8 MiB = 147.72 -> 148 (+2.8%).  A test recomputes them
# from ssdsim's cache_capacity_pages.
EQUAL_FLASH_BLOCKS = {"tiny": 49, "small": 148}


def procache_keys(p_ppm: int = P_PPM, c_bytes: int = C_BYTES) -> list[str]:
    """The keys of ProCache at p (ppm) and c (bytes): the paper's by
    default."""
    return ["cache_policy=procache", f"procache_p_ppm={p_ppm}",
            f"procache_c_bytes={c_bytes}"]


# The paper's ProCache parameters for its comparison (p = 0.1, c = 8 KiB).
PROCACHE = procache_keys()


@dataclass(frozen=True)
class Setting:
    """A device setting: its keys (beyond the scale's device keys, whose
    values they override) and the file system's mount options."""
    keys: list[str]
    mount: str = "nodiscard"
    about: str = ""
    # Keys that depend on the scale, before @keys.
    scale_keys: dict[str, list[str]] = field(default_factory=dict)


SETTINGS: dict[str, Setting] = {
    # The earlier reports' baseline: no cache, the cache's flash given to
    # TLC: the same blocks, none in SLC mode, so the same total flash and a
    # larger logical space (16.7% more flash than the main region, where
    # the paper's baseline had 3.1% more: nocache-equal).
    "nocache": Setting(["slc_blocks_per_chip=0", "cache_policy=none"],
                       about="no cache, the SLC blocks given to TLC"),
    # The paper's baseline at its capacity: the main region's flash plus
    # the cache's size (above; its blocks_per_chip is the scale's).
    "nocache-equal": Setting(
        ["slc_blocks_per_chip=0", "cache_policy=none"],
        about="no cache, TLC flash = the cached device's TLC + the cache",
        scale_keys={scale: [f"blocks_per_chip={blocks}"]
                    for scale, blocks in EQUAL_FLASH_BLOCKS.items()}),
    # BASE: the cache admits every write; destage is synchronous.
    "base": Setting(["cache_policy=always"],
                    about="the cache admits every write"),
    "refcnt": Setting(["cache_policy=refcnt"]),
    "procache": Setting(PROCACHE),
    "procache-dedup": Setting(PROCACHE + ["dedup=1"]),
    # The file system sends TRIMs for the blocks it frees.
    "procache-discard": Setting(PROCACHE, mount="discard"),
}


def merged_keys(base: list[str], extra: list[str]) -> list[str]:
    """@base with @extra's values winning (and appended)."""
    names = {k.split("=", 1)[0] for k in extra}
    return [k for k in base if k.split("=", 1)[0] not in names] + extra


def device_keys(scale: str, setting: str) -> list[str]:
    """The keys of @setting's device at @scale."""
    s = SETTINGS[setting]
    return merged_keys(DEVICE_KEYS[scale], [*s.scale_keys.get(scale, []),
                                            *s.keys])
