"""A sweep's grid: what varies, what is fixed, and the runs it makes.

Owns reading a grid (a TOML, JSON or YAML file, and/or --grid/--set
arguments), checking it before anything runs (every key known, every
configuration accepted by the core, every trace there: SsdsimError
naming the key, the value or the file), and the points of its cross
product, traces outermost, in a fixed order.

A grid file (paths relative to the working directory, else to the
file):

    config = "configs/procache-tlc.conf"     # preset (optional)
    traces = ["tests/data/fiu-homes-sample.blkparse"]
    warmup = 6                              # or a list, swept
    [options]                               # ssdsim's run options
    remap = "dense"
    belady = true
    iodepth = 32                            # or time-scale, from, ...
    [keys]                                  # fixed configuration keys
    cache_policy = "procache"
    [grid]                                  # swept: lists of values of
    procache_p_ppm = [10000, 100000]        # keys or of run options
    cache_pages = [16, 64]

The options are ssdsim's run options, the binding's one table of them
(ssdsim/options.py: iodepth, fill, from_snapshot, time_scale,
measure_from, reset_stats, age, ...), named as there or as ssdsim's flag
("time-scale", "from", "seed"), so a run option added there reaches the
sweep.  Refused here: save and completions (every point would write the
same file).  With age (age=SPEC, age_seed), each point ages its own
device (its preset and keys, `ssdsim --age SPEC --save`, into a temporary
file) and replays the trace from that snapshot with --reset-stats
(engines.py), as the cookbook's aged replay: the cache's size and policy
shape the device, so one snapshot cannot serve a grid of them.
    [plot]                                  # optional
    x = "cache_pages"
    line = "procache_p_ppm"
    y = ["cache_write_hit_ratio"]           # columns of the table
    logx = true
"""
from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ssdsim import SsdsimError, config_check, list_keys
from ssdsim.options import find as find_option
from ssdsim.options import names as option_names
from ssdsim.options import value_text

# Run options a sweep refuses: each point would write the same file.
REFUSED_OPTIONS = {"save": "a snapshot per point would overwrite the last;"
                   " give age to age each point's device",
                   "completions": "every point would write the same file"}


def known_options() -> str:
    """The options a sweep takes, for messages."""
    return ", ".join(n for n in option_names() if n not in REFUSED_OPTIONS)


def option_name(name: str) -> str:
    """@name (an option's Python name or flag) as its Python name;
    SsdsimError naming the accepted ones if it is none or refused."""
    option = find_option(name)
    if option is None:
        raise SsdsimError(f"ssdsim sweep: unknown option '{name}' (ssdsim's"
                          f" run options: {known_options()}; or their flags"
                          " without the dashes: time-scale, from, seed)")
    if option.name in REFUSED_OPTIONS:
        raise SsdsimError(f"ssdsim sweep: option '{name}' refused in a sweep:"
                          f" {REFUSED_OPTIONS[option.name]}")
    return option.name


