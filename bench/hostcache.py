"""Host-side caches in front of deduplicated storage: the PLC-Cache and
CDAC papers' claims, in the host cache simulator (build/bin/cachesim,
tools/cachesim/README.md; no VM, deterministic), under each mechanism's
default reading (docs/papers.md) and, for the sensitivity tables, under
each other reading.

1. PLC-Cache (Liu et al., MSST'14) against LRU, FIFO and LFU at unit
   (container, 2 MiB) granularity over Zipf file reads with shared chunks
   (build/bin/tracegen zipf-files, the paper's eq. (1)): the bytes written
   into the cache, the read hit ratio and the quadrants of the written
   data, at alpha 0.2-0.9 and caches of 10-40% of the deduplicated data,
   reading the paper's 2.6 x the data set (520 GB of about 200 GB).
2. CDAC (Tan et al.) against D-LRU, D-ARC (CacheDedup, Li et al.,
   FAST'16), LRU and ARC: read and overall hit ratios over cache size
   (20-80% of the working set) and block size (4-64 KiB).  The slides
   used the FIU SRCMap traces (WebVM, homes, mail) whole; only samples of
   homes and mail are at hand (tests/data: 1000 and 122 requests, far too
   small to rank policies), so synthetic traces (build/bin/tracegen
   dedup-blocks) are made with the read and duplicate shares the slides'
   table gives for each FIU trace (SLIDES_FIU), and what they hold is
   measured beside it, with the share of reads whose content another
   address held.  Traces in a directory named by SSDEMU_FIU_TRACES (or
   --traces), *.blkparse, e.g. the real FIU traces, are added.

bench/hostcache_claims.py turns the result into the claims report.
Writes bench/results/hostcache.json, hostcache.md and, with matplotlib,
hostcache-plc-writes.png, hostcache-plc-hit.png,
hostcache-plc-quadrants.png, hostcache-cdac.png.

Standalone: python3 -m bench.hostcache [--traces DIR] [--cachesim PATH]
            [--tracegen PATH]   (about five minutes)
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
from bench import hostcache_claims as claims
from bench.hostcache_claims import pct, ratio
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
HEADLINE_ALPHA = 0.47     # the paper's default (plc-cache-msst-2014.txt:971)
HEADLINE_SIZE = 20             # its Figs 6-8 (:819-820)
QUADRANT_SIZE = 10             # its Fig 9 (:870-871)
UNIT_KIB = 2048                            # the paper's 2 MB containers
# The file set: 10000 files, 16 KiB-1 MiB (log-uniform), 30% of the
# content in runs (mean 64 KiB) copied from earlier files; each file read
# whole in one request, so a unit's access count counts file reads.
# Popularity by the paper's eq. (1), P(i) ~ 1 / i^(1 + alpha), tracegen's
# default (docs/papers.md, L14).
FILES = ["--files", "10000", "--file-min-kib", "16", "--file-max-kib",
         "1024", "--dup-percent", "30", "--dup-run-kib", "64",
         "--request-kib", "1024", "--seed", "1"]
# The paper read "exceeds 520GB" of a data set of "around 200 GB"
# (plc-cache-msst-2014.txt:802, :793): the read volume is 2.6 x the files
# stored (their bytes before dedup); the sweep shows how it matters.
READ_OVER_DATA = 2.6
READ_OVER_DATA_SWEEP = [0.9, 2.6, 6.0]
# PLC's keys at their defaults (the paper's: threshold 4, delay 2, the
# paper's in-out form, and the readings of docs/papers.md, L5-L10).
PLC_DEFAULTS: list[str] = []
# Each other reading of PLC (docs/papers.md), for the sensitivity table.
PLC_READINGS: dict[str, list[str]] = {
    "in-out: the slides' form, m = 1": ["--plc-inout-form", "slides"],
    "in-out: constant f = 1": ["--plc-inout-f", "constant"],
    "in-out: constant f = 1.5": ["--plc-inout-f", "constant",
                                 "--plc-inout-percent", "150"],
    "in-out: constant f = 2": ["--plc-inout-f", "constant",
                               "--plc-inout-percent", "200"],
    "inner priority 0 on entry": ["--plc-priority-init", "zero"],
    "a hit sets the delay back": ["--plc-delay-hit", "reset"],
    "a hit leaves the delay": ["--plc-delay-hit", "keep"],
    "the hand passes a spared victim": ["--plc-hand-passes", "on"],
    "all of cachesim's readings before issue 32": [
        "--plc-inout-form", "slides", "--plc-priority-init", "zero",
        "--plc-delay-hit", "reset", "--plc-hand-passes", "on"],
}
# The Zipf form before issue 32 (P(i) ~ i^-alpha), for the same table.
POWER_FORM = ["--zipf-form", "power"]

# -- CDAC --
CDAC_POLICIES = ["cdac-lru", "cdac-arc", "d-lru", "d-arc", "lru", "arc"]
CDAC_BLOCKS_KIB = [4, 8, 16, 32, 64]
CDAC_SIZES = [20, 40, 60, 80]              # % of the working set
SAMPLES = ["fiu-homes-sample.blkparse", "fiu-mail-sample.blkparse"]
# The slides' trace statistics (cdac-slides.txt:358-361): total I/O,
# working set and unique data in GB, and the write to read ratio.
SLIDES_FIU: dict[str, dict[str, float]] = {
    "WebVM": {"io_gb": 54.5, "ws_gb": 2.1, "write_to_read": 3.6,
              "unique_gb": 23.4},
    "Homes": {"io_gb": 67.3, "ws_gb": 5.9, "write_to_read": 31.5,
              "unique_gb": 44.4},
    "Mail": {"io_gb": 1741, "ws_gb": 57.1, "write_to_read": 8.1,
             "unique_gb": 171.3},
}


def slides_shares(stats: dict[str, float]) -> tuple[float, float]:
    """A trace's read share (of its I/O: 1 / (1 + writes / reads)) and
    duplicate share (1 - unique data / total I/O) from the slides' row."""
    return (1 / (1 + stats["write_to_read"]),
            1 - stats["unique_gb"] / stats["io_gb"])


