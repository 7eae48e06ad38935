"""Installing ssdemu like other out-of-tree modules (install.mk, dkms.conf).

`dkms build` of the DKMS source tree (`make dkms-src`) for both Debian
kernels of build/kernel-versions, in a private DKMS tree under pytest's
tmp_path (scripts/dkms-build.sh: dkms --dkmstree/--sourcetree/
--installtree), so no root-owned state is touched and no root is needed
(dkms add and build only need the trees writable; install is left out).
Then `make install DESTDIR=...` for one kernel: the files it puts there,
and `make uninstall` removing them.  Loading the module is the VM tests'
job (they insmod the built .ko); nothing here loads one.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from ssdtools.paths import BUILD, ROOT

VERSION = (ROOT / "VERSION").read_text().strip()


def kernels() -> list[str]:
    path = BUILD / "kernel-versions"
    return path.read_text().split() if path.is_file() else []


def make(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "-s", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=1800, check=False)


def modinfo(ko: Path, field: str) -> str:
    return subprocess.run(["modinfo", "-F", field, str(ko)], text=True,
                          capture_output=True, check=True).stdout.strip()


def test_dkms_conf_takes_the_version_file() -> None:
    out = subprocess.run(
        ["bash", "-c", '. "$1"; echo "$PACKAGE_NAME $PACKAGE_VERSION"', "-",
         str(ROOT / "dkms.conf")], text=True, capture_output=True, check=True)
    assert out.stdout.split() == ["ssdemu", VERSION]


def test_dkms_builds_for_both_kernels(tmp_path: Path) -> None:
    kvers = kernels()
    assert len(kvers) == 2, "build/kernel-versions: run make deps"
    assert shutil.which("dkms"), "dkms is not installed: make deps"
    res = make("dkms-src")
    assert res.returncode == 0, res.stderr
    src = BUILD / "dkms" / "src" / f"ssdemu-{VERSION}"
    res = subprocess.run(["./scripts/dkms-build.sh", str(tmp_path), str(src),
                          *kvers], cwd=ROOT, text=True, capture_output=True,
                         timeout=3600, check=False)
    print(res.stdout[-3000:])
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr
    for kver in kvers:
        found = list((tmp_path / "tree" / "ssdemu" / VERSION / kver)
                     .rglob("ssdemu.ko*"))
        assert len(found) == 1, f"{kver}: {found}"
        ko = found[0]   # ssdemu.ko.xz where the kernel compresses modules
        assert modinfo(ko, "vermagic").split()[0] == kver
        assert modinfo(ko, "version") == VERSION
        assert "pre: sha1" in modinfo(ko, "softdep")
        assert f"ssdemu/{VERSION}, {kver}" in res.stdout
    # The build log of each kernel: warning-free, as `make module`.
    for log in (tmp_path / "tree" / "ssdemu" / VERSION).rglob("make.log"):
        text = log.read_text()
        assert "warning:" not in text, text[-3000:]


@pytest.mark.parametrize("prefix", ["/usr/local", "/usr"])
def test_install_to_destdir_and_uninstall(tmp_path: Path, prefix: str) -> None:
    kver = kernels()[0]
    dest = tmp_path / "root"
    where = [f"DESTDIR={dest}", f"PREFIX={prefix}", f"KVER={kver}"]
    res = make("install", *where)
    assert res.returncode == 0, res.stdout + res.stderr
    files = sorted(str(p.relative_to(dest)) for p in dest.rglob("*")
                   if p.is_file())
    print("\n".join(files))
    bindir = prefix.lstrip("/") + "/bin"
    assert files == sorted([f"lib/modules/{kver}/extra/ssdemu.ko",
                            f"{bindir}/ssdctl", f"{bindir}/ssdsim"])
    ko = dest / "lib" / "modules" / kver / "extra" / "ssdemu.ko"
    assert modinfo(ko, "vermagic").split()[0] == kver
    ssdctl = dest / bindir / "ssdctl"
    out = subprocess.run([str(ssdctl), "--version"], text=True,
                         capture_output=True, check=True).stdout
    assert out == f"ssdctl {VERSION}\n"
    res = make("uninstall", *where)
    assert res.returncode == 0, res.stdout + res.stderr
    assert not [p for p in dest.rglob("*") if p.is_file()]
