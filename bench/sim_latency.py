"""Read latency under writes, in ssdsim's virtual time (deterministic).

Generates an MQSim-format trace ("arrival_ns 0 lba_sectors size_sectors
type", type 0 write, 1 read, 512-byte sectors) and replays it through
build/bin/ssdsim with --completions:

1. Fill: the first FILL_FRACTION of the device's logical space written
   sequentially in 128 KiB requests, one every FILL_GAP_NS (far faster
   than the flash takes them, so the command queue stays full).
2. Mixed phase, starting on the first whole millisecond at least 1 ms
   after the fill has drained (its last completion, found by replaying the
   fill alone first): for MIX_SECONDS of virtual time one 4 KiB random read
   every 1 ms and one 4 KiB random write every 5 ms, both over the filled
   range (seeded PRNG).  Reads arrive on every millisecond tick; each write
   arrives at a random point of its 5 ms slot, so its program overlaps the
   reads at every phase rather than at one fixed offset.

Reports the mixed phase's read latency (completion - arrival: mean, p50,
p99, max; percentiles by nearest rank), write latency (mean, p99), and the
channel busy fraction channel_busy_ns_total / (channels * virtual_time_ns)
of the whole run (fill included) and of the mixed phase alone (the fill
replay's counters subtracted).  Variants: configs/small-test.conf (4
channels), the same with chips=8 channels=8, and each with read_priority=1
when the ssdsim binary knows that key (--list-keys).

Standalone: python3 -m bench.sim_latency [--ssdsim PATH] [--json OUT]
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterable

from bench.section import Options
import ssdsim as sim
from ssdtools.paths import CONFIGS, ROOT

NAME = "sim"
PROGRESS = "ssdsim: read latency under writes ({ssdsim})"
SSDSIM = sim.SSDSIM
CONFIG = CONFIGS / "small-test.conf"

SECTOR = 512
FILL_FRACTION = 0.8
FILL_REQUEST_BYTES = 128 * 1024
FILL_GAP_NS = 10_000
IO_BYTES = 4096
MIX_SECONDS = 10
READ_PERIOD_NS = 1_000_000
WRITE_PERIOD_NS = 5_000_000
# The mixed phase starts on a whole millisecond at least this long after
# the fill's last completion.
DRAIN_MARGIN_NS = 1_000_000
SEED = 1

WRITE, READ = 0, 1
# Variants: name -> key=value overrides on top of CONFIG.
VARIANTS: dict[str, list[str]] = {
    "4ch": [],
    "8ch": ["chips=8", "channels=8"],
}
READ_PRIORITY = "read_priority"


def trace_line(arrival_ns: int, offset_bytes: int, length_bytes: int,
               kind: int) -> str:
    return (f"{arrival_ns} 0 {offset_bytes // SECTOR}"
            f" {length_bytes // SECTOR} {kind}\n")


def fill_lines(fill_bytes: int) -> list[str]:
    """Sequential 128 KiB writes over [0, fill_bytes), issued quickly."""
    return [trace_line(i * FILL_GAP_NS, off,
                       min(FILL_REQUEST_BYTES, fill_bytes - off), WRITE)
            for i, off in enumerate(range(0, fill_bytes,
                                          FILL_REQUEST_BYTES))]


def mixed_lines(start_ns: int, fill_bytes: int, seed: int,
                seconds: float) -> list[str]:
    """Random 4 KiB reads every 1 ms and writes every 5 ms from start_ns,
    in arrival order (a write before a read of the same nanosecond)."""
    rng = random.Random(seed)
    pages = fill_bytes // IO_BYTES
    end_ns = start_ns + round(seconds * 1e9)
    requests: list[tuple[int, int, int]] = []
    for t in range(start_ns, end_ns, READ_PERIOD_NS):
        requests.append((t, READ, rng.randrange(pages) * IO_BYTES))
    for slot in range(start_ns, end_ns, WRITE_PERIOD_NS):
        t = slot + rng.randrange(WRITE_PERIOD_NS)
        requests.append((t, WRITE, rng.randrange(pages) * IO_BYTES))
    requests.sort()
    return [trace_line(t, off, IO_BYTES, kind) for t, kind, off in requests]


def simulate(ssdsim: Path, overrides: list[str], lines: Iterable[str],
             tmp: Path) -> tuple[dict[str, Any], list[sim.Completion]]:
    """Replay the lines; the JSON stats and the completion records."""
    trace, completions = tmp / "trace.txt", tmp / "completions.txt"
    trace.write_text("".join(lines))
    stats = sim.run(trace, config=CONFIG, keys=overrides, format="mqsim",
                    completions=completions, binary=ssdsim)
    return stats, sim.read_completions(completions)


def nearest_rank(sorted_values: list[int], fraction: float) -> int:
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def run_variant(ssdsim: Path, overrides: list[str], seed: int,
                seconds: float, tmp: Path) -> dict[str, Any]:
    empty, _ = simulate(ssdsim, overrides, [], tmp)
    channels = int(empty["config"]["channels"])
    capacity = int(empty["logical_capacity_bytes"])
    fill_bytes = int(capacity * FILL_FRACTION) // IO_BYTES * IO_BYTES
    fill = fill_lines(fill_bytes)
    fill_stats, fill_done = simulate(ssdsim, overrides, fill, tmp)
    drain_ns = max(r.completion_ns for r in fill_done)
    start_ns = math.ceil((drain_ns + DRAIN_MARGIN_NS) / 1e6) * 1_000_000
    stats, records = simulate(
        ssdsim, overrides,
        fill + mixed_lines(start_ns, fill_bytes, seed, seconds), tmp)
    reads: list[int] = []
    writes: list[int] = []
    for r in records:
        if r.arrival_ns >= start_ns:
            (reads if r.op == "R" else writes).append(r.completion_ns
                                                      - r.arrival_ns)
    reads.sort()
    writes.sort()
    mix_ns = stats["virtual_time_ns"] - start_ns

    def delta(key: str) -> int:
        return int(stats[key]) - int(fill_stats[key])

    return {
        "overrides": overrides,
        "channels": channels,
        "capacity_bytes": capacity,
        "fill_bytes": fill_bytes,
        "fill_requests": len(fill),
        "fill_drained_ns": drain_ns,
        "mix_start_ns": start_ns,
        "mix_end_ns": stats["virtual_time_ns"],
        "reads": len(reads),
        "writes": len(writes),
        "read_mean_us": statistics.fmean(reads) / 1000,
        "read_p50_us": nearest_rank(reads, 0.50) / 1000,
        "read_p99_us": nearest_rank(reads, 0.99) / 1000,
        "read_max_us": reads[-1] / 1000,
        "write_mean_us": statistics.fmean(writes) / 1000,
        "write_p99_us": nearest_rank(writes, 0.99) / 1000,
        "channel_busy_fraction": stats["channel_busy_ns_total"]
        / (channels * stats["virtual_time_ns"]),
        "channel_busy_fraction_mix": delta("channel_busy_ns_total")
        / (channels * mix_ns),
        "mix_gc_relocated_pages": delta("gc_relocated_pages"),
        "mix_flash_erase_blocks": delta("flash_erase_blocks"),
        "waf": stats["waf"],
    }


def run(ssdsim: Path = SSDSIM, seed: int = SEED,
        seconds: float = MIX_SECONDS) -> dict[str, Any]:
    """Every variant; the section of the results JSON."""
    has_priority = READ_PRIORITY in sim.list_keys(ssdsim)
    variants = dict(VARIANTS)
    if has_priority:
        for name, overrides in VARIANTS.items():
            variants[f"{name}-{READ_PRIORITY}"] = [
                *overrides, f"{READ_PRIORITY}=1"]
    with tempfile.TemporaryDirectory(prefix="ssdemu-sim-") as tmp:
        runs = {name: run_variant(ssdsim, overrides, seed, seconds,
                                  Path(tmp))
                for name, overrides in variants.items()}
    shown = ssdsim.relative_to(ROOT) if ssdsim.is_relative_to(ROOT) \
        else ssdsim
    return {"ssdsim": str(shown), "config": CONFIG.name, "seed": seed,
            "fill_fraction": FILL_FRACTION,
            "fill_request_bytes": FILL_REQUEST_BYTES,
            "io_bytes": IO_BYTES, "mix_s": seconds,
            "read_period_ns": READ_PERIOD_NS,
            "write_period_ns": WRITE_PERIOD_NS,
            "read_priority_key": has_priority, "runs": runs}


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    return run(opts.ssdsim.resolve())


def show(results: dict[str, Any]) -> None:
    print_table(results[NAME])


def print_table(r: dict[str, Any]) -> None:
    print(f"\nssdsim: read latency under writes ({r['config']},"
          f" {r['fill_fraction']:.0%} filled; {r['mix_s']:g} s of 4 KiB"
          f" random reads every {r['read_period_ns'] / 1e6:g} ms and writes"
          f" every {r['write_period_ns'] / 1e6:g} ms; virtual time, us)")
    print(f"ssdsim binary: {r['ssdsim']}"
          + ("" if r["read_priority_key"] else
             f" (no {READ_PRIORITY} key)"))
    print(f"{'variant':18s} {'reads':>6s} {'rd mean':>8s} {'rd p50':>8s}"
          f" {'rd p99':>8s} {'rd max':>8s} {'wr mean':>8s} {'wr p99':>8s}"
          f" {'ch busy':>8s} {'mix busy':>8s} {'GC pages':>8s}")
    for name, v in r["runs"].items():
        print(f"{name:18s} {v['reads']:6d} {v['read_mean_us']:8.1f}"
              f" {v['read_p50_us']:8.1f} {v['read_p99_us']:8.1f}"
              f" {v['read_max_us']:8.1f} {v['write_mean_us']:8.1f}"
              f" {v['write_p99_us']:8.1f}"
              f" {v['channel_busy_fraction']:8.2%}"
              f" {v['channel_busy_fraction_mix']:8.2%}"
              f" {v['mix_gc_relocated_pages']:8d}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ssdsim", type=Path, default=SSDSIM,
                        help="ssdsim binary (default: build/bin/ssdsim)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--seconds", type=float, default=MIX_SECONDS,
                        help="virtual seconds of the mixed phase")
    parser.add_argument("--json", type=Path, metavar="OUT",
                        help="also write the results here")
    args = parser.parse_args()
    result = run(args.ssdsim.resolve(), args.seed, args.seconds)
    print_table(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
