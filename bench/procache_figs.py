"""The ProCache paper's hit ratio figures from ssdsim (deterministic).

"Don't make cache too complex" (PLOS ONE 2017): Figs 3-6 (off-line
against on-line at warm-up 1/6/16/64, the effect of p, the effect of c)
and Figs 8/9 (hit ratio of the requests ProCache may admit and of all
requests, against c, p and cache size), on the paper's device
(configs/procache-tlc.conf: Table 3's 2 KiB pages, 32 chips, its SLC-mode
timings; DEVICE shrinks it to 1.25 GiB of flash).

Traces (TRACES): the repository's real block traces, each with --remap
dense (every (disk, page) it touches packed in first-touch order, disks
kept apart, nothing wraps): MQSim's TPC-C sample and the FIU homes sample
(FIU mail writes 16 pages: too few); and a synthetic trace generated here
(seeded, MQSim format) in the regime the paper argues for: a hot set of
4 KiB writes that fits the cache (SYN_HOT_SLOTS slots: 3/4 of
SYN_CACHE_PAGES) beside small cold writes spread over 256 MiB that an
admit-all LRU cache lets push it out, and large sequential cold writes.
Figs 8/9 come from these traces here, and from the replay of the VM
workload's requests in workload/replay.py (fig89_sweep();
workload/results/<scale>/): both count with ssdtools/procache_hits.py's
page_classes() and hit_ratios(), on ssdtools/procache_device.py's
preset, p and c.

Definitions (ssdsim's counters of the measured pass; `--warmup N` runs N
passes first, the paper's warmup-N):

- on-line hit ratio: cache write hit pages / host page writes;
- off-line: Belady's MIN with bypass over the same page writes and cache
  size (`ssdsim --belady`), the bound no on-line admission and replacement
  can beat (our reading of the paper's off-line analysis; its own
  definition is not stated here);
- small-request hit ratio (Fig 8): the same over the pages of requests
  smaller than c (those ProCache may admit; Algorithm 1 as nvmcache
  implements it: a request of c bytes or more bypasses on a miss).  A
  page of a request of c or more is a hit or a size bypass, so its hits
  are its pages minus `cache_bypass_size_pages`: the small requests' hits
  are the rest.  The pages of each class come from the trace, placed as
  ssdsim's --remap dense places it (write_pieces); a replay whose page
  writes differ from them is refused.

Writes bench/results/procache-figs.json, procache-figs.md and, with
matplotlib, procache-fig3-warmup.png, procache-fig5-p.png,
procache-fig6-c.png, procache-fig8-size.png.

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
from typing import Any

import ssdsim as sim
from bench.section import RESULTS, Options
from ssdtools import paths
from ssdtools.procache_device import (C_BYTES, P_PPM, PAGE_BYTES, PRESET,
                                      procache_keys as cache_keys)
from ssdtools.procache_hits import hit_ratios, page_classes, pages_of

NAME = "procache"
PROGRESS = "ssdsim: the ProCache paper's hit ratio figures ({ssdsim})"
CONFIG = paths.CONFIGS / PRESET
DEVICE = ["blocks_per_chip=160", "slc_blocks_per_chip=16"]
SECTOR = 512
PAGE = PAGE_BYTES
WARMUPS = [1, 6, 16, 64]
WARMUP = 6  # of the p, c and size sweeps
P_SWEEP = [10_000, 50_000, 100_000, 200_000, 500_000, 1_000_000]
C_SWEEP = [1024, 4096, 8192, 16384, 65536, 0]  # 0: no size rule
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
    """A trace of the figures: where it is, how it is placed, the cache
    size of the warm-up, p and c figures and the sizes of the size one."""
    name: str
    cache_pages: int
    sizes: list[int]
    flags: tuple[str, ...] = ("--remap", "dense")


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
    Without a remap, the trace's writes.  With --remap dense, what
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
           warmup: int) -> dict[str, Any]:
    out = sim.run(trace, config=CONFIG, keys=[*DEVICE, *keys],
                  flags=["--warmup", str(warmup), "--belady", *t.flags],
                  binary=ssdsim)
    if out["wrapped_requests"]:
        raise SystemExit(f"procache figs: {trace.name} wrapped")
    return out


def check_classes(ssdsim: Path, path: Path, t: Trace,
                  classes: dict[str, int]) -> None:
    """With p = 0 nothing is admitted, so every page of a request of c or
    more is a size bypass: the device's count must be ours."""
    out = replay(ssdsim, path, t, procache_keys(t.cache_pages, p_ppm=0), 0)
    if out["cache_bypass_size_pages"] != classes["large_pages"]:
        raise SystemExit(f"procache figs: {t.name}: the device bypassed"
                         f" {out['cache_bypass_size_pages']} pages for size,"
                         f" the trace has {classes['large_pages']} pages of"
                         " requests of c or more")


