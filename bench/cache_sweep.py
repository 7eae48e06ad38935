"""SLC write cache policies in ssdsim (deterministic), like the ProCache
paper's Figs 3-5.

Replays the repository's traces (tests/data) through build/bin/ssdsim on
a small device (BENCH_DEVICE: 4 chips, 40 blocks of 64 pages each, the
first 8 blocks of each chip in SLC mode: about 27 MiB logical) with
WARMUP warm-up passes (the paper's warmup-N: statistics of the last pass
only) and reports, per trace:

- the policy table at CACHE_PAGES: write hit ratio (the paper's metric:
  write hits / page writes), the off-line bound (Belady with bypass,
  ssdsim --belady: a page's next use its next read or write, the
  paper's Table 1) beside it, TLC programs (all causes: bypasses,
  destages, TLC GC), SLC programs, TLC and SLC erases, destaged pages and
  the admission policy's metadata bytes, with TLC programs and erases
  relative to BASE (always);
- hit ratio against cache size for every policy and the bound (Fig 3);
- ProCache's hit ratio and TLC programs against p at c = 16 KiB (Fig 4);
- ProCache's hit ratio and TLC programs against c at p = 0.1 (Fig 5).

No request may wrap around the device (a replay that wraps is an
error): wrapping folds pages far apart onto one and turns the trace's
rewrites, hits and GC into the wrap's.  TPC-C (216.7 GiB of addresses on
16 disks) is replayed with --remap dense --remap-unit page, which packs
the 20470 (disk, page)s it touches in first-touch order (page units: the
device is page-mapped, and in erase-block units, --remap dense's default,
they would take 1.7 GiB), on the bench device grown to
TRACE_DEVICE's blocks_per_chip=103, the fewest that hold them.  (Until
the sweep refused wrapping, every TPC-C request wrapped onto the 27 MiB
device: a 1.7% rewrite fraction became 41%, and the Belady bound at 128
pages read 0.184.)

synthetic-hot-cold is generated here (seeded, MQSim format): the mix the
paper argues about - 4 KiB writes to a hot set of SYN_HOT_PAGES pages,
Zipf-distributed (s = SYN_ZIPF), and, for SYN_SEQ_SHARE of the requests,
64-256 KiB sequential writes moving through the rest of the space (cold
data written once per pass).

Writes bench/results/cache-sweep.json, cache-sweep.md and, with matplotlib,
cache-size.png, cache-p.png and cache-c.png.

Standalone: python3 -m bench.cache_sweep [--ssdsim PATH]
"""
from __future__ import annotations

import argparse
import bisect
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.section import RESULTS, Options, write_json
from ssdtools import paths
import ssdsim as sim

NAME = "cache"
PROGRESS = "ssdsim: write cache policies ({ssdsim})"
SSDSIM = sim.SSDSIM
CONFIG = paths.CONFIGS / "small-test.conf"
# The repository's traces with page rewrites to cache (fiu-mail-sample
# writes 16 pages: too few to say anything), and one synthetic mix.
TRACES = ["mqsim-tpcc-small.trace", "fiu-homes-sample.blkparse",
          "synthetic-hot-cold"]
SYNTHETIC = "synthetic-hot-cold"
SYN_REQUESTS = 20_000
SYN_HOT_PAGES = 2048
SYN_ZIPF = 1.0
SYN_SEQ_SHARE = 0.25
SYN_SEED = 1
BENCH_DEVICE = ["chips=4", "channels=2", "pages_per_block=64",
                "blocks_per_chip=40", "slc_blocks_per_chip=8",
                "op_percent=15", "timing=1"]
# Per trace: keys added to BENCH_DEVICE, and ssdsim flags (see the top).
TRACE_DEVICE: dict[str, list[str]] = {
    "mqsim-tpcc-small.trace": ["blocks_per_chip=103"]}
TRACE_FLAGS: dict[str, list[str]] = {
    "mqsim-tpcc-small.trace": ["--remap", "dense", "--remap-unit", "page"]}
