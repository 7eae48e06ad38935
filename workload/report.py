"""The workload report: tables and plots from workload/run.py's results.

Owns workload/results/<scale>/: report.md (totals against BASE beside the
papers' figures; per step and setting: wall time in the VM, the device's
modeled time, host writes, TLC and SLC programs and erases, GC, the
duplication rate; the duplication per workload; the replay sweep's table
from workload/replay.py; Figs 8/9, hit ratios against c, p and the cache
size, from the replay; and the reading of our figures against the
papers', its numbers taken from this run), fig10-time.png and
fig11-flash.png in the style of the ProCache paper's Figs 10 and 11, and
fig8-9-hit.png (Figs 8/9).
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ssdtools.procache_device import DEVICE_KEYS
from workload import prepare
from workload.settings import DEFAULT_SETTINGS, REPLAY_SOURCE

COUNTERS = ("host_write_bytes", "flash_program_tlc_pages",
            "flash_program_slc_pages", "flash_erase_tlc_blocks",
            "flash_erase_slc_blocks", "gc_relocated_pages",
            "command_latency_ns_total", "write_latency_ns_total",
            "write_commands", "dedup_chunks_written",
            "dedup_duplicate_chunks", "host_trim_bytes")
# The papers' figures our runs are put beside.
PAPER = ("ProCache paper (PLOS ONE 2017), ProCache against its baseline "
         "(no cache, \"for the baseline, we used 33 GB of flash memory\" "
         "against 32 GB of main storage and a 1 GB cache: "
         "`nocache-equal`; the VM's `nocache` gives the cache's blocks to "
         "TLC, 16.7% more flash): writes -19.3%, erases -14.0%, elapsed "
         "time -7.57% on average.  Kim et al. (MSST 2012): duplication "
         "5-52% (17% mean) on desktop workloads, write latency -15% (SHA-1 "
         "engine, recency store, no filter, no GC).  Claim by claim: "
         "bench/results/procache-claims.md, kim-figs.md.")
# The paper's claims: (what, its figure, the total that carries it here).
CLAIMS = (("writes (flash programs, TLC+SLC)", -19.3, "programs"),
          ("erases (TLC+SLC)", -14.0, "erases"),
          ("time (paper: elapsed; here: modeled write time)", -7.57,
           "modeled_write_ms"))
BASELINE_NAMES = {"nocache-equal": "no cache, TLC flash = the cached "
                  "device's TLC + the cache (the paper's baseline: 33 GB "
                  "against 32 GB + 1 GB)",
                  "nocache": "no cache, the cache's SLC blocks given to "
                  "TLC (16.7% more flash than the main region; the "
                  "paper's baseline had 3.1% more: "
                  "`nocache-equal`)", "base": "BASE: the cache admits every "
                  "write, destage synchronous"}
# The replay's baselines: the paper's capacity first (settings.py).
REPLAY_BASELINES = ("nocache-equal", "nocache", "base")
# Steps that stand for the same workload of Kim et al.'s duplication table.
WORKLOADS = {"kernel-copy": "kernel source", "kernel-compile": "compile",
             "kernel-clean": "compile", "image-copy": "DVD/CD images",
             "web-download": "web pages", "remove": "rm -rf",
             "cold-fill": "cold data set"}

Table = dict[str, tuple[dict[str, Any], list[dict[str, float]],
                        dict[str, float]]]


def delta(step: dict[str, Any], key: str) -> int:
    return int(step["after"].get(key, 0)) - int(step["before"].get(key, 0))


def step_row(step: dict[str, Any]) -> dict[str, float]:
    d = {k: delta(step, k) for k in COUNTERS}
    written = d["dedup_chunks_written"]
    return {
        "round": step["round"],
        "wall_s": step["wall_s"],
        "modeled_write_ms": d["write_latency_ns_total"] / 1e6,
        "host_mib": d["host_write_bytes"] / 2**20,
        "tlc_programs": d["flash_program_tlc_pages"],
        "slc_programs": d["flash_program_slc_pages"],
        "tlc_erases": d["flash_erase_tlc_blocks"],
        "slc_erases": d["flash_erase_slc_blocks"],
        "gc_relocated": d["gc_relocated_pages"],
        "chunks_written": written,
        "duplicates": d["dedup_duplicate_chunks"],
        "dup_percent": (100.0 * d["dedup_duplicate_chunks"] / written
                        if written else float("nan")),
        "trim_mib": d["host_trim_bytes"] / 2**20,
    }


def totals(rows: list[dict[str, float]]) -> dict[str, float]:
    """The rounds' totals: round 0 (the cold data set, written before
    Algorithm 2 starts) is the device's starting state, not the
    workload's, so it is left out."""
    keys = ("wall_s", "modeled_write_ms", "host_mib",
            "tlc_programs", "slc_programs", "tlc_erases", "slc_erases",
            "gc_relocated", "chunks_written", "duplicates", "trim_mib")
    t = {k: sum(r[k] for r in rows if r.get("round", 1) >= 1) for k in keys}
    t["programs"] = t["tlc_programs"] + t["slc_programs"]
    t["erases"] = t["tlc_erases"] + t["slc_erases"]
    return t


def pct(value: float, base: float) -> str:
    return f"{100.0 * (value - base) / base:+.1f}%" if base else "n/a"


def versus(value: float, base: float) -> str:
    """pct(), or both counts where the baseline's is 0."""
    return pct(value, base) if base or not value else f"{value:.0f} vs 0"


