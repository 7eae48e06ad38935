"""The SLC write cache in ssdsim: the off-line bound (Belady with bypass)
on hand-made traces, reads as next uses (the paper's Table 1) or not, the
bound above every online policy on the repository's traces, warm-up
passes, seeds, and which bypass counters each policy may move."""
from __future__ import annotations

from pathlib import Path

import pytest

from asan_ssdsim import TRACES, checked_stats, ssdsim

CACHE = ["slc_blocks_per_chip=8"]
POLICIES = ["always", "procache", "refcnt", "larc", "tinylfu"]
BYPASS = ["cache_bypass_size_pages", "cache_bypass_dice_pages",
          "cache_bypass_policy_pages"]


def run(*args: str) -> dict:
    return checked_stats(*args, timeout=600)


def abc_trace(tmp_path: Path, rounds: int) -> Path:
    """A, B, C written in turn (4 KiB each, MQSim format: 8 sectors)."""
    lines = []
    for i in range(3 * rounds):
        lines.append(f"{i * 1000} 0 {(i % 3) * 8} 8 0")
    path = tmp_path / "abc.trace"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_belady_with_bypass_hand_made(tmp_path: Path) -> None:
    """ABCABCABC through 2 pages: the optimum keeps A and B and bypasses
    C: 4 hits of 9 cold, 6 of 9 once warm; LRU always-admit gets none."""
    trace = str(abc_trace(tmp_path, 3))
    cold = run(*CACHE, "cache_policy=always", "cache_pages=2", "--belady",
               trace)
    assert cold["belady"]["write_hit_pages"] == 4
    assert cold["belady"]["write_pages"] == 9
    assert cold["cache_write_hit_pages"] == 0
    assert cold["cache_evict_pages"] == 7
    warm = run(*CACHE, "cache_policy=always", "cache_pages=2", "--warmup", "2",
               "--belady", trace)
    assert warm["belady"]["write_hit_pages"] == 6
    assert warm["host_write_pages"] == 9     # the measured pass only


def mqsim_trace(tmp_path: Path, name: str, ops: str) -> Path:
    """@ops as "WA RB ...": 4 KiB writes (W) and reads (R) of pages A, B,
    ... in turn (MQSim format: 8 sectors, type 0 write, 1 read)."""
    lines = [f"{i * 1000} 0 {(ord(op[1]) - ord('A')) * 8} 8 {op[0] == 'R':d}"
             for i, op in enumerate(ops.split())]
    path = tmp_path / f"{name}.trace"
    path.write_text("\n".join(lines) + "\n")
    return path


def belady_hits(trace: Path, *next_use: str) -> int:
    out = run(*CACHE, "cache_policy=always", "cache_pages=2", "--belady",
              *next_use, str(trace))
    return out["belady"]["write_hit_pages"]


def test_belady_reads_are_next_uses(tmp_path: Path) -> None:
    """The paper's next use is the next request of either kind (Table 1,
    procache-plos-one-2017.txt:207-213).  WA WB WC RA RB WC through 2
    pages: A and B are read before C is written again, so the default
    keeps them, bypasses C and hits no write; with next uses the next
    write only (the rule before issue 32) A and B are never used again,
    C replaces one and its rewrite hits."""
    trace = mqsim_trace(tmp_path, "reads", "WA WB WC RA RB WC")
    assert belady_hits(trace) == 0
    assert belady_hits(trace, "--belady-next-use", "any") == 0
    assert belady_hits(trace, "--belady-next-use", "write") == 1
    out = run(*CACHE, "cache_policy=always", "cache_pages=2", "--belady",
              str(trace))
    assert out["belady"]["write_pages"] == 4      # reads are not counted
    # An online LRU hits C's rewrite: this bound holds reads, not writes.
    assert out["cache_write_hit_pages"] == 1


def test_belady_read_miss_does_not_enter(tmp_path: Path) -> None:
    """"read miss; cache is NOT updated" (procache-plos-one-2017.txt:213):
    WA WC RB WB through 2 pages: B's read misses and leaves A and C
    cached, so B's write, never used again, is bypassed: no write hit
    under either rule (a read miss that entered would make it a hit)."""
    trace = mqsim_trace(tmp_path, "miss", "WA WC RB WB")
    assert belady_hits(trace) == 0
    assert belady_hits(trace, "--belady-next-use", "write") == 0


def test_belady_next_use_needs_belady(tmp_path: Path) -> None:
    trace = mqsim_trace(tmp_path, "w", "WA")
    for args in (["--belady-next-use", "write"],
                 ["--belady", "--belady-next-use", "reads"]):
        proc = ssdsim(*CACHE, *args, str(trace), check=False)
        assert proc.returncode == 1, args
        assert "--belady-next-use" in proc.stderr


@pytest.mark.parametrize("trace", ["fiu-homes-sample.blkparse",
                                   "mqsim-tpcc-small.trace"])
def test_belady_bounds_every_policy(trace: str) -> None:
    """No online policy beats the off-line bound, with or without warm-up."""
    for policy in POLICIES:
        for warmup in ("0", "1"):
            out = run(*CACHE, f"cache_policy={policy}", "cache_pages=32",
                      "--warmup", warmup, "--belady", str(TRACES / trace))
            assert out["belady"]["capacity_pages"] == 32
            assert out["belady"]["write_pages"] == out["host_write_pages"]
            assert (out["cache_write_hit_pages"]
                    <= out["belady"]["write_hit_pages"]), (policy, warmup)


def test_bypasses_only_where_a_policy_bypasses() -> None:
    trace = str(TRACES / "fiu-homes-sample.blkparse")
    base = ["cache_pages=32", *CACHE]
    always = run(*base, "cache_policy=always", trace)
    assert all(always[k] == 0 for k in BYPASS)
    assert always["cache_evict_pages"] > 0
    assert always["flash_program_destage_pages"] == always["cache_evict_pages"]
    tpcc = str(TRACES / "mqsim-tpcc-small.trace")     # mixed request sizes
    pro = run(*base, "cache_policy=procache", "procache_c_bytes=16384", tpcc)
    assert pro["cache_bypass_size_pages"] > 0
    assert pro["cache_bypass_dice_pages"] > 0
    assert pro["cache_bypass_policy_pages"] == 0
    for policy in ("refcnt", "larc", "tinylfu"):
        out = run(*base, f"cache_policy={policy}", trace)
        assert out["cache_bypass_policy_pages"] > 0, policy
        assert out["cache_bypass_size_pages"] == 0, policy
        assert out["cache_bypass_dice_pages"] == 0, policy
    off = run(trace)
    assert off["cache_capacity_pages"] == 0
    assert all(off[k] == 0 for k in BYPASS + ["cache_admit_pages"])
    for out in (always, pro):
        assert (out["flash_program_tlc_pages"] + out["flash_program_slc_pages"]
                == out["flash_program_pages"])
        assert out["cache_pages"] == out["slc_valid_pages"]


def test_seed_decides_procache() -> None:
    trace = str(TRACES / "mqsim-tpcc-small.trace")
    args = [*CACHE, "cache_policy=procache", "cache_pages=64"]
    a = run(*args, "seed=5", trace)
    b = run(*args, "seed=5", trace)
    c = run(*args, "seed=6", trace)
    keys = ["cache_admit_pages", "cache_write_hit_pages", "flash_erase_blocks",
            "virtual_time_ns"]
    assert [a[k] for k in keys] == [b[k] for k in keys]
    assert a["cache_admit_pages"] != c["cache_admit_pages"]
