"""The defaults of the keys that came with background destage and the
dedup engines (cache_destage_high_percent=0, dedup_hash_engines=1,
dedup_hash_overlap=0) give every counter and every completion time of
the model before them.

tests/sim/data/default-equivalence.json holds, per run below, the --json
counters and the SHA-256 of the --completions file of ssdsim built from
the commit before they came (ba796ee); this test runs today's ssdsim on
the same keys and traces and compares, counter by counter (the counters
added since are not in the record) and time by time. The runs name
every key that matters on the command line, not a preset, so editing a
preset does not move them; they cover the paths the change touched: the
cache's evictions under three replacement policies and ProCache, at
depth and at QD1, background GC (whose idle call now comes before the
timing horizon moves), and the dedup engine on the write path, with and
without a cache below (no write buffer: what a trace's end does with
one is another question). ssdsim has since ended each replay with a
FLUSH; the runs here ask for none (--no-final-flush), as the record's
ssdsim did not send one, and the trace's description (paths, a census
added since) is not a counter.

A deliberate change of the model re-records the file:
    PYTHONPATH=. python3 tests/sim/test_default_equivalence.py \
        --record SSDSIM "WHAT"
with the ssdsim the record should stand for (WHAT says which), and says
why in its commit.
"""
from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

import ssdsim as sim
from ssdtools.paths import TRACES

RECORD = Path(__file__).resolve().parent / "data" / "default-equivalence.json"

GEOMETRY = ["page_size_bytes=4096", "pages_per_block=64", "blocks_per_chip=32",
            "chips=8", "channels=4", "op_percent=25", "controller_ns=2000",
            "channel_mb_per_s=400", "read_ns=50000", "program_ns=600000",
            "erase_ns=3000000", "gc_pages_per_write=8"]
CACHE = ["slc_blocks_per_chip=8", "slc_read_ns=25000", "slc_program_ns=200000",
         "slc_erase_ns=2000000"]
HOMES = "fiu-homes-sample.blkparse"
MAIL = "fiu-mail-sample.blkparse"
TPCC = "mqsim-tpcc-small.trace"

RUNS: dict[str, tuple[list[str], str]] = {
    "cache-lru-homes": (CACHE + ["cache_policy=always", "cache_pages=64"],
                        HOMES),
    "cache-arc-tpcc": (CACHE + ["cache_policy=always", "cache_replacement=arc",
                                "cache_pages=256"], TPCC),
    # The record's S3-FIFO filled main before its first eviction, as
    # libcachesim 0.3.5: the key that keeps that filling (the default is
    # now the paper's).
    "cache-s3fifo-qd1-homes": (CACHE + ["cache_policy=always",
                                        "cache_replacement=s3fifo",
                                        "cache_s3fifo_fill_main=1",
                                        "cache_pages=64", "cmd_queue_depth=1"],
                               HOMES),
    # The record's ProCache judged hits per page: the key that keeps that
    # (the default is now Algorithm 1's whole request).
    "procache-tpcc": (CACHE + ["cache_policy=procache", "cache_pages=256",
                               "procache_p_ppm=300000", "seed=7",
                               "procache_hit_per_page=1"], TPCC),
    "background-gc-tpcc": (["blocks_per_chip=16",
                            "gc_background_free_blocks=40"], TPCC),
    # The filter over the live chunks: the rule of the record (issue 32
    # made Kim's, over the buffered writes, the default).
    "dedup-homes": (["dedup=1", "dedup_buffer_pages=0", "dedup_filter=1",
                     "dedup_filter_live_chunks=1"], HOMES),
    "dedup-cache-qd1-homes": (CACHE + ["dedup=1", "dedup_buffer_pages=0",
                                       "dedup_filter=0", "cache_policy=always",
                                       "cache_pages=64", "cmd_queue_depth=1"],
                              HOMES),
    "dedup-qd8-mail": (["dedup=1", "dedup_buffer_pages=0", "dedup_filter=0",
                        "cmd_queue_depth=8"], MAIL),
}

