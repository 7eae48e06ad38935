"""python3 -m ssdtools.sweep: the sweep's command line.

A grid of configuration keys over a list of traces, each run through
ssdsim's program in a process pool (or on a Dask or Ray cluster),
written as one table and plots.

    python3 -m ssdtools.sweep [GRID_FILE] [--grid KEY=V1,V2 ...]
        [--set KEY=VALUE ...] [--config FILE] [--trace FILE ...]
        [--warmup N] [--option NAME=VALUE ...] [--jobs N]
        [--engine local|dask|ray] [--address ADDR] [--out DIR]
        [--name NAME] [--parquet] [--x KEY] [--line KEY] [--y COL,...]
        [--logx] [--no-plot] [--no-progress] [--resume]

The grid file's format is ssdtools/sweep/grid.py's; the command line adds to it
and wins.  --option takes any of ssdsim's run options (the binding's
table of them, ssdsim/options.py), and --grid sweeps keys and options
alike.  The grid is checked before anything runs: an unknown key or
option, a refused value or a missing trace stops it with a message
naming it.  Writes DIR/NAME.csv (and NAME.parquet with --parquet) and a
plot per --y column, DIR/NAME-<column>.png; a plot that cannot be drawn
is an error (exit 1) unless --no-plot.  Rows are kept as their runs end
(DIR/NAME.journal.jsonl): a sweep stopped by Ctrl-C or a failing run
writes the rows done as DIR/NAME.partial.csv and exits non-zero, and the
same command with --resume runs only the rest.  docs/ssdsim-python.md
has more.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ssdsim import SsdsimError
from ssdsim.options import OPTIONS
from ssdtools.sweep import sweep
from ssdtools.sweep.engines import ENGINES
from ssdtools.sweep.grid import (REFUSED_OPTIONS, Grid, parse_assignment,
                                 read_file)
from ssdtools.sweep.table import plot, write_csv, write_parquet

DEFAULT_Y = ["cache_write_hit_ratio", "waf", "flash_erase_blocks"]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python3 -m ssdtools.sweep",
        description="Run a grid of ssdsim keys over traces; one table"
        " (CSV, Parquet) and plots.")
    p.add_argument("grid_file", nargs="?", type=Path,
                   help="TOML, JSON or YAML grid (ssdtools/sweep/grid.py)")
    p.add_argument("--grid", action="append", default=[],
                   metavar="KEY=V1,V2", help="a swept key (or warmup)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a fixed configuration key")
    p.add_argument("--config", help="ssdsim preset (configs/*.conf)")
    p.add_argument("--trace", action="append", default=[],
                   help="a trace (repeat for several)")
    p.add_argument("--warmup", type=int, help="warm-up passes (ssdsim's)")
    p.add_argument("--option", action="append", default=[],
                   metavar="NAME=VALUE", help="any of ssdsim's run options"
                   " (ssdsim/options.py), as its name or its flag: "
                   + ", ".join(f"{o.name} ({o.flag})" for o in OPTIONS
                               if o.name not in REFUSED_OPTIONS)
                   + "; --grid sweeps them too (--grid iodepth=1,32);"
                   " age=SPEC ages each point's device and replays from"
                   " its snapshot")
    p.add_argument("--jobs", type=int, help="processes (default: cores)")
    p.add_argument("--engine", choices=ENGINES, default="local")
    p.add_argument("--address", help="the dask scheduler or ray cluster")
    p.add_argument("--out", type=Path, default=Path("sweep-results"))
    p.add_argument("--name", help="file names (default: the grid file's"
                   " or 'sweep')")
    p.add_argument("--parquet", action="store_true",
                   help="also NAME.parquet (pandas + pyarrow)")
    p.add_argument("--x", help="plot x axis (default: first swept key)")
    p.add_argument("--line", help="one line per value of this key"
                   " (default: second swept key)")
    p.add_argument("--y", help="columns to plot, comma-separated (default:"
                   f" {','.join(DEFAULT_Y)})")
    p.add_argument("--logx", action="store_true",
                   help="plot x on a log2 scale")
    p.add_argument("--no-plot", action="store_true",
                   help="no plots (without it, a plot that cannot be"
                   " drawn, e.g. matplotlib missing, is an error)")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--resume", action="store_true",
                   help="keep the rows of an interrupted run of the same"
                   " sweep (DIR/NAME.journal.jsonl) and run the rest")
    return p


def grid_from(args: argparse.Namespace) -> Grid:
    grid = read_file(args.grid_file) if args.grid_file else Grid()
    if args.config:
        grid.config = args.config
    grid.traces += args.trace
    for text in args.set:
        name, value = parse_assignment(text, many=False)
        grid.keys[name] = value
    for text in args.grid:
        name, values = parse_assignment(text, many=True)
        grid.grid[name] = values
    for text in args.option:
        name, value = parse_assignment(text, many=False)
        grid.options[name] = value
    if args.warmup is not None:
        grid.options["warmup"] = args.warmup
        grid.grid.pop("warmup", None)
    if args.x:
        grid.plot["x"] = args.x
    if args.line:
        grid.plot["line"] = args.line
    if args.y:
        grid.plot["y"] = args.y.split(",")
    if args.logx:
        grid.plot["logx"] = True
    return grid


def interrupted(out: Path, name: str, journal: Path,
                how: str) -> None:
    """The rows done when the sweep stopped, as NAME.partial.csv."""
    from ssdtools.sweep.journal import Journal
    done: list[dict[str, Any]] = []
    total = "?"
    if journal.exists():
        book = Journal.read_only(journal)
        done, total = book.rows(), str(book.total)
    print(f"sweep: {how}: {len(done)} of {total} runs done", file=sys.stderr)
    if done:
        path = out / f"{name}.partial.csv"
        write_csv(done, path)
        print(f"sweep: wrote {path} (partial: the rows done); the same"
              " command with --resume runs the rest", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    name = args.name or (args.grid_file.stem if args.grid_file else "sweep")
    journal = args.out / f"{name}.journal.jsonl"
    try:
        grid = grid_from(args)
        start = time.monotonic()
        table = sweep(grid, args.engine, args.jobs, args.address,
                      not args.no_progress, journal, args.resume)
        wall = time.monotonic() - start
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"{name}.partial.csv").unlink(missing_ok=True)
        written = [args.out / f"{name}.csv"]
        write_csv(table, written[0])
        if args.parquet:
            written.append(args.out / f"{name}.parquet")
            write_parquet(table, written[-1])
        dims = grid.dims()
        if not args.no_plot and dims:
            x = grid.plot.get("x", dims[0])
            line = grid.plot.get("line", dims[1] if len(dims) > 1 else None)
            ys = grid.plot.get("y", DEFAULT_Y)
            written += plot(table, dims, x, line, list(ys), args.out, name,
                            bool(grid.plot.get("logx", False)))
    except KeyboardInterrupt:
        interrupted(args.out, name, journal, "interrupted")
        return 130
    except SsdsimError as e:
        print(e, file=sys.stderr)
        if journal.exists():
            interrupted(args.out, name, journal, "stopped")
        return 1
    for text in dict.fromkeys(r["ssdsim_warnings"] for r in table):
        if text:
            print(f"sweep: ssdsim said (column ssdsim_warnings):\n{text}",
                  file=sys.stderr)
    print(f"sweep: {len(table)} runs in {wall:.1f} s"
          f" ({args.engine}, {args.jobs or 'all'} jobs)")
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
