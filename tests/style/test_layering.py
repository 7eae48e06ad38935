"""The folder contracts: which folder may include which, which headers of
a folder the others may include, and what of another folder a folder may
use.

SPEC below is the contract (docs/architecture.md draws it).  The build
enforces the same table, read from layers.mk: each folder compiles against
a view of the tree that holds only what it may include
(scripts/include-views.sh), so a wrong-way include does not compile.  These
tests hold layers.mk to SPEC, check every include of the tree against it,
check every use of another folder's functions, variables, macros and types
against the headers that declare them, hold the front end to the layer
interface and the flash's device services, show that each arrow and call
a review once found would be caught if it came back, and that the views
turn a wrong include into a compile error.
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
    # The cache algorithms, written once for the write cache and cachesim.
    "cachealg": {"common", "platform"},
    "nvmcache": {"cachealg", "common", "platform"},
    "dedup": {"common", "platform"},
    "vwc": {"common", "platform"},
    "device": {"vwc", "dedup", "nvmcache", "ftl", "flash", "common",
               "platform"},
    "abi": {"device", "include", "common", "platform"},
    "emulator": {"abi", "device", "include", "common", "platform"},
    # The core's userspace glue (the flat-buffer data iterator).
    "user": {"device", "common", "platform"},
    # The tools, a folder a unit: the trace readers and the reports see
    # no core; ssdsim is the one tool built on the core; ssdctl talks to
    # the kernel through the ABI; cachesim and tracegen are host-side,
    # cachesim running the core's cache algorithms (their header includes
    # the platform's).  Their messages go through tools/msg (stderr, or
    # libssdsim's caller).
    "tools/msg": set(),
    "tools/trace": {"tools/msg", "include"},
    "tools/report": {"tools/msg", "include"},
    "tools/ssdsim": {"tools/msg", "tools/trace", "tools/report", "user",
                     "abi", "device", "include", "common", "platform"},
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
               "ssd_slot_list.h", "ssd_snap.h", "ssd_stats.h"},
    "flash": {"flash.h"},
    "ftl": {"ftl.h"},
    "cachealg": {"cachealg.h"},
    "nvmcache": {"nvmcache.h"},
    "dedup": {"dedup.h"},
    "vwc": {"vwc.h"},
    "device": {"ssd_device.h"},
    "abi": {"ssd_abi.h"},
    "emulator": set(),
    "user": {"flat_iter.h"},
    "tools/msg": {"msg.h"},
    "tools/trace": {"trace_reader.h", "trace_disks.h", "trace_input.h",
                    "hex_digit.h"},
    "tools/report": {"stats_print.h", "stats_fields.h", "stats_derived.h",
                     "stats_faults.h",
                     "log_format.h", "conf_file.h"},
    "tools/ssdsim": {"ssdsim_api.h"},
    "tools/ssdctl": set(),
    "tools/cachesim": set(),
    "tools/tracegen": set(),
    "bench": set(),
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

# The layers of the request path: the front end reaches each through the
# layer interface (common/ssd_layer.h) alone, so of its folder it uses
# nothing but its layer type, which the stack table lists.
LAYERS = ("vwc", "dedup", "nvmcache", "ftl")


def layer_type(folder: str) -> str:
    """The one symbol of a layer's folder the front end may use."""
    return f"ssd_{folder}_layer_type"


def visible(folder: str, target: str,
            public: dict[str, set[str]] = SPEC_PUBLIC) -> set[str]:
    """The headers of target/ that folder/ may include."""
    services = SPEC_SERVICES.get(target, set())
    if folder == FRONT_END and services:
        return set(services)
    return public[target] | services


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
    for folder in ("flash", "ftl", "cachealg", "nvmcache", "dedup", "vwc",
                   "device"):
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
    # Issue 31: the front end around its own interface.
    ("device/ssd_request.c", "flash/flash.h"),        # front end -> flash ops
    ("device/ssd_device.c", "dedup/dedup_sha1.h"),    # dedup's self-test
    ("vwc/vwc.c", "device/ssd_device_internal.h"),    # a layer in device/
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


# What a folder uses of another: a function, variable, macro or enum
# constant that the other folder declares.  (A struct's tag may be named
# anywhere: without its definition it is only a pointer's type.)
# Comments, strings and character constants are not code.
NOT_CODE_RE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"'
                         r"|'(?:\\.|[^'\\\n])*'", re.S)
