"""The verdict rule of the host-cache claims report
(bench/hostcache_claims.py): a number is reproduced within 25% of the
paper's on its side of "no effect", direction only farther on that side,
not reproduced on the other side; a statement by how many points hold."""
from __future__ import annotations

from bench import hostcache_claims as hc


def test_a_number_within_a_quarter_is_reproduced() -> None:
    assert hc.number_verdict(15.34, 13.0, 1) == hc.REPRODUCED
    assert hc.number_verdict(15.34, 19.0, 1) == hc.REPRODUCED


def test_a_number_on_the_papers_side_but_far_is_direction_only() -> None:
    assert hc.number_verdict(15.34, 1.5, 1) == hc.DIRECTION
    assert hc.number_verdict(0.0855, 0.5, 0) == hc.DIRECTION
    # a share against the other policy's: the paper's 18.37% below LRU's
    assert hc.number_verdict(0.1837, 0.80, 0.95) == hc.DIRECTION


def test_a_number_on_the_other_side_is_not_reproduced() -> None:
    assert hc.number_verdict(15.34, 0.9, 1) == hc.NOT
    assert hc.number_verdict(0.0855, -0.01, 0) == hc.NOT
    assert hc.number_verdict(1.95, 1.0, 1) == hc.NOT
    assert hc.number_verdict(1.95, None, 1) == hc.NOT


def test_a_statement_counts_the_points_that_hold() -> None:
    assert hc.statement_verdict([True, True, True]) == hc.REPRODUCED
    assert hc.statement_verdict([True, True, False]) == hc.DIRECTION
    assert hc.statement_verdict([True, False]) == hc.NOT
    assert hc.statement_verdict([]) == hc.NOT
