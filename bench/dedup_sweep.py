"""In-device deduplication in ssdsim's virtual time (deterministic).

Generates FIU-format traces ("time_ns pid proc lba_sectors size_sectors W
major minor md5"): ssdsim turns each MD5 into page bytes, so a repeated MD5
is a duplicate page.  A write is a duplicate with probability d: it copies
the content of another page that holds data at that moment (so the device
can find it), else it gets new content.

1. Write latency against Kim et al.'s model (configs/kim-dedup-openssd.conf,
   1300 us programs): 4 KiB random writes every 5 ms (the device is idle
   when each arrives: no queueing) over a fifth of the device, at d = 0,
   10, ..., 60%.  Variants: dedup off; on with the 80 us SHA-1 engine; on
   with the ARM9's 813 us software SHA-1; the engine with the sampling
   filter and a 64-page write buffer (means over the writes after the
   first LAT_WARMUP, once the buffer is full).  Without a buffer each write is
   fingerprinted on its own write path, which is the paper's model:
   dedup pays when d > (hash + lookup) / program.  The measured break-even
   is where a variant's mean write latency crosses the dedup-off one
   (linear interpolation between the points).
2. WAF and erases at 90% utilisation (a smaller device of the same chips
   for speed): fill 90% of the logical space sequentially, then random
   4 KiB overwrites of that range, three times its size, at d = 0..40%,
   dedup off and on (engine, filter, buffer).

3. The recency store: duplicates found in the FIU homes sample
   (tests/data) with an LRU of N fingerprints against the full store
   (filter and 64-page buffer on).

Writes bench/results/dedup-sweep.json and, with matplotlib,
dedup-latency.png and dedup-waf.png.  Also a section of bench/run.py.

Standalone: python3 -m bench.dedup_sweep [--ssdsim PATH] [--quick]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.section import RESULTS, Options, write_json
from ssdtools import conf
import ssdsim as sim
from ssdtools.paths import CONFIGS, ROOT, TRACES

NAME = "dedup"
PROGRESS = "ssdsim: dedup sweep ({ssdsim})"
SSDSIM = sim.SSDSIM
CONFIG = CONFIGS / "kim-dedup-openssd.conf"

PAGE = 4096
SECTOR = 512
SEED = 1
DUP_RATES = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
WAF_DUP_RATES = [0.0, 0.1, 0.2, 0.3, 0.4]
LAT_WRITES = 3000
LAT_GAP_NS = 5_000_000
LAT_SPAN = 0.2
# Writes left out of the latency means: a 64-page write buffer completes
# its first writes at once; after it fills, each write makes the oldest
# leave (the steady state the model describes).
LAT_WARMUP = 200
WAF_UTIL = 0.9
WAF_PASSES = 3
WAF_GAP_NS = 2_000_000
# The WAF runs: the preset's timing on 8 chips of 64 blocks of 64 pages.
WAF_GEOMETRY = ["chips=8", "channels=4", "blocks_per_chip=64",
                "pages_per_block=64"]
HASH_NS = {"engine": 80_000, "arm9": 813_000}
STORE_TRACE = TRACES / "fiu-homes-sample.blkparse"
STORE_ENTRIES = [4, 8, 16, 32, 64, 128, 256, 0]
LOOKUP_NS = 2_000

# name -> overrides on top of CONFIG (which switches dedup on).
LAT_VARIANTS: dict[str, list[str]] = {
    "off": ["dedup=0"],
    "engine": ["dedup=1", "dedup_buffer_pages=0", "dedup_filter=0",
               f"dedup_hash_ns={HASH_NS['engine']}"],
    "arm9": ["dedup=1", "dedup_buffer_pages=0", "dedup_filter=0",
             f"dedup_hash_ns={HASH_NS['arm9']}"],
    "engine+filter+buffer": ["dedup=1", "dedup_buffer_pages=64",
                             "dedup_filter=1",
                             f"dedup_hash_ns={HASH_NS['engine']}"],
}
WAF_VARIANTS: dict[str, list[str]] = {
    "off": ["dedup=0"],
    "on": ["dedup=1", "dedup_buffer_pages=64", "dedup_filter=1"],
}


class Content:
    """Which content id each page holds; picks duplicates among them."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.page_content: dict[int, int] = {}
        self.pages: list[int] = []
        self.next_id = 0

    def write(self, lpn: int, dup_rate: float) -> str:
        others = len(self.pages) - (lpn in self.page_content)
        if others > 0 and self.rng.random() < dup_rate:
            src = lpn
            while src == lpn:
                src = self.rng.choice(self.pages)
            cid = self.page_content[src]
        else:
            cid = self.next_id
            self.next_id += 1
        if lpn not in self.page_content:
            self.pages.append(lpn)
        self.page_content[lpn] = cid
        return f"{cid:032x}"


