"""ssdsim.run(): a trace replayed by ssdsim's own program in-process.

Owns the translation of Python arguments into ssdsim's command line
(configuration keys as keyword arguments or "key=value" strings, the
options by name) and the parsing of its --json statistics.  The run is
the binary's (ssdsim_main() in libssdsim.so), so the dict equals what
`ssdsim --json` prints, and a refusal raises SsdsimError with the
binary's message.
"""
from __future__ import annotations

import json
import sys
from os import PathLike
from typing import Any, Callable, Iterable, Mapping, Union

from ssdsim._lib import SsdsimError, run_argv

Path_ = Union[str, "PathLike[str]"]
KeyValues = Union[Mapping[str, Any], Iterable[str], None]


def key_strings(keys: KeyValues = None, **more: Any) -> list[str]:
    """"key=value" strings from a mapping, strings or keyword arguments
    (booleans as 0/1), in the order given: later ones win."""
    out: list[str] = []
    items: list[tuple[str, Any]] = []
    if isinstance(keys, Mapping):
        items += list(keys.items())
    elif keys is not None:
        for k in keys:
            if "=" not in k:
                raise SsdsimError(f"ssdsim: {k!r} is not key=value")
            out.append(k)
    items += list(more.items())
    for name, value in items:
        if isinstance(value, bool):
            value = int(value)
        out.append(f"{name}={value}")
    return out


def command_line(trace: Path_ | None, *, config: Path_ | None = None,
                 keys: KeyValues = None, warmup: int = 0,
                 format: str | None = None, disk: str | None = None,
                 remap: str | None = None, remap_unit: int | None = None,
                 belady: bool = False, check: bool = False,
                 final_flush: bool = True,
                 completions: Path_ | None = None,
                 flags: Iterable[str] = (), json_stats: bool = True,
                 **more_keys: Any) -> list[str]:
    """ssdsim's arguments for these options (see run())."""
    args: list[str] = []
    if config is not None:
        args += ["--config", str(config)]
    args += key_strings(keys, **more_keys)
    if format is not None:
        args += ["--format", format]
    if disk is not None:
        args += ["--disk", str(disk)]
    if remap is not None:
        args += ["--remap", remap]
    if remap_unit is not None:
        args += ["--remap-unit", str(remap_unit)]
    if warmup:
        args += ["--warmup", str(warmup)]
    if belady:
        args.append("--belady")
    if check:
        args.append("--check")
    if not final_flush:
        args.append("--no-final-flush")
    if completions is not None:
        args += ["--completions", str(completions)]
    if json_stats:
        args.append("--json")
    args += list(flags)
    if trace is not None:
        args.append(str(trace))
    return args


def print_stderr(text: str) -> None:
    sys.stderr.write(text)


def run_args(argv: list[str],
             stderr: Callable[[str], None] | None = print_stderr
             ) -> dict[str, Any]:
    """ssdsim with these arguments (--json among them): its statistics.
    What it says on stderr goes to @stderr (None: dropped); a non-zero
    status raises SsdsimError with that text."""
    status, out, err = run_argv(argv)
    if status:
        raise SsdsimError(err or f"ssdsim: exit {status}", status)
    if err and stderr is not None:
        stderr(err)
    try:
        stats: dict[str, Any] = json.loads(out)
    except json.JSONDecodeError as e:
        raise SsdsimError(f"ssdsim: its output is not JSON ({e}): is"
                          " --json among the arguments?") from e
    return stats


def run(trace: Path_, *, config: Path_ | None = None,
        keys: KeyValues = None, warmup: int = 0, format: str | None = None,
        disk: str | None = None, remap: str | None = None,
        remap_unit: int | None = None, belady: bool = False,
        check: bool = False, final_flush: bool = True,
        completions: Path_ | None = None, flags: Iterable[str] = (),
        stderr: Callable[[str], None] | None = print_stderr,
        **more_keys: Any) -> dict[str, Any]:
    """Replay @trace through ssdsim; its --json statistics as a dict.

    Configuration: the preset @config, then @keys (a mapping or
    "key=value" strings) and keyword arguments (cache_pages=256), applied
    in that order.  Options as ssdsim's: warmup (--warmup N), format,
    disk, remap ("dense"), remap_unit, belady, check, final_flush=False
    (--no-final-flush), completions (a file), flags (any other
    arguments).  Warnings ssdsim prints go to @stderr (default: this
    process's stderr; None drops them).  Raises SsdsimError with the
    binary's message for an unknown key, a bad value or a bad trace.
    """
    argv = command_line(trace, config=config, keys=keys, warmup=warmup,
                        format=format, disk=disk, remap=remap,
                        remap_unit=remap_unit, belady=belady, check=check,
                        final_flush=final_flush, completions=completions,
                        flags=flags, **more_keys)
    return run_args(argv, stderr)
