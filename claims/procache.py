"""The ProCache paper's claims, one by one, against ssdemu.

Runs everything the claims rest on, deterministically, and writes
bench/results/procache-claims.md (with procache-claims.json):

- the trace-driven figures (Figs 3-6, section 4): bench/procache_figs.py,
  whose own tables it writes too (procache-figs.md, .json, .png);
- the workload's (section 5: the 24.6% figure, Figs 8-11): the replay
  of the recorded `tiny` VM run's requests (workload/procache_replays.py).

Each claim: the paper's words and number with file:line
(procache-plos-one-2017.txt, in the papers' folder: docs/papers.md), ours
under the default readings (Algorithm 1's cut-off read as size <= c may
enter, and its hit as the whole request's; Algorithm 3's REFCNT as
written; the capacity-equivalent baseline; the warm-ups the paper states),
a verdict by the rule the table states (reproduced / direction only /
not reproduced), the cause where ours differs, and the result under each
other reading (the sensitivity tables).  No reading is picked by the
number it gives.

The VM run it replays is made once by `python3 -m workload.run --scale
tiny --settings base --record-only` (about 15-60 minutes under TCG; its
requests go to build/workload/out/tiny/base/).  Then:

usage: python3 -m claims.procache [--report-only]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bench import procache_fig_claims as fig_claims
from bench import procache_figs as figs
from bench.section import RESULTS
from ssdtools.procache_device import C_BYTES, EQUAL_FLASH_BLOCKS, P_PPM
from workload import prepare, procache_replays as pr
from workload import replay
from workload.settings import REPLAY_SOURCE

SCALE = "tiny"
JSON = RESULTS / "procache-claims.json"
FIG89_C_KIB = (1, 4, 8, 16)
FIG89_P_PPM = (50_000, 100_000, 200_000, 500_000, 1_000_000)
FIG89_TIMES = (1, 2, 4)
STEPS = ("kernel-copy", "kernel-compile", "kernel-clean", "image-copy",
         "web-download", "remove")
SMALL_WRITE_STEPS = ("kernel-compile", "kernel-clean", "web-download")

Row = fig_claims.Row
q = fig_claims.q


def measure(scale: prepare.Scale, source: str) -> dict[str, Any]:
    """Every figure the claims need (see the top)."""
    pr.check_settings()
    print("procache claims: the trace-driven figures", flush=True)
    traces = figs.run()
    figs.write_results(traces)
    trace, _, _ = replay.joined(scale, source)
    with open(trace) as f:
        reqs = pr.log_requests(f)
    hot = {f"{vol}, {'<=' if inc else '<'} c": pr.hot_share(
        reqs, C_BYTES, inc, vol)
        for vol in ("written", "footprint") for inc in (True, False)}
    print("procache claims: Figs 8/9 (warmup-6)", flush=True)
    grid = pr.fig89_grid(scale, source, FIG89_C_KIB, FIG89_P_PPM,
                         FIG89_TIMES, replay.FIG89_WARMUP, True)
    sens = (pr.fig89_grid(scale, source, [8], [P_PPM], [1],
                          replay.FIG89_WARMUP, False)
            + pr.fig89_grid(scale, source, [8], [P_PPM], [1], 0, True)
            + pr.fig89_grid(scale, source, [8], [P_PPM], [1],
                            replay.FIG89_WARMUP, True, per_page=True))
    print("procache claims: Figs 10/11", flush=True)
    rounds = pr.figs_10_11(scale, source)
    return {"scale": scale.name, "source": source, "traces": traces,
            "cold_mib": prepare.cold_mib(scale) if scale.cold_percent
            else 0, "rounds_run": scale.rounds,
            "hot": hot, "fig89": grid, "fig89_sensitivity": sens,
            "rounds": rounds}


# -- section 5: the workload --

def fig89_at(rows: list[dict[str, Any]], c_kib: int, p_ppm: int,
             times: int) -> dict[str, Any]:
    return next(x for x in rows if x["policy"] == "procache"
                and x["c_bytes"] == c_kib * 1024 and x["p_ppm"] == p_ppm
                and x["cache_times"] == times)


def best_ps(rows: list[dict[str, Any]], c_kib: int, times: int) -> list[int]:
    """The p values with the highest Fig 8 ratio (ties within 0.0005)."""
    cells = {p: fig89_at(rows, c_kib, p, times)["hit_small"]
             for p in FIG89_P_PPM}
    top = max(cells.values())
    return sorted(p for p, v in cells.items() if v >= top - 0.0005)


def p_label(ps: list[int]) -> str:
    return "/".join(f"{p / 1e6:g}" for p in ps)


def gain(base: float, value: float) -> float:
    """The improvement of @value over @base (positive: less time)."""
    return (base - value) / base if base else 0.0


def step_gains(rounds: dict[str, Any], name: str, against: str
               ) -> dict[str, float]:
    return {s: gain(rounds[against]["step_write_ns"][s],
                    rounds[name]["step_write_ns"][s]) for s in STEPS}


def change(rounds: dict[str, Any], name: str, against: str,
           what: str) -> float:
    def total(x: dict[str, Any]) -> float:
        if what == "programs":
            return float(x["tlc_programs"] + x["slc_programs"])
        if what == "tlc programs":
            return float(x["tlc_programs"])
        return float(x["tlc_erases"] + x["slc_erases"])
    b = total(rounds[against])
    return (total(rounds[name]) - b) / b if b else 0.0


def fig10_11_cells(rounds: dict[str, Any], name: str,
                   against: str) -> list[str]:
    """Time per step (up to / on average), programs, TLC programs and
    erases of @name against @against."""
    gs = step_gains(rounds, name, against)
    return [f"{100 * max(gs.values()):+.2f}% /"
            f" {100 * sum(gs.values()) / len(gs):+.2f}%",
            *(f"{100 * change(rounds, name, against, w):+.1f}%"
              for w in ("programs", "tlc programs", "erases"))]


def mean_gain_of(rounds: dict[str, Any], name: str, against: str) -> float:
    """The mean over the steps of @name's time gain against @against."""
    gs = step_gains(rounds, name, against)
    return sum(gs.values()) / len(gs)


