"""The Python tools as one installed distribution (pyproject.toml, `make
python`): build/venv/bin/python, run from outside the repository with no
PYTHONPATH, imports each package from this tree, and every `python3 -m`
command the documentation names is a module it finds, so a rename that
leaves a document behind fails here.  The main commands answer --help.
"""
from __future__ import annotations

import os
import re
import subprocess
import tomllib

import pytest

from ssdtools.paths import BUILD, ROOT

VENV_PYTHON = BUILD / "venv" / "bin" / "python"
PACKAGES = ("ssdsim", "ssdtools", "bench", "workload", "claims")
# Where commands are documented: the docs, the Makefile, the scripts, the
# grids and the packages' own docstrings (not results/, which record the
# command each was made with).
DOCUMENTS = ["README.md", "Makefile", "docs/*.md", "tests/*/README.md",
             "scripts/*", "bench/grids/*",
             *[f"{p}/**/*.py" for p in PACKAGES]]
COMMAND_RE = re.compile(r"python3 -m ((?:%s)(?:\.\w+)+)" % "|".join(
    PACKAGES))
MAIN_COMMANDS = ["bench.run", "workload.run", "workload.replay",
                 "claims.procache", "ssdtools.demo", "ssdtools.sweep"]


def venv_python(*args: str, timeout: float = 60
                ) -> subprocess.CompletedProcess[str]:
    """The installed distribution's python, from a directory outside the
    tree, without PYTHONPATH."""
    if not VENV_PYTHON.exists():
        pytest.fail(f"{VENV_PYTHON} missing: run 'make python'")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([str(VENV_PYTHON), *args], cwd="/", env=env,
                          capture_output=True, text=True, timeout=timeout)


def documented_commands() -> dict[str, list[str]]:
    """Each `python3 -m pkg.module` a document names: the files naming
    it."""
    found: dict[str, list[str]] = {}
    for pattern in DOCUMENTS:
        for path in sorted(ROOT.glob(pattern)):
            if path.is_file():
                for module in COMMAND_RE.findall(path.read_text()):
                    found.setdefault(module, []).append(
                        str(path.relative_to(ROOT)))
    return found


def test_pyproject_installs_the_packages() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["dependencies"] == []
    include = project["tool"]["setuptools"]["packages"]["find"]["include"]
    assert sorted(include) == sorted(f"{p}*" for p in PACKAGES)


def test_installed_packages_are_the_trees() -> None:
    proc = venv_python("-c", "import importlib; print('\\n'.join("
                       "importlib.import_module(p).__file__ for p in"
                       f" {PACKAGES!r}))")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(ROOT / p / "__init__.py")
                                   for p in PACKAGES]


def test_every_documented_command_is_installed() -> None:
    found = documented_commands()
    assert set(MAIN_COMMANDS) <= set(found)
    script = ("import importlib.util, sys\n"
              "for m in sys.argv[1:]:\n"
              "    ok = importlib.util.find_spec(m) is not None\n"
              "    print(m, 'ok' if ok else 'missing')\n")
    proc = venv_python("-c", script, *sorted(found))
    assert proc.returncode == 0, proc.stderr
    missing = [f"python3 -m {line.split()[0]} (named in"
               f" {', '.join(found[line.split()[0]])})"
               for line in proc.stdout.splitlines()
               if line.endswith(" missing")]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("module", MAIN_COMMANDS)
def test_main_commands_answer_help(module: str) -> None:
    proc = venv_python("-m", module, "--help")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: ")
