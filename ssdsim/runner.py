"""ssdsim.run(): a trace replayed by ssdsim's own program; the one runner.

Owns the translation of Python arguments into ssdsim's command line
(configuration keys as keyword arguments or "key=value" strings, the
run options by name, from the one table of them, options.py) and running
it: in this process through libssdsim.so
(ssdsim_main(), whose result the library hands over as values, so the
statistics equal what `ssdsim --json` prints and a refusal carries the
binary's message), or, when a binary is named (the ASan build the tests
run, a run with a timeout), that binary as a subprocess, its --json
read back.  The optimized binary, SSDSIM, is run through the library
when the library is built (the same program, the same statistics and the
same error); SSDTOOLS_SSDSIM_BINARY=1 runs the binary instead.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence, Union

from ssdsim import _lib
from ssdsim.errors import SsdsimError
from ssdsim.options import arguments as option_arguments
from ssdsim.options import split as split_options
from ssdsim.paths import SSDSIM, Path_
from ssdsim.results import from_values, parse_json

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
                 keys: KeyValues = None, flags: Iterable[str] = (),
                 json_stats: bool = True, **named: Any) -> list[str]:
    """ssdsim's arguments for a run (see run()): the preset, the keys
    (applied in order, so they win), the options (@named among
    ssdsim.options.OPTIONS, by their Python names: iodepth=32,
    from_snapshot="aged.snap"), --json, the other flags and the trace.
    Any other keyword argument is a configuration key."""
    options, more_keys = split_options(named)
    args: list[str] = []
    if config is not None:
        args += ["--config", str(config)]
    args += key_strings(keys, **more_keys)
    args += option_arguments(options)
    if json_stats:
        args.append("--json")
    args += list(flags)
    if trace is not None:
        args.append(str(trace))
    return args


def call(arguments: Sequence[str], binary: Path_ = SSDSIM,
         timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """Run a ssdsim binary with these arguments; the finished process,
    whatever its status (callers that expect a refusal read its
    stderr)."""
    return subprocess.run([str(binary), *arguments], capture_output=True,
                          text=True, timeout=timeout)


def use_api(binary: Path_ | None) -> bool:
    """Whether a run of @binary goes through libssdsim.so in this process
    (None: always; SSDSIM: when the library is built, unless
    $SSDTOOLS_SSDSIM_BINARY is set; any other binary: never)."""
    if binary is None:
        return True
    if os.environ.get("SSDTOOLS_SSDSIM_BINARY") or \
            Path(binary).resolve() != SSDSIM.resolve():
        return False
    return _lib.lib_path().exists()


def execute(argv: Sequence[str], binary: Path_ | None = None,
            timeout: float | None = None) -> tuple[int, str, Any]:
    """ssdsim with these arguments, in this process or as @binary (see
    the top; a timeout always runs a binary): its exit status, what it
    said on stderr, and its result (None if the status is not 0): the
    values the library hands over, or the --json the binary printed."""
    if timeout is None and use_api(binary):
        done = _lib.run(list(argv))
        return done.status, done.said, from_values(done.events)
    proc = call(argv, binary if binary is not None else SSDSIM, timeout)
    if proc.returncode:
        return proc.returncode, proc.stderr, None
    return 0, proc.stderr, parse_json(proc.stdout)


def print_stderr(text: str) -> None:
    sys.stderr.write(text)


def run_args(argv: Sequence[str],
             stderr: Callable[[str], None] | None = print_stderr,
             binary: Path_ | None = None,
             timeout: float | None = None) -> dict[str, Any]:
    """ssdsim with these arguments (--json among them: a replay, --age,
    --from): its statistics.

    In this process, or as @binary (see the top).  What ssdsim says on
    stderr goes to @stderr (None: dropped) in this process; a named
    binary's is dropped, as a subprocess's captured stderr.  A non-zero
    status raises SsdsimError: ssdsim's message, led with the command
    and its status when a binary was named."""
    argv = list(argv)
    in_process = timeout is None and use_api(binary)
    status, err, stats = execute(argv, binary, timeout)
    if status:
        if binary is None:
            raise SsdsimError(err or f"ssdsim: exit {status}", status)
        if in_process:  # as the binary would have printed it
            err = (err or f"ssdsim: exit {status}").rstrip("\n") + "\n"
        raise SsdsimError(err, status, [binary, *argv])
    if err and stderr is not None and binary is None:
        stderr(err)
    if not isinstance(stats, dict):
        raise SsdsimError("ssdsim: no statistics: is --json among the"
                          " arguments of a run?")
    return stats


def run(trace: Path_, *, config: Path_ | None = None,
        keys: KeyValues = None, flags: Iterable[str] = (),
        stderr: Callable[[str], None] | None = print_stderr,
        binary: Path_ | None = None, timeout: float | None = None,
        **named: Any) -> dict[str, Any]:
    """Replay @trace through ssdsim; its --json statistics as a dict.

    Configuration: the preset @config, then @keys (a mapping or
    "key=value" strings) and keyword arguments (cache_pages=256), applied
    in that order.  Options: any of ssdsim's run options by its Python
    name (the table ssdsim.options.OPTIONS, one place: warmup, format,
    disk, remap, remap_unit ("erase-block", the default, "page" or
    bytes), belady, belady_next_use ("any" or "write"),
    check, final_flush=False (--no-final-flush), data, from_snapshot
    (--from), reset_stats, age, age_seed (--seed), bad_blocks, fill,
    measure_from, iodepth, time_scale, power_cut_at, inject (a list),
    save, completions (a file)); a keyword argument that names no option
    is a configuration key.  @flags: any other arguments.  Warnings
    ssdsim prints go to @stderr (default: this process's stderr; None
    drops them).  Raises SsdsimError with the binary's message for an
    unknown key, a bad value, a refused option or a bad trace.

    @binary runs that ssdsim program instead (SSDSIM_ASAN; SSDSIM goes
    through the library when it is built), @timeout (seconds) as a
    subprocess; then a failure's message leads with the command and its
    status, and the warnings are dropped (see run_args()).
    """
    argv = command_line(trace, config=config, keys=keys, flags=flags,
                        **named)
    return run_args(argv, stderr, binary, timeout)
