"""python3 -m ssdtools.sweep: a grid of keys over traces in a local process
pool, one table and plots (ssdtools/sweep/).

A 2x2 grid on a small trace: the table has a row per point, its values
are those of the same single runs; a bad grid (an unknown key, a refused
value, a missing trace, an empty list) is refused before anything runs,
naming what is wrong; a cluster engine that is not installed names its
pip package.  Local engine only.
"""
from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import ssdsim
from ssdsim import flatten
from ssdtools import sweep as sweep_cmd
from ssdtools.paths import CONFIGS, ROOT, TRACES
from ssdtools.sweep.engines import run_all
from ssdtools.sweep.grid import Grid, read_file
from ssdtools.sweep.table import write_parquet

PROCACHE = CONFIGS / "procache-tlc.conf"
TRACE = TRACES / "fiu-homes-sample.blkparse"
FIXED = ["blocks_per_chip=160", "slc_blocks_per_chip=16",
         "cache_policy=procache"]


def sweep(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ssdtools.sweep", *args],
                          cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def two_by_two(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return sweep("--config", str(PROCACHE),
                 *[a for k in FIXED for a in ("--set", k)],
                 "--option", "remap=dense", "--warmup", "1",
                 "--grid", "procache_p_ppm=100000,1000000",
                 "--grid", "cache_pages=16,64", "--trace", str(TRACE),
                 "--jobs", "2", "--out", str(out), "--name", "g",
                 "--y", "cache_write_hit_ratio,flash_erase_blocks",
                 "--no-progress", *extra)


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def cell(value: Any) -> str:
    return "" if value is None else str(value)


def test_two_by_two_grid_equals_single_runs(tmp_path: Path) -> None:
    proc = two_by_two(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "sweep: 4 runs" in proc.stdout
    table = read_csv(tmp_path / "g.csv")
    assert [(r["procache_p_ppm"], r["cache_pages"]) for r in table] == [
        ("100000", "16"), ("100000", "64"), ("1000000", "16"),
        ("1000000", "64")]
    assert {r["trace"] for r in table} == {str(TRACE)}
    for row in table:
        single = ssdsim.run(TRACE, config=PROCACHE, keys=FIXED, warmup=1,
                            remap="dense", stderr=None,
                            procache_p_ppm=row["procache_p_ppm"],
                            cache_pages=row["cache_pages"])
        flat = flatten(single)
        want = {k: cell(v) for k, v in flat.items()}
        assert {k: row[k] for k in flat} == want
    # The grid matters: p and the size change the hit ratio.
    assert len({r["cache_write_hit_ratio"] for r in table}) > 1
    for name in ("g-cache_write_hit_ratio.png", "g-flash_erase_blocks.png"):
        assert (tmp_path / name).stat().st_size > 1000


def test_grid_file_equals_command_line(tmp_path: Path) -> None:
    grid_file = tmp_path / "g.toml"
    grid_file.write_text(f"""
config = "{PROCACHE}"
traces = ["{TRACE}"]
warmup = 1
[options]
remap = "dense"
[keys]
blocks_per_chip = 160
slc_blocks_per_chip = 16
cache_policy = "procache"
[grid]
procache_p_ppm = [100000, 1000000]
cache_pages = [16, 64]
""")
    assert sweep(str(grid_file), "--out", str(tmp_path / "f"), "--name", "g",
                 "--no-plot", "--no-progress").returncode == 0
    assert two_by_two(tmp_path / "c", "--no-plot").returncode == 0
    drop = {"run_seconds"}
    from_file = [{k: v for k, v in r.items() if k not in drop}
                 for r in read_csv(tmp_path / "f" / "g.csv")]
    from_args = [{k: v for k, v in r.items() if k not in drop}
                 for r in read_csv(tmp_path / "c" / "g.csv")]
    assert from_file == from_args


def refused(tmp_path: Path, *args: str) -> str:
    out = tmp_path / "out"
    proc = sweep("--trace", str(TRACE), "--out", str(out), "--no-progress",
                 *args)
    assert proc.returncode == 1, proc.stdout
    assert not out.exists(), "a refused grid wrote something"
    return proc.stderr


def test_bad_grids_are_refused_before_running(tmp_path: Path) -> None:
    err = refused(tmp_path, "--grid", "cache_pagez=16,64")
    assert "unknown key 'cache_pagez'" in err
    err = refused(tmp_path, "--set", "nope=1", "--grid", "cache_pages=16")
    assert "unknown key 'nope'" in err
    err = refused(tmp_path, "--grid", "cache_pages=16,abc")
    assert "cache_pages=abc refused" in err
    err = refused(tmp_path, "--grid", "cache_policy=procache")
    assert "needs an SLC region" in err and "cache_policy=procache" in err
    err = refused(tmp_path, "--grid", "cache_pages=")
    assert "'cache_pages' in the grid has no values" in err
    err = refused(tmp_path, "--trace", str(tmp_path / "missing.trace"),
                  "--grid", "cache_pages=16")
    assert "missing.trace: no such file" in err
    bad = tmp_path / "bad.toml"
    bad.write_text("cache_pages = [1, 2]\n")
    err = refused(tmp_path, str(bad))
    assert "unknown setting 'cache_pages'" in err


def test_a_failing_run_names_the_trace_and_point(tmp_path: Path) -> None:
    bad = tmp_path / "bad.trace"
    bad.write_text("0 W 0 4096 0\n100 W zero 4096 0\n")
    proc = sweep("--trace", str(bad), "--grid", "cache_pages=16,32",
                 "--out", str(tmp_path / "out"), "--no-progress")
    assert proc.returncode == 1
    assert f"{bad} at cache_pages=" in proc.stderr
    assert f"{bad}:2" in proc.stderr


def test_cluster_engines_name_their_package(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    monkeypatch.setitem(sys.modules, "ray", None)
    points = Grid(traces=[str(TRACE)]).points()
    with pytest.raises(ssdsim.SsdsimError,
                       match=r"pip install 'dask\[distributed\]'"):
        run_all(points, "dask", progress=False)
    with pytest.raises(ssdsim.SsdsimError, match="pip install ray"):
        run_all(points, "ray", progress=False)
    with pytest.raises(ssdsim.SsdsimError, match="--engine dask or ray"):
        run_all(points, "local", address="tcp://x:8786", progress=False)


def test_python_sweep_and_parquet(tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    grid = Grid(traces=[str(TRACES / "fiu-mail-sample.blkparse")],
                grid={"warmup": [0, 2], "cache_pages": [8]},
                keys={"blocks_per_chip": 160, "slc_blocks_per_chip": 16,
                      "cache_policy": "always"}, config=str(PROCACHE))
    table = sweep_cmd.sweep(grid, jobs=2, progress=False)
    assert [r["warmup"] for r in table] == [0, 2]
    assert [r["warmup_passes"] for r in table] == [0, 2]
    path = tmp_path / "t.parquet"
    write_parquet(table, path)
    import pandas
    frame = pandas.read_parquet(path)
    assert list(frame["host_write_pages"]) == [r["host_write_pages"]
                                               for r in table]
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ssdsim.SsdsimError, match="pip install pyarrow"):
        write_parquet(table, tmp_path / "u.parquet")


def test_json_grid_file_and_swept_warmup(tmp_path: Path) -> None:
    grid_json = tmp_path / "g.json"
    grid_json.write_text('{"traces": ["t"], "grid": {"cache_pages": [1, 2]},'
                         ' "warmup": [0, 1]}')
    grid = read_file(grid_json)
    assert grid.grid == {"cache_pages": [1, 2], "warmup": [0, 1]}
    assert len(grid.points()) == 4
    assert grid.points()[1]["options"] == {"warmup": 1}
    assert grid.points()[2]["keys"] == ["cache_pages=2"]


def test_wrapper_script_from_elsewhere_with_parquet(tmp_path: Path) -> None:
    """scripts/ssdsim-sweep runs from any directory, with build/pydeps
    (pyarrow) on the path: the Parquet file holds the CSV's rows."""
    proc = subprocess.run(
        [str(ROOT / "scripts" / "ssdsim-sweep"), "--trace", str(TRACE),
         "--grid", "cache_pages=0,16", "--set", "blocks_per_chip=160",
         "--set", "slc_blocks_per_chip=16", "--set", "cache_policy=always",
         "--config", str(PROCACHE), "--parquet", "--no-plot",
         "--no-progress", "--out", "out"], cwd=tmp_path,
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    import pandas
    table = read_csv(tmp_path / "out" / "sweep.csv")
    frame = pandas.read_parquet(tmp_path / "out" / "sweep.parquet")
    assert list(frame["cache_pages"]) == [0, 16]
    assert [str(v) for v in frame["host_write_pages"]] == [
        r["host_write_pages"] for r in table]