def header(scale: prepare.Scale) -> list[str]:
    return [f"# Algorithm 2 on the device ({scale.name} scale)", "",
            "Generated by `make workload` (workload/run.py); see "
            "workload/README.md for how the paper's workload is scaled: "
            f"{scale.objects} kernel objects compiled, images "
            f"2 x {scale.dvd_mib} MiB + {scale.cd_mib} MiB copied "
            f"{scale.image_copies} times, {scale.pages} web pages, "
            f"{scale.rounds} round(s) (`--rounds`), "
            + (f"a cold data set of {scale.cold_percent}% of the cached "
               "device's logical space written before round 1 and kept "
               "(`--cold-percent`; its step is round 0 in the per-step "
               "tables and outside every total and claim)"
               if scale.cold_percent else "no cold data set "
               "(`--cold-percent 0`)") + ".", "",
            "Wall time is the VM's (TCG: dominated by the emulated CPU); "
            "modeled write time is the sum of the device's modeled write "
            "latencies, which carries the comparison between settings.", ""]


def vm_times(table: Table) -> list[str]:
    runs = ", ".join(f"{name} {r['vm_wall_s']:.0f} s" for name, (r, _, _)
                     in table.items() if "vm_wall_s" in r)
    return [f"Each setting's VM run, boot to power-off: {runs}.", ""]


def baselines(table: Table) -> list[str]:
    """The baselines among the runs, the paper's first."""
    return [b for b in BASELINE_NAMES if b in table]


def totals_section(table: Table) -> list[str]:
    bases = baselines(table)
    lines = ["## Totals against the baselines", "", PAPER, "",
             "Baselines: " + "; ".join(
                 f"`{b}` is {BASELINE_NAMES[b]}" for b in bases) + ".", "",
             "| setting | wall s | modeled write ms | "
             + "".join(f"vs {b} | " for b in bases)
             + "programs (TLC+SLC) | "
             + "".join(f"vs {b} | " for b in bases)
             + "TLC programs | erases (TLC+SLC) | "
             + "".join(f"vs {b} | " for b in bases)
             + "TLC GC relocated pages | TRIM MiB |",
             "|---" * (8 + 3 * len(bases)) + "|"]
    for name, (_, _, t) in table.items():
        lines.append(
            f"| {name} | {t['wall_s']:.1f} | {t['modeled_write_ms']:.0f} | "
            + "".join(f"{pct(t['modeled_write_ms'], ms)} | "
                      for ms in (table[b][2]["modeled_write_ms"]
                                 for b in bases))
            + f"{t['programs']:.0f} | "
            + "".join(f"{pct(t['programs'], table[b][2]['programs'])} | "
                      for b in bases)
            + f"{t['tlc_programs']:.0f} | {t['erases']:.0f} | "
            + "".join(f"{pct(t['erases'], table[b][2]['erases'])} | "
                      for b in bases)
            + f"{t['gc_relocated']:.0f} | {t['trim_mib']:.1f} |")
    return lines + [""]


def claims_section(table: Table) -> list[str]:
    """Each of the paper's claims for ProCache against each baseline."""
    bases = baselines(table)
    if "procache" not in table or not bases:
        return []
    p = table["procache"][2]
    lines = ["## The paper's claims, ProCache against each baseline", "",
             "| claim | paper | "
             + " | ".join(f"ProCache vs `{b}`" for b in bases) + " |",
             "|---" * (2 + len(bases)) + "|"]
    for what, paper, key in CLAIMS:
        lines.append(f"| {what} | {paper:+.2f}% | " + " | ".join(
            versus(p[key], table[b][2][key]) for b in bases) + " |")
    lines.append("| TLC programs alone | - | " + " | ".join(
        f"{pct(p['tlc_programs'], table[b][2]['tlc_programs'])}"
        for b in bases) + " |")
    return lines + [""]


def replay_claims(rows: list[dict[str, Any]], slc: int) -> list[str]:
    """The paper's claims from the replay of one run's requests: ProCache,
    BASE and the no-cache baselines on the VM's device (@slc SLC blocks
    per chip), the same requests in the same order for all."""
    pick: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r["dedup"]:
            continue
        if r["group"] == "baseline":
            pick[r["policy"]] = r
        elif (r["group"] == "cache size" and r["slc_blocks_per_chip"] == slc
              and r["policy"] in ("base", "procache")):
            pick[r["policy"]] = r
    if any(b not in pick for b in (*REPLAY_BASELINES, "procache")):
        return []
    p = pick["procache"]

    def total(r: dict[str, Any], what: str) -> float:
        if what == "modeled_write_ms":
            return float(r["write_latency_mean_us"])
        return float(r[f"tlc_{what}"] + r[f"slc_{what}"])

    lines = ["## The paper's claims in the replay, ProCache against each "
             "baseline", "",
             "The same requests (the replayed run's, in its order) through "
             "ssdsim on the VM's device under each setting; time is the "
             "mean modeled write latency (the same writes in every replay, "
             "so its ratio is that of the summed write times).", "",
             "| claim | paper | " + " | ".join(
                 f"ProCache vs `{b}`" for b in REPLAY_BASELINES) + " |",
             "|---" * (2 + len(REPLAY_BASELINES)) + "|"]
    for what, paper, key in CLAIMS:
        lines.append(f"| {what} | {paper:+.2f}% | " + " | ".join(
            versus(total(p, key), total(pick[b], key))
            for b in REPLAY_BASELINES) + " |")
    lines.append("| TLC programs alone | - | " + " | ".join(
        pct(p["tlc_programs"], pick[b]["tlc_programs"])
        for b in REPLAY_BASELINES) + " |")
    lines += ["", "| replay | programs TLC / SLC | erases TLC / SLC | "
              "TLC GC relocated pages | write latency us |",
              "|---|---|---|---|---|"]
    for name in (*REPLAY_BASELINES, "procache"):
        r = pick[name]
        lines.append(
            f"| {name} | {r['tlc_programs']} / {r['slc_programs']} | "
            f"{r['tlc_erases']} / {r['slc_erases']} | {r['gc_relocated']} | "
            f"{r['write_latency_mean_us']:.0f} |")
    return lines + [""]


