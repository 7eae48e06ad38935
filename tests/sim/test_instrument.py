"""ssdsim as an instrument: --list-keys, sizes with suffixes, warnings for
keys without effect, --fields/--csv, the summary, progress, empty traces,
--fill, --measure-from, --iodepth and the saturation warning.

Runs the ASan build (make unit) as the other sim tests do.
"""
from __future__ import annotations

import json
from typing import Any

from asan_ssdsim import SMALL, TRACES, ssdsim
from ssdtools import ssdsim as sim

TPCC = str(TRACES / "mqsim-tpcc-small.trace")
HOMES = str(TRACES / "fiu-homes-sample.blkparse")


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
