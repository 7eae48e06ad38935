"""The FTL types in ssdsim (deterministic): WAF, erases, merges,
translation traffic, write latency and mapping RAM per `ftl_type`.

The types are the values of the `ftl_type` key as `ssdsim --list-keys`
lists them (ssdsim.choices), so a type the core registers shows
up here without a change.  When the build has `dftl_cmt_entries`, DFTL
runs once per CMT size of CMT_FRACTIONS (of the device's logical pages):
Gupta et al.'s overhead against CMT size.

Device (DEVICE): 4 chips on 2 channels, 40 blocks of 64 pages each
(256 KiB blocks), 15% over-provisioning, no SLC region, timing=1: 34 MiB
logical.  Workloads:

- the repository's traces (tests/data), each with --remap dense in its
  default unit, the erase block (TRACE_FLAGS: the erase blocks a trace
  touches packed into the device in first-touch order, the trace's
  layout inside each kept, so a block-mapped type sees the trace's own
  locality; no request wraps: a replay that wraps is an error) and
  WARMUP warm-up passes (statistics of the last pass only: the trace's
  rewrites meet the state its earlier passes left).  Until issue 33 the
  remap packed pages one by one, which turned scattered first writes
  into sequential runs and flattered bast and fast.  TPC-C's 20470
  pages lie in 7024 erase blocks of its 16 disks (1.7 GiB), run on the
  device grown to TRACE_DEVICE's blocks_per_chip (that footprint at 80%
  of the logical space); the FIU mail sample writes only 16 pages.
  Their arrival times are the traces'.
- a synthetic mix (SYNTHETIC): the device aged with `ssdsim --age
  fill=FILL` (sequential 128 KiB writes over 80% of the logical space,
  the same for every type), then SYN_PASSES x the filled pages of 4 KiB
  writes over the filled range, a share of them sequential (a cursor
  moving through the range) and the rest uniformly random (seeded):
  100% sequential, 50/50 and 100% random.  Open loop: one write every
  SYN_GAP_NS, so a type that cannot keep up queues (its mean latency
  then grows with the run; `flash ms / host page` is its service
  demand, independent of the arrival rate).

Per type and workload: WAF (flash programs / host page writes) and the
TLC-only WAF (TLC programs: here the same, no SLC region), erases,
switch/partial/full merges and the pages merges copied, DFTL's
translation page reads and writes and CMT hit ratio, mean and p99 write
latency, `ftl_map_ram_bytes` (the controller RAM the type's mapping
needs) and `ftl_metadata_bytes` (the simulator's own tables).  Counters a
build lacks are "-".

Beside the tables, the published qualitative results, each stated from
the numbers (agree or not): log-block merges blow up on random writes
(Lee et al., FAST: ACM TECS 2007) and FAST merges less than BAST there;
DFTL's translation overhead falls as its CMT grows (Gupta et al., ASPLOS
2009).

Writes bench/results/ftl-types.json, the ssdsim part of ftl-types.md
(bench/ftl_types_vm.py appends the VM's) and, with matplotlib,
ftl-types-waf.png and (with dftl) ftl-types-dftl-cmt.png.

Standalone: python3 -m bench.ftl_types [--ssdsim PATH]
"""
from __future__ import annotations

import argparse
import random
import shutil
import sys
from pathlib import Path
from typing import Any

from bench import md_parts
from bench.section import RESULTS, Options, write_json
from ssdtools import paths
import ssdsim as sim

NAME = "ftltypes"
PROGRESS = "ssdsim: FTL types (WAF, merges, translation traffic) ({ssdsim})"
SSDSIM = sim.SSDSIM
WORK = paths.ROOT / "build" / "bench-ftl-types"
DEVICE = ["chips=4", "channels=2", "pages_per_block=64",
          "blocks_per_chip=40", "slc_blocks_per_chip=0", "op_percent=15",
          "timing=1"]
TRACES = ["fiu-homes-sample.blkparse", "fiu-mail-sample.blkparse",
          "mqsim-tpcc-small.trace"]
TRACE_DEVICE: dict[str, list[str]] = {
    "mqsim-tpcc-small.trace": ["blocks_per_chip=2583"]}