def steps_section(result: dict[str, Any],
                  rows: list[dict[str, float]]) -> list[str]:
    lines = [f"## {result['setting']} (`{' '.join(result['keys'])}`, "
             f"mount `{result.get('mount', 'nodiscard')}`, "
             f"kernel {result['kernel']})", "",
             "| round | step | wall s | modeled write ms | host MiB | "
             "TLC programs | SLC programs | TLC erases | SLC erases | "
             "GC relocated | duplicates |", "|---" * 11 + "|"]
    for s, row in zip(result["steps"], rows):
        dup = ("-" if math.isnan(row["dup_percent"])
               else f"{row['dup_percent']:.1f}%")
        lines.append(
            f"| {s['round']} | {s['step']} | {row['wall_s']:.1f} | "
            f"{row['modeled_write_ms']:.0f} | {row['host_mib']:.1f} | "
            f"{row['tlc_programs']} | {row['slc_programs']} | "
            f"{row['tlc_erases']} | {row['slc_erases']} | "
            f"{row['gc_relocated']} | {dup} |")
    return lines + [""]


Dup = dict[str, dict[int, tuple[int, int]]]


def duplication(result: dict[str, Any], rows: list[dict[str, float]]) -> Dup:
    """(chunks written, duplicates) per workload and round of @result's
    run."""
    per: Dup = {}
    for s, row in zip(result["steps"], rows):
        if s["round"] < 1:
            continue
        by_round = per.setdefault(WORKLOADS.get(s["step"], s["step"]), {})
        c, d = by_round.get(s["round"], (0, 0))
        by_round[s["round"]] = (c + int(row["chunks_written"]),
                                d + int(row["duplicates"]))
    return per


def rate(counts: list[tuple[int, int]]) -> float:
    """Duplicates / chunks written of @counts, in percent."""
    c = sum(v[0] for v in counts)
    return 100.0 * sum(v[1] for v in counts) / c if c else 0.0


def duplication_section(per: Dup, setting: str) -> list[str]:
    rounds = sorted({r for by_round in per.values() for r in by_round})
    lines = ["## Duplication rate per workload (Kim et al.'s measure)", "",
             f"From the `{setting}` run: duplicate chunks / chunks written "
             "(one chunk = one 2 KiB flash page).  Kim et al. measured "
             "5-52% (17% mean) on desktop and server workloads.", "",
             "| workload | chunks written | "
             + " | ".join(f"round {r}" for r in rounds) + " | all |",
             "|---" * (len(rounds) + 3) + "|"]
    for w, by_round in per.items():
        cells = [f"{rate([by_round[r]]):.1f}%" if r in by_round else "-"
                 for r in rounds]
        lines.append(f"| {w} | {sum(v[0] for v in by_round.values())} | "
                     + " | ".join(cells)
                     + f" | {rate(list(by_round.values())):.1f}% |")
    everything = [v for by_round in per.values() for v in by_round.values()]
    cells = [f"{rate([b[r] for b in per.values() if r in b]):.1f}%"
             for r in rounds]
    lines.append(f"| all | {sum(v[0] for v in everything)} | "
                 + " | ".join(cells) + f" | {rate(everything):.1f}% |")
    return lines + [""]


