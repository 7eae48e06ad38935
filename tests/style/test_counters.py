"""The table of counters (SSDEMU_STATS_COUNTERS, include/ssdemu_ioctl.h):
what is generated from it is current (ssdtools/counters.py, `make
counters`), its rows keep their rules (appended in version order, groups
and NVMe vendor fields as the tools and the page need them), and struct
ssdemu_stats, made of it, stays binary compatible with the ABI released
(stats_abi.txt)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from ssdtools import counters

ROOT = Path(__file__).resolve().parents[2]
RELEASED = Path(__file__).resolve().parent / "stats_abi.txt"


def test_generated_files_are_current() -> None:
    stale = counters.stale()
    assert not stale, f"{', '.join(map(str, stale))} drifted from the " \
        "table: run `make counters`"


def test_a_changed_table_is_caught(tmp_path: Path) -> None:
    """A row added to the table (in a copy of the tree) leaves each
    generated file stale until it is regenerated."""
    for path in (counters.HEADER, counters.CORE_HEADER, counters.COUNTERS_DOC,
                 counters.NVME_DOC, counters.NVME_GLUE):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / path, tmp_path / path)
    assert counters.stale(tmp_path) == []
    header = tmp_path / counters.HEADER
    text = header.read_text()
    last = '"FUA writes, on flash before they completed")'
    assert text.count(last) == 1
    header.write_text(text.replace(
        last, last + '\t\\\n\tX(new_pages, "pages", host, 11, core, 41, '
        '"a new counter")'))
    assert set(counters.stale(tmp_path)) == {
        counters.CORE_HEADER, counters.COUNTERS_DOC, counters.NVME_DOC}
    for path, text in counters.generated(tmp_path).items():
        (tmp_path / path).write_text(text)
    assert counters.stale(tmp_path) == []
    assert "X(new_pages)" in (tmp_path / counters.CORE_HEADER).read_text()


def test_rows_keep_the_rules() -> None:
    table = counters.read_table()
    rows = table.counters
    names = [c.name for c in rows]
    assert len(set(names)) == len(names)
    versions = [c.version for c in rows]
    assert versions == sorted(versions), "a row appended out of order"
    assert 1 <= versions[0] and versions[-1] == table.stats_version
    groups = [g for g, _ in table.groups]
    assert len(set(groups)) == len(groups)
    for c in rows:
        assert c.group in groups, c.name
        assert c.unit and c.help and "\n" not in c.help, c.name
    for g in groups:
        assert any(c.group == g for c in rows), f"group {g} is empty"
    # The vendor page: its own fields 0-2, then one counter a field, no
    # hole, within its 512 bytes.
    fields = sorted(c.vendor for c in rows if c.vendor)
    assert fields == list(range(3, 3 + len(fields)))
    assert fields[-1] < 512 // 8


def _layout(names: list[str],
            tmp_path: Path) -> tuple[list[tuple[str, int, int]], int]:
    """(field, offset, size) of @names in struct ssdemu_stats as the
    compiler lays it out from the header, and the struct's size."""
    src = tmp_path / "layout.c"
    lines = ['#include <stddef.h>', '#include <stdio.h>',
             '#include "include/ssdemu_ioctl.h"',
             '#define SZ(f) sizeof(((struct ssdemu_stats *)0)->f)',
             'int main(void)', '{',
             '\tprintf("%zu\\n", sizeof(struct ssdemu_stats));']
    lines += [f'\tprintf("{n} %zu %zu\\n", offsetof(struct ssdemu_stats, {n}),'
              f' SZ({n}));' for n in names]
    lines += ['\treturn 0;', '}']
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "layout"
    build = subprocess.run(["cc", "-std=gnu11", "-Wall", "-Werror",
                            f"-I{ROOT}", str(src), "-o", str(exe)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    out = subprocess.run([str(exe)], capture_output=True, text=True,
                         check=True).stdout.split()
    fields = [(out[i], int(out[i + 1]), int(out[i + 2]))
              for i in range(1, len(out), 3)]
    return fields, int(out[0])


def test_abi_is_the_released_one(tmp_path: Path) -> None:
    """Every field of the released struct where it was, the size it was;
    what the table added since lies after it, at a later version, and
    the struct is its fields."""
    released = [(n, int(o), int(s)) for n, o, s in
                (line.split() for line in RELEASED.read_text().splitlines()
                 if line and not line.startswith("#"))]
    table = counters.read_table()
    names = ["version", "struct_bytes"] + [c.name for c in table.counters]
    now, size = _layout(names, tmp_path)
    assert now[:len(released)] == released
    assert size == now[-1][1] + now[-1][2]
    assert all(o == prev_o + prev_s for (_, o, _), (_, prev_o, prev_s)
               in zip(now[1:], now))
    added = table.counters[len(released) - 2:]
    last_released = table.counters[len(released) - 3].version
    assert all(c.version > last_released for c in added)
