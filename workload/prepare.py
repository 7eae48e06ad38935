"""Host-side inputs of the ProCache paper's Algorithm 2, scaled for TCG.

Owns build/workload/inputs/<scale>/:
  linux/        a real subset of Debian's linux-source-6.1 tree (the
                directories a tinyconfig build of lib/ needs, and every
                Kconfig/Makefile), configured on the host (`make tinyconfig`
                and the generated headers), with no objects left in it
  compile.mk    a Makefile with one rule per object: the exact gcc command
                line kbuild used for that object on the host (from its .cmd
                file); the guest runs it with `make -j16`
  images/       two "DVD" images and one "CD" image: pseudo-random bytes
                (incompressible, all distinct), sized by the scale
  web/          web pages: HTML files that share a boilerplate header and
                footer (as pages of one site do) around a unique body
  cold-NMiB.bin the cold data set: pseudo-random bytes, written once before
                round 1 and kept through every round (Scale.cold_percent)
Everything is deterministic for a scale and rebuilt only when missing.
"""
from __future__ import annotations

import hashlib
import random
import re
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

import ssdsim
from ssdtools.paths import BUILD, CONFIGS
from ssdtools.procache_device import DEVICE_KEYS, PRESET

WORK = BUILD / "workload"
LINUX_TARBALL = Path("/usr/src/linux-source-6.1.tar.xz")
TOP = "linux-source-6.1"
# What `make tinyconfig` and compiling lib/ read, besides Kconfig files.
LINUX_DIRS = ("arch/x86", "include", "scripts", "lib", "kernel", "init",
              "mm", "usr", "certs", "tools/include", "tools/arch/x86",
              "tools/objtool", "tools/lib", "tools/build", "tools/scripts")
LINUX_NAMES = re.compile(r"(^|/)(Kconfig[^/]*|Makefile|Kbuild)$")


@dataclass(frozen=True)
class Scale:
    """How far Algorithm 2 is scaled down from the paper's."""
    name: str
    objects: int        # kernel objects compiled (the paper: a whole kernel)
    dvd_mib: int        # each of the two DVD images (the paper: 4.7 GB)
    cd_mib: int         # the CD image (the paper: 700 MB)
    image_copies: int   # copies of the three images (the paper: 4)
    pages: int          # web pages (the paper: 2,000, 130 MB)
    rounds: int         # repetitions of the whole algorithm (the paper: N)
    # The cold data set, in percent of the cached device's logical space:
    # one file written before round 1 and never removed, so the rounds'
    # peak occupancy is about the paper's (its rounds wrote 31.6 GB on a
    # 32 GB device; ours write ~40% of the device at tiny, ~57% at small).
    # The same bytes under every setting (the no-cache device's larger
    # logical space holds the same files).
    cold_percent: int


SCALES = {
    "tiny": Scale("tiny", objects=2, dvd_mib=4, cd_mib=1, image_copies=1,
                  pages=100, rounds=3, cold_percent=50),
    "small": Scale("small", objects=64, dvd_mib=48, cd_mib=8,
                   image_copies=4, pages=2000, rounds=3, cold_percent=30),
}


