"""The analytic model the fidelity section measures the device against.

Owns the closed-form QD1 latencies, steady sequential-write bandwidth and
the queue depth that keeps every chip busy, computed here from a preset
independently of the C timing model (flash/timing.h semantics).  Keys a
preset leaves out take ssdsim's defaults (ssdsim --list-keys).
"""
from __future__ import annotations

import math

from ssdtools import conf
from ssdtools.paths import CONFIGS


def preset(name: str) -> dict[str, int]:
    """The numeric keys of configs/NAME, the others at their defaults."""
    return conf.numbers(conf.with_defaults(CONFIGS / name))


class AnalyticModel:
    """Closed-form latencies and bandwidth of a preset (timing.h semantics)."""

    def __init__(self, c: dict[str, int]) -> None:
        self.page = c["page_size_bytes"]
        self.chips = c["chips"]
        self.channels = c["channels"]
        self.controller_ns = c["controller_ns"]
        self.mb_per_s = c["channel_mb_per_s"]
        self.transfer_ns = math.ceil(self.page * 1000 / self.mb_per_s)
        # Sequentially written blocks hold LSB, CSB, MSB pages in turn, so
        # random reads and steady writes see the mean of the three types.
        self.read_ns = sum(c.get(f"read_{t}_ns") or c["read_ns"]
                           for t in ("lsb", "csb", "msb")) / 3
        self.program_ns = sum(c.get(f"program_{t}_ns") or c["program_ns"]
                              for t in ("lsb", "csb", "msb")) / 3

    @classmethod
    def of(cls, name: str) -> AnalyticModel:
        """The model of configs/NAME."""
        return cls(preset(name))

    def qd1_read_ns(self) -> float:
        return self.controller_ns + self.read_ns + self.transfer_ns

    def qd1_write_ns(self) -> float:
        return self.controller_ns + self.transfer_ns + self.program_ns

    def seq_write_mb_per_s(self, request_bytes: int) -> float:
        """Steady state: the slowest of chips, channels and controller."""
        chips = self.chips * self.page / self.program_ns * 1000
        per_channel = self.chips / self.channels * self.page
        channels = self.channels * min(
            self.mb_per_s, per_channel / self.program_ns * 1000)
        controller = request_bytes / self.controller_ns * 1000
        return min(chips, channels, controller)

    def queue_depth_for_all_chips(self, request_bytes: int) -> int:
        """Requests in flight that keep every chip programming (x4)."""
        return max(1, math.ceil(4 * self.chips * self.page / request_bytes))
