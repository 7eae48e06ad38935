"""The ProCache paper's section 4 claims (Figs 3-6) against the figures
of bench/procache_figs.py.

Each claim: the paper's words with file:line (procache-plos-one-2017.txt,
the papers' folder, docs/papers.md), ours per trace, a verdict by the rule
RULES states (reproduced / direction only / not reproduced; "no test"
where the trace cannot show it, "not comparable" where the number is the
paper's traces'), and the cause where ours differs; sensitivity: the
verdicts at the other warm-up and under the other reading of Algorithm
1's cut-off.  workload/procache_claims.py puts these rows in
bench/results/procache-claims.md.
"""
from __future__ import annotations

from typing import Any, Callable

from bench import procache_figs as figs

PAPER = "procache-plos-one-2017.txt"
RULES = ("Rules: Fig 3 \"approaches\": reproduced if on-line reaches 0.9"
         " of off-line at the largest cache with 16+ warm-ups and nowhere"
         " else, direction only if it is closest there; Fig 4: reproduced"
         " if p = 1 >= p = 0.1 at every size (the gap: if it never shrinks"
         " and ends larger), direction only at most sizes; Fig 5:"
         " reproduced if c = 64 KiB is no better than c = 4 KiB at the"
         " smallest cache and better at the largest, direction only if it"
         " gains on it as the cache grows; Fig 6:"
         " reproduced if warm-up never lowers the ratio and helps the"
         " largest cache more than the smallest.")
# Fig 5's claim compares a small c with a large one: 4 KB and the 64 KB
# of Figs 3 and 4 (the paper's own c values for Fig 5 are not stated).
SMALL_C, LARGE_C = 4096, 65536
Row = dict[str, str]
Judge = Callable[[dict[str, Any]], tuple[str, str]]


def q(text: str, lines: str) -> str:
    """A quote of the paper with its lines."""
    return f"\"{text}\" ({PAPER}:{lines})"


def per_trace(r: dict[str, Any], judge: Judge) -> tuple[str, str]:
    """(ours, verdict) over the traces: "name: figures" and "name:
    verdict" joined."""
    ours, verdicts = [], []
    for name, t in r["traces"].items():
        text, verdict = judge(t)
        short = name.split(".")[0].split("-sample")[0]
        ours.append(f"{short}: {text}")
        verdicts.append(f"{short}: {verdict}")
    return "; ".join(ours), "; ".join(verdicts)


def fig3_rows(r: dict[str, Any], reading: str = "inclusive"
              ) -> tuple[Judge, ...]:
    def offline_better(t: dict[str, Any]) -> tuple[str, str]:
        cells = [(x["offline_all"], x["hit_all"])
                 for rows in t[reading]["fig3"].values() for x in rows]
        ahead = sum(off > on for off, on in cells)
        equal = sum(off == on for off, on in cells)
        verdict = ("reproduced" if ahead == len(cells) else
                   "direction only" if ahead + equal == len(cells) else
                   "not reproduced")
        return f"off-line ahead in {ahead} of {len(cells)} cells", verdict

    def approaches(t: dict[str, Any]) -> tuple[str, str]:
        last = len(t["sizes"]) - 1
        big, rest = [], []
        for w, rows in t[reading]["fig3"].items():
            for i, x in enumerate(rows):
                ratio = x["hit_all"] / x["offline_all"] \
                    if x["offline_all"] else 1.0
                (big if i == last and int(w) >= 16 else rest).append(ratio)
        b, o = max(big), max(rest)
        verdict = ("reproduced" if b >= 0.9 > o else
                   "direction only" if b >= o else "not reproduced")
        return (f"on-line / off-line {b:.2f} at the largest cache with 16+"
                f" warm-ups, up to {o:.2f} elsewhere"), verdict

    def high(t: dict[str, Any]) -> tuple[str, str]:
        best = max(x["offline_all"] for rows in t[reading]["fig3"].values()
                   for x in rows)
        return (f"off-line at most {best:.2f}",
                "reproduced" if best >= 0.8 else "not reproduced")

    return offline_better, approaches, high


def hit(rows: list[dict[str, Any]], i: int) -> float:
    return float(rows[i]["hit_all"])


