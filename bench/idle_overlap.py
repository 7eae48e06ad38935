"""Work the firmware overlaps with the host's, in ssdsim's virtual time
(deterministic): the write cache's background destage and the dedup
engines.

1. Background destage (cache_destage_high_percent / _low_percent) on the
   ProCache preset (configs/procache-tlc.conf with the workload's device
   keys: blocks_per_chip=160, slc_blocks_per_chip=16, a 15,251-page
   cache), policies always and procache, destage off, 90 -> 50% and
   75 -> 25%.  Traces with idle gaps: a tracegen dedup-blocks trace
   (30% reads, requests up to 32 KiB) re-timed into bursts of 64
   requests 50 ms apart, and the FIU homes sample (its own gaps; a
   64-page cache, since its 2,000 page writes never fill the preset's).
   Foreground and background destage pages, the write time (sum of write
   latencies) and WAF, as ratios to destage off.
2. Dedup engines (dedup_hash_engines 1, 2, 4) on Kim et al.'s preset
   (configs/kim-dedup-openssd.conf: 1300 us programs, 80 us SHA-1 +
   2 us lookup) with 4 KiB writes (tracegen dedup-blocks, 30%
   duplicates): at QD1 (one write every 5 ms, cmd_queue_depth=1) and at
   depth (bursts of 64 writes at once, 200 ms apart, cmd_queue_depth=32),
   with the sampling filter (the preset) and without it (every write
   fingerprinted), fingerprints on the write path (no buffer; a 64-page
   buffer) and overlapped with the buffer (dedup_hash_overlap=1).  Mean
   write latency as a ratio to one engine.

Writes bench/results/idle-overlap.json and idle-overlap.md.  Also a
section of bench/run.py.

Standalone: python3 -m bench.idle_overlap [--ssdsim PATH] [--tracegen PATH]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.section import RESULTS, Options
from ssdtools import cachesim as cs
import ssdsim as sim
from ssdtools.paths import CONFIGS, ROOT, TRACES

NAME = "overlap"
PROGRESS = "ssdsim: background destage and dedup engines ({ssdsim})"

PROCACHE = CONFIGS / "procache-tlc.conf"
KIM = CONFIGS / "kim-dedup-openssd.conf"
DEVICE = ["blocks_per_chip=160", "slc_blocks_per_chip=16"]
HOMES = TRACES / "fiu-homes-sample.blkparse"
HOMES_CACHE = ["cache_pages=64"]

# Re-timed tracegen traces: (generator options, burst, gap between bursts).
CACHE_TRACE = (["--requests", "20000", "--space-mib", "256",
                "--read-percent", "30", "--request-max-kib", "32"],
               64, 50_000_000)
ENGINE_OPTIONS = ["--requests", "3200", "--space-mib", "256",
                  "--read-percent", "0", "--request-max-kib", "4"]
QD1_GAP_NS = 5_000_000
DEPTH_BURST, DEPTH_GAP_NS = 64, 200_000_000
DEPTH_QD = 32

POLICIES = ["always", "procache"]
DESTAGE = {"off": ["cache_destage_high_percent=0"],
           "90->50%": ["cache_destage_high_percent=90",
                       "cache_destage_low_percent=50"],
           "75->25%": ["cache_destage_high_percent=75",
                       "cache_destage_low_percent=25"]}
ENGINES = [1, 2, 4]
FILTERS = {"filter": ["dedup_filter=1"], "no filter": ["dedup_filter=0"]}
PATHS = {"write path, no buffer": ["dedup_buffer_pages=0",
                                   "dedup_hash_overlap=0"],
         "write path, buffer 64": ["dedup_buffer_pages=64",
                                   "dedup_hash_overlap=0"],
         "overlap, buffer 64": ["dedup_buffer_pages=64",
                                "dedup_hash_overlap=1"]}
LOADS = {"QD1": ["cmd_queue_depth=1"],
         "depth": [f"cmd_queue_depth={DEPTH_QD}"]}

DESTAGE_FIELDS = ("cache_destage_foreground_pages",
                  "cache_destage_background_pages", "write_latency_ns_total",
                  "write_latency_mean_us", "waf", "flash_program_tlc_pages",
                  "gc_relocated_pages", "flash_erase_blocks",
                  "cache_write_hit_ratio", "host_write_pages")
ENGINE_FIELDS = ("write_latency_mean_us", "dedup_duplicate_chunks",
                 "dedup_fingerprinted_chunks", "dedup_hash_wait_ns",
                 "dedup_engine_load_ppm", "dedup_break_even_ppm")


def retime(src: Path, dst: Path, burst: int, gap_ns: int) -> None:
    """FIU-format @src with its arrivals replaced: bursts of @burst
    requests 1 us apart, @gap_ns between the bursts' starts (burst 1: one
    request every @gap_ns)."""
    out = []
    for i, line in enumerate(src.read_text().splitlines()):
        rest = line.split(" ", 1)[1]
        out.append(f"{(i // burst) * gap_ns + (i % burst) * 1000} {rest}\n")
    dst.write_text("".join(out))


def traces(tmp: Path, tracegen: Path) -> dict[str, Path]:
    cache_src, engine_src = tmp / "cache.src", tmp / "engine.src"
    cs.generate("dedup-blocks", cache_src, CACHE_TRACE[0], binary=tracegen)
    cs.generate("dedup-blocks", engine_src, ENGINE_OPTIONS, binary=tracegen)
    out = {"bursts": tmp / "bursts.blkparse", "QD1": tmp / "qd1.blkparse",
           "depth": tmp / "depth.blkparse"}
    retime(cache_src, out["bursts"], CACHE_TRACE[1], CACHE_TRACE[2])
    retime(engine_src, out["QD1"], 1, QD1_GAP_NS)
    retime(engine_src, out["depth"], DEPTH_BURST, DEPTH_GAP_NS)
    return out


def replay(ssdsim: Path, trace: Path, config: Path, keys: list[str],
           fields: tuple[str, ...]) -> dict[str, Any]:
    st = sim.run(trace, config=config, keys=keys, format="fiu", binary=ssdsim)
    return {f: st[f] for f in fields}


def destage_runs(ssdsim: Path, paths: dict[str, Path]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for trace, path, extra in (("bursts", paths["bursts"], []),
                               ("homes", HOMES, HOMES_CACHE)):
        for policy in POLICIES:
            runs = {}
            for name, keys in DESTAGE.items():
                runs[name] = replay(ssdsim, path, PROCACHE,
                                    [*DEVICE, *extra,
                                     f"cache_policy={policy}", *keys],
                                    DESTAGE_FIELDS)
            out[f"{trace}/{policy}"] = runs
    return out


def engine_runs(ssdsim: Path, paths: dict[str, Path]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for load, load_keys in LOADS.items():
        for filt, filt_keys in FILTERS.items():
            for path_name, path_keys in PATHS.items():
                runs = {}
                for engines in ENGINES:
                    runs[str(engines)] = replay(
                        ssdsim, paths[load], KIM,
                        [*load_keys, *filt_keys, *path_keys,
                         f"dedup_hash_engines={engines}"], ENGINE_FIELDS)
                out[f"{load}/{filt}/{path_name}"] = runs
    return out


def run(ssdsim: Path = sim.SSDSIM,
        tracegen: Path = cs.TRACEGEN) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ssdemu-overlap-") as name:
        paths = traces(Path(name), tracegen)
        return {"destage": destage_runs(ssdsim, paths),
                "engines": engine_runs(ssdsim, paths)}


def ratio(a: float, b: float) -> str:
    return f"{a / b:.3f}" if b else "n/a"


def commands() -> list[str]:
    """How the runs were made, for the results file."""
    cache_opts = " ".join(CACHE_TRACE[0])
    engine_opts = " ".join(ENGINE_OPTIONS)
    return [
        "python3 -m bench.idle_overlap   # all of the below",
        f"build/bin/tracegen dedup-blocks {cache_opts} -o cache.src"
        f"   # re-timed: bursts of {CACHE_TRACE[1]} requests"
        f" {CACHE_TRACE[2] // 1_000_000} ms apart",
        f"build/bin/tracegen dedup-blocks {engine_opts} -o engine.src"
        f"   # QD1: one write every {QD1_GAP_NS // 1_000_000} ms; depth:"
        f" bursts of {DEPTH_BURST}, {DEPTH_GAP_NS // 1_000_000} ms apart",
        f"build/bin/ssdsim --json --config configs/{PROCACHE.name}"
        f" {' '.join(DEVICE)} cache_policy=POLICY"
        " cache_destage_high_percent=H cache_destage_low_percent=L"
        " --format fiu TRACE   # (FIU homes: also cache_pages=64)",
        f"build/bin/ssdsim --json --config configs/{KIM.name}"
        " cmd_queue_depth=1|32 dedup_filter=0|1 dedup_buffer_pages=0|64"
        " dedup_hash_overlap=0|1 dedup_hash_engines=1|2|4"
        " --format fiu TRACE",
    ]


def table_lines(r: dict[str, Any]) -> list[str]:
    lines = ["## Background destage (ProCache preset, "
             f"{' '.join(DEVICE)})", "",
             "Ratios to destage off on the same trace and policy.", "",
             "| trace / policy | destage | foreground pages | background"
             " pages | write time | mean write latency | WAF | TLC programs"
             " | GC relocations | write hit ratio |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for key, runs in r["destage"].items():
        off = runs["off"]
        for name, st in runs.items():
            rel = {f: ratio(st[f], off[f]) for f in (
                "write_latency_ns_total", "write_latency_mean_us",
                "flash_program_tlc_pages", "gc_relocated_pages")}
            lines.append(
                f"| {key} | {name} | {st['cache_destage_foreground_pages']}"
                f" | {st['cache_destage_background_pages']}"
                f" | {rel['write_latency_ns_total']}"
                f" | {rel['write_latency_mean_us']}"
                f" | {st['waf']:.3f} ({ratio(st['waf'], off['waf'])})"
                f" | {rel['flash_program_tlc_pages']}"
                f" | {rel['gc_relocated_pages']}"
                f" | {st['cache_write_hit_ratio']:.3f} |")
    lines += ["", "## Dedup engines (Kim et al.'s preset, 4 KiB writes)", "",
              "Mean write latency of 2 and 4 engines as a ratio to 1 engine"
              " (same load, filter and path); engine load and break-even"
              " as the stats give them for each engine count.", "",
              "| load | filter | fingerprints | 1 engine (us) | 2 engines"
              " | 4 engines | hash wait 1/2/4 (ms) | engine load (ppm)"
              " 1/2/4 | break-even (ppm) 1/2/4 |",
              "|---|---|---|---|---|---|---|---|---|"]
    for key, runs in r["engines"].items():
        load, filt, path = key.split("/")
        one = runs["1"]["write_latency_mean_us"]
        waits = "/".join(str(runs[e]["dedup_hash_wait_ns"] // 1_000_000)
                         for e in runs)
        loads = "/".join(str(runs[e]["dedup_engine_load_ppm"]) for e in runs)
        evens = "/".join(str(runs[e]["dedup_break_even_ppm"]) for e in runs)
        lines.append(
            f"| {load} | {filt} | {path} | {one:.1f}"
            f" | {ratio(runs['2']['write_latency_mean_us'], one)}"
            f" | {ratio(runs['4']['write_latency_mean_us'], one)}"
            f" | {waits} | {loads} | {evens} |")
    return lines


NOTES = [
    "How to read it:",
    "",
    "- The ProCache preset's SLC mode programs in 44 us against 200 us for"
    " TLC (configs/procache-tlc.conf: Table 3's times scaled by an SLC:TLC"
    " ratio); what background destage saves is the destage taken off the"
    " host's write path.",
    "- WAF falls on the bursts trace with background destage: a cache kept"
    " full holds the SLC region at the valid pages its GC can live with,"
    " so SLC GC relocates much (the GC relocations column); held between"
    " the watermarks it relocates little.  TLC programs rise: the cache"
    " holds fewer pages, so fewer rewrites hit it.",
    "- ProCache (p = 0.1) never fills the preset's cache on the bursts"
    " trace: nothing to destage, the rows are equal.",
    "- Dedup engines: with the sampling filter (the preset) few writes are"
    " fingerprinted and the engine is seldom the bottleneck; without it,"
    " at depth, one 80 us engine is (engine load over 10^6 ppm in the"
    " stats: the engines' time per page over the flash's at full load),"
    " and more engines cut the latency until the flash is the bottleneck."
    "  At QD1 one write is in flight and one engine is used: more change"
    " nothing.",
    "- The break-even column is the QD1 model: with overlap and a buffer,"
    " 0 when the engines hash a page within a program (dedup pays from any"
    " duplicate rate), else (hash + lookup) / (engines x program).",
    "- Each replay ends with a FLUSH (ssdsim's default), which drains the"
    " dedup buffer: its last writes are fingerprinted then (hash wait"
    " counts them) but are no host write's latency.",
]


def write_results(r: dict[str, Any], out_dir: Path = RESULTS) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "idle-overlap.json").write_text(json.dumps(r, indent=1) + "\n")
    text = ["# Background destage and dedup engines (bench/idle_overlap.py)",
            "", "Commands:", "", "```", *commands(), "```", "",
            *table_lines(r), "", *NOTES]
    (out_dir / "idle-overlap.md").write_text("\n".join(text) + "\n")


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py): also writes
    bench/results/idle-overlap.json and idle-overlap.md."""
    result = run(opts.ssdsim.resolve())
    write_results(result)
    return result


def show(results: dict[str, Any]) -> None:
    print()
    print("\n".join(table_lines(results[NAME])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ssdsim", type=Path, default=sim.SSDSIM)
    parser.add_argument("--tracegen", type=Path, default=cs.TRACEGEN)
    parser.add_argument("--out", type=Path, default=RESULTS,
                        help="folder of idle-overlap.json and .md")
    args = parser.parse_args()
    result = run(args.ssdsim.resolve(), args.tracegen.resolve())
    print("\n".join(table_lines(result)))
    write_results(result, args.out)
    print(f"wrote {(args.out / 'idle-overlap.md').relative_to(ROOT)}"
          if args.out.resolve().is_relative_to(ROOT)
          else f"wrote {args.out / 'idle-overlap.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
