"""python3 -m ssdtools.sweep: a grid of keys over traces in a local process
pool, one table and plots (ssdtools/sweep/).

A 2x2 grid on a small trace: the table has a row per point, its values
are those of the same single runs; a bad grid (an unknown key, a refused
value, a missing trace, an empty list) is refused before anything runs,
naming what is wrong; a cluster engine that is not installed names its
pip package.  Every run option of ssdsim reaches a sweep (the binding's
one table of them), with age each point ages its own device; the rows
done survive a failing run and Ctrl-C, and --resume runs the rest; a
plot that cannot be drawn is an error.  Local engine only.
"""
from __future__ import annotations

import csv
import os
import re
import signal
import subprocess
import sys
import time
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


SMALL = CONFIGS / "small-test.conf"


def test_options_table_holds_every_run_flag_of_ssdsim() -> None:
    """Each flag ssdsim's usage names is in the binding's one table of
    run options (ssdsim/options.py), which run() and the sweep take, or
    is the preset or an output option the binding sets itself: a new
    ssdsim option not added there fails here."""
    usage = ssdsim.call([]).stderr
    flags = set(re.findall(r"(--[a-z][a-z-]*)", usage))
    assert "--iodepth" in flags and "--from" in flags
    own = {"--config", "--json", "--csv", "--fields", "--verbose", "--all",
           "--progress", "--no-progress", "--list-keys", "--tsv"}
    table = {o.flag for o in ssdsim.OPTIONS}
    assert flags - own - table == set()