# Synthetic traces, one per FIU trace of the slides: reads among requests
# and writes that copy other content at that trace's read and duplicate
# shares (a first-order mapping, not fitted: what the traces then hold is
# measured and shown beside the slides').  All: 1 GiB of addresses in
# 64 KiB regions of Zipf(0.9) popularity, requests of 1-16 pages; a copy
# takes the content of another popular region, so reads of popular
# regions meet content other addresses hold.
SYNTHETIC: dict[str, list[str]] = {
    f"syn-{name.lower()}": [
        "--read-percent", f"{100 * slides_shares(s)[0]:.1f}",
        "--dup-percent", f"{100 * slides_shares(s)[1]:.1f}"]
    for name, s in SLIDES_FIU.items()}
SYN_COMMON = ["--space-mib", "1024", "--region-kib", "64", "--zipf", "0.9",
              "--request-max-kib", "64", "--seed", "1"]
# 30000 requests: CDAC's default scan (docs/papers.md, D6) may pass the
# whole metadata list at every miss when it keeps every address, which
# makes CDAC-ARC's 4 KiB runs of 150000 requests take many minutes.
SYN_REQUESTS = 30_000
META_PER_BLOCK = "2"
# Each other reading of CDAC (docs/papers.md, D5-D9), for the sensitivity
# table (CDAC-LRU and CDAC-ARC only: the baselines do not change; 16 KiB
# blocks, the middle of the slides' range).
CDAC_READINGS: dict[str, list[str]] = {
    "a hot address goes": ["--bhi-hot", "evict"],
    "the note renewed each turn": ["--rce-remark", "on"],
    "a forced drop ends a scan": ["--cdac-forced-drop", "on"],
    "the bitmap never reset": ["--bhi-reset", "never"],
    "the flag at 4 x the entries": ["--bhi-stale-accesses", "auto"],
    "BHI alone (--rce off)": ["--rce", "off"],
    "RCE alone (--bhi off)": ["--bhi", "off"],
    "all of cachesim's readings before issue 32": [
        "--cdac-order", "reverse", "--bhi-reset", "never", "--rce-remark",
        "on", "--cdac-forced-drop", "on", "--bhi-stale-accesses", "auto"],
}
READINGS_BLOCK_KIB = 16
PLOT_MIN_READS = 100       # the homes sample's 2 reads make no curve


# -- PLC experiment --

