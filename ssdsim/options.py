"""ssdsim's run options: how one run is described, each option once.

Owns the table of ssdsim's command-line options that describe a run (how
the trace is read and placed, how the device starts, how the replay
arrives, what is measured, what is saved), each with its Python name,
its flag and what it takes, and turning named values into ssdsim's
arguments.  runner.py's command_line() and run() take any of them by
name (run(trace, iodepth=32, from_snapshot="aged.snap")), and the
sweep (ssdtools/sweep) takes its options from this table too, so an
option added here reaches both.

Not here: the configuration (a preset and keys: runner.py), and the
output options (--json, --csv, --fields, --verbose, --progress): the
binding asks for --json itself and reads the values back.  The
combinations ssdsim refuses (--time-scale with --iodepth, --fill with
--from, ...) are refused by ssdsim, with its message.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

VALUE = "value"      # --flag VALUE; None (or the default) leaves it out
SWITCH = "switch"    # --flag when true
NEGATED = "negated"  # --flag when false (final_flush=False: --no-final-flush)
LIST = "list"        # --flag VALUE once per item, in order

# When a device is aged (--age SPEC --save) and then replayed (--from), as
# the sweep's age option does: the options of each run.
REPLAY = "replay"    # the replay's
AGE = "age"          # the aging run's (the device's start)
BOTH = "both"        # each run's


@dataclass(frozen=True)
class Option:
    name: str          # the Python name: run(trace, iodepth=32)
    flag: str          # ssdsim's flag
    kind: str          # VALUE, SWITCH, NEGATED or LIST
    help: str
    default: Any = None
    stage: str = REPLAY  # the run it belongs to when a device is aged first

    @property
    def flag_name(self) -> str:
        """The flag without its dashes ("time-scale", "from", "seed")."""
        return self.flag.lstrip("-")


OPTIONS: tuple[Option, ...] = (
    Option("format", "--format", VALUE, "the trace's format"
           " (docs/trace-formats.md)"),
    Option("disk", "--disk", VALUE, "the trace's disk to replay"),
    Option("remap", "--remap", VALUE, "none or dense"),
    Option("remap_unit", "--remap-unit", VALUE,
           "a --remap unit: erase-block (the default), page or bytes"),
    Option("warmup", "--warmup", VALUE, "passes before the measured one",
           default=0),
    Option("belady", "--belady", SWITCH, "Belady's off-line bound beside",
           default=False),
    Option("belady_next_use", "--belady-next-use", VALUE, "any or write"),
    Option("check", "--check", SWITCH, "the consistency check at the end",
           default=False),
    Option("final_flush", "--no-final-flush", NEGATED, "a FLUSH ends each"
           " pass (False: --no-final-flush)", default=True, stage=BOTH),
    Option("data", "--data", SWITCH, "keep page bytes (data_store=bytes)",
           default=False, stage=AGE),
    Option("from_snapshot", "--from", VALUE, "start from a snapshot",
           stage=AGE),
    Option("reset_stats", "--reset-stats", SWITCH, "zero the counters a"
           " snapshot brings", default=False),
    Option("age", "--age", VALUE, "precondition: fill=F[,overwrite=N]"
           "[,erase_mean=E][,bs=BYTES]", stage=AGE),
    Option("age_seed", "--seed", VALUE, "seeds --age and --fill",
           stage=AGE),
    Option("bad_blocks", "--bad-blocks", VALUE, "factory bad blocks",
           stage=AGE),
    Option("fill", "--fill", VALUE, "fill this fraction first, then reset"
           " the counters"),
    Option("measure_from", "--measure-from", VALUE, "measure from this"
           " request (N) or time (30s)"),
    Option("iodepth", "--iodepth", VALUE, "closed loop: N requests in"
           " flight"),
    Option("time_scale", "--time-scale", VALUE, "the trace's times x F"),
    Option("power_cut_at", "--power-cut-at", VALUE, "a power cut before"
           " request N"),
    Option("inject", "--inject", LIST, "error injection commands"),
    Option("save", "--save", VALUE, "a snapshot at the end"),
    Option("completions", "--completions", VALUE, "each request's"
           " completion to this file"),
)

BY_NAME: dict[str, Option] = {o.name: o for o in OPTIONS}


def find(name: str) -> Option | None:
    """The option called @name: its Python name, or its flag's without
    the dashes ("time-scale", "from", "seed"), dashes or underscores."""
    if name in BY_NAME:
        return BY_NAME[name]
    spelled = name.lstrip("-").replace("_", "-")
    for option in OPTIONS:
        if option.flag_name == spelled:
            return option
    return BY_NAME.get(spelled.replace("-", "_"))


def names() -> list[str]:
    """Every option by its Python name, in the table's order."""
    return [o.name for o in OPTIONS]


Named = dict[str, Any]


def split(named: Mapping[str, Any]) -> tuple[Named, Named]:
    """@named parted into options (by Python name) and the rest, the
    configuration keys, each in the order given."""
    options = {k: v for k, v in named.items() if k in BY_NAME}
    keys = {k: v for k, v in named.items() if k not in BY_NAME}
    return options, keys


def value_text(value: Any) -> str:
    """A value as ssdsim takes it (booleans as 0/1)."""
    if isinstance(value, bool):
        return str(int(value))
    return str(value)


def arguments(options: Mapping[str, Any]) -> list[str]:
    """ssdsim's arguments for @options (Python names), in the table's
    order; an option at its default, or None, adds nothing."""
    for name in options:
        if name not in BY_NAME:
            raise KeyError(name)
    args: list[str] = []
    for option in OPTIONS:
        value = options.get(option.name)
        at_default = option.kind != LIST and value == option.default
        if value is None or at_default:
            continue
        if option.kind == SWITCH:
            args += [option.flag] if value else []
        elif option.kind == NEGATED:
            args += [] if value else [option.flag]
        elif option.kind == LIST:
            items: Iterable[Any] = [value] if isinstance(value, str) \
                else value
            for item in items:
                args += [option.flag, value_text(item)]
        else:
            args += [option.flag, value_text(value)]
    return args
