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
# points down: device -> vwc -> dedup -> nvmcache -> ftl -> flash; a layer
# sees common/ (the vocabulary and the layer interface) and nothing of the
# layers beside or above it.
SPEC_DEPS: dict[str, set[str]] = {
    "platform": set(),
    "include": set(),        # the user ABI: nothing of the core
    "common": {"platform"},
    "flash": {"common", "platform"},
    "ftl": {"flash", "common", "platform"},
    "nvmcache": {"common", "platform"},
    "dedup": {"common", "platform"},
    "vwc": {"common", "platform"},
    "device": {"vwc", "dedup", "nvmcache", "ftl", "flash", "common",
               "platform"},
    "abi": {"device", "include", "common", "platform"},
    "emulator": {"abi", "device", "include", "common", "platform"},
    "host-tools": {"abi", "device", "include", "common", "platform"},
}

# folder: the headers the other folders may include (one per layer).
SPEC_PUBLIC: dict[str, set[str]] = {
    "platform": {"ssd_platform.h"},
    "include": {"ssdemu_ioctl.h"},
    "common": {"ssd_config.h", "ssd_layer.h", "ssd_pagepool.h", "ssd_rand.h",
               "ssd_snap.h", "ssd_stats.h"},
    "flash": {"flash.h"},
    "ftl": {"ftl.h"},
    "nvmcache": {"nvmcache.h"},
    "dedup": {"dedup.h"},
    "vwc": {"vwc.h"},
    "device": {"ssd_device.h"},
    "abi": {"ssd_abi.h"},
    "emulator": set(),
    "host-tools": set(),
}

# The front end owns the physical device, the flash: of a folder with
# device services it sees those headers in place of the public ones (what
# is not per page: building it, the clock, end of life, counters,
# snapshots), never the physical operations, which are the FTL's.  Every
# other folder that sees the public headers sees these too (a public
# header may include them).
FRONT_END = "device"
SPEC_SERVICES: dict[str, set[str]] = {
    "flash": {"flash_services.h"},
}


def visible(folder: str, target: str,
            public: dict[str, set[str]] = SPEC_PUBLIC) -> set[str]:
    """The headers of target/ that folder/ may include."""
    services = SPEC_SERVICES.get(target, set())
    if folder == FRONT_END and services:
        return set(services)
    return public[target] | services


# Folders that may include system headers (<...>): the platform shim, the
# ABI (<linux/types.h>), the kernel glue and the userspace tools.
SYSTEM_INCLUDES = {"platform", "include", "emulator", "host-tools"}

# White-box tests may include any header of the core and the tools, but
# never the kernel glue.
TEST_DIRS = ("tests/unit", "tests/fuzz", "tests/vm")

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]', re.M)


