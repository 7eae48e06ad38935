"""ssdsim: the SSD simulator's core as a Python library.

`ssdsim.run(trace, **keys)` replays a trace through ssdsim's own program
(in this process, through build/lib/libssdsim.so, `make python`) and
returns its --json statistics as a dict; `ssdsim.Device(**keys)` is one
device driven request by request; `to_dataframe()` makes a pandas
DataFrame of results.  Sweeps over grids of keys: `python3 -m
ssdsim.sweep` (docs/ssdsim-python.md).
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from ssdsim._lib import SsdsimError, lib_path
from ssdsim.device import Completion, Device
from ssdsim.runner import command_line, run, run_args
from ssdsim.table import flatten

__all__ = ["Completion", "Device", "SsdsimError", "command_line", "flatten",
           "lib_path", "run", "run_args", "to_dataframe"]


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
