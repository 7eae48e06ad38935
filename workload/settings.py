"""The workload's choices of device settings.

Owns what workload/run.py (the VM runs), workload/replay.py (the ssdsim
sweep) and workload/report.py share beyond the device itself: the
settings a run compares by default, the two baselines the paper's claims
are put against, background destage (the replay's), and the run whose
traces the replay sweeps.  The device, its scales and its settings are
ssdtools/procache_device.py's (the demo runs them too).
"""
from __future__ import annotations

# Background destage when the chips are idle: from 90% of the cache down
# to 50% (nvmcache/README.md); off (0) unless a setting says so.
BACKGROUND_DESTAGE = ["cache_destage_high_percent=90",
                      "cache_destage_low_percent=50"]
DEFAULT_SETTINGS = ["nocache", "base", "refcnt", "procache",
                    "procache-dedup", "procache-discard"]
# The two baselines the paper's claims are read against.
BASELINES = ("nocache", "base")
# The run whose traces (and content) the replay sweeps.
REPLAY_SOURCE = "base"
