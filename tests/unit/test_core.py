"""Unit tests of the portable core, built for userspace with ASan and UBSan.

Each test runs one subcommand of build/asan/bin/ssd_unit_tests (see
tests/unit/unit_main.c); `make test` builds it first.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT_BIN = ROOT / "build" / "asan" / "bin" / "ssd_unit_tests"
SMALL_GEOMETRY = ["pages_per_block=16", "blocks_per_chip=32", "chips=4",
                  "channels=2", "op_percent=15"]


def run_unit(*args: str) -> str:
    if not UNIT_BIN.exists():
        pytest.fail(f"{UNIT_BIN} missing: run 'make unit'")
    proc = subprocess.run([str(UNIT_BIN), *args], capture_output=True,
                          text=True, timeout=600,
                          env={"ASAN_OPTIONS": "detect_leaks=1",
                               "UBSAN_OPTIONS": "print_stacktrace=1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_config_vocabulary() -> None:
    assert "keys checked" in run_unit("config")


def test_allocation_and_victims() -> None:
    assert "ok" in run_unit("alloc")


def test_timing_model_hand_computed() -> None:
    assert "ok" in run_unit("timing")


def test_layer_interface_takes_a_new_layer() -> None:
    assert "ok" in run_unit("layers")


def test_memory_limit_enospc_and_lock_breaks() -> None:
    """Metadata planned before allocation and refused over the limit;
    ENOSPC when the data store is full, nothing changed; lock breaks
    during long requests leave times and counters as they were."""
    out = run_unit("memory")
    assert "memory: ok" in out
    print(out)


def test_data_store_modes() -> None:
    """Digest merges of partial pages, none without buffers, every counter
    alike in bytes, digest and none mode, and the RAM plan per logical
    page (<= 16 B with data_store=none)."""
    out = run_unit("data_store")
    assert "data_store: ok" in out
    print(out)


def test_slc_cache_region() -> None:
    assert "ok" in run_unit("regions")


def test_counters_do_not_depend_on_timing() -> None:
    assert "ok" in run_unit("counters")


def test_linear_check_catches_corruption() -> None:
    assert "ok" in run_unit("check")


@pytest.mark.parametrize("seed,extra", [
    (1, ["gc_policy=greedy"]),
    (2, ["gc_policy=cost_benefit"]),
    # 512-byte logical blocks: most writes are partial pages (RMW).
    (3, ["logical_block_bytes=512"]),
    # Big pages: 4 KiB host blocks are quarter pages.
    (4, ["page_size_bytes=16384", "gc_policy=cost_benefit"]),
    # Small pages, an odd chip count, one chip per channel.
    (5, ["logical_block_bytes=512", "page_size_bytes=2048",
         "blocks_per_chip=40", "chips=3", "channels=3", "op_percent=12"]),
    # GC in bounded steps of 1 and 8 pages, and whole victims.
    (6, ["gc_pages_per_write=1"]),
    (7, ["gc_pages_per_write=8"]),
    (8, ["gc_pages_per_write=0"]),
    (9, ["gc_pages_per_write=1", "gc_policy=cost_benefit",
         "logical_block_bytes=512"]),
    # Background GC on idle chips above the low watermark.
    (13, ["gc_background_free_blocks=20"]),
    (14, ["gc_background_free_blocks=20", "gc_pages_per_write=0"]),
])
def test_model_random_ops(seed: int, extra: list[str]) -> None:
    """Random writes/overwrites/TRIMs/reads at >= 92% logical utilisation."""
    out = run_unit("model", "--seed", str(seed), "--ops", "50000",
                   "--util", "92", *SMALL_GEOMETRY, *extra)
    assert "model:" in out
    print(out)


@pytest.mark.parametrize("seed,gc", [(10, "1"), (11, "8"), (12, "0")])
def test_model_with_slc_cache(seed: int, gc: str) -> None:
    """A layer above the FTL sends 30% of the writes to the SLC cache
    region (the main region when it is full): pages move between the
    regions, both run GC, all data is verified."""
    out = run_unit("model", "--seed", str(seed), "--ops", "50000",
                   "--util", "92", "--cache-percent", "30",
                   *SMALL_GEOMETRY, "slc_blocks_per_chip=6",
                   f"gc_pages_per_write={gc}")
    assert "cache:" in out and "model:" in out
    print(out)


def test_write_cache_policies() -> None:
    """ProCache's die against (1-p)^K (p=0.1 and 0.05, K=3) over 20000
    cold pages; size threshold c, vector form, one verdict per request,
    seeds; REFCNT, LARC, TinyLFU admission; LRU/FIFO/CLOCK victims and
    destage; exact memory plan for every policy."""
    out = run_unit("cache", "20000")
    assert "cache: ok" in out
    assert "p=0.10 K=3" in out and "p=0.05 K=3" in out
    print(out)


@pytest.mark.parametrize("seed,extra", [
    (21, ["cache_policy=always"]),
    (22, ["cache_policy=procache", "procache_c_bytes=16384"]),
    (23, ["cache_policy=procache", "procache_p_vector=1",
          "procache_p_class0_ppm=300000", "cache_replacement=clock"]),
    # REFCNT's rule before issue 32 (a page enters on its 2nd write here):
    # under Algorithm 3 at threshold 2 this run fills no cache (seed 32).
    (24, ["cache_policy=refcnt", "cache_replacement=fifo",
          "refcnt_count_first=1"]),
    (25, ["cache_policy=larc", "larc_ghost_pages=2000"]),
    (26, ["cache_policy=tinylfu", "cache_replacement=clock"]),
    # A tiny cache: nearly every admission destages; 512-byte blocks (RMW).
    (27, ["cache_policy=always", "cache_pages=40", "logical_block_bytes=512",
          "gc_pages_per_write=1"]),
    # PLC on its CLOCK ring; a read cache too (fills); GCLOCK under ProCache.
    (28, ["cache_policy=plc", "cache_replacement=gclock",
          "plc_access_threshold=1"]),
    (29, ["cache_policy=plc", "cache_replacement=gclock",
          "cache_read_allocate=1", "plc_access_threshold=0", "plc_delay=3"]),
    (30, ["cache_policy=always", "cache_read_allocate=1",
          "cache_replacement=gclock"]),
    # ProCache's hit per page (the reading before issue 32); REFCNT as
    # Algorithm 3 at threshold 1 (a page enters on its 2nd write).
    (31, ["cache_policy=procache", "procache_c_bytes=16384",
          "procache_hit_per_page=1"]),
    (32, ["cache_policy=refcnt", "cache_replacement=fifo",
          "refcnt_threshold=1"]),
])
def test_model_with_write_cache(seed: int, extra: list[str]) -> None:
    """The write cache layer at >= 92% utilisation: data verified, the
    cached pages are the SLC region's valid pages after every request,
    pages are destaged and both regions erase blocks."""
    out = run_unit("model", "--seed", str(seed), "--ops", "30000",
                   "--util", "92", *SMALL_GEOMETRY, "slc_blocks_per_chip=8",
                   *extra)
    assert "cache " in out and "model:" in out


def test_cache_dedup_aware_and_read_cache() -> None:
    """The dedup layer's references reach the cache; PLC's filter, delayed
    eviction and in-out comparison (by access count and by references);
    RCE over LRU sparing shared pages until their references fall by more
    than half; read allocation fills misses after the read; exact memory
    plan; bad keys refused."""
    assert "cache_dedup: ok" in run_unit("cache_dedup")


def test_snapshot_round_trip_and_refusals() -> None:
    """A device aged past GC saved and loaded: same counters and data, the
    same bytes when saved again, the same completion times and counters
    for 6000 more requests on both, and the same state (saved bytes)
    every 1000 of them; so with the write cache under every replacement
    and admission policy and with dedup (buffer on, limited store, filter
    on and off, over a cache).  Truncated, corrupted, other-version and
    inconsistent (valid checksums: refcounts, maps outside the geometry,
    a slot twice, a looping free list, a cached page not in SLC) files
    refused with nothing left; data beyond the memory limit refused
    before anything is allocated."""
    assert "snapshot: ok" in run_unit("snapshot")


def test_sha1_fips_vectors() -> None:
    """The userspace SHA-1 (OpenSSL's libcrypto through the platform's
    ssd_sha1_digest()) gives the FIPS 180 digests of "abc", the empty
    message, the 448-bit message and a million 'a', and a zero page's;
    the module checks the same vectors against the kernel's crypto API
    (a "sha1" crypto_shash) when it loads."""
    assert "sha1: ok" in run_unit("dedup", "sha1")


def test_dedup_layer() -> None:
    """Duplicates share a chunk and program nothing; refcounts, overwrite
    and TRIM; the write buffer; the sampling filter over the buffered
    writes (Kim's, the default: a copy of a flushed page is written again,
    two copies in the buffer are one chunk, every page reads back) and
    over the live chunks too, with late fingerprints; the LRU store;
    engine time on the write path; the data cap with buffered writes;
    over the write cache, overwrites of unshared pages keep their chunk id
    (as many write hits as without dedup) while duplicates and overwrites
    of shared chunks change it; the memory plan; a wrong refcount
    found."""
    assert "dedup: ok" in run_unit("dedup")


def test_cache_background_destage() -> None:
    """With idle gaps the cache is written back from the high watermark
    to the low one before the next command, no write destages in the
    foreground and none is delayed, while with the key off the same
    writes destage in the foreground; a burst on busy chips destages
    nothing in the background and equals the run with the key off, to
    the counter and the nanosecond; the same requests give the same
    results; cache TRIMs are counted; bad watermarks are refused."""
    out = run_unit("destage")
    assert "destage: ok" in out
    print(out)


def test_dedup_engines() -> None:
    """One engine gives the serial engine's times computed by hand; N
    engines at depth give about N x the throughput when hashing is the
    bottleneck; at QD1 more engines change no completion time; overlap
    with the write buffer takes the hash off the write path and changes
    no counter but the times; break-even and engine load by hand."""
    out = run_unit("dedup_engines")
    assert "dedup_engines: ok" in out
    print(out)


DEDUP = [*SMALL_GEOMETRY, "dedup=1"]


@pytest.mark.parametrize("seed,extra", [
    (21, ["dedup_filter=1", "dedup_filter_live_chunks=1"]),
    (22, ["dedup_filter=0"]),
    # Kim's filter (the default): buffered writes' samples only.
    (26, ["dedup_filter=1", "dedup_filter_live_chunks=0"]),
    # The recency store: fingerprints evicted, chunks stay.
    (23, ["dedup_store_entries=16", "dedup_buffer_pages=8"]),
    # No buffer: each write decided as it arrives.
    (24, ["dedup_buffer_pages=0", "gc_pages_per_write=0",
          "dedup_filter_live_chunks=1"]),
    # 512-byte host blocks: most writes are partial pages (RMW through
    # the buffer and shared chunks).
    (25, ["logical_block_bytes=512", "gc_policy=cost_benefit"]),
])
def test_model_with_dedup(seed: int, extra: list[str]) -> None:
    """Heavy duplicate content (40% of whole pages from a pool of 32),
    overwrites and TRIM at 95% utilisation: every read matches, the dedup
    check (refcount = referencing lpns) holds every 1000 operations,
    shared chunks survive GC, every write is programmed, avoided or still
    buffered."""
    out = run_unit("model", "--seed", str(seed), "--ops", "50000",
                   "--util", "95", "--dup-percent", "40", *DEDUP, *extra)
    assert "dedup:" in out and "model:" in out
    dup = int(out.split("duplicates=")[1].split()[0])
    assert dup > 0
    print(out)


@pytest.mark.parametrize("seed,policy,extra", [
    (31, "always", []), (32, "procache", []),
    # Dedup-aware: PLC and RCE see the references dedup reports.
    (35, "plc", ["cache_replacement=gclock", "plc_access_threshold=1"]),
    (36, "always", ["cache_rce=1"]),
    (37, "plc", ["cache_rce=1", "cache_read_allocate=1",
                 "plc_access_threshold=0"]),
])
def test_model_with_dedup_over_cache(seed: int, policy: str,
                                     extra: list[str]) -> None:
    """Dedup above the write cache, both on, at 92% utilisation with 40%
    duplicate pages: data verified, the cache's pages are the SLC region's
    valid pages, its decisions cover exactly the writes dedup let through,
    both regions run GC."""
    out = run_unit("model", "--seed", str(seed), "--ops", "40000",
                   "--util", "92", "--dup-percent", "40", *SMALL_GEOMETRY,
                   "slc_blocks_per_chip=8", "dedup=1",
                   f"cache_policy={policy}", *extra)
    assert "dedup:" in out and f"cache {policy}" in out and "model:" in out
    # Overwrites of unshared pages keep their chunk id: the cache sees them.
    assert cache_counts(out, policy)["hits"] > 0


def cache_counts(out: str, policy: str) -> dict[str, str]:
    """The fields of the model's `cache POLICY:` line."""
    line = next(ln for ln in out.splitlines()
                if ln.startswith(f"cache {policy}:"))
    fields = dict(f.split("=", 1) for f in line.split()[2:])
    return {k: (int(v) if v.isdigit() else v) for k, v in fields.items()}


