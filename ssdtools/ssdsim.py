"""The ssdsim runner.

Owns how the tools run build/bin/ssdsim (or its ASan build): the command
line (a preset, key=value overrides, a trace format, --json, other flags,
a completions file, the trace), the run itself with its failure reported
as the command and ssdsim's stderr, the parsed --json statistics, the
completion records of --completions, and the configuration keys with
their defaults, ranges and help (--list-keys --json), an enum key's values
among them.

run() of the optimized binary goes through the Python API instead (the
same program in this process, libssdsim.so: `import ssdsim`), with the
same statistics and the same error, when the library is built (`make
tools` builds both from the same sources); SSDTOOLS_SSDSIM_BINARY=1, a
timeout or another binary (the ASan build) run the binary.
"""
from __future__ import annotations

import functools
import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Sequence, Union

from ssdtools.paths import BUILD

SSDSIM = BUILD / "bin" / "ssdsim"
# The ASan/UBSan build the tests run (make unit).
SSDSIM_ASAN = BUILD / "asan" / "bin" / "ssdsim"

PathLike = Union[str, Path]


class SsdsimError(RuntimeError):
    """ssdsim exited with a non-zero status."""


class Completion(NamedTuple):
    """One line of --completions (the `ssdctl log` format)."""
    arrival_ns: int
    op: str
    offset_bytes: int
    length_bytes: int
    completion_ns: int


@dataclass(frozen=True)
class Key:
    """A configuration key as --list-keys --json gives it: its default
    as text, its help (an enum key's followed by its names), its layer,
    its range (min, max; None for an enum key, whose values are
    `values`), and whether only the kernel uses it."""
    name: str
    default: str
    help: str
    group: str = ""
    min: int | None = None
    max: int | None = None
    values: tuple[str, ...] = ()
    kernel_only: bool = False


def args(trace: PathLike | None = None, *, config: PathLike | None = None,
         keys: Sequence[str] = (), fmt: str | None = None,
         json_stats: bool = True, flags: Sequence[str] = (),
         completions: PathLike | None = None) -> list[str]:
    """ssdsim's arguments: the preset, then the overrides (applied in
    order, so they win), the format, --json, the other flags, the
    completions file and the trace."""
    out: list[str] = []
    if config is not None:
        out += ["--config", str(config)]
    out += list(keys)
    if fmt is not None:
        out += ["--format", fmt]
    if json_stats:
        out.append("--json")
    out += list(flags)
    if completions is not None:
        out += ["--completions", str(completions)]
    if trace is not None:
        out.append(str(trace))
    return out


def call(arguments: Sequence[str], binary: PathLike = SSDSIM,
         timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """Run ssdsim with these arguments; the finished process, whatever
    its status (callers that expect a refusal read its stderr)."""
    return subprocess.run([str(binary), *arguments], capture_output=True,
                          text=True, timeout=timeout)


def run(trace: PathLike, *, config: PathLike | None = None,
        keys: Sequence[str] = (), fmt: str | None = None,
        flags: Sequence[str] = (), completions: PathLike | None = None,
        binary: PathLike = SSDSIM,
        timeout: float | None = None) -> dict[str, Any]:
    """Replay a trace; ssdsim's --json statistics.  Raises SsdsimError
    (the command, its status and stderr) if ssdsim fails."""
    arguments = args(trace, config=config, keys=keys, fmt=fmt, flags=flags,
                     completions=completions)
    return json_run(arguments, binary, timeout)


def json_run(arguments: Sequence[str], binary: PathLike = SSDSIM,
             timeout: float | None = None) -> dict[str, Any]:
    """ssdsim with these arguments, --json among them (a replay, --age,
    --from): its statistics, through the API where run() would use it.
    Raises SsdsimError (the command, its status and stderr)."""
    arguments = list(arguments)
    if timeout is None and use_api(binary):
        import ssdsim
        try:
            return ssdsim.run_args(arguments, stderr=None)
        except ssdsim.SsdsimError as e:
            raise SsdsimError(f"{' '.join([str(binary), *arguments])}: exit"
                              f" {e.status}\n{e}\n") from e
    proc = call(arguments, binary, timeout)
    if proc.returncode:
        raise SsdsimError(f"{' '.join([str(binary), *arguments])}: exit "
                          f"{proc.returncode}\n{proc.stderr}")
    stats: dict[str, Any] = json.loads(proc.stdout)
    return stats


def use_api(binary: PathLike) -> bool:
    """Whether run() goes through libssdsim.so for @binary (see the
    top)."""
    if os.environ.get("SSDTOOLS_SSDSIM_BINARY") or \
            Path(binary).resolve() != SSDSIM.resolve():
        return False
    import ssdsim
    return ssdsim.lib_path().exists()


def read_completions(path: PathLike) -> list[Completion]:
    """The records of a --completions file, in request order."""
    records = []
    for line in Path(path).read_text().splitlines():
        arrival, op, offset, length, done = line.split()[:5]
        records.append(Completion(int(arrival), op, int(offset), int(length),
                                  int(done)))
    return records


@functools.lru_cache(maxsize=None)
def _list_keys(binary: str) -> tuple[Key, ...]:
    out = subprocess.run([binary, "--list-keys", "--json"], check=True,
                         capture_output=True, text=True).stdout
    return tuple(Key(k["name"], k["default"], k["help"], k["group"], k["min"],
                     k["max"], tuple(k["choices"] or ()), k["kernel_only"])
                 for k in json.loads(out))


def list_keys(binary: PathLike = SSDSIM) -> dict[str, Key]:
    """Every configuration key the binary knows, by name, in its order,
    with its default, range and one-line help (ssdsim --list-keys --json)."""
    return {k.name: k for k in _list_keys(str(binary))}


def defaults(binary: PathLike = SSDSIM) -> dict[str, str]:
    """Every configuration key's default value (as text)."""
    return {name: k.default for name, k in list_keys(binary).items()}


def choices(key: Key) -> list[str]:
    """An enum key's values, in the core's order (its default among
    them); [] for another key.  A Key made by hand without values: the
    names its help lists after its last ": " (ssd_config_describe)."""
    if key.values:
        return list(key.values)
    head, sep, names = key.help.rpartition(": ")
    values = [v.strip() for v in names.split(",")] if sep else []
    if not head or key.default not in values or not all(
            v.replace("_", "").isalnum() for v in values):
        return []
    return values
