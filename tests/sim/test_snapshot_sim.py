"""ssdsim's snapshots (tools/ssdsim/README.md): --save, --from, --age.

- A replay split in two at a snapshot (the first part saved, the second
  replayed --from it) gives the counters and completion times of the
  whole replay: the clock, the counters and the model's state continue.
- Aging reaches the state it names (the fill as valid pages, the erase
  mean) and is deterministic: the same seed gives a byte-identical
  snapshot, another seed another one.
- Aged once, repeated five times: the same trace replayed from the same
  snapshot gives identical counters and completion times each time
  (issue 20's "Done means", in ssdsim).
- Bad files and bad combinations are refused: exit 1, a message, no
  output and no file written.

The split replay runs on the FTL alone, under a write cache (ARC), and
with dedup's write buffer over a ProCache cache: every layer's state
continues.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from asan_ssdsim import SMALL, TRACES, ssdsim

# 4 chips x 16 blocks x 16 pages of 4 KiB: 4 MiB of flash, GC runs soon.
TINY = ["pages_per_block=16", "blocks_per_chip=16", "chips=4", "channels=2",
        "op_percent=25"]
TPCC = TRACES / "mqsim-tpcc-small.trace"
# ssdsim's report around the device's statistics: not device state.
REPORT_KEYS = {"latency", "trace", "remap", "final_flush", "config",
               "requests", "wrapped_requests", "zero_length_requests",
               "warmup_passes", "cache_write_hit_ratio", "run"}


def run(*args: str) -> dict[str, Any]:
    stats: dict[str, Any] = json.loads(ssdsim("--json", "--check",
                                              *args).stdout)
    return stats


def device_stats(st: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in st.items() if k not in REPORT_KEYS}


def refused(*args: str, writes: Path | None = None) -> str:
    """A clean refusal: status 1, a message, nothing on stdout, and
    @writes (a file the command names) not created."""
    proc = ssdsim(*args, check=False)
    assert proc.returncode == 1, proc.stderr
    assert "Sanitizer" not in proc.stderr, proc.stderr
    assert proc.stdout == "" and proc.stderr
    if writes is not None:
        assert not writes.exists()
        assert not list(writes.parent.glob(writes.name + ".tmp*"))
    return proc.stderr


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# A write cache needs SLC blocks: the tiny device with a region for it.
CACHED = ["chips=4", "channels=2", "pages_per_block=64", "blocks_per_chip=40",
          "slc_blocks_per_chip=8", "op_percent=15"]
STACKS = {
    "ftl": TINY,
    "cache-arc": CACHED + ["cache_policy=always", "cache_replacement=arc"],
    "dedup-procache": CACHED + ["cache_policy=procache", "dedup=1",
                                "dedup_buffer_pages=16",
                                "dedup_hash_engines=2",
                                "dedup_hash_overlap=1"],
}


@pytest.mark.parametrize("stack", sorted(STACKS))
def test_a_replay_continues_from_its_snapshot(tmp_path: Path,
                                              stack: str) -> None:
    """TPC-C's request log (placed on the tiny device, GC running) split
    at request 3000: saving after the first part and replaying the second
    --from the snapshot gives the whole replay's counters, and the second
    part's completion times are the whole replay's, line for line."""
    keys = STACKS[stack]
    log = tmp_path / "tpcc.log"
    ssdsim("--config", str(SMALL), *keys, "--no-final-flush",
           "--completions", str(log), str(TPCC))
    lines = log.read_text().splitlines(keepends=True)
    first, second = tmp_path / "first.log", tmp_path / "second.log"
    first.write_text("".join(lines[:3000]))
    second.write_text("".join(lines[3000:]))
    whole_done, part_done = tmp_path / "whole.done", tmp_path / "part.done"
    whole = run("--config", str(SMALL), *keys, "--no-final-flush",
                "--format", "ssdemu", "--completions", str(whole_done),
                str(log))
    snap = tmp_path / "first.snap"
    ssdsim("--config", str(SMALL), *keys, "--no-final-flush", "--format",
           "ssdemu", "--save", str(snap), str(first))
    part = run("--from", str(snap), "--no-final-flush", "--format", "ssdemu",
               "--completions", str(part_done), str(second))
    assert whole["gc_victim_blocks"] > 0
    assert device_stats(part) == device_stats(whole)
    assert part_done.read_text() == "".join(
        whole_done.read_text().splitlines(keepends=True)[3000:])
    # The snapshot's configuration is the device's: nothing to repeat.
    assert part["config"] == whole["config"]


def test_a_trace_from_a_snapshot_starts_after_its_clock(
        tmp_path: Path) -> None:
    """A trace with relative times replayed --from a snapshot starts
    after everything the snapshot's device did, and its counters add to
    the snapshot's; --reset-stats zeroes the counters, not the state."""
    snap = tmp_path / "aged.snap"
    aged = run("--config", str(SMALL), *TINY, "--age", "fill=0.5",
               "--save", str(snap))
    done = tmp_path / "done.log"
    st = run("--from", str(snap), "--completions", str(done), str(TPCC))
    first_arrival = int(done.read_text().split()[0])
    assert first_arrival > aged["virtual_time_ns"]
    assert st["host_write_pages"] > aged["host_write_pages"]
    fresh = run("--from", str(snap), "--reset-stats", str(TPCC))
    assert fresh["host_write_pages"] == (st["host_write_pages"]
                                         - aged["host_write_pages"])
    assert fresh["valid_pages"] == st["valid_pages"]
    assert fresh["erase_count_total"] == st["erase_count_total"]


