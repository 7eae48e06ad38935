"""ssdsim --remap dense keeps a trace's locality (issue 33, item 3): it
packs erase blocks by default, so a block-mapped FTL (bast) sees the
trace's own layout inside each logical block; page units only on
request, warned about when they feed a block-mapped FTL.  And
--completions writes one line per host request even when the remap
splits one in pieces (issue 33, item 11)."""
from __future__ import annotations

import json
from pathlib import Path

from asan_ssdsim import SMALL, TRACES, ssdsim

HOMES = TRACES / "fiu-homes-sample.blkparse"
TPCC = TRACES / "mqsim-tpcc-small.trace"
# bench/ftl_types.py's device: 64-page (256 KiB) erase blocks.
DEVICE = ["chips=4", "channels=2", "pages_per_block=64",
          "blocks_per_chip=40", "slc_blocks_per_chip=0", "op_percent=15",
          "timing=1"]
ERASE_BLOCK = 64 * 4096
LOCALITY_WARNING = "scattered, so merges and WAF are the remap's"


def run(*args: str) -> tuple[dict, str]:
    """--json stats (with --check) and stderr of a run on the device."""
    proc = ssdsim("--json", "--check", "--config", str(SMALL), *DEVICE,
                  *args)
    return json.loads(proc.stdout), proc.stderr


def test_dense_remap_packs_erase_blocks_by_default() -> None:
    """On a block-mapped FTL the default remap is the erase-block one:
    the same WAF, merges and footprint as --remap-unit erase-block and as
    the erase block's bytes given, and not the page unit's, which packs
    pages first touched one after the other side by side."""
    flags = ["ftl_type=bast", "--warmup", "2", "--remap", "dense"]
    default, err = run(*flags, str(HOMES))
    named, _ = run(*flags, "--remap-unit", "erase-block", str(HOMES))
    sized, _ = run(*flags, "--remap-unit", str(ERASE_BLOCK), str(HOMES))
    page, page_err = run(*flags, "--remap-unit", "page", str(HOMES))
    assert default["remap"]["unit"] == "erase-block"
    assert default["remap"]["unit_bytes"] == ERASE_BLOCK
    assert sized["remap"]["unit"] == "bytes"
    assert page["remap"]["unit"] == "page"
    assert page["remap"]["unit_bytes"] == 4096
    keep = ("flash_program_pages", "ftl_full_merges", "ftl_partial_merges",
            "flash_program_merge_pages", "valid_pages")
    for other in (named, sized):
        assert other["waf"] == default["waf"]
        assert other["remap"]["footprint_bytes"] == \
            default["remap"]["footprint_bytes"]
        assert all(other[k] == default[k] for k in keep)
    assert page["waf"] != default["waf"]
    assert page["flash_program_merge_pages"] != \
        default["flash_program_merge_pages"]
    # Whole erase blocks: the footprint is a multiple of one, and larger
    # than the touched pages packed one by one.
    assert default["remap"]["footprint_bytes"] % ERASE_BLOCK == 0
    assert default["remap"]["footprint_bytes"] > \
        page["remap"]["footprint_bytes"]
    assert LOCALITY_WARNING not in err
    assert LOCALITY_WARNING in page_err


def test_page_unit_warned_about_only_under_a_block_mapped_ftl() -> None:
    """The warning names the unit, the FTL's and the type; a page FTL
    (and DFTL) map page by page, so page units are nothing to warn
    about there."""
    for ftl_type in ("block", "bast", "fast"):
        _, err = run(f"ftl_type={ftl_type}", "--remap", "dense",
                     "--remap-unit", "page", str(HOMES))
        assert LOCALITY_WARNING in err, ftl_type
        assert f"ftl_type={ftl_type}" in err
        assert f"maps {ERASE_BLOCK} bytes at a time" in err
    # A unit between the page and the erase block scatters too.
    _, err = run("ftl_type=bast", "--remap", "dense", "--remap-unit",
                 "16KiB", str(HOMES))
    assert LOCALITY_WARNING in err
    for ftl_type in ("page", "dftl"):
        _, err = run(f"ftl_type={ftl_type}", "--remap", "dense",
                     "--remap-unit", "page", str(HOMES))
        assert LOCALITY_WARNING not in err, ftl_type


def test_completions_one_line_per_request_when_split(
        tmp_path: Path) -> None:
    """TPC-C in page units splits requests whose pages were first touched
    apart; --completions still has one line per request: the first
    piece's offset, the request's whole (block-aligned) length, its
    arrival, and the completion of its last piece, never before it."""
    done = tmp_path / "done.log"
    out, _ = run("blocks_per_chip=118", "--remap", "dense",
                 "--remap-unit", "page", "--completions", str(done),
                 str(TPCC))
    assert out["remap"]["split_requests"] > 0
    lines = [line.split() for line in done.read_text().splitlines()]
    assert len(lines) == out["trace"]["requests"]
    sizes = []
    for line in TPCC.read_text().splitlines():
        _, _, lba, sectors, _ = (int(x) for x in line.split())
        first, end = lba * 512 // 4096, -(-(lba + sectors) * 512 // 4096)
        sizes.append((end - first) * 4096)
    assert [int(f[3]) for f in lines] == sizes
    assert all(int(f[4]) > int(f[0]) for f in lines)
    assert sum(sizes) == (out["host_write_pages"]
                          + out["host_read_pages"]) * 4096
