"""data_store in ssdsim (issue 22): the device keeps page bytes only when
asked (--data), a digest of each page when dedup is on or the trace has
content hashes, nothing otherwise, and no counter and no completion time
depends on the choice.

The FIU homes and mail samples (MD5 per sector / per 4 KiB block) are
replayed with dedup, its sampling filter and a write cache that fills on
reads, once with --data (bytes) and once by default (digest): every
counter and every completion time is the same.  A trace without hashes
(MQSim TPC-C) is replayed with the cache and no dedup in bytes and in none
mode, the same way.  Only the RAM figures differ, and they must: that is
the point.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from asan_ssdsim import TRACES, ssdsim
from ssdtools.paths import CONFIGS

KIM = CONFIGS / "kim-dedup-openssd.conf"
SMALL = CONFIGS / "small-test.conf"
HOMES = TRACES / "fiu-homes-sample.blkparse"
MAIL = TRACES / "fiu-mail-sample.blkparse"
TPCC = TRACES / "mqsim-tpcc-small.trace"

# RAM figures that follow data_store; nothing else may.
RAM = {"flash_metadata_bytes", "spare_buffer_bytes", "data_limit_bytes"}
CACHE = ["slc_blocks_per_chip=8", "cache_policy=procache",
         "procache_p_ppm=500000", "cache_read_allocate=1", "seed=3"]
DEDUP = ["dedup=1", "dedup_filter=1", "dedup_buffer_pages=16"]


def run(tmp: Path, name: str, *args: str) -> tuple[dict[str, Any], str]:
    """--json counters and the SHA-256 of the completions of one run."""
    done = tmp / f"{name}.done"
    proc = ssdsim("--json", "--check", "--completions", str(done), *args)
    stats: dict[str, Any] = json.loads(proc.stdout)
    return stats, hashlib.sha256(done.read_bytes()).hexdigest()


def expect_same(tmp: Path, args: list[str], mode: str) -> dict[str, Any]:
    """The run of @args with --data and by default (@mode): alike."""
    kept, kept_done = run(tmp, "bytes", "--data", *args)
    chosen, chosen_done = run(tmp, mode, *args)
    assert kept["config"]["data_store"] == "bytes"
    assert chosen["config"]["data_store"] == mode
    counters = {k for k in kept if k not in RAM | {"config"}}
    moved = {k: (kept[k], chosen.get(k)) for k in counters
             if kept[k] != chosen.get(k)}
    assert not moved, f"counters moved from bytes to {mode}: {moved}"
    assert chosen_done == kept_done, f"completion times moved in {mode}"
    # Keeping less must show: no page table (none), smaller buffers.
    assert chosen["spare_buffer_bytes"] < kept["spare_buffer_bytes"]
    return kept


@pytest.mark.parametrize("trace", [HOMES, MAIL], ids=["homes", "mail"])
def test_digest_counts_like_bytes_with_dedup_and_cache(
        tmp_path: Path, trace: Path) -> None:
    st = expect_same(tmp_path, ["--config", str(KIM), *DEDUP, *CACHE,
                                str(trace)], "digest")
    # The filter, the store and the cache all had work to do.
    assert st["dedup_duplicate_chunks"] > 0
    assert st["dedup_fingerprinted_chunks"] > 0
    assert st["cache_admit_pages"] > 0


def test_digest_counts_like_bytes_without_a_buffer(tmp_path: Path) -> None:
    """No write buffer: late fingerprints of live chunks (the filter over
    the live chunks), whose samples come from their stored digests."""
    st = expect_same(tmp_path, ["--config", str(KIM), "dedup=1",
                                "dedup_buffer_pages=0",
                                "dedup_filter_live_chunks=1", str(HOMES)],
                     "digest")
    assert st["dedup_late_fingerprints"] > 0
    assert st["dedup_filtered_chunks"] > 0


def test_none_counts_like_bytes_without_hashes(tmp_path: Path) -> None:
    st = expect_same(tmp_path, ["--config", str(SMALL), *CACHE,
                                "logical_block_bytes=512", str(TPCC)],
                     "none")
    assert st["host_rmw_pages"] > 0 or st["host_write_pages"] > 0
    assert st["cache_admit_pages"] > 0


def test_none_counts_like_bytes_with_ageing(tmp_path: Path) -> None:
    """--age writes seed-made data: in none mode, none at all."""
    kept = json.loads(ssdsim("--json", "--check", "--config", str(SMALL),
                             "--data", "--age", "fill=0.6,overwrite=1",
                             "--seed", "5").stdout)
    none = json.loads(ssdsim("--json", "--check", "--config", str(SMALL),
                             "--age", "fill=0.6,overwrite=1", "--seed",
                             "5").stdout)
    moved = {k: (v, none.get(k)) for k, v in kept.items()
             if k not in RAM and none.get(k) != v}
    assert not moved


def test_digest_ageing_with_dedup_counts_like_bytes() -> None:
    """Seed-made data with dedup: ids are stream states, and their bytes
    are the stream's, so samples (and the filter's choices) match."""
    args = ["--json", "--check", "--config", str(SMALL), "dedup=1",
            "--age", "fill=0.5,overwrite=1", "--seed", "9"]
    kept = json.loads(ssdsim(*args, "--data").stdout)
    digest = json.loads(ssdsim(*args).stdout)
    moved = {k: (v, digest.get(k)) for k, v in kept.items()
             if k not in RAM and digest.get(k) != v}
    assert not moved
    assert kept["dedup_chunks_written"] > 0


def test_the_choice(tmp_path: Path) -> None:
    def store(*args: str) -> str:
        proc = ssdsim("--json", "--config", str(SMALL), *args)
        return str(json.loads(proc.stdout)["config"]["data_store"])

    assert store(str(TPCC)) == "none"
    assert store("logical_block_bytes=512", str(HOMES)) == "digest"
    assert store("dedup=1", str(TPCC)) == "digest"
    assert store("--data", str(TPCC)) == "bytes"
    assert store("data_store=digest", str(TPCC)) == "digest"
    assert store("data_store=bytes", str(HOMES)) == "bytes"
    # The text report says it too.
    text = ssdsim("--config", str(SMALL), str(TPCC)).stdout
    assert "data_store=none" in text.split()


def test_refusals(tmp_path: Path) -> None:
    def refused(*args: str) -> str:
        proc = ssdsim("--config", str(SMALL), *args, check=False)
        assert proc.returncode != 0
        return proc.stderr

    assert "dedup fingerprints page content" in refused(
        "dedup=1", "data_store=none", str(TPCC))
    assert "--data and data_store=none" in refused(
        "--data", "data_store=none", str(TPCC))
    assert "data_store=" in refused("data_store=sometimes", str(TPCC))
    # A snapshot keeps its data store: another one is refused over it.
    snap = tmp_path / "d.snap"
    ssdsim("--config", str(SMALL), "dedup=1", "--age", "fill=0.2",
           "--save", str(snap))
    proc = ssdsim("--from", str(snap), "data_store=bytes", check=False)
    assert proc.returncode != 0
    assert "bytes a page" in proc.stderr
    proc = ssdsim("--from", str(snap), "--data", check=False)
    assert proc.returncode != 0 and "--data refused" in proc.stderr


def test_snapshot_keeps_the_digest(tmp_path: Path) -> None:
    """Homes, cut into a snapshot with writes still in dedup's buffer,
    then mail from it: in digest mode as with page bytes (the snapshot
    stores digests, and the samples are rebuilt from them on loading)."""
    results = []
    for mode, flags in (("bytes", ["--data"]), ("digest", [])):
        snap = tmp_path / f"{mode}.snap"
        ssdsim("--config", str(KIM), *DEDUP, *flags, "--no-final-flush",
               "--save", str(snap), str(HOMES))
        st, done = run(tmp_path, mode, "--from", str(snap), str(MAIL))
        assert st["config"]["data_store"] == mode
        results.append((st, done, snap.stat().st_size))
    (kept, kept_done, kept_size), (digest, digest_done, digest_size) = results
    moved = {k: (v, digest.get(k)) for k, v in kept.items()
             if k not in RAM | {"config"} and digest.get(k) != v}
    assert not moved
    assert digest_done == kept_done
    assert kept["dedup_duplicate_chunks"] > 0
    # 128 bytes of ids for a 4 KiB page (8 sectors x 16 B), not 4096.
    assert digest_size < kept_size


def test_hashes_split_over_a_sector(tmp_path: Path) -> None:
    """3 sectors with 3 MD5s widened to a 4 KiB block: 3 hashes over 8
    sectors, some sector holds the bytes of two.  No id stands for it:
    fine without dedup (no counter reads content), refused with dedup
    naming the line, and --data replays it."""
    trace = tmp_path / "split.fiu"
    trace.write_text(f"1000 1 p 8 3 W 6 0 {'ab' * 48}\n"
                     f"2000 1 p 16 8 W 6 0 {'cd' * 128}\n")
    args = ["--json", "--config", str(SMALL)]
    st = json.loads(ssdsim(*args, str(trace)).stdout)
    assert st["config"]["data_store"] == "digest"
    assert st["host_write_pages"] == 2
    proc = ssdsim(*args, "dedup=1", str(trace), check=False)
    assert proc.returncode != 0
    assert f"{trace}:1: a sector holds the data of two content hashes" \
        in proc.stderr and "--data" in proc.stderr
    st = json.loads(ssdsim(*args, "dedup=1", "--data", str(trace)).stdout)
    assert st["dedup_chunks_written"] == 2