def test_aging_reaches_the_state_it_names(tmp_path: Path) -> None:
    """fill=F writes F of the logical space sequentially (the valid pages
    after any overwrites of that range); overwrite=N writes N times that
    again at random, 4 KiB at a time; erase_mean=E goes on until the mean
    erase count reaches E."""
    st = run("--config", str(SMALL), *TINY, "--age",
             "fill=0.9,overwrite=2,erase_mean=6", "--seed", "3")
    age = st["age"]
    logical_pages = st["logical_capacity_bytes"] // 4096
    filled_pages = int(0.9 * logical_pages)
    assert st["valid_pages"] == filled_pages == age["valid_pages"]
    assert age["fill_bytes"] == filled_pages * 4096
    assert age["overwrite_bytes"] >= 2 * age["fill_bytes"]
    assert st["erase_count_mean_milli"] >= 6000
    assert age["erase_count_mean"] >= 6
    assert age["waf"] > 1 and st["gc_relocated_pages"] > 0
    # Without the erase target: exactly N times the filled bytes.
    st = run("--config", str(SMALL), *TINY, "--age", "fill=0.5,overwrite=1")
    assert st["age"]["overwrite_bytes"] == st["age"]["fill_bytes"]
    assert st["valid_pages"] == int(0.5 * logical_pages)
    assert st["age"]["requests"] == st["write_commands"]
    # Every page written is unique data, and aging ends with a FLUSH, so
    # a dedup layer finds nothing and holds nothing back.
    st = run("--config", str(SMALL), *TINY, "dedup=1", "--age",
             "fill=0.9,overwrite=3")
    assert st["dedup_duplicate_chunks"] == 0
    assert st["dedup_buffered_pages"] == 0
    assert st["valid_pages"] == filled_pages
    assert st["host_flush_count"] == 1


def test_aging_is_deterministic(tmp_path: Path) -> None:
    snaps = []
    for name, seed in (("a", "5"), ("b", "5"), ("c", "6")):
        snap = tmp_path / f"{name}.snap"
        ssdsim("--config", str(SMALL), *TINY, "--age",
               "fill=0.8,overwrite=1.5", "--seed", seed, "--save",
               str(snap))
        snaps.append(digest(snap))
    assert snaps[0] == snaps[1]
    assert snaps[0] != snaps[2]
    # Loading and saving again gives the same bytes.
    again = tmp_path / "again.snap"
    ssdsim("--from", str(tmp_path / "a.snap"), "--save", str(again))
    assert digest(again) == snaps[0]


def test_aged_once_repeated_five_times(tmp_path: Path) -> None:
    """timing=1, background GC off (small-test's own): the same trace on
    the device restored from the same snapshot, five times, gives the
    same counters and the same completion times; and they are not the
    fresh device's."""
    snap = tmp_path / "aged.snap"
    ssdsim("--config", str(SMALL), *TINY, "timing=1",
           "gc_background_free_blocks=0", "--age",
           "fill=0.9,overwrite=2", "--seed", "11", "--save", str(snap))
    runs, logs = [], []
    for i in range(5):
        done = tmp_path / f"done{i}.log"
        runs.append(run("--from", str(snap), "--remap", "dense",
                        "--completions", str(done), str(TPCC)))
        logs.append(done.read_text())
    assert all(r == runs[0] for r in runs)
    assert all(log == logs[0] for log in logs)
    fresh = run("--config", str(SMALL), *TINY, "--remap", "dense",
                str(TPCC))
    assert runs[0]["erase_count_total"] > fresh["erase_count_total"]


