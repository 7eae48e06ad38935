"""The speed driver (build/bin/simspeed, bench/simspeed.c) and the
bench section built on it (bench/simspeed.py): the driver models the same
thing run after run and its seed changes the workload; GC and the cache
do work; the libCacheSim trace the section writes is read back as the
requests it holds; a machine without MQSim's source says so.
"""
from __future__ import annotations

import json
import subprocess
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest

from bench import simspeed
from lcs_reference import libcachesim

SMALL = ["--conf", str(simspeed.CONFIG), "--fill", "80"]


def driver(*args: str) -> dict[str, Any]:
    if not simspeed.SIMSPEED.exists():
        pytest.fail(f"{simspeed.SIMSPEED} missing: run 'make tools'")
    proc = subprocess.run([str(simspeed.SIMSPEED), "--json", *args],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


def test_driver_is_deterministic_and_seeded() -> None:
    a = driver(*SMALL, "--requests", "60000", "--seed", "3")
    b = driver(*SMALL, "--requests", "60000", "--seed", "3")
    c = driver(*SMALL, "--requests", "60000", "--seed", "4")
    assert (a["completion_digest"], a["stats_digest"]) == \
        (b["completion_digest"], b["stats_digest"])
    assert a["completion_digest"] != c["completion_digest"]
    assert a["fill_pages"] == a["logical_pages"] * 80 // 100
    # Every page of the fill and of the random phase was written once.
    assert a["host_write_pages"] == a["fill_pages"] + 60000
    # Random overwrites of 80% of the space: GC moved pages.
    assert a["gc_relocated_pages"] > 0
    assert a["flash_program_pages"] > a["host_write_pages"]
    assert a["requests_per_s"] > 0


def test_driver_cache_and_bad_keys() -> None:
    st = driver(*SMALL, "--requests", "20000", *simspeed.ALWAYS_KEYS)
    assert st["cache_capacity_pages"] > 0
    assert st["cache_admit_pages"] >= 20000
    proc = subprocess.run([str(simspeed.SIMSPEED), "no_such_key=1"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert "no_such_key" in proc.stderr


def lru_misses(pages: list[int], size: int) -> int:
    cache: OrderedDict[int, None] = OrderedDict()
    misses = 0
    for p in pages:
        if p in cache:
            cache.move_to_end(p)
            continue
        misses += 1
        cache[p] = None
        if len(cache) > size:
            cache.popitem(last=False)
    return misses


def test_oracle_trace_reads_back_in_libcachesim(tmp_path: Path) -> None:
    libcachesim()
    pages = simspeed.page_sequence(300, 3000, seed=5)
    trace = tmp_path / "t.oracleGeneral"
    simspeed.write_oracle_trace(trace, pages)
    assert trace.stat().st_size == 24 * len(pages)
    r = simspeed.run_libcachesim(trace, len(pages), 100)
    assert "skipped" not in r
    assert r["miss_ratio"] == pytest.approx(lru_misses(pages, 100)
                                            / len(pages))


def test_mqsim_trace_format(tmp_path: Path) -> None:
    trace = tmp_path / "t.trace"
    simspeed.write_mqsim_trace(trace, [5, 0, 7])
    assert trace.read_text().splitlines() == [
        "0 0 40 8 0", f"{simspeed.GAP_NS} 0 0 8 0",
        f"{2 * simspeed.GAP_NS} 0 56 8 0"]


def test_without_mqsim_source_it_says_skipped(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MQSIM_SRC", raising=False)
    monkeypatch.setattr(simspeed, "MQSIM_DEFAULT_SRC", tmp_path / "none")
    r = simspeed.run_mqsim(tmp_path / "t.trace", 1, 1)
    assert r == {"skipped": "MQSim: source not available, skipped"}
    result = {
        "config": "small-test.conf", "fill_percent": 80, "requests": 1,
        "trace_requests": 1, "rounds": 1, "targets": simspeed.TARGETS,
        "mqsim": r, "libcachesim_lru": {"skipped": "x"}}
    for path in ("core", "cache", "cache_always", "ssdsim"):
        result[path] = {"requests_per_s": 1.0,
                        "rss_bytes_per_logical_page": 20.0}
    result["ratios"] = {f"{p}_vs_{ref}": None
                        for p in ("core", "cache", "cache_always", "ssdsim")
                        for ref in ("libcachesim_lru", "mqsim")}
    text = "\n".join(simspeed.table_lines(result))
    assert "MQSim: source not available, skipped" in text
    assert "not met" in text
