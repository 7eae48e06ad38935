#!/usr/bin/env python3
"""Runs the libFuzzer harnesses of tests/fuzz (built by `make fuzzers`).

For each harness: first every input kept in the repo (regressions/NAME/,
crashes found before, and the seed corpus corpus/NAME/) is replayed and
must pass; then it fuzzes for --seconds from a working corpus in
build/fuzz/work/NAME seeded by corpus/NAME.  A crash is copied into
regressions/NAME/ (to be committed with its fix) and fails the run.
Prints executions per second and coverage (libFuzzer's cov: edges and ft:
features) per harness and writes build/fuzz/results.json.

    python3 tests/fuzz/fuzzrun.py --seconds 300        # what `make fuzz` runs
    python3 tests/fuzz/fuzzrun.py --seconds 5 --only model
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = ROOT / "build" / "fuzz"
HARNESSES = ("config", "trace", "model", "snapshot")


@dataclass
class FuzzResult:
    name: str
    seconds: float
    replayed: int
    executions: int
    exec_per_s: int
    cov_edges: int
    features: int
    corpus: int
    crash: str | None  # the regression file a crash was kept in
    log: str


def inputs(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.is_file()) \
        if directory.is_dir() else []


def replay(name: str) -> tuple[int, str | None]:
    """Run every kept input once; (count, failure output or None)."""
    files = inputs(HERE / "regressions" / name) + inputs(HERE / "corpus" /
                                                         name)
    if not files:
        return 0, f"no inputs for {name}"
    proc = subprocess.run([str(BUILD / f"fuzz_{name}"), *map(str, files)],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        return len(files), proc.stderr[-4000:]
    return len(files), None


def keep_crash(name: str, artifact: Path) -> str:
    data = artifact.read_bytes()
    dest = HERE / "regressions" / name / \
        f"crash-{hashlib.sha1(data).hexdigest()[:16]}"
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(data)
    return str(dest.relative_to(ROOT))


def fuzz(name: str, seconds: float) -> FuzzResult:
    replayed, failure = replay(name)
    log_path = BUILD / f"fuzz_{name}.log"
    if failure:
        log_path.write_text(failure)
        return FuzzResult(name, seconds, replayed, 0, 0, 0, 0, 0,
                          "a kept input fails (see the log)", str(log_path))
    work = BUILD / "work" / name
    work.mkdir(parents=True, exist_ok=True)
    artifacts = BUILD / "artifacts" / name
    shutil.rmtree(artifacts, ignore_errors=True)
    artifacts.mkdir(parents=True)
    cmd = [str(BUILD / f"fuzz_{name}"), f"-max_total_time={int(seconds)}",
           "-print_final_stats=1", "-timeout=20", "-rss_limit_mb=2048",
           f"-artifact_prefix={artifacts}/", str(work),
           str(HERE / "corpus" / name)]
    with open(log_path, "w") as log:
        proc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT,
                              timeout=seconds + 600)
    text = log_path.read_text(errors="replace")
    stat = dict(re.findall(r"^stat::(\w+):\s+(\d+)$", text, re.M))
    done = re.findall(r"cov: (\d+) ft: (\d+) corp: (\d+)/", text)
    cov, ft, corp = map(int, done[-1]) if done else (0, 0, 0)
    crash = None
    found = inputs(artifacts)
    if proc.returncode != 0 or found:
        crash = keep_crash(name, found[0]) if found else \
            f"exit status {proc.returncode} without an artifact"
    return FuzzResult(name, seconds, replayed,
                      int(stat.get("number_of_executed_units", 0)),
                      int(stat.get("average_exec_per_sec", 0)), cov, ft,
                      corp, crash, str(log_path))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--only", default=",".join(HARNESSES),
                    help="comma-separated: " + ", ".join(HARNESSES))
    args = ap.parse_args()
    results = [fuzz(name, args.seconds) for name in args.only.split(",")]
    print(f"{'harness':8s} {'kept':>5s} {'execs':>10s} {'exec/s':>8s} "
          f"{'cov':>6s} {'ft':>6s} {'corpus':>6s}  crash")
    for r in results:
        print(f"{r.name:8s} {r.replayed:5d} {r.executions:10d} "
              f"{r.exec_per_s:8d} {r.cov_edges:6d} {r.features:6d} "
              f"{r.corpus:6d}  {r.crash or '-'}")
    BUILD.mkdir(parents=True, exist_ok=True)
    (BUILD / "results.json").write_text(
        json.dumps([asdict(r) for r in results], indent=2) + "\n")
    return 1 if any(r.crash for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
