"""Where ssdsim puts a trace's requests (tools/ssdsim/sim_place.h): wrapping
beyond the capacity is counted and warned about, --remap dense packs the
touched (disk, unit)s into the device, --disk replays one disk of a trace
that holds several.

The expected figures come from the trace files themselves (a census in
Python), not from an earlier run.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from asan_ssdsim import SMALL, TRACES, ssdsim

TPCC = TRACES / "mqsim-tpcc-small.trace"
PAGE = 4096


def run(*args: str) -> tuple[dict, str]:
    """--json stats (with --check) and stderr of a run on small-test."""
    proc = ssdsim("--json", "--check", "--config", str(SMALL), *args)
    return json.loads(proc.stdout), proc.stderr


def refused(*args: str) -> str:
    proc = ssdsim("--config", str(SMALL), *args, check=False)
    assert proc.returncode == 1, proc.stderr
    assert "Sanitizer" not in proc.stderr, proc.stderr
    assert proc.stdout == ""
    return proc.stderr


def mqsim_requests(path: Path) -> list[tuple[int, int, int, bool]]:
    """(disk, offset bytes, length bytes, write) of an MQSim trace."""
    out = []
    for line in path.read_text().splitlines():
        _, disk, lba, sectors, kind = (int(x) for x in line.split())
        out.append((disk, lba * 512, sectors * 512, kind == 0))
    return out


def touched_pages(requests: list[tuple[int, int, int, bool]],
                  writes_only: bool) -> set[tuple[int, int]]:
    pages = set()
    for disk, off, length, write in requests:
        if length == 0 or (writes_only and not write):
            continue
        for page in range(off // PAGE, (off + length - 1) // PAGE + 1):
            pages.add((disk, page))
    return pages


def test_wrapping_is_counted_and_warned_about() -> None:
    """Without a remap, TPC-C (216 GiB of addresses) wraps around the
    518 MiB device: every request beyond the capacity is counted, and
    stderr says how many, how far the trace spans and what to do."""
    reqs = mqsim_requests(TPCC)
    out, err = run(str(TPCC))
    capacity = out["logical_capacity_bytes"]
    beyond = sum(1 for _, off, length, _ in reqs
                 if length and (off + length + PAGE - 1) // PAGE * PAGE
                 > capacity)
    assert beyond > len(reqs) * 0.9
    assert out["wrapped_requests"] == beyond
    assert out["trace"]["span_bytes"] == max(off + length
                                             for _, off, length, _ in reqs)
    m = re.search(r"warning: (\d+) of (\d+) requests lay beyond", err)
    assert m and (int(m.group(1)), int(m.group(2))) == (beyond, len(reqs))
    assert "--remap dense" in err
    # The 16 disks merged into one address space are named too.
    assert "the trace holds 16 disks" in err
    # Wrapping merges distinct pages: fewer valid pages than written.
    written = touched_pages(reqs, writes_only=True)
    assert out["valid_pages"] < len(written)


def test_a_trace_that_fits_says_nothing(tmp_path: Path) -> None:
    trace = tmp_path / "t.trace"
    trace.write_text("1000 0 0 8 0\n2000 0 800 8 0\n")
    out, err = run(str(trace))
    assert out["wrapped_requests"] == 0
    assert "warning" not in err


def test_dense_remap_keeps_every_distinct_page() -> None:
    """--remap dense --remap-unit page: the (disk, page)s TPC-C touches
    get device pages in first-touch order, so nothing wraps, the
    footprint is the number of touched pages, and every distinct page
    written stays valid (the FTL holds exactly the trace's written set).
    (The page unit is asked for: --remap dense packs erase blocks by
    default, test_remap_locality.py.)"""
    reqs = mqsim_requests(TPCC)
    out, err = run("--remap", "dense", "--remap-unit", "page", str(TPCC))
    touched = touched_pages(reqs, writes_only=False)
    written = touched_pages(reqs, writes_only=True)
    assert out["wrapped_requests"] == 0
    assert out["remap"]["mode"] == "dense"
    assert out["remap"]["unit_bytes"] == PAGE
    assert out["remap"]["footprint_bytes"] == len(touched) * PAGE
    assert out["valid_pages"] == len(written)
    assert out["host_write_pages"] == sum(
        (off + length - 1) // PAGE - off // PAGE + 1
        for _, off, length, write in reqs if write and length)
    assert "wrapped" not in err and "16 disks" not in err
    # A larger unit packs whole units: its footprint is their count.
    unit = 4 * PAGE
    out8, _ = run("--remap", "dense", "--remap-unit", str(unit), str(TPCC))
    units = {(d, p * PAGE // unit) for d, p in touched}
    assert out8["remap"]["footprint_bytes"] == len(units) * unit
    assert out8["valid_pages"] == len(written)


def test_dense_remap_keeps_disks_apart(tmp_path: Path) -> None:
    """Two disks writing the same address: one page without a remap (and
    a warning), two with it.  A request whose pages land apart is split
    (page units: in an erase block, the default unit, they stay
    together); a TRIM of pages the replay never wrote maps nothing."""
    trace = tmp_path / "t.trace"
    trace.write_text("\n".join([
        "1000 0 0 8 0",        # disk 0 page 0 -> unit 0
        "2000 1 0 8 0",        # disk 1 page 0 -> unit 1
        "3000 0 8 8 0",        # disk 0 page 1 -> unit 2
        "4000 0 0 16 1",       # disk 0 pages 0-1: units 0 and 2, split
    ]) + "\n")
    plain, err = run(str(trace))
    assert plain["valid_pages"] == 2
    assert "the trace holds 2 disks" in err
    dense, err = run("--remap", "dense", "--remap-unit", "page",
                     str(trace))
    assert dense["valid_pages"] == 3
    assert dense["remap"]["split_requests"] == 1
    assert "2 disks" not in err
    log = tmp_path / "t.log"
    log.write_text("1000 W 0 4096 0\n2000 T 40960 4096 0\n")
    out, _ = run("--format", "ssdemu", "--remap", "dense", "--remap-unit",
                 "page", str(log))
    assert out["remap"]["unmapped_trims"] == 1
    assert out["host_trim_bytes"] == 0


def test_one_disk_is_replayed() -> None:
    """--disk N replays that disk's requests only; the report lists every
    disk with its requests (the census of the file)."""
    reqs = mqsim_requests(TPCC)
    census = Counter(disk for disk, _, _, _ in reqs)
    out, err = run("--disk", "3", "--remap", "dense", str(TPCC))
    assert out["trace"]["disks"] == {str(d): n for d, n in census.items()}
    assert out["trace"]["disk"] == "3"
    assert out["trace"]["requests"] == census[3]
    mine = [r for r in reqs if r[0] == 3]
    assert out["valid_pages"] == len(touched_pages(mine, writes_only=True))
    assert out["wrapped_requests"] == 0 and "warning" not in err


def test_a_disk_the_trace_lacks_or_misnames_is_refused(
        tmp_path: Path) -> None:
    err = refused("--disk", "99", str(TPCC))
    assert "--disk 99" in err and "0 (437 requests)" in err
    assert "by a number (--disk 3)" in refused("--disk", "8,16", str(TPCC))
    log = tmp_path / "t.log"
    log.write_text("1000 W 0 4096 0\n")
    assert "names no disks" in refused("--format", "ssdemu", "--disk", "0",
                                       str(log))
    assert "refused" in refused("--disk", "x", str(TPCC))
    assert "given twice" in refused("--disk", "1", "--disk", "2", str(TPCC))
    assert "not a multiple" in refused("--remap", "dense", "--remap-unit",
                                       "1000", str(TPCC))
    assert "not on" in refused("--remap-unit", "8192", str(TPCC))
    assert "--remap sparse refused" in refused("--remap", "sparse",
                                               str(TPCC))


BLKPARSE_TWO_DISKS = """\
  8,0    1        1     0.000000000   512  D   W 2048 + 8 [fio]
  8,16   1        2     0.001000000   512  D   W 2048 + 8 [fio]
  8,16   1        3     0.002000000   512  D   W 4096 + 8 [fio]
  8,0    1        4     0.003000000   512  D   R 2048 + 8 [fio]
"""


def test_blkparse_disk_by_major_minor(tmp_path: Path) -> None:
    """blkparse names disks major,minor: without --disk a second one is
    refused (tests/sim/test_ssdsim.py); with it, the other is skipped."""
    trace = tmp_path / "bt.txt"
    trace.write_text(BLKPARSE_TWO_DISKS)
    out, _ = run("--disk", "8,16", str(trace))
    assert out["trace"]["requests"] == 2
    assert out["host_write_pages"] == 2 and out["host_read_pages"] == 0
    assert out["trace"]["disks"] == {"8,0": 2, "8,16": 2}
    assert "has no request of that disk" in refused("--disk", "8,32",
                                                    str(trace))