def near(ours: float, paper: float, points: float) -> str:
    """reproduced within @points of the paper's (both as fractions),
    direction only if of the same sign, else not reproduced."""
    if abs(ours - paper) <= points:
        return "reproduced"
    return "direction only" if ours * paper > 0 else "not reproduced"


def section5(r: dict[str, Any]) -> tuple[list[Row], list[list[str]]]:
    g, rounds = r["fig89"], r["rounds"]
    eq = "nocache-equal"
    head = fig89_at(g, 8, P_PPM, 1)
    small_c = {c: (best_ps(g, c, 1), best_ps(g, c, 4)) for c in (1, 4)}
    small_ok = sum(max(a) < max(b) for a, b in small_c.values())
    large_c = {c: [best_ps(g, c, n) for n in FIG89_TIMES] for c in (8, 16)}
    large_ok = sum(min(ps) >= 500_000 for row in large_c.values()
                   for ps in row)
    cells = [x for x in g if x["policy"] == "procache"]
    best = max(x["hit_small"] for x in cells)
    tops = sorted({(x["c_bytes"] // 1024, x["p_ppm"]) for x in cells
                   if x["hit_small"] >= best - 0.0005})
    hot = r["hot"]["written, <= c"]
    gains = step_gains(rounds, "procache", eq)
    mean_gain = sum(gains.values()) / len(gains)
    up_to = max(gains.values())
    total_gain = gain(rounds[eq]["write_ns"], rounds["procache"]["write_ns"])
    refcnt = step_gains(rounds, "procache", "refcnt")
    mean_ref = sum(refcnt.values()) / len(refcnt)
    # The 1.97% under the other readings of P4 and P13 (docs/papers.md).
    ref_first = mean_gain_of(rounds, "procache", "refcnt-count-first")
    page_ref = mean_gain_of(rounds, "procache-per-page", "refcnt")
    page_first = mean_gain_of(rounds, "procache-per-page",
                              "refcnt-count-first")
    writes = change(rounds, "procache", eq, "programs")
    erases = change(rounds, "procache", eq, "erases")
    copy_gain = gains["image-copy"]
    small_steps = min(gains[s] for s in SMALL_WRITE_STEPS)
    flash = {n: rounds[n]["flash_mib"] for n in rounds}
    pc, base_eq, ref = rounds["procache"], rounds[eq], rounds["refcnt"]
    main_mib = flash["procache"] * (1 - pc["slc_blocks_per_chip"]
                                    / pc["blocks_per_chip"])
    small_share = head["small_pages"] / (head["small_pages"]
                                         + head["large_pages"])
    admitted = pc["slc_programs"] / (pc["slc_programs"] + pc["tlc_programs"])
    no_warm = next((x for x in r["fig89_sensitivity"]
                    if x["policy"] == "procache" and x["warmup"] == 0), None)
    rows = [
        {"fig": "workload", "paper": q("For our workload, 24.6% of the"
                                       " total requests were issued by only"
                                       " 1.5% of the small write volume",
                                       "488-489"),
         "ours": f"{100 * hot['share_of_total']:.1f}% of the total requests"
                 f" ({hot['requests']}, {hot['writes']} of them writes) are"
                 " small writes (<= 8 KiB) to the hottest 1.5% of the small"
                 f" write volume ({hot['hot_blocks']} blocks of 1 KiB);"
                 f" {100 * hot['share_of_small']:.1f}% of the small writes."
                 " 24.6% of the requests need the hottest"
                 + (f" {100 * hot['volume_for_paper_share']:.1f}%"
                    if hot["volume_for_paper_share"] is not None
                    else " all (and more)")
                 + " of the volume",
         "verdict": ("reproduced" if abs(hot["share_of_total"] - 0.246)
                     <= 0.05 else "not reproduced"),
         "cause": "the `tiny` scale compiles two objects where the paper's"
                  " step compiles a kernel with 16 threads, so the small,"
                  " often rewritten metadata writes are few beside the"
                  " images, the web pages and the cold file (ext4 merges"
                  " those into large requests)"},
        {"fig": "Fig 8", "paper": q("For the small c (1 KB and 4 KB), a"
                                    " small p exhibits a better performance"
                                    " for a small cache size, but a large p"
                                    " is appropriate for the larger cache"
                                    " size.", "477-478"),
         "ours": "; ".join(f"c = {c} KiB: best p {p_label(a)} at x1, "
                           f"{p_label(b)} at x4"
                           for c, (a, b) in small_c.items()),
         "verdict": ("reproduced" if small_ok == 2 else
                     "direction only" if small_ok else "not reproduced"),
         "cause": "ProCache's ratio does not change with the cache size"
                  " here (the table below): the pages it admits fit the"
                  " smallest cache, and after six warm-ups a large p has"
                  " let every rewritten small page in"},
        {"fig": "Fig 8", "paper": q("For the large c (8 KB and 16 KB), a"
                                    " large p is suitable.", "479"),
         "ours": "; ".join(f"c = {c} KiB: best p by cache size "
                           + ", ".join(p_label(ps) for ps in row)
                           for c, row in large_c.items()),
         "verdict": ("reproduced" if large_ok == 6 else
                     "direction only" if large_ok else "not reproduced"),
         "cause": "-"},
        {"fig": "Fig 8", "paper": q("The highest hit rate value was"
                                    " obtained when c = 8 KB, p = 0.1, and"
                                    " the cache size is 1 GB.", "483"),
         "ours": f"highest {best:.3f}, at (c KiB, p) "
                 + ", ".join(f"({c}, {p / 1e6:g})" for c, p in tops)
                 + f" and every cache size; at c = 8 KiB, p = 0.1:"
                 f" {head['hit_small']:.3f}",
         "verdict": ("reproduced" if tops == [(8, P_PPM)] else
                     "direction only" if (8, P_PPM) in tops
                     else "not reproduced"),
         "cause": "after six passes of the same requests a large p has let"
                  " in every small page that is written again (the paper's"
                  " own caution about artificial warm-ups, :351-352); the"
                  " paper's cache sizes for Fig 8 are not stated"},
        {"fig": "Fig 9", "paper": q("Although the hit rate is less than 4%"
                                    " when we consider all of the"
                                    " requests", "484"),
         "ours": f"{100 * head['hit_all']:.2f}% (c = 8 KiB, p = 0.1, the"
                 " VM's cache, warmup-6)"
                 + (f"; {100 * no_warm['hit_all']:.2f}% without warm-up"
                    if no_warm else ""),
         "verdict": "reproduced" if head["hit_all"] < 0.04 else
                    "not reproduced",
         "cause": f"the requests ProCache may admit carry"
                  f" {100 * small_share:.1f}% of the page writes and hit"
                  f" {head['hit_small']:.3f} after six warm-ups; the"
                  " paper's \"less than 4%\" is of its own workload"},
        {"fig": "Fig 10", "paper": q("ProCache provides up to 16.15% (7.57%"
                                     " on average), better performance than"
                                     " the baseline", "530"),
         "ours": f"modeled write time per step against `{eq}`: up to"
                 f" {100 * up_to:+.2f}%, {100 * mean_gain:+.2f}% on average"
                 " (positive: faster); over the rounds' total"
                 f" {100 * total_gain:+.2f}% (the kernel copy, most of the"
                 f" write time, {100 * gains['kernel-copy']:+.2f}%)",
         "verdict": ("reproduced" if abs(mean_gain - 0.0757) <= 0.03 and
                     abs(up_to - 0.1615) <= 0.05 else
                     "direction only" if mean_gain > 0 else
                     "not reproduced"),
         "cause": f"ProCache sends {100 * admitted:.2f}% of its programs to"
                  " the cache (the requests it may admit carry"
                  f" {100 * small_share:.1f}% of the page writes, and one"
                  " in ten enters), so it saves little flash time, while"
                  " its TLC region is the baseline's less a block per chip:"
                  f" its GC relocates {pc['gc_relocated']} pages against"
                  f" {base_eq['gc_relocated']}"},
        {"fig": "Fig 10", "paper": q("it is clear that there is no or worse"
                                     " performance gain for the file copy"
                                     " workload", "531-532"),
         "ours": f"image copy {100 * copy_gain:+.2f}%",
         "verdict": "reproduced" if copy_gain <= 0.005 else
                    "not reproduced",
         "cause": "the rule calls a gain of up to 0.5% \"no gain\" (our"
                  " choice); the copies' requests are larger than c and"
                  " bypass the cache"},
        {"fig": "Fig 10", "paper": q("it provides notable performance for"
                                     " workloads that have small random"
                                     " write behaviors, including kernel"
                                     " source compile, clean, and web page"
                                     " downloads.", "531"),
         "ours": ", ".join(f"{s} {100 * gains[s]:+.2f}%"
                           for s in SMALL_WRITE_STEPS),
         "verdict": ("reproduced" if small_steps > 0.01 else
                     "direction only" if small_steps > copy_gain else
                     "not reproduced"),
         "cause": "our web pages are copied once from the host and never"
                  " rewritten, so the cache only costs there; the compile"
                  " and clean steps, whose few small writes are rewritten,"
                  " gain"},
        {"fig": "Fig 10", "paper": q("ProCache exhibits a slightly better"
                                     " performance than the reference"
                                     " counting scheme (1.97% on average).",
                                     "538"),
         "ours": f"{100 * mean_ref:+.2f}% on average over the steps, up to"
                 f" {100 * max(refcnt.values()):+.2f}%; over the total"
                 f" {100 * gain(ref['write_ns'], pc['write_ns']):+.2f}%"
                 " (REFCNT as Algorithm 3: threshold 2, decay every 2 x"
                 " cache pages). Under the other readings, on average:"
                 " REFCNT counting every access first"
                 f" (`refcnt_count_first=1`) {100 * ref_first:+.2f}%;"
                 " ProCache's hits per page (`procache_hit_per_page=1`)"
                 f" {100 * page_ref:+.2f}%; both (the rules before issue"
                 f" 32) {100 * page_first:+.2f}%",
         "verdict": near(mean_ref, 0.0197, 0.015),
         "cause": "REFCNT admits a page at its third write (Algorithm 3"
                  " with threshold 2), ProCache one request in ten: on this"
                  " workload REFCNT's write hit ratio"
                  f" is {ref['write_hit_ratio']:.3f} against ProCache's"
                  f" {pc['write_hit_ratio']:.3f}. The paper states neither"
                  " REFCNT's threshold nor its decay"},
        {"fig": "Fig 11", "paper": q("ProCache decreases the number of"
                                     " write and erase operations by 19.3%"
                                     " and 14.0%, respectively.", "546-547"),
         "ours": f"flash programs (SLC + TLC) {100 * writes:+.1f}%, erases"
                 f" {100 * erases:+.1f}% against `{eq}`",
         "verdict": (f"writes {near(writes, -0.193, 0.05)}; erases"
                     f" {near(erases, -0.140, 0.05)}"),
         "cause": f"the cache absorbs {100 * pc['write_hit_ratio']:.2f}% of"
                  " the page writes, so it saves few programs, and the"
                  " smaller TLC region's GC erases more"
                  f" ({pc['tlc_erases']} TLC erases against"
                  f" {base_eq['tlc_erases']})"},
    ]
    for row in rows:
        if row["verdict"] == "reproduced":
            row["cause"] = "-"
    sens = []
    for label, other in (
            (f"baseline `{eq}` ({rounds[eq]['blocks_per_chip']} blocks per"
             f" chip, {100 * (flash[eq] / main_mib - 1):+.1f}% flash over"
             " the main region) [default]", eq),
            (f"baseline {EQUAL_FLASH_BLOCKS[SCALE] + 1} blocks per chip"
             f" ({100 * (flash['nocache-equal+1'] / main_mib - 1):+.1f}%)",
             "nocache-equal+1"),
            (f"baseline `nocache` (the earlier reports':"
             f" {100 * (flash['nocache'] / main_mib - 1):+.1f}%)",
             "nocache")):
        sens.append([label, *fig10_11_cells(rounds, "procache", other)])
    sens.append(["size >= c bypasses (`procache_c_inclusive=0`), against"
                 f" `{eq}`", *fig10_11_cells(rounds, "procache-exclusive",
                                             eq)])
    sens.append(["against REFCNT (Fig 11 read as ProCache against REFCNT)",
                 *fig10_11_cells(rounds, "procache", "refcnt")])
    sens.append(["hits per page (`procache_hit_per_page=1`), against"
                 f" `{eq}`", *fig10_11_cells(rounds, "procache-per-page",
                                             eq)])
    sens.append(["against REFCNT counting every access first"
                 " (`refcnt_count_first=1`)",
                 *fig10_11_cells(rounds, "procache", "refcnt-count-first")])
    sens.append(["hits per page against REFCNT counting first (both rules"
                 " before issue 32)",
                 *fig10_11_cells(rounds, "procache-per-page",
                                 "refcnt-count-first")])
    tot = gain(rounds[eq]["write_ns"], rounds["procache"]["write_ns"])
    sens.append(["the rounds' total write time instead of the mean of the"
                 f" steps, against `{eq}`", f"{100 * tot:+.2f}% (total)",
                 "-", "-", "-"])
    return rows, sens


def markdown(r: dict[str, Any]) -> str:
    s4, s4_sens = fig_claims.rows_and_sensitivity(r["traces"])
    s5, s5_sens = section5(r)
    rounds, g = r["rounds"], r["fig89"]
    lines = [
        "# The ProCache paper's claims against ssdemu", "",
        "Command: `python3 -m claims.procache` (it runs"
        " bench/procache_figs.py and replays the recorded `tiny` VM run;"
        " that run is made once by `python3 -m workload.run --scale tiny"
        " --settings base --record-only`). Everything below is"
        " deterministic ssdsim output; the paper is procache-plos-one-2017.txt"
        " (the papers' folder), its rules are in docs/papers.md; Kim et"
        " al.'s claims: `kim-figs.md`.", "",
        "Default readings: Algorithm 1's lost comparison read as size <= c"
        " may enter (`procache_c_inclusive=1`, Fig 8's \"the same or less"
        " than the cut-off size\", :473); Algorithm 1's \"requested"
        " block\" read as the whole request, which hits only when all its"
        " pages are cached (`procache_hit_per_page=0`, docs/papers.md P4);"
        " REFCNT as Algorithm 3 (`refcnt_count_first=0`: a page enters on"
        " its (threshold + 1)-th write, P13); the baseline with the flash of"
        " the cached device's main region plus the cache's capacity"
        " (`nocache-equal`, the paper's 33 GB against 32 GB + 1 GB,"
        " :526-527); Figs 3-6 at the paper's p = 0.5 and c = 64 KB, Figs"
        " 8/9 after six warm-ups (\"warmup-6\", :493), Figs 10/11 one"
        " replay of the VM run's three rounds (the paper's number of"
        " rounds is not stated). The figures are numbered as the paper"
        " numbers them. Verdict rules are in each row; \"no test\" where"
        " the trace cannot show the claim, \"not comparable\" where the"
        " number is the paper's traces'.", "",
        "## Section 4: the trace-driven figures (`procache-figs.md`)", "",
        "Traces: a synthetic hot/cold mix, MQSim's TPC-C sample and the FIU"
        " homes sample (the paper's traceS and traceL are not"
        " available).", "",
        "| figure | the paper | ours | verdict | cause where it differs |",
        "|---|---|---|---|---|"]
    for row in s4:
        lines.append(f"| {row['fig']} | {row['paper']} | {row['ours']} |"
                     f" {row['verdict']} | {row['cause']} |")
    lines += ["", fig_claims.RULES, "",
              "Sensitivity (verdicts under each reading):", "",
              f"| claim | default (warmup-{figs.WARMUP}, size <= c) |"
              f" warmup-{figs.SENSITIVITY_WARMUP} | size >= c bypasses |"
              " hits per page |",
              "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in s4_sens]
    pc = rounds["procache"]
    cache_mib = pc["cache_pages"] * 2048 / 2**20
    lines += ["", "## Section 5: the workload (Algorithm 2, `tiny` scale)",
              "",
              f"The `{r['source']}` VM run's requests ({r['rounds_run']}"
              f" rounds after a {r['cold_mib']} MiB cold data set, ext4 with"
              " 1 KiB blocks, `nodiscard`) replayed through ssdsim on the"
              " paper's device at the `tiny` scale"
              f" (`configs/procache-tlc.conf`, {pc['blocks_per_chip']}"
              f" blocks per chip, {pc['slc_blocks_per_chip']} of them SLC:"
              f" a cache of {cache_mib:.1f} MiB, x1 below). Time is the"
              " modeled write time (the summed latency of the writes) per"
              " step of Algorithm 2 over the rounds; the paper measured"
              " elapsed time.", "",
              "| figure | the paper | ours | verdict | cause where it"
              " differs |", "|---|---|---|---|---|"]
    for row in s5:
        lines.append(f"| {row['fig']} | {row['paper']} | {row['ours']} |"
                     f" {row['verdict']} | {row['cause']} |")
    lines += ["", "Rules: the 24.6% figure and Fig 11 are reproduced within"
              " 5 points, Fig 10's mean within 3 points (and its maximum"
              " within 5), REFCNT's 1.97% within 1.5 points; direction only"
              " if of the same sign (not for the 24.6% figure, a share);"
              " the file copy's \"no or worse\" gain: at most +0.5%; the"
              " small-write steps' \"notable\" gain: more than 1% each."
              " Fig 8's small c: the best p at the largest cache (x4) above"
              " the best at the VM's (x1); large c: the best p 0.5 or more"
              " at every size; Fig 8's best setting: (8 KiB, 0.1) alone at"
              " the top; Fig 9: below 4%.", "",
              "Sensitivity (Figs 10/11: time per step up to / on average,"
              " flash programs, TLC programs, erases, ProCache against):", "",
              "| reading | time up to / on average | programs | TLC"
              " programs | erases |", "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in s5_sens]
    sens89 = [x for x in r["fig89_sensitivity"] if x["policy"] == "procache"]
    lines += ["", "Figs 8/9 at c = 8 KiB, p = 0.1, the VM's cache, under"
              " each reading:", "",
              "| reading | requests ProCache may admit: hit | all: hit |"
              " off-line | page writes it may admit |",
              "|---|---|---|---|---|",
              f"| size <= c, warmup-6 [default] | {g_at(g)['hit_small']:.3f}"
              f" | {g_at(g)['hit_all']:.4f} | {g_at(g)['offline_all']:.3f}"
              f" | {g_at(g)['small_pages']} |"]
    for x in sens89:
        label = (f"size {'<=' if x['inclusive'] else '>='} c"
                 f" {'may enter' if x['inclusive'] else 'bypasses'},"
                 f" warmup-{x['warmup']}"
                 + (", hits per page" if x.get("per_page") else ""))
        lines.append(f"| {label} | {x['hit_small']:.3f} |"
                     f" {x['hit_all']:.4f} | {x['offline_all']:.3f} |"
                     f" {x['small_pages']} |")
    hot = r["hot"]
    lines += ["", "The 24.6% figure under each reading (the share of the"
              " total requests that are small writes to the hottest 1.5%"
              " of the small write volume; and the hottest share of the"
              " volume that issues 24.6% of the total requests):", "",
              "| volume, small writes | share of total | of writes | of"
              " small writes | volume that issues 24.6% |",
              "|---|---|---|---|---|"]
    for label, h in hot.items():
        inv = h["volume_for_paper_share"]
        lines.append(f"| {label} | {100 * h['share_of_total']:.1f}% |"
                     f" {100 * h['share_of_writes']:.1f}% |"
                     f" {100 * h['share_of_small']:.1f}% | "
                     + ("never (all the small writes issue less)"
                        if inv is None else f"{100 * inv:.1f}%") + " |")
    lines += ["", "Figs 8/9 (warmup-6; the requests ProCache may admit: hit"
              " / all: hit), by c, p and cache size (x1 = the VM's):", "",
              "| c | p | x1 | x2 | x4 |", "|---|---|---|---|---|"]
    for c in FIG89_C_KIB:
        for p in FIG89_P_PPM:
            cells = [fig89_at(g, c, p, n) for n in FIG89_TIMES]
            lines.append(f"| {c} KiB | {p / 1e6:g} | " + " | ".join(
                f"{x['hit_small']:.3f} / {x['hit_all']:.4f}" for x in cells)
                + " |")
    base = [x for x in g if x["policy"] == "base"]
    lines.append("| BASE | - | " + " | ".join(
        f"- / {x['hit_all']:.4f}" for x in base) + " |")
    lines += ["", "The replays of Figs 10/11 (the rounds' totals):", "",
              "| setting | flash MiB | blocks per chip (SLC) | write hit"
              " ratio | programs TLC / SLC | erases TLC / SLC | GC relocated"
              " | write time s | " + " | ".join(STEPS) + " |",
              "|---" * (8 + len(STEPS)) + "|"]
    for name, x in rounds.items():
        lines.append(
            f"| {name} | {x['flash_mib']:.0f} | {x['blocks_per_chip']}"
            f" ({x['slc_blocks_per_chip']}) | {x['write_hit_ratio']:.4f} |"
            f" {x['tlc_programs']} / {x['slc_programs']} |"
            f" {x['tlc_erases']} / {x['slc_erases']} | {x['gc_relocated']}"
            f" | {x['write_ns'] / 1e9:.2f} | " + " | ".join(
                f"{x['step_write_ns'][s] / 1e9:.2f}" for s in STEPS) + " |")
    lines.append("")
    return "\n".join(lines)


def g_at(g: list[dict[str, Any]]) -> dict[str, Any]:
    return fig89_at(g, 8, P_PPM, 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--report-only", action="store_true",
                    help="rebuild the report from procache-claims.json")
    args = ap.parse_args(argv)
    if args.report_only:
        result = json.loads(JSON.read_text())
    else:
        scale = prepare.SCALES[SCALE]
        if not (prepare.WORK / "out" / SCALE / REPLAY_SOURCE).exists():
            print("procache claims: no recorded run; make it with `python3"
                  " -m workload.run --scale tiny --settings base"
                  " --record-only`",
                  file=sys.stderr)
            return 1
        result = measure(scale, REPLAY_SOURCE)
        JSON.write_text(json.dumps(result, indent=1) + "\n")
    out = RESULTS / "procache-claims.md"
    out.write_text(markdown(result))
    print(f"procache claims: wrote {Path(out).name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