def test_procache_below_dedup_judges_hits_per_page() -> None:
    """Below dedup the cache sees no request's pages whole (dedup writes
    them under chunk ids, request_pages 0): ProCache's default judges
    hits per page there, as procache_hit_per_page=1 does."""
    args = ["model", "--seed", "34", "--ops", "30000", "--util", "92",
            *SMALL_GEOMETRY, "slc_blocks_per_chip=8", "dedup=1",
            "dedup_buffer_pages=0", "cache_policy=procache",
            "procache_c_bytes=16384"]
    whole = cache_counts(run_unit(*args), "procache")
    assert whole["hits"] > 0
    assert cache_counts(run_unit(*args, "procache_hit_per_page=1"),
                        "procache") == whole


@pytest.mark.parametrize("seed,extra", [
    (33, ["cache_policy=always"]),
    # ProCache's hits per page: the cache below dedup sees no request's
    # pages whole (chunk ids), so it judges per page under either key.
    (34, ["cache_policy=procache", "procache_c_bytes=16384",
          "procache_hit_per_page=1"]),
])
def test_dedup_without_duplicates_is_transparent_to_cache(
        seed: int, extra: list[str]) -> None:
    """With no duplicate data and no write buffer, dedup only renames
    pages: an overwrite keeps its page's chunk id and the cache below sees
    each host request (ProCache's size threshold and die roll), so it
    makes the same decisions as without dedup: the same write hits,
    admissions, bypasses, evictions and erases, and the same GC."""
    args = ["model", "--seed", str(seed), "--ops", "30000", "--util", "92",
            *SMALL_GEOMETRY, "slc_blocks_per_chip=8", *extra]
    plain = run_unit(*args, "dedup=0")
    dedup = run_unit(*args, "dedup=1", "dedup_buffer_pages=0")
    policy = extra[0].split("=")[1]
    counts = cache_counts(plain, policy)
    assert counts["hits"] > 0
    assert cache_counts(dedup, policy) == counts
    model_line = next(ln for ln in plain.splitlines()
                      if ln.startswith("model:"))
    assert model_line in dedup.splitlines()