def read_mib_for(work: Path, tracegen: Path, over_data: float) -> int:
    """The read volume (MiB) that is @over_data x the files stored (the
    file set does not depend on alpha or the read volume)."""
    probe = work / "probe.trace"
    summary = cs.generate("zipf-files", probe, [*FILES, "--read-mib", "1"],
                          binary=tracegen)
    probe.unlink()
    return max(1, round(over_data * summary["logical_bytes"] / (1 << 20)))


def plc_trace(work: Path, alpha: float, read_mib: int, tracegen: Path,
              extra: list[str] = ()) -> tuple[Path, dict[str, float]]:
    path = work / f"zipf-{alpha}-{read_mib}.trace"
    summary = cs.generate("zipf-files", path, [*FILES, "--alpha", str(alpha),
                                               "--read-mib", str(read_mib),
                                               *extra], binary=tracegen)
    return path, summary


def plc_runs(trace: Path, sizes: list[int], cachesim: Path,
             extra: list[str] = (),
             policies: list[str] = PLC_POLICIES) -> dict[str, Any]:
    """{"trace": census, "by_size": {size: {policy: figures}}}."""
    out = cs.run(trace, ["--policy", ",".join(policies), "--unit-kib",
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
        for policy in policies:
            run = next(runs)
            assert run["policy"] == policy
            by_size[str(size)][policy] = {k: run[k] for k in keep
                                          if k in run}
    return {"trace": out["trace"], "by_size": by_size}


def plc_experiment(work: Path, cachesim: Path,
                   tracegen: Path) -> dict[str, Any]:
    read_mib = read_mib_for(work, tracegen, READ_OVER_DATA)
    result: dict[str, Any] = {"read_mib": read_mib, "alphas": {},
                              "read_volume": {}, "readings": {}}
    heads = sorted({HEADLINE_SIZE, QUADRANT_SIZE})
    for alpha in PLC_ALPHAS:
        print(f"hostcache: PLC, alpha {alpha}...", flush=True)
        trace, summary = plc_trace(work, alpha, read_mib, tracegen)
        sizes = PLC_SIZES if alpha == HEADLINE_ALPHA else heads
        result["alphas"][str(alpha)] = {"summary": summary,
                                        **plc_runs(trace, sizes, cachesim)}
        if alpha == HEADLINE_ALPHA:
            for name, extra in PLC_READINGS.items():
                result["readings"][name] = plc_runs(
                    trace, heads, cachesim, extra, ["plc"])["by_size"]
        trace.unlink()
    print("hostcache: PLC, the Zipf form before issue 32...", flush=True)
    trace, summary = plc_trace(work, HEADLINE_ALPHA, read_mib, tracegen,
                               POWER_FORM)
    result["power_form"] = {"summary": summary,
                            **plc_runs(trace, heads, cachesim)}
    trace.unlink()
    for over in READ_OVER_DATA_SWEEP:
        mib = read_mib_for(work, tracegen, over)
        print(f"hostcache: PLC, {mib} MiB read...", flush=True)
        trace, summary = plc_trace(work, HEADLINE_ALPHA, mib, tracegen)
        result["read_volume"][str(over)] = {
            "read_mib": mib, "summary": summary,
            **plc_runs(trace, heads, cachesim)}
        trace.unlink()
    return result


# -- CDAC experiment --

def page_hashes(fields: list[str]) -> tuple[int, list[str]]:
    """An FIU line's first 4 KiB page and each page's content (one MD5
    per 4 KiB block, or per 512-byte sector joined by eight)."""
    sectors, md5s = int(fields[4]), "".join(fields[8:])
    n = len(md5s) // 32
    per = 8 if n == sectors and sectors >= 8 else 1
    pages = [md5s[i:i + 32 * per] for i in range(0, 32 * n, 32 * per)]
    return int(fields[3]) // 8, pages


def shared_reads(path: Path) -> float | None:
    """The share of pages read whose content another address holds at
    that moment (the reads a dedup-aware cache can serve from one copy):
    replays the trace's contents page by page."""
    content: dict[int, str] = {}
    holders: dict[str, int] = {}
    reads = shared = 0
    with path.open() as f:
        for line in f:
            fields = line.split()
            if len(fields) < 9:
                continue
            first, pages = page_hashes(fields)
            for i, h in enumerate(pages):
                addr = first + i
                old = content.get(addr)
                if old != h:
                    if old is not None:
                        holders[old] -= 1
                    holders[h] = holders.get(h, 0) + 1
                    content[addr] = h
                if fields[5].upper().startswith("R"):
                    reads += 1
                    shared += holders[h] >= 2
    return shared / reads if reads else None


def trace_shares(census: dict[str, Any], path: Path) -> dict[str, Any]:
    """What a trace holds, in the slides' terms: read share of the
    requests, duplicate share (1 - unique data / pages accessed), written
    pages that duplicate earlier content, reads of shared content."""
    pages = census["read_pages"] + census["write_pages"]
    requests = census["read_requests"] + census["write_requests"]
    return {
        "read_share": ratio(census["read_requests"], requests),
        "dup_share": (1 - census["unique_block_bytes"] / (pages * 4096)
                      if pages else None),
        "write_dup_page_share": census["write_dup_page_share"],
        "shared_read_share": shared_reads(path)}


def cdac_traces(work: Path, tracegen: Path,
                extra_dir: Path | None) -> dict[str, Path]:
    traces = {name: TRACES / name for name in SAMPLES}
    for name, args in SYNTHETIC.items():
        path = work / f"{name}.trace"
        cs.generate("dedup-blocks", path, [*SYN_COMMON, *args, "--requests",
                                           str(SYN_REQUESTS)],
                    binary=tracegen)
        traces[name] = path
    if extra_dir:
        for path in sorted(extra_dir.glob("*.blkparse")):
            traces[path.name] = path
    return traces


def cdac_runs(path: Path, cachesim: Path, policies: list[str],
              extra: list[str] = (),
              blocks: list[int] = CDAC_BLOCKS_KIB) -> dict[str, Any]:
    """{"census": ..., "blocks": {kib: {size: {policy: figures}}}}."""
    entry: dict[str, Any] = {"blocks": {}}
    for kib in blocks:
        out = cs.run(path, ["--policy", ",".join(policies), "--block-kib",
                            str(kib), "--cache-percent",
                            ",".join(str(s) for s in CDAC_SIZES),
                            "--meta-per-block", META_PER_BLOCK, *extra],
                     binary=cachesim)
        entry.setdefault("census", out["trace"])
        sizes: dict[str, Any] = {}
        runs = iter(out["runs"])
        for size in CDAC_SIZES:
            sizes[str(size)] = {}
            for policy in policies:
                run = next(runs)
                assert run["policy"] == policy
                sizes[str(size)][policy] = {
                    k: run[k] for k in (
                        "read_hit_ratio", "overall_hit_ratio",
                        "read_accesses", "cache_write_bytes", "capacity",
                        "meta_entries", "memory_bytes_per_block",
                        "memory_bytes_per_address", "cdac_no_victim",
                        "seconds") if k in run}
        entry["blocks"][str(kib)] = {"census": out["trace"], "sizes": sizes}
    return entry


def cdac_experiment(work: Path, cachesim: Path, tracegen: Path,
                    extra_dir: Path | None) -> dict[str, Any]:
    result: dict[str, Any] = {"traces": {}, "readings": {}}
    traces = cdac_traces(work, tracegen, extra_dir)
    for name, path in traces.items():
        print(f"hostcache: CDAC, {name}...", flush=True)
        entry = cdac_runs(path, cachesim, CDAC_POLICIES)
        entry["shares"] = trace_shares(entry["census"], path)
        result["traces"][name] = entry
    for reading, extra in CDAC_READINGS.items():
        print(f"hostcache: CDAC, {reading}...", flush=True)
        result["readings"][reading] = {
            name: cdac_runs(path, cachesim, ["cdac-lru", "cdac-arc"],
                            extra, [READINGS_BLOCK_KIB])["blocks"]
            for name, path in traces.items() if name in SYNTHETIC}
    return result


# -- the section --

def run(cachesim: Path = cs.CACHESIM, tracegen: Path = cs.TRACEGEN,
        extra_dir: Path | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ssdemu-hostcache-") as tmp:
        work = Path(tmp)
        plc = plc_experiment(work, cachesim, tracegen)
        cdac = cdac_experiment(work, cachesim, tracegen, extra_dir)
    plc["head_alpha"] = str(HEADLINE_ALPHA)
    return {"unit_kib": UNIT_KIB, "files": FILES,
            "read_over_data": READ_OVER_DATA, "synthetic": SYNTHETIC,
            "syn_common": SYN_COMMON, "plc": plc, "cdac": cdac}


def gib(n: float) -> str:
    return f"{n / GIB:.2f}"


def setup_lines(result: dict[str, Any]) -> list[str]:
    plc = result["plc"]
    head = plc["alphas"][plc["head_alpha"]]
    s = head["summary"]
    return [
        "PLC-Cache: Zipf file reads (tracegen zipf-files"
        f" {' '.join(FILES)} --read-mib {plc['read_mib']}, alpha"
        f" {', '.join(plc['alphas'])}): {int(s['files'])} files,"
        f" {gib(s['logical_bytes'])} GiB stored (the data set),"
        f" {gib(s['unique_bytes'])} GiB after dedup"
        f" ({100 * s['dup_share']:.1f}% of the chunks shared),"
        f" {gib(s['read_bytes'])} GiB read ({READ_OVER_DATA} x the data"
        " set, as the paper's 520 GB of about 200 GB); units (containers)"
        f" of {UNIT_KIB} KiB, {head['trace']['units']} of them; PLC at its"
        " keys' defaults (threshold 4, delay 2, the paper's in-out form,"
        " docs/papers.md).  Cache writes are the bytes written into the"
        " cache (the paper's SSD writes); hit ratios are of 4 KiB pages"
        " read; cache sizes are % of the deduplicated data.", "",
        "CDAC: read and overall hit ratios; the dedup policies' metadata"
        f" cache holds {META_PER_BLOCK} addresses per data block; cache"
        f" sizes {', '.join(str(s) for s in CDAC_SIZES)}% of the working"
        " set (block addresses touched), blocks of"
        f" {', '.join(str(k) for k in CDAC_BLOCKS_KIB)} KiB; writes"
        " write-through.  Synthetic traces: tracegen dedup-blocks "
        + " ".join(SYN_COMMON) + f" --requests {SYN_REQUESTS} and the"
        " options below.  CDAC at cachesim's defaults (the slides' order,"
        " docs/papers.md, CDAC)."]


def report_lines(result: dict[str, Any]) -> list[str]:
    plc, cdac = result["plc"], result["cdac"]
    synthetic = [n for n in cdac["traces"] if n in SYNTHETIC]
    return [
        "## How the claims are judged", "", claims.VERDICT_RULE, "",
        claims.CAVEAT, "",
        "## Setup", "", *setup_lines(result), "",
        "## PLC-Cache's claims", "",
        *claims.claim_table(claims.plc_claims(plc, HEADLINE_SIZE,
                                              QUADRANT_SIZE)), "",
        "### Sensitivity: each other reading (alpha 0.47; LRU from the"
        " same trace)", "",
        *claims.plc_sensitivity(plc, HEADLINE_SIZE, QUADRANT_SIZE), "",
        "## CDAC's claims", "",
        "The traces beside the FIU traces' shares as the slides' table"
        " gives them (cdac-slides.txt:358-361: the read share from the"
        " write to read ratio, the duplicate share as 1 - unique data /"
        " total I/O); ours are measured on the traces (reads of shared"
        " content: pages read whose content another address held at that"
        " moment).", "",
        *claims.trace_lines(cdac, SLIDES_FIU, SYNTHETIC, slides_shares),
        "", "Judged on the synthetic traces (the samples are too small"
        " to rank policies; their figures are in the tables below).", "",
        *claims.claim_table(claims.cdac_claims(
            cdac, synthetic,
            [slides_shares(s)[1] for s in SLIDES_FIU.values()])), "",
        "### Sensitivity: each other reading (the synthetic traces,"
        f" {READINGS_BLOCK_KIB} KiB blocks)", "",
        *claims.cdac_sensitivity(cdac, synthetic, READINGS_BLOCK_KIB), "",
        "## The figures", "", *plc_lines(result), *cdac_lines(result),
        *memory_lines(result)]


def plc_lines(result: dict[str, Any]) -> list[str]:
    plc = result["plc"]
    head = plc["alphas"][plc["head_alpha"]]
    lines = [f"### PLC-Cache over cache size (alpha {HEADLINE_ALPHA})", "",
             "| cache | "
             + " | ".join(f"{p} writes (GiB)" for p in PLC_POLICIES)
             + " | " + " | ".join(f"{p} hit" for p in PLC_POLICIES)
             + " | PLC QA | LRU QA | LRU QB | LRU QC+QD |",
             "|---" * (2 * len(PLC_POLICIES) + 5) + "|"]
    for size, point in head["by_size"].items():
        lines.append(
            f"| {size}% | "
            + " | ".join(gib(point[q]["cache_write_bytes"])
                         for q in PLC_POLICIES)
            + " | " + " | ".join(pct(point[q]["read_hit_ratio"])
                                 for q in PLC_POLICIES)
            + f" | {pct(point['plc']['qa_share'])}"
            f" | {pct(point['lru']['qa_share'])}"
            f" | {pct(point['lru']['qb_share'])}"
            f" | {pct(point['lru']['qc_share'] + point['lru']['qd_share'])}"
            " |")
    counters = head["by_size"][str(HEADLINE_SIZE)]["plc"]
    lines += ["", f"PLC's unit misses at {HEADLINE_SIZE}%:"
              f" {counters['plc_filtered']} filtered,"
              f" {counters['plc_delayed']} delayed,"
              f" {counters['plc_inout_refused']} refused by the in-out"
              " comparison.", "",
              f"### PLC-Cache over alpha (cache {HEADLINE_SIZE}%)", "",
              "| alpha | " + " | ".join(f"{p} writes (GiB)"
                                        for p in PLC_POLICIES)
              + " | " + " | ".join(f"{p} hit" for p in PLC_POLICIES) + " |",
              "|---" * (2 * len(PLC_POLICIES) + 1) + "|"]
    for alpha, entry in plc["alphas"].items():
        point = entry["by_size"][str(HEADLINE_SIZE)]
        lines.append(
            f"| {alpha} | "
            + " | ".join(gib(point[q]["cache_write_bytes"])
                         for q in PLC_POLICIES)
            + " | " + " | ".join(pct(point[q]["read_hit_ratio"])
                                 for q in PLC_POLICIES) + " |")
    return lines


def cdac_lines(result: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for name, entry in result["cdac"]["traces"].items():
        census = entry["census"]
        lines += ["", f"### CDAC, {name}", "",
                  f"{census['read_requests']} reads and"
                  f" {census['write_requests']} writes.  Read hit ratio"
                  " (overall in brackets).", "",
                  "| block | cache | " + " | ".join(CDAC_POLICIES) + " |",
                  "|---" * (len(CDAC_POLICIES) + 2) + "|"]
        for kib, block in entry["blocks"].items():
            for size, point in block["sizes"].items():
                lines.append(
                    f"| {kib} KiB | {size}% | "
                    + " | ".join(f"{pct(point[p]['read_hit_ratio'])}"
                                 f" ({pct(point[p]['overall_hit_ratio'])})"
                                 for p in CDAC_POLICIES) + " |")
    return lines


def memory_lines(result: dict[str, Any]) -> list[str]:
    """Metadata bytes per cached block and per address, from the runs."""
    lines = ["", "### Metadata per policy", "",
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
        "# Host caches over deduplicated data: the PLC-Cache and CDAC"
        " claims\n\n"
        "Regenerated, with hostcache.json and the plots, by one command:"
        " `python3 -m bench.hostcache` (bench/hostcache.py; the claims in"
        " bench/hostcache_claims.py).  The papers are quoted from"
        " the papers' text files (docs/papers.md says where), file:line;"
        " docs/papers.md gives each mechanism's readings,"
        " tools/cachesim/README.md the simulator."
        "\n\n" + "\n".join(report_lines(result)) + "\n")
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
                    + report_lines(results[NAME])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--traces", type=Path, default=extra_traces(),
                        help="a directory of FIU *.blkparse traces to add")
    parser.add_argument("--cachesim", type=Path, default=cs.CACHESIM)
    parser.add_argument("--tracegen", type=Path, default=cs.TRACEGEN)
    args = parser.parse_args()
    result = run(args.cachesim.resolve(), args.tracegen.resolve(),
                 args.traces)
    write_results(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