# A top-level declaration or definition: a line at column 0 naming a
# function (name followed by "(") or a variable (name followed by "=",
# ";" or "["); "static" says whether it is the file's own.
DECL_RE = re.compile(r"^(?!#|typedef\b|(?:struct|enum|union)\s+\w+\s*[;{])"
                     r"(static\s)?[A-Za-z_][\w \t*]*?\b([A-Za-z_]\w*)\s*"
                     r"(?:\(|=|;|\[)", re.M)
DEFINE_RE = re.compile(r"^\s*#\s*define\s+(\w+)", re.M)
ENUM_RE = re.compile(r"^enum\s+\w*\s*\{(.*?)\}", re.M | re.S)
# A name, not a field (after "." or "->") nor a tag (after struct, enum,
# union).
USE_RE = re.compile(r"(?:\.|->|\bstruct\s|\benum\s|\bunion\s)\s*\w+"
                    r"|\b([A-Za-z_]\w*)")
LAYER_TYPE_DEF_RE = re.compile(r"\bstruct\s+ssd_layer_type\s+(\w+)\s*=")
FLASH_FIELD_RE = re.compile(r"\bflash\s*(?:\.|->)\s*(\w+)")


def code(path: Path) -> str:
    """The C of @path without comments, strings and character constants."""
    return NOT_CODE_RE.sub(" ", path.read_text())


def declared(path: Path, own: bool) -> set[str]:
    """The names @path declares: for other folders (@own False) what a
    header declares and what a .c file defines but static; for its own
    folder all of them."""
    text = code(path)
    header = path.suffix == ".h"
    # A program's main() is no name another folder may use.
    names = {m.group(2) for m in DECL_RE.finditer(text)
             if (own or header or not m.group(1)) and m.group(2) != "main"}
    if header or own:
        names |= set(DEFINE_RE.findall(text))
        for body in ENUM_RE.findall(text):
            names |= set(re.findall(r"^\s*([A-Za-z_]\w*)", body, re.M))
    return names


def folder_names(root: Path, folder: str, own: bool = False,
                 headers: set[str] | None = None) -> set[str]:
    """The names of @folder (only those @headers declare, if given)."""
    names: set[str] = set()
    for path in sorted((root / folder).glob("*.[ch]")):
        if headers is None or path.name in headers:
            names |= declared(path, own)
    return names


def uses(path: Path) -> set[str]:
    """The names @path uses (not fields, not tags)."""
    return {m.group(1) for m in USE_RE.finditer(code(path)) if m.group(1)}


def reach_violations(root: Path, deps: dict[str, set[str]] = SPEC_DEPS,
                     public: dict[str, set[str]] = SPEC_PUBLIC) -> list[str]:
    """Every use of another folder's name that no header the folder may
    include declares; every use by the front end of a layer's folder but
    its layer type; every field of the flash it reads and every layer
    type it defines (a layer lives in its own folder)."""
    reached = [f for f in deps if any(f != g and f in deps[g] for g in deps)]
    names = {f: folder_names(root, f) for f in reached}
    problems = []
    for folder in deps:
        own = folder_names(root, folder, own=True)
        seen = {g: folder_names(root, g, headers=visible(folder, g, public))
                for g in reached if g in deps[folder]}
        for path in sorted((root / folder).glob("*.[ch]")):
            rel = path.relative_to(root)
            for name in sorted(uses(path) - own):
                for g in reached:
                    if g == folder or name not in names[g]:
                        continue
                    where = f"{rel}: uses {name} of {g}/"
                    if g not in deps[folder]:
                        problems.append(f"{where}: {folder}/ may not "
                                        f"include {g}/")
                    elif name not in seen[g]:
                        problems.append(f"{where}: no header of {g}/ that "
                                        f"{folder}/ may include declares it")
                    elif folder == FRONT_END and g in LAYERS and \
                            name != layer_type(g):
                        problems.append(f"{where}: the front end reaches a "
                                        "layer through the layer interface "
                                        f"alone ({layer_type(g)})")
            if folder != FRONT_END:
                continue
            text = code(path)
            for field in FLASH_FIELD_RE.findall(text):
                problems.append(f"{rel}: reads flash.{field}: the front end "
                                "reaches the flash through its device "
                                "services alone")
            for name in LAYER_TYPE_DEF_RE.findall(text):
                problems.append(f"{rel}: defines {name}: a layer lives in "
                                "its own folder")
    return problems