@pytest.mark.parametrize("seed,extra", [
    (35, ["cache_policy=always", "cache_replacement=arc"]),
    (36, ["cache_policy=always", "cache_replacement=sieve"]),
    (37, ["cache_policy=always", "cache_replacement=s3fifo"]),
    # Admission that refuses the victim the policy chose: victim() again.
    (38, ["cache_policy=tinylfu", "cache_replacement=arc", "cache_pages=40"]),
    (39, ["cache_policy=tinylfu", "cache_replacement=sieve",
          "cache_pages=40"]),
    (40, ["cache_policy=procache", "cache_replacement=s3fifo",
          "cache_pages=40", "cache_s3fifo_small_percent=30",
          "cache_s3fifo_move_hits=1"]),
    # CDAC-ARC: RCE over ARC, requeueing shared pages in T1 and T2.
    (41, ["cache_policy=always", "cache_replacement=arc", "cache_rce=1"]),
    (42, ["cache_policy=plc", "cache_replacement=arc", "cache_rce=1",
          "cache_read_allocate=1", "plc_access_threshold=0"]),
])
def test_model_with_dedup_over_new_replacements(seed: int,
                                                extra: list[str]) -> None:
    """ARC, SIEVE and S3-FIFO under dedup at 92% utilisation with 40%
    duplicate pages, TRIMs and reads: data verified, the cache's pages are
    the SLC region's valid pages after every request, and the policy's
    lists agree with the directory (its check, every 1000 operations)."""
    out = run_unit("model", "--seed", str(seed), "--ops", "40000",
                   "--util", "92", "--dup-percent", "40", *SMALL_GEOMETRY,
                   "slc_blocks_per_chip=8", "dedup=1", *extra)
    policy = extra[0].split("=")[1]
    assert "dedup:" in out and f"cache {policy}" in out and "model:" in out
    counts = cache_counts(out, policy)
    assert counts["hits"] > 0 and counts["evicted"] > 0


