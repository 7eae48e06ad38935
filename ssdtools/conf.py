"""The configs/*.conf reader.

Owns the Python side of the preset format (host-tools/conf_file.c reads
it for ssdctl and ssdsim): `key = value` lines, `#` to the end of a line
a comment, blank lines ignored.  A preset over the defaults gives every
key a value, the defaults coming from ssdsim --list-keys, so no tool
copies the C defaults by hand.
"""
from __future__ import annotations

from pathlib import Path
from typing import Union

from ssdtools import ssdsim

PathLike = Union[str, Path]


def read(preset: PathLike) -> dict[str, str]:
    """The key = value pairs of a preset file, in file order (values as
    text)."""
    conf: dict[str, str] = {}
    for line in Path(preset).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if "=" in line:
            key, value = (part.strip() for part in line.split("=", 1))
            conf[key] = value
    return conf


def numbers(conf: dict[str, str]) -> dict[str, int]:
    """The keys whose values are whole numbers, as ints."""
    return {k: int(v) for k, v in conf.items() if v.isdigit()}


def with_defaults(preset: PathLike,
                  binary: PathLike = ssdsim.SSDSIM) -> dict[str, str]:
    """Every key's value under a preset: the preset's, else the default
    ssdsim --list-keys gives."""
    return {**ssdsim.defaults(binary), **read(preset)}