def line(t_ns: int, lpn: int, md5: str) -> str:
    return (f"{t_ns} 1 bench {lpn * PAGE // SECTOR} {PAGE // SECTOR} W 8 0"
            f" {md5}\n")


def simulate(ssdsim: Path, overrides: list[str], lines: list[str],
             tmp: Path) -> dict[str, Any]:
    """The JSON stats, and in "latencies_ns" each request's completion -
    arrival in trace order."""
    trace, done = tmp / "trace.blkparse", tmp / "completions.txt"
    trace.write_text("".join(lines))
    st = sim.run(trace, config=CONFIG, keys=overrides, format="fiu",
                 completions=done, binary=ssdsim)
    st["latencies_ns"] = [r.completion_ns - r.arrival_ns
                          for r in sim.read_completions(done)]
    return st


def logical_pages(ssdsim: Path, overrides: list[str], tmp: Path) -> int:
    st = simulate(ssdsim, overrides, [], tmp)
    return int(st["logical_capacity_bytes"]) // PAGE


def latency_trace(pages: int, dup_rate: float, writes: int) -> list[str]:
    rng = random.Random(SEED)
    content = Content(rng)
    span = max(2, int(pages * LAT_SPAN))
    return [line(i * LAT_GAP_NS, lpn, content.write(lpn, dup_rate))
            for i in range(writes) for lpn in [rng.randrange(span)]]


def waf_trace(pages: int, dup_rate: float, passes: int) -> list[str]:
    rng = random.Random(SEED)
    content = Content(rng)
    used = int(pages * WAF_UTIL)
    lines = [line(i * WAF_GAP_NS, lpn, content.write(lpn, dup_rate))
             for i, lpn in enumerate(range(used))]
    t0 = used * WAF_GAP_NS
    lines += [line(t0 + i * WAF_GAP_NS, lpn, content.write(lpn, dup_rate))
              for i in range(passes * used) for lpn in [rng.randrange(used)]]
    return lines


def mean_write_us(st: dict[str, Any], skip: int = 0) -> float:
    """Mean write latency, leaving out the first @skip writes."""
    lat = st["latencies_ns"][skip:]
    return sum(lat) / len(lat) / 1000


def crossing(xs: list[float], off: list[float],
             on: list[float]) -> float | None:
    """The first duplication rate where on falls to off (interpolated);
    None if it stays above over the range."""
    diff = [a - b for a, b in zip(on, off)]
    if diff[0] <= 0:
        return xs[0]
    for i in range(1, len(xs)):
        if diff[i] <= 0:
            return xs[i - 1] + (xs[i] - xs[i - 1]) * diff[i - 1] / \
                (diff[i - 1] - diff[i])
    return None