def procache_keys(cache_pages: int, p_ppm: int = P_PPM,
                  c_bytes: int = C_BYTES) -> list[str]:
    return [f"cache_pages={cache_pages}", *cache_keys(p_ppm, c_bytes)]


def base_keys(cache_pages: int) -> list[str]:
    return [f"cache_pages={cache_pages}", "cache_policy=always"]


def sweep_trace(ssdsim: Path, path: Path, t: Trace,
                warmups: list[int] = WARMUPS) -> dict[str, Any]:
    writes = write_pieces(path, "dense" in t.flags)
    at_c = page_classes(writes, C_BYTES)

    def run(keys: list[str], warmup: int = WARMUP,
            c_bytes: int = C_BYTES) -> dict[str, Any]:
        classes = at_c if c_bytes == C_BYTES else page_classes(writes,
                                                               c_bytes)
        return hit_ratios(replay(ssdsim, path, t, keys, warmup), classes,
                          "cache_policy=procache" in keys)

    size = t.cache_pages
    check_classes(ssdsim, path, t, at_c)
    return {
        "cache_pages": size, "sizes": t.sizes, "flags": list(t.flags),
        "device_writes": len(writes), **at_c,
        "warmup": {str(w): {"procache": run(procache_keys(size), w),
                            "base": run(base_keys(size), w)}
                   for w in warmups},
        "p": [run(procache_keys(size, p_ppm=p)) for p in P_SWEEP],
        "c": [run(procache_keys(size, c_bytes=c), c_bytes=c)
              for c in C_SWEEP],
        "size": {"procache": [run(procache_keys(n)) for n in t.sizes],
                 "base": [run(base_keys(n)) for n in t.sizes]},
    }


def trace_path(name: str, tmp: Path) -> Path:
    return tmp / "synthetic.trace" if name == SYNTHETIC \
        else paths.TRACES / name