def test_every_run_option_reaches_a_sweep(tmp_path: Path) -> None:
    """--option iodepth, from (a snapshot), reset-stats, measure-from as
    ssdsim spells them, and iodepth swept: each row equals ssdsim.run()
    with the same options (this was refused: unknown option 'iodepth')."""
    snap = tmp_path / "aged.snap"
    ssdsim.run_args(ssdsim.command_line(None, config=SMALL,
                                        age="fill=0.5,overwrite=1",
                                        save=snap), stderr=None)
    proc = sweep("--option", f"from={snap}", "--option", "reset-stats=1",
                 "--option", "measure-from=100", "--grid", "iodepth=1,8",
                 "--trace", str(TRACE), "--out", str(tmp_path / "o"),
                 "--name", "g", "--no-plot", "--no-progress", "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    table = read_csv(tmp_path / "o" / "g.csv")
    assert [r["iodepth"] for r in table] == ["1", "8"]
    for row in table:
        single = flatten(ssdsim.run(TRACE, from_snapshot=snap,
                                    reset_stats=True, measure_from=100,
                                    iodepth=int(row["iodepth"]),
                                    stderr=None))
        assert {k: row[k] for k in single} == {k: cell(v) for k, v in
                                               single.items()}
        assert row["run.iodepth"] == row["iodepth"]
        assert row["run.window.from_request"] == "100"
    # Closed loop at two depths: two different throughputs.
    assert table[0]["run.window.iops"] != table[1]["run.window.iops"]


def test_age_option_ages_each_point_and_replays_its_snapshot(
        tmp_path: Path) -> None:
    """The cache's size shapes the device, so a grid of sizes cannot share
    one snapshot: with age, each point ages its own device and replays
    from it with --reset-stats; the row is that replay's, the aging's
    figures under age.*."""
    keys = ["slc_blocks_per_chip=8", "cache_policy=always"]
    proc = sweep("--config", str(SMALL), *[a for k in keys
                                           for a in ("--set", k)],
                 "--option", "age=fill=0.5,overwrite=1", "--option",
                 "seed=3", "--option", "iodepth=4", "--grid",
                 "cache_pages=64,256", "--trace", str(TRACE), "--out",
                 str(tmp_path / "o"), "--name", "g", "--no-plot",
                 "--no-progress", "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    table = read_csv(tmp_path / "o" / "g.csv")
    assert [r["cache_pages"] for r in table] == ["64", "256"]
    for row in table:
        snap = tmp_path / f"{row['cache_pages']}.snap"
        aged = ssdsim.run_args(ssdsim.command_line(
            None, config=SMALL, keys=keys, age="fill=0.5,overwrite=1",
            age_seed=3, save=snap, cache_pages=row["cache_pages"]),
            stderr=None)
        single = flatten(ssdsim.run(TRACE, from_snapshot=snap,
                                    reset_stats=True, iodepth=4,
                                    stderr=None))
        assert {k: row[k] for k in single} == {k: cell(v) for k, v in
                                               single.items()}
        assert row["config.cache_pages"] == row["cache_pages"]
        assert row["age.waf"] == cell(aged["age"]["waf"])
        assert row["age.seed"] == "3"
        assert str(tmp_path) not in row["ssdsim_warnings"]


def test_refused_options_name_the_accepted_ones(tmp_path: Path) -> None:
    err = refused(tmp_path, "--option", "nope=1", "--grid", "cache_pages=16")
    assert "unknown option 'nope'" in err
    assert "iodepth" in err and "from_snapshot" in err
    err = refused(tmp_path, "--option", "save=x.snap",
                  "--grid", "cache_pages=16")
    assert "option 'save' refused in a sweep" in err and "age" in err
    err = refused(tmp_path, "--option", "iodepth=4",
                  "--grid", "iodepth=1,2")
    assert "'iodepth' is both fixed and swept" in err


def test_help_says_every_run_option_is_taken() -> None:
    proc = sweep("--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    for option in ssdsim.OPTIONS:
        if option.name not in ("save", "completions"):
            assert f"{option.name} ({option.flag})" in text
    assert "--resume" in text


def two_traces(tmp_path: Path, bad: Path, *extra: str
               ) -> subprocess.CompletedProcess[str]:
    return sweep("--config", str(SMALL), "--grid", "gc_pages_per_write=4,8",
                 "--trace", str(TRACE), "--trace", str(bad), "--jobs", "1",
                 "--out", str(tmp_path / "o"), "--name", "g", "--no-plot",
                 "--no-progress", *extra)


def test_a_failing_run_keeps_the_rows_done_and_resume_runs_the_rest(
        tmp_path: Path) -> None:
    """A run that fails stops the sweep (exit 1) but the rows done are
    kept: g.partial.csv holds them, says it is partial by its name and
    the message; after the trace is mended, --resume runs only the rest
    (the kept rows come back as they were, run_seconds included)."""
    bad = tmp_path / "late.trace"
    bad.write_text("0 W 0 4096 0\n100 W zero 4096 0\n")
    proc = two_traces(tmp_path, bad)
    assert proc.returncode == 1
    assert f"{bad}:2" in proc.stderr
    assert "2 of 4 runs done" in proc.stderr and "--resume" in proc.stderr
    out = tmp_path / "o"
    assert not (out / "g.csv").exists()
    partial = read_csv(out / "g.partial.csv")
    assert [(r["trace"], r["gc_pages_per_write"]) for r in partial] == [
        (str(TRACE), "4"), (str(TRACE), "8")]
    for row in partial:
        single = flatten(ssdsim.run(TRACE, config=SMALL, stderr=None,
                                    gc_pages_per_write=row[
                                        "gc_pages_per_write"]))
        assert {k: row[k] for k in single} == {k: cell(v) for k, v in
                                               single.items()}
    bad.write_text("0 W 0 4096 0\n100 W 8 4096 0\n")
    proc = two_traces(tmp_path, bad, "--resume")
    assert proc.returncode == 0, proc.stderr
    table = read_csv(out / "g.csv")
    assert len(table) == 4 and table[:2] == partial
    assert table[2]["trace"] == str(bad)
    assert not (out / "g.partial.csv").exists()
    assert not (out / "g.journal.jsonl").exists()


def test_resume_refuses_the_journal_of_another_sweep(tmp_path: Path) -> None:
    bad = tmp_path / "late.trace"
    bad.write_text("0 W 0 4096 0\n100 W zero 4096 0\n")
    assert two_traces(tmp_path, bad).returncode == 1
    proc = sweep("--config", str(SMALL), "--grid", "gc_pages_per_write=2",
                 "--trace", str(TRACE), "--out", str(tmp_path / "o"),
                 "--name", "g", "--no-plot", "--no-progress", "--resume")
    assert proc.returncode == 1
    assert "journal of another sweep" in proc.stderr


def test_ctrl_c_keeps_the_rows_done(tmp_path: Path) -> None:
    """SIGINT (Ctrl-C) in the middle of a sweep: exit 130, the rows done
    in g.partial.csv, each equal to its single run."""
    out = tmp_path / "o"
    journal = out / "g.journal.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "ssdtools.sweep", "--config", str(SMALL),
         "--grid", "gc_pages_per_write=" + ",".join(map(str, range(1, 41))),
         "--trace", str(TRACES / "mqsim-tpcc-small.trace"), "--jobs", "1",
         "--out", str(out), "--name", "g", "--no-plot", "--no-progress"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # A shell's background job (make test &) ignores SIGINT, and a
        # child would inherit that: the sweep gets Ctrl-C's default.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.exists() and len(journal.read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the sweep ended before it was interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "--resume" in err
    partial = read_csv(out / "g.partial.csv")
    assert 2 <= len(partial) < 40
    assert not (out / "g.csv").exists()
    row = partial[-1]
    single = flatten(ssdsim.run(TRACES / "mqsim-tpcc-small.trace",
                                config=SMALL, stderr=None,
                                gc_pages_per_write=row["gc_pages_per_write"]))
    assert row["host_write_pages"] == cell(single["host_write_pages"])


def test_a_plot_that_cannot_be_drawn_fails_loudly(tmp_path: Path) -> None:
    """Without matplotlib a sweep that plots exits 1 naming what to
    install (it printed only `wrote ...csv` and exited 0); the CSV is
    written all the same, and --no-plot needs no matplotlib."""
    hide = tmp_path / "hide"
    (hide / "matplotlib").mkdir(parents=True)
    (hide / "matplotlib" / "__init__.py").write_text(
        "raise ImportError('matplotlib hidden by the test')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(hide), str(ROOT)]))
    args = [sys.executable, "-m", "ssdtools.sweep", "--config", str(SMALL),
            "--grid", "gc_pages_per_write=4,8", "--trace", str(TRACE),
            "--out", str(tmp_path / "o"), "--name", "g", "--no-progress"]
    proc = subprocess.run(args, cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 1
    assert "plots need matplotlib" in proc.stderr
    assert "python3-matplotlib" in proc.stderr and "--no-plot" in proc.stderr
    assert len(read_csv(tmp_path / "o" / "g.csv")) == 2
    proc = subprocess.run(args + ["--no-plot"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr


def test_dask_close_is_quiet_and_ordered(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The dask engine closes the client, then the cluster it made, with
    distributed's loggers silenced meanwhile only: an error a worker's
    comm logs on that normal shutdown (CommClosedError) is not printed,
    and the loggers' levels are restored afterwards."""
    import logging

    from ssdtools.sweep.engines import quiet_close
    order: list[str] = []
    log = logging.getLogger("distributed.worker")
    log.addHandler(logging.StreamHandler(sys.stderr))

    class Closing:
        def __init__(self, name: str) -> None:
            self.name = name

        def close(self) -> None:
            order.append(self.name)
            log.error("CommClosedError: stream closed (%s)", self.name)

    try:
        quiet_close(Closing("client"), Closing("cluster"))
        assert order == ["client", "cluster"]
        assert "CommClosedError" not in capsys.readouterr().err
        assert log.level == logging.NOTSET
        log.error("after the close")
        assert "after the close" in capsys.readouterr().err
    finally:
        log.handlers.clear()
