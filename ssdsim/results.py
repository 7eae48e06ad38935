"""What a run gives back, read in one place.

Owns turning ssdsim's results into Python values: a result's values as
libssdsim.so hands them over (in --json's order and nesting), or the
--json a binary printed (the ASan build, a run with a timeout), both
into the same dict, nested as ssdsim nests them; the records of
--completions and a Device's completions (one Completion type);
flattening a result to one level of columns, and a pandas DataFrame of
results.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Mapping, NamedTuple

from ssdsim._lib import Event
from ssdsim.errors import SsdsimError
from ssdsim.paths import Path_


def from_values(events: Iterable[Event]) -> Any:
    """A result's values, as the library hands them over (each opening
    an object or array, closing one, or a scalar), as the dict (or list)
    a JSON reader makes of what --json prints for the same run."""
    stack: list[Any] = []
    top: Any = None
    for name, kind, value in events:
        if kind == "end":
            top = stack.pop()
            continue
        item = {} if kind == "object" else [] if kind == "array" else value
        if not stack:
            top = item
        elif isinstance(stack[-1], list):
            stack[-1].append(item)
        else:
            stack[-1][name] = item
        if kind in ("object", "array"):
            stack.append(item)
    return top


def parse_json(text: str) -> Any:
    """What a ssdsim binary printed with --json (its statistics, or its
    keys with --list-keys --json)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise SsdsimError(f"ssdsim: its output is not JSON ({e}): is"
                          " --json among the arguments?") from e


class Completion(NamedTuple):
    """A request the device ran: when it arrived (arrivals are made
    non-decreasing) and when it completed.  A --completions record also
    names the request as the device was given it (its op letter, offset
    and length, after placement: the `ssdctl log` format; one record per
    request, a request the remap split in pieces giving its first
    piece's offset, the length of all and the completion of the last);
    a Device's completion leaves them None (the request is the
    caller's)."""
    arrival_ns: int
    completion_ns: int
    op: str | None = None
    offset_bytes: int | None = None
    length_bytes: int | None = None


def read_completions(path: Path_) -> list[Completion]:
    """The records of a --completions file, in request order."""
    records = []
    for line in Path(path).read_text().splitlines():
        arrival, op, offset, length, done = line.split()[:5]
        records.append(Completion(int(arrival), int(done), op, int(offset),
                                  int(length)))
    return records


def flatten(stats: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """One level of columns: nested objects become "outer.inner"."""
    out: dict[str, Any] = {}
    for key, value in stats.items():
        if isinstance(value, Mapping):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def to_dataframe(results: Mapping[str, Any] | Iterable[Mapping[str, Any]]
                 ) -> Any:
    """A pandas DataFrame: one row per result (a dict of run() or
    Device.stats(), or a list of them), nested fields flattened.  Needs
    pandas (Debian: python3-pandas)."""
    try:
        import pandas
    except ImportError as e:
        raise SsdsimError("ssdsim: to_dataframe() needs pandas (Debian:"
                          " apt-get install python3-pandas; or pip install"
                          " pandas)") from e
    rows = [results] if isinstance(results, Mapping) else list(results)
    return pandas.DataFrame([flatten(r) for r in rows])