# The remap in its default unit, named (the results say it).
TRACE_FLAGS = ["--remap", "dense", "--remap-unit", "erase-block"]
WARMUP = 2
FILL = 0.8
AGE_SEED = 1
# name -> share of the writes that are sequential.
SYNTHETIC = {"seq100": 1.0, "seq50-rand50": 0.5, "rand100": 0.0}
SYN_PASSES = 2
SYN_GAP_NS = 1_000_000
SYN_SEED = 1
TYPE_KEY = "ftl_type"
CMT_KEY = "dftl_cmt_entries"
DFTL = "dftl"
CMT_FRACTIONS = [(1, 64), (1, 8), (1, 2), (1, 1)]
# The counters kept per run (those the build has).
KEEP = ["host_write_pages", "host_read_pages", "flash_program_pages",
        "flash_program_tlc_pages", "flash_erase_blocks",
        "flash_program_gc_pages", "ftl_switch_merges",
        "ftl_partial_merges", "ftl_full_merges",
        "flash_program_merge_pages", "ftl_merge_erases",
        "dftl_cmt_hits", "dftl_cmt_misses", "dftl_translation_reads",
        "dftl_translation_writes", "dftl_translation_gc_pages",
        "flash_program_map_pages", "flash_read_map_pages",
        "ftl_map_ram_bytes", "ftl_metadata_bytes", "chip_busy_ns_total",
        "logical_capacity_bytes", "page_size_bytes", "virtual_time_ns"]
PUBLISHED = {
    "lee": "Log-block merges blow up on random writes (Lee et al., FAST,"
           " ACM TECS 2007; Kim et al.'s BAST): a hybrid FTL's WAF under"
           " random writes far above its sequential WAF and the page"
           " FTL's, driven by full merges.",
    "fast": "FAST's shared random log blocks merge less than BAST's"
            " per-block log blocks under random writes (Lee et al.).",
    "gupta": "DFTL's translation overhead falls as its cached mapping"
             " table grows, down to the page FTL's at a CMT of the whole"
             " map (Gupta et al., ASPLOS 2009).",
}


def types(binary: Path = SSDSIM) -> list[str]:
    """The FTL types the build registers (ftl_type's values)."""
    keys = sim.list_keys(binary)
    if TYPE_KEY not in keys:
        raise SystemExit(f"bench.ftl_types: {binary} has no {TYPE_KEY} key")
    return sim.choices(keys[TYPE_KEY])


def variants(type_names: list[str], has_cmt_key: bool
             ) -> list[tuple[str, str, tuple[int, int] | None]]:
    """(label, ftl_type, CMT fraction or None) per run of a workload: each
    type once, dftl once per CMT_FRACTIONS when the build has its key."""
    out: list[tuple[str, str, tuple[int, int] | None]] = []
    for t in type_names:
        if t == DFTL and has_cmt_key:
            out += [(f"{t} cmt={n}/{d}" if n != d else f"{t} cmt=1x", t,
                     (n, d)) for n, d in CMT_FRACTIONS]
        else:
            out.append((t, t, None))
    return out


