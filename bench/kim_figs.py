"""Kim et al.'s claims against ssdemu, in ssdsim (deterministic).

"Deduplication in SSDs: Model and Quantitative Analysis" (MSST 2012; the
talk with presenter notes, kim-dedup-in-ssds-msst-2012-talk.txt):
duplication "ranging from 5% to 52% with an average of 17%" over nine
workloads (:422), and the write latency improved "by up to 48% with an
average of 15%" (:460-461) under the experiment's condition (:444-449):
"the SHA-1 hardware logic and recency-based FP management", "Garbage
collection is not invoked"; the sampling filter is a separate experiment
(:507-508, :532).

1. Duplication per workload: the repository's traces with an MD5 per
   block (tests/data: FIU homes, an MD5 per 512-byte sector; FIU mail,
   one per 4 KiB block), replayed with --remap dense --remap-unit page
   (page units, as before the remap packed erase blocks by default: the
   figures stay comparable, and dedup counts content, not layout) through
   configs/kim-dedup-openssd.conf (4 KiB pages = Kim's chunk) with every
   write fingerprinted (dedup_filter=0, no buffer, the full store), so the
   rate is the content's: dedup_duplicate_chunks / dedup_chunks_written.
   Beside it the same on the ProCache paper's 2 KiB pages
   (procache-tlc.conf, dedup=1), whose chunk is half Kim's.
2. Write latency, dedup off and on with 1, 2 and 4 hash engines (Kim's
   hardware is one), at QD1 (one 4 KiB write every 5 ms) and at depth
   (bursts of 64 at queue depth 32), on WRITES random 4 KiB writes with
   DUP_PERCENT of duplicates (Kim's mean; a duplicate copies a page that
   holds data, bench/dedup_sweep.py's content model), re-timed as
   bench/idle_overlap.py does, from an empty device (no GC: the runs
   check it); and the two FIU samples at their own arrivals.  Under
   Kim's condition (CONDITIONS' first: no sampling filter, an LRU
   fingerprint store of KIM_STORE_ENTRIES) and, as sensitivity, an LRU of
   64, the full store, and the sampling filter with the full store:
   Kim's (over the buffered writes, dedup_filter_live_chunks=0, the
   default) and over the live chunks too (=1, the setting of the earlier
   report).  Two paths: Kim's (each write
   fingerprinted on its own write path, no buffer: the talk's model) and
   the overlapped one (a 64-page buffer, hashing beside the flash work of
   other requests: ours).

The recency store's size is not stated (:85-86: "Partial (Recent X
fingerprints with LRU)"); the talk names 64 and 2048 (:327, where "larger
than 2048" finds what the full store finds on every workload): 2048 is
the default here, the others are sensitivity rows.

Writes bench/results/kim-figs.json and kim-figs.md (the claims report).

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
KIM_PATH = "Kim's: write path, no buffer"
OVERLAP_PATH = "overlap, buffer 64"
PATHS = {KIM_PATH: ["dedup_buffer_pages=0", "dedup_hash_overlap=0"],
         OVERLAP_PATH: ["dedup_buffer_pages=64", "dedup_hash_overlap=1"]}
LOADS = {"QD1": ["cmd_queue_depth=1"],
         "depth": [f"cmd_queue_depth={idle_overlap.DEPTH_QD}"]}
KIM_STORE_ENTRIES = 2048
KIM_CONDITION = "no filter, LRU 2048 (Kim's)"
KIM_FILTER = "Kim's filter (buffered writes), full store"
EARLIER = "filter over the live chunks, full store (the earlier setting)"
CONDITIONS = {
    KIM_CONDITION: ["dedup_filter=0",
                    f"dedup_store_entries={KIM_STORE_ENTRIES}"],
    "no filter, LRU 64": ["dedup_filter=0", "dedup_store_entries=64"],
    "no filter, full store": ["dedup_filter=0", "dedup_store_entries=0"],
    # The sampling filter: Kim's (over the buffered writes, the default
    # since issue 32) and over the live chunks too (the earlier setting).
    KIM_FILTER: ["dedup_filter=1", "dedup_filter_live_chunks=0",
                 "dedup_store_entries=0"],
    EARLIER: ["dedup_filter=1", "dedup_filter_live_chunks=1",
              "dedup_store_entries=0"],
}
# The talk's figures.
PAPER_DUP = (0.05, 0.52, 0.17)     # :422
PAPER_LATENCY = (-0.48, -0.15)     # :460-461: up to, on average


# The placement of the traces: page units (see the top).
REMAP = ["--remap", "dense", "--remap-unit", "page"]


def duplication(ssdsim: Path) -> dict[str, Any]:
    out = {}
    for name in MD5_TRACES:
        row = {}
        for label, config, keys in (
                ("4 KiB", KIM, ALL_FINGERPRINTED),
                ("2 KiB", PROCACHE, [*PROCACHE_DEVICE, *ALL_FINGERPRINTED])):
            st = sim.run(TRACES / name, config=config, keys=keys,
                         flags=REMAP, binary=ssdsim)
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
            "hash_wait_ms": st["dedup_hash_wait_ns"] / 1e6,
            "gc_relocated_pages": st["gc_relocated_pages"],
            "erases": st["flash_erase_tlc_blocks"],
            "overhead_ns": (st["config"]["dedup_hash_ns"]
                            + st["config"]["dedup_lookup_ns"])}


def latencies(ssdsim: Path) -> dict[str, Any]:
    """{load/path: {condition: {"off": figures, engines: figures}}}."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="ssdemu-kim-") as name:
        traces = engine_traces(Path(name))
        runs = [(f"{load}/{path}", traces[load], [*load_keys, *path_keys],
                 load_keys, [])
                for load, load_keys in LOADS.items()
                for path, path_keys in PATHS.items()]
        runs += [(f"{t} (own arrivals)/{path}", TRACES / t, path_keys, [],
                  REMAP)
                 for t in MD5_TRACES for path, path_keys in PATHS.items()]
        for key, trace, keys, off_keys, flags in runs:
            off = latency(ssdsim, trace, [*off_keys, "dedup=0"], flags)
            out[key] = {
                cond: {"off": off,
                       **{str(n): latency(
                           ssdsim, trace,
                           [*keys, *cond_keys, f"dedup_hash_engines={n}"],
                           flags)
                          for n in ENGINES}}
                for cond, cond_keys in CONDITIONS.items()}
    return out