def reading(table: Table, replay_rows: list[dict[str, Any]]) -> list[str]:
    """Our figures against the papers', each difference explained; the
    numbers are this run's."""
    base = table["base"][2]
    lines = ["## Against the papers", ""]
    if "procache" in table:
        p = table["procache"][2]
        slc_share = 100.0 * base["slc_programs"] / base["programs"]
        progs = pct(p["programs"], base["programs"])
        tlc = pct(p["tlc_programs"], base["tlc_programs"])
        lines += [
            f"- **Writes.** ProCache programs {progs} pages against BASE "
            "(paper: -19.3%). BASE admits every write, "
            f"so {slc_share:.0f}% of its programs are SLC cache programs "
            "and most of its cached pages are programmed a second time when "
            "they are destaged to TLC; this workload is write-once (copies, "
            "a compile, pages), so few cached pages are rewritten before "
            "they leave the cache (write hit ratio "
            + hit_ratios(replay_rows) + " in the replay). Counting TLC "
            f"programs alone, ProCache is {tlc}"
            + (": BASE's cache absorbs the rewrites it does get (journal, "
               "metadata) before they reach TLC" if p["tlc_programs"]
               > base["tlc_programs"] else "") + ". The paper's NVM cache "
            "is a separate memory, so its writes figure counts flash writes "
            "only; ours is SLC flash carved out of the same chips, so both "
            "regions are counted.",
            f"- **Erases.** ProCache {pct(p['erases'], base['erases'])} "
            f"(paper: -14.0%). BASE erased {base['slc_erases']:.0f} SLC and "
            f"{base['tlc_erases']:.0f} TLC blocks, ProCache "
            f"{p['slc_erases']:.0f} and {p['tlc_erases']:.0f}: BASE's cache "
            "churns through the SLC blocks (every admitted page is an SLC "
            "program, so SLC GC erases at the rate of the host's writes), "
            "which a cache that admits little avoids. TLC erases come from "
            "TLC GC once the flash is full; "
            + ("it ran in the later rounds, and relocated "
               f"{base['gc_relocated']:.0f} pages under BASE and "
               f"{p['gc_relocated']:.0f} under ProCache"
               + (": ext4 reuses the blocks `rm -rf` freed, so the rewrites "
                  "invalidate whole flash blocks before GC picks them"
                  if not base["gc_relocated"] + p["gc_relocated"] else
                  " (the file system is mounted without `discard`, so the "
                  "device still holds the previous round's deleted files "
                  "as valid until ext4 writes over their blocks; with the "
                  "cold data set filling part of the flash, GC must "
                  "reclaim blocks before a round has overwritten all of "
                  "them, and ext4 does not rewrite them in the order it "
                  "wrote them, so its victims still hold valid pages)")
               if base["tlc_erases"]
               else "our rounds did not fill the TLC, so there were none")
            + (f". ProCache's TLC erases exceed BASE's "
               f"({pct(p['tlc_erases'], base['tlc_erases'])}) though its TLC "
               f"programs differ by {tlc}: only the programs beyond the "
               "TLC's capacity need erased blocks, so extra programs made "
               "after the flash filled each cost a reclaimed page"
               if p["tlc_erases"] > base["tlc_erases"] > 0 else "")
            + ". In the paper's run TLC GC is heavy (31.6 GB written per "
            "round on a 32 GB device) and its erases are counted with the "
            "cache's, which may be what dilutes the cache's effect to "
            "-14%; the paper does not split them by region.",
            f"- **Time.** Modeled write time: ProCache "
            f"{pct(p['modeled_write_ms'], base['modeled_write_ms'])} against "
            "BASE (paper: elapsed time -7.57%). BASE destages inside the "
            "write that needs the room, so under `cp`'s deep queues its "
            "writes wait behind SLC reads and TLC programs; ProCache "
            "sends most writes to TLC directly, 32 chips in parallel. The "
            "paper measures elapsed time on real hardware, where the CPU's "
            "share (compile, copy) dilutes the device's; our wall time "
            f"(BASE {base['wall_s']:.0f} s, ProCache {p['wall_s']:.0f} s) "
            "is dominated by the emulated CPU (" + compile_spread(table)
            + "), so it carries no comparison.",
        ]
    if "refcnt" in table:
        r = table["refcnt"][2]
        lines.append(
            f"- **REFCNT** {pct(r['programs'], base['programs'])} programs, "
            f"{pct(r['erases'], base['erases'])} erases: it admits a page "
            "on its third write (Algorithm 3 as the paper writes it, the "
            "default: `refcnt_threshold`=2 writes counted and sent to TLC "
            "first, `refcnt_count_first`=0), which in a write-once "
            "workload keeps almost everything out, as ProCache's dice do; "
            "the paper found REFCNT between BASE and ProCache, on a "
            "workload with more rewrites than ours.")
    lines += baseline_reading(table, replay_rows)
    lines += replay_check(table, replay_rows)
    lines += dedup_reading(table, replay_rows)
    return lines + [""]


def share(value: float, whole: float) -> str:
    if not whole:
        return "n/a"
    part = 100.0 * value / whole
    return f"{part:.1f}%" if part < 10 else f"{part:.0f}%"


