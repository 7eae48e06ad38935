"""Where the repository keeps what the tools read and write.

Owns the paths every tool shares: the repository's root, the build tree
(binaries, kernels, VM images), the device presets, the sample traces and
the guest-side shell library the VM scripts source as /lib.sh.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
CONFIGS = ROOT / "configs"
TRACES = ROOT / "tests" / "data"
# Sourced as /lib.sh by the guest scripts of the tests, bench and workload.
GUEST_LIB = ROOT / "tests" / "vm" / "guest" / "lib.sh"
