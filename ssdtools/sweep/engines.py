"""Where a sweep's runs execute: a local process pool (the default,
concurrent.futures), or a Dask or Ray cluster when the user has one.

Owns running one point (run_point, what every engine calls), mapping the
points over an engine in any order while a progress bar counts them, and
handing back the results in the points' order.  A failed run stops the
sweep with ssdsim's message and the point.  On a cluster every worker
needs this package and libssdsim.so at the same paths (or $SSDSIM_LIB).
"""
from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable, Iterator

from ssdsim import SsdsimError, command_line, run_args

ENGINES = ("local", "dask", "ray")


def run_point(point: dict[str, Any]) -> dict[str, Any]:
    """One run of a sweep: its statistics, what ssdsim said on stderr and
    the wall time."""
    said: list[str] = []
    start = time.monotonic()
    argv = command_line(point["trace"], config=point["config"],
                        keys=point["keys"], **point["options"])
    try:
        stats = run_args(argv, said.append)
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
          address: str | None) -> Iterator[tuple[int, dict[str, Any]]]:
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
         address: str | None) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        from dask.distributed import Client, as_completed
    except ImportError as e:
        raise SsdsimError("ssdsim sweep: --engine dask needs"
                          " dask.distributed: pip install 'dask[distributed]'"
                          " (Debian: python3-distributed)") from e
    client = Client(address) if address else Client(
        n_workers=jobs, threads_per_worker=1, processes=True)
    try:
        futures = client.map(run_point, points, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        for f in as_completed(futures):
            yield index[f.key], f.result()
    finally:
        client.close()


def ray(points: list[dict[str, Any]], jobs: int,
        address: str | None) -> Iterator[tuple[int, dict[str, Any]]]:
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


MAPPERS: dict[str, Callable[..., Iterator[tuple[int, dict[str, Any]]]]] = {
    "local": local, "dask": dask, "ray": ray}


def run_all(points: list[dict[str, Any]], engine: str = "local",
            jobs: int | None = None, address: str | None = None,
            progress: bool = True) -> list[dict[str, Any]]:
    """Every point's result, in the points' order."""
    if engine not in MAPPERS:
        raise SsdsimError(f"ssdsim sweep: engine {engine!r} unknown (known:"
                          f" {', '.join(ENGINES)})")
    if address and engine == "local":
        raise SsdsimError("ssdsim sweep: --address names a dask or ray"
                          " cluster: give --engine dask or ray")
    jobs = max(1, jobs or os.cpu_count() or 1)
    results: list[dict[str, Any] | None] = [None] * len(points)
    bar = Progress(len(points), progress)
    try:
        for i, result in MAPPERS[engine](points, jobs, address):
            results[i] = result
            bar.update()
    finally:
        bar.close()
    return [r for r in results if r is not None]
