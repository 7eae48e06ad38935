"""The host cache simulator (build/bin/cachesim, tools/cachesim/README.md):
each policy's rules on hand-made traces whose outcomes were worked out by
hand (in each test's docstring), plain LRU, FIFO, LFU and ARC against the
reference implementation (libCacheSim's Python bindings) on real traces,
and refusals of bad options.  The ASan/UBSan builds run (make unit)."""
from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any, Sequence

import pytest

from ssdtools import cachesim as cs
from lcs_reference import libcachesim
from ssdtools.paths import TRACES

CACHESIM = cs.CACHESIM_ASAN
TRACEGEN = cs.TRACEGEN_ASAN


def md5(label: str) -> str:
    return hashlib.md5(label.encode()).hexdigest()


def fiu(ops: Sequence[tuple[str, int, Sequence[str]]]) -> str:
    """FIU lines: (R|W, first 4 KiB page, content label per page)."""
    lines = []
    for i, (op, page, labels) in enumerate(ops):
        lines.append(f"{i * 1000} 1 t {page * 8} {len(labels) * 8} {op} 6 0 "
                     + "".join(md5(x) for x in labels))
    return "\n".join(lines) + "\n"


def sim(tmp_path: Path, text: str, *args: str) -> dict[str, Any]:
    """cachesim over a hand-made trace; its one run."""
    if not CACHESIM.exists():
        pytest.fail(f"{CACHESIM} missing: run 'make unit'")
    trace = tmp_path / "hand.trace"
    trace.write_text(text)
    runs = cs.run(trace, args, binary=CACHESIM, timeout=60)["runs"]
    assert len(runs) == 1
    run: dict[str, Any] = runs[0]
    return run


def reads(*accesses: tuple[int, str]) -> str:
    """One-page reads: (page, content label)."""
    return fiu([("R", page, [label]) for page, label in accesses])


# -- PLC-Cache (unit mode; --unit-kib 4: every chunk is its own unit) --

PAPER = ["--policy", "plc", "--unit-kib", "4", "--cache-blocks", "1"]
# The readings the first tests were worked out for: the slides' in-out
# form, inner priority 0, a hit setting the delay back, the hand passing a
# spared victim by.
PLC = [*PAPER, "--plc-inout-form", "slides", "--plc-priority-init", "zero",
       "--plc-delay-hit", "reset", "--plc-hand-passes", "on"]


def test_plc_popularity_filter(tmp_path: Path) -> None:
    """Threshold 2: the 1st and 2nd misses of A are filtered (count 1, 2
    not above 2), the 3rd enters (count 3), the 4th hits."""
    run = sim(tmp_path, reads((0, "a"), (0, "a"), (0, "a"), (0, "a")), *PLC,
              "--plc-threshold-accesses", "2", "--plc-delay", "1",
              "--plc-inout", "off")
    assert run["plc_filtered"] == 2
    assert run["read_hits"] == 1
    assert run["cache_write_bytes"] == 4096


def test_plc_delayed_eviction_abandons_a_replacement(tmp_path: Path) -> None:
    """Delay 2, one slot: A enters; B's first miss finds victim A, its
    delay goes 2 -> 1 (> 0): abandoned, B not cached; B's second miss:
    1 -> 0, A is replaced by B; B's third access hits."""
    run = sim(tmp_path, reads((0, "a"), (1, "b"), (1, "b"), (1, "b")), *PLC,
              "--plc-threshold-accesses", "0", "--plc-delay", "2",
              "--plc-inout", "off")
    assert run["plc_delayed"] == 1
    assert run["cache_write_bytes"] == 2 * 4096
    assert run["read_hits"] == 1
    assert run["evictions"] == 1


def test_plc_in_out_comparison_refuses(tmp_path: Path) -> None:
    """No delay, f = 1, equal reference counts (1): A is read 3 times
    (enters, 2 hits: access count 3); B replaces A only when its count
    exceeds 3: its 1st, 2nd and 3rd misses are refused, the 4th wins."""
    seq = reads((0, "a"), (0, "a"), (0, "a"), (9, "b"), (9, "b"), (9, "b"),
                (9, "b"), (9, "b"))
    run = sim(tmp_path, seq, *PLC, "--plc-threshold-accesses", "0",
              "--plc-delay", "0", "--plc-inout-factor", "1")
    assert run["plc_inout_refused"] == 3
    assert run["read_hits"] == 2 + 1
    assert run["cache_write_bytes"] == 2 * 4096


