"""The interface every section of `make bench` keeps.

A section is a module.  Every section has a NAME (what --only calls it and
its key in bench/results/bench-<kernel>.json) and show(results), which
prints its table from the merged results.  Then one of two kinds:

- In the bench VM (VmSection): the overhead, fidelity, gc and readlat
  sections share one boot of bench/guest/bench.sh (bench/benchvm.py).  A
  section says how many guest seconds it needs (guest_seconds), turns the
  VM's transcript into its entries of the results (analyze), and draws its
  figures once the results file is written (figures).
- On its own (OwnSection): the section runs by itself, in ssdsim or in a
  VM of its own (measure: its result, after writing its own files under
  bench/results/), announced by its PROGRESS line.

bench/sections.py lists them in the order they run and print.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ssdtools.paths import ROOT
from ssdsim import SSDSIM

if TYPE_CHECKING:
    from bench.transcript import Transcript

RESULTS = ROOT / "bench" / "results"


def write_json(path: Path, result: dict[str, Any]) -> None:
    """Write a section's result to path as JSON (indented by 2, a final
    newline), making its folder first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")


@dataclass(frozen=True)
class Options:
    """What bench/run.py's command line asks of the sections."""
    preset: str = "modern-tlc-4k.conf"
    latency_preset: str = "procache-tlc.conf"
    runtime_s: int = 3
    rounds: int = 7
    latency_rounds: int = 5
    gc_runtime_s: int = 40
    readlat_runtime_s: int = 20
    ssdsim: Path = SSDSIM
    kver: str = ""


class Section(Protocol):
    NAME: str

    def show(self, results: dict[str, Any]) -> None:
        """Print the section's table from the merged results."""


class VmSection(Section, Protocol):
    def guest_seconds(self, opts: Options) -> float:
        """Guest seconds the section's part of bench.sh takes."""

    def analyze(self, t: Transcript,
                results: dict[str, Any]) -> dict[str, Any]:
        """The section's entries of the results, from the VM's transcript
        (results: those of the sections analyzed before it)."""

    def figures(self, results: dict[str, Any]) -> list[Path]:
        """Draw the section's figures; the files written."""


class OwnSection(Section, Protocol):
    PROGRESS: str  # printed before it runs; {ssdsim} is the binary

    def measure(self, opts: Options) -> dict[str, Any]:
        """Run the section, write its own files; its result."""
