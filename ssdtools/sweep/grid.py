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
    [options]                               # ssdsim's: remap, belady,
    remap = "dense"                         # format, disk, remap_unit,
    belady = true                           # check, final_flush
    [keys]                                  # fixed configuration keys
    cache_policy = "procache"
    [grid]                                  # swept: lists of values
    procache_p_ppm = [10000, 100000]
    cache_pages = [16, 64]
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

# ssdsim's options a grid may set once ([options]); warmup may be swept.
OPTIONS = ("warmup", "format", "disk", "remap", "remap_unit", "belady",
           "check", "final_flush")
SWEPT_OPTIONS = ("warmup",)


def value_text(value: Any) -> str:
    """A value as ssdsim's key=value takes it (booleans as 0/1)."""
    if isinstance(value, bool):
        return str(int(value))
    return str(value)


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

    def points(self) -> list[dict[str, Any]]:
        """One run per trace and combination: trace, config, keys
        ("key=value", fixed then swept), options and the labels (the
        swept values)."""
        out = []
        combos = list(itertools.product(*self.grid.values()))
        for trace in self.traces:
            for combo in combos:
                labels = dict(zip(self.grid, combo))
                options = dict(self.options)
                keys = [f"{k}={value_text(v)}" for k, v in self.keys.items()]
                for name, value in labels.items():
                    if name in SWEPT_OPTIONS:
                        options[name] = value
                    else:
                        keys.append(f"{name}={value_text(value)}")
                out.append({"trace": trace, "config": self.config,
                            "keys": keys, "options": options,
                            "labels": labels})
        return out

    def check(self) -> None:
        """Refuse a bad grid before anything runs (see the top)."""
        known = set(list_keys())
        for where, names in (("keys", self.keys), ("grid", self.grid)):
            for name in names:
                if name not in known and not (where == "grid" and
                                              name in SWEPT_OPTIONS):
                    raise SsdsimError(
                        f"ssdsim sweep: unknown key '{name}' in the {where}"
                        " (`ssdsim --list-keys` lists the keys; warmup is"
                        " the one option a grid may sweep)")
        for name, values in self.grid.items():
            if not isinstance(values, list) or not values:
                raise SsdsimError(f"ssdsim sweep: '{name}' in the grid has"
                                  " no values: give a list")
        for name in self.options:
            if name not in OPTIONS:
                raise SsdsimError(f"ssdsim sweep: unknown option '{name}'"
                                  f" (known: {', '.join(OPTIONS)})")
        overlap = set(self.keys) & set(self.grid)
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
            if keys in seen:
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