def run(cmd: list[str], cwd: Path) -> None:
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def extract_linux(dest: Path) -> None:
    """The subset of the kernel tree, as the tarball has it."""
    if not LINUX_TARBALL.exists():
        raise SystemExit(f"{LINUX_TARBALL} missing: run "
                         "scripts/install-deps.sh --workload")
    tmp = dest.with_name(dest.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with tarfile.open(LINUX_TARBALL, "r:xz") as tar:
        members = []
        for m in tar:
            rel = m.name[len(TOP) + 1:]
            if not rel or m.isdir():
                continue
            if ("/" not in rel or LINUX_NAMES.search(rel)
                    or any(rel.startswith(d + "/") for d in LINUX_DIRS)):
                m.name = rel
                members.append(m)
        tar.extractall(tmp, members=members)
    tmp.rename(dest)


def configure_linux(tree: Path, objects: int) -> list[str]:
    """tinyconfig + a host build of lib/ to learn kbuild's gcc commands;
    returns the rules of compile.mk and leaves no object behind."""
    run(["make", "-s", "tinyconfig"], tree)
    run(["make", "-s", "-j2", "lib/"], tree)
    rules: list[str] = []
    cmds = sorted((tree / "lib").glob(".*.o.cmd"))
    for cmd_file in cmds:
        line = cmd_file.read_text().splitlines()[0]
        m = re.match(r"(?:saved)?cmd_(lib/[\w-]+\.o) := (gcc .*)", line)
        if not m or " -c " not in m.group(2):
            continue
        obj, cmd = m.group(1), m.group(2).replace(str(tree) + "/", "")
        rules.append(f"{obj}:\n\t{cmd}\n")
        if len(rules) == objects:
            break
    # Leave the configured tree (generated headers) without outputs.
    for pattern in ("*.o", "*.a", ".*.cmd", ".*.d", "modules.order",
                    "*.mod", "*.lds"):
        for f in tree.rglob(pattern):
            if f.is_file():
                f.unlink()
    return rules


def write_compile_mk(path: Path, rules: list[str]) -> None:
    objs = " ".join(r.split(":", 1)[0] for r in rules)
    path.write_text("# Generated by workload/prepare.py: kbuild's own gcc "
                    "commands (tinyconfig, lib/).\n"
                    f"all: {objs}\n\n" + "\n".join(rules)
                    + f"\nclean:\n\trm -f {objs} lib/.*.o.d\n")


def compiled_objects(compile_mk: Path) -> int:
    """How many objects compile.mk builds (0 if there is none)."""
    if not compile_mk.exists():
        return 0
    for line in compile_mk.read_text().splitlines():
        if line.startswith("all:"):
            return len(line.split()) - 1
    return 0


def pseudo_random_file(path: Path, mib: int, seed: str) -> None:
    """mib MiB of SHA-256 counter-mode output: incompressible, unique."""
    with open(path, "wb") as out:
        block = bytearray()
        for i in range(mib * 1024 * 1024 // 32):
            block += hashlib.sha256(f"{seed}:{i}".encode()).digest()
            if len(block) >= 1 << 20:
                out.write(block)
                block = bytearray()
        out.write(block)


BOILERPLATE_HEAD = ("<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
                    "<link rel='stylesheet' href='/static/site.css'>"
                    "<script src='/static/analytics.js'></script>\n"
                    + "<!-- navigation -->\n" * 40 + "</head><body>\n")
BOILERPLATE_FOOT = ("<footer>" + "<a href='/about'>about</a> " * 60
                    + "</footer></body></html>\n")


def write_pages(dest: Path, pages: int) -> None:
    """Pages of one site: 4-10 KiB boilerplate, a unique 1-60 KiB body."""
    rng = random.Random(2017)
    words = [f"w{n}" for n in range(5000)]
    for n in range(pages):
        sub = dest / f"site{n % 20:02d}"
        sub.mkdir(parents=True, exist_ok=True)
        body_bytes = rng.randint(1024, 60 * 1024)
        body = []
        size = 0
        while size < body_bytes:
            w = rng.choice(words)
            body.append(w)
            size += len(w) + 1
        (sub / f"page{n:04d}.html").write_text(
            BOILERPLATE_HEAD + f"<h1>page {n}</h1>\n<p>" + " ".join(body)
            + "</p>\n" + BOILERPLATE_FOOT)


def logical_bytes(scale: str) -> int:
    """The logical space of the scale's cached device (ssdsim's, from the
    preset and the scale's device keys)."""
    WORK.mkdir(parents=True, exist_ok=True)
    empty = WORK / "empty.log"
    empty.write_text("")
    st = ssdsim.run(empty, config=CONFIGS / PRESET, keys=DEVICE_KEYS[scale],
                    format="ssdemu", binary=ssdsim.SSDSIM)
    return int(st["logical_capacity_bytes"])


def cold_mib(scale: Scale) -> int:
    """The cold data set's size: cold_percent of the cached device's
    logical space, in whole MiB."""
    return scale.cold_percent * logical_bytes(scale.name) // 100 // 2**20


def cold_file(scale: Scale) -> Path | None:
    """The cold data set's file under the scale's inputs (None without)."""
    if not scale.cold_percent:
        return None
    return WORK / "inputs" / scale.name / f"cold-{cold_mib(scale)}MiB.bin"


def prepare(scale: Scale) -> Path:
    """Build what is missing of the inputs of @scale; return their dir."""
    out = WORK / "inputs" / scale.name
    out.mkdir(parents=True, exist_ok=True)
    linux = out / "linux"
    if not (linux / "Makefile").exists():
        shutil.rmtree(linux, ignore_errors=True)
        (out / "compile.mk").unlink(missing_ok=True)
        print(f"workload: extracting a subset of {LINUX_TARBALL.name}",
              flush=True)
        extract_linux(linux)
    if compiled_objects(out / "compile.mk") != scale.objects:
        print("workload: host tinyconfig and build of lib/ (for kbuild's "
              "commands)", flush=True)
        rules = configure_linux(linux, scale.objects)
        if len(rules) < scale.objects:
            raise SystemExit(f"workload: lib/ has only {len(rules)} objects "
                             f"to compile, the scale wants {scale.objects}")
        write_compile_mk(out / "compile.mk", rules)
    images = out / "images"
    if not (images / ".done").exists():
        images.mkdir(exist_ok=True)
        for name, mib in (("dvd1.iso", scale.dvd_mib),
                          ("dvd2.iso", scale.dvd_mib),
                          ("cd.iso", scale.cd_mib)):
            pseudo_random_file(images / name, mib, name)
        (images / ".done").touch()
    web = out / "web"
    if not (web / ".done").exists():
        shutil.rmtree(web, ignore_errors=True)
        write_pages(web, scale.pages)
        (web / ".done").touch()
    cold = cold_file(scale)
    if cold is not None and not cold.exists():
        print(f"workload: the cold data set ({cold.name})", flush=True)
        tmp = cold.with_suffix(".tmp")
        pseudo_random_file(tmp, cold_mib(scale), "cold")
        tmp.rename(cold)
    return out