WARMUP = 2
CACHE_PAGES = 128
SIZES = [16, 32, 64, 128, 256, 384]
P_PPM = [10_000, 50_000, 100_000, 200_000, 500_000, 1_000_000]
C_BYTES = [4096, 8192, 16384, 65536, 0]
# name -> keys: the paper's three, later ones, and no cache at all.
POLICIES: dict[str, list[str]] = {
    "none": ["cache_policy=none"],
    "always": ["cache_policy=always"],
    "procache": ["cache_policy=procache", "procache_p_ppm=100000",
                 "procache_c_bytes=16384"],
    "refcnt": ["cache_policy=refcnt"],
    "larc": ["cache_policy=larc"],
    "tinylfu": ["cache_policy=tinylfu"],
    # PLC-Cache on its CLOCK ring (GCLOCK), the paper's thresholds.
    "plc": ["cache_policy=plc", "cache_replacement=gclock"],
}
KEEP = ["host_write_pages", "cache_write_hit_pages", "cache_admit_pages",
        "cache_bypass_size_pages", "cache_bypass_dice_pages",
        "cache_bypass_policy_pages", "cache_evict_pages",
        "flash_program_tlc_pages", "flash_program_slc_pages",
        "flash_erase_tlc_blocks", "flash_erase_slc_blocks",
        "flash_program_destage_pages", "cache_policy_metadata_bytes",
        "cache_metadata_bytes", "virtual_time_ns", "waf",
        "cache_write_hit_ratio"]


def synthetic_trace(path: Path) -> None:
    """The hot/cold mix (see the module's help), MQSim format."""
    rng = random.Random(SYN_SEED)
    weights = [1.0 / (rank + 1) ** SYN_ZIPF for rank in range(SYN_HOT_PAGES)]
    cumulative = []
    total = 0.0
    for w in weights:
        total += w
        cumulative.append(total)
    # Hot pages scattered over the first 4096 pages, cold streams over
    # the rest of the bench device's ~6900.
    hot = rng.sample(range(4096), SYN_HOT_PAGES)
    cold_next, cold_start, cold_end = 4096, 4096, 6784
    lines = []
    for i in range(SYN_REQUESTS):
        if rng.random() < SYN_SEQ_SHARE:
            pages = rng.choice([16, 32, 64])
            if cold_next + pages > cold_end:
                cold_next = cold_start
            lpn, cold_next = cold_next, cold_next + pages
        else:
            rank = bisect.bisect_left(cumulative, rng.random() * total)
            lpn, pages = hot[rank], 1
        lines.append(f"{i * 200_000} 0 {lpn * 8} {pages * 8} 0")
    path.write_text("\n".join(lines) + "\n")


def trace_path(trace: str) -> Path:
    if trace == SYNTHETIC:
        return Path(tempfile.gettempdir()) / "ssdemu-cache-synthetic.trace"
    return paths.TRACES / trace


def replay(ssdsim: Path, trace: str, keys: list[str]) -> dict[str, Any]:
    """One ssdsim replay with the off-line bound; the figures kept."""
    out = sim.run(trace_path(trace), config=CONFIG,
                  keys=[*BENCH_DEVICE, *TRACE_DEVICE.get(trace, []), *keys],
                  flags=["--warmup", str(WARMUP), "--belady",
                         *TRACE_FLAGS.get(trace, [])], binary=ssdsim)
    if out["wrapped_requests"]:
        raise SystemExit(f"cache sweep: {out['wrapped_requests']} requests "
                         f"of {trace} wrapped around the device with "
                         f"{' '.join(keys)}: give it a larger device or a "
                         "remap (TRACE_DEVICE, TRACE_FLAGS)")
    row = {k: out[k] for k in KEEP}
    row["belady_write_hit_ratio"] = out["belady"]["write_hit_ratio"]
    return row