def test_every_use_keeps_the_contract() -> None:
    problems = reach_violations(ROOT)
    assert not problems, "\n".join(problems)


def test_the_front_end_uses_what_it_should() -> None:
    """The check sees the uses it is about: the front end builds the stack
    from the layer types and calls the flash's device services."""
    names: set[str] = set()
    for path in (ROOT / FRONT_END).glob("*.c"):
        names |= uses(path)
    assert {layer_type(g) for g in LAYERS} <= names
    assert {"ssd_flash_init", "ssd_flash_set_horizon",
            "ssd_flash_count_refused", "flash_read_only"} <= names
    flash = folder_names(ROOT, "flash")
    assert {"ssd_flash_program", "ssd_flash_set_horizon"} <= flash
    assert "ssd_flash_program" not in folder_names(
        ROOT, "flash", headers=visible(FRONT_END, "flash"))


# The calls a review of the tree found going around the front end's own
# interface (issue 31), each as the code it was: (file, code put back at
# its end, (header, declaration) put back if the callee is gone, what the
# check must name).
OLD_CALLS = [
    # The flash's state read from its struct, not through its services.
    ("device/ssd_device.c",
     "u64 probe(struct ssd_device *dev) { return dev->flash.total_pages; }",
     None, "reads flash.total_pages"),
    ("device/ssd_bad_blocks.c",
     "u32 probe(struct ssd_device *dev) { return dev->flash.total_blocks; }",
     None, "reads flash.total_blocks"),
    # A physical operation of the flash from the front end.
    ("device/ssd_request.c",
     "int probe(struct ssd_device *dev) { return ssd_flash_program("
     "&dev->flash, 0, NULL, SSD_CAUSE_HOST, 0, NULL); }",
     None, "uses ssd_flash_program of flash/"),
    # Bad blocks handed to the FTL at the bottom, not down the stack.
    ("device/ssd_bad_blocks.c",
     "int probe(struct ssd_layer *bottom, const u32 *blocks, u32 nr) "
     "{ return ssd_ftl_layer_mark_bad_blocks(bottom, blocks, nr); }",
     ("ftl/ftl.h", "int ssd_ftl_layer_mark_bad_blocks(struct ssd_layer "
      "*layer, const u32 *blocks, u32 nr);"),
     "uses ssd_ftl_layer_mark_bad_blocks of ftl/"),
    # Dedup's self-test called by name.
    ("device/ssd_device.c",
     "int probe(void) { return ssd_dedup_sha1_self_test(); }",
     ("dedup/dedup.h", "int ssd_dedup_sha1_self_test(void);"),
     "uses ssd_dedup_sha1_self_test of dedup/"),
    # The volatile write cache's layer in the front end's folder.
    ("device/ssd_wbuf.c",
     "const struct ssd_layer_type ssd_wbuf_layer_type = { .name = \"wbuf\" };",
     None, "defines ssd_wbuf_layer_type"),
]


@pytest.mark.parametrize("path,body,decl,named", OLD_CALLS,
                         ids=[f"{p}:{n}" for p, _, _, n in OLD_CALLS])
def test_an_old_call_put_back_is_caught(tmp_path: Path, path: str, body: str,
                                        decl: tuple[str, str] | None,
                                        named: str) -> None:
    for folder in SPEC_DEPS:
        shutil.copytree(ROOT / folder, tmp_path / folder)
    target = tmp_path / path
    text = target.read_text() if target.exists() else \
        '#include "device/ssd_device_internal.h"\n'
    target.write_text(text + "\n" + body + "\n")
    if decl:
        header = tmp_path / decl[0]
        text = header.read_text()
        endif = text.rindex("#endif")
        header.write_text(text[:endif] + decl[1] + "\n\n" + text[endif:])
    problems = reach_violations(tmp_path)
    assert any(p.startswith(f"{path}: {named}") for p in problems), problems


