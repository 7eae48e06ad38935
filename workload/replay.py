"""Replay a recorded workload through ssdsim under other device settings.

The VM run (workload/run.py) records each step's block trace (blkparse
text, D events: what the device was sent) and, for the replayed run, what
each step's writes left on the device (workload/capture.py: an MD5 per
512-byte sector).  This joins the steps in order into one request log
(`ssdctl log` format, each step's times shifted past the previous step's
end, every write followed by its sectors' MD5s) and replays it through
ssdsim: under each write cache policy and cache size, with dedup off and
on, and on larger devices.  The file system's behaviour comes from the VM;
the sweep costs seconds per setting.

The ProCache paper's Figs 8/9 come from the same log (fig89_sweep(),
after FIG89_WARMUP passes, the paper's warmup-6): ProCache's write hit
ratio over the pages of the requests it may admit (no larger than c by
default, smaller than c with procache_c_inclusive=0) and over all page
writes, against c, p and the cache size, with Belady's MIN (ssdsim
--belady) as the off-line bound; the counting is the one
bench/procache_figs.py does on its traces (ssdtools/procache_hits.py:
page_classes(), hit_ratios()).

A run with a cold data set (round 0's step, written before round 1) is
replayed in two parts, as the VM's figures are counted: round 0 on a fresh
device, saved (`ssdsim --save`), then the rounds from that snapshot with
its statistics zeroed (`--from --reset-stats`): the rounds run on the
device the cold data left, and their counters are the rounds' alone.

usage: python3 -m workload.replay [--scale small] [--from base]
"""
from __future__ import annotations

import argparse
import struct
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterable, TextIO

import ssdsim as sim
from ssdtools.paths import CONFIGS
from ssdtools.procache_device import (C_BYTES, DEVICE_KEYS, P_PPM, PRESET,
                                      SETTINGS, merged_keys, procache_keys)
from ssdtools.procache_hits import hit_ratios, page_classes, pages_of
from workload import prepare
from workload.capture import SECTOR_BYTES, step_requests
from workload.report import pct
from workload.settings import BACKGROUND_DESTAGE, REPLAY_SOURCE

SSDSIM = sim.SSDSIM
POLICIES = ("base", "refcnt", "procache")
STEP_ORDER = ("kernel-copy", "kernel-compile", "kernel-clean", "image-copy",
              "web-download", "remove")
# Round 0: what is written before round 1 and kept (the cold data set).
PRE_STEPS = ("cold-fill",)
# Figs 8/9: c in KiB (at the paper's p), p in ppm (at the paper's c) and
# the cache size in multiples of the scale's SLC blocks (at both).
FIG89_C_KIB = (1, 4, 8, 16)
FIG89_P_PPM = (50_000, 100_000, 200_000, 500_000, 1_000_000)
FIG89_CACHE_TIMES = (1, 2, 4)
# Figs 8/9 are measured after six warm-ups ("warmup-6", "k = 6":
# procache-plos-one-2017.txt:493, :514).
FIG89_WARMUP = 6


def device_value(scale: str, key: str) -> int:
    """The value of @key in the scale's device keys."""
    for k in DEVICE_KEYS[scale]:
        name, value = k.split("=", 1)
        if name == key:
            return int(value)
    raise KeyError(key)


