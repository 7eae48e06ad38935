"""Kim et al.'s figures at their own granularity, in ssdsim (deterministic).

"Deduplication in SSDs: Model and Quantitative Analysis" (MSST 2012):
duplication rate per workload with 4 KiB chunks, and the write response
time with dedup against without (abstract: duplication 4-51%, 17% on
average over nine workloads; write response time up to 48% and on
average 15% shorter).

1. Duplication per workload: the repository's traces with an MD5 per
   block (tests/data: FIU homes, an MD5 per 512-byte sector; FIU mail,
   one per 4 KiB block), replayed with --remap dense through
   configs/kim-dedup-openssd.conf (4 KiB pages = Kim's chunk) with every
   write fingerprinted (dedup_filter=0, no buffer, the full store), so the
   rate is the content's: dedup_duplicate_chunks / dedup_chunks_written.
   Beside it the same on the ProCache paper's 2 KiB pages
   (procache-tlc.conf, dedup=1), whose chunk is half Kim's.
2. Write latency, dedup off and on with 1, 2 and 4 hash engines, at QD1
   (one 4 KiB write every 5 ms) and at depth (bursts of 64 at queue depth
   32), on WRITES random 4 KiB writes with DUP_PERCENT of duplicates
   (Kim's mean; a duplicate copies a page that holds data,
   bench/dedup_sweep.py's content model), re-timed as
   bench/idle_overlap.py does; the preset's sampling filter on; two
   paths: Kim's (each write fingerprinted on its own write path, no
   buffer) and the overlapped one (a 64-page buffer, hashing beside the
   flash work of other requests).  Also the two FIU samples at their own
   arrivals (--remap dense), on the same two paths.

Writes bench/results/kim-figs.json and kim-figs.md.

Standalone: python3 -m bench.kim_figs [--ssdsim PATH]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench import dedup_sweep, idle_overlap
from bench.section import RESULTS, Options
import ssdsim as sim
from ssdtools.paths import CONFIGS, ROOT, TRACES

NAME = "kim"
PROGRESS = "ssdsim: Kim et al.'s duplication and latency figures ({ssdsim})"
KIM = CONFIGS / "kim-dedup-openssd.conf"
PROCACHE = CONFIGS / "procache-tlc.conf"
PROCACHE_DEVICE = ["blocks_per_chip=160", "dedup=1"]
MD5_TRACES = ["fiu-homes-sample.blkparse", "fiu-mail-sample.blkparse"]
ALL_FINGERPRINTED = ["dedup_filter=0", "dedup_buffer_pages=0"]
DUP_PERCENT = 17
WRITES = 3200
SPAN_PAGES = 98_304  # 384 MiB, about a fifth of the preset's logical space
SEED = 1
ENGINES = [1, 2, 4]
PATHS = {"Kim's: write path, no buffer": ["dedup_buffer_pages=0",
                                          "dedup_hash_overlap=0"],
         "overlap, buffer 64": ["dedup_buffer_pages=64",
                                "dedup_hash_overlap=1"]}
LOADS = {"QD1": ["cmd_queue_depth=1"],
         "depth": [f"cmd_queue_depth={idle_overlap.DEPTH_QD}"]}


def duplication(ssdsim: Path) -> dict[str, Any]:
    out = {}
    for name in MD5_TRACES:
        row = {}
        for label, config, keys in (
                ("4 KiB", KIM, ALL_FINGERPRINTED),
                ("2 KiB", PROCACHE, [*PROCACHE_DEVICE, *ALL_FINGERPRINTED])):
            st = sim.run(TRACES / name, config=config, keys=keys,
                         flags=["--remap", "dense"], binary=ssdsim)
            row[label] = {"chunks": st["dedup_chunks_written"],
                          "duplicates": st["dedup_duplicate_chunks"],
                          "rate": (st["dedup_duplicate_chunks"]
                                   / st["dedup_chunks_written"]
                                   if st["dedup_chunks_written"] else 0.0)}
        out[name] = row
    return out


def engine_trace(tmp: Path) -> Path:
    """WRITES 4 KiB writes at random pages of the first fifth of the
    device, each a duplicate of a page holding data with probability
    DUP_PERCENT (bench/dedup_sweep.py's content model), FIU format."""
    rng = random.Random(SEED)
    content = dedup_sweep.Content(rng)
    span = SPAN_PAGES
    lines = []
    for i in range(WRITES):
        lpn = rng.randrange(span)
        lines.append(dedup_sweep.line(i, lpn,
                                      content.write(lpn, DUP_PERCENT / 100)))
    src = tmp / "engine.src"
    src.write_text("".join(lines))
    return src


def engine_traces(tmp: Path) -> dict[str, Path]:
    src = engine_trace(tmp)
    out = {"QD1": tmp / "qd1.blkparse", "depth": tmp / "depth.blkparse"}
    idle_overlap.retime(src, out["QD1"], 1, idle_overlap.QD1_GAP_NS)
    idle_overlap.retime(src, out["depth"], idle_overlap.DEPTH_BURST,
                        idle_overlap.DEPTH_GAP_NS)
    return out


def latency(ssdsim: Path, trace: Path, keys: list[str],
            flags: list[str] | None = None) -> dict[str, Any]:
    st = sim.run(trace, config=KIM, keys=keys, flags=flags or [],
                 binary=ssdsim)
    chunks = st["dedup_chunks_written"]
    return {"write_latency_mean_us": st["write_latency_mean_us"],
            "duplicate_rate": (st["dedup_duplicate_chunks"] / chunks
                               if chunks else 0.0),
            "hash_wait_ms": st["dedup_hash_wait_ns"] / 1e6}


def latencies(ssdsim: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="ssdemu-kim-") as name:
        traces = engine_traces(Path(name))
        runs = [(f"{load}/{path}", traces[load], [*load_keys, *path_keys],
                 load_keys, [])
                for load, load_keys in LOADS.items()
                for path, path_keys in PATHS.items()]
        runs += [(f"{t} (own arrivals)/{path}", TRACES / t, path_keys, [],
                  ["--remap", "dense"])
                 for t in MD5_TRACES for path, path_keys in PATHS.items()]
        for key, trace, keys, off_keys, flags in runs:
            out[key] = {"off": latency(ssdsim, trace, [*off_keys, "dedup=0"],
                                       flags),
                        **{str(n): latency(ssdsim, trace,
                                           [*keys, f"dedup_hash_engines={n}"],
                                           flags)
                           for n in ENGINES}}
    return out


def run(ssdsim: Path = sim.SSDSIM) -> dict[str, Any]:
    return {"dup_percent": DUP_PERCENT, "engines": ENGINES,
            "duplication": duplication(ssdsim),
            "latency": latencies(ssdsim)}


def pct(a: float, b: float) -> str:
    return f"{100.0 * (a - b) / b:+.1f}%" if b else "n/a"


def table_lines(r: dict[str, Any]) -> list[str]:
    lines = ["## Duplication per workload (every write fingerprinted, full"
             " store, --remap dense)", "",
             "Kim et al. (abstract): 4-51%, 17% on average, nine workloads"
             " (the repository's docs say 5-52%; the per-workload table is"
             " not stated here).", "",
             "| trace | 4 KiB chunks written | duplicates | rate (Kim's"
             " chunk) | 2 KiB chunks | duplicates | rate (ProCache's page) |",
             "|---|---|---|---|---|---|---|"]
    for name, row in r["duplication"].items():
        a, b = row["4 KiB"], row["2 KiB"]
        lines.append(f"| {name} | {a['chunks']} | {a['duplicates']}"
                     f" | {100 * a['rate']:.1f}% | {b['chunks']}"
                     f" | {b['duplicates']} | {100 * b['rate']:.1f}% |")
    lines += ["", "## Write latency, dedup off and on (kim-dedup-openssd"
              ".conf, 1300 us program, 80 us SHA-1 engine)", "",
              f"{WRITES} random 4 KiB writes, {r['dup_percent']}% of them"
              " copies of a page holding data (Kim's mean rate); QD1: one"
              " write every 5 ms; depth: bursts of 64 at queue depth 32;"
              " FIU samples at their own arrivals. Sampling filter on"
              " (the preset). Mean"
              " write latency (us) and the change against dedup off (Kim:"
              " -15% on average, up to -48%).", "",
              "| load / path | duplicates found | off (us) | 1 engine | 2"
              " engines | 4 engines |", "|---|---|---|---|---|---|"]
    for key, row in r["latency"].items():
        off = row["off"]["write_latency_mean_us"]
        cells = []
        for n in r["engines"]:
            v = row[str(n)]["write_latency_mean_us"]
            cells.append(f"{v:.0f} ({pct(v, off)})")
        lines.append(f"| {key} | {100 * row['1']['duplicate_rate']:.1f}%"
                     f" | {off:.0f} | " + " | ".join(cells) + " |")
    return lines


def write_results(r: dict[str, Any], out_dir: Path = RESULTS) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "kim-figs.json").write_text(json.dumps(r, indent=2) + "\n")
    (out_dir / "kim-figs.md").write_text(
        "# Kim et al.'s figures at 4 KiB chunks (bench/kim_figs.py)\n\n"
        "Command: `python3 -m bench.kim_figs` (or `python3 -m bench.run"
        " --only kim`). Engines with and without the sampling filter, and"
        " the break-even model: `idle-overlap.md`; the claims:"
        " `procache-claims.md`.\n\n" + "\n".join(table_lines(r)) + "\n")
    print(f"wrote {(out_dir / 'kim-figs.md').relative_to(ROOT)}")


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    result = run(opts.ssdsim.resolve())
    write_results(result)
    return result


def show(results: dict[str, Any]) -> None:
    print("\n".join(["", "Kim et al.'s figures (ssdsim)"]
                    + table_lines(results[NAME])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ssdsim", type=Path, default=sim.SSDSIM)
    args = parser.parse_args()
    result = run(args.ssdsim.resolve())
    show({NAME: result})
    write_results(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