def run(ssdsim: Path = sim.SSDSIM) -> dict[str, Any]:
    return {"dup_percent": DUP_PERCENT, "engines": ENGINES,
            "duplication": duplication(ssdsim),
            "latency": latencies(ssdsim)}


def pct(a: float, b: float) -> str:
    return f"{100.0 * (a - b) / b:+.1f}%" if b else "n/a"


def change(row: dict[str, Any], engines: str = "1") -> float:
    """The mean write latency's change with dedup (Kim's one engine)."""
    off = row["off"]["write_latency_mean_us"]
    return (row[engines]["write_latency_mean_us"] - off) / off


def latency_verdict(ours: float) -> str:
    """Against the talk's -15% on average: within 3 points of it is
    reproduced, an improvement further off is the direction only."""
    avg = PAPER_LATENCY[1]
    if abs(ours - avg) <= 0.03:
        return "reproduced"
    return "direction only" if ours < 0 else "not reproduced"


def claims_lines(r: dict[str, Any]) -> list[str]:
    lat = r["latency"]
    qd1 = lat[f"QD1/{KIM_PATH}"]
    ours = change(qd1[KIM_CONDITION])
    fiu_rows = {t: lat[f"{t} (own arrivals)/{KIM_PATH}"][KIM_CONDITION]
                for t in MD5_TRACES}
    fiu = {t: change(row) for t, row in fiu_rows.items()}
    homes2 = change(fiu_rows[MD5_TRACES[0]], "2")
    dup4 = {t: row["4 KiB"]["rate"] for t, row in r["duplication"].items()}
    lo, hi, mean = PAPER_DUP
    dup_ok = all(lo <= v <= hi for v in dup4.values())
    gc = max(row[c][str(n)]["gc_relocated_pages"] + row[c][str(n)]["erases"]
             for row in lat.values() for c in row for n in r["engines"])
    kim = qd1[KIM_CONDITION]
    dup_found = kim["1"]["duplicate_rate"]
    off_us = kim["off"]["write_latency_mean_us"]
    cost_us = kim["1"]["overhead_ns"] / 1000
    # The talk's model (:132): a duplicate saves its program, every write
    # pays the fingerprint and the lookup.
    model = (cost_us - dup_found * off_us) / off_us
    old = change(qd1[EARLIER])
    kim_filter = change(qd1[KIM_FILTER])
    kim_filter_buffer = change(lat[f"QD1/{OVERLAP_PATH}"][KIM_FILTER])
    old_buffer = change(lat[f"QD1/{OVERLAP_PATH}"][EARLIER])
    full = change(qd1["no filter, full store"])
    depth = change(lat[f"depth/{KIM_PATH}"][KIM_CONDITION])
    return [
        "## Claims", "",
        "| claim | the paper | ours (Kim's condition) | verdict | cause"
        " where it differs |", "|---|---|---|---|---|",
        "| duplication rate of the workloads | \"ranging from 5% to 52%"
        " with an average of 17%\" (kim-dedup-in-ssds-msst-2012-talk.txt"
        ":422), nine desktop and server applications | "
        + ", ".join(f"{t.split('-sample')[0]} {100 * v:.1f}%"
                    for t, v in dup4.items())
        + " (4 KiB chunks, every write fingerprinted) | "
        + ("reproduced (in range)" if dup_ok else "not reproduced")
        + " | a property of the traces, not of the mechanism: ours are two"
        " short FIU samples (the mail one writes 16 chunks), not the"
        " talk's nine applications |",
        "| write latency with dedup (SHA-1 engine, recency store, no GC)"
        " | \"improve the write latency by up to 48% with an average of"
        " 15%\" (kim-dedup-in-ssds-msst-2012-talk.txt:460-461), under"
        " \"Use the SHA-1 hardware logic and recency-based FP management\""
        " (:446) and \"Garbage collection is not invoked.\" (:447) | "
        f"{100 * ours:+.1f}% at QD1 ({WRITES} random 4 KiB writes,"
        f" {r['dup_percent']}% duplicates of which {100 * dup_found:.1f}%"
        f" found, one 80 us engine, an LRU of {KIM_STORE_ENTRIES}"
        f" fingerprints, no filter, GC moved and erased {gc} pages and"
        " blocks in every run); FIU "
        + ", ".join(f"{t.split('-')[1]} {100 * v:+.1f}%"
                    for t, v in fiu.items())
        + f" | {latency_verdict(ours)} (the rule: within 3 points of -15%)"
        " | "
        + ("-" if latency_verdict(ours) == "reproduced" else
           f"every write pays the engine's {cost_us:.0f} us on its path"
           f" (the talk's model, :132): at {100 * dup_found:.1f}%"
           f" duplicates the model gives {100 * model:+.1f}% of the"
           f" {off_us:.0f} us write (ours {100 * ours:+.1f}%); the talk's"
           " -15% is"
           " the mean of nine workloads' gains (5-52% duplicates), not the"
           " gain at their mean rate. The recency store is not the cause:"
           f" the full store gives {100 * full:+.1f}%. The FIU homes"
           " sample's writes come in bursts that queue on the one engine"
           f" (two engines: {100 * homes2:+.1f}%)")
        + " |",
        "| (the same, up to -48%) | the best of the nine (Wayback, 52%"
        " duplicates, :431-432) | no trace of ours has that duplicate"
        " share | not attempted | - |", "",
        "Sensitivity (the table below): the earlier report's setting, the"
        " sampling filter over the buffered writes and the live chunks"
        f" (`dedup_filter_live_chunks=1`) with the full store, gives"
        f" {100 * old:+.1f}% at QD1 (it reported -14.5%); Kim's filter,"
        " over the buffered writes only (the default since issue 32, with"
        f" the full store), {100 * kim_filter:+.1f}% without a buffer (no"
        " write has a bucket mate: nothing is fingerprinted and no"
        f" duplicate found) and {100 * kim_filter_buffer:+.1f}% with the"
        f" 64-page buffer ({100 * old_buffer:+.1f}% over the live"
        " chunks). Kim's condition at depth (bursts"
        f" of 64 at queue depth 32) {100 * depth:+.1f}%: one engine"
        " serialises the hashes of writes the 32 chips would program in"
        " parallel, which the talk's QD1 model does not meet. The filter"
        " is the talk's other experiment (\"In this experiment, we use"
        " the sampling based filtering, instead of the SHA-1 hardware"
        " logic.\", :532), with GC at 80% utilisation (:511): not"
        " reproduced here.", ""]


