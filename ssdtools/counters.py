"""What is made of the table of counters outside C.

Owns reading the one table of counters, SSDEMU_STATS_COUNTERS (and its
groups, SSDEMU_STATS_GROUPS) in include/ssdemu_ioctl.h, and writing the
files made of it that the C preprocessor cannot make: the core's list of
the counters it fills (common/ssd_stats.h, between markers: the core may
not include the ABI), the counter reference docs/counters.md, and the
vendor page's table in docs/nvme.md (between markers).

    python3 -m ssdtools.counters           rewrite them (make counters)
    python3 -m ssdtools.counters --check   say which differ, exit 1 if any

tests/style/test_counters.py runs the check, so the files never drift
from the table.
"""
from __future__ import annotations

import argparse
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from ssdtools.paths import ROOT

HEADER = Path("include/ssdemu_ioctl.h")
CORE_HEADER = Path("common/ssd_stats.h")
COUNTERS_DOC = Path("docs/counters.md")
NVME_DOC = Path("docs/nvme.md")
NVME_GLUE = Path("emulator/ssdemu_nvme.c")

GENERATED = "Generated from include/ssdemu_ioctl.h by `make counters`: " \
    "do not edit."
CORE_BEGIN = f"/* {GENERATED} */"
CORE_END = "/* End of the generated list. */"
NVME_BEGIN = f"<!-- {GENERATED} -->"
NVME_END = "<!-- End of the generated table. -->"


class TableError(Exception):
    """The table in the header does not parse."""


@dataclass(frozen=True)
class Counter:
    """One row of SSDEMU_STATS_COUNTERS."""
    name: str
    unit: str
    group: str
    version: int
    source: str       # "core" or "glue"
    vendor: int       # field of the NVMe vendor page, 0: none
    help: str


@dataclass(frozen=True)
class Table:
    """The groups (name, title) in their order and the counters in theirs."""
    groups: list[tuple[str, str]]
    counters: list[Counter]
    stats_version: int


def _macro_body(text: str, name: str) -> str:
    """The body of `#define name(...)`, continuation lines joined, comments
    dropped."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.match(rf"#define {name}\(\w+\)", line):
            body = []
            while True:
                body.append(lines[i].rstrip("\\").strip())
                if not lines[i].rstrip().endswith("\\"):
                    break
                i += 1
            joined = " ".join(body)
            joined = joined.split(")", 1)[1]      # after "#define NAME(X)"
            return re.sub(r"/\*.*?\*/", " ", joined)
    raise TableError(f"{HEADER}: no #define {name}")


def _strings(text: str) -> str:
    """Adjacent C string literals (no escapes) as one string."""
    parts = re.findall(r'"([^"\\]*)"', text)
    if re.sub(r'"[^"\\]*"', "", text).strip():
        raise TableError(f"not string literals: {text}")
    return "".join(parts)


ROW = re.compile(r'X\(\s*(\w+)\s*,\s*("[^"\\]*")\s*,\s*(\w+)\s*,\s*(\d+)\s*,'
                 r'\s*(core|glue)\s*,\s*(\d+)\s*,\s*((?:"[^"\\]*"\s*)+)\)')
GROUP = re.compile(r'G\(\s*(\w+)\s*,\s*((?:"[^"\\]*"\s*)+)\)')


def parse(text: str) -> Table:
    """The table of the header's @text; TableError if a row does not parse."""
    body = _macro_body(text, "SSDEMU_STATS_COUNTERS")
    rows = ROW.findall(body)
    if len(rows) != body.count("X("):
        raise TableError(f"{HEADER}: {body.count('X(')} rows, "
                         f"{len(rows)} parse")
    counters = [Counter(name, _strings(unit), group, int(version), source,
                        int(vendor), _strings(help_))
                for name, unit, group, version, source, vendor, help_
                in rows]
    gbody = _macro_body(text, "SSDEMU_STATS_GROUPS")
    groups = [(g, _strings(title)) for g, title in GROUP.findall(gbody)]
    if len(groups) != gbody.count("G("):
        raise TableError(f"{HEADER}: a group does not parse")
    m = re.search(r"#define SSDEMU_STATS_VERSION\s+(\d+)", text)
    if not m:
        raise TableError(f"{HEADER}: no SSDEMU_STATS_VERSION")
    return Table(groups, counters, int(m.group(1)))


def read_table(root: Path = ROOT) -> Table:
    return parse((root / HEADER).read_text())


