"""Measurements repeated over rounds, and how they are judged.

Owns the summaries the VM sections share: the median of each figure over
rounds, quartiles, the relative error against a prediction, and the
verdict printed beside a target.
"""
from __future__ import annotations

import statistics


def median_run(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(r[key] for r in runs) for key in runs[0]}


def error(measured: float, predicted: float) -> float:
    return (measured - predicted) / predicted


def quartiles(values: list[float]) -> tuple[float, float]:
    """First and third quartile (the values themselves if fewer than 4)."""
    if len(values) < 4:
        return min(values), max(values)
    q = statistics.quantiles(values, n=4)
    return q[0], q[2]


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"
