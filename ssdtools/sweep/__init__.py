"""Sweeps: a grid of configuration keys over traces, run through the
binding (`import ssdsim`), as one table and its plots.

A tool above the binding, not part of it: it orchestrates runs (process
pools, Dask, Ray), writes files (CSV, Parquet) and plots (matplotlib),
while the binding runs one trace or one device and returns its result.
`python3 -m ssdtools.sweep` is the command (__main__.py); from Python,
sweep(Grid(...)) returns the rows.  docs/ssdsim-python.md has more.

  grid     a grid (file or arguments), checked before anything runs
  engines  where the runs execute: local pool, Dask, Ray
  table    the rows, CSV/Parquet, plots
"""
from __future__ import annotations

from typing import Any

from ssdtools.sweep.engines import run_all
from ssdtools.sweep.grid import Grid
from ssdtools.sweep.table import rows

__all__ = ["Grid", "sweep"]


def sweep(grid: Grid, engine: str = "local", jobs: int | None = None,
          address: str | None = None,
          progress: bool = True) -> list[dict[str, Any]]:
    """Check @grid, run every point; the table's rows, in the points'
    order (traces outermost, then the grid's cross product)."""
    grid.check()
    points = grid.points()
    results = run_all(points, engine, jobs, address, progress)
    return rows(points, results)
