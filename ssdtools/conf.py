"""The configs/*.conf reader.

Owns the Python side of the preset format (tools/report/conf_file.c reads
it for ssdctl and ssdsim): `key = value` lines, `#` to the end of a line
a comment, blank lines ignored.  A preset over the defaults gives every
key a value, the defaults coming from ssdsim --list-keys, so no tool
copies the C defaults by hand.
"""
from __future__ import annotations

from pathlib import Path
from typing import Union

import ssdsim

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


# Binary size suffixes of byte-valued keys (common/ssd_config.c).
_SHIFTS = {"K": 10, "M": 20, "G": 30, "T": 40}


def key_value(key: str, value: str) -> int | None:
    """A key's value as an int in its unit, as common/ssd_config.c reads
    it: decimal digits, or for a byte-valued key (*_bytes, *_mb in MiB)
    digits and a binary suffix (8KiB, 4k, 1GiB); None for anything else
    (an enum name, or a size that is not a whole number of the unit)."""
    if value.isdigit():
        return int(value)
    unit = 1 if key.endswith("_bytes") else 1 << 20 if key.endswith(
        "_mb") else 0
    digits = value.rstrip("KMGTkmgtiB")
    suffix = value[len(digits):]
    head = suffix[:1].upper()
    if (not unit or not digits.isdigit() or head not in _SHIFTS
            or suffix not in (suffix[:1], suffix[:1].upper() + "iB")
            or (suffix.endswith("iB") and not suffix[0].isupper())):
        return None
    size = int(digits) << _SHIFTS[head]
    return size // unit if size % unit == 0 else None


def numbers(conf: dict[str, str]) -> dict[str, int]:
    """The keys whose values are whole numbers (sizes with a suffix
    included), as ints in the key's unit."""
    out = {}
    for k, v in conf.items():
        n = key_value(k, v)
        if n is not None:
            out[k] = n
    return out


def with_defaults(preset: PathLike,
                  binary: PathLike = ssdsim.SSDSIM) -> dict[str, str]:
    """Every key's value under a preset: the preset's, else the default
    ssdsim --list-keys gives."""
    return {**ssdsim.defaults(binary), **read(preset)}
