"""Where this repository's build tree keeps ssdsim.

Owns the paths of the repository's root, its build tree and the three
builds of ssdsim the binding runs: the program (build/bin/ssdsim), its
ASan/UBSan build (build/asan/bin/ssdsim, `make unit`) and the shared
library (build/lib/libssdsim.so, `make python`); and the type of a path
argument.  The package is installed editable (`make python`), so these
are the tree's own.
"""
from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Union

# A path as the API takes one.
Path_ = Union[str, "PathLike[str]"]

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
SSDSIM = BUILD / "bin" / "ssdsim"
# The ASan/UBSan build the tests run (make unit).
SSDSIM_ASAN = BUILD / "asan" / "bin" / "ssdsim"
LIBSSDSIM = BUILD / "lib" / "libssdsim.so"