def cmt_entries(logical_pages: int, fraction: tuple[int, int]) -> int:
    return max(1, logical_pages * fraction[0] // fraction[1])


def device_keys(extra: list[str], ftl_type: str,
                fraction: tuple[int, int] | None, logical_pages: int
                ) -> list[str]:
    keys = DEVICE + extra + [f"{TYPE_KEY}={ftl_type}"]
    if fraction is not None:
        keys.append(f"{CMT_KEY}={cmt_entries(logical_pages, fraction)}")
    return keys


def logical_pages_of(keys: list[str], binary: Path) -> int:
    """The logical pages of a device (from an --age of 1% of it)."""
    try:
        st = sim.run_args([*keys, "--age", "fill=0.01", "--json"],
                          binary=binary)
    except sim.SsdsimError as e:
        raise SystemExit(f"bench.ftl_types: {e}") from e
    return int(st["logical_capacity_bytes"] // st["page_size_bytes"])


def synthetic_trace(path: Path, working_pages: int, sequential: float,
                    writes: int, seed: int = SYN_SEED,
                    gap_ns: int = SYN_GAP_NS) -> None:
    """4 KiB writes over pages [0, working_pages), MQSim format: a share
    `sequential` of them from a cursor moving through the range (wrapping
    at its end), the others uniform; one every gap_ns."""
    rng = random.Random(seed)
    cursor = 0
    lines = []
    for i in range(writes):
        if rng.random() < sequential:
            lpn, cursor = cursor, (cursor + 1) % working_pages
        else:
            lpn = rng.randrange(working_pages)
        lines.append(f"{i * gap_ns} 0 {lpn * 8} 8 0")
    path.write_text("\n".join(lines) + "\n")


def row(st: dict[str, Any]) -> dict[str, Any]:
    """The figures kept of one run's --json statistics."""
    r: dict[str, Any] = {k: st[k] for k in KEEP if k in st}
    writes = max(st["host_write_pages"], 1)
    r["waf"] = st["flash_program_pages"] / writes
    r["tlc_waf"] = st["flash_program_tlc_pages"] / writes
    r["flash_ms_per_host_page"] = st["chip_busy_ns_total"] / writes / 1e6
    lat = st["latency"]["write"]
    r["write_mean_ms"] = lat["mean_ns"] / 1e6
    r["write_p99_ms"] = lat["p99_ns"] / 1e6
    if "dftl_translation_reads" in st:
        accesses = max(st["host_write_pages"] + st["host_read_pages"], 1)
        r["translation_ops_per_host_page"] = (
            st["dftl_translation_reads"]
            + st["dftl_translation_writes"]) / accesses
    if "dftl_cmt_hits" in st:
        looks = st["dftl_cmt_hits"] + st["dftl_cmt_misses"]
        r["cmt_hit_ratio"] = st["dftl_cmt_hits"] / looks if looks else None
    return r


def checked(st: dict[str, Any], what: str) -> dict[str, Any]:
    if st.get("wrapped_requests"):
        raise SystemExit(f"bench.ftl_types: {what}: "
                         f"{st['wrapped_requests']} requests wrapped")
    return st


def run_trace(binary: Path, trace: str, ftl_type: str,
              fraction: tuple[int, int] | None, logical_pages: int
              ) -> dict[str, Any]:
    keys = device_keys(TRACE_DEVICE.get(trace, []), ftl_type, fraction,
                       logical_pages)
    st = sim.run(paths.TRACES / trace, keys=keys,
                 flags=[*TRACE_FLAGS, "--warmup", str(WARMUP)],
                 binary=binary)
    return checked(st, f"{trace} ({' '.join(keys)})")


def age(binary: Path, keys: list[str], snap: Path) -> dict[str, Any]:
    try:
        return sim.run_args([*keys, "--age", f"fill={FILL}", "--seed",
                             str(AGE_SEED), "--save", str(snap), "--json"],
                            binary=binary)
    except sim.SsdsimError as e:
        raise SystemExit(f"bench.ftl_types: {e}") from e


def run_synthetic(binary: Path, ftl_type: str,
                  fraction: tuple[int, int] | None, logical_pages: int
                  ) -> dict[str, dict[str, Any]]:
    """Every synthetic mix on the type, each from the same aged device."""
    keys = device_keys([], ftl_type, fraction, logical_pages)
    snap = WORK / "aged.snap"
    aged = age(binary, keys, snap)
    working = aged["valid_pages"]
    out = {}
    for name, sequential in SYNTHETIC.items():
        trace = WORK / f"{name}.trace"
        synthetic_trace(trace, working, sequential, SYN_PASSES * working)
        st = sim.run(trace, flags=["--from", str(snap), "--reset-stats"],
                     binary=binary)
        out[name] = checked(st, f"{name} ({' '.join(keys)})")
        out[name]["working_pages"] = working
    snap.unlink()
    return out


def run(binary: Path = SSDSIM) -> dict[str, Any]:
    names = types(binary)
    has_cmt = CMT_KEY in sim.list_keys(binary)
    runs = variants(names, has_cmt)
    workloads: dict[str, dict[str, Any]] = {}
    WORK.mkdir(parents=True, exist_ok=True)
    try:
        for trace in TRACES:
            pages = logical_pages_of(DEVICE + TRACE_DEVICE.get(trace, []),
                                     binary)
            rows = {}
            for label, t, fraction in runs:
                st = run_trace(binary, trace, t, fraction, pages)
                rows[label] = row(st)
                rows[label]["footprint_pages"] = (
                    st["remap"]["footprint_bytes"] // st["page_size_bytes"])
                rows[label]["remap_unit"] = st["remap"]["unit"]
                rows[label]["remap_unit_bytes"] = st["remap"]["unit_bytes"]
            workloads[trace] = {"kind": "trace", "logical_pages": pages,
                                "rows": rows}
        pages = logical_pages_of(DEVICE, binary)
        for name in SYNTHETIC:
            workloads[name] = {"kind": "synthetic", "logical_pages": pages,
                               "sequential_share": SYNTHETIC[name],
                               "rows": {}}
        for label, t, fraction in runs:
            for name, st in run_synthetic(binary, t, fraction,
                                          pages).items():
                workloads[name]["rows"][label] = row(st)
                workloads[name]["working_pages"] = st["working_pages"]
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    result: dict[str, Any] = {
        "device": DEVICE, "trace_device": TRACE_DEVICE, "warmup": WARMUP,
        "fill": FILL, "syn_passes": SYN_PASSES, "syn_gap_ns": SYN_GAP_NS,
        "types": names, "cmt_key": has_cmt,
        "cmt_fractions": CMT_FRACTIONS if has_cmt and DFTL in names else [],
        "workloads": workloads}
    result["claims"] = claims(result)
    return result


def _fmt(v: Any, digits: int = 2) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


COLUMNS = [("WAF", "waf", 3), ("TLC WAF", "tlc_waf", 3),
           ("erases", "flash_erase_blocks", 0),
           ("switch", "ftl_switch_merges", 0),
           ("partial", "ftl_partial_merges", 0),
           ("full", "ftl_full_merges", 0),
           ("merge copies", "flash_program_merge_pages", 0),
           ("transl. reads", "dftl_translation_reads", 0),
           ("transl. writes", "dftl_translation_writes", 0),
           ("CMT hits", "cmt_hit_ratio", 3),
           ("flash ms / host page", "flash_ms_per_host_page", 2),
           ("write mean ms", "write_mean_ms", 2),
           ("write p99 ms", "write_p99_ms", 2),
           ("map RAM B", "ftl_map_ram_bytes", 0),
           ("sim metadata B", "ftl_metadata_bytes", 0)]


def workload_title(name: str, w: dict[str, Any], result: dict[str, Any]
                   ) -> str:
    if w["kind"] == "trace":
        extra = TRACE_DEVICE.get(name, [])
        first = next(iter(w["rows"].values()))
        fp = first["footprint_pages"]
        unit = first["remap_unit_bytes"]
        return (f"{name}: --remap dense in {first['remap_unit']} units"
                f" of {unit // 1024} KiB, --warmup {result['warmup']} (last"
                f" pass), footprint {fp} pages"
                f" ({fp * first['page_size_bytes'] // unit} units) of"
                f" {w['logical_pages']} logical"
                + (f" ({', '.join(extra)})" if extra else "")
                + f"; host page writes {first['host_write_pages']}")
    share = w["sequential_share"]
    return (f"{name}: aged fill={result['fill']} ({w['working_pages']}"
            f" of {w['logical_pages']} pages), then"
            f" {result['syn_passes']} x {w['working_pages']} 4 KiB writes,"
            f" {100 * share:.0f}% sequential, {100 * (1 - share):.0f}%"
            f" random, one every {result['syn_gap_ns'] / 1e6:g} ms")


def table_lines(result: dict[str, Any]) -> list[str]:
    syn = next(w for w in result["workloads"].values()
               if w["kind"] == "synthetic")
    page_bytes = next(iter(syn["rows"].values()))["page_size_bytes"]
    lines = [f"Device: {' '.join(result['device'])}"
             f" ({syn['logical_pages'] * page_bytes / 2**20:.0f} MiB"
             " logical); types from `ssdsim --list-keys`: "
             f"{', '.join(result['types'])}. WAF = flash programs / host"
             " page writes (merges, GC and translation pages included),"
             " TLC WAF: TLC programs only (the same here: no SLC region);"
             " map RAM = `ftl_map_ram_bytes` (the modeled controller RAM"
             " of the mapping), sim metadata = `ftl_metadata_bytes` (the"
             " simulator's own tables); '-': the build has no such"
             " counter.", "",
             f"Traces placed with `{' '.join(TRACE_FLAGS)}` (ssdsim's"
             " default unit since issue 33): each erase block a trace"
             " touches is packed whole, the trace's layout inside it kept,"
             " which is what the block-mapped types (block, bast, fast)"
             " map by. The page unit (`--remap-unit page`, the default"
             " before) packed pages first touched one after the other side"
             " by side, turning scattered first writes into sequential runs"
             " and flattering those types; ssdsim now warns about it."
             " A trace's device is sized to hold its erase blocks, so"
             " TPC-C's CMT fractions are of a larger map.", ""]
    for name, w in result["workloads"].items():
        lines += [f"### {workload_title(name, w, result)}", "",
                  "| type | " + " | ".join(c[0] for c in COLUMNS) + " |",
                  "|---|" + "---|" * len(COLUMNS)]
        for label, r in w["rows"].items():
            lines.append(f"| {label} | " + " | ".join(
                _fmt(r.get(key), digits) for _, key, digits in COLUMNS)
                + " |")
        lines.append("")
    return lines


def claims(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each published result, held against the numbers: agrees (True,
    False, or None when not measured) and why."""
    wl = result["workloads"]
    rand, seq = wl.get("rand100"), wl.get("seq100")
    out: dict[str, dict[str, Any]] = {}
    hybrid = [t for t in ("bast", "fast") if t in result["types"]]
    if rand and seq and hybrid and "page" in rand["rows"]:
        page_waf = rand["rows"]["page"]["waf"]
        why, ok = [], True
        for t in hybrid:
            r, s = rand["rows"][t], seq["rows"][t]
            agree = (r["waf"] > 2 * s["waf"] and r["waf"] > page_waf
                     and r.get("ftl_full_merges", 0)
                     > s.get("ftl_full_merges", 0))
            ok = ok and agree
            why.append(f"{t}: WAF {r['waf']:.2f} on rand100 vs"
                       f" {s['waf']:.2f} on seq100 (page:"
                       f" {page_waf:.2f} on rand100), full merges"
                       f" {r.get('ftl_full_merges', 0)} vs"
                       f" {s.get('ftl_full_merges', 0)}")
        out["lee"] = {"agrees": ok, "evidence": "; ".join(why)}
    else:
        out["lee"] = {"agrees": None, "evidence": "no bast/fast in this"
                      " build"}
    if rand and "bast" in rand["rows"] and "fast" in rand["rows"]:
        b, f = rand["rows"]["bast"], rand["rows"]["fast"]
        out["fast"] = {
            "agrees": (f["ftl_full_merges"] < b["ftl_full_merges"]
                       and f["waf"] < b["waf"]),
            "evidence": f"rand100: fast WAF {f['waf']:.2f}, full merges"
                        f" {f['ftl_full_merges']}; bast WAF"
                        f" {b['waf']:.2f}, full merges"
                        f" {b['ftl_full_merges']}"}
    else:
        out["fast"] = {"agrees": None, "evidence": "bast or fast missing"}
    out["gupta"] = dftl_claim(result)
    return out


def dftl_labels(result: dict[str, Any]) -> list[str]:
    return [f"{DFTL} cmt={n}/{d}" if n != d else f"{DFTL} cmt=1x"
            for n, d in result["cmt_fractions"]]


def dftl_claim(result: dict[str, Any]) -> dict[str, Any]:
    """Translation traffic per host page never rises with the CMT, falls
    somewhere, and a CMT of the whole map (1x) has the page FTL's WAF."""
    labels = dftl_labels(result)
    if not labels:
        return {"agrees": None, "evidence": "no dftl (or no "
                f"{CMT_KEY}) in this build: not measured"}
    ok, moved, why = True, False, []
    whole = result["cmt_fractions"][-1]
    for name, w in result["workloads"].items():
        ops = [w["rows"][lb]["translation_ops_per_host_page"]
               for lb in labels]
        ok = ok and all(a >= b for a, b in zip(ops, ops[1:]))
        moved = moved or ops[0] > ops[-1]
        text = f"{name}: " + " -> ".join(f"{x:.3f}" for x in ops)
        if whole[0] == whole[1] and "page" in w["rows"]:
            same = (w["rows"][labels[-1]]["flash_program_pages"]
                    == w["rows"]["page"]["flash_program_pages"])
            ok = ok and same
            text += (" (1x: the page FTL's programs)" if same else
                     " (1x: programs differ from the page FTL's)")
        why.append(text)
    return {"agrees": ok and moved,
            "evidence": "translation page reads + writes per host page"
                        f" read or written, CMT {' -> '.join(labels)}: "
                        + "; ".join(why)}


def claim_lines(result: dict[str, Any]) -> list[str]:
    lines = ["| published result | ours agree? | our numbers |",
             "|---|---|---|"]
    for key, text in PUBLISHED.items():
        c = result["claims"][key]
        verdict = {True: "yes", False: "no", None: "not measured"}[
            c["agrees"]]
        lines.append(f"| {text} | {verdict} | {c['evidence']} |")
    return lines


def memory_lines(result: dict[str, Any]) -> list[str]:
    """The mapping RAM each type needs on the bench device."""
    w = next(v for v in result["workloads"].values()
             if v["kind"] == "synthetic")
    lines = [f"Mapping RAM on the bench device ({w['logical_pages']}"
             " logical pages):", "",
             "| type | map RAM bytes | bytes / logical page"
             " | sim metadata bytes |", "|---|---|---|---|"]
    for label, r in w["rows"].items():
        ram = r.get("ftl_map_ram_bytes")
        lines.append(f"| {label} | {_fmt(ram)} | "
                     + (f"{ram / w['logical_pages']:.3f}" if ram is not None
                        else "-")
                     + f" | {_fmt(r.get('ftl_metadata_bytes'))} |")
    return lines


SIM_HEADING = "ssdsim: every type on the traces and the synthetic mix"
CLAIMS_HEADING = "Published results beside ours (ssdsim)"
FIRST = (SIM_HEADING, CLAIMS_HEADING)
TITLE = ("# FTL types: WAF, merges, translation traffic, latency and"
         " mapping RAM (bench/ftl_types.py, bench/ftl_types_vm.py)")


def write_part(heading: str, lines: list[str], out_dir: Path = RESULTS
               ) -> None:
    """Put lines under "## heading" in ftl-types.md, keeping the other
    parts (the ssdsim part first, then the kernels' tables)."""
    md_parts.write_part(out_dir / "ftl-types.md", TITLE, FIRST, heading,
                        lines)


def sim_part(result: dict[str, Any], figures: list[Path]) -> list[str]:
    lines = table_lines(result) + memory_lines(result) + [""]
    if figures:
        lines += ["Figures: " + ", ".join(f"![{p.stem}]({p.name})"
                                          for p in figures), ""]
    return lines


def figures(result: dict[str, Any], out_dir: Path = RESULTS) -> list[Path]:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    written = []
    names = list(result["workloads"])
    labels = list(next(iter(result["workloads"].values()))["rows"])
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / len(labels)
    for i, label in enumerate(labels):
        xs = [j + (i - (len(labels) - 1) / 2) * width
              for j in range(len(names))]
        ax.bar(xs, [result["workloads"][n]["rows"][label]["waf"]
                    for n in names], width, label=label)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels([n.replace("-sample", "").replace(".blkparse", "")
                        .replace(".trace", "") for n in names])
    ax.set_yscale("log")
    ax.set_ylabel("WAF (flash programs / host page writes)")
    ax.set_title("WAF per FTL type and workload (ssdsim)")
    ax.legend(fontsize="small", ncol=2)
    fig.tight_layout()
    path = out_dir / "ftl-types-waf.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    written.append(path)
    dl = dftl_labels(result)
    if dl:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        xs = [n / d for n, d in result["cmt_fractions"]]
        for n in names:
            ax.plot(xs, [result["workloads"][n]["rows"][lb]
                         ["translation_ops_per_host_page"] for lb in dl],
                    marker="o", label=n)
        ax.set_xscale("log")
        ax.set_xlabel("CMT entries / logical pages")
        ax.set_ylabel("translation page reads + writes\nper host page read"
                      " or written")
        ax.set_title("DFTL overhead against CMT size (ssdsim)")
        ax.legend(fontsize="small")
        fig.tight_layout()
        path = out_dir / "ftl-types-dftl-cmt.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def write_results(result: dict[str, Any], out_dir: Path = RESULTS) -> None:
    write_json(out_dir / "ftl-types.json", result)
    figs = figures(result, out_dir)
    write_part(SIM_HEADING, sim_part(result, figs), out_dir)
    write_part(CLAIMS_HEADING, claim_lines(result), out_dir)


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    result = run(opts.ssdsim.resolve())
    write_results(result)
    return result


def show(results: dict[str, Any]) -> None:
    r = results[NAME]
    print("\n".join(["", "FTL types in ssdsim"] + table_lines(r)
                    + [CLAIMS_HEADING] + claim_lines(r)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ssdsim", type=Path, default=SSDSIM)
    args = parser.parse_args()
    result = run(args.ssdsim.resolve())
    write_results(result)
    print("\n".join(table_lines(result) + claim_lines(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