def test_plc_in_out_reference_count_admits(tmp_path: Path) -> None:
    """B's chunk lies at two separate addresses (reference count 2 > A's
    1), so B replaces the well-used A at its first miss after both were
    seen; with the in-out comparison off the same happens."""
    seq = reads((0, "a"), (0, "a"), (0, "a"), (20, "b"), (9, "b"))
    run = sim(tmp_path, seq, *PLC, "--plc-threshold-accesses", "0",
              "--plc-delay", "0")
    # (20, b): refs(b) = 1, count 1 <= 3: refused; (9, b): refs 2: enters
    assert run["plc_inout_refused"] == 1
    assert run["cache_write_bytes"] == 2 * 4096


def test_plc_in_out_comparison_in_the_papers_form(tmp_path: Path) -> None:
    """The paper's in-out rule: b replaces a if access(b) > f(access(a)) x
    threshold, f = access(a) / threshold within [1, 2].  Threshold 2, no
    delay, one slot: A is read 5 times (enters at its 3rd access, count
    5), so b needs more than min(max(5, 2), 4) = 4: B's 3rd and 4th
    accesses are refused, its 5th enters and its 6th hits.  The slides'
    form (m = 1) needs more than 5: three refusals, no hit of B."""
    seq = reads(*[(0, "a")] * 5, *[(9, "b")] * 6)
    args = [*PAPER, "--plc-access-threshold", "2", "--plc-delay", "0",
            "--plc-delay-hit", "keep", "--plc-priority-init", "zero"]
    paper = sim(tmp_path, seq, *args)
    assert (paper["plc_inout_refused"], paper["read_hits"]) == (2, 3)
    slides = sim(tmp_path, seq, *args, "--plc-inout-form", "slides")
    assert (slides["plc_inout_refused"], slides["read_hits"]) == (3, 2)


def test_plc_delay_count_rises_with_hits(tmp_path: Path) -> None:
    """The slides: delay_count +1 when hit.  Delay 1, threshold 0, one
    slot, in-out off: A enters and is hit twice (delay 3), so B's first
    two misses are delayed (3 -> 2 -> 1) and the third replaces A (1 ->
    0).  Kept as it was (1), the first miss replaces A."""
    seq = reads(*[(0, "a")] * 3, *[(9, "b")] * 4)
    args = [*PAPER, "--plc-access-threshold", "0", "--plc-delay", "1",
            "--plc-inout", "off"]
    plus = sim(tmp_path, seq, *args)
    assert (plus["plc_delayed"], plus["read_hits"]) == (2, 3)
    keep = sim(tmp_path, seq, *args, "--plc-delay-hit", "keep")
    assert (keep["plc_delayed"], keep["read_hits"]) == (0, 5)


def test_plc_hand_stays_on_a_spared_victim(tmp_path: Path) -> None:
    """The pseudo code's CLOCK_EVICT returns the container the pointer is
    on and a delayed eviction returns without moving it.  Two slots, delay
    2, threshold 0, in-out off, priorities 0: A and B enter; C's miss finds
    A (delay 2 -> 1: delayed), D's finds A again (1 -> 0) and replaces it.
    With the hand passing A by, D's miss finds B instead: delayed too."""
    seq = reads((1, "a"), (2, "b"), (3, "c"), (4, "d"))
    args = ["--policy", "plc", "--unit-kib", "4", "--cache-blocks", "2",
            "--plc-access-threshold", "0", "--plc-delay", "2",
            "--plc-inout", "off", "--plc-priority-init", "zero"]
    stays = sim(tmp_path, seq, *args)
    assert (stays["plc_delayed"], stays["evictions"]) == (1, 1)
    passes = sim(tmp_path, seq, *args, "--plc-hand-passes", "on")
    assert (passes["plc_delayed"], passes["evictions"]) == (2, 0)


