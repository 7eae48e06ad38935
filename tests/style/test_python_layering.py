"""The Python packages' contract: which package may import which.

The Python side is layered as the C side (docs/architecture.md, section
7; DESIGN.md, "Python"): the ssdsim binding at the bottom, the tools
(ssdtools) above it, bench and workload on top, side by side, and the
claims reports that rest on both (claims) above them.  SPEC is
the contract, as tests/style/test_layering.py's is for the C folders:
these tests hold pyproject.toml's packages to it, check every import of
every file of the tree against it (at any depth: a function's lazy
import counts, and a relative one is resolved), and show that each
wrong-way arrow a review found would be caught if it came back.
"""
from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from python_tree import ROOT, imports, python_files

# package: the packages it may import besides itself.  Arrows point down:
# bench and workload -> ssdtools -> ssdsim; bench and workload do not
# import each other; the binding imports nothing of ours.
SPEC: dict[str, set[str]] = {
    "ssdsim": set(),
    "ssdtools": {"ssdsim"},
    "bench": {"ssdtools", "ssdsim"},
    "workload": {"ssdtools", "ssdsim"},
    # A claims report that rests on the benchmarks and the workload's
    # replays alike (claims/procache.py).
    "claims": {"bench", "workload", "ssdtools", "ssdsim"},
}


def violations(root: Path,
               spec: dict[str, set[str]] = SPEC) -> list[str]:
    """Every import of the tree at @root that breaks the contract."""
    problems = []
    for package, allowed in spec.items():
        for path in python_files(root, package):
            rel = path.relative_to(root)
            for line, module in imports(path, root):
                top = module.split(".")[0]
                if top in spec and top != package and top not in allowed:
                    problems.append(f"{rel}:{line}: imports {module}:"
                                    f" {package} may not import {top}")
    return problems


def test_spec_points_down() -> None:
    """No two packages may import each other, directly or round a loop."""
    def reaches(a: str, b: str, seen: set[str]) -> bool:
        return any(d == b or (d not in seen and reaches(d, b, seen | {d}))
                   for d in SPEC[a])
    for package in SPEC:
        assert not reaches(package, package, {package}), package


def test_the_distribution_is_the_spec() -> None:
    """pyproject.toml installs exactly these packages, and each of them
    is one (an __init__.py)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    found = project["tool"]["setuptools"]["packages"]["find"]
    assert sorted(found["include"]) == sorted(f"{p}*" for p in SPEC)
    for package in SPEC:
        assert (ROOT / package / "__init__.py").is_file(), package


def test_every_import_keeps_the_contract() -> None:
    problems = violations(ROOT)
    assert not problems, "\n".join(problems)
    assert len(python_files(ROOT, *SPEC)) > 50


# The wrong-way arrows a review of the tree found (issue 31), and the
# ones that would undo the layering: (file, module, the code that took
# it).  Put back, the check must name each.
OLD_ARROWS = [
    # the demo (a tool) took the workload's device settings
    ("ssdtools/demo.py", "workload.settings",
     "from workload.settings import PRESET\n"),
    # the workload's replay took the bench's ProCache counting
    ("workload/replay.py", "bench",
     "from bench import procache_figs as figs\n"),
    # the binding reaching up into the tools: paths, the sweep
    ("ssdsim/runner.py", "ssdtools.paths",
     "from ssdtools.paths import BUILD\n"),
    ("ssdsim/__init__.py", "ssdtools.sweep",
     "from ssdtools.sweep import sweep\n"),
    # a lazy import in a function (ssdtools/ssdsim.py imported the
    # binding so)
    ("ssdsim/keys.py", "ssdtools.conf",
     "\n\ndef _later() -> None:\n    import ssdtools.conf\n"),
    # bench and workload side by side
    ("bench/procache_figs.py", "workload",
     "from workload import settings\n"),
]


@pytest.mark.parametrize("path,module,code", OLD_ARROWS,
                         ids=[f"{p}->{m}" for p, m, _ in OLD_ARROWS])
def test_an_old_arrow_put_back_is_caught(tmp_path: Path, path: str,
                                         module: str, code: str) -> None:
    for package in SPEC:
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    assert not violations(tmp_path)
    target = tmp_path / path
    target.write_text(target.read_text() + code)
    problems = violations(tmp_path)
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{path}:"), problems
    assert f": imports {module}: " in problems[0], problems
