"""Code style: Linux kernel style for the C the module is built from,
PEP 8 for the Python.

checkpatch.pl comes from Debian's linux-source-6.1 (scripts/get-checkpatch.sh);
the few warnings that are the point of a file are allowed by name below.
Which folder may include which is test_layering.py's.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKPATCH = ROOT / "build" / "checkpatch" / "checkpatch.pl"
# The portable core, one folder per layer of the request path, and the
# cache algorithms the write cache runs.
CORE_DIRS = ("common", "device", "ftl", "flash", "nvmcache", "cachealg",
             "dedup", "vwc")
KERNEL_C = sorted(str(p.relative_to(ROOT)) for pattern in
                  ("emulator/*.[ch]", "include/*.h", "abi/*.h",
                   "platform/ssd_platform.h", "platform/ssd_sha1_kernel.c",
                   *(f"{d}/*.[ch]" for d in CORE_DIRS))
                  for p in ROOT.glob(pattern))

# (file, checkpatch type) pairs that are intended.
ALLOWED = {
    # One module source for several kernels: version checks in one header.
    ("emulator/ssdemu_compat.h", "LINUX_VERSION_CODE"),
    ("emulator/ssdemu_compat.h", "CONSTANT_COMPARISON"),
    ("emulator/ssdemu_compat.h", "NEW_TYPEDEFS"),
    # SSD_CONFIG_KEYS is an X-macro list: one key table, many expansions.
    ("common/ssd_config.h", "COMPLEX_MACRO"),
    ("common/ssd_config.h", "TRAILING_SEMICOLON"),
    ("emulator/ssdemu_configfs.c", "COMPLEX_MACRO"),
    ("emulator/ssdemu_configfs.c", "TRAILING_SEMICOLON"),
    # The table of counters (SSDEMU_STATS_COUNTERS, its groups) is an
    # X-macro list too, and so is the core's list made of it; the ABI
    # struct, the conversion and the NVMe vendor page expand it.
    ("include/ssdemu_ioctl.h", "COMPLEX_MACRO"),
    ("include/ssdemu_ioctl.h", "TRAILING_SEMICOLON"),
    ("common/ssd_stats.h", "COMPLEX_MACRO"),
    ("common/ssd_stats.h", "TRAILING_SEMICOLON"),
    ("abi/ssd_abi.h", "TRAILING_SEMICOLON"),
    ("abi/ssd_abi.h", "MULTISTATEMENT_MACRO_USE_DO_WHILE"),
    ("emulator/ssdemu_nvme.c", "COMPLEX_MACRO"),
    # CHECK() returns the first violation found, with its message.
    ("ftl/ftl_check.c", "MACRO_WITH_FLOW_CONTROL"),
    ("ftl/ftl_logblock_check.c", "MACRO_WITH_FLOW_CONTROL"),
    ("dedup/dedup_check.c", "MACRO_WITH_FLOW_CONTROL"),
    ("ftl/ftl_dftl_state.c", "MACRO_WITH_FLOW_CONTROL"),
    # The userspace half of the platform header has no kernel __printf().
    ("platform/ssd_platform.h", "PREFER_DEFINED_ATTRIBUTE_MACRO"),
}


def test_kernel_c_is_in_kernel_style() -> None:
    subprocess.run([str(ROOT / "scripts" / "get-checkpatch.sh")], cwd=ROOT,
                   check=True)
    proc = subprocess.run(
        ["perl", str(CHECKPATCH), "--no-tree", "--terse", "--show-types",
         "--max-line-length=100", "-f", *KERNEL_C],
        cwd=ROOT, capture_output=True, text=True)
    problems = []
    for line in proc.stdout.splitlines():
        parts = line.split(":")
        if len(parts) < 4 or line.startswith("total:"):
            continue
        kind = parts[3].strip().split(" ")[0]
        if (parts[0], kind) not in ALLOWED:
            problems.append(line)
    assert len(KERNEL_C) > 20
    assert not problems, "\n".join(problems)


def test_python_is_pep8() -> None:
    proc = subprocess.run(["/usr/bin/python3", "-m", "flake8", "tests",
                           "bench", "workload", "ssdtools", "ssdsim"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
