"""Section 3 of `make bench`: throughput under garbage collection.

4 KiB random writes at QD32 at 90% utilisation on configs/small-test.conf
in the bench VM; IOPS per second (fio) and GC page moves per second (the
device's counters), summarised as the IOPS before GC, the IOPS once GC
runs, their minimum over one second, and the WAF.  Draws
bench/results/gc-curve-<kernel>.png (with matplotlib).
"""
from __future__ import annotations

import math
import re
import statistics
from pathlib import Path
from typing import Any

from bench.section import RESULTS, Options
from bench.transcript import Transcript
from ssdtools import guest

NAME = "gc"


def guest_seconds(opts: Options) -> float:
    return opts.gc_runtime_s + 20


def analyze(t: Transcript, results: dict[str, Any]) -> dict[str, Any]:
    return {"gc": summarize(t.output, t.stats)}


def gc_moves_per_s(samples: list[list[float]]) -> list[tuple[float, float]]:
    """(seconds, GC page moves per second) over each sampling interval,
    stamped at its end."""
    return [(b[0], (b[2] - a[2]) / (b[0] - a[0]))
            for a, b in zip(samples, samples[1:]) if b[0] > a[0]]


def summarize(output: str, stats: dict[str, Any]) -> dict[str, Any]:
    """The IOPS curve and its summary: fio's seconds wholly before the
    first GC move (by the sampler), and those wholly after the sample that
    first saw one."""
    iops_log = guest.blocks(output, "IOPSLOG")
    curve_iops = [int(line.split(",")[1]) for line in
                  next(iter(iops_log.values()), "").splitlines() if line]
    samples = [[float(m[0]), int(m[1]), int(m[2])] for m in
               re.findall(r"GC-SAMPLE ([\d.]+) (\d+) (\d+)", output)]
    final = stats["gc"]
    gc_start = next(((a[0], b[0]) for a, b in zip(samples, samples[1:])
                     if b[2] > a[2]), None)
    if gc_start is None:
        before, during = curve_iops, []
    else:
        before = curve_iops[:math.floor(gc_start[0])]
        during = curve_iops[math.ceil(gc_start[1]):]
    moves = [m for t, m in gc_moves_per_s(samples)
             if gc_start and t > gc_start[1]]
    summary = {
        "gc_started_s": list(gc_start) if gc_start else None,
        "iops_before_gc": statistics.fmean(before) if before else None,
        "iops_during_gc": statistics.fmean(during) if during else None,
        "iops_min_during_gc": min(during) if during else None,
        "iops_min": min(curve_iops) if curve_iops else None,
        "gc_moves_per_s_during_gc": statistics.fmean(moves) if moves
        else None,
        "waf": final["waf"],
    }
    return {"iops_per_s": curve_iops, "samples_s_host_gc_pages": samples,
            "summary": summary, "final": final}


def fmt(value: float | None, spec: str = ".0f") -> str:
    return "-" if value is None else format(value, spec)


def show(r: dict[str, Any]) -> None:
    g = r["gc"]
    final, s = g["final"], g["summary"]
    print("\n3. GC under load (small-test.conf, 90% full, "
          "4 KiB random writes at QD32)")
    print(f"IOPS per second: {g['iops_per_s']}")
    started = s["gc_started_s"]
    when = (f"between {started[0]:.1f} and {started[1]:.1f} s"
            if started else "never")
    print(f"GC started {when}; IOPS before GC {fmt(s['iops_before_gc'])},"
          f" during GC {fmt(s['iops_during_gc'])} (min per second"
          f" {fmt(s['iops_min_during_gc'])}), GC page moves per second"
          f" during GC {fmt(s['gc_moves_per_s_during_gc'])}")
    print(f"WAF {final['waf']:.2f}, GC moved {final['gc_relocated_pages']} "
          f"pages, {final['flash_erase_blocks']} erases")


def plot(r: dict[str, Any], path: Path) -> bool:
    """The IOPS curve beside the GC page moves; False without
    matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    g = r["gc"]
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.plot(range(1, len(g["iops_per_s"]) + 1), g["iops_per_s"],
            label="host write IOPS (fio)")
    moves = gc_moves_per_s(g["samples_s_host_gc_pages"])
    if moves:
        ax.plot(*zip(*moves), label="GC page moves per second (device)")
    ax.set_xlabel("seconds")
    ax.set_ylabel("per second")
    ax.set_title(f"GC under load: small-test.conf at 90%, WAF"
                 f" {g['final']['waf']:.2f} ({r['kernel']})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def figures(results: dict[str, Any]) -> list[Path]:
    png = RESULTS / f"gc-curve-{results['kernel']}.png"
    return [png] if plot(results, png) else []