def test_static_wear_levelling() -> None:
    """A hot/cold workload with and without wl_static_threshold: cold
    blocks migrate, the erase-count spread and its reported standard
    deviation shrink, every page reads back; under page and dftl."""
    out = run_unit("wear")
    assert "wear: ok" in out
    print(out)


def test_faults_wear() -> None:
    """Bad blocks and wear-out: factory bad blocks (rate and list) never
    used and kept by a snapshot; grown failures retire blocks with
    ssd_ftl_check() after each, a device written until read-only reads
    back every acknowledged page and refuses writes and TRIMs; the keys
    at 0 change no counter."""
    out = run_unit("faults_wear")
    assert "faults_wear: ok" in out
    print(out)


def test_dftl_against_the_page_ftl() -> None:
    """ftl_type=dftl: a CMT as large as the logical space gives every
    statistic of the page FTL (to the nanosecond) plus only the CMT's
    compulsory misses; a small CMT misses, reads and writes translation
    pages (cause map, exactly the flash's map counters) and collects
    translation blocks; a larger one misses and writes less; data and
    invariants checked throughout."""
    out = run_unit("dftl")
    assert "dftl: ok" in out
    print(out)


DFTL_GEOMETRY = ["pages_per_block=16", "blocks_per_chip=32", "chips=4",
                 "channels=2", "op_percent=20"]


