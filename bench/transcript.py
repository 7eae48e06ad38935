"""The bench VM's transcript, read back.

Owns bench/results/raw-<kernel>.txt as bench/benchvm.py writes it (the
kernel, the VM's boot time, the variables bench.sh ran with and its
output) and what the VM sections read from it: the sections it ran, the
fio summaries and the device's statistics, by tag.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.fio import fio_summary
from ssdtools import guest


@dataclass(frozen=True)
class Transcript:
    kernel: str
    boot_s: float | None
    env: dict[str, Any]
    output: str

    @classmethod
    def load(cls, path: Path) -> Transcript:
        raw = json.loads(path.read_text())
        return cls(raw["kernel"], raw["boot_s"], raw["env"], raw["output"])

    def save(self, path: Path) -> None:
        path.write_text(json.dumps({"kernel": self.kernel,
                                    "boot_s": self.boot_s, "env": self.env,
                                    "output": self.output}))

    @property
    def sections(self) -> list[str]:
        # Transcripts from before --only ran the first three sections.
        return str(self.env.get("SECTIONS", "overhead fidelity gc")).split()

    @functools.cached_property
    def fio(self) -> dict[str, dict[str, float]]:
        """The summary of each fio run but the read-latency ones, by
        tag."""
        return {name: fio_summary(text) for name, text in
                guest.blocks(self.output, "FIO").items()
                if not name.startswith("readlat-")}

    @functools.cached_property
    def stats(self) -> dict[str, dict[str, Any]]:
        """The device's statistics, by tag."""
        return guest.stats_blocks(self.output)
