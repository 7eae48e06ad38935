"""The configuration keys as ssdsim lists them.

Owns reading `ssdsim --list-keys --json` (through the one runner: the
library's values in this process, or a named binary's JSON): each key
with its default, its range or, for an enum key, its values, its help
and its layer; the defaults alone; an enum key's values.  No tool copies
the C defaults.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from ssdsim.errors import SsdsimError
from ssdsim.paths import SSDSIM, Path_
from ssdsim.runner import execute


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


@functools.lru_cache(maxsize=None)
def _list_keys(binary: str) -> tuple[Key, ...]:
    argv = ["--list-keys", "--json"]
    status, err, keys = execute(argv, binary)
    if status:
        raise SsdsimError(err, status, [binary, *argv])
    return tuple(Key(k["name"], k["default"], k["help"], k["group"], k["min"],
                     k["max"], tuple(k["choices"] or ()), k["kernel_only"])
                 for k in keys)


def list_keys(binary: Path_ = SSDSIM) -> dict[str, Key]:
    """Every configuration key the binary knows, by name, in its order,
    with its default, range and one-line help (ssdsim --list-keys --json;
    SSDSIM's through the library when it is built)."""
    return {k.name: k for k in _list_keys(str(binary))}


def defaults(binary: Path_ = SSDSIM) -> dict[str, str]:
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
