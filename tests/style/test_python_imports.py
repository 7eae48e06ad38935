"""The Python tools' boundaries (docs: DESIGN.md, "Python"): the tools
share one package, ssdtools/ (ssdsim/ is the core library's binding);
nothing outside tests/ imports from tests/; no file edits sys.path
(tools run as modules from the root, pytest finds the root through
pytest.ini)."""
from __future__ import annotations

import ast
from pathlib import Path

from python_tree import ROOT, imported
from python_tree import python_files as files_under

TOOLS = ("ssdtools", "bench", "workload", "ssdsim")


def python_files(*folders: str) -> list[Path]:
    return files_under(ROOT, *folders)


def test_tools_do_not_import_from_tests() -> None:
    test_modules = {p.stem for p in python_files("tests")} | {"tests"}
    problems = [f"{p.relative_to(ROOT)}: imports {', '.join(sorted(bad))}"
                for p in python_files(*TOOLS)
                if (bad := imported(p) & test_modules)]
    assert not problems, "\n".join(problems)


def edits_sys_path(path: Path) -> bool:
    """Whether the file calls sys.path.insert, append or extend."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call) \
                and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("insert", "append", "extend") \
                and ast.unparse(node.func.value) == "sys.path":
            return True
    return False


def test_no_file_edits_sys_path() -> None:
    problems = [str(p.relative_to(ROOT)) for p in
                python_files("tests", *TOOLS) if edits_sys_path(p)]
    assert not problems, "\n".join(problems)
