"""libCacheSim's Python bindings (PyPI libcachesim), the reference the
cache tests compare hit counts with.  scripts/install-deps.sh installs the
pinned version into build/pydeps, which pytest.ini puts on the path; a
missing or different version fails the test that needs it (never a skip).
"""
from __future__ import annotations

from types import ModuleType

import pytest

LIBCACHESIM_VERSION = "0.3.5"


def libcachesim() -> ModuleType:
    """The imported libcachesim, or a failure saying how to install it."""
    try:
        import libcachesim as lcs
    except ImportError as exc:
        pytest.fail(f"libcachesim is missing ({exc}): run "
                    "scripts/install-deps.sh", pytrace=False)
    assert lcs.__version__ == LIBCACHESIM_VERSION, (
        f"libcachesim {lcs.__version__}, the tests hold "
        f"{LIBCACHESIM_VERSION}: run scripts/install-deps.sh")
    return lcs
