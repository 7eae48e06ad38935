"""`import ssdsim`: the Python API over libssdsim.so (make python).

ssdsim.run() is the binary's program run in-process, so its dict must
equal the binary's --json on the same arguments; Device.submit() must
give the times of `ssdsim --completions` for the same requests; and a
refusal must raise SsdsimError with the binary's own message.
"""
from __future__ import annotations

import json
import pickle
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

import ssdsim
from ssdtools.paths import CONFIGS, TRACES

SMALL = CONFIGS / "small-test.conf"
PROCACHE = CONFIGS / "procache-tlc.conf"
# 4 chips x 16 blocks x 16 pages of 4 KiB: GC runs (tests/sim/test_ssdsim).
TINY = ["pages_per_block=16", "blocks_per_chip=16", "chips=4", "channels=2",
        "op_percent=25"]


def binary(*args: str) -> subprocess.CompletedProcess[str]:
    if not ssdsim.SSDSIM.exists():
        pytest.fail(f"{ssdsim.SSDSIM} missing: run 'make tools'")
    return ssdsim.call(args, ssdsim.SSDSIM, timeout=300)


def binary_json(*args: str) -> dict[str, Any]:
    proc = binary("--json", *args)
    assert proc.returncode == 0, proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


def test_library_is_built() -> None:
    assert ssdsim.lib_path().exists(), "run 'make python'"


def test_run_equals_binary_procache_warmup_belady() -> None:
    trace = TRACES / "fiu-homes-sample.blkparse"
    keys = ["blocks_per_chip=160", "slc_blocks_per_chip=16",
            "cache_pages=64", "cache_policy=procache"]
    got = ssdsim.run(trace, config=PROCACHE, keys=keys, warmup=2,
                     belady=True, remap="dense")
    want = binary_json("--config", str(PROCACHE), *keys, "--warmup", "2",
                       "--belady", "--remap", "dense", str(trace))
    assert got == want
    assert got["cache_write_hit_pages"] > 0
    assert got["belady"]["write_pages"] > 0


def test_run_belady_next_use_equals_binary() -> None:
    """belady_next_use= is ssdsim's --belady-next-use: on TPC-C (reads
    and writes) the two readings give different bounds."""
    trace = TRACES / "mqsim-tpcc-small.trace"
    keys = ["slc_blocks_per_chip=8", "cache_pages=64",
            "cache_policy=always"]
    bounds = {}
    for next_use in ("any", "write"):
        got = ssdsim.run(trace, config=SMALL, keys=keys, belady=True,
                         belady_next_use=next_use)
        want = binary_json("--config", str(SMALL), *keys, "--belady",
                           "--belady-next-use", next_use, str(trace))
        assert got == want
        bounds[next_use] = got["belady"]["write_hit_pages"]
    default = ssdsim.run(trace, config=SMALL, keys=keys, belady=True)
    assert default["belady"]["write_hit_pages"] == bounds["any"]
    assert bounds["any"] != bounds["write"]


def test_run_equals_binary_gc_and_dedup() -> None:
    trace = TRACES / "mqsim-tpcc-small.trace"
    got = ssdsim.run(trace, config=SMALL, keys=TINY, dedup=True,
                     stderr=None)
    want = binary_json("--config", str(SMALL), *TINY, "dedup=1", str(trace))
    assert got == want
    assert got["gc_victim_blocks"] > 0
    # Twice in one process: nothing of one run stays for the next.
    assert ssdsim.run(trace, config=SMALL, keys=TINY, dedup=True,
                      stderr=None) == want