# A declaration needs no header: a folder could name a symbol of a folder
# it may not include with an extern or a prototype of its own, and the
# views would not see it (common/ssd_config.h once declared the registries
# of ftl/, nvmcache/ and flash/ so).  So no folder names a global symbol
# defined in a folder it may not include (the check above takes a
# folder's own declarations as its own; this one takes definitions only).

# At the start of a line: a function's definition, or a variable's.
FUNC_DEF_RE = re.compile(r"^(static\s+)?(?:inline\s+)?[A-Za-z_][\w \t*]*?"
                         r"\b(\w+)\s*\([^;{}]*\)\s*\{", re.M)
VAR_DEF_RE = re.compile(r"^(static\s+)?(?:const\s+)?"
                        r"(?:struct\s+\w+|[A-Za-z_]\w*)[\s*]+(?:const\s+)?"
                        r"(\w+)\s*(?:\[[^\]]*\]\s*)*=", re.M)


def symbol_folders(root: Path) -> tuple[dict[str, str], dict[str, set[str]]]:
    """The folder that defines each global symbol of the tree at @root,
    and every name (static ones too) each folder defines."""
    owner: dict[str, str] = {}
    defined: dict[str, set[str]] = {folder: set() for folder in SPEC_DEPS}
    for folder in SPEC_DEPS:
        for path in sorted((root / folder).glob("*.c")):
            text = code(path)
            defs = [*FUNC_DEF_RE.finditer(text), *VAR_DEF_RE.finditer(text)]
            for m in defs:
                defined[folder].add(m.group(2))
                # Each program's main() is its own, never another's
                # symbol; __attribute__ and the like are the compiler's.
                if not m.group(1) and m.group(2) != "main" and \
                        not m.group(2).startswith("__"):
                    owner[m.group(2)] = folder
    return owner, defined


def foreign_symbols(root: Path) -> list[str]:
    """Each place a folder names a symbol of a folder it may not include."""
    owner, defined = symbol_folders(root)
    problems = []
    for folder in SPEC_DEPS:
        for path in sorted((root / folder).glob("*.[ch]")):
            names = uses(path)
            for name in sorted(names - defined[folder]):
                home = owner.get(name)
                if home and home != folder and home not in SPEC_DEPS[folder]:
                    problems.append(f"{path.relative_to(root)}: names {name} "
                                    f"of {home}/")
    return problems


def test_no_folder_names_a_symbol_it_may_not_see() -> None:
    owner, _ = symbol_folders(ROOT)
    # The scan finds what it must: a registry, a layer type, a function.
    assert owner["ssd_key_gc_policy"] == "ftl"
    assert owner["ssd_nvmcache_layer_type"] == "nvmcache"
    assert owner["ssd_config_find"] == "device"
    problems = foreign_symbols(ROOT)
    assert not problems, "\n".join(problems)


# Declarations put back where a review would not want them, each naming a
# symbol of a folder the file's may not include.
FOREIGN_DECLS = [
    ("common/ssd_config.h",
     "extern const struct ssd_config_key ssd_key_gc_policy;", "ftl"),
    ("common/ssd_config.h",
     "extern const struct ssd_config_key ssd_key_cache_replacement;",
     "nvmcache"),
    ("common/ssd_config.c",
     "const struct ssd_config_key *ssd_config_find(const char *name);",
     "device"),
    ("nvmcache/nvmcache_layer.c",
     "extern const struct ssd_layer_type ssd_ftl_layer_type;", "ftl"),
]


@pytest.mark.parametrize("path,decl,home", FOREIGN_DECLS,
                         ids=[f"{p}:{d.split()[-1]}" for p, d, _ in
                              FOREIGN_DECLS])
def test_a_foreign_declaration_is_caught(tmp_path: Path, path: str,
                                         decl: str, home: str) -> None:
    for folder in SPEC_DEPS:
        shutil.copytree(ROOT / folder, tmp_path / folder)
    target = tmp_path / path
    text = target.read_text()
    first = INCLUDE_RE.search(text)
    assert first
    end = text.index("\n", first.end()) + 1
    target.write_text(text[:end] + decl + "\n" + text[end:])
    name = re.findall(r"(\w+)\s*[;(]", decl)[0]
    assert f"{path}: names {name} of {home}/" in foreign_symbols(tmp_path)
