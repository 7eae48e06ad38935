"""Snapshots in ssdsim: save and load throughput against `cp`, and the
snapshot's size against the valid data it holds.

For each state in STATES, configs/small-test.conf (518 MiB logical) is
aged with `ssdsim --age` (sequential fill, random 4 KiB overwrites,
seeded) and saved; then, ROUNDS times, in the same run and on the same
disk (a work directory under build/):

- load: `ssdsim --from a.snap` (the file read, the device created and
  filled, its consistency checked by the loader);
- save: `ssdsim --from a.snap --save b.snap` (the save alone, as ssdsim
  times it on stderr);
- cp: `cp a.snap c.snap`, a file of the same size, timed around the
  process.

No fsync anywhere (neither ssdsim nor cp asks for one), so all three move
bytes through the page cache: the ratios compare like with like, the
absolute figures are the machine's.  Reports medians over the rounds, the
throughputs as ratios to cp's, and the snapshot's bytes per byte of valid
data (pages in `valid_pages`).

Writes bench/results/snapshot.json and its table in snapshot.md, which
also holds the kernel's (bench/snapshot_vm.py: the same states in the VM,
against dd).

Standalone: python3 -m bench.snapshot [--ssdsim PATH] [--rounds N]
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench import md_parts
from bench.section import RESULTS, Options, write_json
import ssdsim as sim
from ssdtools.paths import CONFIGS, ROOT

NAME = "snapshot"
PROGRESS = "ssdsim: snapshot save and load against cp ({ssdsim})"
SSDSIM = sim.SSDSIM
CONFIG = CONFIGS / "small-test.conf"
WORK = ROOT / "build" / "bench-snapshot"
STATES = ["fill=0.5,overwrite=1", "fill=0.9,overwrite=2"]
SEED = 1
ROUNDS = 3
TIMED = re.compile(r"ssdsim: (loaded|saved) \S+: (\d+) bytes in ([0-9.]+) s")


def timed(stderr: str, what: str) -> tuple[int, float]:
    """(bytes, seconds) of ssdsim's "loaded"/"saved" line."""
    for m in TIMED.finditer(stderr):
        if m.group(1) == what:
            return int(m.group(2)), float(m.group(3))
    raise SystemExit(f"bench.snapshot: no '{what}' line in:\n{stderr}")


def call(ssdsim: Path, *args: str) -> subprocess.CompletedProcess[str]:
    proc = sim.call(args, ssdsim)
    if proc.returncode:
        raise SystemExit(f"bench.snapshot: ssdsim {' '.join(args)}: exit "
                         f"{proc.returncode}\n{proc.stderr}")
    return proc


def measure_state(ssdsim: Path, spec: str, rounds: int) -> dict[str, Any]:
    a, b, c = WORK / "a.snap", WORK / "b.snap", WORK / "c.snap"
    aged = call(ssdsim, "--json", "--config", str(CONFIG), "--age", spec,
                "--seed", str(SEED), "--data", "--save", str(a))
    st = json.loads(aged.stdout)
    size, _ = timed(aged.stderr, "saved")
    valid_bytes = st["valid_pages"] * st["page_size_bytes"]
    loads, saves, copies = [], [], []
    for _ in range(rounds):
        loads.append(timed(call(ssdsim, "--from", str(a)).stderr,
                           "loaded")[1])
        saves.append(timed(call(ssdsim, "--from", str(a), "--save",
                                str(b)).stderr, "saved")[1])
        start = time.monotonic()
        subprocess.run(["cp", str(a), str(c)], check=True)
        copies.append(time.monotonic() - start)
        b.unlink()
        c.unlink()
    a.unlink()
    load_s, save_s, cp_s = (statistics.median(x)
                            for x in (loads, saves, copies))
    return {"spec": spec, "seed": SEED, "snapshot_bytes": size,
            "valid_data_bytes": valid_bytes,
            "logical_bytes": st["logical_capacity_bytes"],
            "size_per_valid_byte": size / valid_bytes,
            "load_s": loads, "save_s": saves, "cp_s": copies,
            "load_mb_per_s": size / load_s / 1e6,
            "save_mb_per_s": size / save_s / 1e6,
            "cp_mb_per_s": size / cp_s / 1e6,
            "load_vs_cp": cp_s / load_s, "save_vs_cp": cp_s / save_s}


def run(ssdsim: Path = SSDSIM, rounds: int = ROUNDS) -> dict[str, Any]:
    WORK.mkdir(parents=True, exist_ok=True)
    try:
        states = [measure_state(ssdsim, spec, rounds) for spec in STATES]
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    return {"config": CONFIG.name, "rounds": rounds, "states": states}


def table_lines(result: dict[str, Any]) -> list[str]:
    lines = [f"Device: {result['config']}, aged with `ssdsim --age SPEC "
             f"--seed {SEED}`; medians of {result['rounds']} rounds, one"
             " run, one disk; throughput = snapshot bytes / seconds"
             " (ratios > 1: faster than cp).", "",
             "| age spec | valid data MB | snapshot MB | size / valid"
             " | load MB/s | save MB/s | cp MB/s | load / cp | save / cp |",
             "|---|---|---|---|---|---|---|---|---|"]
    for s in result["states"]:
        lines.append(
            f"| {s['spec']} | {s['valid_data_bytes'] / 1e6:.1f}"
            f" | {s['snapshot_bytes'] / 1e6:.1f}"
            f" | {s['size_per_valid_byte']:.4f}"
            f" | {s['load_mb_per_s']:.0f} | {s['save_mb_per_s']:.0f}"
            f" | {s['cp_mb_per_s']:.0f} | {s['load_vs_cp']:.2f}"
            f" | {s['save_vs_cp']:.2f} |")
    return lines


SIM_HEADING = "ssdsim: save and load against cp"
TITLE = ("# Snapshots: save and load throughput, size against valid data"
         " (bench/snapshot.py, bench/snapshot_vm.py)")


def write_part(heading: str, lines: list[str], out_dir: Path = RESULTS
               ) -> None:
    """Put lines under "## heading" in snapshot.md, keeping the other
    parts (the ssdsim table first, then the kernels' tables)."""
    md_parts.write_part(out_dir / "snapshot.md", TITLE, (SIM_HEADING,),
                        heading, lines)


def write_results(result: dict[str, Any], out_dir: Path = RESULTS) -> None:
    write_json(out_dir / "snapshot.json", result)
    write_part(SIM_HEADING, table_lines(result), out_dir)


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    result = run(opts.ssdsim.resolve())
    write_results(result)
    return result


def show(results: dict[str, Any]) -> None:
    print("\n".join(["", "Snapshots in ssdsim (save, load, cp)"]
                    + table_lines(results[NAME])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ssdsim", type=Path, default=SSDSIM)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    result = run(args.ssdsim.resolve(), args.rounds)
    print("\n".join(table_lines(result)))
    write_results(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