def test_run_reads_no_text_and_keeps_the_json_types(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In this process the library hands its result over as values: no
    JSON is read back, and every value has the type a JSON reader gives
    the binary's --json (a whole "%g" number an int, a ratio a float,
    undefined ones None), so even a table of them prints alike."""
    trace = TRACES / "fiu-homes-sample.blkparse"
    keys = ["blocks_per_chip=160", "slc_blocks_per_chip=16",
            "cache_pages=64", "cache_policy=procache"]
    want = binary_json("--config", str(PROCACHE), *keys, "--warmup", "1",
                       "--belady", "--fill", "0.3", str(trace))

    def no_json(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("JSON read back in process")
    monkeypatch.setattr(json, "loads", no_json)
    got = ssdsim.run(trace, config=PROCACHE, keys=keys, warmup=1,
                     belady=True, flags=["--fill", "0.3"], stderr=None)
    monkeypatch.undo()
    assert got == want
    flat_got, flat_want = ssdsim.flatten(got), ssdsim.flatten(want)
    assert list(flat_got) == list(flat_want)
    assert {k: type(v) for k, v in flat_got.items()} == \
        {k: type(v) for k, v in flat_want.items()}
    assert isinstance(got["run"]["time_scale"], int)
    assert isinstance(got["run"]["fill"]["fraction"], float)


def test_messages_are_the_binarys_stderr_a_line_each() -> None:
    """A run's messages are what the binary prints on stderr, a line
    each; a refused run has its status and no values."""
    from ssdsim import _lib
    trace = str(TRACES / "mqsim-tpcc-small.trace")
    for args in (["--config", str(SMALL), *TINY, "--json", trace],
                 ["--config", str(SMALL), "foo_bar=1", "--json", trace],
                 ["--bogus"]):
        done = _lib.run(args)
        proc = binary(*args)
        assert (done.status, done.said) == (proc.returncode, proc.stderr)
        assert done.said.count("\n") >= 1
        assert (done.events == []) == (done.status != 0)


def test_keys_in_process_equal_the_binarys() -> None:
    from ssdsim import _lib
    from ssdsim.results import from_values
    proc = binary("--list-keys", "--json")
    assert proc.returncode == 0
    assert from_values(_lib.run(["--list-keys", "--json"]).events) == \
        json.loads(proc.stdout)


def test_run_forwards_warnings() -> None:
    said: list[str] = []
    ssdsim.run(TRACES / "mqsim-tpcc-small.trace", config=SMALL, keys=TINY,
               stderr=said.append)
    proc = binary("--json", "--config", str(SMALL), *TINY,
                  str(TRACES / "mqsim-tpcc-small.trace"))
    assert "wrapped around it" in proc.stderr
    assert "".join(said) == proc.stderr


def synthetic_ssdemu_trace(path: Path, count: int = 3000) -> None:
    """Reads, writes and trims, unaligned, over 6 MiB of a 4 MiB-flash
    device (GC runs), in the request-log format (op letters)."""
    rng = random.Random(7)
    lines, t = [], 0
    for _ in range(count):
        t += rng.choice([0, 1000, 20_000, 300_000])
        op = rng.choices("WRT", [6, 3, 1])[0]
        offset = rng.randrange(0, 2_500_000) * 1 if op != "T" else \
            rng.randrange(0, 600) * 4096
        length = rng.choice([512, 4096, 5000, 8192, 65536])
        lines.append(f"{t} {op} {offset} {length} 0")
    path.write_text("\n".join(lines) + "\n")


# A Device chooses its data store as the replay does (none, a digest with
# dedup, bytes only when asked), so every figure is equal, the memory
# plan's included.
def same_model(stats: dict, want: dict) -> bool:
    return {k: want[k] for k in stats} == stats


def test_device_times_equal_completions(tmp_path: Path) -> None:
    trace = tmp_path / "mixed.trace"
    synthetic_ssdemu_trace(trace)
    done = tmp_path / "completions"
    want = binary_json("--config", str(SMALL), *TINY, "--no-final-flush",
                       "--completions", str(done), str(trace))
    lines = ssdsim.read_completions(done)
    dev = ssdsim.Device(config=SMALL, keys=TINY)
    got = []
    for line in trace.read_text().splitlines():
        t, op, offset, length, _ = line.split()
        c = dev.submit(op, int(offset), int(length), int(t))
        if c is not None:
            got.append((c.arrival_ns, c.completion_ns))
    assert got == [(x.arrival_ns, x.completion_ns) for x in lines]
    assert len(got) > 2500
    stats = dev.stats()
    assert stats["gc_victim_blocks"] > 0
    assert same_model(stats, want)
    dev.close()


def test_device_content_hashes_and_dedup_equal_completions(
        tmp_path: Path) -> None:
    """Writes with their data's MD5s (a request log's, as FIU's) from a
    small pool, dedup on: the duplicates, so the times, come from the
    content, and must be those of the replay."""
    rng = random.Random(3)
    pool = [f"{rng.getrandbits(128):032x}" for _ in range(12)]
    requests, lines, t = [], [], 0
    for _ in range(1500):
        t += rng.choice([0, 5000, 200_000])
        blocks = rng.choice([1, 1, 2, 4])
        offset = rng.randrange(0, 300) * 4096
        if rng.random() < 0.8:
            hashes = "".join(rng.choice(pool) for _ in range(blocks))
            lines.append(f"{t} W {offset} {blocks * 4096} 0 {hashes}")
            requests.append(("W", offset, blocks * 4096, t, hashes))
        else:
            lines.append(f"{t} R {offset} {blocks * 4096} 0")
            requests.append(("R", offset, blocks * 4096, t, None))
    trace = tmp_path / "hashed.trace"
    trace.write_text("\n".join(lines) + "\n")
    done = tmp_path / "completions"
    keys = [*TINY, "dedup=1"]
    want = binary_json("--config", str(SMALL), *keys, "--no-final-flush",
                       "--completions", str(done), str(trace))
    with ssdsim.Device(config=SMALL, keys=keys) as dev:
        got = [dev.submit(*r) for r in requests]
        stats = dev.stats()
    assert [(c.arrival_ns, c.completion_ns) for c in got if c] == [
        (x.arrival_ns, x.completion_ns) for x in ssdsim.read_completions(done)]
    assert stats["dedup_duplicate_chunks"] > 0
    assert same_model(stats, want)


def test_device_run_and_reset() -> None:
    with ssdsim.Device(config=SMALL) as dev:
        done = dev.run([("W", 0, 8192, 0), ("R", 0, 4096, 10),
                        ("W", 0, 0, 20), ("flush", 0, 0, 30)])
        assert done[2] is None  # no length: skipped, as ssdsim does
        assert done[0] is not None and done[1] is not None
        assert done[1].completion_ns > done[1].arrival_ns == 10
        stats = dev.stats()
        assert stats["host_write_bytes"] == 8192
        assert stats["host_read_bytes"] == 4096
        dev.reset_stats()
        assert dev.stats()["host_write_bytes"] == 0


def test_to_dataframe() -> None:
    out = ssdsim.run(TRACES / "fiu-mail-sample.blkparse", config=SMALL,
                     stderr=None)
    frame = ssdsim.to_dataframe([out, out])
    assert len(frame) == 2
    assert list(frame["host_write_bytes"]) == [out["host_write_bytes"]] * 2
    assert list(frame["latency.write.p99_ns"]) == [
        out["latency"]["write"]["p99_ns"]] * 2
    assert list(frame["trace.format"]) == ["fiu", "fiu"]


def refusal(*args: str) -> str:
    proc = binary(*args)
    assert proc.returncode == 1
    return proc.stderr


def test_unknown_key_raises_the_binarys_message() -> None:
    trace = TRACES / "fiu-mail-sample.blkparse"
    with pytest.raises(ssdsim.SsdsimError) as e:
        ssdsim.run(trace, config=SMALL, foo_bar=1)
    assert "unknown configuration key 'foo_bar'" in str(e.value)
    assert str(e.value) == refusal("--json", "--config", str(SMALL),
                                   "foo_bar=1", str(trace)).rstrip("\n")
    with pytest.raises(ssdsim.SsdsimError, match="foo_bar"):
        ssdsim.Device(config=SMALL, foo_bar=1)


def test_bad_value_and_bad_trace_raise(tmp_path: Path) -> None:
    with pytest.raises(ssdsim.SsdsimError, match="cache_pages=abc"):
        ssdsim.run(TRACES / "fiu-mail-sample.blkparse", cache_pages="abc")
    bad = tmp_path / "bad.trace"
    bad.write_text("0 W 0 4096 0\n100 W zero 4096 0\n")
    with pytest.raises(ssdsim.SsdsimError) as e:
        ssdsim.run(bad)
    assert str(e.value) == refusal("--json", str(bad)).rstrip("\n")
    assert f"{bad}:2" in str(e.value)
    with pytest.raises(ssdsim.SsdsimError, match="No such file"):
        ssdsim.run(tmp_path / "missing.trace")


def test_device_bad_request_raises() -> None:
    with ssdsim.Device(config=SMALL) as dev:
        with pytest.raises(ssdsim.SsdsimError, match="op 'X' refused"):
            dev.submit("X", 0, 4096, 0)
        with pytest.raises(ssdsim.SsdsimError, match="op 9 refused"):
            dev.submit(9, 0, 4096, 0)
        assert dev.stats()["host_write_bytes"] == 0
    with pytest.raises(ssdsim.SsdsimError, match="closed"):
        dev.stats()


def test_tools_runner_uses_the_api_with_the_binarys_results(
        monkeypatch: pytest.MonkeyPatch) -> None:
    trace = TRACES / "fiu-homes-sample.blkparse"
    binary = ssdsim.SSDSIM
    assert ssdsim.use_api(ssdsim.SSDSIM)
    assert not ssdsim.use_api(ssdsim.SSDSIM_ASAN)
    via_api = ssdsim.run(trace, config=SMALL, flags=["--warmup", "1"],
                         binary=binary)
    with pytest.raises(ssdsim.SsdsimError) as api_error:
        ssdsim.run(trace, keys=["foo_bar=1"], binary=binary)
    monkeypatch.setenv("SSDTOOLS_SSDSIM_BINARY", "1")
    assert not ssdsim.use_api(ssdsim.SSDSIM)
    assert ssdsim.run(trace, config=SMALL, flags=["--warmup", "1"],
                      binary=binary) == via_api
    with pytest.raises(ssdsim.SsdsimError) as binary_error:
        ssdsim.run(trace, keys=["foo_bar=1"], binary=binary)
    assert str(api_error.value) == str(binary_error.value)


def test_a_named_binarys_error_leads_with_its_command(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With binary=, the one error type's text is the command, its status
    and ssdsim's message (as a failed subprocess reads), through the
    library or the binary alike; it crosses processes whole."""
    trace = TRACES / "fiu-homes-sample.blkparse"
    with pytest.raises(ssdsim.SsdsimError) as plain:
        ssdsim.run(trace, keys=["foo_bar=1"])
    command = [str(ssdsim.SSDSIM), "foo_bar=1", "--json", str(trace)]
    for env in ("", "1"):
        monkeypatch.setenv("SSDTOOLS_SSDSIM_BINARY", env)
        assert ssdsim.use_api(ssdsim.SSDSIM) == (env == "")
        with pytest.raises(ssdsim.SsdsimError) as named:
            ssdsim.run(trace, keys=["foo_bar=1"], binary=ssdsim.SSDSIM)
        assert str(named.value) == (f"{' '.join(command)}: exit 1\n"
                                    f"{plain.value}\n")
        assert named.value.status == plain.value.status == 1
        assert named.value.command == command
        again = pickle.loads(pickle.dumps(named.value))
        assert (str(again), again.status, again.command) == (
            str(named.value), 1, command)