def baseline_reading(table: Table, replay_rows: list[dict[str, Any]]
                     ) -> list[str]:
    """ProCache against the paper's own baseline, GC, the discard mount
    and background destage: the numbers are this run's."""
    lines: list[str] = []
    if "nocache" in table and "procache" in table:
        n_res, _, n = table["nocache"]
        p = table["procache"][2]
        lines.append(
            f"- **The no-cache baseline.** Against `nocache` (the same "
            f"flash blocks, none in SLC mode: `{' '.join(n_res['keys'])}`; "
            "16.7% more flash than the cached device's main region, where "
            "the paper's baseline had 3.1% more: "
            "`nocache-equal`), "
            f"ProCache programs {pct(p['programs'], n['programs'])} pages "
            f"(paper: -19.3%), erases {pct(p['erases'], n['erases'])} "
            f"(paper: -14.0%), modeled write time "
            f"{pct(p['modeled_write_ms'], n['modeled_write_ms'])} (paper: "
            f"-7.57%). ProCache sent {share(p['slc_programs'], p['programs'])}"
            " of its programs to the cache: with c = 8 KiB and p = 0.1 it "
            "admits a tenth of the small requests, and a write-once "
            "workload rewrites few of them while cached, so it cannot "
            "save many flash writes; meanwhile its TLC region is smaller "
            "than `nocache`'s by the SLC blocks, so its TLC GC works at a "
            f"higher utilisation (relocated {p['gc_relocated']:.0f} pages, "
            f"`nocache` {n['gc_relocated']:.0f}; TLC erases "
            f"{p['tlc_erases']:.0f} and {n['tlc_erases']:.0f}).")
    if "base" in table and "nocache" in table:
        b, n = table["base"][2], table["nocache"][2]
        lines.append(
            f"- **The two baselines.** BASE against `nocache`: programs "
            f"{pct(b['programs'], n['programs'])}, erases "
            f"{pct(b['erases'], n['erases'])}, modeled write time "
            f"{pct(b['modeled_write_ms'], n['modeled_write_ms'])}. A claim "
            "measured against BASE counts, on top of ProCache's own effect, "
            "what admitting every write costs (each admitted page is "
            "programmed in SLC and again in TLC, and BASE destages inside "
            "the writes); against `nocache` only the cache's own effect "
            "remains.")
    gc = {name: t["gc_relocated"] for name, (_, _, t) in table.items()}
    trimmed = {name for name, (r, _, _) in table.items()
               if r.get("mount") == "discard"}
    kept = {k: v for k, v in gc.items() if k not in trimmed}
    if gc:
        moved = [f"`{k}` {v:.0f}" for k, v in gc.items()]
        lines.append(
            "- **TLC GC.** Pages relocated by GC: " + ", ".join(moved)
            + (". GC relocates under every setting mounted with "
               "`nodiscard`: the rounds overwrite more than the flash "
               "holds and, with the cold data set, fill the device about "
               "as the paper's did (31.6 GB per round on 32 GB)"
               if kept and all(kept.values()) else
               ". Where it is 0 under `nodiscard`, the rounds did not make "
               "TLC GC relocate (raise `--cold-percent` or `--rounds`)")
            + "".join(
                f"; `{k}` relocated {gc[k]:.0f}: ext4 trims the blocks it "
                "frees, so the device holds no deleted file's data for GC "
                "to move" for k in sorted(trimmed)) + "."
            + replay_gc(table, replay_rows))
    if "procache-discard" in table and "procache" in table:
        d, p = table["procache-discard"][2], table["procache"][2]
        lines.append(
            f"- **`discard`.** Mounted with `discard`, ext4 trimmed "
            f"{d['trim_mib']:.0f} MiB; against ProCache without it: programs "
            f"{pct(d['programs'], p['programs'])}, erases "
            f"{pct(d['erases'], p['erases'])}, GC relocated "
            f"{d['gc_relocated']:.0f} pages against {p['gc_relocated']:.0f}, "
            f"modeled write time "
            f"{pct(d['modeled_write_ms'], p['modeled_write_ms'])}. A trimmed "
            "page is no longer valid, so GC does not move the data of "
            "deleted files.")
    lines += background_reading(replay_rows)
    return lines


def replay_gc(table: Table, replay_rows: list[dict[str, Any]]) -> str:
    """TLC GC's relocations in the replay of one run's requests on the
    VM's devices (the no-cache baseline, BASE and ProCache)."""
    vm = next((r for r, _, _ in table.values()
               if "slc_blocks_per_chip=0" not in r["keys"]), None)
    if vm is None:
        return ""
    keys = dict(k.split("=", 1) for k in vm["keys"])
    slc = int(keys.get("slc_blocks_per_chip", -1))
    moved = [f"`{r['policy']}` {r['gc_relocated']}" for r in replay_rows
             if not r["dedup"] and (
                 r["group"] == "baseline"
                 or (r["group"] == "cache size" and r["slc_blocks_per_chip"]
                     == slc and r["policy"] in ("base", "procache")))]
    if not moved:
        return ""
    return (" In the replay of one run's requests (every setting sees "
            "the blocks where ext4 put them on the cached device's file "
            "system, smaller than the no-cache device's): "
            + ", ".join(moved) + ".")


def background_reading(replay_rows: list[dict[str, Any]]) -> list[str]:
    """Background destage on against off, from the replay."""
    out = []
    for policy in ("base", "procache"):
        on = [r for r in replay_rows if r["group"] == "background destage"
              and r["policy"] == policy]
        off = [r for r in replay_rows if r["group"] == "cache size"
               and r["policy"] == policy and on
               and r["slc_blocks_per_chip"] == on[0]["slc_blocks_per_chip"]]
        if not on or not off:
            continue
        a, b = on[0], off[0]
        programs = pct(a["tlc_programs"] + a["slc_programs"],
                       b["tlc_programs"] + b["slc_programs"])
        out.append(
            f"- **Background destage ({policy}, replay).** With "
            "`cache_destage_high_percent=90` (down to 50%) the mean write "
            f"latency is {a['write_latency_mean_us']:.0f} us against "
            f"{b['write_latency_mean_us']:.0f} us without "
            f"({pct(a['write_latency_mean_us'], b['write_latency_mean_us'])}"
            f"); destaged pages: {a['destage_foreground']} in the "
            f"foreground and {a['destage_background']} in the background, "
            f"against {b['destage_foreground']} and "
            f"{b['destage_background']}; programs {programs}.")
    return out


def replay_check(table: Table, replay_rows: list[dict[str, Any]]
                 ) -> list[str]:
    """The replay of BASE on BASE's own device against the VM run."""
    result, _, t = table["base"]
    keys = dict(k.split("=", 1) for k in result["keys"])
    same = [r for r in replay_rows if r["policy"] == "base" and not r["dedup"]
            and str(r["blocks_per_chip"]) == keys.get("blocks_per_chip")
            and str(r["slc_blocks_per_chip"])
            == keys.get("slc_blocks_per_chip")]
    if not same:
        return []
    r = same[0]
    return [
        "- **Replay against the VM.** BASE replayed on its own device "
        f"programs {r['tlc_programs']} TLC and {r['slc_programs']} SLC "
        f"pages and erases {r['tlc_erases']} TLC and {r['slc_erases']} SLC "
        f"blocks; the VM run: {t['tlc_programs']:.0f}, "
        f"{t['slc_programs']:.0f}, {t['tlc_erases']:.0f} and "
        f"{t['slc_erases']:.0f}. The model is deterministic for a given "
        "order of requests (the kernel's own request log replays exactly, "
        "tests/vm); blktrace's timestamps come from two CPUs, so requests "
        "close in time may reach the replay in another order than they "
        "reached the device, and destage and GC follow the order."]