@dataclass
class Grid:
    traces: list[str] = field(default_factory=list)
    config: str | None = None
    keys: dict[str, Any] = field(default_factory=dict)
    grid: dict[str, list[Any]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    plot: dict[str, Any] = field(default_factory=dict)

    def dims(self) -> list[str]:
        """The swept names, in order."""
        return list(self.grid)

    def swept_options(self) -> set[str]:
        """The swept names that are run options, not keys (a name that
        is both, seed, is the key)."""
        known = set(list_keys())
        return {n for n in self.grid
                if n not in known and find_option(n) is not None}

    def points(self) -> list[dict[str, Any]]:
        """One run per trace and combination: trace, config, keys
        ("key=value", fixed then swept), options (by their Python names)
        and the labels (the swept values)."""
        out = []
        combos = list(itertools.product(*self.grid.values()))
        swept_options = self.swept_options()
        fixed = {option_name(k): v for k, v in self.options.items()}
        for trace in self.traces:
            for combo in combos:
                labels = dict(zip(self.grid, combo))
                options = dict(fixed)
                keys = [f"{k}={value_text(v)}" for k, v in self.keys.items()]
                for name, value in labels.items():
                    if name in swept_options:
                        options[option_name(name)] = value
                    else:
                        keys.append(f"{name}={value_text(value)}")
                out.append({"trace": trace, "config": self.config,
                            "keys": keys, "options": options,
                            "labels": labels})
        return out

    def check(self) -> None:
        """Refuse a bad grid before anything runs (see the top)."""
        known = set(list_keys())
        swept_options = self.swept_options()
        for where, names in (("keys", self.keys), ("grid", self.grid)):
            for name in names:
                if name not in known and not (where == "grid" and
                                              name in swept_options):
                    raise SsdsimError(
                        f"ssdsim sweep: unknown key '{name}' in the {where}"
                        " (`ssdsim --list-keys` lists the keys; a grid may"
                        " also sweep ssdsim's run options:"
                        f" {known_options()})")
        for name, values in self.grid.items():
            if not isinstance(values, list) or not values:
                raise SsdsimError(f"ssdsim sweep: '{name}' in the grid has"
                                  " no values: give a list")
        fixed = [option_name(n) for n in self.options]
        swept = [option_name(n) for n in swept_options]
        overlap = (set(self.keys) & set(self.grid)) | (set(fixed) &
                                                       set(swept))
        if overlap:
            raise SsdsimError(f"ssdsim sweep: '{sorted(overlap)[0]}' is both"
                              " fixed and swept: say it once")
        if not self.traces:
            raise SsdsimError("ssdsim sweep: no trace: give --trace or"
                              " traces = [...] in the grid file")
        for trace in self.traces:
            if not Path(trace).is_file():
                raise SsdsimError(f"ssdsim sweep: trace {trace}: no such"
                                  " file")
        if self.config is not None and not Path(self.config).is_file():
            raise SsdsimError(f"ssdsim sweep: config {self.config}: no such"
                              " file")
        seen: set[tuple[str, ...]] = set()
        for point in self.points():
            keys = tuple(point["keys"])
            if keys in seen or point["options"].get("from_snapshot"):
                # Over a snapshot the keys change the snapshot's device:
                # ssdsim's loader checks them when the point runs.
                continue
            seen.add(keys)
            try:
                config_check(self.config, list(keys))
            except SsdsimError as e:
                swept = ", ".join(f"{k}={v}" for k, v in
                                  point["labels"].items())
                raise SsdsimError(f"ssdsim sweep: the point {swept or '-'}"
                                  f" is refused:\n{e}") from e


def parse_value(text: str) -> Any:
    """A command-line value: an int if it is one, else the text."""
    try:
        return int(text)
    except ValueError:
        return text


def parse_assignment(text: str, many: bool) -> tuple[str, Any]:
    """key=value (or key=v1,v2,... when @many)."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise SsdsimError(f"ssdsim sweep: {text!r} is not key=value"
                          f"{',value...' if many else ''}")
    if many:
        return name, [parse_value(v) for v in value.split(",") if v != ""]
    return name, parse_value(value)


def resolve(path: str, base: Path) -> str:
    """@path as given if it is there, else relative to the grid file."""
    if Path(path).exists() or Path(path).is_absolute():
        return path
    other = base / path
    return str(other) if other.exists() else path


def read_file(path: Path) -> Grid:
    """A grid from a .toml, .json or .yaml/.yml file."""
    text = path.read_text()
    try:
        if path.suffix == ".toml":
            import tomllib
            data = tomllib.loads(text)
        elif path.suffix == ".json":
            data = json.loads(text)
        elif path.suffix in (".yaml", ".yml"):
            try:
                import yaml
            except ImportError as e:
                raise SsdsimError("ssdsim sweep: a YAML grid needs PyYAML"
                                  " (Debian: python3-yaml; pip install"
                                  " pyyaml), or write it as TOML") from e
            data = yaml.safe_load(text)
        else:
            raise SsdsimError(f"ssdsim sweep: {path}: a grid file is .toml,"
                              " .json or .yaml")
    except (ValueError, TypeError) as e:
        raise SsdsimError(f"ssdsim sweep: {path}: {e}") from e
    if not isinstance(data, dict):
        raise SsdsimError(f"ssdsim sweep: {path}: not a table of settings")
    known = {"config", "traces", "warmup", "options", "keys", "grid",
             "plot"}
    for name in data:
        if name not in known:
            raise SsdsimError(f"ssdsim sweep: {path}: unknown setting"
                              f" '{name}' (known: {', '.join(sorted(known))};"
                              " configuration keys go under [keys] or"
                              " [grid])")
    base = path.parent
    grid = Grid(traces=[resolve(t, base) for t in data.get("traces", [])],
                config=resolve(data["config"], base) if "config" in data
                else None,
                keys=dict(data.get("keys", {})),
                grid={k: v if isinstance(v, list) else [v]
                      for k, v in data.get("grid", {}).items()},
                options=dict(data.get("options", {})),
                plot=dict(data.get("plot", {})))
    if "warmup" in data:
        warmup = data["warmup"]
        if isinstance(warmup, list):
            grid.grid["warmup"] = warmup
        else:
            grid.options["warmup"] = warmup
    return grid
