"""Host-side caches in front of deduplicated storage: the PLC-Cache and
CDAC papers' headline comparisons, in the host cache simulator
(build/bin/cachesim, tools/cachesim/README.md; no VM, deterministic).

1. PLC-Cache (Liu et al., MSST'14) against LRU, FIFO and LFU at unit
   (container, 2 MiB) granularity over Zipf file reads with shared chunks
   (build/bin/tracegen zipf-files): the bytes written into the cache, the
   read hit ratio and the quadrants of the written data, at alpha 0.2-0.9
   and caches of 10-40% of the deduplicated data; the headline point is
   alpha 0.47 at 20%.  A small read-volume sweep shows how the quadrant
   shares depend on it.
2. CDAC (Tan et al.) against D-LRU, D-ARC (CacheDedup, Li et al., FAST'16),
   LRU and ARC: read hit ratio over cache size (20-80% of the working
   set) and block size (4-64 KiB).  The paper used the FIU SRCMap traces
   (WebVM, homes, mail) whole; no public copy of them could be found on
   GitHub (the only sources this machine reaches), so this runs on the
   repository's samples of homes and mail (1000 and 122 requests: far too
   small to rank policies) and on synthetic traces (build/bin/tracegen
   dedup-blocks) with the samples' read and duplicate shares (SYNTHETIC
   says which).  Traces in a directory named by SSDEMU_FIU_TRACES (or
   --traces), *.blkparse, e.g. the real FIU traces from the SNIA IOTTA
   repository, are added to the comparison.

The papers' figures stand beside ours in the tables (PAPER_*); ours are
computed from the runs.  Writes bench/results/hostcache.json,
hostcache.md and, with matplotlib, hostcache-plc-writes.png,
hostcache-plc-hit.png, hostcache-plc-quadrants.png, hostcache-cdac.png.

Standalone: python3 -m bench.hostcache [--full] [--traces DIR]
            [--cachesim PATH] [--tracegen PATH]
--full adds PLC's f and delay sweeps and synthetic traces of a million
requests (about fifteen minutes); the default takes about three.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from ssdtools import cachesim as cs
from bench.section import RESULTS, Options
from ssdtools.paths import ROOT, TRACES

NAME = "hostcache"
PROGRESS = "cachesim: PLC-Cache and CDAC against their baselines"
GIB = 1 << 30

# -- PLC-Cache --
PLC_POLICIES = ["plc", "lru", "fifo", "lfu"]
BASELINES = ["lru", "fifo", "lfu"]
PLC_ALPHAS = [0.2, 0.3, 0.4, 0.47, 0.5, 0.6, 0.7, 0.8, 0.9]
PLC_SIZES = [10, 15, 20, 25, 30, 35, 40]     # % of the deduplicated data
HEADLINE_ALPHA = 0.47
HEADLINE_SIZE = 20
UNIT_KIB = 2048                            # the paper's 2 MB containers
# The file set: 10000 files, 16 KiB-1 MiB (log-uniform), 30% of the
# content in runs (mean 64 KiB) copied from earlier files; each file read
# whole in one request, so a unit's access count counts file reads.
# --zipf-form power (P(i) ~ i^-alpha) keeps the comparisons of
# results/hostcache.md as they were made; the paper's eq. (1), tracegen's
# default, comes with the PLC re-run of issue 32 (docs/papers.md).
FILES = ["--files", "10000", "--file-min-kib", "16", "--file-max-kib",
         "1024", "--dup-percent", "30", "--dup-run-kib", "64",
         "--request-kib", "1024", "--seed", "1", "--zipf-form", "power"]
READ_MIB = 2048                            # about 1.3 x the unique data
READ_MIB_SWEEP = [1024, 2048, 8192]
PLC_DEFAULTS = ["--plc-threshold-accesses", "4", "--plc-delay", "2",
                "--plc-inout-factor", "1"]
FULL_FACTORS = [1.0, 1.5, 2.0]
FULL_DELAYS = [0, 1, 2, 4, 8, 14]
# The paper's figures (alpha 0.47, cache 20% of the deduplicated data).
PAPER_PLC = {
    "lru_write_gb": 48.77, "plc_write_gb": 3.18, "lru_over_plc": 15.34,
    "baselines_over_plc": 15.7, "plc_hit": 0.669, "lru_hit": 0.62,
    "lru_quadrants": {"qa": 0.0, "qb": 0.2623, "qcd": 0.7377},
    "plc_quadrants": {"qa": 0.8163, "qb": 0.1837, "qcd": 0.0},
    "crossover_percent": 25,
}

# -- CDAC --
CDAC_POLICIES = ["cdac-lru", "cdac-arc", "d-lru", "d-arc", "lru", "arc"]
CDAC_BLOCKS_KIB = [4, 8, 16, 32, 64]
CDAC_SIZES = [20, 40, 60, 80]              # % of the working set
SAMPLES = ["fiu-homes-sample.blkparse", "fiu-mail-sample.blkparse"]
# Synthetic traces with the samples' shares (cachesim --census of
# tests/data): the mail sample reads 88% of its requests and 31% of its
# written pages duplicate earlier content; the homes sample reads 0.2%
# and 17%.  The third mixes half and half (no sample: our assumption, in
# place of WebVM).  All: 1 GiB of addresses in 64 KiB regions of
# Zipf(0.9) popularity, requests of 1-16 pages.
SYNTHETIC: dict[str, list[str]] = {
    "syn-mail": ["--read-percent", "87.7", "--dup-percent", "31.25"],
    "syn-homes": ["--read-percent", "0.2", "--dup-percent", "16.9"],
    "syn-mixed": ["--read-percent", "50", "--dup-percent", "30"],
}
SYN_COMMON = ["--space-mib", "1024", "--region-kib", "64", "--zipf", "0.9",
              "--request-max-kib", "64", "--seed", "1"]
SYN_REQUESTS = 150_000
SYN_REQUESTS_FULL = 1_000_000
META_PER_BLOCK = "2"
PAPER_CDAC_GAIN = 1.95     # CDAC's read hit ratio over D-LRU/D-ARC's
PLOT_MIN_READS = 100       # the homes sample's 2 reads make no curve


def ratio(a: float, b: float) -> float | None:
    return a / b if b else None


# -- PLC experiment --

def plc_trace(work: Path, alpha: float, read_mib: int,
              tracegen: Path) -> tuple[Path, dict[str, float]]:
    path = work / f"zipf-{alpha}-{read_mib}.trace"
    summary = cs.generate("zipf-files", path, [*FILES, "--alpha", str(alpha),
                                               "--read-mib", str(read_mib)],
                          binary=tracegen)
    return path, summary


def plc_runs(trace: Path, sizes: list[int], cachesim: Path,
             extra: list[str] = ()) -> dict[str, Any]:
    """{"trace": census, "by_size": {size: {policy: figures}}}."""
    out = cs.run(trace, ["--policy", ",".join(PLC_POLICIES), "--unit-kib",
                         str(UNIT_KIB), "--cache-percent",
                         ",".join(str(s) for s in sizes), *PLC_DEFAULTS,
                         *extra], binary=cachesim)
    keep = ("read_hit_ratio", "cache_write_bytes", "qa_share", "qb_share",
            "qc_share", "qd_share", "capacity", "plc_filtered",
            "plc_delayed", "plc_inout_refused", "memory_bytes_per_block",
            "memory_bytes_per_unit_tracked", "seconds")
    by_size: dict[str, dict[str, Any]] = {}
    runs = iter(out["runs"])
    for size in sizes:
        by_size[str(size)] = {}
        for policy in PLC_POLICIES:
            run = next(runs)
            assert run["policy"] == policy
            by_size[str(size)][policy] = {k: run[k] for k in keep
                                          if k in run}
    return {"trace": out["trace"], "by_size": by_size}


def plc_experiment(work: Path, cachesim: Path, tracegen: Path,
                   full: bool) -> dict[str, Any]:
    result: dict[str, Any] = {"alphas": {}, "read_mib": {}, "full": {}}
    for alpha in PLC_ALPHAS:
        print(f"hostcache: PLC, alpha {alpha}...", flush=True)
        trace, summary = plc_trace(work, alpha, READ_MIB, tracegen)
        sizes = PLC_SIZES if alpha == HEADLINE_ALPHA else [HEADLINE_SIZE]
        result["alphas"][str(alpha)] = {"summary": summary,
                                        **plc_runs(trace, sizes, cachesim)}
        if alpha == HEADLINE_ALPHA and full:
            for f in FULL_FACTORS:
                result["full"][f"f={f}"] = plc_runs(
                    trace, [HEADLINE_SIZE], cachesim,
                    ["--plc-inout-factor", str(f)])["by_size"]
            for d in FULL_DELAYS:
                result["full"][f"delay={d}"] = plc_runs(
                    trace, [HEADLINE_SIZE], cachesim,
                    ["--plc-delay", str(d)])["by_size"]
        trace.unlink()
    for read_mib in READ_MIB_SWEEP:
        if read_mib == READ_MIB:
            continue
        print(f"hostcache: PLC, {read_mib} MiB read...", flush=True)
        trace, summary = plc_trace(work, HEADLINE_ALPHA, read_mib, tracegen)
        result["read_mib"][str(read_mib)] = {
            "summary": summary,
            **plc_runs(trace, [HEADLINE_SIZE], cachesim)}
        trace.unlink()
    head = result["alphas"][str(HEADLINE_ALPHA)]
    result["read_mib"][str(READ_MIB)] = {
        "summary": head["summary"], "trace": head["trace"],
        "by_size": {str(HEADLINE_SIZE):
                    head["by_size"][str(HEADLINE_SIZE)]}}
    return result


def plc_point(point: dict[str, Any]) -> dict[str, Any]:
    """The comparison figures of one (trace, size) point."""
    plc = point["plc"]
    writes = {p: point[p]["cache_write_bytes"] for p in PLC_POLICIES}
    base = [ratio(writes[p], writes["plc"]) for p in BASELINES]
    return {
        "writes": writes,
        "lru_over_plc": ratio(writes["lru"], writes["plc"]),
        "baselines_over_plc": (sum(b for b in base if b) / len(base)
                               if all(base) else None),
        "hit": {p: point[p]["read_hit_ratio"] for p in PLC_POLICIES},
        "quadrants": {p: {"qa": point[p]["qa_share"],
                          "qb": point[p]["qb_share"],
                          "qcd": point[p]["qc_share"] + point[p]["qd_share"]}
                      for p in PLC_POLICIES},
        "plc_counters": {k: plc.get(k) for k in (
            "plc_filtered", "plc_delayed", "plc_inout_refused")},
    }


def crossover(by_size: dict[str, Any]) -> int | None:
    """The smallest cache (%) at which LRU's hit ratio reaches PLC's."""
    for size in sorted(by_size, key=float):
        point = by_size[size]
        if point["lru"]["read_hit_ratio"] >= point["plc"]["read_hit_ratio"]:
            return int(float(size))
    return None


# -- CDAC experiment --

def cdac_traces(work: Path, tracegen: Path, full: bool,
                extra_dir: Path | None) -> dict[str, Path]:
    traces = {name: TRACES / name for name in SAMPLES}
    requests = SYN_REQUESTS_FULL if full else SYN_REQUESTS
    for name, args in SYNTHETIC.items():
        path = work / f"{name}.trace"
        cs.generate("dedup-blocks", path, [*SYN_COMMON, *args, "--requests",
                                           str(requests)], binary=tracegen)
        traces[name] = path
    if extra_dir:
        for path in sorted(extra_dir.glob("*.blkparse")):
            traces[path.name] = path
    return traces


def cdac_experiment(work: Path, cachesim: Path, tracegen: Path, full: bool,
                    extra_dir: Path | None) -> dict[str, Any]:
    result: dict[str, Any] = {"traces": {}}
    for name, path in cdac_traces(work, tracegen, full, extra_dir).items():
        print(f"hostcache: CDAC, {name}...", flush=True)
        entry: dict[str, Any] = {"blocks": {}}
        for kib in CDAC_BLOCKS_KIB:
            out = cs.run(path, ["--policy", ",".join(CDAC_POLICIES),
                                "--block-kib", str(kib), "--cache-percent",
                                ",".join(str(s) for s in CDAC_SIZES),
                                "--meta-per-block", META_PER_BLOCK],
                         binary=cachesim)
            entry.setdefault("census", out["trace"])
            sizes: dict[str, Any] = {}
            runs = iter(out["runs"])
            for size in CDAC_SIZES:
                sizes[str(size)] = {}
                for policy in CDAC_POLICIES:
                    run = next(runs)
                    sizes[str(size)][policy] = {
                        k: run[k] for k in (
                            "read_hit_ratio", "overall_hit_ratio",
                            "read_accesses", "cache_write_bytes",
                            "capacity", "meta_entries",
                            "memory_bytes_per_block",
                            "memory_bytes_per_address", "seconds")}
            entry["blocks"][str(kib)] = {"census": out["trace"],
                                         "sizes": sizes}
        result["traces"][name] = entry
    return result


def cdac_gains(result: dict[str, Any]) -> dict[str, Any]:
    """CDAC's read hit ratio over D-LRU's and D-ARC's, averaged over the
    points where the denominator is above 0, per trace and overall."""
    out: dict[str, Any] = {}
    every: list[float] = []
    for name, entry in result["traces"].items():
        gains: list[float] = []
        for block in entry["blocks"].values():
            for point in block["sizes"].values():
                for mine, theirs in (("cdac-lru", "d-lru"),
                                     ("cdac-arc", "d-arc")):
                    g = ratio(point[mine]["read_hit_ratio"],
                              point[theirs]["read_hit_ratio"])
                    if g is not None:
                        gains.append(g)
        out[name] = sum(gains) / len(gains) if gains else None
        every += gains
    out["all"] = sum(every) / len(every) if every else None
    return out


# -- the section --

def run(cachesim: Path = cs.CACHESIM, tracegen: Path = cs.TRACEGEN,
        full: bool = False, extra_dir: Path | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ssdemu-hostcache-") as tmp:
        work = Path(tmp)
        plc = plc_experiment(work, cachesim, tracegen, full)
        cdac = cdac_experiment(work, cachesim, tracegen, full, extra_dir)
    head = plc["alphas"][str(HEADLINE_ALPHA)]
    return {"full": full, "unit_kib": UNIT_KIB, "read_mib": READ_MIB,
            "files": FILES, "synthetic": SYNTHETIC, "syn_common": SYN_COMMON,
            "plc": plc, "cdac": cdac,
            "plc_headline": plc_point(head["by_size"][str(HEADLINE_SIZE)]),
            "plc_crossover_percent": crossover(head["by_size"]),
            "cdac_gains": cdac_gains(cdac)}


def pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def times(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}x"


def gib(n: float) -> str:
    return f"{n / GIB:.2f}"


def plc_lines(result: dict[str, Any]) -> list[str]:
    plc = result["plc"]
    head = plc["alphas"][str(HEADLINE_ALPHA)]
    h = result["plc_headline"]
    p = PAPER_PLC
    s = head["summary"]
    lines = [
        "## PLC-Cache against LRU, FIFO and LFU", "",
        f"Zipf file reads (tracegen zipf-files {' '.join(FILES)}"
        f" --read-mib {READ_MIB}): {int(s['files'])} files,"
        f" {gib(s['logical_bytes'])} GiB stored,"
        f" {gib(s['unique_bytes'])} GiB after dedup"
        f" ({100 * s['dup_share']:.1f}% of the chunks shared),"
        f" {gib(s['read_bytes'])} GiB read; units (containers) of"
        f" {UNIT_KIB} KiB, {head['trace']['units']} of them; PLC with"
        " threshold 4, delay 2, f = 1.  Cache writes are the bytes written"
        " into the cache (the paper's SSD writes); the hit ratio is of"
        " 4 KiB pages read.", "",
        f"### Headline: alpha {HEADLINE_ALPHA}, cache {HEADLINE_SIZE}% of"
        " the deduplicated data", "",
        "| | paper | ours |", "|---|---|---|",
        f"| LRU cache writes | {p['lru_write_gb']} GB |"
        f" {gib(h['writes']['lru'])} GiB |",
        f"| PLC cache writes | {p['plc_write_gb']} GB |"
        f" {gib(h['writes']['plc'])} GiB |",
        f"| LRU writes / PLC writes | {p['lru_over_plc']}x |"
        f" {times(h['lru_over_plc'])} |",
        f"| mean of FIFO, LRU, LFU writes / PLC | {p['baselines_over_plc']}x"
        f" | {times(h['baselines_over_plc'])} |",
        f"| hit ratio PLC | {pct(p['plc_hit'])} | {pct(h['hit']['plc'])} |",
        f"| hit ratio LRU | about {pct(p['lru_hit'])} |"
        f" {pct(h['hit']['lru'])} |",
        "| quadrants LRU (QA / QB / QC+QD) | "
        + " / ".join(pct(p["lru_quadrants"][q]) for q in ("qa", "qb", "qcd"))
        + " | " + " / ".join(pct(h["quadrants"]["lru"][q])
                             for q in ("qa", "qb", "qcd")) + " |",
        "| quadrants PLC (QA / QB / QC+QD) | "
        + " / ".join(pct(p["plc_quadrants"][q]) for q in ("qa", "qb", "qcd"))
        + " | " + " / ".join(pct(h["quadrants"]["plc"][q])
                             for q in ("qa", "qb", "qcd")) + " |",
        f"| LRU's hit ratio reaches PLC's from | about"
        f" {p['crossover_percent']}% |"
        f" {result['plc_crossover_percent'] or 'never (up to 40)'}"
        f"{'%' if result['plc_crossover_percent'] else ''} |", "",
        "| policy | cache writes (GiB) | / PLC | hit ratio | QA | QB | QC |"
        " QD |", "|---|---|---|---|---|---|---|---|"]
    point = head["by_size"][str(HEADLINE_SIZE)]
    for pol in PLC_POLICIES:
        r = point[pol]
        lines.append(
            f"| {pol} | {gib(r['cache_write_bytes'])}"
            f" | {times(ratio(r['cache_write_bytes'], h['writes']['plc']))}"
            f" | {pct(r['read_hit_ratio'])} | {pct(r['qa_share'])}"
            f" | {pct(r['qb_share'])} | {pct(r['qc_share'])}"
            f" | {pct(r['qd_share'])} |")
    counters = h["plc_counters"]
    lines += ["", f"PLC's unit misses: {counters['plc_filtered']} filtered,"
              f" {counters['plc_delayed']} delayed,"
              f" {counters['plc_inout_refused']} refused by the in-out"
              " comparison.", "",
              f"### Over cache size (alpha {HEADLINE_ALPHA})", "",
              "| cache | "
              + " | ".join(f"{p} writes (GiB)" for p in PLC_POLICIES)
              + " | " + " | ".join(f"{p} hit" for p in PLC_POLICIES)
              + " | LRU / PLC writes |",
              "|---" * (2 * len(PLC_POLICIES) + 2) + "|"]
    for size, point in head["by_size"].items():
        f = plc_point(point)
        lines.append(f"| {size}% | "
                     + " | ".join(gib(f["writes"][q]) for q in PLC_POLICIES)
                     + " | " + " | ".join(pct(f["hit"][q])
                                          for q in PLC_POLICIES)
                     + f" | {times(f['lru_over_plc'])} |")
    lines += ["", f"### Over alpha (cache {HEADLINE_SIZE}%)", "",
              "| alpha | LRU / PLC writes | baselines / PLC | PLC hit |"
              " LRU hit | FIFO hit | LFU hit | PLC QA | LRU QC+QD |",
              "|---|---|---|---|---|---|---|---|---|"]
    for alpha, entry in plc["alphas"].items():
        f = plc_point(entry["by_size"][str(HEADLINE_SIZE)])
        lines.append(f"| {alpha} | {times(f['lru_over_plc'])}"
                     f" | {times(f['baselines_over_plc'])}"
                     f" | {pct(f['hit']['plc'])} | {pct(f['hit']['lru'])}"
                     f" | {pct(f['hit']['fifo'])} | {pct(f['hit']['lfu'])}"
                     f" | {pct(f['quadrants']['plc']['qa'])}"
                     f" | {pct(f['quadrants']['lru']['qcd'])} |")
    lines += ["", "### Read volume (alpha 0.47, cache 20%)", "",
              "| read (MiB) | LRU / PLC writes | PLC hit | LRU hit |"
              " LRU QA / QB / QC+QD | PLC QA / QB / QC+QD |",
              "|---|---|---|---|---|---|"]
    for mib in sorted(plc["read_mib"], key=int):
        f = plc_point(plc["read_mib"][mib]["by_size"][str(HEADLINE_SIZE)])
        lines.append(
            f"| {mib} | {times(f['lru_over_plc'])} | {pct(f['hit']['plc'])}"
            f" | {pct(f['hit']['lru'])} | "
            + " / ".join(pct(f["quadrants"]["lru"][q])
                         for q in ("qa", "qb", "qcd")) + " | "
            + " / ".join(pct(f["quadrants"]["plc"][q])
                         for q in ("qa", "qb", "qcd")) + " |")
    if plc["full"]:
        lines += ["", "### PLC's knobs (--full; alpha 0.47, cache 20%)", "",
                  "| setting | PLC writes (GiB) | LRU / PLC | PLC hit |",
                  "|---|---|---|---|"]
        for name, by_size in plc["full"].items():
            f = plc_point(by_size[str(HEADLINE_SIZE)])
            lines.append(f"| {name} | {gib(f['writes']['plc'])}"
                         f" | {times(f['lru_over_plc'])}"
                         f" | {pct(f['hit']['plc'])} |")
    return lines


def cdac_lines(result: dict[str, Any]) -> list[str]:
    cdac = result["cdac"]
    gains = result["cdac_gains"]
    lines = ["", "## CDAC against D-LRU, D-ARC, LRU and ARC", "",
             "Read hit ratio; the dedup policies' metadata cache holds"
             f" {META_PER_BLOCK} addresses per data block; cache sizes are"
             " % of the working set (block addresses touched); writes are"
             " write-through.  Traces: the FIU samples of tests/data"
             " (real, tiny), and synthetic traces (tracegen dedup-blocks "
             + " ".join(SYN_COMMON) + "): "
             + "; ".join(f"{n}: {' '.join(a)}" for n, a in SYNTHETIC.items())
             + ".", "",
             "| | paper | ours |", "|---|---|---|",
             f"| CDAC's read hit ratio / D-LRU's and D-ARC's (mean) |"
             f" {PAPER_CDAC_GAIN}x (FIU WebVM, homes, mail) |"
             f" {times(gains['all'])} (all traces below) |"]
    for name, g in gains.items():
        if name != "all":
            lines.append(f"| {name} | | {times(g)} |")
    for name, entry in cdac["traces"].items():
        census = entry["census"]
        lines += ["", f"### {name}", "",
                  f"{census['read_requests']} reads and"
                  f" {census['write_requests']} writes;"
                  f" {100 * census['write_dup_page_share']:.1f}% of the"
                  " written pages duplicate earlier content.", "",
                  "| block | cache | " + " | ".join(CDAC_POLICIES) + " |",
                  "|---" * (len(CDAC_POLICIES) + 2) + "|"]
        for kib, block in entry["blocks"].items():
            for size, point in block["sizes"].items():
                lines.append(
                    f"| {kib} KiB | {size}% | "
                    + " | ".join(pct(point[p]["read_hit_ratio"])
                                 for p in CDAC_POLICIES) + " |")
    return lines


def memory_lines(result: dict[str, Any]) -> list[str]:
    """Metadata bytes per cached block and per address, from the runs."""
    lines = ["", "## Metadata per policy", "",
             "| policy | bytes per cached block (or unit) |"
             " bytes per address |", "|---|---|---|"]
    cdac = result["cdac"]["traces"]["fiu-mail-sample.blkparse"]
    point = cdac["blocks"]["16"]["sizes"]["40"]
    for p in CDAC_POLICIES:
        lines.append(f"| {p} | {point[p]['memory_bytes_per_block']}"
                     f" | {point[p]['memory_bytes_per_address'] or '-'} |")
    head = result["plc"]["alphas"][str(HEADLINE_ALPHA)]["by_size"]
    plc = head[str(HEADLINE_SIZE)]["plc"]
    lines.append(f"| plc | {plc['memory_bytes_per_block']} | -"
                 f" (and {plc['memory_bytes_per_unit_tracked']} per unit"
                 " ever seen) |")
    return lines


def table_lines(result: dict[str, Any]) -> list[str]:
    return plc_lines(result) + cdac_lines(result) + memory_lines(result)


def plot(result: dict[str, Any], out_dir: Path) -> list[Path]:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    written = []
    plc = result["plc"]
    head = plc["alphas"][str(HEADLINE_ALPHA)]["by_size"]
    sizes = sorted(head, key=float)
    alphas = sorted(plc["alphas"], key=float)
    # writes: over alpha (20%) and over size (0.47)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for p in PLC_POLICIES:
        ax1.plot([float(a) for a in alphas],
                 [plc["alphas"][a]["by_size"][str(HEADLINE_SIZE)][p]
                  ["cache_write_bytes"] / GIB for a in alphas], "-o", label=p)
        ax2.plot([float(s) for s in sizes],
                 [head[s][p]["cache_write_bytes"] / GIB for s in sizes],
                 "-o", label=p)
    ax1.set(xlabel="Zipf alpha", ylabel="bytes written into the cache (GiB)",
            yscale="log", title=f"cache {HEADLINE_SIZE}% of the dedup data")
    ax2.set(xlabel="cache (% of the deduplicated data)", yscale="log",
            ylabel="bytes written into the cache (GiB)",
            title=f"alpha {HEADLINE_ALPHA}")
    ax1.legend()
    ax2.legend()
    fig.tight_layout()
    written.append(out_dir / "hostcache-plc-writes.png")
    fig.savefig(written[-1])
    plt.close(fig)
    # hit ratio
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for p in PLC_POLICIES:
        ax1.plot([float(a) for a in alphas],
                 [plc["alphas"][a]["by_size"][str(HEADLINE_SIZE)][p]
                  ["read_hit_ratio"] for a in alphas], "-o", label=p)
        ax2.plot([float(s) for s in sizes],
                 [head[s][p]["read_hit_ratio"] for s in sizes], "-o",
                 label=p)
    ax1.set(xlabel="Zipf alpha", ylabel="read hit ratio",
            title=f"cache {HEADLINE_SIZE}% of the dedup data")
    ax2.set(xlabel="cache (% of the deduplicated data)",
            ylabel="read hit ratio", title=f"alpha {HEADLINE_ALPHA}")
    ax1.legend()
    ax2.legend()
    fig.tight_layout()
    written.append(out_dir / "hostcache-plc-hit.png")
    fig.savefig(written[-1])
    plt.close(fig)
    # quadrants
    fig, ax = plt.subplots(figsize=(6, 4))
    point = head[str(HEADLINE_SIZE)]
    bottom = [0.0] * len(PLC_POLICIES)
    for q, label in (("qa", "QA popular, low repeat"),
                     ("qb", "QB popular, high repeat"),
                     ("qc", "QC not popular, low repeat"),
                     ("qd", "QD not popular, high repeat")):
        vals = [point[p][f"{q}_share"] * 100 for p in PLC_POLICIES]
        ax.bar(PLC_POLICIES, vals, bottom=bottom, label=label)
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set(ylabel="% of the bytes written into the cache",
           title=f"quadrants, alpha {HEADLINE_ALPHA}, cache {HEADLINE_SIZE}%")
    ax.legend(fontsize="small", loc="lower right")
    fig.tight_layout()
    written.append(out_dir / "hostcache-plc-quadrants.png")
    fig.savefig(written[-1])
    plt.close(fig)
    # CDAC: hit ratio over size (16 KiB) and over block size (40%), for
    # the traces with reads enough to plot
    traces = [name for name, entry in result["cdac"]["traces"].items()
              if entry["census"]["read_requests"] >= PLOT_MIN_READS]
    fig, axes = plt.subplots(2, len(traces), figsize=(4 * len(traces), 7),
                             squeeze=False)
    for col, name in enumerate(traces):
        blocks = result["cdac"]["traces"][name]["blocks"]
        for p in CDAC_POLICIES:
            style = "-o" if p.startswith("cdac") else "--s"
            by_size = [blocks["16"]["sizes"][str(s)][p]["read_hit_ratio"]
                       for s in CDAC_SIZES]
            axes[0][col].plot(CDAC_SIZES, by_size, style, label=p)
            axes[1][col].plot(CDAC_BLOCKS_KIB,
                              [blocks[str(k)]["sizes"]["40"][p]
                               ["read_hit_ratio"] for k in CDAC_BLOCKS_KIB],
                              style, label=p)
        axes[0][col].set(title=name, xlabel="cache (% of the working set),"
                         " 16 KiB blocks", ylabel="read hit ratio")
        axes[1][col].set(xlabel="block (KiB), cache 40%",
                         ylabel="read hit ratio", xscale="log")
        axes[1][col].set_xticks(CDAC_BLOCKS_KIB)
        axes[1][col].set_xticklabels([str(k) for k in CDAC_BLOCKS_KIB])
    axes[0][0].legend(fontsize="small")
    fig.tight_layout()
    written.append(out_dir / "hostcache-cdac.png")
    fig.savefig(written[-1])
    plt.close(fig)
    return written


def write_results(result: dict[str, Any], out_dir: Path = RESULTS) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "hostcache.json").write_text(json.dumps(result, indent=1)
                                            + "\n")
    (out_dir / "hostcache.md").write_text(
        "# Host caches over deduplicated data (bench/hostcache.py)\n\n"
        "Generated by `python3 -m bench.hostcache` (or `python3 -m bench.run"
        " --only hostcache`); tools/cachesim/README.md explains the simulator,"
        " the readings of the papers and why our figures differ.\n\n"
        + "\n".join(table_lines(result)) + "\n")
    for path in plot(result, out_dir):
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"wrote {shown}")


def extra_traces() -> Path | None:
    env = os.environ.get("SSDEMU_FIU_TRACES")
    return Path(env) if env else None


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    result = run(extra_dir=extra_traces())
    write_results(result)
    return result


def show(results: dict[str, Any]) -> None:
    print("\n".join(["", "Host caches over deduplicated data (cachesim)"]
                    + table_lines(results[NAME])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--full", action="store_true",
                        help="PLC's f and delay sweeps, longer traces")
    parser.add_argument("--traces", type=Path, default=extra_traces(),
                        help="a directory of FIU *.blkparse traces to add")
    parser.add_argument("--cachesim", type=Path, default=cs.CACHESIM)
    parser.add_argument("--tracegen", type=Path, default=cs.TRACEGEN)
    args = parser.parse_args()
    result = run(args.cachesim.resolve(), args.tracegen.resolve(), args.full,
                 args.traces)
    show({NAME: result})
    write_results(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