def fig4_rows(r: dict[str, Any], reading: str = "inclusive",
              warmup: str = str(figs.WARMUP)) -> tuple[Judge, ...]:
    def large_p(t: dict[str, Any]) -> tuple[str, str]:
        g = t[reading]["fig4"][warmup]
        lo, hi = g["100000"], g["1000000"]
        n = len(t["sizes"])
        ahead = sum(hit(hi, i) >= hit(lo, i) - 0.0005 for i in range(n))
        verdict = ("reproduced" if ahead == n else
                   "direction only" if 2 * ahead > n else "not reproduced")
        return f"p = 1 >= p = 0.1 at {ahead} of {n} sizes", verdict

    def gap_grows(t: dict[str, Any]) -> tuple[str, str]:
        g = t[reading]["fig4"][warmup]
        gaps = [hit(g["1000000"], i) - hit(g["100000"], i)
                for i in range(len(t["sizes"]))]
        rising = all(b >= a - 0.001 for a, b in zip(gaps, gaps[1:]))
        verdict = ("reproduced" if rising and gaps[-1] > gaps[0] else
                   "direction only" if gaps[-1] > gaps[0] else
                   "not reproduced")
        return ("gap (p=1 less p=0.1) by size "
                + ", ".join(f"{v:+.3f}" for v in gaps)), verdict

    def highest(t: dict[str, Any]) -> tuple[str, str]:
        best = max(x["hit_all"] for rows in t[reading]["fig4"][warmup]
                   .values() for x in rows)
        return f"highest {best:.3f}", "not comparable"

    return large_p, gap_grows, highest


def fig5_row(r: dict[str, Any], reading: str = "inclusive",
             warmup: str = str(figs.WARMUP)) -> Judge:
    """Fig 5: a small c (SMALL_C) against a large one (LARGE_C, Figs 3
    and 4's 64 KB) by cache size."""
    def c_grows(t: dict[str, Any]) -> tuple[str, str]:
        g = t[reading]["fig5"][warmup]
        small, large = g[str(SMALL_C)], g[str(LARGE_C)]
        gaps = [hit(large, i) - hit(small, i) for i in range(len(t["sizes"]))]
        labels = ", ".join(figs.cs_label(figs.best_cs(g, i))
                           for i in range(len(t["sizes"])))
        text = (f"{LARGE_C // 1024} KiB less {SMALL_C // 1024} KiB by size "
                + ", ".join(f"{v:+.3f}" for v in gaps)
                + f"; best c by size {labels}")
        if all(abs(v) < 0.0005 for v in gaps):
            return text, "no test"
        verdict = ("reproduced" if gaps[0] <= 0 < gaps[-1] else
                   "direction only" if gaps[-1] > gaps[0] else
                   "not reproduced")
        return text, verdict
    return c_grows


def fig6_row(r: dict[str, Any], reading: str = "inclusive") -> Judge:
    def warm_gain(t: dict[str, Any]) -> tuple[str, str]:
        g = t[reading]["fig3"]
        ws = sorted(g, key=int)
        gains = [hit(g[ws[-1]], i) - hit(g[ws[0]], i)
                 for i in range(len(t["sizes"]))]
        rising = all(v >= -0.001 for v in gains)
        verdict = ("reproduced" if rising and gains[-1] > gains[0] else
                   "direction only" if gains[-1] > gains[0] else
                   "not reproduced")
        return (f"warmup-{ws[-1]} less warmup-{ws[0]} by size "
                + ", ".join(f"{v:+.3f}" for v in gains)), verdict
    return warm_gain


