"""The ProCache paper's Fig 4 (p x cache size) through the sweep command.

Runs `python3 -m ssdtools.sweep bench/grids/procache-fig4.toml` (the grid
says what: bench/procache_figs.py's device, c = 64 KiB, warm-up 6, --remap
dense --remap-unit page, Belady's bound beside) on the repository's real
traces (FIU homes sample, MQSim TPC-C sample): 6 values of p x 8 cache
sizes per trace, in a local process pool, and reports its wall time.  Writes
bench/results/procache-fig4-sweep.csv (the sweep's table), a PNG per
plotted column (procache-fig4-sweep-<column>.png) and
procache-fig4-sweep.md (the hit ratio and TLC program tables, the
command and its wall time).

Standalone: python3 -m bench.fig4_sweep
"""
from __future__ import annotations

import csv
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.section import RESULTS, Options
from ssdtools import paths

NAME = "sweep"
PROGRESS = ("sweep: the ProCache paper's Fig 4 (p x cache size) on real"
            " traces, python3 -m ssdtools.sweep (libssdsim.so)")
GRID = paths.ROOT / "bench" / "grids" / "procache-fig4.toml"
OUT_NAME = "procache-fig4-sweep"


def command(out_dir: Path) -> list[str]:
    """The sweep, run from the root (paths relative to it where they can
    be)."""
    out = out_dir.relative_to(paths.ROOT) if out_dir.is_relative_to(
        paths.ROOT) else out_dir
    return [sys.executable, "-m", "ssdtools.sweep",
            str(GRID.relative_to(paths.ROOT)), "--out", str(out),
            "--name", OUT_NAME]


def run(out_dir: Path = RESULTS) -> dict[str, Any]:
    """The sweep's table, in the shape of the report."""
    out_dir.mkdir(parents=True, exist_ok=True)
    cmd = command(out_dir)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=paths.ROOT, capture_output=True,
                          text=True)
    wall = time.monotonic() - start
    if proc.returncode:
        raise SystemExit(f"fig4 sweep: {' '.join(cmd)} failed:\n"
                         f"{proc.stderr}")
    with (out_dir / f"{OUT_NAME}.csv").open(newline="") as f:
        table = list(csv.DictReader(f))
    wrapped = [r for r in table if r["wrapped_requests"] != "0"]
    if wrapped:
        raise SystemExit(f"fig4 sweep: {wrapped[0]['trace']} wrapped")
    traces: dict[str, Any] = {}
    for r in table:
        t = traces.setdefault(Path(r["trace"]).name, {})
        t.setdefault(r["cache_pages"], {})[r["procache_p_ppm"]] = {
            "hit": float(r["cache_write_hit_ratio"]),
            "offline": float(r["belady.write_hit_ratio"]),
            "erases": int(r["flash_erase_blocks"]),
            "tlc_programs": int(r["flash_program_tlc_pages"]),
            "waf": float(r["waf"])}
    return {"command": " ".join(["python3", *cmd[1:]]),
            "wall_s": round(wall, 1), "runs": len(table),
            "cpus": len(os.sched_getaffinity(0)),
            "traces": traces}


def table_lines(r: dict[str, Any]) -> list[str]:
    lines = [f"Command: `{r['command']}`: {r['runs']} runs in"
             f" {r['wall_s']} s ({r['cpus']} CPUs, local process pool).",
             "Device: configs/procache-tlc.conf, blocks_per_chip=160,"
             " slc_blocks_per_chip=16 (2 KiB pages); ProCache c = 64 KiB"
             " (the paper's Fig 4; a request of exactly c may enter),"
             " warmup-6, --remap dense --remap-unit page. hit = cache"
             " write hit pages / page"
             " writes of the measured pass; off-line = Belady's MIN with"
             " bypass at the same size (independent of p), a page's next"
             " use its next read or write (the paper's Table 1; ssdsim"
             " --belady's default).", ""]
    for name, sizes in r["traces"].items():
        ps = list(next(iter(sizes.values())))
        head = " | ".join(f"p={int(p) / 1e6:g}" for p in ps)
        lines += [f"### {name}", "", "Write hit ratio:", "",
                  f"| cache pages | off-line | {head} |",
                  "|---" * (len(ps) + 2) + "|"]
        for size, row in sizes.items():
            first = next(iter(row.values()))
            lines.append(f"| {size} | {first['offline']:.3f} | " + " | ".join(
                f"{row[p]['hit']:.3f}" for p in ps) + " |")
        erases = max(x["erases"] for row in sizes.values()
                     for x in row.values())
        lines += ["", "TLC page programs of the measured pass (the writes"
                  " the cache did not absorb; erases: at most"
                  f" {erases} blocks in any run of this trace):", "",
                  f"| cache pages | {head} |", "|---" * (len(ps) + 1) + "|"]
        for size, row in sizes.items():
            lines.append(f"| {size} | " + " | ".join(
                str(row[p]["tlc_programs"]) for p in ps) + " |")
        lines.append("")
    return lines


def write_report(r: dict[str, Any], out_dir: Path = RESULTS) -> None:
    (out_dir / f"{OUT_NAME}.md").write_text(
        "# The ProCache paper's Fig 4 through the sweep command"
        " (bench/fig4_sweep.py)\n\nThe table: "
        f"`{OUT_NAME}.csv`; the plots: `{OUT_NAME}-*.png`.\n\n"
        + "\n".join(table_lines(r)) + "\n")


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    result = run()
    write_report(result)
    return result


def show(results: dict[str, Any]) -> None:
    print("\n".join(["", "The ProCache paper's Fig 4 (p x cache size)"
                     " through python3 -m ssdtools.sweep"]
                    + table_lines(results[NAME])))


def main() -> int:
    result = run()
    write_report(result)
    show({NAME: result})
    return 0


if __name__ == "__main__":
    sys.exit(main())