def compile_spread(table: Table) -> str:
    """The compile step's wall times across settings and rounds: the
    emulated CPU's share, which no device setting changes."""
    walls = [s["wall_s"] for r, _, _ in table.values() for s in r["steps"]
             if s["step"] == "kernel-compile"]
    if not walls:
        return "no compile step"
    return (f"the compile step, which writes almost nothing, takes "
            f"{min(walls):.0f}-{max(walls):.0f} s under every setting")


def hit_ratios(replay_rows: list[dict[str, Any]]) -> str:
    ratios = [r["write_hit_ratio"] for r in replay_rows if not r["dedup"]]
    if not ratios:
        return "(no replay)"
    return f"{min(ratios):.3f}-{max(ratios):.3f}"


def dedup_reading(table: Table, replay_rows: list[dict[str, Any]]
                  ) -> list[str]:
    name = next((n for n in table if n.endswith("-dedup")), None)
    if name is None:
        return []
    result, rows, t = table[name]
    plain_name = name[:-len("-dedup")]
    if plain_name not in table:
        plain_name = "base"
    plain = table[plain_name][2]
    per = duplication(result, rows)
    rounds = sorted({r for by_round in per.values() for r in by_round})

    def rates(rnd: int) -> str:
        return ", ".join(f"{w} {rate([b[rnd]]):.1f}%"
                         for w, b in per.items() if b.get(rnd, (0, 0))[0])

    first = rate([b[1] for b in per.values() if 1 in b])
    images = (
        "Copies 2 and later of each image repeat the first, so the image "
        "step is the duplicate-rich one"
        if rate([per.get("DVD/CD images", {}).get(1, (0, 0))]) >= 20 else
        "The images are copied once here, so they hold no duplicates")
    later = ""
    if len(rounds) > 1:
        again = rate([v for b in per.values()
                      for r, v in b.items() if r > 1])
        later = (
            f" In the later rounds ({rates(rounds[-1])} in round "
            f"{rounds[-1]}; {again:.1f}% in all) "
            + ("the rates rise: the file system is mounted without "
               "`discard`, so the data of the previous round's deleted files "
               "is still mapped on the device, and copying the same sources, "
               "images and pages again can find it (a file system mounted "
               "with `discard` would have trimmed it)" if again > first else
               "the rates stay as in round 1")
            + ". With Kim's sampling filter, the default "
            "(`dedup_filter`=1, `dedup_filter_live_chunks`=0, "
            "`dedup_buffer_pages`=64), a write is fingerprinted only when "
            "another buffered write shares its sample, so a copy whose "
            "original left the buffer long ago is written again unless a "
            "copy of it is buffered with it; `dedup_filter_live_chunks=1` "
            "(the filter over the live chunks too) finds those "
            "(bench/results/kim-figs.md).")
    slower = t["modeled_write_ms"] > plain["modeled_write_ms"]
    latency = (
        "under `cp`'s deep queues every page waits for the engine in turn, "
        "so it becomes the device's bottleneck" if slower else
        "here too the engine kept up, and the duplicates' skipped programs "
        "outweigh the hashing")
    out = [
        f"- **Dedup.** Duplication per workload in round 1: {rates(1)} "
        f"({first:.1f}% in all; Kim et al.: 5-52%). {images}; kernel "
        "sources and pages share little at 2 KiB granularity within a round "
        "(a page's boilerplate head is under 1 KiB and "
        "shares its flash page with the unique body; its foot sits at a "
        "different offset in every file). Programs with dedup "
        f"{pct(t['programs'], plain['programs'])} against `{plain_name}`."
        + later,
        f"- **Dedup latency.** Modeled write time with dedup "
        f"{pct(t['modeled_write_ms'], plain['modeled_write_ms'])} against "
        f"`{plain_name}` (Kim et al.: -15%). The hash engine "
        "is one serial resource (80 us per 2 KiB page, the OpenSSD's "
        "hardware SHA-1): at QD1, as Kim measured, it keeps up and a "
        f"duplicate saves a 200 us program; {latency}.",
    ]
    replayed = [r for r in replay_rows if r["dedup"]]
    if replayed and t["chunks_written"]:
        vm_rate = 100.0 * t["duplicates"] / t["chunks_written"]
        out.append(
            f"- **Replay cross-check.** The replay of the BASE run's "
            f"requests with their captured content finds "
            f"{replayed[0]['dup_percent']:.1f}% duplicates, the VM run "
            f"with dedup {vm_rate:.1f}%: the two runs are different "
            "executions (ext4 places blocks differently, the journal's "
            "content differs), and the capture records a block rewritten "
            "within a step with its last content only.")
    return out


