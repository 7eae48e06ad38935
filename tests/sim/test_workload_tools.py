"""The workload's host side without a VM: the guest's output is parsed
into steps, step traces are joined in order with shifted times and replay
through ssdsim, and the report's per-step figures are the stats' deltas."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "workload"))
import replay  # noqa: E402
import report  # noqa: E402
import run  # noqa: E402


def stats(**kw: int) -> dict[str, int]:
    base = {k: 0 for k in report.COUNTERS}
    base.update(kw)
    return base


def test_guest_output_parsed_into_steps() -> None:
    before = stats(host_write_bytes=100)
    after = stats(host_write_bytes=4196, flash_program_tlc_pages=3,
                  dedup_chunks_written=4, dedup_duplicate_chunks=1)
    out = (f"STATS-BEGIN r1-web-before\n{json.dumps(before)}\n"
           "STATS-END r1-web-before\n"
           f"noise\nSTATS-BEGIN r1-web-after\n{json.dumps(after)}\n"
           "STATS-END r1-web-after\nWORKLOAD-STEP 1 web 2.5\n")
    parsed = run.parse_output(out)
    assert [s["step"] for s in parsed["steps"]] == ["web"]
    row = report.step_row(parsed["steps"][0])
    assert row["wall_s"] == 2.5
    assert row["host_mib"] == pytest.approx(4096 / 2**20)
    assert row["tlc_programs"] == 3
    assert row["dup_percent"] == pytest.approx(25.0)


def blk_line(t: float, sector: int) -> str:
    return f"8,0 0 1 {t:.9f} 42 D W {sector} + 8 [cp]"


def test_joined_trace_keeps_step_order(tmp_path: Path) -> None:
    for i, step in enumerate(replay.STEP_ORDER):
        lines = [blk_line(0.5, 1000 * i), blk_line(0.25, 1000 * i + 8),
                 "CPU0 (8,0):", " Reads Queued: 0"]
        (tmp_path / f"r1-{step}.blkparse").write_text("\n".join(lines))
    joined = tmp_path / "joined.blkparse"
    replay.join_traces(tmp_path, 1, joined)
    records = [line.split() for line in joined.read_text().splitlines()]
    assert len(records) == 2 * len(replay.STEP_ORDER)
    times = [float(r[3]) for r in records]
    sectors = [int(r[7]) for r in records]
    # Every step starts after the previous one's last event.
    for i in range(1, len(replay.STEP_ORDER)):
        assert min(times[2 * i:2 * i + 2]) > max(times[:2 * i])
    assert sectors[::2] == [1000 * i for i in range(len(replay.STEP_ORDER))]
    assert replay.SSDSIM.exists(), "build/bin/ssdsim missing: run 'make'"
    st = replay.replay(joined, ["blocks_per_chip=64", "chips=4"])
    assert st["host_write_bytes"] == 2 * 8 * 512 * len(replay.STEP_ORDER)
