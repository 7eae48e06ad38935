"""Section 1 of `make bench`: the emulator's overhead against brd.

ssdemu with timing=0 against brd, the kernel RAM disk, in the bench VM:
fio 4 KiB random write/read at QD1 and QD32, 1 MiB sequential write, each
on a fresh device, brd, null_blk and ssdemu back to back in each of
several rounds (TCG on a shared host is noisy: brd alone varies 2x
between rounds).  Reported as the median and quartiles of the per-round
ssdemu/brd IOPS ratios (target: median >= 0.80 at QD32); null_blk
(memory-backed, blk-mq) shows what blk-mq alone costs against the
bio-based brd.
"""
from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from bench.rounds import median_run, quartiles, verdict
from bench.section import Options
from bench.transcript import Transcript

NAME = "overhead"
JOBS = ["randwrite-qd1", "randwrite-qd32", "randread-qd1", "randread-qd32",
        "seqwrite-1m"]
TARGET = 0.80


def guest_seconds(opts: Options) -> float:
    return 15 * opts.rounds * (opts.runtime_s + 2)


def analyze(t: Transcript, results: dict[str, Any]) -> dict[str, Any]:
    rounds = int(t.env["ROUNDS"])
    return {"rounds": rounds, "runtime_s": int(t.env["RUNTIME"]),
            "overhead": summarize(t.fio, rounds)}


def summarize(fio: dict[str, dict[str, float]],
              rounds: int) -> dict[str, Any]:
    """Per job: the median run of each kind and the per-round IOPS ratios
    against brd."""
    overhead = {}
    for job in JOBS:
        runs = {kind: [fio[f"{kind}-{job}-{i}"] for i in range(1, rounds + 1)]
                for kind in ("brd", "nullb", "ssdemu")}
        # Each round ran the kinds back to back: pair them up.
        ratios = [e["iops"] / b["iops"]
                  for b, e in zip(runs["brd"], runs["ssdemu"])]
        nullb_ratios = [n["iops"] / b["iops"]
                        for b, n in zip(runs["brd"], runs["nullb"])]
        overhead[job] = {"brd": median_run(runs["brd"]),
                         "nullb": median_run(runs["nullb"]),
                         "ssdemu": median_run(runs["ssdemu"]),
                         "ratio": statistics.median(ratios),
                         "ratio_quartiles": quartiles(ratios),
                         "ratios": ratios,
                         "nullb_ratio": statistics.median(nullb_ratios),
                         "nullb_ratios": nullb_ratios}
    return overhead


def show(r: dict[str, Any]) -> None:
    print(f"\n1. overhead, timing=0 (small-test.conf) vs brd, same VM, fresh "
          f"devices; medians of {r['rounds']} rounds of"
          f" {r['runtime_s']} s per job")
    print("(nullb: null_blk memory-backed on blk-mq, the floor of any blk-mq"
          " driver; ratios are IOPS over brd's, q1-q3 their quartiles)")
    print(f"{'job':15s} {'brd IOPS':>9s} {'nullb IOPS':>10s}"
          f" {'ssdemu IOPS':>11s} {'nullb':>6s} {'ssdemu':>6s}"
          f" {'ssdemu q1-q3':>12s} {'brd lat':>8s} {'ssdemu lat':>10s}")
    for job, o in r["overhead"].items():
        q1, q3 = o["ratio_quartiles"]
        target = ""
        if "qd32" in job:
            target = f"  target >= {TARGET:.2f}: " + verdict(
                o["ratio"] >= TARGET)
        print(f"{job:15s} {o['brd']['iops']:9.0f} {o['nullb']['iops']:10.0f}"
              f" {o['ssdemu']['iops']:11.0f} {o['nullb_ratio']:6.2f}"
              f" {o['ratio']:6.2f} {q1:5.2f}-{q3:<6.2f}"
              f" {o['brd']['lat_us']:6.1f}us {o['ssdemu']['lat_us']:8.1f}us"
              f"{target}")


def figures(results: dict[str, Any]) -> list[Path]:
    return []