def test_bad_snapshots_are_refused(tmp_path: Path) -> None:
    # With page bytes (--data): the middle of the file is page data, which
    # only the checksum can find corrupted.
    snap = tmp_path / "good.snap"
    ssdsim("--config", str(SMALL), *TINY, "--data", "--age", "fill=0.5",
           "--save", str(snap))
    data = snap.read_bytes()
    truncated = tmp_path / "truncated.snap"
    truncated.write_bytes(data[:len(data) // 2])
    assert "truncated" in refused("--from", str(truncated))
    corrupted = tmp_path / "corrupted.snap"
    corrupted.write_bytes(data[:len(data) // 2] + bytes([data[len(data) // 2]
                                                         ^ 0x40])
                          + data[len(data) // 2 + 1:])
    assert "checksum" in refused("--from", str(corrupted))
    longer = tmp_path / "longer.snap"
    longer.write_bytes(data + b"x")
    assert "after the snapshot's end" in refused("--from", str(longer))
    assert "not an ssdemu snapshot" in refused("--from", str(TPCC))
    assert "No such file" in refused("--from", str(tmp_path / "none.snap"))
    # A bad --from writes no --save.
    out = tmp_path / "out.snap"
    refused("--from", str(truncated), "--save", str(out), writes=out)
    # A key that reshapes the device is refused over the snapshot.
    assert "refused" in refused("--from", str(snap), "chips=8")


def sections(data: bytes) -> list[tuple[str, int, int]]:
    """Each section of a snapshot (common/ssd_snap.h): its tag, where its
    payload begins and its length."""
    out, pos = [], 0
    while pos + 12 <= len(data):
        tag = data[pos:pos + 4].decode()
        length = int.from_bytes(data[pos + 4:pos + 12], "little")
        out.append((tag, pos + 12, length))
        pos += 12 + length + 4
    assert pos == len(data)
    return out


def test_a_flipped_byte_is_a_checksum_mismatch(tmp_path: Path) -> None:
    """Issue 33: a flipped byte in the FTL's map was refused as `lpn ...
    maps to ppa ..., beyond the flash`, the section's CRC read only after
    its payload was parsed.  A refusal inside a section now checks the
    section's CRC first: every flipped payload byte is named a checksum
    mismatch of its section."""
    snap = tmp_path / "good.snap"
    ssdsim("--config", str(SMALL), *TINY, "--age", "fill=0.9,overwrite=2",
           "--save", str(snap))
    data = snap.read_bytes()
    found = sections(data)
    assert [t for t, _, _ in found][:5] == ["HEAD", "CONF", "DEVC", "FLSH",
                                            "DATA"]
    flipped = tmp_path / "flipped.snap"
    for tag, start, length in found:
        for at in sorted({0, length // 3, length // 2, length - 1}
                         if length else set()):
            bad = bytearray(data)
            bad[start + at] ^= 0x5A
            flipped.write_bytes(bytes(bad))
            err = refused("--from", str(flipped))
            assert f"section {tag}: checksum mismatch" in err, (tag, at, err)
            assert "beyond the flash" not in err


def test_a_snapshot_given_as_a_trace_says_use_from(tmp_path: Path) -> None:
    """Issue 33: a snapshot read as a trace (detected as a binary format)
    was refused for `a request beyond 2^63 bytes`."""
    snap = tmp_path / "s.snap"
    ssdsim("--config", str(SMALL), *TINY, "--age", "fill=0.5", "--save",
           str(snap))
    for fmt in ([], ["--format", "oracle"], ["--format", "mqsim"]):
        err = refused("--config", str(SMALL), *fmt, str(snap))
        assert f"is an ssdemu snapshot, not a trace: use --from {snap}" in err
        assert "2^63" not in err


def test_aging_prints_a_summary() -> None:
    """Issue 33: --age printed every counter (~200 lines).  Now a few
    lines of what aging did and left; --verbose prints every counter and
    the age_* lines, --json all of it."""
    args = ["--config", str(SMALL), *TINY, "--age", "fill=0.9,overwrite=2",
            "--seed", "7"]
    text = ssdsim(*args).stdout.splitlines()
    st = run(*args)
    age = st["age"]
    assert len(text) <= 6
    assert text[0].startswith(f"aged (seed 7): "
                              f"{age['fill_bytes'] / 2**20:.1f} MiB")
    assert f"{age['requests']} requests" in text[0]
    assert f"WAF {age['waf']:.3f}" in text[1]
    assert (f"valid {age['valid_fraction']:.6f} of the logical pages "
            f"({age['valid_pages']} of {age['logical_pages']}), "
            f"{st['free_blocks']} free blocks") in text[2]
    assert (f"erase count mean {age['erase_count_mean']:.3f}, max "
            f"{age['erase_count_max']}") in text[3]
    verbose = ssdsim(*args, "--verbose").stdout
    assert f"age_requests                 {age['requests']}\n" in verbose
    assert "\nvalid_pages " in verbose
    assert len(verbose.splitlines()) > 100


def test_bad_combinations(tmp_path: Path) -> None:
    snap = tmp_path / "s.snap"
    ssdsim("--config", str(SMALL), *TINY, "--age", "fill=0.5", "--save",
           str(snap))
    out = tmp_path / "out.snap"
    assert "--config and --from" in refused(
        "--config", str(SMALL), "--from", str(snap), str(TPCC))
    # A save that cannot be written leaves nothing.
    missing = tmp_path / "no-dir" / "x.snap"
    assert "No such file" in refused("--config", str(SMALL), *TINY,
                                     "--save", str(missing), str(TPCC))
    assert "--age and a trace" in refused("--config", str(SMALL), "--age",
                                          "fill=0.5", str(TPCC))
    for spec in ("overwrite=1", "fill=0", "fill=1.5", "fill=0.5,fill=0.6",
                 "fill=0.5,wear=3", "fill=0.5,bs=1000"):
        refused("--config", str(SMALL), *TINY, "--age", spec, "--save",
                str(out), writes=out)
    assert "--seed" in refused("--config", str(SMALL), "--seed", "3",
                               str(TPCC))
    assert "--reset-stats" in refused("--config", str(SMALL),
                                      "--reset-stats", str(TPCC))
    assert "need a trace" in refused("--from", str(snap), "--warmup", "1")
