"""ssdsim as an instrument: --list-keys, sizes with suffixes, warnings for
keys without effect, --fields/--csv, the summary, progress, empty traces,
--fill, --measure-from, --iodepth and the saturation warning.

Runs the ASan build (make unit) as the other sim tests do.
"""
from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path
from typing import Any

from asan_ssdsim import SMALL, SSDSIM, TRACES, ssdsim
from ssdtools import conf
import ssdsim as sim

TPCC = str(TRACES / "mqsim-tpcc-small.trace")
HOMES = str(TRACES / "fiu-homes-sample.blkparse")
# 4 chips x 16 blocks x 16 pages of 4 KiB: TPC-C's writes wrap onto it, so
# GC runs.
TINY_GEOMETRY = ["pages_per_block=16", "blocks_per_chip=16", "chips=4",
                 "channels=2", "op_percent=25"]


def refused(*args: str) -> str:
    proc = ssdsim(*args, check=False)
    assert proc.returncode == 1, proc.stderr
    assert "Sanitizer" not in proc.stderr, proc.stderr
    assert proc.stdout == ""
    return proc.stderr


def stats(*args: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(ssdsim("--json", *args).stdout)
    return out


# --list-keys


def test_list_keys_grouped_with_ranges_and_kernel_only() -> None:
    text = ssdsim("--list-keys").stdout
    heads = [line for line in text.splitlines() if line and line[0] != " "]
    for group in ("flash geometry and timing", "FTL", "write cache", "dedup",
                  "device and host"):
        assert group in heads
    # A key's line: name, default, range; an enum's range is its names.
    assert any(line.split()[:3] == ["page_size_bytes", "4096", "512..65536,"]
               for line in text.splitlines())
    assert any(line.split()[:3] == ["ftl_type", "page",
                                    "page|block|bast|fast|dftl"]
               for line in text.splitlines())
    marked = [line.split()[0] for line in text.splitlines()
              if line.startswith("  ") and line.endswith("[kernel only]")]
    assert marked == ["hw_queues", "queue_depth"]
    # Each key under the layer it belongs to.
    section = text.split("\ndedup\n")[1].split("\ndevice and host\n")[0]
    assert "dedup_hash_ns" in section and "cache_pages" not in section
    section = text.split("\nFTL\n")[1].split("\nwrite cache\n")[0]
    assert "ftl_type" in section and "program_ns" not in section


def test_list_keys_json_and_tsv_agree() -> None:
    keys = json.loads(ssdsim("--list-keys", "--json").stdout)
    tsv = [line.split("\t") for line in
           ssdsim("--list-keys", "--tsv").stdout.splitlines()]
    assert [k["name"] for k in keys] == [row[0] for row in tsv]
    assert [k["default"] for k in keys] == [row[1] for row in tsv]
    by_name = {k["name"]: k for k in keys}
    assert by_name["chips"]["min"] == 1 and by_name["chips"]["max"] == 1024
    assert by_name["cache_policy"]["choices"][0] == "none"
    assert by_name["memory_limit_mb"]["unit_bytes"] == 1 << 20
    assert by_name["page_size_bytes"]["unit_bytes"] == 1
    assert by_name["queue_depth"]["kernel_only"]
    assert not by_name["chips"]["kernel_only"]
    # The Python runner reads the same.
    parsed = sim.list_keys(sim.SSDSIM_ASAN)
    assert parsed["ftl_type"].values[0] == "page"
    assert sim.choices(parsed["gc_policy"]) == by_name["gc_policy"]["choices"]
    assert parsed["chips"].group == "flash geometry and timing"


# Sizes with suffixes, in ssdsim (the parser's own test is tests/unit).


def test_byte_keys_take_binary_suffixes() -> None:
    plain = stats("--config", str(SMALL), "page_size_bytes=4096",
                  "memory_limit_mb=1024", "procache_c_bytes=65536", TPCC)
    suffixed = stats("--config", str(SMALL), "page_size_bytes=4KiB",
                     "memory_limit_mb=1GiB", "procache_c_bytes=64k", TPCC)
    assert plain == suffixed
    assert suffixed["config"]["memory_limit_mb"] == 1024
    assert suffixed["config"]["procache_c_bytes"] == 65536


def test_preset_sizes_read_alike_in_c_and_python(tmp_path: Path) -> None:
    preset = tmp_path / "sizes.conf"
    preset.write_text("page_size_bytes = 8KiB  # a comment\n"
                      "logical_block_bytes = 4k\n"
                      "memory_limit_mb = 1GiB\n"
                      "dedup_buffer_bytes = 32M\n"
                      "chips = 8\n")
    out = stats("--config", str(SMALL), "--config", str(preset), TPCC)
    python = conf.numbers(conf.read(preset))
    assert python == {"page_size_bytes": 8192, "logical_block_bytes": 4096,
                      "memory_limit_mb": 1024,
                      "dedup_buffer_bytes": 32 << 20, "chips": 8}
    for key, value in python.items():
        assert out["config"][key] == value, key


def test_size_suffixes_refused_with_a_reason() -> None:
    assert "binary" in refused("page_size_bytes=4KB", TPCC)
    assert "whole number of MiB" in refused("memory_limit_mb=1536KiB", TPCC)
    assert "page_size_bytes=8XiB refused" in refused("page_size_bytes=8XiB",
                                                     TPCC)
    assert "chips=8K refused" in refused("chips=8K", TPCC)


# Keys without effect.


def test_keys_without_effect_warned() -> None:
    proc = ssdsim("--config", str(SMALL), "cache_pages=100",
                  "dedup_buffer_pages=8", "ftl_log_blocks=3",
                  "dftl_cmt_entries=10", "hw_queues=2", "chips=8",
                  "--json", TPCC)
    warned = [line.split()[2] for line in proc.stderr.splitlines()
              if "has no effect" in line]
    assert warned == ["cache_pages=100", "dedup_buffer_pages=8",
                      "ftl_log_blocks=3", "dftl_cmt_entries=10",
                      "hw_queues=2"]
    assert "cache_policy=none" in proc.stderr


def test_keys_with_effect_not_warned() -> None:
    proc = ssdsim("--config", str(SMALL), "slc_blocks_per_chip=8",
                  "cache_policy=procache", "cache_pages=100",
                  "procache_p_ppm=200000", "ftl_type=fast",
                  "ftl_log_blocks=3", "--json", TPCC)
    assert "has no effect" not in proc.stderr
    # The other admission policy's knob, and the vector p unused.
    proc = ssdsim("--config", str(SMALL), "slc_blocks_per_chip=8",
                  "cache_policy=procache", "refcnt_threshold=3",
                  "procache_p_class0_ppm=5", "--json", TPCC)
    warned = [line.split()[2] for line in proc.stderr.splitlines()
              if "has no effect" in line]
    assert warned == ["refcnt_threshold=3", "procache_p_class0_ppm=5"]


# --fields, --csv, the summary


def test_fields_as_csv_equal_the_json() -> None:
    names = ["waf", "waf_tlc", "host_write_pages", "latency.write.p99_ns",
             "config.chips", "trace.format", "run.window.requests"]
    full = stats("--config", str(SMALL), HOMES)
    proc = ssdsim("--config", str(SMALL), "--fields", ",".join(names), "--csv",
                  HOMES)
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    assert rows[0] == names and len(rows) == 2
    row = dict(zip(rows[0], rows[1]))
    assert float(row["waf"]) == full["waf"]
    assert int(row["host_write_pages"]) == full["host_write_pages"]
    assert int(row["latency.write.p99_ns"]) == full["latency"]["write"][
        "p99_ns"]
    assert row["config.chips"] == str(full["config"]["chips"])
    assert row["trace.format"] == "fiu"
    assert int(row["run.window.requests"]) == full["trace"]["requests"]
    # Without --csv: "name value" lines, the same values.
    lines = ssdsim("--config", str(SMALL), "--fields", "waf,config.chips",
                   HOMES).stdout.split("\n")
    assert lines[0].split() == ["waf", row["waf"]]
    assert lines[1].split() == ["config.chips", row["config.chips"]]
    # --csv alone: every field.
    every = list(csv.reader(io.StringIO(ssdsim(
        "--config", str(SMALL), "--csv", HOMES).stdout)))
    assert "flash_program_pages" in every[0] and "config.seed" in every[0]
    assert len(every[0]) == len(every[1])


def test_unknown_field_names_close_ones() -> None:
    err = refused("--config", str(SMALL), "--fields", "waf,host_writ_bytes",
                  "--csv", HOMES)
    assert "unknown field 'host_writ_bytes'" in err
    assert "host_write_bytes" in err.split("host_writ_bytes")[1]
    assert "'waf'" not in err
    # Refused before the replay: no trace warning was reached.
    assert "disks" not in err


def test_summary_fits_a_screen_and_verbose_has_every_counter() -> None:
    summary = ssdsim("--config", str(SMALL), "chips=4", "channels=2",
                     HOMES).stdout
    lines = summary.splitlines()
    assert len(lines) <= 24
    assert any(line.startswith("WAF") and "TLC-only" in line
               for line in lines)
    config = next(line for line in lines if line.startswith("config"))
    assert "chips=4" in config and "channels=2" in config
    assert "op_percent=10" in config        # the preset's, not a default
    assert "page_size_bytes" not in config  # at its default
    assert any(line.startswith("write latency") and "p99" in line
               for line in lines)
    assert "cache " not in summary and "dedup " not in summary
    verbose = ssdsim("--config", str(SMALL), "--verbose", HOMES).stdout
    names = {line.split()[0] for line in verbose.splitlines() if line}
    full = stats("--config", str(SMALL), HOMES)
    flat = {k for k, v in full.items() if not isinstance(v, dict)}
    assert flat - names <= {"stats_version"} | {"dedup_ratio"}
    assert "config.chips" in names and "waf_tlc" in names
    # With a cache and dedup the summary says so.
    on = ssdsim("--config", str(SMALL), "slc_blocks_per_chip=8",
                "cache_policy=always", "dedup=1", HOMES).stdout
    assert "\ncache " in on and "\ndedup " in on


def test_waf_tlc_counts_tlc_programs_only() -> None:
    out = stats("--config", str(SMALL), "slc_blocks_per_chip=8",
                "cache_policy=always", "cache_pages=64", TPCC)
    assert out["flash_program_slc_pages"] > 0
    assert out["waf_tlc"] < out["waf"]
    tlc_bytes = out["flash_program_tlc_pages"] * out["page_size_bytes"]
    assert abs(out["waf_tlc"] - tlc_bytes / out["host_write_bytes"]) < 1e-6


# Progress and empty traces


def write_trace(path: Path, count: int, gap_ns: int, op: int = 0) -> Path:
    """count mqsim requests of 8 sectors, gap_ns apart, at rising blocks."""
    path.write_text("".join(f"{i * gap_ns} 0 {(i % 4096) * 8} 8 {op}\n"
                            for i in range(count)))
    return path


def stderr_bytes(*args: str) -> bytes:
    """ssdsim's stderr as bytes (text mode would turn \r into \n)."""
    proc = subprocess.run([str(SSDSIM), *args], capture_output=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


def test_progress_only_when_asked_or_on_a_terminal(tmp_path: Path) -> None:
    trace = str(write_trace(tmp_path / "t.trace", 3000, 1000000))
    shown = stderr_bytes("--config", str(SMALL), "--progress", trace)
    assert b"\rssdsim: 1024 requests" in shown and b"ETA" in shown
    assert shown.endswith(b"\r")   # the line cleared at the end
    assert b"\n" not in shown
    # Not a terminal (pytest's pipe): nothing unless asked.
    assert stderr_bytes("--config", str(SMALL), trace) == b""
    assert stderr_bytes("--config", str(SMALL), "--no-progress", trace) == b""


def test_empty_trace_warns_and_all_skipped_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.trace"
    empty.write_text("")
    proc = ssdsim("--json", "--config", str(SMALL), str(empty))
    assert "holds no requests" in proc.stderr
    out = json.loads(proc.stdout)
    assert out["trace"]["requests"] == 0 and out["host_write_bytes"] == 0
    skipped = tmp_path / "zero.trace"
    skipped.write_text("1000 0 0 0 0\n2000 0 8 0 1\n")
    err = refused("--config", str(SMALL), str(skipped))
    assert "none of its 2 requests reached the device" in err


# --fill, --measure-from, --iodepth, saturation


def test_fill_preconditions_then_resets_the_counters(tmp_path: Path) -> None:
    reads = str(write_trace(tmp_path / "r.trace", 100, 1000000, op=1))
    proc = ssdsim("--json", "--config", str(SMALL), "--fill", "0.5", reads)
    out = json.loads(proc.stdout)
    assert "counters were reset" in proc.stderr
    logical_pages = out["logical_capacity_bytes"] // out["page_size_bytes"]
    # The state stays: half the logical pages valid; the counters are the
    # trace's reads only.
    assert abs(out["valid_pages"] - logical_pages // 2) <= 1
    assert out["host_write_pages"] == 0 and out["flash_program_pages"] == 0
    assert out["host_read_pages"] == 100
    assert out["run"]["fill"]["bytes"] == logical_pages // 2 * 4096
    # Reads of filled pages hit flash; without the fill they read nothing
    # written (read_unwritten_flash=0 makes that visible).
    fresh = stats("--config", str(SMALL), "read_unwritten_flash=0", reads)
    filled = stats("--config", str(SMALL), "read_unwritten_flash=0",
                   "--fill", "0.5", reads)
    assert fresh["flash_read_pages"] == 0
    assert filled["flash_read_pages"] == 100
    assert "0 < F <= 1" in refused("--config", str(SMALL), "--fill", "1.5",
                                   reads)


def test_window_equals_the_tail_alone_on_a_snapshot(tmp_path: Path) -> None:
    """--measure-from K: the counters of the window are those of a run of
    requests K.. alone from a snapshot of the device after the first K
    (a request log, whose times are the device's, keeps the times)."""
    log = tmp_path / "tpcc.log"
    keys = ["--config", str(SMALL), *TINY_GEOMETRY, "--no-final-flush"]
    ssdsim(*keys, "--completions", str(log), TPCC)
    lines = log.read_text().splitlines(keepends=True)
    head, tail = tmp_path / "head.log", tmp_path / "tail.log"
    head.write_text("".join(lines[:4000]))
    tail.write_text("".join(lines[4000:]))
    window = stats(*keys, "--format", "ssdemu", "--measure-from", "4000",
                   str(log))
    snap = tmp_path / "head.snap"
    ssdsim(*keys, "--format", "ssdemu", "--save", str(snap), str(head))
    alone = stats("--from", str(snap), "--reset-stats", "--no-final-flush",
                  "--format", "ssdemu", str(tail))
    assert window["gc_victim_blocks"] > 0
    assert window["run"]["window"]["from_request"] == 4000
    assert window["run"]["window"]["requests"] == len(lines) - 4000
    for name in ("host_write_pages", "host_read_pages", "flash_program_pages",
                 "flash_program_gc_pages", "flash_erase_blocks",
                 "gc_victim_blocks", "commands", "valid_pages",
                 "write_latency_ns_total", "read_latency_ns_total"):
        assert window[name] == alone[name], name
    assert window["latency"] == alone["latency"]
    whole = stats(*keys, "--format", "ssdemu", str(log))
    assert whole["host_write_pages"] > window["host_write_pages"]


def test_window_from_a_time(tmp_path: Path) -> None:
    trace = str(write_trace(tmp_path / "t.trace", 1000, 1000000))
    out = stats("--config", str(SMALL), "--measure-from", "250ms", trace)
    # Requests arrive 1 ms apart from 0: the 251st is the first at 250 ms.
    assert out["run"]["window"]["from_request"] == 250
    assert out["run"]["window"]["from_pass_ns"] == 250000000
    assert out["trace"]["requests"] == 750
    assert out["host_write_pages"] == 750
    err = refused("--config", str(SMALL), "--measure-from", "2s", trace)
    assert "ended before it" in err
    assert "a request count" in refused("--config", str(SMALL),
                                        "--measure-from", "5parsecs", trace)


def test_iodepth_1_chains_completion_to_arrival(tmp_path: Path) -> None:
    done = tmp_path / "done.log"
    out = stats("--config", str(SMALL), "--iodepth", "1", "--completions",
                str(done), TPCC)
    records = sim.read_completions(done)
    assert records[0].arrival_ns == 0
    assert all(b.arrival_ns == a.completion_ns
               for a, b in zip(records, records[1:]))
    assert out["run"]["iodepth"] == 1
    assert out["run"]["saturated"] is False
    # The trace's own times do not matter in a closed loop.
    slow = tmp_path / "slow.trace"
    slow.write_text("".join(f"{int(line.split()[0]) * 1000} "
                            + " ".join(line.split()[1:]) + "\n"
                            for line in Path(TPCC).read_text().splitlines()
                            if line.strip()))
    again = stats("--config", str(SMALL), "--iodepth", "1", str(slow))
    assert again["run"]["window"] == out["run"]["window"]


def test_iodepth_keeps_n_outstanding(tmp_path: Path) -> None:
    done = tmp_path / "done.log"
    deep = stats("--config", str(SMALL), "--iodepth", "8", "--completions",
                 str(done), TPCC)
    records = sim.read_completions(done)
    # At each arrival, at most 8 requests are in flight (itself included),
    # and once the loop is full, exactly 8: one arrives as one completes.
    for i, rec in enumerate(records):
        flying = sum(1 for r in records[:i + 1]
                     if r.arrival_ns <= rec.arrival_ns < r.completion_ns)
        assert flying <= 8
        if i >= 8:
            assert any(r.completion_ns == rec.arrival_ns for r in records[:i])
    shallow = stats("--config", str(SMALL), "--iodepth", "1", TPCC)
    assert deep["run"]["window"]["iops"] > 2 * shallow["run"]["window"]["iops"]


def test_saturation_warned_only_when_the_queue_grows(tmp_path: Path) -> None:
    # TPC-C's 6999 requests arrive in 0.14 s: faster than SMALL serves.
    proc = ssdsim("--json", "--config", str(SMALL), TPCC)
    assert "arrives faster than the device serves" in proc.stderr
    assert "--iodepth" in proc.stderr
    assert json.loads(proc.stdout)["run"]["saturated"] is True
    # The same requests 1000 times slower, closed-loop, and the FIU
    # samples: not saturated, and not said.
    slow = tmp_path / "slow.trace"
    slow.write_text("".join(f"{int(line.split()[0]) * 1000} "
                            + " ".join(line.split()[1:]) + "\n"
                            for line in Path(TPCC).read_text().splitlines()
                            if line.strip()))
    for args in (["--iodepth", "8", TPCC], [str(slow)], [HOMES],
                 [str(TRACES / "fiu-mail-sample.blkparse")]):
        proc = ssdsim("--json", "--config", str(SMALL), *args)
        assert "arrives faster" not in proc.stderr, args
        assert json.loads(proc.stdout)["run"]["saturated"] is False
    # --time-scale 1000 replays TPC-C as the slowed trace does.
    scaled = stats("--config", str(SMALL), "--time-scale", "1000", TPCC)
    slowed = stats("--config", str(SMALL), str(slow))
    assert scaled["run"].pop("time_scale") == 1000
    assert slowed["run"].pop("time_scale") == 1
    for out in (scaled, slowed):
        del out["trace"]["path"]
    assert scaled == slowed
    assert "--time-scale refused" in refused(
        "--config", str(SMALL), "--iodepth", "4", "--time-scale", "2", TPCC)
    assert "0 < F" in refused("--config", str(SMALL), "--time-scale", "0",
                              TPCC)
