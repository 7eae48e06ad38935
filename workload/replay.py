"""Replay a recorded workload through ssdsim under every cache setting.

The VM run (workload/run.py) records each step's block trace (blkparse
text, D events: what the device was sent).  This joins one run's steps in
order into a single trace (each step's times shifted past the previous
step's end) and replays it through ssdsim under each write cache policy
and a sweep of cache sizes: the file system's behaviour comes from the VM,
the sweep costs seconds.  A blkparse trace carries no data, so ssdsim
writes patterned pages: dedup finds nothing in a replay; the VM runs carry
the dedup figures.

usage: workload/replay.py [--scale small] [--from base]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import prepare  # noqa: E402
import run  # noqa: E402

SSDSIM = ROOT / "build" / "bin" / "ssdsim"
POLICIES = ("base", "refcnt", "procache")
# SLC blocks per chip (cache of 11, 48 and 103 MiB); run.py's is 24.
SLC_BLOCKS_SWEEP = (8, 24, 48)
STEP_ORDER = ("kernel-copy", "kernel-compile", "kernel-clean", "image-copy",
              "web-download", "remove")


def join_traces(run_dir: Path, rounds: int, out: Path) -> None:
    """Concatenate the steps' traces, times shifted to follow each other."""
    offset_s = 0.0
    with open(out, "w") as dst:
        for rnd in range(1, rounds + 1):
            for step in STEP_ORDER:
                path = run_dir / f"r{rnd}-{step}.blkparse"
                last = 0.0
                for line in path.read_text().splitlines():
                    f = line.split()
                    if len(f) < 7 or "," not in f[0]:
                        continue
                    t = float(f[3])
                    last = max(last, t)
                    f[3] = f"{t + offset_s:.9f}"
                    dst.write(" ".join(f) + "\n")
                offset_s += last + 1.0


def replay(trace: Path, keys: list[str]) -> dict[str, Any]:
    out = subprocess.run([str(SSDSIM), "--config",
                          str(ROOT / "configs" / "procache-tlc.conf"),
                          *keys, "--format", "blkparse", "--json", str(trace)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def sweep(scale: prepare.Scale, source: str) -> list[dict[str, Any]]:
    run_dir = prepare.WORK / "out" / scale.name / source
    trace = run_dir.parent / f"joined-{source}.blkparse"
    join_traces(run_dir, scale.rounds, trace)
    rows = []
    for slc in SLC_BLOCKS_SWEEP:
        for policy in POLICIES:
            keys = [k for k in run.DEVICE_KEYS
                    if not k.startswith("slc_blocks_per_chip=")]
            keys += [f"slc_blocks_per_chip={slc}", *run.SETTINGS[policy]]
            st = replay(trace, keys)
            rows.append({"policy": policy, "slc_blocks_per_chip": slc,
                         "cache_capacity_pages": st["cache_capacity_pages"],
                         "write_hit_ratio": st.get("cache_write_hit_ratio", 0),
                         "tlc_programs": st["flash_program_tlc_pages"],
                         "slc_programs": st["flash_program_slc_pages"],
                         "tlc_erases": st["flash_erase_tlc_blocks"],
                         "slc_erases": st["flash_erase_slc_blocks"],
                         "write_latency_mean_us": st["write_latency_mean_us"]})
    return rows


def markdown(rows: list[dict[str, Any]], source: str) -> list[str]:
    lines = [f"## Replay of the `{source}` run's traces through ssdsim", "",
             "| SLC blocks/chip | cache pages | policy | write hit ratio | "
             "TLC programs | SLC programs | programs vs BASE | TLC erases | "
             "SLC erases | erases vs BASE | write latency us |",
             "|---" * 11 + "|"]
    base = {r["slc_blocks_per_chip"]: r for r in rows
            if r["policy"] == "base"}
    for r in rows:
        b = base[r["slc_blocks_per_chip"]]
        progs = r["tlc_programs"] + r["slc_programs"]
        erases = r["tlc_erases"] + r["slc_erases"]
        lines.append(
            f"| {r['slc_blocks_per_chip']} | {r['cache_capacity_pages']} | "
            f"{r['policy']} | {r['write_hit_ratio']:.3f} | "
            f"{r['tlc_programs']} | {r['slc_programs']} | "
            f"{pct(progs, b['tlc_programs'] + b['slc_programs'])} | "
            f"{r['tlc_erases']} | {r['slc_erases']} | "
            f"{pct(erases, b['tlc_erases'] + b['slc_erases'])} | "
            f"{r['write_latency_mean_us']:.0f} |")
    return lines + [""]


def pct(value: float, base: float) -> str:
    return f"{100.0 * (value - base) / base:+.1f}%" if base else "n/a"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", choices=sorted(prepare.SCALES),
                    default="small")
    ap.add_argument("--from", dest="source", default="base",
                    help="the VM run whose traces are replayed")
    args = ap.parse_args()
    rows = sweep(prepare.SCALES[args.scale], args.source)
    print("\n".join(markdown(rows, args.source)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