def test_plc_option_names_are_the_device_keys(tmp_path: Path) -> None:
    """The knobs are named as the device's keys (plc_access_threshold,
    plc_inout_percent); the older spellings give the very same run, and a
    factor that is no whole percent is refused."""
    seq = reads((0, "a"), (0, "a"), (0, "a"), (9, "b"), (9, "b"), (9, "b"),
                (9, "b"), (9, "b"), (9, "b"), (9, "b"))
    new = sim(tmp_path, seq, *PLC, "--plc-access-threshold", "1",
              "--plc-delay", "0", "--plc-inout-percent", "150")
    old = sim(tmp_path, seq, *PLC, "--plc-threshold-accesses", "1",
              "--plc-delay", "0", "--plc-inout-factor", "1.5")
    assert new["plc_inout_refused"] > 0
    del new["seconds"], old["seconds"]
    assert new == old
    proc = cs.call(CACHESIM, [*PLC, "--plc-inout-factor", "1.234",
                              str(TRACES / "fiu-mail-sample.blkparse")])
    assert proc.returncode == 2
    assert "--plc-inout-factor 1.234" in proc.stderr


# -- CDAC (block mode) --

def test_rce_drops_an_address_whose_block_is_referenced_once(
        tmp_path: Path) -> None:
    """Two blocks, two addresses: the third content needs a block; the
    tail address (page 1, block a, referenced once) goes and frees it;
    page 2 then still hits."""
    run = sim(tmp_path, reads((1, "a"), (2, "b"), (3, "c"), (2, "b")),
              "--policy", "cdac-lru", "--bhi", "off", "--cache-blocks", "2",
              "--meta-entries", "2")
    assert run["rce_single_drops"] == 1
    assert run["rce_moves"] == 0
    assert run["read_hits"] == 1


def test_rce_moves_a_shared_address_then_drops_it_after_its_count_fell(
        tmp_path: Path) -> None:
    """Pages 1-5 hold x, page 6 y (two data blocks, six addresses).  Page
    7 (z) needs a block: pages 1-5 are at the tail in turn, x is shared
    (5): each is marked with 5 and moved; page 6 (y, once) goes.  Writes
    to pages 3, 4, 5 (invalidate) drop x to 2.  Page 8 (w) needs a block:
    page 1 is back at the tail, marked 5, now 2 (fell by 60% > 50%): it
    goes; page 2 (x now once) goes and frees x."""
    ops = [("R", p, ["x"]) for p in range(1, 6)]
    ops += [("R", 6, ["y"]), ("R", 7, ["z"])]
    ops += [("W", p, ["new"]) for p in (3, 4, 5)] + [("R", 8, ["w"])]
    run = sim(tmp_path, fiu(ops), "--policy", "cdac-lru", "--bhi", "off",
              "--cache-blocks", "2", "--meta-entries", "6",
              "--writes", "invalidate")
    assert run["rce_moves"] == 5
    assert run["rce_fall_drops"] == 1
    assert run["rce_single_drops"] == 2


# 16 KiB blocks.  Blocks 0 and 10 get the same four pages (writes, not
# cached under invalidate); pages 0 and 40 are read alone (one part of four
# each: a shared, cold block); blocks 20 and 30 are read whole; page 0 is
# read again.
SAME = ["p0", "p1", "p2", "p3"]
BHI_OPS = [("W", 0, SAME), ("W", 40, SAME), ("R", 0, ["p0"]),
           ("R", 40, ["p0"]), ("R", 80, ["q0", "q1", "q2", "q3"]),
           ("R", 120, ["s0", "s1", "s2", "s3"]), ("R", 0, ["p0"])]


def bhi_trace() -> str:
    """The trace of BHI_OPS."""
    return fiu(BHI_OPS)


BHI = ["--policy", "cdac-lru", "--block-kib", "16", "--cache-blocks", "2",
       "--meta-entries", "4", "--writes", "invalidate",
       "--bhi-stale-accesses", "0"]


# The readings cachesim's CDAC had before issue 32: BHI-cold addresses
# out at once and RCE on the hot ones, the bitmap never reset, a spared
# address's note renewed at each turn, the LRU address forced out after
# a scan that kept every one, and the flag at 4 x the metadata entries
# (off here, as these tests always had it).
REVERSE = ["--cdac-order", "reverse", "--bhi-reset", "never",
           "--rce-remark", "on", "--cdac-forced-drop", "on"]


def test_reverse_order_drops_a_cold_shared_block(tmp_path: Path) -> None:
    """Under the readings before issue 32: block 30 needs room: at the
    tail, block 0's content (shared by blocks 0 and 10, one part of four
    touched: cold) goes with both its addresses; the re-read of page 0
    misses."""
    run = sim(tmp_path, bhi_trace(), *BHI, *REVERSE)
    assert run["bhi_cold_drops"] == 2
    assert run["rce_moves"] == 0
    assert run["dedup_fills_saved"] == 1     # page 40: block 0's content
    assert run["read_hits"] == 0