def write(results: list[dict[str, Any]], scale: prepare.Scale,
          out_dir: Path, extra: list[str] | None = None,
          replay_rows: list[dict[str, Any]] | None = None,
          fig89_rows: list[dict[str, Any]] | None = None) -> Path:
    out = out_dir / scale.name
    out.mkdir(parents=True, exist_ok=True)
    table: Table = {}
    for r in results:
        rows = [step_row(s) for s in r["steps"]]
        table[r["setting"]] = (r, rows, totals(rows))
    lines = header(scale) + vm_times(table)
    absent = [n for n in DEFAULT_SETTINGS if n not in table]
    if absent:
        lines += [f"Not run in the VM for this report: {', '.join(absent)}"
                  " (`--settings`); the replay of the recorded requests "
                  "below covers the cache settings and the no-cache "
                  "baseline.", ""]
    if baselines(table):
        lines += totals_section(table)
        lines += claims_section(table)
    lines += replay_claims(replay_rows or [], int(dict(
        k.split("=", 1) for k in DEVICE_KEYS[scale.name]
    )["slc_blocks_per_chip"]))
    if "base" in table:
        lines += reading(table, replay_rows or [])
    dedup_runs = [n for n in table if n.endswith("-dedup")]
    if dedup_runs:
        r, rows, _ = table[dedup_runs[0]]
        lines += duplication_section(duplication(r, rows), dedup_runs[0])
    for r, rows, _ in table.values():
        lines += steps_section(r, rows)
    lines += extra or []
    lines += fig89_section(fig89_rows or [], REPLAY_SOURCE, out)
    lines += plots(table, out)
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def plots(table: Table, out: Path) -> list[str]:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return ["(matplotlib missing: no plots)"]
    if not table:
        return []
    names = list(table)
    steps = [f"r{s['round']} {s['step']}"
             for s in table[names[0]][0]["steps"]]
    width = 0.8 / len(names)
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
    for i, name in enumerate(names):
        rows = table[name][1]
        xs = [x + i * width for x in range(len(steps))]
        axes[0].bar(xs, [r["modeled_write_ms"] / 1000 for r in rows], width,
                    label=name)
        axes[1].bar(xs, [r["wall_s"] for r in rows], width, label=name)
    for ax, title in zip(axes, ("modeled write time (s)", "VM wall time (s)")):
        ax.set_xticks([x + 0.4 - width / 2 for x in range(len(steps))])
        ax.set_xticklabels(steps, rotation=40, ha="right", fontsize=7)
        ax.set_title(title)
    axes[0].set_yscale("symlog")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "fig10-time.png", dpi=100)
    plt.close(fig)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, kinds, title in ((axes[0], ("tlc_programs", "slc_programs"),
                              "flash programs (pages)"),
                             (axes[1], ("tlc_erases", "slc_erases"),
                              "erases (blocks)")):
        bottom = [0.0] * len(names)
        for kind in kinds:
            vals = [table[n][2][kind] for n in names]
            ax.bar(names, vals, bottom=bottom,
                   label=kind.split("_")[0].upper())
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.set_title(title)
        ax.legend(fontsize=8)
        ax.tick_params(axis="x", labelrotation=30, labelsize=8)
    fig.tight_layout()
    fig.savefig(out / "fig11-flash.png", dpi=100)
    plt.close(fig)
    return ["Plots: `fig10-time.png` (per step, modeled write time on a "
            "log scale, and wall time), `fig11-flash.png` (programs and "
            "erases per region)."]


def fig89_label(r: dict[str, Any]) -> str:
    """c, p and the cache of a Fig 8/9 row."""
    return (f"c = {r['c_bytes'] // 1024} KiB, p = {r['p_ppm'] / 1e6:g}, "
            f"cache {r['cache_pages']} pages ({r['cache_mib']:.1f} MiB)")


def fig89_ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def fig89_pick(rows: list[dict[str, Any]], axis: str, policy: str,
               **match: int) -> list[dict[str, Any]]:
    """The rows of @policy on @axis's sweep: the axis's own rows and the
    shared setting (the paper's c and p at the scale's cache) that
    matches @match, in the axis's order."""
    out = [r for r in rows if r["policy"] == policy
           and (r["axis"] == axis
                or all(r[k] == v for k, v in match.items()))]
    key = {"c": "c_bytes", "p": "p_ppm", "cache size": "cache_times"}[axis]
    return sorted(out, key=lambda r: r[key])


