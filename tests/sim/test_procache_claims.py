"""The verdict rules of the ProCache claims (bench/procache_fig_claims.py)
on hand-made figures: each rule says reproduced, direction only or not
reproduced as it states, and says "no test" where c does not separate
the requests; the best c of a size is a tie set when c does not matter."""
from __future__ import annotations

from typing import Any

from bench import procache_fig_claims as fc
from bench import procache_figs as pf


def rows(hits: list[float], offline: float = 0.9) -> list[dict[str, Any]]:
    return [{"hit_all": h, "offline_all": offline} for h in hits]


def trace(p01: list[float], p1: list[float],
          by_c: dict[str, list[float]],
          warm: dict[str, list[float]]) -> dict[str, Any]:
    grid = {"fig3": {w: rows(v) for w, v in warm.items()},
            "fig4": {"6": {"100000": rows(p01), "1000000": rows(p1)}},
            "fig5": {"6": {c: rows(v) for c, v in by_c.items()}}}
    return {"sizes": [64, 128, 256], "inclusive": grid, "exclusive": grid}


def result(t: dict[str, Any]) -> dict[str, Any]:
    return {"traces": {"hand-made.trace": t}}


def test_fig4_large_p_rule() -> None:
    c = {"8192": [0.1, 0.2, 0.3], "0": [0.1, 0.2, 0.3]}
    w = {"1": [0.1, 0.2, 0.3], "64": [0.1, 0.3, 0.5]}
    for p01, p1, verdict in (([0.1, 0.2, 0.3], [0.2, 0.3, 0.5],
                              "reproduced"),
                             ([0.1, 0.2, 0.3], [0.0, 0.3, 0.5],
                              "direction only"),
                             ([0.3, 0.3, 0.3], [0.1, 0.1, 0.5],
                              "not reproduced")):
        r = result(trace(p01, p1, c, w))
        large_p, gap_grows, _ = fc.fig4_rows(r)
        assert fc.per_trace(r, large_p)[1] == f"hand-made: {verdict}"
    r = result(trace([0.1, 0.2, 0.3], [0.2, 0.4, 0.6], c, w))
    assert fc.per_trace(r, fc.fig4_rows(r)[1])[1] == "hand-made: reproduced"


def test_fig5_best_c_rule_and_ties() -> None:
    w = {"1": [0.1, 0.2, 0.3], "64": [0.1, 0.3, 0.5]}
    p = [0.1, 0.2, 0.3]
    same = {"4096": [0.2, 0.2, 0.2], "65536": [0.2, 0.2, 0.2],
            "0": [0.2, 0.2, 0.2]}
    catches_up = {"4096": [0.3, 0.3, 0.3], "65536": [0.1, 0.2, 0.25],
                  "0": [0.1, 0.1, 0.1]}
    grows = {"4096": [0.3, 0.2, 0.1], "65536": [0.2, 0.3, 0.2],
             "0": [0.1, 0.1, 0.4]}
    falls = {"4096": [0.1, 0.2, 0.4], "65536": [0.2, 0.3, 0.2],
             "0": [0.3, 0.1, 0.1]}
    for by_c, verdict in ((same, "no test"), (catches_up, "direction only"),
                          (grows, "reproduced"), (falls, "not reproduced")):
        r = result(trace(p, p, by_c, w))
        assert fc.per_trace(r, fc.fig5_row(r))[1] == f"hand-made: {verdict}"
    g = {c: rows(v) for c, v in {"4096": [0.2], "8192": [0.2],
                                 "0": [0.1]}.items()}
    assert pf.best_cs(g, 0) == [4096, 8192]
    assert pf.cs_label([4096, 8192]) == "4 KiB-8 KiB (tie)"
    assert pf.cs_label([0]) == "none"


def test_fig3_and_fig6_rules() -> None:
    p = [0.1, 0.2, 0.3]
    c = {"8192": p, "0": p}
    # On-line reaches 0.9 of the 0.9 off-line only at the largest cache
    # after 16+ warm-ups; warm-up helps the largest cache most.
    warm = {"1": [0.1, 0.2, 0.3], "16": [0.1, 0.3, 0.85]}
    r = result(trace(p, p, c, warm))
    off_better, approaches, high = fc.fig3_rows(r)
    assert fc.per_trace(r, approaches)[1] == "hand-made: reproduced"
    assert fc.per_trace(r, off_better)[1] == "hand-made: reproduced"
    assert fc.per_trace(r, high)[1] == "hand-made: reproduced"
    assert fc.per_trace(r, fc.fig6_row(r))[1] == "hand-made: reproduced"
    # Close everywhere: "only when large" fails; warm-up lowers a size.
    warm = {"1": [0.88, 0.88, 0.8], "16": [0.86, 0.85, 0.85]}
    r = result(trace(p, p, c, warm))
    _, approaches, _ = fc.fig3_rows(r)
    assert fc.per_trace(r, approaches)[1] == "hand-made: not reproduced"
    assert fc.per_trace(r, fc.fig6_row(r))[1] == "hand-made: direction only"