def table_lines(r: dict[str, Any]) -> list[str]:
    lines = claims_lines(r) + [
        "## Duplication per workload (every write fingerprinted, full"
        " store, --remap dense --remap-unit page)", "",
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
              " FIU samples at their own arrivals. Mean write latency (us)"
              " and its change against dedup off, by fingerprint store and"
              " filter (Kim's condition first); GC = pages relocated and"
              " blocks erased, 0 in Kim's condition.", "",
              "| load / path | store and filter | duplicates found | off"
              " (us) | 1 engine | 2 engines | 4 engines | GC |",
              "|---|---|---|---|---|---|---|---|"]
    for key, by_cond in r["latency"].items():
        for cond, row in by_cond.items():
            off = row["off"]["write_latency_mean_us"]
            cells = []
            for n in r["engines"]:
                v = row[str(n)]["write_latency_mean_us"]
                cells.append(f"{v:.0f} ({pct(v, off)})")
            gc = max(row[str(n)]["gc_relocated_pages"]
                     + row[str(n)]["erases"] for n in r["engines"])
            lines.append(f"| {key} | {cond}"
                         f" | {100 * row['1']['duplicate_rate']:.1f}%"
                         f" | {off:.0f} | " + " | ".join(cells)
                         + f" | {gc} |")
    lines += ["", "The FIU rows with the 64-page buffer measure the buffer"
              " as much as dedup: the homes sample rewrites pages while"
              " they are buffered (those program nothing), and the mail"
              " sample's 16 writes stay in the buffer until the final"
              " FLUSH."]
    return lines


def write_results(r: dict[str, Any], out_dir: Path = RESULTS) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "kim-figs.json").write_text(json.dumps(r, indent=2) + "\n")
    (out_dir / "kim-figs.md").write_text(
        "# Kim et al.'s claims against ssdemu (bench/kim_figs.py)\n\n"
        "Command: `python3 -m bench.kim_figs` (or `python3 -m bench.run"
        " --only kim`), about two minutes. The talk:"
        " kim-dedup-in-ssds-msst-2012-talk.txt (in the papers' folder);"
        " docs/papers.md has the rules. Engines with and without the"
        " sampling filter, and the break-even model: `idle-overlap.md`,"
        " `dedup-sweep.json`.\n\n" + "\n".join(table_lines(r)) + "\n")
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
