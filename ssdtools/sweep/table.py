"""A sweep's results as one table and its plots.

Owns the rows (one per run: the trace, the swept values, then ssdsim's
--json statistics flattened to "outer.inner" columns by the binding's
flatten(), the run's wall time and what ssdsim warned on stderr),
writing them as CSV (always; the csv module) or Parquet (pandas and
pyarrow), and the plots (matplotlib): per statistic asked for, one panel
per trace, y against the x key, one line per value of the line key (and
of any other swept key).  A plot that cannot be drawn (no matplotlib, a
column not in the table, matplotlib's error) is an error, not a silence.
"""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from ssdsim import SsdsimError, flatten


def row(point: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The row of one run: the point's trace and swept values, then its
    statistics, wall time and warnings."""
    out: dict[str, Any] = {"trace": point["trace"], **point["labels"]}
    for name, value in flatten(result["stats"]).items():
        out.setdefault(name, value)
    out["run_seconds"] = round(result["seconds"], 3)
    out["ssdsim_warnings"] = result["stderr"].strip()
    return out


def columns(table: list[dict[str, Any]]) -> list[str]:
    names: dict[str, None] = {}
    for row in table:
        names.update(dict.fromkeys(row))
    return list(names)


def write_csv(table: list[dict[str, Any]], path: Path) -> None:
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns(table))
        writer.writeheader()
        for row in table:
            writer.writerow({k: "" if v is None else v
                             for k, v in row.items()})


def write_parquet(table: list[dict[str, Any]], path: Path) -> None:
    try:
        import pandas
    except ImportError as e:
        raise SsdsimError("ssdsim sweep: Parquet needs pandas (Debian:"
                          " python3-pandas) and pyarrow (pip install"
                          " pyarrow; scripts/install-deps.sh puts it in"
                          " build/pydeps)") from e
    try:
        import pyarrow  # noqa: F401
    except ImportError as e:
        raise SsdsimError("ssdsim sweep: Parquet needs pyarrow: pip install"
                          " pyarrow (scripts/install-deps.sh puts it in"
                          " build/pydeps)") from e
    frame = pandas.DataFrame(table, columns=columns(table))
    frame.to_parquet(path, engine="pyarrow", index=False)


def plot(table: list[dict[str, Any]], dims: list[str], x: str,
         line: str | None, ys: list[str], out_dir: Path,
         name: str, logx: bool = False) -> list[Path]:
    """One PNG per statistic in @ys (x on a log2 scale with @logx).
    SsdsimError if one cannot be drawn: matplotlib missing (naming what
    to install), a column not in the table, or matplotlib's own error;
    a sweep that wants no plots does not call this (--no-plot)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise SsdsimError("ssdsim sweep: plots need matplotlib (Debian:"
                          " python3-matplotlib, which scripts/install-deps.sh"
                          " installs; pip install matplotlib), or give"
                          " --no-plot") from e
    try:
        return draw(plt, table, dims, x, line, ys, out_dir, name, logx)
    except SsdsimError:
        raise
    except Exception as e:
        raise SsdsimError(f"ssdsim sweep: a plot could not be drawn: {e!r}"
                          " (the table is written; --no-plot skips the"
                          " plots)") from e


def draw(plt: Any, table: list[dict[str, Any]], dims: list[str], x: str,
         line: str | None, ys: list[str], out_dir: Path, name: str,
         logx: bool) -> list[Path]:
    """plot()'s drawing, with matplotlib's pyplot @plt."""
    traces = list(dict.fromkeys(r["trace"] for r in table))
    others = [d for d in dims if d != x and d != line]
    group_by = ([line] if line else []) + others
    written = []
    for y in ys:
        if not any(y in r for r in table):
            raise SsdsimError(f"ssdsim sweep: no column {y!r} to plot")
        fig, axes = plt.subplots(1, len(traces), squeeze=False,
                                 figsize=(5.5 * len(traces), 4))
        for ax, trace in zip(axes[0], traces):
            mine = [r for r in table if r["trace"] == trace]
            groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
            for r in mine:
                groups.setdefault(tuple(r[g] for g in group_by), []).append(r)
            for values, members in groups.items():
                members.sort(key=lambda r: r[x])
                label = ", ".join(f"{g}={v}" for g, v in
                                  zip(group_by, values)) or y
                ax.plot([r[x] for r in members], [r.get(y) for r in members],
                        "-o", label=label)
            ax.set_title(Path(trace).name)
            ax.set_xlabel(x)
            if logx:
                ax.set_xscale("log", base=2)
            ax.set_ylabel(y)
            if len(groups) > 1:
                ax.legend(fontsize="small")
        fig.tight_layout()
        path = out_dir / f"{name}-{y.replace('.', '-')}.png"
        fig.savefig(path)
        plt.close(fig)
        written.append(path)
    return written