# The size of the dedup layer's struct (it holds the engines' timelines
# now): a size, not a count of what the model did.  And the RAM figures
# that follow data_store: the record kept page bytes, ssdsim now keeps a
# digest (dedup runs) or nothing (issue 22); every count must not move.
SIZES = {"dedup_metadata_bytes", "flash_metadata_bytes", "spare_buffer_bytes",
         "data_limit_bytes"}


def run(binary: Path, name: str) -> tuple[dict[str, Any], str]:
    """The --json counters (the configuration dropped) and the SHA-256 of
    the completions of run @name with @binary."""
    keys, trace = RUNS[name]
    with tempfile.TemporaryDirectory() as tmp:
        completions = Path(tmp) / "completions"
        proc = sim.call(sim.command_line(TRACES / trace, keys=GEOMETRY + keys,
                                         flags=["--no-final-flush"],
                                         completions=completions),
                        binary, 300)
        assert proc.returncode == 0, proc.stderr
        digest = hashlib.sha256(completions.read_bytes()).hexdigest()
    stats: dict[str, Any] = json.loads(proc.stdout)
    stats.pop("config", None)
    stats.pop("stats_version", None)
    stats.pop("trace", None)
    return stats, digest


def record(binary: Path, what: str) -> None:
    runs = {}
    for name in RUNS:
        stats, digest = run(binary, name)
        runs[name] = {"completions_sha256": digest, "stats": stats}
    RECORD.parent.mkdir(exist_ok=True)
    RECORD.write_text(json.dumps({"recorded_with": what, "runs": runs},
                                 indent=1, sort_keys=True) + "\n")


@pytest.mark.parametrize("name", sorted(RUNS))
def test_defaults_equal_the_model_before(name: str) -> None:
    if not sim.SSDSIM_ASAN.exists():
        pytest.fail(f"{sim.SSDSIM_ASAN} missing: run 'make unit'")
    before = json.loads(RECORD.read_text())["runs"][name]
    stats, digest = run(sim.SSDSIM_ASAN, name)
    changed = {k: (v, stats.get(k)) for k, v in before["stats"].items()
               if k not in SIZES and stats.get(k) != v}
    assert not changed, f"{name}: counters moved (before, now): {changed}"
    assert digest == before["completions_sha256"], \
        f"{name}: completion times moved"
    # The new counters, by their identities with the defaults.
    assert stats["cache_destage_background_pages"] == 0
    assert (stats["cache_destage_foreground_pages"]
            == stats["cache_evict_pages"])
    if "dedup=1" in RUNS[name][0]:
        # On the write path: each write's hash + lookup (the defaults,
        # 80 + 2 us), and the hash of each late fingerprint it needed.
        late = stats["dedup_late_fingerprints"]
        own = stats["dedup_fingerprinted_chunks"] - late
        assert stats["dedup_hash_wait_ns"] >= own * 82000 + late * 80000, \
            "waits shorter than the hashes"
    else:
        assert stats["dedup_hash_wait_ns"] == 0


def test_record_is_not_trivial() -> None:
    """The record exercises what it is meant to: evictions, background
    GC relocations, fingerprints, duplicates."""
    runs = json.loads(RECORD.read_text())["runs"]
    assert runs["cache-lru-homes"]["stats"]["cache_evict_pages"] > 0
    assert runs["cache-arc-tpcc"]["stats"]["cache_evict_pages"] > 0
    assert runs["cache-s3fifo-qd1-homes"]["stats"]["cache_evict_pages"] > 0
    assert runs["procache-tpcc"]["stats"]["cache_evict_pages"] > 0
    assert runs["background-gc-tpcc"]["stats"]["gc_background_pages"] > 0
    assert runs["dedup-homes"]["stats"]["dedup_duplicate_chunks"] > 0
    assert runs["dedup-cache-qd1-homes"]["stats"]["cache_evict_pages"] > 0
    assert runs["dedup-qd8-mail"]["stats"]["dedup_fingerprinted_chunks"] > 0


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "--record":
        sys.exit(f"usage: {sys.argv[0]} --record SSDSIM WHAT")
    record(Path(sys.argv[2]), sys.argv[3])