def sweep_settings(scale: str) -> list[tuple[str, str, list[str]]]:
    """(group, policy, keys beyond the scale's device keys) of every
    replay."""
    equal = SETTINGS["nocache-equal"]
    rows: list[tuple[str, str, list[str]]] = [
        ("baseline", "nocache-equal", [*equal.scale_keys[scale],
                                       *equal.keys]),
        ("baseline", "nocache", SETTINGS["nocache"].keys)]
    slc = device_value(scale, "slc_blocks_per_chip")
    blocks = device_value(scale, "blocks_per_chip")
    # Cache sizes: half, the same and 1.5 times the VM's SLC blocks.
    for n in (slc // 2, slc, slc * 3 // 2):
        for policy in POLICIES:
            rows.append(("cache size", policy, [f"slc_blocks_per_chip={n}",
                                                *SETTINGS[policy].keys]))
    for policy in ("base", "procache"):
        rows.append(("dedup", policy, [*SETTINGS[policy].keys, "dedup=1"]))
    # Background destage on idle chips (off in every other row).
    for policy in ("base", "procache"):
        rows.append(("background destage", policy,
                     [*SETTINGS[policy].keys, *BACKGROUND_DESTAGE]))
    # Larger devices: the same footprint at a lower utilisation.
    for more in (blocks * 6 // 5, blocks * 8 // 5):
        for policy in ("base", "procache"):
            rows.append(("device size", policy,
                         [f"blocks_per_chip={more}",
                          *SETTINGS[policy].keys]))
    return rows


def load_content(path: Path) -> dict[int, bytes]:
    """capture.py's sector -> MD5 map of a step."""
    return {sector: md5 for sector, md5
            in struct.iter_unpack("<Q16s", path.read_bytes())}


def pre_tags(run_dir: Path) -> list[str]:
    """The run's round-0 steps (its cold data set), if it had any."""
    return [f"r0-{s}" for s in PRE_STEPS
            if (run_dir / f"r0-{s}.blkparse").exists()]


def join_traces(run_dir: Path, rounds: int, out: Path,
                pre_out: Path | None = None,
                steps: list[tuple[str, int, int]] | None = None) -> bool:
    """Concatenate the steps' requests into one request log at @out, times
    shifted to follow each other; the round-0 steps (pre_tags()) go to
    @pre_out, before them in time.  @steps, if given, receives each of
    @out's steps as (tag, first ns, last arrival ns).  True if every write
    carries its MD5s."""
    pre = pre_tags(run_dir)
    if pre and pre_out is None:
        raise SystemExit(f"{run_dir}: the run has a round 0 ({pre[0]}): "
                         "name the log for it")
    rounds_tags = [f"r{r}-{s}" for r in range(1, rounds + 1)
                   for s in STEP_ORDER]
    with_content = all((run_dir / f"{t}.md5").exists()
                       for t in pre + rounds_tags)
    offset_ns = 0
    for path, tags in ((pre_out, pre), (out, rounds_tags)):
        if not tags or path is None:
            continue
        with open(path, "w") as dst:
            for tag in tags:
                content = (load_content(run_dir / f"{tag}.md5")
                           if with_content else None)
                last = write_step(dst, run_dir / f"{tag}.blkparse", content,
                                  offset_ns)
                if steps is not None and path is out:
                    steps.append((tag, offset_ns, last))
                offset_ns = last + 10**9
    return with_content


def write_step(dst: TextIO, blkparse: Path, content: dict[int, bytes] | None,
               offset_ns: int) -> int:
    """One step's requests as log lines; returns the last arrival time."""
    last = offset_ns
    for t_ns, op, sector, count in step_requests(blkparse):
        last = max(last, t_ns + offset_ns)
        line = (f"{t_ns + offset_ns} {op} {sector * SECTOR_BYTES} "
                f"{count * SECTOR_BYTES} 0")
        if op == "W" and content is not None:
            try:
                line += " " + b"".join(content[s] for s in
                                       range(sector, sector + count)).hex()
            except KeyError as e:
                raise SystemExit(f"{blkparse}: sector {e} was written but "
                                 "not captured") from None
        dst.write(line + "\n")
    return last


def replay(trace: Path, keys: list[str], pre: Path | None = None,
           flags: tuple[str, ...] = ()) -> dict[str, Any]:
    """ssdsim's stats of the joined request log on the paper's preset
    with @keys; with @pre, that log first (saved, then the trace from the
    snapshot with the statistics zeroed: the trace's counters alone).
    @flags go to the trace's pass (e.g. --belady)."""
    if pre is None:
        return sim.run(trace, config=CONFIGS / PRESET, keys=keys,
                       format="ssdemu", flags=list(flags), binary=SSDSIM)
    with tempfile.TemporaryDirectory(dir=trace.parent) as tmp:
        snap = Path(tmp) / "pre.snap"
        sim.run(pre, config=CONFIGS / PRESET, keys=keys, format="ssdemu",
                flags=["--save", str(snap)], binary=SSDSIM)
        return sim.run(trace, format="ssdemu", binary=SSDSIM,
                       flags=["--from", str(snap), "--reset-stats",
                              *flags])


def joined(scale: prepare.Scale, source: str,
           steps: list[tuple[str, int, int]] | None = None
           ) -> tuple[Path, Path | None, bool]:
    """The run's joined request log, its round-0 log (None without a
    cold data set) and whether every write carries its MD5s; @steps as
    join_traces() fills it."""
    run_dir = prepare.WORK / "out" / scale.name / source
    trace = run_dir.parent / f"joined-{source}.log"
    pre = (run_dir.parent / f"round0-{source}.log" if pre_tags(run_dir)
           else None)
    return trace, pre, join_traces(run_dir, scale.rounds, trace, pre, steps)


def sweep(scale: prepare.Scale, source: str) -> list[dict[str, Any]]:
    trace, pre, with_content = joined(scale, source)
    rows = []
    for group, policy, extra in sweep_settings(scale.name):
        if "dedup=1" in extra and not with_content:
            continue
        st = replay(trace, merged_keys(DEVICE_KEYS[scale.name], extra), pre)
        conf = st["config"]
        rows.append({
            "group": group, "policy": policy,
            "dedup": conf["dedup"] == 1,
            "blocks_per_chip": conf["blocks_per_chip"],
            "slc_blocks_per_chip": conf["slc_blocks_per_chip"],
            "logical_mib": st["logical_capacity_bytes"] / 2**20,
            "cache_mib": (st["cache_capacity_pages"]
                          * conf["page_size_bytes"] / 2**20),
            "write_hit_ratio": st.get("cache_write_hit_ratio", 0),
            "tlc_programs": st["flash_program_tlc_pages"],
            "slc_programs": st["flash_program_slc_pages"],
            "tlc_erases": st["flash_erase_tlc_blocks"],
            "slc_erases": st["flash_erase_slc_blocks"],
            "gc_relocated": st["gc_relocated_pages"],
            "destage_foreground": st.get("cache_destage_foreground_pages",
                                         0),
            "destage_background": st.get("cache_destage_background_pages",
                                         0),
            "dup_percent": (100.0 * st["dedup_duplicate_chunks"]
                            / st["dedup_chunks_written"]
                            if st["dedup_chunks_written"] else None),
            "write_latency_mean_us": st["write_latency_mean_us"]})
    return rows


def log_write_pieces(lines: Iterable[str]) -> list[tuple[int, int]]:
    """(bytes ProCache sees, device pages) of each write of a request log
    (`ssdctl log` format: time op offset length ...), as
    bench/procache_figs.py's write_pieces() gives them for its traces."""
    pieces = []
    for line in lines:
        f = line.split()
        if len(f) >= 4 and f[1] == "W":
            offset, length = int(f[2]), int(f[3])
            pieces.append((length, pages_of(offset, length)))
    return pieces


def cache_keys(scale: str, times: int) -> list[str]:
    """The keys of a cache @times the scale's SLC blocks with the TLC
    region kept as it is (the added SLC blocks come on top), so the
    logical space and the file system's footprint do not change."""
    slc = device_value(scale, "slc_blocks_per_chip")
    blocks = device_value(scale, "blocks_per_chip")
    return [f"blocks_per_chip={blocks + slc * (times - 1)}",
            f"slc_blocks_per_chip={slc * times}"]


def fig89_settings() -> list[tuple[str, str, int, int, int]]:
    """(axis, policy, c bytes, p ppm, cache times) of every Fig 8/9
    replay: c at the paper's p, p at the paper's c, the cache size at
    both (with BASE beside ProCache); each setting once, under the first
    axis that needs it."""
    c0, p0 = C_BYTES, P_PPM
    want = ([("c", "procache", c * 1024, p0, 1) for c in FIG89_C_KIB]
            + [("p", "procache", c0, p, 1) for p in FIG89_P_PPM]
            + [("cache size", policy, c0, p0, n)
               for n in FIG89_CACHE_TIMES for policy in ("procache", "base")])
    out: list[tuple[str, str, int, int, int]] = []
    seen: set[tuple[str, int, int, int]] = set()
    for row in want:
        key = row[1:] if row[1] == "procache" else (row[1], 0, 0, row[4])
        if key not in seen:
            seen.add(key)
            out.append(row)
    return out


def fig89_keys(scale: str, policy: str, c_bytes: int, p_ppm: int,
               times: int, inclusive: bool = True,
               per_page: bool = False) -> list[str]:
    """The device keys of one Fig 8/9 replay (@inclusive: a request of
    exactly c may enter, procache_c_inclusive; @per_page: a request's
    cached pages hit alone, procache_hit_per_page)."""
    cache = (SETTINGS["base"].keys if policy == "base" else
             [*procache_keys(p_ppm, c_bytes),
              f"procache_c_inclusive={int(inclusive)}"]
             + (["procache_hit_per_page=1"] if per_page else []))
    return merged_keys(DEVICE_KEYS[scale], [*cache_keys(scale, times),
                                            *cache])


def check_fig89_classes(scale: prepare.Scale, trace: Path, pre: Path | None,
                        pieces: list[tuple[int, int]],
                        inclusive: bool) -> None:
    """At p = 0 nothing is admitted: every page of a request Algorithm 1
    calls too large must be a size bypass of the device, at every c."""
    for c_kib in FIG89_C_KIB:
        classes = page_classes(pieces, c_kib * 1024, inclusive)
        st = replay(trace, fig89_keys(scale.name, "procache", c_kib * 1024,
                                      0, 1, inclusive), pre)
        if st["cache_bypass_size_pages"] != classes["large_pages"]:
            raise SystemExit(
                f"fig 8/9: c = {c_kib} KiB: the device bypassed "
                f"{st['cache_bypass_size_pages']} pages for size, the log "
                f"has {classes['large_pages']} pages of requests too large")


def fig89_row(scale: prepare.Scale, trace: Path, pre: Path | None,
              pieces: list[tuple[int, int]], policy: str, c_bytes: int,
              p_ppm: int, times: int, warmup: int,
              inclusive: bool, per_page: bool = False) -> dict[str, Any]:
    """One Fig 8/9 replay: ssdtools/procache_hits.py's hit_ratios() of it."""
    classes = page_classes(pieces, c_bytes, inclusive)
    st = replay(trace, fig89_keys(scale.name, policy, c_bytes, p_ppm, times,
                                  inclusive, per_page), pre,
                ("--belady", "--warmup", str(warmup)))
    return {"policy": policy, "c_bytes": c_bytes, "p_ppm": p_ppm,
            "cache_times": times, "warmup": warmup, "inclusive": inclusive,
            "per_page": per_page,
            "cache_pages": st["cache_capacity_pages"],
            "cache_mib": (st["cache_capacity_pages"]
                          * st["config"]["page_size_bytes"] / 2**20),
            **classes, **hit_ratios(st, classes, policy == "procache")}


def fig89_sweep(scale: prepare.Scale, source: str,
                warmup: int = FIG89_WARMUP,
                inclusive: bool = True) -> list[dict[str, Any]]:
    """Figs 8/9 on the run's requests (see the top) after @warmup passes:
    a row per setting with ssdtools/procache_hits.py's hit_ratios().  The
    pages of each class come from the log; a replay with other page
    writes, or (at p = 0, where nothing is admitted) other size bypasses,
    is refused."""
    trace, pre, _ = joined(scale, source)
    with open(trace) as f:
        pieces = log_write_pieces(f)
    check_fig89_classes(scale, trace, pre, pieces, inclusive)
    rows = []
    for axis, policy, c_bytes, p_ppm, times in fig89_settings():
        rows.append({"axis": axis, **fig89_row(
            scale, trace, pre, pieces, policy, c_bytes, p_ppm, times, warmup,
            inclusive)})
    return rows


def base_of(rows: list[dict[str, Any]],
            r: dict[str, Any]) -> dict[str, Any] | None:
    """The BASE row of @r's device and cache size (dedup off)."""
    for b in rows:
        if (b["policy"] == "base" and not b["dedup"]
                and b["blocks_per_chip"] == r["blocks_per_chip"]
                and b["slc_blocks_per_chip"] == r["slc_blocks_per_chip"]):
            return b
    return None


def markdown(rows: list[dict[str, Any]], source: str) -> list[str]:
    lines = [f"## Replay of the `{source}` run's requests through ssdsim", "",
             "The VM run's block requests with their data's MD5s "
             "(workload/replay.py), one pass per setting; "
             "vs BASE = against BASE on the same device and cache size.", "",
             "| sweep | logical MiB | cache MiB | policy | dedup | "
             "write hit ratio | TLC programs | SLC programs | programs vs "
             "BASE | TLC erases | SLC erases | erases vs BASE | "
             "GC relocated | duplicates | write latency us |",
             "|---" * 15 + "|"]
    for r in rows:
        b = base_of(rows, r) or r
        progs = r["tlc_programs"] + r["slc_programs"]
        erases = r["tlc_erases"] + r["slc_erases"]
        dup = ("-" if r["dup_percent"] is None
               else f"{r['dup_percent']:.1f}%")
        lines.append(
            f"| {r['group']} | {r['logical_mib']:.0f} | "
            f"{r['cache_mib']:.0f} | "
            f"{r['policy']} | {'on' if r['dedup'] else 'off'} | "
            f"{r['write_hit_ratio']:.3f} | "
            f"{r['tlc_programs']} | {r['slc_programs']} | "
            f"{pct(progs, b['tlc_programs'] + b['slc_programs'])} | "
            f"{r['tlc_erases']} | {r['slc_erases']} | "
            f"{pct(erases, b['tlc_erases'] + b['slc_erases'])} | "
            f"{r['gc_relocated']} | {dup} | "
            f"{r['write_latency_mean_us']:.0f} |")
    return lines + [""]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", choices=sorted(prepare.SCALES),
                    default="small")
    ap.add_argument("--from", dest="source", default=REPLAY_SOURCE,
                    help="the VM run whose traces are replayed")
    args = ap.parse_args()
    rows = sweep(prepare.SCALES[args.scale], args.source)
    print("\n".join(markdown(rows, args.source)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