def fig89_axes(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """ProCache's rows per axis (c at the paper's p, p at its c, the cache
    size at both) and BASE's per cache size."""
    c0 = next(r["c_bytes"] for r in rows if r["axis"] == "p")
    p0 = next(r["p_ppm"] for r in rows if r["axis"] == "c")
    return {"c": fig89_pick(rows, "c", "procache", p_ppm=p0, cache_times=1),
            "p": fig89_pick(rows, "p", "procache", c_bytes=c0,
                            cache_times=1),
            "cache size": fig89_pick(rows, "cache size", "procache",
                                     c_bytes=c0, p_ppm=p0),
            "base": fig89_pick(rows, "cache size", "base")}


def fig89_section(rows: list[dict[str, Any]], source: str,
                  out: Path) -> list[str]:
    """Figs 8/9 from the replay of @source's requests: the table, the
    plot and what they show."""
    if not rows:
        return []
    ax = fig89_axes(rows)
    lines = [f"## Figs 8/9 in the replay of the `{source}` run's requests",
             "",
             "ProCache's write hit ratio on the replayed requests (ssdsim, "
             "deterministic; workload/replay.py's fig89_sweep(), counted as "
             "bench/procache_figs.py counts its traces) after "
             f"{rows[0]['warmup']} warm-up passes (the paper's warmup-6): "
             "`<= c` = cache write hit pages over the page writes of the "
             "requests ProCache may admit (no larger than c, "
             "`procache_c_inclusive=1`, Fig 8's \"the same or less than "
             "the cut-off size\"); all = over every "
             "page write; off-line = Belady's MIN with bypass at the same "
             "cache size (`ssdsim --belady`). Larger caches add SLC blocks "
             "on top of the TLC region, so the logical space is the VM's. "
             "The paper's text gives no values of Figs 8 and 9 beyond "
             "the best setting (c = 8 KB, p = 0.1, 1 GB) and \"less than "
             "4%\" over all requests (procache-plos-one-2017.txt:483-484;"
             " bench/results/procache-claims.md), so the paper column "
             "gives its argument.", "",
             "| sweep | policy | c KiB | p | cache pages (MiB) | page writes "
             "<= c | hit (<= c) | hit (all) | off-line | paper |",
             "|---" * 10 + "|"]
    paper = {"c": "the admitted requests hit far more than all",
             "p": "a small p (0.1) keeps cold writes out",
             "cache size": "hit ratio grows with the cache",
             "base": "-"}
    for axis, picked in ax.items():
        for i, r in enumerate(picked):
            pc = r["policy"] == "procache"
            lines.append(
                f"| {axis if axis != 'base' else 'cache size'} | "
                f"{r['policy']} | {r['c_bytes'] // 1024 if pc else '-'} | "
                f"{r['p_ppm'] / 1e6 if pc else '-'} | "
                f"{r['cache_pages']} ({r['cache_mib']:.1f}) | "
                f"{r['small_pages'] if pc else '-'} |"
                f" {fig89_ratio(r['hit_small'])} | {r['hit_all']:.4f} | "
                f"{r['offline_all']:.3f} | {'' if i else paper[axis]} |")
    lines += ["", fig89_reading(ax), ""]
    return lines + fig89_plot(ax, out)


def fig89_reading(ax: dict[str, list[dict[str, Any]]]) -> str:
    """What the replay shows against the paper's Figs 8/9 argument."""
    c0 = ax["p"][0]["c_bytes"]
    at = next(r for r in ax["c"] if r["c_bytes"] == c0)
    total = at["small_pages"] + at["large_pages"]
    size = ax["cache size"]
    small = [r["hit_small"] for r in size]
    grows = small[-1] - small[0] > 0.001
    return (
        f"**What the replay shows.** At {fig89_label(at)}, requests "
        f"no larger than c carry {at['small_pages']} of {total} page writes "
        f"({100.0 * at['small_pages'] / total:.1f}%: ext4's writes reach the"
        " device merged into large requests); ProCache hits "
        f"{at['hit_small']:.3f} of their pages and {at['hit_all']:.4f} of "
        f"all page writes, against an off-line bound of "
        f"{at['offline_all']:.3f} over all of them, so the paper's ordering "
        "(the requests it admits hit far more often than all) holds "
        + ("" if at["hit_small"] > at["hit_all"] else "not ")
        + "here. Against c ("
        + ", ".join(f"{r['c_bytes'] // 1024} KiB {fig89_ratio(r['hit_small'])}"
                    for r in ax["c"])
        + (") a c at or below the smallest request admits nothing"
           if not ax["c"][0]["small_pages"] else ")")
        + "; against p (" + ", ".join(f"{r['p_ppm'] / 1e6:g} "
                                      f"{r['hit_small']:.3f}"
                                      for r in ax["p"])
        + ") the small requests' ratio "
        + ("rises with p: a small p keeps their rewrites out the "
           "longest"
           if ax["p"][-1]["hit_small"] > ax["p"][0]["hit_small"]
           else "does not rise with p")
        + ". Against the cache size ProCache's ratio over requests <= c "
        + (f"grows ({', '.join(f'{v:.3f}' for v in small)})" if grows else
           f"stays at {small[0]:.3f}")
        + " while BASE's over all page writes ("
        + ", ".join(f"{r['hit_all']:.3f}" for r in ax["base"])
        + ") and the off-line bound ("
        + ", ".join(f"{r['offline_all']:.3f}" for r in size)
        + ") go with the cache"
        + ("" if grows else ": the small requests' rewrites already fit the "
           "smallest cache, and what a larger one could catch is rewrites of "
           "large requests, which c keeps out")
        + ".")


def fig89_plot(ax: dict[str, list[dict[str, Any]]], out: Path) -> list[str]:
    """fig8-9-hit.png: hit ratios against c, p and the cache size."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return ["(matplotlib missing: no Fig 8/9 plot)"]
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    c0, p0 = ax["p"][0]["c_bytes"], ax["c"][0]["p_ppm"]
    panels = (("c", "c_bytes", 1 / 1024, f"c (KiB), p = {p0 / 1e6:g}"),
              ("p", "p_ppm", 1e-6, f"p, c = {c0 // 1024} KiB"),
              ("cache size", "cache_pages", 1.0, "cache pages (2 KiB)"))
    for a, (axis, key, unit, xlabel) in zip(axes, panels):
        rows = ax[axis]
        xs = [r[key] * unit for r in rows]
        a.plot(xs, [r["hit_small"] for r in rows], "-s",
               label="ProCache, requests <= c")
        a.plot(xs, [r["hit_all"] for r in rows], "-o",
               label="ProCache, all requests")
        a.plot(xs, [r["offline_all"] for r in rows], "k--",
               label="off-line (Belady), all")
        if axis == "cache size":
            a.plot([r[key] for r in ax["base"]],
                   [r["hit_all"] for r in ax["base"]], "-^",
                   label="BASE, all requests")
        a.set_xscale("log", base=2)
        a.set_xlabel(xlabel)
        a.set_ylabel("write hit ratio")
        a.set_ylim(bottom=0)
        a.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out / "fig8-9-hit.png", dpi=100)
    plt.close(fig)
    return ["Plot: `fig8-9-hit.png` (write hit ratio against c, p and the "
            "cache size, the replay's Figs 8/9)."]