def rows_and_sensitivity(r: dict[str, Any]
                         ) -> tuple[list[Row], list[list[str]]]:
    """The claim rows, and the sensitivity rows (claim, verdicts by
    default, at the other warm-up, with size >= c bypassing, with hits
    per page), of
    bench/procache_figs.py's result @r."""
    off_better, approaches, high = fig3_rows(r)
    large_p, gap_grows, highest = fig4_rows(r)
    specs = [
        ("Fig 3", q("For all cache sizes, off-line performs better than the"
                    " on-line algorithm.", "296"), off_better,
         "Belady's MIN with bypass bounds any on-line policy by"
         " construction; an equal cell is one where ProCache caches"
         " everything worth caching"),
        ("Fig 3", q("On-line approaches off-line only when the cache is very"
                    " large (4 GB), and we performed many (16 or more)"
                    " warm-up iterations.", "296-298"), approaches,
         "our rule: \"approaches\" = 0.9 of the off-line ratio. Warm-up"
         " changes little on our traces (Fig 6), so on-line comes closest"
         " at the largest cache whatever the warm-up; on TPC-C the rewrites"
         " are far apart, which Belady's bound keeps and an LRU does not"
         " (BASE, admitting every write, is as far off)"),
        ("Fig 3", q("The write hit ratio was as high as 80% or higher.",
                    "294-295"), high,
         "a property of the trace: ours reuse less than the paper's desktop"
         " traces (the off-line bound is the trace's reuse)"),
        ("Fig 4", q("In general, with respect to the examined metric (write"
                    " hit ratio), a large p performed better than a small"
                    " p.", "308-309"), large_p,
         "a large p also admits the cold requests no larger than c (the"
         " synthetic trace's 32 and 64 KiB sequential writes, homes'"
         " one-off 4 KiB writes), which push rewritten pages out of the"
         " LRU; a small p admits few and keeps them longer (TPC-C's"
         " largest cache). The paper's traces rewrite more of what they"
         " write (its write hit ratios reach 38-70%, :310-311)"),
        ("Fig 4", q("The difference between the smallest and the largest p"
                    " examined (0.1 and 1) increases with the cache size",
                    "312"), gap_grows,
         "as above: on our traces the small p gains on the large one as"
         " the cache grows"),
        ("Fig 4", q("The highest write hit ratio that was observed was about"
                    " 38% (traceS) and nearly 70% (traceL).", "310-311"),
         highest, "the paper's traces (Table 2) are not available"),
        ("Fig 5", q("A large c does not perform as well as a small c if the"
                    " cache is small. Conversely, a large c performs better"
                    " than a small c when the cache is large.", "327"),
         fig5_row(r),
         "the synthetic trace's requests of 32 and 64 KiB are cold"
         " sequential writes: a large c admits them, which costs less as"
         " the cache grows but never pays; TPC-C's larger requests are"
         " rewritten too far apart for the LRU; homes writes nothing larger"
         " than 4 KiB, so c does not separate its requests"),
        ("Fig 6", q("With warm-up, the write hit ratio increases and the"
                    " warm-up effect is more visible with a large cache",
                    "347"), fig6_row(r),
         "warm-up moves our ratios by about 0.01 either way: a pass of"
         " our traces already brings ProCache to its steady state, where"
         " the paper's traceS was short enough that repeating it let"
         " first writes hit (:350-352)"),
    ]
    rows = []
    for fig, quote, judge, cause in specs:
        ours, verdict = per_trace(r, judge)
        rows.append({"fig": fig, "paper": quote, "ours": ours,
                     "verdict": verdict,
                     "cause": cause if "not reproduced" in verdict
                     or "direction only" in verdict
                     or "not comparable" in verdict
                     or "no test" in verdict else "-"})
    sens = [["Fig 4: a large p better", per_trace(r, large_p)[1],
             per_trace(r, fig4_rows(r, warmup=str(
                 figs.SENSITIVITY_WARMUP))[0])[1],
             per_trace(r, fig4_rows(r, "exclusive")[0])[1],
             per_trace(r, fig4_rows(r, "per_page")[0])[1]],
            ["Fig 5: a large c better only with a large cache", per_trace(
                r, fig5_row(r))[1],
             per_trace(r, fig5_row(r, warmup=str(
                 figs.SENSITIVITY_WARMUP)))[1],
             per_trace(r, fig5_row(r, "exclusive"))[1],
             per_trace(r, fig5_row(r, "per_page"))[1]],
            ["Fig 3: on-line approaches off-line only when large",
             per_trace(r, approaches)[1], "-",
             per_trace(r, fig3_rows(r, "exclusive")[1])[1],
             per_trace(r, fig3_rows(r, "per_page")[1])[1]],
            ["Fig 6: warm-up helps more with a large cache",
             per_trace(r, fig6_row(r))[1], "-",
             per_trace(r, fig6_row(r, "exclusive"))[1],
             per_trace(r, fig6_row(r, "per_page"))[1]]]
    return rows, sens
