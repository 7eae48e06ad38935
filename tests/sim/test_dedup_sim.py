"""ssdsim with the dedup layer on the FIU traces, whose lines carry an MD5
per block (mail: per 4 KiB block; homes: per 512-byte sector).

ssdsim turns each MD5 into its share of a page (same MD5 -> same bytes,
different MD5 -> different bytes at every offset the filter samples), so
the duplicates the device finds with a full fingerprint store must be
exactly those counted here from the hashes alone, with the sampling filter
off and on over the live chunks too (that filter fingerprints late the
stored chunks a sample matches, so it loses none).  Kim's filter (the
default) looks at the buffered writes only: it finds fewer, and none
without a buffer.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from asan_ssdsim import TRACES, checked_stats, ssdsim

PAGE_BYTES = 4096
SECTOR_BYTES = 512


def run(*args: str) -> dict[str, int]:
    return checked_stats(*args)


def page_writes(path: Path) -> list[tuple[int, tuple[str | None, ...]]]:
    """(lpn, page content) of every page write of a FIU trace: a page is
    the tuple of the hashes of its 512-byte sectors (None: never written,
    zeros)."""
    content: dict[int, tuple[str | None, ...]] = {}
    writes = []
    slots = PAGE_BYTES // SECTOR_BYTES
    for line in path.read_text().splitlines():
        fields = line.split()
        lba, sectors, op = int(fields[3]), int(fields[4]), fields[5]
        if op != "W":
            continue
        hashes = fields[8]
        off, length = lba * SECTOR_BYTES, sectors * SECTOR_BYTES
        chunk = length // (len(hashes) // 32)
        for lpn in range(off // PAGE_BYTES,
                         (off + length - 1) // PAGE_BYTES + 1):
            page = list(content.get(lpn, (None,) * slots))
            for slot in range(slots):
                pos = lpn * PAGE_BYTES + slot * SECTOR_BYTES
                if off <= pos < off + length:
                    k = (pos - off) // chunk
                    page[slot] = hashes[32 * k:32 * k + 32]
            content[lpn] = tuple(page)
            writes.append((lpn, content[lpn]))
    return writes


def trace_duplicates(path: Path) -> tuple[int, int]:
    """(page writes, duplicate page writes) of a FIU trace, from its
    hashes (page_writes()): a write is a duplicate if some page holds the
    same tuple when it arrives, after its own page let go of its old
    contents."""
    content: dict[int, tuple[str | None, ...]] = {}
    refs: Counter[tuple[str | None, ...]] = Counter()
    duplicates = 0
    writes = page_writes(path)
    for lpn, key in writes:
        if lpn in content:
            refs[content[lpn]] -= 1
        duplicates += refs[key] > 0
        refs[key] += 1
        content[lpn] = key
    return len(writes), duplicates


@pytest.mark.parametrize("trace", ["fiu-homes-sample.blkparse",
                                   "fiu-mail-sample.blkparse"])
@pytest.mark.parametrize("dedup_filter", ["0", "1"])
def test_duplicates_match_the_trace_hashes(trace: str,
                                           dedup_filter: str) -> None:
    writes, expected = trace_duplicates(TRACES / trace)
    # The filter over the live chunks too loses no duplicate.
    st = run("dedup=1", "dedup_buffer_pages=0", "dedup_store_entries=0",
             f"dedup_filter={dedup_filter}", "dedup_filter_live_chunks=1",
             str(TRACES / trace))
    assert st["wrapped_requests"] == 0
    assert st["host_write_pages"] == writes
    assert st["dedup_duplicate_chunks"] == expected, (trace, expected)
    assert st["flash_program_host_pages"] == writes - expected
    if dedup_filter == "1":
        # Filtered writes are those no other chunk's sample matched.
        assert st["dedup_filtered_chunks"] + \
            st["dedup_fingerprinted_chunks"] - \
            st["dedup_late_fingerprints"] == writes
    if trace.startswith("fiu-homes"):
        assert expected > 50, "the homes sample has many duplicate pages"
    print(trace, dedup_filter, writes, expected)


@pytest.mark.parametrize("trace", ["fiu-homes-sample.blkparse",
                                   "fiu-mail-sample.blkparse"])
def test_kims_filter_sees_the_buffer_only(trace: str) -> None:
    """Kim's filter (kim-dedup-in-ssds-msst-2012-talk.txt:286-295, the
    default): without a buffer no write has a bucket mate, so none is
    fingerprinted and no duplicate is found, where the filter over the
    live chunks finds some; with a 64-page buffer some are, never more
    than the filter over the live chunks finds, and no chunk is
    fingerprinted late."""
    path = str(TRACES / trace)
    writes, expected = trace_duplicates(TRACES / trace)
    alone = run("dedup=1", "dedup_buffer_pages=0", path)
    assert alone["dedup_filtered_chunks"] == writes
    assert alone["dedup_fingerprinted_chunks"] == 0
    assert alone["dedup_duplicate_chunks"] == 0
    assert alone["flash_program_host_pages"] == writes
    alone_live = run("dedup=1", "dedup_buffer_pages=0",
                     "dedup_filter_live_chunks=1", path)
    assert alone_live["dedup_duplicate_chunks"] > 0
    kim = run("dedup=1", "dedup_buffer_pages=64", path)
    live = run("dedup=1", "dedup_buffer_pages=64",
               "dedup_filter_live_chunks=1", path)
    assert kim["dedup_late_fingerprints"] == 0
    assert 0 < kim["dedup_duplicate_chunks"] <= live["dedup_duplicate_chunks"]
    assert live["dedup_duplicate_chunks"] <= expected
    print(trace, writes, expected, kim["dedup_duplicate_chunks"],
          live["dedup_duplicate_chunks"])


def model_dedup(writes: list[tuple[int, tuple[str | None, ...]]],
                buffer_pages: int, store_entries: int,
                end_flush: bool = True) -> dict[str, int]:
    """The dedup layer's decisions with the filter off: a FIFO buffer
    (a rewrite of a buffered page replaces it in place; a new write drops
    its page's old reference, then makes the oldest leave if the buffer is
    full), chunks with refcounts, and a store of every live fingerprint
    (store_entries 0) or an LRU of store_entries (a hit or an insert makes
    an entry the most recent).  The FLUSH that ends a replay drains the
    buffer, oldest first."""
    buffer: dict[int, tuple[str | None, ...]] = {}   # insertion = FIFO
    page_chunk: dict[int, int] = {}
    refcount: dict[int, int] = {}
    store: dict[tuple[str | None, ...], int] = {}    # order = recency
    chunk_content: dict[int, tuple[str | None, ...]] = {}
    count = {"duplicates": 0, "evictions": 0, "rewrites": 0}
    next_chunk = 0

    def drop(lpn: int) -> None:
        chunk = page_chunk.pop(lpn, None)
        if chunk is None:
            return
        refcount[chunk] -= 1
        if refcount[chunk] == 0:
            del refcount[chunk]
            data = chunk_content.pop(chunk)
            if store.get(data) == chunk:
                del store[data]

    def leave(lpn: int, data: tuple[str | None, ...]) -> None:
        nonlocal next_chunk
        if data in store:
            chunk = store.pop(data)
            store[data] = chunk
            refcount[chunk] += 1
            page_chunk[lpn] = chunk
            count["duplicates"] += 1
            return
        chunk, next_chunk = next_chunk, next_chunk + 1
        refcount[chunk] = 1
        page_chunk[lpn] = chunk
        chunk_content[chunk] = data
        if store_entries and len(store) == store_entries:
            del store[next(iter(store))]
            count["evictions"] += 1
        store[data] = chunk

    for lpn, data in writes:
        if lpn in buffer:
            buffer[lpn] = data
            count["rewrites"] += 1
            continue
        drop(lpn)
        if buffer_pages == 0:
            leave(lpn, data)
            continue
        if len(buffer) == buffer_pages:
            old = next(iter(buffer))
            leave(old, buffer.pop(old))
        buffer[lpn] = data
    while end_flush and buffer:
        old = next(iter(buffer))
        leave(old, buffer.pop(old))
    return count


@pytest.mark.parametrize("buffer_pages,store_entries", [
    (64, 0), (8, 0), (0, 16), (64, 32), (8, 40)])
def test_buffer_and_recency_store_match_a_model(buffer_pages: int,
                                                store_entries: int) -> None:
    """With the filter off, the write buffer's rewrites and the LRU
    store's evictions and hits are exactly those of a small model of the
    layer fed with the trace's hashes."""
    trace = TRACES / "fiu-homes-sample.blkparse"
    expected = model_dedup(page_writes(trace), buffer_pages, store_entries)
    st = run("dedup=1", "dedup_filter=0",
             f"dedup_buffer_pages={buffer_pages}",
             f"dedup_store_entries={store_entries}", str(trace))
    assert st["dedup_duplicate_chunks"] == expected["duplicates"]
    assert st["dedup_store_evictions"] == expected["evictions"]
    assert st["dedup_buffer_rewrites"] == expected["rewrites"]
    assert expected["duplicates"] > 0
    print(buffer_pages, store_entries, expected)


