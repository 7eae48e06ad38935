"""The folder contracts: which folder may include which, and which headers
of a folder the others may include.

SPEC below is the contract (docs/architecture.md draws it).  The build
enforces the same table, read from layers.mk: each folder compiles against
a view of the tree that holds only what it may include
(scripts/include-views.sh), so a wrong-way include does not compile.  These
tests hold layers.mk to SPEC, check every include of the tree against it,
show that each arrow a review once found would be caught if it came back,
and that the views turn a wrong include into a compile error.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# folder: the folders it may include besides itself.  The request path
# points down: device -> dedup -> nvmcache -> ftl -> flash; a layer sees
# common/ (the vocabulary and the layer interface) and nothing of the
# layers beside or above it.
SPEC_DEPS: dict[str, set[str]] = {
    "platform": set(),
    "include": set(),        # the user ABI: nothing of the core
    "common": {"platform"},
    "flash": {"common", "platform"},
    "ftl": {"flash", "common", "platform"},
    # The cache algorithms, written once for the write cache and cachesim.
    "cachealg": {"common", "platform"},
    "nvmcache": {"cachealg", "common", "platform"},
    "dedup": {"common", "platform"},
    "device": {"dedup", "nvmcache", "ftl", "flash", "common", "platform"},
    "abi": {"device", "include", "common", "platform"},
    "emulator": {"abi", "device", "include", "common", "platform"},
    # The core's userspace glue (the flat-buffer data iterator).
    "user": {"device", "common", "platform"},
    # The tools, a folder a unit: the trace readers and the reports see
    # no core; ssdsim is the one tool built on the core; ssdctl talks to
    # the kernel through the ABI; cachesim and tracegen are host-side,
    # cachesim running the core's cache algorithms (their header includes
    # the platform's).
    "tools/trace": {"include"},
    "tools/report": {"include"},
    "tools/ssdsim": {"tools/trace", "tools/report", "user", "abi", "device",
                     "include", "common", "platform"},
    "tools/ssdctl": {"tools/report", "include"},
    "tools/cachesim": {"tools/trace", "cachealg", "include", "platform"},
    "tools/tracegen": set(),
    # Benchmark-only programs.
    "bench": {"tools/report", "user", "device", "common", "platform"},
}

# folder: the headers the other folders may include (one per layer).
SPEC_PUBLIC: dict[str, set[str]] = {
    "platform": {"ssd_platform.h"},
    "include": {"ssdemu_ioctl.h"},
    "common": {"ssd_config.h", "ssd_layer.h", "ssd_pagepool.h", "ssd_rand.h",
               "ssd_snap.h", "ssd_stats.h"},
    "flash": {"flash.h"},
    "ftl": {"ftl.h"},
    "cachealg": {"cachealg.h"},
    "nvmcache": {"nvmcache.h"},
    "dedup": {"dedup.h"},
    "device": {"ssd_device.h"},
    "abi": {"ssd_abi.h"},
    "emulator": set(),
    "user": {"flat_iter.h"},
    "tools/trace": {"trace_reader.h", "trace_disks.h", "trace_input.h",
                    "hex_digit.h"},
    "tools/report": {"stats_print.h", "log_format.h", "conf_file.h"},
    "tools/ssdsim": {"ssdsim_api.h"},
    "tools/ssdctl": set(),
    "tools/cachesim": set(),
    "tools/tracegen": set(),
    "bench": set(),
}

# Folders that may include system headers (<...>): the platform shim, the
# ABI (<linux/types.h>), the kernel glue and the userspace tools.
SYSTEM_INCLUDES = {"platform", "include", "emulator", "user", "bench",
                   *(f for f in SPEC_DEPS if f.startswith("tools/"))}

# White-box tests may include any header of the core and the tools, but
# never the kernel glue.
TEST_DIRS = ("tests/unit", "tests/tools", "tests/fuzz", "tests/vm")

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]', re.M)


def layers_mk(path: Path) -> dict[str, list[str]]:
    """NAME := words of layers.mk, continuation lines joined."""
    text = path.read_text().replace("\\\n", " ")
    table = {}
    for line in text.splitlines():
        m = re.match(r"^([A-Za-z_/-]+)\s*:=\s*(.*)$", line)
        if m:
            table[m.group(1)] = m.group(2).split()
    return table


def includes(path: Path) -> list[tuple[str, str]]:
    """(kind, name) of each #include: kind '<' or '"'."""
    return INCLUDE_RE.findall(path.read_text())