def test_bhi_first_then_rce_keeps_a_cold_shared_block(
        tmp_path: Path) -> None:
    """The slides' order: block 30 needs room.  Addresses 0 and 10 (block
    0's content, cold: one part of four) go to RCE, which spares them
    (shared by two); address 20 (read whole) is hot: kept.  The scan has
    met every address: none goes, block 30 is not cached, and the re-read
    of page 0 hits."""
    run = sim(tmp_path, bhi_trace(), *BHI)
    assert run["bhi_cold_drops"] == 0
    assert run["rce_moves"] == 2
    assert run["bhi_hot_keeps"] == 1
    assert run["cdac_no_victim"] == 1
    assert run["rce_forced_drops"] == 0
    assert run["read_hits"] == 1


def test_cdac_forced_drop_takes_the_lru_address(tmp_path: Path) -> None:
    """--cdac-forced-drop on: after the scan kept every address, address 0
    (back at the LRU position) goes; address 10 then holds block 0's
    content alone (RCE: once, out) and frees it for block 30.  Page 0's
    re-read misses, and its block takes the room of address 20's (cold
    since its cycle began, once: out)."""
    run = sim(tmp_path, bhi_trace(), *BHI, "--cdac-forced-drop", "on")
    assert run["rce_forced_drops"] == 1
    assert run["rce_single_drops"] == 2
    assert run["cdac_no_victim"] == 0
    assert run["read_hits"] == 0


def test_bhi_hot_evict_takes_the_hot_address(tmp_path: Path) -> None:
    """--bhi-hot evict: RCE spares addresses 0 and 10; hot address 20
    goes, its block (nobody else's) is freed for block 30; page 0 hits."""
    run = sim(tmp_path, bhi_trace(), *BHI, "--bhi-hot", "evict")
    assert run["bhi_hot_drops"] == 1
    assert run["rce_moves"] == 2
    assert run["read_hits"] == 1


def test_bhi_bitmap_starts_anew_each_cycle(tmp_path: Path) -> None:
    """After the scan above, page 0's re-read touches one part of block
    0's content and block 160 (new content) needs room.  Address 10 is at
    the tail: cold, shared, spared again.  Address 20 was read whole in
    its last cycle but not since: with the bitmap reset it is cold, and
    RCE drops it (once) for block 160.  Never reset, it stays hot: kept,
    address 0 spared, and nothing goes again."""
    text = fiu(BHI_OPS + [("R", 160, ["t0", "t1", "t2", "t3"])])
    run = sim(tmp_path, text, *BHI)
    assert run["rce_single_drops"] == 1
    assert run["cdac_no_victim"] == 1
    never = sim(tmp_path, text, *BHI, "--bhi-reset", "never")
    assert never["rce_single_drops"] == 0
    assert never["bhi_hot_keeps"] == 2
    assert never["cdac_no_victim"] == 2


def test_rce_note_stays_from_the_first_spare(tmp_path: Path) -> None:
    """Pages 1-5 hold x, page 6 y, two data blocks.  Page 7 (z): pages
    1-5 are spared, noted 5, page 6 goes.  Page 5 is rewritten (x: 4),
    page 8 (w): pages 1-4 spared again (4 is not a fall of more than
    50%), page 7 goes.  Pages 4 and 3 rewritten (x: 2), page 9 (v): page
    1 at the tail.  Its note kept from its first spare (5), x fell by
    60%: it goes, then page 2 (x once) too.  With --rce-remark on its note
    was renewed to 4 (a fall of 50%, not more): spared, as page 2; page 8
    (w, once) goes."""
    ops = [("R", p, ["x"]) for p in range(1, 6)]
    ops += [("R", 6, ["y"]), ("R", 7, ["z"]), ("W", 5, ["n5"]),
            ("R", 8, ["w"]), ("W", 4, ["n4"]), ("W", 3, ["n3"]),
            ("R", 9, ["v"])]
    args = ["--policy", "cdac-lru", "--bhi", "off", "--cache-blocks", "2",
            "--meta-entries", "6", "--writes", "invalidate"]
    run = sim(tmp_path, fiu(ops), *args)
    assert run["rce_fall_drops"] == 1
    assert run["rce_single_drops"] == 3      # y, z, then page 2's x
    remark = sim(tmp_path, fiu(ops), *args, "--rce-remark", "on")
    assert remark["rce_fall_drops"] == 0
    assert remark["rce_single_drops"] == 3   # y, z, w
    assert remark["rce_moves"] == 11