def run(ssdsim: Path = sim.SSDSIM, quick: bool = False) -> dict[str, Any]:
    warmups = WARMUPS[:2] if quick else WARMUPS
    result: dict[str, Any] = {
        "config": CONFIG.name, "device": DEVICE, "p_ppm": P_PPM,
        "c_bytes": C_BYTES, "warmups": warmups, "sweep_warmup": WARMUP,
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


def table_lines(r: dict[str, Any]) -> list[str]:
    lines = [f"Device: {r['config']} with {' '.join(r['device'])} (2 KiB"
             " pages). ProCache p = 0.1, c = 8 KiB (the paper's), LRU;"
             f" sweeps at warmup-{r['sweep_warmup']}. hit = cache write hit"
             " pages / page writes of the measured pass; small = the same"
             " over the pages of requests smaller than c; off-line ="
             " Belady's MIN with bypass (ssdsim --belady) at the same size.",
             ""]
    for name, t in r["traces"].items():
        flags = " ".join(t["flags"]) or "no remap"
        lines += [f"### {name}", "",
                  f"{t['device_writes']} device writes per pass,"
                  f" {t['small_pages'] + t['large_pages']} page writes"
                  f" ({t['large_pages']} of requests of 8 KiB or more);"
                  f" {flags}; cache {t['cache_pages']} pages.", "",
                  "Off-line against on-line by warm-up (Figs 3-4):", "",
                  "| warm-up | off-line | ProCache hit | ProCache small"
                  " | BASE hit |", "|---|---|---|---|---|"]
        for w, row in t["warmup"].items():
            pc, base = row["procache"], row["base"]
            lines.append(f"| {w} | {pc['offline_all']:.3f}"
                         f" | {pc['hit_all']:.3f} | {pc['hit_small']:.3f}"
                         f" | {base['hit_all']:.3f} |")
        lines += ["", "Effect of p (c = 8 KiB; Fig 5, Fig 9's p axis):", "",
                  "| p | hit (all) | hit (small) | TLC programs | SLC"
                  " programs | erases |", "|---|---|---|---|---|---|"]
        for p, row in zip(r["p_sweep"], t["p"]):
            lines.append(f"| {p / 1e6:g} | {row['hit_all']:.3f}"
                         f" | {row['hit_small']:.3f} | {row['tlc_programs']}"
                         f" | {row['slc_programs']} | {row['erases']} |")
        lines += ["", "Effect of c (p = 0.1; Fig 6, Fig 8/9's c axis):", "",
                  "| c | hit (all) | hit (small: < c) | TLC programs | SLC"
                  " programs | erases |", "|---|---|---|---|---|---|"]
        for c, row in zip(r["c_sweep"], t["c"]):
            lines.append(f"| {c_label(c)} | {row['hit_all']:.3f}"
                         f" | {row['hit_small']:.3f} | {row['tlc_programs']}"
                         f" | {row['slc_programs']} | {row['erases']} |")
        lines += ["", "Cache size (Fig 8/9's size axis):", "",
                  "| cache pages | off-line | ProCache hit | ProCache small"
                  " | BASE hit |", "|---|---|---|---|---|"]
        for n, pc, base in zip(t["sizes"], t["size"]["procache"],
                               t["size"]["base"]):
            lines.append(f"| {n} | {base['offline_all']:.3f}"
                         f" | {pc['hit_all']:.3f} | {pc['hit_small']:.3f}"
                         f" | {base['hit_all']:.3f} |")
        lines.append("")
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

    def figure(fname: str, draw: Any) -> None:
        fig, axes = plt.subplots(1, len(names), figsize=(5 * len(names), 4))
        for ax, name in zip(axes, names):
            draw(ax, r["traces"][name])
            ax.set_title(name)
            ax.set_ylabel("write hit ratio")
            ax.set_ylim(0, 1.02)
            ax.legend(fontsize="small")
        fig.tight_layout()
        fig.savefig(out_dir / fname)
        plt.close(fig)
        written.append(out_dir / fname)

    def warmup(ax: Any, t: dict[str, Any]) -> None:
        ws = [int(w) for w in t["warmup"]]
        rows = list(t["warmup"].values())
        ax.plot(ws, [x["procache"]["offline_all"] for x in rows], "k--o",
                label="off-line (Belady)")
        ax.plot(ws, [x["procache"]["hit_all"] for x in rows], "-o",
                label="ProCache (on-line)")
        ax.plot(ws, [x["base"]["hit_all"] for x in rows], "-s",
                label="BASE")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("warm-up passes")

    def sweep(key: str, xs: list[float], xlabel: str) -> Any:
        def draw(ax: Any, t: dict[str, Any]) -> None:
            ax.plot(xs, [x["hit_all"] for x in t[key]], "-o",
                    label="all requests")
            ax.plot(xs, [x["hit_small"] for x in t[key]], "-s",
                    label="requests < c")
            ax.set_xlabel(xlabel)
        return draw

    def size(ax: Any, t: dict[str, Any]) -> None:
        ax.plot(t["sizes"], [x["offline_all"] for x in t["size"]["base"]],
                "k--", label="off-line")
        size_rows = t["size"]
        ax.plot(t["sizes"], [x["hit_all"] for x in size_rows["procache"]],
                "-o", label="ProCache all")
        ax.plot(t["sizes"], [x["hit_small"] for x in size_rows["procache"]],
                ":s", label="ProCache < c")
        ax.plot(t["sizes"], [x["hit_all"] for x in size_rows["base"]],
                "-^", label="BASE all")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("cache pages (2 KiB)")

    figure("procache-fig3-warmup.png", warmup)
    figure("procache-fig5-p.png", sweep("p", [p / 1e6 for p in r["p_sweep"]],
                                        "p"))
    # "none" plotted at 256 KiB.
    figure("procache-fig6-c.png", sweep(
        "c", [c / 1024 if c else 256 for c in r["c_sweep"]],
        "c (KiB; 256 = none)"))
    figure("procache-fig8-size.png", size)
    return written


def write_results(r: dict[str, Any], out_dir: Path = RESULTS) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "procache-figs.json").write_text(json.dumps(r, indent=2)
                                                + "\n")
    (out_dir / "procache-figs.md").write_text(
        "# The ProCache paper's hit ratio figures (bench/procache_figs.py)"
        "\n\nCommand: `python3 -m bench.procache_figs` (or `python3 -m"
        " bench.run --only procache`). The paper's values for these figures"
        " are not stated here (not in the repository); the claims and how"
        " ours compare: `procache-claims.md`.\n\n"
        + "\n".join(table_lines(r)) + "\n")
    for path in plot(r, out_dir):
        print(f"wrote {path.relative_to(paths.ROOT)}")


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    result = run(opts.ssdsim.resolve())
    write_results(result)
    return result


def show(results: dict[str, Any]) -> None:
    print("\n".join(["", "The ProCache paper's hit ratio figures (ssdsim)"]
                    + table_lines(results[NAME])))


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