def violations(root: Path, deps: dict[str, set[str]] = SPEC_DEPS,
               public: dict[str, set[str]] = SPEC_PUBLIC) -> list[str]:
    """Every include of the tree at @root that breaks the contract."""
    problems = []
    for folder in deps:
        for path in sorted((root / folder).glob("*.[ch]")):
            rel = path.relative_to(root)
            for kind, name in includes(path):
                close = ">" if kind == "<" else '"'
                where = f"{rel}: #include {kind}{name}{close}"
                if kind == "<":
                    if folder not in SYSTEM_INCLUDES:
                        problems.append(f"{where}: a system header")
                    continue
                target, _, header = name.rpartition("/")
                if target not in deps or ".." in name.split("/"):
                    problems.append(f"{where}: not written as folder/header")
                    continue
                if target == folder:
                    # A public header re-exports only what is public.
                    if path.name in public[folder] and \
                            header not in public[folder]:
                        problems.append(f"{where}: a public header includes "
                                        "a private one")
                    continue
                if target not in deps[folder]:
                    problems.append(f"{where}: {folder}/ may not include "
                                    f"{target}/")
                elif header not in public[target]:
                    problems.append(f"{where}: not a public header of "
                                    f"{target}/")
    for tests in TEST_DIRS:
        for path in sorted((root / tests).glob("*.[ch]")):
            for kind, name in includes(path):
                if kind != '"':
                    continue
                where = f"{path.relative_to(root)}: #include \"{name}\""
                if name.startswith("emulator/"):
                    problems.append(f"{where}: tests do not see the glue")
                elif tests == "tests/unit" and name.startswith("tools/"):
                    problems.append(f"{where}: the core's unit tests do not "
                                    "see the tools (tests/tools/ does)")
    return problems


def test_layers_mk_is_the_spec() -> None:
    """The build enforces exactly the table this test holds."""
    table = layers_mk(ROOT / "layers.mk")
    assert set(table["LAYER_FOLDERS"]) == set(SPEC_DEPS)
    for folder in SPEC_DEPS:
        assert set(table[f"LAYER_DEPS_{folder}"]) == SPEC_DEPS[folder], folder
        assert set(table[f"LAYER_PUBLIC_{folder}"]) == SPEC_PUBLIC[folder], \
            folder
        for header in SPEC_PUBLIC[folder]:
            assert (ROOT / folder / header).exists(), f"{folder}/{header}"


def test_spec_points_down() -> None:
    """No two folders may include each other, directly or round a loop."""
    def reaches(a: str, b: str, seen: set[str]) -> bool:
        for d in SPEC_DEPS[a]:
            if d == b or (d not in seen and reaches(d, b, seen | {d})):
                return True
        return False
    for folder in SPEC_DEPS:
        assert not reaches(folder, folder, {folder}), folder


def test_every_include_keeps_the_contract() -> None:
    problems = violations(ROOT)
    assert not problems, "\n".join(problems)


def test_core_folders_have_one_public_header() -> None:
    """Each layer of the request path is one header to the others."""
    for folder in ("flash", "ftl", "cachealg", "nvmcache", "dedup", "device"):
        assert len(SPEC_PUBLIC[folder]) == 1, folder


