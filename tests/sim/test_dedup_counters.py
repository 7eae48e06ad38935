"""The dedup layer's counters add up (dedup/README.md, "Counters"), and a
replay's final FLUSH drains the write buffer (tools/ssdsim/README.md).

The identities are held across buffer sizes, filter off and on (Kim's,
over the buffered writes, and over the live chunks too), full and LRU
fingerprint stores, with and without the final FLUSH, on both FIU
samples: each is an equation between counters that different code paths
increment, so a path that forgets one breaks it.
"""
from __future__ import annotations

import json
from typing import Any

import pytest

from asan_ssdsim import TRACES, ssdsim
from ssdtools.paths import CONFIGS

KIM = CONFIGS / "kim-dedup-openssd.conf"
HOMES = TRACES / "fiu-homes-sample.blkparse"


def run(*args: str) -> dict[str, Any]:
    proc = ssdsim("--json", "--check", "--config", str(KIM), "dedup=1",
                  *args)
    stats: dict[str, Any] = json.loads(proc.stdout)
    return stats


def test_readme_example_programs_after_the_final_flush() -> None:
    """The README's example (kim-dedup-openssd.conf, dedup=1, the homes
    sample): the preset's 8000-page buffer held every write at the end of
    the trace, so it printed 0 programs and WAF 0.000.  The final FLUSH
    drains it."""
    st = run(str(HOMES))
    assert st["final_flush"] is True
    assert st["dedup_buffered_pages"] == 0
    assert st["flash_program_host_pages"] > 0 and st["waf"] > 0
    assert st["dedup_chunks_written"] > 0
    assert st["flash_program_host_pages"] == (st["dedup_chunks_written"]
                                              - st["dedup_duplicate_chunks"])
    # Left out, the buffer keeps what it held, and nothing was programmed.
    held = run("--no-final-flush", str(HOMES))
    assert held["final_flush"] is False
    assert held["dedup_buffered_pages"] > 0
    assert held["flash_program_host_pages"] == 0
    assert st["host_flush_count"] == held["host_flush_count"] + 1
    assert st["host_write_pages"] == held["host_write_pages"]


def test_late_fingerprints_explain_the_excess() -> None:
    """With no buffer, the filter fingerprints late the stored chunks a
    sample matches: fingerprinted + filtered exceed chunks written by
    exactly the late fingerprints (issue 19: 520 + 562 = 998 + 84).  The
    filter over the live chunks (dedup_filter_live_chunks=1) only."""
    st = run("dedup_buffer_pages=0", "dedup_filter_live_chunks=1",
             str(HOMES))
    late = st["dedup_late_fingerprints"]
    assert late > 0
    assert st["dedup_chunks_written"] == st["host_write_pages"]
    assert (st["dedup_fingerprinted_chunks"] + st["dedup_filtered_chunks"]
            - st["dedup_chunks_written"]) == late


def check_identities(st: dict[str, Any], filtered: bool, live_chunks: bool,
                     lru: bool) -> None:
    written = st["dedup_chunks_written"]
    on_time = st["dedup_fingerprinted_chunks"] - st["dedup_late_fingerprints"]
    # Each leaving write is filtered or fingerprinted once on time.
    assert written == st["dedup_filtered_chunks"] + on_time
    # Each on-time fingerprint is one store lookup, a hit or a miss.
    assert on_time == st["dedup_store_hits"] + st["dedup_store_misses"]
    # A duplicate is a store hit.
    assert st["dedup_duplicate_chunks"] == st["dedup_store_hits"]
    # A late fingerprint is of a chunk that was written filtered.
    assert st["dedup_late_fingerprints"] <= st["dedup_filtered_chunks"]
    # Every page the host wrote left the buffer, was replaced or trimmed
    # in it, or is still there.
    assert st["host_write_pages"] == (written + st["dedup_buffer_rewrites"]
                                      + st["dedup_buffer_trims"]
                                      + st["dedup_buffered_pages"])
    # What leaves is programmed unless it is a duplicate (no cache here).
    assert st["flash_program_host_pages"] == (written
                                              - st["dedup_duplicate_chunks"])
    assert st["dedup_programs_avoided"] == (st["dedup_duplicate_chunks"]
                                            + st["dedup_buffer_rewrites"]
                                            + st["dedup_buffer_trims"])
    assert st["dedup_logical_pages"] >= st["dedup_physical_pages"]
    if not filtered:
        assert st["dedup_filtered_chunks"] == 0
    if not live_chunks:
        assert st["dedup_late_fingerprints"] == 0
    if not lru:
        assert st["dedup_store_evictions"] == 0


@pytest.mark.parametrize("trace", ["fiu-homes-sample.blkparse",
                                   "fiu-mail-sample.blkparse"])
@pytest.mark.parametrize("buffer_pages", [0, 8, 64])
@pytest.mark.parametrize("dedup_filter,live_chunks", [(0, 0), (1, 0), (1, 1)])
@pytest.mark.parametrize("store_entries", [0, 16])
@pytest.mark.parametrize("final_flush", [True, False])
def test_counter_identities(trace: str, buffer_pages: int, dedup_filter: int,
                            live_chunks: int, store_entries: int,
                            final_flush: bool) -> None:
    st = run(f"dedup_buffer_pages={buffer_pages}",
             f"dedup_filter={dedup_filter}",
             f"dedup_filter_live_chunks={live_chunks}",
             f"dedup_store_entries={store_entries}",
             *([] if final_flush else ["--no-final-flush"]),
             str(TRACES / trace))
    assert st["host_write_pages"] > 0
    check_identities(st, filtered=dedup_filter == 1,
                     live_chunks=live_chunks == 1, lru=store_entries > 0)
    if final_flush:
        assert st["dedup_buffered_pages"] == 0
        assert st["dedup_chunks_written"] > 0
    elif buffer_pages:
        assert st["dedup_buffered_pages"] > 0