@pytest.mark.parametrize("seed,extra", [
    (51, ["dftl_cmt_entries=32"]),
    (52, ["dftl_cmt_entries=8", "gc_pages_per_write=0"]),
    (53, ["dftl_cmt_entries=16", "gc_pages_per_write=1",
          "gc_policy=cost_benefit", "logical_block_bytes=512",
          "wl_static_threshold=3"]),
    (54, ["dftl_cmt_entries=24", "gc_background_free_blocks=20"]),
    # Pages in both regions (a routing layer), the SLC region page-mapped.
    (55, ["dftl_cmt_entries=24", "slc_blocks_per_chip=6",
          "wl_static_threshold=2", "--cache-percent", "30"]),
    # The write cache and dedup above DFTL, TRIM and GC at high utilisation.
    (56, ["dftl_cmt_entries=32", "slc_blocks_per_chip=8",
          "cache_policy=always", "dedup=1", "--dup-percent", "20"]),
    (57, ["dftl_cmt_entries=16", "slc_blocks_per_chip=8",
          "cache_policy=procache", "dedup=1", "dedup_store_entries=64",
          "wl_static_threshold=3", "--dup-percent", "30"]),
])
def test_model_dftl(seed: int, extra: list[str]) -> None:
    """The shadow-copy model over ftl_type=dftl at >= 92% utilisation:
    every read and the FTL's mapping checked, ssd_ftl_check() (with
    DFTL's CMT, GTD and translation blocks) after every GC step."""
    out = run_unit("model", "--seed", str(seed), "--ops", "40000",
                   "--util", "92", *DFTL_GEOMETRY, "ftl_type=dftl", *extra)
    assert "model:" in out
    print(out)


@pytest.mark.parametrize("seed,extra", [
    (61, ["wl_static_threshold=2"]),
    (62, ["wl_static_threshold=1", "gc_pages_per_write=0"]),
    (63, ["wl_static_threshold=2", "slc_blocks_per_chip=6",
          "--cache-percent", "30"]),
])
def test_model_static_wear_levelling(seed: int, extra: list[str]) -> None:
    """The page FTL with static wear levelling under the model: cold
    blocks migrate through GC's bounds and invariants, data intact."""
    out = run_unit("model", "--seed", str(seed), "--ops", "40000",
                   "--util", "92", *SMALL_GEOMETRY, *extra)
    assert "model:" in out
    print(out)


