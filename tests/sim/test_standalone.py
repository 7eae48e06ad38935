"""The repository stands alone: tests and benchmarks read their data from
tests/data, never from the project workspace around the checkout.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
TRACE_NAMES = ["fiu-homes-sample.blkparse", "fiu-mail-sample.blkparse",
               "mqsim-tpcc-small.trace"]
# A path into the workspace's shared folder: "../shared", or "shared" as a
# path component joined to a Path (ROOT.parent / "shared").
OUTSIDE = re.compile(r"""\.\./shared\b|/\s*["']shared["']""")


def test_traces_are_in_the_repository() -> None:
    readme = (DATA / "README.md").read_text()
    for name in TRACE_NAMES:
        path = DATA / name
        assert path.is_file(), f"{path} missing"
        assert path.stat().st_size > 0
        assert f"`{name}`" in readme, f"tests/data/README.md: no {name}"
    for source in ("FIU", "SyLab", "MQSim", "homes", "mail", "TPC-C"):
        assert source in readme


def test_tests_and_benchmarks_do_not_read_outside_the_repository() -> None:
    me = Path(__file__).resolve()
    sources = [p for folder in ("tests", "bench", "ssdtools") for p in
               (ROOT / folder).rglob("*")
               if p.suffix in (".py", ".sh", ".ini", ".cfg", ".toml")
               and p.resolve() != me]
    assert sources
    offenders = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
                 for p in sources
                 for n, line in enumerate(p.read_text().splitlines(), 1)
                 if OUTSIDE.search(line)]
    assert not offenders, "\n".join(offenders)