def sweep_trace(ssdsim: Path, trace: str) -> dict[str, Any]:
    size = f"cache_pages={CACHE_PAGES}"
    table = {name: replay(ssdsim, trace, [size, *keys])
             for name, keys in POLICIES.items()}
    by_size = {name: [replay(ssdsim, trace, [f"cache_pages={n}", *keys])
                      ["cache_write_hit_ratio"] for n in SIZES]
               for name, keys in POLICIES.items() if name != "none"}
    by_size["belady"] = [replay(ssdsim, trace, [f"cache_pages={n}",
                                                "cache_policy=always"])
                         ["belady_write_hit_ratio"] for n in SIZES]
    by_p = [replay(ssdsim, trace, [size, "cache_policy=procache",
                                   "procache_c_bytes=16384",
                                   f"procache_p_ppm={p}"]) for p in P_PPM]
    by_c = [replay(ssdsim, trace, [size, "cache_policy=procache",
                                   f"procache_c_bytes={c}"])
            for c in C_BYTES]
    keep = ("cache_write_hit_ratio", "flash_program_tlc_pages",
            "flash_erase_tlc_blocks", "flash_erase_slc_blocks")
    return {"table": table, "by_size": by_size,
            "by_p": [{k: r[k] for k in keep} for r in by_p],
            "by_c": [{k: r[k] for k in keep} for r in by_c]}


def run(ssdsim: Path = SSDSIM) -> dict[str, Any]:
    result: dict[str, Any] = {
        "device": BENCH_DEVICE, "trace_device": TRACE_DEVICE,
        "trace_flags": TRACE_FLAGS, "warmup": WARMUP,
        "cache_pages": CACHE_PAGES, "sizes": SIZES, "p_ppm": P_PPM,
        "c_bytes": C_BYTES, "traces": {}}
    synthetic_trace(trace_path(SYNTHETIC))
    for trace in TRACES:
        print(f"cache sweep: {trace}...", flush=True)
        result["traces"][trace] = sweep_trace(ssdsim, trace)
    return result


def rel(value: float, base: float) -> str:
    return f"{100.0 * (value - base) / base:+.1f}%" if base else "n/a"


# What a reader must know about a trace's placement, after its flags.
TRACE_NOTES = {
    "mqsim-tpcc-small.trace":
        ": the trace's 16 disks span 216.7 GiB; the dense remap packs the"
        " 20470 (disk, page)s it touches (80 MiB) in first-touch order, and"
        " 103 blocks per chip are the fewest that hold them. Before, every"
        " request wrapped onto the 27 MiB device: the share of page writes"
        " that rewrite a page, 1.5% (1.7% with the disks merged), became"
        " 41%, and these rows were the wrap's (the Belady bound at 128"
        " pages read 0.184, the online policies 0.018-0.064)."}


def table_lines(result: dict[str, Any]) -> list[str]:
    lines = [f"Device: small-test.conf with {' '.join(BENCH_DEVICE)};"
             f" warmup-{result['warmup']}, cache {result['cache_pages']}"
             " pages (LRU), ProCache p=0.1 and c=16 KiB (the p sweep at"
             " that c, the c sweep at that p). No request wraps around the"
             " device (the sweep refuses a replay that does).", ""]
    for trace, t in result["traces"].items():
        base = t["table"]["always"]
        lines += [f"### {trace}", ""]
        placed = [*result.get("trace_device", {}).get(trace, []),
                  *result.get("trace_flags", {}).get(trace, [])]
        if placed:
            lines += [f"Replayed with {' '.join(placed)}"
                      f"{TRACE_NOTES.get(trace, '')}", ""]
        lines += ["| policy | write hit ratio | Belady bound | TLC programs"
                  " | vs BASE | SLC programs | TLC erases | SLC erases"
                  " | erases vs BASE | destaged | policy bytes |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        base_erases = (base["flash_erase_tlc_blocks"]
                       + base["flash_erase_slc_blocks"])
        for name, r in t["table"].items():
            erases = r["flash_erase_tlc_blocks"] + r["flash_erase_slc_blocks"]
            bound = ("-" if name == "none"
                     else f"{r['belady_write_hit_ratio']:.3f}")
            lines.append(
                f"| {name} | {r['cache_write_hit_ratio']:.3f}"
                f" | {bound}"
                f" | {r['flash_program_tlc_pages']}"
                f" | {rel(r['flash_program_tlc_pages'], base['flash_program_tlc_pages'])}"  # noqa: E501
                f" | {r['flash_program_slc_pages']}"
                f" | {r['flash_erase_tlc_blocks']}"
                f" | {r['flash_erase_slc_blocks']}"
                f" | {rel(erases, base_erases)}"
                f" | {r['flash_program_destage_pages']}"
                f" | {r['cache_policy_metadata_bytes']} |")
        lines += ["", "Write hit ratio by cache size (pages): "
                  + ", ".join(str(n) for n in result["sizes"]), ""]
        lines += ["| policy | " + " | ".join(str(n) for n in result["sizes"])
                  + " |", "|---" * (len(result["sizes"]) + 1) + "|"]
        for name, ratios in t["by_size"].items():
            lines.append(f"| {name} | "
                         + " | ".join(f"{x:.3f}" for x in ratios) + " |")
        for key, label, values in (
                ("by_p", "ProCache p", [f"{p / 1e6:g}"
                                        for p in result["p_ppm"]]),
                ("by_c", "ProCache c (bytes)", [str(c or "none")
                                                for c in result["c_bytes"]])):
            lines += ["", f"| {label} | hit ratio | TLC programs"
                      " | TLC erases | SLC erases |", "|---|---|---|---|---|"]
            for v, r in zip(values, t[key]):
                lines.append(f"| {v} | {r['cache_write_hit_ratio']:.3f}"
                             f" | {r['flash_program_tlc_pages']}"
                             f" | {r['flash_erase_tlc_blocks']}"
                             f" | {r['flash_erase_slc_blocks']} |")
        lines.append("")
    return lines


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    result = run(opts.ssdsim.resolve())
    write_results(result)
    return result


