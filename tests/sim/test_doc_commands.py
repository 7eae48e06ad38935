"""The documentation's commands run, and print what the documentation says
they print (issue 33: a README example claimed a buffer and a WAF the
preset no longer had).

A runnable example is a fenced block with the info string `console
doc-test`: each command is a line beginning `$ ` (continued by a trailing
backslash), the lines after it up to the next command are what it
prints on stdout.  A line `...` stands for any lines (none or more), so a
block may show the lines that matter of a longer output; without one the
output must be exactly the block's.  The commands are the userspace
tools' (`build/bin/ssdsim`, `build/bin/trace_dump`: nothing that needs
the kernel), run one after another in a scratch directory that sees the
repository's `configs/`, `tests/` and `build/` (so `--save x.snap` writes
there, and a later command of the block may read it).  Every document in
DOCUMENTS is read, and each must hold at least the examples counted
there, so a marker lost in an edit fails too.
"""
from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest

from ssdtools.paths import ROOT

# Documents with runnable examples, and how many each holds at least.
DOCUMENTS = {"README.md": 2, "docs/ssdsim.md": 4,
             "tools/ssdsim/README.md": 1, "dedup/README.md": 1}
PROGRAMS = ("build/bin/ssdsim", "build/bin/trace_dump")
BLOCK = re.compile(r"^```console doc-test\n(.*?)^```$", re.M | re.S)
ELIDED = "..."


def examples(text: str) -> list[list[tuple[str, list[str]]]]:
    """Each doc-test block of @text: its (command, printed lines)."""
    found = []
    for body in BLOCK.findall(text):
        steps: list[tuple[str, list[str]]] = []
        lines = body.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            assert line.startswith("$ "), f"not a command: {line!r}"
            command = line[2:]
            while command.endswith("\\"):
                i += 1
                command = command[:-1] + lines[i].strip()
            printed = []
            i += 1
            while i < len(lines) and not lines[i].startswith("$ "):
                printed.append(lines[i])
                i += 1
            steps.append((command, printed))
        found.append(steps)
    return found


def matches(actual: list[str], expected: list[str]) -> bool:
    """Whether @actual is @expected, each `...` any run of lines."""
    if ELIDED not in expected:
        return actual == expected
    parts: list[list[str]] = [[]]
    for line in expected:
        if line == ELIDED:
            parts.append([])
        else:
            parts[-1].append(line)
    head, middle, tail = parts[0], parts[1:-1], parts[-1]
    if len(head) + len(tail) > len(actual) or actual[:len(head)] != head \
            or actual[len(actual) - len(tail):] != tail:
        return False
    at, end = len(head), len(actual) - len(tail)
    for part in middle:
        while at + len(part) <= end and actual[at:at + len(part)] != part:
            at += 1
        if at + len(part) > end:
            return False
        at += len(part)
    return True


def scratch(tmp_path: Path) -> Path:
    tmp_path.mkdir()
    for name in ("configs", "tests", "build"):
        (tmp_path / name).symlink_to(ROOT / name)
    return tmp_path


def test_matching_rule() -> None:
    assert matches(["a", "b"], ["a", "b"])
    assert not matches(["a", "b", "c"], ["a", "b"])
    assert matches(["a", "b", "c", "d"], ["a", ELIDED, "d"])
    assert matches(["x", "a", "y"], [ELIDED, "a", ELIDED])
    assert not matches(["a", "c"], ["a", ELIDED, "b"])
    assert not matches(["a", "b", "c"], [ELIDED, "b"])
    assert matches(["b", "x", "b"], [ELIDED, "b"])
    assert not matches(["a"], ["a", ELIDED, "a"])


@pytest.mark.parametrize("document", sorted(DOCUMENTS))
def test_documented_commands_print_what_the_document_says(
        document: str, tmp_path: Path) -> None:
    blocks = examples((ROOT / document).read_text())
    assert len(blocks) >= DOCUMENTS[document], (
        f"{document}: {len(blocks)} doc-test blocks, at least "
        f"{DOCUMENTS[document]} expected")
    for n, steps in enumerate(blocks):
        cwd = scratch(tmp_path / f"block{n}")
        for command, printed in steps:
            argv = shlex.split(command)
            assert argv[0] in PROGRAMS, f"{document}: {command}"
            if not (ROOT / argv[0]).exists():
                pytest.fail(f"{argv[0]} missing: run 'make tools'")
            proc = subprocess.run(argv, cwd=cwd, capture_output=True,
                                  text=True, timeout=120)
            assert proc.returncode == 0, f"{command}\n{proc.stderr}"
            actual = proc.stdout.rstrip("\n").split("\n")
            assert matches(actual, printed), (
                f"{document}: {command}\nthe document says:\n"
                + "\n".join(printed) + "\nit printed:\n" + proc.stdout)