def test_runs_in_threads_at_once_equal_one_alone() -> None:
    from concurrent.futures import ThreadPoolExecutor
    trace = TRACES / "mqsim-tpcc-small.trace"

    def one(_: int) -> dict[str, Any]:
        return ssdsim.run(trace, config=SMALL, keys=TINY, dedup=1,
                          stderr=None)
    alone = one(0)
    with ThreadPoolExecutor(4) as pool:
        assert all(r == alone for r in pool.map(one, range(6)))


def test_device_keeps_bytes_only_when_asked() -> None:
    """Device(data=True) keeps page bytes (ssdsim --data), dedup a digest,
    else nothing: the flash metadata (which holds the data store's
    tables) is smallest without; data_store= still wins, and data=True
    with another store is refused."""
    def metadata(**kw: Any) -> int:
        with ssdsim.Device(config=SMALL, **kw) as dev:
            dev.submit("W", 0, 8192, 0)
            return int(dev.stats()["flash_metadata_bytes"])
    none, kept = metadata(), metadata(data=True)
    assert none < kept
    assert metadata(data_store="bytes") == kept
    assert none < metadata(dedup=1)
    assert metadata(data_store="none", dedup=0) == none
    with pytest.raises(ssdsim.SsdsimError, match="data_store=none"):
        ssdsim.Device(config=SMALL, data=True, data_store="none")
