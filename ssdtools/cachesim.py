"""The host cache simulator's runners: build/bin/cachesim (a trace through
host cache policies, --json) and build/bin/tracegen (synthetic traces
with content hashes), in tools/cachesim/ and tools/tracegen/
(tools/cachesim/README.md).

A failed run raises CachesimError with the command and its stderr.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Sequence, Union

from ssdtools.paths import BUILD

CACHESIM = BUILD / "bin" / "cachesim"
TRACEGEN = BUILD / "bin" / "tracegen"
# The ASan/UBSan builds the tests run (make unit).
CACHESIM_ASAN = BUILD / "asan" / "bin" / "cachesim"
TRACEGEN_ASAN = BUILD / "asan" / "bin" / "tracegen"

PathLike = Union[str, Path]


class CachesimError(RuntimeError):
    """cachesim or tracegen exited with a non-zero status."""


def call(binary: PathLike, arguments: Sequence[str],
         timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """Run a binary; the finished process, whatever its status."""
    return subprocess.run([str(binary), *arguments], capture_output=True,
                          text=True, timeout=timeout)


def _checked(binary: PathLike, arguments: Sequence[str],
             timeout: float | None) -> subprocess.CompletedProcess[str]:
    proc = call(binary, arguments, timeout)
    if proc.returncode:
        raise CachesimError(f"{binary} {' '.join(arguments)}: exit "
                            f"{proc.returncode}\n{proc.stderr}")
    return proc


def run(trace: PathLike, arguments: Sequence[str] = (),
        binary: PathLike = CACHESIM,
        timeout: float | None = None) -> dict[str, Any]:
    """cachesim --json over a trace: {"trace": census, "runs": [...]}."""
    proc = _checked(binary, ["--json", *arguments, str(trace)], timeout)
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def generate(kind: str, out: PathLike, arguments: Sequence[str] = (),
             binary: PathLike = TRACEGEN,
             timeout: float | None = None) -> dict[str, float]:
    """tracegen KIND ... -o OUT; its summary (stderr "key value" lines)."""
    proc = _checked(binary, [kind, *arguments, "-o", str(out)], timeout)
    summary = {}
    for line in proc.stderr.splitlines():
        key, _, value = line.partition(" ")
        if value:
            summary[key] = float(value)
    return summary