def _tab_to(text: str, column: int) -> str:
    """@text padded with tabs to @column (tab stops of 8)."""
    width = len(text.expandtabs(8))
    return text + "\t" * max(1, (column - width + 7) // 8)


def core_fields(table: Table) -> str:
    """SSD_STATS_FIELDS: the counters the core fills, in the table's
    order."""
    lines = [CORE_BEGIN, "#define SSD_STATS_FIELDS(X)"]
    lines += [f"\tX({c.name})" for c in table.counters if c.source == "core"]
    body = [_tab_to(line, 48) + "\\" for line in lines[1:-1]] + [lines[-1]]
    return "\n".join([lines[0], *body, CORE_END])


def _between(text: str, begin: str, end: str, new: str, where: Path) -> str:
    """@text with what lies from @begin to @end (both lines included)
    replaced by @new."""
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise TableError(f"{where}: the markers of the generated part are "
                         "missing")
    return text[:start] + new + text[stop + len(end):]


def _vendor_layout(root: Path) -> int:
    m = re.search(r"#define SSDEMU_NVME_VENDOR_LAYOUT\s+(\d+)",
                  (root / NVME_GLUE).read_text())
    if not m:
        raise TableError(f"{NVME_GLUE}: no SSDEMU_NVME_VENDOR_LAYOUT")
    return int(m.group(1))


def vendor_table(table: Table, layout: int) -> str:
    """docs/nvme.md's table of the vendor page: its own three fields, then
    the counters by their field number."""
    fields = sorted((c.vendor, c.name) for c in table.counters if c.vendor)
    rows = ["| field | byte | name |", "| --- | --- | --- |",
            f"| 0 | 0 | layout ({layout}) |",
            f"| 1 | 8 | fields after this one ({len(fields) + 1}) |",
            "| 2 | 16 | waf_milli: flash_program_pages x 1000 / "
            "host_write_pages (0 before the first write) |"]
    rows += [f"| {n} | {8 * n} | {name} |" for n, name in fields]
    return "\n".join([NVME_BEGIN, *rows, NVME_END])


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def counters_doc(table: Table) -> str:
    """docs/counters.md: every counter by group."""
    intro = [
        "Every counter of the device, by the group `ssdctl stats` shows it "
        "in. The table is `SSDEMU_STATS_COUNTERS` in `include/ssdemu_ioctl.h` "
        f"(the ioctl ABI, stats version {table.stats_version}); this page, "
        "the ABI struct, the core's struct, `ssdctl stats` (`--raw`, "
        "`--json`), ssdsim's `--verbose`, `--json` and `--fields`, and the "
        "NVMe vendor page ([`nvme.md`](nvme.md)) are made of it. A "
        "counter's unit is in its name; \"pages\" are flash pages of "
        "`page_size_bytes`. *version* is the stats version that added it "
        "(a tool reading an older module does not show it); *0xC0* its "
        "field in the NVMe vendor page. Counters marked *kernel* are the "
        "kernel glue's (timer completions), 0 in ssdsim.",
        "Derived figures (`waf`, `waf_tlc`, `erase_count_mean`, "
        "`read_latency_mean_us`, `write_latency_mean_us`, `dedup_ratio`) "
        "are computed by the tools from these, each by one function "
        "(`tools/report/stats_derived.h`).",
        "Adding a counter: one row at the end of the table, with the next "
        "version (`SSDEMU_STATS_VERSION` raised to it), the code that "
        "counts it, then `make counters` (this page and the core's list "
        "in `common/ssd_stats.h`).",
    ]
    out = ["# Counters", "",
           "<!-- Generated from include/ssdemu_ioctl.h by `make counters` "
           "(ssdtools/counters.py): do not edit; edit the table. -->"]
    for paragraph in intro:
        out += ["", textwrap.fill(paragraph, 78, break_on_hyphens=False)]
    for group, title in table.groups:
        rows = [c for c in table.counters if c.group == group]
        out += ["", f"## {title}", "",
                "| counter | unit | version | 0xC0 | meaning |",
                "| --- | --- | --- | --- | --- |"]
        for c in rows:
            meaning = _cell(c.help)
            if c.source == "glue":
                meaning = f"*kernel:* {meaning}"
            out.append(f"| `{c.name}` | {_cell(c.unit)} | {c.version} | "
                       f"{c.vendor or ''} | {meaning} |")
    return "\n".join(out) + "\n"


def generated(root: Path = ROOT) -> dict[Path, str]:
    """Each generated file's contents as the table makes it."""
    table = read_table(root)
    core = (root / CORE_HEADER).read_text()
    nvme = (root / NVME_DOC).read_text()
    return {
        CORE_HEADER: _between(core, CORE_BEGIN, CORE_END, core_fields(table),
                              CORE_HEADER),
        COUNTERS_DOC: counters_doc(table),
        NVME_DOC: _between(nvme, NVME_BEGIN, NVME_END,
                           vendor_table(table, _vendor_layout(root)),
                           NVME_DOC),
    }


def stale(root: Path = ROOT) -> list[Path]:
    """The generated files that differ from what the table makes."""
    return [path for path, text in generated(root).items()
            if not (root / path).exists()
            or (root / path).read_text() != text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only say which generated files differ")
    args = parser.parse_args(argv)
    try:
        files = generated()
    except TableError as err:
        print(f"counters: {err}", file=sys.stderr)
        return 1
    if args.check:
        bad = stale()
        for path in bad:
            print(f"counters: {path} differs from the table; run "
                  "`make counters`", file=sys.stderr)
        return 1 if bad else 0
    for path, text in files.items():
        target = ROOT / path
        if not target.exists() or target.read_text() != text:
            target.write_text(text)
            print(f"counters: wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
