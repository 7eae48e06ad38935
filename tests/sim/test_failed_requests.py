"""Failed and refused requests are seen and never timed (issue 33).

Two ways a researcher could publish a wrong number, each reproduced on a
tiny device: every host read uncorrectable (read errors on) printed
`read latency count 512` with a mean and exited 0, the failures only in
--json; and after the end of life (wear-out, --iodepth 1) every refused
write entered the write latencies (count far above write_commands, and
above the --completions lines).  Now the summary opens with a warning,
lists every fault counter that is not zero, and the latencies count the
completed requests alone, the failed and refused ones beside them: in the
summary, --json, the core's counters and the Python API alike.  Also the
working set (working_set_pages): distinct logical pages read or written
since the last reset, kept in snapshots.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import ssdsim
from asan_ssdsim import SMALL, TINY, TRACES, ssdsim as run_ssdsim
from asan_ssdsim import write_then_read

PAGE = 4096
PAGES = 512
# Every read past the ECC after its one retry: every host read fails.
UNREADABLE = ["rber_base_ppb=20000000", "read_retry_max=1"]
# The wear-out of tests/sim/test_wear_sim.py: read-only within the trace.
WORN = ["pages_per_block=16", "blocks_per_chip=16", "chips=4", "channels=2",
        "op_percent=40", "pe_cycle_limit=3", "grown_bad_ppm=100000"]
TPCC = str(TRACES / "mqsim-tpcc-small.trace")


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines())


def test_failed_reads_are_said_and_not_timed(tmp_path: Path) -> None:
    trace = str(write_then_read(tmp_path / "wr.trace", PAGES))
    done = tmp_path / "done.txt"
    args = ["--format", "ssdemu", *TINY, *UNREADABLE, "--completions",
            str(done), trace]
    st: dict[str, Any] = json.loads(run_ssdsim("--json", *args).stdout)
    assert st["host_read_error_pages"] == PAGES
    assert st["read_failed_commands"] == PAGES
    assert st["read_commands"] == 0 and st["read_latency_ns_total"] == 0
    assert st["failed_commands"] == PAGES
    read = st["latency"]["read"]
    assert read["count"] == 0 and read["mean_ns"] is None
    assert st["not_completed"]["read"] == {"failed": PAGES, "refused": 0}
    write = st["latency"]["write"]
    assert write["count"] == st["write_commands"] == PAGES
    # A completion record for each completed request, none for a failed one.
    assert _lines(done) == read["count"] + write["count"]

    out = run_ssdsim(*args).stdout.splitlines()
    assert out[0].startswith(
        f"WARNING: {PAGES} of {PAGES} host reads failed")
    faults = " ".join(line for line in out
                      if line.startswith(("faults", " ")))
    assert f"host_read_error_pages {PAGES}" in faults
    assert f"read_failed_commands {PAGES}" in faults
    latency = next(line for line in out if line.startswith("read latency"))
    assert "count 0 " in latency and "mean" not in latency
    assert f"({PAGES} failed, 0 refused" in latency


def test_refused_writes_are_not_timed(tmp_path: Path) -> None:
    done = tmp_path / "done.txt"
    args = ["--config", str(SMALL), *WORN, "--iodepth", "1",
            "--completions", str(done), TPCC]
    st: dict[str, Any] = json.loads(run_ssdsim("--json", *args).stdout)
    assert st["read_only"] == 1
    write = st["latency"]["write"]
    refused = st["not_completed"]["write"]["refused"]
    assert refused > 0 and st["not_completed"]["write"]["failed"] == 0
    assert refused == st["write_refused_commands"]
    # The latencies are those of the completed writes, which the core
    # counts too, and the --completions file holds exactly those.
    assert write["count"] == st["write_commands"]
    read = st["latency"]["read"]
    assert read["count"] == st["read_commands"]
    assert _lines(done) == read["count"] + write["count"]
    assert write["max_ns"] * write["count"] >= st["write_latency_ns_total"]

    out = run_ssdsim(*args).stdout.splitlines()
    all_writes = write["count"] + refused
    assert out[0].startswith(
        f"WARNING: {refused} of {all_writes} host writes refused")
    latency = next(line for line in out if line.startswith("write latency"))
    assert f"count {write['count']} " in latency
    assert f"(0 failed, {refused} refused" in latency


def test_no_warning_without_faults() -> None:
    out = run_ssdsim("--config", str(SMALL), *TINY, TPCC).stdout
    assert "WARNING" not in out
    assert not any(line.startswith("faults") for line in out.splitlines())


def test_python_api_counts_them_beside(tmp_path: Path) -> None:
    trace = write_then_read(tmp_path / "wr.trace", PAGES)
    got = ssdsim.run(trace, format="ssdemu", keys=TINY + UNREADABLE)
    assert got["latency"]["read"] == {
        "count": 0, "mean_ns": None, "p50_ns": None, "p99_ns": None,
        "max_ns": None}
    assert got["not_completed"] == {"read": {"failed": PAGES, "refused": 0},
                                    "write": {"failed": 0, "refused": 0}}
    assert got["read_failed_commands"] == PAGES


def _touching(path: Path) -> Path:
    """Writes of pages 0..99, reads of 50..149, a TRIM of 300..399."""
    lines, t = [], 0
    for op, first, last in (("W", 0, 99), ("R", 50, 149), ("T", 300, 399)):
        for lpn in range(first, last + 1):
            t += 100000
            lines.append(f"{t} {op} {lpn * PAGE} {PAGE} 0")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_working_set(tmp_path: Path) -> None:
    trace = str(_touching(tmp_path / "touch.trace"))
    snap = str(tmp_path / "touch.snap")
    base = ["--format", "ssdemu", *TINY]
    st = json.loads(run_ssdsim("--json", *base, "--save", snap,
                               trace).stdout)
    assert st["working_set_pages"] == 150      # a TRIM touches nothing
    # Each warm-up pass ends in a reset: the measured pass alone.
    warm = json.loads(run_ssdsim("--json", *base, "--warmup", "1",
                                 trace).stdout)
    assert warm["working_set_pages"] == 150
    # Kept in a snapshot, and started again by --reset-stats.
    again = json.loads(run_ssdsim("--json", "--from", snap).stdout)
    assert again["working_set_pages"] == 150
    fresh = json.loads(run_ssdsim("--json", "--from", snap, "--reset-stats",
                                  "--format", "ssdemu", trace).stdout)
    assert fresh["working_set_pages"] == 150
    out = run_ssdsim(*base, trace).stdout
    assert "working set 0.6 MiB" in out
