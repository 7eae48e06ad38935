"""Sweeps: a grid of configuration keys over traces, run through the
binding (`import ssdsim`), as one table and its plots.

A tool above the binding, not part of it: it orchestrates runs (process
pools, Dask, Ray), writes files (CSV, Parquet) and plots (matplotlib),
while the binding runs one trace or one device and returns its result.
`python3 -m ssdtools.sweep` is the command (__main__.py); from Python,
sweep(Grid(...)) returns the rows.  docs/ssdsim-python.md has more.

  grid     a grid (file or arguments), checked before anything runs
  engines  where the runs execute: local pool, Dask, Ray
  journal  the rows done, kept as they finish (partial tables, --resume)
  table    the rows, CSV/Parquet, plots
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ssdtools.sweep.engines import Result, run_all
from ssdtools.sweep.grid import Grid
from ssdtools.sweep.journal import Journal
from ssdtools.sweep.table import row

__all__ = ["Grid", "Journal", "sweep"]


def sweep(grid: Grid, engine: str = "local", jobs: int | None = None,
          address: str | None = None, progress: bool = True,
          journal: Path | None = None,
          resume: bool = False) -> list[dict[str, Any]]:
    """Check @grid, run every point; the table's rows, in the points'
    order (traces outermost, then the grid's cross product).

    With @journal (a path), each row is appended there as its run ends,
    so a sweep that stops keeps them (journal.py); with @resume the
    points whose rows a journal of the same sweep holds are not run
    again.  The journal is removed when every point is done."""
    grid.check()
    points = grid.points()
    book = Journal(journal, points, resume) if journal else None
    done = dict(book.done) if book else {}
    todo = [i for i in range(len(points)) if i not in done]

    def keep(k: int, result: Result) -> None:
        index = todo[k]
        done[index] = row(points[index], result)
        if book:
            book.add(index, done[index])

    try:
        run_all([points[i] for i in todo], engine, jobs, address, progress,
                keep)
    finally:
        if book:
            book.close(remove=book.complete())
    return [done[i] for i in sorted(done)]
