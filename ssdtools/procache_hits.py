"""The ProCache paper's hit ratios counted from ssdsim's statistics.

Owns the counting behind Figs 8/9 that the bench's figures
(bench/procache_figs.py, on its traces) and the workload's replay
(workload/replay.py, on the VM's requests) share: the device pages a
request covers, whether Algorithm 1 calls a request cold by its size, the
page writes of the requests it may admit (small) and of those it bypasses
for their size (large), and a replay's hit ratios: on-line, off-line
(Belady's MIN with bypass, `ssdsim --belady`) and the small requests'.

Algorithm 1's comparison symbol is lost in the paper's text; the default
reading (`inclusive`, Fig 8's "the same or less than the cut-off size")
lets a request of exactly c bytes enter, the other (`procache_c_inclusive=0`)
bypasses it too: both as nvmcache/admit_procache.c decides.  A page of a
large request is a hit or a size bypass, so its hits are its pages minus
`cache_bypass_size_pages`: the small requests' hits are the rest.  A
replay whose page writes differ from the classes counted is refused.
"""
from __future__ import annotations

from typing import Any

from ssdtools.procache_device import PAGE_BYTES


def pages_of(offset: int, length: int, page: int = PAGE_BYTES) -> int:
    """Device pages a request covers (a write covers every page it
    touches)."""
    return (offset + length + page - 1) // page - offset // page


def too_large(request_bytes: int, c_bytes: int, inclusive: bool) -> bool:
    """Whether Algorithm 1 calls a request cold by its size alone
    (nvmcache/admit_procache.c's rule; c = 0: no size rule)."""
    if not c_bytes:
        return False
    return request_bytes > c_bytes if inclusive else request_bytes >= c_bytes


def page_classes(pieces: list[tuple[int, int]], c_bytes: int,
                 inclusive: bool = True) -> dict[str, int]:
    """Page writes per pass of the requests Algorithm 1 may admit (small)
    and of those it bypasses for their size (large)."""
    small = large = 0
    for request_bytes, pages in pieces:
        if too_large(request_bytes, c_bytes, inclusive):
            large += pages
        else:
            small += pages
    return {"small_pages": small, "large_pages": large}


def hit_ratios(out: dict[str, Any], classes: dict[str, int],
               size_rule: bool = True) -> dict[str, Any]:
    """The figures of one replay: on-line and off-line hit ratios, and the
    small requests' (see the top) when the policy has the size rule
    (ProCache with c; else None: the counters cannot split its hits)."""
    total = classes["small_pages"] + classes["large_pages"]
    if out["host_write_pages"] != total:
        raise SystemExit(f"procache figs: {out['host_write_pages']} page"
                         f" writes replayed, {total} in the trace")
    hits = out["cache_write_hit_pages"]
    large_hits = classes["large_pages"] - out["cache_bypass_size_pages"]
    small_hits = hits - large_hits
    small = classes["small_pages"]
    if not size_rule:
        small_hits = large_hits = None
    return {"hit_all": hits / total if total else 0.0,
            "hit_small": (small_hits / small if small else 0.0)
            if small_hits is not None else None,
            "small_hit_pages": small_hits, "large_hit_pages": large_hits,
            "offline_all": out["belady"]["write_hit_ratio"],
            "hit_pages": hits, "write_pages": total,
            "tlc_programs": out["flash_program_tlc_pages"],
            "slc_programs": out["flash_program_slc_pages"],
            "erases": (out["flash_erase_tlc_blocks"]
                       + out["flash_erase_slc_blocks"])}