def run(ssdsim: Path = SSDSIM, quick: bool = False) -> dict[str, Any]:
    writes = LAT_WRITES // 3 if quick else LAT_WRITES
    passes = 1 if quick else WAF_PASSES
    program_ns = int(conf.read(CONFIG)["program_ns"])
    result: dict[str, Any] = {
        "config": CONFIG.name, "seed": SEED, "program_ns": program_ns,
        "lookup_ns": LOOKUP_NS, "hash_ns": HASH_NS,
        "model_break_even": {name: (ns + LOOKUP_NS) / program_ns
                             for name, ns in HASH_NS.items()},
        "latency": {"writes": writes, "gap_ns": LAT_GAP_NS,
                    "span": LAT_SPAN, "dup_rates": DUP_RATES, "runs": {}},
        "waf": {"util": WAF_UTIL, "passes": passes,
                "geometry": WAF_GEOMETRY, "dup_rates": WAF_DUP_RATES,
                "runs": {}},
    }
    with tempfile.TemporaryDirectory(prefix="ssdemu-dedup-") as name:
        tmp = Path(name)
        pages = logical_pages(ssdsim, [], tmp)
        lat = result["latency"]
        for variant, overrides in LAT_VARIANTS.items():
            points = []
            for d in DUP_RATES:
                st = simulate(ssdsim, overrides,
                              latency_trace(pages, d, writes), tmp)
                points.append({
                    "dup_rate": d,
                    "write_mean_us": mean_write_us(st, LAT_WARMUP),
                    "duplicates": st["dedup_duplicate_chunks"],
                    "fingerprinted": st["dedup_fingerprinted_chunks"],
                    "host_write_pages": st["host_write_pages"],
                    "programs": st["flash_program_host_pages"]})
            lat["runs"][variant] = points
        off = [p["write_mean_us"] for p in lat["runs"]["off"]]
        lat["measured_break_even"] = {
            v: crossing(DUP_RATES, off, [p["write_mean_us"] for p in pts])
            for v, pts in lat["runs"].items() if v != "off"}

        waf = result["waf"]
        wpages = logical_pages(ssdsim, WAF_GEOMETRY, tmp)
        waf["logical_pages"] = wpages
        for variant, overrides in WAF_VARIANTS.items():
            points = []
            for d in WAF_DUP_RATES:
                st = simulate(ssdsim, WAF_GEOMETRY + overrides,
                              waf_trace(wpages, d, passes), tmp)
                points.append({
                    "dup_rate": d, "waf": st["waf"],
                    "erases": st["flash_erase_blocks"],
                    "gc_relocated_pages": st["gc_relocated_pages"],
                    "duplicates": st["dedup_duplicate_chunks"],
                    "dedup_ratio": st.get("dedup_ratio"),
                    "write_mean_us": mean_write_us(st)})
            waf["runs"][variant] = points
        store: dict[str, Any] = {"trace": STORE_TRACE.name, "runs": []}
        for n in STORE_ENTRIES:
            st = sim.run(STORE_TRACE, config=CONFIG,
                         keys=["dedup=1", "dedup_buffer_pages=64",
                               f"dedup_store_entries={n}"], binary=ssdsim)
            store["runs"].append({
                "store_entries": n,
                "duplicates": st["dedup_duplicate_chunks"],
                "evictions": st["dedup_store_evictions"],
                "entry_bytes": st["dedup_store_entry_bytes"]})
        full = store["runs"][-1]["duplicates"]
        for point in store["runs"]:
            point["of_full"] = point["duplicates"] / full if full else None
        result["store"] = store
    return result


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py): also writes
    bench/results/dedup-sweep.json and the plots."""
    result = run(opts.ssdsim.resolve())
    save(result, RESULTS / "dedup-sweep.json")
    for png in plot(result, RESULTS):
        print(f"wrote {png.relative_to(ROOT)}")
    return result


def show(results: dict[str, Any]) -> None:
    print_table(results[NAME])


def print_table(r: dict[str, Any]) -> None:
    lat = r["latency"]
    print(f"\nssdsim: dedup write latency ({r['config']}, program"
          f" {r['program_ns'] / 1000:.0f} us, lookup"
          f" {r['lookup_ns'] / 1000:.0f} us; {lat['writes']} 4 KiB writes,"
          f" one every {lat['gap_ns'] / 1e6:g} ms; mean us)")
    print(f"{'variant':22s}" + "".join(f" {f'd={d:.0%}':>8s}"
                                       for d in lat["dup_rates"])
          + f" {'break-even':>11s} {'model':>7s}")
    for variant, points in lat["runs"].items():
        be = lat.get("measured_break_even", {}).get(variant)
        model = r["model_break_even"].get(variant.split("+")[0])
        print(f"{variant:22s}"
              + "".join(f" {p['write_mean_us']:8.1f}" for p in points)
              + (f" {be:11.1%}" if be is not None else
                 (f" {'never':>11s}" if variant != "off" else f"{'':12s}"))
              + (f" {model:7.1%}" if model is not None else ""))
    waf = r["waf"]
    print(f"\nssdsim: WAF and erases at {waf['util']:.0%} utilisation"
          f" ({waf['logical_pages']} pages, {waf['passes']}x random"
          f" overwrites)")
    print(f"{'dup rate':>8s} {'WAF off':>8s} {'WAF on':>8s}"
          f" {'erases off':>10s} {'erases on':>10s} {'WAF cut':>8s}")
    for off, on in zip(waf["runs"]["off"], waf["runs"]["on"]):
        print(f"{off['dup_rate']:8.0%} {off['waf']:8.3f} {on['waf']:8.3f}"
              f" {off['erases']:10d} {on['erases']:10d}"
              f" {off['waf'] / on['waf']:7.2f}x")
    store = r.get("store")
    if store:
        print(f"\nssdsim: recency store on {store['trace']} (filter,"
              " 64-page buffer)")
        print(f"{'entries':>8s} {'duplicates':>10s} {'of full':>8s}"
              f" {'evictions':>9s} {'B/entry':>8s}")
        for p in store["runs"]:
            n = p["store_entries"] or "full"
            print(f"{n:>8} {p['duplicates']:10d} {p['of_full']:8.1%}"
                  f" {p['evictions']:9d} {p['entry_bytes']:8d}")


def plot(r: dict[str, Any], out_dir: Path) -> list[Path]:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    lat = r["latency"]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs = [100 * d for d in lat["dup_rates"]]
    for variant, points in lat["runs"].items():
        ax.plot(xs, [p["write_mean_us"] for p in points], marker="o",
                label=f"dedup {variant}")
    for name, be in r["model_break_even"].items():
        if be <= max(lat["dup_rates"]):
            ax.axvline(100 * be, linestyle="--", color="grey")
            ax.text(100 * be, ax.get_ylim()[1] * 0.95,
                    f" Kim break-even ({name})", fontsize=8)
    ax.set_xlabel("duplication rate (%)")
    ax.set_ylabel("mean write latency (us)")
    ax.set_title("Write latency with dedup, Kim et al.'s 1300 us program")
    ax.legend(fontsize=8)
    fig.tight_layout()
    lat_png = out_dir / "dedup-latency.png"
    fig.savefig(lat_png)
    plt.close(fig)

    waf = r["waf"]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs = [100 * d for d in waf["dup_rates"]]
    for variant, points in waf["runs"].items():
        ax.plot(xs, [p["waf"] for p in points], marker="o",
                label=f"WAF, dedup {variant}")
    ax.set_xlabel("duplication rate (%)")
    ax.set_ylabel("WAF")
    ax.set_title(f"WAF at {waf['util']:.0%} utilisation, random overwrites")
    ax.legend(fontsize=8)
    fig.tight_layout()
    waf_png = out_dir / "dedup-waf.png"
    fig.savefig(waf_png)
    plt.close(fig)
    return [lat_png, waf_png]


def save(result: dict[str, Any], path: Path) -> None:
    """Write the results, keeping the host CPU entry of
    bench/dedup_host_cpu.py if the file has one."""
    old = json.loads(path.read_text()) if path.exists() else {}
    if "host_cpu" in old:
        result = {**result, "host_cpu": old["host_cpu"]}
    write_json(path, result)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ssdsim", type=Path, default=SSDSIM,
                        help="ssdsim binary (default: build/bin/ssdsim)")
    parser.add_argument("--quick", action="store_true",
                        help="fewer writes (a smoke run)")
    parser.add_argument("--json", type=Path,
                        default=RESULTS / "dedup-sweep.json",
                        help="where to write the results")
    args = parser.parse_args()
    result = run(args.ssdsim.resolve(), args.quick)
    print_table(result)
    save(result, args.json)
    print(f"wrote {args.json}")
    for png in plot(result, args.json.parent):
        print(f"wrote {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
