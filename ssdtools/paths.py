"""Where the repository keeps what the tools read and write.

Owns the paths every tool shares: the repository's root and the build
tree (binaries, kernels, VM images: the binding's, ssdsim/paths.py), the
device presets, the sample traces and the guest-side shell library the
VM scripts source as /lib.sh.
"""
from __future__ import annotations

from ssdsim.paths import BUILD, ROOT

__all__ = ["BUILD", "CONFIGS", "GUEST_LIB", "ROOT", "TRACES"]

CONFIGS = ROOT / "configs"
TRACES = ROOT / "tests" / "data"
# Sourced as /lib.sh by the guest scripts of the tests, bench and workload.
GUEST_LIB = ROOT / "tests" / "vm" / "guest" / "lib.sh"