def show(results: dict[str, Any]) -> None:
    print_table(results[NAME])


def print_table(result: dict[str, Any]) -> None:
    print("\n".join(["", "SLC write cache policies (ssdsim)"]
                    + table_lines(result)))


def plot(result: dict[str, Any], out_dir: Path) -> list[Path]:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    traces = list(result["traces"])
    written = []
    figs = {
        "cache-size.png": ("cache size (pages)", "by_size"),
        "cache-p.png": ("ProCache p", "by_p"),
        "cache-c.png": ("ProCache c (KiB; 0 = none)", "by_c"),
    }
    for name, (xlabel, key) in figs.items():
        fig, axes = plt.subplots(1, len(traces), figsize=(5 * len(traces), 4))
        for ax, trace in zip(axes, traces):
            t = result["traces"][trace]
            if key == "by_size":
                for policy, ratios in t["by_size"].items():
                    style = "k--" if policy == "belady" else "-o"
                    ax.plot(result["sizes"], ratios, style, label=policy)
                ax.set_xscale("log", base=2)
            else:
                xs = ([p / 1e6 for p in result["p_ppm"]] if key == "by_p"
                      else [c / 1024 for c in result["c_bytes"]])
                ax.plot(xs, [r["cache_write_hit_ratio"] for r in t[key]],
                        "-o", label="write hit ratio")
                ax2 = ax.twinx()
                ax2.plot(xs, [r["flash_program_tlc_pages"] for r in t[key]],
                         "-s", color="tab:red", label="TLC programs")
                ax2.set_ylabel("TLC programs")
                ax2.legend(loc="lower right")
            ax.set_title(trace)
            ax.set_xlabel(xlabel)
            ax.set_ylabel("write hit ratio")
            ax.legend(loc="upper left", fontsize="small")
        fig.tight_layout()
        path = out_dir / name
        fig.savefig(path)
        plt.close(fig)
        written.append(path)
    return written


def write_results(result: dict[str, Any], out_dir: Path = RESULTS) -> None:
    write_json(out_dir / "cache-sweep.json", result)
    (out_dir / "cache-sweep.md").write_text(
        "# SLC write cache policies (bench/cache_sweep.py)\n\n"
        + "\n".join(table_lines(result)) + "\n")
    for path in plot(result, out_dir):
        print(f"wrote {path.relative_to(paths.ROOT)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ssdsim", type=Path, default=SSDSIM)
    args = parser.parse_args()
    result = run(args.ssdsim.resolve())
    print_table(result)
    write_results(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
