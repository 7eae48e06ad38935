"""ssdsim: the SSD simulator's core as a Python library; the bottom of
the Python tools (it imports nothing of theirs).

`ssdsim.run(trace, **keys)` replays a trace through ssdsim's own program
(in this process, through build/lib/libssdsim.so, `make python`; or a
named binary such as the ASan build) and returns its --json statistics
as a dict; `ssdsim.Device(**keys)` is one device driven request by
request; `list_keys()` the configuration keys with their defaults;
`to_dataframe()` makes a pandas DataFrame of results.  One error type,
SsdsimError; one completion type, Completion.  Sweeps over grids of keys
are a tool above this: `python3 -m ssdtools.sweep`
(docs/ssdsim-python.md).

  paths    where the build tree keeps ssdsim (binary, ASan build, library)
  _lib     the ctypes binding to libssdsim.so
  errors   SsdsimError
  results  ssdsim's output read back: statistics, completions, tables
  options  ssdsim's run options, one table (iodepth, from_snapshot, ...)
  runner   the one runner: command line, in-process or a binary
  keys     the configuration keys (--list-keys)
  device   Device: one device request by request
"""
from __future__ import annotations

from ssdsim._lib import config_check, lib_path
from ssdsim.device import Device
from ssdsim.errors import SsdsimError
from ssdsim.keys import Key, choices, defaults, list_keys
from ssdsim.options import OPTIONS, Option
from ssdsim.paths import SSDSIM, SSDSIM_ASAN
from ssdsim.results import (Completion, flatten, read_completions,
                            to_dataframe)
from ssdsim.runner import call, command_line, run, run_args, use_api

__all__ = ["Completion", "Device", "Key", "OPTIONS", "Option", "SSDSIM",
           "SSDSIM_ASAN", "SsdsimError", "call", "choices", "command_line",
           "config_check", "defaults", "flatten", "lib_path", "list_keys",
           "read_completions", "run", "run_args", "to_dataframe", "use_api"]