def layers_mk(path: Path) -> dict[str, list[str]]:
    """NAME := words of layers.mk, continuation lines joined."""
    text = path.read_text().replace("\\\n", " ")
    table = {}
    for line in text.splitlines():
        m = re.match(r"^([A-Za-z_-]+)\s*:=\s*(.*)$", line)
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
                parts = name.split("/")
                if len(parts) != 2 or ".." in parts:
                    problems.append(f"{where}: not written as folder/header")
                    continue
                target, header = parts
                if target == folder:
                    # A public header re-exports only what is public.
                    offered = public[folder] | SPEC_SERVICES.get(folder,
                                                                 set())
                    if path.name in offered and header not in offered:
                        problems.append(f"{where}: a public header includes "
                                        "a private one")
                    continue
                if target not in deps[folder]:
                    problems.append(f"{where}: {folder}/ may not include "
                                    f"{target}/")
                elif header not in visible(folder, target, public):
                    problems.append(f"{where}: not a header of {target}/ "
                                    f"that {folder}/ may include")
    for tests in TEST_DIRS:
        for path in sorted((root / tests).glob("*.[ch]")):
            for kind, name in includes(path):
                if kind == '"' and name.startswith("emulator/"):
                    problems.append(f"{path.relative_to(root)}: #include "
                                    f"\"{name}\": tests do not see the glue")
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
        services = set(table.get(f"LAYER_SERVICES_{folder}", []))
        assert services == SPEC_SERVICES.get(folder, set()), folder
        assert not services & SPEC_PUBLIC[folder], folder
        for header in services:
            assert (ROOT / folder / header).exists(), f"{folder}/{header}"
    assert table["LAYER_FRONT_END"] == [FRONT_END]


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
    for folder in ("flash", "ftl", "nvmcache", "dedup", "vwc", "device"):
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
    ("host-tools/ssdsim.c", "device/ssd_device_internal.h"),
    ("dedup/dedup.c", "flash/flash.h"),                    # dedup -> flash
    ("dedup/dedup.c", "nvmcache/nvmcache.h"),              # a layer sideways
    ("ftl/ftl.c", "nvmcache/nvmcache.h"),                  # a layer upwards
    ("flash/flash.c", "ftl/ftl.h"),
    ("common/ssd_config.c", "device/ssd_device.h"),
    ("abi/ssd_abi.h", "device/request_log.h"),             # a private header
    # Issue 31: the front end around its own interface.
    ("device/ssd_request.c", "flash/flash.h"),        # front end -> flash ops
    ("device/ssd_device.c", "dedup/dedup_sha1.h"),    # dedup's self-test
    ("vwc/vwc.c", "device/ssd_device_internal.h"),    # a layer in device/
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


def make_views(tmp_path: Path) -> Path:
    """The include views of the tree, as the build makes them."""
    views = tmp_path / "views"
    subprocess.run([str(ROOT / "scripts" / "include-views.sh"), str(ROOT),
                    str(views)], check=True)
    return views


def compiles(views: Path, folder: str,
             body: str) -> subprocess.CompletedProcess[str]:
    """@body compiled as a file of @folder/ against its view."""
    src = views.parent / "probe.c"
    src.write_text(body + "int probe;\n")
    return subprocess.run(["cc", "-std=gnu11", "-fsyntax-only",
                           f"-I{views / folder}", str(src)],
                          capture_output=True, text=True)


def test_the_views_make_a_wrong_include_a_compile_error(
        tmp_path: Path) -> None:
    """nvmcache/ sees common/'s public headers and nothing of the FTL."""
    views = make_views(tmp_path)
    good = compiles(views, "nvmcache",
                    '#include "nvmcache/nvmcache_internal.h"\n'
                    '#include "common/ssd_layer.h"\n')
    assert good.returncode == 0, good.stderr
    for header in ("ftl/ftl.h", "flash/flash.h", "ftl/ftl_internal.h",
                   "device/ssd_device.h", "dedup/dedup_internal.h"):
        bad = compiles(views, "nvmcache", f'#include "{header}"\n')
        assert bad.returncode != 0 and "No such file" in bad.stderr, header


def test_the_views_give_the_front_end_the_device_services(
        tmp_path: Path) -> None:
    """device/ sees the flash's device services and the layers' public
    headers, not the flash's physical operations nor a layer's workings;
    the FTL sees the whole flash."""
    views = make_views(tmp_path)
    good = compiles(views, "device",
                    '#include "device/ssd_device_internal.h"\n'
                    '#include "flash/flash_services.h"\n'
                    '#include "vwc/vwc.h"\n#include "ftl/ftl.h"\n')
    assert good.returncode == 0, good.stderr
    for header in ("flash/flash.h", "flash/flash_timing.h",
                   "ftl/ftl_internal.h", "dedup/dedup_sha1.h",
                   "vwc/vwc_internal.h"):
        bad = compiles(views, "device", f'#include "{header}"\n')
        assert bad.returncode != 0 and "No such file" in bad.stderr, header
    good = compiles(views, "ftl", '#include "flash/flash.h"\n'
                    '#include "flash/flash_services.h"\n')
    assert good.returncode == 0, good.stderr