def test_without_bhi_rce_keeps_the_shared_block(tmp_path: Path) -> None:
    """The same with BHI off: RCE moves the two addresses of the shared
    block and drops block 20 (referenced once); page 0 hits again."""
    run = sim(tmp_path, bhi_trace(), *BHI[:-2], "--bhi", "off")
    assert run["bhi_cold_drops"] == 0
    assert run["rce_moves"] == 2
    assert run["rce_single_drops"] == 1
    assert run["read_hits"] == 1


def test_darc_evicts_a_block_only_when_no_cached_address_points_to_it(
        tmp_path: Path) -> None:
    """Two data blocks: pages 1 and 2 hold x, page 3 y; page 4 (z) needs
    a block.  D-ARC demotes page 1 (x still referenced by page 2), then
    page 2, and only then evicts x: one block, two addresses.  D-LRU
    evicts x at once and leaves pages 1 and 2 pointing at nothing."""
    seq = reads((1, "x"), (2, "x"), (3, "y"), (4, "z"), (3, "y"))
    darc = sim(tmp_path, seq, "--policy", "d-arc", "--cache-blocks", "2",
               "--meta-entries", "4")
    assert darc["evictions"] == 1
    assert darc["meta_evictions"] == 2
    assert darc["read_hits"] == 1
    dlru = sim(tmp_path, seq, "--policy", "d-lru", "--cache-blocks", "2",
               "--meta-entries", "4")
    assert dlru["evictions"] == 1
    assert dlru["meta_evictions"] == 0
    assert dlru["dedup_fills_saved"] == 1


def test_arc_adapts(tmp_path: Path) -> None:
    """c = 2, keys 1 1 2 3 2 1 2 3 (worked by hand, libCacheSim's rules):
    1 hits into T2; 3 demotes 2 to B1; 2's ghost hit raises p to 1 and
    demotes 1 to B2; 1's ghost hit lowers p to 0 and demotes 3; 2 hits in
    T2; 3's ghost hit: 2 hits in all.  LRU gets 3."""
    seq = reads(*((k, f"c{k}") for k in (1, 1, 2, 3, 2, 1, 2, 3)))
    arc = sim(tmp_path, seq, "--policy", "arc", "--cache-blocks", "2")
    lru = sim(tmp_path, seq, "--policy", "lru", "--cache-blocks", "2")
    assert arc["read_hits"] == 2
    assert lru["read_hits"] == 3


def test_a_read_of_changed_content_misses(tmp_path: Path) -> None:
    """Page 1 written as a, read as b (the trace says the data changed):
    a miss that refreshes the copy, or, content-blind, a hit."""
    seq = fiu([("W", 1, ["a"]), ("R", 1, ["b"]), ("R", 1, ["b"])])
    run = sim(tmp_path, seq, "--policy", "lru", "--cache-blocks", "4")
    assert (run["read_hits"], run["stale_reads"]) == (1, 1)
    blind = sim(tmp_path, seq, "--policy", "lru", "--cache-blocks", "4",
                "--stale-reads", "hit")
    assert (blind["read_hits"], blind["stale_reads"]) == (2, 1)


@pytest.mark.parametrize("mode,hits,fill_write,fill_read", [
    ("through", 2, 2 * 4096, 0),       # both writes enter; the read hits
    ("update", 2, 4096, 0),            # page 2 bypasses; page 1 is updated
    ("invalidate", 0, 0, 4096),        # page 1 is dropped: its read misses
])
def test_write_modes(tmp_path: Path, mode: str, hits: int, fill_write: int,
                     fill_read: int) -> None:
    """Page 1 read (enters), page 1 written, page 2 written, page 1 read;
    hits count the write to page 1 and the last read."""
    seq = fiu([("R", 1, ["a"]), ("W", 1, ["b"]), ("W", 2, ["c"]),
               ("R", 1, ["b"])])
    run = sim(tmp_path, seq, "--policy", "lru", "--cache-blocks", "4",
              "--writes", mode)
    assert run["read_hits"] + run["write_hits"] == hits
    assert run["cache_write_bytes_write"] == fill_write
    assert run["cache_write_bytes_read_fill"] == 4096 + fill_read


