"""Targeted error injection in a VM (issue 24, docs/faults.md).

tests/vm/guest/inject.sh injects read errors on three spots of 8 MiB
written by fio: 4 KiB blocks 125 (sectors 1000-1007), 512 (sector 4097
alone) and 1500-1501 (sectors 12000-12015), and a write range on block
2000.  A dd of every block with noerror,sync must fail exactly those
four blocks (the kernel completes the bytes before the first failed
sector and fails the rest; with one block per I/O, that is the block);
fio --verify_only reports errors at those offsets only; the write range
fails writes and keeps the data; cleared, everything verifies.  The
counters and SMART media errors count the failed pages.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FILES = {"/lib.sh": str(HERE / "guest" / "lib.sh")}
READ_BLOCKS = [125, 512, 1500, 1501]


def _block(output: str, tag: str) -> str:
    m = re.search(rf"^{tag}-BEGIN\n(.*?)^{tag}-END$", output, re.S | re.M)
    assert m, f"no {tag} block in\n{output}"
    return m.group(1)


def _stats(output: str, tag: str) -> dict[str, Any]:
    m = re.search(rf"^STATS-BEGIN {tag}\n(.*?)^STATS-END {tag}$", output,
                  re.S | re.M)
    assert m, f"no stats {tag}"
    return json.loads(m.group(1))


def test_inject_errors_fail_exactly_the_injected_blocks(
        vm: Any, kver: str) -> None:
    res = vm.run((HERE / "guest" / "inject.sh").read_text(), kver,
                 files=FILES, timeout_s=900)
    out = res.output
    assert "inject ok" in out and "PRE ok" in out
    assert _block(out, "LIST").split("\n")[:4] == [
        "r 1000-1007", "r 4097-4097", "r 12000-12015", "w 16000-16007"]
    failed = [int(x) for x in _block(out, "FAILED").split()]
    print(f"dd noerror,sync: failed 4 KiB blocks {failed}")
    assert failed == READ_BLOCKS
    assert re.search(r"^DD-ERRORS 4$", out, re.M)
    # fio --verify_only --continue_on_error: the 4 blocks fail, every
    # other block reads and verifies (no verify error, 8 MiB less 16 KiB).
    fio = _block(out, "FIO")
    errors = re.search(r"errors +: total=(\d+), first_error=5/", fio)
    print("fio:", errors and errors.group(0),
          re.search(r"io=\d+KiB", fio).group(0))
    assert errors and int(errors.group(1)) == len(READ_BLOCKS), fio
    assert re.search(r"io=8176KiB", fio), fio
    assert "verify" not in fio.replace("--verify", ""), fio
    assert len(re.findall(r"^refused inject_errors=", out, re.M)) == 8
    st = _stats(out, "injected")
    assert st["injected_error_ranges"] == 4
    assert st["host_write_error_pages"] == 1
    # dd's 4 failed blocks and fio's 4.
    assert st["host_read_error_pages"] == 2 * len(READ_BLOCKS)
    assert st["read_uncorrectable_pages"] == 0
    # The failed requests are counted apart, in no latency (issue 33).
    assert st["read_failed_commands"] >= len(READ_BLOCKS)
    assert st["write_failed_commands"] >= 1
    assert st["failed_commands"] >= (st["read_failed_commands"]
                                     + st["write_failed_commands"])
    assert st["refused_commands"] == 0
    smart = json.loads(_block(out, "SMART"))
    assert int(smart["media_errors"]) == (st["host_read_error_pages"]
                                          + st["host_write_error_pages"])
    cleared = _stats(out, "cleared")
    assert cleared["injected_error_ranges"] == 0
    assert cleared["host_read_error_pages"] == st["host_read_error_pages"]