def test_block_mapped_merge_counts() -> None:
    """Hand-made sequences on ftl_type block, bast and fast with known
    merges: a sequential rewrite is one switch merge, a reclaimed
    sequential prefix a partial merge, one random page per logical block
    one full merge per reclaim (bast), a reclaimed RW block fully merges
    every logical block in it (fast), an update below the write pointer
    rewrites the block (block); the flash counters agree, merges are on
    the write's path, data reads back; static wear levelling shrinks the
    erase-count spread of a hot/cold workload; random overwrites blow the
    log-block merges up (WAF page < fast < bast, block) while sequential
    rewrites are switch merges copying nothing; too few spare blocks for
    the log blocks are refused."""
    out = run_unit("merges")
    assert "merges: ok" in out
    print(out)


LOG_TYPES = ["block", "bast", "fast"]


@pytest.mark.parametrize("ftl_type", LOG_TYPES)
@pytest.mark.parametrize("seed,extra", [
    (51, []),
    # 512-byte host blocks (RMW), few log blocks, static wear levelling.
    (52, ["logical_block_bytes=512", "wl_static_threshold=3"]),
    (53, ["gc_policy=cost_benefit", "ftl_log_blocks=3"]),
])
def test_model_block_mapped(ftl_type: str, seed: int,
                            extra: list[str]) -> None:
    """The block-mapped FTLs at >= 92% utilisation with overwrites, TRIMs,
    write-zeroes and reads: every read matches the shadow copy, the FTL
    check (block map, log tables, data-block offsets) holds after every
    write that merged, programs and erases add up with the merges'
    (ftl_log_blocks is bast's and fast's: block ignores it)."""
    out = run_unit("model", "--seed", str(seed), "--ops", "20000",
                   "--util", "92", *SMALL_GEOMETRY, f"ftl_type={ftl_type}",
                   *extra)
    assert f"merges {ftl_type}:" in out and "model:" in out
    print(out)


@pytest.mark.parametrize("ftl_type", LOG_TYPES)
@pytest.mark.parametrize("seed,extra", [
    (54, ["--cache-percent", "30", "slc_blocks_per_chip=6"]),
    (55, ["slc_blocks_per_chip=8", "cache_policy=procache"]),
    (56, ["slc_blocks_per_chip=8", "cache_policy=always",
          "--dup-percent", "40", "dedup=1"]),
    (57, ["--dup-percent", "40", "dedup=1", "wl_static_threshold=4"]),
])
def test_model_block_mapped_with_cache_and_dedup(
        ftl_type: str, seed: int, extra: list[str]) -> None:
    """The block-mapped FTLs under the SLC region (still page-mapped),
    the write cache (ProCache, always) and dedup: data verified, the
    cache's pages are the SLC region's valid pages, both regions erase
    blocks (SLC by GC, TLC by merges)."""
    out = run_unit("model", "--seed", str(seed), "--ops", "20000",
                   "--util", "92", *SMALL_GEOMETRY, f"ftl_type={ftl_type}",
                   *extra)
    assert f"merges {ftl_type}:" in out and "model:" in out
    print(out)


def test_read_errors_and_injection() -> None:
    """Read errors (issue 24): the same fault_seed gives the same outcomes;
    RBER and the uncorrectable rate grow with wear and retention; retries
    cost chip time; an uncorrectable page fails exactly its bytes and the
    data stays; injected sector ranges fail reads from the first injected
    sector and writes whole, and are added, removed, cleared and refused;
    with faults off nothing changes."""
    out = run_unit("rber")
    assert "rber: ok" in out


def test_power_cuts_and_volatile_write_cache() -> None:
    """volatile_write_cache=1: a cut loses exactly the pages written since
    the last FLUSH/FUA (a cache larger than them) and says how many; with a
    small cache, with and without dedup's buffer below, random writes, FUA
    writes, flushes, TRIMs and many cuts: flushed pages survive, a lost
    page reads a version it had since the flush (or zeros with dedup), the
    check (ssd_dedup_check too) passes, a cut device refuses requests, and
    a snapshot after a cut loads.  volatile_write_cache=0 loses nothing."""
    assert "power: ok" in run_unit("power")
