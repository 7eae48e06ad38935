"""bench/procache_figs.py's computations on a short run (the ASan ssdsim):
what must hold by construction.

- BASE with LRU on the synthetic trace: the hit ratio never falls as the
  cache grows (LRU is a stack algorithm and the trace has no TRIM, so a
  smaller cache's pages are always in a larger one's).
- The off-line figure (Belady's MIN with bypass over the same page
  writes and cache size) is at least every on-line policy's, ProCache at
  warm-up 1 included.
- The size classes the figures split hits by are the device's, under
  both readings of Algorithm 1's cut-off (size <= c may enter, the
  default; size >= c bypasses): with p = 0 nothing is admitted, so the
  device's size bypasses are exactly the pages the module counts for the
  requests too large (TPC-C with --remap dense, whose 2 KiB-misaligned
  requests are split and widened), and the small requests' hit ratio lies
  in [0, 1].
"""
from __future__ import annotations

from pathlib import Path

from asan_ssdsim import SSDSIM, TRACES, ssdsim
from bench import procache_figs as pf
from ssdtools.procache_device import C_BYTES, P_PPM

REQUESTS = 1500
SIZES = [64, 128, 256, 512]


def synthetic(tmp_path: Path) -> tuple[Path, pf.Trace, dict[str, int]]:
    ssdsim("--list-keys")  # fails the test if the ASan build is missing
    path = tmp_path / "synthetic.trace"
    pf.synthetic_trace(path, REQUESTS)
    t = pf.Trace(pf.SYNTHETIC, 256, SIZES, ())
    classes = pf.page_classes(pf.write_pieces(path, False), C_BYTES)
    return path, t, classes


def test_base_lru_hit_ratio_monotone_in_cache_size(tmp_path: Path) -> None:
    path, t, classes = synthetic(tmp_path)
    assert all(op == "W" for op, *_ in pf.requests(path))  # no TRIM
    rows = [pf.hit_ratios(pf.replay(SSDSIM, path, t, pf.base_keys(n), 1),
                          classes, False) for n in SIZES]
    hits = [r["hit_all"] for r in rows]
    assert hits == sorted(hits), hits
    assert hits[-1] > hits[0]  # the trace reuses pages beyond 64
    for r in rows:
        assert r["offline_all"] >= r["hit_all"]
        assert r["hit_small"] is None  # BASE has no size rule to split by


def test_offline_bounds_online_procache(tmp_path: Path) -> None:
    path, t, classes = synthetic(tmp_path)
    for n in SIZES:
        keys = pf.procache_keys(n, P_PPM, C_BYTES)
        r = pf.hit_ratios(pf.replay(SSDSIM, path, t, keys, 1), classes)
        assert r["offline_all"] >= r["hit_all"] > 0
        assert 0 <= r["hit_small"] <= 1
        assert r["large_hit_pages"] >= 0


def test_size_classes_are_the_devices() -> None:
    t = pf.TRACES[1]
    assert t.name == "mqsim-tpcc-small.trace" and "dense" in t.flags
    path = TRACES / t.name
    pieces = pf.write_pieces(path, True)
    for inclusive in (True, False):
        for c in (4096, C_BYTES, 16384, pf.FIG_C_BYTES):
            classes = pf.page_classes(pieces, c, inclusive)
            out = pf.replay(SSDSIM, path, t, pf.procache_keys(
                t.cache_pages, p_ppm=0, c_bytes=c, inclusive=inclusive), 0)
            assert out["cache_bypass_size_pages"] == classes["large_pages"]
            assert out["host_write_pages"] == (classes["small_pages"]
                                               + classes["large_pages"])
        r = pf.hit_ratios(pf.replay(SSDSIM, path, t, pf.procache_keys(
            t.cache_pages, P_PPM, C_BYTES, inclusive), 1),
            pf.page_classes(pieces, C_BYTES, inclusive))
        assert 0 <= r["hit_small"] <= 1 and r["large_hit_pages"] >= 0
    # The readings differ on TPC-C's requests of exactly 8 KiB.
    assert pf.page_classes(pieces, C_BYTES, True) != pf.page_classes(
        pieces, C_BYTES, False)