# The wrong-way arrows a review of the tree found (issue 17), each as the
# include it took: put back, the check must name it.
OLD_ARROWS = [
    ("include/ssdemu_ioctl.h", "common/ssd_stats.h"),      # ABI -> core
    ("include/ssdemu_ioctl.h", "device/ssd_device.h"),
    ("common/ssd_layer.h", "flash/flash.h"),               # interface -> flash
    ("nvmcache/nvmcache_layer.c", "ftl/ftl.h"),            # cache -> FTL
    ("nvmcache/nvmcache_layer.c", "ftl/ftl_internal.h"),
    ("ftl/ftl.h", "ftl/ftl_internal.h"),                   # internals exported
    ("emulator/ssdemu_blk.c", "device/ssd_device_internal.h"),
    ("emulator/ssdemu_blk.c", "flash/flash.h"),            # glue -> flash
    ("tools/ssdsim/ssdsim.c", "device/ssd_device_internal.h"),
    # The tools' units (issue 31): the core's unit tests linked the
    # tools; cachesim may read traces, not run ssdsim; the trace readers
    # and the reports know no core; ssdctl knows the ABI alone.
    ("tests/unit/unit.h", "tools/ssdsim/sim_latency.h"),
    ("tools/cachesim/cachesim.c", "tools/ssdsim/ssdsim_api.h"),
    ("tools/cachesim/cachesim.c", "common/ssd_config.h"),
    ("tools/trace/trace_reader.c", "device/ssd_device.h"),
    ("tools/report/stats_print.c", "common/ssd_stats.h"),
    ("tools/ssdctl/ssdctl.c", "device/ssd_device.h"),
    ("tools/ssdsim/ssdsim.c", "tools/trace/trace_fmt.h"),
    ("tools/tracegen/tracegen.c", "tools/trace/trace_reader.h"),
    ("dedup/dedup.c", "flash/flash.h"),                    # dedup -> flash
    ("dedup/dedup.c", "nvmcache/nvmcache.h"),              # a layer sideways
    ("ftl/ftl.c", "nvmcache/nvmcache.h"),                  # a layer upwards
    ("flash/flash.c", "ftl/ftl.h"),
    ("common/ssd_config.c", "device/ssd_device.h"),
    ("abi/ssd_abi.h", "device/request_log.h"),             # a private header
    # One implementation of each cache algorithm (issue 31): the
    # algorithms know neither the write cache nor the host simulator, and
    # these see only their public header.
    ("cachealg/repl_lru.c", "nvmcache/nvmcache_internal.h"),
    ("cachealg/admit_plc.c", "tools/cachesim/csim.h"),
    ("tools/cachesim/csim_plc.c", "cachealg/cachealg_internal.h"),
    ("nvmcache/nvmcache_layer.c", "cachealg/cachealg_internal.h"),
]


@pytest.mark.parametrize("path,header", OLD_ARROWS,
                         ids=[f"{p}->{h}" for p, h in OLD_ARROWS])
def test_an_old_arrow_put_back_is_caught(tmp_path: Path, path: str,
                                         header: str) -> None:
    for folder in SPEC_DEPS:
        shutil.copytree(ROOT / folder, tmp_path / folder)
    for tests in TEST_DIRS:
        shutil.copytree(ROOT / tests, tmp_path / tests)
    target = tmp_path / path
    text = target.read_text()
    first = INCLUDE_RE.search(text)
    cut = first.start() if first else 0
    target.write_text(text[:cut] + f'#include "{header}"\n' + text[cut:])
    problems = violations(tmp_path)
    assert any(p.startswith(f"{path}: #include \"{header}\"")
               for p in problems), problems


def test_the_views_make_a_wrong_include_a_compile_error(
        tmp_path: Path) -> None:
    """nvmcache/ sees common/'s public headers and nothing of the FTL."""
    views = tmp_path / "views"
    subprocess.run([str(ROOT / "scripts" / "include-views.sh"), str(ROOT),
                    str(views)], check=True)

    def compiles(body: str) -> subprocess.CompletedProcess[str]:
        src = tmp_path / "probe.c"
        src.write_text(body + "int probe;\n")
        return subprocess.run(["cc", "-std=gnu11", "-fsyntax-only",
                               f"-I{views / 'nvmcache'}", str(src)],
                              capture_output=True, text=True)

    good = compiles('#include "nvmcache/nvmcache_internal.h"\n'
                    '#include "common/ssd_layer.h"\n')
    assert good.returncode == 0, good.stderr
    for header in ("ftl/ftl.h", "flash/flash.h", "ftl/ftl_internal.h",
                   "device/ssd_device.h", "dedup/dedup_internal.h"):
        bad = compiles(f'#include "{header}"\n')
        assert bad.returncode != 0 and "No such file" in bad.stderr, header