def test_dedup_shares_one_block(tmp_path: Path) -> None:
    """Ten addresses with one content: D-LRU writes the cache once and
    the other nine misses find the block cached; LRU writes it ten
    times."""
    seq = reads(*((p, "same") for p in range(10)))
    dlru = sim(tmp_path, seq, "--policy", "d-lru", "--cache-blocks", "4")
    lru = sim(tmp_path, seq, "--policy", "lru", "--cache-blocks", "4")
    assert dlru["cache_write_bytes"] == 4096
    assert dlru["dedup_fills_saved"] == 9
    assert lru["cache_write_bytes"] == 10 * 4096


# -- plain policies against libCacheSim --

def block_keys(trace: Path, block_bytes: int) -> list[int]:
    """The block addresses cachesim's stream accesses, in order."""
    keys = []
    for line in trace.read_text().splitlines():
        f = line.split()
        if len(f) < 5:
            continue
        lba, sectors = (int(f[3]), int(f[4])) if not f[2].isdigit() \
            else (int(f[2]), int(f[3]))
        if sectors:
            first = lba * 512 // block_bytes
            last = (lba * 512 + sectors * 512 - 1) // block_bytes
            keys.extend(range(first, last + 1))
    return keys


@pytest.mark.parametrize("trace,kib", [
    ("fiu-homes-sample.blkparse", 4), ("mqsim-tpcc-small.trace", 4),
    ("mqsim-tpcc-small.trace", 16), ("synthetic", 8)])
def test_plain_policies_match_libcachesim(tmp_path: Path, trace: str,
                                          kib: int) -> None:
    lcs = libcachesim()
    path = TRACES / trace
    if trace == "synthetic":
        path = tmp_path / "blocks.trace"
        cs.generate("dedup-blocks", path, ["--requests", "20000",
                                           "--space-mib", "64"],
                    binary=TRACEGEN, timeout=60)
    keys = block_keys(path, kib * 1024)
    classes = {"lru": lcs.LRU, "fifo": lcs.FIFO, "lfu": lcs.LFU,
               "arc": lcs.ARC}
    for size in (8, 100, 1000):
        out = cs.run(path, ["--policy", "lru,fifo,lfu,arc", "--block-kib",
                            str(kib), "--cache-blocks", str(size),
                            "--stale-reads", "hit"],
                     binary=CACHESIM, timeout=120)
        for run in out["runs"]:
            ref = classes[run["policy"]](cache_size=size)
            req = lcs.Request()
            hits = 0
            for key in keys:
                req.obj_id = key
                req.obj_size = 1
                hits += ref.get(req)
            assert run["read_accesses"] + run["write_accesses"] == len(keys)
            assert run["read_hits"] + run["write_hits"] == hits, \
                (trace, kib, size, run["policy"])


# -- the Zipf file-read generator --

def zipf_counts(tmp_path: Path, seed: int, alpha: float,
                form: list[str], read_mib: int = 200) -> list[int]:
    out = tmp_path / f"zipf-{seed}.trace"
    cs.generate("zipf-files", out, ["--files", "200", "--file-min-kib", "4",
                                    "--file-max-kib", "4", "--alpha",
                                    str(alpha), "--read-mib", str(read_mib),
                                    "--no-store", "--seed", str(seed),
                                    *form],
                binary=TRACEGEN, timeout=60)
    counts: dict[int, int] = {}
    for line in out.read_text().splitlines():
        pid = int(line.split()[1])
        counts[pid] = counts.get(pid, 0) + 1
    return sorted(counts.values(), reverse=True)


def rank_slope(counts: list[int], ranks: int) -> float:
    """The least-squares slope of log(count) over log(rank), ranks
    1..@ranks."""
    xs = [math.log(r + 1) for r in range(ranks)]
    ys = [math.log(c) for c in counts[:ranks]]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(xs, ys))
            / sum((x - mx) ** 2 for x in xs))


