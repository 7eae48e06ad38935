"""`ssdctl stats` (grouped, --raw) and `ssdctl watch` in a VM.

tests/vm/guest/stats_watch.sh writes the same 4 MiB to a plain device
and to one with an SLC cache and dedup; here the grouped output is checked
against what each device has on (groups of layers that are off left out)
and `watch --since` against the write made after the saved reading.
The wear group's erase-count histogram is checked against the --raw
fields: 16 rows of the reported bucket width, the same block counts,
summing to total_blocks, bars scaled to the fullest bucket.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FILES = {"/lib.sh": str(HERE / "guest" / "lib.sh")}
MIB = 1024 * 1024


def _block(output: str, kind: str, tag: str) -> str:
    t = re.escape(tag)
    m = re.search(rf"^{kind}-BEGIN {t}\n(.*?)^{kind}-END {t}$", output,
                  re.S | re.M)
    assert m, f"no {kind} block {tag}"
    return m.group(1)


def _headings(text: str) -> list[str]:
    return [line.split(" (")[0] for line in text.splitlines()
            if line and not line.startswith(" ")]


def _row(text: str, key: str) -> str:
    m = re.search(rf"^  {re.escape(key)} +(.*)$", text, re.M)
    assert m, f"no row {key!r} in\n{text}"
    return m.group(1)


def _check_histogram(grouped: str, raw: str) -> None:
    fields = {m.group(1): int(m.group(2))
              for m in re.finditer(r"^(\w+) +(\d+)$", raw, re.M)}
    width = fields["erase_hist_bucket_width"]
    buckets = [fields[f"erase_hist_{i}"] for i in range(16)]
    assert width == (fields["erase_count_max"] + 16) // 16
    assert sum(buckets) == fields["total_blocks"] > 0
    assert re.match(rf"16 buckets of {width} erases?, ",
                    _row(grouped, "erase-count histogram"))
    rows = re.findall(r"^    +(\d+)(?:-(\d+))? +(\d+) \|(#*)$", grouped, re.M)
    assert len(rows) == 16, grouped
    fullest = max(buckets)
    for i, (lo, hi, count, bar) in enumerate(rows):
        assert int(lo) == i * width
        assert int(hi or lo) == i * width + width - 1
        assert int(count) == buckets[i]
        assert len(bar) == -(-buckets[i] * 40 // fullest)
    assert "spread 0..max" not in grouped


def test_stats_grouped_and_watch(vm: Any, kver: str) -> None:
    res = vm.run((HERE / "guest" / "stats_watch.sh").read_text(), kver,
                 files=FILES, timeout_s=600)
    out = res.output
    assert "stats_watch ok" in out
    devs = re.findall(r"^GROUPED-BEGIN (\S+)$", out, re.M)
    assert len(devs) == 2
    plain, both = (_block(out, "GROUPED", d) for d in devs)
    print(both)
    base = ["device", "host", "flash", "GC", "wear"]
    assert _headings(plain) == base + ["timing", "RAM"]
    assert _headings(both) == base + ["cache", "dedup", "timing", "RAM"]
    for text in (plain, both):
        assert _row(text, "written").startswith("4.0 MiB (")
    for dev, text in zip(devs, (plain, both)):
        _check_histogram(text, _block(out, "RAW", dev))
    # The region table only where there is an SLC region.
    assert "SLC (cache)" not in plain and "SLC (cache)" in both
    # The second 2 MiB repeat the first: dedup found duplicates.
    dup = re.match(r"(\S+) % \((\d+) of (\d+)", _row(both, "duplicates found"))
    assert dup and int(dup.group(2)) > 0

    since = _block(out, "WATCH", "since")
    assert re.search(r"^  host_write_bytes +\+4194304 ", since, re.M), since
    assert "host wrote 4.00 MiB" in since
    idle = _block(out, "WATCH", "idle")
    assert len(re.findall(r"^--- \S+ report \d+: ", idle, re.M)) == 2
    assert len(re.findall(r"^refused watch ", out, re.M)) == 8
