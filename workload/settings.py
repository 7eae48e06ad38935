"""The device the workload runs on, and its settings.

Owns what workload/run.py (the VM runs) and workload/replay.py (the
ssdsim sweep) share: the preset and the keys that size the device, the
four device settings (write cache policy, dedup) and the run whose traces
the replay sweeps.

The device: the paper's (configs/procache-tlc.conf: 2 KiB pages, 32 chips,
its timings) shrunk to 1.25 GiB of flash, 1.05 GiB logical, with 16 of
each chip's 160 blocks in SLC mode: a 30 MiB write cache, 2.8% of the
logical space (the paper: 1 GB of 32 GB, 3.1%).  A round writes about 0.6
GiB, so the second round fills the flash and TLC GC runs (the paper: 31.6
GB per round on 32 GB).
"""
from __future__ import annotations

PRESET = "procache-tlc.conf"
DEVICE_KEYS = ["blocks_per_chip=160", "slc_blocks_per_chip=16"]
SETTINGS: dict[str, list[str]] = {
    "base": ["cache_policy=always"],
    "refcnt": ["cache_policy=refcnt"],
    "procache": ["cache_policy=procache", "procache_p_ppm=100000",
                 "procache_c_bytes=16384"],
    "procache-dedup": ["cache_policy=procache", "procache_p_ppm=100000",
                       "procache_c_bytes=16384", "dedup=1"],
}
# The run whose traces (and content) the replay sweeps.
REPLAY_SOURCE = "base"
