"""The Python tree as the import tests read it: which files a package
holds and what each file imports (every import statement, at any depth:
a function's lazy import counts)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def python_files(root: Path, *folders: str) -> list[Path]:
    """Every .py file under @folders of the tree at @root."""
    return sorted(p for folder in folders for p in (root / folder).rglob(
        "*.py"))


def imports(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, module) of each module the file imports, relative imports
    resolved against the file's package (`from . import x` in a/b.py:
    "a")."""
    package = path.relative_to(root).parent.parts
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                name = ".".join([*base, *([node.module] if node.module
                                          else [])])
            else:
                name = node.module or ""
            out.append((node.lineno, name))
    return out


def imported(path: Path, root: Path = ROOT) -> set[str]:
    """The top-level names of the modules a file imports."""
    return {name.split(".")[0] for _, name in imports(path, root)}