def test_buffer_accounts_for_every_write() -> None:
    """With a write buffer and a recency store, every page written is
    programmed, avoided (duplicate, rewritten or trimmed in the buffer) or
    still buffered; the recency store finds no more than the full one."""
    trace = str(TRACES / "fiu-homes-sample.blkparse")
    full = run("dedup=1", "dedup_buffer_pages=64", trace)
    lru = run("dedup=1", "dedup_buffer_pages=64", "dedup_store_entries=16",
              trace)
    for st in (full, lru):
        assert st["flash_program_host_pages"] + \
            st["dedup_programs_avoided"] + st["dedup_buffered_pages"] == \
            st["host_write_pages"]
    assert lru["dedup_store_evictions"] > 0
    assert lru["dedup_duplicate_chunks"] <= full["dedup_duplicate_chunks"]
    assert full["dedup_logical_pages"] >= full["dedup_physical_pages"]


def test_dedup_off_leaves_the_device_as_it_was() -> None:
    """dedup=0 (the default): no dedup layer, no dedup counters, and the
    flash sees every page written."""
    st = run(str(TRACES / "fiu-homes-sample.blkparse"))
    assert st["dedup_chunks_written"] == 0 and st["dedup_metadata_bytes"] == 0
    assert st["flash_program_host_pages"] == st["host_write_pages"]


