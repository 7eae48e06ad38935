"""What a run gives back, read in one place.

Owns turning ssdsim's output into Python values: the --json statistics
(a dict, nested as ssdsim nests them), the records of --completions and
a Device's completions (one Completion type), flattening a result to one
level of columns, and a pandas DataFrame of results.  When libssdsim
hands its results over as a structure instead of printed JSON, this is
the file that changes.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Mapping, NamedTuple

from ssdsim.errors import SsdsimError
from ssdsim.paths import Path_


def parse_stats(text: str) -> dict[str, Any]:
    """ssdsim's --json statistics (printed by a run, or by a Device's
    stats) as a dict."""
    try:
        stats: dict[str, Any] = json.loads(text)
    except json.JSONDecodeError as e:
        raise SsdsimError(f"ssdsim: its output is not JSON ({e}): is"
                          " --json among the arguments?") from e
    return stats


class Completion(NamedTuple):
    """A request the device ran: when it arrived (arrivals are made
    non-decreasing) and when it completed.  A --completions record also
    names the request as the device was given it (its op letter, offset
    and length, after placement: the `ssdctl log` format); a Device's
    completion leaves them None (the request is the caller's)."""
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