def test_zipf_generator_rank_frequency(tmp_path: Path) -> None:
    """--zipf-form power: 51200 one-chunk reads over 200 files: the log-log
    rank-frequency slope over ranks 1-100 is -alpha within 0.05, and the
    seed fixes the trace."""
    for alpha in (0.47, 0.9):
        counts = zipf_counts(tmp_path, 7, alpha, ["--zipf-form", "power"])
        assert sum(counts) == 200 * 256
        slope = rank_slope(counts, 100)
        assert abs(slope + alpha) < 0.05, (alpha, slope)
    first = (tmp_path / "zipf-7.trace").read_bytes()
    zipf_counts(tmp_path, 7, 0.9, ["--zipf-form", "power"])
    assert (tmp_path / "zipf-7.trace").read_bytes() == first


def test_zipf_generator_paper_form(tmp_path: Path) -> None:
    """The default is the PLC-Cache paper's eq. (1), P(i) ~ 1 / i^(1+alpha):
    204800 one-chunk reads over 200 files, the slope over ranks 1-30 is
    -(1 + alpha) within 0.05; --zipf-form eq1 says the same."""
    for alpha in (0.2, 0.47, 0.9):
        counts = zipf_counts(tmp_path, 7, alpha, [], read_mib=800)
        assert sum(counts) == 200 * 1024
        slope = rank_slope(counts, 30)
        assert abs(slope + 1 + alpha) < 0.05, (alpha, slope)
    first = (tmp_path / "zipf-7.trace").read_bytes()
    zipf_counts(tmp_path, 7, 0.9, ["--zipf-form", "eq1"], read_mib=800)
    assert (tmp_path / "zipf-7.trace").read_bytes() == first


def test_zipf_generator_shares_chunks(tmp_path: Path) -> None:
    out = tmp_path / "files.trace"
    summary = cs.generate("zipf-files", out, ["--files", "300",
                                              "--dup-percent", "40",
                                              "--read-mib", "8"],
                          binary=TRACEGEN, timeout=60)
    assert 0.3 < summary["dup_share"] < 0.5
    census = cs.run(out, ["--census"], binary=CACHESIM)["trace"]
    assert census["unique_chunk_bytes"] == summary["unique_bytes"]
    assert census["write_pages"] * 4096 == summary["logical_bytes"]


# -- refusals --

@pytest.mark.parametrize("args,named", [
    (["--block-kib", "3"], "--block-kib 3"),
    (["--block-kib", "128"], "--block-kib 128"),
    (["--cache-percent", "-5"], "--cache-percent -5"),
    (["--cache-percent", "20", "--cache-mib", "4"], "--cache-mib"),
    (["--policy", "nope"], "--policy nope"),
    (["--policy", "plc,d-lru"], "--policy"),
    (["--policy", "plc", "--granularity", "block"], "--granularity block"),
    (["--policy", "d-arc", "--granularity", "unit"], "--granularity unit"),
    (["--writes", "around"], "--writes around"),
    (["--policy", "plc", "--writes", "through"], "--writes through"),
    (["--plc-inout-factor", "3"], "--plc-inout-factor 3"),
    (["--bhi-cold-percent", "0"], "--bhi-cold-percent 0"),
    (["--rce-drop-percent", "100"], "--rce-drop-percent 100"),
    (["--bhi", "maybe"], "--bhi maybe"),
    (["--stale-reads", "often"], "--stale-reads often"),
    (["--meta-per-block", "0"], "--meta-per-block 0"),
    (["--unit-kib", "6"], "--unit-kib 6"),
    ([], "cache size"),
])
def test_bad_options_are_refused(args: list[str], named: str) -> None:
    size = [] if any(a.startswith("--cache-") for a in args) or not args \
        else ["--cache-blocks", "4"]
    proc = cs.call(CACHESIM, [*args, *size,
                              str(TRACES / "fiu-mail-sample.blkparse")])
    assert proc.returncode == 2, proc.stderr
    assert named in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("args,named", [
    (["zipf-files", "--alpha", "-1"], "--alpha -1"),
    (["zipf-files", "--file-min-kib", "64", "--file-max-kib", "8"],
     "--file-max-kib 8"),
    (["zipf-files", "--request-kib", "6"], "--request-kib 6"),
    (["zipf-files", "--zipf-form", "zipf"], "--zipf-form zipf"),
    (["dedup-blocks", "--read-percent", "101"], "--read-percent 101"),
    (["dedup-blocks", "--bogus", "1"], "--bogus"),
])
def test_tracegen_refuses_bad_options(args: list[str], named: str) -> None:
    proc = cs.call(TRACEGEN, args)
    assert proc.returncode == 2
    assert named in proc.stderr