def test_request_log_with_hashes_dedups_as_fiu(tmp_path: Path) -> None:
    """The homes sample rewritten as a request log whose writes carry
    their MD5s (the format workload/replay.py writes) finds the same
    duplicates as the FIU original."""
    fiu = TRACES / "fiu-homes-sample.blkparse"
    log = tmp_path / "homes.log"
    with open(log, "w") as out:
        for line in fiu.read_text().splitlines():
            f = line.split()
            hashes = f" {f[8]}" if f[5] == "W" else ""
            out.write(f"{f[0]} {f[5]} {int(f[3]) * SECTOR_BYTES} "
                      f"{int(f[4]) * SECTOR_BYTES} 0{hashes}\n")
    writes, expected = trace_duplicates(fiu)
    # The filter over the live chunks, which loses no duplicate.
    st = run("dedup=1", "dedup_buffer_pages=0", "dedup_store_entries=0",
             "dedup_filter_live_chunks=1", str(log))
    assert st["trace"]["format"] == "ssdemu"
    assert st["host_write_pages"] == writes
    assert st["dedup_duplicate_chunks"] == expected > 50


@pytest.mark.parametrize("line", [
    "0 R 0 4096 0 " + "ab" * 16,          # hashes on a read
    "0 W 0 4096 0 " + "ab" * 15,          # not 32 digits a hash
    "0 W 0 4096 0 " + "ag" * 16,          # not hex
    "0 W 0 4096 0 " + "ab" * 16 + " x",   # something after them
])
def test_request_log_refuses_bad_hashes(tmp_path: Path, line: str) -> None:
    log = tmp_path / "bad.log"
    log.write_text(line + "\n")
    proc = ssdsim("--format", "ssdemu", str(log), check=False, timeout=60)
    assert proc.returncode != 0
    assert "bad.log:1: not a ssdemu trace line" in proc.stderr
