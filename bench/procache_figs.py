"""The ProCache paper's trace-driven figures (its section 4) from ssdsim.

"Don't make cache too complex" (PLOS ONE 2017), figures numbered as the
paper numbers them, at the paper's parameters
(procache-plos-one-2017.txt:285, :315, :317, :344):

- Fig 3: off-line against on-line (ProCache), p = 0.5, c = 64 KB, by
  warm-up and cache size;
- Fig 4: the effect of p, c = 64 KB, by cache size;
- Fig 5: the effect of c, p = 0.5, by cache size, and the best c of each
  size;
- Fig 6: the effect of warm-up, p = 0.5, c = 64 KB (the on-line cells of
  Fig 3's grid).

Figs 8-11 (c, p and cache size at warmup-6; elapsed time, writes and
erases against the baselines) are measured on the VM workload's requests:
claims/procache.py, which also writes the claims report
(bench/results/procache-claims.md) from these figures and its own.

On the paper's device (configs/procache-tlc.conf: Table 3's 2 KiB pages,
32 chips, its SLC-mode timings; DEVICE shrinks it to 1.25 GiB of flash).
Traces (TRACES): the repository's real block traces, each with --remap
dense --remap-unit page (every (disk, page) it touches packed in
first-touch order, disks kept apart, nothing wraps; the page unit, not
the erase block --remap dense packs by default, because the device is
page-mapped, the figures stay those published before and write_pieces
mirrors page units): MQSim's TPC-C sample and the FIU homes sample
(FIU mail writes 16 pages: too few); and a synthetic trace generated here
(seeded, MQSim format): a hot set of 4 KiB writes that fits the cache
(SYN_HOT_SLOTS slots: 3/4 of SYN_CACHE_PAGES) beside small cold writes
spread over 256 MiB that an admit-all LRU cache lets push it out, and
large sequential cold writes.  The paper's traces (traceS, traceL: a
desktop's Windows PerfMon traces, Table 2) are not available.

Definitions (ssdsim's counters of the measured pass; `--warmup N` runs N
passes first, the paper's warmup-N: "N warm-up runs before we perform the
final measurement run", :342):

- on-line hit ratio: cache write hit pages / host page writes (the
  paper's write hit ratio, :247-248);
- off-line: Belady's MIN with bypass over the same requests, cache size
  and warm-up (`ssdsim --belady`, tools/ssdsim/belady.c; the paper's
  off-line algorithm, :183-186): a page's next use is its next read or
  write, a read hit relabels it and a read miss leaves the cache as it
  is (Table 1, :207-213; docs/papers.md P16).  Fig 3 also gives, as
  sensitivity, the bound with the next write as the next use
  (`--belady-next-use write`, the rule before issue 32);
- small-request hit ratio: the same over the pages of the requests
  Algorithm 1 may admit (no larger than c by default, smaller than c with
  procache_c_inclusive=0: both readings of its lost comparison symbol are
  run).  A page of a larger request is a hit or a size bypass (under both
  readings of Algorithm 1's hit: a request hits whole by default, each of
  its cached pages with procache_hit_per_page=1, which is run too), so its hits
  are its pages minus `cache_bypass_size_pages`: the small requests' hits
  are the rest.  The pages of each class come from the trace, placed as
  ssdsim's --remap dense --remap-unit page places it (write_pieces); a
  replay whose page writes differ from them is refused.

Warm-up of Figs 4 and 5: the paper does not state it; ours is WARMUP (6,
the warm-up the paper states for Figs 8 and 9), and SENSITIVITY_WARMUP (1)
is run too.  The warm-ups of Figs 3 and 6: the paper names 16 and 64
(:297, :350) and four values (:342); 1 and 6 are ours.

Writes bench/results/procache-figs.json, procache-figs.md and, with
matplotlib, procache-fig3-offline.png, procache-fig4-p.png,
procache-fig5-c.png and procache-fig6-warmup.png.

Standalone: python3 -m bench.procache_figs [--ssdsim PATH] [--quick]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import ssdsim as sim
from bench.section import RESULTS, Options
from ssdtools import paths
from ssdtools.procache_device import (C_BYTES, PAGE_BYTES, PRESET,
                                      procache_keys as cache_keys)
from ssdtools.procache_hits import hit_ratios, page_classes, pages_of

NAME = "procache"
PROGRESS = "ssdsim: the ProCache paper's trace-driven figures ({ssdsim})"
CONFIG = paths.CONFIGS / PRESET
DEVICE = ["blocks_per_chip=160", "slc_blocks_per_chip=16"]
SECTOR = 512
PAGE = PAGE_BYTES
# Section 4 (Figs 3-6): p = 0.5, c = 64 KB.
FIG_P_PPM = 500_000
FIG_C_BYTES = 65536
# Section 5 (the comparison, Figs 10 and 11): p = 0.1, c = 8 KB
# (P_PPM, C_BYTES: ssdtools/procache_device.py).
WARMUPS = [1, 6, 16, 64]  # Figs 3 and 6
WARMUP = 6  # Figs 4 and 5: not stated in the paper (Figs 8/9's)
SENSITIVITY_WARMUP = 1
P_SWEEP = [10_000, 50_000, 100_000, 200_000, 500_000, 1_000_000]
C_SWEEP = [1024, 4096, 8192, 16384, 32768, 65536, 0]  # 0: no size rule
# Algorithm 1's lost symbol: "inclusive" = size <= c may enter (Fig 8's
# reading, the default), "exclusive" = size >= c bypasses.
READINGS = {"inclusive": True, "exclusive": False}
# Algorithm 1's "requested block": the whole request by default; the
# "per_page" reading (procache_hit_per_page=1) with size <= c may enter.
PER_PAGE = ("procache_hit_per_page=1",)
SYNTHETIC = "synthetic-hot-cold-fit"

# The synthetic trace (see the top): requests are 4 KiB slots (2 pages).
SYN_REQUESTS = 10_000
SYN_CACHE_PAGES = 512
SYN_HOT_SLOTS = 192  # 384 pages: 3/4 of the cache
SYN_HOT_SHARE = 0.55
SYN_COLD_SHARE = 0.35  # 4 KiB writes uniform over SYN_COLD_SLOTS
SYN_COLD_SLOTS = 65_536  # 256 MiB
SYN_SEQ_KIB = [32, 64, 128]  # the rest: sequential writes of these sizes
SYN_SEED = 1


@dataclass(frozen=True)
class Trace:
    """A trace of the figures: where it is, how it is placed, its middle
    cache size (of the tables' single-size rows) and the sizes swept."""
    name: str
    cache_pages: int
    sizes: list[int]
    flags: tuple[str, ...] = ("--remap", "dense", "--remap-unit", "page")


TRACES = [
    Trace(SYNTHETIC, SYN_CACHE_PAGES, [128, 256, 512, 1024, 2048], ()),
    Trace("mqsim-tpcc-small.trace", 256, [64, 128, 256, 512, 1024, 2048]),
    Trace("fiu-homes-sample.blkparse", 64, [16, 32, 64, 128, 256]),
]


def synthetic_trace(path: Path, requests: int = SYN_REQUESTS) -> None:
    """The hot/cold trace (see the top), MQSim format, one request every
    100 us."""
    rng = random.Random(SYN_SEED)
    slot_sectors = 4096 // SECTOR
    hot = rng.sample(range(1024), SYN_HOT_SLOTS)  # the first 4 MiB
    cold_base, seq_base = 1024, 1024 + SYN_COLD_SLOTS
    seq_end = seq_base + 32_768  # 128 MiB of sequential stream
    seq_next = seq_base
    lines = []
    for i in range(requests):
        roll = rng.random()
        if roll < SYN_HOT_SHARE:
            slot, slots = rng.choice(hot), 1
        elif roll < SYN_HOT_SHARE + SYN_COLD_SHARE:
            slot, slots = cold_base + rng.randrange(SYN_COLD_SLOTS), 1
        else:
            slots = rng.choice(SYN_SEQ_KIB) // 4
            if seq_next + slots > seq_end:
                seq_next = seq_base
            slot, seq_next = seq_next, seq_next + slots
        lines.append(f"{i * 100_000} 0 {slot * slot_sectors}"
                     f" {slots * slot_sectors} 0")
    path.write_text("\n".join(lines) + "\n")


def requests(path: Path) -> list[tuple[str, Any, int, int]]:
    """(op R/W, disk, offset bytes, length bytes) of the trace's reads and
    writes, in order (MQSim: type 0 is a write, 1 a read; FIU/blkparse:
    R or W)."""
    out = []
    for line in path.read_text().splitlines():
        f = line.split()
        if len(f) == 5:  # MQSim: arrival device lba size type
            op, disk, lba, size = "RW"[f[4] == "0"], f[1], f[2], f[3]
        elif len(f) >= 8 and f[5] in "RW":  # FIU: time pid proc lba size
            op, disk, lba, size = f[5], (f[6], f[7]), f[3], f[4]
        else:
            raise SystemExit(f"procache figs: {path.name}: cannot read"
                             f" {line[:60]!r}")
        out.append((op, disk, int(lba) * SECTOR, int(size) * SECTOR))
    return out


def write_pieces(path: Path, remap: bool) -> list[tuple[int, int]]:
    """(bytes ProCache sees, device pages) of each write the device gets.
    Without a remap, the trace's writes.  With --remap dense
    --remap-unit page (the flags of every remapped trace here), what
    ssdsim's placement (tools/ssdsim/sim_place.c) makes of them: each (disk,
    page) the trace touches (reads too) gets the next device page when
    first touched, and a write becomes one device write per run of
    consecutive device pages, which programs the whole pages and whose
    size, for ProCache, is the trace's bytes inside them."""
    pieces = []
    units: dict[tuple[Any, int], int] = {}
    for op, disk, offset, length in requests(path):
        if not remap:
            if op == "W":
                pieces.append((length, pages_of(offset, length)))
            continue
        first, end = offset // PAGE, (offset + length + PAGE - 1) // PAGE
        runs: list[list[int]] = []
        for unit in range(first, end):
            to = units.setdefault((disk, unit), len(units))
            if runs and to == units[(disk, unit - 1)] + 1:
                runs[-1].append(unit)
            else:
                runs.append([unit])
        if op == "W":
            for run in runs:
                low = max(offset, run[0] * PAGE)
                high = min(offset + length, (run[-1] + 1) * PAGE)
                pieces.append((high - low, len(run)))
    return pieces


def replay(ssdsim: Path, trace: Path, t: Trace, keys: list[str],
           warmup: int, next_use: str | None = None) -> dict[str, Any]:
    out = sim.run(trace, config=CONFIG, keys=[*DEVICE, *keys],
                  flags=["--warmup", str(warmup), *t.flags], belady=True,
                  belady_next_use=next_use, binary=ssdsim)
    if out["wrapped_requests"]:
        raise SystemExit(f"procache figs: {trace.name} wrapped")
    return out


def check_classes(ssdsim: Path, path: Path, t: Trace,
                  pieces: list[tuple[int, int]]) -> None:
    """With p = 0 nothing is admitted, so every page of a request
    Algorithm 1 calls too large is a size bypass: under both readings the
    device's count must be ours."""
    for c in (C_BYTES, FIG_C_BYTES):
        for inclusive in READINGS.values():
            classes = page_classes(pieces, c, inclusive)
            out = replay(ssdsim, path, t, procache_keys(
                t.cache_pages, p_ppm=0, c_bytes=c, inclusive=inclusive), 0)
            if out["cache_bypass_size_pages"] != classes["large_pages"]:
                raise SystemExit(
                    f"procache figs: {t.name}: the device bypassed"
                    f" {out['cache_bypass_size_pages']} pages for size at c ="
                    f" {c}, the trace has {classes['large_pages']}")


def procache_keys(cache_pages: int, p_ppm: int = FIG_P_PPM,
                  c_bytes: int = FIG_C_BYTES,
                  inclusive: bool = True,
                  extra: tuple[str, ...] = ()) -> list[str]:
    return [f"cache_pages={cache_pages}", *cache_keys(p_ppm, c_bytes),
            f"procache_c_inclusive={int(inclusive)}", *extra]


def base_keys(cache_pages: int) -> list[str]:
    return [f"cache_pages={cache_pages}", "cache_policy=always"]


Runner = Callable[..., dict[str, Any]]


def grids(run: Runner, t: Trace, warmups: list[int], inclusive: bool,
          sweep_warmups: list[int],
          extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """Figs 3-6 under one reading of Algorithm 1's symbol (and @extra
    keys: another reading of its hit): Fig 3's (and Fig 6's) warm-up x
    size grid, Figs 4 and 5 (p, c) x size at each of @sweep_warmups."""
    def pro(n: int, w: int, p: int = FIG_P_PPM,
            c: int = FIG_C_BYTES) -> dict[str, Any]:
        return run(procache_keys(n, p, c, inclusive, extra), w, c,
                   inclusive)

    return {
        "fig3": {str(w): [pro(n, w) for n in t.sizes] for w in warmups},
        "fig4": {str(w): {str(p): [pro(n, w, p=p) for n in t.sizes]
                          for p in P_SWEEP} for w in sweep_warmups},
        "fig5": {str(w): {str(c): [pro(n, w, c=c) for n in t.sizes]
                          for c in C_SWEEP} for w in sweep_warmups},
    }


def sweep_trace(ssdsim: Path, path: Path, t: Trace,
                warmups: list[int] = WARMUPS,
                sweep_warmups: tuple[int, ...] = (WARMUP,
                                                  SENSITIVITY_WARMUP)
                ) -> dict[str, Any]:
    pieces = write_pieces(path, "dense" in t.flags)

    def run(keys: list[str], warmup: int, c_bytes: int,
            inclusive: bool) -> dict[str, Any]:
        return hit_ratios(replay(ssdsim, path, t, keys, warmup),
                          page_classes(pieces, c_bytes, inclusive),
                          "cache_policy=procache" in keys)

    check_classes(ssdsim, path, t, pieces)
    classes = {name: page_classes(pieces, FIG_C_BYTES, inclusive)
               for name, inclusive in READINGS.items()}
    return {
        "cache_pages": t.cache_pages, "sizes": t.sizes,
        "flags": list(t.flags), "device_writes": len(pieces),
        "classes": classes,
        "base": [run(base_keys(n), WARMUP, 0, True) for n in t.sizes],
        # Fig 3's bound with the next write as the next use (sensitivity).
        "offline_next_write": {
            str(w): [replay(ssdsim, path, t, base_keys(n), w, "write")
                     ["belady"]["write_hit_ratio"] for n in t.sizes]
            for w in warmups},
        "inclusive": grids(run, t, warmups, True, list(sweep_warmups)),
        "exclusive": grids(run, t, warmups, False, [WARMUP]),
        "per_page": grids(run, t, warmups, True, [WARMUP], PER_PAGE),
    }


def trace_path(name: str, tmp: Path) -> Path:
    return tmp / "synthetic.trace" if name == SYNTHETIC \
        else paths.TRACES / name


def run(ssdsim: Path = sim.SSDSIM, quick: bool = False) -> dict[str, Any]:
    warmups = WARMUPS[:2] if quick else WARMUPS
    result: dict[str, Any] = {
        "config": CONFIG.name, "device": DEVICE, "p_ppm": FIG_P_PPM,
        "c_bytes": FIG_C_BYTES, "warmups": warmups, "sweep_warmup": WARMUP,
        "sensitivity_warmup": SENSITIVITY_WARMUP,
        "p_sweep": P_SWEEP, "c_sweep": C_SWEEP, "traces": {}}
    with tempfile.TemporaryDirectory(prefix="ssdemu-procache-") as name:
        tmp = Path(name)
        synthetic_trace(tmp / "synthetic.trace",
                        SYN_REQUESTS // 5 if quick else SYN_REQUESTS)
        for t in TRACES:
            print(f"procache figs: {t.name}...", flush=True)
            result["traces"][t.name] = sweep_trace(
                ssdsim, trace_path(t.name, tmp), t, warmups)
    return result


def c_label(c: int) -> str:
    return f"{c // 1024} KiB" if c else "none"


def best_cs(fig5: dict[str, list[dict[str, Any]]], i: int) -> list[int]:
    """The c values (0: none) whose write hit ratio at size index @i is
    the highest (to 0.0005: ties, where c does not separate the trace's
    requests), smallest first, none last."""
    top = max(row[i]["hit_all"] for row in fig5.values())
    return sorted((int(c) for c, row in fig5.items()
                   if row[i]["hit_all"] >= top - 0.0005),
                  key=lambda c: c or 1 << 62)


def cs_label(cs: list[int]) -> str:
    """"8 KiB", or a tie: "4 KiB-none" (the smallest to the largest)."""
    if len(cs) == 1:
        return c_label(cs[0])
    return f"{c_label(cs[0])}-{c_label(cs[-1])} (tie)"


Column = tuple[str, Callable[[int], str]]


def size_table(t: dict[str, Any], columns: list[Column]) -> list[str]:
    """A table with a row per cache size and a cell per (label, cell of
    size index) column."""
    lines = ["| cache pages | " + " | ".join(c[0] for c in columns) + " |",
             "|---" * (len(columns) + 1) + "|"]
    for i, n in enumerate(t["sizes"]):
        lines.append(f"| {n} | " + " | ".join(c[1](i) for c in columns)
                     + " |")
    return lines


def hit_column(label: str, rows: list[dict[str, Any]],
               key: str = "hit_all") -> Column:
    return label, lambda i: f"{rows[i][key]:.3f}"


def trace_tables(r: dict[str, Any], name: str,
                 t: dict[str, Any]) -> list[str]:
    flags = " ".join(t["flags"]) or "no remap"
    inc, exc = t["inclusive"], t["exclusive"]
    cls = t["classes"]["inclusive"]
    w = str(r["sweep_warmup"])
    lines = [f"### {name}", "",
             f"{t['device_writes']} device writes per pass,"
             f" {cls['small_pages'] + cls['large_pages']} page writes"
             f" ({cls['large_pages']} of requests larger than 64 KiB,"
             f" {t['classes']['exclusive']['large_pages']} of 64 KiB or"
             f" more); {flags}.", "",
             "Fig 3: off-line / on-line (ProCache) write hit ratio by"
             " warm-up:", ""]

    def both(rows: list[dict[str, Any]]) -> Callable[[int], str]:
        return lambda i: (f"{rows[i]['offline_all']:.3f} /"
                          f" {rows[i]['hit_all']:.3f}")

    lines += size_table(t, [(f"warmup-{k}", both(v))
                            for k, v in inc["fig3"].items()])
    lines += ["", "Fig 3's off-line with a page's next write as its next"
              " use (`--belady-next-use write`, the rule before issue 32;"
              " sensitivity):", ""]
    lines += size_table(t, [(f"warmup-{k}", lambda i, v=v: f"{v[i]:.3f}")
                            for k, v in t["offline_next_write"].items()])
    lines += ["", "Fig 6: on-line write hit ratio by warm-up; the same with"
              " size >= c bypassing (`procache_c_inclusive=0`); BASE (admits"
              f" every write) at warmup-{w}:", ""]
    lines += size_table(t, [hit_column(f"warmup-{k}", v)
                            for k, v in inc["fig3"].items()]
                        + [hit_column(f"size >= c bypasses, warmup-{k}", v)
                           for k, v in exc["fig3"].items()]
                        + [hit_column("BASE", t["base"])])
    for k, by_p in inc["fig4"].items():
        lines += ["", f"Fig 4: write hit ratio by p (c = 64 KiB),"
                  f" warmup-{k}:", ""]
        lines += size_table(t, [hit_column(f"p={int(p) / 1e6:g}", v)
                                for p, v in by_p.items()])
    for k, by_c in inc["fig5"].items():
        lines += ["", f"Fig 5: write hit ratio by c (p = 0.5), warmup-{k},"
                  " and the best c of each size:", ""]
        lines += size_table(t, [hit_column(c_label(int(c)), v)
                                for c, v in by_c.items()]
                            + [("best c", lambda i, by_c=by_c:
                                cs_label(best_cs(by_c, i)))])
    lines += ["", "Size >= c bypasses (`procache_c_inclusive=0`), warmup-"
              f"{w}: Fig 4's p = 0.1 and p = 1, and Fig 5's best c:", ""]
    lines += size_table(t, [hit_column("p=0.1", exc["fig4"][w]["100000"]),
                            hit_column("p=1", exc["fig4"][w]["1000000"]),
                            ("best c", lambda i: cs_label(
                                best_cs(exc["fig5"][w], i)))])
    per = t["per_page"]
    lines += ["", "Hits per page (`procache_hit_per_page=1`: a request's"
              f" cached pages hit alone), warmup-{w}: Fig 3's on-line ratio"
              f" at warmup-{w}, Fig 4's p = 0.1 and p = 1, and Fig 5's best"
              " c:", ""]
    lines += size_table(t, [hit_column("Fig 3", per["fig3"][w]),
                            hit_column("p=0.1", per["fig4"][w]["100000"]),
                            hit_column("p=1", per["fig4"][w]["1000000"]),
                            ("best c", lambda i: cs_label(
                                best_cs(per["fig5"][w], i)))])
    return lines + [""]


def table_lines(r: dict[str, Any]) -> list[str]:
    lines = [f"Device: {r['config']} with {' '.join(r['device'])} (2 KiB"
             " pages). ProCache with LRU replacement, p = 0.5 and c = 64"
             " KiB (the paper's section 4) unless a table varies them;"
             " Algorithm 1 read as size <= c may enter (the default,"
             " `procache_c_inclusive=1`) and a request hitting only when"
             " all its pages are cached (the default,"
             " `procache_hit_per_page=0`) unless a table says otherwise."
             " hit = cache write hit pages / page writes of the measured"
             " pass; off-line = Belady's MIN with bypass (ssdsim --belady)"
             " at the same size and warm-up, a page's next use its next"
             " read or write (the paper's Table 1).", ""]
    for name, t in r["traces"].items():
        lines += trace_tables(r, name, t)
    return lines


def plot(r: dict[str, Any], out_dir: Path) -> list[Path]:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    names = list(r["traces"])
    written = []
    w = str(r["sweep_warmup"])

    def figure(fname: str, draw: Callable[[Any, dict[str, Any]], None]
               ) -> None:
        fig, axes = plt.subplots(1, len(names), figsize=(5 * len(names), 4))
        for ax, name in zip(axes, names):
            t = r["traces"][name]
            draw(ax, t)
            ax.set_title(name)
            ax.set_ylabel("write hit ratio")
            ax.set_ylim(0, 1.02)
            ax.set_xscale("log", base=2)
            ax.set_xlabel("cache pages (2 KiB)")
            ax.legend(fontsize="small")
        fig.tight_layout()
        fig.savefig(out_dir / fname)
        plt.close(fig)
        written.append(out_dir / fname)

    def fig3(ax: Any, t: dict[str, Any]) -> None:
        for warm, rows in t["inclusive"]["fig3"].items():
            line, = ax.plot(t["sizes"], [x["hit_all"] for x in rows], "-o",
                            label=f"on-line, warmup-{warm}")
            ax.plot(t["sizes"], [x["offline_all"] for x in rows], "--",
                    color=line.get_color(), label=f"off-line, warmup-{warm}")

    def fig4(ax: Any, t: dict[str, Any]) -> None:
        for p, rows in t["inclusive"]["fig4"][w].items():
            ax.plot(t["sizes"], [x["hit_all"] for x in rows], "-o",
                    label=f"p = {int(p) / 1e6:g}")

    def fig5(ax: Any, t: dict[str, Any]) -> None:
        for c, rows in t["inclusive"]["fig5"][w].items():
            ax.plot(t["sizes"], [x["hit_all"] for x in rows], "-o",
                    label=f"c = {c_label(int(c))}")

    def fig6(ax: Any, t: dict[str, Any]) -> None:
        for warm, rows in t["inclusive"]["fig3"].items():
            ax.plot(t["sizes"], [x["hit_all"] for x in rows], "-o",
                    label=f"warmup-{warm}")
        ax.plot(t["sizes"], [x["hit_all"] for x in t["base"]], "k:s",
                label=f"BASE, warmup-{w}")

    figure("procache-fig3-offline.png", fig3)
    figure("procache-fig4-p.png", fig4)
    figure("procache-fig5-c.png", fig5)
    figure("procache-fig6-warmup.png", fig6)
    return written


def write_results(r: dict[str, Any], out_dir: Path = RESULTS) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "procache-figs.json").write_text(json.dumps(r, indent=2)
                                                + "\n")
    (out_dir / "procache-figs.md").write_text(
        "# The ProCache paper's trace-driven figures (bench/procache_figs"
        ".py)\n\nCommand: `python3 -m bench.procache_figs` (or `python3 -m"
        " bench.run --only procache`); `python3 -m claims.procache`"
        " runs it too and puts these figures against the paper's claims:"
        " `procache-claims.md`. Figures numbered as the paper numbers"
        " them.\n\n" + "\n".join(table_lines(r)) + "\n")
    for path in plot(r, out_dir):
        print(f"wrote {path.relative_to(paths.ROOT)}")


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    result = run(opts.ssdsim.resolve())
    write_results(result)
    return result


def show(results: dict[str, Any]) -> None:
    print("\n".join(["", "The ProCache paper's trace-driven figures"
                     " (ssdsim)"] + table_lines(results[NAME])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ssdsim", type=Path, default=sim.SSDSIM)
    parser.add_argument("--quick", action="store_true",
                        help="a fifth of the synthetic trace, warm-ups 1"
                        " and 6 only; results not written")
    args = parser.parse_args()
    result = run(args.ssdsim.resolve(), quick=args.quick)
    show({NAME: result})
    if not args.quick:
        write_results(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
