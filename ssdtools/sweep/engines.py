"""Where a sweep's runs execute: a local process pool (the default,
concurrent.futures), or a Dask or Ray cluster when the user has one.

Owns running one point (run_point, what every engine calls: one ssdsim
run, or with the age option an aging run and a replay from its
snapshot), mapping the points over an engine in any order while a
progress bar counts them, and handing each result to the caller as it
arrives (the sweep writes its row then) and all of them in the points'
order.  A failed run stops the sweep with ssdsim's message and the
point.  On a cluster every worker needs this package and libssdsim.so at
the same paths (or $SSDSIM_LIB).
"""
from __future__ import annotations

import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from ssdsim import SsdsimError, command_line, run_args
from ssdsim.options import AGE, BOTH, OPTIONS

ENGINES = ("local", "dask", "ray")
Result = dict[str, Any]
OnResult = Callable[[int, Result], None]


def aged_run(point: dict[str, Any],
             said: Callable[[str], None]) -> dict[str, Any]:
    """@point's device aged (its preset and keys, the aging options,
    --save into a temporary file), then its trace replayed from that
    snapshot with --reset-stats and the other options: the replay's
    statistics, with the aging's under "age"."""
    aging = {o.name: point["options"][o.name] for o in OPTIONS
             if o.stage in (AGE, BOTH) and o.name in point["options"]}
    replay = {o.name: point["options"][o.name] for o in OPTIONS
              if o.stage != AGE and o.name in point["options"]}
    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ssdsim-sweep-") as tmp:
        snapshot = str(Path(tmp) / "aged.snap")
        aged = run_args(command_line(None, config=point["config"],
                                     keys=point["keys"], save=snapshot,
                                     **aging), lines.append)
        replay["reset_stats"] = True
        stats = run_args(command_line(point["trace"],
                                      from_snapshot=snapshot, **replay),
                         lines.append)
    # What ssdsim said of the temporary snapshot (saved, loaded) is the
    # sweep's business, not the run's: the rest is passed on.
    for line in "".join(lines).splitlines(keepends=True):
        if snapshot not in line:
            said(line)
    stats["age"] = aged.get("age")
    return stats


def run_point(point: dict[str, Any]) -> Result:
    """One run of a sweep: its statistics, what ssdsim said on stderr and
    the wall time."""
    said: list[str] = []
    start = time.monotonic()
    try:
        if point["options"].get("age") is not None:
            stats = aged_run(point, said.append)
        else:
            stats = run_args(command_line(
                point["trace"], config=point["config"], keys=point["keys"],
                **point["options"]), said.append)
    except SsdsimError as e:
        labels = ", ".join(f"{k}={v}" for k, v in point["labels"].items())
        raise SsdsimError(f"ssdsim sweep: {point['trace']} at"
                          f" {labels or '-'}:\n{e}") from e
    return {"stats": stats, "stderr": "".join(said),
            "seconds": time.monotonic() - start}


class Progress:
    """A tqdm bar on stderr when tqdm is there, else a line per run."""

    def __init__(self, total: int, show: bool) -> None:
        self.total, self.done, self.bar = total, 0, None
        self.show = show
        if show:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, desc="sweep", unit="run")
            except ImportError:
                pass

    def update(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
        elif self.show:
            print(f"sweep: {self.done}/{self.total} runs", file=sys.stderr,
                  flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def local(points: list[dict[str, Any]], jobs: int,
          address: str | None) -> Iterator[tuple[int, Result]]:
    from concurrent.futures import ProcessPoolExecutor, as_completed
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_point, p): i for i, p in
                   enumerate(points)}
        try:
            for f in as_completed(futures):
                yield futures[f], f.result()
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def dask(points: list[dict[str, Any]], jobs: int,
         address: str | None) -> Iterator[tuple[int, Result]]:
    """On dask.distributed: the cluster at @address, else a local one of
    @jobs worker processes, closed quietly when done.  A local cluster
    starts processes: a script that calls this needs the
    `if __name__ == "__main__":` guard (docs/ssdsim-python.md)."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError as e:
        raise SsdsimError("ssdsim sweep: --engine dask needs"
                          " dask.distributed: pip install 'dask[distributed]'"
                          " (Debian: python3-distributed)") from e
    cluster = None if address else LocalCluster(
        n_workers=jobs, threads_per_worker=1, processes=True,
        dashboard_address=None)
    client = Client(address or cluster)
    try:
        futures = client.map(run_point, points, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        for f in as_completed(futures):
            yield index[f.key], f.result()
    finally:
        quiet_close(client, cluster)


def quiet_close(client: Any, cluster: Any) -> None:
    """Close the client, then the local cluster: the client first, so it
    does not see its scheduler go away; distributed's own loggers are
    silenced meanwhile, as a worker's comm closed by the shutdown is
    logged as an error (CommClosedError) on a normal end."""
    loggers = [logging.getLogger(n) for n in ("distributed",
                                              "distributed.worker",
                                              "distributed.nanny",
                                              "distributed.core",
                                              "distributed.scheduler",
                                              "distributed.comm")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        client.close()
        if cluster is not None:
            cluster.close()
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


def ray(points: list[dict[str, Any]], jobs: int,
        address: str | None) -> Iterator[tuple[int, Result]]:
    try:
        import ray as ray_module
    except ImportError as e:
        raise SsdsimError("ssdsim sweep: --engine ray needs ray: pip install"
                          " ray") from e
    if address:
        ray_module.init(address=address)
    else:
        ray_module.init(num_cpus=jobs)
    try:
        task = ray_module.remote(run_point)
        refs = [task.remote(p) for p in points]
        index = {r: i for i, r in enumerate(refs)}
        pending = list(refs)
        while pending:
            done, pending = ray_module.wait(pending, num_returns=1)
            for r in done:
                yield index[r], ray_module.get(r)
    finally:
        ray_module.shutdown()


MAPPERS: dict[str, Callable[..., Iterator[tuple[int, Result]]]] = {
    "local": local, "dask": dask, "ray": ray}


def run_all(points: list[dict[str, Any]], engine: str = "local",
            jobs: int | None = None, address: str | None = None,
            progress: bool = True,
            on_result: OnResult | None = None) -> list[Result]:
    """Every point's result, in the points' order; each handed to
    @on_result (its index, the result) as soon as it arrives, so a
    sweep that stops keeps the runs done."""
    if engine not in MAPPERS:
        raise SsdsimError(f"ssdsim sweep: engine {engine!r} unknown (known:"
                          f" {', '.join(ENGINES)})")
    if address and engine == "local":
        raise SsdsimError("ssdsim sweep: --address names a dask or ray"
                          " cluster: give --engine dask or ray")
    jobs = max(1, jobs or os.cpu_count() or 1)
    results: list[Result | None] = [None] * len(points)
    bar = Progress(len(points), progress)
    try:
        for i, result in MAPPERS[engine](points, jobs, address):
            results[i] = result
            if on_result is not None:
                on_result(i, result)
            bar.update()
    finally:
        bar.close()
    return [r for r in results if r is not None]
